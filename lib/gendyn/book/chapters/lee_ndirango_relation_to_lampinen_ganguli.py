"""Figures and claims of the chapter ``notebooks/lee-ndirango/relation-to-lampinen-ganguli.md``.

Lee & Ndirango's multitask benefit (§4.4) beside Lampinen & Ganguli's transfer benefit (§4):
the same students, teachers and data trained with the cross-entropy on argmax labels
(classification) and with the squared error on the teacher's logits (regression). The chapter
keys its two grids (:class:`gendyn.multitask_train.GridResult`) by :data:`CLASSIFICATION` and
:data:`REGRESSION`; benefits are taken relative to the single-task loss. The Spearman claim and the reason of a t
bound are the book's (:mod:`gendyn.book.checks`, :mod:`gendyn.book.stats`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from gendyn.book import plotting
from gendyn.book.checks import check_spearman
from gendyn.book.claims import Ledger
from gendyn.book.scales import RunConfig
from gendyn.book.stats import rank_correlation, t_bound, t_bound_reason, t_margin
from gendyn.multitask_train import RELATEDNESS_GRID, GridResult

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "CLASSIFICATION", "REGRESSION", "figure_benefit_vs_r", "check_relative_benefit",
           "print_regression_orthogonal", "check_orthogonal_hurts"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019): the benefit here vs the transfer benefit of Lampinen & Ganguli §4.
    """

    seeds: int  #: seeds of every cell (gendyn.seeding.run_seeds of SEED)
    n_train: int  #: training examples per task
    steps: int  #: gradient steps of the cross-entropy students (learning rate 1)
    mse_lr: float  #: learning rate of the squared-error students
    mse_steps: int  #: gradient steps of the squared-error students


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(seeds=5, n_train=100, steps=300, mse_lr=0.02, mse_steps=5000),
    "smoke": Sizes(seeds=5, n_train=100, steps=150, mse_lr=0.02, mse_steps=2500),
}

def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["ce-rises-with-r", "ce-related-helps", "mse-related-helps", "ce-orthogonal-hurts"]


#: No theory function computes the chapter's claims: they compare two trained students qualitatively, as
#: findings (measured effects with their significance).
MUTATIONS = ()


def _power(values, side):
    """The smallest mean a one-sided 99 % t bound over ``values`` (one per seed) detects at 50 % power."""
    return abs(float(np.mean(values)) - t_bound(values, side))


#: Label (and key) of the classification students' grid.
CLASSIFICATION = "classification (cross-entropy)"
#: Label (and key) of the regression students' grid.
REGRESSION = "regression (squared error)"


def figure_benefit_vs_r(grids: dict[str, GridResult], rel: dict[str, np.ndarray], *, s_a: float,
                        s_b: Sequence[float], n_train: int) -> Figure:
    """Relative benefit against relatedness, both losses, one panel per auxiliary SNR.

    Parameters
    ----------
    grids : dict
        The grids by label (:data:`CLASSIFICATION`, :data:`REGRESSION`).
    rel : dict
        Each grid's benefit over its single-task loss, one value per cell.
    s_a, s_b, n_train
        The main-task SNR, the auxiliary SNRs (one panel each) and the training-set size (titles).
    """
    fig, axes = plotting.subplots(1, len(s_b), height=3.3, sharey=True)
    for k, (label, g) in enumerate(grids.items()):
        for ax, sb in zip(axes, s_b):
            per = np.array([g.per_seed(g.where(s_b=sb, relatedness=r), rel[label]) for r in RELATEDNESS_GRID])
            m, se = per.mean(1), per.std(1, ddof=1) / math.sqrt(per.shape[1])  # in the grid's precision
            ax.errorbar(RELATEDNESS_GRID, m, yerr=se, fmt="o-", ms=3, capsize=2, color=plotting.COLORS[k],
                        label=label)
            ax.set(xlabel="relatedness r", title=f"$\\bar s_A$ = {s_a:.2g}, $\\bar s_B$ = {sb:.2g}, P = {n_train}")
    for ax in axes:
        ax.axhline(0, color="k", lw=0.8)
    axes[0].set_ylabel("benefit / single-task loss")
    axes[0].legend(fontsize=7)
    return fig


