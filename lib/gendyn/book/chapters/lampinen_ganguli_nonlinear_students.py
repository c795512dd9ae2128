"""Figures and claims of the chapter *Nonlinear students*
(``notebooks/lampinen-ganguli/nonlinear-students.ipynb``, Lampinen & Ganguli §3.5, Fig. 5).

It holds the runners that train leaky-ReLU students beside linear ones on the same data (in our setting
and in the authors'), the read-outs of the training curves (separate drops, plateau span, onset of
overfitting and its ratio to the linear students'), the Fig. 5 figures, and the claims: stage-like
drops, a plateau, overfitting, the time of the minimum, and earlier onset of overfitting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from gendyn import deep_linear, teachers, train
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import mean_se, t_margin, z_quantile
from gendyn.teachers import PROFILES

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "setting_values", "train_our_setting", "train_authors_setting", "authors_setting_values", "figure_5",
           "figure_5_authors", "count_drops", "drop_counts", "check_stage_like_drops", "plateau_span",
           "check_plateau", "check_overfitting", "minimum_time_ratios", "check_minimum_time", "onset_log_ratio",
           "mean_and_margin", "t_bound_or_inf", "onset_table", "onsets_in_our_setting", "check_onset_ours", "authors_onsets",
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
        deep_svms=(4.0,), deep_runs=8, deep_lr=8e-3, deep_horizon=150.0,  # three hidden layers, the authors' horizon
        # the authors' setting of Fig. 5 (their script): leak 0.1, linear output layer, eps 1e-5,
        # noise variance 1/50 per entry; one hidden layer to t/tau = 8 (both ranks), three
        # hidden layers to t/tau = 100 (rank 1: 150, past the linear students' onset), per teacher
        # (rank, svm, lr, horizon): lr at most about a third of the stability limit (the authors'
        # 2e-4 at rank 3, svm 30, where 30 tau decides); rank 1 at svm 30 would need > 1e5 steps
        authors_svms=(5.0, 10.0, 30.0), authors_runs=6, authors_slope=0.1, authors_eps=1e-5,
        authors_noise_var=0.02, authors_lr=1e-3, authors_horizon=8.0,
        authors_deep=((3, 5.0, 2e-3, 100.0), (3, 10.0, 1e-3, 100.0), (3, 30.0, 2.5e-4, 30.0),
                      (1, 5.0, 5e-3, 150.0), (1, 10.0, 3e-3, 150.0)),
    ),
    "smoke": Sizes(
        n1=40, n2=20, n3=20, svms=(2.0, 4.0, 8.0), runs=4, eps=1e-4,
        lr=1e-2, horizon=10.0, n_records=120,
        deep_svms=(4.0,), deep_runs=6, deep_lr=8e-3, deep_horizon=150.0,
        authors_svms=(5.0, 10.0, 30.0), authors_runs=4, authors_slope=0.1, authors_eps=1e-5,
        authors_noise_var=0.02, authors_lr=2e-3, authors_horizon=8.0,
        authors_deep=((3, 10.0, 2e-3, 80.0), (1, 5.0, 5e-3, 200.0)),
    ),
}

#: A teacher: (rank, svm).
Setting = tuple[int, float]

#: Errors of the students of one depth: ``out[activation] = (train, test)``, each (settings, runs, records),
#: ``activation`` in ("leaky_relu", "linear").
Errors = Mapping[str, tuple[np.ndarray, np.ndarray]]


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["stage-like-drops-rank3", "plateau", "overfitting", "minimum-time-1-hidden", "minimum-time-3-hidden",
            "onset-earlier-3-hidden-ours-rank3", "authors-onset-earlier-3-hidden-rank3", "authors-onset-earlier-deeper"]


#: No theory function is tested here: the paper has no theory of leaky-ReLU students, and every claim is a
#: finding (a measured effect of the nonlinear students, with its significance, against linear students or
#: the linear theory of :mod:`gendyn.deep_linear`, which is drawn for comparison and tested in other chapters).
MUTATIONS: tuple[Mutation, ...] = ()


def setting_values(cfg: RunConfig) -> dict[str, object]:
    """Our setting as glued in the chapter's text: sizes, SNRs, runs, horizons and the deep learning rate."""
    return {"lg-nonlinear-n1": cfg.n1, "lg-nonlinear-n2": cfg.n2, "lg-nonlinear-runs": cfg.runs,
            "lg-nonlinear-svms": ", ".join(f"{s:g}" for s in cfg.svms),
            "lg-nonlinear-horizon": f"{cfg.horizon:g}", "lg-nonlinear-deep-horizon": f"{cfg.deep_horizon:g}",
            "lg-nonlinear-deep-svms": ", ".join(f"{s:g}" for s in cfg.deep_svms),
            "lg-nonlinear-deep-runs": cfg.deep_runs, "lg-nonlinear-deep-lr": f"{cfg.deep_lr:g}"}


