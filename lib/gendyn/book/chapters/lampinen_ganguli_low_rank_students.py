"""Sizes, figure and claims of the chapter *Students of lower rank* (Lampinen & Ganguli 2019, App. H, Fig. 14).

Serves ``notebooks/lampinen-ganguli/low-rank-students.md``: TA and random students whose hidden layer is
narrower than their output layer learn rank-1 teachers; the chapter compares their optimal early stopping
with eq. (15) for any student rank, measures the alignment lag of the random students, and shows that the
paper's literal definition of ``R_in`` predicts the wrong training error. The notebook draws the data sets,
trains the students (:func:`gendyn.train.train_paired_curves`, one :class:`~gendyn.train.PairedCurves` per
student rank) and evaluates the theory (:mod:`gendyn.deep_linear`); this module holds its sizes, the drawing
of Fig. 14 and one ``check_*`` function per group of claims.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from matplotlib.figure import Figure

from gendyn import train
from gendyn.book import checks, plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import mean_se, t_quantile
from gendyn.train import PairedCurves, SnrSweep

__all__ = ["Sizes", "SIZES", "MC_DRAWS", "claim_ids", "MUTATIONS", "check_ta_exact", "figure_14",
           "check_optimum", "check_rank_effect", "check_lag", "Miss", "final_training_misses",
           "check_literal_r_in", "shown_misses"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) App. H, Fig. 14: students of lower rank, N1 = N3 = 100.
    """

    n1: int  #: inputs N1
    n3: int  #: outputs N3
    student_ranks: tuple[int, ...]  #: hidden units N2 (the rank) of the students
    svms: tuple[float, ...]  #: singular values (SNRs) of the rank-1 teachers
    runs: int  #: data sets per SNR
    lr: float  #: learning rate
    horizon: float  #: training time t / tau (epochs = horizon / lr)
    n_records: int  #: recorded epochs


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, n3=100, student_ranks=(100, 50, 20, 10, 5), svms=(1.5, 2.0, 3.0, 4.0, 6.0, 8.0),
        runs=10, lr=1e-2, horizon=10.0, n_records=150,
    ),
    "smoke": Sizes(
        n1=30, n3=30, student_ranks=(30, 10, 5), svms=(2.0, 6.0),
        runs=16,  # the optimum claims must resolve a 30 % error of eq. (15) (4 runs: 88 %)
        lr=1e-2, horizon=10.0, n_records=100,
    ),
}

#: Fresh data sets per SNR for the finite-size expectation of the exact TA theory.
MC_DRAWS = 100

#: Per student rank, :meth:`gendyn.train.PairedCurves.optimal_stopping`: ``{"TA": (t_opt, e_min), "random": ...}``.
Optimum = Mapping[int, dict[str, tuple[np.ndarray, np.ndarray]]]


def _finite_size(n3: int) -> float:
    """Relative finite-size allowance of eq. (15)'s optimum for the rank-1 teachers of Fig. 14: (Nbar2 + 1)/N3."""
    return 2 / n3


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["ta-exact-train", "ta-exact-test", "optimum-error", "optimum-time", "rank-effect-on-optimum-TA",
            "rank-effect-on-optimum-random", "alignment-lag", "lag-grows-as-rank-falls", "literal-r-in-rejected"]


#: The theory the claims test, and the error each should see at smoke scale: the optimum claims resolve
#: about 10-20 % (4 runs, N3 = 30), the exact TA curves a few per cent in log10.
MUTATIONS = (
    Mutation("gendyn.deep_linear.optimal_early_stopping", 0.3, why="eq. (15): 30 % of the optimum"),
    Mutation("gendyn.deep_linear.sampled_ta_errors", 0.2, why="eqs. (6)-(7) on the data: 20 % of the errors"),
    Mutation("gendyn.deep_linear.sampled_ta_errors", 1.0,
             why="the test-error claim allows the GD delay's effect, up to 0.2 in log10 at smoke: twice the error"),
)


