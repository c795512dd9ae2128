"""Fuzz: every public function of gendyn.batch_means refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import batch_means as bm

CASES = [
    Case(bm.late_batches, dict(time=np.arange(40.0), values=np.sin(np.arange(40.0)), points=20, batches=4)),
    Case(bm.late_average, dict(time=np.arange(40.0), values=np.sin(np.arange(40.0)), points=20, batches=4)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
