"""Tests of gendyn.committee: the ODE theory of Goldt et al. (2019) for two-layer networks."""

import time

import numpy as np
import pytest
from scipy.special import erf

from gendyn import committee as cm
from gendyn.committee import (
    ACTIVATIONS,
    I2,
    I3,
    I4,
    J2,
    asymptotic_error,
    denoising_state,
    generalisation_error,
    integrate_odes,
    linear_effective_rate,
    linear_stationary_error,
    order_parameter_derivatives,
    specialised_state,
)

MC_SAMPLES = 1_000_000
N_SIGMA = 5.0  # Monte-Carlo tolerance in standard errors


def g(x, act):
    if act == "erf":
        return erf(x / np.sqrt(2.0))
    if act == "relu":
        return np.maximum(x, 0.0)
    return x


def dg(x, act):
    if act == "erf":
        return np.sqrt(2.0 / np.pi) * np.exp(-0.5 * x * x)
    if act == "relu":
        return (x > 0).astype(float)
    return np.ones_like(x)


def gaussian_samples(C, n, rng):
    """Samples with covariance C (possibly singular), via the symmetric square root."""
    evals, evecs = np.linalg.eigh(C)
    root = evecs * np.sqrt(np.clip(evals, 0.0, None))
    return rng.standard_normal((n, C.shape[0])) @ root.T


def covariances():
    rng = np.random.default_rng(1234)
    out = []
    for scale in (0.3, 1.0, 3.0):
        A = rng.standard_normal((4, 6)) * np.sqrt(scale / 6)
        out.append(A @ A.T)
    # singular: fields 0 and 2 coincide (a student unit equal to a teacher unit)
    A = rng.standard_normal((4, 3)) / np.sqrt(3)
    A[2] = A[0]
    out.append(A @ A.T)
    return out


def assert_mc(value, samples, what):
    mean = samples.mean()
    se = samples.std() / np.sqrt(samples.size)
    assert abs(value - mean) <= N_SIGMA * se + 1e-12, f"{what}: theory {value}, MC {mean} +- {se}"


# ------------------------------------------------------------------ integrals


@pytest.mark.parametrize("act", ACTIVATIONS)
def test_integrals_match_monte_carlo(act):
    rng = np.random.default_rng(7)
    for ci, C in enumerate(covariances()):
        x = gaussian_samples(C, MC_SAMPLES, rng)
        gx, dgx = g(x, act), dg(x, act)
        perms = [(0, 1, 2, 3), (2, 0, 1, 3), (1, 3, 0, 2)]
        for p in perms:
            a, b, c, d = p
            tag = f"{act} C#{ci} perm {p}"
            assert_mc(I2(C[np.ix_([a, b], [a, b])], act), gx[:, a] * gx[:, b], "I2 " + tag)
            assert_mc(J2(C[np.ix_([a, b], [a, b])], act), dgx[:, a] * dgx[:, b], "J2 " + tag)
            assert_mc(I3(C[np.ix_([a, b, c], [a, b, c])], act), dgx[:, a] * x[:, b] * gx[:, c], "I3 " + tag)
            assert_mc(I4(C[np.ix_(p, p)], act), dgx[:, a] * dgx[:, b] * gx[:, c] * gx[:, d], "I4 " + tag)


def test_integrals_are_vectorised():
    Cs = np.array(covariances())  # (4, 4, 4)
    for act in ACTIVATIONS:
        batch = I4(Cs, act)
        single = np.array([I4(C, act) for C in Cs])
        assert batch.shape == (4,)
        np.testing.assert_allclose(batch, single, rtol=0, atol=1e-15)
        assert I2(np.broadcast_to(Cs[:, :2, :2], (3, 4, 2, 2)), act).shape == (3, 4)


def _relu_i4_with_nodes(C, half_count, x_max):
    nodes = cm._tanh_sinh_nodes(half_count, x_max)
    d = np.sqrt(np.diagonal(C, axis1=-2, axis2=-1))
    rho = np.clip(C / d[..., :, None] / d[..., None, :], -1.0, 1.0)
    return d[..., 2] * d[..., 3] * cm._relu_I4_correlation(rho, *nodes)


def test_relu_I4_accuracy():
    """Stated accuracy of the ReLU I4 quadrature: absolute error < 2e-11 sqrt(C33 C44).

    Checked against a 801-node rule for generic and nearly singular covariances (fields
    with correlations up to 1 - 1e-18), and against closed forms for coinciding fields.
    """
    rng = np.random.default_rng(3)
    Cs = []
    for delta in (None, 0.3, 0.1, 3e-2, 1e-2, 1e-3, 1e-6, 1e-9):
        for n in range(30):
            A = rng.standard_normal((4, 4))
            if delta is not None:
                A[2] = A[0] + delta * rng.standard_normal(4)  # a student unit ~ a teacher unit
                if n % 2:
                    A[3] = A[1] + delta * rng.standard_normal(4)
                if n % 3 == 0:
                    A[1] = A[0] + delta * rng.standard_normal(4)
            Cs.append(A @ A.T)
    Cs = np.array(Cs)
    scale = np.sqrt(Cs[:, 2, 2] * Cs[:, 3, 3])
    err = np.abs(I4(Cs, "relu") - _relu_i4_with_nodes(Cs, 400, 3.3)) / scale
    assert err.max() < 2e-11, err.max()

    # exactly coinciding fields: closed forms
    worst = 0.0
    for _ in range(30):
        A = rng.standard_normal((2, 3))
        C2 = A @ A.T
        i2 = I2(C2, "relu")
        cases = {
            (0, 1, 0, 1): i2,  # Theta(a)Theta(b)a+b+ = a+b+
            (0, 1, 1, 0): i2,
            (0, 0, 0, 1): i2,  # Theta(a)^2 a+ b+ = a+ b+
            (0, 0, 0, 0): C2[0, 0] / 2,  # <(a+)^2>
            (1, 1, 1, 1): C2[1, 1] / 2,
        }
        for idx, exact in cases.items():
            C4 = C2[np.ix_(idx, idx)]
            worst = max(worst, abs(I4(C4, "relu") - exact) / np.sqrt(C4[2, 2] * C4[3, 3]))
    assert worst < 1e-12, worst

    # independent fields: <Theta><Theta><c+><d+> = sqrt(C33 C44) / (8 pi)
    C = np.diag([0.5, 2.0, 3.0, 0.7])
    assert abs(I4(C, "relu") - np.sqrt(3.0 * 0.7) / (8 * np.pi)) < 1e-14