def check_ta_exact(ledger: Ledger, t: np.ndarray, students: Mapping[int, PairedCurves], sweep: SnrSweep, *,
                   exact: Mapping[int, tuple[np.ndarray, np.ndarray]],
                   delayed: Mapping[int, tuple[np.ndarray, np.ndarray]], lag: np.ndarray, rho: float, lr: float,
                   eps: float) -> None:
    """Claims ``ta-exact-train`` and ``ta-exact-test``: TA students of every rank follow eqs. (6)-(7) with eq. (9).

    The ``|log10|`` gap between each TA student's error (``students``, per rank, at the times ``t`` after 0) and
    the exact TA theory on its own data (``exact``: per rank, ``(train, test)`` of
    :func:`gendyn.deep_linear.sampled_ta_errors`), pointwise within the band of
    :func:`gendyn.book.checks.ta_band_gaps`: the change under each mode's gradient-descent delay ``lag``
    (``delayed``; :func:`gendyn.book.checks.ta_mode_spread`, the modes' moves summed), times ``1 + rho``
    (``lr max|f'|``), and 1e-4 for float32.
    """
    spread = {n2: checks.ta_mode_spread(t, sweep.sigma31, sweep.teacher.matrix, lag, eps=eps, n2=n2)
              for n2 in students}
    for k, kind in enumerate(("train", "test")):
        gaps = [checks.ta_band_gaps(students[n2].ta_errors(kind), exact[n2][k], delayed[n2][k], rho=rho,
                                    slack=1e-4, spread=spread[n2][k]) for n2 in students]
        checks.check_ta_band(ledger, f"ta-exact-{kind}",
                             f"TA students of ranks {', '.join(map(str, students))} vs eqs. (6)-(7) with eq. (9) "
                             f"on their own data ({kind} error)", gaps,
                             t=t, rho=rho, lag=float(lag.max()), lr=lr, slack_reason="1e-4 for float32 training")


def figure_14(stop: Optimum, sweep: SnrSweep, *, svms: Sequence[float], svm_fine: np.ndarray,
              eq15_fine: Mapping[int, np.ndarray]) -> Figure:
    """Fig. 14: optimal early stopping against SNR and student rank, TA and random students with eq. (15).

    (a) minimum test error and (b) optimal stopping time against the SNR (lines: eq. 15; circles: TA
    students' means over runs; crosses: random students'); (c, d) minimum test error against optimal
    stopping time of the random and the TA students. The theory lines of all ranks nearly coincide
    (App. H): each rank has its own line style.

    ``stop``: per student rank, :meth:`gendyn.train.PairedCurves.optimal_stopping` of the students on the data
    sets ``sweep`` (SNRs ``svms``); ``eq15_fine``: per student rank, ``(time, error)`` of eq. (15) at each SNR
    of the fine grid ``svm_fine``, shape ``(len(svm_fine), 2)``.
    """
    styles = ["-", "--", "-.", ":", (0, (6, 2))]  # the theory lines of all ranks coincide (App. H)
    fig, axes = plotting.subplots(2, 2, height=5.6)
    for k, n2 in enumerate(eq15_fine):
        color, th = plotting.COLORS[k], eq15_fine[n2]
        means = {name: np.array([[stop[n2][name][q][sweep.select(1, s)].mean() for s in svms] for q in (0, 1)])
                 for name in ("TA", "random")}
        for col, q in enumerate((1, 0)):
            ax = axes[0, col]
            ax.plot(svm_fine, th[:, q], color=color, lw=1, ls=styles[k % len(styles)], label=f"$N_2$ = {n2} (theory)")
            ax.plot(svms, means["TA"][q], "o", color=color, ms=4)
            ax.plot(svms, means["random"][q], "x", color=color, ms=5)
        axes[1, 0].plot(means["random"][0], means["random"][1], "x-", color=color, label=f"$N_2$ = {n2}")
        axes[1, 1].plot(means["TA"][0], means["TA"][1], "o", color=color, label=f"$N_2$ = {n2}")
        axes[1, 1].plot(th[:, 0], th[:, 1], color=color, lw=1, ls=styles[k % len(styles)])
    axes[0, 0].set(xlabel="teacher SNR $\\bar s$", ylabel="minimum test error", yscale="log",
                   title="(a) best generalisation error")
    axes[0, 1].set(xlabel="teacher SNR $\\bar s$", ylabel="optimal stopping time $t/\\tau$",
                   title="(b) optimal stopping time")
    axes[1, 0].set(xlabel="optimal stopping time $t/\\tau$", ylabel="minimum test error", yscale="log",
                   title="(c) random students")
    axes[1, 1].set(xlabel="optimal stopping time $t/\\tau$", ylabel="minimum test error", yscale="log",
                   title="(d) TA students")
    axes[0, 0].legend(fontsize=7)
    return fig


