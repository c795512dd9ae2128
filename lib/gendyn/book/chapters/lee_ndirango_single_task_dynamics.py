"""Figures and claims of the chapter ``notebooks/lee-ndirango/single-task-dynamics.md``.

Lee & Ndirango, §3 and appendix B (Fig. 1): the notebook trains training-aligned (TA) and randomly
initialised softmax students of noisy rank-one teachers
(:func:`gendyn.multitask_train.train_single_task`) and evaluates the reconstructed dynamics (3)
(:func:`gendyn.softmax_multitask.ta_prediction`); this module draws the figures and states the claims:
the early growth rate against (3), and the finite-size convergence of the two-class fixed point.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from gendyn import softmax_multitask as sm
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.figures import plot_simulation_vs_theory
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import z_quantile
from gendyn.multitask_train import SingleTaskStudents

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "figure_1_ta", "check_growth_rate", "figure_binary",
           "check_finite_size", "figure_finite_size", "figure_ta_vs_random"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019) §3, Fig. 1: TA dynamics (3) vs simulation, TA vs random initialisation.
    """

    sbars: tuple[float, ...]  #: SNRs of the ten-class TA students
    binary_sbars: tuple[float, ...]  #: SNRs of the two-class TA students
    n_train: int  #: training examples
    n_val: int  #: validation examples
    lr: float  #: learning rate
    horizon: float  #: training time (steps = horizon / lr)
    random_init_scale: float  #: initial weight scale of the students started from small random weights
    finite_size_n: tuple[int, ...]  #: training-set sizes of the finite-size check (two classes)
    finite_size_seeds: int  #: seeds per size of the finite-size check


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(sbars=(0.05, 0.1, 0.2, 0.4, 1.0), binary_sbars=(0.1, 0.3, 1.0), n_train=20_000, n_val=4000,
                   lr=0.05, horizon=150.0, random_init_scale=0.05,
                   finite_size_n=(1000, 2000, 4000, 8000, 16_000), finite_size_seeds=16),
    "smoke": Sizes(sbars=(0.1, 1.0), binary_sbars=(0.3,), n_train=3000, n_val=1000,
                   lr=0.1, horizon=100.0, random_init_scale=0.05,
                   finite_size_n=(500, 1000, 2000, 4000), finite_size_seeds=16),
}

_SM = "gendyn.softmax_multitask"


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"growth-rate-K10-sbar{sbar:g}" for sbar in cfg.sbars]
    ids += [f"growth-rate-K2-sbar{sbar:g}" for sbar in cfg.binary_sbars]
    return ids + ["fixed-point-finite-size-K2"]


#: The theory the claims test, and the error each should see at smoke scale: the growth-rate claims resolve
#: 1-5 % of the rate at smoke scale (:func:`check_growth_rate`). The fixed-point claim is coarse: at smoke scale the
#: relative gaps to s* are 2-15 % with random sign over seeds (mean 2-3 % at the largest P), so it sees an s*
#: wrong by 20 % (the gaps stop shrinking) but not by 5 %.
MUTATIONS = (
    Mutation(f"{_SM}.ta_rate", 0.1, why="(3), stepped as gradient descent: the early growth rate, resolved to 1-5 %"),
    Mutation(f"{_SM}.ta_fixed_point", 0.2,
             why="s* of (3): the mean gap to it falls to 2-3 % at the largest P; a 20 % error floors it and "
                 "flattens the slope (a 5 % error is within the seeds' scatter at smoke scale)"),
)

#: The fitted window of the growth-rate claims: the records with ``s <= S_END`` (after the initial one).
S_END = 0.05


def _ta_descent(steps: np.ndarray, s0: float, sigma_hat: float, u: np.ndarray, lr: float) -> np.ndarray:
    """``s`` after each of ``steps`` (increasing step numbers) of gradient descent with step ``lr`` on (3).

    The TA student's two balanced layers each have singular value ``sqrt(s)``, and a step multiplies each by
    ``1 + lr (sigma_hat - f(s) s)`` (:func:`gendyn.softmax_multitask.ta_rate` over ``2 s`` for one hidden layer),
    so ``s -> s (1 + lr ta_rate(s) / (2 s))^2``: the discrete dynamics of the simulation, not the flow of (3).
    """
    s = np.empty(steps.max() + 1)
    s[0] = s0
    for k in range(steps.max()):
        s[k + 1] = s[k] * (1 + lr * float(sm.ta_rate(s[k], sigma_hat, u)) / (2 * s[k])) ** 2
    return s[steps]


