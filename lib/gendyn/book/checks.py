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
from numpy.typing import ArrayLike

from .. import deep_linear as dl
from .claims import Ledger
from .stats import rank_correlation, spearman_critical

__all__ = ["check_spearman", "ta_mode_spread", "ta_band_gaps", "check_ta_band"]


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


def ta_mode_spread(t: np.ndarray, sigma31: ArrayLike, teacher: ArrayLike, lag: np.ndarray, *, eps: float,
                   n2: int | None = None, n_layers: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """``(train, test)``, each ``(B, T)``: how far each mode's error term moves when the mode is delayed or
    advanced by its ``lag``, summed over the modes without cancellation
    (:func:`gendyn.deep_linear.sampled_ta_errors`, ``per_mode``); the ``spread`` of :func:`ta_band_gaps`.

    Both directions: the first-order delay of a mode (:func:`gendyn.deep_linear.gd_lag`) grows while it
    accelerates and turns into an advance as it converges (gradient descent closes the last gap at the
    rate ``-ln(1 - lr |f'|) / lr``, faster than the flow), at most as large in its effect on the error.
    """
    student = dl.TaStudent(eps=eps, n2=n2, n_layers=n_layers)
    now = dl.sampled_ta_errors(t, sigma31, teacher, student, per_mode=True)
    late = dl.sampled_ta_errors(t, sigma31, teacher, student, delay=lag, per_mode=True)
    early = dl.sampled_ta_errors(t, sigma31, teacher, student, delay=-np.asarray(lag), per_mode=True)
    return tuple(np.maximum(np.abs(b - a), np.abs(c - a)).sum(-1) for a, b, c in zip(now, late, early))


def ta_band_gaps(simulated: np.ndarray, exact: np.ndarray, delayed: np.ndarray, *, rho: float,
                 slack: float, spread: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The gaps ``|log10 simulated - log10 exact|`` of TA students and the band each must lie in.

    Gradient descent follows each mode's flow shifted by at most its largest first-order delay
    (:func:`gendyn.deep_linear.gd_lag`; late while the mode accelerates, early as it converges), so at each
    data set and time the error lies within ``spread`` (:func:`ta_mode_spread`: the sum over modes of how
    much each term moves under such a shift) of the exact error, or, without ``spread``, within the change
    of the whole error under the delay (which cancels where modes move oppositely, at a minimum of the
    test error). The band is
    the larger of that change and ``-log10(1 - spread / exact)`` (the wider, downward side), times ``1 + rho`` for the delay's next
    order (``rho = lr max|f'|``, :func:`gendyn.deep_linear.gd_lag_accuracy`), plus ``slack`` for
    rounding. Pointwise, so a theory off by a constant factor shows wherever the curve is flat, not only
    against the delay at the steepest moment. Returns ``(gap, band)``, both shaped like ``exact``.
    """
    gap = np.abs(np.log10(simulated) - np.log10(exact))
    moved = np.abs(np.log10(delayed) - np.log10(exact))
    if spread is not None:  # within spread of exact, below as above: -log10(1 - r) >= log10(1 + r)
        moved = np.maximum(moved, -np.log10(1 - np.minimum(np.abs(spread) / exact, 1 - 1e-12)))
    return gap, (1 + rho) * moved + slack


def check_ta_band(ledger: Ledger, claim_id: str, statement: str, gaps: Sequence[tuple[np.ndarray, np.ndarray]], *,
                  t: np.ndarray, rho: float, lag: float, lr: float, slack_reason: str) -> None:
    """Record one ``ta-exact-*`` claim from :func:`ta_band_gaps` results: the largest gap in units of its band.

    ``measured``: the largest ratio gap / band over the data sets, times ``t`` (the last axis of each gap)
    and student ranks of ``gaps``; the claim's resolution is the narrowest band after ``t = 0``, as a
    relative error of the theory (at ``t = 0`` the band is the rounding slack alone, and an error in the
    dynamics cannot show there).
    """
    later = np.asarray(t) > 0
    if not later.any():
        raise ValueError("t must hold a time after 0 (the band claims check the dynamics)")
    ratio = max(float(np.max(g / b)) for g, b in gaps)
    narrowest = min(float(np.min(b[..., later])) for _, b in gaps)
    ledger.check(
        claim_id, f"{statement}: largest |log10 error gap| in units of its band (the delay's effect there)",
        measured=ratio, predicted=0.0, tolerance=1.0, kind="upper",
        theory="gendyn.deep_linear.sampled_ta_errors", reference=math.log10(math.e) / narrowest,
        reason=f"At each data set and time, the band is the change of log10 error that delaying each mode by up "
        f"to its first-order gradient-descent delay can cause (gd_lag, up to {lag:.2g} tau at lr = {lr:g}; the "
        f"modes' moves summed without cancellation), times "
        f"1 + lr max|f'| = {1 + rho:.2f} for the expansion's next order (gd_lag_accuracy), + {slack_reason}; "
        f"largest gap {max(float(np.max(g)) for g, _ in gaps):.3g} in log10, narrowest band {narrowest:.2g}.")
