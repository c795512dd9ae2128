"""Figures that recur across chapters of the book: one drawing function for each.

Each takes plain results (numpy arrays, dicts of means) and returns a matplotlib figure
sized for the book's column by :func:`gendyn.book.plotting.subplots`, or draws one recurring
element into a given panel (:func:`plot_cell_means`); saving stays with the chapter
(:func:`gendyn.book.plotting.save`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm

from .plotting import COLORS, subplots

__all__ = ["benefit_strips", "plot_cell_means", "plot_simulation_vs_theory"]


def benefit_strips(strips, snrs, relatedness, title):
    """Mean multitask benefits of Lee & Ndirango grids as heat strips (the layout of Figs. A1-A4).

    One strip per ``(label, means)`` of ``strips``, where ``means[(s_a, s_b, r)]`` is the mean
    benefit of a cell (a value of :meth:`gendyn.multitask_train.GridResult.benefit_maps`):
    rows are the relatedness ``r``, columns one block of auxiliary SNRs ``s_b`` per main-task
    SNR ``s_a``, blocks separated by a blank column; a diverging colour map centred on zero,
    symmetric about the largest benefit shown. Returns the figure.
    """
    if not strips:
        raise ValueError("strips must hold at least one (label, means) pair")
    missing = [(sa, sb, r) for _, m in strips for sa in snrs for sb in snrs for r in relatedness
               if (sa, sb, r) not in m]
    if missing:
        raise ValueError(f"every strip's means must hold each (s_a, s_b, r) of snrs x snrs x relatedness; "
                         f"missing e.g. {missing[0]}")
    lim = max(abs(m[(sa, sb, r)]) for _, m in strips for sa in snrs for sb in snrs for r in relatedness) or 1.0
    cmap = plt.get_cmap("RdBu").copy()
    cmap.set_bad("white")
    nb = len(snrs)
    height = 1.4 + len(strips) * (0.16 * len(relatedness) + 0.15)
    fig, axes = subplots(len(strips), 1, height=height, width=6.8, squeeze=False, sharex=True,
                         layout="constrained")
    for ax, (label, means) in zip(axes[:, 0], strips):
        img = np.full((len(relatedness), nb * (nb + 1) - 1), np.nan)
        for j, sa in enumerate(snrs):
            for k, sb in enumerate(snrs):
                img[:, j * (nb + 1) + k] = [means[(sa, sb, r)] for r in relatedness]
        im = ax.imshow(img, origin="lower", cmap=cmap, norm=TwoSlopeNorm(0.0, -lim, lim), aspect="auto",
                       interpolation="nearest")
        ax.set_yticks(range(len(relatedness)), [f"{v:g}" for v in relatedness], fontsize=7)
        ax.set_ylabel(f"{label}\nr", fontsize=8)
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
    cols = [j * (nb + 1) + k for j in range(nb) for k in range(nb)]
    axes[-1, 0].set_xticks(cols, [f"{sb:.2g}" for _ in snrs for sb in snrs], rotation=90, fontsize=7)
    axes[-1, 0].set_xlabel("auxiliary SNR $\\bar s_B$")
    top = axes[0, 0].secondary_xaxis("top")
    top.set_xticks([j * (nb + 1) + (nb - 1) / 2 for j in range(nb)], [f"{sa:.2g}" for sa in snrs])
    top.tick_params(length=0)
    top.spines["top"].set_visible(False)
    top.set_xlabel("main-task SNR $\\bar s_A$")
    fig.colorbar(im, ax=axes[:, 0], fraction=0.04, pad=0.02, label="benefit (nats)")
    fig.suptitle(title)
    return fig


def plot_cell_means(ax: Axes, x: Sequence[float], means: Mapping[Hashable, tuple[float, float, int]],
                    keys: Sequence[Hashable], *, color: str, label: str) -> None:
    """The mean benefit of grid cells against ``x``, with a band of one standard error (Lee & Ndirango).

    Parameters
    ----------
    ax : Axes
        Where to draw.
    x : sequence of float
        Abscissa of each cell.
    means : dict
        ``{key: (mean, standard error, n)}`` (:meth:`gendyn.multitask_train.GridResult.cell_means`).
    keys : sequence
        The cells drawn, one per value of ``x``.
    color, label : str
        Line colour and legend label.
    """
    if len(keys) != len(x):
        raise ValueError(f"keys must name one cell per value of x ({len(x)}); got {len(keys)}")
    missing = [k for k in keys if k not in means]
    if missing:
        raise ValueError(f"means must hold every cell of keys; missing e.g. {missing[0]}")
    m = np.array([means[k][0] for k in keys])
    se = np.array([means[k][1] for k in keys])
    ax.plot(x, m, "o-", ms=3, color=color, label=label)
    ax.fill_between(x, m - se, m + se, color=color, alpha=0.2, lw=0)


def plot_simulation_vs_theory(ax: Axes, x: Sequence[float], simulated: Sequence[Sequence[float]],
                              theory: Sequence[Sequence[float]], *, labels: Sequence[str] | None = None) -> None:
    """Simulated curves as points and their theory as lines, one colour per run (the book's colours in order).

    Parameters
    ----------
    ax : Axes
        Where to draw.
    x : sequence of float
        Abscissa shared by every curve (e.g. the times of the records).
    simulated, theory : sequences of curves
        One simulated curve and the theory's curve per run, each of the length of ``x``.
    labels : sequence of str, optional
        Legend label of each run's theory line; ``None``: no labels.
    """
    if len(simulated) != len(theory) or (labels is not None and len(labels) != len(theory)):
        raise ValueError(f"simulated, theory (and labels) must hold one entry per run; got {len(simulated)}, "
                         f"{len(theory)}" + ("" if labels is None else f", {len(labels)}"))
    if len(theory) > len(COLORS):
        raise ValueError(f"theory must hold at most {len(COLORS)} runs (one colour each); got {len(theory)}")
    for i, (sim, th) in enumerate(zip(simulated, theory)):
        ax.plot(x, sim, "o", ms=2, color=COLORS[i], alpha=0.5)
        if labels is None:
            ax.plot(x, th, color=COLORS[i])
        else:
            ax.plot(x, th, color=COLORS[i], label=labels[i])
