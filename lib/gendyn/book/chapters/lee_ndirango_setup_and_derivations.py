"""Figures and claims of the chapter ``notebooks/lee-ndirango/setup-and-derivations.md``.

Lee & Ndirango, §2-4 and appendices A-C, as reconstructed in the chapter. The notebook draws at random
(its generator, in the order of its cells) and computes: the agreement of noisy and clean labels
(:func:`gendyn.multitask_train.label_agreement`), Gaussian integration by parts (14) (Monte Carlo batches
of M, :func:`gendyn.softmax_multitask.softmax_curvature_batches`, against autograd of the sampled loss,
:func:`gendyn.multitask_train.sampled_loss_gradient`), the spectrum of M (13), the rank-one curvature f(s)
(15) and what (16) neglects, the conservation law (9) and decreasing loss (10)
(:func:`gendyn.softmax_multitask.two_layer_gradient_descent`), relatedness (4) and the bound (5)
(:func:`gendyn.softmax_multitask.rank_one_benefit_bound`). This module keeps what is the chapter's own: its
figures and its three claims, which compare the theory with sampling. The identities and exact properties
are unit tests (``tests/test_lee_ndirango_setup.py``); the chapter only prints them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from gendyn import multitask_train as mt
from gendyn import softmax_multitask as sm
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig
from gendyn.book.stats import t_quantile

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS", "F_CHECK_S", "figure_label_agreement",
           "check_labels_near_chance", "check_stein_14", "figure_m_spectrum", "figure_f_of_s", "check_f_monte_carlo",
           "figure_bound_5"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019) §2-4, App. A-C: the reconstructed theory, checked numerically.
    """

    mc_samples: int  #: Monte Carlo inputs of the Gaussian averages: Stein's identity (14), f, the spectrum of M(W)
    label_samples: int  #: inputs labelled at each SNR for the agreement of noisy and clean labels
    near_chance_samples: int  #: labels at the smallest SNR for the first-order agreement claim


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(mc_samples=2**20, label_samples=100_000, near_chance_samples=4_000_000),
    "smoke": Sizes(mc_samples=2**15, label_samples=20_000, near_chance_samples=1_000_000),
}

_SM = "gendyn.softmax_multitask"
#: Student singular values s at which f(s) of (15) is compared with a Monte Carlo estimate of M (13).
F_CHECK_S = (0.5, 2.0, 8.0)


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["labels-near-chance", "stein-14", "f-15-monte-carlo"]


#: The theory the claims test, and the error each should see at smoke scale: the near-chance claim resolves
#: the first-order term to about 40 % (1e6 labels); (14) is resolved to 5-8 % and (15) to 1-3 % by their Monte
#: Carlo (standard errors from independent batches).
MUTATIONS = (
    Mutation(f"{_SM}.label_agreement_excess", 0.6,
             why="first-order agreement of noisy and clean labels: resolved to about 40 % by 1e6 labels"),
    Mutation(f"{_SM}.softmax_curvature", 0.1, why="M (13) by Monte Carlo: (14) resolves 5-8 %, (15) 1-3 %"),
    Mutation(f"{_SM}.ta_curvature", -0.05, why="f(s) (15) by quadrature: the Monte Carlo resolves 1-2 %"),
)


def figure_label_agreement(labels: mt.LabelAgreement) -> Figure:
    """P(noisy label = clean label) against the teacher's singular value, with chance 1/K and the paper's grid."""
    fig, ax = plotting.subplots(1, 1, height=3.2)
    ax.semilogx(labels.s_a, labels.agree, "o-", ms=3, label="Monte Carlo")
    ax.axhline(0.1, color="k", ls=":", lw=1, label="chance, $1/K$")
    for s in mt.SNR_GRID:
        ax.axvline(s, color="0.8", lw=0.8, zorder=0)
    ax.set(xlabel="teacher singular value $\\bar s$ (grey: the paper's grid)",
           ylabel="P(noisy label = clean label)",
           title="rank-10 teacher, $N = 20$, noise std $1/\\sqrt{N}$")
    ax.legend()
    return fig


