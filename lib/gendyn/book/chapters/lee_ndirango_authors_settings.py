"""Sizes and claim set of the chapter ``notebooks/lee-ndirango/authors-settings.md``.

Lee & Ndirango, rank-10 file (Figs. 2, A1): which unrecorded settings (input dimension,
``--clean_validation``, trunk, epochs and learning rate) produced the published runs, fitted to the
pre-registered calibration cells (:data:`gendyn.settings_inference.CALIBRATION`) and tested on the
held-out cells. The chapter itself holds its protocol, figures and claims; this module holds what the
pipeline reads before the chapter runs: its sizes at each scale, the larger search :data:`WIDE` and the
ids of its claims (the search is :func:`gendyn.settings_inference.setting_grid` and
:func:`~gendyn.settings_inference.simulate_settings`, the fit
:func:`~gendyn.settings_inference.calibration_fit`, the label-entropy floor
:func:`~gendyn.settings_inference.label_floor`; no claim names a theory function, so no mutations).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn import settings_inference as si
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "WIDE", "claim_ids", "MUTATIONS"]

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

