"""Sizes, figures and claims of the chapter "Randomised versus structured data: a learning-time puzzle".

Serves ``notebooks/lampinen-ganguli/randomised-data.md`` (Lampinen & Ganguli §3.6, Fig. 6), which shows
its protocol itself: the teachers and their :math:`\\sigma_r` (:func:`gendyn.randomised.randomised_scale`),
the theory curves and predicted learning times (:func:`gendyn.randomised.learning_curves`,
:func:`gendyn.randomised.learning_times`) and the experiment, structured training sets and their randomised
versions learned by students (:func:`gendyn.randomised.train_randomised`), also in the authors' own setting
(rank 3, random initialisation). This module holds the chapter's sizes, one ``figure_*`` function per
figure and one ``check_*`` function per group of claims.

A *setting* is a pair ``(rank, svm)``; the figures take dicts keyed by setting.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ... import deep_linear, randomised, rmt
from ...randomised import LearningCurves, LearningTimes
from .. import plotting
from ..claims import Ledger
from ..mutation import Mutation
from ..scales import RunConfig
from ..stats import dkw_bound, ks_distance, z_quantile

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "figure_theory", "spectra_panel", "figure_6a_spectra",
           "check_stretched_mp", "figure_6b_learning_curves", "check_delays", "figure_delay",
           "check_authors_setting", "figure_authors_setting"]

Setting = tuple[int, float]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) §3.6, Fig. 6: randomised vs structured data.
    """

    n1: int  #: inputs N1
    n2: int  #: hidden units N2
    n3: int  #: outputs N3
    svms: tuple[float, ...]  #: teacher singular values (SNRs)
    runs: int  #: data sets per teacher
    lr: float  #: learning rate
    horizon: float  #: training time t / tau
    n_records: int  #: recorded epochs


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, n2=50, n3=50, svms=(2.0, 4.0, 8.0), runs=10,  # rank-1 and rank-3 teachers
        lr=1e-2, horizon=10.0, n_records=300,
    ),
    "smoke": Sizes(
        n1=40, n2=20, n3=20, svms=(2.0, 4.0, 8.0), runs=6,
        lr=1e-2, horizon=10.0, n_records=200,
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    settings = [(rank, svm) for rank in (1, 3) for svm in cfg.svms]
    return ([f"stretched-mp-rank{r}-svm{v:g}" for r, v in settings]
            + [f"delay-ratio-rank{r}-svm{v:g}" for r, v in settings]
            + ["randomised-learned-later-every-run", "authors-randomised-learned-later-every-run",
               "authors-random-students-lag-every-run", "authors-stretched-mp"])


#: The theory the claims test, and the error each should see at smoke scale (N1 = 40, N3 = 20, 6 runs).
MUTATIONS = (
    Mutation("gendyn.rmt.mp_cdf", -0.3,
             why="eq. (13) for the randomised spectra: only 6 x 20 singular values per teacher, a DKW bound of "
             "0.18, so a CDF 30 % low (a KS distance up to 0.3) is the smallest error seen at smoke scale"),
    Mutation("gendyn.randomised.randomised_scale", 0.3,
             why="sigma_r sets the randomised edge, and the learning time is inversely proportional to it; 6 runs "
             "at N1 = 40 resolve a delay ratio to 10-25 % (z SE + the relative TW allowance of 6 %), so 30 %"),
)


def figure_theory(t: np.ndarray, curves: dict[Setting, LearningCurves], sbar: dict[Setting, np.ndarray],
                  scale_r: dict[Setting, float], *, aspect: float, eps: float) -> Figure:
    """The theory for some of the teachers: training error of structured (eq. 14) and randomised data,
    and the half-learning time (9) against the data singular value, with each teacher's outlier
    :math:`\\hat s_1` (solid) and the edge of its stretched sea (dashed) marked.
    """
    settings = list(curves)
    fig, axes = plotting.subplots(1, 2, height=3.6)
    for k, st in enumerate(settings[:: max(1, len(settings) // 4)]):
        color = plotting.COLORS[k]
        axes[0].plot(t, curves[st].structured, color=color, label=f"rank {st[0]}, svm {st[1]:g}")
        axes[0].plot(t, curves[st].randomised, "--", color=color)
        axes[1].axvline(float(rmt.spike_singular_value(sbar[st], aspect).max()), color=color, lw=1)
        axes[1].axvline(scale_r[st] * (1 + np.sqrt(aspect)), color=color, ls="--", lw=1)
    axes[0].set(xscale="log", xlabel="$t/\\tau$", ylabel="training error (theory)", title="eq. (14)")
    s_grid = np.geomspace(0.5, 30, 300)
    axes[1].plot(s_grid, deep_linear.mode_time(s_grid / 2, s_grid, eps), "k-", lw=1.2)
    axes[1].set(xscale="log", yscale="log", xlabel="data singular value $\\hat s$",
                ylabel="half-learning time $t/\\tau$ (9)", title="when a mode is learned")
    handles, labels = axes[0].get_legend_handles_labels()
    handles += [plt.Line2D([], [], color="k"), plt.Line2D([], [], color="k", ls="--")]
    labels += ["structured", "randomised"]
    fig.legend(handles, labels, loc="lower center", ncol=4)
    return fig


def spectra_panel(ax: Axes, structured_svals: np.ndarray, randomised_svals: np.ndarray, teacher_svals: np.ndarray,
                  *, aspect: float, n3: int, n_bins: int = 80) -> float:
    """Draw pooled singular values of structured and randomised data with eq. (13), the stretched law
    and arrows at the outliers of eq. (11); returns :math:`\\sigma_r` of the teacher.
    """
    top = max(structured_svals.max(), 1)
    bins = np.linspace(0, 1.05 * top, n_bins)
    ax.hist(structured_svals.ravel(), bins=bins, density=True, alpha=0.5, label="structured")
    ax.hist(randomised_svals.ravel(), bins=bins, density=True, histtype="step", lw=1.3, label="randomised")
    fine = np.linspace(0, 1.05 * top, 600)
    scale = float(randomised.randomised_scale(teacher_svals, n3))
    ax.plot(fine, rmt.mp_density(fine, aspect), "k:", lw=1, label="MP (13)")
    ax.plot(fine, randomised.stretched_mp_density(fine, aspect, scale), "k--", lw=1,
            label="MP stretched by $\\sigma_r$")
    for shat in rmt.spike_singular_value(teacher_svals, aspect):
        ax.annotate("", xy=(shat, 0), xycoords=("data", "axes fraction"), xytext=(0, 22),
                    textcoords="offset points", arrowprops=dict(arrowstyle="->"))
    ax.set(xlabel="singular value of $\\Sigma^{31}$", ylabel="density", yscale="log", ylim=(1e-3, 5))
    ax.legend(fontsize=7)
    return scale


def figure_6a_spectra(data_svals: np.ndarray, sbar: dict[Setting, np.ndarray], scale_r: dict[Setting, float],
                      *, aspect: float, n3: int) -> Figure:
    """Fig. 6a: the spectra of structured and randomised data (``data_svals``, kind x setting x run x value,
    settings in the order of ``sbar``) for the rank-1 teacher of the largest and the rank-3 teacher of the
    smallest SNR multiplier.
    """
    settings = list(sbar)
    svms = [st[1] for st in settings]
    fig, axes = plotting.subplots(1, 2, height=3.2)
    for ax, i in zip(axes, [settings.index((1, max(svms))), settings.index((3, min(svms)))]):
        st = settings[i]
        spectra_panel(ax, data_svals[0, i], data_svals[1, i], sbar[st], aspect=aspect, n3=n3)
        ax.set_title(f"rank {st[0]}, svm {st[1]:g}: $\\sigma_r$ = {scale_r[st]:.2f}")
    return fig


def _check_stretched_mp(ledger, claim_id, what, randomised_svals, aspect, n3):
    """KS distance of each randomised set's singular values, over its own sigma_r, from eq. (13)."""
    run_sigma = np.sqrt((randomised_svals**2).sum(-1, keepdims=True) / n3)  # sigma_r of each set
    x = (randomised_svals / run_sigma).ravel()
    ledger.check(
        claim_id, f"Randomised data, {what}: KS distance of shat/sigma_r from the MP law (13)",
        measured=ks_distance(x, lambda v: rmt.mp_cdf(v, aspect)), predicted=0.0,
        tolerance=dkw_bound(x.size), kind="upper", theory="gendyn.rmt.mp_cdf", reference=1.0,
        reason=f"DKW bound at 99.9% for n = {x.size} independent samples; conservative for eigenvalues.",
    )


def check_stretched_mp(ledger: Ledger, settings: list[Setting], randomised_svals: np.ndarray, *, aspect: float,
                       n3: int) -> None:
    """Claims ``stretched-mp-*``: for each teacher the randomised spectra (setting x run x value), each over its
    own :math:`\\sigma_r`, follow the MP law (13) within the Dvoretzky-Kiefer-Wolfowitz bound.
    """
    for i, st in enumerate(settings):
        _check_stretched_mp(ledger, f"stretched-mp-rank{st[0]}-svm{st[1]:g}", f"rank-{st[0]} teacher, svm {st[1]:g}",
                            randomised_svals[i], aspect, n3)


def figure_6b_learning_curves(time: np.ndarray, train_error: np.ndarray, t: np.ndarray,
                              curves: dict[Setting, LearningCurves]) -> Figure:
    """Fig. 6b: training error (``train_error``, kind x setting x run x time, settings in the order of
    ``curves``) of structured (dots) and randomised (squares) data, mean over runs, with eq. (14) and its
    randomised form on ``t`` (lines); one panel per teacher rank.
    """
    settings = list(curves)
    svms = list(dict.fromkeys(st[1] for st in settings))
    fig, axes = plotting.subplots(1, 2, height=3.4, sharey=True)
    for ax, rank in zip(axes, (1, 3)):
        for k, svm in enumerate(svms):
            i = settings.index((rank, svm))
            color = plotting.COLORS[k]
            ax.plot(time[1:], train_error[0, i].mean(0)[1:], "o", ms=2, color=color, alpha=0.6)
            ax.plot(time[1:], train_error[1, i].mean(0)[1:], "s", ms=2, color=color, alpha=0.6, mfc="none")
            ax.plot(t, curves[(rank, svm)].structured, color=color, lw=1, label=f"svm {svm:g}: structured")
            ax.plot(t, curves[(rank, svm)].randomised, "--", color=color, lw=1, label=f"svm {svm:g}: randomised")
        ax.axhline(0.9, color="gray", lw=0.6)
        ax.set(xscale="log", xlabel="$t/\\tau$", title=f"rank-{rank} teacher")
        ax.legend(fontsize=7, loc="lower left")
    axes[0].set_ylabel("training error")
    return fig


def check_delays(ledger: Ledger, predicted: dict[Setting, LearningTimes], t09: np.ndarray, *, aspect: float,
                 n1: int) -> None:
    """Claims: the delay ratio :math:`t_{0.9}^{\\rm rand}/t_{0.9}^{\\rm struct}` agrees with theory for each teacher
    (``predicted``, in the order of ``t09``'s settings), and every run learns its randomised set later
    (``t09``: kind x setting x run).

    Tolerance: Bonferroni :math:`z` times the standard error over runs plus a relative finite-size
    allowance, the Tracy-Widom scale of the edge relative to the edge plus :math:`1/\\bar N_1`, of the
    measured ratio (so that it does not grow with the theory it tests).
    """
    settings = list(predicted)
    ratio = t09[1] / t09[0]
    runs = ratio.shape[1]
    z = z_quantile(len(settings))
    rel_fs = rmt.tracy_widom_scale(aspect, n1) / (1 + np.sqrt(aspect)) + 1 / n1
    for i, st in enumerate(settings):
        m, se = ratio[i].mean(), ratio[i].std(ddof=1) / np.sqrt(runs)
        ledger.check(
            f"delay-ratio-rank{st[0]}-svm{st[1]:g}",
            f"Rank-{st[0]} teacher, svm {st[1]:g}: t_0.9(randomised) / t_0.9(structured)",
            measured=m, predicted=predicted[st].ratio, tolerance=z * se + m * rel_fs, kind="absolute",
            theory=("gendyn.randomised.randomised_scale", "gendyn.randomised.randomised_train_error"),
            reason=f"z = {z:.2f} (Bonferroni, level 1e-3) x standard error over {runs} runs + relative "
            f"finite-size allowance {rel_fs:.3f}: the Tracy-Widom scale of the edge relative to the "
            "edge, plus 1/N1 for the outliers.",
        )
    ledger.check(
        "randomised-learned-later-every-run",
        "Fraction of (teacher, run) pairs whose randomised set reaches training error 0.9 later than "
        "its structured set",
        measured=np.mean(t09[1] > t09[0]), predicted=1.0, tolerance=0.0, kind="lower", category="finding",
        reason="The predicted delays exceed the run-to-run spread of t_0.9 at every teacher; no "
        "exception is allowed. A finding (the paper's statement, run by run).",
    )


def figure_delay(predicted: dict[Setting, LearningTimes], ratio: np.ndarray) -> Figure:
    """Measured (``ratio``, setting x run, settings in the order of ``predicted``) against predicted delay
    ratios, mean and standard error over runs, per teacher rank.
    """
    settings = list(predicted)
    runs = ratio.shape[1]
    fig, ax = plotting.subplots(1, 1, height=3.4, width=4.8)
    for rank, marker in ((1, "o"), (3, "s")):
        idx = [i for i, st in enumerate(settings) if st[0] == rank]
        ax.errorbar([predicted[settings[i]].ratio for i in idx], ratio[idx].mean(1),
                    yerr=ratio[idx].std(1, ddof=1) / np.sqrt(runs), fmt=marker, label=f"rank-{rank} teachers")
    lim = np.array([0.9, 1.1 * max(ratio.mean(1).max(), 1.5)])
    ax.plot(lim, lim, "k:", lw=1)
    ax.set(xlabel="predicted delay ratio (theory + gd_lag)",
           ylabel="measured $t_{0.9}^{rand} / t_{0.9}^{struct}$",
           title="randomised data is learned later")
    ax.legend()
    return fig


def check_authors_setting(ledger: Ledger, t09: np.ndarray, randomised_svals: np.ndarray, *, rank: int, svm: float,
                          aspect: float, n3: int) -> None:
    """Claims in the authors' setting (``t09``: init (random, TA) x data x run; ``randomised_svals``: run x
    value): every student learns its randomised set later, every random student lags its TA twin, and the
    randomised spectra follow the stretched MP law.
    """
    ledger.check(
        "authors-randomised-learned-later-every-run",
        f"Rank-{rank} teacher, svm {svm:g}, random and TA students: fraction of runs that reach "
        "training error 0.9 later on the randomised set than on the structured set",
        measured=np.mean(t09[:, 1] > t09[:, 0]), predicted=1.0, tolerance=0.0,
        kind="lower", category="finding",
        reason="The paper's statement in the authors' setting; no exception is allowed.",
    )
    ledger.check(
        "authors-random-students-lag-every-run",
        "Fraction of (data set, structured or randomised) pairs where the random student reaches "
        "training error 0.9 later than the TA student",
        measured=np.mean(t09[0] > t09[1]), predicted=1.0, tolerance=0.0, kind="lower",
        category="finding", reason="Random students must align with the data's modes before learning them (App. B).",
    )
    _check_stretched_mp(ledger, "authors-stretched-mp", f"rank-{rank} teacher, svm {svm:g}", randomised_svals,
                        aspect, n3)


def figure_authors_setting(time: np.ndarray, train_error: np.ndarray, data_svals: np.ndarray,
                           teacher_svals: np.ndarray, t: np.ndarray, curves: LearningCurves, *, aspect: float,
                           n3: int) -> Figure:
    """Fig. 6 in the authors' setting: (a) the spectra (``data_svals``: data x run x value), (b) training curves
    (``train_error``: init (random, TA) x data x run x time) of random and TA students, mean over runs, with the
    TA theory ``curves`` on ``t``.
    """
    fig, axes = plotting.subplots(1, 2, height=3.4)
    spectra_panel(axes[0], data_svals[0], data_svals[1], teacher_svals, aspect=aspect, n3=n3, n_bins=90)
    axes[0].set_title("(a) spectra")
    for j, (label, color) in enumerate((("structured", plotting.COLORS[0]), ("randomised", plotting.COLORS[1]))):
        axes[1].plot(time[1:], train_error[1, j].mean(0)[1:], "s", ms=4, color=color, mfc="none",
                     alpha=0.6, markevery=3, label=f"{label}: TA students")
        axes[1].plot(time[1:], train_error[0, j].mean(0)[1:], "o", ms=1.5, color=color,
                     label=f"{label}: random students")
        axes[1].plot(t, curves[j], color=color, lw=1, label=f"{label}: TA theory")
    axes[1].axhline(0.9, color="gray", lw=0.6)
    axes[1].set(xscale="log", xlabel="$t/\\tau$", ylabel="training error", title="(b) learning curves")
    fig.legend(*axes[1].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=7)
    return fig
