"""Figures and claims of the chapter ``notebooks/advani-saxe/early-stopping-and-ridge.md``.

Advani, Saxe & Sompolinsky: early stopping of the linear student against optimal L2 (ridge)
regularisation. The module holds the chapter's sizes, its two figures (the maps over the
``(alpha, SNR)`` plane and the growth of the optimal stopping time with SNR) and its claims on
finite datasets; the experiment is :func:`gendyn.linear_experiments.early_stopping_vs_ridge`, the
theory :mod:`gendyn.linear_student`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure

from gendyn import linear_student as ls
from gendyn.linear_experiments import PerModeStopping, StoppingVsRidge
from gendyn.book import plotting, stats
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "figure_maps", "figure_snr_dependence", "check_per_dataset",
           "check_per_mode", "figure_per_mode"]


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

#: Slope of ``t_opt / tau`` against SNR at ``alpha = 1`` for large SNR, ``1 / (4 (sqrt 2 - 1))``.
T_OPT_SLOPE = 1.0 / (4.0 * (np.sqrt(2.0) - 1.0))
#: Limit at ``alpha = 1`` of ``(min_t E_g - 1/SNR) / (E_ridge - 1/SNR)``, ``2 sqrt(2 (sqrt 2 - 1) / pi)``.
EXCESS_LIMIT = 2.0 * np.sqrt(2.0 * (np.sqrt(2.0) - 1.0) / np.pi)


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


def _index_of_alpha_1(alphas):
    """Index of the map's load closest to ``alpha = 1`` (the log grid runs through it)."""
    return int(np.argmin(np.abs(alphas - 1.0)))


def figure_maps(alphas: np.ndarray, snrs: np.ndarray, t_opt: np.ndarray, e_stop: np.ndarray,
                excess: np.ndarray) -> Figure:
    """Maps over ``(alpha, SNR)`` of the optimal stopping time, the early-stopped error and its excess over ridge.

    The paper draws the first two against ``alpha`` and SNR; the maps and the ratio to optimal
    ridge are ours. Inputs are ``(A, S)`` arrays on the grid ``alphas x snrs``; ``alpha = 1``
    (where the eigengap closes) is marked.
    """
    fig, axes = plotting.subplots(1, 3, height=2.9)
    # the excess vanishes where the spectrum is narrow: floor it for the log colour scale
    panels = ((t_opt, "optimal stopping time $t_{\\rm opt}/\\tau$", None),
              (e_stop, "early-stopped error $\\min_t E_g$", None),
              (np.maximum(excess, 1e-6), "$\\min_t E_g\\,/\\,E_g^{\\rm ridge}(\\gamma^*) - 1$", 1e-6))
    for ax, (z, title, floor) in zip(axes, panels):
        mesh = ax.pcolormesh(alphas, snrs, z.T, norm=LogNorm(vmin=floor or z.min(), vmax=z.max()), cmap="viridis",
                             shading="nearest", rasterized=True)
        fig.colorbar(mesh, ax=ax, fraction=0.07, pad=0.03)
        ax.axvline(1.0, color="w", ls=":", lw=0.8)
        ax.set(xscale="log", yscale="log", xlabel="load $\\alpha = P/N$", title=title)
        ax.title.set_fontsize(8)
    axes[0].set_ylabel("SNR")
    return fig


def figure_snr_dependence(snr_curve: np.ndarray, t_opt_curves: dict[float, np.ndarray], alphas: np.ndarray,
                          snrs: np.ndarray, excess: np.ndarray) -> Figure:
    """Optimal stopping time against SNR (left) and early stopping against optimal ridge along SNR (right).

    Parameters
    ----------
    snr_curve : ndarray
        SNRs of the stopping-time curves.
    t_opt_curves : dict
        ``{alpha: t_opt(alpha, snr_curve)}`` from eq. (6); drawn with the linear law at ``alpha = 1`` and the
        logarithmic bound ``log(1 + lambda_- SNR) / lambda_-`` of the gapped loads.
    alphas, snrs, excess
        The map of :func:`figure_maps`; the right panel shows its rows at ``alpha = 1`` and at both ends, with
        the limit :data:`EXCESS_LIMIT`.
    """
    fig, axes = plotting.subplots(1, 2, height=3.2)
    ax = axes[0]
    for k, (a, t_opt) in enumerate(t_opt_curves.items()):
        ax.plot(snr_curve, t_opt, "o", ms=3, color=plotting.COLORS[k], label=f"$\\alpha$ = {a:g}: theory, eq. (6)")
        lo = ls.mp_eigenvalue_edges(a)[0]
        if lo > 0:
            ax.plot(snr_curve, np.log1p(lo * snr_curve) / lo, "--", lw=1, color=plotting.COLORS[k],
                    label=f"$\\log(1 + \\lambda_-\\mathrm{{SNR}})/\\lambda_-$, $\\alpha$ = {a:g}")
    ax.plot(snr_curve, T_OPT_SLOPE * snr_curve, "k-", lw=1, label="$\\mathrm{SNR}/(4(\\sqrt{2} - 1))$")
    ax.set(xscale="log", yscale="log", xlabel="SNR", ylabel="$t_{\\rm opt}/\\tau$", title="optimal stopping time")
    ax.legend(fontsize=6.5)
    ax = axes[1]
    for k, j in enumerate((_index_of_alpha_1(alphas), 0, len(alphas) - 1)):
        ax.plot(snrs, 1 + excess[j], "-", color=plotting.COLORS[k], label=f"$\\alpha$ = {alphas[j]:.3g}")
    ax.axhline(EXCESS_LIMIT, color="k", ls="--", lw=1, label="$2\\sqrt{2(\\sqrt{2}-1)/\\pi}$")
    ax.set(xscale="log", xlabel="SNR", ylabel="$\\min_tE_g\\,/\\,E_g^{\\rm ridge}(\\gamma^*)$",
           title="early stopping against optimal ridge")
    ax.legend(fontsize=7)
    return fig