def check_relative_benefit(ledger: Ledger, grids: dict[str, GridResult], rel: dict[str, np.ndarray], *,
                           s_b: Sequence[float], seeds: int) -> None:
    """Claims: the classifier's relative benefit rises with relatedness (Spearman over the (s_B, r)
    cells; for the regression student the correlation is printed), and a clean fully related task
    helps both students (99% lower t bound over ``seeds`` seeds)."""
    for label, g in grids.items():
        tag = "ce" if label == CLASSIFICATION else "mse"
        cells = [(sb, r) for sb in s_b for r in RELATEDNESS_GRID]
        means = [g.per_seed(g.where(s_b=sb, relatedness=r), rel[label]).mean() for sb, r in cells]
        if tag == "ce":
            check_spearman(ledger, f"{tag}-rises-with-r",
                           f"{label}: relative benefit rises with relatedness (Spearman over (sbar_B, r) cells)",
                           [c[1] for c in cells], means, category="finding",
                           note="; a finding: the weakest trend it detects at 50 % power is a rank correlation of "
                           "this value")
        else:
            print(f"{label}: Spearman correlation of the relative benefit with r: "
                  f"{rank_correlation([c[1] for c in cells], means):.2f}")
        helps = g.per_seed(g.where(s_b=s_b[-1], relatedness=1.0), rel[label])
        ledger.check(f"{tag}-related-helps",
                     f"{label}: a clean related task (r = 1) helps (mean relative benefit above 0 by the 99% "
                     "one-sided t margin)",
                     measured=float(np.mean(helps)), predicted=0.0, tolerance=t_margin(helps),
                     kind="above", reason=t_bound_reason(seeds, f"; a finding: it detects a relative benefit of "
                                                         f"{_power(helps, 'lower'):.3g} at 50 % power"),
                     category="finding")


def print_regression_orthogonal(grids: dict[str, GridResult], rel: dict[str, np.ndarray], *,
                                s_b: Sequence[float]) -> None:
    """Print the regression student's relative benefit at r = 0 (every cell and seed) and the step of its
    single-task optimum per seed (the clean auxiliary task's cells)."""
    g_mse = grids[REGRESSION]
    orth = g_mse.where(relatedness=0.0)
    print("regression, r = 0: relative benefit per cell and seed:", np.round(rel[REGRESSION][orth], 4).tolist())
    print("regression: step of the single-task optimum per seed:",
          g_mse.st_best_step[g_mse.where(relatedness=0.0, s_b=s_b[-1])].tolist(), f"(of {g_mse.steps})")


def check_orthogonal_hurts(ledger: Ledger, grids: dict[str, GridResult], rel: dict[str, np.ndarray], *,
                           s_b: Sequence[float], seeds: int) -> None:
    """Claim: a clean orthogonal task (r = 0, the largest ``s_b``) hurts the classifier (99% upper t bound)."""
    g_ce = grids[CLASSIFICATION]
    hurt = g_ce.per_seed(g_ce.where(s_b=s_b[-1], relatedness=0.0), rel[CLASSIFICATION])
    ledger.check("ce-orthogonal-hurts",
                 "Classification: an orthogonal clean task hurts (mean relative benefit below 0 by the 99% one-sided "
                 "t margin)",
                 measured=float(np.mean(hurt)), predicted=0.0, tolerance=t_margin(hurt),
                 kind="below", reason=t_bound_reason(seeds, f"; a finding: it detects a relative harm of "
                                                     f"{_power(hurt, 'upper'):.3g} at 50 % power"), category="finding")
