"""Sizes, figures and claims of the chapter *Nonlinear students*
(``notebooks/lampinen-ganguli/nonlinear-students.md``, Lampinen & Ganguli §3.5, Fig. 5).

The notebook shows its protocol itself: the teachers and sizes of each depth, the training of leaky-ReLU
and linear students on the same data (:func:`gendyn.train.train_leaky_and_linear`), in our setting and in
the authors', and the readings of their curves (:func:`gendyn.train.count_drops`,
:func:`gendyn.train.plateau_span`, :func:`gendyn.train.minimum_time_ratios`,
:func:`gendyn.train.onset_comparison`). This module holds the chapter's sizes, the Fig. 5 figures and the
claims: stage-like drops, a plateau, overfitting, the time of the minimum, and earlier onset of overfitting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from gendyn import deep_linear, train
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import difference_and_margin, mean_and_margin, mean_se, z_quantile
from gendyn.teachers import PROFILES
from gendyn.train import LeakyAndLinear, MinimumTimeRatio, OnsetComparison

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "figure_5", "figure_5_authors", "check_stage_like_drops",
           "check_plateau", "check_overfitting", "check_minimum_time", "print_onsets", "check_onset_ours",
           "check_authors_onset", "onset_values"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) §3.5, Fig. 5: leaky-ReLU students of linear teachers.
    """

    n1: int  #: inputs N1
    n2: int  #: hidden units N2
    n3: int  #: outputs N3
    svms: tuple[float, ...]  #: teacher singular values (SNRs) of the one-hidden-layer students
    runs: int  #: data sets per teacher of the one-hidden-layer students
    eps: float  #: initial weight scale
    lr: float  #: learning rate of the one-hidden-layer students
    horizon: float  #: training time t / tau of the one-hidden-layer students
    n_records: int  #: recorded epochs
    deep_svms: tuple[float, ...]  #: teacher singular values of the three-hidden-layer students
    deep_runs: int  #: data sets per teacher of the three-hidden-layer students
    deep_lr: float  #: learning rate of the three-hidden-layer students
    deep_horizon: float  #: training time t / tau of the three-hidden-layer students
    authors_svms: tuple[float, ...]  #: teacher singular values of the authors' setting (one hidden layer)
    authors_runs: int  #: data sets per teacher of the authors' setting
    authors_slope: float  #: leak of the authors' leaky ReLU
    authors_eps: float  #: initial weight scale of the authors' setting
    authors_noise_var: float  #: noise variance per entry of the authors' setting
    authors_lr: float  #: learning rate of the authors' setting (one hidden layer)
    authors_horizon: float  #: training time t / tau of the authors' setting (one hidden layer)
    #: (rank, svm, lr, horizon) of each teacher of the authors' setting with three hidden layers
    authors_deep: tuple[tuple[int, float, float, float], ...]


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, n2=50, n3=50, svms=(0.84, 2.0, 4.0, 6.0, 8.0), runs=10, eps=1e-4,  # eps of the authors' script
        lr=1e-2, horizon=10.0, n_records=150,
        # no fewer data sets than the smoke scale's: the onset claims' margins are t margins over the runs, and
        # at the former 6 (authors) and 8 (three hidden layers) the margin of authors-onset-earlier-deeper was
        # estimated at about 0.4 against an effect of about 0.45 (smoke's calibration, issue 32)
        deep_svms=(4.0,), deep_runs=10, deep_lr=8e-3, deep_horizon=150.0,  # three hidden layers, the authors' horizon
        # the authors' setting of Fig. 5 (their script): leak 0.1, linear output layer, eps 1e-5,
        # noise variance 1/50 per entry; one hidden layer to t/tau = 8 (both ranks), three
        # hidden layers to t/tau = 100 (rank 1: 150, past the linear students' onset), per teacher
        # (rank, svm, lr, horizon): lr at most about a third of the stability limit (the authors'
        # 2e-4 at rank 3, svm 30, where 30 tau decides); rank 1 at svm 30 would need > 1e5 steps
        authors_svms=(5.0, 10.0, 30.0), authors_runs=10, authors_slope=0.1, authors_eps=1e-5,
        authors_noise_var=0.02, authors_lr=1e-3, authors_horizon=8.0,
        authors_deep=((3, 5.0, 2e-3, 100.0), (3, 10.0, 1e-3, 100.0), (3, 30.0, 2.5e-4, 30.0),
                      (1, 5.0, 5e-3, 150.0), (1, 10.0, 3e-3, 150.0)),
    ),
    "smoke": Sizes(
        n1=40, n2=20, n3=20, svms=(2.0, 4.0, 8.0), runs=4, eps=1e-4,
        lr=1e-2, horizon=10.0, n_records=120,
        # 10 data sets per teacher with three hidden layers: at 6 the 99 % margin of
        # onset-earlier-3-hidden-ours-rank3 (0.14-0.22) came within 0.02 of its effect (about -0.27) at SEED 1
        deep_svms=(4.0,), deep_runs=10, deep_lr=8e-3, deep_horizon=150.0,
        # 8 data sets per teacher: at 4 the Welch margin of authors-onset-earlier-deeper (about 0.5) equals the
        # effect (about -0.48), a coin toss; at 8 it is about 0.25
        authors_svms=(5.0, 10.0, 30.0), authors_runs=8, authors_slope=0.1, authors_eps=1e-5,
        authors_noise_var=0.02, authors_lr=2e-3, authors_horizon=8.0,
        authors_deep=((3, 10.0, 2e-3, 80.0), (1, 5.0, 5e-3, 200.0)),
    ),
}

