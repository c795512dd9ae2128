"""Tests of gendyn.linear_student: the Advani-Saxe linear student (slides eqs. (1)-(12)).

Every theory formula is checked against an independent computation: Monte-Carlo spectra,
the gradient flow integrated in the original coordinates (matrix exponential, ODE solver),
averages over many draws of teacher/noise/initialisation, and adaptive quadrature.
"""

import numpy as np
import pytest
from scipy.integrate import quad, solve_ivp
from scipy.linalg import expm

from gendyn import linear_student as ls

SNR, INR, TAU = 4.0, 0.5, 1.3

def _sample_X(rng, n, p, batch=()):
    """Data of the slides: X_ij ~ N(0, 1/N), shape (..., N, P)."""
    return rng.standard_normal(batch + (n, p)) / np.sqrt(n)


def _flow_propagators(X, t, tau):
    """exp(-Sigma t/tau) and phi1 = int_0^1 exp(-Sigma t s/tau) ds from one block expm.

    Gradient flow tau dw/dt = (y - wX) X^T = b - w Sigma with b = wbar Sigma + eps X^T has
    w(t) = w(0) E + (t/tau) b phi1 (no eigendecomposition, valid for singular Sigma).
    """
    n = X.shape[0]
    sigma = X @ X.T
    a = -sigma * t / tau
    block = np.zeros((2 * n, 2 * n))
    block[:n, :n] = a
    block[:n, n:] = np.eye(n)
    big = expm(block)
    return sigma, big[:n, :n], big[:n, n:]


# ----------------------------------------------------------------------------- MP law


@pytest.mark.parametrize("alpha", [0.1, 0.5, 1.0, 2.0, 5.0])
def test_density_normalises_with_point_mass(alpha):
    lo, hi = ls.mp_eigenvalue_edges(alpha)
    mass_c = ls.mp_point_mass(alpha)
    # continuous part by adaptive quadrature with the sqrt edges as algebraic weights
    if alpha == 1.0:
        cont, _ = quad(lambda l: np.sqrt(hi - l) / (2 * np.pi), 0.0, hi, weight="alg", wvar=(-0.5, 0.0))
        mean, _ = quad(lambda l: np.sqrt(hi - l) * l / (2 * np.pi), 0.0, hi, weight="alg", wvar=(-0.5, 0.0))
    else:
        cont, _ = quad(lambda l: 1 / (2 * np.pi * l), lo, hi, weight="alg", wvar=(0.5, 0.5))
        mean, _ = quad(lambda l: 1 / (2 * np.pi), lo, hi, weight="alg", wvar=(0.5, 0.5))
    assert cont == pytest.approx(min(1.0, alpha), rel=1e-10)
    assert cont + mass_c == pytest.approx(1.0, rel=1e-10)
    assert mean == pytest.approx(alpha, rel=1e-10)  # mean eigenvalue of X X^T is P/N
    # the density agrees with the formula and with the derivative of the closed-form CDF
    lam = np.linspace(lo, hi, 41)[1:-1]
    dens = ls.mp_eigenvalue_density(lam, alpha)
    assert np.allclose(dens, np.sqrt((hi - lam) * (lam - lo)) / (2 * np.pi * lam))
    step = 1e-6
    fd = (ls.mp_eigenvalue_cdf(lam + step, alpha) - ls.mp_eigenvalue_cdf(lam - step, alpha)) / (2 * step)
    assert np.allclose(fd, dens, rtol=1e-5, atol=1e-7)
    assert ls.mp_eigenvalue_cdf(-1e-12, alpha) == 0.0
    assert ls.mp_eigenvalue_cdf(0.0, alpha) == pytest.approx(mass_c)
    assert ls.mp_eigenvalue_cdf(hi, alpha) == pytest.approx(1.0)
    assert np.all(ls.mp_eigenvalue_density([lo - 1e-3, hi + 1e-3, -1.0], alpha) == 0.0)


@pytest.mark.parametrize("alpha", [0.5, 2.0])
def test_density_matches_monte_carlo_spectrum(alpha):
    """Eigenvalues of X X^T at N = 400 (3 draws) against the full MP law."""
    rng = np.random.default_rng(11)
    n = 400
    p = int(alpha * n)
    X = _sample_X(rng, n, p, (3,))
    cov, gram = ls.data_spectrum(X)
    # the direct eigenvalues agree with the SVD-based spectrum
    direct = np.linalg.eigvalsh(X[0] @ X[0].T)
    assert np.allclose(np.sort(direct), cov[0], atol=1e-10)
    # point mass: exactly N - P zero eigenvalues when alpha < 1
    n_zero = np.sum(cov < 1e-10, axis=-1)
    assert np.all(n_zero == max(n - p, 0))
    # the Gram matrix X^T X has the same nonzero spectrum
    nz = min(n, p)
    assert np.allclose(cov[:, -nz:], gram[:, -nz:])
    # Kolmogorov distance between empirical and theoretical CDF (point mass included);
    # eigenvalue rigidity makes it O(log N / N) plus edge effects ~ N^(-2/3)
    lam = np.sort(cov.ravel())
    lo, hi = ls.mp_eigenvalue_edges(alpha)
    x = np.concatenate([lam, np.linspace(-0.1, hi + 0.1, 2001)])
    emp = np.searchsorted(lam, x, side="right") / lam.size
    ks = np.max(np.abs(emp - ls.mp_eigenvalue_cdf(x, alpha)))
    assert ks < 0.02
    # histogram of the bulk against the density integrated over the bins
    edges = np.linspace(lo, hi, 11)
    counts = np.histogram(lam, bins=edges)[0] / lam.size
    expected = np.diff(ls.mp_eigenvalue_cdf(edges, alpha))
    assert np.allclose(counts, expected, atol=0.01)


# ----------------------------------------------------------------------------- eq. (5), one dataset