def check_per_dataset(ledger: Ledger, sim: StoppingVsRidge) -> None:
    """Claims: per load, the finite datasets' mean ridge and early-stopped errors and the excess of early stopping
    over ridge match the Marchenko-Pastur theory.

    ``sim`` is the result of :func:`gendyn.linear_experiments.early_stopping_vs_ridge`; the theory is
    :func:`gendyn.linear_student.ridge_error` (ridge at ``gamma* = 1/SNR``) and
    :func:`gendyn.linear_student.optimal_stopping_error` (eq. (6) at its optimal time). Each mean is compared
    within ``z`` standard errors over the datasets (Student t, Bonferroni over the loads and the three claims per
    load, level 1e-3) plus ``1/N`` (the O(1/N) bias of a mean over a Wishart spectrum; the excess is a difference
    of two such means, so ``2/N``).
    """
    n, snr, datasets = sim.n_features, sim.snr, sim.ridge.shape[1]
    z = stats.t_quantile(3 * len(sim.alphas), datasets - 1)
    for a, ridge, early in zip(sim.alphas, sim.ridge, sim.early_stopped):
        ridge_th = float(ls.ridge_error(a, snr))
        stop_th = float(ls.optimal_stopping_error(a, snr, 0.0)[1])
        rows = (("ridge-mp-average", "mean optimal-ridge error (gamma* = 1/SNR)", ridge, ridge_th, 1.0 / n,
                 ("gendyn.linear_student.ridge_error",)),
                ("early-stopped-mp-average", "mean early-stopped error (eq. (5) at each dataset's best time)",
                 early, stop_th, 1.0 / n, ("gendyn.linear_student.optimal_stopping_error",)),
                ("excess-over-ridge", "mean excess of the early-stopped over the optimal-ridge error (paired)",
                 early - ridge, stop_th - ridge_th, 2.0 / n,
                 ("gendyn.linear_student.optimal_stopping_error", "gendyn.linear_student.ridge_error")))
        for key, what, values, theory, bias, names in rows:
            m, se = stats.mean_se(values)
            ledger.check(
                f"{key}-a{a:g}",
                f"Finite datasets (N = {n}, alpha = {a:g}, SNR = {snr:g}): {what} vs the MP theory",
                measured=m, predicted=theory, tolerance=z * se + bias, kind="absolute", theory=names,
                reference=max(ridge_th, stop_th),
                reason=f"Sampling error of {datasets} datasets (z = {z:.2f}, se = {se:.2g}) plus {bias:.2g}, the "
                f"O(1/N) bias of a mean over the spectrum at N = {n}.",
            )


def _mode_halves(pm: PerModeStopping):
    """Masks of the modes below and above the median eigenvalue, among those that learn and stop in the run."""
    lam = pm.cov_eigvals
    ok = (lam > 0) & np.isfinite(pm.t_stop)
    median = np.median(lam[ok])
    return {"slow-modes": ok & (lam < median), "fast-modes": ok & (lam >= median)}