#: A teacher: (rank, svm).
Setting = tuple[int, float]


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["stage-like-drops-rank3", "plateau", "overfitting", "minimum-time-1-hidden", "minimum-time-3-hidden",
            "onset-earlier-3-hidden-ours-rank3", "authors-onset-earlier-3-hidden-rank3", "authors-onset-earlier-deeper"]


#: No theory function is tested here: the paper has no theory of leaky-ReLU students, and every claim is a
#: finding (a measured effect of the nonlinear students, with its significance, against linear students or
#: the linear theory of :mod:`gendyn.deep_linear`, which is drawn for comparison and tested in other chapters).
MUTATIONS: tuple[Mutation, ...] = ()


def figure_5(result: LeakyAndLinear, settings: Sequence[Setting], *, n_layers: int, cfg: RunConfig) -> Figure:
    """Fig. 5 for one depth in our setting: training (top) and test (bottom) errors, rank-1 and rank-3 teachers.

    Points: leaky-ReLU students (mean over runs); dashed: linear students; lines: the linear TA theory,
    eqs. (14)-(15) (sizes and ``eps`` of ``cfg``). ``result`` from :func:`gendyn.train.train_leaky_and_linear`
    on the teachers ``settings`` (rank, svm).
    """
    t = result.time
    t_th = np.geomspace(t[1], t[-1], 300)
    fig, axes = plotting.subplots(2, 2, height=5.0, sharex=True)
    for col, rank in enumerate((1, 3)):
        for k, (r, s) in enumerate([st for st in settings if st[0] == rank]):
            i = list(settings).index((r, s))
            color = plotting.COLORS[k]
            tr_th, te_th = deep_linear.theory_errors(t_th, s * PROFILES[rank], deep_linear.TaStudent(
                n1=cfg.n1, n2=cfg.n2, n3=cfg.n3, eps=cfg.eps, n_layers=n_layers))
            curves = ((result.leaky_train, result.linear_train), (result.leaky_test, result.linear_test))
            for row, theory in enumerate((tr_th, te_th)):
                ax = axes[row, col]
                ax.plot(t[1:], curves[row][0][i].mean(0)[1:], "o", ms=1.5, color=color,
                        label=f"svm {s:g}" if row == 0 else None)
                ax.plot(t[1:], curves[row][1][i].mean(0)[1:], "--", lw=0.8, color=color)
                ax.plot(t_th, theory, "-", lw=0.8, color=color, alpha=0.6)
        axes[0, col].set(title=f"rank-{rank} teacher", xscale="log", yscale="log")
        axes[1, col].set(xlabel="$t/\\tau$", xscale="log", yscale="log")
        axes[0, col].legend(fontsize=7, markerscale=2)
    # a key for the three kinds of curve, the same in every panel
    key = [Line2D([], [], color="0.3", ls="", marker="o", ms=3, label="leaky-ReLU students"),
           Line2D([], [], color="0.3", ls="--", lw=0.8, label="linear students"),
           Line2D([], [], color="0.3", ls="-", lw=0.8, alpha=0.6, label="linear theory (14)–(15)")]
    axes[1, 0].legend(handles=key, fontsize=7, loc="lower left")
    axes[0, 0].set_ylabel("training error")
    axes[1, 0].set_ylabel("test error")
    fig.tight_layout()
    return fig


