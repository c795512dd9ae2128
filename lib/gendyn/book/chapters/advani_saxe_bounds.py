"""Sizes and claim set of the chapter ``notebooks/advani-saxe/bounds.md``.

Advani, Saxe & Sompolinsky, as in the MIT 18.338 slides: the memorisation puzzle of a random-feature
ReLU network and the generalisation bounds (7)-(12). The chapter itself holds its protocol, figures
and claims; this module holds what the pipeline reads before the chapter runs: its sizes at each
scale, the ids of its claims and the theory each claim should notice when perturbed (the experiments
and the bounds are :mod:`gendyn.linear_experiments`: ``random_feature_gd``, ``random_feature_relu``,
``random_feature_bounds``; the theory :mod:`gendyn.linear_student`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "LABELS", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Advani, Saxe & Sompolinsky (2020), slides' memorisation puzzle and bounds (7)-(12).
    """

    n_in: int  #: input dimension N_i of the width sweep
    n_samples: int  #: training examples P
    hidden: tuple[int, ...]  #: student widths N_h of the sweep
    repeats: int  #: seeds (inputs, first layer, teacher)
    snr: float  #: signal-to-noise ratio SNR
    n_test: int  #: test examples
    delta: float  #: failure probability of the bound (7)
    mem_n_in: int  #: memorisation run: N_i
    mem_samples: int  #: memorisation run: P
    mem_hidden: int  #: memorisation run: N_h
    mem_repeats: int  #: memorisation run: seeds
    mem_teachers: int  #: label draws of each kind per network
    mem_steps: int  #: memorisation run: gradient steps


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n_in=100,
        n_samples=200,
        hidden=(40, 80, 120, 160, 180, 220, 250, 300, 400, 600, 800, 1200, 1600, 3200, 6400),
        repeats=10,
        snr=4.0,
        n_test=1000,
        delta=0.05,
        mem_n_in=50,
        mem_samples=100,
        mem_hidden=400,
        mem_repeats=4,
        mem_teachers=16,
        mem_steps=4000,
    ),
    "smoke": Sizes(
        n_in=30,
        n_samples=60,
        hidden=(15, 30, 45, 55, 70, 90, 120, 240, 480, 960),
        repeats=10,  # the width finding is a paired t-test at level 1e-3: t = 4.3 at 10 seeds, 22.3 at 3
        snr=4.0,
        n_test=300,
        delta=0.05,
        mem_n_in=20,
        mem_samples=40,
        mem_hidden=160,
        mem_repeats=2,
        mem_teachers=8,
        mem_steps=1500,
    ),
}

#: The two kinds of labels of the memorisation run, in the order of its results' first axis.
LABELS = ("teacher", "random")


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"memorise-{key}-{kind}" for key in LABELS for kind in ("theory", "fits")]
    return ids + ["gap-below-dynamics-bound", "dynamics-bound-decreasing", "gap-falls-with-width"]


#: The theory the claims test, and the error each should see at smoke scale: the spectral theory of the
#: memorisation run is compared at every step in z = 4.2 standard errors over 16 label draws per kind, a
#: resolution of 17-23 % of the training error at smoke scale (sampling error of few draws; finer at paper
#: scale). (The bounds (7)-(12) are loose by a factor of hundreds here: no claim tests their size, see
#: ``gap-below-dynamics-bound``, a finding.)
MUTATIONS = (
    Mutation("gendyn.linear_student.gd_training_error", 0.5,
             why="the spectral training-error theory: about twice the claims' smoke resolution of 17-23 %"),
)
