"""Fuzz: every public function of gendyn.sampling refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import sampling

_TEACHER = dict(teacher_svals=[2.0], n1=8, n_examples=4)

CASES = [
    Case(sampling.density, dict(n1=8, n_examples=4)),
    Case(sampling.test_error, dict(t=[0.5, 2.0], **_TEACHER, eps=1e-3, tau=1.0, n_layers=3, as_printed=False),
         accepted={"t": {"zero", "wrong-shape"}, "as_printed": {"bool"}}),
    Case(sampling.optimal_test_error, dict(**_TEACHER, eps=1e-3, tau=1.0, n_layers=3)),
    # eps = 0 is the default: a student started at zero keeps nothing in the unseen directions
    Case(sampling.asymptotic_test_error, dict(**_TEACHER, eps=1e-3), accepted={"eps": {"zero"}}),
]

# the grid of Fig. 13 and the fit of the speed-up: N1 = 8, P = 4, 8, 16, one SNR, two runs
_GRID = sampling.theory_grid(8, [4, 8, 16], [3.0], 1e-3)
_TIME = np.concatenate([[0.0], np.geomspace(0.01, 10.0, 60)])
CASES += [
    Case(sampling.theory_grid, dict(n1=8, n_train=[4, 8, 16], svms=[2.0, 3.0], eps=1e-3)),
    # rng: an int (0 included) or None (fresh entropy)
    Case(sampling.speedup_exponent, dict(time=_TIME, curves=np.full((3, 1, 2, _TIME.size), 0.5), grid=_GRID, lr=0.02,
                                         rng=0, n_boot=5),
         accepted={"rng": {"zero", "none"}}),
]


def test_every_public_function_is_fuzzed():
    others = {"TheoryGrid", "SpeedupFit"}  # result types
    assert {c.func.__name__ for c in CASES} | others == set(sampling.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
