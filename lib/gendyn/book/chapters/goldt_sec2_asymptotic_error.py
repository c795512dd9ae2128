"""Sizes and claim set of the chapter ``notebooks/goldt-et-al/sec2-asymptotic-error.md``.

Goldt, Advani, Saxe, Krzakala & Zdeborova (2019), §2, Fig. 2 and the supplementary Figs. S2 and S3: the asymptotic
error of soft committee machines with ``L = K - M`` superfluous units, eqs. (10)-(14), weight decay and the slow
manifold of anti-parallel superfluous units. The chapter itself holds its protocol, figures and claims; this module
holds what the pipeline reads before the chapter runs: its sizes at each scale, the ids of its claims (and the rate
and noise they depend on), the theory each claim should notice when perturbed and the named series of its random
streams (the experiments are :func:`gendyn.committee_sgd.stationary_run`,
:func:`~gendyn.committee_sgd.long_ode_runs` and :func:`gendyn.committee.manifold_point`, the theory
:func:`gendyn.committee.asymptotic_error` and :func:`~gendyn.committee.integrate_odes`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "LR", "SIGMA", "ODE", "EQ10", "SERIES", "stream_paths", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Goldt, Advani, Saxe, Krzakala & Zdeborova (2019) §2, Fig. 2 and SM: asymptotic error of soft
    committee machines, eqs. (10)-(13).
    """

    n: int  #: input dimension N
    erf_ls: tuple[int, ...]  #: superfluous units L = K - M of the erf students (M = 2)
    erf_alpha: float  #: length of the erf runs
    fig2b_l: int  #: L of the erf student of Fig. 2b
    scaling_l: int  #: L of the runs of eps_g* against sigma and eta
    scaling_sigmas: tuple[float, ...]  #: noise levels sigma of the scaling runs (at eta = 0.05)
    scaling_lrs: tuple[float, ...]  #: learning rates eta of the scaling runs (at sigma = 0.01)
    scaling_alpha: float  #: length of the scaling and weight-decay runs
    decay_ls: tuple[int, ...]  #: L of the weight-decay runs
    weight_decays: tuple[float, ...]  #: weight decays kappa
    long_alpha: float  #: length of the long ODE runs
    long_ls: tuple[int, ...]  #: L of the long ODE runs
    long_seeds: int  #: starts per L of the long ODE runs
    manifold_qs: tuple[float, ...]  #: squared norms of the anti-parallel pairs along the slow manifold
    linear_ls: tuple[int, ...]  #: L of the linear students
    linear_alpha: float  #: length of the linear students' runs
    relu_ls: tuple[int, ...]  #: L of the ReLU students
    relu_lrs: tuple[float, ...]  #: learning rates of the ReLU students
    relu_alpha: float  #: length of the ReLU students' runs
    inverse_k_ls: tuple[int, ...]  #: L of the erf students at eta = 1/K (Fig. S2)
    inverse_k_alpha: float  #: length of the eta = 1/K runs


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n=784,
        erf_ls=(0, 1, 2),  # L = K - M, M = 2 (for L >= 2 there is no settled state: see the long-time section)
        erf_alpha=1e5,
        fig2b_l=3,  # Fig. 2b: K = 5, the paper's (a run of its own when L is not in erf_ls)
        scaling_l=1,  # eps_g* against sigma and eta in simulation, from near the specialised state
        scaling_sigmas=(0.005, 0.01, 0.02, 0.04),
        scaling_lrs=(0.025, 0.1, 0.2),
        scaling_alpha=2e4,
        decay_ls=(1, 2),  # weight decay, from near the specialised state over scaling_alpha
        weight_decays=(1e-6, 1e-5, 1e-4),
        long_alpha=1e8,  # long ODE runs along the slow manifold of anti-parallel superfluous units
        long_ls=(2, 3, 4),
        long_seeds=3,  # starts drawn like the SGD runs' (i.i.d. N(0, 1) weights)
        manifold_qs=tuple(float(f"{q:.3g}") for q in np.logspace(-2, 4, 13)),
        linear_ls=(0, 1, 2, 3, 4),
        linear_alpha=2000.0,
        relu_ls=(0, 1, 2, 3),
        relu_lrs=(0.05, 0.1),
        relu_alpha=2e4,
        inverse_k_ls=(0, 1, 2),
        inverse_k_alpha=2e4,
    ),
    "smoke": Sizes(
        n=200,
        erf_ls=(0, 1),
        erf_alpha=1.5e4,
        fig2b_l=1,
        scaling_l=1,
        scaling_sigmas=(0.01, 0.04),
        scaling_lrs=(0.1,),
        scaling_alpha=4000.0,
        decay_ls=(1,),
        weight_decays=(1e-5,),
        long_alpha=1e8,
        long_ls=(2, 3),
        long_seeds=1,
        manifold_qs=(0.01, 0.1, 1.0, 10.0, 1e3, 1e4),
        linear_ls=(0, 1, 2),
        linear_alpha=500.0,
        relu_ls=(0, 2),
        relu_lrs=(0.05, 0.1),
        relu_alpha=4000.0,
        inverse_k_ls=(0, 1),
        inverse_k_alpha=5000.0,
    ),
}

