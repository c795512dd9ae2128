"""Sizes and claim set of the chapter ``notebooks/advani-saxe/double-descent.md``.

Advani, Saxe & Sompolinsky, slides "Interpreting (5)" and "Double Descent": the long-time and
early-stopped test error of the linear student against the load ``alpha = P/N``, the eigengap and
the frozen subspace. The chapter itself holds its protocol, figures and claims; this module holds
what the pipeline reads before the chapter runs: its sizes at each scale, the ids of its claims and
the theory each claim should notice when perturbed (the simulation is
:func:`gendyn.linear_experiments.simulate_linear_student`, its errors per (SNR, INR) condition
:func:`~gendyn.linear_experiments.condition_errors`; the theory :mod:`gendyn.linear_student`, the
Tracy-Widom law's scale and moments :mod:`gendyn.rmt`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Advani, Saxe & Sompolinsky (2020), slides "Interpreting (5)", "Double Descent", eq. (6).
    """

    n: int  #: input dimension N
    alphas: tuple[float, ...]  #: loads P/N
    repeats: int  #: datasets per load
    teachers: int  #: teacher / noise / initialisation draws per dataset
    snrs: tuple[float, ...]  #: SNRs of the double-descent curves (INR = 0)
    snr_inr: float  #: SNR of the INR sweep
    inrs: tuple[float, ...]  #: INRs of the sweep (INR = 0 is the curve above)
    inr_sweep_alphas: tuple[float, ...]  #: loads shown in the INR sweep


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n=300,
        alphas=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.3, 1.4, 1.5, 1.7, 1.9,
                2.1, 2.3, 2.5, 2.75, 3.0),
        repeats=8,
        teachers=16,
        snrs=(1.0, 4.0, 16.0),
        snr_inr=4.0,
        inrs=(0.5, 1.0, 2.0),
        inr_sweep_alphas=(0.5, 2.0),
    ),
    "smoke": Sizes(
        n=80,
        alphas=(0.2, 0.5, 0.8, 0.9, 1.0, 1.1, 1.3, 1.6, 2.0, 3.0),
        repeats=3,
        teachers=8,
        snrs=(1.0, 4.0, 16.0),
        snr_inr=4.0,
        inrs=(0.5, 1.0, 2.0),
        inr_sweep_alphas=(0.5, 2.0),
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = ["peak-at-alpha-1", "einf-finite-n-below", "einf-finite-n-above"]
    ids += [f"{kind}-snr{snr:g}" for snr in cfg.snrs for kind in ("early-stop", "no-peak-early-stopped")]
    return ids + ["eigengap-edge"] + [f"frozen-inr{inr:g}" for inr in (0.0, *cfg.inrs)]


#: The theory the claims test, and the error each should see at smoke scale (N = 80, 24 draws per load): the
#: claims' resolutions (z standard errors over the theory's value) are 5-7 % for the finite-N E_g(inf), 10-12 %
#: for the frozen-subspace error, 10-22 % for the early-stopped error (z relative standard errors at alpha = 1
#: + 3/N) and about 15 % for the eigengap (Tracy-Widom fluctuations of 3 datasets + 1/N); each mutation is
#: about twice the coarsest of them.
MUTATIONS = (
    Mutation("gendyn.linear_student.finite_size_asymptotic_error", 0.15,
             why="the exact finite-N E_g(inf): resolution 5-7 % (z = 3.7-4 standard errors of 24 draws)"),
    Mutation("gendyn.linear_student.optimal_stopping_error", 0.3, output=1,
             why="eq. (6) at t_opt: the claims' resolution is 10-22 % (z relative SE at alpha = 1 + 3/N)"),
    Mutation("gendyn.linear_student.eigengap", 0.2, output=0,
             why="the MP edge (1 - sqrt(alpha))^2: resolution about 10 % at the loads far from alpha = 1"),
    Mutation("gendyn.linear_student.frozen_subspace_error", 0.25,
             why="(1 - alpha)(1 + INR): resolution 10-12 % (z = 3.7 standard errors of 24 draws)"),
)
