"""Figures and claims of the chapter ``notebooks/lee-ndirango/multitask-benefit.md``.

Lee & Ndirango, §4.5, Figs. 2, A1 and A2. The notebook runs the rank-10 and rank-3 grids
(:func:`gendyn.multitask_train.run_grid`, cached by :func:`gendyn.book.grids.cached_grid`) and
selects the cells of each statement; this module keeps what is the chapter's own: Fig. 2, the
scatter of the convexity bounds (22)-(25), and the statements of Table 1 and of (34), (36) as claims
(the one-sided Spearman claim is :func:`gendyn.book.checks.check_spearman`, the reason of a one-sided
t bound over seeds :func:`gendyn.book.stats.t_bound_reason`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from gendyn.book import plotting
from gendyn.book.checks import check_spearman
from gendyn.book.claims import Ledger
from gendyn.book.figures import plot_cell_means
from gendyn.book.scales import RunConfig
from gendyn.book.stats import t_bound, t_bound_reason, t_margin
from gendyn.multitask_train import GridResult

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "figure_2", "figure_bounds", "check_table1",
           "check_monotonicity"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019) §4.5, Figs. 2, A1, A2: benefit vs relatedness and SNRs (linear students).
    """

    seeds: int  #: seeds of every grid cell (gendyn.seeding.run_seeds of SEED)
    n_train: tuple[int, ...]  #: training examples per task of the rank-10 grid
    rank3_n_train: tuple[int, ...]  #: training examples per task of the rank-3 grid
    snr_points: int  #: SNRs kept of the grid's, evenly in log scale with both ends
    relatedness_every: int  #: every k-th relatedness of the grid is kept
    lr: float  #: learning rate
    steps: int  #: gradient steps
    eval_every: int  #: steps between validation evaluations
    n_val: int  #: validation examples per task


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(seeds=5, n_train=(100, 200, 400, 800, 1600, 3200), rank3_n_train=(100, 400),
                   snr_points=6, relatedness_every=1, lr=1.0, steps=300, eval_every=3, n_val=1000),
    "smoke": Sizes(seeds=5, n_train=(100, 400, 1600), rank3_n_train=(100,),
                   snr_points=3, relatedness_every=2, lr=1.0, steps=100, eval_every=2, n_val=300),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["table1-related-clean-helps", "table1-unrelated-clean-hurts", "table1-unrelated-noisy-ignored",
            "table1-needs-base-performance", "table1-abundant-data-no-benefit", "eq34-benefit-rises-with-snr-b",
            "eq36-benefit-rises-with-r"]


#: No theory function computes the chapter's predictions: Table 1 and (34), (36) are qualitative statements
#: of the paper, tested as findings (measured effects with their significance). The bounds (22)-(25) hold
#: exactly and are unit tests (tests/test_lee_ndirango_setup.py).
MUTATIONS = ()


def _power(values, side):
    """The smallest mean a one-sided 99 % t bound over ``values`` (one per seed) detects at 50 % power."""
    return abs(float(np.mean(values)) - t_bound(values, side))


