"""Sizes and claim set of the chapter ``notebooks/goldt-et-al/sec3-both-layers.md``.

Goldt, Advani, Saxe, Krzakala & Zdeborova (2019), §3, Figs. 3, 4 and S4: training both layers, the denoising
fixed point and eq. (15), the copies' split of the second layer at long times, linear networks against
eq. (12), and ReLU networks (no theory). The chapter itself holds its protocol, figures and claims; this
module holds what the pipeline reads before the chapter runs: its sizes at each scale, the ids of its
claims, the theory each claim should notice when perturbed and the named series of its random streams (the
experiments are
:func:`gendyn.committee_sgd.stationary_run`, :func:`~gendyn.committee_sgd.long_ode_runs`,
:func:`~gendyn.committee_sgd.linear_networks`, :func:`gendyn.committee_stationary.stationary_runs`,
:func:`gendyn.committee.split_relaxation`,
:func:`~gendyn.committee.denoising_fixed_point` and :func:`~gendyn.committee.random_start_odes`, the theory
:func:`gendyn.committee.asymptotic_error`, :func:`~gendyn.committee.integrate_odes` and eq. (12),
:func:`~gendyn.committee.linear_stationary_error`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn import committee_sgd as sgd
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "ODE", "THEORY", "EQ12", "SERIES", "RELU_VARIANTS", "stream_paths", "claim_ids",
           "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Goldt, Advani, Saxe, Krzakala & Zdeborova (2019) §3, Figs. 3 and 4: training both layers.
    """

    n: int  #: input dimension N
    ks: tuple[int, ...]  #: student sizes K of Fig. 3a (M = 2)
    alpha_max: float  #: length of the runs of Fig. 3a
    long_alpha: float  #: length of the long ODE runs
    long_ks: tuple[int, ...]  #: K of the long ODE runs
    long_seeds: int  #: starts per K of the long ODE runs
    theory_ks: tuple[int, ...]  #: K of Fig. 3c (ODE fixed points), M = 1, 2
    ode_alpha: float  #: length of the ODE runs of Fig. 3c
    random_starts: int  #: random starts per (M, K) of Fig. 3c
    linear_n: int  #: input dimension N of the linear networks (Fig. 4)
    linear_ks: tuple[int, ...]  #: K of the linear networks
    linear_runs: int  #: runs per point of Fig. 4
    linear_alpha: float  #: length of the runs of Fig. 4
    relu_n: int  #: input dimension N of the ReLU networks (Fig. S4)
    relu_ks: tuple[int, ...]  #: K of the ReLU networks (K >= M: a smaller ReLU student cannot fit the teacher)
    relu_runs: int  #: runs per point of Fig. S4
    relu_alpha: float  #: length of the runs of Fig. S4


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n=500,
        ks=(2, 3, 4, 5, 6),
        alpha_max=5e4,
        long_alpha=2e8,  # long ODE runs: the copies' split of v* relaxes on ~2e7 (see the chapter)
        long_ks=(4, 6),
        long_seeds=2,  # starts drawn like the SGD runs' (the first is the Fig. 3a run's own)
        theory_ks=(2, 4, 6, 8),
        ode_alpha=1e6,
        random_starts=5,  # 8 (M, K) x 5 starts to 1e6: 10-30 CPU s a start at K = 8 (measured), minutes in all
        linear_n=100,
        linear_ks=(1, 2, 4, 8),
        linear_runs=5,
        linear_alpha=2e4,
        relu_n=100,
        relu_ks=(4, 8, 12),
        relu_runs=8,
        relu_alpha=5e4,  # eta = 0.1: the plateaus of the both-layer students end by ~3e4 (1 run in 24 stuck at 5e4)
    ),
    "smoke": Sizes(
        n=100,
        ks=(2, 4),
        alpha_max=2e5,  # Fig. 3a: from some starts (seed 1) K = 4 has uneven copies until alpha ~ 1e5
        long_alpha=4e7,
        long_ks=(4,),
        long_seeds=1,
        theory_ks=(2, 4),
        ode_alpha=2e5,  # Fig. 3c: the copies equalise on ~1/(eta^2 sigma^2); at 2e4 K = 4 had not settled
        random_starts=4,  # Fig. 3c from random starts: 16 ODE runs to ode_alpha, ~15 s of CPU
        linear_n=50,
        linear_ks=(1, 2),
        linear_runs=8,  # runs per point of Fig. 4: the flat-in-K claim needs the runs' spread (t quantile, 7 dof)
        linear_alpha=4000.0,
        relu_n=50,
        relu_ks=(4, 12),  # the extremes: the claims compare the largest K with the smallest
        relu_runs=6,
        relu_alpha=4e4,  # at 2e4 some both-layer students (N = 50) were still leaving their plateaus
    ),
}

