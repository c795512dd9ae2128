"""Batched torch experiments for the Advani-Saxe linear student and its random-feature cousin.

Advani, Saxe & Sompolinsky (2020), as presented in the MIT 18.338 lecture slides
(``advani-saxe-2017-lecture-slides.md``, eqs. (1)-(12)); the theory is
:mod:`gendyn.linear_student`. This module only *simulates*: it draws data, teachers, label
noise and initial weights, trains the students, and measures their errors. Every function
runs a whole sweep (loads x datasets x teacher draws x label/initialisation conditions) as
one tensor program on any torch device; results are identical run to run on the CPU for
the same arguments and the same integer (or ``SeedSequence``) ``rng``. Every draw of a function
comes from one generator, :func:`gendyn.seeding.torch_generator` of its ``rng`` (an integer ``s``
draws as ``torch.Generator().manual_seed(s)``), in a fixed order; :func:`early_stopping_vs_ridge`
draws from :func:`gendyn.seeding.numpy_generator` of its ``rng`` (``numpy.random.default_rng(s)``).

Linear student (slides' normalisation, errors in units of ``sigma_w^2 = 1``)
-----------------------------------------------------------------------------
* Data ``X`` (``N x P``) with entries ``N(0, 1/N)``, ``P = round(alpha N)``.
* Teacher ``y = wbar X + eps``, student ``yhat = w X``; ``wbar ~ N(0, teacher_var)``,
  ``w(0) ~ N(0, init_var)``, ``eps ~ N(0, noise_var)`` per example. With the defaults of
  :func:`simulate_linear_student` ``teacher_var = 1``, ``init_var = INR`` and
  ``noise_var = 1/SNR``; ``teacher_var = 0`` gives pure-noise ("random") labels.
* Training: gradient flow ``tau dw/dt = (y - w X) X^T`` (:func:`linear_student_flow`, exact
  through the eigendecomposition of ``Sigma = X X^T``) or full-batch gradient descent
  ``w <- w + lr (y - w X) X^T`` (:func:`linear_student_gd`), whose step ``k`` is time
  ``t = k lr`` in units of ``tau``.
* Test error against a fresh input ``x ~ N(0, I/N)`` and fresh label noise, computed
  exactly for the trained weights: ``E_g = |wbar - w|^2 / N + noise_var``. Training error
  ``E_t = (1/P) sum_mu (y^mu - yhat^mu)^2``.

Different loads ``alpha`` have different ``P``: the data of a batch are padded with zero
columns (and zero noise) to a common ``P``; padding changes neither ``X X^T`` nor
``X y^T``, so it is exact.

Several (SNR, INR) conditions and several teacher draws per dataset share the data and
its eigendecomposition (the dynamics are linear in ``wbar, w(0), eps``): the standard
normal draws are made once and scaled per condition (common random numbers).

Early stopping against ridge
----------------------------
:func:`early_stopping_vs_ridge` draws finite Gaussian datasets and compares, dataset by dataset,
the error of ridge regression at ``gamma* = 1/SNR`` with the best error along gradient flow
(eq. (5) minimised over time), both averaged over teacher and noise in closed form
(:class:`StoppingVsRidge`).

Random-feature ReLU network (slides, eqs. (8)-(12))
---------------------------------------------------
``yhat(x) = sum_a w_a phi(W1_a . x) / sqrt(N_h)`` with ``phi = ReLU``, a fixed random first
layer ``W1`` (``N_h x N_i``, entries ``N(0, 1)``, so ``W1_a . x ~ N(0, 1)``) and a trained
second layer ``w`` started at zero: a linear student of the hidden features
``X_h^{a mu} = phi(W1_a . x^mu) / sqrt(N_h)``. The labels come from the same linear teacher
of the inputs, ``y = wbar . x + eps`` with ``x ~ N(0, I/N_i)``.
:func:`random_feature_relu` sweeps ``N_h`` (nested networks: the network of width
``N_h`` uses the first ``N_h`` hidden units of one draw of ``W1``, so every width of a
seed shares its first layer, its data and its labels) and trains by exact gradient flow;
:func:`random_feature_gd` trains one width by gradient descent steps, with teacher labels
and with random labels (the memorisation puzzle). Their results are :class:`RandomFeatureSweep`
and :class:`RandomFeatureGD`; :func:`random_feature_bounds` evaluates the generalisation-gap
bounds (7), (8), (11), (12) of :mod:`gendyn.linear_student` for every network of a sweep
(:class:`RandomFeatureBounds`).
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, _random, seeding, stopping
from . import linear_student as ls

from .progress import track

__all__ = [
    "EigenFlow",
    "LinearStudentBatch",
    "draw_linear_student",
    "linear_student_flow",
    "linear_student_gd",
    "gd_decay_factors",
    "simulate_linear_student",
    "sample_spectra",
    "ConditionErrors",
    "condition_errors",
    "GDVersusFlow",
    "gd_versus_flow",
    "StoppingVsRidge",
    "early_stopping_vs_ridge",
    "PerModeStopping",
    "per_mode_stopping_gd",
    "RandomFeatureSweep",
    "random_feature_relu",
    "RandomFeatureBounds",
    "random_feature_bounds",
    "RandomFeatureGD",
    "random_feature_gd",
]

_ACTIVE = 1e-9  # eigenvalues below this fraction of the largest are exact zeros (frozen modes)


@dataclass(frozen=True)
class EigenFlow:
    """Exact gradient flow of a linear model, mode by mode, in the eigenbasis of its Gram matrix.

    The flow ``tau dw/dt = (y - w X) X^T`` decouples on the eigenvectors ``u_k`` of ``X X^T``
    (or of ``X^T X``, whose nonzero spectrum is the same): what is left to learn of mode ``k``
    decays as ``e_k(t) = exp(-s_k t/tau)`` (eqs. (3)-(4) of the slides), and a mode whose
    eigenvalue is round-off of an exact zero is frozen (``e_k = 1``: it never moves). The
    linear student (:func:`linear_student_flow`) and the random-feature students
    (:func:`random_feature_relu`, :func:`gendyn.random_features.random_feature_students`) are
    solved with it.

    Attributes
    ----------
    eigvals : torch.Tensor, shape (..., n)
        Eigenvalues ``s_k >= 0`` of the Gram matrix, ascending (frozen ones as computed).
    eigvecs : torch.Tensor, shape (..., n, n)
        Its eigenvectors ``u_k`` (columns).
    active : torch.Tensor of bool, shape (..., n)
        The modes that learn; the others are frozen.
    """

    eigvals: torch.Tensor
    eigvecs: torch.Tensor
    active: torch.Tensor

    @classmethod
    def of(cls, gram: torch.Tensor, rank: int | None = None) -> "EigenFlow":
        """The flow of the symmetric PSD matrices ``gram`` ``(..., n, n)``.

        A mode is active if its eigenvalue exceeds ``1e-9`` of the largest, or, given ``rank``
        (the matrix's exact rank), if it is among the top ``rank`` and above
        ``max(n, rank) * eps * largest`` (the cutoff of ``numpy.linalg.matrix_rank``).
        """
        gram = _checks.tensor(gram, "gram")
        if gram.ndim < 2 or gram.shape[-1] != gram.shape[-2]:
            raise ValueError(f"gram must be square matrices (..., n, n); got shape {tuple(gram.shape)}")
        s, u = torch.linalg.eigh(gram)
        s = s.clamp_min(0.0)
        if rank is None:
            active = s > _ACTIVE * s.amax(-1, keepdim=True)
        else:
            rank = _checks.integer(rank, "rank", 0)
            size = s.shape[-1]
            cutoff = max(size, rank) * torch.finfo(s.dtype).eps * s.amax(-1, keepdim=True)
            active = (torch.arange(size, device=s.device) >= size - rank) & (s > cutoff)
        return cls(s, u, active)

    def decay(self, t: torch.Tensor) -> torch.Tensor:
        """``e_k(t) = exp(-s_k t)`` at the times ``t`` ``(T,)`` (units of tau; ``inf``: 0), 1 on frozen modes.

        Shape ``(..., n, T)``: what is left to learn of each mode.
        """
        fin = torch.where(torch.isinf(t), torch.zeros_like(t), t)
        x = self.eigvals[..., None] * fin
        e = torch.where(torch.isinf(t), torch.zeros_like(x), torch.exp(-x))
        return torch.where(self.active[..., None], e, torch.ones_like(e))

    def inverse(self) -> torch.Tensor:
        """``1/s_k`` on active modes, 0 on frozen ones (the pseudo-inverse's spectrum), ``(..., n)``."""
        s = self.eigvals
        return torch.where(self.active, 1.0 / s.clamp_min(torch.finfo(s.dtype).tiny), torch.zeros_like(s))


def _as_conditions(**conditions):
    """Conditions (snr, inr or variances; checked by the caller's bounds) broadcast to one 1-d length."""
    arrays = [np.atleast_1d(v) for v in conditions.values()]
    try:
        return np.broadcast_arrays(*arrays)
    except ValueError:
        raise ValueError(f"{' and '.join(conditions)} must broadcast to one length (conditions); got lengths "
                         f"{[len(a) for a in arrays]}") from None


def _condition(value, name, **bounds):
    """One condition value or a 1-d array of them (real numbers in the range ``bounds``)."""
    return _checks.real_array(value, name, ndim=(0, 1), **bounds)


def _check_steps(steps):
    """Ascending step counts, one integer or a 1-d array of them."""
    steps = np.atleast_1d(_checks.integer_array(steps, "steps", 0, ndim=(0, 1)))
    if np.any(np.diff(steps) < 0):
        raise ValueError(f"steps must be a 1-d ascending array of non-negative integers; got {steps.tolist()[:5]}")
    return steps


def _check_torch(device, dtype):
    return _checks.torch_device(device), _checks.torch_dtype(dtype)


def _check_alphas_n(alphas, n, name="n"):
    """The loads ``alphas`` (1-D) and their training-set sizes ``P = round(alpha n)``, each ``>= 1``;
    ``name``: the input dimension's argument name in the caller."""
    alphas = np.atleast_1d(_checks.real_array(alphas, "alphas", lower=0, open_lower=True, ndim=(0, 1),
                                              extra=" (loads P/N)"))
    n = _checks.integer(n, name, meaning=" (the input dimension N)")
    p = np.rint(alphas * n).astype(int)
    if np.any(p < 1):
        raise ValueError(f"every alpha * {name} must round to P >= 1; got P = {p.tolist()}")
    return alphas, p


# ----------------------------------------------------------------------------- linear student


@dataclass(frozen=True)
class LinearStudentBatch:
    """Datasets, teachers, noise and initial weights of a batch of linear students.

    Shapes: ``B`` datasets, ``K`` teacher draws per dataset, ``C`` conditions.

    Attributes
    ----------
    X : (B, N, Pmax) data, entries ``N(0, 1/N)``; columns ``>= p[b]`` are zero.
    p : (B,) number of examples of each dataset.
    g_w, g_0 : (B, K, N) standard normals of the teacher and of the initial weights.
    g_e : (B, K, Pmax) standard normals of the label noise (zero on padded columns).
    teacher_var, init_var, noise_var : (C,) variances; condition ``c`` has
        ``wbar = sqrt(teacher_var[c]) g_w``, ``w(0) = sqrt(init_var[c]) g_0``,
        ``eps = sqrt(noise_var[c]) g_e``.
    """

    X: torch.Tensor
    p: torch.Tensor
    g_w: torch.Tensor
    g_0: torch.Tensor
    g_e: torch.Tensor
    teacher_var: torch.Tensor
    init_var: torch.Tensor
    noise_var: torch.Tensor

    @property
    def n(self) -> int:
        return self.X.shape[-2]

    def weights(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``wbar, w0`` of shape ``(B, C, K, N)`` and ``eps`` of shape ``(B, C, K, Pmax)``."""
        tv, iv, nv = (v.sqrt()[None, :, None, None] for v in (self.teacher_var, self.init_var, self.noise_var))
        return tv * self.g_w[:, None], iv * self.g_0[:, None], nv * self.g_e[:, None]


def draw_linear_student(alphas: ArrayLike, n: int, repeats: int, *, teachers: int = 1,
                        variances: Variances | None = None, rng: seeding.Rng = None,
                        device: str | torch.device = "cpu", dtype: torch.dtype = torch.float64,
                        **flat: object) -> LinearStudentBatch:
    """Draw ``len(alphas) * repeats`` datasets (alpha-major) with their teachers, noise and inits.

    Parameters
    ----------
    alphas : array_like
        Loads ``alpha = P/N``; dataset ``b = i * repeats + r`` has ``P = round(alphas[i] N)``.
    n : int
        Input dimension ``N``.
    repeats : int
        Datasets per load.
    teachers : int
        Independent draws of ``(wbar, w(0), eps)`` per dataset (``K``).
    variances : Variances, optional
        Variances of ``wbar``, ``w(0)`` and ``eps``, broadcast to ``C`` conditions (default
        ``Variances()``: ``teacher_var = 1``, no initial weights, no noise).
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the data, teachers, initial weights and noise, drawn in that order from
        :func:`gendyn.seeding.torch_generator` of it (a torch generator on any device is drawn from there,
        then the draws move to ``device``); ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    device, dtype
        Where and in what precision the draws are returned.
    **flat
        Deprecated: ``teacher_var``, ``init_var``, ``noise_var`` as keywords, accepted for one more release
        with a ``DeprecationWarning``; pass ``variances=Variances(...)``. ``generator=`` (now ``rng``) likewise.
    """
    rng = seeding.former_rng(rng, flat, "linear_experiments.draw_linear_student")
    if flat:
        variances = _flat_specs("draw_linear_student", flat, {"variances": (
            Variances, variances, {k: k for k in ("teacher_var", "init_var", "noise_var")})})["variances"]
    variances = _spec(variances, "variances", Variances)
    alphas, p = _check_alphas_n(alphas, n)
    repeats = _checks.integer(repeats, "repeats")
    teachers = _checks.integer(teachers, "teachers")
    tv, iv, nv = _as_conditions(teacher_var=variances.teacher_var, init_var=variances.init_var,
                                noise_var=variances.noise_var)
    device, dtype = _check_torch(device, dtype)
    generator = seeding.torch_generator(rng)
    p_each = np.repeat(p, repeats)
    b, pmax = len(p_each), int(p_each.max())
    kw = dict(generator=generator, device=device, dtype=dtype)
    p_t = torch.as_tensor(p_each, device=device)
    mask = (torch.arange(pmax, device=device)[None, :] < p_t[:, None]).to(dtype)
    X = _random.randn(b, n, pmax, **kw) * mask[:, None, :] / np.sqrt(n)
    g_w = _random.randn(b, teachers, n, **kw)
    g_0 = _random.randn(b, teachers, n, **kw)
    g_e = _random.randn(b, teachers, pmax, **kw) * mask[:, None, :]
    as_t = lambda v: torch.as_tensor(v, device=device, dtype=dtype)  # noqa: E731
    return LinearStudentBatch(X, p_t, g_w, g_0, g_e, as_t(tv), as_t(iv), as_t(nv))


def _mode_decomposition(batch):
    """Eigendecomposition of ``Sigma = X X^T`` and the draws projected on its modes.

    Returns the :class:`EigenFlow` of ``Sigma``, ``d (B, C, K, N)`` = ``zbar - z(0)``,
    ``et (B, C, K, N)`` = ``epstilde`` (noise on the right singular vectors, zero on
    frozen modes) and ``perp (B, C, K)`` = ``|eps|^2 - |epstilde|^2`` (noise outside the
    span of the inputs, nonzero when ``P > N``).
    """
    X = batch.X
    flow = EigenFlow.of(X @ X.mT)
    lam, V, active = flow.eigvals, flow.eigvecs, flow.active
    inv_sqrt = torch.where(active, lam.clamp_min(1e-300).rsqrt(), torch.zeros_like(lam))
    a_w = batch.g_w @ V  # (B, K, N)
    a_0 = batch.g_0 @ V
    c_e = (batch.g_e @ X.mT) @ V * inv_sqrt[:, None, :]  # unit-variance noise projected, (B, K, N)
    # noise outside the column space of X: none when X has full column rank (P <= N, almost
    # surely), where the difference below would only be round-off
    full_rank = active.sum(-1) >= batch.p
    perp_unit = torch.where(full_rank[:, None], torch.zeros((), dtype=X.dtype, device=X.device), (batch.g_e**2).sum(-1) - (c_e**2).sum(-1))
    tv, iv, nv = (v.sqrt()[None, :, None, None] for v in (batch.teacher_var, batch.init_var, batch.noise_var))
    d = tv * a_w[:, None] - iv * a_0[:, None]
    et = nv * c_e[:, None]
    perp = batch.noise_var[None, :, None] * perp_unit.clamp_min(0.0)[:, None, :]
    return flow, d, et, perp


def _errors_from_factors(lam, active, d, et, perp, p, noise_var, f):
    """Errors of the students whose mode ``i`` has decayed by the factor ``f_i`` (B, N, T).

    ``zbar_i - z_i = d_i f_i - epstilde_i (1 - f_i) / sqrt(lam_i)`` on active modes (eq. (4)
    with ``f = exp(-lam t/tau)``, or ``(1 - lr lam)^k`` for gradient descent), ``d_i`` on
    frozen ones.
    """
    n = lam.shape[-1]
    B, C, K, _ = d.shape
    act = active.to(lam.dtype)
    inv_sqrt = torch.where(active, lam.clamp_min(1e-300).rsqrt(), torch.zeros_like(lam))
    flat = lambda x: x.reshape(B, C * K, n)  # noqa: E731
    back = lambda x: x.reshape(B, C, K, -1)  # noqa: E731
    fa = f * act[..., None]  # decay on active modes only
    g = (1.0 - f) * act[..., None]
    scale = back(flat(d**2) @ fa**2) / n
    frozen = (d**2 * (1.0 - act)[:, None, None, :]).sum(-1) / n
    overfit = back(flat(et**2 * inv_sqrt[:, None, None, :] ** 2) @ g**2) / n
    cross = -2.0 * back(flat(d * et * inv_sqrt[:, None, None, :]) @ (fa * g)) / n
    sq = torch.sqrt(lam)[:, None, None, :]
    train = back(flat((sq * d + et) ** 2) @ fa**2)  # residual e_i (sqrt(lam_i) d_i + epstilde_i)
    train = (train + perp[..., None]) / p[:, None, None, None].to(lam.dtype)
    nv = noise_var[None, :, None, None]
    test = scale + overfit + cross + frozen[..., None] + nv
    return dict(test_error=test, train_error=train, scale=scale, overfit=overfit, cross=cross,
                frozen=frozen[..., None].expand_as(scale))


def linear_student_flow(batch: LinearStudentBatch, times: ArrayLike, tau: float = 1.0) -> dict[str, torch.Tensor]:
    """Exact gradient flow of every student of ``batch``, measured at ``times``.

    Parameters
    ----------
    batch : LinearStudentBatch
    times : array_like
        Times ``t >= 0`` (``np.inf``: converged), in the units of ``tau``.
    tau : float
        Time constant of the flow ``tau dw/dt = (y - wX) X^T``.

    Returns
    -------
    dict of torch tensors
        ``test_error``, ``train_error`` and the parts of the test error ``scale``
        (``(1/N) sum_active (zbar_i - z_i(0))^2 e_i^2``, the not-yet-learned teacher and
        initial weights), ``overfit`` (``(1/N) sum epstilde_i^2 (1 - e_i)^2 / lambda_i``,
        the fitted noise), ``cross`` (their cross term, zero on average) and ``frozen``
        (``(1/N) |(wbar - w(0))`` outside the span of the data``|^2``), each of shape
        ``(B, C, K, T)``, with ``test = scale + overfit + cross + frozen + noise_var``; and
        ``cov_eigvals`` ``(B, N)``, the spectrum of ``X X^T`` (frozen modes set to 0).
    """
    _checks.instance(batch, "batch", LinearStudentBatch, hint=" (from draw_linear_student)")
    times = _checks.flow_times(times)
    tau = _checks.bounded(tau, "tau", 0, open_lower=True)
    flow, d, et, perp = _mode_decomposition(batch)
    lam, active = flow.eigvals, flow.active
    f = flow.decay(torch.as_tensor(times / tau, dtype=lam.dtype, device=lam.device))
    out = _errors_from_factors(lam, active, d, et, perp, batch.p, batch.noise_var, f)
    out["cov_eigvals"] = torch.where(active, lam, torch.zeros_like(lam))
    return out


def gd_decay_factors(eigvals: ArrayLike, lr: float, steps: ArrayLike) -> np.ndarray:
    """Mode decay factors ``(1 - lr lambda_i)^k`` of gradient descent after ``k`` steps.

    Gradient descent ``w <- w + lr (y - wX) X^T`` solves each mode of eq. (3) with
    ``exp(-lambda t/tau)`` replaced by ``(1 - lr lambda)^k`` (time ``t = k lr``); this is
    the exact discrete-time version of eqs. (4)-(5). Shape ``(..., N, len(steps))``.
    """
    lam = _checks.real_array(eigvals, "eigvals", lower=0)[..., None]
    lr = _checks.bounded(lr, "lr", 0, open_lower=True)
    k = _checks.integer_array(steps, "steps", 0).astype(float)
    return (1.0 - lr * lam) ** k


def linear_student_gd(batch: LinearStudentBatch, lr: float, steps: ArrayLike) -> dict[str, torch.Tensor]:
    """Full-batch gradient descent ``w <- w + lr (y - w X) X^T`` on every student of ``batch``.

    Parameters
    ----------
    batch : LinearStudentBatch
    lr : float
        Learning rate; stable for ``lr < 2 / lambda_max`` (``lambda_max ~ (1 + sqrt(alpha))^2``).
    steps : array_like of int
        Step counts at which to measure (ascending); step ``k`` is time ``t = k lr`` (units of tau).

    Returns
    -------
    dict of torch tensors
        ``test_error`` and ``train_error`` of shape ``(B, C, K, T)``, measured directly on the
        weights (``|wbar - w|^2/N + noise_var`` and ``|y - wX|^2/P``); ``times`` ``(T,)``.
    """
    _checks.instance(batch, "batch", LinearStudentBatch, hint=" (from draw_linear_student)")
    steps = _check_steps(steps)
    lr = _checks.bounded(lr, "lr", 0, open_lower=True)
    wbar, w, eps = batch.weights()
    B, C, K, n = wbar.shape
    _checks.work_limit(2.0 * float(steps.max(initial=0)) * B * C * K * n * n,
                       f"steps up to {int(steps.max(initial=0))} with {B * C * K} students of N={n}",
                       iterations=float(steps.max(initial=0)))
    X = batch.X
    sigma = X @ X.mT
    lam_max = torch.linalg.eigvalsh(sigma).amax().item()
    if lr * lam_max >= 2.0:
        raise ValueError(f"lr = {lr} is unstable: lr * lambda_max = {lr * lam_max:.3g} >= 2")
    y = wbar.reshape(B, C * K, n) @ X + eps.reshape(B, C * K, -1)
    b = y @ X.mT  # (B, CK, N)
    w = w.reshape(B, C * K, n).clone()
    wbar = wbar.reshape(B, C * K, n)
    p = batch.p.to(X.dtype)[:, None]
    test, train = [], []
    done = 0
    for target in track(steps.tolist(), desc=f"gradient descent, {B} datasets"):
        for _ in range(target - done):
            w += lr * (b - w @ sigma)
        done = target
        test.append(((wbar - w) ** 2).sum(-1) / n)
        train.append(((y - w @ X) ** 2).sum(-1) / p)
    shape = (B, C, K, len(steps))
    test = torch.stack(test, -1).reshape(shape) + batch.noise_var[None, :, None, None]
    train = torch.stack(train, -1).reshape(shape)
    return dict(test_error=test, train_error=train,
                times=torch.as_tensor(steps * lr, dtype=X.dtype, device=X.device))


def simulate_linear_student(alphas: ArrayLike, n: int, repeats: int, times: ArrayLike, *, snr: ArrayLike = np.inf,
                            inr: ArrayLike = 0.0, teachers: int = 1, execution: Execution | None = None,
                            **flat: object) -> LinearStudentSweep:
    """Gradient flow of linear students over a grid of loads, datasets and (SNR, INR) conditions.

    Parameters
    ----------
    alphas : array_like
        Loads ``alpha = P/N`` (``A`` values).
    n : int
        Input dimension ``N``.
    repeats : int
        Datasets per load (``S``).
    times : array_like
        Times in units of tau (``np.inf`` allowed).
    snr, inr : float or 1-d array_like
        Conditions, broadcast together (``C`` values): ``teacher_var = 1``,
        ``noise_var = 1/snr`` (``snr = np.inf``: noiseless), ``init_var = inr``.
    teachers : int
        Teacher / noise / initialisation draws per dataset (``K``).
    execution : Execution, optional
        ``rng``, device, dtype and ``chunk``: datasets per batched eigendecomposition (default 16; memory
        ``~ chunk * N * max(N, P) * 8`` bytes). Identical results run to run on the CPU for the same
        arguments and execution with an integer ``rng`` (including ``chunk``, which orders the draws).
        Default ``Execution()`` (fresh entropy).
    **flat
        Deprecated: ``seed`` (now ``execution.rng``), ``device``, ``chunk``, ``dtype`` as keywords, accepted for
        one more release with a ``DeprecationWarning``; pass ``execution=Execution(...)``.

    Returns
    -------
    LinearStudentSweep
        The outputs of :func:`linear_student_flow` with shape ``(A, S, C, K, T)``, and
        ``cov_eigvals`` ``(A, S, N)``, ``p`` ``(A,)`` (formerly a dict: ``sweep["test_error"]`` reads
        ``sweep.test_error`` for one more release, with a ``DeprecationWarning``).
    """
    if flat:
        execution = _flat_specs("simulate_linear_student", flat, {"execution": (
            Execution, execution, {"seed": "rng", "device": "device", "chunk": "chunk",
                                   "dtype": "dtype"})})["execution"]
    execution = _spec(execution, "execution", Execution)
    alphas, p = _check_alphas_n(alphas, n)
    repeats = _checks.integer(repeats, "repeats")
    chunk = 16 if execution.chunk is None else execution.chunk
    snr, inr = _as_conditions(snr=_condition(snr, "snr", lower=0, open_lower=True, allow_inf=True),
                              inr=_condition(inr, "inr", lower=0))
    teachers = _checks.integer(teachers, "teachers")
    times = _checks.flow_times(times)
    n_sets, p_max = float(len(alphas)) * repeats, float(np.max(p))
    _checks.work_limit(10.0 * n_sets * (n**3 + n * n * p_max + teachers * n * p_max),
                       f"repeats={repeats} with {len(alphas)} loads, n={n}, teachers={teachers}",
                       memory=8.0 * n_sets * (6 * teachers * len(times) + n) + 100.0 * n_sets,
                       iterations=n_sets / chunk)
    device, dtype = execution.device, execution.dtype
    noise_var = np.where(np.isinf(snr), 0.0, 1.0 / snr)
    gen = seeding.torch_generator(execution.rng)
    pairs = [(i, r) for i in range(len(alphas)) for r in range(repeats)]
    parts = []
    for start in track(range(0, len(pairs), chunk), desc=f"gradient flow, N={n}"):
        idx = pairs[start:start + chunk]
        sub = np.array([alphas[i] for i, _ in idx])
        # draw_linear_student takes loads x repeats; here each dataset is its own load
        batch = draw_linear_student(sub, n, 1, teachers=teachers,
                                    variances=Variances(teacher_var=1.0, init_var=inr, noise_var=noise_var),
                                    rng=gen, device=device, dtype=dtype)
        out = linear_student_flow(batch, times)
        parts.append({k: v.cpu().numpy() for k, v in out.items()})
    A = len(alphas)
    result = {}
    for key in parts[0]:
        cat = np.concatenate([part[key] for part in parts])
        result[key] = cat.reshape((A, repeats) + cat.shape[1:])
    result["p"] = p
    return LinearStudentSweep(**result)


def sample_spectra(alphas: ArrayLike, n: int, repeats: int, *, rng: seeding.Rng = None,
                   device: str | torch.device = "cpu", chunk: int = 16, dtype: torch.dtype = torch.float64,
                   **former: object) -> np.ndarray:
    """Eigenvalues of ``Sigma = X X^T`` for ``repeats`` Gaussian datasets per load (no students).

    The input of eq. (5) (:func:`gendyn.linear_student.single_dataset_error`) averaged over
    datasets, for finite-size checks of eq. (6) with many datasets. Returns an array of shape
    ``(A, S, N)``, ascending, frozen modes set to exactly 0.

    ``rng`` (int, SeedSequence, torch or numpy Generator, or None) is the source of the data
    matrices, drawn load by load from :func:`gendyn.seeding.torch_generator` of it; ``None``: fresh
    entropy (see :mod:`gendyn.seeding`). The former ``seed=`` is accepted for one more release with a
    ``DeprecationWarning``.
    """
    rng = seeding.former_rng(rng, former, "linear_experiments.sample_spectra", alone=True)
    alphas, p = _check_alphas_n(alphas, n)
    repeats = _checks.integer(repeats, "repeats")
    chunk = _checks.integer(chunk, "chunk")
    n_sets = float(len(alphas)) * repeats
    _checks.work_limit(10.0 * n_sets * (n**3 + n * n * float(np.max(p))),
                       f"repeats={repeats} with {len(alphas)} loads and n={n}", memory=8.0 * n_sets * n,
                       iterations=n_sets / chunk)
    device, dtype = _check_torch(device, dtype)
    gen = seeding.torch_generator(rng)
    out = []
    for i in range(len(alphas)):
        for start in range(0, repeats, chunk):
            m = min(chunk, repeats - start)
            X = _random.randn(m, n, int(p[i]), generator=gen, device=device, dtype=dtype) / np.sqrt(n)
            lam = torch.linalg.eigvalsh(X @ X.mT).clamp_min(0.0)
            lam = torch.where(lam > _ACTIVE * lam.amax(-1, keepdim=True), lam, torch.zeros_like(lam))
            out.append(lam.cpu().numpy())
    return np.concatenate(out).reshape(len(alphas), repeats, n)


class ConditionErrors(NamedTuple):
    """Converged, early-stopped and frozen-subspace errors per condition, load and draw (:func:`condition_errors`)."""

    converged: np.ndarray  # (C, A, S K) test error at the last time (t = inf)
    early_stopped: np.ndarray  # (C, A, S K) test error at each load's and condition's stopping time
    frozen: np.ndarray  # (C, A, S K) error on the directions orthogonal to the data, at the first time


def condition_errors(test_error: ArrayLike, frozen: ArrayLike, times: ArrayLike, t_stop: ArrayLike) -> ConditionErrors:
    """Read the converged and the early-stopped error of every student of a sweep, per condition.

    Parameters
    ----------
    test_error, frozen : array_like, shape (A, S, C, K, T)
        ``test_error`` and ``frozen`` of :func:`simulate_linear_student` over ``A`` loads, ``S`` datasets,
        ``C`` (SNR, INR) conditions and ``K`` draws, measured at ``times``.
    times : array_like (T,)
        The ascending measurement times; the last is the converged one (``np.inf``), and they hold every
        stopping time.
    t_stop : array_like, shape (A, C)
        The stopping time of each load and condition (e.g. the optimal one of eq. (6),
        :func:`gendyn.linear_student.optimal_stopping_error`: an oracle, the same for every dataset).

    Returns
    -------
    ConditionErrors
        ``(C, A, S K)`` arrays, the draws of all datasets of a load together.

    References
    ----------
    Advani, Saxe & Sompolinsky (2020), slides "Interpreting (5)" and "Double Descent".
    """
    eg = _checks.real_array(test_error, "test_error", lower=0, allow_inf=False, ndim=5, extra=" (A, S, C, K, T)")
    fz = _checks.real_array(frozen, "frozen", lower=0, ndim=5, extra=" (A, S, C, K, T)")
    if fz.shape != eg.shape:
        raise ValueError(f"frozen must have the shape of test_error {eg.shape}; got {fz.shape}")
    times = _checks.flow_times(times)
    A, S, C, K, T = eg.shape
    if times.size != T or np.any(np.diff(times) <= 0):
        raise ValueError(f"times must be the {T} ascending measurement times of test_error; got {times.tolist()[:5]}")
    t_stop = _checks.real_array(t_stop, "t_stop", lower=0, allow_inf=True, ndim=2, extra=" (A, C)")
    if t_stop.shape != (A, C):
        raise ValueError(f"t_stop must have shape (A, C) = {(A, C)}; got {t_stop.shape}")
    col_stop = np.searchsorted(times, t_stop)  # (A, C) column of each load's own stopping time
    if np.any(col_stop >= T) or np.any(times[np.minimum(col_stop, T - 1)] != t_stop):
        raise ValueError("times must hold every stopping time of t_stop")

    def draws(x):  # -> (C, A, draws, T)
        return np.moveaxis(x, 2, 0).reshape(C, A, S * K, -1)

    eg = draws(eg)
    early = np.stack([eg[c, np.arange(A), :, col_stop[:, c]] for c in range(C)])
    return ConditionErrors(converged=eg[..., -1], early_stopped=early, frozen=draws(fz)[..., 0])


@dataclass(frozen=True)
class GDVersusFlow:
    """Gradient descent and the exact flow of the same linear students, per load (:func:`gd_versus_flow`).

    ``A`` loads, ``S`` datasets per load, ``K`` draws of teacher, noise and initial weights per dataset
    trained by gradient descent (the first ``K`` of the ``KF`` the flow trains), ``N`` inputs; errors in
    units of ``sigma_w^2``.

    Attributes
    ----------
    alphas : ndarray (A,)
        Loads ``P/N``.
    n_features : int
        Input dimension ``N``.
    lr : float
        Gradient-descent step; step ``k`` is time ``t = k lr`` (units of tau).
    steps : ndarray (Tg,)
        Gradient-descent steps measured.
    times : ndarray (T,)
        Times of the flow.
    gd_test, gd_train : ndarray (A, S, K, Tg)
        Test and training error of gradient descent.
    flow_test, flow_train : ndarray (A, S, KF, T)
        Test and training error of the exact flow.
    scale, overfit, cross, frozen : ndarray (A, S, KF, T)
        The parts of the flow's test error (:func:`linear_student_flow`).
    cov_eigvals : ndarray (A, S, N)
        Spectrum of each dataset's ``X X^T`` (frozen modes 0).
    """

    alphas: np.ndarray
    n_features: int
    lr: float
    steps: np.ndarray
    times: np.ndarray
    gd_test: np.ndarray
    gd_train: np.ndarray
    flow_test: np.ndarray
    flow_train: np.ndarray
    scale: np.ndarray
    overfit: np.ndarray
    cross: np.ndarray
    frozen: np.ndarray
    cov_eigvals: np.ndarray

    @property
    def t_gd(self) -> np.ndarray:
        """Times ``steps * lr`` of the gradient-descent measurements (units of tau)."""
        return self.steps * self.lr

    @property
    def n_train(self) -> np.ndarray:
        """Examples ``P = round(alpha N)`` of each load, ``(A,)``."""
        return np.rint(self.alphas * self.n_features).astype(int)

    @property
    def on_gd(self) -> np.ndarray:
        """Columns of ``times`` that coincide with the gradient-descent measurements ``t_gd``."""
        cols = np.searchsorted(self.times, self.t_gd)
        if np.any(cols >= self.times.size) or np.any(self.times[np.minimum(cols, self.times.size - 1)] != self.t_gd):
            raise ValueError("the flow's times must hold every gradient-descent time steps * lr")
        return cols


def gd_versus_flow(batch: LinearStudentBatch, alphas: ArrayLike, lr: float, steps: ArrayLike, times: ArrayLike, *,
                   gd_teachers: int) -> GDVersusFlow:
    """Train the students of ``batch`` by gradient descent and by the exact flow, on the same draws.

    Gradient descent (:func:`linear_student_gd`) trains the first ``gd_teachers`` draws of every dataset,
    the exact flow (:func:`linear_student_flow`, eqs. (2)-(4)) all of them; its test error is split into
    the scale, overfitting, cross and frozen parts of eq. (4). The theory of the same datasets is eq. (5)
    (:func:`gendyn.linear_student.sampled_dataset_errors`), for gradient descent eq. (5')
    (:func:`gendyn.linear_student.single_dataset_gd_error`).

    Parameters
    ----------
    batch : LinearStudentBatch
        Datasets of one condition (one ``teacher_var, init_var, noise_var``), load-major
        (:func:`draw_linear_student` with ``alphas``).
    alphas : array_like
        The loads of ``batch`` (``A`` values; ``len(batch) = A S``).
    lr : float
        Gradient-descent step, stable for ``lr lambda_max < 2``.
    steps : array_like of int
        Ascending step counts to measure gradient descent at.
    times : array_like
        Times of the flow, ``>= 0`` (``np.inf`` allowed), in units of tau.
    gd_teachers : int
        Draws per dataset trained by gradient descent (``1 <= K <= KF``).

    Returns
    -------
    GDVersusFlow
        Every error as numpy arrays per load.

    References
    ----------
    Advani, Saxe & Sompolinsky (2020), slides eqs. (2)-(5).
    """
    _checks.instance(batch, "batch", LinearStudentBatch, hint=" (from draw_linear_student)")
    n = batch.n
    alphas, p = _check_alphas_n(alphas, n)
    n_sets, n_draws = batch.X.shape[0], batch.g_w.shape[1]
    if n_sets % len(alphas) or not np.array_equal(batch.p.cpu().numpy().reshape(len(alphas), -1),
                                                  np.repeat(p, n_sets // len(alphas)).reshape(len(alphas), -1)):
        raise ValueError(f"alphas must be the loads of batch, load-major (P = {p.tolist()}); got batch with "
                         f"P = {batch.p.tolist()[:8]}")
    if batch.noise_var.numel() != 1:
        raise ValueError(f"batch must hold one condition; got {batch.noise_var.numel()}")
    gd_teachers = _checks.integer(gd_teachers, "gd_teachers", meaning=f" (at most the {n_draws} draws of batch)")
    if gd_teachers > n_draws:
        raise ValueError(f"gd_teachers must be at most the {n_draws} draws per dataset of batch; got {gd_teachers}")
    lr = _checks.bounded(lr, "lr", 0, open_lower=True)
    steps = _check_steps(steps)
    first = dataclasses.replace(batch, g_w=batch.g_w[:, :gd_teachers], g_0=batch.g_0[:, :gd_teachers],
                                g_e=batch.g_e[:, :gd_teachers])
    gd = linear_student_gd(first, lr, steps)
    flow = linear_student_flow(batch, times)
    A = len(alphas)
    host = lambda key, out: out[key].cpu().numpy().reshape(A, n_sets // A, out[key].shape[2], -1)  # noqa: E731
    return GDVersusFlow(
        alphas=alphas, n_features=n, lr=lr, steps=steps, times=np.asarray(_checks.flow_times(times)),
        gd_test=host("test_error", gd), gd_train=host("train_error", gd),
        flow_test=host("test_error", flow), flow_train=host("train_error", flow),
        scale=host("scale", flow), overfit=host("overfit", flow), cross=host("cross", flow),
        frozen=host("frozen", flow), cov_eigvals=flow["cov_eigvals"].cpu().numpy().reshape(A, n_sets // A, n))


@dataclass(frozen=True)
class StoppingVsRidge:
    """Optimal-ridge and early-stopped errors of finite datasets (:func:`early_stopping_vs_ridge`).

    ``A`` loads, ``S`` datasets per load; errors averaged over teacher and label noise, in units of
    ``sigma_w^2``.

    Attributes
    ----------
    alphas : ndarray (A,)
        Loads ``alpha = P/N``.
    n_features : int
        Input dimension ``N``.
    snr : float
        Signal-to-noise ratio of the labels.
    ridge : ndarray (A, S)
        Error of ridge regression at ``gamma* = 1/SNR`` on each dataset.
    early_stopped : ndarray (A, S)
        Minimum over time of each dataset's gradient-flow error, eq. (5) with ``INR = 0``.
    """

    alphas: np.ndarray
    n_features: int
    snr: float
    ridge: np.ndarray
    early_stopped: np.ndarray

    @property
    def excess(self) -> np.ndarray:
        """``early_stopped - ridge`` dataset by dataset, ``(A, S)`` (never negative: ridge at ``gamma*`` is optimal)."""
        return self.early_stopped - self.ridge


def early_stopping_vs_ridge(alphas: ArrayLike, n_features: int, repeats: int, *, snr: float,
                            rng: seeding.Rng = None, **former: object) -> StoppingVsRidge:
    """Early stopping against optimal ridge on finite Gaussian datasets, averaged over teacher and noise.

    For each load in turn, ``repeats`` data matrices ``X`` (``N x round(alpha N)``, entries ``N(0, 1/N)``) are
    drawn; each gives the error of ridge at ``gamma* = 1/SNR``
    (:func:`gendyn.linear_student.single_dataset_ridge_error`) and the minimum over time of eq. (5) with
    ``INR = 0`` (:func:`gendyn.linear_student.single_dataset_error`): a log grid of 2001 times in
    ``[1e-2, 1e4]`` (units of tau), refined around its best point (:func:`gendyn.stopping.minimum_over_time`;
    a grid alone would favour ridge). Their Marchenko-Pastur averages are
    :func:`gendyn.linear_student.ridge_error` and :func:`gendyn.linear_student.optimal_stopping_error` (eq. (6)).

    Parameters
    ----------
    alphas : array_like
        Loads ``alpha = P/N`` (``A`` values, each with ``round(alpha N) >= 1``).
    n_features : int
        Input dimension ``N``.
    repeats : int
        Datasets per load (``S``).
    snr : float
        Signal-to-noise ratio, finite and ``> 0`` (``gamma* = 1/SNR``).
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the data matrices, drawn load by load in the order given from
        :func:`gendyn.seeding.numpy_generator` of it (``numpy.random.default_rng(rng)`` for an integer or a
        ``SeedSequence``): appending a load keeps the draws of the earlier ones. ``None``: fresh entropy (see
        :mod:`gendyn.seeding`).
    **former
        Deprecated: ``seed=`` (now ``rng``), accepted for one more release with a ``DeprecationWarning``.

    Returns
    -------
    StoppingVsRidge
        The errors of every dataset, ``(A, S)`` each.

    References
    ----------
    Advani, Saxe & Sompolinsky (2020), eqs. (5)-(6) and the comparison of early stopping with L2
    regularisation.
    """
    rng = seeding.former_rng(rng, former, "linear_experiments.early_stopping_vs_ridge", alone=True)
    alphas, p = _check_alphas_n(alphas, n_features, "n_features")
    n_features = int(n_features)
    repeats = _checks.integer(repeats, "repeats")
    snr = _checks.real(snr, "snr", positive=True, extra=" (gamma* = 1/snr)")
    n_sets = float(len(alphas)) * repeats
    _checks.work_limit(n_sets * (10.0 * n_features**3 + 2.0 * n_features**2 * float(p.max()) + 1e4 * n_features),
                       f"repeats={repeats} with {len(alphas)} loads and n_features={n_features}",
                       memory=8.0 * n_features * (float(p.max()) + n_features + 2001.0), iterations=n_sets)
    gen = seeding.numpy_generator(rng)
    ridge = np.empty((len(alphas), repeats))
    early = np.empty((len(alphas), repeats))
    for i, n_train in enumerate(p):
        for r in range(repeats):
            x = gen.standard_normal((n_features, n_train)) / np.sqrt(n_features)
            lam = np.linalg.eigvalsh(x @ x.T)
            ridge[i, r] = ls.single_dataset_ridge_error(lam, snr)
            _, early[i, r] = stopping.minimum_over_time(
                lambda t: ls.single_dataset_error(t[:, None], lam[None], snr, 0.0), 1e-2, 1e4, points=2001)
    return StoppingVsRidge(alphas=alphas, n_features=n_features, snr=snr, ridge=ridge, early_stopped=early)


# ----------------------------------------------------------------------------- per-mode stopping times


@dataclass(frozen=True)
class PerModeStopping:
    """Gradient descent on one dataset, measured mode by mode (:func:`per_mode_stopping_gd`).

    ``T = steps + 1`` measurements (every step from 0), ``N`` modes; errors are means over the ``K``
    teacher and noise draws, in units of ``sigma_w^2``.

    Attributes
    ----------
    alpha : float
        Load ``P/N``.
    n_features : int
        Input dimension ``N``.
    snr : float
        ``sigma_w^2 / sigma_eps^2``.
    lr : float
        Learning rate; step ``k`` is time ``t = k lr`` (units of tau).
    teachers : int
        Draws ``K`` of teacher and label noise.
    cov_eigvals : ndarray (N,)
        Spectrum of ``X X^T``, ascending (frozen modes set to 0).
    mode_error : ndarray (T, N)
        Mean over draws of ``(zbar_i - z_i)^2`` after each step, mode ``i`` of ``cov_eigvals``.
    test_error, train_error : ndarray (T,)
        Mean over draws of ``|wbar - w|^2/N + 1/SNR`` and ``|y - wX|^2/P`` after each step.
    t_stop : ndarray (N,)
        Each mode's best stopping time: the minimum of its ``mode_error`` over the steps (refined by a
        parabola through the best step and its neighbours), converted to gradient-flow time by the exact
        map of the mode, ``t = k log(1/(1 - lr lambda_i)) / lambda_i`` (``(1 - lr lambda)^k = e^{-lambda t}``).
        NaN on frozen modes and where the minimum is the first or last step.
    """

    alpha: float
    n_features: int
    snr: float
    lr: float
    teachers: int
    cov_eigvals: np.ndarray
    mode_error: np.ndarray
    test_error: np.ndarray
    train_error: np.ndarray
    t_stop: np.ndarray

    @property
    def times(self) -> np.ndarray:
        """``k lr`` for the ``T`` measurements (units of tau)."""
        return np.arange(self.mode_error.shape[0]) * self.lr


def _best_steps(err):
    """Per column of ``err`` ``(T, N)``: the minimising step, refined by a parabola; NaN at the ends."""
    k0 = np.argmin(err, axis=0)
    inner = (k0 > 0) & (k0 < err.shape[0] - 1)
    k = np.clip(k0, 1, err.shape[0] - 2)
    cols = np.arange(err.shape[1])
    lo, mid, hi = err[k - 1, cols], err[k, cols], err[k + 1, cols]
    curv = lo - 2.0 * mid + hi
    with np.errstate(divide="ignore", invalid="ignore"):
        shift = np.where(curv > 0, 0.5 * (lo - hi) / curv, 0.0)
    return np.where(inner, k + np.clip(shift, -0.5, 0.5), np.nan)


def per_mode_stopping_gd(alpha: float, n_features: int, teachers: int, *, snr: float, lr: float, steps: int,
                         execution: Execution | None = None, **flat: object) -> PerModeStopping:
    """Each eigenmode's optimal stopping time, found by gradient descent on one sampled dataset.

    One data matrix ``X`` (``N x round(alpha N)``, entries ``N(0, 1/N)``) and ``K = teachers`` draws of
    teacher ``wbar ~ N(0, 1)`` and label noise ``eps ~ N(0, 1/SNR)`` (:func:`draw_linear_student`); each
    student is trained from zero weights by full-batch gradient descent ``w <- w + lr (y - w X) X^T`` on its
    raw weights (not mode by mode), and after every step the weights are rotated onto the eigenvectors of
    ``X X^T`` to measure each mode's squared distance to the teacher, averaged over the draws. Its minimum
    over the steps is the mode's simulated optimal stopping time (:attr:`PerModeStopping.t_stop`); the
    paper's per-mode formula is :func:`gendyn.linear_student.per_mode_stopping_time`.

    Parameters
    ----------
    alpha : float
        Load ``P/N > 0``.
    n_features : int
        Input dimension ``N``.
    teachers : int
        Teacher and noise draws ``K`` on the dataset.
    snr : float
        ``SNR > 0``, finite.
    lr : float
        Learning rate, ``lr lambda_max < 1`` (each mode decays monotonically).
    steps : int
        Gradient-descent steps; ``steps lr`` should exceed the slowest mode's optimal time
        (``<= SNR`` in units of tau), or that mode's ``t_stop`` is NaN.
    execution : Execution, optional
        The ``rng`` of the draws (the dataset, then the teachers and the noise), and where and in what
        precision the students are trained (``chunk`` must be ``None``). Default ``Execution()`` (fresh
        entropy).
    **flat
        Deprecated: ``seed`` (now ``execution.rng``), ``device``, ``dtype`` as keywords, accepted for one more
        release with a ``DeprecationWarning``; pass ``execution=Execution(...)``.

    Returns
    -------
    PerModeStopping
    """
    if flat:
        execution = _flat_specs("per_mode_stopping_gd", flat, {"execution": (
            Execution, execution, {"seed": "rng", "device": "device", "dtype": "dtype"})})["execution"]
    execution = _unbatched(_spec(execution, "execution", Execution), "per_mode_stopping_gd")
    alpha = _checks.real(alpha, "alpha", positive=True, extra=" (the load P/N)")
    alphas, _ = _check_alphas_n([alpha], n_features, "n_features")
    n = int(n_features)
    teachers = _checks.integer(teachers, "teachers")
    snr = _checks.real(snr, "snr", positive=True, extra=" (finite)")
    lr = _checks.bounded(lr, "lr", 0, open_lower=True)
    steps = _checks.integer(steps, "steps")
    device, dtype = execution.device, execution.dtype
    p = int(round(alpha * n))
    _checks.work_limit(4.0 * (steps + 1) * teachers * n * max(n, p), f"steps={steps} with teachers={teachers} "
                       f"and n_features={n}", memory=8.0 * (steps + 1) * n + 8.0 * teachers * (n + p),
                       iterations=float(steps + 1))
    batch = draw_linear_student(alphas, n, 1, teachers=teachers,
                                variances=Variances(teacher_var=1.0, init_var=0.0, noise_var=1.0 / snr),
                                rng=execution.rng, device=device, dtype=dtype)
    wbar, _, eps = batch.weights()
    X, wbar, eps = batch.X[0], wbar[0, 0], eps[0, 0]
    sigma = X @ X.mT
    flow = EigenFlow.of(sigma)
    lam = torch.where(flow.active, flow.eigvals, torch.zeros_like(flow.eigvals))
    lam_max = float(lam.amax())
    if lr * lam_max >= 1.0:
        raise ValueError(f"lr = {lr} is too large: lr * lambda_max = {lr * lam_max:.3g} >= 1")
    V = flow.eigvecs
    y = wbar @ X + eps
    b = y @ X.mT
    zbar = wbar @ V
    w = torch.zeros_like(wbar)
    modes, test, train = [], [], []
    for k in track(range(steps + 1), desc="gradient descent, mode by mode"):
        if k:
            w += lr * (b - w @ sigma)
        modes.append(((zbar - w @ V) ** 2).mean(0))
        test.append(((wbar - w) ** 2).sum(-1).mean() / n)
        train.append(((y - w @ X) ** 2).sum(-1).mean() / p)
    lam_np = lam.cpu().numpy()
    mode_error = torch.stack(modes).cpu().numpy()
    k_best = _best_steps(mode_error)
    active = lam_np > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        per_step = np.where(active, -np.log1p(-lr * lam_np) / np.where(active, lam_np, 1.0), np.nan)
    return PerModeStopping(alpha=alpha, n_features=n, snr=snr, lr=lr, teachers=teachers, cov_eigvals=lam_np,
                           mode_error=mode_error, test_error=torch.stack(test).cpu().numpy() + 1.0 / snr,
                           train_error=torch.stack(train).cpu().numpy(), t_stop=k_best * per_step)


# ----------------------------------------------------------------------------- random features


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class RandomFeatureSweep(_checks.FormerlyDict):
    """Gradient flow of random-feature ReLU networks over a sweep of widths (:func:`random_feature_relu`).

    ``G`` widths, ``S`` seeds, ``K`` label draws, ``T`` times, ``P`` training examples; numpy arrays on the host.

    Attributes
    ----------
    hidden : ndarray (G,)
        Widths ``N_h`` (ascending; nested networks).
    train_error, test_error : ndarray (G, S, K, T)
        ``E_t`` on the training set and ``E_g = mean_test (yhat - wbar . x)^2 + noise_var`` (the error on fresh
        noisy labels).
    weight_norm_sq : ndarray (G, S, K, T)
        ``||w(t)||^2``, eq. (10) (zero initialisation).
    eigvals : ndarray (G, S, P)
        Spectrum of the feature Gram matrix ``X_h^T X_h`` (ascending, frozen modes exactly 0; its nonzero part is
        that of ``X_h X_h^T``).
    ztilde_sq : ndarray (G, S, K, P)
        ``ztilde_i^2 = (y X_h^T V)_i^2`` on the same modes (zero on frozen ones), eqs. (2), (9).
    b1 : ndarray (G, S)
        ``max_a ||W1_a||``.
    c : ndarray (S,)
        ``max_mu ||x^mu||`` over the training inputs.
    noise_var : float
        Variance of the label noise, ``1/snr``.
    """

    hidden: np.ndarray
    train_error: np.ndarray
    test_error: np.ndarray
    weight_norm_sq: np.ndarray
    eigvals: np.ndarray
    ztilde_sq: np.ndarray
    b1: np.ndarray
    c: np.ndarray
    noise_var: float

    @property
    def n_samples(self) -> int:
        """Training examples ``P``."""
        return self.eigvals.shape[-1]


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class RandomFeatureGD(_checks.FormerlyDict):
    """Gradient descent of random-feature ReLU networks on teacher and on random labels (:func:`random_feature_gd`).

    ``S`` draws of inputs and first layer, ``K`` label draws of each kind, ``T`` measured steps, ``P`` examples;
    the first axis of the errors and of ``label_power`` is the kind of labels (0: teacher, 1: random).

    Attributes
    ----------
    train_error, test_error : ndarray (2, S, K, T)
        Training and test error (the test error of random labels is against fresh random labels,
        ``var + E yhat(x)^2``).
    times : ndarray (T,)
        ``k lr``, the steps in units of tau.
    lr : float
        The learning rate.
    eigvals : ndarray (S, P)
        Spectrum of the Gram matrix ``X_h^T X_h``.
    label_power : ndarray (2, S, P)
        Mean over label draws of ``ytilde_k^2`` on the Gram eigenvectors ``u_k``, so that the mean training error
        after ``k`` steps is ``(1/P) sum_k (1 - lr s_k)^(2k) label_power_k``
        (:func:`gendyn.linear_student.gd_training_error`).
    label_var : float
        Variance of a label, ``1 + noise_var`` for both kinds.
    """

    train_error: np.ndarray
    test_error: np.ndarray
    times: np.ndarray
    lr: float
    eigvals: np.ndarray
    label_power: np.ndarray
    label_var: float


def _rf_inputs(n_in, n_samples, n_test, repeats, teachers, snr, gen, device, dtype):
    kw = dict(generator=gen, device=device, dtype=dtype)
    x = _random.randn(repeats, n_in, n_samples + n_test, **kw) / np.sqrt(n_in)
    wbar = _random.randn(repeats, teachers, n_in, **kw)
    clean = wbar @ x  # (S, K, P + P_test)
    noise_var = 0.0 if np.isinf(snr) else 1.0 / snr
    y = clean[..., :n_samples] + np.sqrt(noise_var) * _random.randn(repeats, teachers, n_samples, **kw)
    return x, clean, y, noise_var


def random_feature_relu(n_in: int, n_samples: int, hidden: ArrayLike, repeats: int, times: ArrayLike, *,
                        labels: LinearLabels | None = None, execution: Execution | None = None,
                        **flat: object) -> RandomFeatureSweep:
    """Gradient flow of the second layer of random-feature ReLU networks over a sweep of widths.

    Parameters
    ----------
    n_in : int
        Input dimension ``N_i``.
    n_samples : int
        Training examples ``P``.
    hidden : array_like of int
        Widths ``N_h`` (``G`` values, ascending); nested networks (module docstring).
    repeats : int
        Independent draws of inputs, first layer and teacher (``S``).
    times : array_like
        Times in units of tau (``np.inf``: converged, the minimum-norm interpolant when
        ``N_h >= P``).
    labels : LinearLabels, optional
        The SNR of the training labels (teacher ``wbar ~ N(0, I)``), the label draws per seed (``K``) and the
        test inputs of the Monte Carlo test error (shared by all widths of a seed). Default ``LinearLabels()``.
    execution : Execution, optional
        ``rng`` (the source of every draw: inputs, teachers, noise, then the first layer chunk by chunk), device,
        dtype and ``chunk``: hidden units per accumulation step (default 256; memory
        ``~ S * chunk * (P + n_test) * 8`` bytes). Default ``Execution()`` (fresh entropy).
    **flat
        Deprecated: ``snr``, ``n_test``, ``teachers`` (``labels``) and ``seed`` (now ``rng``), ``device``,
        ``block`` (now ``chunk``), ``dtype`` (``execution``) as keywords, accepted for one more release with a
        ``DeprecationWarning``.

    Returns
    -------
    RandomFeatureSweep
        Errors, weight norms and the spectral quantities of the bounds (eqs. (9)-(12)) of every network.
    """
    if flat:
        specs = _flat_specs("random_feature_relu", flat, {
            "labels": (LinearLabels, labels, {k: k for k in ("snr", "n_test", "teachers")}),
            "execution": (Execution, execution, {"seed": "rng", "device": "device", "block": "chunk",
                                                 "dtype": "dtype"})})
        labels, execution = specs["labels"], specs["execution"]
    labels, execution = _spec(labels, "labels", LinearLabels), _spec(execution, "execution", Execution)
    snr, n_test, teachers = labels.snr, labels.n_test, labels.teachers
    block = 256 if execution.chunk is None else execution.chunk
    for name, v in (("n_in", n_in), ("n_samples", n_samples), ("repeats", repeats)):
        _checks.integer(v, name)
    hidden = _checks.widths(hidden)
    times = _checks.flow_times(times)
    n_all, h_max = float(n_samples) + n_test, float(hidden[-1])
    _checks.work_limit(2.0 * repeats * h_max * n_all * (n_in + n_samples),
                       f"hidden up to {int(h_max)} with repeats={repeats}, n_in={n_in}, n_samples={n_samples}, "
                       f"n_test={n_test}",
                       memory=8.0 * repeats * (n_all * (n_in + teachers + block) + (len(hidden) + 2) * n_samples * n_all
                                               + 6.0 * len(hidden) * teachers * (len(times) + n_samples)),
                       iterations=h_max / block)
    device, dtype = execution.device, execution.dtype
    gen = seeding.torch_generator(execution.rng)
    P = n_samples
    x, clean, y, noise_var = _rf_inputs(n_in, P, n_test, repeats, teachers, snr, gen, device, dtype)
    kw = dict(generator=gen, device=device, dtype=dtype)
    S, G = repeats, len(hidden)
    # one pass over the hidden units, accumulating the Gram matrices of all widths at once
    gram = torch.zeros(S, P, P + n_test, device=device, dtype=dtype)
    grams, b1s = [], []
    b1 = torch.zeros(S, device=device, dtype=dtype)
    done = 0
    for target in track(hidden.tolist(), desc=f"random ReLU features, P={P}"):
        while done < target:
            m = min(block, target - done)
            W1 = _random.randn(S, m, n_in, **kw)
            phi = torch.relu(W1 @ x)  # (S, m, P + P_test)
            gram += phi[:, :, :P].mT @ phi
            b1 = torch.maximum(b1, W1.norm(dim=-1).amax(-1))
            done += m
        grams.append(gram / target)
        b1s.append(b1.clone())
    K_all = torch.stack(grams)  # (G, S, P, P + P_test)
    flow = EigenFlow.of(K_all[..., :P])  # (G, S, P), ascending
    s, U, active = flow.eigvals, flow.eigvecs, flow.active
    yt = y[None] @ U  # (G, S, K, P): labels on the Gram eigenvectors
    ztilde_sq = torch.where(active[:, :, None], yt**2 * s[:, :, None], torch.zeros_like(yt))
    inv_s = flow.inverse()
    cross = U.mT @ K_all[..., P:]  # (G, S, P, P_test): u_k^T X_h^T X_h,test
    e = flow.decay(torch.as_tensor(times, device=device, dtype=dtype))  # frozen modes never move (from w = 0)
    g = 1.0 - e  # (G, S, P, T)
    # training residual on mode k: ytilde_k e_k (frozen modes keep their labels)
    train = ((yt**2) @ (e**2)) / P  # (G, S, K, T)
    norm_sq = ((yt**2 * inv_s[:, :, None]) @ (g**2))  # sum ytilde^2 (1 - e)^2 / s
    coef = yt[..., None] * (g * inv_s[..., None])[:, :, None]  # (G, S, K, P, T)
    pred = torch.einsum("gskpt,gspq->gsktq", coef, cross)  # (G, S, K, T, P_test)
    target_test = clean[..., P:][None, :, :, None, :]
    test = ((pred - target_test) ** 2).mean(-1) + noise_var
    return RandomFeatureSweep(
        hidden=hidden, train_error=train.cpu().numpy(), test_error=test.cpu().numpy(),
        weight_norm_sq=norm_sq.cpu().numpy(), eigvals=torch.where(active, s, torch.zeros_like(s)).cpu().numpy(),
        ztilde_sq=ztilde_sq.cpu().numpy(), b1=torch.stack(b1s).cpu().numpy(),
        c=x[..., :P].norm(dim=1).amax(-1).cpu().numpy(), noise_var=noise_var,
    )


@dataclass(frozen=True)
class RandomFeatureBounds:
    """The measured generalisation gap of a width sweep and its bounds, eqs. (7), (8), (11), (12).

    ``G`` widths, ``S`` seeds, ``T`` times (:func:`random_feature_bounds`).

    Attributes
    ----------
    hidden : ndarray (G,)
        Widths ``N_h``.
    n_samples : int
        Training examples ``P``.
    gap : ndarray (G, S, T)
        Measured ``E_g - E_t`` along the flow.
    sup_gap : ndarray (G, S)
        Its worst case over time (the bounds hold at every time).
    norm : ndarray (G, S, T)
        ``||w(t)|| / sqrt(N_h)``.
    b2_dyn : ndarray (G, S)
        ``B_2`` of eq. (11).
    b2_fixed : float
        One budget for eq. (8): the largest ``b2_dyn`` over the widths ``N_h >= 2P``.
    bound12, bound8_fixed, bound8_post : ndarray (G, S)
        Eq. (7) with the complexity of eq. (12), of eq. (8) at ``b2_fixed`` and of eq. (8) at the reached norm.
    """

    hidden: np.ndarray
    n_samples: int
    gap: np.ndarray
    sup_gap: np.ndarray
    norm: np.ndarray
    b2_dyn: np.ndarray
    b2_fixed: float
    bound12: np.ndarray
    bound8_fixed: np.ndarray
    bound8_post: np.ndarray

    @property
    def wide(self) -> np.ndarray:
        """Mask of the widths ``N_h >= 2P``."""
        return self.hidden >= 2 * self.n_samples

    def looseness(self) -> float:
        """Mean ratio of the dynamics bound (7)+(12) to the measured gap at the widest network."""
        return float(np.mean(self.bound12[-1] / self.sup_gap[-1]))


def random_feature_bounds(sweep: RandomFeatureSweep, *, delta: float = 0.05, teacher: int = 0) -> RandomFeatureBounds:
    """The generalisation-gap bounds of every network of a width sweep, from its measured quantities.

    ``B_1 = max_a ||W1_a||``, ``C = max_mu ||x^mu||``, ``max_i ztilde_i^2`` and the smallest nonzero eigenvalue
    of ``X_h X_h^T`` (:func:`gendyn.linear_student.sampled_eigengap`) of each network enter
    :func:`gendyn.linear_student.dynamics_weight_norm_bound` (eq. (11)), ``dynamics_bound`` (eq. (12)),
    ``rademacher_bound`` (eq. (8)) and ``generalization_gap_bound`` (eq. (7)).

    Parameters
    ----------
    sweep : RandomFeatureSweep
        The result of :func:`random_feature_relu`; it needs a width ``N_h >= 2P`` (the fixed budget of eq. (8)).
    delta : float
        Failure probability of eq. (7), in ``(0, 1)``.
    teacher : int
        The label draw (index ``k < K`` of the sweep) whose gap is bounded.

    Returns
    -------
    RandomFeatureBounds
        The measured gap and norm along the flow, ``B_2`` of eq. (11) and the three bounds, per width and seed.

    References
    ----------
    Advani, Saxe & Sompolinsky (2020), as in the MIT 18.338 slides, eqs. (7)-(12).
    """
    if not isinstance(sweep, RandomFeatureSweep):
        raise ValueError(f"sweep must be the RandomFeatureSweep of random_feature_relu; got {type(sweep).__name__}")
    delta = _checks.bounded(delta, "delta", 0, 1, open_lower=True, open_upper=True, extra=" (failure probability)")
    k = _checks.integer(teacher, "teacher", 0)
    if k >= sweep.train_error.shape[2]:
        raise ValueError(f"teacher must be an integer < {sweep.train_error.shape[2]} (the sweep's label draws); "
                         f"got {teacher!r}")
    nh, P = sweep.hidden, sweep.n_samples
    if not np.any(nh >= 2 * P):
        raise ValueError(f"sweep must include a width N_h >= 2P = {2 * P} (the fixed budget of eq. (8)); "
                         f"got hidden = {nh.tolist()}")
    gap = (sweep.test_error - sweep.train_error)[:, :, k]  # (G, S, T)
    sup_gap = gap.max(-1)  # the bound holds at every time, so compare its worst case
    norm = np.sqrt(sweep.weight_norm_sq[:, :, k] / nh[:, None, None])  # ||w(t)|| / sqrt(N_h), (G, S, T)
    lam_min = ls.sampled_eigengap(sweep.eigvals)  # (G, S)
    max_zt = sweep.ztilde_sq[:, :, k].max(-1)  # (G, S)
    b1, c_in = sweep.b1, sweep.c[None, :]
    b2_dyn = ls.dynamics_weight_norm_bound(nh[:, None], P, max_zt, lam_min)  # eq. (11), (G, S)
    r12 = ls.dynamics_bound(nh[:, None], P, max_zt, lam_min, b1=b1, c=c_in)  # eq. (12)
    b2_fixed = b2_dyn[nh >= 2 * P].max()
    r8_fixed = ls.rademacher_bound(nh[:, None], P, b1=b1, b2=b2_fixed, c=c_in)
    r8_post = ls.rademacher_bound(nh[:, None], P, b1=b1, b2=norm.max(-1), c=c_in)
    return RandomFeatureBounds(
        hidden=nh, n_samples=P, gap=gap, sup_gap=sup_gap, norm=norm, b2_dyn=b2_dyn, b2_fixed=b2_fixed,
        bound12=ls.generalization_gap_bound(r12, P, delta),
        bound8_fixed=ls.generalization_gap_bound(r8_fixed, P, delta),
        bound8_post=ls.generalization_gap_bound(r8_post, P, delta),
    )


def random_feature_gd(n_in: int, n_samples: int, n_hidden: int, repeats: int, steps: ArrayLike, *,
                      lr: float | None = None, labels: LinearLabels | None = None, execution: Execution | None = None,
                      **flat: object) -> RandomFeatureGD:
    """Gradient descent on the second layer of random-feature ReLU networks: teacher vs random labels.

    Each of the ``repeats`` draws of inputs and first layer is trained ``2 * teachers`` times
    from ``w = 0`` by ``w <- w + lr (y - w X_h) X_h^T``: with labels of the linear teacher
    ``y = wbar . x + eps`` (``wbar ~ N(0, I)``, ``eps ~ N(0, 1/snr)``), and with random
    labels ``y ~ N(0, 1 + 1/snr)``, independent of the inputs and of the same variance
    (``E|wbar . x|^2 = 1``).

    Parameters
    ----------
    n_in, n_samples, n_hidden : int
        ``N_i``, ``P``, ``N_h``.
    repeats : int
        Draws of inputs and first layer (``S``).
    steps : array_like of int
        Ascending step counts at which to measure.
    lr : float, optional
        Learning rate; default ``1 / max_s`` (the largest Gram eigenvalue over the batch),
        half the stability limit.
    labels : LinearLabels, optional
        The SNR, the label draws per seed (``K`` of each kind) and the test inputs, as in
        :func:`random_feature_relu`. Default ``LinearLabels()``.
    execution : Execution, optional
        ``rng`` (the source of every draw: inputs, teachers, noise, first layer, then the random labels), device
        and dtype (``chunk`` must be ``None``). Default ``Execution()`` (fresh entropy).
    **flat
        Deprecated: ``snr``, ``n_test``, ``teachers`` (``labels``) and ``seed`` (now ``rng``), ``device``,
        ``dtype`` (``execution``) as keywords, accepted for one more release with a ``DeprecationWarning``.

    Returns
    -------
    RandomFeatureGD
        Training and test errors of both kinds of labels, and the Gram spectrum and label power of the spectral
        theory of the training error. On the Gram matrix's null space (``P > N_h``), where the eigenvectors are
        not unique, the teacher's power is its mean over that space, the same for any choice of basis.
    """
    if flat:
        specs = _flat_specs("random_feature_gd", flat, {
            "labels": (LinearLabels, labels, {k: k for k in ("snr", "n_test", "teachers")}),
            "execution": (Execution, execution, {"seed": "rng", "device": "device", "dtype": "dtype"})})
        labels, execution = specs["labels"], specs["execution"]
    labels = _spec(labels, "labels", LinearLabels)
    execution = _unbatched(_spec(execution, "execution", Execution), "random_feature_gd")
    snr, n_test, teachers = labels.snr, labels.n_test, labels.teachers
    for name, v in (("n_in", n_in), ("n_samples", n_samples), ("n_hidden", n_hidden), ("repeats", repeats)):
        _checks.integer(v, name)
    steps = _check_steps(steps)
    n_all = float(n_samples) + n_test
    _checks.work_limit(2.0 * repeats * n_hidden * (n_all * n_in + 4.0 * teachers * n_samples * float(steps.max(initial=0))),
                       f"steps up to {int(steps.max(initial=0))} with repeats={repeats}, n_in={n_in}, "
                       f"n_samples={n_samples}, n_hidden={n_hidden}, n_test={n_test}, teachers={teachers}",
                       memory=8.0 * repeats * (n_hidden * (n_in + n_all + 4.0 * teachers) + 2.0 * n_samples * n_samples
                                               + 4.0 * teachers * n_all + 4.0 * teachers * len(steps)),
                       iterations=float(steps.max(initial=0)))
    lr = None if lr is None else _checks.bounded(lr, "lr", 0, open_lower=True, extra=" or None")
    device, dtype = execution.device, execution.dtype
    gen = seeding.torch_generator(execution.rng)
    P, S, K = n_samples, repeats, teachers
    x, clean, y, noise_var = _rf_inputs(n_in, P, n_test, S, K, snr, gen, device, dtype)
    kw = dict(generator=gen, device=device, dtype=dtype)
    W1 = _random.randn(S, n_hidden, n_in, **kw)
    feats = torch.relu(W1 @ x) / np.sqrt(n_hidden)  # (S, N_h, P + P_test)
    Xh, Xt = feats[..., :P], feats[..., P:]
    label_var = 1.0 + noise_var
    y_rand = np.sqrt(label_var) * _random.randn(S, K, P, **kw)
    y_rand_test = np.sqrt(label_var) * _random.randn(S, K, n_test, **kw)
    targets = torch.cat([y, y_rand], 1)  # (S, 2K, P)
    gram = Xh.mT @ Xh
    s, U = torch.linalg.eigh(gram)
    s = s.clamp_min(0.0)
    if lr is None:
        lr = 1.0 / s.amax().item()
    elif not (lr > 0 and lr * s.amax().item() < 2.0):
        raise ValueError(f"lr must be > 0 and below 2 / max eigenvalue = {2.0 / s.amax().item():.4g}; got {lr!r}")
    w = torch.zeros(S, 2 * K, n_hidden, device=device, dtype=dtype)
    b = targets @ Xh.mT
    train, test = [], []
    done = 0
    for target in track(steps.tolist(), desc=f"gradient descent, N_h={n_hidden}"):
        for _ in range(target - done):
            w += lr * (b - (w @ Xh) @ Xh.mT)
        done = target
        train.append(((targets - w @ Xh) ** 2).mean(-1))
        pred = w @ Xt
        err_t = ((pred[:, :K] - clean[..., P:]) ** 2).mean(-1) + noise_var
        err_r = ((pred[:, K:] - y_rand_test) ** 2).mean(-1)
        test.append(torch.cat([err_t, err_r], 1))
    shape = (S, 2, K, len(steps))
    train = torch.stack(train, -1).reshape(shape).transpose(0, 1)
    test = torch.stack(test, -1).reshape(shape).transpose(0, 1)
    xtx = x[..., :P].mT @ x[..., :P]  # (S, P, P)
    power_teacher = (U * (xtx @ U)).sum(-2) + noise_var  # u_k^T (X^T X) u_k + noise_var
    # For P > N_h the Gram matrix has a null space of dimension P - N_h whose eigenvectors are
    # any orthonormal basis (CPU and CUDA pick different ones); only the total power there is
    # defined, so it is spread evenly over those modes (they all decay as (1 - 0)^(2k) = 1).
    null = s <= s.amax(-1, keepdim=True) * P * torch.finfo(dtype).eps
    null_mean = (power_teacher * null).sum(-1, keepdim=True) / null.sum(-1, keepdim=True).clamp_min(1)
    power_teacher = torch.where(null, null_mean, power_teacher)
    power = torch.stack([power_teacher, torch.full_like(power_teacher, label_var)])
    return RandomFeatureGD(train_error=train.cpu().numpy(), test_error=test.cpu().numpy(), times=steps * lr, lr=lr,
                           eigvals=s.cpu().numpy(), label_power=power.cpu().numpy(), label_var=label_var)


# ----------------------------------------------------------------------------- specs


def _frozen_set(obj, name, value):
    object.__setattr__(obj, name, value)  # a frozen dataclass normalises its fields once


def _as_tuple(value):
    """A checked condition (0-d or 1-d array) as a float or a tuple of floats: hashable and immutable."""
    return float(value) if np.ndim(value) == 0 else tuple(float(v) for v in value)


@dataclass(frozen=True)
class Variances:
    """The variances of the draws of a batch of linear students (:func:`draw_linear_student`), one per condition.

    Each field is one number or a 1-d sequence; together they broadcast to ``C`` conditions: condition ``c``
    has ``wbar = sqrt(teacher_var[c]) g_w``, ``w(0) = sqrt(init_var[c]) g_0`` and
    ``eps = sqrt(noise_var[c]) g_e`` (:class:`LinearStudentBatch`). ``teacher_var = 0`` gives pure-noise
    ("random") labels.

    Attributes
    ----------
    teacher_var : float or tuple of float
        Variance of the teacher's entries (``>= 0``).
    init_var : float or tuple of float
        Variance of the initial weights (``>= 0``; ``INR`` when ``teacher_var = 1``).
    noise_var : float or tuple of float
        Variance of the label noise (``>= 0``; ``1/SNR`` when ``teacher_var = 1``).
    """

    teacher_var: float | tuple[float, ...] = 1.0
    init_var: float | tuple[float, ...] = 0.0
    noise_var: float | tuple[float, ...] = 0.0

    def __post_init__(self):
        checked = {name: _condition(getattr(self, name), name, lower=0)
                   for name in ("teacher_var", "init_var", "noise_var")}
        _as_conditions(**checked)
        for name, value in checked.items():
            _frozen_set(self, name, _as_tuple(value))


@dataclass(frozen=True)
class Execution:
    """How a simulation runs: the source of its draws, its device and precision, and how much it does at once.

    The simulations of this module and :func:`gendyn.random_features.random_feature_students` take one
    (``execution=Execution(rng=1)``). The same spec with an integer (or ``SeedSequence``) ``rng`` gives the
    same bytes on the CPU run to run.

    Attributes
    ----------
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of every draw of the run, through :func:`gendyn.seeding.torch_generator` (an integer ``s``
        draws as ``torch.Generator().manual_seed(s)``, the former ``seed=s``). A generator is drawn from and
        advanced, so two runs with one spec holding it differ; ``None`` (the default): fresh entropy (see
        :mod:`gendyn.seeding`). Formerly ``seed``.
    device : str or torch.device
        ``"cpu"``, ``"cuda"`` or ``"cuda:N"``: where the computation runs (the draws are made on the CPU,
        so the device does not change them).
    dtype : torch.float32 or torch.float64
        Precision of the draws and of the arithmetic; float64 by default (the converged errors involve
        inverse eigenvalues far below float32's resolution).
    chunk : int, optional
        How much one batched step does: datasets per eigendecomposition in :func:`simulate_linear_student`
        (default 16), hidden units per accumulation step in :func:`random_feature_relu` (default 256;
        memory ``~ repeats * chunk * (P + n_test) * 8`` bytes), seeds at once in
        :func:`gendyn.random_features.random_feature_students` (default: as many as keep the features under
        about 256 MB). ``None``: that default. The draws of :func:`simulate_linear_student` and
        :func:`random_feature_relu` are made chunk by chunk, so their results depend on it; those of
        ``random_feature_students`` do not. The functions that do not batch take only ``None``.
    """

    rng: seeding.Rng = None
    device: str | torch.device = "cpu"
    dtype: torch.dtype = torch.float64
    chunk: int | None = None

    def __post_init__(self):
        _frozen_set(self, "rng", seeding.check(self.rng))
        device, dtype = _check_torch(self.device, self.dtype)
        _frozen_set(self, "device", device)
        _frozen_set(self, "dtype", dtype)
        if self.chunk is not None:
            _frozen_set(self, "chunk", _checks.integer(self.chunk, "chunk", 1, meaning=" or None (the default)"))


@dataclass(frozen=True)
class LinearLabels:
    """The labels and test inputs of a random-feature experiment with a linear teacher
    (:func:`random_feature_relu`, :func:`random_feature_gd`).

    The labels are ``y = wbar . x + eps`` with ``wbar ~ N(0, I)`` and ``eps ~ N(0, 1/snr)``.

    Attributes
    ----------
    snr : float
        ``1 / noise_var`` of the training labels (``> 0``; ``np.inf``: noiseless).
    teachers : int
        Label draws (teacher and noise) per seed (``K >= 1``).
    n_test : int
        Test inputs of the Monte Carlo test error (``>= 1``), shared by all networks of a seed.
    """

    snr: float = np.inf
    teachers: int = 1
    n_test: int = 1000

    def __post_init__(self):
        _frozen_set(self, "snr", _checks.snr(self.snr))
        _frozen_set(self, "teachers", _checks.integer(self.teachers, "teachers"))
        _frozen_set(self, "n_test", _checks.integer(self.n_test, "n_test"))


def _spec(value, name, cls):
    """``value`` if it is a ``cls`` spec, ``cls()`` if it is ``None``."""
    return cls() if value is None else _checks.instance(value, name, cls)


def _unbatched(execution, func):
    """``execution`` of a function that does not batch: its ``chunk`` must be ``None``."""
    if execution.chunk is not None:
        raise ValueError(f"chunk must be None for {func} (it does not batch); got execution.chunk={execution.chunk}")
    return execution


def _flat_specs(func, flat, specs):
    """The specs of a call of ``func`` that passed their fields as flat keywords, the deprecated form.

    ``specs``: ``{parameter: (spec class, value passed or None, {keyword: field})}``. Warns with a
    ``DeprecationWarning`` that shows the new form; returns ``{parameter: spec}`` (``None`` where no
    keyword of that spec was passed).
    """
    owner = {kw: param for param, (_, _, fields) in specs.items() for kw in fields}
    unknown = sorted(set(flat) - set(owner))
    if unknown:
        raise TypeError(f"{func}() got unexpected keyword argument(s) {unknown}; its specs take "
                        f"{', '.join(sorted(specs))}")
    out, new = {}, []
    for param, (cls, given, fields) in specs.items():
        # in the caller's order; a former seed= (now the spec's rng) is checked under the name the caller wrote
        mine = {fields[kw]: seeding.check(value, kw) if fields[kw] == "rng" else value
                for kw, value in flat.items() if kw in fields}
        if not mine:
            out[param] = given
            continue
        if given is not None:
            raise ValueError(f"pass {param} either as a {cls.__name__} or as the keywords "
                             f"{sorted(kw for kw in fields if kw in flat)} (deprecated), not both")
        new.append(f"{param}={cls.__name__}({', '.join(f'{k}=...' for k in mine)})")
        out[param] = mine
    warnings.warn(f"{func}({', '.join(f'{k}=...' for k in flat)}) with flat keywords is deprecated and will be "
                  f"removed in the next release: pass {', '.join(new)}", DeprecationWarning, stacklevel=3)
    return {param: specs[param][0](**value) if isinstance(value, dict) else value for param, value in out.items()}


__all__ += ["Variances", "Execution", "LinearLabels"]


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class LinearStudentSweep(_checks.FormerlyDict):
    """Gradient flow of linear students over loads, datasets and conditions (:func:`simulate_linear_student`).

    ``A`` loads, ``S`` datasets per load, ``C`` (SNR, INR) conditions, ``K`` draws per dataset, ``T`` times, ``N``
    inputs; numpy arrays on the host, errors in units of ``sigma_w^2``. Formerly a dict: ``sweep["test_error"]``
    still reads ``sweep.test_error`` for one release, with a ``DeprecationWarning``.

    Attributes
    ----------
    test_error, train_error : ndarray (A, S, C, K, T)
        Test error ``|wbar - w|^2/N + noise_var`` and training error ``|y - wX|^2/P``.
    scale, overfit, cross, frozen : ndarray (A, S, C, K, T)
        The parts of the test error (:func:`linear_student_flow`):
        ``test_error = scale + overfit + cross + frozen + noise_var``.
    cov_eigvals : ndarray (A, S, N)
        Spectrum of each dataset's ``X X^T`` (frozen modes 0).
    p : ndarray (A,)
        Training examples ``P = round(alpha N)`` of each load.
    """

    test_error: np.ndarray
    train_error: np.ndarray
    scale: np.ndarray
    overfit: np.ndarray
    cross: np.ndarray
    frozen: np.ndarray
    cov_eigvals: np.ndarray
    p: np.ndarray


__all__ += ["LinearStudentSweep"]
