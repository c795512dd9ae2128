"""Figures and claims of the chapter ``notebooks/lee-ndirango/aux-data-and-depth.ipynb``.

Lee & Ndirango, §4.6-4.7, Figs. 3 (left and right), A3 and A4: the multitask benefit with
more auxiliary data, and for students with deeper ReLU trunks, from the book's grids
(:class:`gendyn.multitask_train.GridResult`); the "shift downwards" of the ReLU students; and
the precision check of the deep grid (one A4 program rerun in float32, and in float64 with
the learning rate one unit in the last place larger). The Spearman claim, the reason of a t
bound and the benefit band are the book's (:mod:`gendyn.book.checks`, :mod:`gendyn.book.stats`,
:mod:`gendyn.book.figures`), shared with the other Lee & Ndirango chapters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import torch
from matplotlib.figure import Figure

from gendyn.book import grids, plotting, prose
from gendyn.book.checks import check_spearman
from gendyn.book.claims import Ledger
from gendyn.book.figures import benefit_strips, plot_cell_means
from gendyn.book.scales import RunConfig
from gendyn.book.stats import mean_se, t_bound, t_bound_reason, t_margin
from gendyn.multitask_train import GridResult

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "figure_3_left", "figure_a3", "check_aux_data",
           "print_minimum_at_end", "figure_3_right", "figure_a4",
           "check_deep_relatedness", "print_shift", "Precision", "precision_reruns", "check_float64_rounding",
           "print_precision", "precision_glue"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019) §4.6-4.7, Figs. 3, A3, A4: auxiliary data, deeper ReLU students.
    """

    seeds: int  #: seeds of every grid cell: SEED, SEED + 1, ...
    aux_n_train: tuple[int, ...]  #: auxiliary training examples of task B (task A: 100)
    snr_points: int  #: SNRs kept of the grid's, evenly in log scale with both ends
    relatedness_every: int  #: every k-th relatedness of the grid is kept
    lr: float  #: learning rate of the auxiliary-data grid
    steps: int  #: gradient steps of the auxiliary-data grid
    eval_every: int  #: steps between validation evaluations of the auxiliary-data grid
    n_val: int  #: validation examples per task
    deep_depths: tuple[int, ...]  #: depths of the ReLU students of the deep grid
    deep_n_train: tuple[int, ...]  #: training examples per task of the deep grid
    deep_snr_points: int  #: SNRs kept of the deep grid
    deep_lr: float  #: learning rate of the deep grid
    deep_steps: int  #: gradient steps of the deep grid
    deep_eval_every: int  #: steps between validation evaluations of the deep grid


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(seeds=5, aux_n_train=(100, 200, 400, 800), snr_points=6, relatedness_every=1,
                   lr=1.0, steps=300, eval_every=3, n_val=1000,
                   deep_depths=(1, 3, 5), deep_n_train=(200, 400, 800), deep_snr_points=6,
                   deep_lr=0.25, deep_steps=240, deep_eval_every=4),
    "smoke": Sizes(seeds=5, aux_n_train=(100, 400), snr_points=3, relatedness_every=2,
                   lr=1.0, steps=100, eval_every=2, n_val=300,
                   deep_depths=(1, 2), deep_n_train=(200,), deep_snr_points=3,
                   deep_lr=0.25, deep_steps=100, deep_eval_every=4),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = ["aux-related-grows", "aux-unrelated-worsens"]
    ids += [f"deep-relatedness-depth{d}" for d in cfg.deep_depths]
    return ids + [f"float64-rounding-small-depth{max(cfg.deep_depths)}"]


#: No theory function computes the chapter's claims: §4.6-4.7 state qualitative effects, tested as findings
#: (measured effects with their significance); the bounds (22)-(25) hold exactly and are unit tests.
MUTATIONS = ()


def _power(values, side):
    """The smallest mean a one-sided 99 % t bound over ``values`` (one per seed) detects at 50 % power."""
    return abs(float(np.mean(values)) - t_bound(values, side))