def figure_1_ta(runs: SingleTaskStudents, theory: Mapping[float, sm.TAPrediction]) -> Figure:
    """Fig. 1 (as §3 describes it): singular value and generalisation loss of the TA students of the first
    seed, simulation (points) against (3) (lines, ``theory`` by SNR), one colour per sbar."""
    pred = [theory[sbar] for sbar in runs.s_a]
    labels = [f"$\\bar s$ = {sbar:g}: $\\rho(s^*)$ = {p.rho:.2f}" for sbar, p in zip(runs.s_a, pred)]
    fig, axes = plotting.subplots(1, 2, height=3.4)
    plot_simulation_vs_theory(axes[0], runs.t, runs.top_singular_value()[0], [p.s for p in pred], labels=labels)
    plot_simulation_vs_theory(axes[1], runs.t, runs.result.val_loss[0], [p.loss for p in pred])
    axes[0].set(yscale="log", xlabel="$t/\\tau$", ylabel="student singular value $s$",
                title="(3): points simulation, lines theory")
    axes[1].set(xlabel="$t/\\tau$", ylabel="generalisation loss (clean labels)",
                title="TA theory vs validation", ylim=(None, math.log(10) + 0.05))
    axes[0].legend(fontsize=7)
    return fig


def check_growth_rate(ledger: Ledger, tag: str, runs: SingleTaskStudents, *, lr: float, n_train: int,
                      comparisons: int) -> None:
    """Claims: the early growth rate of each TA student's singular value (first seed; fit of ln s over the records
    with s <= :data:`S_END`) equals the same fit on gradient descent on (3) (:func:`_ta_descent`) from the
    student's own initial value, at the same step ``lr`` and record steps, with the data's ``sigma_hat`` and
    class direction.

    The softmax term of (3) slows the growth inside the window by up to ``2 f_max S_END`` (10-40 % of the rate
    at low SNR): the prediction includes it, as (3) states it. What (3) leaves out is the finite training set:
    the term is ``E[g (p . u)]`` over Gaussian inputs (15) (``g`` the input's component along ``v``, ``p`` the
    student's softmax at it), the student's gradient its mean over the ``n_train`` training inputs. As
    ``|d (p . u) / d(s g)| = Var_p(u) <= 1/2`` for a unit centred ``u``, ``|g (p . u)| <= s g^2 / 2``, whose
    standard deviation over inputs is at most ``sqrt(3) s / 2``; the growth rate of ``s`` (twice that of each
    layer) then differs by at most ``z sqrt(3) S_END / sqrt(P)`` (``z`` standard errors, Bonferroni over
    ``comparisons`` claims at level 1e-3), a bound: the fit mostly sees ``s`` well below ``S_END``. For more than
    two classes (3) also drops the off-diagonal part of (16), second order in ``s`` inside the window.
    """
    s_traj, sigma_hat, u_hat = runs.top_singular_value()[0], runs.sigma_hat[0], runs.u_hat[0]
    steps = np.asarray(runs.result.eval_steps)
    z = z_quantile(comparisons)
    tolerance = z * math.sqrt(3) * S_END / math.sqrt(n_train)
    for i, sbar in enumerate(runs.s_a):
        window = s_traj[i] <= S_END
        window[0] = False  # the first record is the initial condition itself
        if window.sum() < 2:
            raise ValueError(f"sbar = {sbar:g}: fewer than two records with s <= {S_END:g} after the first: no "
                             "early growth to fit (a larger initial value or a coarser record interval?)")
        slope = np.polyfit(runs.t[window], np.log(s_traj[i][window]), 1)[0]
        descent = _ta_descent(steps[window], float(s_traj[i][0]), sigma_hat[i], u_hat[i], lr)
        predicted = np.polyfit(runs.t[window], np.log(descent), 1)[0]
        ledger.check(
            f"growth-rate-{tag}-sbar{sbar:g}",
            f"Early growth rate of the TA singular value vs (3), {tag}, sbar = {sbar:g} (fit of ln s over s <= "
            f"{S_END:g}; (3) stepped as gradient descent)",
            measured=slope, predicted=predicted, tolerance=tolerance, kind="absolute",
            reason=f"(3) with the softmax term's slowing inside the window, at the simulation's step; tolerance: "
            f"the training set's mean of that term against (15)'s Gaussian one, z sqrt(3) S_END / sqrt(P) with "
            f"z = {z:.2f} (Bonferroni over {comparisons} claims, level 1e-3), P = {n_train}, S_END = {S_END:g}.",
            theory=f"{_SM}.ta_rate",
        )


