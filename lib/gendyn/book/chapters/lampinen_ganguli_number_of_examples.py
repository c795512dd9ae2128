"""Theory grid, runner, figures and claims of the chapter "The number of training examples".

Serves ``notebooks/lampinen-ganguli/number-of-examples.ipynb`` (Lampinen & Ganguli App. G, Fig. 13):
a rank-1 teacher labels :math:`P` examples of :math:`N_1` inputs, full-rank TA students learn them,
and their optimal and converged test errors are compared with :mod:`gendyn.sampling` (eq. 27 with
the factor :math:`\\sqrt{\\mathcal D}`, and as printed) in the under- and oversampled regimes.

Two dicts carry the chapter's results: the *theory* of :func:`theory_grid` (the grid of
:math:`P` and SNRs and the theory on it) and the *simulation* of :func:`train_students`
(learning curves and their optimal and converged errors, indexed kind of input, :math:`P`, SNR, run).
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import torch
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ... import deep_linear, rmt, sampling, task_data, teachers, train
from .. import plotting
from ..claims import Ledger
from ..mutation import Mutation
from ..scales import RunConfig
from ..stats import mean_se, weighted_mean_z, z_quantile

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "theory_grid", "figure_theory", "train_students", "figure_13", "check_optimal_error",
           "fit_speedup_exponent", "check_speedup", "equal_snr_differences", "check_collapse_fails",
           "check_asymptotic_error", "check_gaussian_inputs"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lampinen & Ganguli (2019) App. G, Fig. 13: P examples in N1 dimensions.
    """

    n1: int  #: inputs N1
    densities: tuple[float, ...]  #: examples per input, P / N1
    svms: tuple[float, ...]  #: teacher singular values (SNRs)
    runs: int  #: data sets per density and SNR
    lr: float  #: learning rate
    horizon: float  #: training time t / tau
    n_records: int  #: recorded epochs


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n1=100, densities=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),  # P = 20, 40, ..., 200
        svms=(2.0, 3.0, 4.0), runs=10, lr=2e-2, horizon=10.0, n_records=200,
    ),
    "smoke": Sizes(
        n1=40, densities=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        svms=(2.0, 3.0, 4.0), runs=4, lr=2e-2, horizon=10.0, n_records=150,
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["optimal-error-undersampled", "optimal-error-oversampled", "eq27-as-printed-rejected",
            "oversampled-speedup-exponent", "oversampled-speedup-D-rejected", "collapse-fails-below-N1",
            "collapse-fails-below-N1-significant", "asymptotic-peak-at-P-equal-N1", "asymptotic-error-theory",
            "gaussian-vs-orthogonal-correlation", "gaussian-inputs-worse"]


#: The theory the claims test, and the error each should see at smoke scale (N1 = 40, 4 runs): the optimal
#: error within z SE + 1/N1 = 2.5 %, about 16 % of it in all; a difference of two optimal errors (the
#: collapse) within about 40 %; the converged error within z SE + N1^-1/2 = 16 % (finite size).
MUTATIONS = (
    Mutation("gendyn.sampling.optimal_test_error", 0.2, output=1,
             why="corrected eq. (27), optimal error: resolved to about 16 % at N1 = 40 and 4 runs (z SE + 1/N1)"),
    Mutation("gendyn.sampling.optimal_test_error", -0.4, output=1,
             why="the collapse claim compares differences of two optimal errors, resolved to about 40 % at 4 runs"),
    Mutation("gendyn.sampling.asymptotic_test_error", 0.3,
             why="converged error: its finite-size allowance is N1^-1/2 = 16 % at N1 = 40, so 30 % is the "
             "smallest error the claim can see there"),
)


def theory_grid(n1: int, densities: tuple[float, ...], svms: tuple[float, ...], *, eps: float,
                horizon: float) -> dict:
    """The chapter's grid of :math:`P` and SNRs, and the optimal and converged test errors of the theory on it.

    Parameters
    ----------
    n1 : int
        Number of inputs :math:`N_1` (also :math:`N_2 = N_3`).
    densities : tuple of float
        The ratios :math:`\\mathcal D = P/N_1` to run (rounded to whole numbers of examples).
    svms : tuple of float
        Teacher singular values :math:`\\bar s`.
    eps : float
        Initial singular value of the TA students.
    horizon : float
        Training time :math:`t/\\tau`; the theory curves are drawn up to it.

    Returns
    -------
    dict
        ``n1``, ``eps``, ``ps`` (sorted list of :math:`P`), ``svms``, ``dens`` (:math:`P/N_1`),
        ``t_plot`` (times of the theory curves), ``opt`` (optimal stopping time and error,
        SNR x :math:`P` x 2, :func:`gendyn.sampling.optimal_test_error`), ``asym`` (converged
        error, SNR x :math:`P`, :func:`gendyn.sampling.asymptotic_test_error`) and ``mid`` (index
        of the SNR nearest 3, drawn in the learning-curve panels).
    """
    ps = sorted({int(round(d * n1)) for d in densities})
    svms = np.array(svms)
    # optimal stopping (time, error): svm, P, 2
    opt_th = np.array([[sampling.optimal_test_error([s], n1, p, eps) for p in ps] for s in svms])
    asym_th = np.array([[sampling.asymptotic_test_error([s], n1, p, eps) for p in ps] for s in svms])
    return dict(n1=n1, eps=eps, ps=ps, svms=svms, dens=np.array(ps) / n1, t_plot=np.geomspace(1e-2, horizon, 300),
                opt=opt_th, asym=asym_th, mid=int(np.argmin(np.abs(svms - 3.0))))


def figure_theory(theory: dict) -> Figure:
    """The theory of App. G: test error during training for several :math:`P`, optimal and converged error vs :math:`P`.

    Dotted curves: eq. (27) as printed, for :math:`P < N_1`. ``theory`` is the dict of :func:`theory_grid`.
    """
    n1, eps, ps, svms, dens, t_plot = (theory[k] for k in ("n1", "eps", "ps", "svms", "dens", "t_plot"))
    opt_th, asym_th, mid = theory["opt"], theory["asym"], theory["mid"]
    fig, axes = plotting.subplots(1, 3, height=2.9)
    for k, p in enumerate(ps[:: max(1, len(ps) // 5)]):
        axes[0].plot(t_plot, sampling.test_error(t_plot, [svms[mid]], n1, p, eps),
                     color=plt.cm.viridis(k / 5), label=f"P = {p}")
        if p < n1:
            axes[0].plot(t_plot, sampling.test_error(t_plot, [svms[mid]], n1, p, eps, as_printed=True),
                         ":", color=plt.cm.viridis(k / 5))
    axes[0].set(xscale="log", yscale="log", xlabel="$t/\\tau$", ylabel="test error",
                title=f"test error, $\\bar s$ = {svms[mid]:g}")
    axes[0].legend(fontsize=7)
    for i, s in enumerate(svms):
        axes[1].plot(np.sqrt(dens), opt_th[i, :, 1], "-o", ms=3, label=f"$\\bar s$ = {s:g}")
        axes[2].plot(dens, asym_th[i], "-o", ms=3, label=f"$\\bar s$ = {s:g}")
    axes[1].set(xlabel="$\\sqrt{P/N_1}$", ylabel="optimal test error", yscale="log",
                title="optimal early stopping")
    axes[2].set(xlabel="$P/N_1$", ylabel="test error at $t \\to \\infty$", yscale="log",
                title="after convergence")
    axes[1].legend()
    plotting.plain_log_ticks(axes[2].yaxis, minor=True)  # the axis spans about a decade
    return fig


def train_students(theory: dict, *, runs: int, lr: float, horizon: float, n_records: int, seed: int,
                   device: str) -> dict:
    """Train TA students on ``runs`` sampled tasks per (kind of input, :math:`P`, SNR) of the theory grid.

    Teachers and training sets (:func:`gendyn.task_data.sampled_task`) are drawn in that order
    from one generator seeded with ``seed``; all sets train in one batch, padded with zero
    examples (:func:`gendyn.task_data.stack_examples`). The converged state is computed
    directly (:func:`gendyn.task_data.converged_map`).

    Parameters
    ----------
    theory : dict
        The grid of :func:`theory_grid`.
    runs : int
        Number of tasks per setting.
    lr, horizon : float
        Learning rate and training time :math:`t/\\tau`.
    n_records : int
        Number of recorded times.
    seed : int
        Seed of the teachers and training sets.
    device : str
        Torch device of the training.

    Returns
    -------
    dict
        ``t`` (recorded times), ``curves`` (test error, kind x :math:`P` x SNR x run x time),
        ``best`` (its minimum over time), ``asym`` (converged test error, kind x :math:`P` x SNR
        x run) and ``sigma31_norm`` (the largest :math:`\\|\\Sigma^{31}\\|`, which bounds the curvature).
    """
    n1, eps, ps, svms = theory["n1"], theory["eps"], theory["ps"], theory["svms"]
    gen = torch.Generator().manual_seed(seed)
    kinds = task_data.INPUT_KINDS  # ("orthogonal", "gaussian")
    index = [(kind, p, s) for kind in kinds for p in ps for s in svms]
    datasets, teachers_all = [], []
    for kind, p, s in index:
        teacher = teachers.low_rank_teacher(torch.full((runs, 1), float(s), dtype=torch.float64), n1,
                                            n1, generator=gen)
        datasets.append(task_data.sampled_task(teacher.matrix, p, kind, generator=gen))
        teachers_all.append(teacher.matrix)
    inputs, targets = task_data.stack_examples(datasets)
    wbar = torch.cat(teachers_all)
    result = train.train_students(
        (inputs.float(), targets.float()), hidden=n1, lr=lr,
        epochs=int(round(horizon / lr)), init="aligned", eps=eps, teacher=wbar.float(),
        n_records=n_records, check_stability=False, device=device,
        desc=f"{len(wbar)} students, P = {ps[0]}..{ps[-1]}",
    )
    shape = (len(kinds), len(ps), len(svms), runs)
    curves = result.test_error.reshape(*shape, -1)
    w0 = train.composite_map(train.init_weights((targets @ inputs.mT), n1, 3, "aligned", eps,
                                                dtype=torch.float64))
    w_inf = task_data.converged_map(inputs, targets, w0)
    asym = deep_linear.linear_test_error(w_inf, wbar).reshape(shape)
    sigma31_norm = torch.linalg.matrix_norm(targets @ inputs.mT, ord=2).max().item()
    return dict(t=result.time, curves=curves, best=curves.min(-1), asym=asym, sigma31_norm=sigma31_norm)


def figure_13(theory: dict, sim: dict) -> Figure:
    """Fig. 13: theory (lines) and simulation of the test error against the number of examples.

    (a) learning curves at :math:`\\bar s \\approx 3` for each :math:`P` (orthogonalised inputs);
    (b, c) optimal early-stopping error against :math:`\\sqrt{P/N_1}` and SNR :math:`\\cdot\\sqrt{P/N_1}`;
    (d) converged error; (e) Gaussian against orthogonalised inputs. Inputs: the dicts of
    :func:`theory_grid` and :func:`train_students`.
    """
    n1, eps, ps, svms, dens, t_plot = (theory[k] for k in ("n1", "eps", "ps", "svms", "dens", "t_plot"))
    opt_th, asym_th, mid = theory["opt"], theory["asym"], theory["mid"]
    t, curves, best, asym = sim["t"], sim["curves"], sim["best"], sim["asym"]
    fig, axes = plotting.subplots(2, 3, height=5.4)
    ax_a, ax_b, ax_c, ax_d, ax_e, ax_key = axes.flat
    p_color = {p: plt.cm.viridis(k / max(len(ps) - 1, 1)) for k, p in enumerate(ps)}
    for k, p in enumerate(ps):
        ax_a.plot(t[1:], curves[0, k, mid].mean(0)[1:], "o", ms=1.5, color=p_color[p], alpha=0.6)
        ax_a.plot(t_plot, sampling.test_error(t_plot, [svms[mid]], n1, p, eps), color=p_color[p], lw=1)
    ax_a.set(xscale="log", yscale="log", xlabel="$t/\\tau$", ylabel="test error",
             title=f"(a) $\\bar s$ = {svms[mid]:g}")
    for i, s in enumerate(svms):
        color = plotting.COLORS[i]
        for kind_i, marker in ((0, "o"), (1, "x")):
            m, se = mean_se(best[kind_i, :, i])
            ax_b.errorbar(np.sqrt(dens), m, yerr=se, fmt=marker, ms=3.5, color=color, alpha=0.8)
            ax_c.errorbar(s * np.sqrt(dens), m, yerr=se, fmt=marker, ms=3.5, color=color, alpha=0.8)
            m, se = mean_se(asym[kind_i, :, i])
            if kind_i == 0:
                ax_d.errorbar(dens, m, yerr=se, fmt=marker, ms=3.5, color=color)
        ax_b.plot(np.sqrt(dens), opt_th[i, :, 1], color=color, lw=1)
        ax_c.plot(s * np.sqrt(dens), opt_th[i, :, 1], color=color, lw=1)
        ax_d.plot(dens, asym_th[i], color=color, lw=1)
    for ax, x, title in ((ax_b, "$\\sqrt{P/N_1}$", "(b)"), (ax_c, "SNR $\\cdot\\sqrt{P/N_1}$", "(c)")):
        ax.set(xlabel=x, ylabel="optimal test error", yscale="log", title=title)
    ax_d.set(xlabel="$P/N_1$", ylabel="test error, $t\\to\\infty$", yscale="log",
             title="(d) after convergence")
    plotting.plain_log_ticks(ax_d.yaxis, minor=True)  # the axis spans about a decade
    m_o, m_g = best[0].mean(-1), best[1].mean(-1)
    ax_e.loglog(m_o.ravel(), m_g.ravel(), "o", ms=4)
    lim = np.array([min(m_o.min(), m_g.min()) * 0.8, 1.2])
    ax_e.plot(lim, lim, "k:", lw=1)
    ax_e.set(xlabel="orthogonalised", ylabel="Gaussian", title="(e) optimal errors")
    ax_key.axis("off")
    key = [Line2D([], [], color=plotting.COLORS[i], lw=1, label=f"$\\bar s$ = {s:g}")
           for i, s in enumerate(svms)]
    key += [Line2D([], [], ls="", marker="o", color="gray", label="orthogonalised"),
            Line2D([], [], ls="", marker="x", color="gray", label="Gaussian")]
    key += [Line2D([], [], color=p_color[p], lw=1, label=f"(a) P = {p}")
            for k, p in enumerate(ps) if k % 3 == 0]
    ax_key.legend(handles=key, loc="center")
    return fig


def _regimes(theory):
    """Indices of the :math:`P` below and at or above :math:`N_1`."""
    ps, n1 = theory["ps"], theory["n1"]
    return [i for i, p in enumerate(ps) if p < n1], [i for i, p in enumerate(ps) if p >= n1]


def check_optimal_error(ledger: Ledger, theory: dict, sim: dict) -> None:
    """Claims: the optimal test error agrees with eq. (27) corrected in both regimes, and rejects (27) as printed.

    Orthogonalised inputs; the deviation of the mean over runs is measured in units of
    :math:`z` standard errors (Bonferroni over the regime) plus :math:`\\varepsilon/N_1`, with
    :math:`\\varepsilon` the measured mean (so that the allowance does not grow with the theory it tests).
    Inputs: the dicts of :func:`theory_grid` and :func:`train_students`.
    """
    n1, eps, ps, svms, opt_th = (theory[k] for k in ("n1", "eps", "ps", "svms", "opt"))
    best = sim["best"]
    runs = best.shape[-1]
    under, over = _regimes(theory)
    m_all, se_all = mean_se(best[0])
    for name, sel in (("undersampled", under), ("oversampled", over)):
        z = z_quantile(len(sel) * len(svms))
        th = opt_th[:, sel, 1].T
        tol = z * se_all[sel] + m_all[sel] / n1
        ledger.check(
            f"optimal-error-{name}",
            f"{name.capitalize()} regime (P {'<' if name == 'undersampled' else '>='} N1), orthogonalised inputs: "
            "largest |mean optimal test error - theory| in units of its tolerance",
            measured=np.max(np.abs(m_all[sel] - th) / tol), predicted=0.0, tolerance=1.0, kind="upper",
            theory="gendyn.sampling.optimal_test_error", reference=float(np.max(th / tol)),
            reason=f"z = {z:.2f} (Bonferroni over {th.size} settings, level 1e-3) x standard error over {runs} runs "
            "+ O(1/N1) relative bias of the measured error.",
        )
    printed = np.array([[sampling.test_error(np.geomspace(1e-3, 100, 4000), [s], n1, ps[j], eps,
                                             as_printed=True).min() for j in under] for s in svms]).T
    z = z_quantile(len(under) * len(svms))
    ledger.check(
        "eq27-as-printed-rejected",
        "Undersampled regime: largest |mean optimal test error - minimum of eq. (27) as printed| in units of the "
        "same tolerance (above 1: the printed form is rejected)",
        measured=np.max(np.abs(m_all[under] - printed) / (z * se_all[under] + m_all[under] / n1)), predicted=1.0,
        tolerance=0.0, kind="lower", category="finding",
        reason="A disagreement with the paper, stated as such: the printed cross term lacks the factor "
        "sqrt(D) = ||P vbar||; the tolerance is that of the claims above.",
    )


def fit_speedup_exponent(theory: dict, sim: dict, *, lr: float, seed: int) -> dict:
    """Fit the exponent :math:`\\gamma` of the oversampled speed-up: time :math:`\\mathcal D^\\gamma t` on top of the
    SNR boost.

    The model of each oversampled setting (:math:`P > N_1`) is the boosted :math:`\\mathcal D = 1`
    theory (:func:`gendyn.deep_linear.theory_errors`) at time :math:`\\mathcal D^\\gamma t`, shifted
    by the gradient-descent lag; :math:`\\gamma` on a grid of step 0.01 in [0, 1.5] minimises the
    squared log error of the mean curves over the drop of the error (before the theory's
    optimum, errors between 1.5 times the minimum and 0.9), jointly over the settings.

    Parameters
    ----------
    theory, sim : dict
        The dicts of :func:`theory_grid` and :func:`train_students`.
    lr : float
        The learning rate of the simulation (for the lag).
    seed : int
        Seed of the bootstrap over runs (100 resamples).

    Returns
    -------
    dict
        ``gamma`` (the fit), ``se`` (its bootstrap standard error) and ``tolerance`` (3 standard
        errors plus :math:`1/(N_1\\ln\\mathcal D_{\\max})`, the shift of a relative bias :math:`1/N_1`).
    """
    n1, eps, ps, svms, opt_th = (theory[k] for k in ("n1", "eps", "ps", "svms", "opt"))
    t, curves = sim["t"], sim["curves"]
    runs = curves.shape[3]
    gammas = np.linspace(0.0, 1.5, 151)
    over_strict = [j for j in _regimes(theory)[1] if ps[j] > n1]
    model = {}  # (j, i) -> (window mask, model log-curves for every gamma)
    for j in over_strict:
        d = ps[j] / n1
        for i, s in enumerate(svms):
            shat_boost = float(rmt.spike_singular_value(np.sqrt(d) * s, 1.0))
            lag = float(deep_linear.gd_lag(shat_boost, np.sqrt(d) * eps, lr * np.sqrt(d),
                                           s=shat_boost / 2)) / np.sqrt(d)
            base = sampling.test_error(np.maximum(t - lag, 0), [s], n1, ps[j], eps)
            window = (t < opt_th[i, j, 0]) & (base < 0.9) & (base > 1.5 * opt_th[i, j, 1])
            boosted = np.stack([deep_linear.theory_errors(d**g * np.maximum(t[window] - lag, 0),
                                                          np.sqrt(d) * np.array([s]), n1, n1, n1,
                                                          np.sqrt(d) * eps)[1]
                                for g in gammas])
            model[j, i] = (window, np.log(boosted))

    def fit_gamma(sample):
        """Least-squares exponent for mean curves built from the runs chosen by sample(j, i)."""
        cost = np.zeros(gammas.size)
        for (j, i), (window, log_model) in model.items():
            m = curves[0, j, i][sample(j, i)].mean(0)[window]
            cost += ((np.log(m)[None, :] - log_model) ** 2).sum(-1)
        return gammas[cost.argmin()]

    boot = np.random.default_rng(seed)
    gamma_hat = fit_gamma(lambda j, i: slice(None))
    gamma_boot = [fit_gamma(lambda j, i: boot.integers(0, runs, runs)) for _ in range(100)]
    gamma_tol = 3 * np.std(gamma_boot, ddof=1) + 1 / (n1 * np.log(max(ps) / n1))
    return dict(gamma=gamma_hat, se=np.std(gamma_boot, ddof=1), tolerance=gamma_tol)


def check_speedup(ledger: Ledger, fit: dict) -> None:
    """Claims: the oversampled speed-up exponent is 1/2 (:math:`\\mathcal D^{1/k}`, :math:`k = 2`), not App. G's 1.

    ``fit`` is the dict of :func:`fit_speedup_exponent`.
    """
    gamma_hat, gamma_tol = fit["gamma"], fit["tolerance"]
    ledger.check(
        "oversampled-speedup-exponent",
        "P > N1: fitted speed-up exponent gamma (time D^gamma t on top of the SNR boost) vs 1/2",
        measured=gamma_hat, predicted=0.5, tolerance=gamma_tol, kind="absolute", category="finding",
        reason="3 bootstrap standard errors over runs + the shift 1/(N1 ln D_max) of a relative "
        "finite-size bias 1/N1 of the learning time; the fit grid of gamma has step 0.01. A finding (ours): the "
        "exponent 1/2 is derived in the text (the boosted problem's time scale), not carried by a theory function "
        "the harness could perturb; the theory curves it fits are deep_linear.theory_errors, tested elsewhere.",
    )
    ledger.check(
        "oversampled-speedup-D-rejected",
        "P > N1: distance of the fitted gamma from 1 (App. G's further speed-up by D), in units of the "
        "same tolerance",
        measured=abs(gamma_hat - 1.0) / gamma_tol, predicted=1.0, tolerance=0.0, kind="lower", category="finding",
        reason="Above 1: the reading 'speed-up by D on top of the boosted SNR' (App. G) is rejected; a "
        "disagreement with the paper, stated as such.",
    )


def equal_snr_differences(theory: dict, sim: dict) -> list[tuple]:
    """Differences of optimal errors between settings of equal :math:`\\bar s\\sqrt{\\mathcal D}`, measured and
    predicted.

    The pairs :math:`(\\bar s, \\mathcal D)` = (4, 0.2) vs (2, 0.8) and (4, 0.4) vs (2, 1.6), those
    on the grid (orthogonalised inputs). Returns ``(measured mean, its standard error, theory,
    label)`` per pair. Inputs: the dicts of :func:`theory_grid` and :func:`train_students`.
    """
    n1, ps, svms, opt_th = (theory[k] for k in ("n1", "ps", "svms", "opt"))
    best = sim["best"]
    runs = best.shape[-1]
    pairs = [((4.0, 0.2), (2.0, 0.8)), ((4.0, 0.4), (2.0, 1.6))]
    diffs = []
    for (s1, d1), (s2, d2) in pairs:
        if s1 not in svms or s2 not in svms or round(d1 * n1) not in ps or round(d2 * n1) not in ps:
            continue
        i1, j1 = int(np.flatnonzero(svms == s1)[0]), ps.index(round(d1 * n1))
        i2, j2 = int(np.flatnonzero(svms == s2)[0]), ps.index(round(d2 * n1))
        dm = best[0, j1, i1].mean() - best[0, j2, i2].mean()
        dse = np.sqrt(best[0, j1, i1].var(ddof=1) / runs + best[0, j2, i2].var(ddof=1) / runs)
        dth = opt_th[i1, j1, 1] - opt_th[i2, j2, 1]
        diffs.append((dm, dse, dth, f"({s1:g}, {d1:g}) vs ({s2:g}, {d2:g})"))
    return diffs


def check_collapse_fails(ledger: Ledger, diffs: list[tuple], *, n1: int, runs: int) -> None:
    """Claims: below :math:`P = N_1` the SNR :math:`\\cdot\\sqrt{P/N_1}` collapse fails, as the theory predicts.

    The measured differences of :func:`equal_snr_differences` agree with the theory's (within
    :math:`z` standard errors plus :math:`O(1/N_1)`) and are significantly positive.
    ``n1`` and ``runs`` are the simulation's :math:`N_1` and runs per setting.
    """
    z = z_quantile(len(diffs))
    ledger.check(
        "collapse-fails-below-N1",
        "Equal SNR sqrt(P/N1): largest |measured - predicted difference of optimal errors| in units of its tolerance "
        f"({'; '.join(x[3] for x in diffs)})",
        measured=max(abs(dm - dth) / (z * dse + abs(dm) / n1) for dm, dse, dth, _ in diffs), predicted=0.0,
        tolerance=1.0, kind="upper", theory="gendyn.sampling.optimal_test_error",
        reference=max(abs(dth) / (z * dse + abs(dm) / n1) for dm, dse, dth, _ in diffs),
        reason=f"z = {z:.2f} (Bonferroni, level 1e-3) x standard error of the difference over {runs} runs each "
        "+ O(1/N1) of the measured difference.",
    )
    ledger.check(
        "collapse-fails-below-N1-significant",
        "Smallest z-statistic of those differences (the undersampled student is worse, > 3.09)",
        measured=min(dm / dse for dm, dse, _, _ in diffs), predicted=0.0, tolerance=z_quantile(1, sides=1),
        kind="above", category="finding", reason="One-sided test at level 1e-3 that the separation is real.",
    )


def check_asymptotic_error(ledger: Ledger, theory: dict, sim: dict) -> None:
    """Claims: the converged test error peaks at :math:`P = N_1` for every SNR and agrees with the theory.

    Orthogonalised inputs; tolerance :math:`z` standard errors plus a relative :math:`N_1^{-1/2}`.
    Inputs: the dicts of :func:`theory_grid` and :func:`train_students`.
    """
    n1, ps, svms, asym_th = (theory[k] for k in ("n1", "ps", "svms", "asym"))
    asym = sim["asym"]
    runs = asym.shape[-1]
    i_peak = ps.index(n1) if n1 in ps else None
    peaks = sum(int(np.argmax(asym[0, :, i].mean(-1)) == i_peak) for i in range(len(svms)))
    ledger.check(
        "asymptotic-peak-at-P-equal-N1",
        "Number of SNRs for which the converged test error is largest at P = N1 (orthogonalised inputs)",
        measured=peaks, predicted=len(svms), tolerance=0.0, kind="lower", category="finding",
        reason="An ordering of the measured means (the peak is a factor > 1.3 above its neighbours in theory, "
        "many standard errors at these runs); a finding: no multiplicative error of the theory moves its peak.",
    )
    m, se = mean_se(asym[0])
    z = z_quantile(asym_th.size)
    ledger.check(
        "asymptotic-error-theory",
        "Converged test error vs sampling.asymptotic_test_error: largest deviation in units of its tolerance",
        measured=np.max(np.abs(m - asym_th.T) / (z * se + m / np.sqrt(n1))), predicted=0.0, tolerance=1.0,
        kind="upper", theory="gendyn.sampling.asymptotic_test_error",
        reference=float(np.max(asym_th.T / (z * se + m / np.sqrt(n1)))),
        reason=f"z = {z:.2f} (Bonferroni, level 1e-3) x standard error over {runs} runs + relative "
        "N1^-1/2 of the measured error (independent of the theory's value).",
    )


def check_gaussian_inputs(ledger: Ledger, sim: dict) -> dict:
    """Claims (Fig. 13e): Gaussian inputs track orthogonalised ones (Pearson r >= 0.95 of log errors), slightly worse.

    "Worse" is a one-sided test at level 1e-3 of the inverse-variance weighted mean of
    log(Gaussian / orthogonalised optimal error) over the settings. ``sim`` is the dict of
    :func:`train_students`. Returns ``r`` (the correlation) and ``ratio`` (the geometric-mean
    ratio of the two kinds' optimal errors), for the text.
    """
    best = sim["best"]
    runs = best.shape[-1]
    r = np.corrcoef(np.log(best[0].mean(-1)).ravel(), np.log(best[1].mean(-1)).ravel())[0, 1]
    ledger.check(
        "gaussian-vs-orthogonal-correlation",
        "Pearson correlation of log mean optimal errors, Gaussian vs orthogonalised inputs, "
        "across (P, SNR)",
        measured=r, predicted=1.0, tolerance=0.05, kind="lower", category="finding",
        reason="'Strong correlation' (Fig. 13e) made quantitative: r >= 0.95, at least 90% of the variance "
        "shared.",
    )
    log_diff = np.log(best[1]) - np.log(best[0])  # unpaired draws: per setting, difference of run means
    mean_d = log_diff.mean(-1)
    se_d = np.sqrt(np.log(best[1]).var(-1, ddof=1) / runs + np.log(best[0]).var(-1, ddof=1) / runs)
    zstat = weighted_mean_z(mean_d, se_d)
    ledger.check(
        "gaussian-inputs-worse",
        "z-statistic of the inverse-variance weighted mean of log(Gaussian / orthogonalised optimal "
        "error)",
        measured=zstat, predicted=0.0, tolerance=z_quantile(1, sides=1), kind="above", category="finding",
        reason="One-sided test at level 1e-3 of 'slightly higher optimal stopping error' for Gaussian "
        "inputs.",
    )
    return dict(r=float(r), ratio=float(np.exp(mean_d.mean())))