def _clean_main(aux):
    """Main-task SNRs of a clean main task (above the label noise 1/sqrt(20))."""
    return [s for s in aux.axes["s_a"] if s >= 0.6]


def figure_3_left(aux: GridResult) -> Figure:
    """Fig. 3 left: benefit against the number of auxiliary points, the cleanest auxiliary task,
    one panel per clean main-task SNR, one line per relatedness (100 main-task points)."""
    snrs, rels, aux_sizes = aux.axes["s_a"], aux.axes["relatedness"], aux.axes["n_train_aux"]
    cm = aux.cell_means()
    clean_a = _clean_main(aux)
    fig, axes = plotting.subplots(1, len(clean_a), height=3.3, squeeze=False, sharey=True)
    for j, sa in enumerate(clean_a):
        ax = axes[0, j]
        for k, r in enumerate(rels):
            plot_cell_means(ax, aux_sizes, cm, [(100, pb, sa, snrs[-1], r) for pb in aux_sizes],
                            color=plotting.COLORS[k], label=f"r = {r:g}")
        ax.axhline(0, color="k", lw=0.8)
        ax.xaxis.set_minor_locator(plt.NullLocator())  # only the auxiliary sizes are labelled
        ax.set(xscale="log", xticks=aux_sizes, xticklabels=[str(v) for v in aux_sizes],
               xlabel="auxiliary training points", title=f"$\\bar s_A$ = {sa:.2g}")
    axes[0, 0].set_ylabel("benefit (nats)")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"$\\bar s_B$ = {snrs[-1]:g}, 100 main-task points")
    return fig


def figure_a3(aux: GridResult) -> Figure:
    """Fig. A3: the mean benefit of every cell of the auxiliary-data grid, one strip per auxiliary size."""
    maps = aux.benefit_maps("n_train_aux")
    return benefit_strips([(f"aux {pb}", maps[pb]) for pb in aux.axes["n_train_aux"]], aux.axes["s_a"],
                          aux.axes["relatedness"], "Fig. A3: 100 main-task points, more auxiliary points")


def check_aux_data(ledger: Ledger, aux: GridResult, *, seeds: int) -> None:
    """Claims of §4.6 (findings): with more clean auxiliary data the benefit grows for related tasks and falls
    for unrelated ones (99% t bounds over ``seeds`` seeds of the change from the smallest to the
    largest auxiliary set, paired within seeds). Prints the largest violation of the bounds (22)-(25) over
    the A3 cells (exact up to rounding; a unit test asserts them)."""
    snrs, aux_sizes = aux.axes["s_a"], aux.axes["n_train_aux"]
    clean_a = _clean_main(aux)

    def aux_change(r):
        hi = aux.per_seed(aux.where(relatedness=r, s_b=snrs[-1], s_a=clean_a, n_train_aux=aux_sizes[-1]))
        lo = aux.per_seed(aux.where(relatedness=r, s_b=snrs[-1], s_a=clean_a, n_train_aux=aux_sizes[0]))
        return hi - lo

    grows, worsens = aux_change(1.0), aux_change(0.0)
    ledger.check("aux-related-grows", f"Related (r = 1) clean auxiliary data: benefit grows from {aux_sizes[0]} to "
                 f"{aux_sizes[-1]} auxiliary points (mean increase above 0 by the 99% one-sided t margin)",
                 measured=np.mean(grows), predicted=0.0, tolerance=t_margin(grows), kind="above",
                 reason=t_bound_reason(seeds, f", paired within seeds; a finding of §4.6: it detects an increase of "
                                       f"{_power(grows, 'lower'):.3g} nats at 50 % power"), category="finding")
    ledger.check("aux-unrelated-worsens", f"Unrelated (r = 0) clean auxiliary data: benefit falls from {aux_sizes[0]} "
                 f"to {aux_sizes[-1]} auxiliary points (mean change below 0 by the 99% one-sided t margin)",
                 measured=np.mean(worsens), predicted=0.0, tolerance=t_margin(worsens), kind="below",
                 reason=t_bound_reason(seeds, f", paired within seeds; a finding of §4.6: it detects a fall of "
                                       f"{_power(worsens, 'upper'):.3g} nats at 50 % power"), category="finding")
    lower, benefit, upper = aux.bounds
    print(f"convexity bounds (22)-(25) over the A3 cells: largest violation "
          f"{max(np.max(lower - benefit), np.max(benefit - upper)):.1e}")


