"""gendyn.deep_linear against eq. (9), ODE integration, adaptive quadrature and Monte Carlo."""

import contextlib
import warnings

import numpy as np
import pytest
import torch
from scipy import integrate, optimize

from gendyn import deep_linear as dl
from gendyn import rmt


def ode_mode(t, shat, eps, n_layers, tau=1.0):
    """Integrate App. A's tau du/dt = k u^(2-2/k) (shat - u) in log u (solve_ivp)."""
    k = n_layers - 1
    p = 2.0 - 2.0 / k

    def rhs(_, y):
        u = np.exp(y[0])
        return [k * u ** (p - 1.0) * (shat - u) / tau]

    sol = integrate.solve_ivp(rhs, (0.0, float(np.max(t))), [np.log(eps)], t_eval=t,
                              method="DOP853", rtol=1e-12, atol=1e-13)
    assert sol.success
    return np.exp(sol.y[0])


# ------------------------------------------------------------------ mode_strength / mode_time


def test_one_hidden_layer_is_eq_9():
    shat, eps, tau = np.array([0.3, 1.0, 2.5]), 1e-3, 2.0
    t = np.linspace(0.0, 20.0, 41)[:, None]
    e = np.exp(2 * shat * t / tau)
    assert np.allclose(dl.mode_strength(t, shat, eps, tau), shat * e / (e - 1 + shat / eps), rtol=1e-12)
    s = np.linspace(2e-3, 0.29, 7)
    eq9 = tau / (2 * 0.3) * np.log((0.3 / eps - 1) / (0.3 / s - 1))
    assert np.allclose(dl.mode_time(s, 0.3, eps, tau), eq9, rtol=1e-12)


@pytest.mark.parametrize("n_layers", [3, 4, 5])
@pytest.mark.parametrize("shat, eps", [(2.0, 1e-3), (0.4, 1e-2), (0.3, 0.31), (1e-3, 1e-2), (0.0, 1e-2)],
                         ids=["grow", "grow-slow", "just-below-eps", "decay", "shat=0"])
def test_mode_strength_matches_ode_integration(n_layers, shat, eps):
    horizon = 4 * dl.mode_time(0.5 * (shat + eps), shat, eps, n_layers=n_layers) if shat else 1e4
    t = np.linspace(0.0, horizon, 25)
    assert np.allclose(dl.mode_strength(t, shat, eps, n_layers=n_layers), ode_mode(t, shat, eps, n_layers),
                       rtol=1e-8, atol=0)


def test_five_layers_is_appendix_a_closed_form():
    shat, eps = 1.7, 1e-4

    def appendix_a(u):
        return 0.5 * (np.arctanh(np.sqrt(u / shat)) / shat**1.5 - 1.0 / (shat * np.sqrt(u)))

    u = np.geomspace(2e-4, 1.69, 12)
    assert np.allclose(dl.mode_time(u, shat, eps, n_layers=5), appendix_a(u) - appendix_a(eps), rtol=1e-12)


def _balanced_chain(sigma31, eps, n_layers, rng):
    """TA, balanced weights W_l with W_{N_l-1} ... W_1 = eps Uhat Vhat^T (square hidden layers)."""
    uh, _, vht = np.linalg.svd(sigma31, full_matrices=False)
    r = uh.shape[1]
    k = n_layers - 1
    qs = [np.linalg.qr(rng.standard_normal((r, r)))[0] for _ in range(k - 1)]
    a = eps ** (1.0 / k)
    mats = [a * qs[0] @ vht]
    for i in range(1, k - 1):
        mats.append(a * qs[i] @ qs[i - 1].T)
    mats.append(a * uh @ qs[-1].T)
    return mats


