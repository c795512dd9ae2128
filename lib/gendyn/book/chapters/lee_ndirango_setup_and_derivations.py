"""Sizes and claim set of the chapter ``notebooks/lee-ndirango/setup-and-derivations.md``.

Lee & Ndirango, §2-4 and appendices A-C, as reconstructed in the chapter: the agreement of noisy and
clean labels, Gaussian integration by parts (14), the matrix function M (13), the rank-one curvature
f(s) (15) and what (16) neglects, the conservation law (9), relatedness (4) and the bound (5). The
chapter itself holds its protocol, figures and claims; this module holds what the pipeline reads
before the chapter runs: its sizes at each scale, the ids of its claims and the theory each claim
should notice when perturbed (the experiments' labels and sampled gradients are
:mod:`gendyn.multitask_train`, the theory :mod:`gendyn.softmax_multitask`; the identities and exact
properties are unit tests, ``tests/test_lee_ndirango_setup.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019) §2-4, App. A-C: the reconstructed theory, checked numerically.
    """

    mc_samples: int  #: Monte Carlo inputs of the Gaussian averages: Stein's identity (14), f, the spectrum of M(W)
    label_samples: int  #: inputs labelled at each SNR for the agreement of noisy and clean labels
    near_chance_samples: int  #: labels at the smallest SNR for the first-order agreement claim


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(mc_samples=2**20, label_samples=100_000, near_chance_samples=4_000_000),
    "smoke": Sizes(mc_samples=2**15, label_samples=20_000, near_chance_samples=1_000_000),
}

_SM = "gendyn.softmax_multitask"


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["labels-near-chance", "stein-14", "f-15-monte-carlo"]


#: The theory the claims test, and the error each should see at smoke scale: the near-chance claim resolves
#: the first-order term to about 40 % (1e6 labels); (14) is resolved to 5-8 % and (15) to 1-3 % by their Monte
#: Carlo (standard errors from independent batches).
MUTATIONS = (
    Mutation(f"{_SM}.label_agreement_excess", 0.6,
             why="first-order agreement of noisy and clean labels: resolved to about 40 % by 1e6 labels"),
    Mutation(f"{_SM}.softmax_curvature", 0.1, why="M (13) by Monte Carlo: (14) resolves 5-8 %, (15) 1-3 %"),
    Mutation(f"{_SM}.ta_curvature", -0.05, why="f(s) (15) by quadrature: the Monte Carlo resolves 1-2 %"),
)
