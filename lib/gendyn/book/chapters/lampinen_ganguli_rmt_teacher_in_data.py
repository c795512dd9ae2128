"""Sizes, figures and claims of the chapter "How the teacher is buried in the training data".

Serves ``notebooks/lampinen-ganguli/rmt-teacher-in-data.md`` (Lampinen & Ganguli §3.2, Fig. 2):
measured spectra, outliers and singular-vector overlaps of noisy low-rank teachers
(:func:`gendyn.teachers.measure_spikes`, one :class:`~gendyn.teachers.SpikeMeasurement` per aspect ratio;
the finite-size gaps of :func:`gendyn.teachers.spike_gaps`) against the
Marchenko-Pastur law (13), the outlier position (11) and the overlap (12) of :mod:`gendyn.rmt`.
The claims' fluctuation scales are :func:`gendyn.book.stats.dkw_bound` (KS distance) and
:func:`gendyn.rmt.tracy_widom_scale` (the top noise singular value).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from ... import rmt
from ...teachers import SpikeGaps, SpikeMeasurement
from .. import plotting
from ..claims import Ledger
from ..mutation import Mutation
from ..scales import RunConfig
from ..stats import dkw_bound, ks_distance, t_quantile

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "figure_theory", "figure_2a_spectra", "check_mp_bulk",
           "figure_2bc_outliers", "check_outliers", "check_edge", "figure_rank3", "check_rank3",
           "check_finite_size", "figure_finite_size"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) §3.2, Fig. 2: the teacher buried in the training data.
    """

    n1: int  #: inputs N1 (= examples) of the main measurement
    aspects: tuple[float, ...]  #: aspect ratios A = N3 / N1
    repeats: int  #: teacher and noise draws per aspect ratio and SNR
    sbar_max: float  #: largest SNR sbar of the grid
    sbar_step: float  #: step of the SNR grid
    rank3_aspects: tuple[float, ...]  #: aspect ratios of the rank-3 teacher
    finite_size_n1: tuple[int, ...]  #: sizes N1 of the finite-size check
    finite_size_repeats: int  #: draws per size of the finite-size check


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=1000,  # inputs = examples, as the authors' script
        aspects=(1.0, 0.75, 0.5, 0.25),
        repeats=10,
        sbar_max=5.0,
        sbar_step=0.05,
        rank3_aspects=(0.5, 1.0),
        finite_size_n1=(125, 250, 500, 1000),
        finite_size_repeats=10,
    ),
    "smoke": Sizes(
        n1=200,
        aspects=(1.0, 0.75, 0.5, 0.25),
        repeats=12,  # the MP law's KS distance and each point's standard error must resolve a 5-10 % error
        sbar_max=5.0,
        sbar_step=0.25,
        rank3_aspects=(0.5, 1.0),
        finite_size_n1=(50, 100, 200),
        finite_size_repeats=3,
    ),
}

# the grids the theory lines are drawn on
_S_FINE = np.linspace(0, 2.2, 800)


def _sbar_fine(sbar_max):
    return np.linspace(0, sbar_max, 600)


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"mp-bulk-A{a:g}" for a in cfg.aspects]
    ids += [f"{kind}-A{a:g}" for a in cfg.aspects for kind in ("outlier", "overlap")]
    ids += [f"edge-A{a:g}" for a in cfg.aspects]
    ids += [f"rank3-{kind}-A{a:g}-mode{m}" for a in cfg.rank3_aspects for m in (1, 2, 3) for kind in ("outlier", "overlap")]
    return ids + ["finite-size-shat", "finite-size-overlap"]