@pytest.mark.parametrize("p", [30, 100])  # alpha = 0.6 (frozen modes) and 2
def test_eq5_exact_vs_matrix_exponential(p):
    """Eq. (5) against the exact average of the flow solved by a matrix exponential.

    With d(t) = wbar - w(t) = (wbar - w0) E - (t/tau) eps X^T phi1, the average over
    wbar, w0, eps is (sigma_w^2 + sigma_w0^2) ||E||_F^2 / N + sigma_eps^2 (t/tau)^2
    ||X^T phi1||_F^2 / N + sigma_eps^2 - computed here without any eigendecomposition.
    The training error is checked likewise (residual (wbar - w0) E X + eps (I - (t/tau) X^T phi1 X)).
    """
    rng = np.random.default_rng(5)
    n = 50
    X = _sample_X(rng, n, p)
    cov, gram = ls.data_spectrum(X)
    times = np.array([0.0, 0.3, 1.0, 3.0, 10.0, 40.0])
    want_g, want_t = [], []
    for t in times:
        _, E, phi = _flow_propagators(X, t, TAU)
        noise_map = (t / TAU) * X.T @ phi  # P x N
        eg = (1 + INR) * np.sum(E**2) / n + (1 / SNR) * np.sum(noise_map**2) / n + 1 / SNR
        resid_noise = np.eye(p) - noise_map @ X
        et = ((1 + INR) * np.sum((E @ X) ** 2) + (1 / SNR) * np.sum(resid_noise**2)) / p
        want_g.append(eg)
        want_t.append(et)
    got_g = ls.single_dataset_error(times, cov, SNR, INR, TAU)
    got_t = ls.single_dataset_training_error(times, gram, SNR, INR, TAU)
    assert np.allclose(got_g, want_g, rtol=1e-8)
    assert np.allclose(got_t, want_t, rtol=1e-8)
    # t = inf limits: frozen modes + noise on the bulk; training error memorises when P <= N
    assert ls.single_dataset_training_error(np.inf, gram, SNR, INR) == pytest.approx(
        max(0.0, 1 - n / p) / SNR, abs=1e-12
    )
    lam_pos = cov[cov > 1e-10]
    g_inf = (1 + INR) * (n - lam_pos.size) / n + np.sum(1 / lam_pos) / (n * SNR) + 1 / SNR
    assert ls.single_dataset_error(np.inf, cov, SNR, INR) == pytest.approx(g_inf, rel=1e-6)
    # round-off "zeros" straight from eigvalsh are recognised as frozen modes
    raw = np.linalg.eigvalsh(X @ X.T)
    for t in [2.0, np.inf]:
        assert ls.single_dataset_error(t, raw, SNR, INR) == pytest.approx(
            float(ls.single_dataset_error(t, cov, SNR, INR)), rel=1e-8
        )


def test_eq5_vs_simulated_gradient_flow_over_draws():
    """Monte-Carlo: integrate tau dw/dt = (y - wX) X^T numerically for 2000 draws of
    teacher, label noise and initialisation (absolute scales, not only ratios)."""
    rng = np.random.default_rng(7)
    n, p, draws = 50, 30, 2000
    sigma_w, sigma_eps, sigma_w0 = 1.5, 0.75, 0.6
    snr, inr = sigma_w**2 / sigma_eps**2, sigma_w0**2 / sigma_w**2
    X = _sample_X(rng, n, p)
    wbar = sigma_w * rng.standard_normal((draws, n))
    w0 = sigma_w0 * rng.standard_normal((draws, n))
    eps = sigma_eps * rng.standard_normal((draws, p))
    y = wbar @ X + eps

    # the flow is -(P/2) times the gradient of E_t = (1/P) sum_mu (y - wX)^2 (finite differences)
    def train_err(w):
        return np.mean((y[0] - w @ X) ** 2)

    w = w0[0]
    flow = (y[0] - w @ X) @ X.T
    for k in range(3):
        e = np.zeros(n)
        e[k] = 1e-6
        grad = (train_err(w + e) - train_err(w - e)) / 2e-6
        assert -(p / 2) * grad == pytest.approx(flow[k], rel=1e-6, abs=1e-9)

    times = np.array([0.0, 0.5, 2.0, 6.0])

    def rhs(_, flat):
        wt = flat.reshape(draws, n)
        return (((y - wt @ X) @ X.T) / TAU).ravel()

    sol = solve_ivp(rhs, (0.0, times[-1]), w0.ravel(), t_eval=times, method="DOP853", rtol=1e-9, atol=1e-11)
    assert sol.success
    wt = sol.y.T.reshape(len(times), draws, n)
    per_draw = np.sum((wbar[None] - wt) ** 2, axis=-1) / n + sigma_eps**2  # fresh test noise in expectation
    mean, se = per_draw.mean(axis=1), per_draw.std(axis=1, ddof=1) / np.sqrt(draws)
    cov, gram = ls.data_spectrum(X)
    theory = sigma_w**2 * ls.single_dataset_error(times, cov, snr, inr, TAU)
    assert np.all(np.abs(mean - theory) < 4 * se + 1e-12)
    # training error of the same trajectories
    resid = np.mean((y[None] - wt @ X) ** 2, axis=-1)
    theory_t = sigma_w**2 * ls.single_dataset_training_error(times, gram, snr, inr, TAU)
    se_t = resid.std(axis=1, ddof=1) / np.sqrt(draws)
    assert np.all(np.abs(resid.mean(axis=1) - theory_t) < 4 * se_t)


def test_mode_dynamics_eq4_matches_flow():
    """Eq. (4)/(9) in the eigenbasis, mapped back by w = z V^T, equals the expm solution."""
    rng = np.random.default_rng(3)
    n, p = 40, 25
    X = _sample_X(rng, n, p)
    wbar, w0, eps = rng.standard_normal(n), 0.3 * rng.standard_normal(n), 0.5 * rng.standard_normal(p)
    V, sv, Ut = np.linalg.svd(X)  # X = V diag(sv) U^T, V: N x N (full), Ut: P x P
    lam = np.zeros(n)
    lam[: sv.size] = sv**2
    eps_tilde = np.zeros(n)
    eps_tilde[: sv.size] = (eps @ Ut.T)[: sv.size]
    for t in [0.0, 0.7, 5.0]:
        z = ls.mode_dynamics(t, lam, wbar @ V, w0 @ V, eps_tilde, TAU)
        sigma, E, phi = _flow_propagators(X, t, TAU)
        w_ref = w0 @ E + (t / TAU) * (wbar @ sigma + eps @ X.T) @ phi
        assert np.allclose(z @ V.T, w_ref, atol=1e-10)
    # frozen modes (lambda = 0) never move
    z = ls.mode_dynamics(100.0, lam, wbar @ V, w0 @ V, eps_tilde, TAU)
    assert np.allclose(z[p:], (w0 @ V)[p:])


# ----------------------------------------------------------------------------- eq. (6), typical dataset


@pytest.mark.parametrize("alpha", [0.5, 2.0])
def test_eq6_vs_average_of_eq5_over_datasets(alpha):
    """Eq. (6) against eq. (5) averaged over 6 datasets at N = 300.

    Tolerance: (1/N) sum_i f(lambda_i) for a Wishart spectrum has an O(1/N) bias and O(1/N)
    dataset-to-dataset fluctuations (Bai-Silverstein CLT; no sqrt(N)), so with the gap open
    (alpha != 1) the relative discrepancy is a few / N; we allow 5/N = 1.7% (measured: <0.4%).
    The training error at alpha < 1 decays like exp(-2 lambda_min t), sensitive to the
    N^(-2/3) edge fluctuations, so it is compared in absolute terms (5/N of E_t(0)).
    """
    rng = np.random.default_rng(1)
    n = 300
    p = int(alpha * n)
    cov, gram = ls.data_spectrum(_sample_X(rng, n, p, (6,)))
    times = np.array([0.0, 0.5, 2.0, 8.0, 30.0])
    e5 = ls.single_dataset_error(times[:, None], cov, 5.0, 0.25).mean(axis=1)
    e6 = ls.generalization_error(times, alpha, 5.0, 0.25)
    assert np.all(np.abs(e5 / e6 - 1) < 5 / n)
    t5 = ls.single_dataset_training_error(times[:, None], gram, 5.0, 0.25).mean(axis=1)
    t6 = ls.training_error(times, alpha, 5.0, 0.25)
    assert np.all(np.abs(t5 - t6) < 5 / n * t6[0])


