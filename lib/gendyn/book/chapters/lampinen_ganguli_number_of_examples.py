"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/number-of-examples.md``.

Lampinen & Ganguli App. G, Fig. 13: a rank-1 teacher labels :math:`P` examples of :math:`N_1` inputs,
full-rank TA students learn them, and their optimal and converged test errors are compared with the
theory in the under- and oversampled regimes. The chapter itself holds its protocol, figures and
claims; this module holds what the pipeline reads before the chapter runs: its sizes at each scale,
the ids of its claims and the theory each claim should notice when perturbed (the students are
:func:`gendyn.train.train_sampled_students`, the theory :mod:`gendyn.sampling`: ``theory_grid``,
``optimal_test_error``, ``asymptotic_test_error``, ``speedup_exponent``).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) App. G, Fig. 13: P examples in N1 dimensions.
    """

    n1: int  #: inputs N1
    densities: tuple[float, ...]  #: examples per input, P / N1
    svms: tuple[float, ...]  #: teacher singular values (SNRs)
    runs: int  #: data sets per density and SNR
    lr: float  #: learning rate
    horizon: float  #: training time t / tau
    n_records: int  #: recorded epochs


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, densities=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),  # P = 20, 40, ..., 200
        svms=(2.0, 3.0, 4.0), runs=10, lr=2e-2, horizon=10.0, n_records=200,
    ),
    "smoke": Sizes(
        n1=40, densities=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        # 16 runs, not 4: a standard error over 4 runs is itself uncertain (a Student-t quantile with 3 dof at the
        # claims' Bonferroni level is about 30, which would blind them to a 20 % error of the theory); training
        # the 960 students of 16 runs takes about 40 s on one core, 30 s more than 4 runs
        svms=(2.0, 3.0, 4.0), runs=16, lr=2e-2, horizon=10.0, n_records=150,
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["optimal-error-undersampled", "optimal-error-oversampled", "eq27-as-printed-rejected",
            "oversampled-speedup-exponent", "oversampled-speedup-D-rejected", "collapse-fails-below-N1",
            "collapse-fails-below-N1-significant", "asymptotic-peak-at-P-equal-N1", "asymptotic-error-theory",
            "gaussian-vs-orthogonal-correlation", "gaussian-inputs-worse"]


#: The theory the claims test, and the error each should see at smoke scale (N1 = 40, 16 runs): the optimal
#: error within t SE + 1/N1 = 2.5 %, 13-25 % of it in all (t = 5.3 with 15 dof; run-to-run spread 7-25 %);
#: a difference of two optimal errors (the collapse) within about 40 %; the converged error within
#: t SE + N1^-1/2 = 16 % (finite size).
MUTATIONS = (
    Mutation("gendyn.sampling.optimal_test_error", 0.2, output=1,
             why="corrected eq. (27), optimal error: resolved to 13-25 % at N1 = 40 and 16 runs (t SE + 1/N1)"),
    Mutation("gendyn.sampling.optimal_test_error", -0.4, output=1,
             why="the collapse claim compares differences of two optimal errors, resolved to about 40 % at 16 runs"),
    Mutation("gendyn.sampling.asymptotic_test_error", 0.3,
             why="converged error: its finite-size allowance is N1^-1/2 = 16 % at N1 = 40, so 30 % is the "
             "smallest error the claim can see there"),
)
