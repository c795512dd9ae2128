"""Online SGD in two-layer teacher-student networks: the ODE theory of Goldt et al. (2019).

Goldt, Advani, Saxe, Krzakala & Zdeborová, "Dynamics of stochastic gradient descent for
two-layer neural networks in the teacher-student setup" (NeurIPS 2019; JSTAT 2020,
124010). Equation numbers below are those of the JSTAT text.

Setting (eq. 1-3). Inputs ``x ~ N(0, I_N)``; a teacher with ``M`` hidden units,
first-layer weights ``w*`` and second-layer weights ``v*`` produces
``y = sum_m v*_m g(rho_m) + sigma zeta`` with ``rho_m = w*_m x / sqrt(N)``. A student with
``K`` hidden units, fields ``lambda_k = w_k x / sqrt(N)``, is trained by online SGD on the
squared error, first layer with step ``eta / sqrt(N)`` and second layer with step
``eta_v / N``; one unit of "time" ``alpha`` is ``N`` steps.

In the limit ``N -> inf`` the generalisation error (eq. 4) is a function of the order
parameters ``Q = w w^T / N`` (K x K), ``R = w w*^T / N`` (K x M), ``T = w* w*^T / N`` (M x M)
(eq. 5) and the second-layer weights, which obey the ODEs (9). Everything is expressed
through Gaussian averages over the jointly Gaussian fields ``(lambda, rho)`` with
covariance ``C = [[Q, R], [R^T, T]]``:

* ``I2(a, b) = <g(a) g(b)>``, ``J2(a, b) = <g'(a) g'(b)>``,
* ``I3(a, b, c) = <g'(a) b g(c)>``, ``I4(a, b, c, d) = <g'(a) g'(b) g(c) g(d)>``,

for ``g(x) = erf(x / sqrt 2)`` ("erf", closed forms of Saad & Solla 1995 / Biehl &
Schwarze 1995), ``g(x) = x`` ("linear") and ``g(x) = max(x, 0)`` ("relu"; closed forms
for I2, I3, J2 from the arc-cosine kernel family, I4 by an exact one-dimensional
integral, see :func:`I4`).

Public API
----------
I2, I3, I4, J2             Gaussian averages, vectorised over leading axes of ``C``
arc_cosine_kernel          ``E[ReLU(a) ReLU(b)]`` (numpy or torch), the ReLU's I2
generalisation_error       eq. (4) from the order parameters
order_parameter_derivatives right-hand side of the ODEs (9)
integrate_odes             adaptive integration of (9) (LSODA), returns an ODEResult
asymptotic_error           final error: eqs. (10)-(13), (15) (perturbative fixed points)
OrderParameters            spec: the state (Q, R, T, v, v_star) the ODEs start from
OnlineSGD                  spec: the SGD the ODEs describe (lr, sigma, lr2, train_second_layer, weight_decay)
ODESolver                  spec: solve_ivp's method and tolerances
linear_stationary_error    eq. (12) in the effective rate of a linear student
linear_effective_rate      that rate, second layer fixed or trained
specialised_state          zero-error SCM states: specialists + anti-parallel superfluous pairs
denoising_state            zero-error both-layer states: Z copies per teacher unit
committee_odes             the ODEs (9) of a soft committee machine (v = v* = 1) from (Q, R, T)
manifold_point             a state on the slow manifold of anti-parallel pairs: its error and drift
ManifoldPoint              what manifold_point reads
copies_per_teacher         the student units copying each teacher unit (§3, Fig. 3)
copy_sums                  per teacher unit, the signed second-layer weights of its copies, summed (Fig. 3b)
split_relaxation           the ODEs (9), both layers, from an unequal split of v* among copies: its relaxation
SplitRelaxation            what split_relaxation reads
denoising_fixed_point      the ODEs (9), both layers, from near the denoising state, against its theory (Fig. 3c)
FixedPointReading          what denoising_fixed_point reads
random_start_odes          the ODEs (9), both layers, from random starts: which reach the denoising theory, when
RandomStarts               what random_start_odes reads

Conventions fixed here (the extracted paper text is ambiguous or silent on them):

* Sign of eq. (9). With the paper's ``Delta = student - teacher - sigma zeta`` and the
  updates (2)-(3), the first-order terms of (9) carry a minus sign; the printed (9) is
  correct for ``Delta = teacher + noise - student``. This module derives (9) from the
  updates (2)-(3) directly (``dR/dalpha = -eta v_i <Delta g'(lambda_i) rho_n>``).
  In the ``eta^2`` term of (9b), ``Delta`` is the noiseless error: the noise enters only
  through the separate ``eta^2 sigma^2 v_i v_k J2`` term (else it would count twice).
* Weight decay ``kappa`` enters as in the authors' integrator ``scmpp_ode.cpp``
  (``sgoldt/nn2pp``): ``dR -= kappa R``, ``dQ -= 2 kappa Q`` and, when the second layer is
  trained, ``dv -= kappa v``. It corresponds to SGD with an extra shrinkage
  ``w <- (1 - kappa / N) w`` (and the same for ``v``) at every step.
* ReLU derivative at a field of zero variance: ``g'(0) = 0`` (the PyTorch convention).
"""

from __future__ import annotations

import functools
import inspect
import warnings
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy.integrate import solve_ivp
from scipy.special import expit

from . import _checks, seeding

__all__ = [
    "ACTIVATIONS",
    "I2",
    "arc_cosine_kernel",
    "I3",
    "I4",
    "J2",
    "generalisation_error",
    "order_parameter_derivatives",
    "integrate_odes",
    "ODEResult",
    "asymptotic_error",
    "linear_stationary_error",
    "linear_effective_rate",
    "specialised_state",
    "denoising_state",
    "committee_odes",
    "ManifoldPoint",
    "manifold_point",
    "copies_per_teacher",
    "copy_sums",
    "SplitRelaxation",
    "split_relaxation",
    "FixedPointReading",
    "denoising_fixed_point",
    "RandomStarts",
    "random_start_odes",
]

ACTIVATIONS = ("erf", "relu", "linear")

_PI = np.pi
_TWO_PI = 2.0 * np.pi
_SQRT_TWO_PI = np.sqrt(2.0 * np.pi)


# --------------------------------------------------------------------------- validation


def _check_activation(activation):
    return _checks.choice(activation, "activation", ACTIVATIONS)


def _check_rates(lr, lr2, sigma, weight_decay):
    """Learning rates, noise level and weight decay, each a finite number >= 0; ``lr2`` defaults to ``lr``."""
    lr = _checks.real(lr, "lr")
    lr2 = lr if lr2 is None else _checks.real(lr2, "lr2")
    return lr, lr2, _checks.real(sigma, "sigma"), _checks.real(weight_decay, "weight_decay")


def _check_cov(C, n, name="C"):
    C = _checks.real_array(C, name)
    if C.ndim < 2 or C.shape[-2:] != (n, n):
        raise ValueError(
            f"{name} must have shape (..., {n}, {n}) (covariance of the {n} fields); got {C.shape}"
        )
    return C


# ------------------------------------------------------------------ Gaussian averages


def _safe_div(num, den):
    ok = den > 0
    return np.where(ok, num / np.where(ok, den, 1.0), 0.0)


def _namespace(x):
    """numpy, or torch for a torch tensor (imported only then: this module needs no torch)."""
    if type(x).__module__.startswith("torch"):
        import torch

        return torch
    return np


def _arc_cosine(scale, cos):
    """:func:`arc_cosine_kernel` for checked arguments (numpy arrays or torch tensors)."""
    xp = _namespace(cos)
    return scale / _TWO_PI * (xp.sqrt(1.0 - cos * cos) + (_PI - xp.arccos(cos)) * cos)


def arc_cosine_kernel(scale: ArrayLike, cos: ArrayLike) -> ArrayLike:
    """``E[ReLU(a) ReLU(b)]`` for zero-mean jointly Gaussian ``(a, b)``: the degree-1 arc-cosine kernel.

    The ReLU's ``I2`` of eq. (8) (:func:`I2` with ``activation="relu"``), and the second moments
    of ReLU random features (:func:`gendyn.random_features.relu_kernel`): one formula for both.

    Parameters
    ----------
    scale : array_like or torch.Tensor
        ``sqrt(E[a^2] E[b^2]) >= 0``.
    cos : array_like or torch.Tensor
        The correlation ``E[ab] / scale``, in ``[-1, 1]``; broadcast against ``scale``. Torch
        tensors in, a torch tensor out (on their device, differentiable); otherwise numpy.

    Returns
    -------
    ndarray or torch.Tensor
        ``scale (sqrt(1 - cos^2) + (pi - arccos(cos)) cos) / (2 pi)``: ``scale / 2`` at
        ``cos = 1`` (``E[ReLU(a)^2] = E[a^2]/2``), ``scale / (2 pi)`` at ``cos = 0``, 0 at
        ``cos = -1``.

    References
    ----------
    Cho & Saul (2009), "Kernel methods for deep learning", eq. (6) with ``n = 1``;
    Goldt et al. (2019), eq. (8) (``I2`` for ``g = ReLU``).
    """
    if _namespace(cos) is not np or _namespace(scale) is not np:
        scale = _checks.tensor(scale, "scale", finite=True)
        cos = _checks.tensor(cos, "cos", finite=True)
        if bool((scale < 0).any()):
            raise ValueError("scale must be >= 0 (a product of standard deviations)")
        if bool((cos.abs() > 1).any()):
            raise ValueError("cos must lie in [-1, 1] (a correlation)")
        return _arc_cosine(scale, cos)
    scale = _checks.real_array(scale, "scale", lower=0.0, extra=" (a product of standard deviations)")
    cos = _checks.real_array(cos, "cos", lower=-1.0, upper=1.0, extra=" (a correlation)")
    return _arc_cosine(scale, cos)


def _arccos_kernel1(s11, s22, s12):
    """``E[a+ b+]`` for zero-mean Gaussian ``(a, b)`` with covariance entries s11, s22, s12."""
    s = np.sqrt(np.maximum(s11, 0.0) * np.maximum(s22, 0.0))
    c = np.clip(_safe_div(s12, s), -1.0, 1.0)
    return _arc_cosine(s, c)


def _orthant2(r):
    """``P(a > 0, b > 0)`` for standard bivariate Gaussian with correlation ``r``."""
    return 0.25 + np.arcsin(np.clip(r, -1.0, 1.0)) / _TWO_PI


def _I2_erf(C):
    c11, c22, c12 = C[..., 0, 0], C[..., 1, 1], C[..., 0, 1]
    arg = c12 / np.sqrt((1.0 + c11) * (1.0 + c22))
    return 2.0 / _PI * np.arcsin(np.clip(arg, -1.0, 1.0))


def _J2_erf(C):
    c11, c22, c12 = C[..., 0, 0], C[..., 1, 1], C[..., 0, 1]
    return 2.0 / _PI / np.sqrt(1.0 + c11 + c22 + c11 * c22 - c12 * c12)


def _I3_erf(C):
    c11, c33 = C[..., 0, 0], C[..., 2, 2]
    c12, c13, c23 = C[..., 0, 1], C[..., 0, 2], C[..., 1, 2]
    lam3 = (1.0 + c11) * (1.0 + c33) - c13 * c13
    return 2.0 / _PI * (c23 * (1.0 + c11) - c12 * c13) / ((1.0 + c11) * np.sqrt(lam3))


def _I4_erf(C):
    c11, c22, c33, c44 = (C[..., i, i] for i in range(4))
    c12, c13, c14 = C[..., 0, 1], C[..., 0, 2], C[..., 0, 3]
    c23, c24, c34 = C[..., 1, 2], C[..., 1, 3], C[..., 2, 3]
    lam4 = (1.0 + c11) * (1.0 + c22) - c12 * c12
    lam0 = (
        lam4 * c34
        - c23 * c24 * (1.0 + c11)
        - c13 * c14 * (1.0 + c22)
        + c12 * c13 * c24
        + c12 * c14 * c23
    )
    lam1 = lam4 * (1.0 + c33) - c23 * c23 * (1.0 + c11) - c13 * c13 * (1.0 + c22) + 2.0 * c12 * c13 * c23
    lam2 = lam4 * (1.0 + c44) - c24 * c24 * (1.0 + c11) - c14 * c14 * (1.0 + c22) + 2.0 * c12 * c14 * c24
    arg = np.clip(lam0 / np.sqrt(lam1 * lam2), -1.0, 1.0)
    return 4.0 / _PI**2 / np.sqrt(lam4) * np.arcsin(arg)


def _I2_relu(C):
    return _arccos_kernel1(C[..., 0, 0], C[..., 1, 1], C[..., 0, 1])


