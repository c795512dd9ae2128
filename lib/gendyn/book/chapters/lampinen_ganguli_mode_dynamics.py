"""Sizes, figures and claims of the chapter "Mode dynamics and the singular-mode detection wave".

Serves ``notebooks/lampinen-ganguli/mode-dynamics.md`` (Lampinen & Ganguli §3.1, Fig. 1 and
App. A): training-aligned (TA) deep linear networks of depth :math:`N_l` learn a designed data
spectrum, and their mode strengths are compared with eq. (9) and its deep form (A.1)-(A.2)
(:func:`gendyn.deep_linear.mode_strength`). The runs (:func:`gendyn.train.ta_mode_dynamics`, modes in
ascending :math:`\\hat s`) are ``{depth: ModeDynamics}``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter
from numpy.typing import ArrayLike

from ... import deep_linear as dl
from ...train import ModeDynamics
from .. import plotting
from ..claims import Ledger
from ..mutation import Mutation
from ..scales import RunConfig

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "shown_modes", "figure_1_mode_dynamics", "figure_1_detection_wave",
           "check_flow", "check_wave_front", "figure_detection_front"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) §3.1 and App. A, Fig. 1: TA mode dynamics at three depths.
    """

    n1: int  #: inputs N1 of the TA networks
    shat_min: float  #: smallest singular value of the designed data spectrum
    shat_max: float  #: largest singular value of the designed data spectrum
    n_modes: int  #: modes of the spectrum, geometrically spaced from shat_min to shat_max
    depths: tuple[int, ...]  #: network depths
    lrs: tuple[float, ...]  #: learning rate of each depth
    horizon: float  #: training time, in half-learning times of the weakest mode
    n_records: int  #: recorded times


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, shat_min=0.25, shat_max=4.0, n_modes=41,  # designed spectrum 0.25 * 2^(k/10)
        depths=(3, 4, 5), lrs=(2e-3, 1e-2, 1.5e-2),  # one per depth, lr max|f'| <= 0.5 (gd_lag_accuracy)
        horizon=2.0,
        n_records=400,
    ),
    "smoke": Sizes(
        n1=30, shat_min=0.5, shat_max=4.0, n_modes=13,
        depths=(3, 4, 5), lrs=(5e-3, 2e-2, 1.5e-2), horizon=2.0, n_records=200,
    ),
}


def shown_modes(shat: ArrayLike) -> list[float]:
    """The data singular values drawn in the figures: those of 0.5, 1, 2, 4 that the spectrum ``shat`` holds."""
    return [x for x in (0.5, 1.0, 2.0, 4.0) if np.isclose(shat, x).any()]


def figure_1_mode_dynamics(runs: dict[int, ModeDynamics], shat: np.ndarray, *, eps: float) -> Figure:
    """Fig. 1 and its deeper versions: :math:`s(t)/\\hat s` of the shown modes, one panel per depth.

    Lines: eq. (9) / (A.1) (:func:`~gendyn.deep_linear.mode_strength`); dots: gradient descent
    (``runs``: :func:`gendyn.train.ta_mode_dynamics`), from 0.3 times the strongest mode's half-learning time.
    """
    show = shown_modes(shat)
    fig, axes = plotting.subplots(1, len(runs), height=3.1, squeeze=False)
    for col, (depth, r) in enumerate(runs.items()):
        start = 0.3 * float(dl.half_learning_time(shat[-1], eps, n_layers=depth))
        t_fine = np.geomspace(start, r.time[-1], 2000)
        keep = r.time >= start
        ax = axes[0, col]
        for k, x in enumerate(show):
            i = int(np.argmin(np.abs(shat - x)))
            theory = dl.mode_strength(t_fine, x, eps, n_layers=depth) / x
            ax.plot(t_fine, theory, color=plotting.COLORS[k], label=f"$\\hat s$ = {x:g}")
            ax.plot(r.time[keep], r.strength[keep, i] / x, "o", ms=2, color=plotting.COLORS[k])
        ax.set(xscale="log", xlabel="$t/\\tau$", title=f"$N_l$ = {depth}")
    axes[0, 0].set_ylabel("$s(t)/\\hat s$")
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="upper center", ncol=len(show))
    return fig


