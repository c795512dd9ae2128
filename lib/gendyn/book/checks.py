"""Claims that recur across chapters of the book: one statistic, its threshold and its reason, recorded at once.

A chapter that tests the same kind of statement as another (a trend significant by a rank test,
say) calls one function here rather than repeating the test's threshold and the wording of its
reason. Each takes the chapter's :class:`~gendyn.book.claims.Ledger`, computes its statistic with
:mod:`gendyn.book.stats` and records the claim.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .claims import Ledger
from .stats import rank_correlation, spearman_critical

__all__ = ["check_spearman", "ta_band_gaps", "check_ta_band"]


def check_spearman(ledger: Ledger, claim_id: str, statement: str, x: Sequence[float], y: Sequence[float], *,
                   note: str = " (t approximation)", category: str = "agreement",
                   theory: str | Sequence[str] = ()) -> None:
    """Claim that ``y`` rises with ``x``: Spearman's rho above its one-sided 1% critical value.

    Parameters
    ----------
    ledger : Ledger
        The chapter's ledger.
    claim_id, statement : str
        The claim's id and statement.
    x, y : sequence of float
        One value each per cell (e.g. the relatedness and the mean benefit of a cell), at least 3.
    note : str
        Text after the number of cells in the claim's reason.
    category, theory
        As in :meth:`Ledger.check` (a trend measured without a theory function is a ``"finding"``).
    """
    n = len(x)
    ledger.check(claim_id, statement, measured=rank_correlation(x, y), predicted=0.0,
                 tolerance=spearman_critical(n), kind="above",
                 reason=f"one-sided 1% critical value of Spearman's rho for n = {n} cells{note}.",
                 category=category, theory=theory)


def ta_band_gaps(simulated: np.ndarray, exact: np.ndarray, delayed: np.ndarray, *, rho: float,
                 slack: float) -> tuple[np.ndarray, np.ndarray]:
    """The gaps ``|log10 simulated - log10 exact|`` of TA students and the band each must lie in.

    The band at each data set and time is what delaying every mode by its gradient-descent delay changes
    there (``|log10 delayed - log10 exact|``), times ``1 + rho`` for the delay's next order
    (``rho = lr max|f'|``, :func:`gendyn.deep_linear.gd_lag_accuracy`), plus ``slack`` for rounding.
    Pointwise, so a theory off by a constant factor shows wherever the curve is flat, not only against
    the delay at the steepest moment. Returns ``(gap, band)``, both shaped like ``exact``.
    """
    gap = np.abs(np.log10(simulated) - np.log10(exact))
    return gap, (1 + rho) * np.abs(np.log10(delayed) - np.log10(exact)) + slack


def check_ta_band(ledger: Ledger, claim_id: str, statement: str, gaps: Sequence[tuple[np.ndarray, np.ndarray]], *,
                  rho: float, lag: float, lr: float, slack_reason: str) -> None:
    """Record one ``ta-exact-*`` claim from :func:`ta_band_gaps` results: the largest gap in units of its band.

    ``measured``: the largest ratio gap / band over the data sets, times (and student ranks) of ``gaps``;
    the claim's resolution is the narrowest band, as a relative error of the theory.
    """
    ratio = max(float(np.max(g / b)) for g, b in gaps)
    narrowest = min(float(np.min(b)) for _, b in gaps)
    ledger.check(
        claim_id, f"{statement}: largest |log10 error gap| in units of its band (the delay's effect there)",
        measured=ratio, predicted=0.0, tolerance=1.0, kind="upper",
        theory="gendyn.deep_linear.sampled_ta_errors", reference=math.log10(math.e) / narrowest,
        reason=f"At each data set and time, the band is the change of log10 error that delaying every mode by "
        f"its first-order gradient-descent delay causes (gd_lag, up to {lag:.2g} tau at lr = {lr:g}), times "
        f"1 + lr max|f'| = {1 + rho:.2f} for the expansion's next order (gd_lag_accuracy), + {slack_reason}; "
        f"largest gap {max(float(np.max(g)) for g, _ in gaps):.3g} in log10, narrowest band {narrowest:.2g}.")