def _train_pair(cfg, settings, runs, *, n_layers, lr, horizon, eps, slope, noise_std, generator, desc):
    """Leaky-ReLU and linear students of one depth on the same data sets: one batched program each."""
    sv = np.zeros((len(settings), runs, 3))
    for i, (rank, s) in enumerate(settings):
        sv[i, :, :rank] = s * PROFILES[rank]  # rank-1 teachers padded with zero modes
    teacher = teachers.low_rank_teacher(torch.tensor(sv.reshape(-1, 3)), cfg.n1, cfg.n3, generator=generator)
    sigma31 = teachers.noisy_training_covariance(teacher, noise_std=noise_std, generator=generator)
    kw = dict(hidden=cfg.n2, n_layers=n_layers, lr=lr, epochs=int(round(horizon / lr)), init="random", eps=eps,
              slope=slope, test_data=(torch.eye(cfg.n1), teacher.matrix.float()), n_records=cfg.n_records,
              device=cfg.device, check_stability=False)
    out = {}
    for act in ("leaky_relu", "linear"):
        res = train.train_students(sigma31.float(), activation=act, generator=generator, desc=desc.format(act=act),
                                   **kw)
        out[act] = tuple(e.reshape(len(settings), runs, -1) for e in (res.train_error, res.test_error))
    return res.time, out


def train_our_setting(cfg: RunConfig, *, n_layers: int, svms: Sequence[float], runs: int, lr: float, horizon: float,
                      generator: torch.Generator) -> tuple[list[Setting], np.ndarray, Errors]:
    """Leaky-ReLU (slope 0.2) and linear students of one depth in our setting, on the same data sets.

    Parameters
    ----------
    cfg : RunConfig
        The chapter's configuration: sizes ``n1, n2, n3``, initial scale ``eps``, ``n_records``, ``device``.
    n_layers, svms, runs, lr, horizon
        Depth (3: one hidden layer, 5: three), SNR multipliers, runs per teacher, learning rate, horizon in tau.
    generator : torch.Generator
        Draws the teachers, the noise (variance 1/N1) and the random initial weights.

    Returns
    -------
    settings : list of (rank, svm)
        Rank-1 and rank-3 teachers at every svm.
    time : ndarray
        Record times in tau.
    out : dict
        ``out[activation] = (train, test)`` errors, each (settings, runs, records).
    """
    settings = [(rank, s) for rank in PROFILES for s in svms]
    time, out = _train_pair(cfg, settings, runs, n_layers=n_layers, lr=lr, horizon=horizon, eps=cfg.eps, slope=0.2,
                            noise_std=1.0, generator=generator,
                            desc=f"{{act}} students, {n_layers - 2} hidden layer(s)")
    return settings, time, out


def train_authors_setting(cfg: RunConfig, *,
                          generator: torch.Generator) -> dict[int, dict[Setting, tuple[np.ndarray, Errors]]]:
    """Leaky-ReLU and linear students in the authors' setting of Fig. 5 (their script), one teacher at a time.

    The authors' leak (``cfg.authors_slope``), linear output layer, initial scale ``cfg.authors_eps`` and noise
    variance ``cfg.authors_noise_var`` per entry; ``cfg.authors_runs`` data sets per teacher. One hidden layer
    at every svm of ``cfg.authors_svms`` with ``cfg.authors_lr`` to ``cfg.authors_horizon``; three hidden
    layers for each ``(rank, svm, lr, horizon)`` of ``cfg.authors_deep``.

    Returns
    -------
    dict
        ``{n_layers: {(rank, svm): (time, out)}}``, ``out`` as in :func:`train_our_setting` with one setting.
    """
    def run(setting, n_layers, lr, horizon):
        return _train_pair(cfg, [setting], cfg.authors_runs, n_layers=n_layers, lr=lr, horizon=horizon,
                           eps=cfg.authors_eps, slope=cfg.authors_slope,
                           noise_std=np.sqrt(cfg.authors_noise_var * cfg.n1), generator=generator,
                           desc=f"authors' setting: {{act}}, {n_layers - 2} hidden layer(s)")

    shallow = [(rank, s) for rank in PROFILES for s in cfg.authors_svms]
    return {3: {st: run(st, 3, cfg.authors_lr, cfg.authors_horizon) for st in shallow},
            5: {(rank, s): run((rank, s), 5, lr, horizon) for rank, s, lr, horizon in cfg.authors_deep}}


