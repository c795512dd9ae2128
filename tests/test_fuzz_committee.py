"""Fuzz: every public function of gendyn.committee refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import committee as cm

C2 = np.array([[1.0, 0.5], [0.5, 2.0]])
C3 = np.array([[1.0, 0.3, 0.2], [0.3, 1.5, 0.4], [0.2, 0.4, 0.8]])
C4 = np.eye(4) + 0.2
# K = 2 student units, M = 1 teacher unit
Q = np.array([[0.5, 0.1], [0.1, 0.4]])
R = np.array([[0.2], [0.1]])
T = np.array([[1.0]])
STATE = dict(Q=Q, R=R, T=T, v=1.0, v_star=1.0)
SIGNS = {"negative", "zero"}  # second-layer weights may have any sign, or vanish
RATES = dict(lr=0.5, sigma=0.1, lr2=0.3, train_second_layer=True, weight_decay=0.01)
RATES_OK = dict(v=SIGNS, v_star=SIGNS, lr={"zero"}, sigma={"zero"}, lr2={"none", "zero"},
                weight_decay={"zero"}, train_second_layer={"bool"})

CASES = [
    Case(cm.I2, dict(C=C2, activation="erf")),
    # elementwise; a zero scale (a field of zero variance) and any correlation in [-1, 1] are valid
    Case(cm.arc_cosine_kernel, dict(scale=2.0, cos=0.5),
         accepted=dict(scale={"zero", "wrong-shape"}, cos={"zero", "negative", "wrong-shape"})),
    Case(cm.J2, dict(C=C2, activation="relu")),
    Case(cm.I3, dict(C=C3, activation="relu")),
    Case(cm.I4, dict(C=C4, activation="erf")),
    Case(cm.generalisation_error, dict(STATE, activation="erf"), accepted=dict(v=SIGNS, v_star=SIGNS)),
    # the specs of a run of the ODEs: its state, its SGD, the solver
    Case(cm.OrderParameters, STATE, accepted=dict(v=SIGNS, v_star=SIGNS)),
    Case(cm.OnlineSGD, RATES, accepted=RATES_OK),
    Case(cm.ODESolver, dict(method="LSODA", rtol=1e-6, atol=1e-9)),
    Case(cm.order_parameter_derivatives,
         dict(state=cm.OrderParameters(**STATE), activation="erf", sgd=cm.OnlineSGD(**RATES))),
    Case(cm.integrate_odes,
         dict(state=cm.OrderParameters(**STATE), activation="linear", sgd=cm.OnlineSGD(**RATES),
              times=[0.0, 0.5, 1.0], solver=cm.ODESolver("LSODA", 1e-6, 1e-9)),
         accepted=dict(solver={"none"})),
    Case(cm.asymptotic_error,
         dict(activation="erf", M=1, K=2, sgd=cm.OnlineSGD(0.5, 0.1), v_star=1.0, small_lr=False),
         accepted=dict(v_star={"negative"}, small_lr={"bool"})),
    Case(cm.linear_stationary_error, dict(effective_lr=0.1, sigma=0.1, small_lr=False),
         accepted=dict(effective_lr={"wrong-shape"}, sigma={"zero"}, small_lr={"bool"})),  # elementwise
    Case(cm.linear_effective_rate, dict(lr=0.1, v=np.array([0.5, -0.5]), Q=Q, N=100)),
    Case(cm.specialised_state, dict(M=2, L=2, pair_q=0.5, jitter=0.01, rng=0),
         accepted=dict(L={"zero"}, pair_q={"zero"}, jitter={"zero"}, rng={"zero", "none"})),
    Case(cm.denoising_state, dict(M=1, K=2, v_star=2.0, split=0.5, jitter=0.01, v_jitter=0.01, rng=0),
         accepted=dict(v_star={"negative"}, split={"negative", "zero"}, jitter={"zero"}, v_jitter={"zero"},
                       rng={"zero", "none"})),
    # the slow manifold of §2: the ODEs of a soft committee machine, a relaxed point on the manifold
    Case(cm.committee_odes, dict(state=(Q, R, T), activation="erf", lr=0.5, sigma=0.1, times=[0.0, 0.5, 1.0]),
         accepted=dict(lr={"zero"}, sigma={"zero"})),
    Case(cm.manifold_point, dict(M=1, L=2, pair_q=0.5, lr=0.5, sigma=0.1, window=0.05, relax=5.0, read=10.0)),
    # the copies of teacher units and the split of v* among them (§3)
    Case(cm.copies_per_teacher, dict(R=np.array([[0.9, 0.1], [-0.8, 0.0], [0.2, 0.3]]))),
    Case(cm.copy_sums, dict(R=np.array([[0.9, 0.0], [-0.9, 0.1], [0.0, 1.0]]), v=np.array([1.0, -1.0, 2.0]))),
    Case(cm.split_relaxation,
         dict(state=cm.denoising_state(1, 2, 2.0, split=0.5, jitter=0.01), v_star=2.0, lr=0.5, sigma=0.1,
              times=[1.0, 2.0]),
         accepted=dict(sigma={"zero"}, v_star={"negative"})),
    Case(cm.denoising_fixed_point,
         dict(state=cm.denoising_state(1, 2, 2.0, jitter=0.05, v_jitter=0.05), v_star=2.0, lr=0.2, sigma=0.1,
              alpha=10.0),
         accepted=dict(sigma={"zero"}, v_star={"negative"})),
    Case(cm.random_start_odes,
         dict(starts=[cm.denoising_state(1, 1, 2.0, jitter=0.05, v_jitter=0.05)], v_star=2.0, lr=0.2, sigma=0.1,
              times=[0.0, 10.0], rel_tol=0.05),
         accepted=dict(v_star={"negative"})),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))


@pytest.mark.parametrize("case", [case for case in CASES if "rng" in case.kwargs], ids=lambda c: c.name)
@pytest.mark.parametrize("bad", [-1, 1.5, "x"])
def test_a_bad_rng_is_refused_naming_rng(case, bad):
    with pytest.raises(ValueError, match=r"\brng\b"):
        case.func(**{**case.kwargs, "rng": bad})
