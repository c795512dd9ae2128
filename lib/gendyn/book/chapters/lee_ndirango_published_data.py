"""Sizes and claim set of the chapter ``notebooks/lee-ndirango/published-data.md``.

Lee & Ndirango's published per-run losses (Figs. 2, 3, A1-A4) against the book's grids, the label-entropy
floor under any validation loss, and a rerun of a subset of cells with the authors' own protocol. The chapter
itself holds its protocol, figures and claims; this module holds what the pipeline reads before the chapter
runs: its sizes at each scale, the ids of its claims and the theory each claim should notice when perturbed
(the published runs, their match with the grids, the floor and the plan of the rerun are
:mod:`gendyn.published_runs`, the students :mod:`gendyn.multitask_train` and :mod:`gendyn.interleaved_sgd`,
the theory :func:`gendyn.softmax_multitask.noisy_label_entropy`).
"""

from __future__ import annotations

from dataclasses import dataclass

# The grids compared here are those of the multitask and aux-depth chapters, at their sizes (their SIZES, which
# the notebook configures): importing their modules puts those sizes in this chapter's run identity.
from gendyn.book.chapters import lee_ndirango_aux_data_and_depth, lee_ndirango_multitask_benefit  # noqa: F401
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019): comparison with the authors' published per-run results. ``authors_cells = "all"``
    reruns every cell of the four files: hours on two cores; a GPU or a Dask cluster
    (``DASK_SCHEDULER``).
    """

    bootstrap: int  #: bootstrap resamples of the rank correlation's interval
    floor_samples: int  #: Monte Carlo inputs of the label-entropy floor H(y|x)
    floor_check_samples: int  #: labelled inputs per SNR for the floor against the experiments' labels
    authors_seeds: int  #: seeds per cell of the authors' protocol
    authors_epochs: int  #: training epochs of the authors' protocol
    authors_cells: str  #: "subset" (authors_groups, eight multitask cells each) or "all" (every cell of the four files)
    #: (file, P_A, P_B, trunk depth) of the cells rerun by the authors' protocol
    authors_groups: tuple[tuple[str, int, int, int], ...]


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(bootstrap=2000, floor_samples=4096, floor_check_samples=100_000, authors_seeds=5, authors_epochs=2000, authors_cells="subset",
                   authors_groups=(("rank-10", 100, 100, 1), ("rank-10", 400, 400, 1), ("rank-3", 100, 100, 1),
                                   ("aux-train-pts", 100, 400, 1), ("deep-nonlinear", 200, 200, 1),
                                   ("deep-nonlinear", 200, 200, 3))),
    "smoke": Sizes(bootstrap=200, floor_samples=512, floor_check_samples=20_000, authors_seeds=3, authors_epochs=200, authors_cells="subset",
                   authors_groups=(("rank-10", 100, 100, 1),)),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["published-rank-correlation", "published-sign-agreement", "floor-is-bayes-cross-entropy",
            "published-below-label-entropy", "authors-protocol-above-floor", "authors-protocol-defaults-miss-losses"]


#: The theory the claims test, and the error each should see at smoke scale: the floor is compared with the
#: cross-entropy of the Bayes predictor on sampled labels to about 2-5 % of its value.
MUTATIONS = (
    Mutation("gendyn.softmax_multitask.noisy_label_entropy", 0.1,
             why="the label-entropy floor H(y|x): compared with sampled labels to 2-5 % of its value"),
)
