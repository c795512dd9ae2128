"""Tests of gendyn.committee_sgd: SGD of two-layer teacher-student networks (Goldt et al. 2019)."""

import math

import numpy as np
import pytest
import torch

from gendyn import committee as cm
from gendyn import committee_sgd as cs
from gendyn import seeding
from test_committee import dg, g  # the reference activations of the ODE tests


def reference_step(w, v, X, y, act, lr, lr2, wd, train2):
    """Eqs. (2)-(3) of the paper for one mini-batch (rows of X), plain numpy, from the definitions."""
    N = w.shape[1]
    gw, gv = np.zeros_like(w), np.zeros_like(v)
    for x, label in zip(X, y):
        lam = w @ x / np.sqrt(N)
        delta = v @ g(lam, act) - label
        gw += np.outer(v * dg(lam, act) * delta, x)
        gv += g(lam, act) * delta
    b = len(X)
    w_new = (1 - wd / N) * w - lr / np.sqrt(N) * gw / b
    v_new = (1 - wd / N) * v - lr2 / N * gv / b if train2 else v.copy()
    return w_new, v_new


def kernel_step(w, v, X, y, act, lr, lr2, wd, train2, bs=1):
    """``len(X) // bs`` steps of the compiled kernel of the 'weights' engine."""
    N, K = w.shape[1], w.shape[0]
    w, v = w.copy(), v.copy()
    cs._weights_block(w, v, X, y, cs._ACT_CODE[act], lr / np.sqrt(N) / bs, lr2 / N / bs, 1 - wd / N, train2, bs,
                      1 / np.sqrt(N), np.empty(K), np.empty((bs, K)), np.empty(K))
    return w, v


