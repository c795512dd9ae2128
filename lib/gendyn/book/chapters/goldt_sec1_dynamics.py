"""Companion of the chapter ``notebooks/goldt-et-al/sec1-dynamics.md``: online SGD against its ODEs.

Goldt et al. (2019), §1, Fig. 1 and Theorem 1. The experiments are science
(:func:`gendyn.committee_sgd.ode_comparison`, :func:`~gendyn.committee_sgd.ode_distance`,
:func:`~gendyn.committee_sgd.escape_time`) and the notebook shows their protocol; this module holds the
chapter's sizes, the figures (Fig. 1, the overlaps on the plateau and after it, the finite-size rate)
and the claims (a single run follows the ODEs; the escape from the plateau; the ``N^-1/2`` rate of
eq. (7); the two SGD engines agree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from gendyn import committee as cm
from gendyn import committee_sgd as sgd
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import t_quantile, z_quantile

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "plateau_index", "figure_1_learning_curves", "figure_1_overlaps",
           "check_single_run", "figure_finite_size", "check_finite_size"]


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


__all__ += ["SERIES", "stream_paths"]


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

# the ODE integrator keeps each order parameter to its absolute tolerance 1e-12, so eps_g, a sum of
# O(K^2) of them, is resolved only to ~1e-10: below that it is integrator noise, not data
EPS_FLOOR = 1e-10


def _floor(eps):
    """Errors below EPS_FLOOR are numerically zero: draw them at the bottom of the log axis."""
    return np.maximum(eps, EPS_FLOOR)


def plateau_index(ode: cm.ODEResult, times: np.ndarray, *, after: float) -> int:
    """Index in ``times`` of the plateau: where ``eps_g`` of the ODE is flattest in log-log after ``after``.

    Only errors above ``1e-3`` count (the plateau lies above the escape); ``ode`` is recorded at ``times``.
    """
    a, e = ode.alpha[1:], _floor(ode.eg[1:])
    slope = np.gradient(np.log(e), np.log(a))
    ok = (a >= after) & (e > 1e-3)
    return int(np.argmin(np.abs(times - a[ok][np.argmin(np.abs(slope[ok]))])))


def figure_1_learning_curves(runs: dict[int, sgd.ODEComparison], times: np.ndarray, *, i_plateau: int, n: int,
                             m: int, lr: float) -> Figure:
    """Fig. 1: ``eps_g(alpha)`` of the ODEs (lines), one SGD run (crosses) and the SGD runs' range (band).

    ``runs``: :func:`gendyn.committee_sgd.ode_comparison` per ``K``; arrows mark ``times[i_plateau]`` and the
    end of the runs (the times of :func:`figure_1_overlaps`); ``n, m, lr`` go to the title.
    """
    fig, ax = plotting.subplots(1, 1, height=3.6)
    for j, (K, r) in enumerate(runs.items()):
        color = plotting.COLORS[j]
        lo, hi = _floor(r.spread.eg).min(0), _floor(r.spread.eg).max(0)
        ax.fill_between(times[1:], lo[1:], hi[1:], color=color, alpha=0.18, lw=0)
        ax.loglog(times[1:], _floor(r.ode.eg[1:]), color=color, label=f"K = {K}")
        ax.loglog(times[1::2], _floor(r.single.eg[0, 1::2]), "x", ms=4, color=color)
    for a in (times[i_plateau], times[-1]):
        ax.annotate("", xy=(a, 2 * EPS_FLOOR), xytext=(a, 1e3 * EPS_FLOOR), arrowprops=dict(arrowstyle="->", color="k"))
    ax.set(xlabel=r"$\alpha$ = steps / N", ylabel=r"$\epsilon_g$", title=f"N = {n}, M = {m}, $\\eta$ = {lr}")
    ax.legend(loc="lower left")
    return fig


def figure_1_overlaps(single: sgd.SGDResult, i_plateau: int) -> Figure:
    """The teacher-student overlaps ``R_in`` of one SGD run on the plateau and at the end (specialised).

    ``single``: the run (its first), recorded at the times of Fig. 1; ``i_plateau``: the plateau's index.
    """
    times, (K, m) = single.alpha, single.R.shape[-2:]
    fig, axes = plotting.subplots(1, 2, height=3.0)
    for k, (i, label) in enumerate(((i_plateau, "plateau"), (len(times) - 1, "specialised"))):
        im = axes[k].imshow(single.R[0, i], vmin=-1, vmax=1, cmap="RdBu_r")
        axes[k].set(title=f"$R_{{in}}$, K = {K}, {label}, $\\alpha$ = {times[i]:.3g}",
                    xlabel="teacher unit n", xticks=range(m), yticks=range(K))
    axes[0].set_ylabel("student unit i")
    fig.colorbar(im, ax=axes, fraction=0.046)
    return fig


def check_single_run(ledger: Ledger, runs: dict[int, sgd.ODEComparison], times: np.ndarray, *, m: int,
                     early_alpha: float, early_runs: int) -> None:
    """Claims: one SGD run follows the ODEs up to ``early_alpha`` (eq. 7), and the ODE's plateau escape.

    Per ``K``: the largest absolute difference SGD - ODE of ``eps_g`` in units of the spread of the ``early_runs``
    order-parameter runs, against the t prediction interval; for ``K >= m``, the ODE's escape time
    (first ``eps_g < 1e-3``) within 3 standard deviations of the SGD runs' ``log10`` escape times.
    """
    grid_step = np.log10(times[-1] / times[-2])
    for K, r in runs.items():
        early = (times > 0) & (times <= early_alpha)
        s = r.early.eg[:, 1:].std(0, ddof=1) * np.sqrt(1 + 1 / early_runs)
        deviation = np.abs(r.single.eg[0, early] - r.ode.eg[early]) / s
        ledger.check(
            f"early-K{K}",
            f"Single SGD run (weights) vs ODE (9) up to alpha = {early_alpha:g}, K = {K}: largest |difference| "
            "in units of the SGD spread s(alpha)",
            measured=deviation.max(), predicted=0.0, tolerance=t_quantile(early.sum(), early_runs - 1),
            kind="absolute",
            reason=f"Prediction interval of one SGD run: t quantile ({early_runs - 1} dof, Bonferroni over "
            f"{early.sum()} times, level 1e-3) of the spread of {early_runs} order-parameter runs from the "
            f"same initial state (finite-N fluctuations, eq. 7).",
            theory=(ODE, RHS), reference=np.max(r.ode.eg[early] / s),
        )
        if K < m:
            continue
        t_sgd = np.array([sgd.escape_time(times, e) for e in np.vstack([r.spread.eg, r.single.eg])])
        t_ode = sgd.escape_time(times, r.ode.eg)
        if np.isinf(t_sgd).any():  # censored: still on the plateau at the end of the run
            print(f"K = {K}: {np.isinf(t_sgd).sum()} SGD runs still on the plateau at alpha = {times[-1]:g}; "
                  "their escape time is set to the end of the run (a lower bound)")
        log_t = np.log10(np.where(np.isinf(t_sgd), times[-1], t_sgd))
        ledger.check(
            f"escape-K{K}",
            f"Plateau escape (first eps_g < 1e-3), K = {K}: log10 alpha of the ODE vs the mean over "
            f"{len(t_sgd)} SGD runs",
            measured=np.log10(t_ode), predicted=log_t.mean(), tolerance=3 * log_t.std(ddof=1) + grid_step,
            kind="absolute",
            reason="The escape from an unstable plateau is set by O(N^-1/2) asymmetries: 3 standard deviations "
            "of the SGD runs' log escape times plus one step of the time grid (the crossing is interpolated); "
            "resolution: the relative error of the escape time it would see.",
            theory=(ODE, RHS), reference=1 / np.log(10),
        )


def figure_finite_size(fs: dict[tuple[int, str], sgd.ODEDistance], sizes: Sequence[int], slope: float,
                       slope_se: float, *, early_alpha: float) -> Figure:
    """The mean SGD-ODE distance against ``N`` for both engines, with the ``N^-1/2`` of eq. (7).

    ``fs``: :func:`gendyn.committee_sgd.ode_distance` per ``(N, engine)``, ``sizes`` its input dimensions (all
    of them ran the order-parameter chain); the fitted exponent ``slope +- slope_se`` and ``early_alpha`` go to
    the title.
    """
    ns = np.array(sizes, dtype=float)
    mean_gap = np.array([fs[n, "order-parameters"].rms.mean() for n in sizes])
    fig, ax = plotting.subplots(1, 1, height=3.4)
    for engine, marker in (("order-parameters", "o"), ("weights", "s")):
        g = np.array([fs[n, engine].rms for n in sizes if (n, engine) in fs])
        ax.errorbar([n for n in sizes if (n, engine) in fs], g.mean(1), yerr=g.std(1, ddof=1) / np.sqrt(g.shape[1]),
                    fmt=marker, ms=4, capsize=2, mfc="none" if engine == "weights" else None,
                    label=f"SGD, {engine} engine")
    ax.loglog(ns, mean_gap[0] * (ns / ns[0]) ** -0.5, "k:", lw=1, label=r"$\propto N^{-1/2}$")
    ax.yaxis.set_minor_formatter(plt.NullFormatter())
    ax.set(xscale="log", yscale="log", xlabel="N", ylabel=r"RMS $|\epsilon_g^{SGD} - \epsilon_g^{ODE}|$",
           title=f"K = M = 4, $0<\\alpha\\leq{early_alpha:g}$: fitted slope {slope:.2f} ± {slope_se:.2f}")
    ax.legend()
    return fig


def check_finite_size(ledger: Ledger, fs: dict[tuple[int, str], sgd.ODEDistance], slope: float, slope_se: float, *,
                      sizes: Sequence[int], weights_sizes: Sequence[int]) -> None:
    """Claims: the fitted exponent of the SGD-ODE distance is -1/2 (eq. 7), and the two engines agree.

    ``fs``: :func:`gendyn.committee_sgd.ode_distance` per ``(N, engine)`` at input dimensions ``sizes``
    (``weights_sizes`` with both engines); ``slope +- slope_se`` the fitted exponent and its bootstrap standard
    error. The engines agree if the mean of ``sqrt(N) x`` distance is the same within 3 standard errors of the
    difference.
    """
    ledger.check(
        "finite-size-rate",
        "Exponent of the RMS SGD-ODE distance of eps_g vs N (fit over N), Theorem 1 / eq. (7)",
        measured=slope, predicted=-0.5, tolerance=3 * slope_se, kind="absolute",
        reason=f"3 bootstrap standard errors of the fitted exponent "
        f"({len(fs[sizes[0], 'order-parameters'].rms)} runs per N, {len(sizes)} sizes). A wrong ODE leaves an "
        "N-independent gap: the exponent then tends to 0.",
        theory=(ODE, RHS),
    )
    scaled = {e: np.concatenate([fs[n, e].rms * np.sqrt(n) for n in weights_sizes])
              for e in ("weights", "order-parameters")}
    se = np.sqrt(sum(x.var(ddof=1) / x.size for x in scaled.values()))
    mean = scaled["order-parameters"].mean()
    # a two-sided test at 3 standard errors sees a true difference of (3 + 1.28) se with power 0.9
    detectable = (3 + z_quantile(1, 0.1, sides=1)) * se
    ledger.check(
        "engines-agree",
        "Mean sqrt(N) x SGD-ODE distance: weight-space SGD vs the order-parameter chain, "
        f"N in {list(weights_sizes)}",
        measured=scaled["weights"].mean(), predicted=mean, tolerance=3 * se,
        kind="absolute",
        reason=f"A finding about our two simulators (the chain's law is SGD's, derived in gendyn.committee_sgd): "
        f"no difference beyond 3 standard errors of the difference of two means over {scaled['weights'].size} runs "
        f"each. Power: a difference of {detectable:.2g} ({detectable / mean:.0%} of the mean) would be seen with "
        "probability 0.9.",
        category="finding",
    )