def figure_1_detection_wave(runs: dict[int, ModeDynamics], shat: np.ndarray, *, eps: float) -> Figure:
    """The detection wave: :math:`s/\\hat s` across the spectrum when each shown mode is half learned.

    One panel per depth; lines: theory at the recorded time nearest the half-learning time,
    dots: gradient descent, dotted verticals: the mode that is half learned (the predicted front).
    """
    show = shown_modes(shat)
    ticks = [x for x in (0.25, 0.5, 1.0, 2.0, 4.0) if shat[0] <= x <= shat[-1]]
    s_fine = np.geomspace(shat[0], shat[-1], 600)
    fig, axes = plotting.subplots(1, len(runs), height=3.5, squeeze=False)
    for col, (depth, r) in enumerate(runs.items()):
        ax = axes[0, col]
        for x in show[::-1]:
            color = plotting.COLORS[show.index(x)]
            t_half = float(dl.half_learning_time(x, eps, n_layers=depth))
            j = int(np.argmin(np.abs(r.time - t_half)))
            theory = dl.mode_strength(r.time[j], s_fine, eps, n_layers=depth) / s_fine
            ax.plot(s_fine, theory, color=color, label=f"$t/\\tau$ = {r.time[j]:.3g}")
            ax.plot(shat, r.strength[j] / shat, "o", ms=2.5, color=color)
            ax.axvline(x, color=color, ls=":", lw=1)
        ax.set(xscale="log", xlabel="$\\hat s$", title=f"$N_l$ = {depth}")
        ax.set_xticks(ticks, [f"{x:g}" for x in ticks])
        ax.minorticks_off()
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.27), ncol=2, columnspacing=1)
    axes[0, 0].set_ylabel("$s/\\hat s$")
    return fig


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return [f"{name}-N{depth}" for name in ("flow", "wave-front") for depth in cfg.depths]


#: The theory the claims test, and the error each should see at smoke scale. The flow claims allow, pointwise, the
#: forward-Euler delay (a few per cent of a mode's strength); the front claims one mode spacing (log10 of
#: 2^(3/12), 0.075): a front time 50 % off moves the front by about log10 1.5 = 0.18.
MUTATIONS = (
    Mutation("gendyn.deep_linear.mode_strength", 0.1, why="eq. (9)/(A.1): 10 % of a mode's strength"),
    Mutation("gendyn.deep_linear.mode_strength", -0.1, why="eq. (9)/(A.1): 10 % low (a plateau below shat)"),
    Mutation("gendyn.deep_linear.mode_time", 0.5, why="the inverse of (A.1): 50 % of the time to half height"),
)


def check_flow(ledger: Ledger, runs: dict[int, ModeDynamics], shat: np.ndarray, *, eps: float) -> None:
    """Claims ``flow-N<depth>``: gradient descent follows the flow (9) / (A.1) for every mode and record.

    Pointwise, in the band of :func:`gendyn.deep_linear.gd_band` around the flow (the first-order
    forward-Euler delay below; that advance and gradient descent's faster closing of the last gap
    above; both times ``1 + lr max|f'|``), plus float64 rounding. Against the largest delay effect
    over the whole run the claim would sit at the edge of its tolerance by construction, and a wrong
    plateau would hide behind the steepest moment.
    """
    for depth, r in runs.items():
        band = dl.gd_band(r.time, shat, eps, r.lr, depth)
        rounding = 1e-9 * float(np.max(shat))
        below, above = band.below + rounding, band.above + rounding
        gap = r.strength - band.flow
        ratio = np.where(gap >= 0, gap / above, -gap / below)
        ledger.check(
            f"flow-N{depth}",
            f"N_l = {depth}: largest |s_GD(t) - s(t, shat)| (eq. {'9' if depth == 3 else 'A.1'}) over {len(shat)} "
            "modes and all records, in units of its band (the delay's effect there)",
            measured=float(ratio.max()), predicted=0.0, tolerance=1.0, kind="upper",
            theory="gendyn.deep_linear.mode_strength", reference=1.0 / float(np.min((below / band.flow)[1:])),
            reason=f"At each record and mode, the band is what delaying the mode by its first-order forward-Euler "
            f"delay gd_lag (up to {band.lag.max():.2g} tau at lr = {r.lr:g}) changes there (below) and what advancing "
            f"it as much and running it up to {band.speedup.max():.3g} times faster changes (above: gradient descent "
            f"closes the last gap at -ln(1 - lr|f'|)/lr), times 1 + lr max|f'| = {1 + band.accuracy:.2f} "
            f"(gd_lag_accuracy), + 1e-9 of the top strength for float64; largest gap {np.abs(gap).max():.3g}.")


