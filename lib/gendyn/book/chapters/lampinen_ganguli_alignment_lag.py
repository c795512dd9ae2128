"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/alignment-lag.md``.

Lampinen & Ganguli §3.4, App. B and Fig. 9: TA and random students of one and three hidden layers
learn the same data sets; the random students' modes align with the data's and grow, and their optimal
stopping time lags behind the TA students'. The chapter itself holds its protocol, figures and claims;
this module holds what the pipeline reads before the chapter runs: its sizes at each scale, the ids of
its claims and the theory each claim should notice when perturbed (none: the claims are findings). The
students are trained by :func:`gendyn.train.train_ta_and_random`, their times read off by
:meth:`~gendyn.train.PairedStudents.crossings` and :meth:`~gendyn.train.PairedStudents.optimal_stopping`;
the exact TA theory is :func:`gendyn.deep_linear.sampled_ta_errors`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) App. B, Fig. 9: alignment lag of random students.
    """

    n1: int  #: inputs N1
    n2: int  #: hidden units N2
    n3: int  #: outputs N3
    svm: float  #: teacher singular value (SNR)
    ranks: tuple[int, ...]  #: teacher ranks
    runs: int  #: data sets per rank
    depths: tuple[int, ...]  #: network depths
    lrs: tuple[float, ...]  #: learning rate of each depth
    horizons: tuple[float, ...]  #: training time of each depth
    n_records: int  #: recorded epochs (log grid)
    side_lr: float  #: second learning rate of the deepest network


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, n2=50, n3=50, svm=2.0, ranks=(1, 3), runs=10,
        depths=(3, 5), lrs=(1e-3, 2e-2), horizons=(10.0, 150.0), n_records=200,
        side_lr=1e-3,  # the authors' rate, for a side-by-side of the deep students
    ),
    "smoke": Sizes(
        n1=40, n2=20, n3=20, svm=2.0, ranks=(1, 3), runs=4,
        depths=(3, 5), lrs=(5e-3, 2e-2), horizons=(10.0, 150.0), n_records=150,
        side_lr=5e-3,
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ([f"stronger-aligns-first-N{d}" for d in cfg.depths] + [f"rank-independent-N{d}" for d in cfg.depths]
            + ["deep-aligns-late"] + [f"lag-grows-with-depth-rank{r}" for r in cfg.ranks]
            + [f"minimum-independent-of-depth-rank{r}" for r in cfg.ranks] + ["authors-lr-side-by-side"])


#: No claim of this chapter is an agreement with a theory function: its claims are App. B's orderings and
#: signs, and a paired difference of minima against the exact theory of the same data sets, a finding: a
#: relative error of the theory moves both depths' minima alike and barely changes their difference.
MUTATIONS = ()
