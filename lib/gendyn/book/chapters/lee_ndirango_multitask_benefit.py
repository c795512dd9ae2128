"""Sizes and claim set of the chapter ``notebooks/lee-ndirango/multitask-benefit.md``.

Lee & Ndirango, §4.5, Figs. 2, A1 and A2: the multitask benefit against the relatedness of the tasks
and their SNRs, the convexity bounds (22)-(25) and the statements of Table 1 and of (34), (36). The
chapter itself holds its protocol, figures and claims; this module holds what the pipeline reads
before the chapter runs: its sizes at each scale, the ids of its claims and the theory each claim
should notice when perturbed (none: the claims are findings). The grids are
:func:`gendyn.multitask_train.run_grid`, cached by :func:`gendyn.book.grids.cached_grid`; the one-sided
Spearman claim is :func:`gendyn.book.checks.check_spearman`, the reason of a one-sided t bound over
seeds :func:`gendyn.book.stats.t_bound_reason`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019) §4.5, Figs. 2, A1, A2: benefit vs relatedness and SNRs (linear students).
    """

    seeds: int  #: seeds of every grid cell (gendyn.seeding.run_seeds of SEED)
    n_train: tuple[int, ...]  #: training examples per task of the rank-10 grid
    rank3_n_train: tuple[int, ...]  #: training examples per task of the rank-3 grid
    snr_points: int  #: SNRs kept of the grid's, evenly in log scale with both ends
    relatedness_every: int  #: every k-th relatedness of the grid is kept
    lr: float  #: learning rate
    steps: int  #: gradient steps
    eval_every: int  #: steps between validation evaluations
    n_val: int  #: validation examples per task


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(seeds=5, n_train=(100, 200, 400, 800, 1600, 3200), rank3_n_train=(100, 400),
                   snr_points=6, relatedness_every=1, lr=1.0, steps=300, eval_every=3, n_val=1000),
    "smoke": Sizes(seeds=5, n_train=(100, 400, 1600), rank3_n_train=(100,),
                   snr_points=3, relatedness_every=2, lr=1.0, steps=100, eval_every=2, n_val=300),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["table1-related-clean-helps", "table1-unrelated-clean-hurts", "table1-unrelated-noisy-ignored",
            "table1-needs-base-performance", "table1-abundant-data-no-benefit", "eq34-benefit-rises-with-snr-b",
            "eq36-benefit-rises-with-r"]


#: No theory function computes the chapter's predictions: Table 1 and (34), (36) are qualitative statements
#: of the paper, tested as findings (measured effects with their significance). The bounds (22)-(25) hold
#: exactly and are unit tests (tests/test_lee_ndirango_setup.py).
MUTATIONS = ()

