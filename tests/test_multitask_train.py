"""Unit tests of gendyn.multitask_train's grid SNRs and single-task students (Lee & Ndirango §3, Fig. 1),
and of the book's grid placement."""

import math

import numpy as np
import pytest
import torch

from flat_grid import run_flat
from gendyn import multitask_train as mt
from gendyn import seeding
from gendyn import softmax_multitask as sm
from gendyn.book import grids, scales

SMALL = mt.SingleTaskSetup(n_classes=3, n_train=400, n_val=50, lr=0.1, horizon=3.0)


def test_grid_snrs_keep_both_ends_evenly_in_log_scale():
    assert mt.grid_snrs(len(mt.SNR_GRID)) == mt.SNR_GRID
    assert mt.grid_snrs(2) == (mt.SNR_GRID[0], mt.SNR_GRID[-1])
    assert mt.grid_snrs(3) == (mt.SNR_GRID[0], mt.SNR_GRID[3], mt.SNR_GRID[-1])  # 0.01, 0.63, 10
    assert np.allclose(mt.grid_snrs(3), (0.01, 10 ** -0.2, 10.0))


@pytest.mark.parametrize("points", [1, 7, 2.0, True])
def test_grid_snrs_refuse_a_count_outside_the_grid(points):
    with pytest.raises(ValueError, match="points"):
        mt.grid_snrs(points)


def test_book_grid_takes_its_snrs_from_grid_snrs_and_its_placement_from_placement():
    cfg = scales.configure("ln-multitask", "smoke", 0, "cpu")
    kw = grids.book_grid("rank-10", cfg)
    assert kw["s_a"] == kw["s_b"] == mt.grid_snrs(cfg.snr_points)
    assert grids.placement(cfg) == {"workers": 1}
    assert {k: kw[k] for k in grids.placement(cfg)} == grids.placement(cfg)
    with_cluster = scales.configure("ln-multitask", "smoke", 0, "cpu", scheduler="tcp://host:8786")
    assert grids.placement(with_cluster) == {"workers": 1, "scheduler": "tcp://host:8786"}
    with pytest.raises(ValueError, match="cfg"):
        grids.placement({"scale": "smoke"})


def test_single_task_setup_schedule_and_checks():
    assert (SMALL.steps, SMALL.eval_every) == (30, 1)
    long = mt.SingleTaskSetup(n_classes=10, n_train=10, n_val=10, lr=0.05, horizon=150.0)
    assert (long.steps, long.eval_every) == (3000, 10)
    for bad, name in [(dict(n_classes=1), "n_classes"), (dict(lr=0.0), "lr"), (dict(horizon=-1.0), "horizon"),
                      (dict(horizon=0.01), "horizon"), (dict(s0=math.nan), "s0"), (dict(n_train=2.5), "n_train")]:
        with pytest.raises(ValueError, match=name):
            mt.SingleTaskSetup(**dict(dict(n_classes=3, n_train=40, n_val=5, lr=0.1, horizon=1.0), **bad))