def _J2_relu(C):
    c11, c22, c12 = C[..., 0, 0], C[..., 1, 1], C[..., 0, 1]
    r = _safe_div(c12, np.sqrt(np.maximum(c11, 0.0) * np.maximum(c22, 0.0)))
    return np.where((c11 > 0) & (c22 > 0), _orthant2(r), 0.0)


def _I3_relu(C):
    # Stein's lemma on b: <Theta(a) b c+> = C12 <delta(a) c+> + C23 <Theta(a) Theta(c)>
    c11, c33 = C[..., 0, 0], C[..., 2, 2]
    c12, c13, c23 = C[..., 0, 1], C[..., 0, 2], C[..., 1, 2]
    det13 = np.maximum(c11 * c33 - c13 * c13, 0.0)
    delta_term = _safe_div(c12 * np.sqrt(det13), _TWO_PI * c11)
    r13 = _safe_div(c13, np.sqrt(np.maximum(c11, 0.0) * np.maximum(c33, 0.0)))
    return np.where(c11 > 0, delta_term + c23 * _orthant2(r13), 0.0)


def _tanh_sinh_nodes(half_count=30, x_max=3.0):
    """Nodes ``s`` in (0, 1) and weights for ``int_0^1 F(1 - s^2) ds``-type sums.

    Returns ``(s, w)`` such that ``int_0^1 F(t) dt ~= sum_j w_j F(1 - s_j^2)``
    (substitution ``t = 1 - s^2`` removes the ``(1 - t)^(-1/2)`` endpoint singularity
    of the integrand, tanh-sinh handles what is left).
    """
    x = np.linspace(-x_max, x_max, 2 * half_count + 1)
    h = x[1] - x[0]
    y = _PI * np.sinh(x)
    s = expit(y)
    ds = _PI * np.cosh(x) * s * expit(-y)
    return s, 2.0 * s * ds * h


_RELU_I4_NODES = _tanh_sinh_nodes()


def _relu_g3(S11, S22, S33, S12, S13, S23):
    """``E[Theta(y1) Theta(y2) y3+]`` for zero-mean Gaussian ``y`` with covariance ``S``.

    Stein's lemma on ``y3``: ``sum_j S3j p_j(0) P(others > 0 | y_j = 0)``.
    """
    d12 = S11 * S22 - S12 * S12
    d13 = S11 * S33 - S13 * S13
    d23 = S22 * S33 - S23 * S23
    r1 = _safe_div(S11 * S23 - S12 * S13, np.sqrt(np.maximum(d12, 0.0) * np.maximum(d13, 0.0)))
    r2 = _safe_div(S22 * S13 - S12 * S23, np.sqrt(np.maximum(d12, 0.0) * np.maximum(d23, 0.0)))
    r3 = _safe_div(S33 * S12 - S13 * S23, np.sqrt(np.maximum(d13, 0.0) * np.maximum(d23, 0.0)))
    out = _safe_div(S13, np.sqrt(np.maximum(S11, 0.0))) * _orthant2(r1)
    out = out + _safe_div(S23, np.sqrt(np.maximum(S22, 0.0))) * _orthant2(r2)
    out = out + np.sqrt(np.maximum(S33, 0.0)) * _orthant2(r3)
    return out / _SQRT_TWO_PI


def _relu_I4_correlation(rho, s, w):
    """``E[Theta(a) Theta(b) c+ d+]`` for unit-variance fields with correlation matrix ``rho``.

    Price's theorem along ``C(t) = I + t (rho - I)``, ``t`` in [0, 1]:
    ``I4(1) = I4(0) + int_0^1 sum_{p<q} rho_pq <d_p d_q f>_t dt`` with
    ``f = Theta(a) Theta(b) c+ d+``. Each ``<d_p d_q f>_t`` is a density at zero times a
    lower-dimensional average with closed form, except ``<Theta Theta Theta Theta>_t`` (the
    quadrivariate orthant probability P4), which is itself a Price integral; exchanging
    the order of the two integrals gives a single integral with weight ``(1 - t)``.
    For ``t < 1`` the covariance ``C(t)`` is positive definite, so singular ``rho``
    (coinciding fields) is handled by the limit ``t -> 1`` of the integrand.
    """
    r = {}
    for i in range(4):
        for j in range(i + 1, 4):
            r[i, j] = r[j, i] = rho[..., i, j][..., None]
    u = s * s  # 1 - t, kept separately to avoid cancellation near t = 1
    t = 1.0 - u
    R = {key: t * val for key, val in r.items()}

    def one_minus_sq(rr):  # 1 - (t rr)^2
        return np.maximum(((1.0 - rr) + u * rr) * ((1.0 + rr) - u * rr), 0.0)

    def cond_one(i, x, y):
        """Covariance of (x, y) given x_i = 0."""
        if x == y:
            return one_minus_sq(r[x, i])
        return R[x, y] - R[x, i] * R[i, y]

    def cond_pair(i, j, k, l):
        """Variance ``D`` of x_j given x_i = 0, and the covariance of (k, l) given x_i = x_j = 0.

        Conditioning one variable at a time keeps the absolute rounding error of the
        result at ~1e-16 / sqrt(D) (forming ``D`` times the Schur complement in one go
        would give ~1e-16 / D), which matters where ``D -> 0`` near ``t = 1``.
        """
        D = cond_one(i, j, j)
        Dsafe = np.maximum(D, 1e-300)
        cjk, cjl = cond_one(i, j, k), cond_one(i, j, l)
        skk = np.maximum(cond_one(i, k, k) - cjk * cjk / Dsafe, 0.0)
        sll = np.maximum(cond_one(i, l, l) - cjl * cjl / Dsafe, 0.0)
        skl = cond_one(i, k, l) - cjk * cjl / Dsafe
        return D, skk, sll, skl

    # pair (a, b): rho_ab phi2(0, 0) E[c+ d+ | a = b = 0]
    D, skk, sll, skl = cond_pair(0, 1, 2, 3)
    F = r[0, 1] * _arccos_kernel1(skk, sll, skl) / (_TWO_PI * np.sqrt(np.maximum(D, 1e-300)))
    # pairs (a|b, c|d): rho phi(0) E[Theta Theta y+ | a (or b) = 0]
    for i, j, (y1, y2, y3) in ((0, 2, (1, 2, 3)), (0, 3, (1, 3, 2)), (1, 2, (0, 2, 3)), (1, 3, (0, 3, 2))):
        g3 = _relu_g3(
            cond_one(i, y1, y1), cond_one(i, y2, y2), cond_one(i, y3, y3),
            cond_one(i, y1, y2), cond_one(i, y1, y3), cond_one(i, y2, y3),
        )
        F = F + r[i, j] * g3 / _SQRT_TWO_PI
    # pair (c, d): rho_cd P4(t), P4(t) = 1/16 + int_0^t q -> weight (1 - t) = u
    q = 0.0
    for i, j, k, l in ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2), (1, 2, 0, 3), (1, 3, 0, 2), (2, 3, 0, 1)):
        D, skk, sll, skl = cond_pair(i, j, k, l)
        rc = _safe_div(skl, np.sqrt(np.maximum(skk, 0.0) * np.maximum(sll, 0.0)))
        q = q + r[i, j] * _orthant2(rc) / (_TWO_PI * np.sqrt(np.maximum(D, 1e-300)))
    F = F + r[2, 3] * u * q
    return 1.0 / (8.0 * _PI) + rho[..., 2, 3] / 16.0 + (F * w).sum(-1)


def _I4_relu(C):
    d = np.diagonal(C, axis1=-2, axis2=-1)
    ok = np.all(d > 0, axis=-1)
    sd = np.sqrt(np.where(d > 0, d, 1.0))
    rho = np.clip(C / sd[..., :, None] / sd[..., None, :], -1.0, 1.0)
    s, w = _RELU_I4_NODES
    return np.where(ok, sd[..., 2] * sd[..., 3] * _relu_I4_correlation(rho, s, w), 0.0)


def _I2_linear(C):
    return C[..., 0, 1].copy()


def _J2_linear(C):
    return np.ones(C.shape[:-2])


def _I3_linear(C):
    return C[..., 1, 2].copy()


def _I4_linear(C):
    return C[..., 2, 3].copy()


_TABLE = {
    "erf": (_I2_erf, _I3_erf, _I4_erf, _J2_erf),
    "relu": (_I2_relu, _I3_relu, _I4_relu, _J2_relu),
    "linear": (_I2_linear, _I3_linear, _I4_linear, _J2_linear),
}


def I2(C: ArrayLike, activation: str) -> np.ndarray:
    """``I2 = <g(a) g(b)>`` for zero-mean Gaussian fields ``(a, b)`` with covariance ``C``.

    Parameters
    ----------
    C : array_like, shape (..., 2, 2)
        Covariance matrices; leading axes are a batch (evaluated all at once).
    activation : {"erf", "relu", "linear"}
        ``erf``: ``g(x) = erf(x / sqrt 2)``, ``I2 = (2/pi) arcsin(C12 / sqrt((1+C11)(1+C22)))``
        (Saad & Solla 1995). ``relu``: the first-order arc-cosine kernel
        ``sqrt(C11 C22) (sin th + (pi - th) cos th) / (2 pi)``, ``cos th = C12/sqrt(C11 C22)``.
        ``linear``: ``C12``.

    Returns
    -------
    ndarray, shape (...)
        Used in eq. (4) (generalisation error) and eq. (9c).
    """
    return _TABLE[_check_activation(activation)][0](_check_cov(C, 2))


def J2(C: ArrayLike, activation: str) -> np.ndarray:
    """``J2 = <g'(a) g'(b)>`` for Gaussian ``(a, b)`` with covariance ``C`` (..., 2, 2).

    ``erf``: ``(2/pi) (1 + C11 + C22 + C11 C22 - C12^2)^(-1/2)``; ``relu``: the orthant
    probability ``1/4 + arcsin(r)/(2 pi)`` (0 if a variance vanishes, ``g'(0) = 0``);
    ``linear``: 1. Enters the output-noise term ``eta^2 sigma^2 v_i v_k J2`` of eq. (9b).
    """
    return _TABLE[_check_activation(activation)][3](_check_cov(C, 2))


def I3(C: ArrayLike, activation: str) -> np.ndarray:
    """``I3 = <g'(a) b g(c)>`` for Gaussian ``(a, b, c)`` with covariance ``C`` (..., 3, 3).

    ``erf``: ``(2/pi) (C23 (1+C11) - C12 C13) / ((1+C11) sqrt((1+C11)(1+C33) - C13^2))``.
    ``relu``: by Stein's lemma on ``b``,
    ``C12 sqrt(C11 C33 - C13^2) / (2 pi C11) + C23 (1/4 + arcsin(r13)/(2 pi))``.
    ``linear``: ``C23``. These are the first-order (in the learning rate) terms of eq. (9a, b).
    """
    return _TABLE[_check_activation(activation)][1](_check_cov(C, 3))


def I4(C: ArrayLike, activation: str) -> np.ndarray:
    """``I4 = <g'(a) g'(b) g(c) g(d)>`` for Gaussian ``(a, b, c, d)``, ``C`` of shape (..., 4, 4).

    ``erf``: the closed form of Saad & Solla (1995) (``Lambda_0..Lambda_4`` in the facts
    sheet). ``linear``: ``C34``.

    ``relu`` (no closed form known): numerically exact one-dimensional integral. Price's
    theorem along the path ``C(t) = diag(C) + t offdiag(C)`` writes ``I4`` as its value at
    ``t = 0`` (independent fields) plus ``int_0^1`` of terms that are all closed forms
    (bivariate arc-cosine kernels and orthant probabilities, after Stein's lemma); the
    quadrivariate orthant probability that also appears is a second Price integral,
    folded into the first with weight ``1 - t``. The integrand has at most an inverse
    square-root singularity at ``t = 1`` (coinciding fields), removed by ``t = 1 - s^2``;
    a 61-node tanh-sinh rule in ``s`` then gives an absolute error below ~2e-11 times
    ``sqrt(C33 C44)`` for generic, nearly singular and exactly singular covariances
    (measured: max 1.1e-11 over ~2000 random cases, worst for fields with correlation
    ~0.99; ~1e-14 for exactly coinciding fields); checked against exact special
    cases, a 400-node rule and Monte Carlo in ``tests/test_committee.py``.

    Enters the ``eta^2`` term of eq. (9b).
    """
    return _TABLE[_check_activation(activation)][2](_check_cov(C, 4))


# ---------------------------------------------------------------- order parameters