@pytest.mark.parametrize("act", cm.ACTIVATIONS)
@pytest.mark.parametrize("bs, train2, wd", [(1, False, 0.0), (1, True, 0.3), (3, True, 0.0), (4, False, 0.5)])
def test_compiled_step_equals_reference_formula(act, bs, train2, wd):
    rng = np.random.default_rng(1)
    N, K = 40, 3
    w = rng.standard_normal((K, N))
    v = rng.standard_normal(K)
    X = rng.standard_normal((2 * bs, N)).astype(np.float32)  # two steps
    y = rng.standard_normal(2 * bs)
    w_ref, v_ref = w, v
    for s in range(2):
        w_ref, v_ref = reference_step(w_ref, v_ref, X[s * bs:(s + 1) * bs].astype(float), y[s * bs:(s + 1) * bs],
                                      act, 0.7, 0.4, wd, train2)
    w_k, v_k = kernel_step(w, v, X, y, act, 0.7, 0.4, wd, train2, bs)
    np.testing.assert_allclose(w_k, w_ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(v_k, v_ref, rtol=0, atol=1e-12)


def test_teacher_labels_are_eq_1():
    rng = np.random.default_rng(2)
    N, M = 30, 2
    ws, vs = rng.standard_normal((M, N)), np.array([1.0, -2.0])
    X = rng.standard_normal((5, N)).astype(np.float32)
    noise = rng.standard_normal(5) * 0.1
    y = np.empty(5)
    cs._teacher_labels(X, ws, vs, 0, 1 / np.sqrt(N), noise, y)
    np.testing.assert_allclose(y, g(X.astype(float) @ ws.T / np.sqrt(N), "erf") @ vs + noise, atol=1e-12)


@pytest.mark.parametrize("act", cm.ACTIVATIONS)
@pytest.mark.parametrize("train2, wd", [(False, 0.0), (True, 0.2)])
def test_order_parameter_update_equals_the_weight_update(act, train2, wd):
    """The 'order-parameters' engine's step, fed the fields and |x|^2 of an input, is exactly eq. (2)-(3)."""
    rng = np.random.default_rng(3)
    N, K, M = 60, 3, 2
    w, ws = rng.standard_normal((K, N)), rng.standard_normal((M, N))
    v, vs = rng.standard_normal(K), np.array([1.0, 0.5])
    x = rng.standard_normal(N).astype(np.float32)
    xd = x.astype(float)
    zeta, sigma = 0.8, 0.3
    y = np.array([g(ws @ xd / np.sqrt(N), act) @ vs + sigma * zeta])
    w_new, v_new = kernel_step(w, v, x[None], y, act, 0.6, 0.9, wd, train2)
    Q, R, _ = cs.order_parameters(w, ws)
    v_op = v.copy()
    f = np.concatenate([w @ xd, ws @ xd]) / np.sqrt(N)
    cs._op_update(Q, R, v_op, vs, f, xd @ xd, zeta, cs._ACT_CODE[act], 0.6, 0.9, sigma, 1 - wd / N, train2, N,
                  np.empty(K), np.empty(K))
    Q_ref, R_ref, _ = cs.order_parameters(w_new, ws)
    np.testing.assert_allclose(Q, Q_ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(R, R_ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(v_op, v_new, rtol=0, atol=1e-12)


def test_order_parameters_and_initial_state():
    init = cs.initial_weights(50, 3, 2, "erf", runs=2, rng=4, init=cs.Initialisation(teacher="orthonormal"))
    Q, R, T = init.order_parameters()
    w, ws = init.w[1], init.w_star[1]
    np.testing.assert_allclose(Q[1], w @ w.T / 50, atol=1e-13)
    np.testing.assert_allclose(R[1], w @ ws.T / 50, atol=1e-13)
    np.testing.assert_allclose(T[1], np.eye(2), atol=1e-12)  # orthonormal teacher: T = I exactly
    res = cs.simulate(init, cm.OnlineSGD(0.5, 0.1), cs.log_times(1.0, 5, N=50))
    assert res.alpha[0] == 0
    for r in range(2):
        Q0, R0, T0, v0, vs0 = res.initial_state(r)
        np.testing.assert_array_equal(Q0, Q[r])
        np.testing.assert_array_equal(res.Q[r, 0], Q[r])
        np.testing.assert_array_equal(res.R[r, 0], R[r])
        np.testing.assert_array_equal(T0, T[r])
    np.testing.assert_allclose(res.eg[:, 0], cm.generalisation_error(Q, R, T, init.v, init.v_star, "erf"))
    assert np.all(np.diff(res.alpha) > 0) and np.allclose(res.alpha * 50, np.round(res.alpha * 50))


def test_default_initialisation_variances():
    N = 400
    erf_init = cs.initial_weights(N, 2, 1, "erf", rng=0)
    lin_init = cs.initial_weights(N, 2, 1, "linear", rng=0)
    assert np.allclose(np.diag(erf_init.order_parameters()[0][0]), 1.0, atol=0.2)
    assert np.allclose(np.diag(lin_init.order_parameters()[0][0]), 1.0 / N, rtol=0.2)
    both = cs.initial_weights(N, 3, 1, "erf", rng=0, init=cs.Initialisation(v="normal"))
    assert both.v.shape == (1, 3) and np.all(both.v != 1.0)
    small = cs.initial_weights(N, 3, 1, "erf", rng=0, init=cs.Initialisation(v="normal", v_var=1e-4))
    np.testing.assert_allclose(small.v, both.v * 1e-2)


@pytest.mark.parametrize("engine", cs.ENGINES)
def test_reproducible_and_runs_independent_of_batching(engine):
    init = cs.initial_weights(80, 2, 2, "erf", runs=3, rng=5)
    times = cs.log_times(2.0, 6, N=80)
    a = cs.simulate(init, cm.OnlineSGD(0.5, 0.1), times, engine=engine, rng=9)
    b = cs.simulate(init, cm.OnlineSGD(0.5, 0.1), times, engine=engine, rng=9)
    np.testing.assert_array_equal(a.Q, b.Q)
    np.testing.assert_array_equal(a.eg, b.eg)
    one = cs.initial_weights(80, 2, 2, "erf", runs=1, rng=5)
    c = cs.simulate(one, cm.OnlineSGD(0.5, 0.1), times, engine=engine, rng=9)
    np.testing.assert_array_equal(c.Q[0], a.Q[0])  # run 0 does not depend on how many runs there are
    d = cs.simulate(init, cm.OnlineSGD(0.5, 0.1), times, engine=engine, rng=10)
    assert not np.array_equal(d.Q, a.Q)


def test_engines_agree_in_distribution():
    """Mean and spread of eps_g after 100 steps agree between the two engines (same initial weights)."""
    N, runs = 50, 150
    init = cs.initial_weights(N, 2, 2, "erf", runs=1, rng=6)
    many = cs.InitialWeights(np.repeat(init.w, runs, 0), np.repeat(init.w_star, runs, 0),
                             np.repeat(init.v, runs, 0), np.repeat(init.v_star, runs, 0), "erf")
    times = np.array([0.0, 2.0])
    res = {e: cs.simulate(many, cm.OnlineSGD(1.0, 0.3), times, engine=e, rng=7).eg[:, -1] for e in cs.ENGINES}
    a, b = res["weights"], res["order-parameters"]
    se = math.sqrt(a.var(ddof=1) / runs + b.var(ddof=1) / runs)
    assert abs(a.mean() - b.mean()) < 4.5 * se, (a.mean(), b.mean(), se)
    assert 0.7 < a.std() / b.std() < 1.4  # F-test at ~1e-4 level for 150 vs 150 samples


def test_short_time_agreement_with_the_odes():
    """Mean eps_g over runs follows eqs. (9) from the same initial state within its finite-N error.

    Theorem 1: E|m - m(alpha)| <= C(alpha) / sqrt(N). Over R runs from one initial state the
    mean of eps_g differs from the ODE by sampling noise (standard error over runs) plus a
    bias O(1/N) (eps_g is nonlinear in the O(N^-1/2) fluctuations of m). Tolerance: 4.5
    standard errors plus 2/N, at every recorded time up to alpha = 3 (the initial escape,
    before the run-to-run spread of the plateau exit).
    """
    N, runs = 400, 24
    init = cs.initial_weights(N, 3, 2, "erf", runs=1, rng=8)
    many = cs.InitialWeights(np.repeat(init.w, runs, 0), np.repeat(init.w_star, runs, 0),
                             np.repeat(init.v, runs, 0), np.repeat(init.v_star, runs, 0), "erf")
    times = cs.log_times(3.0, 8, alpha_min=0.1, N=N)
    res = cs.simulate(many, cm.OnlineSGD(0.5, 0.1), times, engine="order-parameters", rng=1)
    ode = res.ode(0)
    np.testing.assert_allclose(res.initial_state(5)[0], ode.Q[0])
    mean = res.eg.mean(0)
    se = res.eg.std(0, ddof=1) / math.sqrt(runs)
    assert np.all(np.abs(mean - ode.eg) <= 4.5 * se + 2.0 / N), np.c_[mean, ode.eg, se]
    # the weights engine on two runs: within the single-run spread
    few = cs.simulate(cs.InitialWeights(many.w[:2], many.w_star[:2], many.v[:2], many.v_star[:2], "erf"),
                      cm.OnlineSGD(0.5, 0.1), times, rng=1)
    spread = res.eg.std(0, ddof=1)
    assert np.all(np.abs(few.eg - ode.eg) <= 4.5 * spread + 2.0 / N)


def test_finite_training_set_is_fitted():
    """Linear student, P < N noisy examples, many passes: the training error goes to ~0, eps_g does not."""
    N, P = 60, 20
    init = cs.initial_weights(N, 1, 1, "linear", rng=3)
    res = cs.simulate(init, cm.OnlineSGD(0.5, 0.5), cs.log_times(100.0, 5, N=N),
                      sampling=cs.Sampling(batch_size=2, train_set_size=P))
    assert res.train_error is not None and res.train_error.shape == res.eg.shape
    assert res.train_error[0, -1] < 1e-3 * res.train_error[0, 0]
    assert res.eg[0, -1] > 10 * res.train_error[0, -1]
    assert cs.simulate(init, cm.OnlineSGD(0.5, 0.5), [0.0, 1.0]).train_error is None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(engine="gpu"), "engine must be one of"),
        (dict(lr=-1.0), "lr must be a finite number >= 0"),
        (dict(lr=0.0), "sgd.lr must be a finite number > 0"),
        (dict(sigma=float("nan")), "sigma must be a finite number >= 0"),
        (dict(batch_size=0), "batch_size must be an integer >= 1"),
        (dict(train_set_size=2, batch_size=4), "batch_size must be <= train_set_size = 2"),
        (dict(train_set_size=100, batch_size=10**12), r"^batch_size must be <= train_set_size = 100"),
        (dict(train_set_size=0), "train_set_size must be an integer >= 1"),
        (dict(engine="order-parameters", batch_size=2), "allowed: batch_size=1"),
        (dict(times=[1.0, 0.5]), "non-decreasing"),
        (dict(weight_decay=-0.1), "weight_decay must be a finite number >= 0"),
    ],
)
def test_bad_simulation_inputs_raise(kwargs, message):
    init = cs.initial_weights(20, 2, 1, "erf")
    args = dict(lr=0.1, sigma=0.0, times=[0.0, 1.0])
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        sgd = cm.OnlineSGD(**{k: args.pop(k) for k in ("lr", "sigma", "weight_decay") if k in args})
        sampling = cs.Sampling(**{k: args.pop(k) for k in ("batch_size", "train_set_size") if k in args})
        cs.simulate(init, sgd, args.pop("times"), sampling=sampling, **args)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((20, 2, 1, "tanh"), {}, "activation must be one of"),
        ((3, 2, 1, "erf"), {}, "need N > K \\+ M"),
        ((20, 0, 1, "erf"), {}, "K must be an integer >= 1"),
        ((20, 2, 1, "erf"), dict(teacher="random"), "teacher must be one of"),
        ((20, 2, 1, "erf"), dict(v="uniform"), "v must be a real number or 'normal'"),
        ((20, 2, 1, "erf"), dict(runs=0), "runs must be an integer >= 1"),
        ((20, 2, 1, "erf"), dict(init_var=0.0), "init_var must be a finite number > 0"),
    ],
)
def test_bad_initialisation_inputs_raise(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        init = cs.Initialisation(**{k: kwargs.pop(k) for k in ("init_var", "teacher", "v") if k in kwargs})
        cs.initial_weights(*args, init=init, **kwargs)


def test_simulate_needs_initial_weights():
    with pytest.raises(ValueError, match="initial must be an InitialWeights"):
        cs.simulate(np.zeros((2, 3)), cm.OnlineSGD(0.1, 0.0), [0.0, 1.0])


def test_the_order_parameter_chain_stops_when_its_state_stops_being_a_gram_matrix():
    # strong weight decay pulls every student unit onto one direction; rounding then makes the chain's
    # (Q, R, T) indefinite and the recorded error meaningless (negative): it must raise, not return it
    init = cs.initial_weights(100, 3, 2, "erf", rng=7, init=cs.Initialisation(teacher="orthonormal"))
    with pytest.raises(FloatingPointError, match="engine 'order-parameters' lost a valid state.*engine='weights'"):
        cs.simulate(init, cm.OnlineSGD(0.05, 0.01, weight_decay=0.01), [0, 1000, 5000], engine="order-parameters",
                    rng=7)


def test_log_and_late_times_adds_evenly_spaced_steps_in_the_second_half():
    N, alpha_max = 50, 20.0
    times = cs.log_and_late_times(alpha_max, N, n_points=10, n_late=11)
    late = np.arange(500, 1001, 50) / N  # steps 500, 550, ..., 1000 of alpha = steps / N
    np.testing.assert_array_equal(times, np.union1d(cs.log_times(alpha_max, 10, N=N), late))
    assert np.all(np.diff(times) > 0) and np.all(np.isin(late, times))
    np.testing.assert_array_equal(times * N, np.round(times * N))  # whole steps only
    assert times[0] == 0.0 and times[-1] == alpha_max
    with pytest.raises(ValueError, match="n_late"):
        cs.log_and_late_times(alpha_max, N, n_late=1)


# ------------------------------------------------------------- asymptotic errors (§2)


def test_late_average_is_the_mean_of_the_late_records_with_a_batch_means_error():
    t = np.arange(300.0)
    y = np.where(t >= 150, 1.0 + 0.01 * np.sin(t), 5.0)
    out = cs.late_average(t, y)
    late = y[-100:]
    assert isinstance(out, cs.LateAverage) and out.mean == pytest.approx(late.mean())
    assert out.se == pytest.approx(late.reshape(10, 10).mean(1).std(ddof=1) / math.sqrt(10))
    from gendyn.book import stats  # the book's statistic is this one
    assert tuple(stats.late_average(t, y)) == tuple(out)
    with pytest.raises(ValueError, match="records"):
        cs.late_average(np.arange(100.0), np.ones(100))


def test_near_specialised_puts_one_student_unit_on_each_teacher_unit():
    init = cs.near_specialised(400, 4, 2, rng=3, jitter=0.01)
    Q, R, T = (x[0] for x in init.order_parameters())
    assert init.shape == (400, 4, 2) and init.activation == "erf"
    np.testing.assert_allclose(T, np.eye(2), atol=1e-12)  # orthonormal teacher
    np.testing.assert_allclose(R[:2], np.eye(2), atol=0.02)  # the specialists
    np.testing.assert_allclose(Q[2:, 2:], 1e-4 * np.eye(2), atol=2e-5)  # superfluous units of small weight
    exact = cs.near_specialised(400, 4, 2, rng=3, jitter=0.0)
    np.testing.assert_array_equal(exact.w[0, :2], exact.w_star[0])
    np.testing.assert_array_equal(exact.w[0, 2:], 0.0)
    np.testing.assert_array_equal(init.w_star, exact.w_star)  # the same teacher at any jitter
    with pytest.raises(ValueError, match="K must be >= M"):
        cs.near_specialised(40, 1, 2)


def test_stationary_run_reads_eps_star_from_the_late_records_and_compares_theory_and_odes():
    init = cs.near_specialised(100, 3, 2, rng=1)
    out = cs.stationary_run(init, 0.2, 0.1, 200.0, rng=1, ode=True)
    assert isinstance(out, cs.StationaryRun) and (out.K, out.M, out.L, out.lr) == (3, 2, 1, 0.2)
    assert (out.sgd, out.se) == tuple(cs.late_average(out.run.alpha, out.run.eg[0]))
    assert out.theory == cm.asymptotic_error("erf", 2, 3, cm.OnlineSGD(0.2, 0.1))
    assert out.ode == cs.late_average(out.run.alpha, out.ode_run.eg).mean
    np.testing.assert_array_equal(out.ode_run.alpha, out.run.alpha)
    # the stationary error: eq. (10) within a generous finite-N margin (N = 100), the ODE's fixed point closer
    assert out.sgd == pytest.approx(out.theory, rel=0.3)
    assert out.ode_long == pytest.approx(out.theory, rel=0.02)
    again = cs.stationary_run(init, 0.2, 0.1, 200.0, rng=1)
    assert again.sgd == out.sgd and again.ode is None and again.ode_run is None  # same seed, same run
    decayed = cs.stationary_run(init, 0.2, 0.1, 200.0, rng=1, weight_decay=1e-3)
    assert decayed.theory is None and decayed.run.settings["weight_decay"] == 1e-3
    relu = cs.stationary_run(cs.initial_weights(100, 2, 1, "relu", rng=0), 0.2, 0.1, 20.0)
    assert relu.theory is None and np.isfinite(relu.sgd)


def test_stationary_run_refuses_batches_of_runs_and_short_horizons():
    with pytest.raises(ValueError, match="initial must hold one run"):
        cs.stationary_run(cs.initial_weights(20, 2, 1, runs=2), 0.1, 0.1, 20.0)
    with pytest.raises(ValueError, match="alpha_max must be >= 200 / N"):
        cs.stationary_run(cs.initial_weights(20, 2, 1), 0.1, 0.1, 5.0)


def test_ode_comparison_runs_sgd_three_ways_from_one_state_and_the_odes_from_it():
    init = cs.initial_weights(50, 2, 2, "erf", rng=3)
    times = cs.log_times(2.0, 8, alpha_min=0.05, N=50)
    out = cs.ode_comparison(init, 0.2, 0.0, times, spread_runs=3, early_runs=2, early_alpha=0.5, rng=3)
    assert isinstance(out, cs.ODEComparison) and out.K == 2
    assert (out.single.engine, out.spread.engine, out.early.engine) == ("weights", "order-parameters",
                                                                         "order-parameters")
    assert out.single.eg.shape == (1, len(times)) and out.spread.eg.shape == (3, len(times))
    np.testing.assert_array_equal(out.early.alpha, out.single.alpha[out.single.alpha <= 0.5])
    assert out.early.eg.shape[0] == 2
    # every run starts from the state of `initial`, and the ODEs from it too
    for res in (out.single, out.spread, out.early):
        np.testing.assert_allclose(res.Q0, np.repeat(init.order_parameters()[0], res.eg.shape[0], 0))
    np.testing.assert_array_equal(out.ode.eg, out.single.ode(0).eg)
    # the streams: the run on the weights is simulate's on the stream "single" of rng, the spread runs' on "spread"
    single = cs.simulate(init, cm.OnlineSGD(0.2, 0.0), times, rng=seeding.stream(3, "single"))
    np.testing.assert_array_equal(out.single.eg, single.eg)
    spread = cs.simulate(cs.initial_weights(50, 2, 2, "erf", rng=3), cm.OnlineSGD(0.2, 0.0), times,
                         engine="order-parameters", rng=seeding.stream(3, "spread"))
    np.testing.assert_array_equal(out.spread.eg[:1], spread.eg)


def test_ode_comparison_refuses_batches_of_runs_single_early_runs_and_early_times_before_the_grid():
    init = cs.initial_weights(20, 2, 1, rng=0)
    times = [0.1, 0.2, 0.3]
    with pytest.raises(ValueError, match="initial must hold one run"):
        cs.ode_comparison(cs.initial_weights(20, 2, 1, runs=2), 0.1, 0.0, times, spread_runs=1, early_runs=2,
                          early_alpha=0.2)
    with pytest.raises(ValueError, match="early_runs must be an integer >= 2"):
        cs.ode_comparison(init, 0.1, 0.0, times, spread_runs=1, early_runs=1, early_alpha=0.2)
    with pytest.raises(ValueError, match="early_alpha must be >= the first of times"):
        cs.ode_comparison(init, 0.1, 0.0, times, spread_runs=1, early_runs=2, early_alpha=0.05)


def test_ode_distance_is_the_rms_gap_of_each_run_from_its_own_odes_and_shrinks_with_n():
    times = cs.log_times(1.0, 10, alpha_min=0.05)
    init = cs.initial_weights(40, 2, 2, "erf", runs=3, rng=1)
    out = cs.ode_distance(init, 0.2, 0.0, times, rng=2)
    assert isinstance(out, cs.ODEDistance) and out.N == 40 and out.rms.shape == (3,)
    res = cs.simulate(init, cm.OnlineSGD(0.2, 0.0), times, engine="order-parameters", rng=2)
    manual = [np.sqrt(np.mean((res.eg[r, 1:] - res.ode(r).eg[1:]) ** 2)) for r in range(3)]
    np.testing.assert_array_equal(out.rms, manual)
    big = cs.ode_distance(cs.initial_weights(4000, 2, 2, "erf", runs=3, rng=1), 0.2, 0.0, times, rng=2)
    assert big.rms.mean() < out.rms.mean()  # eq. (7): O(N^-1/2)
    weights = cs.ode_distance(init, 0.2, 0.0, times, engine="weights", rng=2)
    assert weights.run.engine == "weights" and np.all(np.isfinite(weights.rms))
    with pytest.raises(ValueError, match="times must hold at least two times"):
        cs.ode_distance(init, 0.2, 0.0, [0.5])


def test_escape_time_interpolates_the_first_crossing_in_log_log_and_is_inf_without_one():
    alpha = np.array([0.0, 1.0, 10.0, 100.0])
    assert cs.escape_time(alpha, [1.0, 1.0, 1e-2, 1e-4]) == pytest.approx(math.sqrt(10 * 100))
    eps = [1.0, 1.0, 1e-2, 1e-4]
    assert cs.escape_time(alpha, eps, threshold=5e-3) < cs.escape_time(alpha, eps)  # a higher threshold: earlier
    assert cs.escape_time(alpha, [1.0, 0.5, 0.1, 0.01]) == math.inf  # never below 1e-3: censored
    with pytest.raises(ValueError, match="eps must start at or above threshold"):
        cs.escape_time(alpha, [1e-4, 1e-4, 1e-4, 1e-4])
    with pytest.raises(ValueError, match="alpha must be > 0 where eps crosses"):
        cs.escape_time(alpha, [1.0, 1e-4, 1e-4, 1e-4])
    with pytest.raises(ValueError, match="alpha and eps must have the same length"):
        cs.escape_time(alpha, [1.0, 1e-4])


def test_stationary_run_with_both_layers_trained_compares_with_the_denoising_fixed_point():
    init = cs.initial_weights(60, 2, 2, "erf", rng=2, init=cs.Initialisation(teacher="orthonormal", v="normal",
                                                                              v_star=2.0))
    out = cs.stationary_run(init, 0.1, 0.05, 50.0, rng=2, train_second_layer=True)
    assert out.run.settings["train_second_layer"] and out.run.settings["lr2"] == 0.1
    assert not np.array_equal(out.run.v[0, -1], out.run.v[0, 0])  # v moved
    assert out.theory == cm.asymptotic_error("erf", 2, 2, cm.OnlineSGD(0.1, 0.05, train_second_layer=True), v_star=2.0)
    same = cs.simulate(init, cm.OnlineSGD(0.1, 0.05, train_second_layer=True), cs.log_and_late_times(50.0, 60),
                       engine="order-parameters", rng=2)
    np.testing.assert_array_equal(out.run.eg, same.eg)
    odd = cs.initial_weights(60, 3, 2, "erf", rng=2, init=cs.Initialisation(teacher="orthonormal", v="normal",
                                                                             v_star=2.0))
    assert cs.stationary_run(odd, 0.1, 0.05, 50.0, train_second_layer=True).theory is None  # K not a multiple of M


def test_linear_stationary_runs_give_batch_means_of_the_second_half_and_each_runs_effective_rate():
    init = cs.initial_weights(40, 2, 2, "linear", runs=2, rng=4, init=cs.Initialisation(teacher="orthonormal",
                                                                                         v="normal", v_var=0.5))
    out = cs.linear_stationary_runs(init, 0.05, 0.1, 20.0, train_second_layer=True, rng=4)
    assert isinstance(out, cs.LinearStationaryRuns) and out.K == 2
    assert out.batches.shape == (2, 10) and out.eff.shape == (2,)
    late = out.run.alpha >= out.run.alpha[-1] / 2
    np.testing.assert_allclose(out.batches.mean(1), out.run.eg[:, late][:, -100:].mean(1))
    np.testing.assert_allclose(out.eff, cm.linear_effective_rate(0.05, out.run.v[:, late], out.run.Q[:, late],
                                                                 40).mean(1))
    fixed = cs.linear_stationary_runs(init, 0.05, 0.1, 20.0, rng=4)  # v fixed: eta' = eta sum_k v_k^2
    np.testing.assert_allclose(fixed.eff, 0.05 * np.sum(init.v ** 2, axis=1))
    # eq. (12) at eta' = eta K describes the stationary error of the SCM (v = v* = 1)
    scm = cs.linear_stationary_runs(cs.initial_weights(40, 2, 2, "linear", runs=2, rng=4,
                                                       init=cs.Initialisation(teacher="orthonormal")),
                                    0.05, 0.1, 400.0, rng=4)
    np.testing.assert_allclose(scm.eff, 0.1)
    assert scm.batches.mean() == pytest.approx(cm.linear_stationary_error(0.1, 0.1), rel=0.5)
    with pytest.raises(ValueError, match="initial must hold linear networks"):
        cs.linear_stationary_runs(cs.initial_weights(40, 2, 2, "erf"), 0.05, 0.1, 20.0)
    with pytest.raises(ValueError, match="alpha_max must be >= 200 / N"):
        cs.linear_stationary_runs(init, 0.05, 0.1, 1.0)


def test_long_ode_runs_integrate_the_odes_from_near_the_fixed_point_and_from_each_start():
    starts = [cs.initial_weights(30, 2, 1, "erf", rng=s, init=cs.Initialisation(teacher="orthonormal", v="normal",
                                                                                 v_star=2.0))
              for s in range(2)]
    near = cm.denoising_state(1, 2, 2.0, split=0.3, jitter=0.01)
    long = cs.long_ode_runs(near, starts, 0.5, 0.1, 100.0, extra_times=[50.0], train_second_layer=True, v_star=2.0)
    assert long.times[0] == 0.0 and long.long_alpha == 100.0 and 50.0 in long.times
    assert np.all(np.diff(long.times) > 0) and long.K == 2 and len(long.starts) == 2
    assert long.theory == cm.asymptotic_error("erf", 1, 2, cm.OnlineSGD(0.5, 0.1, train_second_layer=True), v_star=2.0)
    sgd = cm.OnlineSGD(0.5, 0.1, train_second_layer=True)
    direct = cm.integrate_odes(cm.OrderParameters(*near, [2.0]), "erf", sgd, long.times)
    np.testing.assert_array_equal(long.near.eg, direct.eg)
    Q, R, T = (x[0] for x in starts[1].order_parameters())
    direct = cm.integrate_odes(cm.OrderParameters(Q, R, T, starts[1].v[0], [2.0]), "erf", sgd, long.times)
    np.testing.assert_array_equal(long.starts[1].v, direct.v)
    np.testing.assert_array_equal(long.final, [run.eg[-1] / long.theory for run in long.starts])
    # second layer fixed: (Q, R, T) with v = v* = 1, the theory eq. (10)
    scm = cs.long_ode_runs(cm.specialised_state(1, 1, jitter=0.01), [], 0.5, 0.1, 100.0)
    assert scm.starts == () and scm.theory == cm.asymptotic_error("erf", 1, 2, cm.OnlineSGD(0.5, 0.1))
    with pytest.raises(ValueError, match="starts must hold one erf run each"):
        cs.long_ode_runs(near, starts, 0.5, 0.1, 100.0, train_second_layer=True, v_star=1.0)
    with pytest.raises(ValueError, match="long_alpha must be"):
        cs.long_ode_runs(near, [], 0.5, 0.1, 1.0, train_second_layer=True, v_star=2.0)


def test_linear_student_starts_and_eq12_for_each_of_fig4s_students():
    normalised = cs.linear_student_start(30, 3, 2, "both layers from the normalised SCM", runs=2, rng=1)
    scm = cs.linear_student_start(30, 3, 2, "normalised SCM", runs=2, rng=1)
    assert normalised.train_second_layer and not scm.train_second_layer
    np.testing.assert_allclose(scm.initial.v, 1 / 3)
    np.testing.assert_allclose(scm.initial.v_star, 1 / 2)
    # the same draws, every unit moved by the teachers' mean
    np.testing.assert_allclose(normalised.initial.w - scm.initial.w, np.repeat(scm.initial.w_star.mean(1, keepdims=True), 3, 1))
    both = cs.linear_student_start(30, 3, 2, "both layers", runs=200, rng=1)
    assert both.initial.v.var() == pytest.approx(1 / 3, rel=0.2)
    runs = {}
    for j, variant in enumerate(cs.LINEAR_VARIANTS):
        start = cs.linear_student_start(30, 2, 1, variant, runs=2, rng=j)
        runs[variant, 2] = cs.linear_stationary_runs(start.initial, 0.05, 0.1, 20.0, rng=j,
                                                     train_second_layer=start.train_second_layer)
    lin = cs.linear_networks(runs, 30, 0.05, 0.1, 1)
    assert lin.ks == (2,) and lin.runs == 2
    assert lin.theory["SCM", 2] == pytest.approx(cm.asymptotic_error("linear", 1, 2, cm.OnlineSGD(0.05, 0.1)))
    assert lin.theory["normalised SCM", 2] == pytest.approx(cm.linear_stationary_error(0.05 / 2, 0.1))
    np.testing.assert_allclose(lin.theory["both layers", 2], cm.linear_stationary_error(runs["both layers", 2].eff, 0.1))
    assert lin.eff_fixed_point[2] == pytest.approx(0.05 * (1 / 2 + 2 / 30))
    with pytest.raises(ValueError, match="every variant"):
        cs.linear_networks({k: r for k, r in runs.items() if k[0] != "SCM"}, 30, 0.05, 0.1, 1)
    with pytest.raises(ValueError, match="variant must be one of"):
        cs.linear_student_start(30, 2, 1, "deep")


# ------------------------------------------------------------- the specs and the former call forms


def test_the_specs_of_a_run_are_checked_when_made():
    with pytest.raises(ValueError, match="batch_size must be an integer >= 1"):
        cs.Sampling(0)
    with pytest.raises(ValueError, match="batch_size must be <= train_set_size = 3"):
        cs.Sampling(4, 3)
    with pytest.raises(ValueError, match="v_star must be a finite nonzero number"):
        cs.Initialisation(v_star=0.0)
    with pytest.raises(ValueError, match="v_var must be a finite number > 0"):
        cs.Initialisation(v="normal", v_var=0.0)
    with pytest.raises(ValueError, match="sampling must be a Sampling"):
        cs.simulate(cs.initial_weights(20, 2, 1), cm.OnlineSGD(0.1), [0.0, 1.0], sampling=10)
    with pytest.raises(ValueError, match="init must be an Initialisation"):
        cs.initial_weights(20, 2, 1, init="orthonormal")


def test_the_former_call_forms_of_simulate_and_initial_weights_warn_and_give_the_same_results():
    with pytest.warns(DeprecationWarning, match=r"call initial_weights\(N, K, M, activation, .*Initialisation"):
        old = cs.initial_weights(30, 2, 1, "relu", runs=2, seed=4, init_var=0.3, teacher="orthonormal", v="normal",
                                 v_star=2.0, v_var=0.5)
    new = cs.initial_weights(30, 2, 1, "relu", runs=2, rng=4,
                             init=cs.Initialisation(0.3, "orthonormal", "normal", 2.0, 0.5))
    for name in ("w", "w_star", "v", "v_star"):
        np.testing.assert_array_equal(getattr(old, name), getattr(new, name))
    times = [0.0, 0.5, 1.0]
    with pytest.warns(DeprecationWarning, match=r"call simulate\(initial, gendyn.committee.OnlineSGD"):
        old = cs.simulate(new, 0.3, 0.1, times, lr2=0.2, train_second_layer=True, weight_decay=0.01, batch_size=2,
                          train_set_size=40, seed=3, block=16)
    res = cs.simulate(new, cm.OnlineSGD(0.3, 0.1, 0.2, True, 0.01), times, sampling=cs.Sampling(2, 40), rng=3,
                      block=16)
    for name in ("alpha", "eg", "Q", "R", "v", "train_error"):
        np.testing.assert_array_equal(getattr(old, name), getattr(res, name))
    assert old.settings == res.settings
    with pytest.warns(DeprecationWarning):
        old = cs.simulate(new, 0.3, 0.1, times=times, engine="order-parameters")
    np.testing.assert_array_equal(old.eg, cs.simulate(new, cm.OnlineSGD(0.3, 0.1), times,  # the former default seed 0
                                                      engine="order-parameters", rng=0).eg)


# ------------------------------------------------------------------ the rng argument (gendyn.seeding)


def test_rng_keeps_the_draws_of_the_former_integer_seeds():
    # run r draws from SeedSequence(seed).spawn(runs)[r] (numpy) as before the one convention
    init = cs.initial_weights(30, 2, 1, "erf", runs=2, rng=4)
    child = np.random.SeedSequence(4).spawn(2)[1]
    np.testing.assert_array_equal(init.w_star[1], np.random.default_rng(child).standard_normal((1, 30)))
    # the inputs of the weights engine: a torch generator seeded with 63 bits of the run's stream
    gen = torch.Generator().manual_seed(int(np.random.SeedSequence(9).spawn(1)[0].generate_state(1, np.uint64)[0] >> 1))
    assert seeding.torch_generator(seeding.stream(9, 0)).initial_seed() == gen.initial_seed()


def test_a_generator_or_a_stream_is_an_rng_and_none_is_fresh_entropy():
    a = cs.initial_weights(30, 2, 1, rng=seeding.stream(5, "start"))
    b = cs.initial_weights(30, 2, 1, rng=seeding.stream(5, "start"))
    np.testing.assert_array_equal(a.w, b.w)
    g = torch.Generator().manual_seed(1)
    c, d = cs.initial_weights(30, 2, 1, rng=g), cs.initial_weights(30, 2, 1, rng=g)  # advanced: different draws
    assert not np.array_equal(c.w, d.w)
    assert not np.array_equal(cs.initial_weights(30, 2, 1).w, cs.initial_weights(30, 2, 1).w)
    times = [0.0, 0.5, 1.0]
    e = cs.simulate(a, cm.OnlineSGD(0.3, 0.1), times, rng=np.random.default_rng(2)).eg
    f = cs.simulate(a, cm.OnlineSGD(0.3, 0.1), times, rng=np.random.default_rng(2)).eg
    np.testing.assert_array_equal(e, f)


FORMER_SEED = [  # one call per family of stochastic functions, with the keyword rng (or seed) to fill
    lambda **k: cs.initial_weights(30, 2, 1, "erf", runs=2, **k).w,
    lambda **k: cs.simulate(cs.initial_weights(30, 2, 1, rng=0), cm.OnlineSGD(0.3, 0.1), [0.0, 0.5], **k).eg,
    lambda **k: cs.near_specialised(30, 3, 2, **k).w,
    lambda **k: cs.stationary_run(cs.initial_weights(100, 2, 1, rng=0), 0.2, 0.1, 2.0, **k).sgd,
    lambda **k: cs.ode_comparison(cs.initial_weights(30, 2, 1, rng=0), 0.3, 0.0, [0.0, 0.5, 1.0], spread_runs=1,
                                  early_runs=2, early_alpha=0.5, **k).spread.eg,
    lambda **k: cs.ode_distance(cs.initial_weights(30, 2, 1, runs=2, rng=0), 0.3, 0.0, [0.0, 0.5], **k).rms,
    lambda **k: cs.linear_stationary_runs(cs.initial_weights(30, 2, 1, "linear", rng=0), 0.05, 0.1, 7.0, **k).batches,
    lambda **k: cs.linear_student_start(30, 2, 1, "both layers", **k).initial.v,
    lambda **k: cm.specialised_state(2, 2, jitter=0.01, **k)[0],
    lambda **k: cm.denoising_state(1, 2, 2.0, jitter=0.01, v_jitter=0.01, **k)[3],
]


@pytest.mark.parametrize("call", FORMER_SEED, ids=range(len(FORMER_SEED)))
def test_the_former_seed_keyword_warns_and_draws_as_rng(call):
    with pytest.warns(DeprecationWarning, match=r"\(seed=\.\.\.\) is deprecated.*pass rng="):
        old = call(seed=3)
    np.testing.assert_array_equal(old, call(rng=3))
    with pytest.raises(ValueError, match="one random-number argument, rng"):
        call(seed=3, rng=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'sead'"):
        call(sead=3)


@pytest.mark.parametrize("engine", cs.ENGINES)
def test_runs_spread_over_threads_give_the_same_bytes_as_one_loop(engine):
    init = cs.initial_weights(60, 3, 2, "erf", runs=3, rng=2)
    sgd = cm.OnlineSGD(0.3, 0.1, train_second_layer=True)
    old = torch.get_num_threads()
    out = {}
    try:
        for threads in (1, 3):  # one loop; three runs on three threads at once
            torch.set_num_threads(threads)
            out[threads] = cs.simulate(init, sgd, cs.log_times(10.0, 20), engine=engine, rng=7)
    finally:
        torch.set_num_threads(old)
    for name in ("eg", "Q", "R", "v"):
        np.testing.assert_array_equal(getattr(out[1], name), getattr(out[3], name))


def test_concurrent_stationary_runs_are_each_runs_own_bytes():
    """Runs at different settings side by side (the chapters' loops over K, eta, sigma): each result, its SGD
    and its ODEs, is the same bytes as the run alone, and the results come in the order of the items."""
    def run(setting):
        K, lr = setting
        start = cs.initial_weights(80, K, 2, "erf", rng=seeding.stream(5, K, "start"))
        return cs.stationary_run(start, lr, 0.1, 30.0, rng=seeding.stream(5, K, f"eta={lr:g}", "sgd"), ode=True)

    settings = [(2, 0.5), (3, 0.3), (4, 0.5)]
    alone = [run(s) for s in settings]
    together = cs.concurrently(run, settings, threads=3)
    for a, b in zip(alone, together):
        assert a.sgd == b.sgd and a.se == b.se and a.ode_long == b.ode_long
        for name in ("eg", "Q", "R", "v"):
            assert getattr(a.run, name).tobytes() == getattr(b.run, name).tobytes()
        assert a.ode_run.eg.tobytes() == b.ode_run.eg.tobytes()