def authors_setting_values(cfg: RunConfig) -> dict[str, object]:
    """The authors' setting as glued in the chapter's text."""
    return {"lg-nonlinear-authors-slope": f"{cfg.authors_slope:g}", "lg-nonlinear-authors-eps": f"{cfg.authors_eps:g}",
            "lg-nonlinear-authors-noise": f"{cfg.authors_noise_var:g}",
            "lg-nonlinear-authors-svms": ", ".join(f"{s:g}" for s in cfg.authors_svms),
            "lg-nonlinear-authors-runs": cfg.authors_runs,
            "lg-nonlinear-authors-horizon": f"{cfg.authors_horizon:g}",
            "lg-nonlinear-authors-deep": "; ".join(f"({r}, {s:g}, {lr:g}, {h:g})" for r, s, lr, h in cfg.authors_deep)}


def figure_5(result: tuple[list[Setting], np.ndarray, Errors], *, n_layers: int, cfg: RunConfig) -> Figure:
    """Fig. 5 for one depth in our setting: training (top) and test (bottom) errors, rank-1 and rank-3 teachers.

    Points: leaky-ReLU students (mean over runs); dashed: linear students; lines: the linear TA theory,
    eqs. (14)-(15) (sizes and ``eps`` of ``cfg``). ``result`` is :func:`train_our_setting`'s.
    """
    settings, t, out = result
    t_th = np.geomspace(t[1], t[-1], 300)
    fig, axes = plotting.subplots(2, 2, height=5.0, sharex=True)
    for col, rank in enumerate((1, 3)):
        for k, (r, s) in enumerate([st for st in settings if st[0] == rank]):
            i = settings.index((r, s))
            color = plotting.COLORS[k]
            tr_th, te_th = deep_linear.theory_errors(t_th, s * PROFILES[rank], cfg.n1, cfg.n2,
                                                     cfg.n3, cfg.eps, n_layers=n_layers)
            for row, theory in enumerate((tr_th, te_th)):
                ax = axes[row, col]
                ax.plot(t[1:], out["leaky_relu"][row][i].mean(0)[1:], "o", ms=1.5, color=color,
                        label=f"svm {s:g}" if row == 0 else None)
                ax.plot(t[1:], out["linear"][row][i].mean(0)[1:], "--", lw=0.8, color=color)
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


def figure_5_authors(authors: Mapping[int, Mapping[Setting, tuple[np.ndarray, Errors]]], *,
                     svms: Sequence[float]) -> Figure:
    """Fig. 5 in the authors' setting: one and three hidden layers, rank-1 and rank-3 teachers, linear time.

    Solid: leaky-ReLU students; dashed: linear students (means over data sets); markers at the mean onset
    of overfitting (:func:`gendyn.train.overfitting_onset`; at the right edge if not doubled). ``authors``
    is :func:`train_authors_setting`'s; ``svms`` (``cfg.authors_svms``) fixes the colours.
    """
    panels = [(3, 1), (3, 3), (5, 1), (5, 3)]
    fig, axes = plotting.subplots(2, 4, height=5.2)
    for col, (n_layers, rank) in enumerate(panels):
        for (r, s), (t, out) in authors[n_layers].items():
            if r != rank:
                continue
            color = plotting.COLORS[list(svms).index(s)]
            for row in (0, 1):
                for act, ls in (("leaky_relu", "-"), ("linear", "--")):
                    curve = out[act][row][0].mean(0)
                    axes[row, col].plot(t, curve, ls, lw=1.0, color=color,
                                        label=f"svm {s:g}" if (row, act) == (0, "leaky_relu") else None)
                    if row == 1:
                        onset = train.overfitting_onset(t, out[act][1][0])
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