@pytest.mark.parametrize("alpha", [0.05, 0.5, 1.0, 2.0, 30.0])
@pytest.mark.parametrize("t", [0.01, 0.4, 3.0, 50.0])
def test_eq6_quadrature_vs_adaptive_quad(alpha, t):
    lo, hi = ls.mp_eigenvalue_edges(alpha)
    s = t / TAU

    def bracket(l):  # (1 - e^{-ls})^2 / l = s (1 - e^{-ls}) [(1 - e^{-ls}) / (ls)], finite at l = 0
        x = l * s
        ratio = -np.expm1(-x) / x if x > 0 else 1.0
        return (1 + INR) * np.exp(-2 * x) + s * ratio * (-np.expm1(-x)) / SNR

    def train(l):
        return np.exp(-2 * l * s) * (l * (1 + INR) + 1 / SNR)

    if alpha == 1.0:  # rho = sqrt(4 - l) / (2 pi sqrt(l))
        kw = dict(weight="alg", wvar=(-0.5, 0.5))
        g, _ = quad(lambda l: bracket(l) / (2 * np.pi), 0.0, hi, epsabs=0, epsrel=1e-13, limit=200, **kw)
        tr, _ = quad(lambda l: train(l) / (2 * np.pi), 0.0, hi, epsabs=0, epsrel=1e-13, limit=200, **kw)
    else:
        kw = dict(weight="alg", wvar=(0.5, 0.5))
        g, _ = quad(lambda l: bracket(l) / (2 * np.pi * l), lo, hi, epsabs=0, epsrel=1e-13, limit=200, **kw)
        tr, _ = quad(lambda l: train(l) / (2 * np.pi * l), lo, hi, epsabs=0, epsrel=1e-13, limit=200, **kw)
    g += max(0.0, 1 - alpha) * (1 + INR) + 1 / SNR
    tr = tr / alpha + max(0.0, 1 - 1 / alpha) / SNR
    assert ls.generalization_error(t, alpha, SNR, INR, TAU) == pytest.approx(g, rel=1e-10)
    assert ls.training_error(t, alpha, SNR, INR, TAU) == pytest.approx(tr, rel=1e-9, abs=1e-300)


def test_initial_error_and_broadcasting():
    alphas = np.array([0.1, 0.7, 1.0, 1.3, 10.0])
    # E_g(0)/sigma_w^2 = 1 + INR + 1/SNR (the brief's "1 + INR" is the noiseless case)
    assert np.allclose(ls.generalization_error(0.0, alphas, SNR, INR), 1 + INR + 1 / SNR, rtol=1e-12)
    assert np.allclose(ls.generalization_error(0.0, alphas, np.inf, INR), 1 + INR, rtol=1e-12)
    assert np.allclose(ls.training_error(0.0, alphas, SNR, INR), 1 + INR + 1 / SNR, rtol=1e-12)
    times = np.array([0.0, 0.5, 4.0])
    grid = ls.generalization_error(times[:, None], alphas, SNR, INR)
    assert grid.shape == (3, 5)
    loop = [[ls.generalization_error(t, a, SNR, INR) for a in alphas] for t in times]
    assert np.allclose(grid, loop, rtol=1e-13)
    assert np.all(grid >= 1 / SNR)
    # time is measured in units of tau
    assert ls.generalization_error(2.0, 0.7, SNR, INR, tau=2.0) == pytest.approx(
        ls.generalization_error(1.0, 0.7, SNR, INR, tau=1.0), rel=1e-13
    )


# ----------------------------------------------------------------------------- long times, early stopping


@pytest.mark.parametrize("alpha", [0.3, 0.7, 1.5, 3.0])
def test_asymptotic_error_closed_form(alpha):
    want = ls.asymptotic_error(alpha, SNR, INR)
    moment = alpha / (1 - alpha) if alpha < 1 else 1 / (alpha - 1)
    closed = max(0, 1 - alpha) * (1 + INR) + moment / SNR + 1 / SNR
    assert want == pytest.approx(closed, rel=1e-14)
    # quadrature at a time far beyond the slowest scale tau / lambda_min
    _, t_slow = ls.eigengap(alpha, TAU)
    assert ls.generalization_error(1e4 * t_slow, alpha, SNR, INR, TAU) == pytest.approx(want, rel=1e-11)
    assert ls.generalization_error(np.inf, alpha, SNR, INR) == pytest.approx(want, rel=1e-14)
    assert ls.training_error(np.inf, alpha, SNR, INR) == pytest.approx(max(0, 1 - 1 / alpha) / SNR, abs=1e-15)


def test_asymptotic_peak_at_alpha_one():
    # exactly at alpha = 1 the long-time error is +inf (documented), finite without noise
    assert ls.asymptotic_error(1.0, SNR, INR) == np.inf
    assert ls.generalization_error(np.inf, 1.0, SNR, INR) == np.inf
    assert ls.asymptotic_error(1.0, np.inf, INR) == 0.0
    # divergence like 1/(|1 - alpha| SNR) on both sides
    for d in [1e-2, 1e-4, 1e-8]:
        for a in (1 - d, 1 + d):
            e = ls.asymptotic_error(a, SNR, INR)
            assert e * d * SNR == pytest.approx(1.0, rel=3 * d + 1e-12)
    alphas = np.linspace(0.1, 4.0, 79)
    curve = ls.asymptotic_error(alphas, SNR, INR)
    assert alphas[np.argmax(curve)] == pytest.approx(1.0, abs=0.03)
    # at a long finite time the error is finite everywhere with its maximum at alpha = 1
    finite = ls.generalization_error(200.0, alphas, SNR, INR)
    assert np.all(np.isfinite(finite))
    assert alphas[np.argmax(finite)] == pytest.approx(1.0, abs=0.03)
    # at alpha = 1 the overfitting term grows like 2 (2 - sqrt 2) sqrt(t / pi) / SNR
    for t in [1e8, 1e200]:
        e = ls.generalization_error(t, 1.0, SNR, 0.0)
        slope = 2 * (2 - np.sqrt(2)) / np.sqrt(np.pi)
        assert (e - 1 / SNR) * SNR / np.sqrt(t) == pytest.approx(slope, rel=1e-3)