#: Fig. 2's learning rate and output noise (the chapter's ``LR, SIGMA``; the scaling runs' ids depend on them).
LR, SIGMA = 0.05, 0.01
#: The theory the claims name (and the mutations perturb): the ODEs (9) and eq. (10).
ODE = "gendyn.committee.integrate_odes"
EQ10 = "gendyn.committee.asymptotic_error"

#: The chapter's series of random draws: the first name of every stream ``seeding.stream(SEED, name, ...)`` the
#: notebook draws from (:mod:`gendyn.seeding`). Each series has its own, so that no two series share a teacher,
#: a start or inputs by accident (the eta = 1/K runs of Fig. S2 once used the seeds of the ReLU runs at
#: eta = 0.1). Shared on purpose: the long ODE runs' start 0 of L is Fig. 2a's (``("erf", L, "start", 0)``), and
#: the weight-decay runs of one L use the same streams for every kappa (a paired design).
SERIES = {
    "erf": "Fig. 2a, erf SCMs: per L the starts (L, 'start', s; s > 0 for the long ODE runs) and SGD (L, 'sgd')",
    "linear": "Fig. 2a, linear SCMs: per L the start (L, 'start') and SGD (L, 'sgd')",
    "scaling": "eps_g* against eta and sigma: per setting j the start (j, 'start') and SGD (j, 'sgd')",
    "decay": "weight decay: per L the start (L, 'start') and SGD (L, 'sgd'), the same for every kappa",
    "long-near": "the long ODE runs: per L the jitter of the start near the specialised state",
    "relu": "Fig. S3, ReLU SCMs: per rate ('eta=<rate>') and L the start ('start') and SGD ('sgd')",
    "inverse-k": "Fig. S2, eta = 1/K: per L the start (L, 'start') and SGD (L, 'sgd')",
}


def stream_paths(sizes: Sizes) -> list[tuple[str | int, ...]]:
    """Every stream path (after ``SEED``) the notebook draws from at ``sizes``, each once, in the notebook's order.

    The scaling runs are numbered as the notebook numbers them (sorted ``(eta, sigma)`` settings); Fig. 2b's erf
    run is Fig. 2a's at ``fig2b_l`` (drawn on the same streams when ``fig2b_l`` is not one of Fig. 2a's sizes).
    """
    erf_ls = sorted(set(sizes.erf_ls) | {sizes.fig2b_l})
    paths: list[tuple[str | int, ...]] = [p for L in erf_ls for p in (("erf", L, "start", 0), ("erf", L, "sgd"))]
    paths += [("linear", L, use) for L in sizes.linear_ls for use in ("start", "sgd")]
    settings = sorted({(LR, s) for s in sizes.scaling_sigmas} | {(lr, SIGMA) for lr in sizes.scaling_lrs})
    paths += [("scaling", j, use) for j in range(len(settings)) for use in ("start", "sgd")]
    paths += [("decay", L, use) for L in sizes.decay_ls for use in ("start", "sgd")]
    for L in sizes.long_ls:
        paths.append(("long-near", L))
        paths += [("erf", L, "start", s) for s in range(sizes.long_seeds) if ("erf", L, "start", s) not in paths]
    paths += [("relu", f"eta={lr:g}", L, use) for lr in sizes.relu_lrs for L in sizes.relu_ls
              for use in ("start", "sgd")]
    paths += [("inverse-k", L, use) for L in sizes.inverse_k_ls for use in ("start", "sgd")]
    return paths


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    def asymptotic(tag, ls):
        return [i for L in ls for i in ((f"{tag}-sgd-vs-ode-L{L}", f"{tag}-eq10-L{L}") if L <= 1
                                         else (f"{tag}-eq10-bound-L{L}", f"{tag}-ode-eq10-bound-L{L}"))]
    ids = asymptotic("erf", cfg.erf_ls) + [f"linear-eq12-L{L}" for L in cfg.linear_ls]
    ids += ["erf-grows-with-L", "linear-grows-with-L"]
    settings = sorted({(LR, s) for s in cfg.scaling_sigmas} | {(rate, SIGMA) for rate in cfg.scaling_lrs})
    ids += [f"scaling-eta{lr:g}-sigma{s:g}" for lr, s in settings]
    ids += [f"weight-decay-L{L}-kappa{k:g}" for L in cfg.decay_ls for k in cfg.weight_decays]
    ids += [f"{c}-L{L}" for L in cfg.long_ls for c in ("long-settles-on-eq10", "long-below-eq10",
                                                       "long-above-limit", "manifold-limit")]
    ids += ["manifold-frozen-at-sigma0", "manifold-drift-outward", "manifold-drift-sigma2-c1",
            "manifold-drift-sigma2-c10"]
    ids += [f"relu-grows-with-L-eta{lr:g}" for lr in cfg.relu_lrs] + ["relu-proportional-to-eta"]
    return ids + asymptotic("inverse-k", cfg.inverse_k_ls)


MUTATIONS = (
    Mutation(EQ10, 0.2, why="eqs. (10), (12): 20 % of eps_g*; the SGD averages resolve it to 3 batch-means "
             "standard errors + (K+M)/N ~ 3-5 % at smoke scale"),
    Mutation(ODE, 0.1, output="eg", why="eps_g of the ODEs (9) 10 % high: SGD's time average matches the ODE's "
             "to ~3-5 % at smoke scale, and the long ODE runs match (10) to 1e-3"),
)
