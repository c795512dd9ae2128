"""gendyn.task_data: two-task data (§4, App. F), randomised outputs (§3.6), P != N1 inputs (App. G)."""

import numpy as np
import pytest
import torch

from gendyn import task_data, train


def gen(seed=0):
    return torch.Generator().manual_seed(seed)


def test_task_pairs_have_the_requested_modes_and_overlap():
    q = np.array([[[0.5, 0.2], [0.0, 0.7]], [[0.0, 0.0], [0.0, 0.0]]])
    tp = task_data.task_pairs([[3.0, 1.0], [2.0, 2.0]], [[4.0, 0.5], [1.0, 1.0]], q, task_data.PairSpec(30, 10, 3),
                              rng=gen())
    assert tp.sigma31.shape == (6, 20, 30) and tp.teacher.shape == (6, 20, 30)
    for g in range(2):
        for r in range(3):
            w = tp.teacher[g * 3 + r].numpy()
            ua, sa, vat = np.linalg.svd(w[:10])
            ub, sb, vbt = np.linalg.svd(w[10:])
            assert np.allclose(sa[:2], [[3.0, 1.0], [2.0, 2.0]][g]) and np.allclose(sb[:2], [[4.0, 0.5], [1.0, 1.0]][g])
            # Vbar^A^T Vbar^B = Q (up to the signs of the SVD's vectors, fixed by Ubar)
            va = w[:10].T @ ua[:, :2] / sa[:2]
            vb = w[10:].T @ ub[:, :2] / sb[:2]
            if g == 1:  # equal singular values: the basis within the pair is arbitrary; check the projector
                assert np.allclose(va.T @ vb, 0, atol=1e-12)
            else:
                assert np.allclose(np.abs(va.T @ vb), np.abs(q[g]), atol=1e-10)
    noise = (tp.sigma31 - tp.teacher).numpy()
    assert abs(noise.var() * 30 - 1.0) < 0.1
    # common random numbers: the noise of a run is the same at every setting
    assert torch.allclose(tp.sigma31[0] - tp.teacher[0], tp.sigma31[3] - tp.teacher[3], atol=1e-12)


def test_output_vector_choices_share_inputs_and_noise():
    out = {}
    for mode in task_data.OUTPUT_VECTORS:
        out[mode] = task_data.task_pairs([3.0], [2.0], [0.4], task_data.PairSpec(20, 6, 2), output_vectors=mode,
                                         rng=gen(5))
    ind, ident, axis = (out[m] for m in ("independent", "identical", "axis"))
    assert torch.allclose(ind.sigma31 - ind.teacher, axis.sigma31 - axis.teacher, atol=1e-12)  # same noise
    w = ident.teacher[0].numpy()
    ua = np.linalg.svd(w[:6])[0][:, 0]
    ub = np.linalg.svd(w[6:])[0][:, 0]
    assert np.isclose(abs(ua @ ub), 1.0)
    wa = axis.teacher[0].numpy()
    assert np.allclose(wa[1:6], 0) and np.allclose(wa[7:], 0)
    with pytest.raises(ValueError, match="output_vectors must be one of"):
        task_data.task_pairs([3.0], [2.0], [0.4], task_data.PairSpec(20, 6, 1), output_vectors="random")


def test_leaky_relu_teachers():
    tp = task_data.leaky_relu_task_pairs([2.0, 5.0], [1.0, 1.0], [1.0, 0.0], task_data.PairSpec(40, 12, 2),
                                         rng=gen(1))
    assert tp.teacher.shape == (4, 24, 40)
    y = tp.teacher.numpy()
    ratio = y[y < 0].sum() / y[y > 0].sum()
    assert -0.4 < ratio < -0.05  # the leaky output shrinks the negative outputs by its slope 0.2
    noise = (tp.sigma31 - tp.teacher).numpy()
    assert abs(noise.var() * 40 - 1.0) < 0.15
    # with slope 1 the teacher is the linear map U S V^T with S = svm (4, 3, 2, 1)/4 and V^A.V^B = q I
    lin = task_data.leaky_relu_task_pairs([2.0], [1.0], [0.3], task_data.PairSpec(40, 12, 1),
                                          teachers=task_data.LeakyTeachers(slope=1.0), rng=gen(2))
    w = lin.teacher[0].numpy()
    assert np.allclose(np.linalg.svd(w[:12], compute_uv=False)[:4], 2.0 * np.array([4, 3, 2, 1]) / 4)
    va = np.linalg.svd(w[:12])[2][:4].T
    vb = np.linalg.svd(w[12:])[2][:4].T
    assert np.allclose(np.abs(va.T @ vb), 0.3 * np.eye(4), atol=1e-10)