M_FIG3 = 2  # teacher units of Fig. 3a (the chapter's M)
#: The theory the claims name (and the mutations perturb): the ODEs (9), the denoising fixed point and eq. (12).
ODE = "gendyn.committee.integrate_odes"
THEORY = "gendyn.committee.asymptotic_error"  # the denoising fixed point (and eq. 15)
EQ12 = ("gendyn.committee.linear_stationary_error", "gendyn.committee.linear_effective_rate")


#: The chapter's series of random draws: the first name of every stream ``seeding.stream(SEED, name, ...)`` the
#: notebook draws from (:mod:`gendyn.seeding`); each series its own, so no two share a teacher, a start or inputs
#: by accident. Shared on purpose: the long ODE runs' start 0 of K is Fig. 3a's (``("fig3a", K, "start", 0)``).
SERIES = {
    "fig3a": "Fig. 3a: per K the starts (K, 'start', s; s > 0 for the long ODE runs) and SGD (K, 'sgd')",
    "long-split": "the long ODE runs: per K the jitter of the unequal split near the denoising state",
    "fig3c-near": "Fig. 3c: per (M, K) the jitter of the start near the denoising state",
    "fig3c-random": "Fig. 3c from random starts: per (M, K) the random_starts starts",
    "fig4": "Fig. 4: per variant and K the networks (variant, K, 'start') and their SGD (variant, K, 'sgd')",
    "figS4": "Fig. S4, ReLU networks: per variant and K the networks (variant, K, 'start') and SGD (variant, K, 'sgd')",
}
#: The ReLU students of Fig. S4: the SCM and both layers trained from small weights (the chapter says why not the
#: normalised SCM).
RELU_VARIANTS = ("SCM", "both layers")


def stream_paths(sizes: Sizes) -> list[tuple[str | int, ...]]:
    """Every stream path (after ``SEED``) the notebook draws from at ``sizes``, each once, in the notebook's order."""
    paths: list[tuple[str | int, ...]] = [p for K in sizes.ks for p in (("fig3a", K, "start", 0), ("fig3a", K, "sgd"))]
    for K in sizes.long_ks:
        paths.append(("long-split", K))
        paths += [("fig3a", K, "start", s) for s in range(sizes.long_seeds) if ("fig3a", K, "start", s) not in paths]
    fig3c = [(M_, K) for M_ in (1, 2) for K in sizes.theory_ks if K % M_ == 0]
    paths += [("fig3c-near", M_, K) for M_, K in fig3c] + [("fig3c-random", M_, K) for M_, K in fig3c]
    paths += [("fig4", variant, K, use) for variant in sgd.LINEAR_VARIANTS for K in sizes.linear_ks
              for use in ("start", "sgd")]
    paths += [("figS4", variant, K, use) for variant in RELU_VARIANTS for K in sizes.relu_ks for use in ("start", "sgd")]
    return paths


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"fig3-theory-K{K}" if K == M_FIG3 else f"fig3-theory-bound-K{K}" for K in cfg.ks if K % M_FIG3 == 0]
    ids += ["fig3-falls-with-K", "long-split-frozen-sigma0", "long-split-selected-by-noise"]
    ids += [f"{c}-K{K}" for K in cfg.long_ks for c in ("long-reaches-theory", "long-random-not-below")]
    ids += [f"fig3b-sum-v-teacher{n}" for n in range(M_FIG3)]
    ids += [f"fig3c-M{M_}-K{K}" for M_ in (1, 2) for K in cfg.theory_ks if K % M_ == 0]
    ids += [f"fig4-{tag}-K{K}" for tag in ("scm", "normalised", "both", "normalised-start") for K in cfg.linear_ks]
    ids += [f"fig4-normalised-fixed-point-K{K}" for K in cfg.linear_ks] + ["fig4-both-layers-flat"]
    ids += [f"fig4-normalised-beats-both-K{K}" for K in cfg.linear_ks if K != 1]
    return ids + ["figS4-scm-grows", "figS4-both-stationary", "figS4-both-grows-less-than-scm", "figS4-both-grows"]


MUTATIONS = (
    Mutation(THEORY, 0.2, why="the denoising eps_g* 20 % off: SGD at K = M resolves it to 3 batch-means standard "
             "errors + (K+M)/N ~ 5-8 % at smoke scale, the ODE fixed points to their drift + 1e-3"),
    Mutation(ODE, -0.1, output="eg", why="eps_g of the ODEs (9) 10 % low: the ODE fixed points match the theory "
             "to their remaining drift + 1e-3 relative"),
    Mutation(EQ12[0], 0.2, why="eq. (12) 20 % high: the linear students' batch means resolve it to a few per cent"),
    Mutation(EQ12[1], 0.2, why="the effective rate eta' 20 % high moves eq. (12) by ~20 %"),
)
