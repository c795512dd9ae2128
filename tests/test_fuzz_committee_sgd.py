"""Fuzz: every public function of gendyn.committee_sgd refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import committee as cm
from gendyn import committee_sgd as cs

INIT = cs.initial_weights(20, 2, 1, "erf", runs=2, rng=0)
RESULT = cs.simulate(INIT, cm.OnlineSGD(0.5, 0.1), [0.0, 0.1, 0.2], block=64)
# Fig. 4's four linear students (§3), one K, two runs each
LINEAR = {}
for j, variant in enumerate(cs.LINEAR_VARIANTS):
    start = cs.linear_student_start(20, 1, 1, variant, runs=2, rng=j)
    LINEAR[variant, 1] = cs.linear_stationary_runs(start.initial, 0.05, 0.1, 12.0, rng=j,
                                                   train_second_layer=start.train_second_layer)

CASES = [
    Case(cs.Initialisation, dict(init_var=None, teacher="gaussian", v=1.0, v_star=1.0, v_var=1.0),
         accepted=dict(init_var={"none"}, v={"negative", "zero"}, v_star={"negative"})),
    Case(cs.initial_weights,
         dict(N=20, K=2, M=1, activation="erf", runs=1, rng=0,
              init=cs.Initialisation(init_var=0.5, teacher="orthonormal", v="normal", v_star=2.0, v_var=0.5)),
         accepted=dict(rng={"zero", "none"}, init={"none"})),
    Case(cs.log_times, dict(alpha_max=1.0, n_points=5, alpha_min=0.01, N=50), accepted=dict(N={"none"})),
    Case(cs.log_and_late_times, dict(alpha_max=1.0, N=50, n_points=5, n_late=11)),
    Case(cs.order_parameters, dict(w=INIT.w, w_star=INIT.w_star)),
    Case(cs.Sampling, dict(batch_size=1, train_set_size=10), accepted=dict(train_set_size={"none"})),
    Case(cs.simulate,
         dict(initial=INIT, sgd=cm.OnlineSGD(0.5, 0.1, lr2=0.3, train_second_layer=True, weight_decay=0.01),
              times=[0.0, 0.1, 0.2], sampling=cs.Sampling(1, 10), engine="weights", rng=0, block=64,
              progress=None),
         accepted=dict(sampling={"none"}, rng={"zero", "none"},
                       progress={"none", "string", "unknown-name"})),  # any label of the progress bar
    # the methods of the result: the run index and the times of the ODE solution
    Case(RESULT.initial_state, dict(run=1), accepted=dict(run={"zero"})),
    Case(RESULT.ode, dict(run=1, times=[0.0, 0.1]), accepted=dict(run={"zero"}, times={"none"})),
    # the asymptotic error of §2: a late average, a near-specialised start and one stationary run
    Case(cs.late_average, dict(time=np.arange(40.0), values=np.sin(np.arange(40.0)), points=20, batches=4)),
    Case(cs.near_specialised, dict(N=20, K=3, M=2, rng=0, jitter=0.01),
         accepted=dict(rng={"zero", "none"}, jitter={"zero"})),
    Case(cs.stationary_run,
         dict(initial=cs.initial_weights(20, 2, 1, "erf", rng=0), lr=0.5, sigma=0.1, alpha_max=12.0, weight_decay=0.0,
              rng=0, ode=True, train_second_layer=False),
         accepted=dict(sigma={"zero"}, weight_decay={"zero"}, rng={"zero", "none"}, ode={"bool", "false"},
                       train_second_layer={"bool", "false"})),
    # SGD against the ODEs of §1: runs from one state, the distance per run, the escape from the plateau
    Case(cs.ode_comparison,
         dict(initial=cs.initial_weights(20, 2, 1, "erf", rng=0), lr=0.5, sigma=0.1, times=[0.0, 0.1, 0.2],
              spread_runs=2, early_runs=2, early_alpha=0.1, rng=0),
         accepted=dict(sigma={"zero"}, rng={"zero", "none"})),
    Case(cs.ode_distance,
         dict(initial=INIT, lr=0.5, sigma=0.1, times=[0.0, 0.1, 0.2], engine="order-parameters", rng=0),
         accepted=dict(sigma={"zero"}, rng={"zero", "none"})),
    Case(cs.escape_time, dict(alpha=[0.0, 1.0, 10.0, 100.0], eps=[1.0, 1.0, 1e-2, 1e-4], threshold=1e-3)),
    # the linear students of §3, Fig. 4
    Case(cs.linear_stationary_runs,
         dict(initial=cs.initial_weights(20, 2, 1, "linear", runs=2, rng=0), lr=0.05, sigma=0.1, alpha_max=12.0,
              train_second_layer=False, rng=0),
         accepted=dict(sigma={"zero"}, rng={"zero", "none"}, train_second_layer={"bool", "false"})),
    Case(cs.linear_student_start, dict(N=20, K=2, M=1, variant="SCM", runs=1, rng=0),
         accepted=dict(rng={"zero", "none"})),
    Case(cs.linear_networks, dict(runs=LINEAR, N=20, lr=0.05, sigma=0.1, M=1), accepted=dict(sigma={"zero"})),
    # the ODEs (9) to long times (§2-3)
    Case(cs.long_ode_runs,
         dict(near=cm.specialised_state(1, 1, jitter=0.01, rng=0), starts=[cs.initial_weights(20, 2, 1, "erf", rng=0)],
              lr=0.5, sigma=0.1, long_alpha=10.0, extra_times=[5.0], train_second_layer=False, v_star=1.0),
         accepted=dict(sigma={"zero"}, train_second_layer={"bool", "false"})),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))


RNG_CASES = [case for case in CASES if "rng" in case.kwargs]


@pytest.mark.parametrize("case", RNG_CASES, ids=lambda c: c.name)
@pytest.mark.parametrize("bad", [-1, 1.5, "x"])
def test_a_bad_rng_is_refused_naming_rng(case, bad):
    with pytest.raises(ValueError, match=r"\brng\b"):
        case.func(**{**case.kwargs, "rng": bad})
