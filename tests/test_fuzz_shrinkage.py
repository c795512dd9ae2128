"""Fuzz: every public function of gendyn.shrinkage refuses bad arguments clearly."""

import inspect

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import shrinkage, train

_RNG = np.random.default_rng(0)
_TEACHER = 3.0 * np.outer(np.eye(4)[0], np.eye(6)[0])
_DATA = _TEACHER + _RNG.normal(size=(4, 6)) / np.sqrt(6)
_SPEC = train.FullBatchSpec(n1=6, n2=2, n3=3, lr=0.05, horizon=1.0, n_records=5)

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
    Case(shrinkage.optimal_errors, dict(teacher_svals=[[2.0, 1.0]], n1=8, n2=4, n3=4, eps=1e-3)),
    # rng: a seed >= 0 or None (fresh entropy); desc: any label of a progress bar
    Case(shrinkage.compare_algorithms, dict(teacher_svals=[[2.0]], runs=2, spec=_SPEC, rng=0, device="cpu", desc=None),
         accepted={"rng": {"zero", "none"}, "desc": {"string", "unknown-name", "none"}}),
    Case(shrinkage.sampled_shrinkage, dict(teacher_svals=[3.0], n1=8, n3=4, runs=2, rng=0),
         accepted={"rng": {"zero", "none"}}),
]


def test_every_public_function_is_fuzzed():
    functions = {n for n in shrinkage.__all__ if inspect.isfunction(getattr(shrinkage, n))}
    assert {c.func.__name__ for c in CASES} == functions


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
