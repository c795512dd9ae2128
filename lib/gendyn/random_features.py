"""Random-feature ReLU students of a nonlinear (two-layer ReLU) teacher, solved exactly.

Advani, Saxe & Sompolinsky (2020), Sec. 6 and Figs. 7-9: a student
``yhat(x) = sum_a w_a phi(W1_a . x) / sqrt(N_h)`` with ``phi = ReLU``, a **fixed** random
first layer ``W1`` (entries ``N(0, 1)``) and a trained second layer ``w`` started at zero,
learns from a teacher that it cannot represent exactly. Inputs ``x ~ N(0, I / N_i)``, so
``W1_a . x ~ N(0, |W1_a|^2 / N_i)``. In the hidden features ``X_h^{a mu} = phi(W1_a . x^mu) /
sqrt(N_h)`` the student is a linear student (:mod:`gendyn.linear_student`), and gradient flow
``tau dw/dt = (y - w X_h) X_h^T`` is solved exactly through the eigendecomposition of the
``P x P`` Gram matrix ``K = X_h^T X_h`` (the same convention as
:func:`gendyn.linear_experiments.random_feature_relu`, whose teacher is linear).

Teachers
--------
``"relu"``: ``f(x) = c sum_m v_m phi(Wt_m . x)`` with ``M = teacher_hidden`` units,
``Wt_m`` and ``v_m`` standard normal, and ``c`` chosen so that the teacher's output has unit
mean square, ``E_x f(x)^2 = 1``, exactly (by :func:`relu_kernel`). ``"linear"``:
``f(x) = c wbar . x`` with ``wbar ~ N(0, I)``, normalised the same way. The labels are
``y = f(x) + eps`` with ``eps ~ N(0, 1 / snr)``: the signal-to-noise ratio is the teacher's
mean square over the noise variance.

Exact population errors
-----------------------
The second moments of ReLU features of Gaussian inputs are known in closed form (the
degree-1 arc-cosine kernel, :func:`relu_kernel`), so the **generalisation error of any second
layer is computed exactly**, without a test set:
``E_g(w) = E(f + eps - w . phi)^2 = 1 + noise_var - 2 w b + w Sigma w^T`` with the population
feature covariance ``Sigma = E phi phi^T`` and ``b = E phi f``. A Monte Carlo test error on
``n_test`` fresh inputs is returned beside it as a check (the paper measured on 5,000).

Error decomposition (paper, Fig. 9)
-----------------------------------
Let ``w* = b Sigma^+`` be the best second layer of this width (infinite data). For any ``w``,
``E_g(w) = E_approx + (w - w*) Sigma (w - w*)^T`` with the **approximation error**
``E_approx = 1 + noise_var - b Sigma^+ b^T``. Gradient flow from ``w = 0`` moves only in the
span of the training feature vectors (the row space of ``X_h^T``); the labels are
``y = w* X_h + r`` with the residual ``r`` (what the best student cannot fit, plus the
noise). The converged weights are ``w(inf) = w*_row + w_fit`` where ``w*_row`` is the
projection of ``w*`` on that span and ``w_fit = r K^+ X_h^T`` is the part fitted to the
residual. Hence, exactly,
``E_g(inf) = E_approx + E_null + E_over + E_cross`` with the **null-space error**
``E_null = w*_null Sigma w*_null^T`` (``w*_null = w* - w*_row``: the part of the best
weights the data cannot reach, zero for ``N_h <= P``), the **over-fitting error**
``E_over = w_fit Sigma w_fit^T`` and a cross term ``E_cross = -2 w*_null Sigma w_fit^T``.
The paper sums the first three; the cross term is what that sum leaves out.

The **matched Gaussian-noise prediction** of the over-fitting error treats the residual as
independent Gaussian label noise of the same variance, ``E r^2 = E_approx``:
``E_over^G = E_approx tr(K^+ Q K^+)`` with ``Q = X_h^T Sigma X_h`` (the over-fitting error of
a teacher that the student represents exactly, with that noise).

Batched: every width of a sweep (nested networks: width ``N_h`` uses the first ``N_h``
hidden units of one draw of ``W1``) and every seed, in float64 by default.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, _random, committee, seeding
from . import linear_student as ls
from .linear_experiments import EigenFlow, Execution, _flat_specs, _spec
from .progress import track

__all__ = ["relu_kernel", "relu_feature_moments", "RandomFeatureRun", "random_feature_students", "HiddenSpectrum",
           "hidden_spectrum"]


# The ReLU of a standard normal z: mean 1/sqrt(2 pi), linear part z/2 (Stein), mean square 1/2.
RELU_MEAN = 1.0 / math.sqrt(2.0 * math.pi)
RELU_LINEAR = 0.5
RELU_SECOND_MOMENT = 0.5


def relu_feature_moments() -> dict[str, float]:
    """Decomposition of ``ReLU(z)``, ``z ~ N(0, 1)``, into mean, linear part and remainder.

    ``ReLU(z) = mu_0 + mu_1 z + r(z)`` with ``mu_0 = E ReLU(z) = 1/sqrt(2 pi)``,
    ``mu_1 = E z ReLU(z) = 1/2`` and a remainder uncorrelated with ``1`` and ``z`` of variance
    ``v_* = 1/2 - 1/(2 pi) - 1/4``. For random features the mean makes one large eigenvalue of
    the hidden covariance, the linear part ``N_i`` more, and the remainder behaves as
    independent noise: a Marchenko-Pastur bulk of variance ``v_*`` per entry (paper, Fig. 7E).

    Returns
    -------
    dict
        ``mean``, ``linear`` and ``remainder_var`` (floats).
    """
    return dict(mean=RELU_MEAN, linear=RELU_LINEAR,
                remainder_var=RELU_SECOND_MOMENT - RELU_MEAN**2 - RELU_LINEAR**2)


def relu_kernel(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``E_x[ReLU(a . x) ReLU(b . x)]`` for ``x ~ N(0, I / N_i)``: the degree-1 arc-cosine kernel.

    For rows ``a``, ``b`` at angle ``theta``,
    ``|a| |b| / N_i * (sin theta + (pi - theta) cos theta) / (2 pi)`` (Cho & Saul 2009):
    :func:`gendyn.committee.arc_cosine_kernel` of the fields ``a . x``, ``b . x``.

    Parameters
    ----------
    a : torch.Tensor, shape (..., m, N_i)
    b : torch.Tensor, shape (..., n, N_i)
        Weight rows (any floating dtype; batch dimensions broadcast).

    Returns
    -------
    torch.Tensor, shape (..., m, n)
        The kernel between every row of ``a`` and every row of ``b`` (a covariance matrix
        when ``a`` is ``b``).
    """
    a = _checks.tensor(a, "a", finite=True)
    b = _checks.tensor(b, "b", finite=True)
    if a.ndim < 2 or b.ndim < 2 or a.shape[-1] != b.shape[-1]:
        raise ValueError(f"a and b must be (..., m, N_i) and (..., n, N_i) with the same N_i; got shapes "
                         f"{tuple(a.shape)} and {tuple(b.shape)}")
    n_in = a.shape[-1]
    na, nb = a.norm(dim=-1), b.norm(dim=-1)
    scale = na[..., :, None] * nb[..., None, :]
    cos = ((a @ b.mT) / scale.clamp_min(torch.finfo(a.dtype).tiny)).clamp(-1.0, 1.0)
    return committee.arc_cosine_kernel(scale / n_in, cos)