@pytest.mark.parametrize("alpha", [0.4, 1.0, 2.5])
@pytest.mark.parametrize("snr,inr", [(4.0, 0.0), (0.5, 1.0), (1e6, 0.1)])
def test_optimal_stopping(alpha, snr, inr):
    t_opt, e_opt = ls.optimal_stopping_error(alpha, snr, inr)
    assert np.isfinite(t_opt) and np.isfinite(e_opt)
    assert e_opt == pytest.approx(float(ls.generalization_error(t_opt, alpha, snr, inr)), rel=1e-12)
    assert e_opt <= ls.asymptotic_error(alpha, snr, inr) * (1 + 1e-12)
    assert e_opt <= ls.generalization_error(0.0, alpha, snr, inr)
    grid = ls.generalization_error(np.geomspace(1e-3, 1e9, 400), alpha, snr, inr)
    assert e_opt <= grid.min() * (1 + 1e-9)
    near = ls.generalization_error(t_opt * np.array([0.9, 1.1]), alpha, snr, inr)
    assert np.all(e_opt <= near)
    # no single stopping time beats stopping every mode at its own best time:
    # min_e [(1+INR) e^2 + (1-e)^2/(l SNR)] = (1+INR)/(1 + (1+INR) l SNR)
    k = 1 + inr
    lo, hi = ls.mp_eigenvalue_edges(alpha)
    wv = (-0.5, 0.5) if alpha == 1.0 else (0.5, 0.5)
    lam_pow = (lambda l: 1.0) if alpha == 1.0 else (lambda l: 1.0 / l)
    oracle, _ = quad(
        lambda l: k / (1 + k * l * snr) * lam_pow(l) / (2 * np.pi),
        lo, hi, weight="alg", wvar=wv, epsrel=1e-12,
    )
    oracle += max(0, 1 - alpha) * k + 1 / snr
    assert e_opt >= oracle * (1 - 1e-9)


def test_optimal_stopping_noiseless_and_vectorised():
    t_opt, e_opt = ls.optimal_stopping_error([0.5, 2.0], np.inf, 0.2)
    assert np.all(np.isinf(t_opt))
    assert np.allclose(e_opt, [0.5 * 1.2, 0.0])
    t_opt, e_opt = ls.optimal_stopping_error(np.array([0.5, 1.0, 2.0]), 4.0, 0.0)
    assert t_opt.shape == e_opt.shape == (3,)
    # early stopping removes the divergence at alpha = 1
    assert e_opt[1] < 2.0
    # extreme but valid inputs: finite answers, no overflow of SNR (1 + INR)
    with np.errstate(over="raise", divide="raise", invalid="raise"):
        t_opt, e_opt = ls.optimal_stopping_error([0.5, 1.0, 2.0], 1e300, 1e10)
    assert np.all(np.isfinite(t_opt)) and np.all(np.isfinite(e_opt))
    assert np.allclose(e_opt, [0.5 * (1 + 1e10), 0.0, 0.0], atol=1e-100, rtol=1e-6)


def test_eigengap_and_timescale():
    lam_min, t_slow = ls.eigengap([0.25, 1.0, 4.0], tau=2.0)
    assert np.allclose(lam_min, [0.25, 0.0, 1.0])
    assert t_slow[0] == pytest.approx(8.0) and t_slow[1] == np.inf and t_slow[2] == pytest.approx(2.0)
    assert ls.eigengap(1 - 1e-12)[0] == pytest.approx(0.25e-24, rel=1e-3)  # no cancellation
    # the smallest nonzero eigenvalue of a sample at N = 400 sits at the edge (TW scale N^(-2/3))
    rng = np.random.default_rng(2)
    for alpha in [0.25, 4.0]:
        n = 400
        cov, _ = ls.data_spectrum(_sample_X(rng, n, int(alpha * n)))
        smallest = cov[cov > 1e-10].min()
        assert smallest == pytest.approx(float(ls.eigengap(alpha)[0]), abs=0.05 * max(1, alpha))


def test_frozen_subspace_error():
    alphas = np.array([0.1, 0.5, 0.9, 1.0, 2.0])
    fz = ls.frozen_subspace_error(alphas, INR)
    assert np.allclose(fz, np.clip(1 - alphas, 0, None) * (1 + INR))
    # noiseless teacher: everything outside the frozen subspace is learned, so the
    # long-time error is exactly the frozen term, at all alpha
    assert np.allclose(ls.generalization_error(np.inf, alphas, np.inf, INR), fz, atol=1e-15)
    assert np.allclose(ls.generalization_error(1e6, alphas[alphas != 1.0], np.inf, INR), fz[alphas != 1.0])
    # the frozen modes of a real dataset contribute (N - P)/N (1 + INR) at every time:
    rng = np.random.default_rng(4)
    n, p = 60, 24
    cov, _ = ls.data_spectrum(_sample_X(rng, n, p))
    for t in [0.0, 1.0, 1e3]:
        frozen_part = ls.single_dataset_error(t, np.zeros(n - p), np.inf, INR) * (n - p) / n
        assert frozen_part == pytest.approx(ls.frozen_subspace_error(p / n, INR), rel=1e-12)
    # ... and the simulated student's error on the null space of X never moves
    wbar, w0 = rng.standard_normal((3000, n)), np.sqrt(INR) * rng.standard_normal((3000, n))
    V = np.linalg.svd(_sample_X(rng, n, p))[0]
    null = V[:, p:]
    frozen_mc = np.mean(np.sum(((wbar - w0) @ null) ** 2, axis=1)) / n
    assert frozen_mc == pytest.approx(ls.frozen_subspace_error(p / n, INR), rel=0.03)


# ----------------------------------------------------------------------------- bounds, eqs. (7)-(12)


def test_rademacher_vs_dynamics_bound():
    p = 100
    nh = np.array([150, 200, 400, 1000, 4000, 20000])
    rad = ls.rademacher_bound(nh, p)
    dyn = ls.dynamics_bound(nh, p)
    assert np.all(np.diff(rad) > 0)  # eq. (8) grows like sqrt(N_h)
    assert np.allclose(rad, np.sqrt(nh / p))
    assert np.all(np.diff(dyn) < 0)  # eq. (12) falls for N_h > P as the eigengap opens
    assert dyn[-1] == pytest.approx(1 / (1 - np.sqrt(p / nh[-1])) ** 2, rel=1e-12)
    assert dyn[-1] < rad[-1]
    # eq. (12) is eq. (8) with B_2 from eq. (11)
    b2 = ls.dynamics_weight_norm_bound(nh, p, 2.0, 0.3)
    dyn_b = ls.dynamics_bound(nh, p, 2.0, 0.3, b1=1.5, c=0.7)
    assert np.allclose(dyn_b, ls.rademacher_bound(nh, p, 1.5, b2, 0.7))
    # the eigengap closes at N_h = P: the MP-edge model gives an infinite bound (documented)
    assert ls.dynamics_bound(p, p) == np.inf
    # eq. (7)
    assert ls.generalization_gap_bound(0.1, 200, 0.05) == pytest.approx(0.2 + np.sqrt(np.log(20) / 400))