def _nonnegative_diagonal(S, name, scale=1.0):
    """``S`` with a diagonal of squared norms ``>= 0``: rounding (a unit that weight decay drove to
    zero in a long SGD chain, ``-1e-18``) is set to zero, anything below ``-1e-12 scale`` raises."""
    diag = np.diagonal(S, axis1=-2, axis2=-1)
    if np.any(diag < -1e-12 * scale):
        raise ValueError(f"the diagonal of {name} (squared norms / N) must be >= 0; got {diag[diag < 0][:5]}")
    if np.any(diag < 0):
        S = S.copy()
        units = np.arange(S.shape[-1])
        S[..., units, units] = np.maximum(diag, 0.0)
    return S


def _check_order_parameters(Q, R, T, v, v_star, *, batch=False):
    """Order parameters as float arrays, checked the same way by every function of this module.

    Real finite numbers (no strings, booleans or NaN); ``Q`` (K, K), ``R`` (K, M),
    ``T`` (M, M), ``v`` (K,) and ``v_star`` (M,), the last two also as one number for every
    unit; ``Q`` and ``T`` symmetric with a diagonal >= 0. With ``batch`` every argument may
    carry leading batch axes (broadcast later) and nothing is symmetrised; without it ``Q``
    and ``T`` are returned symmetrised and ``v``, ``v_star`` broadcast to (K,), (M,).
    """
    Q, R, T, v, v_star = (_checks.real_array(x, name) for x, name in
                          ((Q, "Q"), (R, "R"), (T, "T"), (v, "v"), (v_star, "v_star")))
    lead = "..., " if batch else ""
    for name, S, units in (("Q", Q, "K"), ("T", T, "M")):
        if S.ndim < 2 or (not batch and S.ndim != 2) or S.shape[-1] != S.shape[-2]:
            raise ValueError(f"{name} must be a square ({lead}{units}, {units}) matrix; got shape {S.shape}")
    K, M = Q.shape[-1], T.shape[-1]
    if K < 1 or M < 1:
        raise ValueError(f"need K >= 1 student and M >= 1 teacher units; got K={K}, M={M}")
    for name, x, tail in (("R (student-teacher overlaps, K x M)", R, (K, M)),
                          ("v (student second layer)", v, (K,)), ("v_star (teacher second layer)", v_star, (M,))):
        if x.ndim == 0 and len(tail) == 1:
            continue  # one weight for every unit
        if x.shape[x.ndim - len(tail):] != tail or (not batch and x.ndim != len(tail)):
            raise ValueError(f"{name} must have shape {('(...,' + str(tail)[1:]) if batch else tail}; got {x.shape}")
    checked = {}
    for name, S in (("Q", Q), ("T", T)):
        St = np.swapaxes(S, -1, -2)
        scale = max(1.0, float(np.max(np.abs(S)))) if S.size else 1.0
        if S.size and np.max(np.abs(S - St)) > 1e-8 * scale:
            raise ValueError(f"{name} must be symmetric; max |{name} - {name}^T| = {np.max(np.abs(S - St)):.3g}")
        checked[name] = _nonnegative_diagonal(S, name, scale)
    Q, T = checked["Q"], checked["T"]
    if batch:
        return Q, R, T, v, v_star
    v = np.broadcast_to(v, (K,)) if v.ndim == 0 else v
    v_star = np.broadcast_to(v_star, (M,)) if v_star.ndim == 0 else v_star
    return 0.5 * (Q + Q.T), R, 0.5 * (T + T.T), np.array(v), np.array(v_star)


def _covariance(Q, R, T):
    top = np.concatenate([Q, R], axis=-1)
    bottom = np.concatenate([np.swapaxes(R, -1, -2), T], axis=-1)
    return np.concatenate([top, bottom], axis=-2)


def _gather(C, idx):
    """Sub-covariances ``C[..., idx[p], idx[p]]`` for index tuples ``idx`` (P, m) -> (..., P, m, m)."""
    return C[..., idx[:, :, None], idx[:, None, :]]


class _Tuples:
    """The index tuples of all Gaussian averages eq. (9) needs (K students, M teachers)."""

    def __init__(self, K, M):
        n = K + M
        self.K, self.M, self.n = K, M, n
        a, b = np.triu_indices(n)
        self.pairs = np.stack([a, b], -1)  # I2 over all fields, a <= b
        i, k = np.triu_indices(K)
        self.spairs = np.stack([i, k], -1)  # student pairs i <= k (J2, I4)
        ii, bb, aa = np.meshgrid(np.arange(K), np.arange(n), np.arange(n), indexing="ij")
        self.triples = np.stack([ii.ravel(), bb.ravel(), aa.ravel()], -1)  # I3(i, b, a)
        npair = len(a)
        self.quads = np.concatenate(
            [np.repeat(self.spairs, npair, axis=0), np.tile(self.pairs, (len(i), 1))], axis=-1
        )  # I4(i, k, a, b), i <= k, a <= b
        self.pair_weight = np.where(a == b, 1.0, 2.0)
        # flat indices into one (n, n) covariance, component-major: (m, m, P) for P index tuples of m fields
        self.flat = {name: np.ascontiguousarray(np.moveaxis(tuples[:, :, None] * n + tuples[:, None, :], 0, -1))
                     for name, tuples in (("pairs", self.pairs), ("spairs", self.spairs),
                                          ("triples", self.triples), ("quads", self.quads))}

    def gather(self, C, name):
        """``_gather(C, getattr(self, name))`` for covariances ``C`` (..., n, n): the same values, taken with
        precomputed flat indices into a component-major array, so that every ``C[..., i, j]`` the Gaussian
        averages read is contiguous along the index tuples (the ODEs' right-hand side evaluates these
        thousands of times)."""
        if C.ndim == 2:  # the right-hand side's own call: the shortest path
            return C.reshape(-1)[self.flat[name]].transpose(2, 0, 1)
        # a batch: taken as (m, m, P, batch), each index a copy of one contiguous row of the transposed
        # covariances; the averages are elementwise, so their values do not depend on this layout
        batch = C.shape[:-2]
        rows = np.ascontiguousarray(C.reshape(-1, self.n * self.n).T)
        taken = rows[self.flat[name]].reshape(self.flat[name].shape + batch)
        nb = len(batch)
        return taken.transpose(tuple(range(3, 3 + nb)) + (2, 0, 1))


class _OneEntryShifts:
    """The three- and four-field Gaussian averages of a batch of ODE states in which each state after the
    first differs from the first in one coordinate (:func:`_pack`'s order): the columns of a
    finite-difference Jacobian.

    A coordinate of ``Q`` or ``R`` is one covariance entry ``(x, y)`` (with ``(y, x)``), and it enters
    only the averages whose index tuple holds both ``x`` and ``y``; one of ``v`` enters none. Every other
    average of a shifted state reads the same numbers as the first state's, so it is the same bits: it is
    copied, and only the changed ones are evaluated (16 % of the four-field ones at K = 6, M = 2).
    """

    def __init__(self, tup, iu):
        K, M, n = tup.K, tup.M, tup.n
        entries = list(zip(*iu)) + [(i, K + m) for i in range(K) for m in range(M)]
        self.tup = tup
        self.changed = {}  # name -> (state, tuple, flat indices (m, m, changed) into the batch's covariances)
        for name in ("triples", "quads"):
            fields = getattr(tup, name)
            hits = [np.flatnonzero((fields == x).any(1) & (fields == y).any(1)) for x, y in entries]
            state = np.concatenate([np.full(h.size, j + 1) for j, h in enumerate(hits)])
            which = np.concatenate(hits)
            self.changed[name] = (state, which, state * n * n + tup.flat[name][:, :, which])

    def __call__(self, C, name, fun):
        """``fun(tup.gather(C, name))`` for the batch of covariances ``C`` (1 + coordinates, n, n)."""
        state, which, flat = self.changed[name]
        values = np.repeat(fun(self.tup.gather(C[0], name))[None], len(C), axis=0)
        values[state, which] = fun(np.ascontiguousarray(C).reshape(-1)[flat].transpose(2, 0, 1))
        return values


def _i2_matrix(C, act, tup):
    vals = _TABLE[act][0](tup.gather(C, "pairs"))
    out = np.zeros(C.shape)
    a, b = tup.pairs.T
    out[..., a, b] = vals
    out[..., b, a] = vals
    return out


def generalisation_error(
    Q: ArrayLike, R: ArrayLike, T: ArrayLike, v: ArrayLike, v_star: ArrayLike, activation: str
) -> float | np.ndarray:
    """Generalisation error eq. (4), ``eps_g = <(phi(x; student) - phi(x; teacher))^2> / 2``.

    ``eps_g = 1/2 sum_ik v_i v_k I2(i,k) + 1/2 sum_nm v*_n v*_m I2(n,m) - sum_in v_i v*_n I2(i,n)``
    (eq. S31 of the supplement; the facts sheet §3), against the noiseless teacher.

    Parameters
    ----------
    Q : array_like, shape (..., K, K)
        Student-student overlaps ``w w^T / N`` (eq. 5); leading axes are a batch.
    R : array_like, shape (..., K, M)
        Student-teacher overlaps ``w w*^T / N``.
    T : array_like, shape (..., M, M)
        Teacher-teacher overlaps.
    v, v_star : array_like, shapes (..., K) and (..., M)
        Second-layer weights of student and teacher (scalars broadcast).
    activation : {"erf", "relu", "linear"}

    Returns
    -------
    ndarray or float
        ``eps_g`` with the batch shape.
    """
    act = _check_activation(activation)
    return _generalisation_error(*_check_order_parameters(Q, R, T, v, v_star, batch=True), act)


def _generalisation_error(Q, R, T, v, v_star, act):
    """Unchecked eq. (4) on float arrays (the finite differences of :func:`asymptotic_error`
    step slightly outside the valid order parameters)."""
    K, M = Q.shape[-1], T.shape[-1]
    v = np.full(K, float(v)) if v.ndim == 0 else v
    v_star = np.full(M, float(v_star)) if v_star.ndim == 0 else v_star
    try:
        batch = np.broadcast_shapes(Q.shape[:-2], R.shape[:-2], T.shape[:-2], v.shape[:-1], v_star.shape[:-1])
    except ValueError:
        raise ValueError(f"the batch axes of Q, R, T, v and v_star must broadcast; got shapes {Q.shape}, "
                         f"{R.shape}, {T.shape}, {v.shape}, {v_star.shape}") from None
    Q = np.broadcast_to(Q, batch + (K, K))
    R = np.broadcast_to(R, batch + (K, M))
    T = np.broadcast_to(T, batch + (M, M))
    C = _covariance(Q, R, T)
    I = _i2_matrix(C, act, _Tuples(K, M))
    u = np.concatenate([-np.broadcast_to(v, batch + (K,)), np.broadcast_to(v_star, batch + (M,))], axis=-1)
    eps = 0.5 * np.einsum("...a,...ab,...b->...", u, I, u)
    return eps if eps.ndim else float(eps)


def _derivatives(Q, R, T, v, v_star, act, tup, lr, lr2, sigma2, wd, train2, averages=None):
    """Unchecked right-hand side of eq. (9); returns (dQ, dR, dv, eps_g).

    ``Q``, ``R`` and ``v`` may carry leading batch axes (one teacher ``T``, ``v_star`` for all): each
    state's derivatives are then the same bits as alone, since the Gaussian averages are elementwise
    and every sum over fields is the same small matrix-vector product per state (the batched
    finite-difference Jacobian of :func:`integrate_odes` relies on this). ``averages(C, name, fun)``, if
    given, returns ``fun(tup.gather(C, name))`` for the three- and four-field averages by a shorter way
    (:class:`_OneEntryShifts`).
    """
    K = tup.K
    table = _TABLE[act]
    if averages is None:
        def averages(C, name, fun):
            return fun(tup.gather(C, name))
    batch = Q.shape[:-2]
    if batch:
        T, v_star = np.broadcast_to(T, batch + T.shape), np.broadcast_to(v_star, batch + v_star.shape)
    C = _covariance(Q, R, T)
    u = np.concatenate([-v, v_star], axis=-1)  # Delta_0 = teacher - student = sum_a u_a g(f_a)
    col = u[..., None, :, None]  # u as a column, so each state's sums are one matrix-vector product
    I2m = _i2_matrix(C, act, tup)
    # A[i, b] = < g'(lambda_i) f_b Delta_0 > = sum_a u_a I3(i, b, a)
    # (contiguous per state, so that each sum is the BLAS product a single state takes)
    i3 = np.ascontiguousarray(averages(C, "triples", table[1]))
    A = (i3.reshape(batch + (K, tup.n, tup.n)) @ col)[..., 0]
    # B[i, k] = < g'(lambda_i) g'(lambda_k) Delta_0^2 > = sum_ab u_a u_b I4(i, k, a, b)
    i4 = np.ascontiguousarray(averages(C, "quads", table[2])).reshape(batch + (len(tup.spairs), len(tup.pairs)))
    a, b = tup.pairs.T
    B_ik = (i4 @ (tup.pair_weight * u[..., a] * u[..., b])[..., :, None])[..., 0]
    j2 = table[3](tup.gather(C, "spairs"))
    i, k = tup.spairs.T
    second = np.zeros(batch + (K, K))
    second[..., i, k] = B_ik + sigma2 * j2
    second[..., k, i] = second[..., i, k]
    vA = v[..., :, None] * A[..., :K]
    vv = v[..., :, None] * v[..., None, :]
    dQ = lr * (vA + np.swapaxes(vA, -1, -2)) + lr**2 * vv * second - 2.0 * wd * Q
    dR = lr * v[..., :, None] * A[..., K:] - wd * R
    if train2:
        dv = lr2 * (I2m[..., :K, :] @ col[..., 0, :, :])[..., 0] - wd * v
    else:
        dv = np.zeros(batch + (K,))
    eps = 0.5 * (u[..., None, :] @ I2m @ col[..., 0, :, :])[..., 0, 0]
    return dQ, dR, dv, eps