def _students(linear, deep):
    """(label, grid) of the linear reference and of each ReLU depth."""
    return [("linear, depth 1", linear)] + [(f"ReLU, depth {d}", g) for d, g in deep.items()]


def print_minimum_at_end(aux: GridResult, linear: GridResult, deep: dict[int, GridResult]) -> None:
    """Print, for each grid, its number of students and how many had their validation minimum at the last step."""
    for label, g in ([("A3 (linear)", aux), ("A4 linear, depth 1", linear)]
                     + [(f"A4 ReLU, depth {d}", g) for d, g in deep.items()]):
        print(f"{label}: {g.runs} students, {100 * g.at_end:.0f}% with the validation minimum "
              "at the last step")


def figure_3_right(linear: GridResult, deep: dict[int, GridResult]) -> Figure:
    """Fig. 3 right: benefit against relatedness for clean main and auxiliary tasks, one panel per
    training-set size, one line for the linear students and one per ReLU depth (``deep``)."""
    dsnrs, drels, dsizes = linear.axes["s_a"], linear.axes["relatedness"], linear.axes["n_train"]
    fig, axes = plotting.subplots(1, len(dsizes), height=3.3, squeeze=False, sharey=True)
    for j, p in enumerate(dsizes):
        ax = axes[0, j]
        for k, (label, g) in enumerate(_students(linear, deep)):
            plot_cell_means(ax, drels, g.cell_means(), [(p, p, dsnrs[-1], dsnrs[-1], r) for r in drels],
                            color=plotting.COLORS[k], label=label)
        ax.axhline(0, color="k", lw=0.8)
        ax.set(xlabel="relatedness r", title=f"P = {p}, $\\bar s_A = \\bar s_B$ = {dsnrs[-1]:g}")
    axes[0, 0].set_ylabel("benefit (nats)")
    axes[0, 0].legend(fontsize=7)
    return fig


def figure_a4(deep: dict[int, GridResult]) -> Figure:
    """Fig. A4: the mean benefit of every cell of the ReLU grids, one strip per depth and training-set size."""
    first = next(iter(deep.values()))
    dsnrs, drels, dsizes = first.axes["s_a"], first.axes["relatedness"], first.axes["n_train"]
    return benefit_strips([(f"depth {d}\nP = {p}", g.benefit_maps("n_train")[p]) for d, g in deep.items()
                           for p in dsizes], dsnrs, drels, "Fig. A4: ReLU trunks, one colour scale for all depths")


def check_deep_relatedness(ledger: Ledger, deep: dict[int, GridResult]) -> None:
    """Claims of §4.7: for each ReLU depth the per-cell mean benefit rises with relatedness over the
    cells with a clean main and auxiliary task (Spearman, one-sided 1%)."""
    for d, g in deep.items():
        cmd = g.cell_means()
        keys = [k for k in cmd if k[2] >= 0.6 and k[3] >= 0.6]
        check_spearman(ledger, f"deep-relatedness-depth{d}",
                       f"ReLU depth {d}: benefit rises with relatedness (Spearman, clean A and B)",
                       [k[4] for k in keys], [cmd[k][0] for k in keys], category="finding",
                       note=" (t approximation); a finding: the weakest trend it detects at 50 % power is a rank "
                       "correlation of this value")


