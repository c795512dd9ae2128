"""gendyn.settings_inference: the search grid, the simulated cells (minimum over each setting's epochs,
shared runs), the published values of cells, the calibration fit, the held-out score and the label floor
under a setting's label law. Tiny sizes throughout."""

import math

import numpy as np
import pytest

from gendyn import interleaved_sgd as il
from gendyn import multitask_train as mt
from gendyn import published_runs as pr
from gendyn import settings_inference as si
from gendyn import softmax_multitask as sm

SNR = (0.01, 0.039810717055349734, 0.15848931924611134, 0.630957344480193, 2.5118864315095797, 10.0)


def test_the_calibration_subsets_are_published_single_task_cells():
    st = pr.single_task("rank-10")
    for scale, cells in si.CALIBRATION.items():
        assert cells and len(set(cells)) == len(cells), scale
        for p, s in cells:
            assert pr.select(st, main_train_pts=p, s_a=s).sum() == 5, (scale, p, s)
    assert set(si.CALIBRATION["smoke"]) <= {(100, s) for s in SNR}


def test_setting_grid_is_the_product_in_order():
    grid = si.setting_grid([20, 64], [False, True], ["linear", "relu"], [1, 2], [(10, 0.1), (20, 0.1)])
    assert len(grid) == 32 and len(set(grid)) == 32
    assert grid[0] == si.Setting(20, False, "linear", 1, 10, 0.1)
    assert grid[-1] == si.Setting(64, True, "relu", 2, 20, 0.1)
    assert grid[0].label == "N=20 noisy linear x1 10ep lr=0.1"


@pytest.mark.parametrize("bad, name", [(dict(n_features=1), "n_features"), (dict(activation="tanh"), "activation"),
                                       (dict(depth=0), "depth"), (dict(epochs=0), "epochs"), (dict(lr=0.0), "lr"),
                                       (dict(clean_validation=1), "clean_validation")])
def test_a_bad_setting_names_its_field(bad, name):
    good = dict(n_features=6, clean_validation=False, activation="linear", depth=1, epochs=2, lr=0.1)
    with pytest.raises(ValueError, match=name):
        si.Setting(**{**good, **bad})


CELLS = [dict(n_train_a=8, s_a=1.0), dict(n_train_a=8, n_train_b=8, s_a=1.0, s_b=2.0, relatedness=0.5)]
PROTOCOL = dict(sweep=si.Sweep(n_classes=3, n_pool=40, n_val=12, hidden=4, batch_size=4))


def test_settings_that_differ_in_epochs_read_one_run_and_record_its_minimum_over_their_epochs():
    short, long_ = (si.Setting(6, True, "relu", 1, e, 0.2) for e in (2, 4))
    runs = si.simulate_settings([long_, short], CELLS, [0, 1], **PROTOCOL)
    for setting, g in ((short, 1), (long_, 0)):
        direct = il.train_cells(CELLS, [0, 1], n_val=12, data=il.AuthorsData(40, True, 0, 0),
                                teachers=mt.TeacherPair(n_features=6, rank=3, n_classes=3),
                                trunk=il.Trunk(hidden=4, depth=1),
                                schedule=il.SGDSchedule(activation="relu", lr=0.2, epochs=setting.epochs, batch_size=4,
                                                        record_every=1),
                                execution=il.Execution(dtype=runs_dtype()))
        np.testing.assert_allclose(runs.single_task[g], direct.single_task_min, rtol=1e-6)
        np.testing.assert_allclose(runs.multitask[g, 1], direct.multitask_min[1], rtol=1e-6)
    assert np.isnan(runs.multitask[:, 0]).all()
    values = runs.values(0)
    np.testing.assert_allclose(values[0], runs.single_task[0, 0])
    np.testing.assert_allclose(values[1], runs.single_task[0, 1] - runs.multitask[0, 1])
    with pytest.raises(ValueError, match="index"):
        runs.values(2)


def runs_dtype():
    import torch

    return torch.float32


def test_published_values_are_the_files_per_seed_values():
    cells = [dict(n_train_a=400, s_a=SNR[2]), dict(n_train_a=100, n_train_b=100, s_a=10.0, s_b=10.0, relatedness=1.0)]
    st_vals, b_vals = si.published_values(cells)
    st = pr.single_task("rank-10")
    pick = pr.select(st, main_train_pts=400, s_a=SNR[2])
    np.testing.assert_array_equal(st_vals, st["loss"][pick][np.argsort(st["train_seed"][pick])])
    ben = pr.benefits("rank-10")
    pick = pr.select(ben, main_train_pts=100, aux_train_pts=100, s_a=10.0, s_b=10.0, relatedness=1.0)
    assert sorted(b_vals) == sorted(ben["benefit"][pick]) and len(b_vals) == 5
    with pytest.raises(ValueError, match="cells"):
        si.published_values([dict(n_train_a=123, s_a=1.0)])


