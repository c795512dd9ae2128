"""Sizes and claim set of the chapter ``notebooks/advani-saxe/toy-model.md``.

Advani, Saxe & Sompolinsky, slides eqs. (2)-(6): the exact learning dynamics of a linear student
of a noisy linear teacher. The chapter itself holds its protocol, figures and claims; this module
holds what the pipeline reads before the chapter runs: its sizes at each scale, the ids of its claims
and the theory each claim should notice when perturbed (the experiments are
:func:`gendyn.linear_experiments.gd_versus_flow`, :func:`gendyn.linear_student.sampled_dataset_errors`
and :func:`gendyn.linear_student.finite_size_gap`, the theory :mod:`gendyn.linear_student`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "FIG2_LOADS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Advani, Saxe & Sompolinsky (2020), slides eqs. (1)-(6): exact dynamics of the linear student.
    """

    n: int  #: input dimension N of the main experiment
    alphas: tuple[float, ...]  #: loads P/N
    repeats: int  #: datasets per load
    teachers: int  #: teacher / noise / initialisation draws per dataset trained by gradient descent
    flow_teachers: int  #: draws per dataset trained by the exact flow (the first `teachers` shared)
    snr: float  #: signal-to-noise ratio SNR
    inr: float  #: initial-weight variance over the teacher's, INR
    lr: float  #: gradient-descent step (time t = steps * lr in units of tau)
    gd_steps: int  #: gradient-descent steps
    t_max: float  #: longest time of the exact flow
    finite_size_n: tuple[int, ...]  #: input dimensions N of the finite-size check
    finite_size_repeats: int  #: datasets per N (spectra only; the t = inf claim's standard error)
    finite_size_sim_repeats: int  #: datasets per N for the raw simulation
    fig2_n: int  #: input dimension N of the Fig. 2 simulation
    fig2_alphas: tuple[float, ...]  #: its loads (panel C); panels A and B show 0.5, 1 and 2 of them
    fig2_repeats: int  #: its datasets per load
    fig2_teachers: int  #: its teacher and noise draws per dataset (zero initial weights)
    fig2_snr: float  #: its SNR
    fig2_t_max: float  #: its longest time (units of tau; a linear grid of 81 times from 0)
    fig2_times: tuple[float, ...]  #: the training times of panel C (on the grid)


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n=400,
        alphas=(0.5, 1.0, 2.0),
        repeats=6,
        teachers=8,
        flow_teachers=64,
        snr=4.0,
        inr=0.25,
        lr=0.05,
        gd_steps=2000,
        t_max=1e4,
        finite_size_n=(100, 200, 400, 800),
        finite_size_repeats=256,
        finite_size_sim_repeats=6,
        fig2_n=400,  # Fig. 2: exact flow from zero weights on sampled datasets
        fig2_alphas=(0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5),
        fig2_repeats=8,
        fig2_teachers=16,
        fig2_snr=4.0,
        fig2_t_max=20.0,
        fig2_times=(0.5, 2.0, 5.0, 20.0),
    ),
    "smoke": Sizes(
        n=100,
        alphas=(0.5, 1.0, 2.0),
        repeats=3,
        teachers=4,
        flow_teachers=32,
        snr=4.0,
        inr=0.25,
        lr=0.05,
        gd_steps=400,
        t_max=1e3,
        finite_size_n=(50, 100, 200),
        finite_size_repeats=128,
        finite_size_sim_repeats=2,
        fig2_n=100,
        fig2_alphas=(0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5),
        fig2_repeats=4,
        fig2_teachers=32,
        fig2_snr=4.0,
        fig2_t_max=20.0,
        fig2_times=(0.5, 2.0, 5.0, 20.0),
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"eq5-{err}-a{a:g}" for a in cfg.alphas for err in ("test", "train")]
    ids += [f"gd-flow-a{a:g}" for a in cfg.alphas] + [f"eq6-a{a:g}" for a in cfg.alphas]
    ids += [f"finite-size-a{a:g}" for a in cfg.alphas if a != 1]
    ids += [f"fig2-mp-a{a:g}" for a in FIG2_LOADS] + [f"fig2-{err}-a{a:g}" for a in FIG2_LOADS for err in ("test", "train")]
    return ids + ["fig2-eg-vs-alpha"]


#: The theory the claims test, and the error each should see at smoke scale (the claims' resolutions, measured
#: at seed 0): eq. (5) 3.5-5 % (test) and 4.5-9 % (training error), z = 4.2 standard errors over the times; the
#: GD-minus-flow prediction (5') 1e-4 of E_g; eq. (6) 7-9.5 % (z standard errors + 3/N, N = 100); the finite-N
#: error at t = inf within four standard errors of a gap of about 1 % of E_g(inf).
MUTATIONS = (
    Mutation("gendyn.linear_student.single_dataset_error", 0.1, why="eq. (5): 10 % is 3-10 standard errors"),
    Mutation("gendyn.linear_student.single_dataset_training_error", 0.2,
             why="eq. (5)'s training error: about twice the claims' smoke resolution of 4-9 %"),
    Mutation("gendyn.linear_student.single_dataset_gd_error", 0.01,
             why="eq. (5'): 1 % of E_g against a paired GD-minus-flow difference resolved to about 1e-3"),
    Mutation("gendyn.linear_student.generalization_error", 0.15,
             why="eq. (6), the MP average: 15 % against a resolution of about 9 % (z SE + 3/N)"),
    Mutation("gendyn.linear_student.finite_size_asymptotic_error", 0.01,
             why="the exact finite-N E_g(inf): 1 % of it is about one whole 1/N gap"),
    Mutation("gendyn.linear_student.training_error", 0.15,
             why="Fig. 2B's training error, compared relative to its value at t = 0 (where 15 % is 0.15): "
                 "tolerance 0.09-0.11 at smoke (z SE + 3/N, N = 100)"),
    Mutation("gendyn.linear_student.mp_eigenvalue_cdf", 0.2,
             why="Fig. 2A: 20 % of the MP distribution function moves the KS distance to 0.16-0.34 at smoke, "
                 "against DKW bounds of 0.10-0.14 (200-400 eigenvalues)"),
)

#: The loads of Fig. 2's panels A and B (panel C shows all of ``fig2_alphas``).
FIG2_LOADS = (0.5, 1.0, 2.0)