def figure_5_authors(authors: Mapping[tuple[int, Setting], LeakyAndLinear], *, svms: Sequence[float]) -> Figure:
    """Fig. 5 in the authors' setting: one and three hidden layers, rank-1 and rank-3 teachers, linear time.

    Solid: leaky-ReLU students; dashed: linear students (means over data sets); markers at the mean onset
    of overfitting (:func:`gendyn.train.overfitting_onset`; at the right edge if not doubled). ``authors``
    maps ``(n_layers, (rank, svm))`` to the students of one teacher; ``svms`` (``cfg.authors_svms``) fixes
    the colours.
    """
    panels = [(3, 1), (3, 3), (5, 1), (5, 3)]
    fig, axes = plotting.subplots(2, 4, height=5.2)
    for col, (n_layers, rank) in enumerate(panels):
        for (n, (r, s)), res in ((k, v) for k, v in authors.items() if k[0] == n_layers):
            t = res.time  # the panels of one depth end at the last teacher's horizon
            if r != rank:
                continue
            color = plotting.COLORS[list(svms).index(s)]
            curves = {"leaky_relu": (res.leaky_train[0], res.leaky_test[0]),
                      "linear": (res.linear_train[0], res.linear_test[0])}
            for row in (0, 1):
                for act, ls in (("leaky_relu", "-"), ("linear", "--")):
                    curve = curves[act][row].mean(0)
                    axes[row, col].plot(t, curve, ls, lw=1.0, color=color,
                                        label=f"svm {s:g}" if (row, act) == (0, "leaky_relu") else None)
                    if row == 1:
                        onset = train.overfitting_onset(t, curves[act][1])
                        at = np.nanmean(onset) if np.isfinite(onset).any() else t[-1]
                        axes[1, col].plot(at, np.interp(at, t, curve), "o" if act == "leaky_relu" else "s",
                                          ms=4, color=color, mfc="white" if act == "linear" else color)
        axes[0, col].set(title=f"{n_layers - 2} hidden layer{'s' if n_layers > 3 else ''}\nrank-{rank} teacher",
                         yscale="log", xlim=(0, t[-1]))
        axes[1, col].set(xlabel="$t/\\tau$", yscale="log", xlim=(0, t[-1]))
        axes[0, col].legend(fontsize=7)
    key = [Line2D([], [], color="0.3", ls="-", lw=1.0, label="leaky-ReLU students"),
           Line2D([], [], color="0.3", ls="--", lw=1.0, label="linear students"),
           Line2D([], [], color="0.3", ls="", marker="o", ms=4, label="onset: error doubled (leaky ReLU)"),
           Line2D([], [], color="0.3", ls="", marker="s", mfc="white", ms=4, label="onset (linear)")]
    fig.legend(handles=key, loc="lower center", ncol=2, fontsize=7, frameon=False)
    axes[0, 0].set_ylabel("training error")
    axes[1, 0].set_ylabel("test error")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def check_stage_like_drops(ledger: Ledger, counts: Mapping[Setting, tuple[int, ...]],
                           runs: Mapping[Setting, Sequence[int]]) -> None:
    """Claim ``stage-like-drops-rank3``: for every rank-3 teacher whose linear theory has >= 2 separate drops, at
    least half of the nonlinear students (runs) have >= 2 separate drops too.

    ``counts[(rank, svm)] = (nonlinear, linear, linear theory)`` separate drops of the mean curves and of the
    theory; ``runs[(rank, svm)]``: those of each nonlinear student's own training curve
    (:func:`gendyn.train.count_drops`). The ledger shows the teacher with the smallest share.
    """
    staged = [(s, np.mean(np.asarray(runs[r, s]) >= 2)) for (r, s), c in counts.items() if r == 3 and c[2] >= 2]
    svm, share = min(staged, key=lambda x: x[1])
    ledger.check(
        "stage-like-drops-rank3",
        "One hidden layer, rank-3 teachers with >= 2 separate drops in the linear theory: smallest share, over "
        f"these teachers, of the nonlinear students whose own training curve has >= 2 separate drops (svm {svm:g}); "
        "stage-like learning is the rule: at least half",
        measured=share, predicted=0.5, tolerance=0.0, kind="lower", category="finding",
        reason="Drops are peaks of the log-slope separated by dips below half their height, counted on each "
        "student's own curve, as the paper's Fig. 5 shows single runs: the mean over runs smears the stages, "
        "which come at times that differ from run to run (the alignment lag of a random start), and merged them "
        "at the weakest teacher (svm 2, smoke) in 16 of 40 seeds for the nonlinear and 7 of 40 for the "
        "linear students. Calibration at the smoke sizes (40 seeds x 4 runs): 86 % of the nonlinear students "
        "at svm 2, 98 % at svm 4 and 8 show >= 2 drops, so at 4 runs the claim fails at about 1 % of seeds "
        "(binomial, two or more of four).",
    )


