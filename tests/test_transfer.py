"""gendyn.transfer: composite modes (App. D), head-A error vs sampled TA students, T^{A<-B}."""

import numpy as np
import pytest
import torch

from gendyn import deep_linear as dl
from gendyn import task_data, transfer


def composite_teacher(sa, sb, q, n1, n3, seed=0):
    """``Wbar^{A+B}`` of eq. (24) with Haar vectors and ``Vbar^A^T Vbar^B = Q``."""
    tp = task_data.task_pairs(np.atleast_2d(sa), np.atleast_2d(sb), np.asarray(q, dtype=float)[None],
                              task_data.PairSpec(n1, n3, 1), rng=torch.Generator().manual_seed(seed))
    return tp.teacher[0].numpy(), tp.sigma31[0].numpy()


@pytest.mark.parametrize("sa, sb, q", [
    ([3.0], [3.0], [[0.4]]),
    ([0.5], [10.0], [[0.9]]),
    ([4.0, 2.0], [5.0, 1.0, 0.5], [[0.6, 0.1, 0.0], [0.2, -0.5, 0.3]]),
])
def test_composite_modes_are_the_svd_of_the_stacked_teacher(sa, sb, q):
    n1, n3 = 40, 12
    w, _ = composite_teacher(sa, sb, q, n1, n3)
    sigma, share = transfer.composite_modes(sa, sb, q)
    u, s, vt = np.linalg.svd(w)
    r = sigma.size
    assert np.allclose(s[:r], sigma, rtol=1e-10)
    assert np.allclose((u[:n3, :r] ** 2).sum(0), share, atol=1e-10)
    assert np.isclose((sigma**2 * share).sum(), (np.asarray(sa) ** 2).sum())


def test_equal_rank_one_tasks_split_into_shared_and_difference_modes():
    sigma, share = transfer.composite_modes([2.0], [2.0], 0.6)
    assert np.allclose(sigma, 2.0 * np.sqrt([1.6, 0.4]))
    assert np.allclose(share, 0.5)
    # q = 1: one mode of strength sqrt(sA^2 + sB^2), the zero mode is dropped
    sigma, share = transfer.composite_modes([3.0], [4.0], 1.0)
    assert np.allclose(sigma, [5.0]) and np.allclose(share, [9 / 25])
    # only |q| matters
    assert np.allclose(transfer.composite_modes([3.0], [1.0], -0.3)[0], transfer.composite_modes([3.0], [1.0], 0.3)[0])


def sampled_head_error(t, w, s31, n2, n3, eps=1e-5):
    """Exact head-A error of a TA student on one sampled data set (torch SVD, one thread)."""
    torch.set_num_threads(1)
    u, s, vh = (x.numpy() for x in torch.linalg.svd(torch.as_tensor(s31), full_matrices=False))
    st = dl.mode_strength(t[:, None], s[None, :n2], eps)
    ua = u[:n3, :n2]
    c = np.einsum("ia,ij,aj->a", ua, w[:n3], vh[:n2])
    norm = (w[:n3] ** 2).sum()
    return ((st**2) @ (ua**2).sum(0) - 2 * st @ c + norm) / norm


@pytest.mark.parametrize("sa, sb, q", [(3.0, 10.0, 0.5), (0.84, 10.0, 1.0), (10.0, 3.0, 0.3)])
def test_head_error_matches_sampled_ta_students_up_to_optimal_stopping(sa, sb, q):
    n1, n3 = 600, 150
    t = np.geomspace(0.05, 2.5, 40)
    theory = transfer.head_test_error(t, [sa], [sb], q, dl.TaStudent(n1=n1, n2=n3, n3=2 * n3, eps=1e-5), n3_a=n3)
    sampled = np.mean([sampled_head_error(t, *composite_teacher([sa], [sb], [[q]], n1, n3, seed), n3, n3)
                       for seed in range(3)], axis=0)
    # before the noise is learned: finite-size deviations of a few percent of the error scale
    assert np.max(np.abs(sampled - theory)) < 0.04
    assert abs(sampled.min() - theory.min()) < 0.02