@pytest.mark.parametrize("n_layers", [3, 4])
def test_layerwise_gradient_flow_of_eq_8_gives_mode_strength(n_layers):
    """Integrate the weights' gradient flow (eq. 8, any depth) from a TA start and compare
    the composite map's singular values with mode_strength: checks App. A's ODE itself."""
    rng = np.random.default_rng(3)
    n1, n3, eps, tau = 5, 3, 1e-3, 1.0
    sigma31 = rng.standard_normal((n3, n1))
    shat = np.linalg.svd(sigma31, compute_uv=False)
    mats = _balanced_chain(sigma31, eps, n_layers, rng)
    shapes = [m.shape for m in mats]
    sizes = np.cumsum([0] + [m.size for m in mats])

    def unpack(y):
        return [y[sizes[i]:sizes[i + 1]].reshape(shapes[i]) for i in range(len(shapes))]

    def product(ms):
        out = np.eye(ms[0].shape[1])
        for m in ms:
            out = m @ out
        return out

    def rhs(_, y):
        ms = unpack(y)
        err = sigma31 - product(ms)  # Sigma11 = I (eq. 8 with its Sigma31 -> Sigma11 typo fixed)
        grads = []
        for i in range(len(ms)):
            below = product(ms[:i]) if i else np.eye(n1)
            above = product(ms[i + 1:]) if i + 1 < len(ms) else np.eye(n3)
            grads.append((above.T @ err @ below.T).ravel() / tau)
        return np.concatenate(grads)

    times = np.array([2.0, 4.0, 6.0, 10.0]) * (1.0 if n_layers == 3 else 8.0)
    sol = integrate.solve_ivp(rhs, (0, times[-1]), np.concatenate([m.ravel() for m in mats]),
                              t_eval=times, method="DOP853", rtol=1e-10, atol=1e-13)
    got = np.array([np.linalg.svd(product(unpack(y)), compute_uv=False) for y in sol.y.T])
    want = dl.mode_strength(times[:, None], shat, eps, tau, n_layers)
    assert np.allclose(got, want, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("n_layers", [3, 4, 5, 8])
def test_mode_time_inverts_mode_strength(n_layers):
    eps = 1e-4
    shat = np.array([[5.0], [1.0], [0.2], [3e-5], [0.0]])  # growing and decaying modes
    t = np.geomspace(1e-3, 1e5, 60)
    s = dl.mode_strength(t, shat, eps, n_layers=n_layers)
    assert s.shape == (5, 60)
    # the inverse is ill-conditioned next to shat (saturation) and eps (rounding of s)
    far = (np.abs(s - shat) > 1e-6 * np.maximum(shat, eps)) & (np.abs(s - eps) > 1e-6 * eps)
    assert far.sum() > 150
    back = dl.mode_time(s, shat, eps, n_layers=n_layers)
    assert np.allclose(back[far], np.broadcast_to(t, s.shape)[far], rtol=1e-8)


@pytest.mark.parametrize("n_layers", [3, 4, 5, 6, 7])
def test_mode_time_round_trip_to_1e8_over_the_domain_of_mode_strength(n_layers):
    """mode_time(mode_strength(t)) == t to 1e-8 for k = N_l - 1 = 2..6 weight matrices, eps from
    1e-14 to shat/2, several shat, times from 1e-6 to 4 half-learning times.

    A double s fixes t only to kappa * (rounding of s), kappa = |d ln t / d ln s| =
    s / (t ds/dt): where the mode has barely left eps (kappa ~ eps/(s - eps)) or has saturated
    at shat, no function of s can return t to 1e-8. Those points (kappa > 1e5) are left out;
    they are a minority, and mode_time is exact for them too (test below)."""
    k = n_layers - 1
    p = 2.0 - 2.0 / k
    kept = 0
    for shat in (0.5, 1.0, 4.0):
        for eps in np.geomspace(1e-14, 0.5 * shat, 9):
            t_half = float(dl.mode_time(0.5 * (shat + eps), shat, eps, n_layers=n_layers))
            t = t_half * np.geomspace(1e-6, 4.0, 40)
            s = dl.mode_strength(t, shat, eps, n_layers=n_layers)
            with np.errstate(divide="ignore"):
                kappa = s / (t * k * s**p * (shat - s))  # tau ds/dt = k s^p (shat - s)
            ok = kappa < 1e5
            kept += ok.sum()
            back = dl.mode_time(s[ok], shat, eps, n_layers=n_layers)
            assert np.allclose(back, t[ok], rtol=1e-8, atol=0), (shat, eps)
    assert kept > 0.75 * 3 * 9 * 40
    # the case of the issue: 4 weight matrices, eps = 1e-12 (was 105.46)
    s = dl.mode_strength(100.0, 1.0, 1e-12, n_layers=5)
    assert dl.mode_time(s, 1.0, 1e-12, n_layers=5) == pytest.approx(100.0, rel=1e-8)


def _time_by_mpmath(s, shat, eps, k):
    """tau/k int_eps^s du / (u^p (shat - u)) at 30 digits (tau = 1), on pieces graded toward
    eps and shat: independent of the library's closed forms and quadrature."""
    mp = pytest.importorskip("mpmath")
    with mp.workdps(30):
        s, shat, eps = mp.mpf(s), mp.mpf(shat), mp.mpf(eps)
        p = 2 - mp.mpf(2) / k
        lo, hi = min(s, eps), max(s, eps)
        pts = {lo, hi}
        x = lo
        while 2 * x < hi:
            x *= 2
            pts.add(x)
        gap = min(abs(shat - lo), abs(shat - hi))
        for j in range(1, 60):  # toward the pole at shat
            for y in (shat - gap * 2**j, shat + gap * 2**j):
                if lo < y < hi:
                    pts.add(y)
        val = mp.quad(lambda u: u ** (-p) / (shat - u), sorted(pts))
        return float(val / k * (1 if s > eps else -1))


@pytest.mark.parametrize("n_layers", [3, 4, 5, 7])
def test_mode_time_is_exact_for_its_input_even_where_ill_conditioned(n_layers):
    """Against 30-digit quadrature: growing and decaying modes, s next to eps and next to shat."""
    k = n_layers - 1
    cases = [(1.0, 1e-14, 1 + 1e-9), (1.0, 1e-14, 1.5), (1.0, 1e-14, 1e6), (3.0, 1e-6, 1 + 1e-6), (1.0, 0.4, 1.3),
             (1.0, 0.9, 1.05), (0.3, 0.31, 0.999), (1e-3, 1.0, 0.5), (1e-3, 1.0, 0.0011), (0.5, 2.0, 0.9)]
    for shat, eps, ratio in cases:
        s = eps * ratio
        got = float(dl.mode_time(s, shat, eps, n_layers=n_layers))
        assert got == pytest.approx(_time_by_mpmath(s, shat, eps, k), rel=1e-12), (shat, eps, ratio)
    s = 1.0 - 1e-12  # next to shat
    assert float(dl.mode_time(s, 1.0, 1e-8, n_layers=n_layers)) == pytest.approx(
        _time_by_mpmath(s, 1.0, 1e-8, k), rel=1e-12)


@pytest.mark.parametrize("n_layers", [3, 4, 5, 10])
def test_extreme_inputs_stay_finite_and_exact(n_layers):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert dl.mode_strength(1e8, 10.0, 1e-12, n_layers=n_layers) == 10.0
        assert dl.mode_strength(np.inf, 10.0, 1e-5, n_layers=n_layers) == 10.0
        assert dl.mode_strength(0.0, 10.0, 1e-12, n_layers=n_layers) == 1e-12
        t = np.concatenate([[0.0], np.geomspace(1e-6, 1e12, 200)])
        for shat, eps in [(10.0, 1e-12), (1e-12 * (1 + 1e-9), 1e-12), (1e-12 * (1 - 1e-9), 1e-12),
                          (1e-30, 1e-12), (1e-200, 1e-5), (3.0, 3.0), (0.0, 1e-12)]:
            s = dl.mode_strength(t, shat, eps, n_layers=n_layers)
            assert np.all(np.isfinite(s))
            lo, hi = min(shat, eps), max(shat, eps)
            assert np.all((s >= lo) & (s <= hi))
            step = np.diff(s) if shat >= eps else -np.diff(s)
            assert np.all(step >= 0), (shat, eps)  # monotone in t
        assert dl.mode_strength(1e12, 10.0, 1e-12, n_layers=n_layers) == 10.0
        # tiny eps: the mode is learned around t ~ eps^-(1-2/k)/((k-2) shat) (k = N_l - 1 > 2)
        t_half = dl.mode_time(1.0, 2.0, 1e-12, n_layers=n_layers)
        if n_layers > 3:
            k = n_layers - 1
            assert t_half == pytest.approx(1e12 ** (1 - 2 / k) / ((k - 2) * 2.0), rel=0.1)
        assert dl.mode_strength(3 * t_half, 2.0, 1e-12, n_layers=n_layers) == pytest.approx(2.0, rel=1e-3)


def test_zero_shat_decays_as_documented():
    eps, t = 1e-2, np.array([0.0, 1.0, 1e3, 1e6])
    assert np.allclose(dl.mode_strength(t, 0.0, eps), eps / (1 + 2 * eps * t), rtol=1e-13)
    k, p = 4, 1.5
    assert np.allclose(dl.mode_strength(t, 0.0, eps, n_layers=5),
                       eps * (1 + (2 * k - 2) * eps**p * t) ** (-1 / p), rtol=1e-13)
    # continuity in shat -> 0
    assert dl.mode_strength(50.0, 1e-14, eps, n_layers=5) == pytest.approx(
        dl.mode_strength(50.0, 0.0, eps, n_layers=5), rel=1e-9)


def test_mode_time_range_and_limits():
    assert dl.mode_time(2.0, 2.0, 1e-3) == np.inf
    assert dl.mode_time(1e-3, 2.0, 1e-3, n_layers=5) == 0.0
    assert dl.mode_time(0.0, 0.0, 1e-3) == np.inf
    assert dl.mode_time(0.5, 0.5, 0.5) == 0.0
    with pytest.raises(ValueError, match=r"s must lie between eps and s_hat .*2\.5"):
        dl.mode_time([1.0, 2.5], 2.0, 1e-3)
    with pytest.raises(ValueError, match="s must lie between eps and s_hat"):
        dl.mode_time(1e-4, 2.0, 1e-3, n_layers=4)  # below eps: a growing mode never was there
    with pytest.raises(ValueError, match="s must lie between eps and s_hat"):
        dl.mode_time(0.02, 0.0, 1e-2)  # a decaying mode never exceeds eps


# ------------------------------------------------------------------ theory_errors


def _simpson_mp(g, theta_a, aspect, n=2**17):
    """Brute-force conditional MP average of g(s) over [s(theta_a), 1 + sqrt(A)]: composite
    Simpson on a uniform theta grid, s = 1 - sqrt(A) cos(theta), density from gendyn.rmt."""
    theta = np.linspace(theta_a, np.pi, n + 1)
    s = 1 - np.sqrt(aspect) * np.cos(theta)
    w = rmt.mp_density(s, aspect) * np.sqrt(aspect) * np.sin(theta)
    return integrate.simpson(w * g(s), x=theta) / integrate.simpson(w, x=theta)


@pytest.mark.parametrize("n_layers, eps, aspect, rank_frac, r_in", [
    (5, 1e-5, 0.98, 1.0, "corrected"), (4, 1e-12, 0.5, 0.5, "corrected"), (3, 1e-5, 1.0, 0.5, "corrected"),
    (3, 1e-5, 1.0, 0.1, "literal"), (4, 1e-12, 0.5, 0.3, "literal")])
def test_theory_errors_match_brute_force_quadrature(n_layers, eps, aspect, rank_frac, r_in):
    """Eqs. (14)-(15) against an independent brute-force average over eq. (13), at times
    when the noise modes are being learned (the sharpest integrands), and R_in's split
    point f against scipy.quad + brentq on the MP density."""
    n1 = 200
    n3 = int(round(aspect * n1))
    n2 = int(round(rank_frac * n3))
    sbar = np.array([2.5, 1.5])
    r = sbar.size
    lo, hi = rmt.mp_edges(aspect)
    # corrected: R_in holds the learned share of the noise modes; literal: the paper's 1 - N2/N3
    q = (n2 - r) / (n3 - r) if r_in == "corrected" else 1 - n2 / n3

    def mass(a, b, g=lambda x: 1.0):
        return integrate.quad(lambda x: g(x) * rmt.mp_density(x, aspect), a, b, epsabs=1e-15, limit=500)[0]

    f = lo if q == 1 else optimize.brentq(lambda x: mass(x, hi) - q, lo, hi, xtol=1e-15)
    theta_f = np.arccos((1 - f) / np.sqrt(aspect))
    out2 = mass(lo, f, np.square) / (1 - q) if q < 1 else 0.0
    in2 = mass(f, hi, np.square) / q
    shat, overlap = rmt.spike_singular_value(sbar, aspect), rmt.spike_overlap(sbar, aspect)
    t = np.array([dl.mode_time(0.5 * x, x, eps, n_layers=n_layers) for x in (1.2, 0.5)])
    train, test = dl.theory_errors(t, sbar, dl.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps, n_layers=n_layers), r_in=r_in)
    for i, ti in enumerate(t):
        def mode(x):
            return dl.mode_strength(ti, x, eps, n_layers=n_layers)

        s2 = _simpson_mp(lambda x: mode(x) ** 2, theta_f, aspect)
        d2 = _simpson_mp(lambda x: (mode(x) - x) ** 2, theta_f, aspect)
        sa = dl.mode_strength(ti, shat, eps, n_layers=n_layers)
        ref_train = ((n3 - n2) * out2 + (n2 - r) * d2 + ((sa - shat) ** 2).sum()) / (
            (shat**2).sum() + (n3 - n2) * out2 + (n2 - r) * in2)
        ref_test = ((n2 - r) * s2 + ((sa - sbar) ** 2 + 2 * sa * sbar * (1 - overlap)).sum()) / (sbar**2).sum()
        assert train[i] == pytest.approx(ref_train, rel=1e-9)
        assert test[i] == pytest.approx(ref_test, rel=1e-9)


