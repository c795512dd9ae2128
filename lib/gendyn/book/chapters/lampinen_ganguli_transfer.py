"""Sizes and claim set of the chapter ``notebooks/lampinen-ganguli/transfer.md``.

Lampinen & Ganguli §4 and App. D, Figs. 8 and 10: the transfer benefit ``T^{A<-B}`` of two-headed
students on the grid of Fig. 8 against its theory, App. D.1's alignments, Theorem 1, tasks of rank 2
and the finite-size study. The chapter itself holds its protocol, figures and claims; this module
holds what the pipeline reads before the chapter runs: its sizes at each scale, the ids of its claims
and the theory each claim should notice when perturbed, and :func:`finite_size_allowance`, the
agreement claims' allowance, which the tests check (the data are :func:`gendyn.task_data.task_pairs`
and :func:`~gendyn.task_data.task_a_only`, the students :func:`gendyn.train.train_two_headed`, the
simulated ``T`` :func:`gendyn.transfer.simulated_transfer` and the theory :mod:`gendyn.transfer`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.transfer import SimulatedTransfer, TransferGrid

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "finite_size_allowance"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) §4 and App. D, Figs. 8 and 10: transfer between two tasks.
    """

    n1: int  #: inputs N1
    n2: int  #: hidden units N2
    n3: int  #: outputs N3 of each task
    sbar_a: tuple[float, ...]  #: singular values (SNRs) of task A
    sbar_b: tuple[float, ...]  #: singular values (SNRs) of task B
    q_steps: int  #: overlaps q of the grid, evenly from 0 to 1
    runs: int  #: data sets per grid point
    lr: float  #: learning rate
    horizon: float  #: training time t / tau (epochs = horizon / lr)
    n_records: int  #: recorded epochs
    theorem_runs: int  #: data sets per setting of the Theorem 1 test
    general_runs: int  #: data sets per overlap matrix of the tasks of any rank
    finite_size_n1: tuple[int, ...]  #: sizes N1 of the finite-size check
    finite_size_draws: int  #: sampled data sets per size of the finite-size check


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, n2=50, n3=50, sbar_a=(0.84, 3.0, 100.0), sbar_b=(0.84, 3.0, 10.0, 30.0, 100.0),
        q_steps=11, runs=10,  # the authors' grid: q in {0, 0.1, ..., 1}, 10 runs
        lr=5e-3, horizon=5.0, n_records=300,  # the authors' horizon (5000 epochs at 1e-3)
        theorem_runs=10, general_runs=10, finite_size_n1=(100, 200, 400), finite_size_draws=160,
    ),
    "smoke": Sizes(
        n1=40, n2=20, n3=20, sbar_a=(0.84, 3.0, 100.0), sbar_b=(0.84, 10.0, 100.0),
        q_steps=5, runs=4, lr=5e-3, horizon=5.0, n_records=200,
        theorem_runs=4, general_runs=4, finite_size_n1=(20, 40, 80, 160), finite_size_draws=16,
    ),
}

def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ([f"fig8-agreement-sA{a:g}" for a in cfg.sbar_a]
            + ["fig8-sign-agreement", "fig8-alignment-needed-grows-with-sbarA", "d1-alignment-joint",
               "d1-alignment-single", "d1-shared-spike", "d1-misalignment-decides-sign", "theorem1-identical",
               "theorem1-axis", "general-rank-agreement", "networks-are-ta-networks", "learning-rate-negligible",
               "finite-size-within-allowance", "finite-size-exponent-transition"])


#: The theory the claims test, and the error each should see at smoke scale. The transfer theory is the
#: N1 -> inf limit: at the smoke size N1 = 40 its finite-size corrections are N1^-1/2 ~ 16 % of the effect
#: (N1^-1/3 ~ 29 % in the detection transition) and 4 runs resolve T to about 10-40 % of its size, so a
#: claim of agreement with T can see a 50 % error of the theory there, not less (at the paper's N1 = 100 and
#: 10 runs, about half of that).
MUTATIONS = (
    Mutation("gendyn.transfer.transfer_benefit", 0.5,
             why="T (Fig. 8, finite-size bias): 50 % is about twice the finite-size allowance plus z SE at N1 = 40"),
    Mutation("gendyn.transfer.transfer_benefit", 1.0,
             why="Fig. 8c (sbar_A = 100): T ~ 5e-5 against a standard error of 1e-5 over 4 runs resolves T only to "
             "about its own size at smoke scale"),
    Mutation("gendyn.transfer.transfer_benefit_general", 0.5, why="T of rank-2 tasks: as for Fig. 8"),
    Mutation("gendyn.rmt.spike_vector_overlaps", 0.1,
             why="App. D.1 alignments (squared overlaps 0.3-1): 10 % is several t SE + 1/N1"),
    Mutation("gendyn.transfer.composite_input_alignment", 0.1,
             why="App. D.1: how far the composite mode turned from task A; 10 % of an alignment 0.5-1"),
    Mutation("gendyn.rmt.spike_singular_value", 0.05,
             why="eq. (11) at the composite spike (2-140): 5 % is several t SE + shat/N1"),
    Mutation("gendyn.transfer.sampled_head_errors", 0.01,
             why="exact TA recursion on the sampled data vs the trained networks: 1 % is ten times float32 rounding"),
)


def finite_size_allowance(theory: TransferGrid, sim: SimulatedTransfer) -> np.ndarray:
    """Finite-size allowance of ``T`` in each panel: the *measured* size of the effect times ``N1^-1/2``.

    The theory is the ``N1 -> inf`` limit; its corrections are relative ``O(N1^-1/2)`` of the effect
    (fluctuations of the spikes, which the minimum over training time turns into a bias), ``O(N1^-1/3)``
    where task A lies in the detection transition. The size of the effect is the panel's largest
    ``|T|`` of the *simulation* (mean over runs), not of the theory, so that the allowance does not grow
    with the theory it tests; the finite-size claims check it on exact TA students at four sizes.

    Returns
    -------
    ndarray, shape (len(sa),)
    """
    mean = np.abs(sim.mean.reshape(theory.shape))
    return np.array([mean[i].max() * theory.n1 ** (-1 / 3 if theory.in_transition(a) else -1 / 2)
                     for i, a in enumerate(theory.sa)])