def count_drops(t: np.ndarray, curve: np.ndarray, *, floor: float = 0.1, dip: float = 0.5) -> int:
    """Number of separate drops of a decreasing curve on a log time grid.

    Drops are peaks of the (3-point smoothed) log-slope ``-d ln curve / d ln t`` higher than ``floor``
    times its largest; two peaks count as one unless the slope dips between them below ``dip`` times the
    smaller (a plateau between the stages).
    """
    keep = t > 0
    slope = -np.gradient(np.log(curve[keep]), np.log(t[keep]))
    slope = np.convolve(slope, np.ones(3) / 3, mode="same")
    peaks = [k for k in range(1, slope.size - 1)
             if slope[k] >= slope[k - 1] and slope[k] > slope[k + 1]
             and slope[k] > floor * slope.max()]
    stages = []
    for k in peaks:  # merge peaks without a clear dip between them
        if stages and slope[stages[-1]:k + 1].min() > dip * min(slope[stages[-1]], slope[k]):
            stages[-1] = k if slope[k] > slope[stages[-1]] else stages[-1]
        else:
            stages.append(k)
    return len(stages)


def drop_counts(result: tuple[list[Setting], np.ndarray, Errors], cfg: RunConfig) -> dict[Setting, tuple[int, ...]]:
    """Separate drops (:func:`count_drops`) of the mean training error per teacher of ``result``.

    Returns ``{(rank, svm): (nonlinear, linear, linear TA theory)}``: leaky-ReLU students, linear students,
    and eq. (14) with one hidden layer (sizes and ``eps`` of ``cfg``).
    """
    settings, t, out = result
    counts = {}
    for i, (rank, s) in enumerate(settings):
        tr_th = deep_linear.theory_errors(t, s * PROFILES[rank], cfg.n1, cfg.n2, cfg.n3, cfg.eps)[0]
        counts[(rank, s)] = (count_drops(t, out["leaky_relu"][0][i].mean(0)),
                             count_drops(t, out["linear"][0][i].mean(0)),
                             count_drops(t, tr_th))
    return counts


def check_stage_like_drops(ledger: Ledger, counts: Mapping[Setting, tuple[int, ...]]) -> None:
    """Claim ``stage-like-drops-rank3``: every rank-3 teacher whose linear theory has >= 2 separate drops gives
    the nonlinear students >= 2 too. ``counts`` as from :func:`drop_counts`."""
    rank3 = [c[0] for (r, _), c in counts.items() if r == 3 and c[2] >= 2]
    ledger.check(
        "stage-like-drops-rank3",
        "One hidden layer: number of rank-3 teachers with >= 2 separate drops in the linear theory "
        "whose nonlinear training curve also has >= 2",
        measured=sum(c >= 2 for c in rank3), predicted=len(rank3), tolerance=0.0, kind="lower", category="finding",
        reason="A count, checked exactly; drops are peaks of the log-slope separated by dips below "
        "half their height.",
    )


def plateau_span(t: np.ndarray, curve: np.ndarray, factor: float = 1.5) -> float:
    """``log(t_end / t_start)`` of the longest run of records within ``factor`` of the curve's minimum."""
    inside = curve <= factor * curve.min()
    best, start = 0.0, None
    for k, flag in enumerate(inside):
        if flag and start is None:
            start = k
        if start is not None and (not flag or k == len(inside) - 1):
            end = k if flag else k - 1
            if t[start] > 0:
                best = max(best, np.log(t[end] / t[start]))
            start = None
    return best


