"""Fuzz: every public function of gendyn.stopping refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import stopping


def _dip(t):
    """A test-error curve with its minimum 0.5 at t = 1 (and 1 at t = 0)."""
    return 1.0 - 0.5 * np.exp(-np.log(np.maximum(t, 1e-300)) ** 2)


CASES = [
    # special_times outside (t_lo, t_max) are ignored: 0 and a batch of ones are valid
    Case(stopping.minimum_over_time,
         dict(error=_dip, t_lo=1e-2, t_max=1e2, points=41, special_times=[3.0], zero=False, xatol=1e-10),
         accepted={"special_times": {"zero"}}),
]


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} == set(stopping.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
