"""Sizes and claim set of the chapter ``notebooks/goldt-et-al/sec1-dynamics.md``.

Goldt, Advani, Saxe, Krzakala & Zdeborova (2019), §1, Fig. 1 and Theorem 1: online SGD of soft committee
machines against the ODEs (9), the plateau and its escape, and the ``N^-1/2`` rate of eq. (7). The chapter
itself holds its protocol, figures and claims; this module holds what the pipeline reads before the chapter
runs: its sizes at each scale, the ids of its claims, the theory each claim should notice when perturbed and
the named series of its random streams (the experiments are :func:`gendyn.committee_sgd.ode_comparison`,
:func:`~gendyn.committee_sgd.ode_distance` and :func:`~gendyn.committee_sgd.escape_time`, the theory
:func:`gendyn.committee.integrate_odes`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "ODE", "RHS", "SERIES", "stream_paths", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Goldt, Advani, Saxe, Krzakala & Zdeborova (2019) §1, Fig. 1: SGD vs the ODEs (9).
    """

    n: int  #: input dimension N
    ks: tuple[int, ...]  #: student sizes K (teacher M = 4)
    alpha_max: float  #: length of the runs of Fig. 1
    n_times: int  #: recorded times (log grid)
    spread_runs: int  #: extra SGD runs per K for the band of Fig. 1 and the escape times
    early_runs: int  #: extra SGD runs per K up to early_alpha, for the prediction interval
    early_alpha: float  #: end of the compared approach to the plateau
    finite_size_n: tuple[int, ...]  #: input dimensions N of the finite-size check
    finite_size_runs: int  #: runs per N of the finite-size check
    finite_size_weights_n: tuple[int, ...]  #: sizes also run with the weight-space engine


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n=784,  # N of Fig. 1
        ks=(2, 4, 6, 8),
        alpha_max=5000.0,
        n_times=60,
        spread_runs=8,
        early_runs=32,
        early_alpha=20.0,
        finite_size_n=(100, 200, 400, 800, 1600, 3200, 6400),
        finite_size_runs=10,
        finite_size_weights_n=(100, 200, 400, 800),
    ),
    "smoke": Sizes(
        n=200,
        ks=(2, 4),
        alpha_max=2000.0,
        n_times=40,
        spread_runs=4,
        early_runs=12,
        early_alpha=10.0,
        finite_size_n=(50, 100, 200, 400),
        finite_size_runs=4,
        finite_size_weights_n=(50, 100),
    ),
}

#: The theory the claims name (and the mutations perturb): the ODEs (9) and their right-hand side.
ODE = "gendyn.committee.integrate_odes"
RHS = "gendyn.committee._derivatives"  # the right-hand side of (9), as the integrator calls it
M_TEACHER = 4  # Fig. 1's teacher units (the chapter's M): students with K >= M escape the plateau


#: The chapter's series of random draws: the first name of every stream ``seeding.stream(SEED, name, ...)`` the
#: notebook draws from (:mod:`gendyn.seeding`); each series its own, so no two share a teacher, a start or inputs.
SERIES = {
    "fig1": "Fig. 1, per K: the teacher and student (K, 'start') and the SGD runs from them (K, 'sgd')",
    "finite-size": "the N^-1/2 rate, per engine and N: the networks (engine, N, 'start') and their SGD "
                   "(engine, N, 'sgd')",
    "bootstrap": "the bootstrap of the fitted N^-1/2 exponent's standard error",
}


def stream_paths(sizes: Sizes) -> list[tuple[str | int, ...]]:
    """Every stream path (after ``SEED``) the notebook draws from at ``sizes``, in the notebook's order."""
    paths: list[tuple[str | int, ...]] = [("fig1", K, use) for K in sizes.ks for use in ("start", "sgd")]
    for engine, ns in (("order-parameters", sizes.finite_size_n), ("weights", sizes.finite_size_weights_n)):
        paths += [("finite-size", engine, n, use) for n in ns for use in ("start", "sgd")]
    return paths + [("bootstrap",)]


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ([f"early-K{K}" for K in cfg.ks] + [f"escape-K{K}" for K in cfg.ks if K >= M_TEACHER]
            + ["finite-size-rate", "engines-agree"])


MUTATIONS = (
    Mutation(ODE, 0.1, output="eg", why="eps_g of the ODEs (9) 10 % high: a single run follows the ODE to a few "
             "per cent of eps_g up to early_alpha at N = 200, and the SGD-ODE distance stops shrinking with N"),
    Mutation(RHS, 0.6, why="the ODEs (9) run 60 % fast (every derivative x1.6, a learning rate 60 % off): the "
             "approach to the plateau moves by more than SGD's spread, and the escape time is 1/1.6 of the true "
             "one, 0.2 in log10 alpha, while the escape claim allows 3 "
             "standard deviations of SGD's log escape times + a grid step (with the named streams 0.33, 0.32 and "
             "0.18 at seeds 0, 1, 2: the escape claim sees it at some seeds only; the other claims kill it)"),
    Mutation(RHS, 2.0, why="the ODEs (9) run 3x fast: the escape time is 1/3 of the true one, 0.48 in log10 alpha, "
             "beyond the escape claim's resolution at every seed (3 standard deviations of SGD's log escape "
             "times, a single run's spread, not the mean's: 0.18-0.33 at smoke); the claim compares the ODE "
             "with single runs, so its resolution is a factor of about 2 in escape time, not 60 %"),
)
