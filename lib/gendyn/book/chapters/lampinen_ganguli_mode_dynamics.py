"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/mode-dynamics.md``.

Lampinen & Ganguli §3.1, Fig. 1 and App. A: training-aligned (TA) deep linear networks of depth
:math:`N_l` learn a designed data spectrum, and their mode strengths are compared with eq. (9) and
its deep form (A.1)-(A.2). The chapter itself holds its protocol, figures and claims; this module
holds what the pipeline reads before the chapter runs: its sizes at each scale, the ids of its claims
and the theory each claim should notice when perturbed (the runs are
:func:`gendyn.train.ta_mode_dynamics`, the theory :mod:`gendyn.deep_linear`: ``mode_strength``,
``mode_time``, ``gd_band``).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) §3.1 and App. A, Fig. 1: TA mode dynamics at three depths.
    """

    n1: int  #: inputs N1 of the TA networks
    shat_min: float  #: smallest singular value of the designed data spectrum
    shat_max: float  #: largest singular value of the designed data spectrum
    n_modes: int  #: modes of the spectrum, geometrically spaced from shat_min to shat_max
    depths: tuple[int, ...]  #: network depths
    lrs: tuple[float, ...]  #: learning rate of each depth
    horizon: float  #: training time, in half-learning times of the weakest mode
    n_records: int  #: recorded times


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, shat_min=0.25, shat_max=4.0, n_modes=41,  # designed spectrum 0.25 * 2^(k/10)
        depths=(3, 4, 5), lrs=(2e-3, 1e-2, 1.5e-2),  # one per depth, lr max|f'| <= 0.5 (gd_lag_accuracy)
        horizon=2.0,
        n_records=400,
    ),
    "smoke": Sizes(
        n1=30, shat_min=0.5, shat_max=4.0, n_modes=13,
        depths=(3, 4, 5), lrs=(5e-3, 2e-2, 1.5e-2), horizon=2.0, n_records=200,
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return [f"{name}-N{depth}" for name in ("flow", "wave-front") for depth in cfg.depths]


#: The theory the claims test, and the error each should see at smoke scale. The flow claims allow, pointwise, the
#: forward-Euler delay (a few per cent of a mode's strength); the front claims one mode spacing (log10 of
#: 2^(3/12), 0.075): a front time 50 % off moves the front by about log10 1.5 = 0.18.
MUTATIONS = (
    Mutation("gendyn.deep_linear.mode_strength", 0.1, why="eq. (9)/(A.1): 10 % of a mode's strength"),
    Mutation("gendyn.deep_linear.mode_strength", -0.1, why="eq. (9)/(A.1): 10 % low (a plateau below shat)"),
    Mutation("gendyn.deep_linear.mode_time", 0.5, why="the inverse of (A.1): 50 % of the time to half height"),
)
