"""Fuzz: the progress bar of gendyn.progress refuses bad arguments clearly."""

import pytest

from fuzzing import Case, findings, fuzz
from gendyn import progress

CASES = [
    # a string and an array are iterables (of characters, of rows); any text labels the bar
    Case(progress.track, dict(iterable=[1, 2], desc="x", total=None),
         accepted=dict(iterable={"string", "unknown-name", "wrong-shape"}, desc={"string", "unknown-name", "none"},
                       total={"none", "zero"})),
]


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.setenv("GENDYN_PROGRESS", "0")


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} == set(progress.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