def test_dynamics_norm_bound_holds_along_relu_feature_flow():
    """Eq. (11) bounds ||w(t)||/sqrt(N_h) at all times for a ReLU random-feature student
    started at zero; eq. (10) equals the norm of the eq. (9) solution."""
    rng = np.random.default_rng(8)
    n_in, p, nh = 20, 40, 120
    x = rng.standard_normal((n_in, p)) / np.sqrt(n_in)
    W1 = rng.standard_normal((nh, n_in))
    Xh = np.maximum(W1 @ x, 0.0) / np.sqrt(nh)  # X_h^{a mu} = phi(W_a . x^mu)/sqrt(N_h)
    y = rng.standard_normal(n_in) @ x + 0.3 * rng.standard_normal(p)
    V, sv, Ut = np.linalg.svd(Xh)
    lam = np.zeros(nh)
    lam[: sv.size] = sv**2
    ztilde = y @ Xh.T @ V  # eq. (2): zbar Lambda + epstilde Lambda^(1/2), here for any labels
    times = np.geomspace(1e-2, 1e5, 30)
    norm_sq = ls.weight_norm_sq(times, lam, ztilde**2, np.zeros(nh))
    # reference: the flow in the original coordinates from w(0) = 0
    for t, ns in zip(times[::7], norm_sq[::7]):
        sigma, _, phi = _flow_propagators(Xh, t, 1.0)
        w = t * (y @ Xh.T) @ phi
        assert ns == pytest.approx(np.sum(w**2), rel=1e-7)
    active = lam > 1e-10 * lam.max()
    b2 = ls.dynamics_weight_norm_bound(nh, p, np.max(ztilde[active] ** 2), lam[active].min())
    assert np.all(np.sqrt(norm_sq / nh) <= b2)
    assert np.sum(active) == min(p, nh)


