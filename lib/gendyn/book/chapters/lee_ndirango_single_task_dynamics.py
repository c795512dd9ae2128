"""Runner, figures and claims of the chapter ``notebooks/lee-ndirango/single-task-dynamics.ipynb``.

Lee & Ndirango, §3 and appendix B (Fig. 1): training-aligned (TA) softmax students of noisy
rank-one teachers trained by full-batch gradient descent (:func:`run_ta`), against the
reconstructed singular-value dynamics (3) of :mod:`gendyn.softmax_multitask`; the two-class
case, where (16) is exact, and its finite-size convergence; TA against randomly initialised
students.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from matplotlib.figure import Figure

from gendyn import multitask_train as mt
from gendyn import softmax_multitask as sm
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import fitted_exponent, z_quantile

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "N_FEATURES", "S0", "TARuns", "run_ta", "top_singular_value", "theory_curves",
           "figure_1_ta",
           "print_fixed_points", "check_growth_rate", "figure_binary", "FiniteSize", "finite_size",
           "check_finite_size", "figure_finite_size", "run_random_init", "figure_ta_vs_random", "print_best_losses"]


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

#: Input dimension of the authors' code.
N_FEATURES = 20
#: Composite singular value of a TA student at initialisation.
S0 = 1e-3

_SM = "gendyn.softmax_multitask"


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"growth-rate-K10-sbar{sbar:g}" for sbar in cfg.sbars]
    ids += [f"growth-rate-K2-sbar{sbar:g}" for sbar in cfg.binary_sbars]
    return ids + ["fixed-point-finite-size-K2"]


#: The theory the claims test, and the error each should see at smoke scale: the growth-rate claims resolve
#: 2 f_max s_end / (2 sigma_hat), 3-10 % of the rate. The fixed-point claim is coarse: at smoke scale the
#: relative gaps to s* are 2-15 % with random sign over seeds (mean 2-3 % at the largest P), so it sees an s*
#: wrong by 20 % (the gaps stop shrinking) but not by 5 %.
MUTATIONS = (
    Mutation(f"{_SM}.ta_rate", 0.2, why="eq. (3): its small-s limit is the growth rate, resolved to 3-10 %"),
    Mutation(f"{_SM}.ta_growth_rate", 0.1, why="the growth rate 2 ln(1 + lr sigma_hat)/lr, resolved to 3-10 %"),
    Mutation(f"{_SM}.ta_fixed_point", 0.2,
             why="s* of (3): the mean gap to it falls to 2-3 % at the largest P; a 20 % error floors it and "
                 "flattens the slope (a 5 % error is within the seeds' scatter at smoke scale)"),
)


def _schedule(cfg):
    """Number of gradient-descent steps over the horizon, and the evaluation interval (about 300 records)."""
    steps = int(round(cfg.horizon / cfg.lr))
    return steps, max(1, steps // 300)


def top_singular_value(traj: np.ndarray) -> np.ndarray:
    """Largest singular value of each composite weight of ``traj`` (..., K, N)."""
    return np.linalg.svd(traj, compute_uv=False)[..., 0]


@dataclass(frozen=True)
class TARuns:
    """TA students of rank-one teachers (:func:`run_ta`): one group per seed, one run per sbar.

    ``data``: the tasks (:class:`gendyn.multitask_train.TaskBatch`); ``result``: the training
    (:class:`gendyn.multitask_train.TrainResult`); ``sigma_hat``, ``u_hat``, ``v_hat``: the top
    singular triple of each training set's centred label-feature covariance, ``(S, R, ...)``;
    ``t``: evaluation times in units of tau.
    """

    sbars: np.ndarray
    data: mt.TaskBatch
    result: mt.TrainResult
    sigma_hat: np.ndarray
    u_hat: np.ndarray
    v_hat: np.ndarray
    t: np.ndarray

    @property
    def s(self) -> np.ndarray:
        """Largest singular value of the first seed's students along training, ``(R, E)``."""
        return top_singular_value(self.result.trajectory[0])