def check_plateau(ledger: Ledger, result: tuple[list[Setting], np.ndarray, Errors], cfg: RunConfig) -> None:
    """Claim ``plateau``: rank 1, svm >= 4, one hidden layer: the nonlinear students' test-error plateau
    (:func:`plateau_span`) is at least half as long in log time as the linear theory's (eq. 15). Prints the spans."""
    settings, t, out = result
    spans = []
    for i, (rank, s) in enumerate(settings):
        if rank == 1 and s >= 4:
            te_th = deep_linear.theory_errors(t, [s], cfg.n1, cfg.n2, cfg.n3, cfg.eps)[1]
            spans.append((plateau_span(t, out["leaky_relu"][1][i].mean(0)), plateau_span(t, te_th)))
    print("plateau log-spans (nonlinear, theory):",
          [(round(float(a), 2), round(float(b), 2)) for a, b in spans])
    ledger.check(
        "plateau",
        "Rank 1, svm >= 4, one hidden layer: smallest ratio of the nonlinear plateau's log-span to the "
        "linear theory's",
        measured=min(a / b for a, b in spans), predicted=0.5, tolerance=0.0, kind="lower", category="finding",
        reason="Plateau = longest stretch within a factor 1.5 of the minimum test error; 'at least "
        "half as long' in log time is our operational reading of the paper's 'plateau'.",
    )


def check_overfitting(ledger: Ledger, results: Mapping[int, tuple[list[Setting], np.ndarray, Errors]]) -> None:
    """Claim ``overfitting``: for svm >= 2 at both depths, the nonlinear students' final mean test error lies
    above its minimum by more than a one-sided z (level 1e-3) standard errors. Prints each z."""
    rises = []
    for n_layers in (3, 5):
        settings_d, t_d, out_d = results[n_layers]
        for i, (rank, s) in enumerate(settings_d):
            if s >= 2:
                curve = out_d["leaky_relu"][1][i]
                m = curve.mean(0)
                se_final = mean_se(curve[:, -1])[1]
                rises.append((m[-1] - m.min()) / se_final)
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


def minimum_time_ratios(results: Mapping[int, tuple[list[Setting], np.ndarray, Errors]], runs: Mapping[int, int], *,
                        seed: int) -> dict[int, tuple[float, float]]:
    """Log geometric-mean ratio of the times of minimal mean test error, nonlinear over linear, per depth.

    Over the teachers with svm >= 2 whose two minima fall inside the horizon; its standard error from 200
    bootstrap resamples of the runs (``runs[n_layers]`` each, generator seeded with ``seed``). Prints the
    ratios. Returns ``{n_layers: (log ratio, standard error)}``.
    """
    boot = np.random.default_rng(seed)
    ratio = {}
    for n_layers in (3, 5):
        settings_d, t_d, out_d = results[n_layers]
        rows = [i for i, (rank, s) in enumerate(settings_d) if s >= 2]

        def log_ratio(pick):
            vals = []
            for i in rows:
                nl = out_d["leaky_relu"][1][i][pick(i)].mean(0)
                lin = out_d["linear"][1][i][pick(i)].mean(0)
                if nl.argmin() < len(t_d) - 1 and lin.argmin() < len(t_d) - 1:
                    vals.append(np.log(t_d[nl.argmin()] / t_d[lin.argmin()]))
            return np.mean(vals) if vals else np.nan

        est = log_ratio(lambda i: slice(None))
        draws = [log_ratio(lambda i: boot.integers(0, runs[n_layers], runs[n_layers])) for _ in range(200)]
        ratio[n_layers] = (est, np.nanstd(draws, ddof=1))
        print(f"{n_layers - 2} hidden layer(s): t_opt nonlinear / linear = {np.exp(est):.2f} "
              f"(log standard error {ratio[n_layers][1]:.2f})")
    return ratio


def check_minimum_time(ledger: Ledger, ratio: Mapping[int, tuple[float, float]]) -> None:
    """Claims ``minimum-time-*-hidden``: the nonlinear students' minimum does not come earlier than the linear
    students' (log ratio >= 0 within one-sided z standard errors). ``ratio`` from :func:`minimum_time_ratios`."""
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


def onset_log_ratio(t_nl: np.ndarray, t_lin: np.ndarray, horizon: float, *, bound: str = "upper") -> np.ndarray:
    """Per run ``ln(onset nonlinear / onset linear)`` from the onsets (:func:`gendyn.train.overfitting_onset`, NaN:
    not doubled by the horizon).

    A curve that has not doubled is read so that the result is an upper bound of the ratio
    (``bound="upper"``: linear at the horizon, nonlinear never) or a lower bound (``bound="lower"``:
    nonlinear at the horizon, linear never).
    """
    late = {"upper": (np.inf, horizon), "lower": (horizon, np.inf)}[bound]
    with np.errstate(divide="ignore"):  # a never-doubled linear student gives ln 0 = -inf, on purpose
        return np.log(np.where(np.isnan(t_nl), late[0], t_nl) / np.where(np.isnan(t_lin), late[1], t_lin))