# ----------------------------------------------------------------------------- inputs


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: ls.generalization_error(1.0, 0.0, 1.0, 0.0), "alpha"),
        (lambda: ls.generalization_error(1.0, -2.0, 1.0, 0.0), "alpha"),
        (lambda: ls.generalization_error(1.0, np.nan, 1.0, 0.0), "alpha"),
        (lambda: ls.generalization_error(1.0, np.inf, 1.0, 0.0), "alpha"),
        (lambda: ls.generalization_error(1.0, 0.5, -1.0, 0.0), "snr"),
        (lambda: ls.generalization_error(1.0, 0.5, 0.0, 0.0), "snr"),
        (lambda: ls.generalization_error(1.0, 0.5, 1.0, -0.1), "inr"),
        (lambda: ls.generalization_error(-1.0, 0.5, 1.0, 0.0), "time t"),
        (lambda: ls.generalization_error(np.nan, 0.5, 1.0, 0.0), "time t"),
        (lambda: ls.generalization_error(1.0, 0.5, 1.0, 0.0, tau=0.0), "tau"),
        (lambda: ls.training_error(-1.0, 0.5, 1.0, 0.0), "time t"),
        (lambda: ls.asymptotic_error(0.0, 1.0, 0.0), "alpha"),
        (lambda: ls.optimal_stopping_error(0.5, -1.0, 0.0), "snr"),
        (lambda: ls.frozen_subspace_error(0.5, -1.0), "inr"),
        (lambda: ls.eigengap(-0.5), "alpha"),
        (lambda: ls.mp_eigenvalue_density(1.0, 0.0), "alpha"),
        (lambda: ls.mp_eigenvalue_cdf(1.0, -1.0), "alpha"),
        (lambda: ls.single_dataset_error(1.0, [1.0, -0.5], 1.0, 0.0), "eigvals"),
        (lambda: ls.single_dataset_error(-1.0, [1.0, 0.5], 1.0, 0.0), "time t"),
        (lambda: ls.single_dataset_training_error(1.0, [], 1.0, 0.0), "gram_eigvals"),
        (lambda: ls.mode_dynamics(np.inf, [1.0], [0.0], [0.0], [0.0]), "finite"),
        (lambda: ls.rademacher_bound(0, 10), "n_hidden"),
        (lambda: ls.dynamics_bound(10, -1), "n_samples"),
        (lambda: ls.generalization_gap_bound(0.1, 10, 1.5), "delta"),
        (lambda: ls.dynamics_weight_norm_bound(10, 5, 1.0, 0.0), "min_eigval"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_no_silent_nan_or_inf():
    with np.errstate(over="raise", divide="raise", invalid="raise"):  # no warnings (underflow is benign)
        alphas = np.array([[0.5], [1.0], [2.0]])
        big_t = ls.generalization_error(np.array([1e12, 1e100, 1e300]), alphas, 1e12, 1e-300)
        assert np.all(np.isfinite(big_t))
        assert np.all(np.isfinite(ls.training_error(1e300, [1e-300, 1.0, 1e300], 1e-3, 1e3)))
        tiny_t = np.array([0.0, 1e-300, 1.0])[:, None]
        assert np.all(np.isfinite(ls.generalization_error(tiny_t, [1e-300, 1e300], 1e300, 0.0)))
        assert np.isfinite(ls.single_dataset_error(1e300, [0.0, 1e-300, 1.0], 1.0, 0.0))
    # a value beyond the float range raises instead of returning inf
    with pytest.raises(OverflowError):
        ls.generalization_error(1e20, 1.0, 1e-300, 0.0)  # ~ 1e10 / 1e-300


# ----------------------------------------------------------------------------- ridge


@pytest.mark.parametrize("alpha", [0.3, 1.0, 2.5])
@pytest.mark.parametrize("lam", [0.01, 0.5, 3.0])
def test_mp_stieltjes_against_quadrature(alpha, lam):
    lo, hi = ls.mp_eigenvalue_edges(alpha)
    mass = max(0.0, 1.0 - alpha)
    A_q = quad(lambda l: ls.mp_eigenvalue_density(l, alpha) / (l + lam), lo, hi, limit=200)[0] + mass / lam
    dA_q = -quad(lambda l: ls.mp_eigenvalue_density(l, alpha) / (l + lam) ** 2, lo, hi,
                           limit=200)[0] - mass / lam**2
    A, dA = ls.mp_stieltjes(lam, alpha)
    assert A == pytest.approx(A_q, rel=1e-9)
    assert dA == pytest.approx(dA_q, rel=1e-8)


@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("snr", [0.5, 4.0, 64.0])
def test_ridge_optimum_is_one_over_snr_and_beats_early_stopping(alpha, snr):
    lams = np.geomspace(1e-3, 10.0, 4001)
    grid = ls.ridge_error(alpha, snr, lams)
    best = ls.ridge_error(alpha, snr)
    assert best == pytest.approx(ls.ridge_error(alpha, snr, 1.0 / snr), rel=1e-12)
    assert best <= grid.min() * (1 + 1e-12)
    _, e_es = ls.optimal_stopping_error(alpha, snr, 0.0)
    assert e_es >= best * (1 - 1e-9)


def test_ridge_limits():
    assert ls.ridge_error(0.4, np.inf) == pytest.approx(0.6)  # noiseless: only the frozen modes remain
    assert ls.ridge_error(3.0, np.inf) == 0.0
    assert ls.ridge_error(2.0, 4.0, 1e-9) == pytest.approx(ls.asymptotic_error(2.0, 4.0, 0.0), rel=1e-6)  # lam -> 0


def test_single_dataset_ridge_error_averages_to_the_mp_law():
    rng = np.random.default_rng(0)
    n, reps = 300, 16
    for alpha in (0.5, 2.0):
        p = int(alpha * n)
        values = [ls.single_dataset_ridge_error(np.linalg.eigvalsh(x @ x.T), 4.0)
                  for x in rng.normal(0, 1 / np.sqrt(n), (reps, n, p))]
        assert np.mean(values) == pytest.approx(ls.ridge_error(alpha, 4.0), rel=3e-3)  # O(1/N) finite size
        # per dataset, one stopping time for all modes never beats the optimal ridge
        x = rng.normal(0, 1 / np.sqrt(n), (n, p))
        ev = np.linalg.eigvalsh(x @ x.T)
        ts = np.geomspace(0.01, 1e3, 400)
        assert ls.single_dataset_error(ts[:, None], np.clip(ev, 0, None)[None], 4.0, 0.0).min() >= \
            ls.single_dataset_ridge_error(np.clip(ev, 0, None), 4.0) * (1 - 1e-12)


def test_finite_size_asymptotic_error_wishart_moments_and_large_n_limit():
    rng = np.random.default_rng(0)
    n = 30
    for p in (10, 60):  # the noise factor is the mean of tr(Gram^{-1}) / N over Gaussian datasets
        x = rng.standard_normal((4000, n, p)) / np.sqrt(n)
        gram = x.transpose(0, 2, 1) @ x if p < n else x @ x.transpose(0, 2, 1)
        sampled = np.trace(np.linalg.inv(gram), axis1=1, axis2=2) / n
        exact = ls.finite_size_asymptotic_error(p, n, 1.0, 0.0) - max(0.0, 1 - p / n) - 1.0
        assert abs(sampled.mean() - exact) < 4 * sampled.std(ddof=1) / np.sqrt(sampled.size)
    alpha = np.array([0.5, 2.0])
    big = ls.finite_size_asymptotic_error((alpha * 10**5).astype(int), 10**5, 4.0, 0.5)
    np.testing.assert_allclose(big, ls.asymptotic_error(alpha, 4.0, 0.5), rtol=1e-4)
    assert np.isinf(ls.finite_size_asymptotic_error(30, 30, 4.0, 0.0))
    assert ls.finite_size_asymptotic_error(30, 30, np.inf, 0.5) == 0.0  # noiseless: no noise to fit
    with pytest.raises(ValueError, match="n_samples"):
        ls.finite_size_asymptotic_error(2.5, 30, 4.0, 0.0)
    with pytest.raises(ValueError, match="n_features"):
        ls.finite_size_asymptotic_error(20, 0, 4.0, 0.0)


def test_gd_error_is_the_flow_error_with_discrete_decay_and_matches_simulated_descent():
    rng = np.random.default_rng(1)
    n, p, lr, snr, inr = 40, 25, 0.05, 4.0, 0.3
    x = rng.standard_normal((n, p)) / np.sqrt(n)
    lam = np.linalg.eigvalsh(x @ x.T)
    steps = np.array([0, 1, 10, 100, 1000])
    gd = ls.single_dataset_gd_error(steps, lr, lam, snr, inr)
    assert gd.shape == (5,) and gd[0] == pytest.approx(1 + inr + 1 / snr)
    # small steps: the flow at t = k lr
    tiny = ls.single_dataset_gd_error(steps * 1000, lr / 1000, lam, snr, inr)
    np.testing.assert_allclose(tiny, ls.single_dataset_error(steps * lr, lam, snr, inr), rtol=1e-3)
    # simulated descent, averaged over teachers, noise and initial weights (sigma_w = 1)
    draws = 20000
    wbar = rng.standard_normal((draws, n))
    w = np.sqrt(inr) * rng.standard_normal((draws, n))
    y = wbar @ x + rng.standard_normal((draws, p)) / np.sqrt(snr)
    errors = []
    for k in range(101):
        if k in (10, 100):
            errors.append(((w - wbar) ** 2).mean(1) + 1 / snr)
        w = w + lr * (y - w @ x) @ x.T
    for e, want in zip(errors, gd[2:4]):
        assert abs(e.mean() - want) < 4 * e.std(ddof=1) / np.sqrt(draws)
    with pytest.raises(ValueError, match="single numbers"):
        ls.single_dataset_gd_error(steps, lr, lam, [1.0, 2.0], inr)
    with pytest.raises(ValueError, match="steps"):
        ls.single_dataset_gd_error([[1, 2]], lr, lam, snr, inr)


def test_sampled_eigengap_skips_the_frozen_modes():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3, 8, 5)) / np.sqrt(8)  # P = 5 < N = 8: three frozen modes each
    cov, _ = ls.data_spectrum(X)
    gap = ls.sampled_eigengap(cov)
    direct = [np.linalg.svd(x, compute_uv=False).min() ** 2 for x in X]  # the smallest singular value of X
    np.testing.assert_allclose(gap, direct, rtol=1e-10)
    assert ls.sampled_eigengap([[0.0, 0.0], [0.0, 2.0]]).tolist() == [np.inf, 2.0]
    assert ls.sampled_eigengap(cov.astype(np.float32)).dtype == np.float32
    with pytest.raises(ValueError, match="eigvals"):
        ls.sampled_eigengap([1.0, -0.5])


@pytest.mark.parametrize("func", [ls.rademacher_bound, ls.dynamics_bound, ls.dynamics_weight_norm_bound])
def test_bounds_refuse_a_fractional_count(func):
    for bad in (2.5, [100, 150.5], True, 0):
        with pytest.raises(ValueError, match=r"^n_samples must be"):
            func(200, bad)
        with pytest.raises(ValueError, match=r"^n_hidden must be"):
            func(bad, 100)
    assert np.array_equal(func(np.array([150.0, 200.0]), 100.0), func(np.array([150, 200]), 100))


def test_generalization_gap_bound_refuses_a_fractional_count():
    with pytest.raises(ValueError, match=r"^n_samples must be whole numbers >= 1 \(P\) \(a count\); got 2.5"):
        ls.generalization_gap_bound(0.1, 2.5)


# --------------------------------------------- early stopping against ridge: closed-form limits of eq. (6)
# (the early-stopping-and-ridge chapter derives them; they are properties of the theory, so tested here)


def test_optimal_stopping_time_is_linear_in_snr_at_alpha_one():
    """t_opt / (SNR tau) -> I1/I2 = 1/(4 (sqrt 2 - 1)) at alpha = 1, with O(1/SNR) corrections."""
    slope = 1.0 / (4.0 * (np.sqrt(2.0) - 1.0))
    for snr in (1e3, 1e5):
        t_opt, _ = ls.optimal_stopping_error(1.0, snr, 0.0)
        assert float(t_opt) / snr == pytest.approx(slope, rel=1.0 / snr ** 0.5)
    assert float(ls.optimal_stopping_error(1.0, 1e5, 0.0)[0]) / 1e5 == pytest.approx(slope, rel=1e-4)