def print_shift(linear: GridResult, deep: dict[int, GridResult]) -> tuple[float, float]:
    """Print the benefit by relatedness (mean ± SE over seeds) of the linear and each ReLU grid, and
    return the mean and standard error over seeds of the first ReLU depth's benefit minus the
    linear one, over all cells (the paper's "shift downwards")."""
    drels = linear.axes["relatedness"]
    print("relatedness:          " + "  ".join(f"{r:>15g}" for r in drels) + "        all cells")
    for label, g in _students(linear, deep):
        cells = []
        for r in list(drels) + [None]:
            mask = g.where(relatedness=r) if r is not None else np.ones(len(g.cells), dtype=bool)
            v = g.per_seed(mask)
            cells.append(f"{v.mean():+.4f} ± {v.std(ddof=1) / math.sqrt(len(v)):.4f}")
        print(f"{label:20s}  " + "  ".join(cells))
    depth = next(iter(deep))
    relu1 = deep[depth].per_seed(np.ones(len(deep[depth].cells), dtype=bool))
    lin = linear.per_seed(np.ones(len(linear.cells), dtype=bool))
    diff = relu1 - lin
    shift, shift_se = diff.mean(), diff.std(ddof=1) / math.sqrt(len(diff))
    print(f"ReLU depth {depth} minus linear, all cells: {shift:+.4f} ± {shift_se:.4f} "
          f"(mean ± standard error over {len(lin)} seeds): "
          + ("a shift downwards, as the paper reports" if shift + 2 * shift_se < 0
             else "no significant shift downwards"))
    return float(shift), float(shift_se)


@dataclass(frozen=True)
class Precision:
    """Change of the benefit of one A4 program's cells under rounding (:func:`precision_reruns`).

    ``rounding32``: float32 minus float64 benefit per cell; ``rounding64``: float64 with the
    learning rate one ulp larger minus float64; ``cell_se``: standard error over seeds of each
    cell's mean benefit in the book's grid; ``seeds``: its number of seeds.
    """

    depth: int
    n_train: int
    seeds: int
    rounding32: np.ndarray
    rounding64: np.ndarray
    cell_se: np.ndarray

    @property
    def rms32(self) -> float:
        """Root mean square of the float32 change."""
        return math.sqrt(np.mean(self.rounding32**2))

    @property
    def seed_sd(self) -> np.ndarray:
        """Seed-to-seed standard deviation of each cell's benefit."""
        return math.sqrt(self.seeds) * self.cell_se

    @property
    def ratio32(self) -> float:
        """The float32 change (rms) over the seed-to-seed standard deviation (rms)."""
        return self.rms32 / math.sqrt(np.mean(self.seed_sd**2))

    @property
    def tolerance64(self) -> float:
        """One hundredth of the smallest standard error of a cell's mean benefit."""
        return 0.01 * self.cell_se.min()


def precision_reruns(cfg: RunConfig, deep: dict[int, GridResult]) -> Precision:
    """Rerun one program of the A4 grid (deepest ReLU trunk, smallest training set, first seed) on the
    same float64 draws, in float32 and in float64 with the learning rate one unit in the last place
    larger, and compare each cell's benefit with the book's float64 grid ``deep``.

    Parameters
    ----------
    cfg : RunConfig
        The chapter's configuration (``ln-aux-depth``).
    deep : dict
        The book's ReLU grids by depth.
    """
    depth_hi, p_lo = max(cfg.deep_depths), min(cfg.deep_n_train)
    one_program = dict(grids.book_grid("deep-nonlinear", cfg, depth=depth_hi), seeds=(cfg.seed,), n_train=(p_lo,))
    variants = {"float32": dict(dtype=torch.float32, draw_dtype=torch.float64),
                "float64, lr + 1 ulp": dict(lr=float(np.nextafter(cfg.deep_lr, np.inf)))}
    book = deep[depth_hi]
    in_program = book.where(n_train=p_lo, seed=cfg.seed)
    float64 = {(c["s_a"], c["s_b"], c["relatedness"]): b for c, b, m in zip(book.cells, book.benefit, in_program) if m}
    change = {}
    for name, kw in variants.items():
        g = grids.cached_grid(f"deep-nonlinear-d{depth_hi}-precision", cfg.scale, **dict(one_program, **kw))
        change[name] = g.benefit - np.array([float64[(c["s_a"], c["s_b"], c["relatedness"])] for c in g.cells])
        keys = [(c["s_a"], c["s_b"], c["relatedness"]) for c in g.cells]
    cells = book.cell_means()
    cell_se = np.array([cells[(p_lo, p_lo, *k)][1] for k in keys])
    return Precision(depth_hi, p_lo, cfg.seeds, change["float32"], change["float64, lr + 1 ulp"], cell_se)


