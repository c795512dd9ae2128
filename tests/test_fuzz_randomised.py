"""Fuzz: every public function of gendyn.randomised refuses bad arguments clearly."""

import pytest

from fuzzing import Case, findings, fuzz
from gendyn import randomised

CASES = [
    Case(randomised.randomised_scale, dict(teacher_svals=[2.0, 1.0], n3=4, noise_std=1.0),
         accepted={"teacher_svals": {"zero", "wrong-shape"}}),
    # a density may be evaluated anywhere (0 off the support); scale broadcasts elementwise
    Case(randomised.stretched_mp_density, dict(s=1.0, aspect=0.5, scale=1.2),
         accepted={"s": {"negative", "zero", "+inf", "-inf", "wrong-shape"}, "aspect": {"wrong-shape"},
                   "scale": {"wrong-shape"}}),
    # a zero teacher randomises pure noise: sigma_r = noise_std
    Case(randomised.randomised_train_error,
         dict(t=[0.5, 2.0], teacher_svals=[2.0], n1=8, n2=4, n3=4, eps=1e-3, tau=1.0, n_layers=3,
              noise_std=1.0),
         accepted={"t": {"zero", "wrong-shape"}, "teacher_svals": {"zero"}}),
]


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} == set(randomised.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
