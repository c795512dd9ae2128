"""Distribution-free statistics of sample medians, for claims on quantities with a far tail.

Some claimed quantities are well defined for most data sets and ill-conditioned for a few: a deep
TA student's optimal stopping time is the time of a sharp dip in its test error, but on a data set
where the dip is shallower than the arithmetic resolves, the curve is flat to 1e-7 until the noise
modes grow, and its argmin falls anywhere on that plateau, tens of tau later. The mean over data
sets and its Student-t interval then fail whenever one such data set is drawn; the median does not
move, and order statistics give its sampling range without assuming a shape.

Plain numpy/scipy, like :mod:`gendyn.book.stats`; nothing here knows the ledger. A separate module
so that chapters which do not use medians keep their run identities.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .. import _checks

__all__ = ["median_range"]


def median_range(reference: ArrayLike, n: int, level: float = 1e-2, comparisons: int = 1) -> tuple[float, float]:
    """Where the median of ``n`` independent draws from the distribution of ``reference`` falls.

    ``reference`` (1-D) is a sample of the distribution (e.g. the exact theory on many fresh data
    sets); its empirical distribution function ``F`` stands for it. The median of ``n`` draws lies
    above ``v`` only if at most ``floor(n/2)`` draws are ``<= v``, and below ``v`` only if at least
    ``ceil(n/2)`` draws are ``< v``: binomial tails of ``F(v)``. The result ``(lo, hi)`` are the
    innermost values of ``reference`` whose tails are each at most ``level / comparisons / 2``
    (Bonferroni over ``comparisons``), so the median falls in ``[lo, hi]`` with probability at least
    ``1 - level / comparisons`` under the empirical distribution of ``reference``, whatever its shape (for
    an even ``n`` the bound is conservative: the median is the mean of the two middle draws). The
    sampling error of ``reference`` itself is not counted: draw many more reference values than ``n``.

    Parameters
    ----------
    reference : array_like, shape (M,)
        Finite values, at least 2.
    n : int
        Draws whose median is taken, ``>= 1``.
    level : float
        Family-wise probability of falling outside, in ``(0, 0.5]``.
    comparisons : int
        Claims sharing ``level`` (Bonferroni), ``>= 1``.

    Returns
    -------
    (lo, hi) : tuple of float

    Raises
    ------
    ValueError
        If ``reference`` is too small to resolve that tail: only its extreme values leave at most
        ``level / comparisons / 2`` outside (draw more reference values).
    """
    ref = np.sort(_checks.real_array(reference, "reference", ndim=1))
    if ref.size < 2:
        raise ValueError(f"reference must hold at least 2 values (one per independent draw); got {ref.size}")
    n = _checks.integer(n, "n", 1)
    comparisons = _checks.integer(comparisons, "comparisons", 1)
    tail = _checks.bounded(level, "level", 0.0, 0.5, open_lower=True) / comparisons / 2  # each side
    at_or_below = np.searchsorted(ref, ref, side="right") / ref.size  # F(v) at each reference value
    below = np.searchsorted(ref, ref, side="left") / ref.size  # F(v-)
    above_ok = stats.binom.cdf(n // 2, n, at_or_below) <= tail  # P(median > v) small enough
    below_ok = stats.binom.sf(-(-n // 2) - 1, n, below) <= tail  # P(median < v) small enough
    above_ok &= at_or_below < 1  # the extremes (every tied copy) pass trivially, F = 1 or F(v-) = 0:
    below_ok &= below > 0  # a tail there is unresolved
    if not (above_ok.any() and below_ok.any()):
        raise ValueError(f"reference must hold enough values to resolve a tail of {tail:.2g} for the median of "
                         f"{n} draws; got {ref.size} (draw more reference values, or raise level)")
    return float(ref[below_ok][-1]), float(ref[above_ok][0])