def test_randomised_outputs_keep_the_variance_and_lose_the_structure():
    s31 = torch.zeros(2, 50, 100, dtype=torch.float64)
    s31[:, 0, 0] = 10.0
    s31 += torch.randn(s31.shape, generator=gen(), dtype=torch.float64) / 10
    r = task_data.randomised_outputs(s31, rng=gen(2))
    assert torch.allclose(r.square().sum((-2, -1)), s31.square().sum((-2, -1)), rtol=0.05)
    assert torch.linalg.svdvals(r)[:, 0].max() < 4.0  # the edge sigma_r (1 + sqrt(A)) ~ 3: no outlier at 10


def test_sampled_inputs_are_as_white_as_possible():
    for p in (30, 60, 120):
        x = task_data.sampled_inputs(60, p, 2, "orthogonal", rng=gen())[0].numpy()
        s11 = x @ x.T
        if p >= 60:
            assert np.allclose(s11, p / 60 * np.eye(60), atol=1e-10)
        else:
            assert np.allclose(s11 @ s11, s11, atol=1e-10) and np.isclose(np.trace(s11), p)
    g = task_data.sampled_inputs(60, 500, 1, "gaussian", rng=gen())[0].numpy()
    assert abs((g**2).sum(0).mean() - 1) < 0.05
    with pytest.raises(ValueError, match="kind must be one of"):
        task_data.sampled_inputs(10, 5, 1, "uniform")


def test_padding_examples_changes_nothing_and_converged_map_is_where_gd_ends():
    w = torch.randn(1, 8, 12, generator=gen(), dtype=torch.float64)
    small = task_data.sampled_task(w, 6, rng=gen(1))
    big = task_data.sampled_task(w, 20, rng=gen(2))
    x, y = task_data.stack_examples([small, big])
    assert x.shape == (2, 12, 20)
    kw = dict(hidden=8, lr=5e-2, epochs=4000, eps=1e-3, dtype=torch.float64, record_at=np.array([0, 4000]))
    alone = train.train_students(small, **train.train_specs(**kw))
    both = train.train_students((x, y), **train.train_specs(**kw))
    assert np.allclose(alone.train_error[0], both.train_error[0], rtol=1e-10)
    w0 = train.composite_map(train.init_weights(small[1] @ small[0].mT, 8, 3, "aligned", 1e-3, dtype=torch.float64))
    w_inf = task_data.converged_map(*small, w0)
    assert torch.allclose(train.composite_map(alone.weights), w_inf, atol=1e-6)


def test_leaky_relu_branches_are_the_authors_sum_of_rank_one_networks():
    """branches=True: with slope 1 each task is a sum of rank-one maps, of rank `rank`; at q = 1
    the two tasks share every branch's input direction, at q = 0 they do not."""
    tp = task_data.leaky_relu_task_pairs([2.0, 2.0], [3.0, 3.0], [1.0, 0.0], task_data.PairSpec(40, 12, 1),
                                         teachers=task_data.LeakyTeachers(slope=1.0, branches=True), rng=gen(3))
    clean = tp.teacher.numpy()
    for g, shared in ((0, True), (1, False)):
        head_a, head_b = clean[g, :12], clean[g, 12:]
        assert np.linalg.matrix_rank(head_a, tol=1e-10) == 4
        basis = np.linalg.svd(head_a)[2][:4]  # input directions of task A
        residual = np.linalg.norm(head_b - head_b @ basis.T @ basis) / np.linalg.norm(head_b)
        assert (residual < 1e-12) if shared else (residual > 0.5)


GOLDEN_TEACHER_SUM, GOLDEN_ENTRY = 17.835182257238003, 0.002935326309976557


def test_leaky_relu_task_pairs_default_draws_are_unchanged():
    """Golden values (recorded before the branches option existed): the default construction's
    random draws, and so every chapter that uses it, are unchanged."""
    tp = task_data.leaky_relu_task_pairs([2.0], [1.0], [0.3], task_data.PairSpec(40, 12, 1), rng=gen(4))
    assert float(tp.teacher.sum()) == pytest.approx(GOLDEN_TEACHER_SUM, rel=1e-12)
    assert float(tp.sigma31[0, 3, 5]) == pytest.approx(GOLDEN_ENTRY, rel=1e-12)


def test_task_a_only_zeroes_head_b_of_copies_of_the_chosen_data_sets():
    tp = task_data.task_pairs([3.0, 3.0], [2.0, 1.0], [0.5, 0.0], task_data.PairSpec(8, 3, 2), rng=gen(6))
    data, teacher = task_data.task_a_only(tp, [1, 3])
    assert data.shape == teacher.shape == (2, 6, 8)
    np.testing.assert_array_equal(data[:, :3].numpy(), tp.sigma31[[1, 3], :3].numpy())
    np.testing.assert_array_equal(teacher[:, :3].numpy(), tp.teacher[[1, 3], :3].numpy())
    assert not data[:, 3:].any() and not teacher[:, 3:].any()
    assert tp.sigma31[:, 3:].abs().min() > 0  # copies: the two-task data keeps its head B
    np.testing.assert_array_equal(task_data.task_a_only(tp, range(2))[0].numpy(),
                                  task_data.task_a_only(tp, [0, 1])[0].numpy())
    with pytest.raises(ValueError, match="rows"):
        task_data.task_a_only(tp, [4])