def test_literal_r_in_is_refused_at_full_rank_and_changes_low_rank_optimum():
    """The paper's literal R_in has no mass for a full-rank student; for a low-rank one it
    averages over most of the sea instead of its top, so it predicts less learned noise."""
    with pytest.raises(ValueError, match="full-rank"):
        dl.theory_errors([1.0], [2.0], dl.TaStudent(n1=100, n2=100, n3=100, eps=1e-5), r_in="literal")
    with pytest.raises(ValueError, match="r_in must be one of"):
        dl.optimal_early_stopping([2.0], dl.TaStudent(n1=100, n2=5, n3=100, eps=1e-5), r_in="paper")
    corrected = dl.optimal_early_stopping([1.5], dl.TaStudent(n1=100, n2=5, n3=100, eps=1e-5))[1]
    literal = dl.optimal_early_stopping([1.5], dl.TaStudent(n1=100, n2=5, n3=100, eps=1e-5), r_in="literal")[1]
    assert literal < 0.95 * corrected


@pytest.mark.parametrize("n_layers", [3, 5])
def test_theory_errors_limits(n_layers):
    sbar, n1, n3, eps = np.array([4.0, 2.0]), 200, 100, 1e-5
    aspect = n3 / n1
    train, test = dl.theory_errors([0.0, 1e9], sbar, dl.TaStudent(n1=n1, n2=n3, n3=n3, eps=eps, n_layers=n_layers))
    # t = 0: W = eps * (TA modes), so both errors are 1 up to O(eps)
    assert train[0] == pytest.approx(1.0, abs=1e-4) and test[0] == pytest.approx(1.0, abs=1e-4)
    # t -> inf, full rank: W = Sigma31, so training error 0; test error from <shat^2>_MP = 1
    # and shat^2 + sbar^2 - 2 sbar shat O = 1 + A + 3A/sbar^2 (eqs. 11-12)
    assert train[1] == pytest.approx(0.0, abs=1e-12)
    expected = (n3 - 2 + (1 + aspect + 3 * aspect / sbar**2).sum()) / (sbar**2).sum()
    assert test[1] == pytest.approx(expected, rel=1e-9)
    # a rank-N2 < N3 student keeps the bottom N3 - N2 noise modes unlearned: these are the
    # bottom (N3 - N2)/(N3 - 2) of the MP mass (scipy.quad + brentq on eq. 13)
    n2 = 40
    train_low, test_low = dl.theory_errors(1e9, sbar, dl.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps, n_layers=n_layers))
    lo, hi = rmt.mp_edges(aspect)

    def mass(a, b, g=lambda x: 1.0):
        return integrate.quad(lambda x: g(x) * rmt.mp_density(x, aspect), a, b, epsabs=1e-15, limit=500)[0]

    q_out = (n3 - n2) / (n3 - 2)
    f = optimize.brentq(lambda x: mass(lo, x) - q_out, lo, hi, xtol=1e-15)
    shat = rmt.spike_singular_value(sbar, aspect)
    expected_low = (n3 - 2) * mass(lo, f, np.square) / ((shat**2).sum() + (n3 - 2))
    assert train_low == pytest.approx(expected_low, rel=1e-9)
    assert test_low < test[1]
    t = np.geomspace(1e-2, 1e5, 50)
    tr, te = dl.theory_errors(t, sbar, dl.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps, n_layers=n_layers))
    assert tr.shape == te.shape == t.shape
    assert np.all(np.diff(tr) <= 1e-12)  # training error only falls