def check_plateau(ledger: Ledger, spans: Sequence[tuple[float, float]]) -> None:
    """Claim ``plateau``: rank 1, svm >= 4, one hidden layer: the nonlinear students' test-error plateau is at
    least half as long in log time as the linear theory's (eq. 15). ``spans``: (nonlinear, theory) log-spans
    (:func:`gendyn.train.plateau_span`), one pair per teacher."""
    ledger.check(
        "plateau",
        "Rank 1, svm >= 4, one hidden layer: smallest ratio of the nonlinear plateau's log-span to the "
        "linear theory's",
        measured=min(a / b for a, b in spans), predicted=0.5, tolerance=0.0, kind="lower", category="finding",
        reason="Plateau = longest stretch within a factor 1.5 of the minimum test error; 'at least "
        "half as long' in log time is our operational reading of the paper's 'plateau'.",
    )


def check_overfitting(ledger: Ledger, results: Mapping[int, LeakyAndLinear],
                      settings: Mapping[int, Sequence[Setting]]) -> None:
    """Claim ``overfitting``: for svm >= 2 at both depths (``results[n_layers]`` on the teachers
    ``settings[n_layers]``), the nonlinear students' final mean test error lies above its minimum by more than
    a one-sided z (level 1e-3) standard errors. Prints each z."""
    rises = []
    for n_layers, res in results.items():
        for i, (rank, s) in enumerate(settings[n_layers]):
            if s >= 2:
                curve = res.leaky_test[i]
                m = curve.mean(0)
                rises.append((m[-1] - m.min()) / mean_se(curve[:, -1])[1])
                print(f"{n_layers - 2} hidden, rank {rank}, svm {s:g}: "
                      f"final / min = {m[-1] / m.min():.2f}, z = {rises[-1]:.1f}")
    ledger.check(
        "overfitting",
        "Smallest z-statistic of (final - minimal) mean test error of the nonlinear students "
        "(svm >= 2, both depths)",
        measured=min(rises), predicted=0.0, tolerance=z_quantile(1, sides=1), kind="above", category="finding",
        reason="One-sided test at level 1e-3 that the test error has turned up by the end of training "
        "(standard error of the final mean over runs).",
    )


