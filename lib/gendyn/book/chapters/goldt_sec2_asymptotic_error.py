"""Companion of the chapter ``notebooks/goldt-et-al/sec2-asymptotic-error.md``: the asymptotic error of SCMs.

Goldt et al. (2019), §2, Fig. 2 and the supplementary Figs. S2 and S3. The experiments are science
(:func:`gendyn.committee_sgd.stationary_run`, :func:`gendyn.committee_sgd.long_ode_runs`,
:func:`gendyn.committee.manifold_point`) and the notebook
shows their protocol; here are the chapter's sizes, its figures (Figs. 2a, 2b, S2, S3, the scaling with
``eta`` and ``sigma``, the long times) and its claims (eqs. (10)-(14), weight decay, the slow manifold).
A series is a dict ``L -> StationaryRun`` (``L = K - M`` superfluous units).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from gendyn import committee as cm
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import weighted_slope_z
from gendyn.committee_sgd import StationaryRun

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "SERIES", "stream_paths", "LR", "SIGMA", "SETTLE", "figure_2a",
           "check_asymptotic", "check_linear", "check_growth", "figure_scaling", "check_scaling",
           "check_weight_decay", "weight_decay_worst", "LongTimes", "long_time_numbers", "figure_long_times",
           "check_long_times", "figure_2b", "figure_s3_relu", "check_relu", "figure_s2_inverse_k"]

Series = dict[int, StationaryRun]

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
SETTLE = 1e5  #: a time near the specialised state where (10) should hold (the long ODE runs record it)


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


def figure_2a(erf: Series, linear: Series, *, n: int, m: int, lr: float, sigma: float) -> Figure:
    """Fig. 2a: ``eps_g* / sigma^2`` against ``L`` (eqs. (10)-(13), SGD, ODE), and the erf learning curves.

    ``erf`` (with the ODE), ``linear``: series at rate ``lr``, noise ``sigma``, ``m`` teacher units, input
    dimension ``n``.
    """
    fig, axes = plotting.subplots(1, 2, height=3.6)
    ax = axes[0]
    L_fine = np.arange(0, max(max(erf), max(linear)) + 1)
    curves = (("erf", False, "-", 0, {}, "erf, eq. (10)"), ("erf", True, ":", 0, {}, "erf, small $\\eta$ (11)"),
              ("linear", False, "--", 1, {}, "linear, eq. (12)"),
              ("linear", True, "-.", 1, dict(lw=1), "linear, small $\\eta$ (13)"))
    for act, small_lr, style, color, extra, label in curves:
        ax.plot(L_fine, [cm.asymptotic_error(act, m, m + L, cm.OnlineSGD(lr, sigma), small_lr=small_lr) / sigma**2
                         for L in L_fine],
                style, color=plotting.COLORS[color], **extra, label=label)
    ax.errorbar(list(erf), [r.sgd / sigma**2 for r in erf.values()], yerr=[3 * r.se / sigma**2 for r in erf.values()],
                fmt="x", color=plotting.COLORS[0], ms=7, zorder=4, label="erf, SGD")
    ax.plot(list(erf), [r.ode / sigma**2 for r in erf.values()], "d", mfc="none",
            color=plotting.COLORS[0], ms=10, zorder=3, label="erf, ODE (same times)")
    ax.errorbar(list(linear), [r.sgd / sigma**2 for r in linear.values()],
                yerr=[3 * r.se / sigma**2 for r in linear.values()], fmt="x", color=plotting.COLORS[1], ms=7,
                label="linear, SGD")
    ax.set(xlabel="L = K − M", ylabel=r"$\epsilon_g^*/\sigma^2$", title=f"N = {n}, M = {m}")
    ax.legend(fontsize=7)
    ax = axes[1]
    for j, (L, row) in enumerate(erf.items()):
        ax.loglog(row.run.alpha[1:], row.run.eg[0, 1:], color=plotting.COLORS[j], lw=0.8, alpha=0.7, label=f"L = {L}")
        ax.loglog(row.ode_run.alpha[1:], np.maximum(row.ode_run.eg[1:], 1e-12), "--", color=plotting.COLORS[j], lw=1)
        ax.axhline(row.theory, color=plotting.COLORS[j], ls=":", lw=0.8)
    ax.set(xlabel=r"$\alpha$", ylabel=r"$\epsilon_g$", title="erf SCMs",
           ylim=(0.3 * min(r.theory for r in erf.values()), None))
    ax.legend(fontsize=7)
    return fig


def _superfluous_pairs(res):
    """Norms and cosines of the superfluous units at the end of a run (the specialist of each teacher unit
    is the student unit of largest overlap ``R``; the other ``L`` units are superfluous), and their ``R``."""
    Qf, Rf = res.Q[0, -1], res.R[0, -1]
    idle = np.setdiff1d(np.arange(Qf.shape[0]), np.argmax(Rf, axis=0))
    norms = np.sqrt(np.diag(Qf)[idle])
    cos = Qf[np.ix_(idle, idle)] / np.outer(norms, norms)
    return norms, cos[np.triu_indices(len(idle), 1)], np.round(Rf[idle], 3).tolist()


def check_asymptotic(ledger: Ledger, series: Series, *, tag: str, label: str, n: int, m: int) -> None:
    """Claims of Fig. 2a (and S2) for erf SCMs: SGD = ODE and eq. (10) for ``L <= 1``; below (10) for ``L >= 2``.

    ``series`` with the ODE; ``tag`` prefixes the claim ids, ``label`` names the students; ``n, m`` set the
    finite-N bias ``(K + m) / n`` (relative) of the tolerances. For ``L >= 2`` prints the superfluous units'
    norms, cosines and overlaps (anti-parallel pairs).
    """
    for L, row in series.items():
        bias = (row.K + m) / n
        tol = 3 * row.se + bias * row.theory
        if L <= 1:
            ledger.check(
                f"{tag}-sgd-vs-ode-L{L}",
                f"{label}, L = {L}: time-averaged SGD eps_g vs the ODE (9) from the same initial state, same times",
                measured=row.sgd, predicted=row.ode, tolerance=3 * row.se + bias * row.ode, kind="absolute",
                reason=f"3 batch-means standard errors of the SGD time average ({row.se:.2g}) + "
                f"finite-N bias (K+M)/N = {bias:.2g} relative.", theory=ODE)
            ledger.check(
                f"{tag}-eq10-L{L}", f"{label}, L = {L}: time-averaged SGD eps_g* vs eq. (10)",
                measured=row.sgd, predicted=row.theory, tolerance=tol, kind="absolute",
                reason="3 batch-means standard errors + finite-N bias (K+M)/N relative; (10) is "
                "first order in sigma^2, the next order is ~sigma^2 = 1e-4 relative.", theory=EQ10)
            continue
        norms, cos, idle_R = _superfluous_pairs(row.run)
        print(f"{label}, L = {L}: superfluous units' norms {np.round(norms, 3)}, "
              f"their cosines {np.round(cos, 3)}, overlaps with the teacher {idle_R}; "
              f"SGD eps_g*/eq. (10) = {row.sgd / row.theory:.3f}, ODE (same times) {row.ode / row.theory:.3f}, "
              f"ODE at 10x the horizon {row.ode_long / row.theory:.3f}")
        ledger.check(
            f"{tag}-eq10-bound-L{L}",
            f"{label}, L = {L}: time-averaged SGD eps_g* at or below eq. (10) (anti-parallel superfluous units); "
            "the paper's Fig. 2a shows equality, which we do not find",
            measured=row.sgd, predicted=row.theory, tolerance=tol, kind="upper",
            reason="A finding that departs from the paper, one-sided by necessity: for L >= 2 no stationary state "
            "exists (the long-time section), only a drift along the anti-parallel family of zero-error states, "
            "which lies at or below the state that (10) perturbs, so where a run ends depends on its horizon and "
            "on its diffusion along the family; 3 batch-means standard errors + finite-N bias (K+M)/N relative.",
            category="finding")
        ledger.check(
            f"{tag}-ode-eq10-bound-L{L}",
            f"{label}, L = {L}: ODE eps_g at 10x the horizon at or below eq. (10) (the paper: equal)",
            measured=row.ode_long, predicted=row.theory, tolerance=1e-3 * row.theory, kind="upper",
            reason="A finding that departs from the paper: the ODE passes (10) and keeps falling (long-time "
            "section); integrator tolerance (relative 1e-3).", category="finding")


def check_linear(ledger: Ledger, series: Series, *, n: int, lr: float) -> None:
    """Claims of Fig. 2a for linear SCMs: the time-averaged SGD ``eps_g*`` equals eq. (12) for every ``L``
    (``series`` at rate ``lr`` and input dimension ``n``)."""
    for L, row in series.items():
        ledger.check(
            f"linear-eq12-L{L}", f"linear SCM, L = {L}: time-averaged SGD eps_g* vs eq. (12)",
            measured=row.sgd, predicted=row.theory, tolerance=3 * row.se + 4 * lr * row.K / n * row.theory,
            kind="absolute",
            reason="3 batch-means standard errors + the exact finite-N correction of the linear "
            "perceptron (eta' -> eta' (1 + 2/N) in the denominator of (12)), bounded by 4 eta K / N "
            "relative.", theory=(EQ10, "gendyn.committee.linear_stationary_error"))


def _growth_z(series: Series) -> float:
    """Slope of ``eps_g*`` against ``L`` over its standard error (:func:`gendyn.book.stats.weighted_slope_z`)."""
    return weighted_slope_z(list(series), [r.sgd for r in series.values()], [r.se for r in series.values()])


def check_growth(ledger: Ledger, series: dict[str, Series]) -> None:
    """Claims of eq. (14): ``eps_g*`` grows with ``L``, a slope positive by > 3 standard errors
    (``series``: activation name -> its series)."""
    for name, rows in series.items():
        ledger.check(
            f"{name}-grows-with-L", f"{name} SCM: slope of the SGD eps_g* against L, in standard errors (weighted fit)",
            measured=_growth_z(rows), predicted=0.0, tolerance=3.0, kind="above",
            reason="The paper's eq. (14), eps_g* grows with L, reproduced as a z-score: the weighted slope is positive "
            "by more than 3 standard errors (a one-sided test at level 1.3e-3; by eqs. (10)/(12) the growth per "
            "unit is 33-90 % of eps_g*, tens of standard errors, so the test has power near 1).",
            category="reproduction")


def figure_scaling(scaling: dict[tuple[float, float], StationaryRun], *, K: int, m: int, lr: float,
                   sigma: float) -> Figure:
    """``eps_g* / (eta sigma^2)`` against ``sigma`` (at ``lr``) and ``eta`` (at ``sigma``): SGD, eq. (10), (11).

    ``scaling``: ``(eta, sigma) ->`` its run, for students of ``K`` units and ``m`` teacher units.
    """
    fig, axes = plotting.subplots(1, 2, height=3.0)
    for ax, (vary, fixed, xlabel) in zip(axes, (("sigma", lr, r"$\sigma$"), ("eta", sigma, r"$\eta$"))):
        pts = sorted((s, rate) if vary == "sigma" else (rate, s) for (rate, s) in scaling
                     if (rate if vary == "sigma" else s) == fixed)
        xs = np.array([p[0] for p in pts])
        keys = [(fixed, x) if vary == "sigma" else (x, fixed) for x in xs]
        norm = np.array([rate * s**2 for rate, s in keys])
        ax.errorbar(xs, [scaling[k].sgd for k in keys] / norm, yerr=[3 * scaling[k].se for k in keys] / norm,
                    fmt="x", ms=7, color=plotting.COLORS[0], label="SGD")
        fine = np.geomspace(xs.min() / 1.5, xs.max() * 1.5, 40)
        if vary == "sigma":
            line = [cm.asymptotic_error("erf", m, K, cm.OnlineSGD(lr, x)) / (lr * x**2) for x in fine]
        else:
            line = [cm.asymptotic_error("erf", m, K, cm.OnlineSGD(x, sigma)) / (x * sigma**2) for x in fine]
        ax.plot(fine, line, "-", color=plotting.COLORS[0], label="eq. (10)")
        ax.axhline(cm.asymptotic_error("erf", m, K, cm.OnlineSGD(1e-6, sigma), small_lr=True) / (1e-6 * sigma**2),
                   color="0.5",
                   ls=":", lw=1, label=r"small $\eta$ (11)")
        other = r"$\eta$ = " + f"{fixed:g}" if vary == "sigma" else r"$\sigma$ = " + f"{fixed:g}"
        ax.set(xscale="log", xlabel=xlabel, ylabel=r"$\epsilon_g^*/(\eta\sigma^2)$", title=f"erf, K = {K}, {other}")
        ax.set_xticks(xs, [f"{x:g}" for x in xs])
        ax.xaxis.set_minor_formatter(plt.NullFormatter())
        ax.legend(fontsize=7)
    return fig


def check_scaling(ledger: Ledger, scaling: dict[tuple[float, float], StationaryRun], *, n: int, m: int) -> None:
    """Claims: each run of ``scaling`` (``(eta, sigma) ->`` run) equals eq. (10) at its ``eta, sigma``, within
    3 batch-means standard errors plus the finite-N bias ``(K + m) / n`` relative."""
    for (lr, s), row in scaling.items():
        ledger.check(
            f"scaling-eta{lr:g}-sigma{s:g}",
            f"erf SCM, L = {row.L}, eta = {lr:g}, sigma = {s:g}: time-averaged SGD eps_g* (near-specialised start) "
            "vs eq. (10)",
            measured=row.sgd, predicted=row.theory, tolerance=3 * row.se + (row.K + m) / n * row.theory,
            kind="absolute", reason="3 batch-means standard errors + finite-N bias (K+M)/N relative.", theory=EQ10)


def check_weight_decay(ledger: Ledger, decay: dict[tuple[int, float], StationaryRun], *, ls: Sequence[int],
                       decays: Sequence[float]) -> None:
    """Claims: with weight decay (each ``kappa`` in ``decays``) ``eps_g*`` is not below its value without.

    ``decay``: ``(L, kappa) ->`` run, ``kappa = 0`` included, for ``L`` in ``ls``; tolerance 3 combined
    standard errors.
    """
    for L in ls:
        base = decay[L, 0.0]
        for kappa in decays:
            row = decay[L, kappa]
            ledger.check(
                f"weight-decay-L{L}-kappa{kappa:g}",
                f"erf SCM, L = {L}: time-averaged SGD eps_g* with weight decay kappa = {kappa:g}, against that without",
                measured=row.sgd, predicted=base.sgd, tolerance=3 * np.hypot(row.se, base.se), kind="lower",
                reason="The paper's observation (its section G) that weight decay does not improve eps_g*, reproduced: "
                "not lower than without decay by more than 3 combined batch-means standard errors (one-sided: "
                "an improvement of 3 standard errors, a few per cent of eps_g*, would be seen).",
                category="reproduction")


def weight_decay_worst(decay: dict[tuple[int, float], StationaryRun], *, ls: Sequence[int], kappa: float) -> str:
    """``eps_g*`` at weight decay ``kappa`` over that without, as text: the range over ``L`` in ``ls``."""
    worst = sorted({f"{decay[L, kappa].sgd / decay[L, 0.0].sgd:.3g}" for L in ls})
    return "–".join(worst[:: max(len(worst) - 1, 1)])


@dataclass(frozen=True)
class LongTimes:
    """The long ODE runs of erf SCMs and the slow manifold of their superfluous units, as the notebook ran them.

    Attributes
    ----------
    m, lr, sigma, erf_alpha
        Teacher units, the chapter's rate and noise, the horizon of Fig. 2a's SGD.
    eq10 : dict
        ``L -> eq. (10)`` for ``L = 0 .. max(ls)``.
    runs : dict
        ``L ->`` :func:`gendyn.committee_sgd.long_ode_runs`: from near the specialised state and from the SGD
        runs' starts.
    qs : ndarray
        Squared norms ``c`` of an anti-parallel pair on the manifold.
    manifold : dict
        ``L ->`` a :class:`gendyn.committee.ManifoldPoint` per ``c`` at ``(lr, sigma)``.
    pairs : dict
        ``(eta, sigma) ->`` the manifold points of ``L = 2`` (the drift runs).
    frozen : ODEResult
        A pair (``c = 1``, L = 2) at ``sigma = 0``.
    window : float
        The rescaled time ``eta^2 sigma^2 alpha`` of every drift measurement.
    """

    m: int
    lr: float
    sigma: float
    erf_alpha: float
    eq10: dict
    runs: dict
    qs: np.ndarray
    manifold: dict
    pairs: dict
    frozen: cm.ODEResult
    window: float

    @property
    def long_alpha(self) -> float:
        """The horizon of the long runs."""
        return next(iter(self.runs.values())).long_alpha

    @property
    def drift(self) -> dict:
        """``(eta, sigma) ->`` the normalised drifts ``d ln c / d alpha / (eta sigma)^2``, one per ``c``."""
        return {rs: np.array([p.rate for p in points]) for rs, points in self.pairs.items()}

    @property
    def final(self) -> dict:
        """``L -> eps_g / eq. (10)`` at ``long_alpha`` of every run (near start first)."""
        return {L: [run.eg[-1] / self.eq10[L] for run in [r.near, *r.starts]] for L, r in self.runs.items()}

    @property
    def crossings(self) -> list:
        """Last time above (10) of each start that is above it after ``alpha = 1e3``."""
        out = []
        for L, r in self.runs.items():
            for run in r.starts:
                above = (run.eg > np.array([self.eq10[L]])) & (run.alpha >= 1e3)
                if above.any():
                    out.append(run.alpha[min(np.nonzero(above)[0].max() + 1, len(run.alpha) - 1)])
        return out


def long_time_numbers(long: LongTimes) -> dict[str, str]:
    """The numbers of the long-time section's text, formatted: glue name -> text.

    The horizon, the drift of a small pair and at ``c = 1``, its e-folding time (also over the SGD
    runs' horizon), the range of the final errors over (10), the last crossings of (10), the limit of L = 2.
    """
    lr, sigma, qs, drift = long.lr, long.sigma, long.qs, long.drift
    efold = 1 / (drift[lr, sigma][0] * (lr * sigma) ** 2)  # e-folding time of a small pair
    final, crossings = long.final, long.crossings
    return {
        "goldt-sec2-long-alpha": f"{long.long_alpha:.0e}".replace("e+0", "e"),
        "goldt-sec2-drift-small": f"{drift[lr, sigma][0]:.2f}",
        "goldt-sec2-drift-q": f"{qs[0]:g}",
        "goldt-sec2-drift-one": f"{drift[lr, sigma][np.argmin(abs(qs - 1))]:.2f}",
        "goldt-sec2-efold": f"{efold:.2g}".replace("e+0", "e"),
        "goldt-sec2-efold-horizon": f"{efold / long.erf_alpha:.0f}",
        "goldt-sec2-final-range": (f"{min(min(v) for v in final.values()):.2f}–"
                                   f"{max(max(v) for v in final.values()):.2f}"),
        "goldt-sec2-crossings": (f"{min(crossings):.1e}–{max(crossings):.1e}".replace("e+0", "e") if crossings
                                 else "(none in this run)"),
        "goldt-sec2-limit-l2": f"{long.eq10[0] / long.eq10[2]:.3f}",
    }


def figure_long_times(long: LongTimes) -> Figure:
    """The slow manifold: long ODE runs over eq. (10); the error on the manifold against ``c``; the drift.

    Left: ``eps_g`` / (10) from the SGD runs' starts (solid) and
    near the specialised state (dashed), the ``c -> inf`` limits dotted; middle: on the manifold;
    right: the normalised outward drift at four ``(eta, sigma)``.
    """
    qs, eq10 = long.qs, long.eq10
    fig, axes = plotting.subplots(1, 3, height=3.2)
    ax = axes[0]
    for j, (L, r) in enumerate(long.runs.items()):
        near = r.near
        color = plotting.COLORS[j]
        for s, run in enumerate(r.starts):
            ax.loglog(run.alpha[1:], run.eg[1:] / eq10[L], color=color, lw=1, alpha=0.8,
                      label=f"L = {L}" if s == 0 else None)
        ax.loglog(near.alpha[1:], near.eg[1:] / eq10[L], "--", color=color, lw=1)
        ax.axhline(eq10[L % 2] / eq10[L], color=color, ls=":", lw=1)
    ax.axhline(1.0, color="k", lw=0.6)
    ax.axvline(long.erf_alpha, color="0.6", lw=0.8)
    ax.set(xlabel=r"$\alpha$", ylabel=r"$\epsilon_g$ / eq. (10)", xlim=(1e2, long.long_alpha), ylim=(0.15, 4),
           title="ODE, long runs")
    ax.set_yticks([0.2, 0.5, 1, 2, 4], ["0.2", "0.5", "1", "2", "4"])
    ax.yaxis.set_minor_formatter(plt.NullFormatter())
    ax.legend(fontsize=7)
    ax = axes[1]
    for j, (L, points) in enumerate(long.manifold.items()):
        ax.semilogx(qs, [p.ratio for p in points], "o-", ms=3, color=plotting.COLORS[j], label=f"L = {L}")
        ax.axhline(eq10[L % 2] / eq10[L], color=plotting.COLORS[j], ls=":", lw=1)
    ax.set(xlabel="squared norm $c$ of a pair", ylabel=r"$\epsilon_g$ / eq. (10)", ylim=(0, 1.05),
           title="on the manifold")
    ax.legend(fontsize=7)
    ax = axes[2]
    for j, (lr, s) in enumerate(long.pairs):
        ax.semilogx(qs, long.drift[lr, s], "os^v"[j] + "-", ms=3, lw=0.8, color=plotting.COLORS[j],
                    label=f"$\\eta$ = {lr:g}, $\\sigma$ = {s:g}")
    ax.set(xlabel="squared norm $c$ of a pair", ylabel=r"$(d\ln c/d\alpha)\,/\,\eta^2\sigma^2$",
           title="outward drift, L = 2")
    ax.legend(fontsize=6)
    return fig


def check_long_times(ledger: Ledger, long: LongTimes) -> None:
    """Claims of the long-time section: (10) is reached and left, the manifold is exact at ``sigma = 0``,
    its drift is the noise's (outward, ``~ eta^2 sigma^2``), and its ``c -> inf`` limit is (10) at ``L mod 2``.

    The drift comparison at ``2 sigma`` integrates two more ODE runs (:func:`gendyn.committee.manifold_point`).
    """
    m, LR, SIGMA, LONG, qs, eq10 = long.m, long.lr, long.sigma, long.long_alpha, long.qs, long.eq10
    manifold, drift, pairs, final = long.manifold, long.drift, long.pairs, long.final
    for L, near in ((L, r.near) for L, r in long.runs.items()):
        slope = abs(1 - manifold[L][0].ratio) / qs[0]  # the manifold's slope (a size: it sets a tolerance)
        offset = np.trace(near.Q[0, m:, m:]) / 2 * slope * np.exp(drift[LR, SIGMA][0] * (LR * SIGMA) ** 2 * SETTLE)
        at = np.searchsorted(near.alpha, SETTLE)
        ledger.check(
            f"long-settles-on-eq10-L{L}",
            f"erf SCM, L = {L}, ODE from near the specialised state: eps_g at alpha = {SETTLE:g} over eq. (10)",
            measured=near.eg[at] / eq10[L], predicted=1.0, tolerance=offset, kind="absolute",
            reason="The start's displacement along the manifold of anti-parallel pairs: half the superfluous units' "
            f"initial squared norm x the manifold's slope at c = {qs[0]:g} ({slope:.2f}), grown by the drift.",
            theory=(EQ10, ODE),
        )
        ledger.check(
            f"long-below-eq10-L{L}",
            f"erf SCM, L = {L}: largest eps_g / eq. (10) at alpha = {LONG:g} over {len(final[L])} ODE runs "
            "(near-specialised and random starts)",
            measured=max(final[L]), predicted=1.0, tolerance=0.0, kind="upper",
            reason="A finding (ours; the paper takes (10) as the end point): an exact bound if the pairs drift outward "
            "(the error falls monotonically along the manifold); it fails if (10) were a stable end point.",
            category="finding",
        )
        ledger.check(
            f"long-above-limit-L{L}",
            f"erf SCM, L = {L}: smallest eps_g / eq. (10) at alpha = {LONG:g}, against the c -> inf limit",
            measured=min(final[L]), predicted=eq10[L % 2] / eq10[L], tolerance=0.0, kind="lower",
            reason="A finding (ours): an exact bound, the error falls towards, not past, that of the student without "
            "the pairs.",
            category="finding",
        )
        r1, r2 = manifold[L][-2].ratio, manifold[L][-1].ratio
        s1, s2 = np.sqrt(qs[-2]), np.sqrt(qs[-1])
        limit = eq10[L % 2] / eq10[L]
        ledger.check(
            f"manifold-limit-L{L}",
            f"erf SCM, L = {L}: eps_g / eq. (10) on the manifold extrapolated to c -> inf (a + b c^-1/2 through "
            f"c = {qs[-2]:g}, {qs[-1]:g}), against eq. (10) at L mod 2 over eq. (10) at L",
            measured=(s2 * r2 - s1 * r1) / (s2 - s1), predicted=limit, tolerance=1e-3 * limit, kind="absolute",
            reason="1e-3 relative: the next order of the expansion, 1/c, at the largest c.",
            theory=(EQ10, ODE),
        )
    ledger.check(
        "manifold-frozen-at-sigma0",
        f"erf SCM, L = 2, sigma = 0: squared norm of an anti-parallel pair at alpha = {LONG:g} over its start (c = 1)",
        measured=long.frozen.Q[-1, m, m] / long.frozen.Q[0, m, m], predicted=1.0, tolerance=1e-6, kind="absolute",
        reason="A finding (ours, derived in the text and measured here over 1e8 time units): a continuum of fixed "
        "points, which only the integrator's error (rtol 1e-9 per step) can move.",
        category="finding",
    )
    small = qs <= 10
    ledger.check(
        "manifold-drift-outward",
        f"erf SCM, L = 2, sigma = {SIGMA}: smallest normalised drift d ln c / d alpha / (eta sigma)^2 over "
        f"c = {qs[0]:g} to {qs[small][-1]:g}",
        measured=drift[LR, SIGMA][small].min(), predicted=0.0, tolerance=0.0, kind="lower",
        reason="A finding (ours): outward, not neutral; the eta^2 sigma^2 term of (9b) feeds the pair's norm.",
        category="finding",
    )
    for q in (1.0, 10.0):
        at_sigma = pairs[LR, SIGMA][int(np.argmin(abs(qs - q)))]
        # start the 2 sigma run where the sigma run's pair sits after relaxing, so both follow one path in c
        shift2 = pairs[LR, 2 * SIGMA][int(np.argmin(abs(qs - q)))].shift
        at_2sigma = cm.manifold_point(m, 2, at_sigma.c / (1 + shift2), LR, 2 * SIGMA, window=long.window)
        ledger.check(
            f"manifold-drift-sigma2-c{q:g}",
            f"erf SCM, L = 2, c = {q:g}: normalised drift at sigma = {2 * SIGMA:g} over that at sigma = {SIGMA:g}, "
            "from the same relaxed c over the same eta^2 sigma^2 alpha",
            measured=at_2sigma.rate / at_sigma.rate, predicted=1.0,
            tolerance=abs(at_2sigma.shift) + abs(at_sigma.shift), kind="absolute",
            reason="A finding (ours): the drift is of order eta^2 sigma^2; the next order in sigma^2 is as large as "
            "the relative shift of the pair's norm by the noise, at 2 sigma plus at sigma (a drift of order sigma, "
            "or sigma^4, would give a ratio of 1/2 or 4).",
            category="finding",
        )


def figure_2b(erf_b: StationaryRun, relu_b: StationaryRun) -> Figure:
    """Fig. 2b: the final order parameters ``Q`` and ``R`` of an erf student (specialised) and a ReLU one (sharing).

    ``erf_b``, ``relu_b``: the two runs (their last record).
    """
    K_erf, m = erf_b.K, erf_b.M
    fig, axes = plotting.subplots(2, 2, height=5.6, gridspec_kw=dict(width_ratios=[K_erf, m]))
    for row, (name, res) in enumerate((("erf", erf_b.run), ("ReLU", relu_b.run))):
        for col, (mat, label) in enumerate(((res.Q[0, -1], "Q"), (res.R[0, -1], "R"))):
            ax = axes[row, col]
            lim = np.abs(mat).max()
            im = ax.imshow(mat, cmap="RdBu_r", vmin=-lim, vmax=lim)
            ax.set(title=f"{name}, K = {res.Q.shape[-1]}: ${label}$ at $\\alpha$ = {res.alpha[-1]:.3g}",
                   xticks=range(mat.shape[1]), yticks=range(mat.shape[0]),
                   xlabel="student unit $k$" if label == "Q" else "teacher unit $n$", ylabel="student unit $i$")
            fig.colorbar(im, ax=ax, fraction=0.046)
    return fig


def figure_s3_relu(relu: dict[float, Series], *, n: int, m: int, sigma: float) -> Figure:
    """Fig. S3: ``eps_g* / (eta sigma^2)`` of ReLU SCMs against ``L``, one curve per learning rate.

    ``relu``: rate -> its series; ``n, m`` go to the title.
    """
    fig, ax = plotting.subplots(1, 1, height=3.2)
    for j, (lr, rows) in enumerate(relu.items()):
        ax.errorbar(list(rows), [r.sgd / (lr * sigma**2) for r in rows.values()],
                    yerr=[3 * r.se / (lr * sigma**2) for r in rows.values()], fmt="o-", ms=4, capsize=2,
                    color=plotting.COLORS[j], label=f"$\\eta$ = {lr}")
    ax.set(xlabel="L = K − M", ylabel=r"$\epsilon_g^*/(\eta\sigma^2)$", title=f"ReLU SCMs, N = {n}, M = {m}")
    ax.legend()
    return fig


def check_relu(ledger: Ledger, relu: dict[float, Series]) -> None:
    """Claims of Fig. S3: ``eps_g*`` of ReLU SCMs grows with ``L`` at each rate, and is proportional to ``eta``.

    ``relu``: rate -> its series. Proportionality: the mean over ``L`` of the
    ratio of ``eps_g* / eta`` between the largest and smallest rate is 1 within 3 standard errors plus
    the ``O(eta K)`` deviation of the linear SCM, eq. (12).
    """
    for lr, rows in relu.items():
        ledger.check(
            f"relu-grows-with-L-eta{lr:g}",
            f"ReLU SCM, eta = {lr:g}: slope of the SGD eps_g* against L, in standard errors "
            "(weighted fit)",
            measured=_growth_z(rows), predicted=0.0, tolerance=3.0, kind="above",
            reason="The paper's Fig. S3 (eps_g* ~ eta sigma^2 L, eq. 14) reproduced as a z-score: the weighted slope "
            "is positive by more than 3 standard errors (one-sided test at level 1.3e-3).",
            category="reproduction",
        )
    lo, hi = min(relu), max(relu)
    ratios, ses, corrections = [], [], []
    for r_lo, r_hi in zip(relu[lo].values(), relu[hi].values()):
        ratio = (r_hi.sgd / hi) / (r_lo.sgd / lo)
        ratios.append(ratio)
        ses.append(ratio * np.hypot(r_hi.se / r_hi.sgd, r_lo.se / r_lo.sgd))
        K = r_lo.K
        corrections.append(abs((4 - 2 * lo * K) / (4 - 2 * hi * K) - 1))
    ledger.check(
        "relu-proportional-to-eta",
        f"ReLU SCM: mean over L of [eps_g*/eta at eta = {hi:g}] / [eps_g*/eta at eta = {lo:g}]",
        measured=np.mean(ratios), predicted=1.0,
        tolerance=3 * np.sqrt(np.sum(np.square(ses))) / len(ses) + max(corrections), kind="absolute",
        reason="The paper's Fig. S3 reproduced (no theory for ReLU): 3 standard errors of the mean ratio + the "
        "O(eta K) deviation from proportionality of the linear SCM, eq. (12), at the same rates and sizes.",
        category="reproduction",
    )


def figure_s2_inverse_k(inverse: Series, L_line: np.ndarray, theory_line: Sequence[float], *, n: int,
                        sigma: float) -> Figure:
    """Fig. S2: ``eps_g* / sigma^2`` against ``L`` at ``eta = 1/K``: eq. (10) (``theory_line`` at ``L_line``),
    SGD and the ODE (``inverse``, with the ODE); ``n`` goes to the title.
    """
    fig, ax = plotting.subplots(1, 1, height=3.2)
    ax.plot(L_line, theory_line, "-", label="eq. (10), $\\eta = 1/K$")
    ax.errorbar(list(inverse), [r.sgd / sigma**2 for r in inverse.values()],
                yerr=[3 * r.se / sigma**2 for r in inverse.values()], fmt="x", ms=7, label="SGD")
    ax.plot(list(inverse), [r.ode / sigma**2 for r in inverse.values()], "d", mfc="none", ms=7,
            label="ODE (same times)")
    ax.set(xlabel="L = K − M", ylabel=r"$\epsilon_g^*/\sigma^2$", title=f"erf SCM, $\\eta = 1/K$, N = {n}")
    ax.legend()
    return fig