@pytest.mark.parametrize("sbar", [3.0, 8.0, 20.0])
@pytest.mark.parametrize("n_layers", [3, 5])
def test_large_snr_minimum_is_one_minus_overlap_squared(sbar, n_layers):
    """Eq. (15)'s spike term is >= sbar^2 (1 - O^2) (at s = sbar O) and the noise term is
    >= 0; at large SNR the noise is not yet learned when the spike passes sbar O."""
    aspect = 0.5
    floor = 1 - rmt.spike_overlap(sbar, aspect) ** 2
    t_opt, e_opt = dl.optimal_early_stopping([sbar], dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-5, n_layers=n_layers))
    assert floor - 1e-12 <= e_opt <= floor * 1.01
    assert e_opt == pytest.approx((1 + aspect) / sbar**2, rel=0.3 if sbar < 5 else 0.05)


@contextlib.contextmanager
def _one_blas_thread():
    """Sampled SVDs on one thread: multithreaded BLAS is ~10x slower on a busy 2-core box."""
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(n)


def _sample_training_data(sbar, n1, n3, gen):
    """Teacher Wbar = U diag(sbar) V^T and the SVD of Sigma31 = Wbar + Z, Z_ij ~ N(0, 1/n1)."""
    r = sbar.size
    u = torch.linalg.qr(torch.randn(n3, r, generator=gen, dtype=torch.float64))[0]
    v = torch.linalg.qr(torch.randn(n1, r, generator=gen, dtype=torch.float64))[0]
    wbar = (u * torch.as_tensor(sbar)) @ v.T
    z = torch.randn(n3, n1, generator=gen, dtype=torch.float64) / np.sqrt(n1)
    uh, sh, vh = torch.linalg.svd(wbar + z, full_matrices=False)
    c = torch.einsum("ib,ij,bj->b", uh, wbar, vh)  # u_b . Wbar v_b, for eq. (7)
    return sh.numpy(), c.numpy()


def _ta_monte_carlo(sbar, n1, n2, n3, eps, n_layers, seeds, t_opt, seed):
    """Minimum over t of the exact eq. (7) test error of TA students on sampled data.

    The error is scanned on a log grid around the theory's t_opt plus, per teacher mode,
    a fine grid around the time its student mode reaches the error-minimising value
    c_a = u_a . Wbar v_a (deep networks pass through it quickly), then refined by Brent.
    """
    gen = torch.Generator().manual_seed(seed)
    mins, t_mins = [], []
    for _ in range(seeds):
        with _one_blas_thread():
            sh, c = _sample_training_data(sbar, n1, n3, gen)
        sh, c = sh[:n2], c[:n2]

        def test_error(times):
            s = dl.mode_strength(np.atleast_1d(times)[:, None], sh, eps, n_layers=n_layers)
            return ((s**2).sum(1) - 2 * (s * c).sum(1) + (sbar**2).sum()) / (sbar**2).sum()

        r = sbar.size
        ok = (c[:r] > eps) & (c[:r] < sh[:r])
        t_c = dl.mode_time(c[:r][ok], sh[:r][ok], eps, n_layers=n_layers)
        grid = np.unique(np.concatenate([np.geomspace(t_opt / 4, t_opt * 4, 120)]
                                        + [tc * np.linspace(0.9, 1.1, 41) for tc in np.atleast_1d(t_c)]))
        errs = test_error(grid)
        i = int(np.clip(np.argmin(errs), 1, grid.size - 2))
        res = optimize.minimize_scalar(lambda lt: test_error(np.exp(lt))[0],
                                       bounds=(np.log(grid[i - 1]), np.log(grid[i + 1])),
                                       method="bounded", options={"xatol": 1e-8})
        best = min((res.fun, np.exp(res.x)), (errs.min(), grid[np.argmin(errs)]))
        mins.append(best[0])
        t_mins.append(best[1])
    return np.array(mins), np.array(t_mins)


@pytest.mark.parametrize(
    "sbar, n2, n_layers, aspect",
    [([3.0], 200, 3, 1.0), ([1.5], 200, 3, 1.0), ([3.0], 50, 3, 1.0), ([2.0], 100, 5, 0.5),
     ([6.0, 4.0, 2.0], 200, 3, 1.0)],
    ids=["snr3", "snr1.5", "rank50-student", "deep-A0.5", "rank3-teacher"],
)
def test_optimal_stopping_matches_monte_carlo_ta_network(sbar, n2, n_layers, aspect):
    """Minimum test error of a TA network on sampled data (exact eq. 7) vs eq. (15).

    N1 = 200: the spike's shat and O fluctuate by O(N^-1/2) per draw, so the per-draw
    minimum has sd ~0.01-0.04 (measured); we average 8 draws and allow 4 standard errors
    plus 0.01 for O(1/N) finite-size bias (e.g. the noise modes' residual correlation with
    the teacher that eq. 15 drops, and shat, O at finite N).
    """
    sbar, n1, eps = np.array(sbar), 200, 1e-5
    n3 = int(round(aspect * n1))
    t_opt, e_opt = dl.optimal_early_stopping(sbar, dl.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps, n_layers=n_layers))
    mins, t_mins = _ta_monte_carlo(sbar, n1, n2, n3, eps, n_layers, 8, t_opt, seed=7)
    se = mins.std(ddof=1) / np.sqrt(mins.size)
    assert abs(mins.mean() - e_opt) <= 4 * se + 0.01, (mins.mean(), se, e_opt)
    assert np.median(t_mins) == pytest.approx(t_opt, rel=0.15)


def test_low_rank_student_curves_match_monte_carlo():
    """Whole train/test curves of a rank-N2 < N3 TA student (App. H) vs eqs. (6)-(7)."""
    gen = torch.Generator().manual_seed(11)
    sbar, n1, n2, n3, eps = np.array([3.0]), 200, 60, 200, 1e-5
    t = np.geomspace(0.3, 100, 40)
    train, test = dl.theory_errors(t, sbar, dl.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps))
    mc_train, mc_test = [], []
    for _ in range(6):
        with _one_blas_thread():
            sh, c = _sample_training_data(sbar, n1, n3, gen)
        s = dl.mode_strength(t[:, None], sh[:n2], eps)
        mc_train.append((((s - sh[:n2]) ** 2).sum(1) + (sh[n2:] ** 2).sum()) / (sh**2).sum())
        mc_test.append(((s**2).sum(1) - 2 * (s * c[:n2]).sum(1) + 9.0) / 9.0)
    # train error: O(N^-1/2) spectrum fluctuations around the MP law -> 0.01 absolute
    assert np.allclose(np.mean(mc_train, 0), train, atol=0.01)
    # test error: dominated late by (N2 - 1) <s^2>_in ~ N2, i.e. O(N^-1/2) relative
    assert np.allclose(np.mean(mc_test, 0), test, rtol=0.08, atol=0.02)