def check_per_mode(ledger: Ledger, pm: PerModeStopping) -> dict[str, np.ndarray]:
    """Claims: over each half of one dataset's spectrum, the stopping times gradient descent finds per mode match
    the paper's formula ``(tau/lambda) ln(1 + SNR lambda)``.

    ``pm`` is :func:`gendyn.linear_experiments.per_mode_stopping_gd`; the theory is
    :func:`gendyn.linear_student.per_mode_stopping_time`. The comparison is of geometric means (the mean over
    the modes of ``ln t``): the modes of one dataset are independent given its spectrum (the rotated teacher and
    noise are independent Gaussians), so the mean of ``ln(t_sim/t_formula)`` has the standard error of the modes'
    spread over their number; the tolerance is ``z`` of these (Student t, Bonferroni over the two halves, level
    1e-3) plus ``2/K``, the order of the bias of a minimiser estimated from ``K`` draws (the best time is a ratio
    of the draws' mean squares). Returns the log-ratios of every mode used (``{half: ndarray}``).
    """
    th = ls.per_mode_stopping_time(pm.cov_eigvals, pm.snr)
    halves = _mode_halves(pm)
    out = {}
    for half in MODE_HALVES:
        mask = halves[half]
        log_sim, log_th = np.log(pm.t_stop[mask]), np.log(th[mask])
        diff = log_sim - log_th
        _, se = stats.mean_se(diff)
        z = stats.t_quantile(len(MODE_HALVES), int(mask.sum()) - 1)
        bias = 2.0 / pm.teachers
        lam = pm.cov_eigvals[mask]
        ledger.check(
            f"per-mode-stopping-time-{half}",
            f"One dataset (N = {pm.n_features}, alpha = {pm.alpha:g}, SNR = {pm.snr:g}), {int(mask.sum())} modes with "
            f"lambda in [{lam.min():.2g}, {lam.max():.2g}]: geometric mean of the per-mode optimal stopping times "
            f"found by gradient descent vs (tau/lambda) ln(1 + SNR lambda)",
            measured=float(np.exp(log_sim.mean())), predicted=float(np.exp(log_th.mean())), tolerance=z * se + bias,
            kind="relative", theory=("gendyn.linear_student.per_mode_stopping_time",),
            reason=f"Sampling error of the {pm.teachers} teacher and noise draws, seen as the spread of ln(t_sim/t) "
            f"over the {int(mask.sum())} independent modes (z = {z:.2f}, se = {se:.2g}), plus 2/K = {bias:.2g} for "
            "the O(1/K) bias of a minimiser estimated from K draws; each mode's step count is mapped exactly to "
            "flow time (no discretisation error) and refined by a parabola (sub-step resolution).",
        )
        out[half] = diff
    return out


def figure_per_mode(pm: PerModeStopping, theory_test: np.ndarray, t_star: float, mode_times: np.ndarray) -> Figure:
    """Fig. 1C-like dynamics of one dataset with its optimal stopping time (left), and each mode's own time (right).

    Parameters
    ----------
    pm : PerModeStopping
        The gradient-descent run (:func:`gendyn.linear_experiments.per_mode_stopping_gd`).
    theory_test : ndarray
        The dataset's exact test error after each step, eq. (5) for gradient descent
        (:func:`gendyn.linear_student.single_dataset_gd_error`).
    t_star : float
        The time minimising ``theory_test`` (one stopping time for all modes), marked on both panels.
    mode_times : ndarray
        :func:`gendyn.linear_student.per_mode_stopping_time` of the dataset's modes.
    """
    fig, axes = plotting.subplots(1, 2, height=3.2)
    ax = axes[0]
    t = pm.times
    ax.plot(t, pm.train_error, "-", color=plotting.COLORS[0], label="training error (simulation)")
    ax.plot(t, pm.test_error, "-", color=plotting.COLORS[1], label="test error (simulation)")
    ax.plot(t, theory_test, "k--", lw=0.8, label="test error, eq. (5) of the dataset")
    ax.axhline(1.0 / pm.snr, color=plotting.COLORS[2], lw=1, label="oracle $1/\\mathrm{SNR}$")
    ax.axvline(t_star, color="k", ls=":", lw=1)
    ax.annotate("$t^*$", (t_star, ax.get_ylim()[1]), xytext=(3, -12), textcoords="offset points", fontsize=8)
    ax.set(xlabel="time $t/\\tau$ (gradient-descent steps $\\times$ lr)", ylabel="error / $\\sigma_w^2$",
           title=f"one dataset, $\\alpha$ = {pm.alpha:g}, SNR = {pm.snr:g}")
    ax.legend(fontsize=6.5)
    ax = axes[1]
    lam = pm.cov_eigvals
    ok = lam > 0
    order = np.argsort(lam[ok])
    ax.plot(lam[ok], pm.t_stop[ok], "o", ms=2.5, color=plotting.COLORS[0], label="gradient descent, per mode")
    ax.plot(lam[ok][order], mode_times[ok][order], "k-", lw=1,
            label="$(\\tau/\\lambda)\\ln(1 + \\mathrm{SNR}\\,\\lambda)$")
    ax.axhline(t_star, color="k", ls=":", lw=1, label="$t^*$: one time for all modes")
    ax.set(xscale="log", yscale="log", xlabel="eigenvalue $\\lambda$ of $XX^T$", ylabel="optimal stopping time $t/\\tau$",
           title="each mode's own stopping time")
    plotting.plain_log_ticks(ax.xaxis, (1.0, 2.0, 5.0))
    plotting.plain_log_ticks(ax.yaxis, (1.0, 2.0, 5.0))
    ax.legend(fontsize=6.5)
    return fig