def check_labels_near_chance(ledger: Ledger, sbar: float, measured: float, predicted: float, n_labels: int) -> None:
    """Claim: at the smallest SNR ``sbar`` the labels agree more often than chance (``measured``: the excess over
    1/K of ``n_labels`` labels) by the first-order term mu_K^2/(K-1) sbar sqrt(N) (``predicted``), within four
    binomial standard errors plus the second-order term."""
    eps = sbar * math.sqrt(20)
    ledger.check(
        "labels-near-chance",
        f"Excess over chance 1/K of the agreement of noisy and clean labels at sbar = {sbar:.3g}: "
        "first-order term mu_K^2/(K-1) sbar sqrt(N)",
        measured=measured, predicted=predicted,
        tolerance=4 * math.sqrt(0.1 * 0.9 / n_labels) + eps**2, kind="absolute",
        reason=f"4 binomial standard errors over {n_labels} labels, plus the second-order term, "
        f"below eps^2 = {eps**2:.1e}.",
        theory=f"{_SM}.label_agreement_excess",
    )


def check_stein_14(ledger: Ledger, sampled: mt.SampledGradient, formula: np.ndarray, formula_se: np.ndarray, *,
                   batches: int) -> None:
    """Claim (14): autograd of the Monte Carlo log-sum-exp (``sampled``) equals M(W) W Sigma (``formula``, the
    mean of ``batches`` independent batches, standard error ``formula_se``); the largest standardised difference
    of the entries stays below the Bonferroni quantile at family-wise level 1e-3. Prints the sizes."""
    autograd = sampled.mean
    combined_se = np.sqrt(sampled.stderr**2 + formula_se**2)
    z_scores = np.abs(autograd - formula) / combined_se
    ledger.check(
        "stein-14",
        "Gaussian integration by parts (14): autograd of the Monte Carlo loss = M(W) W Sigma, largest standardised "
        "difference",
        measured=z_scores.max(), predicted=0.0, tolerance=t_quantile(z_scores.size, batches - 1), kind="upper",
        reason=f"Each of the {z_scores.size} entries has a Gaussian Monte Carlo error with the measured standard error "
        f"({sampled.n_samples} samples each side; M's from the spread of {batches} independent batches); Bonferroni "
        f"quantile at family-wise level 1e-3 (Student t, {batches - 1} dof, the less certain side). Reference: the "
        "largest entry of M W Sigma in units of its standard error.",
        theory=f"{_SM}.softmax_curvature", reference=float(np.max(np.abs(formula) / combined_se)),
    )
    print(f"largest |autograd - formula| = {np.abs(autograd - formula).max():.2e} "
          f"(entries of size {np.abs(formula).max():.2f}); largest z = {z_scores.max():.2f}")


def figure_m_spectrum(scales_w: np.ndarray, evals: np.ndarray) -> Figure:
    """The nine nonzero eigenvalues ``evals`` (ascending) of M(W) against the scale of W, and the zero mode at the
    axis floor."""
    # The zero mode's eigenvalues are float64 rounding (|value| < 1e-15): drawn at the floor of the
    # axis, so that they do not stretch it over fifteen decades.
    floor = 10 ** np.floor(np.log10(evals[:, 1:].min()) - 1)
    fig, ax = plotting.subplots(1, 1, height=3.2)
    ax.loglog(scales_w, evals[:, 1:], "o-", ms=2, lw=0.8, color=plotting.COLORS[0], alpha=0.6)
    ax.plot([], [], "o-", ms=2, lw=0.8, color=plotting.COLORS[0], label="the other nine eigenvalues")
    ax.plot(scales_w, np.full(len(scales_w), floor), "v", color=plotting.COLORS[1], clip_on=False,
            label=f"zero mode: |eigenvalue| $\\leq$ {np.abs(evals[:, 0]).max():.0e}, drawn at the floor")
    ax.set(ylim=(floor, None), xlabel="scale of $W$ ($\\|W\\|_F/\\sqrt{K}$)",
           ylabel="eigenvalues of $M(W)$", title="(13): one zero mode, the rest shrink as $W$ grows")
    ax.legend()
    return fig