def test_head_error_limits():
    t = np.array([0.0, 1e-3])
    assert np.allclose(transfer.head_test_error(t, [3.0], [2.0], 0.5, dl.TaStudent(n1=100, n2=50, n3=100, eps=1e-5), n3_a=50), 1.0, atol=1e-6)
    # with one task and f_A = 1 ... n3_b adds noise rows only; A' = 1 -> a strong mode is learned
    late = transfer.head_test_error([2.0], [20.0], [0.0], 0.0, dl.TaStudent(n1=100, n2=50, n3=100, eps=1e-5), n3_a=50)
    assert late[0] < 0.01


def test_joint_optimum_and_transfer_benefit_consistency():
    t_opt, e_opt = transfer.joint_optimal_error([3.0], [10.0], 1.0, dl.TaStudent(n1=100, n2=50, n3=100, eps=1e-5), n3_a=50)
    grid = np.geomspace(0.01, 20, 3000)
    dense = transfer.head_test_error(grid, [3.0], [10.0], 1.0, dl.TaStudent(n1=100, n2=50, n3=100, eps=1e-5), n3_a=50)
    assert e_opt <= dense.min() + 1e-12 and abs(e_opt - dense.min()) < 1e-5
    benefit, single, joint = transfer.transfer_benefit(3.0, 10.0, 1.0, dl.TaStudent(n1=100, n3=50, eps=1e-5), return_errors=True)
    assert np.isclose(joint, e_opt) and np.isclose(benefit, single - joint)
    assert np.isclose(single, dl.optimal_early_stopping([3.0], dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-5))[1])
    # the Fig. 8 signs: aligned strong partner helps, misaligned one interferes
    assert benefit > 0.05
    assert transfer.transfer_benefit(3.0, 10.0, 0.0, dl.TaStudent(n1=100, n3=50, eps=1e-5)) < -0.03
    # an undetectable task (sbar < A^(1/4)) gains from an aligned strong one
    assert transfer.transfer_benefit(0.8, 30.0, 0.9, dl.TaStudent(n1=100, n3=50, eps=1e-5)) > 0.3
    # log-ratio variant and broadcasting
    lr = transfer.transfer_benefit([3.0, 3.0], 10.0, [[0.0], [1.0]], dl.TaStudent(n1=100, n3=50, eps=1e-5), kind="log-ratio")
    assert lr.shape == (2, 2) and lr[0, 0] < 0 < lr[1, 0]
    # the general form agrees with the rank-1 form
    gen = transfer.transfer_benefit_general([3.0], [10.0], [[1.0]], dl.TaStudent(n1=100, n3=50, eps=1e-5))
    assert np.isclose(gen[0], benefit)


