"""Numerical checks, figures and claims of the chapter ``notebooks/lee-ndirango/setup-and-derivations.ipynb``.

Lee & Ndirango, §2-4 and appendices A-C, as reconstructed in the chapter: the agreement of
noisy and clean labels, Gaussian integration by parts (14), the properties of the matrix
function M (13), the rank-one curvature f(s) of (15) and what (16) neglects, the conservation
law (9) and decreasing loss (10) of gradient descent, task relatedness (4) and the convexity
bound (5). The functions that draw at random take the chapter's generator and must be called
in the chapter's order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from matplotlib.figure import Figure
from scipy import integrate, stats

from gendyn import _random
from gendyn import multitask_train as mt
from gendyn import softmax_multitask as sm
from gendyn.book import plotting
from gendyn.book.claims import Ledger
from gendyn.book.stats import z_quantile

__all__ = ["LabelAgreement", "label_agreement", "figure_label_agreement", "NearChance", "near_chance",
           "check_labels_near_chance", "check_stein_14", "MSpectrum", "m_spectrum", "check_m_properties",
           "figure_m_spectrum", "TACurvatures", "ta_curvatures", "figure_f_of_s", "check_ta_curvature",
           "check_gradient_descent", "check_relatedness", "RankOneBound", "rank_one_bound", "check_bound_5",
           "figure_bound_5"]


@dataclass(frozen=True)
class LabelAgreement:
    """Noisy training labels ``noisy`` (P, S) at teacher SNRs ``snr`` (S), the clean labels ``clean`` (P)
    and the fraction ``agree`` (S) of noisy labels equal to the clean one."""

    snr: np.ndarray
    noisy: np.ndarray
    clean: np.ndarray
    agree: np.ndarray


def label_agreement(seed: int, samples: int) -> LabelAgreement:
    """Labels of a rank-10 teacher (ten classes) on ``samples`` inputs at 41 SNRs from 10^-2.5 to 10^1.5."""
    snr_fine = np.logspace(-2.5, 1.5, 41)
    data = mt.draw_tasks([seed], n_train_a=samples, n_val=samples, rank=10, dtype=torch.float64)
    noisy = data.labels_a(snr_fine)[0].cpu().numpy()  # (P, S)
    clean = (data.x_a[0] @ data.teacher_a[0].T).argmax(-1).cpu().numpy()
    return LabelAgreement(snr_fine, noisy, clean, (noisy == clean[:, None]).mean(0))


def figure_label_agreement(labels: LabelAgreement) -> Figure:
    """P(noisy label = clean label) against the teacher's singular value, with chance 1/K and the paper's grid."""
    fig, ax = plotting.subplots(1, 1, height=3.2)
    ax.semilogx(labels.snr, labels.agree, "o-", ms=3, label="Monte Carlo")
    ax.axhline(0.1, color="k", ls=":", lw=1, label="chance, $1/K$")
    for s in mt.SNR_GRID:
        ax.axvline(s, color="0.8", lw=0.8, zorder=0)
    ax.set(xlabel="teacher singular value $\\bar s$ (grey: the paper's grid)",
           ylabel="P(noisy label = clean label)",
           title="rank-10 teacher, $N = 20$, noise std $1/\\sqrt{N}$")
    ax.legend()
    return fig


@dataclass(frozen=True)
class NearChance:
    """Label agreement at the smallest SNR ``sbar``: ``measured`` over ``n_labels`` labels against
    ``predicted`` = 1/K + mu_K^2/(K-1) eps (K = 10), with ``eps`` = sbar sqrt(N) and ``mu_k`` = E[max of K normals]."""

    sbar: float
    mu_k: float
    eps: float
    measured: float
    predicted: float
    n_labels: int


def near_chance(labels: LabelAgreement) -> NearChance:
    """First-order agreement of noisy and clean labels near chance, at the smallest SNR of ``labels``."""
    mu_k = integrate.quad(lambda x: x * 10 * stats.norm.pdf(x) * stats.norm.cdf(x) ** 9, -12, 12)[0]
    eps = labels.snr[0] * math.sqrt(20)
    low = labels.noisy[:, 0] == labels.clean
    return NearChance(labels.snr[0], mu_k, eps, low.mean(), 0.1 + mu_k**2 / 9 * eps, low.size)


def check_labels_near_chance(ledger: Ledger, chance: NearChance) -> None:
    """Claim: at the smallest SNR the labels agree as 1/K + mu_K^2/(K-1) sbar sqrt(N), within four
    binomial standard errors plus the second-order term."""
    eps = chance.eps
    ledger.check(
        "labels-near-chance",
        f"Agreement of noisy and clean labels at sbar = {chance.sbar:.3g}: "
        "1/K + mu_K^2/(K-1) sbar sqrt(N)",
        measured=chance.measured, predicted=chance.predicted,
        tolerance=4 * math.sqrt(0.1 * 0.9 / chance.n_labels) + eps**2, kind="absolute",
        reason=f"4 binomial standard errors over {chance.n_labels} labels, plus the second-order term, "
        f"below eps^2 = {eps**2:.1e}.",
    )


def check_stein_14(ledger: Ledger, rng: np.random.Generator, *, mc_samples: int, seed: int) -> None:
    """Claim (14): autograd of the Monte Carlo log-sum-exp equals M(W) W Sigma for a random W (K = 5,
    N = 8) and a random correlated Sigma drawn from ``rng``; the largest standardised difference of
    the entries stays below the Bonferroni quantile at family-wise level 1e-3. Prints the sizes.

    Each side uses ``mc_samples`` inputs, drawn with seeds ``seed + 1`` (M) and ``seed + 2`` (autograd).
    """
    k_chk, n_chk = 5, 8
    w_chk = rng.standard_normal((k_chk, n_chk)) * 0.8
    a_chk = rng.standard_normal((n_chk, n_chk))
    sigma_chk = a_chk @ a_chk.T / n_chk + 0.3 * np.eye(n_chk)
    m_chk, m_se = sm.softmax_curvature(w_chk, sigma_chk, n_samples=mc_samples, seed=seed + 1, return_stderr=True)
    formula = m_chk @ w_chk @ sigma_chk
    formula_se = np.sqrt((m_se**2) @ (w_chk @ sigma_chk) ** 2)  # independent entries of M: an upper estimate
    gen = torch.Generator().manual_seed(seed + 2)
    x_mc = _random.randn(mc_samples, n_chk, generator=gen) @ torch.linalg.cholesky(
        torch.tensor(sigma_chk)).T
    w_t = torch.tensor(w_chk, requires_grad=True)
    autograd = torch.autograd.grad(torch.logsumexp(x_mc @ w_t.T, -1).mean(), w_t)[0].cpu().numpy()
    p_mc = torch.softmax(x_mc @ w_t.detach().T, -1)
    autograd_se = (p_mc[:, :, None] * x_mc[:, None, :]).std(0).cpu().numpy() / math.sqrt(mc_samples)
    z_scores = np.abs(autograd - formula) / np.sqrt(autograd_se**2 + formula_se**2)
    ledger.check(
        "stein-14",
        "Gaussian integration by parts (14): autograd of the Monte Carlo loss = M(W) W Sigma, largest standardised "
        "difference",
        measured=z_scores.max(), predicted=z_quantile(z_scores.size), tolerance=0.0, kind="upper",
        reason=f"Each of the {z_scores.size} entries has a Gaussian Monte Carlo error with the measured standard error "
        f"({mc_samples} samples each side); Bonferroni quantile at family-wise level 1e-3.",
    )
    print(f"largest |autograd - formula| = {np.abs(autograd - formula).max():.2e} "
          f"(entries of size {np.abs(formula).max():.2f}); largest z = {z_scores.max():.2f}")


@dataclass(frozen=True)
class MSpectrum:
    """Eigenvalues ``evals`` (ascending) and eigenvectors ``evecs`` of M(W) for random W of scales ``scales``."""

    scales: np.ndarray
    evals: np.ndarray
    evecs: np.ndarray


def m_spectrum(rng: np.random.Generator, *, mc_samples: int, seed: int) -> MSpectrum:
    """Spectra of M(W) (13) for 13 random 10 x 20 matrices W from ``rng``, scales 0.03 to 30.

    M is estimated from ``mc_samples // 8`` inputs drawn with seed ``seed + 3``.
    """
    scales_w = np.geomspace(0.03, 30, 13)
    w_many = rng.standard_normal((len(scales_w), 10, 20)) / math.sqrt(20) * scales_w[:, None, None]
    m_many = sm.softmax_curvature(w_many, n_samples=mc_samples // 8, seed=seed + 3)
    evals, evecs = np.linalg.eigh(m_many)
    return MSpectrum(scales_w, evals, evecs)


def check_m_properties(ledger: Ledger, spectrum: MSpectrum) -> None:
    """Claims: M(W) is positive semi-definite, has exactly one zero eigenvalue, and its zero mode is
    the all-ones vector."""
    evals = spectrum.evals
    null_overlap = np.abs(spectrum.evecs[:, :, 0] @ (np.ones(10) / math.sqrt(10)))
    ledger.check("m-psd", "M(W) (13) is positive semi-definite: smallest eigenvalue over 13 random W",
                 measured=evals[:, 0].min(), predicted=0.0, tolerance=1e-12, kind="lower",
                 reason="float64 rounding of an eigenvalue of a 10 x 10 matrix with entries <= 1/4.")
    ledger.check("m-one-zero-mode",
                 "M(W) has exactly one zero eigenvalue: smallest of the other eigenvalues is > 0",
                 measured=evals[:, 1].min(), predicted=0.0, tolerance=0.0, kind="lower",
                 reason="every p_k > 0 for finite W, so only the all-ones direction is annihilated.")
    ledger.check("m-zero-mode-is-ones", "The zero mode of M(W) is the all-ones vector: 1 - |overlap|",
                 measured=1 - null_overlap.min(), predicted=0.0, tolerance=1e-9, kind="absolute",
                 reason="exact; float64 rounding of the eigenvectors (separated by a gap >= the "
                 "smallest other eigenvalue).")


def figure_m_spectrum(spectrum: MSpectrum) -> Figure:
    """The nine nonzero eigenvalues of M(W) against the scale of W, and the zero mode at the axis floor."""
    evals, scales_w = spectrum.evals, spectrum.scales
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


@dataclass(frozen=True)
class TACurvatures:
    """f(s) of (15) and the off-diagonal ratio of (16) on the grid ``s``, for each class direction of ``us``."""

    s: np.ndarray
    us: dict
    f: dict
    off_diag: dict


def _unit_centred(u):
    """``u`` centred (orthogonal to the all-ones vector) and normalised."""
    u = u - u.mean()
    return u / np.linalg.norm(u)


def ta_curvatures(rng: np.random.Generator) -> TACurvatures:
    """f(s) and the off-diagonal ratio for a random u of K = 10 and of K = 3 (from ``rng``) and for the
    symmetric u = (e1 - e2)/sqrt 2, on a log grid of s from 1e-3 to 1e4."""
    s_grid = np.geomspace(1e-3, 1e4, 400)
    us = {name: _unit_centred(rng.standard_normal(kk)) for name, kk in (("K = 10, random u", 10),
                                                                         ("K = 3, random u", 3))}
    us["K = 10, u = (e1 - e2)/sqrt 2"] = np.r_[1.0, -1.0, np.zeros(8)] / math.sqrt(2)
    return TACurvatures(s_grid, us, {name: sm.ta_curvature(s_grid, u) for name, u in us.items()},
                        {name: sm.off_diagonal_ratio(s_grid, u) for name, u in us.items()})


def figure_f_of_s(ta: TACurvatures) -> Figure:
    """(15): f(s); the softmax term of (3) over its clean-label limit; and what (16) neglects."""
    s_grid = ta.s
    fig, axes = plotting.subplots(1, 3, height=3.0)
    for name, u in ta.us.items():
        f = ta.f[name]
        axes[0].loglog(s_grid, f, label=name)
        axes[1].semilogx(s_grid, f * s_grid / sm.clean_rank1_signal(u))
        axes[2].loglog(s_grid, ta.off_diag[name] + 1e-16)  # zero for the symmetric mode: below the axis
    axes[0].set(xlabel="$s$", ylabel="$f(s)$", title="(15): $f(s) = u^T M u$", ylim=(1e-4, 0.5))
    axes[1].set(xlabel="$s$", ylabel="$f(s)\\,s$ / clean-label $\\hat\\sigma$",
                title="softmax term of (3)")
    axes[2].set(xlabel="$s$", ylabel="$\\|(I-uu^T)Mu\\| / u^TMu$", title="what (16) neglects",
                ylim=(1e-4, 2))
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=3)
    return fig


def check_ta_curvature(ledger: Ledger, ta: TACurvatures, rng: np.random.Generator) -> None:
    """Claims on f(s) (15): f(0) = 1/K, its s^2 coefficient kappa4/2, its large-s limit, monotone
    for K = 3, unimodal and rising from 0 exactly when kappa4 > 0 (100 random u from ``rng``); and
    (16) exact for the symmetric mode."""
    s_grid = ta.s
    for name, u in list(ta.us.items())[:2]:
        kk = len(u)
        tag = f"K{kk}"
        kappa4 = (u**4).mean() - 3 / kk**2
        ledger.check(f"f0-{tag}", f"(15): f(0) = 1/K, {name}", measured=sm.ta_curvature(0.0, u),
                     predicted=1 / kk, tolerance=1e-10, kind="absolute",
                     reason="exact; 400-node quadrature accurate to ~1e-11.")
        ledger.check(f"f-small-s-{tag}",
                     "(15): f(s) = 1/K + kappa4 s^2/2 + O(s^4): "
                     f"(f - 1/K)/(s^2/2) at s = 1e-3 vs kappa4, {name}",
                     measured=(sm.ta_curvature(1e-3, u) - 1 / kk) / 0.5e-6, predicted=kappa4,
                     tolerance=1e-5, kind="absolute",
                     reason="next term of the series is O(s^2) = 1e-6 in these units; quadrature error "
                     "~1e-12 on f is 2e-6 on the coefficient.")
        ledger.check(f"fs-saturates-{tag}",
                     "f(s) s tends to the clean-label sigma (max u - min u)/sqrt(2 pi) "
                     f"(s = 1e6), {name}",
                     measured=sm.ta_signal(1e6, u), predicted=sm.clean_rank1_signal(u), tolerance=1e-6,
                     kind="relative",
                     reason="the correction is O(1/s^2) = 1e-12 (the integrand differs from its limit "
                     "only for |g| < 1/s); 1e-6 covers the quadrature error.")
    ledger.check("f-monotone-K3",
                 "(15): for K = 3 (kappa4 < 0) f decreases monotonically "
                 "(largest increment, log grid 1e-3..1e4)",
                 measured=np.diff(sm.ta_curvature(s_grid, ta.us["K = 3, random u"])).max(), predicted=0.0,
                 tolerance=0.0, kind="upper",
                 reason="for K = 3 every centred unit u has sum u^4 = 1/2 < 3/K, so kappa4 < 0.")
    turning, wrong_start = 0, 0
    for _ in range(100):
        kk = int(rng.integers(3, 13))
        u = _unit_centred(rng.standard_normal(kk))
        d = np.diff(sm.ta_curvature(s_grid, u))
        d = d[np.abs(d) > 1e-13]
        turning += int(np.sum(np.diff(np.sign(d)) != 0) > 1)
        wrong_start += int((d[0] > 0) != ((u**4).mean() - 3 / kk**2 > 0))
    ledger.check("f-unimodal",
                 "(15): f(s) has at most one maximum (100 random u, K = 3..12): cases with more",
                 measured=turning, predicted=0, tolerance=0, kind="absolute",
                 reason="numerical finding (no proof): f rises only while the kappa4 term dominates, "
                 "then falls as 1/s.")
    ledger.check("f-rises-iff-kappa4",
                 "(15): f rises from s = 0 exactly when kappa4 > 0 (100 random u): disagreements",
                 measured=wrong_start, predicted=0, tolerance=0, kind="absolute",
                 reason="sign of the s^2 term of the expansion.")
    ledger.check("16-exact-symmetric",
                 "(16) is exact when u is odd under a class permutation (u = (e1 - e2)/sqrt 2): "
                 "largest off-diagonal ratio over s",
                 measured=sm.off_diagonal_ratio(s_grid, ta.us["K = 10, u = (e1 - e2)/sqrt 2"]).max(), predicted=0.0,
                 tolerance=1e-9, kind="absolute",
                 reason="swapping classes 1 and 2 maps u to -u and g to -g, so M u is parallel to u; "
                 "float64 rounding.")


def check_gradient_descent(ledger: Ledger, rng: np.random.Generator) -> None:
    """Claims (9) and (10) on a small student (K = 5, N = 8, four hidden units, P = 400, data and
    weights from ``rng``) trained by gradient descent: the conserved quantity drifts by no more than
    the exact O(lr^2) per-step term, and the training loss never increases."""
    k_s, n_s, h_s, p_s, lr_s, steps_s = 5, 8, 4, 400, 0.05, 400
    x_s = rng.standard_normal((p_s, n_s))
    w_teacher = rng.standard_normal((k_s, n_s))
    y_s = (x_s @ w_teacher.T + rng.standard_normal((p_s, k_s)) * 0.5).argmax(1)
    w1 = 0.3 * rng.standard_normal((h_s, n_s))
    w2 = 0.3 * rng.standard_normal((k_s, h_s))
    syx_s = sm.label_feature_covariance(x_s, y_s, k_s)
    q0 = w1 @ w1.T - w2.T @ w2
    drift_bound, losses = 0.0, []
    for _ in range(steps_s):
        losses.append(sm.cross_entropy(w2 @ w1, x_s, y_s))
        g = syx_s - sm.softmax_feature_covariance(w2 @ w1, x_s)
        a, b = w2.T @ g, g @ w1.T
        drift_bound += lr_s**2 * np.linalg.norm(a @ a.T - w1 @ g.T @ g @ w1.T)
        w1, w2 = w1 + lr_s * a, w2 + lr_s * b
    drift = np.linalg.norm(w1 @ w1.T - w2.T @ w2 - q0)
    ledger.check("conservation-9",
                 "(9): drift of W1 W1^T - W2^T W2 under gradient descent, within the exact O(lr^2) per-step term",
                 measured=drift, predicted=drift_bound, tolerance=1e-12, kind="upper",
                 reason="the change per step is exactly lr^2 (W2^T G G^T W2 - W1 G^T G W1^T); triangle inequality.")
    ledger.check("loss-decreases-10",
                 "(10): the training loss never increases along gradient descent (largest step-to-step increase)",
                 measured=np.diff(losses).max(), predicted=0.0, tolerance=0.0, kind="upper",
                 reason=f"descent lemma: lr = {lr_s} is far below 2 / (curvature <= 1/2 * |x|^2 * weight scale) "
                 "here.")


def check_relatedness(ledger: Ledger, seed: int) -> None:
    """Claim (4): the relatedness of the experiments' teacher pairs (five seeds from ``seed``, every r
    of the grid) equals the nominal r."""
    pair = mt.draw_tasks(range(seed, seed + 5), n_train_a=1, n_train_b=1, n_val=1, rank=10, dtype=torch.float64)
    worst = 0.0
    for r in mt.RELATEDNESS_GRID:
        for i in range(5):
            va = np.linalg.svd(pair.teacher_a[i].cpu().numpy())[2][:10].T
            vb = np.linalg.svd(pair.teacher_b(r)[i].cpu().numpy())[2][:10].T
            worst = max(worst, abs(sm.relatedness(va, vb) - r))
    ledger.check("relatedness-4",
                 "Relatedness (4) of the experiments' teacher pairs equals the nominal r (largest error)",
                 measured=worst, predicted=0.0, tolerance=1e-10, kind="absolute",
                 reason="exact by construction; float64 rounding of two SVDs.")


@dataclass(frozen=True)
class RankOneBound:
    """Exact benefit and bound (5) of rank-one TA students on the grid ``s`` x ``s`` (rows: s_ST,
    columns: s_MT), and the generalisation-optimal ``s_opt``."""

    s: np.ndarray
    benefit: np.ndarray
    bound: np.ndarray
    s_opt: float


def rank_one_bound(rng: np.random.Generator) -> RankOneBound:
    """Benefit and bound (5) for a random class direction (K = 10, from ``rng``), a student direction
    near it, and an input overlap of 0.8, on 40 values of s from 0.05 to 30."""
    u_bar = _unit_centred(rng.standard_normal(10))
    u_hat = _unit_centred(u_bar + 0.3 * rng.standard_normal(10))
    overlap = 0.8
    s_pairs = np.geomspace(0.05, 30, 40)
    loss_gen = sm.ta_generalization_loss(s_pairs, u_hat, u_bar, overlap)
    sigma_bar = overlap * (u_hat[np.argmax(u_bar)] - u_hat[np.argmin(u_bar)]) / math.sqrt(2 * math.pi)
    bracket = sigma_bar - sm.ta_signal(s_pairs, u_hat)
    benefit_grid = loss_gen[:, None] - loss_gen[None, :]  # rows: s_ST, columns: s_MT
    bound_grid = (s_pairs[None, :] - s_pairs[:, None]) * bracket[:, None]
    return RankOneBound(s_pairs, benefit_grid, bound_grid, s_pairs[np.argmin(loss_gen)])


def check_bound_5(ledger: Ledger, bound: RankOneBound) -> None:
    """Claim (5): the benefit never exceeds its bound on the grid of (s_ST, s_MT)."""
    ledger.check("bound-5-rank1",
                 "(5): benefit minus its bound, largest over a 40 x 40 grid of (s_ST, s_MT), "
                 "rank-one TA students",
                 measured=(bound.benefit - bound.bound).max(), predicted=0.0, tolerance=1e-9,
                 kind="upper",
                 reason="exact (convexity of L_gen along the line s u v^T); quadrature accurate to "
                 "~1e-11.")


def figure_bound_5(bound: RankOneBound) -> Figure:
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