#: The theory the claims test, and the error each should see at smoke scale (N1 = 200, 12 repeats: a
#: Bonferroni t quantile of about 6 times a point's standard error of 0.003-0.02, plus 1/N1 = 0.005, against
#: 5 % of a spike of 2-6, 0.1-0.3, or of an overlap of 0.5-1, 0.025-0.05).
MUTATIONS = (
    Mutation("gendyn.rmt.spike_singular_value", 0.05, why="eq. (11): 5 % of an outlier of 2-6"),
    Mutation("gendyn.rmt.spike_overlap", 0.05, why="eq. (12): 5 % of an overlap of 0.5-1"),
    Mutation("gendyn.rmt.mp_cdf", -0.1, why="eq. (13): a CDF 10 % low is a KS distance of up to 0.1, above the "
             "DKW bound of 12 x N3 >= 600 values (0.08)"),
    Mutation("gendyn.rmt.mp_edges", 0.03, output=1, why="MP edge 1 + sqrt(A): 3 % is several TW scales"),
)


def figure_theory(aspects: tuple[float, ...], *, sbar_max: float) -> Figure:
    """The theory for each aspect ratio: the MP density (13), the outlier position (11) and the overlap (12)
    for teacher singular values up to ``sbar_max``.
    """
    sbar_fine = _sbar_fine(sbar_max)
    fig, axes = plotting.subplots(1, 3, height=2.7)
    for aspect in aspects:
        axes[0].plot(_S_FINE, rmt.mp_density(_S_FINE, aspect), label=f"$\\mathcal{{A}}$ = {aspect:g}")
        axes[1].plot(sbar_fine, rmt.spike_singular_value(sbar_fine, aspect))
        axes[2].plot(sbar_fine, rmt.spike_overlap(sbar_fine, aspect))
    axes[1].plot(sbar_fine, sbar_fine, "k:", lw=1, label="$\\hat s = \\bar s$")
    axes[0].set(xlabel="singular value $\\hat s$", ylabel="density", title="(13) noise: MP sea")
    axes[1].set(xlabel="teacher $\\bar s$", ylabel="data $\\hat s$", title="(11) outlier position")
    axes[2].set(xlabel="teacher $\\bar s$", ylabel="$\\mathcal{O}(\\bar s)$", title="(12) overlap")
    axes[0].legend()
    axes[1].legend()
    return fig


def _i_two(sbar_grid):
    """Index of the teacher nearest sbar = 2, a clearly detectable one."""
    return int(np.argmin(np.abs(sbar_grid - 2.0)))


