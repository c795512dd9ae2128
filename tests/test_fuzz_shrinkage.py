"""Fuzz: every public function of gendyn.shrinkage refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import shrinkage

_RNG = np.random.default_rng(0)
_TEACHER = 3.0 * np.outer(np.eye(4)[0], np.eye(6)[0])
_DATA = _TEACHER + _RNG.normal(size=(4, 6)) / np.sqrt(6)

CASES = [
    # ShrinkageResult is a record type (a NamedTuple), not a function.
    Case(shrinkage.optimal_shrinker, dict(shat=3.0, aspect=0.5),
         accepted={"shat": {"zero", "wrong-shape"}, "aspect": {"wrong-shape"}}),
    # a stack of matrices is a batch: "wrong-shape" (2, 3, 5, 7) is 6 matrices 5 x 7
    Case(shrinkage.shrinkage_estimator, dict(sigma31=_DATA, aspect=0.5, noise_std=1.0, full_output=False),
         accepted={"sigma31": {"wrong-shape"}, "aspect": {"none"}, "full_output": {"bool"}}),
    Case(shrinkage.estimation_excess, dict(sigma31=_DATA, teacher=_TEACHER, aspect=0.5, noise_std=1.0),
         accepted={"aspect": {"none"}}),
    # leading dimensions of teacher_svals are a batch of teachers; aspect broadcasts against it
    Case(shrinkage.nongradient_optimal_error, dict(teacher_svals=[2.0, 1.0], aspect=0.5),
         accepted={"teacher_svals": {"wrong-shape"}, "aspect": {"wrong-shape"}}),
]


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} | {"ShrinkageResult"} == set(shrinkage.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
