"""Sizes and claim set of the chapter ``notebooks/lee-ndirango/single-task-dynamics.md``.

Lee & Ndirango, §3 and appendix B (Fig. 1): training-aligned (TA) and randomly initialised softmax
students of noisy rank-one teachers against the reconstructed dynamics (3), their early growth rate
and the finite-size convergence of the two-class fixed point. The chapter itself holds its protocol,
figures and claims; this module holds what the pipeline reads before the chapter runs: its sizes at
each scale, the ids of its claims and the theory each claim should notice when perturbed (the students
are :func:`gendyn.multitask_train.train_single_task`, the theory :mod:`gendyn.softmax_multitask`, whose
:func:`~gendyn.softmax_multitask.ta_descent` is the growth-rate claims' prediction).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019) §3, Fig. 1: TA dynamics (3) vs simulation, TA vs random initialisation.
    """

    sbars: tuple[float, ...]  #: SNRs of the ten-class TA students
    binary_sbars: tuple[float, ...]  #: SNRs of the two-class TA students
    n_train: int  #: training examples
    n_val: int  #: validation examples
    lr: float  #: learning rate
    horizon: float  #: training time (steps = horizon / lr)
    random_init_scale: float  #: initial weight scale of the students started from small random weights
    finite_size_n: tuple[int, ...]  #: training-set sizes of the finite-size check (two classes)
    finite_size_seeds: int  #: seeds per size of the finite-size check


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(sbars=(0.05, 0.1, 0.2, 0.4, 1.0), binary_sbars=(0.1, 0.3, 1.0), n_train=20_000, n_val=4000,
                   lr=0.05, horizon=150.0, random_init_scale=0.05,
                   finite_size_n=(1000, 2000, 4000, 8000, 16_000), finite_size_seeds=16),
    "smoke": Sizes(sbars=(0.1, 1.0), binary_sbars=(0.3,), n_train=3000, n_val=1000,
                   lr=0.1, horizon=100.0, random_init_scale=0.05,
                   finite_size_n=(500, 1000, 2000, 4000), finite_size_seeds=16),
}

_SM = "gendyn.softmax_multitask"


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"growth-rate-K10-sbar{sbar:g}" for sbar in cfg.sbars]
    ids += [f"growth-rate-K2-sbar{sbar:g}" for sbar in cfg.binary_sbars]
    return ids + ["fixed-point-finite-size-K2"]


#: The theory the claims test, and the error each should see at smoke scale: the growth-rate claims resolve
#: 1-5 % of the rate at smoke scale. The fixed-point claim is coarse: at smoke scale the relative gaps to s* are
#: 2-15 % with random sign over seeds (mean 2-3 % at the largest P), so it sees an s* wrong by 20 % (the gaps
#: stop shrinking) but not by 5 %.
MUTATIONS = (
    Mutation(f"{_SM}.ta_rate", 0.1, why="(3), stepped as gradient descent: the early growth rate, resolved to 1-5 %"),
    Mutation(f"{_SM}.ta_fixed_point", 0.2,
             why="s* of (3): the mean gap to it falls to 2-3 % at the largest P; a 20 % error floors it and "
                 "flattens the slope (a 5 % error is within the seeds' scatter at smoke scale)"),
)
