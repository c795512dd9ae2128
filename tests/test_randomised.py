"""gendyn.randomised (§3.6): the stretched MP law and the training error of randomised data."""

import numpy as np
import pytest
import torch

from gendyn import deep_linear as dl
from gendyn import randomised, rmt, seeding, task_data, teachers, train


def test_scale_and_stretched_density():
    assert np.isclose(randomised.randomised_scale([4.0], 50), np.sqrt(1 + 16 / 50))
    assert np.isclose(randomised.randomised_scale([6.0, 4.0, 2.0], 50, noise_std=2.0), np.sqrt(4 + 56 / 50))
    assert np.allclose(randomised.randomised_scale([[4.0], [0.0]], 50), [np.sqrt(1.32), 1.0])
    c, a = 1.7, 0.5
    s = np.linspace(0, 4, 40001)
    dens = randomised.stretched_mp_density(s, a, c)
    assert np.isclose(np.trapezoid(dens, s), 1.0, atol=1e-3)
    assert dens[s > c * (1 + np.sqrt(a)) + 1e-9].max() == 0 and dens[s < c * (1 - np.sqrt(a)) - 1e-9].max() == 0


def test_randomised_train_error_limits_and_scaling():
    t = np.array([0.0, 1e3])
    err = randomised.randomised_train_error(t, [4.0], dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-5))
    assert np.isclose(err[0], 1.0, atol=1e-4) and err[1] < 1e-6  # full-rank student fits everything
    low = randomised.randomised_train_error([1e3], [4.0], dl.TaStudent(n1=100, n2=20, n3=50, eps=1e-5))[0]
    # rank-20 student: the bottom 30 of 50 modes stay, with their share of <shat^2>
    x = rmt.mp_quantile(np.linspace(0, 1, 20001)[1:-1], 0.5)
    bottom = x[: int(0.6 * x.size)]
    assert np.isclose(low, (bottom**2).sum() / (x**2).sum(), rtol=2e-3)
    # stretching by c: the curve at time t equals the unit-scale curve at c t with eps/c
    c = float(randomised.randomised_scale([4.0], 50))
    ts = np.geomspace(0.1, 10, 20)
    unit = dl.noise_mode_averages(c * ts, 0.5, 1e-5 / c, fraction=1.0)
    direct = randomised.randomised_train_error(ts, [4.0], dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-5))
    assert np.allclose(direct, unit.residual_sq / unit.data_sq_in, rtol=1e-10)


def test_randomised_train_error_matches_exact_ta_on_randomised_data():
    torch.set_num_threads(1)
    n1, n3, draws = 400, 200, 3
    g = torch.Generator().manual_seed(0)
    teacher = teachers.low_rank_teacher(torch.full((draws, 1), 6.0, dtype=torch.float64), n1, n3, rng=g)
    data = task_data.randomised_outputs(teachers.noisy_training_covariance(teacher, rng=g), rng=g)
    t = np.geomspace(0.05, 5, 30)
    zero = torch.zeros_like(data)
    zero[:, 0, 0] = 1.0  # any nonzero teacher: only the train error is used
    train_err = dl.sampled_ta_errors(t, data, zero, dl.TaStudent(eps=1e-5))[0]
    theory = randomised.randomised_train_error(t, [6.0], dl.TaStudent(n1=n1, n2=n3, n3=n3, eps=1e-5))
    assert np.max(np.abs(train_err.mean(0) - theory)) < 0.03


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: randomised.randomised_scale([-1.0], 50), r"teacher_svals must be real numbers in \[0, inf\); got \[-1.0\]"),
        (lambda: randomised.randomised_scale([1.0], 0), r"n3 must be an integer >= 1"),
        (lambda: randomised.randomised_scale([1.0], 50, noise_std=0.0), r"noise_std must be"),
        (lambda: randomised.stretched_mp_density(1.0, 0.5, -1.0), r"scale must be real numbers in \(0, inf\); got -1\.0"),
        (lambda: randomised.randomised_train_error([1.0], [1.0], dl.TaStudent(n1=100, n2=60, n3=50, eps=1e-5)), r"n2 must satisfy n2 <= n3"),
        (lambda: randomised.randomised_train_error([1.0], [[1.0]], dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-5)), r"1-d"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("n_layers", [3, 5])
