"""Sizes and claim set of the chapter ``notebooks/lee-ndirango/relation-to-lampinen-ganguli.md``.

Lee & Ndirango's multitask benefit (§4.4) beside Lampinen & Ganguli's transfer benefit (§4): the
same students, teachers and data trained with the cross-entropy on argmax labels (classification)
and with the squared error on the teacher's logits (regression), benefits relative to the
single-task loss. The chapter itself holds its protocol, figures and claims; this module holds what
the pipeline reads before the chapter runs: its sizes at each scale, the ids of its claims and the
theory each claim should notice when perturbed (none: the claims are findings). The grids are
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

    Lee & Ndirango (2019): the benefit here vs the transfer benefit of Lampinen & Ganguli §4.
    """

    seeds: int  #: seeds of every cell (gendyn.seeding.run_seeds of SEED)
    n_train: int  #: training examples per task
    steps: int  #: gradient steps of the cross-entropy students (learning rate 1)
    mse_lr: float  #: learning rate of the squared-error students
    mse_steps: int  #: gradient steps of the squared-error students


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(seeds=5, n_train=100, steps=300, mse_lr=0.02, mse_steps=5000),
    "smoke": Sizes(seeds=5, n_train=100, steps=150, mse_lr=0.02, mse_steps=2500),
}

def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["ce-rises-with-r", "ce-related-helps", "mse-related-helps", "ce-orthogonal-hurts"]


#: No theory function computes the chapter's claims: they compare two trained students qualitatively, as
#: findings (measured effects with their significance).
MUTATIONS = ()