def figure_binary(runs: SingleTaskStudents, theory: Sequence[np.ndarray]) -> Figure:
    """Two classes: the simulated singular value (points) against (3) (lines, ``theory``), one colour per sbar."""
    fig, ax = plotting.subplots(1, 1, height=3.2)
    plot_simulation_vs_theory(ax, runs.t, runs.top_singular_value()[0], theory,
                              labels=[f"$\\bar s$ = {sbar:g}" for sbar in runs.s_a])
    ax.set(yscale="log", xlabel="$t/\\tau$", ylabel="$s$", title="two classes: simulation (points) vs (3)")
    ax.legend()
    return fig


def check_finite_size(ledger: Ledger, sbar: float, sizes: Sequence[int], slope: float, slope_se: float, *,
                      seeds: int) -> None:
    """Claim: for two classes the gap to the fixed point shrinks at least as P^(-1/2) (fitted exponent
    ``slope`` over the training-set ``sizes``, with its bootstrap standard error over ``seeds`` seeds).

    One-sided, at level 1e-3: the fitted exponent may exceed -1/2 by z standard errors of the fit
    (bootstrap over the seeds), the fit's noise; a fixed point of (3) off by a constant fraction would
    leave a floor, and the exponent near 0.
    """
    z = z_quantile(1, sides=1)
    ledger.check(
        "fixed-point-finite-size-K2",
        f"Two classes, sbar = {sbar:g}: gap between the simulated fixed point and s* of (3) shrinks "
        "at least as P^(-1/2) (fitted exponent)",
        measured=slope, predicted=-0.5, tolerance=z * slope_se, kind="upper",
        reason="(16) is exact for K = 2; what remains are sampling errors O(P^-1/2) and input-space "
        f"overfitting O(N/P), so the exponent is -1/2 or below; z = {z:.2f} (one-sided, level 1e-3) bootstrap "
        f"standard errors of the exponent fitted to {len(sizes)} sizes of {seeds} seeds each "
        f"({slope_se:.2g}).",
        theory=f"{_SM}.ta_fixed_point",
    )


def figure_finite_size(sizes: np.ndarray, gaps: np.ndarray, slope: float, sbar: float) -> Figure:
    """The mean relative gap to the fixed point (``gaps``) against P (``sizes``), with a P^(-1/2) guide."""
    fig, ax = plotting.subplots(1, 1, height=3.2)
    ax.loglog(sizes, gaps, "o-", label=f"simulation: slope {slope:.2f}")
    ax.loglog(sizes, gaps[0] * (sizes / sizes[0]) ** -0.5, "k:", lw=1, label="$\\propto P^{-1/2}$")
    ax.set(xlabel="training points $P$", ylabel="mean $|s(\\infty) - s^*| / s^*$",
           title=f"$K = 2$, $\\bar s$ = {sbar:g}")
    ax.legend()
    return fig


def figure_ta_vs_random(ta: SingleTaskStudents, random_init: SingleTaskStudents) -> Figure:
    """Largest singular value and validation loss of TA (solid) and randomly initialised (dashed) students."""
    t, s_sim, s_rand = ta.t, ta.top_singular_value()[0], random_init.top_singular_value()[0]
    fig, axes = plotting.subplots(1, 2, height=3.4)
    for i, sbar in enumerate(ta.s_a):
        c = plotting.COLORS[i]
        axes[0].plot(t, s_sim[i], color=c, label=f"$\\bar s$ = {sbar:g}")
        axes[0].plot(t, s_rand[i], ls="--", color=c)
        axes[1].plot(t, ta.result.val_loss[0, i], color=c)
        axes[1].plot(t, random_init.result.val_loss[0, i], ls="--", color=c)
    axes[0].set(yscale="log", xlabel="$t/\\tau$", ylabel="largest singular value",
                title="TA (solid) vs random init (dashed)")
    axes[1].set(xlabel="$t/\\tau$", ylabel="validation loss",
                title="TA (solid) vs random init (dashed)")
    axes[0].legend(fontsize=7)
    return fig