def test_transfer_benefit_ignores_the_sign_of_q():
    a = transfer.transfer_benefit(3.0, 3.0, [-0.7, 0.7], dl.TaStudent(n1=100, n3=50, eps=1e-5))
    assert np.isclose(a[0], a[1])


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: transfer.composite_modes([1.0], [1.0], [[1.5]]), r"singular values <= 1"),
        (lambda: transfer.composite_modes([1.0], [1.0, 2.0], [[0.5]]), r"shape \(rank A, rank B\) = \(1, 2\)"),
        (lambda: transfer.composite_modes([-1.0], [1.0], 0.0), r"svals_a must be real numbers in \[0, inf\); got \[-1.0\]"),
        (lambda: transfer.head_test_error([1.0], [0.0], [1.0], 0.0, dl.TaStudent(n1=100, n2=50, n3=100, eps=1e-5), n3_a=50), r"all zero"),
        (lambda: transfer.head_test_error([1.0], [1.0], [1.0], 0.0, dl.TaStudent(n1=100, n2=50, n3=110, eps=1e-5), n3_a=60), r"n3_a \+ n3_b <= n1"),
        (lambda: transfer.head_test_error([1.0], [1.0], [1.0], 0.0, dl.TaStudent(n1=100, n2=120, n3=100, eps=1e-5), n3_a=50), r"n2 must satisfy n2 <= n3"),
        (lambda: transfer.head_test_error([-1.0], [1.0], [1.0], 0.0, dl.TaStudent(n1=100, n2=50, n3=100, eps=1e-5), n3_a=50), r"t \(training times\) must be real numbers in \[0, inf\); got \[-1\.0\]"),
        (lambda: transfer.transfer_benefit(0.0, 1.0, 0.5, dl.TaStudent(n1=100, n3=50, eps=1e-5)), r"sbar_a must be real numbers in \(0, inf\); got 0\.0"),
        (lambda: transfer.transfer_benefit(1.0, 1.0, 1.5, dl.TaStudent(n1=100, n3=50, eps=1e-5)), r"q must be real numbers in \[-1, 1\]; got 1\.5"),
        (lambda: transfer.transfer_benefit(1.0, 1.0, 0.5, dl.TaStudent(n1=100, n3=50, eps=1e-5), return_errors=1), r"return_errors must be True or False"),
        (lambda: transfer.transfer_benefit_general([0.0], [1.0], 0.5, dl.TaStudent(n1=100, n3=50, eps=1e-5)), r"svals_a are all zero"),
        (lambda: transfer.composite_modes([1.0], [1.0], True), r"overlap \(Q = Vbar\^A\^T Vbar\^B\) must be real numbers"),
        (lambda: transfer.transfer_benefit(1.0, 1.0, 0.5, dl.TaStudent(n1=100, n3=50, eps=1e-5), kind="ratio"), r"kind must be one of"),
        (lambda: transfer.transfer_benefit(1.0, 1.0, 0.5, dl.TaStudent(n1=100, n2=60, n3=50, eps=1e-5)), r"n2 must satisfy n2 <= n3"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_sampled_head_errors_match_trained_two_headed_ta_students():
    from gendyn import train

    n1, n3 = 30, 10
    tp = task_data.task_pairs([3.0, 1.0], [5.0, 2.0], [0.8, 0.3], task_data.PairSpec(n1, n3, 2),
                              rng=torch.Generator().manual_seed(3))
    res = train.train_students(tp.sigma31, train.Architecture(hidden=n3, heads=(n3, n3)),
                               train.Schedule(lr=2e-3, epochs=1500, record_at=np.arange(0, 1501, 50)),
                               evaluation=train.Evaluation(teacher=tp.teacher),
                               execution=train.Execution(dtype=torch.float64))
    exact = transfer.sampled_head_errors(res.time, tp.sigma31, tp.teacher, n3, dl.TaStudent(eps=1e-5, n2=n3))
    # gradient descent lags the flow by ~ lr ln(shat/eps)/4 ~ 0.006 tau: compare where curves are smooth
    assert np.max(np.abs(res.head_test_error[:, 0] - exact)) < 0.02
    # all rows = the single-task error of deep_linear.sampled_ta_errors
    full = transfer.sampled_head_errors(res.time, tp.sigma31, tp.teacher, 2 * n3, dl.TaStudent(eps=1e-5, n2=n3))
    assert np.allclose(full, dl.sampled_ta_errors(res.time, tp.sigma31, tp.teacher, dl.TaStudent(eps=1e-5, n2=n3))[1])


def test_sampled_head_errors_with_lr_is_exactly_the_trained_ta_network():
    from gendyn import train

    n1, n3 = 24, 8
    tp = task_data.task_pairs([2.0], [30.0], [0.9], task_data.PairSpec(n1, n3, 2),
                              rng=torch.Generator().manual_seed(4))
    lr = 1.5e-2  # lr * shat_max ~ 0.45: far from the flow, yet exact mode by mode
    res = train.train_students(tp.sigma31, train.Architecture(hidden=n3, heads=(n3, n3)),
                               train.Schedule(lr=lr, epochs=300, record_at=np.arange(0, 301, 7)),
                               evaluation=train.Evaluation(teacher=tp.teacher),
                               execution=train.Execution(dtype=torch.float64))
    exact = transfer.sampled_head_errors(res.time, tp.sigma31, tp.teacher, n3, dl.TaStudent(eps=1e-5, n2=n3), lr=lr)
    assert np.allclose(res.head_test_error[:, 0], exact, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="whole numbers of epochs"):
        transfer.sampled_head_errors(res.time + 1e-3, tp.sigma31, tp.teacher, n3, dl.TaStudent(eps=1e-5, n2=n3), lr=lr)


def test_composite_input_alignment_app_d1_and_explicit_svd():
    """(1 +- q)/2 for equal rank-1 tasks (App. D.1), and ||Vbar^A^T v_k||^2 from an explicit SVD."""
    align = transfer.composite_input_alignment([3.0], [3.0], 0.4)
    np.testing.assert_allclose(align, [0.7, 0.3], rtol=1e-12)
    rng = np.random.default_rng(1)
    n1, sa, sb = 30, np.array([4.0, 1.5]), np.array([2.5, 2.0, 0.7])
    basis = np.linalg.qr(rng.standard_normal((n1, 5)))[0]
    va = basis[:, :2]
    vb = np.linalg.qr(va @ rng.standard_normal((2, 3)) + 0.8 * basis[:, 2:])[0]
    q = va.T @ vb
    ua = np.linalg.qr(rng.standard_normal((6, 2)))[0]
    ub = np.linalg.qr(rng.standard_normal((7, 3)))[0]
    w = np.vstack([ua @ np.diag(sa) @ va.T, ub @ np.diag(sb) @ vb.T])
    _, svals, vt = np.linalg.svd(w)
    np.testing.assert_allclose(transfer.composite_modes(sa, sb, q)[0], svals[:5], rtol=1e-10)
    np.testing.assert_allclose(transfer.composite_input_alignment(sa, sb, q),
                               ((va.T @ vt[:5].T) ** 2).sum(0), atol=1e-10)


def test_transfer_grid_is_transfer_benefit_at_every_point():
    grid = transfer.transfer_grid([0.8, 3.0], [1.0, 10.0], 3, n1=40, n2=20, n3=20, eps=1e-5)
    assert grid.shape == (2, 2, 3) and grid.points.shape == (12, 3)
    np.testing.assert_array_equal(grid.qs, [0.0, 0.5, 1.0])
    for (a, b, q), t, single, joint in zip(grid.points, grid.benefit.ravel(), grid.single.ravel(),
                                           grid.joint.ravel()):
        assert t == pytest.approx(transfer.transfer_benefit(a, b, q, dl.TaStudent(n1=40, n2=20, n3=20, eps=1e-5)))
        assert t == pytest.approx(single - joint)
    np.testing.assert_array_equal(grid.panel, np.repeat([0, 1], 6))
    assert grid.threshold == pytest.approx(0.5 ** 0.25)
    assert grid.in_transition(0.8) and not grid.in_transition(3.0)  # within 25 % of A^(1/4) = 0.84
    np.testing.assert_allclose(grid.allowance, [np.abs(grid.benefit[0]).max() * 40 ** (-1 / 3),
                                                np.abs(grid.benefit[1]).max() * 40 ** (-1 / 2)])
    with pytest.raises(ValueError, match="sbar_a"):
        transfer.transfer_grid([3.0, 0.8], [1.0], 3, n1=40, n2=20, n3=20, eps=1e-5)  # panels in order


def test_paired_transfer_subtracts_each_joint_student_from_its_own_single_task_twin():
    points = np.array([[1.0, 2.0, 0.0], [1.0, 2.0, 1.0], [4.0, 2.0, 0.0], [4.0, 2.0, 1.0]])
    joint = np.arange(8.0).reshape(4, 2)
    single = np.array([[10.0, 20.0], [30.0, 40.0]])  # sbar_A = 1 and 4, two runs each
    expected = np.array([[10, 19], [8, 17], [26, 35], [24, 33]], dtype=float)
    np.testing.assert_array_equal(transfer.paired_transfer(joint, single, points, [1.0, 4.0]), expected)
    np.testing.assert_array_equal(transfer.paired_transfer(joint[:2], single, points, [1.0, 4.0]), expected[:2])
    with pytest.raises(ValueError, match="single"):
        transfer.paired_transfer(joint, single[:1], points, [1.0, 4.0])
    with pytest.raises(ValueError, match="sa"):
        transfer.paired_transfer(joint, single, points, [1.0, 3.0])


# ----------------------------------------------------------------------------------------
# composite_example, simulated_transfer, d1_alignments, sampled_transfer
# ----------------------------------------------------------------------------------------


def test_composite_example_equal_snrs_have_the_shared_and_difference_modes():
    ex = transfer.composite_example(3.0, 3.0, n1=40, n2=20, n3=20, eps=1e-5)
    np.testing.assert_allclose(ex.sigma[:, 0] ** 2, 9 * (1 + ex.q), rtol=1e-10)
    np.testing.assert_allclose(ex.sigma[:-1, 1] ** 2, 9 * (1 - ex.q[:-1]), rtol=1e-8, atol=1e-10)
    assert ex.sigma[-1, 1] == 0 and ex.share[-1, 1] == 0  # q = 1: the difference mode vanishes
    np.testing.assert_allclose(ex.share[1:-1], 0.5, atol=1e-8)  # each mode half in head A (q = 0: degenerate)
    assert ex.threshold == pytest.approx(1.0)


def test_composite_example_curves_are_the_theory_functions():
    ex = transfer.composite_example(3.0, 10.0, n1=40, n2=20, n3=20, eps=1e-5, head_q=[0.0, 0.9])
    assert ex.head.shape == (2, ex.t.size) and ex.sigma.shape == ex.share.shape == (101, 2)
    np.testing.assert_array_equal(ex.head[1], transfer.head_test_error(ex.t, [3.0], [10.0], 0.9, dl.TaStudent(n1=40, n2=20, n3=40, eps=1e-5), n3_a=20))
    np.testing.assert_array_equal(ex.alone, dl.theory_errors(ex.t, [3.0], dl.TaStudent(n1=40, n2=20, n3=20, eps=1e-5))[1])
    with pytest.raises(ValueError, match="head_q"):
        transfer.composite_example(3.0, 10.0, n1=40, n2=20, n3=20, eps=1e-5, head_q=[1.5])


def _small_grid():
    return transfer.transfer_grid([1.0, 3.0], [0.0, 2.0], 2, n1=40, n2=20, n3=20, eps=1e-5)


def test_simulated_transfer_pairs_each_student_with_its_task_a_data():
    grid = _small_grid()
    rng = np.random.default_rng(1)
    joint, single = rng.uniform(0.2, 1, (8, 3)), rng.uniform(0.2, 1, (2, 3))
    sim = transfer.simulated_transfer(joint.ravel(), single.ravel(), grid)
    np.testing.assert_array_equal(sim.benefit, single[grid.panel] - joint)
    np.testing.assert_array_equal(sim.benefit, transfer.paired_transfer(joint, single, grid.points, grid.sa))
    np.testing.assert_allclose(sim.mean, sim.benefit.mean(1))
    np.testing.assert_allclose(sim.se, sim.benefit.std(1, ddof=1) / np.sqrt(3))
    with pytest.raises(ValueError, match="single"):
        transfer.simulated_transfer(joint, single[:, :2], grid)
    with pytest.raises(ValueError, match="joint"):
        transfer.simulated_transfer(joint[:7], single, grid)
    with pytest.raises(ValueError, match="runs >= 2"):
        transfer.simulated_transfer(joint[:, 0], single[:, 0], grid)


def test_d1_alignments_match_their_predictions_on_sampled_data():
    grid = transfer.transfer_grid([3.0], [3.0], 2, n1=200, n2=100, n3=100, eps=1e-5)  # q = 0, 1
    runs = 6
    pairs = task_data.task_pairs(grid.points[:, 0], grid.points[:, 1], grid.points[:, 2],
                                 task_data.PairSpec(200, 100, runs), rng=torch.Generator().manual_seed(3))
    d1 = transfer.d1_alignments(pairs.sigma31.numpy(), pairs.teacher.numpy(), grid)
    assert d1.joint.shape == d1.single.shape == d1.shat.shape == (2, runs)
    np.testing.assert_array_equal(d1.turn, d1.joint - d1.single)
    # q = 1: one composite mode sqrt(2) x 3, aligned with task A; q = 0: equal spikes mix (not defined)
    assert list(d1.defined_joint) == [False, True] and d1.defined_single.all()
    np.testing.assert_allclose(d1.single.mean(1), d1.pred_single, atol=0.03)
    np.testing.assert_allclose(d1.joint[1].mean(), d1.pred_joint[1], atol=0.03)
    np.testing.assert_allclose(d1.shat[1].mean(), d1.pred_shat[1], rtol=0.03)
    assert d1.pred_joint[1] > d1.pred_single[0]  # aligned partner: a stronger, equally aligned spike
    with pytest.raises(ValueError, match="sigma31"):
        transfer.d1_alignments(pairs.sigma31.numpy()[:, :50], pairs.teacher.numpy(), grid)


def test_sampled_transfer_is_the_difference_of_the_exact_head_errors():
    t = np.geomspace(1e-2, 5, 50)
    pairs = task_data.task_pairs([3.0, 3.0], [3.0, 3.0], [1.0, 0.0], task_data.PairSpec(40, 20, 3),
                                 rng=torch.Generator().manual_seed(0))
    exact = transfer.sampled_transfer(t, pairs.sigma31, pairs.teacher, 20, n2=20)
    joint = transfer.sampled_head_errors(t, pairs.sigma31, pairs.teacher, 20, dl.TaStudent(eps=1e-5, n2=20)).min(-1)
    single = transfer.sampled_head_errors(t, pairs.sigma31[:, :20], pairs.teacher[:, :20], 20, dl.TaStudent(eps=1e-5, n2=20)).min(-1)
    np.testing.assert_array_equal(exact.joint, joint)
    np.testing.assert_array_equal(exact.single, single)
    np.testing.assert_array_equal(exact.benefit, single - joint)
    assert np.all(exact.benefit[:3] > 0)  # q = 1, equal SNRs: B helps A in every run
    with pytest.raises(ValueError, match="n3_a"):
        transfer.sampled_transfer(t, pairs.sigma31, pairs.teacher, 40)


def test_sign_change_overlap_interpolates_after_the_last_negative_value():
    qs = [0.0, 0.25, 0.5, 0.75, 1.0]
    assert transfer.sign_change_overlap([-0.2, 0.1, -0.1, 0.3, 0.4], qs) == pytest.approx(0.5 + 0.25 * 0.1 / 0.4)
    assert transfer.sign_change_overlap([0.2, 0.1, 0.0, 0.3, 0.4], qs) == 0.0  # never negative
    assert transfer.sign_change_overlap([0.2, 0.1, 0.0, 0.3, -0.4], qs) == 1.0  # negative at the end
    with pytest.raises(ValueError, match="benefit"):
        transfer.sign_change_overlap([0.1, 0.2], qs)


# ------------------------------------------------------------------ the TA student (deep_linear.TaStudent)


def test_former_flat_forms_warn_and_give_identical_results():
    """Each function of the theory in its former flat form: a DeprecationWarning naming the new form, the same numbers."""
    warns = pytest.warns(DeprecationWarning, match=r"deprecated and will be removed in the next release: pass .*TaStudent\(")
    t = np.array([0.5, 2.0, 8.0])
    two_heads = dl.TaStudent(n1=100, n2=60, n3=70, eps=1e-4, tau=1.5, n_layers=4)
    new = transfer.head_test_error(t, [3.0], [2.0], 0.5, two_heads, n3_a=30)
    with warns:
        old = transfer.head_test_error(t, [3.0], [2.0], 0.5, 100, 60, 30, 40, 1e-4, 1.5, 4)
    np.testing.assert_array_equal(old, new)
    with warns:
        old = transfer.joint_optimal_error([3.0], [2.0], 0.5, 100, 60, 30, 40, 1e-4, tau=1.5, n_layers=4, t_max=400.0)
    assert old == transfer.joint_optimal_error([3.0], [2.0], 0.5, two_heads, n3_a=30, t_max=400.0)
    single = dl.TaStudent(n1=100, n2=40, n3=50, eps=1e-5)
    with warns:
        old = transfer.transfer_benefit(3.0, [2.0, 10.0], 0.5, 100, 50, n2=40, kind="log-ratio", return_errors=True)
    for a, b in zip(old, transfer.transfer_benefit(3.0, [2.0, 10.0], 0.5, single, kind="log-ratio",
                                                   return_errors=True)):
        np.testing.assert_array_equal(a, b)
    with warns:
        old = transfer.transfer_benefit_general([3.0], [2.0], [[0.5]], 100, 50, n2=40)
    assert old == transfer.transfer_benefit_general([3.0], [2.0], [[0.5]], single)
    rng = np.random.default_rng(0)
    teacher = np.zeros((2, 4, 6))
    teacher[:, 0, 0], teacher[:, 2, 1] = 3.0, 2.0
    data = teacher + rng.normal(size=teacher.shape) / np.sqrt(6)
    new = transfer.sampled_head_errors(t, data, teacher, 2, dl.TaStudent(n2=3, eps=1e-5))
    with warns:
        old = transfer.sampled_head_errors(t, data, teacher, 2, n2=3)
    np.testing.assert_array_equal(old, new)
    with warns:
        old = transfer.sampled_head_errors(t, data, teacher, 2, 3, 1e-3, 1.0, 3, 1, 0.5)
    np.testing.assert_array_equal(old, transfer.sampled_head_errors(t, data, teacher, 2, dl.TaStudent(n2=3, eps=1e-3),
                                                                    chunk=1, lr=0.5))


def test_two_headed_student_needs_head_a():
    two_heads = dl.TaStudent(n1=100, n2=50, n3=100, eps=1e-5)
    with pytest.raises(ValueError, match=r"head_test_error needs n3_a: head A's outputs, an integer in \[1, 99\]"):
        transfer.head_test_error([1.0], [3.0], [2.0], 0.5, two_heads)
    with pytest.raises(ValueError, match=r"n3_a must be an integer in \[1, 99\]: head B has the other"):
        transfer.joint_optimal_error([3.0], [2.0], 0.5, two_heads, n3_a=100)
    with pytest.raises(ValueError, match=r"transfer_benefit needs the student's n1"):
        transfer.transfer_benefit(3.0, 2.0, 0.5, dl.TaStudent(n3=50, eps=1e-5))
    with pytest.raises(ValueError, match=r"student\.n3 must be the data's N3 = 4"):
        transfer.sampled_head_errors([1.0], np.ones((1, 4, 6)), np.ones((1, 4, 6)), 2, dl.TaStudent(n3=3, eps=1e-5))


def test_sampled_head_errors_former_form_with_all_defaults_still_runs_and_warns():
    # the former form defaulted everything after n3_a (eps = 1e-5): no student is that form
    tp = task_data.task_pairs([2.0], [3.0], [0.9], task_data.PairSpec(12, 4, 2),
                              rng=torch.Generator().manual_seed(4))
    t = np.array([0.5, 1.0])
    new = transfer.sampled_head_errors(t, tp.sigma31, tp.teacher, 4, dl.TaStudent(eps=1e-5))
    with pytest.warns(DeprecationWarning):
        assert np.array_equal(transfer.sampled_head_errors(t, tp.sigma31, tp.teacher, 4), new)
    with pytest.warns(DeprecationWarning):
        assert np.array_equal(transfer.sampled_head_errors(t, tp.sigma31, tp.teacher, 4, chunk=8), new)
