"""Theory of deep softmax classifiers trained on one or two tasks (Lee & Ndirango, 2019).

The text of the paper lost every equation in extraction. The equations below are
**reconstructed** from its prose, from what the authors' public code (repository
``tyler-nervana/mt-theory``) does, and from first principles; the equation numbers are
the paper's where its prose pins them down (main text (1)-(5), appendix A (6)-(16),
appendix C (20)-(25)). Each is checked numerically in the book and in
``tests/test_softmax_multitask.py``. Everything here is vectorised numpy/scipy; the batched
torch experiments are in :mod:`gendyn.multitask_train`.

Setup (§2, App. A)
------------------
Inputs ``x ~ N(0, Sigma)`` in ``R^N`` (``Sigma = I`` in the experiments); a teacher
``Wbar`` (``K x N``, rank ``r``) and its noisy version give the labels
``y = argmax(Wbar x + xi)`` for training and ``ybar = argmax(Wbar x)`` for testing. A
student with composite weight ``W`` (``K x N``) predicts ``p(x) = softmax(W x)`` and is
trained on the cross-entropy ``L = -(1/P) sum_mu log p_{y_mu}(x_mu)`` (1). With
``Sigma^{yx} = (1/P) sum_mu e_{y_mu} x_mu^T`` and ``Sigma^{px}(W) = (1/P) sum_mu
p(x_mu) x_mu^T`` (7), the gradient is ``dL/dW = Sigma^{px}(W) - Sigma^{yx}``.

Gaussian integration by parts (App. A.3.1)
------------------------------------------
For ``x ~ N(0, Sigma)``, ``E[f(x) x^T] = E[grad_x f(x)] Sigma``; with ``f = softmax(W x)``
and ``grad_x f = (diag p - p p^T) W``::

    E[p(x) x^T] = M(W) W Sigma                                            (14)
    M(W) = E_x[diag p(x) - p(x) p(x)^T],  p(x) = softmax(W x)             (13)

``M(W)`` is the mean covariance of a one-hot draw from ``p``: positive semi-definite, with
``M 1 = 0`` and (when every ``p_k > 0``) no other zero eigenvalue. It depends on ``W`` only
through the logit covariance ``C = W Sigma W^T``.

Gradient flow (2) (App. A.3, eqs. 8-10)
---------------------------------------
For a student of weight matrices ``W_1 .. W_D`` (composite ``W = W_D ... W_1``) trained at
learning rate ``lambda`` (time in units of ``tau = 1/lambda``), with
``G = Sigma^{yx} - M(W) W Sigma``::

    tau dW/dt = sum_l (W_D..W_{l+1})(W_D..W_{l+1})^T G (W_{l-1}..W_1)^T (W_{l-1}..W_1)   (2)

which for one hidden layer is ``W_2 W_2^T G + G W_1^T W_1``. The conservation law
``d/dt (W_{l+1}^T W_{l+1} - W_l W_l^T) = 0`` (9) and ``dL/dt <= 0`` (10) follow.

Approximations (15)-(16) and the TA dynamics (3) (App. B)
---------------------------------------------------------
For a rank-one student ``W = s u v^T`` (``|u| = |v| = 1``, ``u . 1 = 0``) and ``Sigma = I``
the logits are ``s g u`` with ``g = v . x ~ N(0, 1)``, and along the student's mode::

    f(s) = u^T M(s u v^T) u = E_g[Var_{k ~ softmax(s g u)} u_k],   f(0) = 1/K     (15)

which decreases monotonically with ``s``. Keeping only this diagonal part,
``M(W) W ~ f(s) s u v^T`` (16), a training-aligned (TA) student, initialised along the top
singular vectors ``(u, v)`` of the centred ``Sigma^{yx}`` with singular value ``sigma_hat``,
keeps its singular vectors and its singular value obeys, for ``D`` balanced weight matrices::

    tau ds/dt = D s^(2 - 2/D) (sigma_hat - f(s) s)                                 (3)

(``D = 2``: ``tau ds/dt = 2 s (sigma_hat - f(s) s)``). It grows to the fixed point
``f(s*) s* = sigma_hat``; ``f(s) s`` rises to ``E|g| (max u - min u)/2`` as ``s -> inf``,
which is exactly ``sigma`` of clean labels: with clean labels ``s`` grows without bound.

Relatedness (4) and multitask benefit (5) (§4.3-4.4, App. C)
------------------------------------------------------------
Relatedness of two teachers with right singular vectors ``Vbar_A``, ``Vbar_B`` (``N x r``):
the mean cosine of the principal angles between their input subspaces,
``r_AB = ||Vbar_A^T Vbar_B||_* / r`` (4); for the authors' construction every principal
cosine equals ``r``. The generalisation loss is ``L_gen(W) = E_x[lse(W x) - (W x)_ybar]``
with ``lse`` the log-sum-exp, convex in ``W``. With ``G(W) = -grad L_gen(W) =
Sigma^{ybar x} - E[p x^T]`` and ``dW = W_MT - W_ST`` (task A's composite when trained with
task B, and alone), the benefit ``B = L_gen(W_ST) - L_gen(W_MT)`` obeys::

    <G(W_MT), dW> <= B <= <G(W_ST), dW>                                 (22)-(25)

and for TA rank-one students (``W = s u v^T`` for both) the upper bound is::

    B <= (s_MT - s_ST) [ sigma_bar - f(s_ST) s_ST ],  sigma_bar = u^T Sigma^{ybar x} v   (5)

whose bracket depends on the single-task student only. The bounds hold sample by sample
(convexity is pointwise in ``x``), so they hold exactly for losses measured on any test set.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, optimize, special

from . import _checks, seeding

__all__ = [
    "softmax",
    "label_feature_covariance",
    "softmax_feature_covariance",
    "softmax_curvature",
    "gaussian_softmax_feature_covariance",
    "composite_flow",
    "rank1_curvature",
    "ta_curvature",
    "ta_rate",
    "ta_growth_rate",
    "ta_descent",
    "ta_trajectory",
    "ta_fixed_point",
    "TAPrediction",
    "ta_prediction",
    "off_diagonal_ratio",
    "ta_generalization_loss",
    "ta_signal",
    "clean_rank1_signal",
    "noisy_argmax_probabilities",
    "noisy_label_entropy",
    "label_agreement_excess",
    "relatedness",
    "cross_entropy",
    "benefit_bounds",
    "expected_max_normal",
    "softmax_curvature_batches",
    "RankOneBound",
    "rank_one_benefit_bound",
    "GradientDescentRun",
    "two_layer_gradient_descent",
]


# ----------------------------------------------------------------------------------------
# checks
# ----------------------------------------------------------------------------------------


def _array(x, name, ndim_min=1, **bounds):
    """Finite real numbers (no strings, booleans or None) with at least ``ndim_min`` axes."""
    a = _checks.real_array(x, name, **bounds)
    if a.ndim < ndim_min:
        raise ValueError(f"{name} must have at least {ndim_min} dimension(s); got shape {a.shape}")
    return a


def _same_features(w, x, w_name="w", x_name="x"):
    """``w`` (..., K, N) and ``x`` (..., P, N): the same N and batch axes that broadcast."""
    if w.shape[-1] != x.shape[-1]:
        raise ValueError(f"{w_name} (..., K, N) and {x_name} (..., P, N) must have the same N; got shapes "
                         f"{w.shape} and {x.shape}")
    try:
        np.broadcast_shapes(w.shape[:-2], x.shape[:-2])
    except ValueError:
        raise ValueError(f"the batch axes of {w_name} and {x_name} must broadcast; got shapes {w.shape} and "
                         f"{x.shape}") from None


def _singular_values(s, u=None):
    """Singular values ``s >= 0`` (any shape); with ``u`` (..., K) their batch axes must broadcast."""
    s = _checks.real_array(s, "s", lower=0, extra=" (singular values)")
    if u is not None:
        try:
            np.broadcast_shapes(s.shape, u.shape[:-1])
        except ValueError:
            raise ValueError(f"s and the batch axes of u must broadcast; got shapes {s.shape} and {u.shape}") from None
    return s


def _sigma(sigma, n):
    if sigma is None:
        return np.eye(n)
    s = _array(sigma, "sigma", 2)
    if s.shape != (n, n):
        raise ValueError(f"sigma (input covariance) must have shape ({n}, {n}); got {s.shape}")
    if not np.allclose(s, s.T) or np.linalg.eigvalsh(s).min() < -1e-12:
        raise ValueError("sigma (input covariance) must be symmetric positive semi-definite")
    return s


def _unit_centred(u, name="u"):
    u = _array(u, name)
    norm = np.linalg.norm(u, axis=-1, keepdims=True)
    if np.any(norm == 0):
        raise ValueError(f"{name} must be a non-zero vector")
    if np.any(np.abs(u.sum(-1)) > 1e-8 * norm[..., 0] * u.shape[-1]):
        raise ValueError(f"{name} must be orthogonal to the all-ones vector (softmax logits are "
                         f"defined up to a constant); centre it first")
    return u / norm


def softmax(z: ArrayLike, axis: int | None = -1) -> np.ndarray:
    """Numerically stable softmax along ``axis``.

    Parameters
    ----------
    z : array_like
        Finite logits, at least one axis.
    axis : int or None
        The axis of the classes; ``None``: all entries of ``z`` at once.
    """
    z = _array(z, "z", 1)
    if axis is not None and (isinstance(axis, (bool, np.bool_)) or not isinstance(axis, numbers.Integral)
                             or not -z.ndim <= axis < z.ndim):
        raise ValueError(f"axis must be None or an integer in [{-z.ndim}, {z.ndim}) for z of shape {z.shape}; "
                         f"got {axis!r}")
    return _softmax(z, axis)


def _softmax(z, axis=-1):
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# ----------------------------------------------------------------------------------------
# covariances (7), (13), (14) and the flow (2)
# ----------------------------------------------------------------------------------------


def label_feature_covariance(x: ArrayLike, y: ArrayLike, n_classes: int) -> np.ndarray:
    """``Sigma^{yx} = (1/P) sum_mu e_{y_mu} x_mu^T`` (7): shape ``(..., K, N)``.

    ``x``: ``(..., P, N)`` inputs; ``y``: ``(..., P)`` integer labels in ``[0, K)``.
    """
    x = _array(x, "x", 2)
    n_classes = _checks.integer(n_classes, "n_classes", 2)
    y = _checks.labels(y, "y", n_classes, expected_shape=x.shape[:-1], meaning=" (the shape of x without its last axis)")
    onehot = (y[..., None] == np.arange(n_classes)).astype(float)
    return np.swapaxes(onehot, -1, -2) @ x / x.shape[-2]


def softmax_feature_covariance(w: ArrayLike, x: ArrayLike) -> np.ndarray:
    """Empirical ``Sigma^{px}(W) = (1/P) sum_mu softmax(W x_mu) x_mu^T`` (7).

    ``w``: ``(..., K, N)``; ``x``: ``(..., P, N)`` (broadcast against ``w``'s batch).
    """
    w, x = _array(w, "w", 2), _array(x, "x", 2)
    _same_features(w, x)
    p = _softmax(x @ np.swapaxes(w, -1, -2))
    return np.swapaxes(p, -1, -2) @ x / x.shape[-2]


def softmax_curvature(w: ArrayLike, sigma: ArrayLike | None = None, *, n_samples: int = 2**16,
                      rng: seeding.Rng = None, return_stderr: bool = False,
                      **former: object) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """The matrix function ``M(W) = E[diag p - p p^T]``, ``x ~ N(0, Sigma)`` (13), by Monte Carlo.

    Antithetic pairs ``(x, -x)`` halve the variance of the odd part. Vectorised over the
    leading dimensions of ``w`` (``(..., K, N)``); all use the same Gaussian draws.

    Parameters
    ----------
    w : array_like, (..., K, N)
    sigma : array_like (N, N), optional
        Input covariance (identity by default).
    n_samples : int
        Gaussian inputs (even; half are the antithetic partners).
    rng : int, SeedSequence, torch or numpy Generator, or None
        What the Gaussian inputs are drawn from (an integer seeds ``numpy.random.default_rng``); ``None``:
        fresh entropy (see :mod:`gendyn.seeding`).
    return_stderr : bool
        Also return the entrywise standard error of the estimate.
    """
    rng = seeding.former_rng(rng, former, "softmax_curvature", alone=True)
    w = _array(w, "w", 2)
    n_samples = _checks.integer(n_samples, "n_samples", 2)
    return_stderr = _checks.flag(return_stderr, "return_stderr")
    sig = _sigma(sigma, w.shape[-1])
    rng = seeding.numpy_generator(rng)
    half = n_samples // 2
    chol = np.linalg.cholesky(sig) if sigma is not None else None
    k = w.shape[-2]
    batch = float(np.prod(w.shape[:-2]))
    # elementwise numpy work with temporaries: ~100 operations per element
    _checks.work_limit(400.0 * n_samples * batch * k * (w.shape[-1] + 2 * k * k),
                       f"n_samples={n_samples} with w of shape {w.shape}", iterations=half / 4096)
    eye = np.eye(k)
    total = np.zeros(w.shape[:-2] + (k, k))
    total_sq = np.zeros_like(total)
    done = 0
    while done < half:  # chunks of Gaussian draws keep the memory bounded
        n = min(4096, half - done)
        g = rng.standard_normal((n, w.shape[-1]))
        x = g @ chol.T if chol is not None else g
        pair = 0.0
        for sign in (1.0, -1.0):
            p = _softmax(sign * x @ np.swapaxes(w, -1, -2))  # (..., n, K)
            pair = pair + 0.5 * (p[..., :, :, None] * (eye - p[..., :, None, :]))
        total += pair.sum(-3)
        total_sq += (pair**2).sum(-3)
        done += n
    m = total / half
    m = 0.5 * (m + np.swapaxes(m, -1, -2))
    if return_stderr:
        var = np.maximum(total_sq / half - (total / half) ** 2, 0.0) * half / max(half - 1, 1)
        return m, np.sqrt(var / half)
    return m


def gaussian_softmax_feature_covariance(w: ArrayLike, sigma: ArrayLike | None = None,
                                        **kwargs: object) -> np.ndarray:
    """``E[softmax(W x) x^T] = M(W) W Sigma`` for ``x ~ N(0, Sigma)`` (14); kwargs (``n_samples``, ``rng``:
    fresh entropy unless given, see :mod:`gendyn.seeding`) go to :func:`softmax_curvature`."""
    w = _array(w, "w", 2)
    sig = _sigma(sigma, w.shape[-1])
    return softmax_curvature(w, sigma, **kwargs) @ w @ sig


def composite_flow(weights: Sequence[ArrayLike], sigma_yx: ArrayLike, sigma: ArrayLike | None = None,
                   **kwargs: object) -> np.ndarray:
    """Right-hand side of (2): ``tau dW/dt`` of the composite ``W = W_D ... W_1``.

    ``weights``: list ``[W_1, ..., W_D]`` (first layer first, each ``(..., n_out, n_in)``);
    ``sigma_yx``: the label-feature covariance ``(..., K, N)``. The softmax term uses the
    Gaussian form (14) (``kwargs`` go to :func:`softmax_curvature`: ``n_samples``, ``rng``).
    """
    if not isinstance(weights, (list, tuple)) or not weights:
        raise ValueError(f"weights must be a non-empty list [W_1, ..., W_D] of matrices; got {type(weights).__name__}")
    ws = [_array(w, f"weights[{i}]", 2) for i, w in enumerate(weights)]
    comp = ws[0]
    for i, w in enumerate(ws[1:], 1):
        if w.shape[-1] != comp.shape[-2]:
            raise ValueError(f"weights[{i}] must take the {comp.shape[-2]} outputs of weights[{i - 1}]; got shape "
                             f"{w.shape}")
        comp = w @ comp
    sig = _sigma(sigma, comp.shape[-1])
    sigma_yx = _array(sigma_yx, "sigma_yx", 2)
    if sigma_yx.shape[-2:] != comp.shape[-2:]:
        raise ValueError(f"sigma_yx must have shape (..., K, N) = (..., {comp.shape[-2]}, {comp.shape[-1]}) like "
                         f"the composite of weights; got {sigma_yx.shape}")
    g = sigma_yx - gaussian_softmax_feature_covariance(comp, sig, **kwargs)
    total = 0.0
    for layer in range(len(ws)):
        above = _product(ws[layer + 1:], comp.shape[-2], ws[layer].shape[-2])
        below = _product(ws[:layer], ws[layer].shape[-1], comp.shape[-1])
        total = total + above @ np.swapaxes(above, -1, -2) @ g @ np.swapaxes(below, -1, -2) @ below
    return total


def _product(ws, n_out, n_in):
    """``W_k ... W_1`` of a list (first applied first); identity ``(n_out, n_in)`` if empty."""
    if not ws:
        return np.eye(n_out, n_in)
    out = ws[0]
    for w in ws[1:]:
        out = w @ out
    return out


# ----------------------------------------------------------------------------------------
# rank-one students: (15), (16), (3)
# ----------------------------------------------------------------------------------------

_LOG_G_NODES, _LOG_G_WEIGHTS = np.polynomial.legendre.leggauss(400)


def _half_line_rule(lo=1e-12, hi=12.0):
    """Nodes and weights for ``int_0^inf phi(g) F(g) dg`` in the variable ``ln g``.

    The integrands vary on the scale ``1/s`` near ``g = 0`` and on the scale 1 in the
    Gaussian tail; in ``ln g`` both are smooth, so one Gauss-Legendre rule of 400 nodes on
    ``[ln 1e-12, ln 12]`` is accurate to ~1e-11 for any ``s`` up to ``1e6`` (tested against
    adaptive quadrature).
    """
    a, b = math.log(lo), math.log(hi)
    t = 0.5 * (b - a) * _LOG_G_NODES + 0.5 * (b + a)
    g = np.exp(t)
    wts = 0.5 * (b - a) * _LOG_G_WEIGHTS * g * np.exp(-0.5 * g**2) / math.sqrt(2 * math.pi)
    return g, wts


def rank1_curvature(s: ArrayLike, u: ArrayLike) -> np.ndarray:
    """``M(s u v^T)`` for ``Sigma = I``, exactly (1-d quadrature over ``g = v . x``).

    ``s``: array of singular values (any shape ``S``); ``u``: unit vector(s) ``(..., K)``
    (broadcast with ``s``). Returns ``(*S, K, K)``.
    """
    u = _array(u, "u")
    norm = np.linalg.norm(u, axis=-1, keepdims=True)
    if np.any(norm == 0):
        raise ValueError("u must be a non-zero vector")
    u = u / norm
    s = _singular_values(s, u)
    g, wts = _half_line_rule()
    total = 0.0
    for sign in (1.0, -1.0):
        z = sign * (s[..., None, None] * g[:, None]) * u[..., None, :]  # (..., n, K)
        p = _softmax(z)
        m = p[..., :, None] * np.eye(u.shape[-1]) - p[..., :, None] * p[..., None, :]
        total = total + np.einsum("...nij,n->...ij", m, wts)
    return total


def ta_curvature(s: ArrayLike, u: ArrayLike) -> float | np.ndarray:
    """``f(s) = u^T M(s u v^T) u = E_g[Var_{softmax(s g u)}(u)]`` (15), ``Sigma = I``.

    ``u`` must be orthogonal to the all-ones vector (the logit mode of a trained student
    always is). ``f(0) = 1/K``; ``f`` decreases monotonically to 0.
    """
    u = _unit_centred(u)
    return _ta_curvature(_singular_values(s, u), u)


def _ta_curvature(s, u):
    """Unchecked (15): float array ``s``, unit centred ``u``."""
    g, wts = _half_line_rule()
    total = 0.0
    for sign in (1.0, -1.0):
        p = _softmax(sign * s[..., None, None] * g[:, None] * u[..., None, :])
        mean = (p * u[..., None, :]).sum(-1)
        var = (p * u[..., None, :] ** 2).sum(-1) - mean**2
        total = total + (var * wts).sum(-1)
    return total


def ta_signal(s: ArrayLike, u: ArrayLike) -> float | np.ndarray:
    """``f(s) s``: the softmax term of (3) along the student's mode."""
    u = _unit_centred(u)
    s = _singular_values(s, u)
    return _ta_curvature(s, u) * s


def clean_rank1_signal(u: ArrayLike) -> float | np.ndarray:
    """``sigma`` of clean labels from a rank-one teacher ``sbar u v^T``: ``(max u - min u)/sqrt(2 pi)``.

    With ``y = argmax(sbar g u)`` the label is ``argmax u`` for ``g > 0`` and ``argmin u`` for
    ``g < 0``, so ``u^T Sigma^{yx} v = E[g u_y] = (max u - min u) E[g; g > 0]``. It is also
    the limit of ``f(s) s`` as ``s -> inf``.
    """
    u = _unit_centred(u)
    return (u.max(-1) - u.min(-1)) / math.sqrt(2 * math.pi)


_HERMITE_NODES, _HERMITE_WEIGHTS = np.polynomial.hermite_e.hermegauss(64)
_HERMITE_WEIGHTS = _HERMITE_WEIGHTS / math.sqrt(2 * math.pi)  # weights of E_u over u ~ N(0, 1)


def noisy_argmax_probabilities(z: ArrayLike, noise_std: float) -> np.ndarray:
    """``p_k = P(argmax_j (z_j + noise_std xi_j) = k)``, ``xi ~ N(0, I)``: the noisy teacher's label law.

    ``p_k = E_u[prod_{j != k} Phi((z_k - z_j)/noise_std + u)]``, ``u ~ N(0, 1)`` (the noise of
    the winning logit), by 64-node Gauss-Hermite quadrature; the integrand is a product of
    normal CDFs in ``u``, smooth on the scale 1 whatever ``z``, so the rule is accurate to
    ~1e-9 (tested against sampling and the closed form for ``K = 2``). The probabilities are
    then normalised to sum to 1. This is the ``p_k`` of the label-entropy floor in the book's
    published-data chapter.

    Parameters
    ----------
    z : array_like, (..., K)
        Noise-free logits (the teacher's ``Wbar x``).
    noise_std : float
        Standard deviation of the Gaussian noise on each logit, ``> 0``.

    Returns
    -------
    ndarray, (..., K)
        The probability of each label.
    """
    z = _array(z, "z")
    noise_std = _checks.real(noise_std, "noise_std", positive=True, extra=" (standard deviation of the logit noise)")
    gap = (z[..., :, None] - z[..., None, :]) / noise_std  # (..., K, K): z_k - z_j
    log_cdf = special.log_ndtr(gap[..., None] + _HERMITE_NODES)  # (..., K, K, m)
    # sum over j != k: the j = k term is log Phi(u), the same for every k
    log_prod = log_cdf.sum(-2) - special.log_ndtr(_HERMITE_NODES)
    p = np.exp(log_prod) @ _HERMITE_WEIGHTS
    return p / p.sum(-1, keepdims=True)


def noisy_label_entropy(s: ArrayLike, n_classes: int, noise_std: float, *, n_samples: int = 2**12,
                        rng: seeding.Rng = None, return_stderr: bool = False,
                        **former: object) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """The cross-entropy floor ``H(y | x)`` of the authors' noisy labels, by Monte Carlo over inputs.

    The authors' teachers (``n_classes = K`` equal to the rank, both layers with orthonormal
    rows or columns, ``x ~ N(0, I)``) give unit-SNR logits ``z = Wbar x / s`` that are i.i.d.
    ``N(0, 1)``; their labels are ``y = argmax(s z + noise_std xi)``. The expected
    cross-entropy of *any* classifier on fresh labels of this law is at least the conditional
    entropy ``H(y | x) = E_z[-sum_k p_k log p_k]`` (Gibbs' inequality), with ``p`` from
    :func:`noisy_argmax_probabilities`. It falls from ``ln K`` at ``s = 0`` to 0 as
    ``s / noise_std`` grows. A validation loss measured on noisy labels of this law below the
    floor (beyond its sampling error) cannot have come from this data model.

    Parameters
    ----------
    s : array_like
        Teacher strengths (SNRs) ``s >= 0``, any shape; all use the same draws of ``z``.
    n_classes : int
        ``K >= 2``.
    noise_std : float
        Standard deviation of the logit noise (``1/sqrt(n_features)`` in the authors' code).
    n_samples : int
        Draws of ``z``: even and at least 4 (half are the antithetic partners ``-z``; two pairs
        give a standard error).
    rng : int, SeedSequence, torch or numpy Generator, or None
        What the logits ``z`` are drawn from (an integer seeds ``numpy.random.default_rng``); ``None``:
        fresh entropy (see :mod:`gendyn.seeding`).
    return_stderr : bool
        Also return the standard error of each estimate.

    Returns
    -------
    ndarray (shape of ``s``), and its standard error with ``return_stderr``.
    """
    rng = seeding.former_rng(rng, former, "noisy_label_entropy", alone=True)
    s = _checks.real_array(s, "s", lower=0, extra=" (teacher strengths)")
    k = _checks.integer(n_classes, "n_classes", 2)
    noise_std = _checks.real(noise_std, "noise_std", positive=True, extra=" (standard deviation of the logit noise)")
    n_samples = _checks.integer(n_samples, "n_samples", 4, " (even: antithetic pairs)")
    if n_samples % 2:
        raise ValueError(f"n_samples must be even (antithetic pairs z, -z); got {n_samples}")
    return_stderr = _checks.flag(return_stderr, "return_stderr")
    rng = seeding.numpy_generator(rng)
    half = n_samples // 2
    flat = s.ravel()
    chunk = max(1, 2**14 // (k * k * max(flat.size, 1)))
    _checks.work_limit(4000.0 * n_samples * max(flat.size, 1) * k * k, f"n_samples={n_samples} with {flat.size} SNRs and "
                       f"n_classes={k}", iterations=half / chunk)
    total = np.zeros(flat.shape)
    total_sq = np.zeros(flat.shape)
    done = 0
    while done < half:  # chunks keep the (chunk, S, K, K, nodes) array small
        n = min(max(1, 2**14 // (k * k * max(flat.size, 1))), half - done)
        g = rng.standard_normal((n, 1, k))
        pair = 0.0
        for sign in (1.0, -1.0):  # antithetic partners: the law of z is symmetric
            p = noisy_argmax_probabilities(sign * flat[:, None] * g, noise_std)  # (n, S, K)
            pair = pair + 0.5 * -special.xlogy(p, p).sum(-1)
        total += pair.sum(0)
        total_sq += (pair**2).sum(0)
        done += n
    h = (total / half).reshape(s.shape)
    if return_stderr:
        var = np.maximum(total_sq / half - (total / half) ** 2, 0.0) * half / max(half - 1, 1)
        return h, np.sqrt(var / half).reshape(s.shape)
    return h


def label_agreement_excess(sbar: ArrayLike, n_classes: int, noise_std: float) -> float | np.ndarray:
    """First-order excess over chance of ``P(y = ybar)``, noisy label equal to the clean one, near chance.

    For the authors' teachers (unit-SNR logits ``z`` i.i.d. ``N(0, 1)``, labels ``y = argmax(sbar z +
    noise_std xi)`` and ``ybar = argmax z``), with ``eps = sbar / noise_std`` (signal over noise per logit),
    Gaussian integration by parts over the noise gives::

        P(y = ybar) = 1/K + mu_K^2 / (K - 1) eps + O(eps^2),   mu_K = E[max_k xi_k], xi ~ N(0, I_K)

    (the derivative of ``P(argmax(xi + eps z) = k)`` is ``sum_j z_j E[xi_j; argmax xi = k]``; averaging over
    ``z`` with ``k = argmax z`` gives ``mu_K^2 / (K - 1)``). Returns the first-order term
    ``mu_K^2 / (K - 1) eps``; ``mu_K`` by adaptive quadrature of ``x K phi(x) Phi(x)^(K-1)``.

    Parameters
    ----------
    sbar : array_like
        Teacher singular values ``>= 0`` (any shape).
    n_classes : int
        ``K >= 2`` (equal to the teacher's rank).
    noise_std : float
        Standard deviation of the logit noise, ``> 0`` (``1/sqrt(N)`` in the authors' code).
    """
    sbar = _checks.real_array(sbar, "sbar", lower=0, extra=" (teacher singular values)")
    k = _checks.integer(n_classes, "n_classes", 2)
    noise_std = _checks.real(noise_std, "noise_std", positive=True, extra=" (standard deviation of the logit noise)")
    mu_k = expected_max_normal(k)
    return mu_k**2 / (k - 1) * sbar / noise_std


def ta_rate(s: ArrayLike, sigma_hat: ArrayLike, u: ArrayLike, n_layers: int = 3) -> float | np.ndarray:
    """Right-hand side of (3), ``tau ds/dt``, for ``D = n_layers - 1`` balanced weight matrices.

    ``n_layers`` counts layers of units, input and output included (3 = one hidden layer),
    as in :mod:`gendyn.train`.
    """
    d = _checks.integer(n_layers, "n_layers", 2) - 1
    u = _unit_centred(u)
    s = _singular_values(s, u)
    sigma_hat = _checks.real_array(sigma_hat, "sigma_hat", lower=0, extra=" (a singular value)")
    try:
        np.broadcast_shapes(s.shape, sigma_hat.shape)
    except ValueError:
        raise ValueError(f"s and sigma_hat must broadcast; got shapes {s.shape} and {sigma_hat.shape}") from None
    return _ta_rate(s, sigma_hat, u, d)


def _ta_rate(s, sigma_hat, u, d):
    """Unchecked (3) for ``d`` weight matrices."""
    return d * np.power(s, 2 - 2 / d) * (sigma_hat - _ta_curvature(s, u) * s)


def ta_growth_rate(sigma_hat: ArrayLike, u: ArrayLike, lr: float = 0.0) -> float | np.ndarray:
    """Early exponential growth rate ``d ln s / dt`` of a TA student with one hidden layer: (3) at small ``s``.

    For ``D = 2`` (:func:`ta_rate` with ``n_layers = 3``) and ``s -> 0`` the softmax term ``f(s) s`` of (3)
    vanishes and ``tau ds/dt = 2 s sigma_hat``: ``s`` grows as ``exp(2 sigma_hat t / tau)``. The rate is
    taken from :func:`ta_rate` itself, ``ta_rate(s, sigma_hat, u) / s`` at ``s = 1e-9`` (where ``f(s) s``
    is below ``1e-9``). Gradient *descent* with step ``lr`` (in units of ``tau``) multiplies the singular
    value of each of the two balanced layers by ``1 + lr sigma_hat`` per step, so the rate per unit time is
    ``2 ln(1 + lr rate / 2) / lr``; ``lr = 0`` is gradient flow. Deeper students (``D > 2``) do not grow
    exponentially (``s^(2 - 2/D)`` with a power above 1), so only ``D = 2`` is provided.

    Parameters
    ----------
    sigma_hat : array_like
        Top singular value(s) of the centred label-feature covariance, ``>= 0``.
    u : array_like, (..., K)
        Centred class direction(s) of the student (broadcast with ``sigma_hat``).
    lr : float
        Learning rate in units of ``1/tau``, ``>= 0``.
    """
    u = _unit_centred(u)
    sigma_hat = _checks.real_array(sigma_hat, "sigma_hat", lower=0, extra=" (a singular value)")
    lr = _checks.bounded(lr, "lr", 0, extra=" (the learning rate in units of 1/tau)")
    s_small = 1e-9
    rate = ta_rate(np.full(np.broadcast_shapes(sigma_hat.shape, u.shape[:-1]), s_small), sigma_hat, u, 3) / s_small
    return rate if lr == 0 else 2 * np.log1p(lr * rate / 2) / lr


def ta_descent(steps: ArrayLike, s0: float, sigma_hat: float, u: ArrayLike, lr: float) -> np.ndarray:
    """(3) stepped as gradient descent: ``s`` of a TA student with one hidden layer after ``steps`` steps.

    The student's two balanced layers each have singular value ``sqrt(s)``, and one step of size ``lr``
    multiplies each by ``1 + lr (sigma_hat - f(s) s)`` (:func:`ta_rate` over ``2 s``), so
    ``s -> s (1 + lr ta_rate(s) / (2 s))^2``. These are the discrete dynamics a simulation at that step
    follows, which differ from the flow (:func:`ta_trajectory`) by ``O(lr)`` in the growth rate
    (:func:`ta_growth_rate` with ``lr``).

    Parameters
    ----------
    steps : array_like of int, (n,)
        Step numbers at which ``s`` is returned, ``>= 0``, in any order.
    s0 : float
        Initial composite singular value, ``> 0``.
    sigma_hat : float
        Top singular value of the centred label-feature covariance, ``>= 0``.
    u : array_like, (K,)
        Centred class direction of the student.
    lr : float
        Step size in units of ``1/tau``, ``> 0``.

    Returns
    -------
    s : ndarray, (n,)
        ``s`` after each of ``steps``.
    """
    steps = _checks.integer_array(steps, "steps", 0, ndim=1)
    if steps.size == 0:
        raise ValueError("steps must hold at least one step number; got an empty array")
    s0 = _checks.bounded(s0, "s0", 0, open_lower=True, extra=" (the initial singular value)")
    sigma_hat = _checks.bounded(sigma_hat, "sigma_hat", 0, extra=" (a singular value)")
    lr = _checks.bounded(lr, "lr", 0, open_lower=True, extra=" (the step size in units of 1/tau)")
    _unit_centred(u)  # checked here; ta_rate normalises it
    s = np.empty(int(steps.max()) + 1)
    s[0] = s0
    for k in range(len(s) - 1):  # sequential: each step starts where the last ended
        s[k + 1] = s[k] * (1 + lr * float(ta_rate(s[k], sigma_hat, u)) / (2 * s[k])) ** 2
    return s[steps]


def ta_trajectory(t: ArrayLike, s0: float, sigma_hat: float, u: ArrayLike, n_layers: int = 3,
                  tau: float = 1.0) -> np.ndarray:
    """Solve (3) from ``s(0) = s0``; returns ``s`` at the times ``t`` (same units as ``tau``).

    Integrated in ``ln s`` (the growth is exponential at small ``s``) with LSODA (switching
    between non-stiff and stiff methods) at tight tolerances.
    """
    t = _checks.real_array(t, "t", lower=0, ndim=1, extra=" (non-decreasing times)")
    if t.size == 0 or np.any(np.diff(t) < 0):
        raise ValueError(f"times t must be a non-empty 1-d array, non-negative and increasing; got {t[:5].tolist()}")
    s0 = _checks.bounded(s0, "s0", 0, open_lower=True, extra=" (the initial singular value)")
    sigma_hat = _checks.bounded(sigma_hat, "sigma_hat", 0, extra=" (a singular value)")
    tau = _checks.bounded(tau, "tau", 0, open_lower=True)
    d = _checks.integer(n_layers, "n_layers", 2) - 1
    u = _unit_centred(u)
    if u.ndim != 1:
        raise ValueError(f"u must be one vector (K,); got shape {u.shape}")
    u = _unit_centred(u)  # normalised twice, as the checked ta_rate did at every step: the same bits

    def rhs(_, y):
        s = math.exp(y[0])
        return [float(_ta_rate(np.asarray(s), sigma_hat, u, d)) / (s * tau)]

    sol = integrate.solve_ivp(rhs, (0.0, float(t[-1])), [math.log(s0)], t_eval=t, method="LSODA",
                              rtol=1e-9, atol=1e-11)
    if not sol.success:
        raise RuntimeError(f"integration of (3) failed: {sol.message}")
    return np.exp(sol.y[0])


def off_diagonal_ratio(s: ArrayLike, u: ArrayLike) -> float | np.ndarray:
    """Size of what (16) neglects for ``W = s u v^T``: ``||(I - u u^T) M u|| / (u^T M u)``.

    Zero when ``u`` is an eigenvector of ``M`` (e.g. two classes, or ``u`` symmetric under a
    permutation of the classes that maps ``u`` to ``-u``); (3) is accurate while it is small.
    """
    u = _unit_centred(u)
    m = rank1_curvature(s, u)
    mu = m @ u
    along = mu @ u
    return np.linalg.norm(mu - along[..., None] * u, axis=-1) / along


def ta_generalization_loss(s: ArrayLike, u: ArrayLike, u_teacher: ArrayLike,
                           overlap: float = 1.0) -> float | np.ndarray:
    """Generalisation loss of ``W = s u v^T`` on clean labels of a rank-one teacher ``ubar vbar^T``.

    With ``g = v . x`` and ``gbar = vbar . x`` (correlation ``overlap = v . vbar``), the clean
    label is ``argmax ubar`` if ``gbar > 0`` and ``argmin ubar`` otherwise, so
    ``L = E_g[lse(s g u)] - s overlap (u_{argmax ubar} - u_{argmin ubar}) / sqrt(2 pi)``:
    one exact 1-d integral plus a closed form. ``Sigma = I``.
    """
    u = _unit_centred(u)
    if u.ndim != 1:
        raise ValueError(f"u must be one vector (K,); got shape {u.shape}")
    s = _singular_values(s)
    ubar = _array(u_teacher, "u_teacher")
    if ubar.shape != u.shape:
        raise ValueError(f"u_teacher must have the shape of u, {u.shape}; got {ubar.shape}")
    # a cosine computed in floating point may pass 1 by a few ulps
    overlap = _checks.bounded(overlap, "overlap", -1 - 1e-9, 1 + 1e-9, extra=" (the cosine v . vbar)")
    g, wts = _half_line_rule()
    lse = 0.0
    for sign in (1.0, -1.0):
        z = sign * s[..., None, None] * g[:, None] * u
        lse = lse + (special.logsumexp(z, axis=-1) * wts).sum(-1)
    # the rule misses the mass below g = 1e-12, where lse = log K
    lse = lse + (1 - 2 * wts.sum()) * math.log(u.shape[-1])
    gap = u[np.argmax(ubar)] - u[np.argmin(ubar)]
    return lse - s * overlap * gap / math.sqrt(2 * math.pi)


def ta_fixed_point(sigma_hat: float, u: ArrayLike) -> float:
    """The fixed point ``s*`` of (3): ``f(s*) s* = sigma_hat``; ``inf`` if ``sigma_hat`` reaches
    the clean-label limit :func:`clean_rank1_signal` (then ``s`` grows without bound).

    ``sigma_hat`` is a singular value, a finite number ``>= 0`` (``s* = 0`` at 0); ``u`` one
    centred vector ``(K,)``.
    """
    u = _unit_centred(u)
    if u.ndim != 1:
        raise ValueError(f"u must be one vector (K,); got shape {u.shape}")
    sigma_hat = _checks.bounded(sigma_hat, "sigma_hat", 0, extra=" (a singular value)")
    if sigma_hat == 0:
        return 0.0
    top = float(clean_rank1_signal(u))
    if sigma_hat >= top:
        return math.inf
    u2 = _unit_centred(u)  # normalised twice, as the checked ta_signal did at every step: the same bits

    def signal(s):
        s = np.asarray(float(s))
        return float(_ta_curvature(s, u2) * s)

    hi = 1.0
    while signal(hi) < sigma_hat:
        hi *= 2
        if hi > 1e7:
            return math.inf
    return optimize.brentq(lambda s: signal(s) - sigma_hat, 0.0, hi, xtol=1e-12, rtol=1e-12)


class TAPrediction(NamedTuple):
    """What (3) predicts for one training-aligned student (:func:`ta_prediction`)."""

    s: np.ndarray  #: singular value at the times ``t``, (3)
    s_star: float  #: its fixed point ``f(s*) s* = sigma_hat`` (inf at the clean-label limit)
    rho: float  #: what (16) neglects at ``s*``, :func:`off_diagonal_ratio` (inf where ``s*`` is)
    loss: np.ndarray  #: generalisation loss on clean labels along ``s``, :func:`ta_generalization_loss`


def ta_prediction(t: ArrayLike, s0: float, sigma_hat: float, u: ArrayLike, u_teacher: ArrayLike,
                  overlap: float = 1.0) -> TAPrediction:
    """The TA theory of one student: its singular value along (3), the fixed point, the size of what (16)
    neglects there, and the generalisation loss along the trajectory (exact for a rank-one student).

    Parameters
    ----------
    t : array_like
        Times in units of ``tau``, non-negative and increasing.
    s0 : float
        Singular value at ``t = 0``.
    sigma_hat : float
        Top singular value of the training set's centred label-feature covariance (7).
    u : (K,) array_like
        Its left singular vector (centred).
    u_teacher : (K,) array_like
        The teacher's output direction ``ubar``.
    overlap : float
        Cosine ``v . vbar`` of the student's input direction and the teacher's.

    Returns
    -------
    TAPrediction
        :func:`ta_trajectory`, :func:`ta_fixed_point`, :func:`off_diagonal_ratio` at ``s*`` and
        :func:`ta_generalization_loss` along the trajectory (Lee & Ndirango, §3 and App. B).
    """
    s = ta_trajectory(t, s0, sigma_hat, u)
    s_star = ta_fixed_point(sigma_hat, u)
    rho = float(off_diagonal_ratio(s_star, u)) if math.isfinite(s_star) else math.inf
    return TAPrediction(s, s_star, rho, ta_generalization_loss(s, u, u_teacher, overlap))


# ----------------------------------------------------------------------------------------
# relatedness (4), losses and the benefit bounds (5), (22)-(25)
# ----------------------------------------------------------------------------------------


def relatedness(v_a: ArrayLike, v_b: ArrayLike) -> float | np.ndarray:
    """Task relatedness (4): the mean cosine of the principal angles between the input
    subspaces spanned by the columns of ``v_a`` and ``v_b`` (``(..., N, r)``, orthonormal
    columns), ``||V_a^T V_b||_* / r``. In ``[0, 1]``."""
    v_a, v_b = _array(v_a, "v_a", 2), _array(v_b, "v_b", 2)
    if v_a.shape[-2:] != v_b.shape[-2:]:
        raise ValueError(f"v_a and v_b must both be (N, r); got {v_a.shape[-2:]} and {v_b.shape[-2:]}")
    cosines = np.linalg.svd(np.swapaxes(v_a, -1, -2) @ v_b, compute_uv=False)
    return cosines.mean(-1)


def cross_entropy(w: ArrayLike, x: ArrayLike, y: ArrayLike) -> float | np.ndarray:
    """Mean cross-entropy ``(1/P) sum_mu [lse(W x_mu) - (W x_mu)_{y_mu}]`` (1).

    ``w``: ``(..., K, N)``; ``x``: ``(..., P, N)``; ``y``: integer labels ``(..., P)``.
    """
    w, x = _array(w, "w", 2), _array(x, "x", 2)
    _same_features(w, x)
    z = x @ np.swapaxes(w, -1, -2)
    y = _checks.labels(y, "y", w.shape[-2], meaning=" (K = the rows of w)")
    try:
        if np.ndim(y) == 0:
            raise ValueError
        y = np.broadcast_to(np.asarray(y), z.shape[:-1])
    except ValueError:
        raise ValueError(f"y must broadcast to the shape {z.shape[:-1]} of the examples (..., P); got "
                         f"{np.shape(y)}") from None
    lse = special.logsumexp(z, axis=-1)
    idx = np.broadcast_to(y[..., None], z.shape[:-1] + (1,))
    picked = np.take_along_axis(z, idx, axis=-1)[..., 0]
    return (lse - picked).mean(-1)


def benefit_bounds(w_st: ArrayLike, w_mt: ArrayLike, x: ArrayLike,
                   y: ArrayLike) -> tuple[float | np.ndarray, float | np.ndarray, float | np.ndarray]:
    """The convexity bounds (22)-(25) on the multitask benefit, measured on a test set.

    ``B = L(W_ST) - L(W_MT)`` with ``L`` the cross-entropy on ``(x, y)`` (clean labels);
    ``G(W) = -grad L(W) = (1/P) sum (e_y - softmax(W x)) x^T``; ``dW = W_MT - W_ST``.
    Returns ``(lower, benefit, upper)`` with ``lower = <G(W_MT), dW>`` and
    ``upper = <G(W_ST), dW>``; ``lower <= benefit <= upper`` holds exactly (convexity of
    log-sum-exp, pointwise in ``x``), up to floating-point rounding.
    """
    w_st, w_mt = _array(w_st, "w_st", 2), _array(w_mt, "w_mt", 2)
    if w_mt.shape != w_st.shape:
        raise ValueError(f"w_mt must have the shape of w_st, {w_st.shape}; got {w_mt.shape}")
    x = _array(x, "x", 2)
    _same_features(w_st, x, "w_st")
    k = w_st.shape[-2]
    y = _checks.labels(y, "y", k, expected_shape=x.shape[:-1], meaning=" (the shape of x without its last axis)")
    dw = w_mt - w_st

    def grad_neg(w):
        return label_feature_covariance(x, y, k) - softmax_feature_covariance(w, x)

    upper = (grad_neg(w_st) * dw).sum((-1, -2))
    lower = (grad_neg(w_mt) * dw).sum((-1, -2))
    benefit = cross_entropy(w_st, x, y) - cross_entropy(w_mt, x, y)
    return lower, benefit, upper


# ----------------------------------------------------------------------------------------
# checks of the reconstructed theory: batches of Monte Carlo, the bound (5), gradient descent (9)-(10)
# ----------------------------------------------------------------------------------------


def expected_max_normal(n_classes: int) -> float:
    """``mu_K = E[max_k xi_k]``, ``xi ~ N(0, I_K)``: the constant of the first-order label agreement
    (:func:`label_agreement_excess`), by adaptive quadrature of ``x K phi(x) Phi(x)^(K-1)``.

    Parameters
    ----------
    n_classes : int
        ``K >= 2``.
    """
    k = _checks.integer(n_classes, "n_classes", 2)
    return integrate.quad(lambda x: x * k * math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
                          * special.ndtr(x) ** (k - 1), -12, 12)[0]


def softmax_curvature_batches(w: ArrayLike, sigma: ArrayLike | None = None, *, n_samples: int, batches: int = 64,
                              rng: seeding.Rng = None, **former: object) -> np.ndarray:
    """``batches`` independent Monte Carlo estimates of ``M(W)`` (13) (:func:`softmax_curvature`), each from
    ``n_samples // batches`` inputs; batch ``b`` is drawn from the stream ``seeding.stream(rng, b)``.

    The entries of one estimate are correlated, so their entrywise standard errors cannot be combined;
    the spread of independent batches gives the standard error of any function of ``M`` that is linear
    in it (apply it to each batch, then take the mean and its standard error over batches).

    Parameters
    ----------
    w : array_like, (..., K, N)
    sigma : array_like (N, N), optional
        Input covariance (identity by default).
    n_samples : int
        Gaussian inputs in all, ``>= 2 * batches`` (each batch's are even; half antithetic partners).
    batches : int
        Independent estimates, ``>= 2``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The root of the batches' streams (a generator is drawn from once); ``None``: fresh entropy
        (see :mod:`gendyn.seeding`).

    Returns
    -------
    numpy.ndarray, (batches, ..., K, K)
    """
    rng = seeding.former_rng(rng, former, "softmax_curvature_batches", alone=True)
    batches = _checks.integer(batches, "batches", 2)
    n_samples = _checks.integer(n_samples, "n_samples", 2 * batches, meaning=f" (at least two per batch, "
                                f"batches={batches})")
    root = seeding.stream(rng)
    return np.stack([softmax_curvature(w, sigma, n_samples=n_samples // batches, rng=seeding.stream(root, b))
                     for b in range(batches)])


class RankOneBound(NamedTuple):
    """Exact benefit and its bound (5) for rank-one TA students on a grid of ``s`` (:func:`rank_one_benefit_bound`).

    ``benefit[i, j]`` and ``bound[i, j]``: single-task student ``s[i]`` (rows), multitask ``s[j]``
    (columns); ``s_opt``: the grid's generalisation-optimal ``s``.
    """

    s: np.ndarray
    benefit: np.ndarray
    bound: np.ndarray
    s_opt: float


def rank_one_benefit_bound(s: ArrayLike, u: ArrayLike, u_teacher: ArrayLike, overlap: float = 1.0) -> RankOneBound:
    """The benefit ``L_gen(s_ST u v^T) - L_gen(s_MT u v^T)`` of rank-one TA students (:func:`ta_generalization_loss`)
    and its upper bound (5), ``(s_MT - s_ST) [sigma_bar - f(s_ST) s_ST]`` with ``sigma_bar = overlap
    (u_{argmax ubar} - u_{argmin ubar}) / sqrt(2 pi)``, for every pair of ``s``. ``Sigma = I``.

    Parameters
    ----------
    s : array_like
        Singular values ``>= 0`` of the students (1-d), the same grid for ``s_ST`` and ``s_MT``.
    u : array_like (K,)
        The students' class direction: a unit vector orthogonal to the all-ones vector.
    u_teacher : array_like (K,)
        The teacher's class direction ``ubar``.
    overlap : float
        The cosine ``v . vbar`` of the input directions, in ``[-1, 1]``.
    """
    s = _checks.real_array(s, "s", lower=0, ndim=1, extra=" (singular values)")
    if s.size == 0:
        raise ValueError("s must hold at least one singular value")
    u_hat = _array(u, "u")
    if u_hat.ndim != 1 or abs(float(np.linalg.norm(u_hat)) - 1) > 1e-9:
        raise ValueError(f"u must be one unit vector (K,) orthogonal to the all-ones vector; got shape {u_hat.shape}, "
                         f"norm {np.linalg.norm(u_hat):.3g}")
    _unit_centred(u_hat)  # refuses a u not orthogonal to the all-ones vector
    u_bar = _array(u_teacher, "u_teacher")
    if u_bar.shape != u_hat.shape:
        raise ValueError(f"u_teacher must have the shape of u, {u_hat.shape}; got {u_bar.shape}")
    loss_gen = ta_generalization_loss(s, u_hat, u_bar, overlap)
    sigma_bar = overlap * (u_hat[np.argmax(u_bar)] - u_hat[np.argmin(u_bar)]) / math.sqrt(2 * math.pi)
    bracket = sigma_bar - ta_signal(s, u_hat)
    benefit = loss_gen[:, None] - loss_gen[None, :]  # rows: s_ST, columns: s_MT
    bound = (s[None, :] - s[:, None]) * bracket[:, None]
    return RankOneBound(s, benefit, bound, float(s[np.argmin(loss_gen)]))


class GradientDescentRun(NamedTuple):
    """A two-layer linear softmax student trained by gradient descent (:func:`two_layer_gradient_descent`).

    ``losses``: the training loss (1) before each step; ``drift``: Frobenius norm of the change of
    ``W1 W1^T - W2^T W2`` (9) over the run; ``drift_bound``: the sum over steps of the norms of its exact
    per-step ``lr^2`` terms; ``w1``, ``w2``: the final weights.
    """

    losses: np.ndarray
    drift: float
    drift_bound: float
    w1: np.ndarray
    w2: np.ndarray


def two_layer_gradient_descent(x: ArrayLike, y: ArrayLike, w1: ArrayLike, w2: ArrayLike, *, lr: float,
                               steps: int) -> GradientDescentRun:
    """Gradient descent on the cross-entropy (1) of a student ``W = W2 W1`` (one linear hidden layer): the
    discrete form of (2), whose conservation law (9) holds up to the ``lr^2`` terms and whose loss
    decreases (10) for small ``lr``.

    With ``G = Sigma^{yx} - Sigma^{px}(W)`` (7), each step is ``W1 += lr W2^T G``, ``W2 += lr G W1^T``, which
    changes ``W1 W1^T - W2^T W2`` by exactly ``lr^2 (W2^T G G^T W2 - W1 G^T G W1^T)``.

    Parameters
    ----------
    x : array_like (P, N)
        Training inputs.
    y : array_like (P,)
        Integer labels in ``[0, K)``.
    w1 : array_like (H, N)
        Initial first-layer weights.
    w2 : array_like (K, H)
        Initial second-layer weights.
    lr : float
        Learning rate ``> 0``.
    steps : int
        Gradient steps ``>= 1``.
    """
    x = _array(x, "x", 2)
    w1, w2 = _array(w1, "w1", 2), _array(w2, "w2", 2)
    if x.ndim != 2 or w1.ndim != 2 or w2.ndim != 2:
        raise ValueError(f"x, w1 and w2 must be matrices; got shapes x {x.shape}, w1 {w1.shape}, w2 {w2.shape}")
    if w1.shape[1] != x.shape[1] or w2.shape[1] != w1.shape[0]:
        raise ValueError(f"w1 must be (H, N) with N = {x.shape[1]} (the columns of x) and w2 (K, H); got w1 "
                         f"{w1.shape}, w2 {w2.shape}")
    k = w2.shape[0]
    lr = _checks.real(lr, "lr", positive=True, extra=" (learning rate)")
    steps = _checks.integer(steps, "steps", 1)
    y = _checks.labels(y, "y", k, meaning=" (K = the rows of w2)")
    if np.shape(y) != (x.shape[0],):
        raise ValueError(f"y must hold one label per row of x, shape ({x.shape[0]},); got {np.shape(y)}")
    syx = label_feature_covariance(x, y, k)
    q0 = w1 @ w1.T - w2.T @ w2
    drift_bound, losses = 0.0, []
    for step in range(steps):
        losses.append(cross_entropy(w2 @ w1, x, y))
        g = syx - softmax_feature_covariance(w2 @ w1, x)
        a, b = w2.T @ g, g @ w1.T
        with np.errstate(over="ignore", invalid="ignore"):
            drift_bound += lr**2 * np.linalg.norm(a @ a.T - w1 @ g.T @ g @ w1.T)
            w1, w2 = w1 + lr * a, w2 + lr * b
            diverged = not (np.all(np.isfinite(w1)) and np.all(np.isfinite(w2 @ w1)) and np.isfinite(drift_bound))
        if diverged:
            raise ValueError(f"lr={lr} is too large: gradient descent diverged at step {step + 1}")
    losses = np.array(losses)
    drift = float(np.linalg.norm(w1 @ w1.T - w2.T @ w2 - q0))
    return GradientDescentRun(losses, drift, float(drift_bound), w1, w2)