@dataclass(frozen=True)
class RandomFeatureRun:
    """Result of :func:`random_feature_students` (numpy arrays; ``G`` widths, ``S`` seeds, ``T`` times).

    Attributes
    ----------
    hidden : ndarray (G,)
        Widths ``N_h``.
    train_error, test_error : ndarray (G, S, T)
        At the ``times`` asked for: ``E_t = (1/P) sum_mu (y^mu - yhat^mu)^2`` and the exact population ``E_g`` on fresh
        noisy labels.
    test_error_sampled : ndarray (G, S, T) or None
        ``E_g`` measured on ``n_test`` fresh inputs (label noise added exactly), if asked for.
    eigvals : ndarray (G, S, P)
        Spectrum of the Gram matrix ``X_h^T X_h`` (ascending). Its rank is ``min(N_h, P)``:
        the other eigenvalues, and any below ``max(P, N_h) * eps * largest`` (the cutoff of
        ``numpy.linalg.matrix_rank``), are round-off and returned as exact zeros (frozen
        modes, never trained). The nonzero part is the spectrum of the hidden covariance
        ``X_h X_h^T``, which has ``N_h - P`` further zeros when ``N_h > P``.
    noise_var : float
        Label-noise variance ``1 / snr``.
    approximation, null_space, over_fitting, cross, over_fitting_gaussian : ndarray (G, S) or None
        The decomposition of the converged error (module docstring), if asked for:
        ``test_error[..., inf] = approximation + null_space + over_fitting + cross``.
    """

    hidden: np.ndarray
    train_error: np.ndarray
    test_error: np.ndarray
    test_error_sampled: np.ndarray | None
    eigvals: np.ndarray
    noise_var: float
    approximation: np.ndarray | None = None
    null_space: np.ndarray | None = None
    over_fitting: np.ndarray | None = None
    cross: np.ndarray | None = None
    over_fitting_gaussian: np.ndarray | None = None

    def early_stopped(self) -> np.ndarray:
        """Minimum over the sampled times of the exact test error, ``(G, S)``."""
        return self.test_error.min(-1)

    def converged(self) -> np.ndarray:
        """Test error at the last time (the converged one when ``times`` ends with ``inf``), ``(G, S)``."""
        return self.test_error[..., -1]


