"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/randomised-data.md``.

Lampinen & Ganguli §3.6, Fig. 6: structured training sets and their randomised versions learned by
deep linear students, also in the authors' own setting (rank 3, random initialisation). The chapter
itself holds its protocol, figures and claims; this module holds what the pipeline reads before the
chapter runs: its sizes at each scale, the ids of its claims and the theory each claim should notice
when perturbed (the teachers' :math:`\\sigma_r` is :func:`gendyn.randomised.randomised_scale`, the
theory curves and predicted learning times :func:`~gendyn.randomised.learning_curves` and
:func:`~gendyn.randomised.learning_times`, the experiment :func:`~gendyn.randomised.train_randomised`;
the Marchenko-Pastur law :mod:`gendyn.rmt`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


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