def run_ta(cfg: RunConfig, sbars: Sequence[float], seeds: Sequence[int], *, n_classes: int, n_train: int,
           n_val: int | None = None, trajectory: bool = True) -> TARuns:
    """Train TA students of rank-one teachers with ``n_classes`` classes, one per teacher SNR of ``sbars``.

    Parameters
    ----------
    cfg : RunConfig
        The chapter's configuration (``lr``, ``horizon``, ``n_val``, ``device``).
    sbars : sequence of float
        Teacher singular values, one student each.
    seeds : sequence of int
        One group of students per seed.
    n_classes : int
        Number of classes K.
    n_train : int
        Training-set size.
    n_val : int, optional
        Validation-set size (default ``cfg.n_val``).
    trajectory : bool
        Keep the composite weights along training.
    """
    sbars = np.asarray(sbars, dtype=float)
    steps, eval_every = _schedule(cfg)
    data = mt.draw_tasks(seeds, n_train_a=n_train, n_val=cfg.n_val if n_val is None else n_val,
                         n_features=N_FEATURES, rank=1, n_classes=n_classes, dtype=torch.float64, device=cfg.device)
    y = data.labels_a(sbars)
    weights, sigma_hat, u_hat, v_hat = mt.training_aligned_init(data.x_a, y, n_classes, s0=S0)
    res = mt.train_students(data.x_a, y, data.x_val, data.labels_val(), weights, lr=cfg.lr, steps=steps,
                            eval_every=eval_every, keep_trajectory=trajectory)
    return TARuns(sbars, data, res, sigma_hat, u_hat, v_hat, res.eval_steps * cfg.lr)


def theory_curves(runs: TARuns) -> dict[float, dict]:
    """Eq. (3) for each student of the first seed: the trajectory ``s``, its fixed point ``s_star``,
    the off-diagonal ratio ``rho`` of M at the fixed point, and the generalisation ``loss`` along
    the trajectory (exact for a rank-one student), by sbar."""
    u_bar, v_bar = runs.data.o_a[0, :, 0].cpu().numpy(), runs.data.w1[0, 0].cpu().numpy()
    sig, u, v = runs.sigma_hat[0], runs.u_hat[0], runs.v_hat[0]
    theory = {}
    for i, sbar in enumerate(runs.sbars):
        s_th = sm.ta_trajectory(runs.t, S0, sig[i], u[i])
        s_star = sm.ta_fixed_point(sig[i], u[i])
        theory[sbar] = dict(s=s_th, s_star=s_star, rho=float(sm.off_diagonal_ratio(s_star, u[i])),
                            loss=sm.ta_generalization_loss(s_th, u[i], u_bar, v[i] @ v_bar))
    return theory


def figure_1_ta(runs: TARuns, theory: dict[float, dict]) -> Figure:
    """Fig. 1 (as §3 describes it): singular value and generalisation loss of the TA students,
    simulation (points) against (3) (lines), one colour per sbar."""
    t, s_sim = runs.t, runs.s
    fig, axes = plotting.subplots(1, 2, height=3.4)
    for i, sbar in enumerate(runs.sbars):
        c = plotting.COLORS[i]
        axes[0].plot(t, s_sim[i], "o", ms=2, color=c, alpha=0.5)
        axes[0].plot(t, theory[sbar]["s"], color=c,
                     label=f"$\\bar s$ = {sbar:g}: $\\rho(s^*)$ = {theory[sbar]['rho']:.2f}")
        axes[1].plot(t, runs.result.val_loss[0, i], "o", ms=2, color=c, alpha=0.5)
        axes[1].plot(t, theory[sbar]["loss"], color=c)
    axes[0].set(yscale="log", xlabel="$t/\\tau$", ylabel="student singular value $s$",
                title="(3): points simulation, lines theory")
    axes[1].set(xlabel="$t/\\tau$", ylabel="generalisation loss (clean labels)",
                title="TA theory vs validation", ylim=(None, math.log(10) + 0.05))
    axes[0].legend(fontsize=7)
    return fig


def print_fixed_points(runs: TARuns, theory: dict[float, dict]) -> None:
    """Print, per sbar, sigma_hat, the fixed point s*, the simulated final s, the final alignment
    with u_hat and rho(s*)."""
    final_u = np.linalg.svd(runs.result.trajectory[0, :, -1])[0][..., 0]  # (R, K)
    s_sim = runs.s
    for i, sbar in enumerate(runs.sbars):
        print(f"sbar = {sbar:5.2f}: sigma_hat = {runs.sigma_hat[0, i]:.4f}, s* = {theory[sbar]['s_star']:6.3f}, "
              f"simulated s(end) = {s_sim[i, -1]:6.3f}, "
              f"|u(end) . u_hat| = {abs(final_u[i] @ runs.u_hat[0, i]):.4f}, "
              f"rho(s*) = {theory[sbar]['rho']:.3f}")


