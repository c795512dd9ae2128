"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/nonlinear-students.md``.

Lampinen & Ganguli §3.5, Fig. 5: leaky-ReLU students with one and three hidden layers learn the rank-1 and
rank-3 linear teachers of §3.4, beside linear students on the same data, in our setting and in the authors'.
The chapter itself holds its protocol, figures and claims; this module holds what the pipeline reads before
the chapter runs: its sizes at each scale, the ids of its claims and the theory each claim should notice
when perturbed (none: the claims are findings). The students are trained by
:func:`gendyn.train.train_leaky_and_linear`, their curves read by :func:`~gendyn.train.count_drops`,
:func:`~gendyn.train.plateau_span`, :func:`~gendyn.train.minimum_time_ratios` and
:func:`~gendyn.train.onset_comparison`; the linear theory drawn for comparison is :mod:`gendyn.deep_linear`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) §3.5, Fig. 5: leaky-ReLU students of linear teachers.
    """

    n1: int  #: inputs N1
    n2: int  #: hidden units N2
    n3: int  #: outputs N3
    svms: tuple[float, ...]  #: teacher singular values (SNRs) of the one-hidden-layer students
    runs: int  #: data sets per teacher of the one-hidden-layer students
    eps: float  #: initial weight scale
    lr: float  #: learning rate of the one-hidden-layer students
    horizon: float  #: training time t / tau of the one-hidden-layer students
    n_records: int  #: recorded epochs
    deep_svms: tuple[float, ...]  #: teacher singular values of the three-hidden-layer students
    deep_runs: int  #: data sets per teacher of the three-hidden-layer students
    deep_lr: float  #: learning rate of the three-hidden-layer students
    deep_horizon: float  #: training time t / tau of the three-hidden-layer students
    authors_svms: tuple[float, ...]  #: teacher singular values of the authors' setting (one hidden layer)
    authors_runs: int  #: data sets per teacher of the authors' setting
    authors_slope: float  #: leak of the authors' leaky ReLU
    authors_eps: float  #: initial weight scale of the authors' setting
    authors_noise_var: float  #: noise variance per entry of the authors' setting
    authors_lr: float  #: learning rate of the authors' setting (one hidden layer)
    authors_horizon: float  #: training time t / tau of the authors' setting (one hidden layer)
    #: (rank, svm, lr, horizon) of each teacher of the authors' setting with three hidden layers
    authors_deep: tuple[tuple[int, float, float, float], ...]


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, n2=50, n3=50, svms=(0.84, 2.0, 4.0, 6.0, 8.0), runs=10, eps=1e-4,  # eps of the authors' script
        lr=1e-2, horizon=10.0, n_records=150,
        # no fewer data sets than the smoke scale's: the onset claims' margins are t margins over the runs, and
        # at the former 6 (authors) and 8 (three hidden layers) the margin of authors-onset-earlier-deeper was
        # estimated at about 0.4 against an effect of about 0.45 (smoke's calibration, issue 32)
        deep_svms=(4.0,), deep_runs=10, deep_lr=8e-3, deep_horizon=150.0,  # three hidden layers, the authors' horizon
        # the authors' setting of Fig. 5 (their script): leak 0.1, linear output layer, eps 1e-5,
        # noise variance 1/50 per entry; one hidden layer to t/tau = 8 (both ranks), three
        # hidden layers to t/tau = 100 (rank 1: 150, past the linear students' onset), per teacher
        # (rank, svm, lr, horizon): lr at most about a third of the stability limit (the authors'
        # 2e-4 at rank 3, svm 30, where 30 tau decides); rank 1 at svm 30 would need > 1e5 steps
        authors_svms=(5.0, 10.0, 30.0), authors_runs=10, authors_slope=0.1, authors_eps=1e-5,
        authors_noise_var=0.02, authors_lr=1e-3, authors_horizon=8.0,
        authors_deep=((3, 5.0, 2e-3, 100.0), (3, 10.0, 1e-3, 100.0), (3, 30.0, 2.5e-4, 30.0),
                      (1, 5.0, 5e-3, 150.0), (1, 10.0, 3e-3, 150.0)),
    ),
    "smoke": Sizes(
        n1=40, n2=20, n3=20, svms=(2.0, 4.0, 8.0), runs=4, eps=1e-4,
        lr=1e-2, horizon=10.0, n_records=120,
        # 10 data sets per teacher with three hidden layers: at 6 the 99 % margin of
        # onset-earlier-3-hidden-ours-rank3 (0.14-0.22) came within 0.02 of its effect (about -0.27) at SEED 1
        deep_svms=(4.0,), deep_runs=10, deep_lr=8e-3, deep_horizon=150.0,
        # 8 data sets per teacher: at 4 the Welch margin of authors-onset-earlier-deeper (about 0.5) equals the
        # effect (about -0.48), a coin toss; at 8 it is about 0.25
        authors_svms=(5.0, 10.0, 30.0), authors_runs=8, authors_slope=0.1, authors_eps=1e-5,
        authors_noise_var=0.02, authors_lr=2e-3, authors_horizon=8.0,
        authors_deep=((3, 10.0, 2e-3, 80.0), (1, 5.0, 5e-3, 200.0)),
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["stage-like-drops-rank3", "plateau", "overfitting", "minimum-time-1-hidden", "minimum-time-3-hidden",
            "onset-earlier-3-hidden-ours-rank3", "authors-onset-earlier-3-hidden-rank3", "authors-onset-earlier-deeper"]


#: No theory function is tested here: the paper has no theory of leaky-ReLU students, and every claim is a
#: finding (a measured effect of the nonlinear students, with its significance, against linear students or
#: the linear theory of :mod:`gendyn.deep_linear`, which is drawn for comparison and tested in other chapters).
MUTATIONS: tuple[Mutation, ...] = ()
