"""Claims that recur across chapters of the book: one statistic, its threshold and its reason, recorded at once.

A chapter that tests the same kind of statement as another (a trend significant by a rank test,
say) calls one function here rather than repeating the test's threshold and the wording of its
reason. Each takes the chapter's :class:`~gendyn.book.claims.Ledger`, computes its statistic with
:mod:`gendyn.book.stats` and records the claim.
"""

from __future__ import annotations

from collections.abc import Sequence

from .claims import Ledger
from .stats import rank_correlation, spearman_critical

__all__ = ["check_spearman"]


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
    ledger.check(claim_id, statement, measured=rank_correlation(x, y), predicted=spearman_critical(n),
                 tolerance=0.0, kind="lower",
                 reason=f"one-sided 1% critical value of Spearman's rho for n = {n} cells{note}.",
                 category=category, theory=theory)
