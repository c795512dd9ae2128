"""Time averages of a stationary record and their batch-means standard errors.

A long run that has settled (online SGD at its noisy fixed point: Goldt et al. 2019, §2-3) records
correlated values; the method of batch means splits the late records into consecutive batches, whose
means are nearly independent, and takes the standard error from their spread.

=====================  ==============================================================
:func:`late_average`   mean of the late records and its batch-means standard error
:class:`LateAverage`   that mean and standard error
:func:`late_batches`   the batch means themselves, for a sample of them (several runs)
=====================  ==============================================================

The functions take numpy arrays and import nothing heavier than numpy, so statistics helpers can use
them without loading torch.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from . import _checks

__all__ = ["LateAverage", "late_average", "late_batches"]


class LateAverage(NamedTuple):
    """A time average over the late records of a run (:func:`late_average`); unpacks as ``(mean, se)``."""

    mean: float  # mean of the records
    se: float  # its standard error from batch means


def _late_records(time, values, points, batches):
    """The last ``points`` records of the second half, checked, and the checked ``batches``."""
    time = _checks.real_array(time, "time", ndim=1)
    values = _checks.real_array(values, "values", ndim=1)
    if time.shape != values.shape:
        raise ValueError(f"time and values must have the same length; got {time.shape} and {values.shape}")
    points = _checks.integer(points, "points", 2)
    batches = _checks.integer(batches, "batches", 2)
    if points % batches:
        raise ValueError(f"points must be a multiple of batches = {batches}; got {points}")
    x = values[time >= time[-1] / 2][-points:]
    if x.size != points:
        raise ValueError(f"the second half of the run holds {x.size} records; {points} are needed")
    return x, batches


def late_batches(time: ArrayLike, values: ArrayLike, *, points: int = 100, batches: int = 10) -> np.ndarray:
    """Batch means of the last ``points`` records of ``values`` in the second half of ``time``.

    Parameters
    ----------
    time, values, points, batches
        As :func:`late_average`: ``points / batches`` consecutive records make a batch.

    Returns
    -------
    ndarray (batches,)
        The mean of each batch, in time order; their spread gives :func:`late_average` its standard error,
        and the batch means of several runs are a sample of nearly independent values.
    """
    x, batches = _late_records(time, values, points, batches)
    return x.reshape(batches, -1).mean(1)


def late_average(time: ArrayLike, values: ArrayLike, *, points: int = 100, batches: int = 10) -> LateAverage:
    """Mean of the last ``points`` records of ``values`` in the second half of ``time``, and its standard
    error from ``batches`` batch means (consecutive records are correlated).

    Goldt et al. (2019) §2: the asymptotic error ``eps_g*`` of eqs. (10)-(13) read from a run
    recorded at :func:`gendyn.committee_sgd.log_and_late_times` (``n_late = 101`` late times hold the
    default 100 points).

    Parameters
    ----------
    time : array_like (n,)
        Recorded times, non-decreasing.
    values : array_like (n,)
        The values at those times (finite).
    points : int
        Records averaged, a multiple of ``batches``; the second half must hold that many.
    batches : int
        Batch means the standard error is taken from (>= 2).

    Returns
    -------
    LateAverage
        ``(mean, se)``.

    Examples
    --------
    >>> import numpy as np
    >>> from gendyn.batch_means import late_average
    >>> t = np.arange(400.0)
    >>> late_average(t, np.ones(400)).mean
    1.0
    """
    x, batches = _late_records(time, values, points, batches)
    means = x.reshape(batches, -1).mean(1)
    return LateAverage(x.mean(), means.std(ddof=1) / np.sqrt(batches))