def check_minimum_time(ledger: Ledger, ratio: Mapping[int, MinimumTimeRatio]) -> None:
    """Claims ``minimum-time-*-hidden``: the nonlinear students' minimum does not come earlier than the linear
    students' (log ratio >= 0 within one-sided z standard errors); ``ratio[n_layers]`` from
    :func:`gendyn.train.minimum_time_ratios`."""
    z = z_quantile(1, sides=1)
    for n_layers, (est, se) in ratio.items():
        ledger.check(
            f"minimum-time-{n_layers - 2}-hidden",
            f"{n_layers - 2} hidden layer(s), our setting: ln(t_opt nonlinear / t_opt linear, same initialisation): "
            "the minimum itself does not come earlier (>= 0 within one-sided z standard errors)",
            measured=est, predicted=0.0, tolerance=z * se, kind="lower", category="finding",
            reason=f"z = {z:.2f} (one-sided, level 1e-3) x bootstrap standard error over runs ({se:.2g}) of the "
            "log geometric-mean ratio of the times of minimal mean test error. Power: a nonlinear minimum at "
            f"{np.exp(-(z + 1.28) * se):.2f} times the linear one's time, or earlier, would be found with probability 0.9.",
        )


def print_onsets(onsets: Mapping[tuple[int, Setting], OnsetComparison]) -> None:
    """One line per ``(n_layers, (rank, svm))``: mean onsets of overfitting and the 99 % bounds of the mean log
    ratio (:func:`gendyn.book.stats.mean_and_margin`; infinite where a bound cannot be read)."""
    for (n_layers, (rank, s)), o in onsets.items():
        (lo, lo_margin), (hi, hi_margin) = mean_and_margin(o.lower, "lower"), mean_and_margin(o.upper, "upper")
        print(f"  {n_layers - 2} hidden, rank {rank}, svm {s:g}: onset nonlinear {o.leaky:.3g}, linear {o.linear:.3g} "
              f"tau; ln ratio between {lo - lo_margin:+.2f} and {hi + hi_margin:+.2f} (99 % bounds)")


def check_onset_ours(ledger: Ledger, deep_ours: Mapping[Setting, OnsetComparison]) -> None:
    """Claim ``onset-earlier-3-hidden-ours-rank3``: with three hidden layers in our setting, the rank-3 teachers'
    nonlinear students begin to overfit earlier: at every svm the mean log onset ratio lies below 0 by its 99 %
    one-sided t margin (Bonferroni over the teachers); the ledger shows the svm closest to failing."""
    m, margin = max((mean_and_margin(v.upper, "upper", len(deep_ours)) for (r, s), v in deep_ours.items()
                     if r == 3), key=sum)
    ledger.check(
        "onset-earlier-3-hidden-ours-rank3",
        "Three hidden layers, our setting, rank-3 teachers: mean over runs of ln(onset nonlinear / onset linear), "
        "the onset being when the test error has doubled its minimum, at the svm closest to 0; the paper says < 0 "
        "(earlier): below 0 by the 99 % one-sided t margin (Bonferroni over teachers)",
        measured=m, predicted=0.0, tolerance=margin, kind="below", category="finding",
        reason="One-sided Student-t margin over independent data sets (runs); a linear student not doubled by "
        "the horizon counts at the horizon, which can only raise the ratio.",
    )