def check_optimum(ledger: Ledger, stop: Optimum, sweep: SnrSweep, reference: Optimum, mc: SnrSweep, *,
                  eq15: Mapping[int, np.ndarray], cfg: RunConfig) -> None:
    """Claims ``optimum-error`` and ``optimum-time``: the TA students' optimum against eq. (15), every rank and SNR.

    The largest deviation of the mean over runs from eq. (15), in units of a Student-t quantile (level 1e-2,
    Bonferroni over ranks and SNRs) times its standard error plus the finite-size allowance (Nbar2 + 1)/N3 of
    the exact TA theory's optimum on fresh data sets (``reference``; no term holds eq. 15).

    ``stop``: per student rank, the students' :meth:`~gendyn.train.PairedCurves.optimal_stopping` (data sets
    ``sweep``); ``reference``: per student rank, ``(t_opt, e_min)`` of the exact TA theory on each of the
    :data:`MC_DRAWS` fresh data sets per SNR ``mc``; ``eq15``: per student rank, ``(time, error)`` of
    eq. (15) at each of ``cfg.svms``, shape ``(len(svms), 2)``.
    """
    z = t_quantile(len(cfg.svms) * len(cfg.student_ranks), cfg.runs - 1, level=1e-2)
    for q, name in ((1, "error"), (0, "time")):
        scores, finest = [], np.inf
        for n2 in cfg.student_ranks:
            for i, s in enumerate(cfg.svms):
                theory = eq15[n2][i, q]
                vals, ref = stop[n2]["TA"][q][sweep.select(1, s)], reference[n2][q][mc.select(1, s)]
                mean, se = mean_se(vals)
                allowance = z * se + _finite_size(cfg.n3) * abs(ref.mean())
                scores.append(abs(mean - theory) / allowance)
                finest = min(finest, allowance / abs(theory))
        ledger.check(
            f"optimum-{name}",
            f"TA {'minimum test error' if q else 'optimal stopping time'} vs eq. (15) for every "
            "student rank and SNR: largest gap in units of its allowance",
            measured=max(scores), predicted=0.0, tolerance=1.0, kind="upper",
            theory="gendyn.deep_linear.optimal_early_stopping", reference=1 / finest,
            reason=f"per point: Student-t quantile ({cfg.runs - 1} dof, Bonferroni over {len(cfg.svms)} SNRs x "
            f"{len(cfg.student_ranks)} ranks at level 1e-2) x its standard error + (Nbar2 + 1)/N3 = "
            f"{_finite_size(cfg.n3):.3g} of the exact TA theory's optimum over {MC_DRAWS} fresh data sets per SNR "
            "(eq. (15) neglects O(Nbar2/N3) relative corrections); no term holds eq. (15).")


def check_rank_effect(ledger: Ledger, stop: Optimum, sweep: SnrSweep, reference: Optimum, mc: SnrSweep, *,
                      difference: np.ndarray, relative: np.ndarray, cfg: RunConfig) -> None:
    """Claims ``rank-effect-on-optimum-TA`` and ``-random``: the rank changes the minimum error as eq. (15) says.

    For TA and for random students, the paired difference (same data set) of the minimum test error between
    the lowest and the full rank must match eq. (15)'s ``difference`` within a Student-t quantile (level 1e-2,
    Bonferroni over SNRs and initialisations) of its standard error, beyond the finite-size bias of the
    exact TA theory (``reference`` on the data sets ``mc``, as in :func:`check_optimum`).

    ``difference``: eq. (15)'s minimum error of the lowest rank minus the full rank's at each SNR; ``relative``:
    ``|difference|`` over the latter.
    """
    low, full = min(cfg.student_ranks), max(cfg.student_ranks)
    z2 = t_quantile(len(cfg.svms) * 2, cfg.runs - 1, level=1e-2)
    for name in ("TA", "random"):
        scores = []
        for s, th in zip(cfg.svms, difference):
            mask, mc_mask = sweep.select(1, s), mc.select(1, s)
            diff = stop[low][name][1][mask] - stop[full][name][1][mask]
            bias = abs((reference[low][1][mc_mask] - reference[full][1][mc_mask]).mean() - th)
            mean, se = mean_se(diff)
            scores.append((abs(mean - th) - bias) / max(se, 1e-300))
        ledger.check(
            f"rank-effect-on-optimum-{name}",
            f"{name} students: minimum test error, rank {low} minus rank {full} (paired), vs "
            f"eq. (15)'s difference (at most {100 * np.max(relative):.2g}% of the error): largest deviation "
            "beyond the finite-size bias over SNRs, in standard errors",
            measured=max(scores), predicted=0.0, tolerance=z2, kind="upper", category="finding",
            reason="A finding, not an agreement with eq. (15): the allowance is the measured finite-size bias "
            "of the exact theory, |MC mean - eq. (15)|, so an error of eq. (15) cancels (the difference is a "
            "few per cent of the error, below a finite-size allowance of its own). "
            f"Student-t quantile ({cfg.runs - 1} dof), Bonferroni over {len(cfg.svms)} SNRs x 2 "
            "initialisations at level 1e-2; finite-size bias of the difference from the exact TA "
            f"theory over {MC_DRAWS} fresh data sets (for random students, the TA theory's "
            "difference is the reference).")