def test_calibration_fit_scores_each_setting_by_its_mean_squared_z():
    pub = [np.array([1.0, 1.2, 1.1]), np.array([2.0, 2.2, 2.1])]
    exact = np.array([[1.0, 1.2, 1.1], [2.0, 2.2, 2.1]])
    shifted = exact + 0.5
    fit = si.calibration_fit(pub, np.stack([shifted, exact]))
    assert fit.best == 1 and fit.statistic[1] == pytest.approx(0.0, abs=1e-12)
    se = math.sqrt(2) * 0.1 / math.sqrt(3)  # both sides: sd 0.1 over 3 seeds
    np.testing.assert_allclose(fit.z[0], [-0.5 / se] * 2)
    np.testing.assert_allclose(fit.statistic[0], (0.5 / se) ** 2)
    with pytest.raises(ValueError, match="simulated"):
        si.calibration_fit(pub, exact[None, :1])
    with pytest.raises(ValueError, match="published"):
        si.calibration_fit([np.array([1.0])], exact[None, :1])


def test_held_out_agreement_counts_cells_within_two_se_and_ranks_them():
    rng = np.random.default_rng(0)
    pub = [rng.normal(m, 0.1, 5) for m in (1.0, 2.0, 3.0, 4.0)]
    pred = np.stack([rng.normal(m, 0.1, 5) for m in (1.0, 2.0, 3.0, 5.0)])
    agree = si.held_out_agreement(pub, pred)
    assert agree.within == pytest.approx(0.75) and agree.rank_correlation == pytest.approx(1.0)
    assert agree.expected == pytest.approx(si.exact_coverage(5, 5))
    assert abs(agree.z[3]) > 2 > max(abs(agree.z[:3]))


def test_exact_coverage_is_the_student_t_probability():
    assert si.exact_coverage(5, 5) == pytest.approx(0.9195, abs=1e-3)
    assert si.exact_coverage(1000, 1000) == pytest.approx(0.9545, abs=1e-3)


def test_label_floor_noisy_is_the_label_entropy_and_clean_halves_are_lower():
    s = np.array([0.0, 0.1, 1.0])
    noisy, noisy_se = si.label_floor(s, 4, 20, False, n_samples=64, rng=1)
    reference = sm.noisy_label_entropy(s, 4, 20**-0.5, n_samples=64, rng=1)
    np.testing.assert_allclose(noisy, reference, rtol=1e-6, atol=1e-9)
    assert noisy[0] == pytest.approx(math.log(4)) and np.all(noisy_se >= 0)
    clean, _ = si.label_floor(s, 4, 20, True, n_samples=64, rng=1)
    # no signal: half the labels are the teacher's argmax, half uniform
    p = np.array([0.5 + 0.125, 0.125, 0.125, 0.125])
    assert clean[0] == pytest.approx(-(p * np.log(p)).sum())
    assert np.all(clean < noisy)
    # more features: less logit noise, a lower floor
    assert np.all(si.label_floor(s[1:], 4, 200, False, n_samples=64, rng=1)[0] < noisy[1:])


def test_the_flat_form_of_simulate_settings_warns_and_gives_bit_identical_results():
    setting = si.Setting(6, False, "relu", 1, 2, 0.2)
    new = si.simulate_settings([setting], CELLS, [0, 1], sweep=si.Sweep(n_classes=3, n_pool=40, n_val=12, hidden=4,
                                                                       batch_size=4, data_seed=1, model_seed=2))
    with pytest.warns(DeprecationWarning, match=r"sweep=Sweep\(") as caught:
        old = si.simulate_settings([setting], CELLS, [0, 1], n_classes=3, n_pool=40, n_val=12, hidden=4, batch_size=4,
                                   data_seed=1, model_seed=2)
    assert caught[0].filename == __file__
    assert np.array_equal(new.single_task, old.single_task)
    assert np.array_equal(new.multitask, old.multitask, equal_nan=True)
    with pytest.raises(ValueError, match="sweep either as a Sweep or as the flat keywords"):
        si.simulate_settings([setting], CELLS, [0, 1], sweep=si.Sweep(), n_pool=40)
    with pytest.raises(ValueError, match="sweep"):
        si.simulate_settings([setting], CELLS, [0, 1], sweep=dict(n_pool=40))


@pytest.mark.parametrize("field, value, message", [
    ("n_classes", 1, "n_classes must be an integer >= 2"), ("n_pool", 1, "n_pool must be an integer >= 2"),
    ("n_val", 0, "n_val must be an integer >= 1"), ("hidden", 0, "hidden must be an integer >= 1"),
    ("batch_size", 2.5, "batch_size must be an integer >= 1"), ("data_seed", -1, "data_seed must be an integer >= 0"),
    ("model_seed", None, "model_seed must be an integer >= 0"),
])
def test_a_sweep_checks_its_fields_when_made(field, value, message):
    with pytest.raises(ValueError, match=message):
        si.Sweep(**{field: value})
