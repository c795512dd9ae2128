"""gendyn.batch_means: late time averages and their batch means."""

import math

import numpy as np
import pytest

from gendyn import batch_means as bm
from gendyn import committee_sgd as cs


def test_late_batches_are_the_means_of_consecutive_late_records():
    t = np.arange(300.0)
    y = np.where(t >= 150, 1.0 + 0.01 * np.sin(t), 5.0)
    np.testing.assert_array_equal(bm.late_batches(t, y), y[-100:].reshape(10, 10).mean(1))
    np.testing.assert_array_equal(bm.late_batches(t, y, points=40, batches=4), y[-40:].reshape(4, 10).mean(1))


def test_late_average_is_the_mean_of_the_late_records_and_the_spread_of_its_batches():
    t = np.arange(300.0)
    y = 1.0 + 0.01 * np.cos(0.3 * t)
    out = bm.late_average(t, y)
    assert out.mean == y[-100:].mean()
    assert out.se == pytest.approx(bm.late_batches(t, y).std(ddof=1) / math.sqrt(10), rel=1e-15)


def test_committee_sgd_keeps_the_names():
    assert cs.late_average is bm.late_average and cs.LateAverage is bm.LateAverage


@pytest.mark.parametrize("kwargs, match", [
    (dict(time=np.arange(100.0), values=np.ones(100)), "records"),
    (dict(time=np.arange(300.0), values=np.ones(300), points=95), "multiple of batches"),
    (dict(time=np.arange(300.0), values=np.ones(299)), "same length"),
    (dict(time=np.arange(300.0), values=np.ones(300), batches=1), "batches"),
])
def test_bad_records_are_refused(kwargs, match):
    for func in (bm.late_batches, bm.late_average):
        with pytest.raises(ValueError, match=match):
            func(**kwargs)