def _teacher(kind, n_in, teacher_hidden, repeats, kw):
    """Teacher weights and the normaliser making ``E f^2 = 1``: (rows, output weights)."""
    if kind == "linear":
        wbar = _random.randn(repeats, 1, n_in, **kw)
        power = (wbar**2).sum(-1)[:, 0] / n_in  # E (wbar . x)^2
        return wbar, 1.0 / power.sqrt()[:, None]
    rows = _random.randn(repeats, teacher_hidden, n_in, **kw)
    v = _random.randn(repeats, teacher_hidden, **kw)
    power = torch.einsum("sm,smn,sn->s", v, relu_kernel(rows, rows), v)
    return rows, v / power.sqrt()[:, None]


def _teacher_outputs(kind, rows, v, x):
    pre = rows @ x  # (S, M, inputs)
    return (v[:, :, None] * (pre if kind == "linear" else torch.relu(pre))).sum(1)


def _feature_teacher_moment(kind, W1, rows, v):
    """``E phi_a f`` for unnormalised features ``phi_a = ReLU(W1_a . x)``: ``(S, N_h)``."""
    if kind == "linear":  # Stein: E ReLU(u) z = cov(u, z) / 2 for jointly Gaussian, mean-zero u, z
        return RELU_LINEAR * (W1 @ rows.mT)[..., 0] / W1.shape[-1] * v[:, :1]
    return (relu_kernel(W1, rows) @ v[..., None])[..., 0]


