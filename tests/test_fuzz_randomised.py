"""Fuzz: every public function of gendyn.randomised refuses bad arguments clearly."""

import inspect

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import deep_linear, randomised, train

SPEC = train.FullBatchSpec(n1=6, n2=2, n3=3, lr=0.05, horizon=1.0, n_records=5)

CASES = [
    Case(randomised.randomised_scale, dict(teacher_svals=[2.0, 1.0], n3=4, noise_std=1.0),
         accepted={"teacher_svals": {"zero", "wrong-shape"}}),
    # a density may be evaluated anywhere (0 off the support); scale broadcasts elementwise
    Case(randomised.stretched_mp_density, dict(s=1.0, aspect=0.5, scale=1.2),
         accepted={"s": {"negative", "zero", "+inf", "-inf", "wrong-shape"}, "aspect": {"wrong-shape"},
                   "scale": {"wrong-shape"}}),
    # a zero teacher randomises pure noise: sigma_r = noise_std
    Case(randomised.randomised_train_error,
         dict(t=[0.5, 2.0], teacher_svals=[2.0], student=deep_linear.TaStudent(n1=8, n2=4, n3=4, eps=1e-3),
              noise_std=1.0),
         accepted={"t": {"zero", "wrong-shape"}, "teacher_svals": {"zero"}}),
    Case(randomised.learning_curves, dict(t=[0.5, 2.0], teacher_svals=[2.0], n1=8, n2=4, n3=4, eps=1e-3),
         accepted={"t": {"zero", "wrong-shape"}, "teacher_svals": {"zero"}}),
    # lr=None is gradient flow (no lag)
    Case(randomised.learning_times,
         dict(t=np.geomspace(1e-2, 1e3, 200), teacher_svals=[4.0], n1=20, n2=10, n3=10, eps=1e-3, lr=0.01,
              level=0.9),
         accepted={"lr": {"none"}}),
    # rng: a seed >= 0 or None (fresh entropy); desc: any label of a progress bar
    Case(randomised.train_randomised,
         dict(teacher_svals=[[2.0]], runs=2, spec=SPEC, inits=("aligned",), rng=0, device="cpu", desc=None),
         accepted={"rng": {"zero", "none"}, "desc": {"string", "unknown-name", "none"}}),
]


def test_every_public_function_is_fuzzed():
    functions = {n for n in randomised.__all__ if inspect.isfunction(getattr(randomised, n))}
    assert {c.func.__name__ for c in CASES} == functions


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