def test_noise_mode_averages_are_the_bulk_terms_of_eqs_14_15(n_layers):
    t = np.geomspace(1e-2, 200, 40)
    sbar, n1, n2, n3, eps = np.array([3.0]), 100, 30, 50, 1e-5
    train_err, test_err = dl.theory_errors(t, sbar, dl.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps, n_layers=n_layers))
    a = n3 / n1
    shat, ovl = rmt.spike_singular_value(sbar, a), rmt.spike_overlap(sbar, a)
    s = dl.mode_strength(t[:, None], shat, eps, n_layers=n_layers)
    avg = dl.noise_mode_averages(t, a, eps, n_layers=n_layers, fraction=(n2 - 1) / (n3 - 1))
    test = (((s - sbar) ** 2 + 2 * s * sbar * (1 - ovl)).sum(1) + (n2 - 1) * avg.learned_sq) / (sbar**2).sum()
    num = ((s - shat) ** 2).sum(1) + (n2 - 1) * avg.residual_sq + (n3 - n2) * avg.data_sq_out
    den = (shat**2).sum() + (n2 - 1) * avg.data_sq_in + (n3 - n2) * avg.data_sq_out
    assert np.allclose(test, test_err, rtol=1e-12) and np.allclose(num / den, train_err, rtol=1e-12)
    with pytest.raises(ValueError, match=r"fraction .* \(0, 1\]"):
        dl.noise_mode_averages(t, a, eps, fraction=0.0)
    with pytest.raises(ValueError, match="scale must be a finite number > 0"):
        dl.noise_mode_averages(t, a, eps, scale=-1.0)


# ----------------------------------------------------------------------------------------
# the chapter's theory and experiment: learning_curves, learning_times, train_randomised
# ----------------------------------------------------------------------------------------

def test_learning_curves_are_eq14_and_its_randomised_form():
    t = np.geomspace(1e-2, 10, 50)
    curves = randomised.learning_curves(t, [6.0, 4.0, 2.0], 40, 20, 20, 1e-5)
    assert np.array_equal(curves.structured, dl.theory_errors(t, [6.0, 4.0, 2.0], dl.TaStudent(n1=40, n2=20, n3=20, eps=1e-5))[0])
    assert np.array_equal(curves.randomised, randomised.randomised_train_error(t, [6.0, 4.0, 2.0], dl.TaStudent(n1=40, n2=20, n3=20, eps=1e-5)))


def test_learning_times_cross_the_curves_and_add_the_gd_lag():
    t = np.geomspace(1e-2, 10, 600)
    sbar, n1, n2, n3, eps, lr = np.array([8.0]), 40, 20, 20, 1e-5, 1e-2
    curves = randomised.learning_curves(t, sbar, n1, n2, n3, eps)
    flow = randomised.learning_times(t, sbar, n1, n2, n3, eps)
    assert flow.structured == float(train.first_crossing(t, curves.structured, 0.9, "down"))
    assert flow.randomised == float(train.first_crossing(t, curves.randomised, 0.9, "down"))
    assert flow.ratio > 1  # randomised data is learned later
    gd = randomised.learning_times(t, sbar, n1, n2, n3, eps, lr=lr)
    shat1 = float(rmt.spike_singular_value(sbar, n3 / n1).max())
    assert np.isclose(gd.structured - flow.structured, dl.gd_lag(shat1, eps, lr, s=shat1 / 2), rtol=1e-12)
    assert gd.randomised > flow.randomised
    with pytest.raises(ValueError, match=r"level must be in \(0, 1\)"):
        randomised.learning_times(t, sbar, n1, n2, n3, eps, level=1.0)
    with pytest.raises(ValueError, match="t must reach the (structured|randomised) crossing"):
        randomised.learning_times(t[:200], sbar, n1, n2, n3, eps)


