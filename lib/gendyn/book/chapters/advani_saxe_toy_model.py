"""Figures and claims of the chapter ``notebooks/advani-saxe/toy-model.ipynb``.

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
from matplotlib.figure import Figure

from gendyn import linear_experiments as le
from gendyn import linear_student as ls
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import z_quantile, z_score

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "figure_theory", "figure_dynamics", "check_eq5",
           "check_gd_vs_flow", "figure_gd_vs_flow", "figure_components", "check_eq6", "check_finite_size",
           "figure_finite_size"]


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
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"eq5-{err}-a{a:g}" for a in cfg.alphas for err in ("test", "train")]
    ids += [f"gd-flow-a{a:g}" for a in cfg.alphas] + [f"eq6-a{a:g}" for a in cfg.alphas]
    return ids + [f"finite-size-a{a:g}" for a in cfg.alphas if a != 1]


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
)


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