def order_parameter_derivatives(
    state: OrderParameters, activation: str, sgd: OnlineSGD
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Right-hand side of the ODEs (9) for the order parameters.

    Derived from the SGD updates (2)-(3) with ``Delta_0 = sum_m v*_m g(rho_m) - sum_k v_k
    g(lambda_k)`` (teacher minus student, noiseless; see the module docstring for the sign):

    * (9a) ``dR_in/dalpha = eta v_i <g'(lambda_i) rho_n Delta_0> - kappa R_in``
    * (9b) ``dQ_ik/dalpha = eta v_i <g'(lambda_i) lambda_k Delta_0> + (i <-> k)
      + eta^2 v_i v_k (<g'(lambda_i) g'(lambda_k) Delta_0^2> + sigma^2 J2(i, k)) - 2 kappa Q_ik``
    * (9c) ``dv_i/dalpha = eta_v <g(lambda_i) Delta_0> - kappa v_i`` (only if the second
      layer is trained; otherwise ``dv = 0``).

    The averages are sums of ``I3`` (first order), ``I4`` and ``J2`` (second order in
    ``eta``) and ``I2`` (second layer) over all fields.

    Parameters
    ----------
    state : OrderParameters
        The order parameters ``(Q, R, T, v, v_star)`` (eq. 5).
    activation : {"erf", "relu", "linear"}
    sgd : OnlineSGD
        The learning rates ``eta`` (first layer, SGD step ``eta / sqrt(N)``) and ``eta_v`` (second
        layer, step ``eta_v / N``), the output noise ``sigma``, whether ``v`` is trained (eq. 9c;
        otherwise a soft committee machine, ``v`` fixed) and the weight decay ``kappa`` (module
        docstring).

    Returns
    -------
    dQ, dR, dv : ndarray
        Derivatives with respect to ``alpha``; ``dQ`` is symmetric.

    Notes
    -----
    The former call ``order_parameter_derivatives(Q, R, T, v, v_star, activation, lr, sigma, lr2=None,
    train_second_layer=False, weight_decay=0.0)`` still works for one release, with a ``DeprecationWarning``.
    """
    act = _check_activation(activation)
    _checks.instance(state, "state", OrderParameters, hint=" (the order parameters Q, R, T, v, v_star)")
    _checks.instance(sgd, "sgd", OnlineSGD, hint=" (lr, sigma, lr2, train_second_layer, weight_decay)")
    Q, R, T, v, v_star = state.Q, state.R, state.T, state.v, state.v_star
    lr, lr2, sigma, wd, train2 = sgd.lr, sgd.rate2, sgd.sigma, sgd.weight_decay, sgd.train_second_layer
    tup = _Tuples(Q.shape[0], T.shape[0])
    dQ, dR, dv, _ = _derivatives(Q, R, T, v, v_star, act, tup, lr, lr2, sigma**2, wd, train2)
    return dQ, dR, dv


# ------------------------------------------------------------------------ integration


@dataclass
class ODEResult:
    """Solution of the ODEs (9) at the requested times.

    Attributes
    ----------
    alpha : ndarray (n_times,)
        Times ``alpha`` = SGD steps / N.
    eg : ndarray (n_times,)
        Generalisation error eq. (4).
    Q, R, v : ndarray
        Order parameters, shapes (n_times, K, K), (n_times, K, M), (n_times, K).
    T, v_star : ndarray
        The (fixed) teacher order parameters.
    nfev : int
        Number of right-hand-side evaluations.
    message : str
        The integrator's status message.
    """

    alpha: np.ndarray
    eg: np.ndarray
    Q: np.ndarray
    R: np.ndarray
    v: np.ndarray
    T: np.ndarray
    v_star: np.ndarray
    nfev: int
    message: str


#: ``solve_ivp`` methods :func:`integrate_odes` accepts.
_METHODS = ("LSODA", "RK45", "RK23", "DOP853", "Radau", "BDF")
#: Order parameters beyond this factor times their initial scale count as diverged.
_BLOWUP = 1e30


def _check_times(times):
    """Non-empty, non-decreasing 1-d times ``alpha >= 0``."""
    times = _checks.real_array(times, "times", lower=0, ndim=1, extra=" (non-decreasing alphas)")
    if times.size == 0 or np.any(np.diff(times) < 0):
        raise ValueError(f"times must be a non-empty 1-D array of finite alphas >= 0, non-decreasing; "
                         f"got {times[:5].tolist()}")
    return times


def _pack(Q, R, v, iu):
    """The ODE state ``(upper triangle of Q, R, v)``; leading axes of ``Q``, ``R``, ``v`` are a batch."""
    batch = Q.shape[:-2]
    return np.concatenate([Q[..., iu[0], iu[1]], R.reshape(batch + (-1,)), v], axis=-1)


def _unpack(y, K, M, iu):
    """``(Q, R, v)`` from the ODE state ``y`` (..., size); the inverse of :func:`_pack`."""
    nq = len(iu[0])
    Q = np.zeros(y.shape[:-1] + (K, K))
    upper = y[..., :nq] + 0.0  # the former Q + triu(Q, 1).T added 0.0 to every entry (so -0.0 became 0.0)
    Q[..., iu[0], iu[1]] = upper
    Q[..., iu[1], iu[0]] = upper
    R = y[..., nq : nq + K * M].reshape(y.shape[:-1] + (K, M))
    v = y[..., nq + K * M :]
    return Q, R, v


def integrate_odes(
    state: OrderParameters, activation: str, sgd: OnlineSGD, times: ArrayLike, *, solver: ODESolver | None = None
) -> ODEResult:
    """Integrate the ODEs (9) from ``alpha = 0`` and return the state at ``times``.

    The state is the upper triangle of ``Q`` (so ``Q`` stays exactly symmetric), ``R``
    and ``v``. ``scipy.integrate.solve_ivp`` with LSODA: it switches to a stiff (BDF)
    method near fixed points, where the explicit methods would be limited by stability
    to steps ``~1/eta``, so ``alpha = 1e5`` takes seconds; plateaus and their escape are
    resolved by the error control (``rtol``, ``atol``).

    Parameters
    ----------
    state : OrderParameters
        Initial order parameters ``(Q, R, T, v, v_star)`` (eq. 5).
    activation : {"erf", "relu", "linear"}
    sgd : OnlineSGD
        First-layer learning rate ``eta`` (SGD step ``eta / sqrt(N)``, eq. 2), output-noise standard
        deviation ``sigma`` (eq. 1), second-layer rate ``eta_v`` (eq. 3), whether ``v`` is trained
        (otherwise a soft committee machine: ``v`` stays fixed) and the weight decay ``kappa``.
    times : array_like (n_times,)
        Non-decreasing times ``alpha >= 0`` at which to report the solution.
    solver : ODESolver, optional (keyword only)
        ``solve_ivp``'s method and tolerances; default ``ODESolver()`` (LSODA, ``rtol = 1e-9``,
        ``atol = 1e-12``).

    Returns
    -------
    ODEResult

    Raises
    ------
    ValueError
        Bad arguments (the message names the argument), or a learning rate at which the
        order parameters diverge: the integration stops once one exceeds ``1e30`` times
        the initial scale (or turns non-finite), and the message names ``lr`` (and
        ``lr2``) and the time ``alpha`` at which it happened.
    RuntimeError
        If the integrator itself fails.

    Notes
    -----
    The former call ``integrate_odes(Q, R, T, v, v_star, activation, lr, sigma, times, lr2=None,
    train_second_layer=False, weight_decay=0.0, *, rtol=1e-9, atol=1e-12, method="LSODA")`` still works for
    one release, with a ``DeprecationWarning``.
    """
    act = _check_activation(activation)
    _checks.instance(state, "state", OrderParameters, hint=" (the order parameters Q, R, T, v, v_star)")
    _checks.instance(sgd, "sgd", OnlineSGD, hint=" (lr, sigma, lr2, train_second_layer, weight_decay)")
    solver = ODESolver() if solver is None else _checks.instance(solver, "solver", ODESolver,
                                                                 hint=" (method, rtol, atol)")
    Q, R, T, v, v_star = state.Q, state.R, state.T, state.v, state.v_star
    lr, lr2, sigma, wd, train2 = sgd.lr, sgd.rate2, sgd.sigma, sgd.weight_decay, sgd.train_second_layer
    times = _check_times(times)
    rtol, atol, method = solver.rtol, solver.atol, solver.method
    K, M = Q.shape[0], T.shape[0]
    # the dynamics run at rate ~ lr (lr2): the solver's steps scale as lr * alpha, each costing
    # a few evaluations of the (K + M)^4-ish right-hand side and its Jacobian
    _checks.work_limit(1e3 * max(lr, lr2, 1.0) * max(float(times[-1]), 1.0) * (K + M) ** 4,
                       f"lr={lr}" + (f", lr2={lr2}" if lr2 != lr else "") + f" over times up to {float(times[-1]):g} "
                       f"with K={K}, M={M}")
    tup = _Tuples(K, M)
    iu = np.triu_indices(K)
    sigma2 = sigma**2
    y0 = _pack(Q, R, v, iu)

    def rhs(_, y, averages=None):
        Qy, Ry, vy = _unpack(y, K, M, iu)
        dQ, dR, dv, _ = _derivatives(Qy, Ry, T, vy, v_star, act, tup, lr, lr2, sigma2, wd, train2, averages)
        return _pack(dQ, dR, dv, iu)

    columns = np.arange(y0.size)
    one_entry = _OneEntryShifts(tup, iu)

    def jac(t, y):
        # Forward differences with steps scaled to O(1) order parameters. LSODA's own
        # estimate scales its steps with the error weights, which near a noisy fixed
        # point (components ~1e-10) gives a useless Jacobian and ~100x more steps.
        # All the shifted states go through the right-hand side as one batch (row 0 unshifted),
        # each evaluating only the Gaussian averages its shift changes: the same bits as one call
        # per column, at a fraction of the calls and of the work.
        step = 1e-8 * np.maximum(np.abs(y), 1.0)
        shifted = np.repeat(y[None], y.size + 1, axis=0)
        shifted[columns + 1, columns] += step
        f = rhs(t, shifted, one_entry)
        return ((f[1:] - f[0]) / step[:, None]).T

    t_end = float(times[-1])
    if t_end > 0:
        # an unstable learning rate makes the order parameters grow exponentially (then
        # overflow to NaN, which LSODA reports as success): stop where they explode
        limit = _BLOWUP * max(1.0, float(np.max(np.abs(y0))), float(np.max(np.abs(T))))

        def explodes(_, y):
            return limit - np.max(np.abs(y))

        explodes.terminal = True
        kwargs = dict(jac=jac) if method in ("LSODA", "BDF", "Radau") else {}
        with np.errstate(over="ignore", invalid="ignore"):
            sol = solve_ivp(
                rhs, (0.0, t_end), y0, method=method, t_eval=times, rtol=rtol, atol=atol, events=explodes,
                **kwargs
            )
        bad = ~np.all(np.isfinite(sol.y), axis=0)
        if sol.status == 1 or np.any(bad):
            where = sol.t_events[0][0] if sol.status == 1 else sol.t[np.argmax(bad)]
            rates = f"lr={lr} and lr2={lr2} are" if train2 else f"lr={lr} is"
            raise ValueError(
                f"the order parameters diverge (|Q|, |R| or |v| > {limit:.3g} by alpha = {where:.4g}): "
                f"the learning rate {rates} unstable for this network; use a smaller lr"
                + (" or lr2" if train2 else "")
            )
        if not sol.success:
            raise RuntimeError(f"ODE integration failed: {sol.message}")
        ys, nfev, message = sol.y.T, sol.nfev, sol.message
    else:
        ys, nfev, message = np.repeat(y0[None], len(times), 0), 0, "all times are 0"
    Qs, Rs, vs = zip(*(_unpack(y, K, M, iu) for y in ys))
    Qs, Rs, vs = np.array(Qs), np.array(Rs), np.array(vs)
    eg = _generalisation_error(Qs, Rs, T, vs, v_star, act)
    return ODEResult(times.copy(), np.atleast_1d(eg), Qs, Rs, vs, T, v_star, int(nfev), str(message))


# ---------------------------------------------------------------- asymptotic error


def _ansatz(K, M, v_star, both):
    """Symmetry-reduced parametrisation ``y = y_fixed + A p`` around the zero-noise fixed point.

    SCM (``both=False``): units ``k < M`` specialise to teacher ``k``, units ``k >= M``
    (identical) have zero weights; up to 7 classes of order parameters (the paper's
    section C reduction, with the superfluous units' diagonal and off-diagonal overlaps
    merged). Both layers (``K = Z M``): unit ``k`` specialises to teacher ``k mod M``,
    identical within a group, with ``v_k = v* / Z`` (the denoising ansatz, the paper's
    section E); up to 5 classes.
    Teacher: ``T = I_M``, ``v*_m = v*``.
    """
    iu = np.triu_indices(K)
    classes, p0 = {}, {}
    group = [k % M if both else (k if k < M else -1) for k in range(K)]
    labels = []
    for k, l in zip(*iu):
        gk, gl = group[k], group[l]
        if both:
            lab, val = ("Q_group", 1.0) if gk == gl else ("Q_cross", 0.0)
        elif k == l and gk >= 0:
            lab, val = "Qd_spec", 1.0
        elif gk < 0 and gl < 0:
            lab, val = "Q_extra", 0.0
        elif gk >= 0 and gl >= 0:
            lab, val = "Qo_spec", 0.0
        else:
            lab, val = "Qo_mixed", 0.0
        labels.append(lab)
        p0[lab] = val
    for k in range(K):
        for n in range(M):
            if group[k] < 0:
                lab, val = "R_extra", 0.0
            elif group[k] == n:
                lab, val = "R_own", 1.0
            else:
                lab, val = "R_other", 0.0
            labels.append(lab)
            p0[lab] = val
    Z = K // M
    for k in range(K):
        if both:
            labels.append("v")
            p0["v"] = v_star / Z
        else:
            labels.append(None)  # fixed at v*
    names = list(dict.fromkeys(lab for lab in labels if lab is not None))
    A = np.zeros((len(labels), len(names)))
    for row, lab in enumerate(labels):
        if lab is not None:
            A[row, names.index(lab)] = 1.0
    y_fixed = np.zeros(len(labels))
    if not both:
        y_fixed[-K:] = v_star
    return names, np.array([p0[nm] for nm in names]), A, y_fixed


def _perturbative_fixed_point(K, M, lr, lr2, v_star, both, act="erf"):
    """First-order (in sigma^2) shift of the fixed point and of eps_g; returns (eps1, J)."""
    names, p0, A, y_fixed = _ansatz(K, M, v_star, both)
    T = np.eye(M)
    vs = np.full(M, float(v_star))
    tup = _Tuples(K, M)
    iu = np.triu_indices(K)
    A_pinv = np.linalg.pinv(A)

    def parts(p):
        return _unpack(y_fixed + A @ p, K, M, iu)

    def f(p, sigma2):
        Qp, Rp, vp = parts(p)
        dQ, dR, dv, _ = _derivatives(Qp, Rp, T, vp, vs, act, tup, lr, lr2, sigma2, 0.0, both)
        return A_pinv @ _pack(dQ, dR, dv, iu)

    def eps(p):
        Qp, Rp, vp = parts(p)
        return _generalisation_error(Qp, Rp, T, vp, vs, act)

    h = 1e-5
    dim = len(p0)
    J = np.empty((dim, dim))
    grad = np.empty(dim)
    for j in range(dim):
        e = np.zeros(dim)
        e[j] = h
        J[:, j] = (f(p0 + e, 0.0) - f(p0 - e, 0.0)) / (2 * h)
        grad[j] = (eps(p0 + e) - eps(p0 - e)) / (2 * h)
    b = f(p0, 1.0) - f(p0, 0.0)  # exactly linear in sigma^2
    p1 = -np.linalg.solve(J, b)
    return float(grad @ p1), J, dict(zip(names, p1))


def asymptotic_error(
    activation: str, M: int, K: int, sgd: OnlineSGD, *, v_star: float = 1.0, small_lr: bool = False
) -> float:
    """Asymptotic generalisation error ``eps_g*`` for small output noise.

    Teacher: ``T = I_M`` (orthonormal teacher vectors, the large-``N`` limit of i.i.d.
    ``N(0, 1)`` weights) and all ``v*_m = v_star``.

    * ``linear``, soft committee machine (``train_second_layer=False``; student
      ``v_k = v_star`` fixed): eq. (12), ``eps* = eta' sigma^2 / (4 - 2 eta')`` with the
      effective rate ``eta' = eta K v_star^2`` (``eta' = eta (L + M)`` for ``v_star = 1``,
      the paper's case; the ``v_star`` dependence is derived here: the student is the
      linear perceptron ``W = v_star sum_k w_k``). Exact in ``sigma`` (linear dynamics).
      ``small_lr=True``: eq. (13), ``eta' sigma^2 / 4``. Needs ``eta' < 2``.
    * ``erf``, soft committee machine (student ``v_k = v_star`` fixed): eq. (10), to first
      order in ``sigma^2`` at finite ``eta``, any ``M`` and ``L = K - M``. The paper's
      rational function ``f(M, L, eta)`` (its section C.2) is not in the text, so it is
      recomputed numerically: the ODEs (9) are restricted to the subspace of order
      parameters invariant under permuting teacher units (with their specialised student
      units) and permuting the ``L`` superfluous units, linearised at the zero-noise fixed
      point (``M`` units equal to their teacher, ``L`` units of zero weight), and the
      first-order shift ``p1 = -J^{-1} df/dsigma^2`` gives ``eps* = sigma^2 grad(eps_g).p1``
      (central-difference Jacobian; relative accuracy ~1e-8). Derived here, not in the
      text: the superfluous units are taken identical (their differences feel neither a
      restoring force nor noise at this order, so keeping them separate, as in the
      paper's 8 equations, only adds a null direction of ``J`` along which ``eps_g`` does
      not change; we checked that the result is the same). Caveat found here: for
      ``L >= 2`` the odd ``erf`` admits zero-error pairs of anti-parallel superfluous
      units (:func:`specialised_state`), a continuum of fixed points at ``sigma = 0``.
      At ``sigma > 0`` the noise pushes a pair outward along it, ``d ln Q_aa / d alpha
      ~ 0.13-0.65 eta^2 sigma^2`` (largest for small pairs), while the error falls from
      (10) (``Q_aa = 0``) towards (10) at ``L mod 2`` (``Q_aa -> inf``, where the saturated
      pair stops picking up noise). So (10) is reached, within 5e-4 for ``L <= 4``, from
      near-specialised starts (by ``alpha ~ 1e3-1e4`` at ``eta = 0.05``) and left again on
      the drift's time scale (``~ 1e7`` at ``eta = 0.05, sigma = 0.01``); from random
      starts, students pass through (10) to errors below it (the chapter on §2 measures
      all of this). For ``L <= 1`` the ODE converges to (10) (to ~1e-6 relative at
      ``sigma = 0.01``, see the tests).
      ``small_lr=True``: eq. (11), ``sigma^2 eta / (2 pi) (L + M / sqrt 3)``, times
      ``v_star^2`` (the ``v_star^2`` factor is derived here and checked against the
      perturbative result).
    * ``erf``, both layers (``train_second_layer=True``; ``K = Z M``): the denoising
      ansatz of the paper's section 3 (``Z`` identical student units per teacher unit
      with ``v_k = v_star / Z`` at ``sigma = 0``), same perturbative method in the
      5-dimensional symmetric subspace (``Q`` within and across groups, ``R`` own and
      other, ``v``). The result does not depend on the second-layer rate ``eta_v`` (the
      ``v`` equation has no noise term); ``lr2`` (default ``lr``) only enters the
      stability check. ``small_lr=True``: eq. (15), ``eta (sigma v_star)^2 / (2 sqrt(3)
      K pi)`` for ``M = 1``; for ``M > 1`` we use ``M`` independent groups,
      ``eta M^2 (sigma v_star)^2 / (2 sqrt(3) K pi)`` (derived here, and checked
      against the perturbative result as ``eta -> 0``).

    Parameters
    ----------
    activation : {"erf", "linear"}
        ReLU has no asymptotic theory in the paper (ValueError).
    M, K : int
        Teacher and student hidden units, ``K >= M >= 1``.
    sgd : OnlineSGD
        First-layer learning rate ``eta > 0``, output-noise standard deviation ``sigma``, soft
        committee machine (``train_second_layer=False``) or both layers (True, erf only), and the
        second-layer rate ``lr2`` of the stability check of the both-layer fixed point. No weight
        decay (the theory has none).
    v_star : float (keyword only)
        Teacher second-layer weight (all equal), nonzero.
    small_lr : bool (keyword only)
        Return the leading small-``eta`` closed form instead (eqs. 11, 13, 15).

    Returns
    -------
    float
        ``eps_g*`` (first order in ``sigma^2``).

    Raises
    ------
    ValueError
        Bad inputs, unsupported combinations, or a learning rate at which the fixed
        point is unstable (an eigenvalue of the reduced Jacobian with positive real
        part: the ODE, and SGD, do not converge to it).

    Notes
    -----
    The former call ``asymptotic_error(activation, M, K, lr, sigma, train_second_layer=False, v_star=1.0, *,
    lr2=None, small_lr=False)`` still works for one release, with a ``DeprecationWarning``.
    """
    act = _check_activation(activation)
    M = _checks.integer(M, "M", 1)
    K = _checks.integer(K, "K", 1)
    if K < M:
        raise ValueError(f"need K >= M (over-parameterised student); got K={K}, M={M}")
    _checks.instance(sgd, "sgd", OnlineSGD, hint=" (lr, sigma, lr2, train_second_layer)")
    lr, lr2, sigma, both = sgd.lr, sgd.rate2, sgd.sigma, sgd.train_second_layer
    if lr == 0:
        raise ValueError("sgd.lr must be > 0; got 0")
    if sgd.weight_decay != 0:
        raise ValueError(f"sgd.weight_decay must be 0 (the asymptotic theory has no weight decay); got "
                         f"{sgd.weight_decay!r}")
    v_star = _checks.bounded(v_star, "v_star", extra=", nonzero")
    if v_star == 0:
        raise ValueError(f"v_star must be a finite nonzero number; got {v_star!r}")
    small_lr = _checks.flag(small_lr, "small_lr")
    L = K - M
    if act == "relu":
        raise ValueError(
            "asymptotic_error: activation 'relu' has no asymptotic theory (the paper only "
            "simulates ReLU networks); allowed: 'erf', 'linear'"
        )
    if act == "linear":
        if both:
            raise ValueError(
                "asymptotic_error: no theory for linear networks with both layers trained "
                "(the paper reports simulations); allowed for 'linear': train_second_layer=False"
            )
        eff = lr * K * v_star**2
        if eff >= 2.0:
            raise ValueError(
                f"linear SCM diverges for lr * K * v_star^2 >= 2; got lr={lr}, K={K}, "
                f"v_star={v_star} (allowed: lr < {2.0 / (K * v_star**2):.6g})"
            )
        return linear_stationary_error(eff, sigma, small_lr=small_lr)
    # erf
    if both and K % M != 0:
        raise ValueError(f"the denoising ansatz needs K to be a multiple of M (K = Z M); got K={K}, M={M}")
    if small_lr:
        if both:
            return lr * M**2 * (sigma * v_star) ** 2 / (2.0 * np.sqrt(3.0) * K * _PI)
        return sigma**2 * v_star**2 * lr / (2.0 * _PI) * (L + M / np.sqrt(3.0))
    eps1, J, _ = _perturbative_fixed_point(K, M, lr, lr2, v_star, both)
    growth = np.max(np.linalg.eigvals(J).real)
    if growth >= 0:
        raise ValueError(
            f"the zero-noise fixed point is unstable at lr={lr} (largest growth rate {growth:.3g} >= 0); "
            "use a smaller lr"
        )
    return eps1 * sigma**2


# ------------------------------------------------------------------- zero-error states


def _check_jitter(jitter):
    return _checks.real(jitter, "jitter", extra=" (a standard deviation)")


def _gram(W, W_star):
    """Order parameters of unit vectors given as rows of ``W`` (students) and ``W_star``."""
    return W @ W.T, W @ W_star.T, W_star @ W_star.T


def linear_stationary_error(effective_lr: ArrayLike, sigma: float, *, small_lr: bool = False) -> float | np.ndarray:
    """Stationary error of online SGD on a linear student: eq. (12) in its effective rate.

    Every linear student of the paper computes a perceptron ``u = sum_k v_k w_k``. Online
    SGD with output noise ``sigma`` settles (``N -> inf``) at

    ``eps* = eta' sigma^2 / (4 - 2 eta')`` (eq. 12; eq. 13 for small ``eta'``: ``eta' sigma^2 / 4``),

    where ``eta'`` is the effective learning rate of ``u`` (:func:`linear_effective_rate`).
    Exact in ``sigma`` (linear dynamics).

    Parameters
    ----------
    effective_lr : float or array_like
        ``eta'`` in ``(0, 2)``: SGD on the perceptron diverges at ``eta' >= 2``. Arrays
        are evaluated elementwise.
    sigma : float
        Output-noise standard deviation, ``>= 0``.
    small_lr : bool (keyword only)
        Return eq. (13) instead.

    Returns
    -------
    float or ndarray
        ``eps*``, with the shape of ``effective_lr``.

    Examples
    --------
    >>> from gendyn import committee as cm
    >>> cm.linear_stationary_error(0.05 * 3, 0.01) == cm.asymptotic_error("linear", 2, 3, 0.05, 0.01)
    True
    """
    eff = _checks.real_array(effective_lr, "effective_lr", lower=0, upper=2, open_lower=True, open_upper=True,
                             extra=" (SGD on the perceptron diverges at eta' >= 2)")
    sigma = _checks.real(sigma, "sigma")
    small_lr = _checks.flag(small_lr, "small_lr")
    out = eff * sigma**2 / 4.0 if small_lr else eff * sigma**2 / (4.0 - 2.0 * eff)
    return float(out) if out.ndim == 0 else out


def linear_effective_rate(
    lr: float, v: ArrayLike, Q: ArrayLike | None = None, N: int | None = None
) -> float | np.ndarray:
    """Effective learning rate ``eta'`` of a linear two-layer student ``u = sum_k v_k w_k``.

    Second layer fixed: a first-layer SGD step moves ``u`` by the perceptron's step times
    ``sum_k v_k^2``, so ``eta' = eta sum_k v_k^2`` (``eta K v^2`` for equal weights, the
    soft committee machines of eqs. 12-13). Second layer trained too (step ``eta / N``,
    eq. 3; pass ``Q`` and ``N``): the step is the perceptron's multiplied by the matrix
    ``P = sum_k v_k^2 I + sum_k w_k w_k^T / N``, and repeating the derivation of (12) with
    this preconditioner, the stationary error depends on ``P`` only through its mean
    eigenvalue: ``eta' = eta (sum_k v_k^2 + tr Q / N)`` (derived here, after the paper's
    supplementary section F on the imbalance of the two layers; checked against SGD in
    the book's Goldt et al. §3 chapter). ``v`` and ``Q`` are not fixed by the data: gradient
    flow conserves each unit's balance ``v_k^2 - Q_kk``.

    Parameters
    ----------
    lr : float
        First-layer rate ``eta > 0``.
    v : array_like (..., K)
        Second-layer weights (any sign); leading axes are batched.
    Q : array_like (..., K, K), optional
        Student overlaps ``w w^T / N``; give it (with ``N``) when the second layer is trained.
    N : int, optional
        Input dimension, with ``Q``.

    Returns
    -------
    float or ndarray (...)
        ``eta'``.
    """
    lr = _checks.real(lr, "lr", positive=True)
    v = _checks.real_array(v, "v", extra=", shape (..., K) with K >= 1")
    if v.ndim < 1 or v.shape[-1] < 1:
        raise ValueError(f"v must have shape (..., K) with K >= 1 (second-layer weights); got shape {v.shape}")
    rate = lr * np.sum(v**2, axis=-1)
    if (Q is None) != (N is None):
        raise ValueError("Q and N go together (second layer trained) or are both None (second layer fixed); "
                         f"got Q={'None' if Q is None else 'an array'}, N={N!r}")
    if Q is not None:
        Q = _checks.real_array(Q, "Q", extra=", shape (..., K, K)")
        if Q.shape != v.shape + v.shape[-1:]:
            raise ValueError(f"Q must have shape {v.shape + v.shape[-1:]} (v's shape plus K); got {Q.shape}")
        Q = _nonnegative_diagonal(Q, "Q", max(1.0, float(np.max(np.abs(Q)))) if Q.size else 1.0)
        N = _checks.integer(N, "N", 1)
        rate = rate + lr * np.trace(Q, axis1=-2, axis2=-1) / N
    return float(rate) if np.ndim(rate) == 0 else rate


def specialised_state(
    M: int, L: int, *, pair_q: float = 0.0, jitter: float = 0.0, rng: seeding.Rng = None, **former: object
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Order parameters of a zero-error soft committee machine with ``L`` superfluous units.

    Student unit ``k < M`` equals teacher unit ``k`` (orthonormal teacher, ``T = I_M``). The
    ``L`` superfluous units form ``L // 2`` anti-parallel pairs ``w_a = -w_b``, orthogonal
    to the teacher and to each other, with ``Q_aa = Q_bb = -Q_ab = pair_q``; for odd ``L``
    the last one has zero weight. For an odd activation (erf, linear) each pair's outputs
    cancel, so at ``sigma = 0`` every such state has zero error and is a fixed point of
    the ODEs (9), for any ``pair_q``: a continuum (derived here; the paper's eq. (10)
    perturbs the member ``pair_q = 0``). With noise the continuum becomes a slow manifold:
    for erf, the pairs' norm grows at a rate of order ``eta^2 sigma^2`` and the error falls
    below (10) as it grows (measured in the book's Goldt §2 chapter). The units are built as
    vectors in ``K + M`` dimensions, so the returned ``Q`` is a Gram matrix (positive
    semi-definite) also with ``jitter``.

    Parameters
    ----------
    M : int
        Teacher hidden units, ``>= 1``.
    L : int
        Superfluous student units, ``>= 0`` (``K = M + L``).
    pair_q : float (keyword only)
        Squared norm ``Q_aa >= 0`` of each unit of an anti-parallel pair.
    jitter : float (keyword only)
        Standard deviation ``>= 0`` of i.i.d. Gaussian numbers added to every coordinate
        of every student unit (a start near the state rather than on it).
    rng : int, SeedSequence, torch or numpy Generator, or None (keyword only)
        The jitter's random numbers (a numpy generator: an integer ``s`` draws as
        ``numpy.random.default_rng(s)``); ``None``: fresh entropy (see :mod:`gendyn.seeding`). The
        former keyword ``seed`` still works for one release, with a ``DeprecationWarning``.

    Returns
    -------
    Q, R, T : ndarray
        Shapes (K, K), (K, M), (M, M); use with ``v = v_star = 1``.

    Examples
    --------
    >>> Q, R, T = specialised_state(2, 2, pair_q=0.5)
    >>> float(generalisation_error(Q, R, T, np.ones(4), np.ones(2), "erf"))
    0.0
    """
    M = _checks.integer(M, "M", 1)
    L = _checks.integer(L, "L", 0)
    rng = seeding.former_rng(rng, former, "committee.specialised_state", alone=True)
    pair_q = _checks.real(pair_q, "pair_q", extra=" (a squared norm)")
    jitter = _check_jitter(jitter)
    K = M + L
    W = np.zeros((K, K + M))
    W[:M, :M] = np.eye(M)
    for p in range(L // 2):
        W[M + 2 * p, M + p] = np.sqrt(pair_q)
        W[M + 2 * p + 1, M + p] = -np.sqrt(pair_q)
    if jitter > 0:
        W = W + jitter * seeding.numpy_generator(rng).standard_normal(W.shape)
    return _gram(W, np.eye(M, K + M))


def denoising_state(
    M: int, K: int, v_star: float = 1.0, *, split: float = 0.0, jitter: float = 0.0, v_jitter: float = 0.0,
    rng: seeding.Rng = None, **former: object
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Order parameters and second-layer weights of the denoising state (both layers trained).

    ``K = Z M`` student units; unit ``k`` copies teacher unit ``k mod M`` (orthonormal
    teacher, ``T = I_M``) with second-layer weight ``v_k = v_star / Z``, the paper's §3
    ansatz, a zero-error fixed point of the ODEs (9) at ``sigma = 0``. So is every other
    split of ``v_star`` among the copies of a teacher unit: ``split`` moves that much
    second-layer weight from unit ``M`` (the second copy of teacher unit 0) to unit 0,
    which keeps the error zero (derived here: copies compute the same function). With noise
    the equal split is selected, slowly: an unequal split decays at a rate of order
    ``eta^2 sigma^2`` (measured in the book's Goldt §3 chapter).

    Parameters
    ----------
    M : int
        Teacher hidden units, ``>= 1``.
    K : int
        Student hidden units, a multiple ``Z M`` of ``M`` (``split`` needs ``Z >= 2``).
    v_star : float
        Teacher second-layer weight (all equal), nonzero.
    split : float (keyword only)
        Second-layer weight moved between two copies of teacher unit 0.
    jitter : float (keyword only)
        Standard deviation ``>= 0`` of i.i.d. Gaussian numbers added to every coordinate
        of every first-layer student unit (vectors in ``K + M`` dimensions, so ``Q`` stays
        a Gram matrix). Copies that are exactly equal make the Gaussian averages
        degenerate and the ODE integrator slow; a little jitter avoids that.
    v_jitter : float (keyword only)
        Standard deviation ``>= 0`` of Gaussian numbers added to each ``v_k``.
    rng : int, SeedSequence, torch or numpy Generator, or None (keyword only)
        The jitters' random numbers (one numpy generator, first layer drawn first: an integer ``s``
        draws as ``numpy.random.default_rng(s)``); ``None``: fresh entropy (see :mod:`gendyn.seeding`).
        The former keyword ``seed`` still works for one release, with a ``DeprecationWarning``.

    Returns
    -------
    Q, R, T, v : ndarray
        Shapes (K, K), (K, M), (M, M), (K,); use with ``v_star`` for every teacher unit.
    """
    rng = seeding.former_rng(rng, former, "committee.denoising_state", alone=True)
    M = _checks.integer(M, "M", 1)
    K = _checks.integer(K, "K", 1)
    if K % M:
        raise ValueError(f"K must be a multiple of M (Z copies of each teacher unit); got K={K}, M={M}")
    v_star = _checks.bounded(v_star, "v_star", extra=", nonzero")
    if v_star == 0:
        raise ValueError(f"v_star must be a finite nonzero number; got {v_star!r}")
    split = _checks.bounded(split, "split")
    if split != 0 and K < 2 * M:
        raise ValueError(f"split needs two copies of teacher unit 0 (K >= 2 M); got K={K}, M={M}")
    jitter = _check_jitter(jitter)
    v_jitter = _checks.real(v_jitter, "v_jitter", extra=" (a standard deviation)")
    W = np.zeros((K, K + M))
    W[np.arange(K), np.arange(K) % M] = 1.0
    v = np.full(K, v_star / (K // M))
    if split:
        v[0] += split
        v[M] -= split
    draws = seeding.numpy_generator(rng)
    if jitter > 0:
        W = W + jitter * draws.standard_normal(W.shape)
    if v_jitter > 0:
        v = v + v_jitter * draws.standard_normal(K)
    return (*_gram(W, np.eye(M, K + M)), v)


# ------------------------------------------------------------------- the slow manifold (§2)


def committee_odes(state: tuple[ArrayLike, ArrayLike, ArrayLike], activation: str, lr: float, sigma: float,
                   times: ArrayLike) -> ODEResult:
    """The ODEs (9) of a soft committee machine, second layers fixed at ``v = v* = 1``, from ``(Q, R, T)``.

    :func:`integrate_odes` with ``v = 1`` (K units) and ``v_star = 1`` (M units), the setting of
    Goldt et al. (2019) §2, Fig. 2.

    Parameters
    ----------
    state : tuple of array_like
        ``(Q, R, T)``, shapes (K, K), (K, M), (M, M), e.g. from :func:`specialised_state`.
    activation : {"erf", "relu", "linear"}
    lr : float
        Learning rate ``eta``.
    sigma : float
        Output noise ``>= 0``.
    times : array_like
        Non-decreasing times ``alpha >= 0``.

    Returns
    -------
    ODEResult
    """
    if not isinstance(state, (tuple, list)) or len(state) != 3:
        raise ValueError(f"state must be a tuple (Q, R, T) of order parameters; got {type(state).__name__}")
    Q, R, T = state
    Q, T = _checks.real_array(Q, "Q", ndim=2), _checks.real_array(T, "T", ndim=2)
    return integrate_odes(OrderParameters(Q, R, T, np.ones(len(Q)), np.ones(len(T))), activation, OnlineSGD(lr, sigma),
                          times)


class ManifoldPoint(NamedTuple):
    """A state on the slow manifold of anti-parallel superfluous units, relaxed (:func:`manifold_point`)."""

    ratio: float  # ``eps_g`` at the read-out time over eq. (10)
    rate: float  # drift ``d ln c / d alpha`` over ``(eta sigma)^2``
    c: float  # the pair's squared norm after relaxing
    shift: float  # its relative shift by the noise, ``c / pair_q - 1``


def manifold_point(M: int, L: int, pair_q: float, lr: float, sigma: float, *, window: float,
                   relax: float = 2e3, read: float = 1e4) -> ManifoldPoint:
    """Relax an erf SCM on the manifold of anti-parallel pairs; read its error over eq. (10) and its drift.

    Goldt et al. (2019) §2 (found here, the paper does not discuss it): with ``L >= 2`` superfluous
    units the zero-error states of :func:`specialised_state` (pairs of squared norm ``c``) form a
    continuum; with noise the ODEs (9) first relax to the noisy fixed point next to the start
    (until ``relax``), then drift along the continuum. The error is read at ``read`` and the drift
    ``d ln c / d alpha`` over the rescaled time ``window = eta^2 sigma^2 (alpha_end - relax)``, the
    same at any rate: the drift depends on ``c``, so drifts compare only along the same path in ``c``.

    Parameters
    ----------
    M, L : int
        Teacher units (``>= 1``) and superfluous units (``>= 2``: at least one pair).
    pair_q : float
        Squared norm ``> 0`` of each unit of a pair at the start.
    lr, sigma : float
        Learning rate and output noise, both ``> 0``.
    window : float
        Rescaled time ``> 0`` of the drift measurement.
    relax, read : float
        Times ``> 0`` of the relaxation and of the error's read-out.

    Returns
    -------
    ManifoldPoint
    """
    L = _checks.integer(L, "L", 2, " (a manifold needs one anti-parallel pair)")
    pair_q = _checks.real(pair_q, "pair_q", positive=True, extra=" (a squared norm)")
    lr = _checks.real(lr, "lr", positive=True)
    sigma = _checks.real(sigma, "sigma", positive=True, extra=" (the drift is the noise's)")
    window = _checks.real(window, "window", positive=True)
    relax = _checks.real(relax, "relax", positive=True)
    read = _checks.real(read, "read", positive=True)
    end = relax + window / (lr * sigma) ** 2
    times = np.unique([0.0, relax, read, end])
    ode = committee_odes(specialised_state(M, L, pair_q=pair_q), "erf", lr, sigma, times)
    c = ode.Q[:, M, M]
    i0, i1, i_read = (int(np.searchsorted(times, t)) for t in (relax, end, read))
    rate = np.log(c[i1] / c[i0]) / (end - relax) / (lr * sigma) ** 2
    point = ManifoldPoint(float(ode.eg[i_read] / asymptotic_error("erf", M, M + L, OnlineSGD(lr, sigma))),
                          float(rate),
                          float(c[i0]), float(c[i0] / pair_q - 1))
    if not np.all(np.isfinite(point)):
        raise FloatingPointError(f"the manifold's read-out is not finite at pair_q={pair_q}, lr={lr}, sigma={sigma}")
    return point


# ------------------------------------------------------------------- copies of teacher units (§3)


def _check_overlaps(R):
    R = _checks.real_array(R, "R", ndim=2, extra=", shape (K, M): student-teacher overlaps")
    if R.shape[0] < 1 or R.shape[1] < 1:
        raise ValueError(f"R must have shape (K, M) with K, M >= 1 (student-teacher overlaps); got shape {R.shape}")
    return R


def copies_per_teacher(R: ArrayLike) -> np.ndarray:
    """How many student units copy each teacher unit: Goldt et al. (2019) §3, Figs. 3a-b.

    Student unit ``k`` copies the teacher unit ``n`` of its largest ``|R_kn|`` if that overlap exceeds
    ``0.5`` (a unit below it copies none; the erf is odd, so ``R_kn`` near ``-1`` is a copy too).
    At the denoising state (:func:`denoising_state`) each teacher unit has ``Z = K / M`` copies.

    Parameters
    ----------
    R : array_like (K, M)
        Student-teacher overlaps ``R = w w*^T / N`` (eq. 5).

    Returns
    -------
    ndarray (M,) of int
        Copies per teacher unit.

    Examples
    --------
    >>> copies_per_teacher([[0.9, 0.1], [-0.8, 0.0], [0.2, 0.3]]).tolist()
    [2, 0]
    """
    R = _check_overlaps(R)
    return np.bincount(np.argmax(np.abs(R), axis=1)[np.max(np.abs(R), axis=1) > 0.5], minlength=R.shape[1])


def copy_sums(R: ArrayLike, v: ArrayLike) -> np.ndarray:
    """Per teacher unit, the signed second-layer weights of the student units copying it, summed (§3, Fig. 3b).

    Student unit ``k`` copies the teacher unit ``n(k)`` of its largest ``|R_kn|`` and enters with
    ``v_k sign(R_k n(k))`` (the erf is odd: ``-w*`` with ``-v`` computes the same function). On the
    continuum of zero-error splits of ``v*`` among copies (:func:`denoising_state`) every sum is ``v*``.

    Parameters
    ----------
    R : array_like (K, M)
        Student-teacher overlaps (eq. 5).
    v : array_like (K,)
        Student second-layer weights.

    Returns
    -------
    ndarray (M,)
        The sums, one per teacher unit.

    Examples
    --------
    >>> copy_sums([[0.9, 0.0], [-0.9, 0.1], [0.0, 1.0]], [1.0, -1.0, 2.0]).tolist()
    [2.0, 2.0]
    """
    R = _check_overlaps(R)
    v = _checks.real_array(v, "v", ndim=1, extra=", shape (K,): second-layer weights")
    if v.shape != R.shape[:1]:
        raise ValueError(f"v must have shape ({R.shape[0]},) (one weight per row of R); got shape {v.shape}")
    teacher_of = np.argmax(np.abs(R), axis=1)
    signs = np.sign(R[np.arange(len(v)), teacher_of])
    return np.array([np.sum((v * signs)[teacher_of == n]) for n in range(R.shape[1])])


# ------------------------------------------------------------------- the copies' split of v* (§3)


class SplitRelaxation(NamedTuple):
    """How an unequal split of ``v*`` between two copies of a teacher unit relaxes (:func:`split_relaxation`)."""

    alpha: np.ndarray  # the read-out times
    split: np.ndarray  # the unequal split ``v_0 - v_M`` at each time over its value at the first
    distance2: float  # the start's squared distance from the continuum of splits, ``sum_k |w_k - w*_{k mod M}|^2 / N``


def split_relaxation(state: tuple[ArrayLike, ArrayLike, ArrayLike, ArrayLike], v_star: float, lr: float, sigma: float,
                     times: ArrayLike) -> SplitRelaxation:
    """The ODEs (9) with both layers trained from a denoising state with an unequal split: how the split relaxes.

    Goldt et al. (2019) §3 (found here, the paper does not discuss it): with both layers trained every
    split of ``v*`` among the copies of a teacher unit is a zero-error fixed point at ``sigma = 0``
    (:func:`denoising_state`); with noise the equal split is selected at a rate of order
    ``eta^2 sigma^2``. The ODEs (eqs. 9, both layers at rate ``lr``, every teacher unit ``v*``) are
    integrated from ``state`` (unit ``M`` the second copy of teacher unit 0) and the split
    ``v_0 - v_M`` is read at ``times``, relative to its value at ``times[0]`` (after the start has
    relaxed onto the continuum).

    Parameters
    ----------
    state : tuple of array_like
        ``(Q, R, T, v)``, shapes (K, K), (K, M), (M, M), (K,) with ``K >= 2 M``, e.g. from
        :func:`denoising_state` with ``split``.
    v_star : float
        Teacher second-layer weight (all units), nonzero.
    lr : float
        Learning rate ``eta > 0`` (both layers).
    sigma : float
        Output noise ``>= 0`` (at 0 the split is frozen, up to the start's relaxation).
    times : array_like
        Non-decreasing read-out times ``alpha > 0``.

    Returns
    -------
    SplitRelaxation

    Raises
    ------
    FloatingPointError
        If the split at ``times[0]`` is zero or a read-out is not finite.
    """
    if not isinstance(state, (tuple, list)) or len(state) != 4:
        raise ValueError(f"state must be a tuple (Q, R, T, v) (e.g. from denoising_state); got {type(state).__name__}")
    Q, R, T, v = state
    R = _check_overlaps(R)
    K, M = R.shape
    if K < 2 * M:
        raise ValueError(f"state must hold two copies of teacher unit 0 (K >= 2 M); got K={K}, M={M}")
    v_star = _checks.bounded(v_star, "v_star", extra=", nonzero")
    if v_star == 0:
        raise ValueError(f"v_star must be a finite nonzero number; got {v_star!r}")
    lr = _checks.real(lr, "lr", positive=True)
    sigma = _checks.real(sigma, "sigma")
    times = _check_times(times)
    if times[0] <= 0:
        raise ValueError(f"times must be > 0 (the split is read after the start); got {times[:5].tolist()}")
    ode = integrate_odes(OrderParameters(Q, R, T, v, np.full(M, v_star)), "erf",
                         OnlineSGD(lr, sigma, train_second_layer=True), np.r_[0.0, times])
    imbalance = ode.v[:, 0] - ode.v[:, M]
    with np.errstate(divide="ignore", invalid="ignore"):
        split = imbalance[1:] / imbalance[1]
    Q0, T0 = (np.asarray(x, dtype=float) for x in (Q, T))  # integrate_odes has checked them
    copy_of = np.arange(K) % M
    distance2 = float(np.sum(np.diag(Q0) - 2 * R[np.arange(K), copy_of] + T0[copy_of, copy_of]))
    if not (np.all(np.isfinite(split)) and np.isfinite(distance2)):
        raise FloatingPointError(f"the split is zero or not finite at times[0] = {times[0]:g} (lr={lr}, sigma={sigma})")
    return SplitRelaxation(times, split, distance2)


class FixedPointReading(NamedTuple):
    """The ODEs (9) run towards a fixed point and the theory's value there (:func:`denoising_fixed_point`)."""

    eg: float  # ``eps_g`` of the ODEs at the horizon
    drift: float  # its change over the last decade of time, ``|eps_g(alpha) - eps_g(alpha / 10)|``
    theory: float  # the denoising theory's ``eps_g*`` (:func:`asymptotic_error`)


def denoising_fixed_point(state: tuple[ArrayLike, ArrayLike, ArrayLike, ArrayLike], v_star: float, lr: float,
                          sigma: float, alpha: float) -> FixedPointReading:
    """The ODEs (9) with both layers trained, from near the denoising state, against the denoising theory.

    Goldt et al. (2019) §3, Fig. 3c: the ODEs (eqs. 9, both layers at rate ``lr``, every teacher unit
    ``v*``) are integrated from ``state`` to ``alpha``; their final ``eps_g``, its change over the last
    decade (the distance to its own limit, for a geometric approach) and the perturbative ``eps_g*`` of
    the denoising state (:func:`asymptotic_error` with ``train_second_layer=True``; its small-``eta``
    limit is eq. 15).

    Parameters
    ----------
    state : tuple of array_like
        ``(Q, R, T, v)``, shapes (K, K), (K, M), (M, M), (K,) with ``K`` a multiple of ``M``, e.g.
        :func:`denoising_state` with a jitter.
    v_star : float
        Teacher second-layer weight (all units), nonzero.
    lr : float
        Learning rate ``eta > 0`` (both layers).
    sigma : float
        Output noise ``>= 0``.
    alpha : float
        The horizon ``> 0``.

    Returns
    -------
    FixedPointReading
    """
    if not isinstance(state, (tuple, list)) or len(state) != 4:
        raise ValueError(f"state must be a tuple (Q, R, T, v) (e.g. from denoising_state); got {type(state).__name__}")
    K, M = _check_overlaps(state[1]).shape
    v_star = _checks.bounded(v_star, "v_star", extra=", nonzero")
    if v_star == 0:
        raise ValueError(f"v_star must be a finite nonzero number; got {v_star!r}")
    lr = _checks.real(lr, "lr", positive=True)
    sigma = _checks.real(sigma, "sigma")
    alpha = _checks.real(alpha, "alpha", positive=True)
    sgd = OnlineSGD(lr, sigma, train_second_layer=True)
    theory = asymptotic_error("erf", M, K, sgd, v_star=v_star)
    ode = integrate_odes(OrderParameters(*state, np.full(M, v_star)), "erf", sgd, [0.0, alpha / 10, alpha])
    return FixedPointReading(ode.eg[-1], abs(ode.eg[-1] - ode.eg[-2]), theory)


# ------------------------------------------------------------------- random starts of Fig. 3c (§3)


class RandomStarts(NamedTuple):
    """The ODEs (9), both layers trained, from random starts against the denoising theory (:func:`random_start_odes`)."""

    alpha: np.ndarray  # the read-out times, shape (n_times,)
    eg: np.ndarray  # ``eps_g`` of each start at each time, shape (n_starts, n_times)
    theory: float  # the denoising theory's ``eps_g*`` (:func:`asymptotic_error`)
    rel_tol: float  # the relative distance from the theory that counts as reaching it
    reached: np.ndarray  # ``|eps_g / eps_g* - 1| <= rel_tol`` per start and time, shape (n_starts, n_times)
    fraction: np.ndarray  # the fraction of starts that have reached the theory at each time, shape (n_times,)


def random_start_odes(starts: list[tuple[ArrayLike, ArrayLike, ArrayLike, ArrayLike]], v_star: float, lr: float,
                      sigma: float, times: ArrayLike, *, rel_tol: float = 0.05) -> RandomStarts:
    """The ODEs (9) with both layers trained from random starts: which reach the denoising theory, and when.

    Goldt et al. (2019) §3, Fig. 3c integrates the ODEs "until convergence" from random initial
    conditions; from random starts a student can also end in other states (a unit switched off, uneven
    copies, an unequal split of ``v*`` still relaxing on times of order ``1 / (eta^2 sigma^2)``). Each
    start is integrated (eqs. 9, both layers at rate ``lr``, every teacher unit ``v*``) and read at
    ``times``; a start has reached the theory at a time when its ``eps_g`` is within ``rel_tol``
    (relative) of the perturbative ``eps_g*`` of the denoising state (:func:`asymptotic_error` with
    ``train_second_layer=True``).

    Parameters
    ----------
    starts : list of tuple of array_like
        One ``(Q, R, T, v)`` per start, shapes (K, K), (K, M), (M, M), (K,) with the same ``K``, a
        multiple of ``M``, for all (e.g. the order parameters of
        :func:`gendyn.committee_sgd.initial_weights`); at least one.
    v_star : float
        Teacher second-layer weight (all units), nonzero.
    lr : float
        Learning rate ``eta > 0`` (both layers).
    sigma : float
        Output noise ``> 0`` (the theory's ``eps_g*`` vanishes at 0, and with it the relative distance).
    times : array_like
        Non-decreasing read-out times ``alpha >= 0``.
    rel_tol : float (keyword only)
        Relative distance ``> 0`` from ``eps_g*`` that counts as reaching it.

    Returns
    -------
    RandomStarts
    """
    if not isinstance(starts, (tuple, list)) or len(starts) == 0:
        raise ValueError(f"starts must be a non-empty list of (Q, R, T, v) tuples (one per start); got "
                         f"{type(starts).__name__}")
    shapes = set()
    for s in starts:
        if not isinstance(s, (tuple, list)) or len(s) != 4:
            raise ValueError(f"starts must hold (Q, R, T, v) tuples (one per start); got an element of type "
                             f"{type(s).__name__}")
        shapes.add(_check_overlaps(s[1]).shape)
    if len(shapes) != 1:
        raise ValueError(f"starts must all have the same (K, M); got {sorted(shapes)}")
    K, M = shapes.pop()
    if K % M:
        raise ValueError(f"starts must have K a multiple of M (the denoising state); got K={K}, M={M}")
    v_star = _checks.bounded(v_star, "v_star", extra=", nonzero")
    if v_star == 0:
        raise ValueError(f"v_star must be a finite nonzero number; got {v_star!r}")
    lr = _checks.real(lr, "lr", positive=True)
    sigma = _checks.real(sigma, "sigma", positive=True)
    times = _check_times(times)
    rel_tol = _checks.real(rel_tol, "rel_tol", positive=True)
    theory = asymptotic_error("erf", M, K, OnlineSGD(lr, sigma, train_second_layer=True), v_star=v_star)
    sgd = OnlineSGD(lr, sigma, train_second_layer=True)
    eg = np.array([integrate_odes(OrderParameters(*s, np.full(M, v_star)), "erf", sgd, times).eg for s in starts])
    reached = np.abs(eg / theory - 1) <= rel_tol
    return RandomStarts(times, eg, theory, rel_tol, reached, reached.mean(axis=0))


# ------------------------------------------------------------------- specs of a run of the ODEs (9)


@dataclass(frozen=True, eq=False)
class OrderParameters:
    """The state of a student-teacher pair: the order parameters (eq. 5) and the second layers.

    The initial condition of :func:`integrate_odes` and the point of :func:`order_parameter_derivatives`;
    checked when made (real finite numbers, the shapes below, ``Q`` and ``T`` symmetric with a diagonal
    ``>= 0``). ``Q`` and ``T`` are kept symmetrised, ``v`` and ``v_star`` as arrays of shapes (K,), (M,).

    Parameters
    ----------
    Q : array_like (K, K)
        Student-student overlaps ``w w^T / N``.
    R : array_like (K, M)
        Student-teacher overlaps ``w w*^T / N``.
    T : array_like (M, M)
        Teacher-teacher overlaps ``w* w*^T / N``.
    v : array_like (K,) or float
        Student second-layer weights (one number: every unit's).
    v_star : array_like (M,) or float
        Teacher second-layer weights (one number: every unit's).
    """

    Q: np.ndarray
    R: np.ndarray
    T: np.ndarray
    v: np.ndarray
    v_star: np.ndarray

    def __post_init__(self):
        checked = _check_order_parameters(self.Q, self.R, self.T, self.v, self.v_star)
        for name, value in zip(("Q", "R", "T", "v", "v_star"), checked):
            object.__setattr__(self, name, value)  # a frozen dataclass normalises its fields once

    @property
    def shape(self) -> tuple[int, int]:
        """``(K, M)``: student and teacher hidden units."""
        return self.R.shape


@dataclass(frozen=True)
class OnlineSGD:
    """The online SGD of a two-layer network (eqs. 2-3) that the ODEs (9) describe.

    Checked when made: every rate a finite number ``>= 0``.

    Parameters
    ----------
    lr : float
        First-layer learning rate ``eta`` (SGD step ``eta / sqrt(N)``), ``>= 0``.
    sigma : float
        Standard deviation of the teacher's output noise (eq. 1), ``>= 0``.
    lr2 : float, optional
        Second-layer learning rate ``eta_v`` (SGD step ``eta_v / N``), ``>= 0``; ``None``: ``lr``.
    train_second_layer : bool
        Train ``v`` too; otherwise a soft committee machine (``v`` fixed).
    weight_decay : float
        ``kappa >= 0`` (module docstring).
    """

    lr: float
    sigma: float = 0.0
    lr2: float | None = None
    train_second_layer: bool = False
    weight_decay: float = 0.0

    def __post_init__(self):
        lr, lr2, sigma, wd = _check_rates(self.lr, self.lr2, self.sigma, self.weight_decay)
        object.__setattr__(self, "lr", lr)
        object.__setattr__(self, "lr2", None if self.lr2 is None else lr2)
        object.__setattr__(self, "sigma", sigma)
        object.__setattr__(self, "weight_decay", wd)
        object.__setattr__(self, "train_second_layer", _checks.flag(self.train_second_layer, "train_second_layer"))

    @property
    def rate2(self) -> float:
        """The second layer's rate: ``lr2``, or ``lr`` when it is ``None``."""
        return self.lr if self.lr2 is None else self.lr2


@dataclass(frozen=True)
class ODESolver:
    """How :func:`integrate_odes` solves the ODEs (9): ``scipy.integrate.solve_ivp``'s method and tolerances.

    Parameters
    ----------
    method : {"LSODA", "RK45", "RK23", "DOP853", "Radau", "BDF"}
        The method; LSODA (stiff near fixed points, explicit elsewhere) by default.
    rtol, atol : float
        Relative and absolute tolerances, ``> 0`` (one number each).
    """

    method: str = "LSODA"
    rtol: float = 1e-9
    atol: float = 1e-12

    def __post_init__(self):
        object.__setattr__(self, "method", _checks.choice(self.method, "method", _METHODS))
        # scalars only: an array of tolerances of the wrong length crashes LSODA's Fortran code
        object.__setattr__(self, "rtol", _checks.positive(self.rtol, "rtol"))
        object.__setattr__(self, "atol", _checks.positive(self.atol, "atol"))


__all__ += ["OrderParameters", "OnlineSGD", "ODESolver"]


# ------------------------------------------------------------ the former call forms (one more release)


def _former_signature(former: Callable, convert: Callable, new_form: str) -> Callable:
    """A decorator: the function also takes the call form of ``former`` (its old signature), with a warning.

    A call that binds to the function's own signature runs as it is. One that does not but binds to
    ``former`` (its parameters and defaults are the old ones; its body is unused) warns
    (``DeprecationWarning`` naming ``new_form``) and runs ``func(*args, **kwargs)`` with
    ``(args, kwargs) = convert(**old_arguments)``: the same computation, so the same results. A call
    that binds to neither raises the ``TypeError`` of the new signature. A ``**`` parameter of the function
    (``**former``) takes only the former random-number keywords (``generator``, ``seed``:
    :func:`gendyn.seeding.former_rng`); a call that puts anything else there is one of the former form.
    """

    def decorate(func):
        new, old = inspect.signature(func), inspect.signature(former)
        extra = next((p.name for p in new.parameters.values() if p.kind is p.VAR_KEYWORD), None)

        def bind_new(args, kwargs):
            bound = new.bind(*args, **kwargs)
            other = [k for k in bound.arguments.get(extra, {}) if k not in ("generator", "seed")]
            if other:
                raise TypeError(f"{func.__name__}() got an unexpected keyword argument {other[0]!r}")

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            try:
                bind_new(args, kwargs)
            except TypeError as error:
                try:
                    bound = old.bind(*args, **kwargs)
                except TypeError:
                    raise error from None
                bound.apply_defaults()
                warnings.warn(f"{func.__name__}{old} is deprecated and will be removed in the next release: "
                              f"call {new_form}", DeprecationWarning, stacklevel=2)
                new_args, new_kwargs = convert(**bound.arguments)
                return func(*new_args, **new_kwargs)
            return func(*args, **kwargs)

        return wrapper

    return decorate


def _former_order_parameter_derivatives(Q, R, T, v, v_star, activation, lr, sigma, lr2=None,
                                        train_second_layer=False, weight_decay=0.0):
    """The signature of :func:`order_parameter_derivatives` before its specs."""


def _former_integrate_odes(Q, R, T, v, v_star, activation, lr, sigma, times, lr2=None, train_second_layer=False,
                           weight_decay=0.0, *, rtol=1e-9, atol=1e-12, method="LSODA"):
    """The signature of :func:`integrate_odes` before its specs."""


def _former_asymptotic_error(activation, M, K, lr, sigma, train_second_layer=False, v_star=1.0, *, lr2=None,
                             small_lr=False):
    """The signature of :func:`asymptotic_error` before its spec."""


def _sgd_of(a):
    """The :class:`OnlineSGD` of a former call's arguments ``a``."""
    return OnlineSGD(a["lr"], a["sigma"], a.get("lr2"), a.get("train_second_layer", False),
                     a.get("weight_decay", 0.0))


order_parameter_derivatives = _former_signature(
    _former_order_parameter_derivatives,
    lambda **a: ((OrderParameters(a["Q"], a["R"], a["T"], a["v"], a["v_star"]), a["activation"], _sgd_of(a)), {}),
    "order_parameter_derivatives(OrderParameters(Q, R, T, v, v_star), activation, OnlineSGD(lr, sigma, lr2, "
    "train_second_layer, weight_decay))")(order_parameter_derivatives)
integrate_odes = _former_signature(
    _former_integrate_odes,
    lambda **a: ((OrderParameters(a["Q"], a["R"], a["T"], a["v"], a["v_star"]), a["activation"], _sgd_of(a),
                  a["times"]), dict(solver=ODESolver(a["method"], a["rtol"], a["atol"]))),
    "integrate_odes(OrderParameters(Q, R, T, v, v_star), activation, OnlineSGD(lr, sigma, lr2, train_second_layer, "
    "weight_decay), times, solver=ODESolver(method, rtol, atol))")(integrate_odes)
asymptotic_error = _former_signature(
    _former_asymptotic_error,
    lambda **a: ((a["activation"], a["M"], a["K"], _sgd_of(a)), dict(v_star=a["v_star"], small_lr=a["small_lr"])),
    "asymptotic_error(activation, M, K, OnlineSGD(lr, sigma, lr2, train_second_layer), v_star=..., "
    "small_lr=...)")(asymptotic_error)
