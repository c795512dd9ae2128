"""Fuzz: every public function of gendyn.deep_linear refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import deep_linear as dl

_RNG = np.random.default_rng(0)
_TEACHER = np.zeros((2, 4, 6))
_TEACHER[:, 0, 0] = 3.0
_DATA = _TEACHER + _RNG.normal(size=(2, 4, 6)) / np.sqrt(6)
_STUDENT = dl.TaStudent(n1=8, n2=4, n3=4, eps=1e-3, tau=1.0, n_layers=3)
_ARCH = dict(teacher_svals=[3.0], student=_STUDENT)
#: times, strengths and data values are elementwise: arrays of any shape broadcast
ANY_SHAPE = {"wrong-shape"}

CASES = [
    # t = inf is the limit s = shat; t = 0 gives eps; shat = 0 is a mode that decays
    Case(dl.mode_strength, dict(t=1.0, s_hat=2.0, eps=1e-3, tau=1.0, n_layers=3),
         accepted={"t": {"zero", "+inf"} | ANY_SHAPE, "s_hat": {"zero"} | ANY_SHAPE}),
    Case(dl.mode_time, dict(s=0.5, s_hat=2.0, eps=1e-3, tau=1.0, n_layers=3),
         accepted={"s": ANY_SHAPE, "s_hat": ANY_SHAPE}),
    Case(dl.theory_errors, dict(t=[0.5, 2.0], **_ARCH, r_in="corrected"), accepted={"t": {"zero"} | ANY_SHAPE}),
    Case(dl.optimal_early_stopping, dict(**_ARCH, t_max=50.0, r_in="corrected"), accepted={"t_max": {"none"}}),
    # s = None is the maximum delay; a strength the mode does not pass has no delay (0)
    Case(dl.gd_lag, dict(s_hat=2.0, eps=1e-3, lr=0.01, n_layers=3, s=0.5),
         accepted={"s_hat": {"zero"} | ANY_SHAPE, "s": {"none", "zero"} | ANY_SHAPE}),
    Case(dl.gd_lag_accuracy, dict(s_hat=np.array([0.5, 2.0]), lr=0.01, n_layers=5),
         accepted={"s_hat": {"zero"} | ANY_SHAPE}),
    # a negative delay is an advance; delay broadcasts against (B, min(N1, N3))
    Case(dl.sampled_ta_errors,
         dict(t=[0.0, 0.5, 1.0], sigma31=_DATA, teacher=_TEACHER, student=dl.TaStudent(eps=1e-3, n2=2),
              delay=np.full((2, 4), 0.01)),
         accepted={"delay": {"none", "zero", "negative"}}),
    # the spec of the TA student: a size None is one the function takes from the data (or full rank)
    Case(dl.TaStudent, dict(eps=1e-3, n1=8, n2=4, n3=4, tau=1.0, n_layers=3),
         accepted={"n1": {"none"}, "n2": {"none"}, "n3": {"none"}}),
    Case(dl.delayed_ta_errors,
         dict(t=[0.0, 0.5, 1.0], sigma31=_DATA, teacher=_TEACHER, eps=1e-3, lr=0.01, n2=2, n_layers=3),
         accepted={"n2": {"none"}}),
    Case(dl.linear_test_error, dict(w=_DATA, teacher=_TEACHER)),
    # NoiseAverages is a record type (a NamedTuple) and R_IN a constant: not functions.
    Case(dl.noise_mode_averages,
         dict(t=[0.5, 2.0], aspect=0.5, eps=1e-3, tau=1.0, n_layers=3, fraction=0.5, scale=1.0),
         accepted={"t": {"zero"} | ANY_SHAPE}),
    # lr None: gradient flow (no delay)
    Case(dl.half_learning_time, dict(s_hat=np.array([0.5, 2.0]), eps=1e-3, n_layers=3, lr=0.01),
         accepted={"s_hat": ANY_SHAPE, "lr": {"none"}}),
    Case(dl.gd_band, dict(t=[0.0, 1.0, 5.0], s_hat=[0.5, 2.0], eps=1e-3, lr=0.01, n_layers=4),
         accepted={"t": {"zero"}}),
    # a teacher with no detectable mode (zeros) is learned never: inf, by design
    Case(dl.teacher_learned_time, dict(teacher_svals=[4.0, 2.0], aspect=0.5, eps=1e-5, n_layers=5),
         accepted={"teacher_svals": {"zero", "wrong-shape"}}, infinite={"teacher_svals": {"zero"}}),
]


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} | {"NoiseAverages", "R_IN", "GdBand"} == set(dl.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