def random_feature_students(n_in: int, n_samples: int, hidden: ArrayLike, repeats: int, times: ArrayLike, *,
                            labels: TeacherLabels | None = None, decompose: bool = False,
                            execution: Execution | None = None, **flat: object) -> RandomFeatureRun:
    """Exact gradient flow of random-feature ReLU students of a ReLU (or linear) teacher.

    Parameters
    ----------
    n_in : int
        Input dimension ``N_i``.
    n_samples : int
        Training examples ``P``.
    hidden : array_like of int
        Widths ``N_h`` (``G`` values, strictly ascending); nested networks.
    repeats : int
        Independent draws of inputs, first layer, teacher and label noise (``S`` seeds).
    times : array_like
        Times ``t >= 0`` in units of tau (``np.inf``: converged; the least-squares solution
        for ``N_h < P``, the minimum-norm interpolant for ``N_h >= P``).
    labels : TeacherLabels, optional
        The teacher, the SNR of its labels and the test inputs of a Monte Carlo test error. Default
        ``TeacherLabels()``: a ReLU teacher of 30 units, noiseless labels, no test inputs.
    decompose : bool
        Also return the error decomposition of the converged students (costs an
        eigendecomposition of the ``N_h x N_h`` population covariance per width and seed).
    execution : gendyn.linear_experiments.Execution, optional
        ``rng``, the source of every random draw (inputs, first layer, teacher, then label noise, from
        :func:`gendyn.seeding.torch_generator` of it: the same arguments and integer ``rng`` give the same
        bytes on the CPU; default ``None``, fresh entropy; see :mod:`gendyn.seeding`), torch device and dtype
        of the computation, and ``chunk``: seeds processed at once (default: as many as keep the features
        under about 256 MB; the results do not depend on it). Keep float64 (the
        default) for widths near ``P``: the converged error there involves inverse squared eigenvalues as
        small as ``1e-9`` of the largest, below float32's resolution, whose rank cutoff then freezes them.
        Default ``Execution()``.
    **flat
        Deprecated: ``teacher``, ``teacher_hidden``, ``snr``, ``n_test`` (``labels``) and ``seed`` (now
        ``rng``), ``device``, ``dtype``, ``chunk`` (``execution``) as keywords, accepted for one more release
        with a ``DeprecationWarning``.

    Returns
    -------
    RandomFeatureRun
    """
    if flat:
        specs = _flat_specs("random_feature_students", flat, {
            "labels": (TeacherLabels, labels, {k: k for k in ("teacher", "teacher_hidden", "snr", "n_test")}),
            "execution": (Execution, execution, {"seed": "rng", "device": "device", "dtype": "dtype",
                                                 "chunk": "chunk"})})
        labels, execution = specs["labels"], specs["execution"]
    labels, execution = _spec(labels, "labels", TeacherLabels), _spec(execution, "execution", Execution)
    teacher, teacher_hidden, snr, n_test = labels.teacher, labels.teacher_hidden, labels.snr, labels.n_test
    n_in = _checks.integer(n_in, "n_in", meaning=" (the input dimension N_i)")
    P = _checks.integer(n_samples, "n_samples", meaning=" (training examples P)")
    repeats = _checks.integer(repeats, "repeats")
    decompose = _checks.flag(decompose, "decompose")
    hidden = _checks.widths(hidden)
    times = _checks.flow_times(times)
    device, dtype = execution.device, execution.dtype
    n_max, n_all = int(hidden[-1]), P + n_test
    chunk = execution.chunk
    if chunk is None:
        chunk = max(1, min(repeats, (256 << 20) // (8 * n_max * max(n_all, n_max))))
    noise_var = 0.0 if math.isinf(snr) else 1.0 / snr

    # every draw first, in one fixed order, so that results do not depend on chunk
    gen = seeding.torch_generator(execution.rng)
    kw = dict(generator=gen, device=device, dtype=dtype)
    x = _random.randn(repeats, n_in, n_all, **kw) / math.sqrt(n_in)
    W1 = _random.randn(repeats, n_max, n_in, **kw)
    rows, v = _teacher(teacher, n_in, teacher_hidden, repeats, kw)
    noise = _random.randn(repeats, P, **kw) * math.sqrt(noise_var)
    clean = _teacher_outputs(teacher, rows, v, x)  # (S, P + n_test)
    y = clean[:, :P] + noise

    t = torch.as_tensor(times, device=device, dtype=dtype)
    G, S, T = len(hidden), repeats, len(times)
    out = {k: torch.zeros(G, S, T, dtype=dtype) for k in ("train", "test", "sampled")}
    out["eigvals"] = torch.zeros(G, S, P, dtype=dtype)
    parts = ("approximation", "null_space", "over_fitting", "cross", "over_fitting_gaussian")
    for k in parts:
        out[k] = torch.zeros(G, S, dtype=dtype)
    starts = range(0, S, chunk)
    for s0 in track(starts, desc=f"random-feature students, P={P}"):
        sl = slice(s0, min(s0 + chunk, S))
        phi = torch.relu(W1[sl] @ x[sl])  # (C, N_max, P + n_test), unnormalised
        kappa = relu_kernel(W1[sl], W1[sl])  # (C, N_max, N_max): E phi_a phi_b
        moment = _feature_teacher_moment(teacher, W1[sl], rows[sl], v[sl])  # (C, N_max): E phi_a f
        for g, n in enumerate(hidden.tolist()):
            res = _one_width(phi[:, :n], kappa[:, :n, :n], moment[:, :n], y[sl], clean[sl, P:], t, noise_var,
                             P, decompose)
            for k, val in res.items():
                out[k][g, sl] = val.cpu()
    numpy = {k: val.numpy() for k, val in out.items()}
    return RandomFeatureRun(
        hidden=hidden, train_error=numpy["train"], test_error=numpy["test"],
        test_error_sampled=numpy["sampled"] if n_test else None, eigvals=numpy["eigvals"], noise_var=noise_var,
        **{k: (numpy[k] if decompose else None) for k in parts},
    )


def _one_width(phi, kappa, moment, y, clean_test, t, noise_var, P, decompose):
    """Errors of one width for a chunk of seeds (module docstring for the formulas)."""
    n = phi.shape[1]
    Xh, Xt = phi[..., :P] / math.sqrt(n), phi[..., P:] / math.sqrt(n)
    Sigma, b = kappa / n, moment / math.sqrt(n)  # population covariance and E phi f of X_h's rows
    flow = EigenFlow.of(Xh.mT @ Xh, rank=min(n, P))  # X_h^T X_h has rank min(N_h, P); the rest is round-off
    s, U, inv_s = flow.eigvals, flow.eigvecs, flow.inverse()
    yt = (y[:, None, :] @ U)[:, 0]  # (C, P): labels on the Gram eigenvectors
    XU = Xh @ U  # (C, N_h, P): columns X_h u_k
    beta = (b[:, None, :] @ XU)[:, 0]  # (C, P): u_k^T X_h^T b
    Qt = XU.mT @ Sigma @ XU  # (C, P, P): U^T X_h^T Sigma X_h U
    e = flow.decay(t)  # frozen modes never move (from w = 0)
    coef = yt[..., None] * (1.0 - e) * inv_s[..., None]  # (C, P, T): w(t) = sum_k coef_k (X_h u_k)^T
    res = dict(
        train=((yt**2)[:, None, :] @ (e**2))[:, 0] / P,
        test=1.0 + noise_var - 2.0 * (beta[:, None, :] @ coef)[:, 0] + (coef * (Qt @ coef)).sum(1),
        eigvals=torch.where(flow.active, s, torch.zeros_like(s)),
    )
    if Xt.shape[-1]:
        pred = coef.mT @ (XU.mT @ Xt)  # (C, T, n_test)
        res["sampled"] = ((pred - clean_test[:, None, :]) ** 2).mean(-1) + noise_var
    if decompose:
        population = EigenFlow.of(Sigma, rank=n)
        V, inv_lam = population.eigvecs, population.inverse()
        w_star = ((b[:, None, :] @ V) * inv_lam[:, None, :]) @ V.mT  # (C, 1, N_h): b Sigma^+
        approx = 1.0 + noise_var - (w_star @ b[..., None])[:, 0, 0]
        # projection on the span of the training features: X_h u_k / sqrt(s_k), active k
        row = ((w_star @ XU) * inv_s[:, None, :]) @ XU.mT  # (C, 1, N_h)
        w_null = w_star - row
        resid = y - (w_star @ Xh)[:, 0]  # (C, P)
        w_fit = (((resid[:, None, :] @ U) * inv_s[:, None, :]) @ XU.mT)  # (C, 1, N_h): r K^+ X_h^T
        quad = lambda u, w: (u @ Sigma @ w.mT)[:, 0, 0]  # noqa: E731 - Sigma-inner product of row vectors
        res.update(
            approximation=approx, null_space=quad(w_null, w_null), over_fitting=quad(w_fit, w_fit),
            cross=-2.0 * quad(w_null, w_fit),
            over_fitting_gaussian=approx * (torch.diagonal(Qt, dim1=-2, dim2=-1) * inv_s**2).sum(-1),
        )
    return res


class HiddenSpectrum(NamedTuple):
    """The spectrum of ``X_h X_h^T`` of one width pooled over seeds, with its rescaled MP law (:func:`hidden_spectrum`)."""

    rank: np.ndarray  # (S,) nonzero eigenvalues of each network
    nonzero: np.ndarray  # the nonzero eigenvalues of all networks, ascending
    alpha: float  # P / N_h, the load of the MP law
    scale: float  # the MP law's scale: the median of its continuous part is that of the small eigenvalues
    weight: float  # the share of the small eigenvalues among the N_h S of all networks
    lam_min: np.ndarray  # (S,) smallest nonzero eigenvalue of each network


def hidden_spectrum(eigvals: ArrayLike, n_hidden: int, n_cluster: int) -> HiddenSpectrum:
    """Fig. 7E: the hidden-layer spectrum of one width, and the Marchenko-Pastur law rescaled to it.

    ReLU features ``phi(z) = mu_0 + mu_1 z + r(z)`` have ``n_cluster`` large eigenvalues (the mean, linear
    and quadratic parts); the others, the *small* eigenvalues, come from the remainder and follow an MP law
    of load ``alpha = P/N_h`` (:func:`gendyn.linear_student.mp_eigenvalue_cdf`) up to a scale, set here so
    that the median of its continuous part is the median of the small eigenvalues pooled over seeds (the
    whole nonzero spectrum when fewer than ``5 S`` are small).

    Parameters
    ----------
    eigvals : array_like, shape (S, P)
        Spectra of ``X_h^T X_h`` of ``S`` networks of one width, frozen modes exactly 0
        (:attr:`RandomFeatureRun.eigvals` of one width).
    n_hidden : int
        The width ``N_h``.
    n_cluster : int
        Large eigenvalues per network left out of the small ones (``>= 0``).

    Returns
    -------
    HiddenSpectrum

    References
    ----------
    Advani, Saxe & Sompolinsky (2020), Fig. 7E.
    """
    ev = _checks.real_array(eigvals, "eigvals", lower=0, ndim=2, extra=" (S spectra of P eigenvalues, frozen 0)")
    if ev.shape[0] < 1 or not np.all((ev > 0).any(1)):
        raise ValueError(f"eigvals must hold S >= 1 spectra with a nonzero eigenvalue each; got shape {ev.shape}")
    n = _checks.integer(n_hidden, "n_hidden", meaning=" (the width N_h)")
    n_cluster = _checks.integer(n_cluster, "n_cluster", 0, meaning=" (large eigenvalues per network)")
    P = ev.shape[1]
    rank = (ev > 0).sum(1)
    nonzero = np.sort(ev[ev > 0])
    # the small eigenvalues: all but the n_cluster largest of each seed
    small = np.sort(np.concatenate([np.sort(e[e > 0])[:max(0, (e > 0).sum() - n_cluster)] for e in ev]))
    if small.size < 5 * len(ev):  # P or N_h hardly above n_c (small runs): rescale to the whole spectrum
        small = nonzero
    alpha = P / n
    # MP law rescaled so that the median of its continuous part is that of the small eigenvalues
    grid = np.linspace(0, 10, 20001)
    cdf = (ls.mp_eigenvalue_cdf(grid, alpha) - max(0, 1 - alpha)) / min(1, alpha)
    scale = np.median(small) / np.interp(0.5, cdf, grid)
    return HiddenSpectrum(rank=rank, nonzero=nonzero, alpha=alpha, scale=float(scale),
                          weight=small.size / (n * len(ev)), lam_min=ls.sampled_eigengap(ev))


@dataclass(frozen=True)
class TeacherLabels:
    """The teacher of random-feature students, the noise of its labels and the test inputs
    (:func:`random_feature_students`).

    Attributes
    ----------
    teacher : {"relu", "linear"}
        The teacher (module docstring).
    teacher_hidden : int
        Hidden units ``M`` of the ReLU teacher (``>= 1``; ignored for ``teacher="linear"``).
    snr : float
        Teacher mean square over the label-noise variance (``> 0``; ``np.inf``: noiseless labels).
    n_test : int
        Fresh inputs for a Monte Carlo test error beside the exact one (``>= 0``; 0: none).
    """

    teacher: str = "relu"
    teacher_hidden: int = 30
    snr: float = np.inf
    n_test: int = 0

    def __post_init__(self):
        object.__setattr__(self, "teacher", _checks.choice(self.teacher, "teacher", ("relu", "linear")))
        object.__setattr__(self, "teacher_hidden", _checks.integer(self.teacher_hidden, "teacher_hidden"))
        object.__setattr__(self, "snr", _checks.snr(self.snr))
        object.__setattr__(self, "n_test", _checks.integer(self.n_test, "n_test", 0))


__all__ += ["TeacherLabels"]
