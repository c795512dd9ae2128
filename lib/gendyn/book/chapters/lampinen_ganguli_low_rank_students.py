"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/low-rank-students.md``.

Lampinen & Ganguli (2019), App. H and Fig. 14: TA and random students whose hidden layer is narrower
than their output layer learn rank-1 teachers. The chapter itself holds its protocol, figures and
claims; this module holds what the pipeline reads before the chapter runs: its sizes at each scale,
the ids of its claims and the theory each claim should notice when perturbed (the students are
trained by :func:`gendyn.train.train_paired_curves`, the theory is :mod:`gendyn.deep_linear`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "MC_DRAWS", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) App. H, Fig. 14: students of lower rank, N1 = N3 = 100.
    """

    n1: int  #: inputs N1
    n3: int  #: outputs N3
    student_ranks: tuple[int, ...]  #: hidden units N2 (the rank) of the students
    svms: tuple[float, ...]  #: singular values (SNRs) of the rank-1 teachers
    runs: int  #: data sets per SNR
    lr: float  #: learning rate
    horizon: float  #: training time t / tau (epochs = horizon / lr)
    n_records: int  #: recorded epochs


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, n3=100, student_ranks=(100, 50, 20, 10, 5), svms=(1.5, 2.0, 3.0, 4.0, 6.0, 8.0),
        runs=10, lr=1e-2, horizon=10.0, n_records=150,
    ),
    "smoke": Sizes(
        n1=30, n3=30, student_ranks=(30, 10, 5), svms=(2.0, 6.0),
        runs=16,  # the optimum claims must resolve a 30 % error of eq. (15) (4 runs: 88 %)
        lr=1e-2, horizon=10.0, n_records=100,
    ),
}

#: Fresh data sets per SNR for the finite-size expectation of the exact TA theory (a size the floor count reads too).
MC_DRAWS = 100


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["ta-exact-train", "ta-exact-test", "optimum-error", "optimum-time", "rank-effect-on-optimum-TA",
            "rank-effect-on-optimum-random", "alignment-lag", "lag-grows-as-rank-falls", "literal-r-in-rejected"]


#: The theory the claims test, and the error each should see at smoke scale: the optimum claims resolve
#: about 10-20 % (4 runs, N3 = 30), the exact TA curves a few per cent in log10.
MUTATIONS = (
    Mutation("gendyn.deep_linear.optimal_early_stopping", 0.3, why="eq. (15): 30 % of the optimum"),
    Mutation("gendyn.deep_linear.sampled_ta_errors", 0.2, why="eqs. (6)-(7) on the data: 20 % of the errors"),
    Mutation("gendyn.deep_linear.sampled_ta_errors", 1.0,
             why="the test-error claim allows the GD delay's effect, up to 0.2 in log10 at smoke: twice the error"),
)
