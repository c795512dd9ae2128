"""Fuzz: every public function of gendyn.rmt refuses bad arguments clearly."""

import pytest

from fuzzing import Case, findings, fuzz
from gendyn import rmt

CASES = [
    Case(rmt.spike_singular_value, dict(sbar=2.0, aspect=0.5)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
