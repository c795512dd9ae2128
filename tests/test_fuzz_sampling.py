"""Fuzz: every public function of gendyn.sampling refuses bad arguments clearly."""

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


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} == set(sampling.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