def _front_grid(shat):
    return np.geomspace(shat[0], shat[-1], 2000)


def check_wave_front(ledger: Ledger, runs: dict[int, ModeDynamics], shat: np.ndarray, *, eps: float) -> None:
    """Claims ``wave-front-N<depth>``: the simulated detection front is where :math:`t(\\hat s^*/2, \\hat s^*) = t`.

    The measured front is where :math:`s/\\hat s` crosses 1/2, interpolated linearly in
    :math:`\\ln\\hat s` between neighbouring modes; the predicted one includes the
    gradient-descent delay at half height. Tolerance: the log10 spacing of the spectrum.
    """
    spacing = np.log10(shat[1] / shat[0])
    grid = _front_grid(shat)
    for depth, r in runs.items():
        front_time = dl.half_learning_time(grid, eps, n_layers=depth, lr=r.lr)
        inside = (r.time > front_time.min()) & (r.time < front_time.max())
        measured = 10 ** np.array([np.interp(0.5, r.strength[j] / shat, np.log10(shat))
                                   for j in np.flatnonzero(inside)])
        # front_time decreases with shat
        predicted = np.interp(r.time[inside], front_time[::-1], grid[::-1])
        ledger.check(
            f"wave-front-N{depth}",
            f"N_l = {depth}: detection front from the simulation vs t(shat*/2, shat*) = t, "
            f"largest |log10 ratio| over {inside.sum()} records",
            measured=np.abs(np.log10(measured / predicted)).max(), predicted=0.0, tolerance=spacing,
            kind="absolute", theory="gendyn.deep_linear.mode_time", reference=1 / np.log(10),
            reason=f"the crossing lies between two neighbouring modes, log10 spacing {spacing:.3g}; "
            "linear interpolation cannot be off by more.")


def figure_detection_front(depths: tuple[int, ...], shat: np.ndarray, *, eps: float) -> Figure:
    """Where the detection wave is: the predicted front :math:`\\hat s^*(t)` for each depth.

    Drawn against the text's heuristic read inversely, :math:`\\hat s = \\tau/t`, over the
    range of the spectrum ``shat``.
    """
    grid = _front_grid(shat)
    fig, ax = plotting.subplots(1, 1, height=3.4, width=5.0)
    for k, depth in enumerate(depths):
        front_time = dl.half_learning_time(grid, eps, n_layers=depth)
        ax.plot(front_time, grid, color=plotting.COLORS[k], label=f"front, $N_l$ = {depth}")
    t_line = np.geomspace(0.1, 1e3, 50)
    ax.plot(t_line, 1 / t_line, "k:", lw=1,
            label="$\\hat s = \\tau/t$ (text's heuristic, read inversely)")
    ax.set(xscale="log", yscale="log", xlabel="$t/\\tau$", ylabel="front $\\hat s^*$",
           ylim=(shat[0], shat[-1]), title="where the detection wave is")
    ticks = [t for t in (0.25, 0.5, 1, 2, 4, 8, 16) if shat[0] <= t <= shat[-1]]
    ax.set_yticks(ticks, [f"{t:g}" for t in ticks])
    ax.yaxis.set_minor_formatter(NullFormatter())
    # the fronts cross the whole panel: the key goes below it
    fig.legend(*ax.get_legend_handles_labels(), fontsize=7, loc="lower center", ncol=2)
    return fig
