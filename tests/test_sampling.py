"""gendyn.sampling (App. G): P = N1 limit, the oversampled rescaling, the corrected eq. (27)."""

import numpy as np
import pytest
import torch

from gendyn import deep_linear as dl
from gendyn import rmt, sampling, task_data, teachers, train

EPS = 1e-5


def test_p_equal_n1_is_eq15():
    t = np.geomspace(0.01, 8, 50)
    for p in (100,):
        ref = dl.theory_errors(t, [3.0, 1.0], dl.TaStudent(n1=100, n2=100, n3=100, eps=EPS))[1]
        assert np.allclose(sampling.test_error(t, [3.0, 1.0], 100, p, EPS), ref, rtol=1e-10)
    # the two regimes meet continuously at P = N1
    near = [sampling.optimal_test_error([3.0], 100, p, EPS)[1] for p in (99, 100, 101)]
    assert abs(near[0] - near[1]) < 0.02 and abs(near[2] - near[1]) < 0.02


@pytest.mark.parametrize("n_layers, lr", [(3, 2e-3), (4, 4e-3)])
def test_oversampled_modes_follow_the_rescaled_dynamics(n_layers, lr):
    """TA students on orthonormal-row inputs: u(t) = s(D^(1/k) t; shat'/sqrt(D), sqrt(D) eps)/sqrt(D)."""
    n1, p, eps = 12, 30, 1e-3
    d, k = p / n1, n_layers - 1
    g = torch.Generator().manual_seed(0)
    teacher = teachers.low_rank_teacher(torch.tensor([[2.0, 1.0]], dtype=torch.float64), n1, n1, rng=g)
    x, y = task_data.sampled_task(teacher.matrix, p, "orthogonal", rng=g)
    res = train.train_students((x, y), train.Architecture(hidden=n1, n_layers=n_layers),
                               train.Schedule(lr=lr, epochs=3000, record_at=np.arange(0, 3001, 100)),
                               start=train.Start(eps=eps), evaluation=train.Evaluation(modes=2),
                               execution=train.Execution(dtype=torch.float64))
    shat = torch.linalg.svdvals(y @ x.mT)[0, :2].numpy()  # singular values of Sigma31 = sqrt(D) (...)
    pred = dl.mode_strength(d ** (1 / k) * res.time[:, None], shat / np.sqrt(d), np.sqrt(d) * eps,
                            n_layers=n_layers) / np.sqrt(d)
    delay = dl.gd_lag(shat / np.sqrt(d), np.sqrt(d) * eps, lr * d ** (1 / k), n_layers)
    tol = np.abs(np.gradient(pred, res.time, axis=0)).max(0) * 2 * delay.max() / d ** (1 / k) + 1e-6
    assert np.all(np.abs(res.mode_strength[0] - pred) <= tol)


def test_undersampled_corrected_eq27_limits_and_printed_form():
    t = np.array([0.0, 200.0])
    # no learning yet: error 1 (+ the frozen eps^2 term)
    assert np.isclose(sampling.test_error(t[:1], [3.0], 100, 40, EPS)[0], 1.0, atol=1e-6)
    # a huge SNR learned to convergence: 1 - D of the teacher is never seen (+ noise modes / sbar^2)
    big = 1e3
    late = sampling.test_error(t[1:], [big], 100, 25, EPS)[0]
    assert np.isclose(late, 1 - 0.25 + 24 / big**2, rtol=1e-3)
    printed = sampling.test_error(t[1:], [big], 100, 25, EPS, as_printed=True)[0]
    assert np.isclose(printed, (1 - 0.5) ** 2, rtol=1e-2)  # (1 - sqrt(D))^2: the missing factor
    # the late error is the asymptotic formula (with the frozen eps^2 term)
    for p in (30, 100, 160):
        assert np.isclose(sampling.test_error([1e4], [3.0], 100, p, 0.3)[0],
                          sampling.asymptotic_test_error([3.0], 100, p, eps=0.3 if p < 100 else 0.0), rtol=1e-6)


