"""Figures and claims of the chapter ``notebooks/advani-saxe/double-descent.md``.

Advani, Saxe & Sompolinsky, slides "Interpreting (5)" and "Double Descent": the long-time and
early-stopped test error of the linear student against the load ``alpha = P/N``, the eigengap and
the frozen subspace. The simulation is :func:`gendyn.linear_experiments.simulate_linear_student`, its errors per
(SNR, INR) condition :func:`gendyn.linear_experiments.condition_errors`; the module holds the four figures and
the claims. The sampled eigengap is
:func:`gendyn.linear_student.sampled_eigengap`, the Tracy-Widom law's scale and moments those of :mod:`gendyn.rmt`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure
from gendyn import linear_student as ls
from gendyn import rmt
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import mean_se, z_quantile

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "figure_double_descent", "check_peak", "check_finite_n",
           "figure_finite_n", "check_early_stopping", "figure_eigengap", "check_eigengap", "check_frozen",
           "figure_frozen_inr"]


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


def _fine_loads(alphas):
    """A fine grid of loads for the theory lines, leaving out the divergence at ``alpha = 1``."""
    a_fine = np.linspace(0.02, alphas.max(), 600)
    return a_fine[np.abs(a_fine - 1) > 1e-3]


def figure_double_descent(alphas: np.ndarray, snrs: Sequence[float], eg_inf: np.ndarray,
                          eg_stop: np.ndarray) -> Figure:
    """Double descent at ``t = inf`` (left) and its removal by optimal early stopping (right), INR = 0.

    Points: simulated means over draws with standard errors (triangles at the top edge for means
    beyond the panel); lines: eq. (6) at ``t = inf`` and at ``t_opt``. ``eg_inf`` and ``eg_stop`` are
    ``(C, A, draws)`` from :func:`gendyn.linear_experiments.condition_errors`, whose first ``len(snrs)``
    conditions are the SNRs.
    """
    a_fine = _fine_loads(alphas)
    a_stop = np.linspace(0.02, alphas.max(), 90)
    _, e_opt_fine = ls.optimal_stopping_error(a_stop[:, None], np.array(snrs)[None, :], 0.0)
    fig, axes = plotting.subplots(1, 2, height=3.4, sharey=True)
    ymax = 3.0
    for c, snr in enumerate(snrs):
        color = plotting.COLORS[c]
        m, se = mean_se(eg_inf[c])
        inside = m < ymax
        axes[0].errorbar(alphas[inside], m[inside], yerr=se[inside], fmt="o", ms=3, color=color)
        axes[0].plot(alphas[~inside], np.full((~inside).sum(), 0.97 * ymax), "^", ms=4,
                     color=color)  # off the scale
        axes[0].plot(a_fine, ls.asymptotic_error(a_fine, snr, 0.0), color=color, label=f"SNR = {snr:g}")
        m, se = mean_se(eg_stop[c])
        axes[1].errorbar(alphas, m, yerr=se, fmt="o", ms=3, color=color)
        axes[1].plot(a_stop, e_opt_fine[:, c], "--", color=color, label=f"SNR = {snr:g}")
    for ax, title in zip(axes, ("$t\\to\\infty$: trained to convergence", "optimal early stopping")):
        ax.axvline(1.0, color="k", ls=":", lw=1)
        ax.set(xlabel="$\\alpha = P/N$", title=title, ylim=(0, ymax))
    axes[0].set_ylabel("$E_g/\\sigma_w^2$ (INR = 0)")
    axes[0].legend()
    return fig


def check_peak(ledger: Ledger, alphas: np.ndarray, snrs: Sequence[float], eg_inf: np.ndarray) -> None:
    """Claim: for every SNR (INR = 0) the largest simulated long-time error sits at ``alpha = 1``.

    The tolerance is the spacing of the load grid around 1. ``eg_inf``: ``(C, A, draws)``, the first
    ``len(snrs)`` conditions being the SNRs at INR = 0.
    """
    peak_means = np.stack([mean_se(eg_inf[c])[0] for c in range(len(snrs))])
    i_peak_candidates = alphas[np.argmax(peak_means, axis=1)]
    spacing = np.min(np.abs(alphas[alphas != 1.0] - 1.0))
    ledger.check(
        "peak-at-alpha-1",
        f"Load of the largest simulated long-time test error (worst over SNR = {list(snrs)}, "
        "INR = 0), against the paper's peak at alpha = 1",
        measured=i_peak_candidates[np.argmax(np.abs(i_peak_candidates - 1))], predicted=1.0,
        tolerance=spacing, kind="absolute", category="reproduction",
        reason=f"The paper's double-descent peak (slides, Fig. 2C); the grid resolves it only to its spacing "
        f"around alpha = 1 ({spacing:g}).",
    )


def check_finite_n(ledger: Ledger, alphas: np.ndarray, conds: Sequence[tuple[float, float]], eg_inf: np.ndarray,
                   p: np.ndarray, *, n: int) -> None:
    """Claims: the mean simulated ``E_g(inf)`` matches its exact finite-N value below and above ``alpha = 1``.

    The reference is :func:`gendyn.linear_student.finite_size_asymptotic_error` (Wishart inverse moments and
    the frozen term ``(1 - P/N)(1 + INR)``), compared in standard errors at the loads with ``|N - P| >= 10``.

    Parameters
    ----------
    ledger : Ledger
        The chapter's claims ledger.
    alphas : ndarray (A,)
        The loads.
    conds : sequence of (snr, inr)
        The simulated conditions; the first is the one compared above ``alpha = 1`` (where INR does not enter).
    eg_inf : ndarray (C, A, draws)
        From :func:`gendyn.linear_experiments.condition_errors`.
    p, n : ndarray (A,), int
        Examples ``P`` of each load and the input dimension ``N``.
    """
    C = len(conds)
    draws = eg_inf.shape[-1]
    far = np.abs(p - n) >= 10  # the variance of tr W^-1 is infinite for |N - P| <= 3
    below, above = far & (alphas < 1), far & (alphas > 1)
    z_below = z_quantile(below.sum() * C)
    z_above = z_quantile(above.sum())
    worst_below, ref_below = 0.0, 0.0
    for c, (snr, inr) in enumerate(conds):
        m, se = mean_se(eg_inf[c])
        pred = ls.finite_size_asymptotic_error(p, n, snr, inr)
        worst_below = max(worst_below, np.max(np.abs(m - pred)[below] / se[below]))
        ref_below = max(ref_below, np.max(pred[below] / se[below]))
        if c == 0:
            worst_above = np.max(np.abs(m - pred)[above] / se[above])
            ref_above = np.max(pred[above] / se[above])
    theory = "gendyn.linear_student.finite_size_asymptotic_error"
    ledger.check(
        "einf-finite-n-below",
        "Mean simulated E_g(inf) vs its exact finite-N value (Wishart inverse moments, frozen term "
        f"(1 - P/N)(1 + INR)), alpha < 1, all {C} (SNR, INR) conditions: largest |deviation| / "
        "standard error",
        measured=worst_below, predicted=0.0, tolerance=z_below, kind="absolute", theory=theory,
        reference=ref_below,
        reason=f"No finite-size bias left; sampling error of {draws} draws per load; "
        f"z = {z_below:.2f} is the Bonferroni quantile for {below.sum()} loads x {C} conditions at "
        "level 1e-3 (conservative: the conditions share draws).",
    )
    ledger.check(
        "einf-finite-n-above",
        "Mean simulated E_g(inf) vs its exact finite-N value (Wishart inverse moments), alpha > 1: "
        "largest |deviation| / standard error",
        measured=worst_above, predicted=0.0, tolerance=z_above, kind="absolute", theory=theory,
        reference=ref_above,
        reason=f"No finite-size bias left; sampling error of {draws} draws per load; "
        f"z = {z_above:.2f} is the Bonferroni quantile for {above.sum()} loads at level 1e-3. For "
        "alpha > 1, E_g(inf) = (noise term + 1)/SNR does not depend on INR and scales with 1/SNR on "
        "shared draws, so one condition stands for all.",
    )


def figure_finite_n(alphas: np.ndarray, snrs: Sequence[float], eg_inf: np.ndarray, p: np.ndarray, *,
                    n: int) -> Figure:
    """Relative excess of the simulated ``E_g(inf)`` over eq. (6), with its exact finite-N value (lines).

    One colour per SNR (the first ``len(snrs)`` conditions of ``eg_inf``, INR = 0); loads with
    ``|N - P| >= 10`` only.
    """
    far = np.abs(p - n) >= 10
    fig, ax = plotting.subplots(1, 1, height=3.4)
    for c, snr in enumerate(snrs):
        m, se = mean_se(eg_inf[c])
        pred = ls.finite_size_asymptotic_error(p, n, snr, 0.0)
        mp = ls.asymptotic_error(alphas[far], snr, 0.0)
        ax.errorbar(alphas[far], m[far] / mp - 1, yerr=se[far] / mp, fmt="o", ms=3,
                    color=plotting.COLORS[c], label=f"SNR = {snr:g}: simulation / eq. (6) − 1")
        ax.plot(alphas[far], pred[far] / mp - 1, "-", color=plotting.COLORS[c], lw=1)
    ax.axhline(0, color="k", lw=0.8)
    ax.set(xlabel="$\\alpha$", ylabel="relative excess over eq. (6)",
           title=f"$E_g(\\infty)$ at N = {n}: lines exact finite N", ylim=(-0.1, 0.3))
    ax.legend(fontsize=7)
    return fig


def check_early_stopping(ledger: Ledger, snrs: Sequence[float], eg_stop: np.ndarray, e_opt: np.ndarray, *,
                         n: int) -> None:
    """Claims: early stopping removes the peak (INR = 0, every SNR).

    (i) The simulated error at ``t_opt`` matches eq. (6) there at every load, within ``z`` relative standard
    errors plus ``3/N``; (ii) it falls monotonically with the load (no significant rise between neighbours).
    ``eg_stop``: ``(C, A, draws)``; ``e_opt``: ``(A, C)`` from :func:`gendyn.linear_student.optimal_stopping_error`.
    """
    A = eg_stop.shape[1]
    for c, snr in enumerate(snrs):
        m, se = mean_se(eg_stop[c])
        z = z_quantile(A)
        rel = np.abs(m - e_opt[:, c]) / e_opt[:, c]
        ledger.check(
            f"early-stop-snr{snr:g}",
            f"Simulated error at the optimal stopping time vs eq. (6) at t_opt, SNR = {snr:g}, INR = 0: "
            "largest relative deviation over all loads (alpha = 1 included)",
            measured=rel.max(), predicted=0.0, tolerance=z * np.max(se / e_opt[:, c]) + 3 / n, kind="absolute",
            theory="gendyn.linear_student.optimal_stopping_error", reference=1.0,
            reason=f"z = {z:.2f} (Bonferroni over {A} loads, level 1e-3) x largest relative standard error "
            f"+ 3/N finite-size bias.",
        )
        diffs = eg_stop[c][1:] - eg_stop[c][:-1]  # paired: same draws scaled, different datasets per load
        rise, rise_se = mean_se(diffs)
        zr = z_quantile(A - 1, sides=1)
        ledger.check(
            f"no-peak-early-stopped-snr{snr:g}",
            f"Largest rise of the early-stopped error between neighbouring loads in its standard errors, "
            f"SNR = {snr:g} (the paper: early stopping removes the peak, so no significant rise)",
            measured=np.max(rise / rise_se), predicted=0.0, tolerance=zr, kind="upper", category="finding",
            reason=f"One-sided Bonferroni z = {zr:.2f} over {A - 1} pairs at level 1e-3. Power: a rise of "
            f"(z + 1.64) standard errors, at most {(zr + 1.645) * rise_se.max():.2g} (largest SE "
            f"{rise_se.max():.2g}; the converged peak is of order one), is detected with 95 % probability.",
        )


def figure_eigengap(alphas: np.ndarray, lam_min: np.ndarray) -> Figure:
    """Sampled smallest nonzero eigenvalue against the MP edge (left) and the slowest time scale (right).

    ``lam_min``: ``(A, S)`` eigengaps of the sampled ``Sigma = X X^T``
    (:func:`gendyn.linear_student.sampled_eigengap`).
    """
    a_fine = _fine_loads(alphas)
    fig, axes = plotting.subplots(1, 2, height=3.2)
    axes[0].errorbar(alphas, lam_min.mean(1), yerr=lam_min.std(1, ddof=1), fmt="o", ms=3,
                     label="smallest nonzero eigenvalue")
    axes[0].plot(a_fine, ls.eigengap(a_fine)[0], "k-", lw=1, label="MP edge $(1-\\sqrt{\\alpha})^2$")
    axes[0].set(xlabel="$\\alpha$", ylabel="$\\lambda_{\\min}$",
                title="the eigengap closes at $\\alpha$ = 1")
    axes[0].legend()
    axes[1].semilogy(alphas, 1 / lam_min.mean(1), "o", ms=3, label="$\\tau/\\lambda_{\\min}$, sampled")
    axes[1].semilogy(a_fine, ls.eigengap(a_fine)[1], "k-", lw=1, label="$\\tau/(1-\\sqrt{\\alpha})^2$")
    axes[1].set(xlabel="$\\alpha$", ylabel="slowest time scale / $\\tau$",
                title="... and learning slows down")
    axes[1].legend()
    return fig


def check_eigengap(ledger: Ledger, alphas: np.ndarray, lam_min: np.ndarray, *, n: int) -> None:
    """Claim: the mean eigengap sits at the MP edge plus the mean Tracy-Widom shift, away from ``alpha = 1``.

    At loads with ``|1 - sqrt(alpha)| > 0.3`` the mean of ``lam_min`` (``(A, S)``) over datasets is compared
    with ``(1 - sqrt(alpha))^2 + 1.21 sigma_N``, ``sigma_N = |1 - sqrt(alpha)|^(4/3) alpha^(-1/6) N^(-2/3)`` the
    Tracy-Widom scale of the lower edge (:func:`gendyn.rmt.tracy_widom_lower_scale`), within 3 standard errors of
    the TW law plus ``1/N``.
    """
    S = lam_min.shape[1]
    edge, _ = ls.eigengap(alphas)  # the MP edge (1 - sqrt(alpha))^2
    sigma_tw = rmt.tracy_widom_lower_scale(alphas, n)
    soft = np.abs(1 - np.sqrt(alphas)) > 0.3
    dev = np.abs(lam_min.mean(1) - (edge - rmt.TW1_MEAN * sigma_tw))[soft]  # the smallest sits above its edge
    tol = (3 * rmt.TW1_SD / np.sqrt(S)) * sigma_tw[soft] + 1 / n
    ledger.check(
        "eigengap-edge",
        "Mean smallest nonzero eigenvalue vs (1 - sqrt(alpha))^2 + 1.21 sigma_N, loads with "
        "|1 - sqrt(alpha)| > 0.3: largest deviation in units of its tolerance",
        measured=np.max(dev / tol), predicted=0.0, tolerance=1.0, kind="absolute",
        theory="gendyn.linear_student.eigengap", reference=float(np.max(edge[soft] / tol)),
        reason=f"Tracy-Widom fluctuations: 3 standard errors (TW1 sd 1.27 sigma_N / sqrt({S})) + 1/N "
        "next-order edge correction, per load.",
    )


def _inr_conditions(conds, snr_inr):
    """Indices of the conditions of the INR sweep (those at its SNR, INR = 0 included)."""
    return [c for c, (snr, inr) in enumerate(conds) if snr == snr_inr]


def check_frozen(ledger: Ledger, alphas: np.ndarray, conds: Sequence[tuple[float, float]], frozen: np.ndarray,
                 p: np.ndarray, *, n: int, snr_inr: float) -> None:
    """Claims: the frozen-subspace error equals ``(1 - P/N)(1 + INR)`` at every load ``alpha < 1``, for each INR.

    Exact at finite N, so compared in standard errors (Bonferroni over the loads). ``frozen``: ``(C, A, draws)``
    from :func:`gendyn.linear_experiments.condition_errors`; the conditions at ``snr_inr`` are checked.
    """
    n_sub = alphas < 1
    for c in _inr_conditions(conds, snr_inr):
        snr, inr = conds[c]
        m, se = mean_se(frozen[c])
        pred = ls.frozen_subspace_error(p / n, inr)  # (1 - P/N)_+ (1 + INR)
        z = z_quantile(n_sub.sum())
        ledger.check(
            f"frozen-inr{inr:g}",
            f"Error on the frozen subspace vs (1 - P/N)(1 + INR), INR = {inr:g}, SNR = {snr:g}: "
            "largest |deviation| / standard error over the loads alpha < 1",
            measured=np.max(np.abs(m - pred)[n_sub] / se[n_sub]), predicted=0.0, tolerance=z,
            kind="absolute", theory="gendyn.linear_student.frozen_subspace_error",
            reference=float(np.max(pred[n_sub] / se[n_sub])),
            reason=f"Exact at finite N; sampling error of {frozen.shape[-1]} draws per load, z = {z:.2f} "
            f"(Bonferroni over {n_sub.sum()} loads, level 1e-3).",
        )


def figure_frozen_inr(alphas: np.ndarray, conds: Sequence[tuple[float, float]], frozen: np.ndarray,
                      eg_inf: np.ndarray, eg_stop: np.ndarray, *, snr_inr: float, inrs: Sequence[float],
                      sweep_alphas: Sequence[float]) -> Figure:
    """The frozen subspace against the load (left) and the errors against INR (right).

    Left: the simulated frozen-subspace error per INR at ``alpha < 1`` with ``(1 - alpha)(1 + INR)``. Right: at
    the loads nearest to ``sweep_alphas``, the converged (circles, solid) and early-stopped (squares, dashed)
    errors against INR, simulation and eq. (6), at ``snr_inr``. Arrays are ``(C, A, draws)`` from
    :func:`gendyn.linear_experiments.condition_errors`; ``inrs`` sets the range of the theory lines.
    """
    n_sub = alphas < 1
    a_fine = _fine_loads(alphas)
    fig, axes = plotting.subplots(1, 2, height=3.4)
    inr_conds = _inr_conditions(conds, snr_inr)
    for k, c in enumerate(inr_conds):
        _, inr = conds[c]
        m, se = mean_se(frozen[c])
        color = plotting.COLORS[k]
        axes[0].errorbar(alphas[n_sub], m[n_sub], yerr=se[n_sub], fmt="o", ms=3, color=color)
        axes[0].plot(a_fine[a_fine < 1], ls.frozen_subspace_error(a_fine[a_fine < 1], inr), color=color,
                     label=f"INR = {inr:g}")
    axes[0].set(xlabel="$\\alpha$", ylabel="frozen part of $E_g/\\sigma_w^2$",
                title="frozen subspace: $(1-\\alpha)(1+$INR$)$")
    axes[0].legend()
    inr_fine = np.linspace(0, max(inrs), 21)
    for k, a_show in enumerate(sweep_alphas):
        color = plotting.COLORS[k + 4]
        i = int(np.argmin(np.abs(alphas - a_show)))
        inrs_here = np.array([conds[c][1] for c in inr_conds])
        axes[1].plot(inr_fine, ls.asymptotic_error(alphas[i], snr_inr, inr_fine), color=color,
                     label=f"$\\alpha$ = {alphas[i]:g}, $t=\\infty$")
        axes[1].plot(inr_fine, ls.optimal_stopping_error(alphas[i], snr_inr, inr_fine)[1], "--",
                     color=color, label=f"$\\alpha$ = {alphas[i]:g}, early stopped")
        axes[1].errorbar(inrs_here, [eg_inf[c, i].mean() for c in inr_conds],
                         yerr=[mean_se(eg_inf[c, i])[1] for c in inr_conds], fmt="o", ms=3, color=color)
        axes[1].errorbar(inrs_here, [eg_stop[c, i].mean() for c in inr_conds],
                         yerr=[mean_se(eg_stop[c, i])[1] for c in inr_conds], fmt="s", ms=3,
                         color=color, mfc="none")
    axes[1].set(xlabel="INR $= (\\sigma_w^0)^2/\\sigma_w^2$", ylabel="$E_g/\\sigma_w^2$",
                title=f"initial weights, SNR = {snr_inr:g}")
    axes[1].legend(fontsize=7)
    return fig