def mean_and_margin(values: np.ndarray, side: str, cells: int = 1) -> tuple[float, float]:
    """Mean of ``values`` (one per run) and its one-sided 99 % Student-t margin, Bonferroni over ``cells``
    (:func:`gendyn.book.stats.t_margin`).

    If any run's value is infinite (a curve read as a bound, :func:`onset_log_ratio`), the infinite value itself
    and a margin of 0: a claim on it cannot pass.
    """
    values = np.asarray(values)
    if not np.all(np.isfinite(values)):
        return float(values.max() if side == "upper" else values.min()), 0.0
    return float(values.mean()), t_margin(values, 1 - 0.01 / cells)


def t_bound_or_inf(values: np.ndarray, side: str, cells: int = 1) -> float:
    """One-sided 99 % Student-t bound of the mean, Bonferroni over ``cells`` (:func:`mean_and_margin`)."""
    m, margin = mean_and_margin(values, side, cells)
    return m + margin if side == "upper" else m - margin


def onset_table(t: np.ndarray, out: Errors, settings: Sequence[Setting]) -> dict[Setting, dict]:
    """Onsets of overfitting per teacher: mean onsets in tau and per-run log ratios as upper and lower bounds.

    Returns ``{(rank, svm): {"nonlinear": mean onset, "linear": mean onset, "upper": ..., "lower": ...}}``
    (a mean onset is NaN where no run doubled by the horizon; the bounds from :func:`onset_log_ratio`),
    and prints one line per teacher.
    """
    rows = {}
    for i, st in enumerate(settings):
        onset = [train.overfitting_onset(t, out[act][1][i]) for act in ("leaky_relu", "linear")]
        mean_onset = [np.nan if np.isnan(o).all() else np.nanmean(o) for o in onset]
        rows[st] = dict(nonlinear=mean_onset[0], linear=mean_onset[1],
                        **{b: onset_log_ratio(*onset, t[-1], bound=b) for b in ("upper", "lower")})
        print(f"  rank {st[0]}, svm {st[1]:g}: onset nonlinear {mean_onset[0]:.3g}, linear {mean_onset[1]:.3g} tau; "
              f"ln ratio between {t_bound_or_inf(rows[st]['lower'], 'lower'):+.2f} and "
              f"{t_bound_or_inf(rows[st]['upper'], 'upper'):+.2f} (99 % bounds)")
    return rows


def onsets_in_our_setting(results: Mapping[int, tuple[list[Setting], np.ndarray, Errors]]) -> dict[int, dict]:
    """:func:`onset_table` of both depths in our setting, teachers with svm >= 2: ``{n_layers: table}``."""
    ours = {}
    for n_layers in (3, 5):
        settings_d, t_d, out_d = results[n_layers]
        print(f"our setting, {n_layers - 2} hidden layer(s), horizon {t_d[-1]:g} tau:")
        keep = [i for i, (rank, s) in enumerate(settings_d) if s >= 2]
        ours[n_layers] = onset_table(t_d, {a: tuple(e[keep] for e in v) for a, v in out_d.items()},
                                     [settings_d[i] for i in keep])
    return ours