def test_optimum_is_the_minimum_of_the_curve_and_improves_with_p():
    errs = []
    for p in (20, 60, 100, 140, 200):
        t_opt, e_opt = sampling.optimal_test_error([3.0], 100, p, EPS)
        grid = np.geomspace(0.05, 20, 4000)
        curve = sampling.test_error(grid, [3.0], 100, p, EPS)
        assert e_opt <= curve.min() + 1e-9 and curve.min() - e_opt < 1e-4
        assert abs(np.log(grid[curve.argmin()] / t_opt)) < 0.01
        errs.append(e_opt)
    assert np.all(np.diff(errs) < 0)  # monotonic in P ...
    asym = [sampling.asymptotic_test_error([3.0], 100, p) for p in (20, 60, 100, 140, 200)]
    assert np.argmax(asym) == 2  # ... while the converged error peaks at P = N1


def test_undersampled_theory_matches_exact_ta_on_sampled_data():
    torch.set_num_threads(1)
    n1, p, sbar, draws = 300, 90, 3.0, 8
    g = torch.Generator().manual_seed(1)
    teacher = teachers.low_rank_teacher(torch.full((draws, 1), sbar, dtype=torch.float64), n1, n1, rng=g)
    x, y = task_data.sampled_task(teacher.matrix, p, "orthogonal", rng=g)
    u, s, vh = torch.linalg.svd(y @ x.mT)
    u, s, vh, w = (a.numpy() for a in (u, s, vh, teacher.matrix))
    t = np.geomspace(0.1, 6, 40)
    st = dl.mode_strength(t[None, :, None], s[:, None, :p], EPS)
    c = np.einsum("bia,bij,baj->ba", u[:, :, :p], w, vh[:, :p])
    err = ((st**2).sum(-1) - 2 * (st * c[:, None]).sum(-1) + (w**2).sum((1, 2))[:, None]) / sbar**2
    err += (n1 - p) * EPS**2 / sbar**2
    theory = sampling.test_error(t, [sbar], n1, p, EPS)
    assert np.max(np.abs(err.mean(0) / theory - 1)) < 0.05  # a few percent at N1 = 300
    # optimal errors: ||P vbar||^2 ~ D fluctuates by O(N1^-1/2) from draw to draw
    best = err.min(1)
    assert abs(best.mean() - theory.min()) < 3 * best.std(ddof=1) / np.sqrt(draws) + 0.005


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: sampling.test_error([1.0], [3.0], 100, 0, EPS), r"n_examples must be an integer >= 1"),
        (lambda: sampling.test_error([1.0], [0.0], 100, 50, EPS), r"all zero"),
        (lambda: sampling.test_error([1.0], [3.0, 2.0, 1.0], 100, 2, EPS), r"teacher rank 3 must be <="),
        (lambda: sampling.test_error([-1.0], [3.0], 100, 50, EPS), r"t \(training times\) must be real numbers in \[0, inf\); got \[-1\.0\]"),
        (lambda: sampling.test_error([1.0], [3.0], 100, 50, EPS, as_printed=1), r"as_printed must be True or False; got 1"),
        (lambda: sampling.asymptotic_test_error([3.0], 100, 50, eps=True), r"eps must be a finite number >= 0; got True"),
        (lambda: sampling.optimal_test_error([3.0], 100, 50, 0.0), r"eps must be a finite number > 0"),
        (lambda: sampling.asymptotic_test_error([np.nan], 100, 50), r"teacher_svals must be real numbers in \[0, inf\); got \[nan\]"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_theory_grid_is_the_theory_at_every_point():
    grid = sampling.theory_grid(20, [4, 20, 40], [2.0, 3.0], EPS)
    assert grid.n_train == (4, 20, 40) and np.array_equal(grid.density, [0.2, 1.0, 2.0])
    assert grid.optimum.shape == (2, 3, 2) and grid.asymptotic.shape == (2, 3)
    for i, s in enumerate([2.0, 3.0]):
        for j, p in enumerate([4, 20, 40]):
            assert tuple(grid.optimum[i, j]) == sampling.optimal_test_error([s], 20, p, EPS)
            assert grid.asymptotic[i, j] == sampling.asymptotic_test_error([s], 20, p, EPS)
    with pytest.raises(ValueError, match=r"^n_train must be increasing"):
        sampling.theory_grid(20, [20, 4], [2.0], EPS)
    with pytest.raises(ValueError, match=r"^svms must"):
        sampling.theory_grid(20, [4], [0.0], EPS)
    with pytest.raises(ValueError, match=r"^svms must hold at least one"):
        sampling.theory_grid(20, [4], [], EPS)


def _boosted_curves(grid, t, lr, gamma, runs, seed=0):
    """Curves of the oversampled model at exponent ``gamma`` (the undersampled P: the theory), with small noise."""
    curves = np.empty((len(grid.n_train), len(grid.svms), runs, t.size))
    rng = np.random.default_rng(seed)
    for j, p in enumerate(grid.n_train):
        d = p / grid.n1
        for i, s in enumerate(grid.svms):
            if p <= grid.n1:
                curve = sampling.test_error(t, [s], grid.n1, p, EPS)
            else:
                shat = float(rmt.spike_singular_value(np.sqrt(d) * s, 1.0))
                lag = float(dl.gd_lag(shat, np.sqrt(d) * EPS, lr * np.sqrt(d), s=shat / 2)) / np.sqrt(d)
                curve = dl.theory_errors(d**gamma * np.maximum(t - lag, 0), np.sqrt(d) * np.array([s]), dl.TaStudent(n1=grid.n1, n2=grid.n1, n3=grid.n1, eps=np.sqrt(d) * EPS))[1]
            curves[j, i] = curve * np.exp(0.01 * rng.standard_normal((runs, t.size)))
    return curves


@pytest.mark.parametrize("gamma", [0.5, 1.0])
def test_speedup_exponent_recovers_the_exponent_of_its_model(gamma):
    grid = sampling.theory_grid(40, [20, 40, 80], [2.0, 3.0], EPS)
    t = np.concatenate([[0.0], np.geomspace(1e-2, 10, 200)])
    fit = sampling.speedup_exponent(t, _boosted_curves(grid, t, 0.02, gamma, runs=4), grid, lr=0.02, rng=0)
    assert isinstance(fit, sampling.SpeedupFit)
    assert fit.gamma == pytest.approx(gamma, abs=0.015) and 0 <= fit.se < 0.02
    # the same seed, the same bootstrap
    again = sampling.speedup_exponent(t, _boosted_curves(grid, t, 0.02, gamma, runs=4), grid, lr=0.02, rng=0)
    assert again == fit


def test_speedup_exponent_refuses_bad_grids_and_curves():
    t = np.concatenate([[0.0], np.geomspace(1e-2, 10, 50)])
    under = sampling.theory_grid(40, [20, 40], [2.0], EPS)
    with pytest.raises(ValueError, match=r"^grid must hold a number of examples P > N1"):
        sampling.speedup_exponent(t, np.ones((2, 1, 2, t.size)), under, lr=0.02, rng=0)
    grid = sampling.theory_grid(40, [20, 80], [2.0], EPS)
    with pytest.raises(ValueError, match=r"^curves must have shape \(P, S, runs >= 2, T\)"):
        sampling.speedup_exponent(t, np.ones((2, 1, 1, t.size)), grid, lr=0.02, rng=0)
    with pytest.raises(ValueError, match=r"^time must reach into the drop"):
        sampling.speedup_exponent(t[:2], np.ones((2, 1, 2, 2)), grid, lr=0.02, rng=0)
    with pytest.raises(ValueError, match=r"^time must hold at least two increasing"):
        sampling.speedup_exponent(t[::-1], np.ones((2, 1, 2, t.size)), grid, lr=0.02, rng=0)