def figure_2a_spectra(rank1: dict[float, SpikeMeasurement], sbar_grid: np.ndarray) -> Figure:
    """Fig. 2a: pooled singular values with no teacher (:math:`\\bar s = 0`, the first of ``sbar_grid``)
    and with a teacher at :math:`\\bar s = 2`, against eq. (13) (dashed) and eq. (11) (arrow).

    ``rank1`` maps each aspect ratio to its :func:`~gendyn.teachers.measure_spikes` result, spectra kept.
    """
    i_two = _i_two(sbar_grid)
    fig, axes = plotting.subplots(2, (len(rank1) + 1) // 2, height=4.8, sharex=True, sharey=True)
    for ax, aspect in zip(axes.ravel(), rank1):
        spectra = rank1[aspect].spectra
        bins = np.linspace(0, 2.6, 60)
        ax.hist(spectra[0].ravel(), bins=bins, density=True, alpha=0.5, label="$\\bar s = 0$")
        ax.hist(spectra[i_two].ravel(), bins=bins, density=True, histtype="step", lw=1.2,
                label=f"$\\bar s = {sbar_grid[i_two]:g}$")
        ax.plot(_S_FINE, rmt.mp_density(_S_FINE, aspect), "k--", lw=1, label="MP (13)")
        ax.annotate("", xy=(rmt.spike_singular_value(sbar_grid[i_two], aspect), 0.0), xytext=(0, 25),
                    textcoords="offset points", arrowprops=dict(arrowstyle="->", color="k"))
        ax.set(title=f"$\\mathcal{{A}}$ = {aspect:g}")
    for ax in axes[-1]:
        ax.set_xlabel("$\\hat s$")
    for ax in axes[:, 0]:
        ax.set_ylabel("density")
    axes[0, 0].legend(loc="upper left")
    return fig


def check_mp_bulk(ledger: Ledger, rank1: dict[float, SpikeMeasurement]) -> None:
    """Claims ``mp-bulk-A*``: the pure-noise spectrum (first teacher, :math:`\\bar s = 0`) of each aspect ratio
    follows the MP law (13) within the DKW bound at level 1e-3 (``rank1`` as in :func:`figure_2a_spectra`).
    """
    for aspect in rank1:
        noise = rank1[aspect].spectra[0].ravel()
        ledger.check(
            f"mp-bulk-A{aspect:g}",
            f"KS distance of the pure-noise spectrum from the MP law (13), A = {aspect:g}",
            measured=ks_distance(noise, lambda v: rmt.mp_cdf(v, aspect)), predicted=0.0,
            tolerance=dkw_bound(noise.size), kind="upper", theory="gendyn.rmt.mp_cdf", reference=1.0,
            reason=f"DKW bound at 99.9% for n = {noise.size} independent samples; eigenvalue repulsion makes "
            "it conservative for a spectrum; finite-size corrections O(ln N3/N3) are smaller.",
        )


def figure_2bc_outliers(rank1: dict[float, SpikeMeasurement], sbar_grid: np.ndarray, *, sbar_max: float) -> Figure:
    """Fig. 2b, 2c: top data singular value and its overlap against :math:`\\bar s`, mean and one standard
    deviation over repeats, with eqs. (11)-(12) and the detection threshold :math:`\\mathcal A^{1/4}` (dotted).
    """
    sbar_fine = _sbar_fine(sbar_max)
    fig, axes = plotting.subplots(1, 2, height=3.3)
    for k, aspect in enumerate(rank1):
        color = plotting.COLORS[k]
        shat, overlap = rank1[aspect].shat[:, :, 0], rank1[aspect].overlap[:, :, 0]
        for ax, data, theory in ((axes[0], shat, rmt.spike_singular_value),
                                 (axes[1], overlap, rmt.spike_overlap)):
            ax.errorbar(sbar_grid, data.mean(1), yerr=data.std(1), fmt="o", ms=2.5, color=color,
                        alpha=0.6, lw=0.8)
            ax.plot(sbar_fine, theory(sbar_fine, aspect), color=color,
                    label=f"$\\mathcal{{A}}$ = {aspect:g}")
            ax.axvline(rmt.detection_threshold(aspect), color=color, ls=":", lw=1)
    axes[0].plot(sbar_fine, sbar_fine, "k:", lw=1)
    axes[0].set(xlabel="teacher $\\bar s$", ylabel="top data singular value $\\hat s$",
                title="(b) eq. (11)")
    axes[1].set(xlabel="teacher $\\bar s$", ylabel="$|\\hat u\\cdot\\bar u|\\,|\\hat v\\cdot\\bar v|$",
                title="(c) eq. (12)")
    axes[0].legend()
    return fig


def _far_region_claim(ledger: Ledger, claim_id: str, statement: str, data: np.ndarray,
                      theory: Callable[[np.ndarray, float], np.ndarray], sbar: np.ndarray, aspect: float,
                      n1: int) -> None:
    """Largest deviation of the mean over repeats from theory above 2 A^(1/4), in units of each point's tolerance."""
    far = sbar >= 2 * rmt.detection_threshold(aspect)
    repeats = data.shape[1]
    predicted = theory(sbar, aspect)[far]
    deviation = np.abs(data.mean(1)[far] - predicted)
    std_error = np.sqrt(data.var(1, ddof=1)[far] / repeats)
    t = t_quantile(far.sum(), repeats - 1)
    tol = t * std_error + 1 / n1
    ledger.check(
        claim_id, statement + " (largest gap over the points, in units of each point's tolerance)",
        measured=float(np.max(deviation / tol)), predicted=0.0, tolerance=1.0, kind="upper",
        theory=f"gendyn.rmt.{theory.__name__}", reference=float(np.max(np.abs(predicted) / tol)),
        reason=f"Per point: Student-t quantile {t:.2f} ({repeats - 1} dof, Bonferroni over {far.sum()} points, "
        f"level 1e-3) x its standard error over {repeats} repeats ({std_error.min():.2g}-{std_error.max():.2g}) "
        "+ 1/N1 finite-size bias.",
    )


def check_outliers(ledger: Ledger, rank1: dict[float, SpikeMeasurement], sbar_grid: np.ndarray, *, n1: int) -> None:
    """Claims ``outlier-A*``, ``overlap-A*``: far above threshold (:math:`\\bar s \\ge 2\\mathcal A^{1/4}`) the mean
    outlier and overlap agree with (11)-(12) at every point within a Bonferroni Student-:math:`t` quantile times
    the point's standard error plus :math:`1/\\bar N_1` (``n1``, the number of inputs).
    """
    for aspect in rank1:
        shat, overlap = rank1[aspect].shat[:, :, 0], rank1[aspect].overlap[:, :, 0]
        _far_region_claim(ledger, f"outlier-A{aspect:g}",
                          f"Top data singular value vs eq. (11), sbar >= 2 A^(1/4), A = {aspect:g}",
                          shat, rmt.spike_singular_value, sbar_grid, aspect, n1)
        _far_region_claim(ledger, f"overlap-A{aspect:g}",
                          f"Singular-vector overlap vs eq. (12), sbar >= 2 A^(1/4), A = {aspect:g}",
                          overlap, rmt.spike_overlap, sbar_grid, aspect, n1)


def check_edge(ledger: Ledger, rank1: dict[float, SpikeMeasurement], sbar_grid: np.ndarray, *, n1: int) -> None:
    """Claims ``edge-A*``: below threshold (:math:`\\bar s \\le \\mathcal A^{1/4}/2`) the top singular value sits at
    the MP edge :math:`1 + \\sqrt{\\mathcal A}`, within the TW1 mean plus 3 standard errors on the Tracy-Widom scale.
    """
    for aspect in rank1:
        below = sbar_grid <= rmt.detection_threshold(aspect) / 2
        top = rank1[aspect].shat[below, :, 0].ravel()
        sigma_tw = rmt.tracy_widom_scale(aspect, n1)
        ledger.check(
            f"edge-A{aspect:g}",
            f"Top data singular value below threshold (sbar <= A^(1/4)/2) at the MP edge 1 + sqrt(A), "
            f"A = {aspect:g}",
            measured=top.mean(), predicted=rmt.mp_edges(aspect)[1],
            tolerance=(-rmt.TW1_MEAN + 3 * rmt.TW1_SD / np.sqrt(top.size)) * sigma_tw, kind="absolute",
            theory="gendyn.rmt.mp_edges",
            reason=f"Tracy-Widom scale sigma_N = {sigma_tw:.2g}: |TW1 mean| + 3 standard errors of {top.size} draws.",
        )


def figure_rank3(rank3: dict[float, SpikeMeasurement], sbar_grid: np.ndarray, fractions: np.ndarray, *,
                 sbar_max: float) -> Figure:
    """Rank-3 teachers :math:`\\bar s\\cdot` ``fractions``: each mode's mean outlier and overlap against its own
    teacher singular value, with the rank-1 theory (11)-(12) of each aspect ratio.
    """
    sbar_fine = _sbar_fine(sbar_max)
    fig, axes = plotting.subplots(1, 2, height=3.8)
    for k, aspect in enumerate(rank3):
        for mode, frac in enumerate(fractions):
            sbar_mode = sbar_grid * frac
            color = plotting.COLORS[mode]
            marker = "o^"[k]
            axes[0].plot(sbar_mode, rank3[aspect].shat[:, :, mode].mean(1), marker, ms=2.5,
                         color=color, alpha=0.6)
            label = f"mode {mode + 1}, $\\mathcal{{A}}$ = {aspect:g}"
            axes[1].plot(sbar_mode, rank3[aspect].overlap[:, :, mode].mean(1), marker, ms=2.5,
                         color=color, alpha=0.6, label=label)
        style = "k-" if k == 0 else "k--"
        axes[0].plot(sbar_fine, rmt.spike_singular_value(sbar_fine, aspect), style, lw=1)
        axes[1].plot(sbar_fine, rmt.spike_overlap(sbar_fine, aspect), style, lw=1,
                     label=f"rank-1 theory, $\\mathcal{{A}}$ = {aspect:g}")
    axes[0].set(xlabel="teacher singular value of the mode", ylabel="$\\hat s$", title="outliers")
    axes[1].set(xlabel="teacher singular value of the mode", ylabel="$\\mathcal{O}$", title="overlaps")
    fig.legend(*axes[1].get_legend_handles_labels(), loc="lower center", ncol=4, markerscale=1.5, fontsize=7)
    return fig


def check_rank3(ledger: Ledger, rank3: dict[float, SpikeMeasurement], sbar_grid: np.ndarray, fractions: np.ndarray, *,
                n1: int) -> None:
    """Claims ``rank3-*``: each mode of a rank-3 teacher follows (11)-(12) on its own, far above threshold,
    with the tolerance of :func:`check_outliers`.
    """
    for aspect in rank3:
        for mode, frac in enumerate(fractions):
            shat, overlap = rank3[aspect].shat[:, :, mode], rank3[aspect].overlap[:, :, mode]
            _far_region_claim(ledger, f"rank3-outlier-A{aspect:g}-mode{mode + 1}",
                              f"Rank-3 teacher, mode {mode + 1}: data singular value vs eq. (11), A = {aspect:g}",
                              shat, rmt.spike_singular_value, sbar_grid * frac, aspect, n1)
            _far_region_claim(ledger, f"rank3-overlap-A{aspect:g}-mode{mode + 1}",
                              f"Rank-3 teacher, mode {mode + 1}: overlap vs eq. (12), A = {aspect:g}",
                              overlap, rmt.spike_overlap, sbar_grid * frac, aspect, n1)


def check_finite_size(ledger: Ledger, gaps: SpikeGaps, *, aspect: float) -> None:
    """Claims ``finite-size-*``: the gaps of :func:`gendyn.teachers.spike_gaps` (at ``aspect``) shrink at least
    as :math:`\\bar N_1^{-1/3}`; the exponent is a least-squares fit in log-log through the sizes, and 0.1
    allows for its error.
    """
    for name in ("shat", "overlap"):
        ledger.check(
            f"finite-size-{name}",
            f"Mean gap to eq. ({11 if name == 'shat' else 12}) over the sbar grid shrinks with N1 at "
            f"least as N1^(-1/3) (fitted exponent), A = {aspect:g}",
            measured=gaps.exponent(name), predicted=-1 / 3, tolerance=0.1, kind="upper",
            theory=f"gendyn.rmt.{'spike_singular_value' if name == 'shat' else 'spike_overlap'}",
            reason="Transition window closes as N1^(-1/3), elsewhere N1^(-1/2) or faster; 0.1 allows "
            f"for the fit error of {len(gaps.n_ins)} points.",
        )


def figure_finite_size(gaps: SpikeGaps, *, aspect: float) -> Figure:
    """The finite-size check: gaps of :func:`gendyn.teachers.spike_gaps` against :math:`\\bar N_1`, with their
    fitted exponents and a reference :math:`\\propto N_1^{-1/3}`.
    """
    n1s = gaps.n_ins
    fig, ax = plotting.subplots(1, 1, height=3.9, width=4.8)
    labels = {"shat": "outlier $\\hat s$, eq. (11)", "overlap": "overlap $\\mathcal{O}$, eq. (12)"}
    for name, label in labels.items():
        ax.loglog(n1s, getattr(gaps, name), "o-", label=f"{label}: slope {gaps.exponent(name):.2f}")
    reference = gaps.shat[0] * (n1s / n1s[0]) ** (-1 / 3)
    ax.loglog(n1s, reference, "k:", lw=1, label="$\\propto N_1^{-1/3}$")
    ax.set_xticks(n1s, [f"{n:g}" for n in n1s])  # the sizes run, as plain numbers
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set(xlabel="$\\bar N_1$", ylabel="mean |experiment − theory|",
           title=f"finite size, $\\mathcal{{A}}$ = {aspect:g}")
    # below the axes: no corner is free of data at every scale
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    return fig