def test_optimal_early_stopping_beats_a_dense_grid_and_below_threshold_never_learns():
    sbar, n1, n3, eps = [6.0, 4.0, 2.0], 100, 100, 1e-5
    t_opt, e_opt = dl.optimal_early_stopping(sbar, dl.TaStudent(n1=n1, n2=n3, n3=n3, eps=eps, n_layers=5))
    t = np.linspace(0.8 * t_opt, 1.2 * t_opt, 401)
    assert e_opt <= dl.theory_errors(t, sbar, dl.TaStudent(n1=n1, n2=n3, n3=n3, eps=eps, n_layers=5))[1].min() + 1e-12
    # A = 1: threshold A^(1/4) = 1; a mode below it has O = 0 and only adds noise
    t0, e0 = dl.optimal_early_stopping([0.9], dl.TaStudent(n1=100, n2=100, n3=100, eps=eps))
    assert t0 == 0.0 and e0 == pytest.approx(1.0, abs=1e-6)


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(eps=0.0), r"eps must be a finite number > 0; got 0\.0"),
        (dict(eps=-1e-5), r"eps must be a finite number > 0"),
        (dict(n_layers=2), r"n_layers must be an integer >= 3 .*got 2"),
        (dict(n_layers=3.5), r"n_layers must be an integer >= 3 .*got 3\.5"),
        (dict(n_layers=True), r"n_layers must be an integer >= 3"),
        (dict(n2=60), r"n2 <= n3; got n2=60, n3=50"),
        (dict(n3=120, n2=50), r"n3 <= n1 .*got n3=120, n1=100"),
        (dict(teacher_svals=[3.0, 2.0, 1.0], n2=2), r"teacher rank .* = 3\) must be <= student rank n2 = 2"),
        (dict(teacher_svals=[3.0, -1.0]), r"teacher_svals \(teacher singular values\) must be real numbers in \[0, inf\); got \[-1\.0\]"),
        (dict(teacher_svals=[0.0]), r"all zero"),
        (dict(t=[-1.0]), r"t \(training times\) must be real numbers in \[0, inf\); got \[-1\.0\]"),
        (dict(tau=0.0), r"tau must be a finite number > 0"),
    ],
)
def test_theory_errors_bad_inputs_raise(kwargs, match):
    args = dict(t=[0.0, 1.0], teacher_svals=[3.0], n1=100, n2=50, n3=50, eps=1e-5)
    args.update(kwargs)
    data = {k: args.pop(k) for k in ("t", "teacher_svals")}
    with pytest.raises(ValueError, match=match):  # the spec refuses a bad field, the function a bad relation
        dl.theory_errors(**data, student=dl.TaStudent(**args))


def test_mode_functions_bad_inputs_raise():
    with pytest.raises(ValueError, match=r"s_hat \(training singular values\) must be real numbers in \[0, inf\); got -2\.0"):
        dl.mode_strength(1.0, -2.0, 1e-3)
    with pytest.raises(ValueError, match=r"t \(training times\) must be real numbers in \[0, inf\]; got -1\.0"):
        dl.mode_strength(-1.0, 2.0, 1e-3)
    with pytest.raises(ValueError, match=r"t \(training times\) must be real numbers in \[0, inf\]; got nan"):
        dl.mode_strength(np.nan, 2.0, 1e-3)
    with pytest.raises(ValueError, match=r"eps must be a finite number > 0"):
        dl.mode_strength(1.0, 2.0, 0.0)
    with pytest.raises(ValueError, match=r"n_layers must be an integer >= 3"):
        dl.mode_time(1.0, 2.0, 1e-3, n_layers=3.0)
    with pytest.raises(ValueError, match=r"s \(mode strengths\) must be real numbers in \[0, inf\); got -1\.0"):
        dl.mode_time(-1.0, 2.0, 1e-3)
    with pytest.raises(ValueError, match=r"n2 <= n3"):
        dl.optimal_early_stopping([3.0], dl.TaStudent(n1=100, n2=60, n3=50, eps=1e-5))


# ------------------------------------------------------------------ finite lr, finite size


@pytest.mark.parametrize("n_layers, lr", [(3, 1e-2), (5, 2e-2)])
def test_gd_lag_predicts_the_delay_of_gradient_descent(n_layers, lr):
    """Half-learning times of a TA network trained by gradient descent are those of the
    gradient flow delayed by gd_lag (first order in lr: agreement to ~1% of the delay)."""
    from gendyn import teachers, train

    gen = torch.Generator().manual_seed(0)
    shat = np.array([4.0, 2.0, 1.0])
    u = teachers.random_orthonormal(3, 3, batch=(1,), rng=gen)
    v = teachers.random_orthonormal(10, 3, batch=(1,), rng=gen)
    s31 = (u * torch.as_tensor(shat)) @ v.mT
    horizon = 1.2 * dl.mode_time(0.9, 1.0, 1e-5, n_layers=n_layers)
    epochs = int(horizon / lr)
    res = train.train_students(s31, train.Architecture(hidden=3, n_layers=n_layers),
                               train.Schedule(lr=lr, epochs=epochs, record_at=np.arange(epochs + 1)),
                               evaluation=train.Evaluation(modes=3), execution=train.Execution(dtype=torch.float64))
    measured = train.first_crossing(res.time, res.mode_strength[0].T / shat[:, None], 0.5)
    delay = measured - dl.mode_time(shat / 2, shat, 1e-5, n_layers=n_layers)
    predicted = dl.gd_lag(shat, 1e-5, lr, n_layers, s=shat / 2)
    assert np.allclose(delay, predicted, rtol=0.02), (delay, predicted)
    assert np.all(dl.gd_lag(shat, 1e-5, lr, n_layers) >= predicted)  # the default is the maximum
    # the largest deviation from the flow is what the largest delay predicts (first order)
    flow = dl.mode_strength(res.time[:, None], shat, 1e-5, n_layers=n_layers)
    late = dl.mode_strength(np.maximum(res.time[:, None] - dl.gd_lag(shat, 1e-5, lr, n_layers), 0), shat, 1e-5,
                            n_layers=n_layers)
    dev, bound = np.abs(res.mode_strength[0] - flow).max(0), np.abs(late - flow).max(0)
    assert np.all(dev <= bound) and np.all(dev >= 0.9 * bound)


