"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/non-gradient-algorithm.md``.

Lampinen & Ganguli §3.7, App. E and Fig. 11: the optimal singular-value shrinkage estimator against
optimal early stopping of gradient descent, in theory (eqs. 15-16), on the same data sets (rank-1 and
rank-3 teachers, TA and random students), and at growing :math:`\\bar N_1` (finite size). The chapter
itself holds its protocol, figures and claims; this module holds what the pipeline reads before the
chapter runs: its sizes at each scale, the ids of its claims and the theory each claim should notice
when perturbed (the experiments are :func:`gendyn.shrinkage.compare_algorithms` and
:func:`~gendyn.shrinkage.sampled_shrinkage`, the theory :func:`gendyn.shrinkage.optimal_errors`, eq. (16)
:func:`~gendyn.shrinkage.nongradient_optimal_error` and :func:`gendyn.rmt.spike_overlap`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.teachers import PROFILES

__all__ = ["Sizes", "SIZES", "CLEAR_OF_TRANSITION", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) §3.7 and App. E, Fig. 11: optimal shrinkage vs early stopping.
    """

    n1: int  #: inputs N1
    n2: int  #: hidden units N2
    n3: int  #: outputs N3
    svms: tuple[float, ...]  #: teacher singular values (SNRs)
    runs: int  #: data sets per SNR
    lr: float  #: learning rate
    horizon: float  #: training time t / tau
    n_records: int  #: recorded times
    finite_size_n1: tuple[int, ...]  #: sizes N1 of the finite-size exponents
    finite_size_runs: int  #: data sets per size of the finite-size exponents


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, n2=50, n3=50, svms=(0.84, 2.0, 4.0, 6.0, 8.0), runs=10,
        lr=1e-2, horizon=10.0, n_records=300,  # the authors' horizon (10,000 epochs at 1e-3)
        finite_size_n1=(100, 200, 400, 800), finite_size_runs=400,  # 3 SE of the exponents: 0.07-0.2
    ),
    # 64 runs: at N1 = 40 finite size shrinks the rank-3 advantage at svm = 2 to about 4.5 standard errors of
    # 30 runs, which the strict-advantage test found at 3 of seeds 0-3 only; 64 runs give about 6.6
    "smoke": Sizes(
        n1=40, n2=20, n3=20, svms=(0.84, 2.0, 4.0, 6.0, 8.0), runs=64,
        lr=1e-2, horizon=10.0, n_records=200,
        finite_size_n1=(50, 100, 200, 400), finite_size_runs=120,
    ),
}


#: The SNR multipliers from which a teacher's modes are all clear of the detection transition: the claims on
#: the estimator's optimum are made there only.
CLEAR_OF_TRANSITION = 2.0


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    svms = np.asarray(cfg.svms, dtype=float)
    above = svms[svms >= CLEAR_OF_TRANSITION]
    ids = [f"fig11-{init}-svm{s:g}" for init in ("TA", "random") for s in above]
    ids += [f"eq16-rank{rank}-svm{s:g}" for rank in PROFILES for s in above]
    ids += [f"nongradient-minus-gradient-rank{rank}-svm{s:g}" for rank in PROFILES for s in svms]
    ids += ["strict-advantage-rank3"]
    return ids + [f"finite-size-{claim}-rank{rank}" for rank in PROFILES
                  for claim in ("deviation", "excess", "excess-floor")]


#: The theory the claims test, and the error each should see at smoke scale (64 runs, N1 = 40: standard
#: errors of a few per cent of the errors, finite-size allowances of 1/N1 and (Nbar2 + 1)/N3).
MUTATIONS = (
    Mutation("gendyn.shrinkage.nongradient_optimal_error", 0.2,
             why="eq. (16) 20 % high: beyond z standard errors + 1/N1 of the estimator's error"),
    Mutation("gendyn.deep_linear.optimal_early_stopping", 0.3, output=1,
             why="min_t eq. (15) 30 % high: beyond the (Nbar2 + 1)/N3 allowance of the paired difference"),
    Mutation("gendyn.rmt.spike_overlap", -0.05,
             why="O(sbar) 5 % low: 1 - O^2 rises by ~0.1 O^2, several standard errors of Fig. 11's optimum"),
)