def check_growth_rate(ledger: Ledger, tag: str, runs: TARuns, *, lr: float) -> None:
    """Claims: the early growth rate of each TA student's singular value (fit of ln s over s <= 0.05)
    equals the small-s limit of (3) with the gradient-descent factor, 2 ln(1 + lr sigma_hat) / lr
    (:func:`gendyn.softmax_multitask.ta_growth_rate`, from :func:`gendyn.softmax_multitask.ta_rate`).

    The tolerance is the slowing by the softmax term inside the window, at most 2 f_max s_end.
    """
    s_traj, sigma_hat, u_hat = runs.s, runs.sigma_hat[0], runs.u_hat[0]
    for i, sbar in enumerate(runs.sbars):
        window = s_traj[i] <= 0.05
        window[0] = False  # the first record is the initial condition itself
        slope = np.polyfit(runs.t[window], np.log(s_traj[i][window]), 1)[0]
        predicted = float(sm.ta_growth_rate(sigma_hat[i], u_hat[i], lr=lr))
        f_max = sm.ta_curvature(np.linspace(0, 0.05, 50), u_hat[i]).max()
        ledger.check(
            f"growth-rate-{tag}-sbar{sbar:g}",
            f"Early growth rate of the TA singular value vs (3), {tag}, sbar = {sbar:g}",
            measured=slope, predicted=predicted, tolerance=2 * f_max * 0.05, kind="absolute",
            reason="small-s limit of (3) with the exact gradient-descent factor; tolerance: the softmax term "
            "2 f(s) s <= 2 f_max s_end inside the fitted window s <= s_end = 0.05.",
            theory=(f"{_SM}.ta_rate", f"{_SM}.ta_growth_rate"),
        )


def figure_binary(runs: TARuns) -> Figure:
    """Two classes: the simulated singular value (points) against (3) (lines), one colour per sbar."""
    fig, ax = plotting.subplots(1, 1, height=3.2)
    s_sim = runs.s
    for i, sbar in enumerate(runs.sbars):
        c = plotting.COLORS[i]
        ax.plot(runs.t, s_sim[i], "o", ms=2, color=c, alpha=0.5)
        ax.plot(runs.t, sm.ta_trajectory(runs.t, S0, runs.sigma_hat[0, i], runs.u_hat[0, i]), color=c,
                label=f"$\\bar s$ = {sbar:g}")
    ax.set(yscale="log", xlabel="$t/\\tau$", ylabel="$s$",
           title="two classes: simulation (points) vs (3)")
    ax.legend()
    return fig


@dataclass(frozen=True)
class FiniteSize:
    """Relative gaps between the simulated final singular value and s* of (3), by training-set size.

    ``per_seed[k]``: one gap per seed at ``sizes[k]``; ``gaps``: their means; ``slope`` and ``slope_se``:
    the exponent of the mean gap against P fitted in log-log, and its bootstrap standard error over the
    seeds (:func:`gendyn.book.stats.fitted_exponent`).
    """

    sbar: float
    sizes: np.ndarray
    per_seed: list
    seeds: int
    slope: float
    slope_se: float

    @property
    def gaps(self) -> np.ndarray:
        return np.array([g.mean() for g in self.per_seed])


def finite_size(cfg: RunConfig, sbar: float) -> FiniteSize:
    """Two-class TA students at ``sbar`` on training sets of ``cfg.finite_size_n`` points,
    ``cfg.finite_size_seeds`` seeds each: the mean relative gap abs(s(end) - s*) / s* per size."""
    gaps = []
    for n in cfg.finite_size_n:
        runs = run_ta(cfg, [sbar], list(range(cfg.seed, cfg.seed + cfg.finite_size_seeds)), n_classes=2, n_train=n,
                      n_val=100, trajectory=True)
        s_end = top_singular_value(runs.result.trajectory[:, 0, -1])
        s_star = np.array([sm.ta_fixed_point(runs.sigma_hat[j, 0], runs.u_hat[j, 0]) for j in range(len(s_end))])
        gaps.append(np.abs(s_end - s_star) / s_star)
    sizes = np.array(cfg.finite_size_n, dtype=float)
    slope, slope_se = fitted_exponent(sizes, gaps, seed=cfg.seed)
    return FiniteSize(sbar, sizes, gaps, cfg.finite_size_seeds, slope, slope_se)