@pytest.mark.parametrize("n_layers", [3, 4, 5, 7])
def test_gd_lag_accuracy_is_lr_times_the_largest_slope_on_the_way_up(n_layers):
    """lr max|f'| over the path u in (0, shat], by brute force; at convergence it is the curvature
    that sets gradient descent's stability limit (lr max|f'| = 2 there)."""
    from gendyn import train

    k, shat, lr = n_layers - 1, np.array([0.5, 1.0, 4.0]), 1e-2
    u = shat[:, None] * np.linspace(1e-9, 1.0, 200_001)
    slope = (k - 1) * u ** (1 - 2 / k) * (shat[:, None] - u) - k * u ** (2 - 2 / k)
    np.testing.assert_allclose(dl.gd_lag_accuracy(shat, lr, n_layers), lr * np.abs(slope).max(1), rtol=1e-9)
    s31 = torch.diag(torch.tensor([4.0, 1.0], dtype=torch.float64))[None]
    limit = float(train.stability_limit(s31, n_layers)[0])
    assert dl.gd_lag_accuracy(4.0, limit, n_layers) == pytest.approx(2.0)


def test_sampled_ta_errors_per_mode_terms_sum_to_the_errors():
    rng = np.random.default_rng(0)
    s31, wbar = rng.normal(size=(2, 6, 9)), rng.normal(size=(2, 6, 9))
    t = np.array([0.0, 1.0, 5.0, 30.0])
    for n2 in (6, 3):
        train, test = dl.sampled_ta_errors(t, s31, wbar, dl.TaStudent(eps=1e-3, n2=n2))
        tr_b, te_b = dl.sampled_ta_errors(t, s31, wbar, dl.TaStudent(eps=1e-3, n2=n2), per_mode=True)
        assert tr_b.shape == te_b.shape == (2, 4, n2)
        shat = np.linalg.svd(s31, compute_uv=False)
        tr_const = (shat[:, n2:] ** 2).sum(-1) / (shat**2).sum(-1)
        np.testing.assert_allclose(tr_b.sum(-1) + tr_const[:, None], train, rtol=1e-12)
        np.testing.assert_allclose(te_b.sum(-1) + 1.0, test, rtol=1e-12)
    with pytest.raises(ValueError, match="per_mode"):
        dl.sampled_ta_errors(t, s31, wbar, dl.TaStudent(eps=1e-3), per_mode="yes")


def test_gd_lag_limits_and_checks():
    assert dl.gd_lag(2.0, 1e-5, 1e-3) == pytest.approx(1e-3 / 2 * (0.5 * np.log(2 / 3 / 1e-5) + np.log(2 / 3)), rel=1e-5)
    assert dl.gd_lag(0.5e-5, 1e-5, 1e-3) == 0.0  # a decaying mode has no growth delay
    assert dl.gd_lag(2.0, 1e-5, 1e-3, s=1e-5) == 0.0
    with pytest.raises(ValueError, match="lr must be a finite number > 0"):
        dl.gd_lag(2.0, 1e-5, 0.0)


def test_sampled_ta_errors_follow_gradient_descent_and_the_limit():
    """On sampled data, TA networks trained by gradient descent follow eqs. (6)-(7) with
    eq. (9) up to the gd_lag delay; averaged over draws the curves approach eqs. (14)-(15)."""
    from gendyn import teachers, train

    gen = torch.Generator().manual_seed(3)
    sv = torch.tensor([[3.0, 0.0], [4.0, 2.0]], dtype=torch.float64)
    teacher = teachers.low_rank_teacher(sv, 60, 30, rng=gen)
    s31 = teachers.noisy_training_covariance(teacher, rng=gen)
    lr = 2e-3
    res = train.train_students(s31, train.Architecture(hidden=20), train.Schedule(lr=lr, epochs=4000, n_records=60),
                               evaluation=train.Evaluation(teacher=teacher),
                               execution=train.Execution(dtype=torch.float64))
    train_err, test_err = dl.sampled_ta_errors(res.time, s31, teacher.matrix, dl.TaStudent(eps=1e-5, n2=20))
    shat = np.linalg.svd(s31.numpy(), compute_uv=False)
    tr_late, te_late = dl.sampled_ta_errors(res.time, s31, teacher.matrix, dl.TaStudent(eps=1e-5, n2=20), delay=dl.gd_lag(shat, 1e-5, lr))
    for sim, exact, late in ((res.train_error, train_err, tr_late), (res.test_error, test_err, te_late)):
        assert np.abs(np.log(sim) - np.log(exact)).max() <= np.abs(np.log(late) - np.log(exact)).max() + 1e-9
    # at t = 0 the student is ~0: train error 1, test error 1; rank 20 < 30 leaves a residue
    assert np.allclose(train_err[:, 0], 1.0, atol=1e-4) and np.allclose(test_err[:, 0], 1.0, atol=1e-4)
    assert np.all(train_err[:, -1] > 0.01)  # the 10 unlearnable modes
    # the N -> infinity limit: 40 draws of a rank-1 teacher, mean vs eqs. (14)-(15)
    sv = torch.full((40, 1), 3.0, dtype=torch.float64)
    teacher = teachers.low_rank_teacher(sv, 200, 100, rng=gen)
    s31 = teachers.noisy_training_covariance(teacher, rng=gen)
    t = np.array([1.0, 2.0, 4.0, 8.0])
    tr, te = dl.sampled_ta_errors(t, s31, teacher.matrix, dl.TaStudent(eps=1e-5))
    th_tr, th_te = dl.theory_errors(t, [3.0], dl.TaStudent(n1=200, n2=100, n3=100, eps=1e-5))
    assert np.allclose(tr.mean(0), th_tr, rtol=0.05, atol=0.01)
    assert np.allclose(te.mean(0), th_te, rtol=0.05, atol=0.01)
    with pytest.raises(ValueError, match="must both have shape"):
        dl.sampled_ta_errors(t, s31, teacher.matrix[:, :5], dl.TaStudent(eps=1e-5))
    with pytest.raises(ValueError, match="student rank n2 must be <="):
        dl.sampled_ta_errors(t, s31, teacher.matrix, dl.TaStudent(eps=1e-5, n2=101))


def test_sampled_ta_errors_blame_the_bad_argument():
    rng = np.random.default_rng(0)
    wbar = np.zeros((2, 3, 5))
    wbar[:, 0, 0] = 2.0
    s31 = wbar + rng.normal(size=wbar.shape) / np.sqrt(5)
    t = np.array([0.0, 1.0])
    # a NaN delay used to surface as a bad training time t
    with pytest.raises(ValueError, match=r"^delay must be real numbers in \(-inf, inf\); got nan$"):
        dl.sampled_ta_errors(t, s31, wbar, dl.TaStudent(eps=1e-3), delay=np.nan)
    with pytest.raises(ValueError, match=r"^delay must broadcast to \(B, min\(N1, N3\)\) = \(2, 3\)"):
        dl.sampled_ta_errors(t, s31, wbar, dl.TaStudent(eps=1e-3), delay=np.zeros(4))
    with pytest.raises(ValueError, match=r"^teacher is zero for some data set"):
        dl.sampled_ta_errors(t, s31, 0 * wbar, dl.TaStudent(eps=1e-3))
    with pytest.raises(ValueError, match=r"^sigma31 must be a 3-d array of real numbers"):
        dl.sampled_ta_errors(t, "x", wbar, dl.TaStudent(eps=1e-3))
    tr, te = dl.sampled_ta_errors(t, s31, wbar, dl.TaStudent(eps=1e-3), delay=-0.5)  # an advance is allowed
    assert np.all(np.isfinite(tr)) and np.all(np.isfinite(te))


