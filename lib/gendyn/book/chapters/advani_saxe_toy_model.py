"""Figures and claims of the chapter ``notebooks/advani-saxe/toy-model.md``.

Advani, Saxe & Sompolinsky, slides eqs. (2)-(6): the exact learning dynamics of a linear student
of a noisy linear teacher. The experiments are science API
(:func:`gendyn.linear_experiments.gd_versus_flow`, :func:`gendyn.linear_student.sampled_dataset_errors`,
:func:`gendyn.linear_student.finite_size_gap`); the notebook shows their protocol. This module holds the
chapter's sizes, its five figures and its claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib import colormaps
from matplotlib.figure import Figure

from gendyn import linear_experiments as le
from gendyn import linear_student as ls
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import dkw_bound, ks_distance, z_quantile, z_score

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "figure_theory", "figure_dynamics", "check_eq5",
           "check_gd_vs_flow", "figure_gd_vs_flow", "figure_components", "check_eq6", "check_finite_size",
           "figure_finite_size", "check_fig2", "figure_fig2"]


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


def figure_theory(alphas: np.ndarray, *, snr: float, inr: float, t_max: float) -> Figure:
    """Eq. (6) for a few loads: test error, its scale and overfitting components, and the training error.

    Up to ``t_max`` (in units of tau), at signal-to-noise ``snr`` and initialisation-to-teacher ratio ``inr``.
    """
    t_fine = np.r_[0.0, np.geomspace(1e-2, t_max, 300)]
    e_t_floor = 1e-12  # lower end of the training-error axis (memorised noise decays to exactly 0)
    fig, axes = plotting.subplots(1, 3, height=2.8)
    for k, a in enumerate(alphas):
        color = plotting.COLORS[k]
        total = ls.generalization_error(t_fine, a, snr, inr)
        scale_part = ls.generalization_error(t_fine, a, np.inf, inr)  # SNR -> inf: the scale term
        axes[0].semilogx(t_fine, total, color=color, label=f"$\\alpha$ = {a:g}")
        axes[1].semilogx(t_fine, scale_part, color=color)
        axes[1].semilogx(t_fine, total - scale_part - 1 / snr, color=color, ls="--")
        e_t = ls.training_error(t_fine, a, snr, inr)
        axes[2].semilogx(t_fine, np.where(e_t > 1e-300, e_t, np.nan), color=color)  # mask 0, underflow
    axes[0].axhline(1 / snr, color="k", ls=":", lw=1, label="$1/\\mathrm{SNR}$")
    axes[0].set(xlabel="$t/\\tau$", ylabel="$E_g/\\sigma_w^2$", title="test error, eq. (6)")
    axes[1].set(xlabel="$t/\\tau$", ylabel="component", title="scale / overfitting")
    axes[2].set(xlabel="$t/\\tau$", ylabel="$E_t/\\sigma_w^2$", title="training error", yscale="log")
    axes[2].set_ylim(e_t_floor, 3 * (1 + inr + 1 / snr))
    axes[0].legend()
    return fig


def _positive(x):
    """Zeros and float64 underflow (memorised noise, alpha < 1) masked for the log axis."""
    return np.where(x > 1e-300, x, np.nan)


def figure_dynamics(run: le.GDVersusFlow, eq5: Sequence[ls.SampledErrors], eq6: np.ndarray,
                    eq6_train: np.ndarray) -> Figure:
    """``E_g(t)`` (top) and ``E_t(t)`` (bottom) per load: gradient descent, exact flow, eq. (5) and eq. (6).

    Points: gradient descent (mean over datasets and draws, bars: standard error); thin lines: the flow on
    the same draws; dashed: eq. (5) averaged over the sampled datasets (``eq5``, one per load); thick grey:
    eq. (6) (``eq6``, ``eq6_train``: ``(A, T)``).
    """
    alphas, t_gd, t_flow = run.alphas, run.t_gd, run.times
    A, S, K = run.gd_test.shape[:3]
    KF = run.flow_test.shape[2]
    fig, axes = plotting.subplots(2, A, height=5.0, sharex=True)
    rows = ((run.gd_test, run.flow_test, [e.test for e in eq5], eq6, "$E_g/\\sigma_w^2$"),
            (run.gd_train, run.flow_train, [e.train for e in eq5], eq6_train, "$E_t/\\sigma_w^2$"))
    for i, a in enumerate(alphas):
        color = plotting.COLORS[i]
        for row, (sim_gd, sim_flow, th5, th6, name) in enumerate(rows):
            ax = axes[row, i]
            draws = sim_gd[i].reshape(S * K, -1)
            curves = [draws.mean(0)[1:], sim_flow[i].reshape(S * KF, -1).mean(0)[1:],
                      th5[i].mean(0)[1:], th6[i][1:]]
            if row == 1:
                curves = [_positive(c) for c in curves]
            ax.errorbar(t_gd[1:], curves[0], yerr=draws.std(0, ddof=1)[1:] / np.sqrt(S * K), fmt="o",
                        ms=3, color=color, label="gradient descent")
            ax.plot(t_flow[1:], curves[1], color=color, lw=0.8, label="exact flow")
            ax.plot(t_flow[1:], curves[2], "k--", lw=1, label="eq. (5), sampled datasets")
            ax.plot(t_flow[1:], curves[3], color="0.5", lw=2.5, alpha=0.5, label="eq. (6), MP law")
            ax.set_xscale("log")
            if row == 1:
                # memorised noise decays exponentially: cut the axis at 1e-8
                top = np.nanmax(np.concatenate(curves))
                bottom = max(np.nanmin(np.concatenate(curves)), 1e-8)
                ax.set(yscale="log", xlabel="$t/\\tau$", ylim=(bottom / 2, 2 * top))
            ax.set_title(f"$\\alpha$ = {a:g}" if row == 0 else "")
            if i == 0:
                ax.set_ylabel(name)
    axes[0, 1].legend(fontsize=7, loc="upper left")  # where the curves leave room
    return fig


def _standardized_deviation(resid):
    """Largest |mean| / standard error over times of residuals (draws x times), and the Bonferroni z."""
    resid = resid / np.abs(resid).max(0)  # scale-free; keeps tiny late-time errors out of float underflow
    return np.max(np.abs(z_score(resid, axis=0))), z_quantile(resid.shape[1])


def _theory_in_standard_errors(resid, theory):
    """Largest ``|theory| / standard error of the residuals`` over times: a claim in standard errors sees a
    relative error ``eps`` of the theory once ``eps`` times this exceeds its ``z`` (the claim's ``reference``)."""
    se = resid.std(0, ddof=1) / np.sqrt(resid.shape[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(se > 0, np.abs(theory) / se, 0.0)
    return float(np.max(ratio))


def check_eq5(ledger: Ledger, run: le.GDVersusFlow, eq5: Sequence[ls.SampledErrors]) -> None:
    """Claims: eq. (5) is exact for each dataset, for the test and the training error at every load.

    The mean over draws of the simulated flow minus eq. (5) on the same datasets, in standard errors, stays
    below the Bonferroni quantile over the times (``t > 0``, leaving out training errors underflowed below
    ``1e-250``).
    """
    t_flow = run.times
    for i, a in enumerate(run.alphas):
        for err, sim, th in (("test", run.flow_test, [e.test for e in eq5]),
                             ("train", run.flow_train, [e.train for e in eq5])):
            # t = 0 is exact by construction; at very long times the memorised-noise training error of
            # alpha < 1 underflows float64 (below ~1e-300), and those times carry no information
            keep = (t_flow > 0) & (th[i].min(0) > 1e-250)
            resid = (sim[i] - th[i][:, None, :]).reshape(-1, t_flow.size)[:, keep]
            dev, z = _standardized_deviation(resid)
            name = "single_dataset_error" if err == "test" else "single_dataset_training_error"
            ledger.check(
                f"eq5-{err}-a{a:g}",
                f"Simulated flow vs eq. (5) for the same datasets, {err} error, alpha = {a:g}: "
                "largest |mean deviation| / standard error over t",
                measured=dev, predicted=0.0, tolerance=z, kind="absolute", theory=f"gendyn.linear_student.{name}",
                reference=_theory_in_standard_errors(resid, th[i].mean(0)[keep]),
                reason=f"Exact for each dataset (no large-N limit): only sampling error of {resid.shape[0]} "
                f"teacher/noise/init draws; z = {z:.2f} is the Bonferroni quantile for {resid.shape[1]} times at "
                "level 1e-3.",
            )


def _gd_minus_flow(run, eq5, i, snr, inr):
    """For load ``i``: GD minus flow per draw (draws x Tg), its prediction (5') - (5), and the flow's mean E_g."""
    K = run.gd_test.shape[2]
    on_gd = run.on_gd
    eq5_gd = ls.single_dataset_gd_error(run.steps, run.lr, run.cov_eigvals[i], snr, inr)  # eq. (5')
    flow_gd = run.flow_test[i][:, :K][..., on_gd]
    diff = (run.gd_test[i] - flow_gd).reshape(-1, on_gd.size)
    pred = (eq5_gd - eq5[i].test[:, on_gd]).mean(0)
    return diff, pred, flow_gd.mean((0, 1)), eq5_gd.mean(0)


def check_gd_vs_flow(ledger: Ledger, run: le.GDVersusFlow, eq5: Sequence[ls.SampledErrors], *, snr: float,
                     inr: float) -> dict[float, float]:
    """Claims: gradient descent minus the flow on the same draws equals the prediction (5') - (5), per load.

    Compared at every step in standard errors of the paired differences (Bonferroni over the steps).

    Returns
    -------
    dict
        ``{alpha: max_t |mean(GD - flow)| / E_g}``, the size of the difference.
    """
    size = {}
    for i, a in enumerate(run.alphas):
        diff, pred, scale, eq5_gd = _gd_minus_flow(run, eq5, i, snr, inr)
        dev, z = _standardized_deviation(diff[:, 1:] - pred[None, 1:])
        ledger.check(
            f"gd-flow-a{a:g}",
            f"Gradient descent minus exact flow on the same draws vs the prediction (5') - (5), "
            f"alpha = {a:g}, lr = {run.lr:g}: largest |mean deviation| / standard error over t",
            measured=dev, predicted=0.0, tolerance=z, kind="absolute",
            theory=("gendyn.linear_student.single_dataset_gd_error", "gendyn.linear_student.single_dataset_error"),
            reference=_theory_in_standard_errors(diff[:, 1:], eq5_gd[1:]),
            reason=f"Paired differences over {diff.shape[0]} draws; z = {z:.2f} is the Bonferroni quantile for "
            f"{len(run.steps) - 1} times at level 1e-3. The difference itself is O(lr lambda_max) "
            "(figure).",
        )
        size[a] = np.max(np.abs(diff.mean(0)) / scale)
    return size


def figure_gd_vs_flow(run: le.GDVersusFlow, eq5: Sequence[ls.SampledErrors], *, snr: float, inr: float) -> Figure:
    """Relative difference of gradient descent and the flow per load: measured (points) and (5') - (5) (lines)."""
    t_gd = run.t_gd
    fig, ax = plotting.subplots(1, 1, height=3.2)
    for i, a in enumerate(run.alphas):
        diff, pred, scale, _ = _gd_minus_flow(run, eq5, i, snr, inr)
        ax.semilogx(t_gd[1:], diff.mean(0)[1:] / scale[1:], "o", ms=3, color=plotting.COLORS[i],
                    label=f"$\\alpha$ = {a:g}")
        ax.semilogx(t_gd[1:], pred[1:] / scale[1:], color=plotting.COLORS[i], lw=1)
    ax.axhline(0, color="k", lw=0.8)
    ax.set(xlabel="$t/\\tau$", ylabel="$(E_g^{GD} - E_g^{flow}) / E_g$",
           title=f"gradient descent vs flow, $\\eta$ = {run.lr:g}")
    ax.legend()
    return fig


def figure_components(run: le.GDVersusFlow, *, snr: float, inr: float) -> Figure:
    """Scale and overfitting components of ``E_g`` per load: flow (points) against eq. (6) (lines).

    The scale part includes the frozen subspace, marked at ``(1 - alpha)(1 + INR)`` for ``alpha < 1``; the cross
    term (zero on average) is shown too.
    """
    t_flow = run.times
    A = len(run.alphas)
    draws = np.prod(run.flow_test.shape[1:3])
    fig, axes = plotting.subplots(1, A, height=3.0, sharey=True)
    for i, a in enumerate(run.alphas):
        ax = axes[i]
        scale_sim = (run.scale[i] + run.frozen[i]).reshape(draws, -1).mean(0)
        over_sim = run.overfit[i].reshape(draws, -1).mean(0)
        cross_sim = run.cross[i].reshape(draws, -1).mean(0)
        scale_th = ls.generalization_error(t_flow, a, np.inf, inr)
        over_th = ls.generalization_error(t_flow, a, snr, inr) - scale_th - 1 / snr
        ax.semilogx(t_flow[1:], scale_sim[1:], "o", ms=3, color=plotting.COLORS[0], label="scale (sim)")
        ax.semilogx(t_flow[1:], scale_th[1:], color=plotting.COLORS[0], label="scale, eq. (6)")
        ax.semilogx(t_flow[1:], over_sim[1:], "s", ms=3, color=plotting.COLORS[1],
                    label="overfitting (sim)")
        ax.semilogx(t_flow[1:], over_th[1:], color=plotting.COLORS[1], label="overfitting, eq. (6)")
        ax.semilogx(t_flow[1:], cross_sim[1:], "x", ms=3, color="0.4", label="cross term (sim)")
        if a < 1:
            ax.axhline(float(ls.frozen_subspace_error(a, inr)), color="k", ls=":", lw=1,
                       label="frozen $(1-\\alpha)(1+$INR$)$")
        ax.set(xlabel="$t/\\tau$", title=f"$\\alpha$ = {a:g}")
    axes[0].set_ylabel("component of $E_g/\\sigma_w^2$")
    axes[0].legend(fontsize=7)
    return fig


def check_eq6(ledger: Ledger, run: le.GDVersusFlow, eq6: np.ndarray) -> None:
    """Claims: eq. (6) describes a typical dataset, at every load.

    Over the times of the gradient-descent run, the largest relative deviation of the mean simulated test error
    from eq. (6) is within ``z`` relative standard errors plus ``3/N`` (the finite-size bias of a Wishart linear
    spectral statistic); ``eq6`` is eq. (6) at the flow's times, ``(A, T)``.
    """
    n = run.n_features
    draws = np.prod(run.flow_test.shape[1:3])
    for i, a in enumerate(run.alphas):
        flow = run.flow_test[i].reshape(draws, -1)
        keep = (run.times > 0) & (run.times <= run.t_gd[-1])
        dev = np.abs(flow.mean(0) - eq6[i])[keep] / eq6[i][keep]
        se = flow.std(0, ddof=1)[keep] / np.sqrt(draws) / eq6[i][keep]
        z = z_quantile(keep.sum())
        ledger.check(
            f"eq6-a{a:g}",
            f"Mean simulated test error vs eq. (6) (MP average), N = {n}, alpha = {a:g}: max relative deviation "
            "over t",
            measured=dev.max(), predicted=0.0, tolerance=z * se.max() + 3 / n, kind="absolute",
            theory="gendyn.linear_student.generalization_error", reference=1.0,
            reason=f"z = {z:.2f} (Bonferroni over times, level 1e-3) x largest relative standard error over "
            f"{draws} draws + 3/N finite-size bias of a Wishart linear spectral statistic (exactly <= 2/N at "
            "t = inf for these loads).",
        )


def check_finite_size(ledger: Ledger, ns: Sequence[int], gaps: dict[float, list[ls.FiniteSizeGap]], *,
                      repeats: int) -> None:
    """Claims: at each load the gap at ``t = inf`` is the exact finite-N one, ``n / (d (d - 1)) / SNR``.

    ``gaps[alpha]`` holds one :class:`gendyn.linear_student.FiniteSizeGap` per ``N`` of ``ns`` (``repeats``
    datasets each). The ratio of the measured gap to the exact one, pooled over ``N`` (inverse-variance
    weights), must be 1 within four standard errors; a law without the ``1/N`` bias gives 0.
    """
    for a in gaps:
        r = np.array([g.ratio_inf for g in gaps[a]])
        r_se = np.array([g.ratio_inf_se for g in gaps[a]])
        weights = r_se ** -2.0
        pooled, pooled_se = np.sum(weights * r) / weights.sum(), weights.sum() ** -0.5
        ledger.check(
            f"finite-size-a{a:g}",
            f"alpha = {a:g}: mean over datasets of eq. (5) minus eq. (6) at t = inf, over the exact finite-N gap "
            f"n/(d(d-1))/SNR, pooled over N = {', '.join(map(str, ns))}",
            measured=pooled, predicted=1.0, tolerance=4 * pooled_se, kind="absolute",
            theory="gendyn.linear_student.finite_size_asymptotic_error",
            reason=f"4 standard errors of the pooled ratio ({pooled_se:.3f}; {repeats} datasets per N). "
            "The prediction is exact at every N (inverse-Wishart mean), so no finite-size allowance is needed; a "
            "law without the 1/N bias gives 0.",
        )


def figure_finite_size(ns: Sequence[int], gaps: dict[float, list[ls.FiniteSizeGap]]) -> Figure:
    """Time-averaged relative gap to eq. (6) against ``N``: eq. (5) averaged over datasets and raw simulation.

    The legend gives the exponent of a weighted fit of the eq. (5) gap on ``N``; dotted and dash-dotted guides
    show ``N^-1`` and ``N^-1/2`` through the first load's first point.
    """
    ns = np.array(ns)
    fig, ax = plotting.subplots(1, 1, height=3.4)
    for j, a in enumerate(gaps):
        color = plotting.COLORS[j]
        g, se = np.array([x.gap for x in gaps[a]]), np.array([x.gap_se for x in gaps[a]])
        # weighted fit of log gap on log N, weights from the standard errors of the gaps
        sig = se / g
        coef, _ = np.polyfit(np.log(ns), np.log(g), 1, w=1 / sig, cov="unscaled")
        slope = coef[0]
        ax.errorbar(ns, g, yerr=se, fmt="o-", color=color, label=f"eq. (5) avg, $\\alpha$ = {a:g}: slope {slope:.2f}")
        ax.loglog(ns, [x.gap_sim for x in gaps[a]], "s--", color=color, alpha=0.6, ms=4, label=f"raw simulation, $\\alpha$ = {a:g}")
    first = gaps[next(iter(gaps))][0]
    ax.loglog(ns, first.gap * (ns / ns[0]) ** -1.0, "k:", lw=1, label="$\\propto N^{-1}$")
    ax.loglog(ns, first.gap_sim * (ns / ns[0]) ** -0.5, "k-.", lw=1, label="$\\propto N^{-1/2}$")
    ax.set(xlabel="$N$", ylabel="time-averaged |relative gap| to eq. (6)", title="finite-size convergence to eq. (6)")
    ax.legend(fontsize=7)
    return fig


def _continuous_cdf(lam, alpha):
    """The MP distribution function of the nonzero eigenvalues (the point mass at 0 taken out), in [0, 1]."""
    mass = float(ls.mp_point_mass(alpha))
    f = (np.asarray(ls.mp_eigenvalue_cdf(lam, alpha), float) - mass) / (1.0 - mass)
    return np.clip(f, 0.0, 1.0)


def check_fig2(ledger: Ledger, sim: le.LinearStudentSweep, alphas: Sequence[float], times: np.ndarray,
               panel_times: Sequence[float], *, snr: float) -> dict[str, float]:
    """Claims of Fig. 2: each panel against the exact (Marchenko-Pastur) theory.

    ``sim`` is :func:`gendyn.linear_experiments.simulate_linear_student` at ``alphas``, ``times`` (one SNR, INR 0).

    * A, per load of :data:`FIG2_LOADS`: the nonzero eigenvalues of the sampled ``X X^T`` against the MP law
      (:func:`gendyn.linear_student.mp_eigenvalue_cdf`, the point mass taken out): Kolmogorov-Smirnov distance
      within the DKW bound of as many independent samples (level 1e-3; eigenvalues of one matrix repel, so they
      fluctuate less than independent ones).
    * B, per load: the mean test and training errors over the datasets and draws against
      :func:`gendyn.linear_student.generalization_error` and :func:`gendyn.linear_student.training_error`: the
      largest deviation over the times (``t = 0`` included), relative to the theory (test error) or to its value at ``t = 0``
      (training error, which falls to 0 when ``alpha <= 1``), within ``z`` standard errors on the same scale
      (Bonferroni over the times, level 1e-3) plus ``3/N`` (finite-size bias of a Wishart linear spectral
      statistic), as eq. (6)'s claims above.
    * C: the mean test error at every load and every time of ``panel_times`` against eq. (6), in the same way
      (Bonferroni over loads and times).

    Returns the largest relative deviation of each claim of panels B and C.
    """
    n = sim.cov_eigvals.shape[-1]
    test, train = sim.test_error[:, :, 0], sim.train_error[:, :, 0]  # (A, S, K, T)
    draws = test.shape[1] * test.shape[2]
    out = {}
    keep = times >= 0  # every time, t = 0 included (the draws' own initial errors)
    for a in FIG2_LOADS:
        i = list(alphas).index(a)
        lam = sim.cov_eigvals[i].ravel()
        lam = lam[lam > 1e-9 * lam.max()]
        bound = dkw_bound(lam.size)
        ledger.check(
            f"fig2-mp-a{a:g}", f"Fig. 2A, alpha = {a:g}: Kolmogorov-Smirnov distance of the {lam.size} nonzero "
            f"eigenvalues of {sim.cov_eigvals.shape[1]} sampled X X^T (N = {n}) from the MP law",
            measured=ks_distance(lam, lambda v: _continuous_cdf(v, a)), predicted=0.0, tolerance=bound,
            kind="upper", theory="gendyn.linear_student.mp_eigenvalue_cdf", reference=1.0,
            reason=f"DKW bound of {lam.size} samples at level 1e-3 (eigenvalues of one matrix repel, so they "
            "fluctuate less than independent samples; the finite-N shift of the bulk, O(1/N), and of the edges, "
            "O(N^-2/3) in lambda, move the distribution function by far less).")
        for err, values, theory_fn, name in (
                ("test", test, ls.generalization_error, "gendyn.linear_student.generalization_error"),
                ("train", train, ls.training_error, "gendyn.linear_student.training_error")):
            flat = values[i].reshape(draws, -1)
            th = np.asarray(theory_fn(times, a, snr, 0.0), float)
            scale = th[keep] if err == "test" else th[0]  # the training error of alpha <= 1 falls to 0
            dev = np.abs(flat.mean(0) - th)[keep] / scale
            se = flat.std(0, ddof=1)[keep] / np.sqrt(draws) / scale
            z = z_quantile(int(keep.sum()))
            ledger.check(
                f"fig2-{err}-a{a:g}",
                f"Fig. 2B, alpha = {a:g}, SNR = {snr:g}, zero initial weights: mean simulated {err} error vs its MP "
                f"average, max deviation over t in [0, {times[-1]:g}] relative to "
                + ("the theory" if err == "test" else "its value at t = 0"),
                measured=dev.max(), predicted=0.0, tolerance=z * se.max() + 3 / n, kind="absolute", theory=name,
                reference=1.0,
                reason=f"z = {z:.2f} (Bonferroni over the times, level 1e-3) x largest relative standard error over "
                f"{draws} draws + 3/N finite-size bias of a Wishart linear spectral statistic.")
            out[f"{err}-a{a:g}"] = float(dev.max())
    cols = [int(np.argmin(np.abs(times - t))) for t in panel_times]
    flat = test[..., cols].reshape(len(alphas), draws, len(cols))
    th = np.asarray(ls.generalization_error(times[cols][None, :], np.asarray(alphas)[:, None], snr, 0.0), float)
    dev = np.abs(flat.mean(1) - th) / th
    se = flat.std(1, ddof=1) / np.sqrt(draws) / th
    z = z_quantile(dev.size)
    ledger.check(
        "fig2-eg-vs-alpha",
        f"Fig. 2C: mean simulated test error at {len(alphas)} loads and t = {', '.join(f'{t:g}' for t in panel_times)} "
        "vs eq. (6), max relative deviation",
        measured=dev.max(), predicted=0.0, tolerance=z * se.max() + 3 / n, kind="absolute",
        theory="gendyn.linear_student.generalization_error", reference=1.0,
        reason=f"z = {z:.2f} (Bonferroni over loads and times, level 1e-3) x largest relative standard error over "
        f"{draws} draws + 3/N finite-size bias of a Wishart linear spectral statistic.")
    out["eg-vs-alpha"] = float(dev.max())
    return out


def figure_fig2(sim: le.LinearStudentSweep, alphas: Sequence[float], times: np.ndarray, panel_times: Sequence[float], *,
                snr: float) -> Figure:
    """The paper's Fig. 2 (our parameters): (A) the MP densities at alpha = 1/2, 1, 2 with the sampled spectra,
    (B) training and test error against time at those loads, (C) the test error against alpha at growing times.

    Points are simulation means (``sim`` from :func:`gendyn.linear_experiments.simulate_linear_student`, zero
    initial weights); lines are the exact theory: :func:`gendyn.linear_student.mp_eigenvalue_density` with the
    point mass ``1 - alpha`` drawn as an arrow, eq. (6) (:func:`gendyn.linear_student.generalization_error`) and
    its training error (:func:`gendyn.linear_student.training_error`).
    """
    fig, axes = plotting.subplots(3, 3, height=6.6)
    test, train = sim.test_error[:, :, 0], sim.train_error[:, :, 0]
    for k, a in enumerate(FIG2_LOADS):
        i = list(alphas).index(a)
        color = plotting.COLORS[k]
        ax = axes[0, k]
        lo, hi = (float(v) for v in ls.mp_eigenvalue_edges(a))
        lam = sim.cov_eigvals[i].ravel()
        lam = lam[lam > 1e-9 * lam.max()]
        mass = float(ls.mp_point_mass(a))
        weights = np.full(lam.size, (1.0 - mass) / lam.size)
        ax.hist(lam, bins=30, weights=weights * 30 / (lam.max() - lam.min()), color=color, alpha=0.35,
                label="sampled $XX^T$")
        grid = np.linspace(max(lo, 1e-3), hi, 400)
        ax.plot(grid, ls.mp_eigenvalue_density(grid, a), "k-", lw=1, label="MP density")
        top = 1.2 * float(np.max(ls.mp_eigenvalue_density(grid[grid > 0.02 * hi], a)))
        if mass > 0:
            ax.annotate("", xy=(0.0, top * 0.9), xytext=(0.0, 0.0),
                        arrowprops=dict(arrowstyle="-|>", color="k", lw=1.2))
            ax.text(0.06 * hi, 0.9 * top, f"mass {mass:g} at 0", fontsize=6.5, va="top")
        ax.set(xlim=(-0.05 * hi, 1.05 * hi), ylim=(0, top), xlabel="$\\lambda$",
               title=f"A: $\\alpha$ = {a:g}")
        if k == 0:
            ax.set_ylabel("density $\\rho^{\\rm MP}(\\lambda)$")
            ax.legend(fontsize=6, loc="center right")
        ax = axes[1, k]
        draws = test.shape[1] * test.shape[2]
        for values, theory_fn, c, label in ((train, ls.training_error, plotting.COLORS[0], "train"),
                                            (test, ls.generalization_error, plotting.COLORS[1], "test")):
            flat = values[i].reshape(draws, -1)
            ax.plot(times[::4], flat.mean(0)[::4], "o", ms=2.5, color=c, label=f"{label} (simulation)")
            ax.plot(times, theory_fn(times, a, snr, 0.0), "-", lw=1, color=c, label=f"{label}, theory")
        ax.axhline(1.0 / snr, color="k", ls=":", lw=0.8)
        ax.set(xlabel="$t/\\tau$", title=f"B: $\\alpha$ = {a:g}")
        if k == 0:
            ax.set_ylabel("error / $\\sigma_w^2$")
            ax.legend(fontsize=6.5)
    gs = axes[2, 0].get_gridspec()
    for ax in axes[2]:
        ax.remove()
    ax = fig.add_subplot(gs[2, :])
    a_fine = np.linspace(0.02, max(alphas), 500)
    a_fine = a_fine[np.abs(a_fine - 1) > 2e-3]
    cols = [int(np.argmin(np.abs(times - t))) for t in panel_times]
    draws = test.shape[1] * test.shape[2]
    for m, (t, col) in enumerate(zip(panel_times, cols)):
        shade = colormaps["Reds"](0.35 + 0.6 * m / max(1, len(panel_times) - 1))
        ax.plot(a_fine, ls.generalization_error(t, a_fine, snr, 0.0), "-", lw=1.2, color=shade,
                label=f"$t/\\tau$ = {t:g}")
        means = test[..., col].reshape(len(alphas), draws).mean(1)
        ax.plot(alphas, means, "o", ms=3, color=shade)
    t_late = 10 * panel_times[-1]  # a later time, theory only: the peak keeps growing (to infinity as t -> inf)
    ax.plot(a_fine, ls.generalization_error(t_late, a_fine, snr, 0.0), "--", lw=1, color="k",
            label=f"$t/\\tau$ = {t_late:g} (theory only)")
    ax.axvline(1.0, color="k", ls=":", lw=0.8)
    ax.set(xlabel="load $\\alpha = P/N$", ylabel="test error $E_g/\\sigma_w^2$",
           title="C: test error against the load at growing training times")
    ax.legend(fontsize=7)
    return fig