def check_finite_size(ledger: Ledger, fs: FiniteSize) -> None:
    """Claim: for two classes the gap to the fixed point shrinks at least as P^(-1/2) (fitted exponent).

    One-sided, at level 1e-3: the fitted exponent may exceed -1/2 by z standard errors of the fit
    (bootstrap over the seeds), the fit's noise; a fixed point of (3) off by a constant fraction would
    leave a floor, and the exponent near 0.
    """
    z = z_quantile(1, sides=1)
    ledger.check(
        "fixed-point-finite-size-K2",
        f"Two classes, sbar = {fs.sbar:g}: gap between the simulated fixed point and s* of (3) shrinks "
        "at least as P^(-1/2) (fitted exponent)",
        measured=fs.slope, predicted=-0.5, tolerance=z * fs.slope_se, kind="upper",
        reason="(16) is exact for K = 2; what remains are sampling errors O(P^-1/2) and input-space "
        f"overfitting O(N/P), so the exponent is -1/2 or below; z = {z:.2f} (one-sided, level 1e-3) bootstrap "
        f"standard errors of the exponent fitted to {len(fs.sizes)} sizes of {fs.seeds} seeds each "
        f"({fs.slope_se:.2g}).",
        theory=f"{_SM}.ta_fixed_point",
    )


def figure_finite_size(fs: FiniteSize) -> Figure:
    """The mean relative gap to the fixed point against P, with a P^(-1/2) guide."""
    n_fs, gaps = fs.sizes, fs.gaps
    fig, ax = plotting.subplots(1, 1, height=3.2)
    ax.loglog(n_fs, gaps, "o-", label=f"simulation: slope {fs.slope:.2f}")
    ax.loglog(n_fs, gaps[0] * (n_fs / n_fs[0]) ** -0.5, "k:", lw=1, label="$\\propto P^{-1/2}$")
    ax.set(xlabel="training points $P$", ylabel="mean $|s(\\infty) - s^*| / s^*$",
           title=f"$K = 2$, $\\bar s$ = {fs.sbar:g}")
    ax.legend()
    return fig


def run_random_init(cfg: RunConfig, runs: TARuns) -> mt.TrainResult:
    """Students with 64 hidden units from small random weights (scale ``cfg.random_init_scale``),
    trained like the TA students ``runs`` on the same training sets."""
    steps, eval_every = _schedule(cfg)
    w_rand = mt.init_student([cfg.seed], n_features=N_FEATURES, n_classes=10, hidden=64, depth=1,
                             init_scale=cfg.random_init_scale, n_heads=1, dtype=torch.float64,
                             device=cfg.device)
    y10 = runs.data.labels_a(runs.sbars)
    return mt.train_students(runs.data.x_a, y10, runs.data.x_val, runs.data.labels_val(), w_rand, lr=cfg.lr,
                             steps=steps, eval_every=eval_every, keep_trajectory=True)


def figure_ta_vs_random(runs: TARuns, random_init: mt.TrainResult) -> Figure:
    """Largest singular value and validation loss of TA (solid) and randomly initialised (dashed) students."""
    t, s_sim, s_rand = runs.t, runs.s, top_singular_value(random_init.trajectory[0])
    fig, axes = plotting.subplots(1, 2, height=3.4)
    for i, sbar in enumerate(runs.sbars):
        c = plotting.COLORS[i]
        axes[0].plot(t, s_sim[i], color=c, label=f"$\\bar s$ = {sbar:g}")
        axes[0].plot(t, s_rand[i], ls="--", color=c)
        axes[1].plot(t, runs.result.val_loss[0, i], color=c)
        axes[1].plot(t, random_init.val_loss[0, i], ls="--", color=c)
    axes[0].set(yscale="log", xlabel="$t/\\tau$", ylabel="largest singular value",
                title="TA (solid) vs random init (dashed)")
    axes[1].set(xlabel="$t/\\tau$", ylabel="validation loss",
                title="TA (solid) vs random init (dashed)")
    axes[0].legend(fontsize=7)
    return fig


def print_best_losses(runs: TARuns, random_init: mt.TrainResult, *, lr: float) -> float:
    """Print the best validation loss of the TA and the random students and when it occurred;
    return the largest difference of the best losses."""
    res10 = runs.result
    for i, sbar in enumerate(runs.sbars):
        print(f"sbar = {sbar:5.2f}: best validation loss TA {res10.best_val[0, i]:.4f} "
              f"at t = {res10.best_step[0, i] * lr:6.1f}, "
              f"random {random_init.best_val[0, i]:.4f} at t = {random_init.best_step[0, i] * lr:6.1f}")
    return float(np.max(np.abs(np.asarray(res10.best_val[0]) - np.asarray(random_init.best_val[0]))))