def test_delayed_ta_errors_are_what_gradient_descent_follows():
    """TA networks trained by gradient descent at a sizeable rate follow the delayed exact errors far
    more closely than the gradient-flow ones (eqs. 6-7 with each mode delayed by gd_lag)."""
    from gendyn import teachers, train

    gen = torch.Generator().manual_seed(3)
    sv = torch.tensor([[3.0, 0.0], [4.0, 2.0]], dtype=torch.float64)
    teacher = teachers.low_rank_teacher(sv, 30, 15, rng=gen)
    s31 = teachers.noisy_training_covariance(teacher, rng=gen)
    lr = 0.05
    res = train.train_students(s31, train.Architecture(hidden=15), train.Schedule(lr=lr, epochs=200, n_records=40),
                               evaluation=train.Evaluation(teacher=teacher),
                               execution=train.Execution(dtype=torch.float64, desc=None))
    flow = dl.sampled_ta_errors(res.time, s31, teacher.matrix, dl.TaStudent(eps=1e-5, n2=15))
    delayed = dl.delayed_ta_errors(res.time, s31, teacher.matrix, 1e-5, lr, n2=15)
    for sim, f, d in zip((res.train_error, res.test_error), flow, delayed):
        assert np.abs(np.log(sim) - np.log(d)).max() < np.abs(np.log(sim) - np.log(f)).max() / 5
    # the delay is gd_lag of each data mode: numpy and torch data agree
    for a, b in zip(delayed, dl.delayed_ta_errors(res.time, s31.numpy(), teacher.matrix.numpy(), 1e-5, lr, n2=15)):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="lr"):
        dl.delayed_ta_errors(res.time, s31, teacher.matrix, 1e-5, 0.0)


def test_linear_test_error_is_the_gaussian_average_of_eq5():
    rng = np.random.default_rng(1)
    wbar, w = rng.normal(size=(3, 4, 6)), rng.normal(size=(3, 4, 6))
    err = dl.linear_test_error(w, wbar)
    # E_x ||(W - Wbar) x||^2 / E_x ||Wbar x||^2 over x ~ N(0, I), by Monte Carlo
    x = rng.normal(size=(6, 200_000))
    mc = (((w - wbar) @ x) ** 2).sum((1, 2)) / ((wbar @ x) ** 2).sum((1, 2))
    np.testing.assert_allclose(err, mc, rtol=0.02)
    np.testing.assert_allclose(err, [np.linalg.norm(a - b) ** 2 / np.linalg.norm(b) ** 2 for a, b in zip(w, wbar)])
    np.testing.assert_array_equal(dl.linear_test_error(torch.tensor(w), torch.tensor(wbar)), err)
    assert np.all(dl.linear_test_error(wbar, wbar) == 0)
    with pytest.raises(ValueError, match="teacher is zero"):
        dl.linear_test_error(w, 0 * wbar)
    with pytest.raises(ValueError, match="w and teacher"):
        dl.linear_test_error(w[:, :3], wbar)


def test_half_learning_time_is_where_the_mode_reaches_half_height():
    shat = np.array([0.5, 1.0, 4.0])
    for n_layers in (3, 5):
        t_half = dl.half_learning_time(shat, 1e-4, n_layers=n_layers)
        np.testing.assert_allclose(dl.mode_strength(t_half, shat, 1e-4, n_layers=n_layers), shat / 2, rtol=1e-8)
        # gradient descent adds its first-order delay at half height
        delayed = dl.half_learning_time(shat, 1e-4, n_layers=n_layers, lr=0.01)
        np.testing.assert_allclose(delayed - t_half, dl.gd_lag(shat, 1e-4, 0.01, n_layers, s=shat / 2))
    # eq. (9): t = tau/(2 shat) ln(shat/eps - 1) for one hidden layer
    np.testing.assert_allclose(dl.half_learning_time(shat, 1e-4), np.log(shat / 1e-4 - 1) / (2 * shat), rtol=1e-12)
    with pytest.raises(ValueError, match="s_hat must be > eps"):
        dl.half_learning_time([1e-5, 1.0], 1e-4)


def test_gd_band_brackets_the_flow_and_refuses_large_rates():
    t = np.array([0.0, 1.0, 3.0, 10.0])
    shat = np.array([0.5, 2.0])
    band = dl.gd_band(t, shat, 1e-3, 0.01, n_layers=3)
    np.testing.assert_allclose(band.flow, dl.mode_strength(t[:, None], shat, 1e-3))
    assert band.below.shape == band.above.shape == (4, 2)
    assert np.all(band.below >= 0) and np.all(band.above >= 0)
    assert np.all(band.below[0] == 0)  # no delay effect at t = 0
    np.testing.assert_allclose(band.lag, dl.gd_lag(shat, 1e-3, 0.01))
    assert band.accuracy == pytest.approx(float(np.max(dl.gd_lag_accuracy(shat, 0.01))))
    assert np.all(band.speedup > 1)
    with pytest.raises(ValueError, match=">= 1"):
        dl.gd_band(t, shat, 1e-3, 0.3, n_layers=3)
    with pytest.raises(ValueError, match="s_hat"):
        dl.gd_band(t, [0.0, 1.0], 1e-3, 0.01)


def test_teacher_learned_time_is_the_weakest_modes_passage_through_sbar_overlap():
    aspect, eps = 0.5, 1e-5
    t = dl.teacher_learned_time([6.0, 4.0, 2.0], aspect, eps, n_layers=5)
    weakest = 2.0
    target = weakest * rmt.spike_overlap(weakest, aspect)
    assert dl.mode_strength(t, rmt.spike_singular_value(weakest, aspect), eps, n_layers=5) == pytest.approx(target)
    # stronger teachers are learned sooner; a mode below the threshold A^(1/4) is never learned and is ignored
    assert dl.teacher_learned_time([4.0], aspect, eps, n_layers=5) < t
    assert dl.teacher_learned_time([2.0, 0.5], aspect, eps, n_layers=5) == pytest.approx(t)
    assert dl.teacher_learned_time([0.5, 0.0], aspect, eps, n_layers=5) == float("inf")
    with pytest.raises(ValueError, match=r"^teacher_svals"):
        dl.teacher_learned_time([], aspect, eps)
    with pytest.raises(ValueError, match=r"^aspect"):
        dl.teacher_learned_time([2.0], 1.5, eps)


# ------------------------------------------------------------------ the spec of the TA student


