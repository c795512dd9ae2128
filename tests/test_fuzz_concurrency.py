"""Fuzz: every public function of gendyn.concurrency refuses bad arguments clearly."""

import pytest

from fuzzing import Case, findings, fuzz
from gendyn import concurrency

CASES = [
    Case(concurrency.concurrently, dict(fn=abs, items=[1.0, -2.0], threads=2), accepted=dict(threads={"none"}),
         skip={"items"}),  # the calls' own arguments: fn checks them
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