def check_authors_onset(ledger: Ledger, onsets: Mapping[tuple[int, Setting], OnsetComparison]) -> None:
    """Claims in the authors' setting, rank 3 (``onsets[(n_layers, (rank, svm))]``).

    ``authors-onset-earlier-3-hidden-rank3``: with three hidden layers the nonlinear students begin to
    overfit earlier at every svm; ``authors-onset-earlier-deeper``: the log onset ratio at three hidden
    layers lies below that at one (the difference of the means below 0 by its 99 % one-sided Welch t margin,
    Bonferroni over svm). Each ledger entry shows the svm closest to failing.
    """
    deep3 = [st for (n, st) in onsets if n == 5 and st[0] == 3]

    def mean_margin(n_layers, st, side):  # Bonferroni over the rank-3 teachers of three hidden layers
        return mean_and_margin(getattr(onsets[n_layers, st], side), side, len(deep3))

    m, margin = max((mean_margin(5, st, "upper") for st in deep3), key=sum)
    ledger.check(
        "authors-onset-earlier-3-hidden-rank3",
        "Authors' setting, three hidden layers, rank 3: mean ln(onset nonlinear / onset linear) at the svm closest "
        "to 0; the paper says < 0 (earlier): below 0 by the 99 % one-sided t margin (Bonferroni over svm)",
        measured=m, predicted=0.0, tolerance=margin, kind="below", category="finding",
        reason="Onset = time at which the test error has doubled its minimum; one-sided Student-t bound over "
        "independent data sets; linear students not doubled by the horizon count at the horizon.",
    )
    deeper = [difference_and_margin(onsets[5, st].upper, onsets[3, st].lower, "upper", len(deep3))
              for st in deep3]
    m, margin = max(deeper, key=sum)
    ledger.check(
        "authors-onset-earlier-deeper",
        "Authors' setting, rank 3: mean ln(onset ratio) at three hidden layers (upper reading) minus that at one "
        "(lower reading), at the svm closest to 0; 'especially deeper ones' says < 0: below 0 by the 99 % "
        "one-sided Student-t margin of the difference (Bonferroni over svm)",
        measured=m, predicted=0.0, tolerance=margin, kind="below", category="finding",
        reason="Welch's one-sided 99 % Student-t margin of a difference of two means over independent data sets "
        "(the two depths train on their own data): the t quantile (Welch-Satterthwaite dof, Bonferroni over svm) "
        "times the combined standard error sqrt(se_3^2 + se_1^2); a reading that is an unreadable bound "
        "(infinite) makes the margin 0 and the claim fail.",
    )


def onset_values(onsets: Mapping[tuple[int, Setting], OnsetComparison],
                 deep_ours: Mapping[Setting, OnsetComparison]) -> dict[str, str]:
    """The onset ratios glued in the notes: geometric means, nonlinear / linear, marked as bounds ("<", ">")
    where some run had not doubled; the one-hidden-layer teachers whose ratio is above 1; our setting's."""
    def ratio_text(cells, n_layers):
        parts = []
        for st in cells:
            o = onsets[n_layers, st]
            lo, hi = np.exp(o.lower.mean()), np.exp(o.upper.mean())
            parts.append(f"svm {st[1]:g}: " + (f"{hi:.2f}" if np.isclose(lo, hi) else
                                              f"< {hi:.2f}" if np.isfinite(hi) else f"> {lo:.2f}"))
        return "; ".join(parts)

    deep3 = [st for (n, st) in onsets if n == 5 and st[0] == 3]
    deep1 = [st for (n, st) in onsets if n == 5 and st[0] == 1]
    shallow_later = [f"rank {r}, svm {s:g}" for (n, (r, s)), v in onsets.items() if n == 3 and v.upper.mean() > 0]
    return {"lg-nonlinear-authors-deep-ratios-rank3": ratio_text(deep3, 5),
            "lg-nonlinear-authors-deep-ratios-rank1": ratio_text(deep1, 5),
            "lg-nonlinear-authors-shallow-later": "; ".join(shallow_later) or "none",
            "lg-nonlinear-ours-deep": "; ".join(f"rank {r}: {np.exp(v.upper.mean()):.2f}"
                                                for (r, s), v in deep_ours.items())}