def check_float64_rounding(ledger: Ledger, precision: Precision) -> None:
    """Claim: in float64 a perturbation of the size of its rounding moves no cell's benefit by more
    than a hundredth of the smallest standard error of a cell's mean benefit."""
    depth_hi, p_lo = precision.depth, precision.n_train
    ledger.check(f"float64-rounding-small-depth{depth_hi}",
                 f"ReLU depth {depth_hi}, P = {p_lo}, float64: largest change of a cell's benefit when the learning "
                 "rate moves by one unit in the last place (a perturbation the size of float64 rounding at every step)",
                 measured=float(np.abs(precision.rounding64).max()), predicted=0.0, tolerance=precision.tolerance64,
                 kind="upper",
                 reason=f"one hundredth of the smallest standard error of a cell's mean benefit over {precision.seeds} "
                        f"seeds (the claims' statistics); {len(precision.cell_se)} cells. In float32 the same program "
                        f"moves by {precision.rms32:.2g} nats (rms). A finding about the numerics (no theory function "
                        "enters): the grid's float64 results are not rounding.", category="finding")


def print_precision(precision: Precision) -> None:
    """Print the float32 change (rms, largest, mean ± SE), the seed-to-seed spread and the float64 change."""
    rounding32 = precision.rounding32
    shift, shift_se = mean_se(rounding32)
    print(f"float32 - float64 benefit over {len(precision.cell_se)} cells: rms {precision.rms32:.4f}, largest "
          f"{np.abs(rounding32).max():.4f}, mean {shift:+.4f} +- {shift_se:.4f} nats; seed-to-seed standard "
          f"deviation (rms) {math.sqrt(np.mean(precision.seed_sd**2)):.4f}; float64 with lr + 1 ulp: largest change "
          f"{np.abs(precision.rounding64).max():.1e}")


def precision_glue(precision: Precision) -> dict[str, float | int | str]:
    """The numbers and the verdict of the precision section, by glue name."""
    shift, shift_se = mean_se(precision.rounding32)
    return {"ln-aux-depth-precision-depth": int(precision.depth), "ln-aux-depth-precision-p": int(precision.n_train),
            "ln-aux-depth-precision-rms": prose.sig(precision.rms32, 2),
            "ln-aux-depth-precision-max": prose.sig(np.abs(precision.rounding32).max(), 2),
            "ln-aux-depth-precision-ratio": prose.sig(precision.ratio32, 2), "ln-aux-depth-precision-mean": prose.sig(shift, 2, sign=True),
            "ln-aux-depth-precision-se": prose.sig(shift_se, 2),
            "ln-aux-depth-precision-f64": prose.sig(np.abs(precision.rounding64).max(), 2),
            # a tenth of the spread adds 1 % to the variance the claims see
            "ln-aux-depth-precision-verdict": "at this scale a float32 grid would be partly rounding"
            if precision.ratio32 > 0.1 else
            "at this scale float32 would be close enough; at the papers' scale (depth 5, 240 steps) it is not",
            "ln-aux-depth-precision-tol": prose.sig(precision.tolerance64, 2)}