def test_erf_closed_forms_special_values():
    # I2 of a unit-variance field with itself: (2/pi) arcsin(1/2) = 1/3
    assert I2(np.ones((2, 2)), "erf") == pytest.approx(1.0 / 3.0, abs=1e-15)
    # J2(0 variance) = g'(0)^2 = 2/pi
    assert J2(np.zeros((2, 2)), "erf") == pytest.approx(2 / np.pi, abs=1e-15)
    # linear I4 = C34
    C = covariances()[0]
    assert I4(C, "linear") == C[2, 3]


# ------------------------------------------------------- generalisation error


@pytest.mark.parametrize("act", ACTIVATIONS)
def test_generalisation_error_matches_network_monte_carlo(act):
    rng = np.random.default_rng(11)
    N, K, M = 8, 3, 2
    w = rng.standard_normal((K, N))
    ws = rng.standard_normal((M, N))
    v = rng.standard_normal(K)
    vs = rng.standard_normal(M)
    Q, R, T = w @ w.T / N, w @ ws.T / N, ws @ ws.T / N
    theory = generalisation_error(Q, R, T, v, vs, act)
    sq = []
    for _ in range(4):
        x = rng.standard_normal((MC_SAMPLES // 4, N))
        student = g(x @ w.T / np.sqrt(N), act) @ v
        teacher = g(x @ ws.T / np.sqrt(N), act) @ vs
        sq.append(0.5 * (student - teacher) ** 2)
    assert_mc(theory, np.concatenate(sq), f"eps_g {act}")


def test_generalisation_error_batches():
    rng = np.random.default_rng(0)
    Q = np.eye(3) + 0.1 * np.ones((3, 3))
    R = 0.2 * rng.random((3, 2))
    T = np.eye(2)
    batch = generalisation_error(np.stack([Q, 2 * Q]), np.stack([R, R]), T, 1.0, 1.0, "erf")
    assert batch.shape == (2,)
    assert batch[0] == pytest.approx(generalisation_error(Q, R, T, 1.0, 1.0, "erf"), abs=1e-15)


# ------------------------------------------------------------------------- ODEs


def random_order_parameters(K, M, N=784, seed=1):
    """Order parameters of i.i.d. N(0, 1) weights (the paper's erf initialisation)."""
    rng = np.random.default_rng(seed)
    ws = rng.standard_normal((M, N))
    w = rng.standard_normal((K, N))
    return w @ w.T / N, w @ ws.T / N, ws @ ws.T / N


@pytest.mark.parametrize("act", ACTIVATIONS)
@pytest.mark.parametrize("both", [False, True])
def test_perfect_student_is_a_noiseless_fixed_point(act, both):
    _, _, T = random_order_parameters(2, 2)
    vs = np.array([1.0, -0.5])
    assert generalisation_error(T, T, T, vs, vs, act) == pytest.approx(0.0, abs=1e-14)
    state = cm.OrderParameters(T, T, T, vs, vs)
    dQ, dR, dv = order_parameter_derivatives(state, act, cm.OnlineSGD(0.7, 0.0, train_second_layer=both))
    for d in (dQ, dR, dv):
        np.testing.assert_allclose(d, 0.0, atol=1e-12)
    # output noise drives Q away from it (eq. 9b noise term); R and v stay put
    dQ, dR, dv = order_parameter_derivatives(state, act, cm.OnlineSGD(0.7, 0.1, train_second_layer=both))
    j2 = np.array([[J2(T[np.ix_([i, k], [i, k])], act) for k in range(2)] for i in range(2)])
    np.testing.assert_allclose(dQ, 0.7**2 * 0.1**2 * np.outer(vs, vs) * j2, atol=1e-12)
    np.testing.assert_allclose(dR, 0.0, atol=1e-12)


def test_derivatives_linear_closed_form():
    """For linear g the eps_g dynamics close: d eps/dalpha = -2 eta K eps + eta^2 K^2 (eps + sigma^2/2)."""
    Q, R, T = random_order_parameters(3, 2, seed=5)
    lr, sigma = 0.3, 0.2
    dQ, dR, _ = order_parameter_derivatives(cm.OrderParameters(Q, R, T, 1.0, 1.0), "linear", cm.OnlineSGD(lr, sigma))
    eps = generalisation_error(Q, R, T, 1.0, 1.0, "linear")
    deps = 0.5 * dQ.sum() - dR.sum()
    K = 3
    assert deps == pytest.approx(-2 * lr * K * eps + lr**2 * K**2 * (eps + sigma**2 / 2), rel=1e-12)


def test_weight_decay_terms():
    Q, R, T = random_order_parameters(3, 2, seed=2)
    v = np.array([0.5, 1.0, 1.5])
    state = cm.OrderParameters(Q, R, T, v, 1.0)
    base = order_parameter_derivatives(state, "erf", cm.OnlineSGD(0.5, 0.1, train_second_layer=True))
    wd = order_parameter_derivatives(state, "erf", cm.OnlineSGD(0.5, 0.1, train_second_layer=True, weight_decay=0.3))
    np.testing.assert_allclose(wd[0] - base[0], -2 * 0.3 * Q, atol=1e-14)
    np.testing.assert_allclose(wd[1] - base[1], -0.3 * R, atol=1e-14)
    np.testing.assert_allclose(wd[2] - base[2], -0.3 * v, atol=1e-14)


def test_integration_to_1e5_is_accurate():
    """erf, M = 2, K = 3 through plateau and escape to alpha = 1e5 (eta = 0.2, sigma = 0.01).
    (Its speed is a benchmark, benchmarks/committee_sgd.py, not a test.)"""
    Q, R, T = random_order_parameters(3, 2)
    times = np.concatenate([[0.0], np.logspace(-1, 5, 121)])
    args = (cm.OrderParameters(Q, R, T, np.ones(3), np.ones(2)), "erf", cm.OnlineSGD(0.2, 0.01), times)
    res = integrate_odes(*args)
    fine = integrate_odes(*args, solver=cm.ODESolver(rtol=1e-11, atol=1e-14))
    assert np.max(np.abs(res.eg / fine.eg - 1)) < 1e-3
    # the run has a plateau and an escape, and converges
    assert res.eg[0] > 0.5 and res.eg[-1] < 1e-4
    assert res.Q.shape == (len(times), 3, 3) and res.R.shape == (len(times), 3, 2)
    np.testing.assert_array_equal(res.Q, np.swapaxes(res.Q, 1, 2))
    np.testing.assert_allclose(res.eg, generalisation_error(res.Q, res.R, T, 1.0, 1.0, "erf"), atol=1e-15)


def test_integration_matches_fixed_step_rk4():
    """Against a fixed-step RK4 integration (d alpha = 0.1) through plateau and escape."""
    Q, R, T = random_order_parameters(3, 2, seed=4)
    K, M, lr, sigma = 3, 2, 1.0, 0.01
    times = np.array([0.0, 10.0, 50.0, 100.0, 150.0, 200.0, 300.0])
    res = integrate_odes(cm.OrderParameters(Q, R, T, 1.0, 1.0), "erf", cm.OnlineSGD(lr, sigma), times)
    tup, iu = cm._Tuples(K, M), np.triu_indices(K)
    ones_k, ones_m = np.ones(K), np.ones(M)

    def f(y):
        dQ, dR, dv, _ = cm._derivatives(*cm._unpack(y, K, M, iu)[:2], T, ones_k, ones_m, "erf",
                                        tup, lr, lr, sigma**2, 0.0, False)
        return cm._pack(dQ, dR, dv, iu)

    y, h, eg = cm._pack(Q, R, ones_k, iu), 0.1, [res.eg[0]]
    for a, b in zip(times[:-1], times[1:]):
        for _ in range(int(round((b - a) / h))):
            k1 = f(y)
            k2 = f(y + h / 2 * k1)
            k3 = f(y + h / 2 * k2)
            k4 = f(y + h * k3)
            y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        Qy, Ry, _ = cm._unpack(y, K, M, iu)
        eg.append(generalisation_error(Qy, Ry, T, 1.0, 1.0, "erf"))
    assert eg[3] > 0.04 and eg[-1] < 1e-3  # the window covers the plateau and the escape
    np.testing.assert_allclose(res.eg, eg, rtol=1e-5)


def test_second_layer_and_relu_integration_run():
    Q, R, T = random_order_parameters(2, 1, N=500, seed=3)
    res = integrate_odes(cm.OrderParameters(Q, R, T, [0.3, 0.2], 1.0), "relu",
                         cm.OnlineSGD(0.5, 0.0, lr2=0.5, train_second_layer=True), [0.0, 5.0, 20.0])
    assert res.eg[-1] < res.eg[0]
    assert not np.allclose(res.v[-1], res.v[0])
    res = integrate_odes(cm.OrderParameters(Q, R, T, [0.3, 0.2], 1.0), "erf", cm.OnlineSGD(0.5, 0.0), [0.0, 5.0])
    np.testing.assert_array_equal(res.v[-1], [0.3, 0.2])  # SCM: v fixed


# ------------------------------------------------------------- asymptotic error


@pytest.mark.parametrize("M,K,v_star", [(2, 4, 1.0), (1, 3, 0.7)])
def test_linear_asymptotic_error_eq12_matches_ode(M, K, v_star):
    lr, sigma = 0.1, 0.1
    Q, R, T = random_order_parameters(K, M, N=300, seed=8)
    T_ = np.eye(M)  # the theory is for any T; use the paper's T = I
    R = R * 0.1
    res = integrate_odes(cm.OrderParameters(Q, R, T_, v_star, v_star), "linear", cm.OnlineSGD(lr, sigma), [0.0, 2e4])
    theory = asymptotic_error("linear", M, K, cm.OnlineSGD(lr, sigma), v_star=v_star)
    assert res.eg[-1] == pytest.approx(theory, rel=1e-6)
    if v_star == 1.0:  # eq. (12) literally
        L = K - M
        assert theory == pytest.approx(lr * sigma**2 * (L + M) / (4 - 2 * lr * (L + M)), rel=1e-14)
    small = asymptotic_error("linear", M, K, cm.OnlineSGD(1e-6, sigma), v_star=v_star, small_lr=True)
    assert small == pytest.approx(asymptotic_error("linear", M, K, cm.OnlineSGD(1e-6, sigma), v_star=v_star), rel=1e-5)


@pytest.mark.parametrize("M,L,lr", [(2, 0, 1e-4), (2, 2, 1e-4), (4, 4, 0.05)])
def test_eq13_is_eq12_to_leading_order_in_eta(M, L, lr):
    """Eq. (12) over eq. (13) is 1 / (1 - eta (L + M) / 2), exactly (an identity, once a claim of the §2 chapter)."""
    sgd = cm.OnlineSGD(lr, 0.01)
    ratio = asymptotic_error("linear", M, M + L, sgd) / asymptotic_error("linear", M, M + L, sgd, small_lr=True)
    assert ratio == pytest.approx(1 / (1 - lr * (L + M) / 2), rel=1e-13)


def test_eq10_at_eta_one_over_K_levels_off():
    """Fig. S2: at eta = 1/K, eq. (10)'s growth from L = 14 to 15 is below 5 % of that from L = 0 to 1."""
    M, sigma = 2, 0.01
    eps = [asymptotic_error("erf", M, M + L, cm.OnlineSGD(1.0 / (M + L), sigma)) for L in (0, 1, 14, 15)]
    assert 0 < (eps[3] / eps[2] - 1) / (eps[1] / eps[0] - 1) < 0.05


def near_fixed_point(K, M, both, v_star=1.0, eps=0.05, D=20, seed=0):
    """Order parameters of weights near the zero-noise fixed point (T = I)."""
    rng = np.random.default_rng(seed)
    ws = np.eye(D)[:M]
    w = np.zeros((K, D))
    for k in range(K):
        if both:
            w[k] = ws[k % M]
        elif k < M:
            w[k] = ws[k]
        w[k] += eps * rng.standard_normal(D)
    v = np.full(K, v_star / (K // M) if both else v_star)
    if both:
        v = v * (1 + 0.1 * rng.standard_normal(K))
    return w @ w.T, w @ ws.T, ws @ ws.T, v, np.full(M, v_star)


@pytest.mark.parametrize("M,K,lr", [(2, 3, 0.05), (2, 2, 0.2), (1, 2, 0.5)])
def test_erf_scm_small_noise_fixed_point_matches_eq10(M, K, lr):
    """ODE started near the specialised fixed point, sigma = 0.01: eps_g -> eq. (10) to 1e-4."""
    sigma = 0.01
    Q, R, T, v, vs = near_fixed_point(K, M, both=False)
    res = integrate_odes(cm.OrderParameters(Q, R, T, v, vs), "erf", cm.OnlineSGD(lr, sigma), [0.0, 1e5])
    theory = asymptotic_error("erf", M, K, cm.OnlineSGD(lr, sigma))
    assert res.eg[-1] == pytest.approx(theory, rel=1e-4)


def test_erf_scm_small_lr_limit_is_eq11():
    for M, K in [(1, 1), (2, 3), (3, 6)]:
        for v_star in (1.0, 2.0):
            eq11 = asymptotic_error("erf", M, K, cm.OnlineSGD(1e-5, 0.1), v_star=v_star, small_lr=True)
            if v_star == 1.0:
                assert eq11 == pytest.approx(0.01 * 1e-5 / (2 * np.pi) * (K - M + M / np.sqrt(3)), rel=1e-14)
            finite = asymptotic_error("erf", M, K, cm.OnlineSGD(1e-5, 0.1), v_star=v_star)
            assert finite == pytest.approx(eq11, rel=1e-4)
    # eps* grows with L at fixed M (the paper's main SCM result)
    errs = [asymptotic_error("erf", 2, K, cm.OnlineSGD(0.05, 0.01)) for K in range(2, 7)]
    assert np.all(np.diff(errs) > 0)


def test_erf_both_layers_fixed_point_matches_ode_and_eq15():
    M, K, lr, sigma, v_star = 2, 4, 0.2, 0.01, 2.0
    Q, R, T, v, vs = near_fixed_point(K, M, both=True, v_star=v_star)
    res = integrate_odes(cm.OrderParameters(Q, R, T, v, vs), "erf", cm.OnlineSGD(lr, sigma, train_second_layer=True),
                         [0.0, 1e6])
    theory = asymptotic_error("erf", M, K, cm.OnlineSGD(lr, sigma, train_second_layer=True), v_star=v_star)
    assert res.eg[-1] == pytest.approx(theory, rel=1e-3)
    # eq. (15), M = 1, small eta; and the denoising 1/K decay
    for K in (1, 2, 5):
        eq15 = 1e-5 * (sigma * v_star) ** 2 / (2 * np.sqrt(3) * K * np.pi)
        sgd = cm.OnlineSGD(1e-5, sigma, train_second_layer=True)
        assert asymptotic_error("erf", 1, K, sgd, v_star=v_star, small_lr=True) == pytest.approx(eq15, rel=1e-14)
        assert asymptotic_error("erf", 1, K, sgd, v_star=v_star) == pytest.approx(eq15, rel=1e-4)
    sgd = cm.OnlineSGD(0.2, 0.01, train_second_layer=True)
    errs = [asymptotic_error("erf", 2, K, sgd, v_star=2.0) for K in (2, 4, 6, 8)]
    assert np.all(np.diff(errs) < 0)


# ----------------------------------------------------------------------- inputs


def test_bad_inputs_raise():
    Q, R, T = np.eye(3), np.zeros((3, 2)), np.eye(2)
    ok = dict(Q=Q, R=R, T=T, v=np.ones(3), v_star=np.ones(2), activation="erf", lr=0.1, sigma=0.0)
    with pytest.raises(ValueError, match=r"activation must be one of \('erf', 'relu', 'linear'\); got 'tanh'"):
        I2(np.eye(2), "tanh")
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 4, 4\)"):
        I4(np.eye(3), "erf")
    with pytest.raises(ValueError, match="activation"):
        generalisation_error(Q, R, T, 1.0, 1.0, "sigmoid")
    state = {k: ok[k] for k in ("Q", "R", "T", "v", "v_star")}
    with pytest.raises(ValueError, match=r"R \(student-teacher overlaps, K x M\) must have shape \(3, 2\)"):
        cm.OrderParameters(**{**state, "R": np.zeros((2, 3))})
    with pytest.raises(ValueError, match="v \\(student second layer\\) must have shape \\(3,\\)"):
        cm.OrderParameters(**{**state, "v": np.ones(2)})
    with pytest.raises(ValueError, match="Q must be symmetric"):
        cm.OrderParameters(**{**state, "Q": np.triu(np.ones((3, 3)))})
    with pytest.raises(ValueError, match="lr must be a finite number >= 0; got -0.1"):
        cm.OnlineSGD(-0.1)
    with pytest.raises(ValueError, match="sigma must be a finite number >= 0"):
        cm.OnlineSGD(0.1, -1.0)
    with pytest.raises(ValueError, match="weight_decay"):
        cm.OnlineSGD(0.1, weight_decay=-1)
    with pytest.raises(ValueError, match="lr2"):
        cm.OnlineSGD(0.1, lr2=float("nan"))
    with pytest.raises(ValueError, match="non-decreasing"):
        integrate_odes(cm.OrderParameters(**state), "erf", cm.OnlineSGD(0.1), times=[0, 2, 1])
    with pytest.raises(ValueError, match="state must be an OrderParameters"):
        integrate_odes((Q, R, T, 1.0, 1.0), "erf", cm.OnlineSGD(0.1), [0, 1])
    with pytest.raises(ValueError, match="sgd must be an OnlineSGD"):
        order_parameter_derivatives(cm.OrderParameters(**state), "erf", 0.1)
    with pytest.raises(ValueError, match="relu.*allowed: 'erf', 'linear'"):
        asymptotic_error("relu", 2, 3, cm.OnlineSGD(0.1, 0.01))
    with pytest.raises(ValueError, match="K >= M"):
        asymptotic_error("erf", 3, 2, cm.OnlineSGD(0.1, 0.01))
    with pytest.raises(ValueError, match="multiple of M"):
        asymptotic_error("erf", 2, 3, cm.OnlineSGD(0.1, 0.01, train_second_layer=True))
    with pytest.raises(ValueError, match="M must be an integer >= 1"):
        asymptotic_error("erf", 0, 3, cm.OnlineSGD(0.1, 0.01))
    with pytest.raises(ValueError, match="lr < 0.5"):
        asymptotic_error("linear", 2, 4, cm.OnlineSGD(0.6, 0.01))
    with pytest.raises(ValueError, match="unstable at lr=3"):
        asymptotic_error("erf", 2, 2, cm.OnlineSGD(3.0, 0.01))
    with pytest.raises(ValueError, match="train_second_layer=False"):
        asymptotic_error("linear", 2, 2, cm.OnlineSGD(0.1, 0.01, train_second_layer=True))


@pytest.mark.parametrize("act", ["linear", "relu"])
def test_integrate_odes_stops_on_divergence_naming_the_unstable_rate(act):
    """An unstable rate used to return eg = [1.46, 2.5e104, nan] with "successfully reached the end"."""
    Q, R, T = 0.5 * np.eye(2), np.full((2, 2), 0.01), np.eye(2)
    with pytest.raises(ValueError, match=r"diverge .* the learning rate lr=3.0 is unstable"):
        integrate_odes(cm.OrderParameters(Q, R, T, 1.0, 1.0), act, cm.OnlineSGD(3.0, 0.0), [0.0, 10.0, 100.0])
    stable = integrate_odes(cm.OrderParameters(Q, R, T, 1.0, 1.0), act, cm.OnlineSGD(0.5, 0.0), [0.0, 10.0, 100.0])
    assert np.all(np.isfinite(stable.eg))


def test_order_parameters_are_checked_alike_everywhere():
    Q, R, T = np.eye(2), np.zeros((2, 1)), np.eye(1)
    for bad, match in ((np.nan, "v must be real numbers"), (True, "v must be real numbers"),
                       ("1", "v must be real numbers")):
        with pytest.raises(ValueError, match=match):
            generalisation_error(Q, R, T, bad, 1.0, "erf")
        with pytest.raises(ValueError, match=match):
            order_parameter_derivatives(cm.OrderParameters(Q, R, T, bad, 1.0), "erf", cm.OnlineSGD(0.1, 0.0))
    with pytest.raises(ValueError, match="Q must be symmetric"):
        generalisation_error(np.triu(np.ones((2, 2))), R, T, 1.0, 1.0, "erf")
    with pytest.raises(ValueError, match="train_second_layer must be True or False"):
        order_parameter_derivatives(cm.OrderParameters(Q, R, T, 1.0, 1.0), "erf",
                                    cm.OnlineSGD(0.1, 0.0, train_second_layer="yes"))



@pytest.mark.parametrize("act", ["erf", "relu", "linear"])
def test_a_rounding_negative_squared_norm_is_zero_but_a_negative_one_raises(act):
    # a unit that weight decay drives to zero in a long SGD chain can end at Q_kk = -1e-18
    R, T = np.array([[1.0], [0.0]]), np.eye(1)
    rounded = generalisation_error(np.diag([1.0, -1e-18]), R, T, 1.0, 1.0, act)
    assert np.isfinite(rounded) and rounded == generalisation_error(np.diag([1.0, 0.0]), R, T, 1.0, 1.0, act)
    with pytest.raises(ValueError, match=r"the diagonal of Q \(squared norms / N\) must be >= 0"):
        generalisation_error(np.diag([1.0, -1e-3]), R, T, 1.0, 1.0, act)

# ------------------------------------------------------------------- zero-error states


@pytest.mark.parametrize("L", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("pair_q", [0.0, 0.3, 5.0])
def test_specialised_states_have_zero_error_and_are_fixed_points(L, pair_q):
    M = 2
    Q, R, T = specialised_state(M, L, pair_q=pair_q)
    v, v_star = np.ones(M + L), np.ones(M)
    assert np.all(np.linalg.eigvalsh(Q) > -1e-12)
    for act in ("erf", "linear"):  # odd activations: the pairs cancel
        assert generalisation_error(Q, R, T, v, v_star, act) == pytest.approx(0.0, abs=1e-14)
    dQ, dR, _ = order_parameter_derivatives(cm.OrderParameters(Q, R, T, v, v_star), "erf", cm.OnlineSGD(0.1, 0.0))
    assert np.abs(dQ).max() < 1e-12 and np.abs(dR).max() < 1e-12
    if L >= 2:
        assert Q[M, M] == pytest.approx(pair_q) and Q[M, M + 1] == pytest.approx(-pair_q)


def test_specialised_state_jitter_is_seeded_and_small():
    a = specialised_state(2, 3, jitter=0.01, rng=4)
    b = specialised_state(2, 3, jitter=0.01, rng=4)
    c = specialised_state(2, 3, jitter=0.01, rng=5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], c[0])
    assert np.abs(a[0] - specialised_state(2, 3)[0]).max() < 0.05


@pytest.mark.parametrize("M,K", [(1, 1), (1, 3), (2, 4), (2, 6)])
def test_denoising_states_have_zero_error_for_any_split(M, K):
    v_star = 4.0
    for split in ([0.0, 0.7, -1.5] if K >= 2 * M else [0.0]):
        Q, R, T, v = denoising_state(M, K, v_star, split=split)
        assert generalisation_error(Q, R, T, v, np.full(M, v_star), "erf") == pytest.approx(0.0, abs=1e-13)
        assert v.sum() == pytest.approx(M * v_star)
    with pytest.raises(ValueError, match="split"):
        denoising_state(2, 2, split=0.5)
    with pytest.raises(ValueError, match="K must be a multiple of M"):
        denoising_state(2, 3)


# ------------------------------------------------------------------- linear students: eq. (12) in eta'


@pytest.mark.parametrize("M, K, v_star", [(1, 1, 1.0), (2, 3, 1.0), (4, 8, 0.25)])
def test_linear_stationary_error_is_eq12_in_the_effective_rate(M, K, v_star):
    eff = linear_effective_rate(0.05, np.full(K, v_star))
    assert eff == pytest.approx(0.05 * K * v_star**2, rel=1e-15)
    assert linear_stationary_error(eff, 0.01) == asymptotic_error("linear", M, K, cm.OnlineSGD(0.05, 0.01),
                                                                  v_star=v_star)
    assert linear_stationary_error(eff, 0.01, small_lr=True) == pytest.approx(
        asymptotic_error("linear", M, K, cm.OnlineSGD(0.05, 0.01), v_star=v_star, small_lr=True), rel=1e-15)


def test_linear_effective_rate_of_a_trained_second_layer_is_the_mean_eigenvalue_of_the_step():
    rng = np.random.default_rng(0)
    N, K = 50, 3
    w, v = rng.standard_normal((K, N)), rng.standard_normal(K)
    Q = w @ w.T / N
    # the step of u = sum_k v_k w_k is the perceptron's times P = sum v^2 I + sum_k w_k w_k^T / N
    P = np.sum(v**2) * np.eye(N) + w.T @ w / N
    assert linear_effective_rate(0.1, v, Q, N) == pytest.approx(0.1 * np.trace(P) / N, rel=1e-12)
    batch = linear_effective_rate(0.1, np.stack([v, 2 * v]), np.stack([Q, Q]), N)
    assert batch.shape == (2,) and batch[1] > batch[0]
    assert np.all(linear_stationary_error(np.array([0.1, 0.2]), 0.01) > 0)


def test_linear_student_functions_name_their_bad_arguments():
    with pytest.raises(ValueError, match=r"effective_lr must be real numbers in \(0, 2\).*diverges"):
        linear_stationary_error(2.0, 0.01)
    with pytest.raises(ValueError, match="Q and N go together"):
        linear_effective_rate(0.1, [1.0, 1.0], np.eye(2))
    with pytest.raises(ValueError, match=r"Q must have shape \(2, 2\)"):
        linear_effective_rate(0.1, [1.0, 1.0], np.eye(3), 10)
    with pytest.raises(ValueError, match=r"v must have shape \(\.\.\., K\)"):
        linear_effective_rate(0.1, 1.0)


# ------------------------------------------------------------------ the arc-cosine kernel


def test_arc_cosine_kernel_special_correlations_and_monte_carlo():
    from gendyn import committee as cm

    assert cm.arc_cosine_kernel(2.0, 1.0) == pytest.approx(1.0, rel=1e-15)  # E ReLU(a)^2 = E a^2 / 2
    assert cm.arc_cosine_kernel(2.0, 0.0) == pytest.approx(1.0 / np.pi, rel=1e-15)  # (E ReLU)^2 = 1/(2 pi)
    assert cm.arc_cosine_kernel(2.0, -1.0) == 0.0  # never both positive
    rng = np.random.default_rng(5)
    c = 0.3
    z = rng.standard_normal((2, 1_000_000))
    a, b = 1.5 * z[0], 0.5 * (c * z[0] + np.sqrt(1 - c * c) * z[1])
    mc = np.maximum(a, 0) * np.maximum(b, 0)
    assert cm.arc_cosine_kernel(0.75, c) == pytest.approx(mc.mean(), abs=4 * mc.std() / 1000)


def test_arc_cosine_kernel_is_the_relu_i2_in_numpy_and_torch():
    import torch

    from gendyn import committee as cm

    C = np.array([[[1.0, 0.3], [0.3, 2.0]], [[0.5, -0.4], [-0.4, 0.9]]])
    scale = np.sqrt(C[:, 0, 0] * C[:, 1, 1])
    assert np.array_equal(cm.I2(C, "relu"), cm.arc_cosine_kernel(scale, C[:, 0, 1] / scale))
    out = cm.arc_cosine_kernel(torch.tensor(scale), torch.tensor(C[:, 0, 1] / scale))
    assert isinstance(out, torch.Tensor) and np.allclose(out.numpy(), cm.I2(C, "relu"), rtol=1e-15, atol=0)
    with pytest.raises(ValueError, match="cos must lie in"):
        cm.arc_cosine_kernel(torch.ones(2, dtype=torch.float64), torch.full((2,), 1.5, dtype=torch.float64))
    with pytest.raises(ValueError, match="scale must be >= 0"):
        cm.arc_cosine_kernel(-torch.ones(2, dtype=torch.float64), torch.zeros(2, dtype=torch.float64))


# ------------------------------------------------------------------- the slow manifold (§2)


def test_committee_odes_are_integrate_odes_with_unit_second_layers():
    Q, R, T = cm.specialised_state(2, 1, jitter=0.1, rng=0)
    a = cm.committee_odes((Q, R, T), "erf", 0.3, 0.05, [0.0, 1.0, 5.0])
    b = cm.integrate_odes(cm.OrderParameters(Q, R, T, np.ones(3), np.ones(2)), "erf", cm.OnlineSGD(0.3, 0.05),
                          [0.0, 1.0, 5.0])
    np.testing.assert_array_equal(a.eg, b.eg)
    np.testing.assert_array_equal(a.Q, b.Q)
    with pytest.raises(ValueError, match="state"):
        cm.committee_odes((Q, R), "erf", 0.3, 0.05, [0.0, 1.0])


def test_manifold_point_reads_an_outward_drift_and_an_error_below_eq10():
    lr, sigma = 0.05, 0.01
    window = 1.8e4 * (lr * sigma) ** 2
    small = cm.manifold_point(2, 2, 0.01, lr, sigma, window=window)
    large = cm.manifold_point(2, 2, 100.0, lr, sigma, window=window)
    assert isinstance(small, cm.ManifoldPoint)
    assert small.rate > 0 and large.rate > 0  # the noise pushes the pairs outward
    assert abs(small.shift) < 0.01 and small.c == pytest.approx(0.01 * (1 + small.shift))
    limit = cm.asymptotic_error("erf", 2, 2, cm.OnlineSGD(lr, sigma)) / cm.asymptotic_error("erf", 2, 4,
                                                                                            cm.OnlineSGD(lr, sigma))
    assert limit < large.ratio < small.ratio <= 1.0  # from (10) at c = 0 towards (10) at L mod 2
    with pytest.raises(ValueError, match="L must be"):
        cm.manifold_point(2, 1, 0.01, lr, sigma, window=window)
    with pytest.raises(ValueError, match="pair_q"):
        cm.manifold_point(2, 2, 0.0, lr, sigma, window=window)


def test_copies_and_their_signed_sums_on_the_continuum_of_denoising_splits():
    Q, R, T, v = cm.denoising_state(2, 6, 4.0, split=0.5)
    assert cm.copies_per_teacher(R).tolist() == [3, 3]
    np.testing.assert_allclose(cm.copy_sums(R, v), [4.0, 4.0])
    # a unit anti-parallel to its teacher unit, with v of the opposite sign, computes the same function
    R2, v2 = R.copy(), v.copy()
    R2[0], v2[0] = -R2[0], -v2[0]
    np.testing.assert_allclose(cm.copy_sums(R2, v2), [4.0, 4.0])
    # a unit with no overlap above 1/2 copies no teacher unit
    R2[1] = 0.3  # unit 1 copied teacher unit 1
    assert cm.copies_per_teacher(R2).tolist() == [3, 2]
    with pytest.raises(ValueError, match="v must have shape"):
        cm.copy_sums(R, v[:-1])


def test_split_relaxation_is_frozen_without_noise_and_decays_with_it():
    state = cm.denoising_state(1, 2, 2.0, split=0.4, jitter=0.01, rng=3)
    lr, sigma = 0.5, 0.1
    times = 100.0 + np.array([0.0, 5.0, 10.0]) / (lr * sigma) ** 2
    noisy = cm.split_relaxation(state, 2.0, lr, sigma, times)
    frozen = cm.split_relaxation(state, 2.0, lr, 0.0, times)
    assert noisy.split[0] == frozen.split[0] == 1.0
    assert abs(frozen.split[-1] - 1) <= frozen.distance2  # moved only by the start's relaxation
    assert noisy.split[2] < noisy.split[1] < 1 - frozen.distance2  # the noise equalises the copies
    # the start's squared distance from the continuum: its units' from their teacher copies
    Q, R, T, _ = state
    assert noisy.distance2 == pytest.approx(Q[0, 0] + Q[1, 1] - 2 * R[0, 0] - 2 * R[1, 0] + 2 * T[0, 0])
    np.testing.assert_array_equal(noisy.alpha, times)
    with pytest.raises(ValueError, match="K >= 2 M"):
        cm.split_relaxation(cm.denoising_state(1, 1, 2.0), 2.0, lr, sigma, times)
    with pytest.raises(FloatingPointError, match="split is zero"):
        cm.split_relaxation(cm.denoising_state(1, 2, 2.0), 2.0, lr, 0.0, times)  # equal copies stay equal
    with pytest.raises(ValueError, match="times must be > 0"):
        cm.split_relaxation(state, 2.0, lr, sigma, [0.0, 1.0])


def test_denoising_fixed_point_reads_the_odes_from_near_the_state_against_the_theory():
    state = cm.denoising_state(1, 2, 2.0, jitter=0.05, v_jitter=0.05, rng=4)
    reading = cm.denoising_fixed_point(state, 2.0, 0.2, 0.01, 2e4)
    ode = cm.integrate_odes(cm.OrderParameters(*state, [2.0]), "erf", cm.OnlineSGD(0.2, 0.01, train_second_layer=True),
                            [0.0, 2e3, 2e4])
    assert reading.eg == ode.eg[-1] and reading.drift == abs(ode.eg[-1] - ode.eg[-2])
    assert reading.theory == cm.asymptotic_error("erf", 1, 2, cm.OnlineSGD(0.2, 0.01, train_second_layer=True),
                                                 v_star=2.0)
    assert reading.eg == pytest.approx(reading.theory, abs=reading.drift + 1e-2 * reading.theory)


def test_random_start_odes_reads_each_start_against_the_denoising_theory():
    # K = M = 1 from a random start reaches the (unique) denoising state; a second start near the state with
    # one unit of K = 2 switched off does not, within the horizon
    times = [0.0, 1e2, 2e4]
    near = cm.denoising_state(1, 1, 2.0, jitter=0.05, v_jitter=0.05, rng=4)
    res = cm.random_start_odes([near, near], 2.0, 0.2, 0.01, times, rel_tol=0.05)
    ode = cm.integrate_odes(cm.OrderParameters(*near, [2.0]), "erf", cm.OnlineSGD(0.2, 0.01, train_second_layer=True),
                            times)
    np.testing.assert_array_equal(res.alpha, times)
    np.testing.assert_array_equal(res.eg, [ode.eg, ode.eg])
    assert res.theory == cm.asymptotic_error("erf", 1, 1, cm.OnlineSGD(0.2, 0.01, train_second_layer=True), v_star=2.0)
    np.testing.assert_array_equal(res.reached, np.abs(res.eg / res.theory - 1) <= 0.05)
    assert res.reached[:, -1].all() and not res.reached[:, 0].any()
    np.testing.assert_array_equal(res.fraction, res.reached.mean(axis=0))
    Q, R, T, v = cm.denoising_state(1, 2, 2.0, jitter=0.05, rng=5)
    lost = cm.random_start_odes([(Q, R, T, np.array([2.0, 0.0]))], 2.0, 0.2, 0.01, [0.0, 1e3])
    assert lost.fraction[-1] == 0.0 and lost.eg[0, -1] > 1.5 * lost.theory  # K = 2 acting as K = 1
    with pytest.raises(ValueError, match="starts"):
        cm.random_start_odes([], 2.0, 0.2, 0.01, times)
    with pytest.raises(ValueError, match="starts must all have the same"):
        cm.random_start_odes([near, (Q, R, T, v)], 2.0, 0.2, 0.01, times)
    with pytest.raises(ValueError, match="multiple of M"):
        cm.random_start_odes([(np.eye(3), np.zeros((3, 2)), np.eye(2), np.ones(3))], 2.0, 0.2, 0.01, times)
    with pytest.raises(ValueError, match="sigma"):
        cm.random_start_odes([near], 2.0, 0.2, 0.0, times)


# ------------------------------------------------------------- the specs and the former call forms


def test_the_specs_are_checked_when_made():
    with pytest.raises(ValueError, match="train_second_layer must be"):
        cm.OnlineSGD(0.1, train_second_layer="yes")
    with pytest.raises(ValueError, match="method must be one of"):
        cm.ODESolver(method="Euler")
    with pytest.raises(ValueError, match="rtol"):
        cm.ODESolver(rtol=0.0)
    with pytest.raises(ValueError, match="atol"):
        cm.ODESolver(atol=[1e-9, 1e-9])
    with pytest.raises(ValueError, match="T must be a square"):
        cm.OrderParameters(np.eye(2), np.zeros((2, 1)), np.zeros(1), 1.0, 1.0)
    state = cm.OrderParameters(np.eye(2), np.zeros((2, 1)), np.eye(1), 1.0, 2.0)
    assert state.shape == (2, 1) and state.v.tolist() == [1.0, 1.0] and state.v_star.tolist() == [2.0]
    assert cm.OnlineSGD(0.3).rate2 == 0.3 and cm.OnlineSGD(0.3, lr2=0.1).rate2 == 0.1
    with pytest.raises(ValueError, match="weight_decay must be 0"):
        asymptotic_error("erf", 1, 2, cm.OnlineSGD(0.1, 0.01, weight_decay=0.1))
    with pytest.raises(ValueError, match="sgd must be an OnlineSGD"):
        asymptotic_error("erf", 1, 2, 0.1)


def test_the_former_call_forms_warn_and_give_the_same_results():
    Q, R, T = random_order_parameters(3, 2)
    v, vs, times = np.array([0.5, 1.0, -0.3]), np.ones(2), [0.0, 1.0, 5.0]
    state = cm.OrderParameters(Q, R, T, v, vs)
    sgd = cm.OnlineSGD(0.3, 0.05, lr2=0.2, train_second_layer=True, weight_decay=0.01)
    with pytest.warns(DeprecationWarning, match=r"call integrate_odes\(OrderParameters"):
        old = integrate_odes(Q, R, T, v, vs, "erf", 0.3, 0.05, times, 0.2, True, 0.01, rtol=1e-8, method="RK45")
    new = integrate_odes(state, "erf", sgd, times, solver=cm.ODESolver("RK45", rtol=1e-8))
    for name in ("alpha", "eg", "Q", "R", "v"):
        np.testing.assert_array_equal(getattr(old, name), getattr(new, name))
    with pytest.warns(DeprecationWarning, match="order_parameter_derivatives"):
        old = order_parameter_derivatives(Q=Q, R=R, T=T, v=v, v_star=vs, activation="relu", lr=0.3, sigma=0.05,
                                          lr2=0.2, train_second_layer=True, weight_decay=0.01)
    new = order_parameter_derivatives(state, "relu", sgd)
    for a, b in zip(old, new):
        np.testing.assert_array_equal(a, b)
    with pytest.warns(DeprecationWarning, match=r"asymptotic_error\(activation, M, K, OnlineSGD"):
        old = asymptotic_error("erf", 2, 4, 0.2, 0.01, True, 1.5, lr2=0.1)
    assert old == asymptotic_error("erf", 2, 4, cm.OnlineSGD(0.2, 0.01, lr2=0.1, train_second_layer=True),
                                   v_star=1.5)
    with pytest.warns(DeprecationWarning):
        old = asymptotic_error("erf", 1, 3, 0.2, 0.01, small_lr=True)
    assert old == asymptotic_error("erf", 1, 3, cm.OnlineSGD(0.2, 0.01), small_lr=True)
    with pytest.warns(DeprecationWarning):  # a bad value of the former form is named as before
        with pytest.raises(ValueError, match="lr must be a finite number >= 0; got -0.1"):
            order_parameter_derivatives(Q, R, T, v, vs, "erf", -0.1, 0.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'sigmaa'"):  # neither form
        integrate_odes(state, "erf", sgd, times, sigmaa=0.1)