def figure_2(g10: GridResult) -> Figure:
    """Fig. 2: mean benefit against the auxiliary SNR, one line per relatedness.

    Rows: a noisier (first SNR above 0.5) and the cleanest main task; columns: the smallest,
    a middle and the largest training-set size of the rank-10 grid ``g10``.
    """
    snrs, rels, sizes = g10.axes["s_a"], g10.axes["relatedness"], g10.axes["n_train"]
    means = g10.cell_means()
    show_sizes = sorted({sizes[0], sizes[len(sizes) // 2], sizes[-1]})
    show_sa = [s for s in snrs if s > 0.5][:1] + [snrs[-1]]
    fig, axes = plotting.subplots(len(show_sa), len(show_sizes), height=2.7 * len(show_sa), sharex=True,
                                  squeeze=False)
    for i, sa in enumerate(show_sa):
        for j, p in enumerate(show_sizes):
            ax = axes[i, j]
            for k, r in enumerate(rels):
                plot_cell_means(ax, snrs, means, [(p, p, sa, sb, r) for sb in snrs], color=plotting.COLORS[k],
                                label=f"r = {r:g}")
            ax.axhline(0, color="k", lw=0.8)
            ax.set(xscale="log", title=f"P = {p}, $\\bar s_A$ = {sa:.2g}")
            if i == len(show_sa) - 1:
                ax.set_xlabel("auxiliary SNR $\\bar s_B$")
            if j == 0:
                ax.set_ylabel("benefit $\\mathcal{B}$ (nats)")
    axes[0, 0].legend(fontsize=7)
    return fig


def figure_bounds(g10: GridResult) -> Figure:
    """The bounds (24) and (25) against the benefit, every cell and seed of the rank-10 grid."""
    lower, benefit, upper = g10.bounds
    fig, ax = plotting.subplots(1, 1, height=3.4)
    ax.plot(benefit, upper, ".", ms=2, alpha=0.4, label="upper bound (24)")
    ax.plot(benefit, lower, ".", ms=2, alpha=0.4, label="lower bound (25)")
    lims = np.array([benefit.min(), benefit.max()])
    ax.plot(lims, lims, "k-", lw=0.8)
    ax.set(xlabel="benefit $\\mathcal{B}$ (validation set)", ylabel="bound",
           title="rank-10 grid: every cell and seed", ylim=(2 * lims[0] - 0.05, 2 * lims[1] + 0.05))
    ax.legend(markerscale=5)
    return fig


def check_table1(ledger: Ledger, benefit: Mapping[str, np.ndarray], by_size: np.ndarray, *,
                 sizes: Sequence[int], snrs: Sequence[float]) -> None:
    """Claims: the five predictions of Table 1 on the rank-10 grid, each a one-sided 99% t bound over
    seeds of the benefit averaged over its cells within each seed (or a ratio of such means).

    ``benefit``: the per-seed means of the cells of each statement, ``"helps"`` (related, clean A and B),
    ``"hurts"`` (unrelated, B at the largest SNR), ``"ignored"`` (unrelated, noisy B) and ``"no-base"``
    (related, A at the smallest SNR); ``by_size``: the mean benefit of the clean related cells at each
    training-set size of ``sizes``; ``snrs``: the grid's SNRs.
    """
    helps, hurts, ignored, no_base = (np.asarray(benefit[k]) for k in ("helps", "hurts", "ignored", "no-base"))
    seeds_n = len(helps)
    ledger.check("table1-related-clean-helps",
                 "Clean related auxiliary tasks help: r = 1, clean A and B, P <= 800 (mean benefit above 0 by the 99% "
                 "one-sided t margin)",
                 measured=np.mean(helps), predicted=0.0, tolerance=t_margin(helps), kind="above",
                 reason=t_bound_reason(seeds_n, f", cells averaged within each seed; a finding of the paper's Table "
                                       f"1: it detects a mean benefit of {_power(helps, 'lower'):.3g} nats at 50 % "
                                       "power"), category="finding")
    ledger.check("table1-unrelated-clean-hurts",
                 f"Unrelated high-SNR auxiliary tasks hurt: r = 0, sbar_B = {snrs[-1]:g}, clean A, P <= 800 (99% "
                 "one-sided t margin below 0)",
                 measured=np.mean(hurts), predicted=0.0, tolerance=t_margin(hurts), kind="below",
                 reason=t_bound_reason(seeds_n, f"; a finding of the paper's Table 1: it detects a mean harm of "
                                       f"{_power(hurts, 'upper'):.3g} nats at 50 % power"), category="finding")
    ledger.check("table1-unrelated-noisy-ignored",
                 "Unrelated noisy auxiliary tasks are ignored: |benefit| at r = 0, sbar_B <= 0.04 relative to the "
                 "harm at sbar_B = 10",
                 measured=abs(ignored.mean()) / abs(hurts.mean()), predicted=0.0, tolerance=0.2, kind="absolute",
                 reason="A finding of the paper's Table 1; 'ignored' defined before the run as at most a fifth of the "
                 "effect of a clean unrelated task (the margin). Standard error of the ratio (delta method over "
                 f"seeds): {_ratio_se(ignored, hurts):.3g}, so an effect of 0.2 + 2 SE of the harm would fail it.",
                 category="finding")
    ledger.check("table1-needs-base-performance",
                 f"Without main-task signal (sbar_A = {snrs[0]:.2g}) even clean related tasks barely help: benefit "
                 "relative to clean A",
                 measured=no_base.mean() / helps.mean(), predicted=0.0, tolerance=0.2, kind="upper",
                 reason="A finding of the paper's Table 1, defined before the run as at most a fifth of the benefit "
                 "with a clean main task (the margin); the validation labels of A are clean but its training labels "
                 f"carry almost no signal at this SNR. Standard error of the ratio: {_ratio_se(no_base, helps):.3g}.",
                 category="finding")
    ledger.check("table1-abundant-data-no-benefit",
                 f"Abundant data removes the benefit: related clean benefit at P = {sizes[-1]} over its largest "
                 "value over P",
                 measured=by_size[-1] / by_size.max(), predicted=0.0, tolerance=0.5, kind="upper",
                 reason="A finding of the paper's Table 1, (37): the benefit tends to zero as P grows; defined before "
                 "the run as having fallen below half of its peak by the largest training set of the grid (the "
                 "margin).", category="finding")


def _ratio_se(num, den):
    """Delta-method standard error of mean(num) / mean(den) over seeds (paired)."""
    n, a, b = len(num), float(np.mean(num)), float(np.mean(den))
    cov = np.cov(num, den, ddof=1) / n
    return abs(a / b) * float(np.sqrt(max(cov[0, 0] / a**2 + cov[1, 1] / b**2 - 2 * cov[0, 1] / (a * b), 0.0))) \
        if a != 0 else float(np.sqrt(cov[0, 0])) / abs(b)


def check_monotonicity(ledger: Ledger, related: Mapping[tuple, tuple], clean_aux: Mapping[tuple, tuple]) -> None:
    """Claims (34) and (36): the benefit rises with the auxiliary SNR over the cells ``related`` and with
    the relatedness over the cells ``clean_aux`` (one-sided Spearman over per-cell means; both maps as
    :meth:`gendyn.multitask_train.GridResult.cell_means`, keys ``(n_train, n_train_aux, s_a, s_b, r)``)."""
    for claim_id, statement, cells, axis in (
            ("eq34-benefit-rises-with-snr-b", "(34): benefit rises with sbar_B for related tasks (r >= 0.75)",
             related, 3),
            ("eq36-benefit-rises-with-r", "(36): benefit rises with the relatedness r for clean auxiliary tasks",
             clean_aux, 4)):
        check_spearman(ledger, claim_id, statement, np.array([k[axis] for k in cells]),
                       np.array([m[0] for m in cells.values()]), category="finding",
                       note=" (t approximation); a finding: the weakest trend it detects at 50 % power is a rank "
                       "correlation of this value")
