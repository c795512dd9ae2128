"""Sizes and claim set of the chapter ``notebooks/advani-saxe/early-stopping-and-ridge.md``.

Advani, Saxe & Sompolinsky: early stopping of the linear student against optimal L2 (ridge)
regularisation. The chapter itself holds its protocol, figures and claims; this module holds what
the pipeline reads before the chapter runs: its sizes at each scale, the ids of its claims and the
theory each claim should notice when perturbed (the experiments are
:func:`gendyn.linear_experiments.early_stopping_vs_ridge` and
:func:`~gendyn.linear_experiments.per_mode_stopping_gd`, the theory :mod:`gendyn.linear_student`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "MODE_HALVES"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Advani, Saxe & Sompolinsky (2020): early stopping against optimal L2 regularisation, the (alpha,
    SNR) maps of the early-stopping time and error, and how t_opt grows with SNR.
    """

    map_points: int  #: alpha and SNR grid points of the maps (log grids through 1)
    alpha_range: tuple[float, float]  #: smallest and largest load alpha of the maps
    snr_range: tuple[float, float]  #: smallest and largest SNR of the maps
    curve_alphas: tuple[float, ...]  #: loads of the curves against SNR
    curve_snrs: tuple[float, float]  #: smallest and largest SNR of the curves
    curve_points: int  #: SNRs per curve
    n: int  #: dimension N of the finite-N datasets
    datasets: int  #: finite-N datasets per load
    sim_alphas: tuple[float, ...]  #: loads of the finite-N datasets
    sim_snr: float  #: SNR of the finite-N datasets
    mode_alpha: float  #: load of the per-mode stopping-time experiment (gapped, so every mode stops)
    mode_n: int  #: its dimension N
    mode_teachers: int  #: its teacher and noise draws on the one dataset
    mode_lr: float  #: its gradient-descent step (time k lr in units of tau; lr lambda_max < 1)
    mode_steps: int  #: its steps (mode_steps * mode_lr beyond the slowest mode's stopping time, <= SNR)


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        map_points=41,
        alpha_range=(0.1, 10.0),
        snr_range=(0.1, 1e4),
        curve_alphas=(0.5, 1.0, 2.0),
        curve_snrs=(1.0, 1e5),
        curve_points=26,
        n=1000,  # finite-N datasets: dimension N, datasets per load, loads, SNR
        datasets=24,
        sim_alphas=(0.5, 2.0, 1.0),  # alpha = 1 last: the earlier loads keep their draws
        sim_snr=4.0,
        mode_alpha=2.0,  # per-mode stopping times: one dataset, gradient descent on many teachers
        mode_n=200,
        mode_teachers=512,
        mode_lr=0.02,
        mode_steps=300,
    ),
    "smoke": Sizes(
        map_points=9,
        alpha_range=(0.1, 10.0),
        snr_range=(0.1, 1e4),
        curve_alphas=(0.5, 1.0, 2.0),
        curve_snrs=(1.0, 1e5),
        curve_points=6,
        n=200,
        datasets=8,
        sim_alphas=(0.5, 2.0, 1.0),  # alpha = 1 last: the earlier loads keep their draws
        sim_snr=4.0,
        mode_alpha=2.0,
        mode_n=100,
        mode_teachers=256,
        mode_lr=0.04,
        mode_steps=150,
    ),
}

def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs (one per finite-data load)."""
    return [f"{kind}-a{a:g}" for kind in ("ridge-mp-average", "early-stopped-mp-average", "excess-over-ridge")
            for a in cfg.sim_alphas] + [f"per-mode-stopping-time-{half}" for half in MODE_HALVES]


#: The theory the claims test, and the error each should see at smoke scale: the finite-data means carry a
#: standard error of about 1e-3 and a 1/N = 5e-3 allowance on errors of 0.2-0.6, so 5 % of the error (1e-2 to
#: 3e-2) is several allowances; the excess over ridge at alpha = 1 (about 0.04 at SNR 4) is compared paired,
#: within about 6e-3.
MUTATIONS = (
    Mutation("gendyn.linear_student.ridge_error", 0.05, why="5 % of an error of 0.2-0.6 is 2-6 allowances of 1/N"),
    Mutation("gendyn.linear_student.optimal_stopping_error", 0.05, output=1,
             why="the MP-averaged early-stopped error, eq. (6) at t_opt: 5 % is 2-6 allowances"),
    Mutation("gendyn.linear_student.per_mode_stopping_time", 0.1,
             why="the geometric mean of the simulated per-mode times over half a spectrum is known to about 1 % "
                 "(50 modes of 256 draws); 10 % is over twice the tolerance"),
)

#: The two halves of the spectrum the per-mode stopping-time claims compare separately (slow, then fast modes).
MODE_HALVES = ("slow-modes", "fast-modes")
