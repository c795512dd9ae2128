"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/rmt-teacher-in-data.md``.

Lampinen & Ganguli §3.2 and Fig. 2: the spectra, outliers and singular-vector overlaps of noisy low-rank
teachers against the Marchenko-Pastur law (13), the outlier position (11) and the overlap (12). The
chapter itself holds its protocol, figures and claims; this module holds what the pipeline reads before
the chapter runs: its sizes at each scale, the ids of its claims and the theory each claim should notice
when perturbed (the measurements are :func:`gendyn.teachers.measure_spikes` and
:func:`gendyn.teachers.spike_gaps`, the theory :mod:`gendyn.rmt`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


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