def test_task_a_rows_take_each_sbar_a_from_its_first_grid_point():
    # a grid (sbar_A, sbar_B, q) with sbar_A-major order, 3 runs per point
    points = np.array([[1.0, 2.0, 0.0], [1.0, 2.0, 1.0], [4.0, 2.0, 0.0], [4.0, 2.0, 1.0]])
    assert task_data.task_a_rows(points, [1.0, 4.0], 3) == [0, 1, 2, 6, 7, 8]
    assert task_data.task_a_rows(points, [4.0], 2) == [4, 5]
    with pytest.raises(ValueError, match="sbar_a"):
        task_data.task_a_rows(points, [2.0], 3)
    with pytest.raises(ValueError, match="points"):
        task_data.task_a_rows(points[:, :2], [1.0], 3)


def test_a_pair_spec_with_former_flat_sizes_is_refused_and_former_teacher_keywords_warn():
    gen = torch.Generator().manual_seed(0)
    with pytest.raises(ValueError, match="not both"):
        task_data.task_pairs([1.0], [1.0], [0.5], task_data.PairSpec(8, 2, 1), noise_std=0.5, rng=gen)
    with pytest.raises(ValueError, match="not both"):
        task_data.task_pairs([1.0], [1.0], [0.5], task_data.PairSpec(8, 2, 1), 3, rng=gen)
    new = task_data.leaky_relu_task_pairs([1.0], [1.0], [0.5], task_data.PairSpec(8, 2, 1),
                                          teachers=task_data.LeakyTeachers(rank=2),
                                          rng=torch.Generator().manual_seed(0))
    with pytest.warns(DeprecationWarning, match="LeakyTeachers"):
        old = task_data.leaky_relu_task_pairs([1.0], [1.0], [0.5], task_data.PairSpec(8, 2, 1), rank=2,
                                              rng=torch.Generator().manual_seed(0))
    assert torch.equal(old.sigma31, new.sigma31)


_RNG_CALLS = {  # one call of every drawing function of task_data, by its rng keyword
    "task_pairs": lambda **r: task_data.task_pairs([3.0], [2.0], [0.4], task_data.PairSpec(8, 3, 2), **r).sigma31,
    "leaky_relu_task_pairs": lambda **r: task_data.leaky_relu_task_pairs([2.0], [1.0], [0.3],
                                                                         task_data.PairSpec(8, 4, 1), **r).sigma31,
    "randomised_outputs": lambda **r: task_data.randomised_outputs(torch.ones(2, 3, 4, dtype=torch.float64), **r),
    "sampled_inputs": lambda **r: task_data.sampled_inputs(6, 4, 2, **r),
    "sampled_task": lambda **r: task_data.sampled_task(torch.ones(2, 3, 4, dtype=torch.float64), 5, **r)[1],
}


@pytest.mark.parametrize("name", sorted(_RNG_CALLS))
def test_rng_seeds_as_the_former_generator_and_generator_is_deprecated(name):
    call = _RNG_CALLS[name]
    new = call(rng=3)  # an integer rng draws as torch.Generator().manual_seed(rng)
    assert torch.equal(new, call(rng=torch.Generator().manual_seed(3)))
    with pytest.warns(DeprecationWarning, match=rf"task_data.{name}\(generator=...\) is deprecated"):
        old = call(generator=torch.Generator().manual_seed(3))
    assert torch.equal(old, new)
    assert not torch.equal(call(rng=None), call(rng=None))  # None: fresh entropy
    with pytest.raises(ValueError, match="one random-number argument, rng"):
        call(rng=3, generator=torch.Generator())
    for bad in (-1, 1.5, "x"):
        with pytest.raises(ValueError, match=r"\brng must be"):
            call(rng=bad)


def test_old_flat_task_pairs_takes_the_former_generator_too():
    new = task_data.task_pairs([3.0], [2.0], [0.4], task_data.PairSpec(8, 3, 2, noise_std=0.5), rng=4)
    with pytest.warns(DeprecationWarning):
        old = task_data.task_pairs([3.0], [2.0], [0.4], 8, 3, 2, noise_std=0.5, generator=torch.Generator().manual_seed(4))
    assert torch.equal(old.sigma31, new.sigma31)