def figure_f_of_s(s_grid: np.ndarray, us: Mapping[str, np.ndarray], f: Mapping[str, np.ndarray],
                  off_diag: Mapping[str, np.ndarray]) -> Figure:
    """(15): f(s); the softmax term of (3) over its clean-label limit; and what (16) neglects (the off-diagonal
    ratio), on the grid ``s_grid``, one line per class direction of ``us``."""
    fig, axes = plotting.subplots(1, 3, height=3.0)
    for name, u in us.items():
        axes[0].loglog(s_grid, f[name], label=name)
        axes[1].semilogx(s_grid, f[name] * s_grid / sm.clean_rank1_signal(u))
        axes[2].loglog(s_grid, off_diag[name] + 1e-16)  # zero for the symmetric mode: below the axis
    axes[0].set(xlabel="$s$", ylabel="$f(s)$", title="(15): $f(s) = u^T M u$", ylim=(1e-4, 0.5))
    axes[1].set(xlabel="$s$", ylabel="$f(s)\\,s$ / clean-label $\\hat\\sigma$",
                title="softmax term of (3)")
    axes[2].set(xlabel="$s$", ylabel="$\\|(I-uu^T)Mu\\| / u^TMu$", title="what (16) neglects",
                ylim=(1e-4, 2))
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=3)
    return fig


def check_f_monte_carlo(ledger: Ledger, quad: np.ndarray, mc: np.ndarray, mc_se: np.ndarray, *, mc_samples: int,
                        batches: int) -> None:
    """Claim (15): f(s) by quadrature (``quad``) equals u^T M(s u v^T) u with M estimated by Monte Carlo (13)
    (``mc``, standard error ``mc_se`` from ``batches`` independent batches of ``mc_samples`` inputs in all) at the
    s of :data:`F_CHECK_S`; the largest standardised difference stays below the Bonferroni quantile at
    family-wise level 1e-3."""
    z_scores = np.abs(quad - mc) / mc_se
    ledger.check(
        "f-15-monte-carlo",
        f"(15): f(s) by quadrature = u^T M(s u v^T) u by Monte Carlo (13), K = 10, s = "
        f"{', '.join(f'{v_:g}' for v_ in F_CHECK_S)}: largest standardised difference",
        measured=z_scores.max(), predicted=0.0, tolerance=t_quantile(z_scores.size, batches - 1), kind="upper",
        reason=f"Monte Carlo error of u^T M u from the spread of {batches} independent batches ({mc_samples} inputs "
        f"in all, antithetic); quadrature error ~1e-11; Bonferroni quantile at family-wise level 1e-3 (Student t, "
        f"{batches - 1} dof). Reference: the largest f(s) in units of its standard error (a uniform relative error "
        "of f is seen first there).",
        theory=(f"{_SM}.ta_curvature", f"{_SM}.softmax_curvature"), reference=float(np.max(np.abs(quad) / mc_se)),
    )
    print("f(s): " + ", ".join(f"s = {v_:g}: quadrature {q:.5f}, Monte Carlo {c:.5f} +- {e:.5f}"
                               for v_, q, c, e in zip(F_CHECK_S, quad, mc, mc_se)))


def figure_bound_5(bound: sm.RankOneBound) -> Figure:
    """The benefit (solid) and its bound (5) (dashed) against s_MT for three values of s_ST."""
    fig, ax = plotting.subplots(1, 1, height=3.4)
    for k, i in enumerate((8, 20, 32)):
        ax.plot(bound.s, bound.benefit[i], color=plotting.COLORS[k],
                label=f"$s^{{ST}}$ = {bound.s[i]:.2g}")
        ax.plot(bound.s, bound.bound[i], ls="--", color=plotting.COLORS[k])
    ax.axvline(bound.s_opt, color="k", ls=":", lw=1, label="generalisation-optimal $s$")
    ax.set(xscale="log", ylim=(-0.6, 0.4), xlabel="$s^{MT}$",
           ylabel="benefit (solid), bound (5) (dashed)", title="rank-one TA students")
    ax.legend(fontsize=7)
    return fig