@pytest.mark.parametrize("alpha", [0.5, 2.0])
def test_optimal_stopping_time_is_logarithmic_in_snr_with_a_gap(alpha):
    """With a gap every mode's error rises past log(1 + lambda_- SNR)/lambda_-: the minimum of eq. (6) found
    on a fine time grid reaching 100 times further never lies beyond it."""
    lo = ls.mp_eigenvalue_edges(alpha)[0]
    snrs = np.geomspace(1.0, 1e5, 6)
    bound = np.log1p(lo * snrs) / lo
    ts = np.geomspace(1e-3, 100 * bound.max(), 3000)
    e = ls.generalization_error(ts[:, None], alpha, snrs[None, :], 0.0)
    assert np.all(ts[np.argmin(e, axis=0)] <= bound * (ts[1] / ts[0]))
    t_opt, _ = ls.optimal_stopping_error(alpha, snrs, 0.0)
    assert np.all(t_opt <= bound * (1 + 1e-9))


def test_excess_of_early_stopping_over_ridge_limits():
    """At alpha = 1 (min_t E_g - 1/SNR) / (E_ridge - 1/SNR) -> 2 sqrt(2 (sqrt 2 - 1) / pi) with O(SNR^-1/2)
    corrections; with a gap (alpha = 0.5, 2) the excess vanishes at high SNR."""
    limit = 2.0 * np.sqrt(2.0 * (np.sqrt(2.0) - 1.0) / np.pi)
    snr = 1e4
    _, e_stop = ls.optimal_stopping_error(1.0, snr, 0.0)
    ratio = (float(e_stop) - 1 / snr) / (float(ls.ridge_error(1.0, snr)) - 1 / snr)
    assert ratio == pytest.approx(limit, rel=1.0 / np.sqrt(snr))
    assert abs(ratio - 1.0) > 0.02  # the limit is not equality
    excess_1 = float(e_stop) / float(ls.ridge_error(1.0, snr)) - 1
    _, e_off = ls.optimal_stopping_error(np.array([0.5, 2.0]), snr, 0.0)
    excess_off = e_off / ls.ridge_error(np.array([0.5, 2.0]), snr) - 1
    assert np.all(excess_off >= -1e-9) and np.all(excess_off < 1e-2 * excess_1)


def test_gd_training_error_is_the_training_error_of_gradient_descent():
    """The spectral theory of the bounds chapter's memorisation run: exact for one label vector and any
    features, here random ReLU features with fewer features than examples (zero Gram eigenvalues)."""
    rng = np.random.default_rng(3)
    n_h, p = 12, 20
    X = np.maximum(rng.standard_normal((n_h, 5)) @ rng.standard_normal((5, p)), 0.0) / np.sqrt(n_h)
    y = rng.standard_normal(p)
    s, U = np.linalg.eigh(X.T @ X)
    lr, steps = 0.5 / s.max(), np.array([0, 1, 7, 40, 300])
    theory = ls.gd_training_error(steps, lr, np.clip(s, 0, None), (y @ U) ** 2)
    w, k, sim = np.zeros(n_h), 0, []
    for target in steps:
        while k < target:
            w += lr * (y - w @ X) @ X.T
            k += 1
        sim.append(np.mean((y - w @ X) ** 2))
    assert theory == pytest.approx(np.array(sim), rel=1e-9)
    assert theory[-1] > 0.1 * theory[0]  # P > N_h: the part of y outside the features' span stays


# ----------------------------------------------------------------------------- sampled datasets


def test_sampled_dataset_errors_are_eq5_and_its_training_twin():
    rng = np.random.default_rng(0)
    t = np.array([0.0, 0.5, 3.0, np.inf])
    for n, p in ((12, 6), (8, 16)):
        spectra = np.stack([np.linalg.eigvalsh(x @ x.T) for x in _sample_X(rng, n, p, (3,))])
        spectra = np.where(spectra > 1e-9 * spectra.max(-1, keepdims=True), spectra, 0.0)
        out = ls.sampled_dataset_errors(t, spectra, p, SNR, INR)
        assert isinstance(out, ls.SampledErrors) and out.test.shape == out.train.shape == (3, 4)
        for s, lam in enumerate(spectra):
            np.testing.assert_allclose(out.test[s], ls.single_dataset_error(t, lam, SNR, INR), rtol=1e-12)
            gram = np.sort(np.r_[np.zeros(p - (lam > 0).sum()), lam[lam > 0]])
            np.testing.assert_allclose(out.train[s], ls.single_dataset_training_error(t, gram, SNR, INR),
                                       rtol=1e-12)
        # at t = 0 nothing is learned: the training error is the power of wbar X - w(0) X + eps per example
        np.testing.assert_allclose(out.train[:, 0], (1 + INR) * spectra.sum(-1) / p + 1 / SNR, rtol=1e-10)


def test_sampled_dataset_errors_refuse_bad_input():
    lam = np.array([[0.0, 1.0, 2.0]])
    with pytest.raises(ValueError, match="n_train"):
        ls.sampled_dataset_errors([1.0], lam, 1, SNR, INR)  # rank 2 > P = 1
    with pytest.raises(ValueError, match="cov_eigvals"):
        ls.sampled_dataset_errors([1.0], lam[0], 3, SNR, INR)
    with pytest.raises(ValueError, match="snr"):
        ls.sampled_dataset_errors([1.0], lam, 3, [1.0, 2.0], INR)


def test_finite_size_gap_at_infinity_is_the_exact_inverse_wishart_gap():
    rng = np.random.default_rng(1)
    n, alpha, S = 20, 0.5, 400
    t = np.r_[np.geomspace(0.1, 100.0, 6), np.inf]
    spectra = np.stack([np.linalg.eigvalsh(x @ x.T) for x in _sample_X(rng, n, 10, (S,))])
    spectra = np.where(spectra > 1e-9 * spectra.max(-1, keepdims=True), spectra, 0.0)
    th6 = ls.generalization_error(t, alpha, SNR, INR)
    out = ls.finite_size_gap(t, alpha, spectra, np.tile(th6, (4, 1)), SNR, INR)
    assert isinstance(out, ls.FiniteSizeGap)
    assert out.gap_sim == pytest.approx(0.0, abs=1e-15)  # a "simulation" equal to eq. (6) has no gap
    assert out.ratio_inf == pytest.approx(1.0, abs=5 * out.ratio_inf_se)
    assert out.gap > 0 and out.gap_se > 0
    rel = (ls.single_dataset_error(t[:, None], spectra, SNR, INR) - th6[:, None]) / th6[:, None]
    assert out.gap == pytest.approx(abs(rel.mean()), rel=1e-12)


