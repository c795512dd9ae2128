"""Figures and claims of the chapter *Generalisation dynamics: theory, aligned and random students*
(``notebooks/lampinen-ganguli/generalisation-dynamics.ipynb``, Lampinen & Ganguli §3.3-3.4, Fig. 3).

It holds the runner that trains TA and random students on the same data sets
(:func:`gendyn.train.ta_and_random`), the read-outs of the exact TA theory, the Fig. 3 figures (error
curves, finite-size gaps, optimal stopping) and the claims. The chapter on deeper networks
(``generalisation-deep``, Fig. 4) is the other half of the same paper section: it repeats the experiment
with three hidden layers and uses the pieces of the pair from here (the runner, the detection window, the
curves and stopping figures, and the claims on the TA students and the optimum); the science they share
(data, exact theory with the gradient-descent delay, :func:`gendyn.deep_linear.delayed_ta_errors`) is the
library's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch
from matplotlib.figure import Figure

from gendyn import deep_linear as dl
from gendyn import rmt, train
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.scales import RunConfig
from gendyn.book.stats import mean_se, t_quantile, z_quantile

__all__ = ["setting_values", "train_ta_and_random", "inside_detection_window", "finite_size_gaps", "figure_curves",
           "figure_finite_size", "figure_stopping", "check_ta_exact", "check_ta_finite_size", "check_finite_size",
           "check_optimum", "check_alignment_lag", "check_stopping"]

#: A teacher condition: (rank, SNR multiplier svm).
Condition = tuple[int, float]

#: Records of the TA and random students: ``sim[init][kind]``, ``init`` in ("TA", "random"), ``kind`` in
#: ("train", "test"), each of shape (networks, records).
Simulations = Mapping[str, Mapping[str, np.ndarray]]

# float32 training: the recorded errors of TA students differ from a float64 run by up to ~1e-5 in
# log10 over 10^4-10^5 steps (measured at N1 = 100); allowed for, since early on, when all errors
# are ~1, the spread between data sets is itself only ~1e-6
FLOAT32_LOG = 3e-5


def setting_values(cfg: RunConfig) -> dict[str, object]:
    """The chapter's setting as glued in its text: sizes, SNRs, runs, Monte Carlo draws, learning rate, epochs.

    Parameters
    ----------
    cfg : RunConfig
        The chapter's configuration (``lg-generalisation``).
    """
    return {"lg-generalisation-n1": cfg.n1, "lg-generalisation-n2": cfg.n2, "lg-generalisation-n3": cfg.n3,
            "lg-generalisation-svms": ", ".join(f"{s:g}" for s in cfg.svms),
            "lg-generalisation-runs": cfg.runs, "lg-generalisation-mc-draws": cfg.mc_draws,
            "lg-generalisation-lr": f"{cfg.lr:g}", "lg-generalisation-epochs": int(round(cfg.horizon / cfg.lr))}


def train_ta_and_random(sweep: train.SnrSweep, *, hidden: int, n_layers: int, lr: float, epochs: int, eps: float,
                        generator: torch.Generator, device: str, desc: str, record_at: np.ndarray | None = None,
                        n_records: int = 100) -> tuple[train.TrainResult, dict[str, dict[str, np.ndarray]]]:
    """Train a TA and a randomly initialised student on every data set of ``sweep``, as one batched program.

    Parameters
    ----------
    sweep : SnrSweep
        The data sets (Figs. 3 and 4): ranks x SNRs x runs.
    hidden, n_layers, lr, epochs, eps, generator, device, desc, record_at, n_records
        As in :func:`gendyn.train.train_students`; the first half of the batch is TA, the second random
        (:func:`gendyn.train.ta_and_random`).

    Returns
    -------
    res : TrainResult
        The whole batch.
    sim : dict
        ``sim[init][kind]``, the records after ``t = 0`` (for log axes) of the TA and the random students.
    """
    n_data = len(sweep.rank)
    data, wbar, init = train.ta_and_random(sweep)
    res = train.train_students(data, hidden=hidden, n_layers=n_layers, lr=lr, epochs=epochs, init=init, eps=eps,
                               teacher=wbar, record_at=record_at, n_records=n_records, generator=generator,
                               device=device, desc=desc)
    sim = {name: {"train": res.train_error[sl, 1:], "test": res.test_error[sl, 1:]}
           for name, sl in (("TA", slice(0, n_data)), ("random", slice(n_data, 2 * n_data)))}
    return res, sim


def inside_detection_window(sweep: train.SnrSweep, conditions: Sequence[Condition], *, n1: int,
                            aspect: float) -> dict[Condition, bool]:
    """Whether a teacher mode of each condition lies in the detection transition, ``|sbar - A^(1/4)| < N1^(-1/3)``.

    Such a mode is not asymptotic yet at this size (eqs. 11-12 do not apply), so its optimum is not claimed.
    """
    window = n1 ** (-1 / 3)  # width of the detection transition at this size
    return {c: bool(np.any(np.abs(sweep.sbar(*c) - rmt.detection_threshold(aspect)) < window)) for c in conditions}


def finite_size_gaps(t: np.ndarray, conditions: Sequence[Condition], *, svms: Sequence[float], ranks: Sequence[int],
                     n1s: Sequence[int], draws: int, aspect: float, eps: float, n_layers: int,
                     generator: torch.Generator) -> dict[str, list[float]]:
    """Mean absolute log10 gap between the exact TA errors averaged over data sets and eqs. (14)-(15), per size ``N1``.

    At each ``N1`` in ``n1s`` (``N2 = N3 = aspect N1``) ``draws`` fresh data sets per condition; the gap is
    averaged over the times ``t`` and then over the conditions. Returns ``{"train": [...], "test": [...]}``.
    """
    fs_gap = {"train": [], "test": []}
    for n1 in n1s:
        n3 = int(round(aspect * n1))
        fs = train.snr_sweep(svms, ranks, draws, n1, n3, generator=generator)
        errs = dl.sampled_ta_errors(t, fs.sigma31, fs.teacher.matrix, eps, n_layers=n_layers)
        for k, kind in enumerate(("train", "test")):
            gaps = [np.abs(np.log10(errs[k][fs.select(*c)].mean(0))
                           - np.log10(dl.theory_errors(t, fs.sbar(*c), n1, n3, n3, eps, n_layers=n_layers)[k])).mean()
                    for c in conditions]
            fs_gap[kind].append(np.mean(gaps))
    return fs_gap


def figure_curves(sweep: train.SnrSweep, sim: Simulations, theory: Mapping[Condition, tuple], t_records: np.ndarray,
                  *, ranks: Sequence[int], svms: Sequence[float], records: slice | np.ndarray = slice(None),
                  marker_step: int = 4, depth: str = "", xlim: tuple[float, float] | None = None) -> Figure:
    """Fig. 3a, b, e, f (Fig. 4 for deeper students): log train and test errors, theory vs students.

    Parameters
    ----------
    sweep, sim
        The data sets and the students' records (:func:`train_ta_and_random`).
    theory : dict
        ``theory[(rank, svm)] = (times, (train, test))``: eqs. (14)-(15) on their own time grid.
    t_records : ndarray
        Times of the records ``records`` of ``sim`` that the markers show.
    ranks, svms
        The conditions: one row per rank, one colour per svm.
    records, marker_step
        Which records are averaged, and a TA marker every ``marker_step`` of them (random ones in between).
    depth, xlim
        Added to each panel's title (e.g. ``", $N_l$ = 5"``), and the time axis' limits if given.
    """
    fig, axes = plotting.subplots(len(ranks), 2, height=2.8 * len(ranks), squeeze=False)
    offset = marker_step // 2
    limits = {} if xlim is None else {"xlim": xlim}
    for row, rank in enumerate(ranks):
        for col, kind in enumerate(("train", "test")):
            ax = axes[row, col]
            for k, svm in enumerate(svms):
                mask, color = sweep.select(rank, svm), plotting.COLORS[k]
                t_theory, errors = theory[(rank, svm)]
                ax.plot(t_theory, errors[col], color=color, label=f"svm = {svm:g}")
                ta_mean = sim["TA"][kind][mask][:, records].mean(0)
                random_mean = sim["random"][kind][mask][:, records].mean(0)
                ax.plot(t_records[::marker_step], ta_mean[::marker_step], "o", ms=3, color=color, alpha=0.8)
                ax.plot(t_records[offset::marker_step], random_mean[offset::marker_step], "x", ms=3, color=color,
                        alpha=0.8)
            ax.set(xscale="log", yscale="log", xlabel="$t/\\tau$", ylabel=f"$\\varepsilon_{{\\rm {kind}}}$",
                   title=f"rank-{rank} teacher{depth}: {kind} error", **limits)
    axes[0, 0].legend(title="lines: theory; o TA; x random")
    return fig


def figure_finite_size(n1s: np.ndarray, fs_gap: Mapping[str, Sequence[float]], fs_slope: Mapping[str, float], *,
                       aspect: float) -> Figure:
    """The mean absolute log10 gap to eqs. (14)-(15) against ``N1`` (:func:`finite_size_gaps`), beside ``N1^(-1/3)``."""
    fig, ax = plotting.subplots(1, 1, height=3.3, width=4.8)
    for kind in ("train", "test"):
        ax.loglog(n1s, fs_gap[kind], "o-", label=f"{kind}: slope {fs_slope[kind]:.2f}")
    reference = fs_gap["test"][0] * (n1s / n1s[0]) ** (-1 / 3)
    ax.loglog(n1s, reference, "k:", lw=1, label="$\\propto N_1^{-1/3}$")
    ax.set(xlabel="$\\bar N_1$", ylabel="mean |log10 gap| to (14)-(15)",
           title=f"finite size, $\\mathcal{{A}}$ = {aspect:g}")
    ax.legend(fontsize=7)
    return fig


def figure_stopping(sweep: train.SnrSweep, stop: Mapping[str, tuple[np.ndarray, np.ndarray]],
                    optimum: Mapping[Condition, tuple[float, float]], *, ranks: Sequence[int],
                    svms: Sequence[float]) -> Figure:
    """Fig. 3c, d, g, h (and Fig. 4's): minimum test error and optimal stopping time, random vs TA students.

    Parameters
    ----------
    sweep : SnrSweep
        The data sets.
    stop : dict
        ``stop[init] = (t_opt, e_min)`` per network (:func:`gendyn.train.empirical_optimal_stopping`).
    optimum : dict
        ``optimum[(rank, svm)] = (t_opt, e_opt)`` of eq. (15), drawn as stars.
    ranks, svms
        The conditions: one row per rank, one colour per svm.
    """
    fig, axes = plotting.subplots(len(ranks), 2, height=3.2 * len(ranks), squeeze=False)
    for row, rank in enumerate(ranks):
        for k, svm in enumerate(svms):
            mask, color = sweep.select(rank, svm), plotting.COLORS[k]
            for col, q in enumerate((1, 0)):  # (c) minimum error, (d) stopping time
                axes[row, col].plot(stop["TA"][q][mask], stop["random"][q][mask], "o", ms=4,
                                    color=color, alpha=0.7, label=f"svm = {svm:g}")
                th = optimum[(rank, svm)][q]
                if th > 0:
                    axes[row, col].plot(th, th, "*", ms=12, color=color, mec="k", mew=0.5)
        for col, name in enumerate(("minimum test error", "optimal stopping time $t/\\tau$")):
            ax = axes[row, col]
            ax.set(xscale="log", yscale="log", xlabel=f"TA: {name}", ylabel=f"random: {name}",
                   title=f"rank-{rank} teacher")
            lo, hi = min(ax.get_xlim()[0], ax.get_ylim()[0]), max(ax.get_xlim()[1], ax.get_ylim()[1])
            ax.plot([lo, hi], [lo, hi], "k:", lw=1)
            for axis in (ax.xaxis, ax.yaxis):  # plain labels at 1, 2, 5 x 10^k
                plotting.plain_log_ticks(axis, (1, 2, 5))
    axes[0, 0].legend()
    return fig


def check_ta_exact(ledger: Ledger, ta: Mapping[str, np.ndarray], sweep: train.SnrSweep, t: np.ndarray,
                   lag: np.ndarray, *, eps: float, n2: int, n_layers: int, lr: float, mode_dynamics: str,
                   slack: float, slack_reason: str, records: slice | np.ndarray = slice(None)) -> None:
    """Claims ``ta-exact-*``: each TA student follows the exact theory on its own data (eqs. 6-7) up to the delay.

    Parameters
    ----------
    ledger : Ledger
        The chapter's ledger.
    ta, sweep, t, records
        The TA students' records ``ta[kind][:, records]`` at times ``t``, and their data sets.
    lag : ndarray
        Each data mode's gradient-descent delay (:func:`gendyn.deep_linear.gd_lag`): the tolerance is the
        largest change of log10 error that delaying every mode by it causes.
    eps, n2, n_layers, lr
        The students' initial scale, width, depth and learning rate.
    mode_dynamics, slack, slack_reason
        The statement's name of the mode dynamics ("eq. (9)", "App. A"); the float32 allowance added to
        the tolerance and its reason (e.g. "1e-4 for float32 training").
    """
    exact = dl.sampled_ta_errors(t, sweep.sigma31, sweep.teacher.matrix, eps, n2=n2, n_layers=n_layers)
    delayed = dl.sampled_ta_errors(t, sweep.sigma31, sweep.teacher.matrix, eps, n2=n2, n_layers=n_layers, delay=lag)
    for k, kind in enumerate(("train", "test")):
        dev = np.abs(np.log10(ta[kind][:, records]) - np.log10(exact[k]))
        bound = np.abs(np.log10(delayed[k]) - np.log10(exact[k]))
        ledger.check(
            f"ta-exact-{kind}",
            f"TA students vs eqs. (6)-(7) with {mode_dynamics} on their own data: max |log10 {kind} error gap|",
            measured=dev.max(), predicted=0.0, tolerance=bound.max() + slack, kind="absolute",
            reason=f"first-order gradient-descent delay (gd_lag, up to {lag.max():.2g} tau at lr = {lr:g}) applied "
            f"to every mode; + {slack_reason}.")


def check_ta_finite_size(ledger: Ledger, ta: Mapping[str, np.ndarray], sweep: train.SnrSweep,
                         mc: tuple[np.ndarray, np.ndarray], mc_delayed: tuple[np.ndarray, np.ndarray],
                         mc_sweep: train.SnrSweep, *, conditions: Sequence[Condition], runs: int,
                         mc_draws: int) -> None:
    """Claims ``ta-finite-size-*``: the mean log10 TA curve over runs equals its expectation at this size.

    The expectation is the exact TA theory averaged over ``mc_draws`` fresh data sets per condition
    (``mc``, and ``mc_delayed`` with the gradient-descent delay, from ``mc_sweep``); its spread gives the
    standard error of a mean over the ``runs`` data sets of ``sweep``. Bonferroni z over all times and
    conditions at level 1e-3, after allowing for the delay of the mean curve and float32 rounding.
    """
    times = ta["train"].shape[-1]
    z_mc = z_quantile(times * len(conditions))
    for k, kind in enumerate(("train", "test")):
        worst = 0.0
        for c in conditions:
            runs_c = np.log10(ta[kind][sweep.select(*c)])
            draws_c = np.log10(mc[k][mc_sweep.select(*c)])
            # standard error of a mean over the runs, from the spread between the Monte Carlo data sets
            se = draws_c.std(0, ddof=1) * np.sqrt(1 / runs_c.shape[0] + 1 / draws_c.shape[0])
            allowance = np.abs(np.log10(mc_delayed[k][mc_sweep.select(*c)]).mean(0) - draws_c.mean(0)) + FLOAT32_LOG
            score = (np.abs(runs_c.mean(0) - draws_c.mean(0)) - allowance) / np.maximum(se, 1e-300)
            worst = max(worst, score.max())
        ledger.check(
            f"ta-finite-size-{kind}",
            f"Mean log10 TA {kind} error over runs vs its expectation under the exact theory at this size: largest "
            "deviation in combined standard errors (all times and conditions)",
            measured=worst, predicted=0.0, tolerance=z_mc, kind="upper",
            reason=f"Bonferroni z over {times} times x {len(conditions)} conditions at level 1e-3; standard error "
            f"of a mean over {runs} runs (and of the {mc_draws}-draw estimate) from the spread between data "
            "sets; the GD delay of the mean curve and 3e-5 (float32 rounding, in log10) are allowed first.")


def check_finite_size(ledger: Ledger, fs_slope: Mapping[str, float], points: int) -> None:
    """Claims ``finite-size-*``: the gap to eqs. (14)-(15) shrinks at least as ``N1^(-1/3)`` (fitted exponents)."""
    for kind in ("train", "test"):
        ledger.check(
            f"finite-size-{kind}",
            f"Mean |log10 gap| between the exact TA {kind} error (averaged over data sets) and eq. "
            f"({14 if kind == 'train' else 15}) shrinks with N1 at least as N1^(-1/3) "
            "(fitted exponent)",
            measured=fs_slope[kind], predicted=-1 / 3, tolerance=0.1, kind="upper",
            reason="Slowest finite-size effect: the O(N1^(-1/3)) detection window; edges O(N1^(-2/3)), "
            f"outliers O(N1^(-1/2)); 0.1 for the fit error of {points} points.")


def check_optimum(ledger: Ledger, stop_ta: tuple[np.ndarray, np.ndarray],
                  mc_stop: Mapping[Condition, tuple[np.ndarray, np.ndarray]],
                  optimum: Mapping[Condition, tuple[float, float]], sweep: train.SnrSweep,
                  near_threshold: Mapping[Condition, bool], *, rank: int, n_ranks: int, svms: Sequence[float],
                  runs: int, mc_draws: int) -> None:
    """Claims ``optimum-{error,time}-rank*``: the TA students' optimum vs eq. (15), beyond the finite-size bias.

    Parameters
    ----------
    ledger : Ledger
        The chapter's ledger.
    stop_ta : tuple of ndarray
        ``(t_opt, e_min)`` of every TA student, read off its records.
    mc_stop : dict
        The same read-out of the exact TA theory on ``mc_draws`` fresh data sets per condition: its bias
        from eq. (15) is the finite-size bias, allowed first.
    optimum, sweep, near_threshold
        Eq. (15)'s optimum per condition, the data sets, and the conditions left out (detection window).
    rank, n_ranks, svms, runs
        The teacher rank claimed, the number of ranks (Bonferroni), the SNRs and the runs per condition.
    """
    asym = [s for s in svms if not near_threshold[(rank, s)]]
    listed = ", ".join(f"{s:g}" for s in asym)
    z = t_quantile(max(1, len(asym)) * n_ranks, runs - 1, level=1e-2)
    for q, name in ((1, "error"), (0, "time")):
        scores = []
        for svm in asym:
            mean, se = mean_se(stop_ta[q][sweep.select(rank, svm)])
            bias = abs(mc_stop[(rank, svm)][q].mean() - optimum[(rank, svm)][q])
            scores.append((abs(mean - optimum[(rank, svm)][q]) - bias) / se)
        ledger.check(
            f"optimum-{name}-rank{rank}",
            f"Rank-{rank} teacher: TA {'minimum test error' if q else 'optimal stopping time'} vs eq. (15), "
            f"largest deviation beyond the finite-size bias, in standard errors (svm = {listed})",
            measured=max(scores), predicted=0.0, tolerance=z, kind="upper",
            reason=f"Student-t quantile ({runs - 1} dof), Bonferroni over {len(asym)} x {n_ranks} conditions "
            f"at level 1e-2; standard error of the mean over {runs} data sets; the finite-size bias (and that of "
            f"reading the optimum off the records) is that of the exact TA theory over {mc_draws} fresh data sets.")


def check_alignment_lag(ledger: Ledger, stop: Mapping[str, tuple[np.ndarray, np.ndarray]], sweep: train.SnrSweep, *,
                        rank: int, svms: Sequence[float], reason_end: str = "") -> None:
    """Claim ``alignment-lag-rank*``: the random students stop later than the TA students on the same data (App. B).

    ``stop[init] = (t_opt, e_min)`` per network; the claim is the smallest mean paired lag over ``svms``.
    ``reason_end`` closes the reason's sentence (e.g. why the lag is not a discretisation effect).
    """
    lags = [(stop["random"][0][mask] - stop["TA"][0][mask]).mean() for mask in (sweep.select(rank, s) for s in svms)]
    ledger.check(
        f"alignment-lag-rank{rank}",
        f"Rank-{rank} teacher: mean lag of the random students' optimal stopping time behind the TA's "
        "(smallest over svm, in tau)",
        measured=min(lags), predicted=0.0, tolerance=0.0, kind="lower",
        reason="The random student must first align its singular vectors with the data's (App. B); both "
        f"students share the data set and the learning rate{reason_end}.")


def check_stopping(ledger: Ledger, stop: Mapping[str, tuple[np.ndarray, np.ndarray]],
                   mc_stop: Mapping[Condition, tuple[np.ndarray, np.ndarray]],
                   optimum: Mapping[Condition, tuple[float, float]], sweep: train.SnrSweep,
                   near_threshold: Mapping[Condition, bool], *, ranks: Sequence[int], svms: Sequence[float],
                   runs: int, mc_draws: int) -> None:
    """The claims on optimal early stopping of Fig. 3c, d, g, h, for each rank.

    :func:`check_optimum`; ``random-minimum-rank*``: the random students' minimum test error matches the
    TA's (mean paired difference within one standard error of the TA mean, largest over svm);
    :func:`check_alignment_lag`. ``stop[init] = (t_opt, e_min)`` per network, the rest as in
    :func:`check_optimum`.
    """
    for rank in ranks:
        check_optimum(ledger, stop["TA"], mc_stop, optimum, sweep, near_threshold, rank=rank, n_ranks=len(ranks),
                      svms=svms, runs=runs, mc_draws=mc_draws)
        diffs = []
        for svm in svms:
            mask = sweep.select(rank, svm)
            diffs.append(abs((stop["random"][1][mask] - stop["TA"][1][mask]).mean()) / mean_se(stop["TA"][1][mask])[1])
        ledger.check(
            f"random-minimum-rank{rank}",
            f"Rank-{rank} teacher: |mean paired difference of minimum test error, random - TA| in standard errors "
            "of the TA mean (largest over svm)",
            measured=max(diffs), predicted=0.0, tolerance=1.0, kind="upper",
            reason="'Almost perfect match' made quantitative: the initialisation changes the minimum by less than "
            f"the sampling error of its mean over {runs} data sets.")
        check_alignment_lag(ledger, stop, sweep, rank=rank, svms=svms,
                            reason_end=", so the lag is not a discretisation effect")