def check_lag(ledger: Ledger, stop: Optimum, sweep: SnrSweep, *, svms: Sequence[float]) -> None:
    """Claims ``alignment-lag`` and ``lag-grows-as-rank-falls`` (Fig. 14b, App. H).

    The random students' mean lag behind the TA students' optimal stopping time (paired) is positive for
    every rank and SNR, and their relative lag, averaged over SNRs, is larger for the lowest rank than for
    the full rank.

    ``stop``: per student rank, the students' :meth:`~gendyn.train.PairedCurves.optimal_stopping` on the data
    sets ``sweep`` of SNRs ``svms``.
    """
    lags = {n2: np.array([(found["random"][0][sweep.select(1, s)] - found["TA"][0][sweep.select(1, s)]).mean()
                          for s in svms])
            for n2, found in stop.items()}
    rel = {n2: np.mean([train.relative_lag(found, sweep.select(1, s)) for s in svms]) for n2, found in stop.items()}
    low, full = min(stop), max(stop)
    ledger.check(
        "alignment-lag",
        "Mean lag of the random students' optimal stopping time behind the TA's, smallest over ranks "
        "and SNRs (tau)",
        measured=min(lag.min() for lag in lags.values()), predicted=0.0, tolerance=0.0, kind="lower",
        category="finding",
        reason="Random students must align their modes first (App. B); same data and learning rate as "
        "the TA. A sign of means, without a margin: a weak finding.")
    ledger.check(
        "lag-grows-as-rank-falls",
        f"Mean relative lag of the random students, rank {low} minus rank {full} "
        f"({', '.join(f'N2={n2}: {rel[n2]:.3g}' for n2 in stop)})",
        measured=rel[low] - rel[full], predicted=0.0, tolerance=0.0, kind="lower", category="finding",
        reason="App. H (a sign of means, without a margin): a low-rank random student has less initial projection onto the data's modes, "
        "so more alignment to do.")


class Miss(NamedTuple):
    """How far eq. (14) misses the TA students' final training error in one setting (ordered by the miss)."""

    log_miss: float  # |log10(measured / predicted)|
    rank: int
    snr: float
    measured: float
    predicted: float


def final_training_misses(students: Mapping[int, PairedCurves], sweep: SnrSweep,
                          eq14_end: Mapping[str, Mapping[int, np.ndarray]], *, svms: Sequence[float]
                          ) -> dict[str, list[Miss]]:
    """How far eq. (14) at the end of training, with each reading of ``R_in``, misses the TA students' training error.

    ``eq14_end``: per reading of ``R_in`` (``"corrected"``, ``"literal"``) and student rank, the training error
    of eq. (14) at the end of training at each SNR of ``svms``. Returns, per reading, one :class:`Miss` per
    rank of ``eq14_end`` and SNR (against the mean over runs of ``students`` on the data sets ``sweep``).
    """
    miss = {reading: [] for reading in eq14_end}
    for n2 in eq14_end["corrected"]:
        for i, s in enumerate(svms):
            measured_end = students[n2].ta_errors("train")[sweep.select(1, s), -1].mean()
            for reading in miss:
                predicted_end = eq14_end[reading][n2][i]
                miss[reading].append(Miss(abs(np.log10(measured_end / predicted_end)), n2, s, measured_end,
                                          predicted_end))
    return miss


def check_literal_r_in(ledger: Ledger, misses: dict[str, list[Miss]], *, ranks: Sequence[int], t_end: float
                       ) -> None:
    """Claim ``literal-r-in-rejected``: the literal ``R_in`` misses every setting by more than the corrected any.

    ``misses``: :func:`final_training_misses` of the student ``ranks`` at the end of training ``t_end``.
    """
    best_literal = min(misses["literal"])
    worst_corrected = max(misses["corrected"])
    ledger.check(
        "literal-r-in-rejected",
        f"Final TA training error (t/tau = {t_end:g}) of ranks {', '.join(map(str, ranks))}: smallest "
        "|log10 miss| of eq. (14) with the paper's literal R_in vs the largest with the corrected R_in",
        measured=best_literal.log_miss, predicted=worst_corrected.log_miss, tolerance=0.0, kind="lower",
        category="finding",
        reason="A disagreement with the paper's literal R_in. The literal reading must miss every setting by more than the corrected reading misses "
        "any; both are compared with the same trained students, so finite-size and gradient-descent "
        "effects enter both.")


def shown_misses(misses: dict[str, list[Miss]]) -> tuple[Miss, Miss]:
    """The setting the text quotes, the lowest rank at the lowest SNR: its literal and its corrected :class:`Miss`."""
    rank = min(m.rank for m in misses["literal"])
    snr = min(m.snr for m in misses["literal"])
    literal = next(m for m in misses["literal"] if m.rank == rank and m.snr == snr)
    corrected = next(m for m in misses["corrected"] if (m.rank, m.snr) == (rank, snr))
    return literal, corrected