def check_onset_ours(ledger: Ledger, deep_ours: Mapping[Setting, dict]) -> None:
    """Claim ``onset-earlier-3-hidden-ours-rank3``: with three hidden layers in our setting, the rank-3 teachers'
    nonlinear students begin to overfit earlier: at every svm the mean log onset ratio lies below 0 by its 99 %
    one-sided t margin (Bonferroni over the teachers); the ledger shows the svm closest to failing."""
    m, margin = max((mean_and_margin(v["upper"], "upper", len(deep_ours)) for (r, s), v in deep_ours.items()
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


def authors_onsets(authors: Mapping[int, Mapping[Setting, tuple[np.ndarray, Errors]]]) -> dict[tuple, dict]:
    """:func:`onset_table` of every teacher in the authors' setting: ``{(n_layers, (rank, svm)): row}``."""
    print("authors' setting:")
    onsets = {}
    for n_layers in (3, 5):
        print(f" {n_layers - 2} hidden layer(s):")
        for st, (t, out) in authors[n_layers].items():
            onsets[n_layers, st] = onset_table(t, out, [st])[st]
    return onsets


def check_authors_onset(ledger: Ledger, onsets: Mapping[tuple, dict]) -> None:
    """Claims in the authors' setting, rank 3 (``onsets`` from :func:`authors_onsets`).

    ``authors-onset-earlier-3-hidden-rank3``: with three hidden layers the nonlinear students begin to
    overfit earlier at every svm; ``authors-onset-earlier-deeper``: the log onset ratio at three hidden
    layers lies below that at one (the difference of the means below 0 by the sum of their 99 % one-sided
    margins, Bonferroni over svm). Each ledger entry shows the svm closest to failing.
    """
    deep3 = [st for (n, st) in onsets if n == 5 and st[0] == 3]

    def mean_margin(n_layers, st, side):  # Bonferroni over the rank-3 teachers of three hidden layers
        return mean_and_margin(onsets[n_layers, st][side], side, len(deep3))

    m, margin = max((mean_margin(5, st, "upper") for st in deep3), key=sum)
    ledger.check(
        "authors-onset-earlier-3-hidden-rank3",
        "Authors' setting, three hidden layers, rank 3: mean ln(onset nonlinear / onset linear) at the svm closest "
        "to 0; the paper says < 0 (earlier): below 0 by the 99 % one-sided t margin (Bonferroni over svm)",
        measured=m, predicted=0.0, tolerance=margin, kind="below", category="finding",
        reason="Onset = time at which the test error has doubled its minimum; one-sided Student-t bound over "
        "independent data sets; linear students not doubled by the horizon count at the horizon.",
    )
    deeper = [(mean_margin(5, st, "upper"), mean_margin(3, st, "lower")) for st in deep3]
    m, margin = max(((deep[0] - shallow[0], deep[1] + shallow[1]) for deep, shallow in deeper), key=sum)
    ledger.check(
        "authors-onset-earlier-deeper",
        "Authors' setting, rank 3: mean ln(onset ratio) at three hidden layers (upper reading) minus that at one "
        "(lower reading), at the svm closest to 0; 'especially deeper ones' says < 0: below 0 by the sum of the two "
        "99 % one-sided t margins (Bonferroni over svm)",
        measured=m, predicted=0.0, tolerance=margin, kind="below", category="finding",
        reason="Each margin one-sided 99 % Student-t over independent data sets, Bonferroni over svm; their sum is "
        "stricter than a combined standard error.",
    )


def onset_values(onsets: Mapping[tuple, dict], deep_ours: Mapping[Setting, dict]) -> dict[str, str]:
    """The onset ratios glued in the notes: geometric means, nonlinear / linear, marked as bounds ("<", ">")
    where some run had not doubled; the one-hidden-layer teachers whose ratio is above 1; our setting's."""
    def ratio_text(cells, n_layers):
        parts = []
        for st in cells:
            o = onsets[n_layers, st]
            lo, hi = np.exp(o["lower"].mean()), np.exp(o["upper"].mean())
            parts.append(f"svm {st[1]:g}: " + (f"{hi:.2f}" if np.isclose(lo, hi) else
                                              f"< {hi:.2f}" if np.isfinite(hi) else f"> {lo:.2f}"))
        return "; ".join(parts)

    deep3 = [st for (n, st) in onsets if n == 5 and st[0] == 3]
    deep1 = [st for (n, st) in onsets if n == 5 and st[0] == 1]
    shallow_later = [f"rank {r}, svm {s:g}" for (n, (r, s)), v in onsets.items() if n == 3 and v["upper"].mean() > 0]
    return {"lg-nonlinear-authors-deep-ratios-rank3": ratio_text(deep3, 5),
            "lg-nonlinear-authors-deep-ratios-rank1": ratio_text(deep1, 5),
            "lg-nonlinear-authors-shallow-later": "; ".join(shallow_later) or "none",
            "lg-nonlinear-ours-deep": "; ".join(f"rank {r}: {np.exp(v['upper'].mean()):.2f}"
                                                for (r, s), v in deep_ours.items())}