def test_train_randomised_draws_teachers_noise_then_outputs_and_trains_every_init():
    torch.set_num_threads(1)
    spec = train.FullBatchSpec(n1=12, n2=4, n3=6, lr=0.05, horizon=5.0, n_records=20)
    svals = np.array([[4.0, 0.0], [3.0, 1.0]])
    out = randomised.train_randomised(svals, 3, spec, inits=("random", "aligned"),
                                      rng=torch.Generator().manual_seed(1), desc=None)
    assert out.train_error.shape == (2, 2, 2, 3, out.time.size) and out.data_svals.shape == (2, 2, 3, 6)
    assert np.all(np.isfinite(out.train_error)) and out.time[-1] == pytest.approx(5.0)
    # the same draws by hand: the teachers from the stream "teacher", noise and outputs from "data"
    t_rng, d_rng = seeding.streams(torch.Generator().manual_seed(1), "teacher", "data")
    g = seeding.torch_generator(d_rng)
    teacher = teachers.low_rank_teacher(torch.tensor(np.repeat(svals, 3, axis=0)), 12, 6, rng=t_rng)
    structured = teachers.noisy_training_covariance(teacher, rng=g)
    data = torch.cat([structured, task_data.randomised_outputs(structured, rng=g)]).float()
    expected = torch.linalg.svdvals(data.double()).numpy().reshape(2, 2, 3, 6)
    assert np.allclose(out.data_svals, expected, rtol=1e-4, atol=1e-5)
    t09 = out.crossing(0.9)
    assert t09.shape == (2, 2, 2, 3)
    aligned = randomised.train_randomised(svals, 3, spec, rng=torch.Generator().manual_seed(1), desc=None)
    assert np.allclose(aligned.train_error[0], out.train_error[1], atol=1e-6)  # the TA half: same data, same students


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: randomised.train_randomised([[2.0]], 2, train.FullBatchSpec(n1=4, n2=2, n3=6, lr=0.1, horizon=1.0,
                                                                             n_records=5)), r"n2 <= n3 <= n1"),
        (lambda: train.FullBatchSpec(n1=6, n2=2, n3=3, lr=0.1, horizon=0.01, n_records=5), "horizon"),
        (lambda: randomised.train_randomised([2.0], 2, train.FullBatchSpec(6, 2, 3, 0.1, 1.0, 5)),
         "teacher_svals"),
        (lambda: randomised.train_randomised([[2.0]], 2, dict(n1=6)), "spec must be a FullBatchSpec"),
        (lambda: randomised.train_randomised([[2.0]], 2, train.FullBatchSpec(6, 2, 3, 0.1, 1.0, 5),
                                             inits="aligned"), "inits must be a non-empty sequence"),
    ],
)
def test_bad_experiment_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_former_flat_form_warns_and_gives_identical_results():
    t = np.array([0.5, 5.0, 50.0])
    new = randomised.randomised_train_error(t, [4.0], dl.TaStudent(n1=100, n2=30, n3=50, eps=1e-4, n_layers=4),
                                            noise_std=0.5)
    with pytest.warns(DeprecationWarning, match=r"pass randomised_train_error\(t, teacher_svals, TaStudent\(n1=100"):
        old = randomised.randomised_train_error(t, [4.0], 100, 30, 50, 1e-4, n_layers=4, noise_std=0.5)
    np.testing.assert_array_equal(old, new)
    with pytest.raises(ValueError, match=r"randomised_train_error needs the student's n1 and n3"):
        randomised.randomised_train_error(t, [4.0], dl.TaStudent(eps=1e-4))


def test_train_randomised_former_generator_is_deprecated_and_draws_as_rng():
    torch.set_num_threads(1)
    spec = train.FullBatchSpec(n1=6, n2=2, n3=3, lr=0.05, horizon=1.0, n_records=5)
    new = randomised.train_randomised([[2.0]], 2, spec, inits=("random",), rng=torch.Generator().manual_seed(3),
                                      desc=None)
    with pytest.warns(DeprecationWarning, match=r"train_randomised\(generator=...\) is deprecated"):
        old = randomised.train_randomised([[2.0]], 2, spec, inits=("random",),
                                          generator=torch.Generator().manual_seed(3), desc=None)
    assert np.array_equal(old.train_error, new.train_error) and np.array_equal(old.data_svals, new.data_svals)
    again = randomised.train_randomised([[2.0]], 2, spec, inits=("random",), rng=3, desc=None)
    assert np.array_equal(again.train_error, randomised.train_randomised([[2.0]], 2, spec, inits=("random",),
                                                                         rng=3, desc=None).train_error)
    with pytest.raises(ValueError, match="one random-number argument, rng"):
        randomised.train_randomised([[2.0]], 2, spec, rng=1, generator=torch.Generator(), desc=None)
    for bad in (-1, 1.5, "x"):
        with pytest.raises(ValueError, match=r"\brng must be"):
            randomised.train_randomised([[2.0]], 2, spec, rng=bad, desc=None)