@pytest.mark.parametrize(
    "fields, match",
    [
        (dict(eps=0.0), r"^eps must be a finite number > 0; got 0\.0"),
        (dict(eps="x"), r"^eps must be a finite number > 0"),
        (dict(eps=1e-5, tau=-1.0), r"^tau must be a finite number > 0"),
        (dict(eps=1e-5, n_layers=2), r"^n_layers must be an integer >= 3 .*got 2"),
        (dict(eps=1e-5, n_layers=3.0), r"^n_layers must be an integer >= 3"),
        (dict(eps=1e-5, n1=0), r"^n1 must be an integer >= 1; got 0"),
        (dict(eps=1e-5, n2=2.5), r"^n2 must be an integer >= 1; got 2\.5"),
        (dict(eps=1e-5, n3=True), r"^n3 must be an integer >= 1; got True"),
        (dict(eps=1e-5, n2=6, n3=5), r"^the student rank n2 must satisfy n2 <= n3; got n2=6, n3=5"),
    ],
)
def test_ta_student_refuses_bad_fields_when_made(fields, match):
    with pytest.raises(ValueError, match=match):
        dl.TaStudent(**fields)


def test_ta_student_is_frozen_and_normalised():
    student = dl.TaStudent(n1=np.int64(100), n2=50, n3=50, eps=np.float32(0.5), n_layers=np.int64(4))
    assert (type(student.n1), type(student.eps), type(student.n_layers)) == (int, float, int)
    with pytest.raises(AttributeError):
        student.eps = 1.0
    with pytest.raises(TypeError):
        dl.TaStudent(100, 50, 50, 1e-5)  # keywords only: which size is which is never guessed
    assert dl.TaStudent(eps=1e-5) == dl.TaStudent(eps=1e-5, tau=1.0, n_layers=3)


def test_the_functions_say_which_sizes_they_need_and_check_the_data():
    with pytest.raises(ValueError, match=r"theory_errors needs the student's n1: pass student=TaStudent"):
        dl.theory_errors([1.0], [3.0], dl.TaStudent(n3=50, eps=1e-5))
    with pytest.raises(ValueError, match=r"^student must be a TaStudent"):
        dl.optimal_early_stopping([3.0], "x")
    rng = np.random.default_rng(0)
    s31, wbar = rng.normal(size=(2, 6, 9)), rng.normal(size=(2, 6, 9))
    with pytest.raises(ValueError, match=r"student\.n1 must be the data's N1 = 9 \(or None\); got 8"):
        dl.sampled_ta_errors([1.0], s31, wbar, dl.TaStudent(n1=8, eps=1e-3))
    same = dl.sampled_ta_errors([1.0], s31, wbar, dl.TaStudent(n1=9, n3=6, eps=1e-3))
    np.testing.assert_array_equal(same, dl.sampled_ta_errors([1.0], s31, wbar, dl.TaStudent(eps=1e-3)))
    # n2 None is full rank: n3 for the theory
    np.testing.assert_array_equal(dl.theory_errors([1.0, 9.0], [3.0], dl.TaStudent(n1=100, n3=50, eps=1e-5)),
                                  dl.theory_errors([1.0, 9.0], [3.0], dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-5)))


def _former(func, *args, **kwargs):
    """``func`` called in its former flat form: it must warn (naming the new form) and still work."""
    with pytest.warns(DeprecationWarning, match=r"deprecated and will be removed in the next release: pass .*TaStudent\("):
        return func(*args, **kwargs)


def test_the_former_flat_forms_warn_and_give_identical_results():
    t, student = np.array([0.5, 3.0, 20.0]), dl.TaStudent(n1=100, n2=40, n3=50, eps=1e-4, tau=2.0, n_layers=4)
    new = dl.theory_errors(t, [3.0, 1.5], student, r_in="literal")
    for old in (_former(dl.theory_errors, t, [3.0, 1.5], 100, 40, 50, 1e-4, 2.0, 4, "literal"),
                _former(dl.theory_errors, t, [3.0, 1.5], 100, 40, 50, 1e-4, tau=2.0, n_layers=4, r_in="literal"),
                _former(dl.theory_errors, t=t, teacher_svals=[3.0, 1.5], n1=100, n2=40, n3=50, eps=1e-4, tau=2.0,
                        n_layers=4, r_in="literal")):
        np.testing.assert_array_equal(old, new)
    assert _former(dl.optimal_early_stopping, [3.0], 100, 40, 50, 1e-4, tau=2.0, n_layers=4, t_max=500.0) == \
        dl.optimal_early_stopping([3.0], student, t_max=500.0)
    rng = np.random.default_rng(1)
    s31, wbar = rng.normal(size=(2, 6, 9)), rng.normal(size=(2, 6, 9))
    new = dl.sampled_ta_errors(t, s31, wbar, dl.TaStudent(eps=1e-3, n2=4, n_layers=5), delay=0.1, per_mode=True)
    for old in (_former(dl.sampled_ta_errors, t, s31, wbar, 1e-3, 4, 1.0, 5, 0.1, True),
                _former(dl.sampled_ta_errors, t, s31, wbar, 1e-3, n2=4, n_layers=5, delay=0.1, per_mode=True)):
        for a, b in zip(old, new):
            np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(_former(dl.sampled_ta_errors, t, s31, wbar, 1e-3)[1],
                                  dl.sampled_ta_errors(t, s31, wbar, dl.TaStudent(eps=1e-3))[1])


def test_the_former_forms_refuse_mixed_or_unknown_arguments():
    student = dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-5)
    # refused before any warning: a call that cannot be made in either form is an error only
    with pytest.raises(ValueError, match=r"unknown keyword\(s\) \['hidden'\] of theory_errors"):
        dl.theory_errors([1.0], [3.0], 100, 50, 50, 1e-5, hidden=3)
    with pytest.raises(ValueError, match=r"either as a TaStudent or \(deprecated\) as separate sizes and flow, not "
                                         r"both; got student=TaStudent\(.*\) and n_layers"):
        dl.theory_errors([1.0], [3.0], student, n_layers=4)  # a spec and a former keyword: which one holds?
    with pytest.raises(TypeError, match="missing required argument 'eps'"):
        dl.theory_errors([1.0], [3.0], 100, 50, 50)
    with pytest.raises(ValueError, match=r"n2 must be an integer >= 1; got 0 \(the former form of theory_errors"):
        dl.theory_errors([1.0], [3.0], 100, 0, 50, 1e-5)


def test_sampled_ta_errors_former_form_accepts_a_zero_d_array_eps():
    from gendyn import teachers

    gen = torch.Generator().manual_seed(1)
    teacher = teachers.low_rank_teacher(torch.tensor([[3.0]], dtype=torch.float64), 12, 4, rng=gen)
    s31 = teachers.noisy_training_covariance(teacher, rng=gen)
    t = np.array([0.5, 1.0])
    new = dl.sampled_ta_errors(t, s31, teacher.matrix, dl.TaStudent(eps=1e-5))
    with pytest.warns(DeprecationWarning):
        old = dl.sampled_ta_errors(t, s31, teacher.matrix, np.array(1e-5))
    assert np.array_equal(old[1], new[1])