def test_ta_students_start_at_s0_along_the_data_and_grow_at_the_rate_of_3():
    ta = mt.train_single_task(SMALL, [0.3, 1.0], [0, 1])
    s = ta.top_singular_value()
    assert s.shape == (2, 2, SMALL.steps // SMALL.eval_every + 1)
    np.testing.assert_allclose(s[..., 0], SMALL.s0, rtol=1e-12)
    np.testing.assert_allclose(ta.t, np.arange(s.shape[-1]) * SMALL.eval_every * SMALL.lr)
    assert ta.sigma_hat.shape == (2, 2) and ta.u_hat.shape == (2, 2, 3) and ta.v_hat.shape == (2, 2, 20)
    assert ta.u_teacher.shape == (2, 3) and ta.v_teacher.shape == (2, 20)
    np.testing.assert_allclose(np.linalg.norm(ta.v_teacher, axis=-1), 1.0)
    # at s << s* the growth is the small-s limit of (3) with the gradient-descent factor
    for j in range(2):
        rate = np.polyfit(ta.t[1:10], np.log(s[0, j, 1:10]), 1)[0]
        assert rate == pytest.approx(sm.ta_growth_rate(ta.sigma_hat[0, j], ta.u_hat[0, j], lr=SMALL.lr), rel=0.05)
    # the SNR labels the data: a stronger teacher gives a larger sigma_hat on the same inputs
    assert np.all(ta.sigma_hat[:, 1] > ta.sigma_hat[:, 0])


def test_random_students_see_the_same_data_and_differ_only_in_their_start():
    ta = mt.train_single_task(SMALL, [1.0], [3])
    rnd = mt.train_single_task(SMALL, [1.0], [3], init="random", hidden=8, init_scale=0.05)
    for name in ("sigma_hat", "u_hat", "v_hat", "u_teacher", "v_teacher", "t", "s_a"):
        np.testing.assert_array_equal(getattr(ta, name), getattr(rnd, name))
    assert not np.allclose(rnd.top_singular_value()[..., 0], SMALL.s0)
    assert np.isfinite(rnd.result.best_val).all()


def test_seeds_are_independent_runs():
    both = mt.train_single_task(SMALL, [1.0], [0, 1])
    one = mt.train_single_task(SMALL, [1.0], [1])
    np.testing.assert_allclose(both.sigma_hat[1], one.sigma_hat[0], rtol=1e-12)
    np.testing.assert_allclose(both.top_singular_value()[1], one.top_singular_value()[0], rtol=1e-9)


def test_train_single_task_refuses_bad_arguments():
    with pytest.raises(ValueError, match="setup"):
        mt.train_single_task({"n_classes": 3}, [1.0], [0])
    with pytest.raises(ValueError, match="s_a"):
        mt.train_single_task(SMALL, [0.0], [0])
    with pytest.raises(ValueError, match="init"):
        mt.train_single_task(SMALL, [1.0], [0], init="orthogonal")
    with pytest.raises(ValueError, match="seeds"):
        mt.train_single_task(SMALL, [1.0], [-1])


def test_single_task_results_hold_no_tensors():
    ta = mt.train_single_task(SMALL, [1.0], [0], device=torch.device("cpu"))
    for value in (ta.s_a, ta.t, ta.sigma_hat, ta.u_hat, ta.v_hat, ta.u_teacher, ta.v_teacher):
        assert isinstance(value, np.ndarray)


# ----------------------------------------------------------------------------------------
# benefit_change: one grid against another, cell by cell
# ----------------------------------------------------------------------------------------

TINY_GRID = dict(seeds=[0, 1], n_train=[6], s_a=(1.0, 2.0), s_b=(1.0,), relatedness=(0.5, 1.0), rank=2,
                 n_features=4, hidden=3, n_val=5, lr=0.5, steps=2, eval_every=1, dtype=torch.float64,
                 progress=False)


def test_benefit_change_of_a_grid_against_itself_is_zero_and_keyed_like_cell_means():
    g = run_flat(**TINY_GRID)
    change = mt.benefit_change(g, g)
    assert isinstance(change, mt.BenefitChange)
    assert np.array_equal(change.change, np.zeros(len(g.cells)))
    assert set(change.keys) == set(g.cell_means())  # the keys of cell_means, each once per seed
    assert change.seeds == tuple(c["seed"] for c in g.cells)


def test_benefit_change_matches_a_part_of_the_reference_rerun_with_another_learning_rate():
    full = run_flat(**TINY_GRID)
    part = run_flat(**dict(TINY_GRID, seeds=[1], lr=0.6))
    change = mt.benefit_change(part, full)
    assert len(change.change) == len(part.cells) == len(full.cells) // 2
    for cell, key, value, b in zip(part.cells, change.keys, change.change, part.benefit):
        ref = [rb for rc, rb in zip(full.cells, full.benefit) if rc == cell]  # same cell, same seed
        assert key == tuple(cell[a] for a in mt.CELL_AXES)
        assert value == b - ref[0]
    assert np.any(change.change != 0)


def test_benefit_change_refuses_a_grid_with_cells_the_reference_lacks():
    small = run_flat(**dict(TINY_GRID, seeds=[0]))
    big = run_flat(**dict(TINY_GRID, seeds=[0, 2]))
    with pytest.raises(ValueError, match="reference"):
        mt.benefit_change(big, small)
    with pytest.raises(ValueError, match="grid"):
        mt.benefit_change({"cells": []}, small)


# ----------------------------------------------------------------------------------------
# label_agreement, sampled_loss_gradient: the setup chapter's sampled sides
# ----------------------------------------------------------------------------------------


def test_label_agreement_counts_the_labels_of_draw_tasks_in_groups():
    one = mt.label_agreement([0.1, 1.0, 10.0], n_labels=500, rng=3)
    data = mt.draw_tasks(seeding.run_seeds(3, 1, "groups"), n_train_a=500, n_val=1, dtype=torch.float64)
    noisy = data.labels_a([0.1, 1.0, 10.0])[0]
    clean = (data.x_a[0] @ data.teacher_a[0].T).argmax(-1)
    assert np.array_equal(one.agree, (noisy == clean[:, None]).double().mean(0).numpy())
    assert one.agree[0] < one.agree[1] < one.agree[2] and one.n_labels == 500
    grouped = mt.label_agreement([0.1], n_labels=500, rng=3, group=200)  # three groups: 200 + 200 + 100
    agree = 0
    for seed, n in zip(seeding.run_seeds(3, 3, "groups"), (200, 200, 100)):
        part = mt.draw_tasks([seed], n_train_a=n, n_val=1, dtype=torch.float64)
        clean = (part.x_a[0] @ part.teacher_a[0].T).argmax(-1)
        agree += int((part.labels_a([0.1])[0][:, 0] == clean).sum())
    assert grouped.agree[0] == pytest.approx(agree / 500, abs=1e-15)


def test_sampled_loss_gradient_is_m_w_sigma_within_its_standard_error():
    rng = np.random.default_rng(4)
    w = 0.8 * rng.standard_normal((3, 4))
    a = rng.standard_normal((4, 4))
    sigma = a @ a.T / 4 + 0.3 * np.eye(4)
    sampled = mt.sampled_loss_gradient(w, sigma, n_samples=20_000, rng=1)
    theory = sm.gaussian_softmax_feature_covariance(w, sigma, n_samples=2**16, rng=2)
    assert np.all(np.abs(sampled.mean - theory) < 5 * sampled.stderr + 1e-3)
    with pytest.raises(ValueError, match="sigma"):
        mt.sampled_loss_gradient(w, -np.eye(4), n_samples=100)


FLAT = dict(seeds=[0], n_train=[12], s_a=(1.0,), s_b=(2.0,), relatedness=(0.5,), rank=2, n_features=4, hidden=3,
            n_val=10, lr=0.5, steps=4, eval_every=2, dtype=torch.float64, progress=False)


def test_run_grid_takes_specs_and_its_flat_form_is_deprecated_with_the_same_result():
    specs = mt.grid_specs(**FLAT)
    assert specs["cells"] == mt.GridCells(n_train=[12], s_a=(1.0,), s_b=(2.0,), relatedness=(0.5,))
    assert specs["task"] == mt.GridTask(rank=2, n_features=4, n_val=10)
    assert specs["schedule"] == mt.GridSchedule(lr=0.5, steps=4, eval_every=2)
    assert specs["precision"].dtype == torch.float64 and specs["precision"].draw_dtype == torch.float64
    new = mt.run_grid(**specs)
    with pytest.warns(DeprecationWarning, match="flat keywords is deprecated"):
        old = mt.run_grid(**FLAT)
    assert np.array_equal(new.mt_loss, old.mt_loss) and np.array_equal(new.st_loss, old.st_loss)
    assert new.axes == old.axes


def test_run_grid_refuses_specs_mixed_with_flat_keywords_and_unknown_keywords():
    specs = mt.grid_specs(**FLAT)
    with pytest.raises(ValueError, match="either as specs"):
        mt.run_grid(specs["cells"], [0], lr=0.1)
    with pytest.raises(ValueError, match=r"unknown grid keyword\(s\) \['learning_rate'\]"):
        mt.grid_specs(**FLAT, learning_rate=0.1)
    with pytest.raises(ValueError, match="n_train is required"):
        mt.grid_specs(seeds=[0])
    with pytest.raises(ValueError, match="cells must be"):
        mt.run_grid(None, [0])
    with pytest.raises(ValueError, match="seeds is required"):
        mt.run_grid(specs["cells"])


def test_noise_free_labels_are_the_teachers_argmax():
    data = mt.draw_tasks([0], n_train_a=30, n_train_b=30, n_val=5, dtype=torch.float64,
                         teachers=mt.TeacherPair(n_features=6, rank=2))
    clean = data.labels_a([0.5, 2.0], noise=False)
    z = data.x_a @ data.teacher_a.mT
    assert torch.equal(clean, z.argmax(-1)[..., None].expand_as(clean))  # any SNR > 0: the teacher's argmax
    assert not torch.equal(clean, data.labels_a([0.5, 2.0]))  # the noise flips some labels at these SNRs
    assert torch.equal(data.labels_b([1.0], [1.0], noise=False)[..., 0], (data.x_b @ data.teacher_b(1.0).mT).argmax(-1))
# ----------------------------------------------------------------------------------------
# bayes_cross_entropy: the published-data chapter's sampled side of the label-entropy floor
# ----------------------------------------------------------------------------------------


def test_bayes_cross_entropy_scores_the_labels_of_draw_tasks_and_meets_the_floor():
    snrs = [0.04, 0.63, 2.51]
    sampled = mt.bayes_cross_entropy(snrs, n_test=3000, rng=2, rank=4, n_features=20)
    assert sampled.n_test == 3000 and np.array_equal(sampled.s_a, snrs)
    assert np.all(np.isfinite(sampled.mean)) and np.all(sampled.stderr > 0)
    floor, floor_se = sm.noisy_label_entropy(snrs, 4, 20**-0.5, n_samples=2**12, rng=0, return_stderr=True)
    assert np.all(np.abs(sampled.mean - floor) < 5 * np.hypot(sampled.stderr, floor_se))
    assert sampled.mean[0] > sampled.mean[1] > sampled.mean[2]  # more signal, less label entropy
    again = mt.bayes_cross_entropy(snrs[:1], n_test=3000, rng=2, rank=4)  # one SNR's labels: not on the others
    assert again.mean[0] == pytest.approx(sampled.mean[0], rel=1e-13)
    with pytest.raises(ValueError, match="n_test"):
        mt.bayes_cross_entropy(snrs, n_test=1, rng=0)


def test_grid_task_refuses_more_teacher_directions_than_inputs():
    # the two tasks' rank-r teachers need 2r orthogonal input directions
    mt.GridTask(rank=3, n_features=6)
    with pytest.raises(ValueError, match="n_features must be >= 2 \\* rank = 8"):
        mt.GridTask(rank=4, n_features=6)


# ----------------------------------------------------------------------------------------
# specs of draw_tasks, init_student and train_students; their flat form (deprecated)
# ----------------------------------------------------------------------------------------


def test_the_flat_forms_of_the_trainers_warn_and_give_bit_identical_results():
    new_data = mt.draw_tasks([0, 1], n_train_a=20, n_train_b=15, n_val=6, dtype=torch.float64,
                             teachers=mt.TeacherPair(n_features=6, rank=2, n_classes=3, noise_std=0.2))
    with pytest.warns(DeprecationWarning, match=r"teachers=TeacherPair\("):
        old_data = mt.draw_tasks([0, 1], n_train_a=20, n_train_b=15, n_val=6, n_features=6, rank=2, n_classes=3,
                                 noise_std=0.2, dtype=torch.float64)
    for name in ("x_a", "x_b", "x_val", "noise_a", "noise_b", "w1", "w2", "o_a", "o_b"):
        assert torch.equal(getattr(new_data, name), getattr(old_data, name)), name
    new_w = mt.init_student([0, 1], n_features=6, n_classes=3, n_heads=2, dtype=torch.float64,
                            students=mt.GridStudents(hidden=4, depth=2, activation="relu", init_scale=0.7))
    with pytest.warns(DeprecationWarning, match=r"students=GridStudents\("):
        old_w = mt.init_student([0, 1], n_features=6, n_classes=3, hidden=4, depth=2, activation="relu",
                                init_scale=0.7, n_heads=2, dtype=torch.float64)
    assert all(torch.equal(a, b) for a, b in zip(new_w, old_w)) and len(new_w) == len(old_w)
    y_a, y_b = new_data.labels_a([1.0, 2.0]), new_data.labels_b([1.0, 2.0], [0.5, 1.0])
    mask_b = (torch.arange(15)[None, :, None] < torch.tensor([10, 15])[None, None, :]).double().expand(2, -1, -1)
    new = mt.train_students(new_data.x_a, y_a, new_data.x_val, new_data.labels_val(), new_w,
                            sets=mt.TrainingSets(x_b=new_data.x_b, y_b=y_b, mask_b=mask_b),
                            schedule=mt.GridSchedule(lr=0.2, steps=6, eval_every=2),
                            options=mt.TrainOptions(activation="relu", batch_size=8, batch_rng=3))
    with pytest.warns(DeprecationWarning, match=r"sets=TrainingSets\(.*schedule=GridSchedule\("):
        old = mt.train_students(new_data.x_a, y_a, new_data.x_val, new_data.labels_val(), old_w, x_b=new_data.x_b,
                                y_b=y_b, mask_b=mask_b, activation="relu", lr=0.2, steps=6, eval_every=2,
                                batch_size=8, batch_seed=3)
    for name in ("val_loss", "train_loss", "best_val", "best_step", "eval_steps"):
        np.testing.assert_array_equal(getattr(new, name), getattr(old, name), err_msg=name)


def test_the_flat_forms_refuse_unknown_keywords_and_a_spec_written_twice():
    with pytest.raises(ValueError, match="unknown keyword"):
        mt.draw_tasks([0], n_train_a=5, n_feature=6)
    with pytest.raises(ValueError, match="teachers either as a TeacherPair or as the flat keywords"):
        mt.draw_tasks([0], n_train_a=5, teachers=mt.TeacherPair(), rank=2)
    with pytest.raises(ValueError, match="students either"):
        mt.init_student([0], n_features=4, n_classes=2, students=mt.GridStudents(), hidden=3)


@pytest.mark.parametrize("make, message", [
    (lambda: mt.TeacherPair(n_features=1), r"n_features must be an integer >= 2; got 1"),
    (lambda: mt.TeacherPair(rank=0), r"rank must be an integer >= 1; got 0"),
    (lambda: mt.TeacherPair(n_features=8, rank=3, n_classes=2), r"need rank <= n_classes"),
    (lambda: mt.TeacherPair(n_features=6, rank=4), r"2\*rank <= n_features"),
    (lambda: mt.TeacherPair(noise_std=-1.0), r"noise_std must be"),
    (lambda: mt.TrainingSets(x_b=torch.zeros(1, 2, 3)), r"y_b must be given with x_b"),
    (lambda: mt.TrainingSets(y_b=torch.zeros(1, 2, 1, dtype=torch.int64)), r"x_b must be given with y_b"),
    (lambda: mt.TrainingSets(mask_a=[1, 0]), r"mask_a must be a torch.Tensor or None; got list"),
    (lambda: mt.TrainOptions(activation="tanh"), r"activation"),
    (lambda: mt.TrainOptions(batch_size=0), r"batch_size must be an integer >= 1"),
    (lambda: mt.TrainOptions(batch_rng=-1), r"batch_rng must be an integer >= 0"),
    (lambda: mt.TrainOptions(num_threads=0), r"num_threads must be an integer >= 1"),
    (lambda: mt.TrainOptions(keep_composite=1), r"keep_composite must be True or False"),
    (lambda: mt.TrainOptions(progress=3), r"progress must be a string or None"),
    (lambda: mt.TrainOptions(block=0), r"block must be an integer >= 1"),
])
def test_the_trainers_specs_check_their_fields_when_made(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_the_trainers_refuse_a_spec_of_another_kind():
    data = mt.draw_tasks([0], n_train_a=6, n_val=4, dtype=torch.float64, teachers=mt.TeacherPair(n_features=4, rank=2))
    with pytest.raises(ValueError, match="teachers"):
        mt.draw_tasks([0], n_train_a=6, teachers=mt.GridTask())
    with pytest.raises(ValueError, match="students"):
        mt.init_student([0], n_features=4, n_classes=2, students=mt.GridSchedule())
    w0 = mt.init_student([0], n_features=4, n_classes=2, n_heads=1, dtype=torch.float64)
    with pytest.raises(ValueError, match="schedule"):
        mt.train_students(data.x_a, data.labels_a([1.0]), data.x_val, data.labels_val(), w0,
                          schedule=mt.TrainOptions())