@pytest.mark.parametrize("kwargs, name", [(dict(t=[0.1, 1.0, 2.0]), "t"), (dict(alpha=1.0), "alpha"),
                                          (dict(spectra=np.ones((1, 10))), "spectra"),
                                          (dict(simulated=np.ones((2, 4))), "simulated"),
                                          (dict(snr=np.inf), "snr")])
def test_finite_size_gap_refuses_bad_input(kwargs, name):
    call = dict(t=[0.1, 1.0, np.inf], alpha=0.5, spectra=np.ones((2, 10)), simulated=np.ones((2, 3)), snr=SNR,
                inr=INR) | kwargs
    with pytest.raises(ValueError, match=name):
        ls.finite_size_gap(**call)


# ----------------------------------------------------------------------------- per-mode early stopping = ridge


@pytest.mark.parametrize("snr", [0.01, 4.0, 1e3])
@pytest.mark.parametrize("lam", [0.05, 1.0, 6.0])
def test_per_mode_stopping_time_minimises_the_mode_term_of_eq5(lam, snr):
    from scipy.optimize import minimize_scalar
    t_opt = float(ls.per_mode_stopping_time(lam, snr, TAU))
    # eq. (5) of a one-mode dataset is that mode's term plus 1/SNR; minimise it numerically in log t
    res = minimize_scalar(lambda u: float(ls.single_dataset_error(np.exp(u), [lam], snr, 0.0, TAU)),
                          bracket=(np.log(t_opt) - 1, np.log(t_opt) + 1), tol=1e-12)
    assert np.exp(res.x) == pytest.approx(t_opt, rel=1e-4)
    assert t_opt == pytest.approx(TAU * np.log(1 + snr * lam) / lam, rel=1e-12)


def test_per_mode_stopping_time_limits_and_growth():
    snr = np.array([0.1, 4.0, 1e4])
    # lambda -> 0: tau SNR, reached continuously and without 0/0 at lambda = 0
    assert np.all(ls.per_mode_stopping_time(0.0, snr, TAU) == TAU * snr)
    assert ls.per_mode_stopping_time(1e-14, snr, TAU) == pytest.approx(TAU * snr, rel=1e-9)
    # logarithmic in SNR for a fixed mode: t(e^2 S) - t(S) -> 2 tau / lambda
    big = np.array([1e8, 1e8 * np.e**2])
    t = ls.per_mode_stopping_time(0.5, big, TAU)
    assert t[1] - t[0] == pytest.approx(2 * TAU / 0.5, rel=1e-6)
    assert ls.per_mode_stopping_time(2.0, np.inf) == np.inf
    assert ls.per_mode_stopping_time(0.0, np.inf) == np.inf
    assert ls.per_mode_stopping_time(1e-300, 1e300) == pytest.approx(np.log(2.0) * 1e300, rel=1e-12)  # no overflow
    lam = np.geomspace(1e-6, 1e3, 50)
    assert np.all(np.diff(ls.per_mode_stopping_time(lam, 4.0)) < 0)  # slow modes want long training


@pytest.mark.parametrize("bad, name", [(-0.1, "eigvals"), (np.nan, "eigvals"), (np.inf, "eigvals")])
def test_per_mode_stopping_time_refuses_bad_eigenvalues(bad, name):
    with pytest.raises(ValueError, match=name):
        ls.per_mode_stopping_time([1.0, bad], 4.0)
    with pytest.raises(ValueError, match="snr"):
        ls.per_mode_stopping_time(1.0, 0.0)
    with pytest.raises(ValueError, match="broadcast"):
        ls.per_mode_stopping_time([1.0, 2.0], [1.0, 2.0, 3.0])


def test_per_mode_stopped_shrinkage_is_the_ridge_shrinkage_at_one_over_snr():
    lam = np.r_[0.0, np.geomspace(1e-8, 1e4, 200)]
    for snr in (0.01, 1.0, 4.0, 1e6):
        assert ls.per_mode_stopped_shrinkage(lam, snr) == pytest.approx(lam / (lam + 1.0 / snr), rel=1e-12, abs=0)
    assert np.all(ls.per_mode_stopped_shrinkage(lam, np.inf) == (lam > 0))


def test_per_mode_stopped_weights_equal_the_ridge_weights():
    """Gradient flow from zero, each eigenmode read at its own t_opt, gives w = y X^T (X X^T + I/SNR)^{-1}."""
    rng = np.random.default_rng(3)
    for n, p in ((40, 20), (30, 60)):
        X = _sample_X(rng, n, p)
        wbar, eps = rng.standard_normal(n), rng.standard_normal(p) / np.sqrt(SNR)
        y = wbar @ X + eps
        ridge = y @ X.T @ np.linalg.inv(X @ X.T + np.eye(n) / SNR)
        V, s, Ut = np.linalg.svd(X, full_matrices=True)
        lam = np.zeros(n)
        lam[: s.size] = s**2
        eps_t = np.zeros(n)
        eps_t[: s.size] = eps @ Ut[: s.size].T
        t_modes = ls.per_mode_stopping_time(lam, SNR, TAU)
        z = np.diagonal(ls.mode_dynamics(t_modes, lam, wbar @ V, np.zeros(n), eps_t, TAU))  # mode i at t_i
        assert z @ V.T == pytest.approx(ridge, rel=1e-9, abs=1e-12)
        # and the same through the shrinkage of each mode's least-squares solution
        g = ls.per_mode_stopped_shrinkage(lam, SNR)
        z_ls = np.where(lam > 0, wbar @ V + eps_t / np.sqrt(np.where(lam > 0, lam, 1.0)), 0.0)
        assert (g * z_ls) @ V.T == pytest.approx(ridge, rel=1e-9, abs=1e-12)


def test_per_mode_stopped_error_is_the_optimal_ridge_error_and_beats_one_stopping_time():
    rng = np.random.default_rng(4)
    for n, p in ((60, 30), (50, 50), (40, 80)):
        X = _sample_X(rng, n, p, (3,))
        ev, _ = ls.data_spectrum(X)
        for snr in (0.3, 4.0, 100.0):
            per_mode = ls.per_mode_stopped_error(ev, snr)
            assert per_mode == pytest.approx(ls.single_dataset_ridge_error(ev, snr), rel=1e-12)
            ts = np.geomspace(1e-3, 1e4, 600)
            one_time = ls.single_dataset_error(ts[:, None], ev[None], snr, 0.0).min(0)
            assert np.all(one_time >= per_mode * (1 - 1e-12))
    # MP average: the per-mode stopped error of typical datasets tends to ridge_error(alpha, snr)
    X = _sample_X(rng, 300, 600, (4,))
    assert ls.per_mode_stopped_error(ls.data_spectrum(X)[0], 4.0).mean() == \
        pytest.approx(float(ls.ridge_error(2.0, 4.0)), rel=5e-3)
    with pytest.raises(ValueError, match="snr"):
        ls.per_mode_stopped_error(ev, np.inf)
    with pytest.raises(ValueError, match="eigvals"):
        ls.per_mode_stopped_error([1.0, -1.0], 4.0)
