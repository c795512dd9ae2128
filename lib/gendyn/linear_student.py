"""Generalisation dynamics of a linear student learning a linear teacher.

Advani & Saxe (2017), in the journal version Advani, Saxe & Sompolinsky, "High-dimensional
dynamics of generalization error in neural networks", Neural Networks 132:428-446 (2020),
as presented in the MIT 18.338 lecture slides (``advani-saxe-2017-lecture-slides.md``,
equations (1)-(12)).

Model (the slides' normalisation)
---------------------------------
* Inputs: a data matrix ``X`` of shape ``N x P`` (``N`` features, ``P`` examples) with
  i.i.d. entries ``X_ij ~ N(0, 1/N)``; load ``alpha = P/N`` (any ``alpha > 0``).
* Teacher ``y = wbar X + eps``: ``wbar`` (a row of ``N`` weights) ``~ N(0, sigma_w^2)``,
  label noise ``eps ~ N(0, sigma_eps^2)`` on each example.
* Student ``yhat = w X`` with initial weights ``w(0) ~ N(0, sigma_w0^2)``.
* ``SNR = sigma_w^2 / sigma_eps^2`` and ``INR = sigma_w0^2 / sigma_w^2``. Every error
  returned by this module is in units of ``sigma_w^2`` (``E / sigma_w^2``), as eq. (6).
* Gradient flow ``tau dw/dt = (y - w X) X^T`` (the negative gradient of
  ``(1/2) sum_mu (y^mu - yhat^mu)^2``; this is ``-(P/2)`` times the gradient of the
  slides' training error ``E_t = (1/P) sum_mu (y^mu - yhat^mu)^2``). It is the flow whose
  solution is eqs. (2)-(4): with the data covariance ``Sigma = X X^T = V Lambda V^T``
  (``N x N``; the thin SVD ``X = V Lambda^{1/2} U^T``), ``z = w V``, ``zbar = wbar V`` and
  the projected noise ``epstilde = eps U``, each mode obeys
  ``tau dz_i/dt = (zbar_i - z_i) lambda_i + epstilde_i sqrt(lambda_i)``.

Results (eqs. (5), (6) and what follows from them)
---------------------------------------------------
* Test error of one dataset, averaged over teacher, noise and initialisation, eq. (5):
  :func:`single_dataset_error`; its training-error twin :func:`single_dataset_training_error`.
* The eigenvalues of ``Sigma`` follow the Marchenko-Pastur law
  ``rho(lambda) = sqrt((lambda_+ - lambda)(lambda - lambda_-)) / (2 pi lambda)`` on
  ``lambda_pm = (1 pm sqrt(alpha))^2``, plus a point mass ``1 - alpha`` at ``lambda = 0``
  when ``alpha < 1`` (frozen modes): :func:`mp_eigenvalue_density`,
  :func:`mp_point_mass`, :func:`mp_eigenvalue_cdf`, :func:`mp_eigenvalue_edges`.
  The continuous part has mass ``min(1, alpha)`` and the mean eigenvalue is ``alpha``.
* Typical-dataset test error eq. (6): :func:`generalization_error`; training error:
  :func:`training_error` (derived here, below); long-time limit :func:`asymptotic_error`;
  early stopping :func:`optimal_stopping_error`; :func:`eigengap`;
  :func:`frozen_subspace_error`; L2 regularisation (ridge) :func:`ridge_error`,
  :func:`single_dataset_ridge_error`, through the MP Stieltjes transform :func:`mp_stieltjes`;
  each mode's own optimal stopping time :func:`per_mode_stopping_time`, and stopping every mode at it
  (:func:`per_mode_stopped_shrinkage`, :func:`per_mode_stopped_error`), which equals optimal ridge.
* The generalisation-bound argument, eqs. (7)-(12): :func:`generalization_gap_bound`,
  :func:`rademacher_bound`, :func:`dynamics_weight_norm_bound`, :func:`dynamics_bound`,
  and the mode solution eqs. (4)/(9) with the norm eq. (10): :func:`mode_dynamics`,
  :func:`weight_norm_sq`.

Derived formulas (not written on the slides; each is checked by simulation in the tests)
-----------------------------------------------------------------------------------------
* Training error. With ``s_k`` the ``P`` eigenvalues of the Gram matrix ``X^T X``
  (the nonzero ``lambda_i`` plus ``P - N`` zeros if ``alpha > 1``)::

      E_t(t) / sigma_w^2 = (1/P) sum_k exp(-2 s_k t/tau) [ s_k (1 + INR) + 1/SNR ]

  and for a typical dataset
  ``E_t / sigma_w^2 = (1/alpha) int rho_c(l) exp(-2 l t/tau) [l (1 + INR) + 1/SNR] dl
  + max(0, 1 - 1/alpha) / SNR`` (``rho_c`` = continuous part). At ``t = 0`` both errors
  equal ``1 + INR + 1/SNR``.
* Long-time limit (``int rho_c / lambda = alpha/(1 - alpha)`` for ``alpha < 1``,
  ``1/(alpha - 1)`` for ``alpha > 1``, divergent at ``alpha = 1``)::

      E_g(inf)/sigma_w^2 = (1 - alpha)(1 + INR) + alpha / ((1 - alpha) SNR) + 1/SNR  (alpha < 1)
      E_g(inf)/sigma_w^2 = 1 / ((alpha - 1) SNR) + 1/SNR                              (alpha > 1)

  and ``+inf`` at ``alpha = 1`` for finite SNR (the overfitting peak).
* Frozen subspace: the point mass contributes ``(1 - alpha)(1 + INR)`` to
  ``E_g / sigma_w^2`` at every time (eq. (6) with ``lambda -> 0``: the noise term
  ``(1 - e^{-lambda t})^2 / lambda -> 0``).

Readings of the slides where they are ambiguous
-----------------------------------------------
* The middle line of eq. (5) is garbled; the test error is taken against a fresh input
  ``x`` with entries ``N(0, 1/N)`` and fresh label noise, so
  ``E_g = |wbar - w|^2 / N + sigma_eps^2 = (1/N) sum_i (zbar_i - z_i)^2 + sigma_eps^2``.
  The ``+ sigma_eps^2`` is part of ``E_g``: ``E_g(0)/sigma_w^2 = 1 + INR + 1/SNR``
  (``1 + INR`` only for noiseless labels).
* ``epstilde`` in eqs. (2)-(4) is the label noise projected on the right singular vectors,
  ``eps U``; ``ztilde`` in eqs. (9)-(12) is ``stilde = zbar Lambda + epstilde Lambda^{1/2}``
  of eq. (2).
* ``Sigma = X X^T`` is ``N x N`` (eq. (6)'s MP law has ``N`` eigenvalues, of which
  ``N - P`` vanish when ``alpha < 1``); ``X^T X`` shares its nonzero spectrum.
* Eqs. (8), (11), (12): assumptions are stated in :func:`dynamics_weight_norm_bound`
  (zero initialisation, Gaussian-equivalent hidden features with MP eigengap
  ``(1 - sqrt(P/N_h))^2``, ``max ||ztilde||^2`` an ``N_h``-independent constant).

Numerics: the MP integrals use the MP quadrature of :func:`gendyn.rmt.mp_rule` in its
eigenvalue form, the substitution ``lambda = lambda_- + 2h sin^2(theta/2)``
(``h = 2 sqrt(alpha)``, :func:`gendyn.rmt.mp_eigenvalue_measure`), which removes both
square-root edges, with Gauss-Legendre panels uniform in ``log theta`` that resolve the
time scale ``theta ~ 1/sqrt(h t)`` and the gap scale ``theta ~ sqrt(lambda_-/h)``, so the
quadrature stays accurate (relative error ~1e-12) from ``t = 0`` to ``t ~ 1e300``.
All functions are pure numpy/scipy and broadcast their arguments.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from . import _checks, rmt, stopping

__all__ = [
    "mp_eigenvalue_edges",
    "mp_point_mass",
    "mp_eigenvalue_density",
    "mp_eigenvalue_cdf",
    "data_spectrum",
    "mode_dynamics",
    "single_dataset_error",
    "single_dataset_gd_error",
    "single_dataset_training_error",
    "gd_training_error",
    "generalization_error",
    "training_error",
    "asymptotic_error",
    "finite_size_asymptotic_error",
    "optimal_stopping_error",
    "mp_stieltjes",
    "ridge_error",
    "single_dataset_ridge_error",
    "per_mode_stopping_time",
    "per_mode_stopped_shrinkage",
    "per_mode_stopped_error",
    "eigengap",
    "sampled_eigengap",
    "frozen_subspace_error",
    "generalization_gap_bound",
    "rademacher_bound",
    "weight_norm_sq",
    "dynamics_weight_norm_bound",
    "dynamics_bound",
    "SampledErrors",
    "sampled_dataset_errors",
    "FiniteSizeGap",
    "finite_size_gap",
]


# ----------------------------------------------------------------------------- checks


def _values(x):
    return np.asarray(x, dtype=float).ravel()[:5].tolist()


# Every argument goes through gendyn._checks.real_array: real numbers only (no strings,
# booleans or None, which numpy would read as NaN or 1.0), NaN never, inf where documented.


def _check_alpha(alpha):
    return _checks.real_array(alpha, "alpha", lower=0, open_lower=True, extra=" (the load P/N)")


def _check_snr(snr):
    return _checks.real_array(snr, "snr", lower=0, open_lower=True, allow_inf=True,
                              extra=" (sigma_w^2/sigma_eps^2; np.inf for noiseless labels)")


def _check_inr(inr):
    return _checks.real_array(inr, "inr", lower=0, extra=" (sigma_w0^2/sigma_w^2)")


def _check_time(t):
    return _checks.real_array(t, "time t", lower=0, allow_inf=True, extra=" (np.inf for the long-time limit)")


def _check_positive(x, name, extra=""):
    return _checks.real_array(x, name, lower=0, open_lower=True, extra=extra)


def _check_nonneg_finite(x, name):
    return _checks.real_array(x, name, lower=0)


def _check_tau(tau):
    """The time constant of the one-dataset functions: one number (it is not broadcast there)."""
    return _checks.bounded(tau, "tau", 0, open_lower=True)


def _broadcast_modes(names, *arrays):
    """Raise naming ``names`` unless the mode arrays broadcast together."""
    try:
        np.broadcast_shapes(*(np.shape(a) for a in arrays))
    except ValueError:
        raise ValueError(f"{names} must broadcast together (modes on the last axis); got shapes "
                         f"{', '.join(str(np.shape(a)) for a in arrays)}") from None


def _check_eigvals(eigvals, name="eigvals"):
    """Eigenvalues of a PSD matrix, modes on the last axis.

    Values with ``|lam| <= 1e-10 * max|lam|`` are round-off of exact zeros (frozen modes,
    e.g. from ``numpy.linalg.eigvalsh(X @ X.T)`` when ``P < N``) and are set to 0; other
    negative values raise.
    """
    lam = _checks.real_array(eigvals, name, lower=None)
    if lam.ndim == 0 or lam.shape[-1] == 0:
        raise ValueError(f"{name} must be a non-empty array, modes on the last axis; got shape {lam.shape}")
    if not np.all(np.isfinite(lam)):
        raise ValueError(f"{name} must be finite; got {_values(lam[~np.isfinite(lam)])}")
    scale = np.max(np.abs(lam), axis=-1, keepdims=True)
    tol = 1e-10 * np.maximum(scale, 1.0)
    if np.any(lam < -tol):
        raise ValueError(
            f"{name} (of a covariance matrix) must be >= 0 up to round-off; got {_values(lam[lam < -tol])}"
        )
    return np.where(np.abs(lam) <= 1e-10 * scale, 0.0, np.clip(lam, 0.0, None))


def _inverse_snr(snr):
    return np.where(np.isinf(snr), 0.0, 1.0 / snr)


def _finite_or_raise(value, allowed_inf, what):
    """Raise instead of returning a silent nan/inf (outside the documented ``allowed_inf``)."""
    bad = ~np.isfinite(value) & ~allowed_inf
    if np.any(bad):
        raise OverflowError(
            f"{what} is not representable in float64 (overflow) for some inputs; "
            "rescale snr/inr or use smaller values"
        )
    return value


# ----------------------------------------------------------------------------- MP law


def _mp_parameters(alpha):
    """``(sqrt(alpha), h, lambda_-)`` with ``lambda_- = (1 - sqrt(alpha))^2`` free of cancellation."""
    h, lam_minus = rmt._load_parameters(alpha)
    return np.sqrt(alpha), h, lam_minus


def mp_eigenvalue_edges(alpha: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Edges of the continuous Marchenko-Pastur law of ``Sigma = X X^T``.

    Parameters
    ----------
    alpha : array_like
        Load ``alpha = P/N > 0``.

    Returns
    -------
    (lam_minus, lam_plus) : tuple of ndarray
        ``(1 - sqrt(alpha))^2`` and ``(1 + sqrt(alpha))^2`` (slides' normalisation,
        ``X_ij ~ N(0, 1/N)``). ``lam_minus`` is the eigengap; it closes at ``alpha = 1``.
    """
    a = _check_alpha(alpha)
    root, _, lam_minus = _mp_parameters(a)
    return lam_minus, (1.0 + root) ** 2


def mp_point_mass(alpha: ArrayLike) -> np.ndarray:
    """Fraction ``max(0, 1 - alpha)`` of zero eigenvalues of ``Sigma`` (the frozen subspace).

    For ``alpha < 1`` only ``P`` of the ``N`` directions are seen by the data; the other
    ``N - P`` eigenvalues of ``X X^T`` are exactly zero.
    """
    a = _check_alpha(alpha)
    return np.clip(1.0 - a, 0.0, None)


def mp_eigenvalue_density(lam: ArrayLike, alpha: ArrayLike) -> np.ndarray:
    """Continuous part of the eigenvalue density of the data covariance ``X X^T``.

    Parameters
    ----------
    lam : array_like
        Eigenvalues at which to evaluate.
    alpha : array_like
        Load ``alpha = P/N > 0``; broadcast against ``lam``.

    Returns
    -------
    ndarray
        ``rho_c(lam) = sqrt((lam_+ - lam)(lam - lam_-)) / (2 pi lam)`` on the open
        interval ``(lam_-, lam_+)``, ``lam_pm = (1 pm sqrt(alpha))^2``, and 0 elsewhere.
        It integrates to ``min(1, alpha)``; the rest, ``max(0, 1 - alpha)``, is the point
        mass at ``lam = 0`` (:func:`mp_point_mass`), which this function does not include.
        The mean of the full law (continuous part and point mass) is ``alpha``.

    Notes
    -----
    This is the law of eq. (6) ("rho^MP"), i.e. the law of ``(P/N)`` times a standard
    Wishart matrix of ratio ``N/P``. At ``alpha = 1`` the density diverges like
    ``1/(pi sqrt(lam))`` as ``lam -> 0+`` (integrable); the edge value itself is reported
    as 0, like every point outside the open support.
    """
    a = _check_alpha(alpha)
    lam = _checks.real_array(lam, "lam", allow_inf=True)
    lam, a = np.broadcast_arrays(lam, a)
    root, _, lo = _mp_parameters(a)
    hi = (1.0 + root) ** 2
    inside = (lam > lo) & (lam < hi)
    l_in = np.where(inside, lam, 1.0)
    lo_in = np.where(inside, lo, 0.0)
    hi_in = np.where(inside, hi, 2.0)
    dens = np.sqrt((hi_in - l_in) * (l_in - lo_in)) / (2.0 * np.pi * l_in)
    return np.where(inside, dens, 0.0)


def mp_eigenvalue_cdf(lam: ArrayLike, alpha: ArrayLike) -> np.ndarray:
    """Cumulative distribution ``F(lam) = Prob(eigenvalue <= lam)`` of the full MP law.

    Closed form, point mass included: with ``theta = 2 arctan(sqrt(lam - lam_-),
    sqrt(lam_+ - lam))`` the continuous part is
    ``[2 sqrt(a) sin(theta) + (1 + a) theta
    - 2 |1 - a| arctan2((1 + sqrt(a)) sin(theta/2), |1 - sqrt(a)| cos(theta/2))] / (2 pi)``.

    Parameters
    ----------
    lam : array_like
    alpha : array_like
        Load ``alpha > 0``; broadcast against ``lam``.

    Returns
    -------
    ndarray
        0 for ``lam < 0``; ``max(0, 1 - alpha)`` on ``[0, lam_-]``; rising to 1 at ``lam_+``.
    """
    a = _check_alpha(alpha)
    lam = _checks.real_array(lam, "lam", allow_inf=True)
    lam, a = np.broadcast_arrays(lam, a)
    root, _, lo = _mp_parameters(a)
    hi = (1.0 + root) ** 2
    lc = np.clip(lam, lo, hi)
    theta = 2.0 * np.arctan2(np.sqrt(lc - lo), np.sqrt(hi - lc))
    half = 0.5 * theta
    gap = np.abs(1.0 - a)
    cont = (
        2.0 * root * np.sin(theta)
        + (1.0 + a) * theta
        - 2.0 * gap * np.arctan2((1.0 + root) * np.sin(half), np.abs(1.0 - root) * np.cos(half))
    ) / (2.0 * np.pi)
    cont = np.clip(cont, 0.0, np.minimum(1.0, a))
    total = np.clip(1.0 - a, 0.0, None) + cont
    return np.where(lam < 0, 0.0, np.minimum(total, 1.0))


# The MP quadrature (gendyn.rmt.mp_rule, eigenvalue form) and its panels in log(theta).
_ORDER = 12  # Gauss-Legendre nodes per panel
_PANEL_WIDTH = 0.75  # maximal panel width in log(theta)
_DEPTH = 18.0  # panels reach e^-18 below the smallest relevant scale of theta
_MAX_NODES = 1 << 18  # elements x nodes per chunk


def _theta_floor(alpha, s):
    """Lower end ``theta_lo`` of the log-panels: e^-18 below the time and gap scales of theta."""
    _, h, lo = _mp_parameters(alpha)
    with np.errstate(divide="ignore", over="ignore"):
        theta_t = np.where(s * h > 0, 1.0 / (np.sqrt(s) * np.sqrt(h)), np.pi)
        theta_gap = np.where(lo > 0, np.sqrt(lo / h), np.pi)
    return np.maximum(np.minimum(np.minimum(theta_t, theta_gap), np.pi) * math.exp(-_DEPTH), 1e-300)


def _n_panels(theta_lo):
    return np.maximum(1, np.ceil((math.log(np.pi) - np.log(theta_lo)) / _PANEL_WIDTH)).astype(int)


def _mp_rule(alpha, s):
    """Nodes ``lam`` and weights ``w`` with ``sum w f(lam) ~ int rho_c f`` (continuous part).

    ``alpha`` and ``s = t/tau`` are 1-d arrays of equal length (finite, ``s >= 0``).
    Returns ``lam, w`` of shape ``(m, n)``: the rule of :func:`gendyn.rmt.mp_rule` (the
    eigenvalue form, ``lam = lam_- + 2h sin^2(theta/2)``, smooth at both edges) with
    ``[0, theta_lo]`` as one Gauss-Legendre panel and ``[theta_lo, pi]`` cut into panels of
    equal width (at most ``_PANEL_WIDTH``) in ``log theta``, given by their centres and
    half-widths (``rmt._rule``, the arithmetic these integrals have always had).
    """
    theta_lo = _theta_floor(alpha, s)
    u_lo, u_hi = np.log(theta_lo), math.log(np.pi)
    n_panels = int(np.max(_n_panels(theta_lo)))
    width = (u_hi - u_lo) / n_panels  # (m,)
    mid = u_lo[:, None] + width[:, None] * (np.arange(n_panels) + 0.5)  # (m, K)
    load = rmt._load_parameters(alpha)
    lam0, w0 = rmt._rule(0.5 * theta_lo[:, None, None], 0.5 * theta_lo[:, None, None], _ORDER, False, load=load)
    lam, w = rmt._rule(mid[..., None], 0.5 * width[:, None, None], _ORDER, True, load=load)
    return np.concatenate([lam0, lam], axis=1), np.concatenate([w0, w], axis=1)


def _decay_integral(lam, s):
    """``(1 - exp(-lam s)) / lam`` (``= int_0^s e^{-lam u} du``), equal to ``s`` at ``lam = 0``.

    Returns ``(x, g)`` with ``x = lam s`` (may be ``inf``); no 0/0 and no overflow.
    """
    with np.errstate(over="ignore"):
        x = lam * s
    pos = lam > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        g = np.where(pos, -np.expm1(-x) / np.where(pos, lam, 1.0), s)
    return x, g


def _mp_integrals(alpha, s):
    """MP integrals at ``alpha, s`` (1-d, equal length, ``s`` finite):

    ``A = int rho_c e^{-2 l s}``, ``B = int rho_c (1 - e^{-l s})^2 / l``,
    ``C = int rho_c l e^{-2 l s}``.
    """
    m = len(alpha)
    out = np.empty((3, m))
    if m == 0:
        return out
    # chunks of at most _MAX_NODES quadrature values (the node count varies with alpha, s)
    nodes = (_n_panels(_theta_floor(alpha, s)) + 1) * _ORDER
    start = 0
    while start < m:
        cost = np.maximum.accumulate(nodes[start:]) * np.arange(1, m - start + 1)
        stop = start + max(1, int(np.searchsorted(cost, _MAX_NODES, side="right")))
        lam, w = _mp_rule(alpha[start:stop], s[start:stop])
        x, g = _decay_integral(lam, s[start:stop, None])
        with np.errstate(over="ignore"):
            e2 = np.exp(-2.0 * x)  # x may be inf: e2 = 0
        out[0, start:stop] = np.sum(w * e2, axis=1)
        # (1 - e^{-x})^2 / lam = g (1 - e^{-x}): no 0/0 at lam = 0, no overflow
        out[1, start:stop] = np.sum(w * (g * -np.expm1(-x)), axis=1)
        out[2, start:stop] = np.sum(w * lam * e2, axis=1)
        start = stop
    return out


def _inverse_moment(alpha):
    """``int rho_c(l) / l dl``: ``alpha/(1 - alpha)`` (alpha < 1), ``1/(alpha - 1)`` (alpha > 1), inf at 1."""
    with np.errstate(divide="ignore"):
        return np.where(alpha < 1, alpha / (1.0 - alpha), 1.0 / (alpha - 1.0))


# ----------------------------------------------------------------------------- one dataset


def data_spectrum(X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues of the data covariance ``X X^T`` and of the Gram matrix ``X^T X``.

    Parameters
    ----------
    X : array_like, shape (..., N, P)
        Data matrices (features x examples), e.g. with entries ``N(0, 1/N)``.

    Returns
    -------
    cov_eigvals : ndarray, shape (..., N)
        Eigenvalues ``lambda_i`` of ``Sigma = X X^T`` (ascending; ``N - P`` exact zeros
        when ``P < N``): the input of :func:`single_dataset_error`.
    gram_eigvals : ndarray, shape (..., P)
        Eigenvalues of ``X^T X`` (ascending; ``P - N`` exact zeros when ``P > N``): the
        input of :func:`single_dataset_training_error`.
    """
    X = _checks.real_array(X, "X")
    if X.ndim < 2:
        raise ValueError(f"X must have shape (..., N, P); got shape {X.shape}")
    n, p = X.shape[-2:]
    # eigenvalues of the smaller of X X^T, X^T X (absolute accuracy ~ 1e-16 * largest);
    # cheaper and far more robust to BLAS thread contention than a batched SVD
    Xt = np.swapaxes(X, -1, -2)
    small = X @ Xt if n <= p else Xt @ X
    ev = np.clip(np.linalg.eigvalsh(small), 0.0, None)  # ascending, (..., min(n, p))
    batch = X.shape[:-2]
    cov = np.concatenate([np.zeros(batch + (n - ev.shape[-1],)), ev], axis=-1)
    gram = np.concatenate([np.zeros(batch + (p - ev.shape[-1],)), ev], axis=-1)
    return cov, gram


def mode_dynamics(t: ArrayLike, eigvals: ArrayLike, zbar: ArrayLike, z0: ArrayLike, eps_tilde: ArrayLike,
                  tau: float = 1.0) -> np.ndarray:
    """Student weights in the data eigenbasis along gradient flow, eqs. (4) and (9).

    Parameters
    ----------
    t : array_like
        Times (``>= 0``); broadcast against the leading axes of the mode arrays.
    eigvals : array_like, shape (..., N)
        Eigenvalues ``lambda_i`` of ``Sigma = X X^T`` (zeros for frozen modes).
    zbar, z0, eps_tilde : array_like, shape (..., N)
        Teacher ``zbar = wbar V``, initial student ``z(0) = w(0) V`` and projected noise
        ``epstilde = eps U`` (``X = V Lambda^{1/2} U^T``; entries for zero modes are unused).
    tau : float
        Time constant of the flow.

    Returns
    -------
    ndarray
        ``z_i(t) = zbar_i (1 - e_i) + z_i(0) e_i + epstilde_i (1 - e_i)/sqrt(lambda_i)``,
        ``e_i = exp(-lambda_i t/tau)``: eq. (4) rearranged, equal to eq. (9) with
        ``ztilde_i = zbar_i lambda_i + epstilde_i sqrt(lambda_i)`` (eq. (2)). Frozen modes
        (``lambda_i = 0``) stay at ``z_i(0)``. Shape: ``t`` broadcast with ``eigvals[..., :]``
        after appending a mode axis to ``t``.
    """
    t = _check_time(t)
    if np.any(np.isinf(t)):
        raise ValueError("mode_dynamics needs finite times t")
    tau = _check_tau(tau)
    lam = _check_eigvals(eigvals)
    zbar, z0, eps_tilde = (_checks.real_array(x, name) for x, name in
                           ((zbar, "zbar"), (z0, "z0"), (eps_tilde, "eps_tilde")))
    _broadcast_modes("eigvals, zbar, z0 and eps_tilde", lam, zbar, z0, eps_tilde)
    x, g = _decay_integral(lam, t[..., None] / tau)
    e = np.exp(-x)  # x may be inf: e = 0
    one_minus = -np.expm1(-x)
    noise_gain = np.sqrt(lam) * g  # (1 - e)/sqrt(lam), 0 at lam = 0
    return zbar * one_minus + z0 * e + eps_tilde * noise_gain


def single_dataset_error(t: ArrayLike, eigvals: ArrayLike, snr: ArrayLike, inr: ArrayLike,
                         tau: float = 1.0) -> np.ndarray:
    """Test error of one dataset, averaged over teacher, label noise and initialisation, eq. (5).

    Parameters
    ----------
    t : array_like
        Times (``>= 0``; ``np.inf`` gives the long-time limit).
    eigvals : array_like, shape (..., N)
        The ``N`` eigenvalues of the data covariance ``Sigma = X X^T`` of the dataset,
        including the ``N - P`` zeros of the frozen modes when ``P < N``
        (:func:`data_spectrum`).
    snr : float or array_like
        ``sigma_w^2 / sigma_eps^2 > 0`` (``np.inf``: noiseless labels).
    inr : float or array_like
        ``sigma_w0^2 / sigma_w^2 >= 0``.
    tau : float
        Time constant of the flow.

    Returns
    -------
    ndarray
        ``E_g(t) / sigma_w^2 = (1/N) sum_i [(1 + INR) e^{-2 lambda_i t/tau}
        + (1 - e^{-lambda_i t/tau})^2 / (lambda_i SNR)] + 1/SNR`` (eq. (5) divided by
        ``sigma_w^2``). The shape is ``np.broadcast(t, eigvals[..., 0], snr, inr)``; put the
        times on their own axis (``t[:, None]``) to evaluate several datasets at several times.

    Notes
    -----
    Exact for the given ``X`` (no large-N limit): only the averages over ``wbar``,
    ``w(0)`` and ``eps`` are taken. Zero modes contribute ``1 + INR`` at all times and no
    noise term (its ``lambda -> 0`` limit). Eigenvalues below ``1e-10`` times the largest
    are taken as round-off of exact zeros, so ``eigvalsh(X @ X.T)`` can be passed directly.
    """
    t = _check_time(t)
    lam = _check_eigvals(eigvals)
    snr = _check_snr(snr)
    inr = _check_inr(inr)
    tau = _check_tau(tau)
    inv = _inverse_snr(snr)
    s = t[..., None] / tau
    finite = np.isfinite(s)
    sf = np.where(finite, s, 0.0)
    x, g = _decay_integral(lam, sf)
    with np.errstate(divide="ignore"):
        inv_lam = np.where(lam > 0, 1.0 / np.where(lam > 0, lam, 1.0), 0.0)
    with np.errstate(over="ignore"):
        decay = np.where(finite, np.exp(-2.0 * x), (lam == 0).astype(float))
    noise = np.where(finite, g * -np.expm1(-x), inv_lam)
    a_term = np.mean(decay, axis=-1)
    b_term = np.mean(noise, axis=-1)
    out = (1.0 + inr) * a_term + inv * (b_term + 1.0)
    return _finite_or_raise(out, np.zeros(np.shape(out), bool), "single_dataset_error")


def single_dataset_gd_error(steps: ArrayLike, lr: float, eigvals: ArrayLike, snr: float,
                            inr: float) -> np.ndarray:
    """Test error of one dataset after ``k`` steps of full-batch gradient descent, eq. (5′).

    The discrete-time twin of :func:`single_dataset_error`: gradient descent
    ``w <- w + lr (y - w X) X^T`` multiplies each mode's distance to its fixed point by
    ``f_i = 1 - lr lambda_i`` per step, so ``e^{-lambda_i t/tau}`` of eq. (5) becomes
    ``f_i^k`` (time ``t = k lr`` in units of ``tau``).

    Parameters
    ----------
    steps : array_like of int
        Step counts ``k >= 0``, 1-D.
    lr : float
        Learning rate ``> 0``; stable for ``lr < 2 / lambda_max`` (beyond, the error grows
        with ``k`` and raises ``OverflowError`` once it leaves float64).
    eigvals : array_like, shape (..., N)
        As in :func:`single_dataset_error` (zeros of the frozen modes included).
    snr, inr : float
        As in :func:`single_dataset_error`.

    Returns
    -------
    ndarray, shape (..., len(steps))
        ``(1/N) sum_i [(1 + INR) f_i^{2k} + (1 - f_i^k)^2 / (lambda_i SNR)] + 1/SNR``; zero
        modes contribute ``1 + INR`` and no noise term.
    """
    k = _checks.integer_array(steps, "steps", 0).astype(float)
    if k.ndim != 1:
        raise ValueError(f"steps must be a 1-D array of step counts; got shape {k.shape}")
    lr = _checks.bounded(lr, "lr", 0, open_lower=True)
    lam = _check_eigvals(eigvals)[..., None]
    snr, inr = _check_snr(snr), _check_inr(inr)
    if snr.ndim or inr.ndim:
        raise ValueError(f"snr and inr must be single numbers; got shapes {snr.shape} and {inr.shape}")
    inv, inr = float(_inverse_snr(snr)), float(inr)
    active = lam > 0
    with np.errstate(over="ignore", invalid="ignore"):
        f = np.where(active, (1.0 - lr * lam) ** k, 1.0)
        noise = np.where(active, (1.0 - f) ** 2 / np.where(active, lam, 1.0), 0.0)
        out = ((1.0 + inr) * f**2 + inv * noise).mean(-2) + inv
    return _finite_or_raise(out, np.zeros(out.shape, bool), "single_dataset_gd_error")


def gd_training_error(steps: ArrayLike, lr: float, gram_eigvals: ArrayLike, label_power: ArrayLike) -> np.ndarray:
    """Training error of full-batch gradient descent from ``w = 0`` on fixed labels, from the Gram spectrum.

    The spectral theory of the memorisation run (slides, "Reconciling with classical
    statistics"): gradient descent ``w <- w + lr (y - w X) X^T`` shrinks the residual's
    component on each eigenvector ``u_k`` of the Gram matrix ``X^T X`` (eigenvalue ``s_k``) by
    ``1 - lr s_k`` per step, so after ``k`` steps
    ``E_t(k) = (1/P) sum_k (1 - lr s_k)^(2k) <(y . u_k)^2>``. Exact for any features ``X``
    (random ReLU features included) and any labels; ``label_power`` may be a mean over label
    draws.

    Parameters
    ----------
    steps : array_like of int
        Step counts ``k >= 0``, 1-D.
    lr : float
        Learning rate ``> 0`` (stable for ``lr < 2 / max s_k``).
    gram_eigvals : array_like, shape (..., P)
        Eigenvalues ``s_k >= 0`` of ``X^T X`` (zeros: directions the student cannot fit).
    label_power : array_like, shape (..., P)
        ``<(y . u_k)^2>``, the labels' power on each eigenvector (broadcast with ``gram_eigvals``).

    Returns
    -------
    ndarray, shape (..., len(steps))
        ``E_t`` after each number of steps (the loss ``(1/P) sum_mu (y - yhat)^2``).
    """
    k = _checks.integer_array(steps, "steps", 0).astype(float)
    if k.ndim != 1:
        raise ValueError(f"steps must be a 1-D array of step counts; got shape {k.shape}")
    lr = _checks.bounded(lr, "lr", 0, open_lower=True)
    s = _check_eigvals(gram_eigvals, "gram_eigvals")
    power = _check_nonneg_finite(label_power, "label_power")
    _broadcast_modes("gram_eigvals and label_power", s, power)
    with np.errstate(over="ignore", invalid="ignore"):
        decay = (1.0 - lr * s[..., None]) ** (2.0 * k)  # (..., P, T)
        out = np.sum(power[..., None] * decay, axis=-2) / s.shape[-1]
    return _finite_or_raise(out, np.zeros(out.shape, bool), "gd_training_error")


def single_dataset_training_error(t: ArrayLike, gram_eigvals: ArrayLike, snr: ArrayLike, inr: ArrayLike,
                                  tau: float = 1.0) -> np.ndarray:
    """Training error ``E_t = (1/P) sum_mu (y^mu - yhat^mu)^2`` of one dataset, averaged.

    Parameters
    ----------
    t : array_like
        Times (``>= 0``; ``np.inf`` allowed).
    gram_eigvals : array_like, shape (..., P)
        The ``P`` eigenvalues ``s_k`` of the Gram matrix ``X^T X`` (the nonzero
        eigenvalues of ``X X^T`` and ``P - N`` zeros when ``P > N``; :func:`data_spectrum`).
    snr, inr, tau
        As in :func:`single_dataset_error`.

    Returns
    -------
    ndarray
        ``E_t(t) / sigma_w^2 = (1/P) sum_k e^{-2 s_k t/tau} [s_k (1 + INR) + 1/SNR]``.

    Notes
    -----
    Derived from eq. (4): the residual on the training set in the ``U`` basis is
    ``(zbar_k - z_k) sqrt(s_k) + epstilde_k = e^{-s_k t/tau} (sqrt(s_k) (zbar_k - z_k(0))
    + epstilde_k)``, and each of the ``P - N`` directions outside the span of the inputs
    (``alpha > 1``) keeps its noise ``sigma_eps^2`` for ever. Zero at ``t = inf`` when
    ``P <= N`` (the noise is memorised), ``(1 - 1/alpha)/SNR`` when ``P > N``.
    """
    t = _check_time(t)
    lam = _check_eigvals(gram_eigvals, "gram_eigvals")
    snr = _check_snr(snr)
    inr = _check_inr(inr)
    tau = _check_tau(tau)
    inv = _inverse_snr(snr)
    s = t[..., None] / tau
    finite = np.isfinite(s)
    with np.errstate(over="ignore"):
        x = lam * np.where(finite, s, 0.0)
        e2 = np.where(finite, np.exp(-2.0 * x), (lam == 0).astype(float))
    signal = np.mean(e2 * lam, axis=-1)
    noise = np.mean(e2, axis=-1)
    out = (1.0 + inr) * signal + inv * noise
    return _finite_or_raise(out, np.zeros(np.shape(out), bool), "single_dataset_training_error")


# ----------------------------------------------------------------------------- typical dataset


def _broadcast_flat(*arrays):
    b = np.broadcast_arrays(*arrays)
    shape = b[0].shape
    return shape, [np.ascontiguousarray(x, dtype=float).ravel() for x in b]


def _checked_curve_args(t, alpha, snr, inr, tau):
    """Checked arguments of an error curve, broadcast and flattened, and their common shape."""
    return _broadcast_flat(_check_time(t), _check_alpha(alpha), _check_snr(snr), _check_inr(inr),
                           _check_positive(tau, "tau"))


def frozen_subspace_error(alpha: ArrayLike, inr: ArrayLike) -> np.ndarray:
    """Contribution ``max(0, 1 - alpha) (1 + INR)`` of the frozen subspace to ``E_g / sigma_w^2``.

    For ``alpha < 1`` a fraction ``1 - alpha`` of the eigenvalues of ``Sigma`` vanish
    (:func:`mp_point_mass`). On those modes eq. (3) reads ``dz_i/dt = 0``: the error
    ``<(zbar_i - z_i(0))^2> = sigma_w^2 + sigma_w0^2`` never decays, and the noise term of
    eq. (6) vanishes as ``lambda -> 0`` (``(1 - e^{-lambda t})^2/lambda ~ lambda t^2``).
    The contribution is the same at every time, including ``t = 0`` and ``t = inf``;
    it is zero for ``alpha >= 1``. It is why small initial weights (INR -> 0) matter.
    """
    a = _check_alpha(alpha)
    r = _check_inr(inr)
    return np.clip(1.0 - a, 0.0, None) * (1.0 + r)


def generalization_error(t: ArrayLike, alpha: ArrayLike, snr: ArrayLike, inr: ArrayLike,
                         tau: ArrayLike = 1.0) -> np.ndarray:
    """Test error of a typical dataset, eq. (6), in units of ``sigma_w^2``.

    Parameters
    ----------
    t : array_like
        Times (``>= 0``); ``np.inf`` gives :func:`asymptotic_error`.
    alpha : array_like
        Load ``alpha = P/N > 0``.
    snr : array_like
        ``SNR = sigma_w^2 / sigma_eps^2 > 0``; ``np.inf`` for noiseless labels.
    inr : array_like
        ``INR = sigma_w0^2 / sigma_w^2 >= 0``.
    tau : array_like
        Time constant (``> 0``).

    Returns
    -------
    ndarray
        ``E_g/sigma_w^2 = int rho^MP(l) [(1 + INR) e^{-2 l t/tau}
        + (1 - e^{-l t/tau})^2/(l SNR)] dl + 1/SNR``, with the MP law including its point
        mass ``1 - alpha`` at ``l = 0`` for ``alpha < 1`` (which contributes
        :func:`frozen_subspace_error`). All arguments broadcast (e.g. ``t[:, None]`` against
        an array of ``alpha``). Equals ``1 + INR + 1/SNR`` at ``t = 0``; ``>= 1/SNR`` always.

    Raises
    ------
    ValueError
        For out-of-range arguments (the message names the argument and its range).
    OverflowError
        If the value exceeds the float64 range (e.g. ``snr ~ 1e-308``).

    Notes
    -----
    Finite for every finite ``t``; at ``alpha = 1`` it grows like
    ``2 (2 - sqrt 2) sqrt(t/(pi tau)) / SNR`` for large ``t`` (the gap closes). The only
    infinite value is the documented ``t = inf, alpha = 1, SNR < inf``
    (:func:`asymptotic_error`).
    """
    shape, (t, a, snr, inr, tau) = _checked_curve_args(t, alpha, snr, inr, tau)
    inv = _inverse_snr(snr)
    out = np.empty(t.shape)
    inf_t = np.isinf(t)
    if np.any(inf_t):
        out[inf_t] = asymptotic_error(a[inf_t], snr[inf_t], inr[inf_t])
    fin = ~inf_t
    if np.any(fin):
        A, B, _ = _mp_integrals(a[fin], t[fin] / tau[fin])
        frozen = np.clip(1.0 - a[fin], 0.0, None)
        with np.errstate(over="ignore", invalid="ignore"):
            out[fin] = (1.0 + inr[fin]) * (A + frozen) + inv[fin] * (B + 1.0)
    allowed = inf_t & (a == 1.0) & (inv > 0)
    out = _finite_or_raise(out, allowed, "generalization_error")
    return out.reshape(shape)


def training_error(t: ArrayLike, alpha: ArrayLike, snr: ArrayLike, inr: ArrayLike,
                   tau: ArrayLike = 1.0) -> np.ndarray:
    """Training error ``E_t = (1/P) sum_mu (y^mu - yhat^mu)^2`` of a typical dataset.

    Parameters
    ----------
    t, alpha, snr, inr, tau
        As in :func:`generalization_error` (broadcast together).

    Returns
    -------
    ndarray
        ``E_t/sigma_w^2 = (1/alpha) int rho_c(l) e^{-2 l t/tau} [l (1 + INR) + 1/SNR] dl
        + max(0, 1 - 1/alpha)/SNR`` (derived from eq. (4); see
        :func:`single_dataset_training_error`). ``1 + INR + 1/SNR`` at ``t = 0``; at
        ``t = inf``, 0 for ``alpha <= 1`` (memorisation of noise) and
        ``(1 - 1/alpha)/SNR`` for ``alpha > 1``.
    """
    shape, (t, a, snr, inr, tau) = _checked_curve_args(t, alpha, snr, inr, tau)
    inv = _inverse_snr(snr)
    residual = inv * np.clip(1.0 - 1.0 / a, 0.0, None)
    out = residual.copy()
    fin = np.isfinite(t)
    if np.any(fin):
        A, _, C = _mp_integrals(a[fin], t[fin] / tau[fin])
        with np.errstate(over="ignore", invalid="ignore"):
            out[fin] += ((1.0 + inr[fin]) * C + inv[fin] * A) / a[fin]
    out = _finite_or_raise(out, np.zeros(out.shape, bool), "training_error")
    return out.reshape(shape)


def asymptotic_error(alpha: ArrayLike, snr: ArrayLike, inr: ArrayLike) -> np.ndarray:
    """Long-time (``t -> inf``) test error of a typical dataset, in units of ``sigma_w^2``.

    Parameters
    ----------
    alpha, snr, inr : array_like
        As in :func:`generalization_error` (broadcast together).

    Returns
    -------
    ndarray
        * ``alpha < 1``: ``(1 - alpha)(1 + INR) + alpha/((1 - alpha) SNR) + 1/SNR``
        * ``alpha > 1``: ``1/((alpha - 1) SNR) + 1/SNR``
        * ``alpha = 1``: ``+inf`` for finite SNR, 0 for ``SNR = inf``.

    Notes
    -----
    From eq. (6) with ``e^{-lambda t} -> 0`` on the bulk: the noise term tends to
    ``(1/SNR) int rho_c/lambda``, and for the MP law ``int rho_c/lambda = alpha/(1 - alpha)``
    (``alpha < 1``, the mean inverse eigenvalue of the ``P x P`` Wishart matrix ``X^T X``
    scaled by ``alpha``) or ``1/(alpha - 1)`` (``alpha > 1``). At ``alpha = 1`` the gap
    closes, ``rho_c ~ 1/(pi sqrt(lambda))`` and ``int rho_c/lambda`` diverges: without
    regularisation or early stopping, gradient descent to convergence overfits the noise
    without bound exactly at ``P = N`` (the double-descent peak), and the error diverges as
    ``1/(|1 - alpha| SNR)`` on approach. This ``+inf`` is the mathematically exact value
    and is returned deliberately (no warning); use :func:`optimal_stopping_error` for the
    finite early-stopped error. Independent of INR for ``alpha >= 1``.
    """
    a = _check_alpha(alpha)
    snr = _check_snr(snr)
    inr = _check_inr(inr)
    a, snr, inr = np.broadcast_arrays(a, snr, inr)
    inv = _inverse_snr(snr)
    frozen = np.clip(1.0 - a, 0.0, None) * (1.0 + inr)
    moment = _inverse_moment(a)
    with np.errstate(invalid="ignore", over="ignore"):
        noise = np.where(inv > 0, inv * moment, 0.0)
        out = frozen + noise + inv
    allowed = (a == 1.0) & (inv > 0)
    return _finite_or_raise(out, allowed, "asymptotic_error")


def finite_size_asymptotic_error(n_samples: ArrayLike, n_features: int, snr: ArrayLike,
                                 inr: ArrayLike) -> np.ndarray:
    """Long-time test error averaged over Gaussian datasets of finite size, in units of ``sigma_w^2``.

    The finite-``N`` counterpart of :func:`asymptotic_error`: the mean over datasets
    ``X`` (``N x P``, entries ``N(0, 1/N)``) of the test error of the gradient-descent
    solution at ``t -> inf``, exact at any ``N`` and ``P`` through the inverse moments of the
    Wishart matrices ``X^T X`` and ``X X^T``.

    Parameters
    ----------
    n_samples : array_like of int
        ``P``, the number of examples (``>= 1``).
    n_features : int
        ``N``, the input dimension (``>= 1``).
    snr, inr : array_like
        As in :func:`generalization_error` (broadcast with ``n_samples``).

    Returns
    -------
    ndarray
        ``(1 - P/N)_+ (1 + INR) + (1/SNR) m + 1/SNR`` with the noise factor
        ``m = P/(N - P - 1)`` for ``P < N - 1`` and ``m = N/(P - N - 1)`` for ``P > N + 1``;
        ``+inf`` for ``N - 1 <= P <= N + 1`` at finite SNR (the inverse moment diverges),
        where the noise term is absent for ``SNR = inf``.

    Notes
    -----
    The trained weights fit the noise through ``(X^T X)^{-1}`` (``P < N``) or ``(X X^T)^{-1}``
    (``P > N``); ``E (X^T X)^{-1} = N/(N - P - 1)`` times the identity for ``X^T X ~
    W_P(N, I/N)``, so the noise term is ``(1/SNR) tr E (X^T X)^{-1} / N``. As ``N -> inf`` at
    fixed ``alpha = P/N`` this tends to :func:`asymptotic_error`; at ``N = 100`` the two
    differ by a few per cent near ``alpha = 1`` (the double-descent chapter shows both).
    """
    p = np.asarray(n_samples)
    if p.dtype.kind not in "iu" or np.any(p < 1):
        raise ValueError(f"n_samples must be integers >= 1 (the number of examples P); got {n_samples!r}")
    n = _checks.integer(n_features, "n_features", 1, meaning=" (the input dimension N)")
    snr = _check_snr(snr)
    inr = _check_inr(inr)
    p, snr, inr = np.broadcast_arrays(p.astype(float), snr, inr)
    inv = _inverse_snr(snr)
    with np.errstate(divide="ignore"):
        moment = np.where(p < n - 1, p / (n - p - 1), np.where(p > n + 1, n / (p - n - 1), np.inf))
    with np.errstate(invalid="ignore"):
        noise = np.where(inv > 0, inv * moment, 0.0)
    return np.clip(1.0 - p / n, 0.0, None) * (1.0 + inr) + noise + inv


def eigengap(alpha: ArrayLike, tau: ArrayLike = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Smallest nonzero eigenvalue of ``Sigma`` and the slowest learning time scale.

    Parameters
    ----------
    alpha : array_like
        Load ``alpha > 0``.
    tau : float
        Time constant of the flow.

    Returns
    -------
    (lam_min, t_slow) : tuple of ndarray
        ``lam_min = (1 - sqrt(alpha))^2`` (the lower MP edge, computed as
        ``((1 - alpha)/(1 + sqrt(alpha)))^2``) and ``t_slow = tau / lam_min``, the time
        scale of the slowest (learning and overfitting) mode. At ``alpha = 1`` the gap
        closes: ``lam_min = 0`` and ``t_slow = +inf`` (returned deliberately). Zero
        eigenvalues (``alpha < 1``) are not counted: they are frozen, not slow.
    """
    a = _check_alpha(alpha)
    tau = _check_positive(tau, "tau")
    _, _, lo = _mp_parameters(a)
    with np.errstate(divide="ignore"):
        t_slow = np.where(lo > 0, tau / np.where(lo > 0, lo, 1.0), np.inf)
    return lo, t_slow


def sampled_eigengap(eigvals: ArrayLike) -> np.ndarray:
    """Eigengap of sampled spectra: the smallest nonzero eigenvalue along the last axis.

    The finite-size counterpart of :func:`eigengap` (Advani & Saxe §3-4): exact zeros are the
    frozen modes outside the data's span (``P < N``), not the gap, and are skipped.

    Parameters
    ----------
    eigvals : array_like, shape (..., n)
        Spectra ``>= 0`` with exact zeros for the frozen modes, e.g. ``cov_eigvals`` of
        :func:`data_spectrum`.

    Returns
    -------
    ndarray, shape (...)
        The eigengap of each spectrum, in the precision of ``eigvals``; ``inf`` for an all-zero
        one (nothing is learned).
    """
    lam = _checks.real_array(eigvals, "eigvals", lower=0.0)
    if lam.ndim == 0 or lam.shape[-1] == 0:
        raise ValueError(f"eigvals must be a non-empty array, modes on the last axis; got shape {lam.shape}")
    raw = np.asarray(eigvals)
    lam = raw if raw.dtype.kind == "f" else lam  # a float32 spectrum keeps its precision
    return np.where(lam > 0, lam, np.inf).min(-1)


_T_CAP = 1e300  # largest stopping time (in units of tau) searched by optimal_stopping_error


def _log1p_scaled(x, log_c):
    """``log(1 + x c)`` for ``x > 0`` given ``log c``, without overflow of ``x c``."""
    log_xc = math.log(x) + log_c
    return math.log1p(math.exp(log_xc)) if log_xc < 30 else log_xc + math.log1p(math.exp(-log_xc))


def optimal_stopping_error(alpha: ArrayLike, snr: ArrayLike, inr: ArrayLike,
                           tau: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Early-stopping time and test error: ``min_t E_g(t)`` for a typical dataset.

    Parameters
    ----------
    alpha, snr, inr : array_like
        As in :func:`generalization_error` (broadcast together).
    tau : float
        Time constant.

    Returns
    -------
    (t_opt, e_opt) : tuple of ndarray
        The minimising time and ``E_g(t_opt)/sigma_w^2``. For ``SNR = inf`` the error
        decreases for ever: ``t_opt = +inf`` and ``e_opt`` is :func:`asymptotic_error`
        (this ``inf`` is deliberate).

    Notes
    -----
    Mode ``lambda`` of eq. (6) is best stopped at
    ``t(lambda) = tau log(1 + lambda SNR (1 + INR)) / lambda``, decreasing in
    ``lambda``; for ``t`` below ``t(lambda_+)`` every term decreases and above
    ``t(lambda_-)`` (``= tau SNR (1 + INR)`` at ``alpha = 1``) every term increases, so the
    minimum lies in that bracket. It is located on a log grid of 41 times and refined by
    bounded Brent iterations in ``log t`` (:func:`gendyn.stopping.minimum_over_time`). ``e_opt`` is finite at ``alpha = 1``: early stopping removes the
    peak of :func:`asymptotic_error`. Times are searched up to ``1e300 tau`` (reached only
    for ``SNR (1 + INR) > 1e300`` near ``alpha = 1``).
    """
    a = _check_alpha(alpha)
    snr = _check_snr(snr)
    inr = _check_inr(inr)
    tau = _check_tau(tau)
    shape, (a, snr, inr) = _broadcast_flat(a, snr, inr)
    t_opt = np.empty(a.shape)
    e_opt = np.empty(a.shape)
    for j in range(a.size):
        if np.isinf(snr[j]):
            t_opt[j] = np.inf
            e_opt[j] = asymptotic_error(a[j], snr[j], inr[j])
            continue
        log_c = math.log(snr[j]) + math.log1p(inr[j])  # c = SNR (1 + INR) may overflow
        lo, hi = mp_eigenvalue_edges(a[j])
        t_lo = min(_log1p_scaled(float(hi), log_c) / hi, _T_CAP)
        if lo > 0:
            t_hi = min(_log1p_scaled(float(lo), log_c) / lo, _T_CAP)
        else:  # alpha = 1: t(lambda) -> c as lambda -> 0
            t_hi = math.exp(min(log_c, math.log(_T_CAP)))
        t_hi = max(t_hi, t_lo * (1.0 + 1e-12))

        def error(times, j=j):
            return generalization_error(times * tau, a[j], snr[j], inr[j], tau)

        t_best, e_opt[j] = stopping.minimum_over_time(error, t_lo, t_hi, points=41, xatol=1e-7)
        t_opt[j] = t_best * tau
    return t_opt.reshape(shape), e_opt.reshape(shape)


# ----------------------------------------------------------------------------- L2 regularisation


def _check_ridge(lam):
    return _checks.real_array(lam, "lam", lower=0, open_lower=True, extra=" (the ridge strength)")


def mp_stieltjes(lam: ArrayLike, alpha: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """``A(lam) = int rho^MP(l) / (l + lam) dl`` and its derivative, point mass included.

    The Stieltjes transform ``m(z) = int rho(l)/(l - z) dl`` of the MP law of
    ``Sigma = X X^T`` (``X_ij ~ N(0, 1/N)``, ``alpha = P/N``) solves
    ``z m^2 + (z + 1 - alpha) m + 1 = 0``; at ``z = -lam < 0`` its positive root is
    ``A = 2 / (sqrt(b^2 + 4 lam) - b)`` with ``b = 1 - alpha - lam`` (written so that
    nothing cancels), and ``dA/dlam = -A (A + 1) / sqrt(b^2 + 4 lam)``.

    Parameters
    ----------
    lam : array_like
        ``lam > 0``.
    alpha : array_like
        Load ``alpha > 0``; broadcast against ``lam``.

    Returns
    -------
    (A, dA) : tuple of ndarray
        ``A(lam) > 0`` (the point mass ``max(0, 1 - alpha)`` contributes
        ``max(0, 1 - alpha)/lam``) and ``dA/dlam < 0``, broadcast over the arguments.
    """
    lam = _check_ridge(lam)
    a = _check_alpha(alpha)
    lam, a = np.broadcast_arrays(lam, a)
    b = 1.0 - a - lam
    root = np.sqrt(b * b + 4.0 * lam)
    with np.errstate(divide="ignore"):
        A = np.where(b <= 0, 2.0 / (root - b), (b + root) / (2.0 * lam))
    return A, -A * (A + 1.0) / root


def ridge_error(alpha: ArrayLike, snr: ArrayLike, lam: ArrayLike | None = None) -> np.ndarray:
    """Test error of L2-regularised least squares (ridge) for a typical dataset, in units of ``sigma_w^2``.

    The ridge student ``w = y X^T (X X^T + lam I)^{-1}`` minimises
    ``sum_mu (y^mu - w x^mu)^2 + lam |w|^2``; it is also where gradient flow with weight decay
    ``lam`` ends. Mode ``l`` of ``Sigma`` keeps the fraction ``l/(l + lam)`` of its signal
    and noise, so (the paper's comparison of early stopping with L2 regularisation)

    ``E_g/sigma_w^2 = int rho^MP(l) [lam^2 + l/SNR] / (l + lam)^2 dl + 1/SNR``
    ``= (1 + A)/SNR + lam (1/SNR - lam) A'`` with ``A``, ``A'`` from :func:`mp_stieltjes`.

    Per mode the error is smallest at ``lam = 1/SNR`` (the Bayes-optimal estimator for
    Gaussian teacher and noise), so ``lam = 1/SNR`` is optimal for every spectrum, with
    ``E_g^*/sigma_w^2 = (1 + A(1/SNR))/SNR``. Early stopping shrinks mode ``l`` by
    ``1 - e^{-l t}`` with one ``t`` for all modes and can never do better:
    ``min_t E_g(t) >= E_g^*`` (:func:`optimal_stopping_error`, ``INR = 0``).

    Parameters
    ----------
    alpha, snr : array_like
        As in :func:`generalization_error`.
    lam : array_like, optional
        Ridge strength ``> 0``; default ``1/SNR``, the optimal one (then ``SNR = inf`` gives
        the ``lam -> 0`` limit, the frozen-subspace error ``max(0, 1 - alpha)``).

    Returns
    -------
    ndarray
        Broadcast over the arguments.
    """
    a = _check_alpha(alpha)
    snr = _check_snr(snr)
    inv = _inverse_snr(snr)
    if lam is None:
        a, inv = np.broadcast_arrays(a, inv)
        A, _ = mp_stieltjes(np.where(inv > 0, inv, 1.0), a)
        # noiseless: lam -> 0 leaves only the frozen modes
        out = np.where(inv > 0, inv * (1.0 + A), np.clip(1.0 - a, 0.0, None))
        return _finite_or_raise(out, np.zeros(out.shape, bool), "ridge_error")
    lam = _check_ridge(lam)
    A, dA = mp_stieltjes(lam, a)
    out = inv * (1.0 + A) + lam * (inv - lam) * dA
    return _finite_or_raise(np.asarray(out, float), np.zeros(np.shape(out), bool), "ridge_error")


def single_dataset_ridge_error(eigvals: ArrayLike, snr: ArrayLike, lam: ArrayLike | None = None) -> np.ndarray:
    """Ridge test error of one dataset (averaged over teacher and noise), from its spectrum.

    Parameters
    ----------
    eigvals : array_like, shape (..., N)
        The ``N`` eigenvalues of the dataset's ``Sigma = X X^T``, zeros included (as in
        :func:`single_dataset_error`; round-off of exact zeros is accepted).
    snr : float or array_like
        ``SNR > 0`` (``np.inf``: noiseless labels, then ``lam`` must be given).
    lam : float or array_like, optional
        Ridge strength ``> 0``; default ``1/SNR``, the optimal one.

    Returns
    -------
    ndarray
        ``E_g/sigma_w^2 = (1/N) sum_i [lam^2 + lambda_i/SNR] / (lambda_i + lam)^2 + 1/SNR``,
        exact for the given ``X``; shape ``np.broadcast(eigvals[..., 0], snr, lam)``.
    """
    lam_i = _check_eigvals(eigvals)
    snr = _check_snr(snr)
    inv = _inverse_snr(snr)
    if lam is None:
        if np.any(inv == 0):
            raise ValueError("snr must be finite when lam is None (the optimal lam = 1/snr)")
        lam = inv
    lam = _check_ridge(lam)
    lam_b = np.asarray(lam)[..., None]
    per_mode = (lam_b**2 + lam_i * np.asarray(inv)[..., None]) / (lam_i + lam_b) ** 2
    return _finite_or_raise(per_mode.mean(-1) + inv, np.zeros(np.shape(per_mode)[:-1], bool),
                            "single_dataset_ridge_error")


# ----------------------------------------------------------------------------- per-mode early stopping = ridge


def _check_modes_snr(eigvals, snr):
    """Eigenvalues ``>= 0`` (finite, elementwise) and SNR, broadcast together."""
    lam = _checks.real_array(eigvals, "eigvals", lower=0, extra=" (eigenvalues of X X^T)")
    snr = _check_snr(snr)
    try:
        lam, snr = np.broadcast_arrays(lam, snr)
    except ValueError:
        raise ValueError(f"eigvals and snr must broadcast together; got shapes {np.shape(lam)} and "
                         f"{np.shape(snr)}") from None
    return lam, snr


def per_mode_stopping_time(eigvals: ArrayLike, snr: ArrayLike, tau: float = 1.0) -> np.ndarray:
    """Optimal early-stopping time of each eigenmode of the data covariance.

    Advani, Saxe & Sompolinsky state that each mode ``lambda`` of ``Sigma = X X^T`` has its own
    optimal stopping time ``t_opt = (tau / lambda) ln(1 + SNR lambda)``: the time at which the
    mode's term of eq. (5), ``e^{-2 lambda t/tau} + (1 - e^{-lambda t/tau})^2 / (lambda SNR)``
    (gradient flow from zero weights), is smallest. It grows logarithmically with SNR for a mode
    of fixed ``lambda`` and tends to ``tau SNR`` (linear in SNR) as ``lambda -> 0``.

    Parameters
    ----------
    eigvals : array_like
        Mode eigenvalues ``lambda >= 0`` (finite); broadcast against ``snr``. A frozen mode
        (``lambda = 0``) does not move under gradient flow, so every time is optimal for it; it
        gets the continuous limit ``tau SNR``.
    snr : array_like
        ``sigma_w^2 / sigma_eps^2 > 0``; ``np.inf`` (noiseless labels) gives ``t_opt = inf``:
        never stop.
    tau : float
        Time constant of the flow ``> 0``.

    Returns
    -------
    ndarray
        ``t_opt``, broadcast over ``eigvals`` and ``snr``. Computed as ``tau SNR log1p(x)/x`` with
        ``x = SNR lambda`` (``= tau SNR`` at ``x = 0``, no ``0/0``) and, for ``x >= 1``, as
        ``tau log(1 + x) / lambda`` with ``log(1 + x)`` from ``log SNR + log lambda`` (no overflow
        of ``x``).

    See Also
    --------
    per_mode_stopped_shrinkage : the fraction of each mode's least-squares solution kept at this
        time, equal to the ridge shrinkage at penalty ``1/SNR``.
    optimal_stopping_error : one stopping time for all modes.
    """
    lam, snr = _check_modes_snr(eigvals, snr)
    tau = _check_tau(tau)
    finite = np.isfinite(snr)
    sf = np.where(finite, snr, 1.0)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        x = sf * lam
        small = x < 1.0
        ratio = np.where(x > 0, np.log1p(x) / np.where(x > 0, x, 1.0), 1.0)  # log1p(x)/x, 1 at x = 0
        log_1px = np.logaddexp(0.0, np.log(sf) + np.log(np.where(small, 1.0, lam)))
        t = np.where(small, tau * sf * ratio, tau * log_1px / np.where(small, 1.0, lam))
    out = np.where(finite, t, np.inf)
    return _finite_or_raise(out, ~finite, "per_mode_stopping_time")


def per_mode_stopped_shrinkage(eigvals: ArrayLike, snr: ArrayLike) -> np.ndarray:
    """Fraction of each mode's least-squares solution that gradient flow from zero keeps at its own optimal time.

    From zero weights mode ``lambda`` of the student is ``z(t) = (1 - e^{-lambda t/tau}) z_LS`` with
    ``z_LS = zbar + epstilde / sqrt(lambda)`` (eq. (4)); stopped at :func:`per_mode_stopping_time`
    the factor is ``1 - e^{-lambda t_opt/tau} = SNR lambda / (1 + SNR lambda) = lambda / (lambda + 1/SNR)``,
    the shrinkage of ridge regression ``w = y X^T (X X^T + gamma I)^{-1}`` at ``gamma = 1/SNR``
    (:func:`ridge_error`): stopping every mode at its own time *is* optimal ridge. This function
    evaluates the gradient-flow side, ``-expm1(-lambda t_opt/tau)`` with ``t_opt`` from
    :func:`per_mode_stopping_time`, so that the identity can be tested.

    Parameters
    ----------
    eigvals : array_like
        Mode eigenvalues ``lambda >= 0`` (finite); broadcast against ``snr``. Frozen modes
        (``lambda = 0``) keep nothing: 0.
    snr : array_like
        ``SNR > 0``; ``np.inf`` keeps every nonzero mode whole (factor 1).

    Returns
    -------
    ndarray
        Factors in ``[0, 1]``, broadcast over ``eigvals`` and ``snr`` (``tau`` cancels).
    """
    lam, snr = _check_modes_snr(eigvals, snr)
    t = per_mode_stopping_time(lam, snr)  # tau = 1
    with np.errstate(invalid="ignore"):
        decay = np.where(lam > 0, lam * np.where(lam > 0, t, 0.0), 0.0)  # lambda t_opt / tau (inf * 0 avoided)
    return -np.expm1(-decay)


def per_mode_stopped_error(eigvals: ArrayLike, snr: ArrayLike) -> np.ndarray:
    """Test error of one dataset when gradient flow from zero is stopped in each mode at its own optimal time.

    Eq. (5) with mode ``i`` read at its own :func:`per_mode_stopping_time`: with ``g_i`` the kept
    fraction (:func:`per_mode_stopped_shrinkage`),
    ``E_g / sigma_w^2 = (1/N) sum_i [(1 - g_i)^2 + g_i^2 / (lambda_i SNR)] + 1/SNR``. Since
    ``g_i = lambda_i / (lambda_i + 1/SNR)`` this equals :func:`single_dataset_ridge_error` at the
    optimal penalty ``1/SNR`` (per-mode early stopping and optimal L2 regularisation coincide), and
    it is a lower bound of ``min_t`` :func:`single_dataset_error` (``INR = 0``), which stops every
    mode at one common time.

    Parameters
    ----------
    eigvals : array_like, shape (..., N)
        The ``N`` eigenvalues of the dataset's ``Sigma = X X^T``, zeros of the frozen modes included
        (:func:`data_spectrum`; round-off of exact zeros is accepted).
    snr : float or array_like
        ``SNR > 0``, finite (the noiseless limit is :func:`single_dataset_error` at ``t = inf``);
        broadcast against ``eigvals[..., 0]``.

    Returns
    -------
    ndarray
        Shape ``np.broadcast(eigvals[..., 0], snr)``.
    """
    lam = _check_eigvals(eigvals)
    snr = _check_snr(snr)
    if np.any(np.isinf(snr)):
        raise ValueError("snr must be finite (the noiseless limit is single_dataset_error at t = inf)")
    inv = (1.0 / snr)[..., None]
    g = per_mode_stopped_shrinkage(lam, snr[..., None])
    noise = np.where(lam > 0, g * g / np.where(lam > 0, lam, 1.0), 0.0) * inv
    out = ((1.0 - g) ** 2 + noise).mean(-1) + inv[..., 0]
    return _finite_or_raise(out, np.zeros(np.shape(out), bool), "per_mode_stopped_error")


# ----------------------------------------------------------------------------- bounds, eqs. (7)-(12)


def generalization_gap_bound(rademacher: ArrayLike, n_samples: ArrayLike, delta: ArrayLike = 0.05) -> np.ndarray:
    """Classical bound eq. (7): ``E_g - E_t <= 2 R(H) + sqrt(log(1/delta) / (2P))``.

    Parameters
    ----------
    rademacher : array_like
        A bound on the Rademacher complexity ``R(H)`` (``>= 0``), e.g. from
        :func:`rademacher_bound` or :func:`dynamics_bound`.
    n_samples : array_like
        ``P >= 1``, a whole number (of examples).
    delta : float
        Failure probability in ``(0, 1)``; the bound holds with probability ``1 - delta``.
    """
    r = _check_nonneg_finite(rademacher, "rademacher")
    p = _checks.counts(n_samples, "n_samples", extra=" (P)")
    d = _checks.real_array(delta, "delta", lower=0, upper=1, open_lower=True, open_upper=True)
    return 2.0 * r + np.sqrt(np.log(1.0 / d) / (2.0 * p))


def rademacher_bound(n_hidden: ArrayLike, n_samples: ArrayLike, b1: ArrayLike = 1.0, b2: ArrayLike = 1.0,
                     c: ArrayLike = 1.0) -> np.ndarray:
    """Norm-based Rademacher bound of a one-hidden-layer ReLU network, eq. (8).

    Parameters
    ----------
    n_hidden : array_like
        Hidden width ``N_h >= 1`` (whole numbers).
    n_samples : array_like
        Number of examples ``P >= 1`` (whole numbers).
    b1, b2, c : float
        Norm bounds: ``B_1`` on each first-layer weight vector, ``B_2`` on the (scaled)
        second-layer weights ``||w||/sqrt(N_h)``, ``C`` on the inputs ``||x||``.

    Returns
    -------
    ndarray
        ``R(H) <= B_2 B_1 C sqrt(N_h) / sqrt(P)``: grows like ``sqrt(N_h)`` at fixed norm
        bounds, the classical "bigger models overfit" statement.
    """
    nh = _checks.counts(n_hidden, "n_hidden", extra=" (N_h)")
    p = _checks.counts(n_samples, "n_samples", extra=" (P)")
    b1 = _check_positive(b1, "b1")
    b2 = _check_positive(b2, "b2")
    c = _check_positive(c, "c")
    return b2 * b1 * c * np.sqrt(nh / p)


def weight_norm_sq(t: ArrayLike, eigvals: ArrayLike, ztilde_sq: ArrayLike, z0_sq: ArrayLike,
                   tau: float = 1.0) -> np.ndarray:
    """Squared norm of the second-layer weights along gradient flow, eq. (10).

    Parameters
    ----------
    t : array_like
        Times (``>= 0``, finite).
    eigvals : array_like, shape (..., N_h)
        Eigenvalues ``lambda_i^h`` of the hidden-feature covariance ``X_h X_h^T``.
    ztilde_sq : array_like, shape (..., N_h)
        ``||ztilde_i^h||^2``, the squared input-output correlations of eq. (9)
        (``ztilde = zbar Lambda + epstilde Lambda^{1/2}``, eq. (2)); zero for frozen modes.
    z0_sq : array_like, shape (..., N_h)
        ``||z_i^h(0)||^2`` (or its mean over initialisations).
    tau : float

    Returns
    -------
    ndarray
        ``||w(t)||^2 = sum_i [ztilde_i^2/lambda_i^2 (1 - e^{-lambda_i t/tau})^2
        + z_i(0)^2 e^{-2 lambda_i t/tau}]``. Eq. (10) drops the cross term
        ``2 ztilde_i z_i(0) (1 - e) e / lambda_i``, so it is exact on average over a
        zero-mean initialisation (and exactly for ``z(0) = 0``). Frozen modes keep ``z_i(0)^2``.
    """
    t = _check_time(t)
    if np.any(np.isinf(t)):
        raise ValueError("weight_norm_sq needs finite times t")
    tau = _check_tau(tau)
    lam = _check_eigvals(eigvals)
    zt2 = _check_nonneg_finite(ztilde_sq, "ztilde_sq")
    z02 = _check_nonneg_finite(z0_sq, "z0_sq")
    _broadcast_modes("eigvals, ztilde_sq and z0_sq", lam, zt2, z02)
    x, g = _decay_integral(lam, t[..., None] / tau)
    gain = g**2  # (1 - e^{-x})^2 / lambda^2
    with np.errstate(over="ignore"):
        return np.sum(zt2 * gain + z02 * np.exp(-2.0 * x), axis=-1)


def _hidden_min_eigval(n_hidden, n_samples):
    ah = n_samples / n_hidden
    return ((1.0 - ah) / (1.0 + np.sqrt(ah))) ** 2


def dynamics_weight_norm_bound(n_hidden: ArrayLike, n_samples: ArrayLike, max_ztilde_sq: ArrayLike = 1.0,
                               min_eigval: ArrayLike | None = None) -> np.ndarray:
    """Bound ``B_2`` on ``||w(t)||/sqrt(N_h)`` at every time from the dynamics, eq. (11).

    Parameters
    ----------
    n_hidden, n_samples : array_like
        ``N_h >= 1`` and ``P >= 1``, whole numbers.
    max_ztilde_sq : array_like
        ``max_i ||ztilde_i^h||^2`` (eq. (9)); the slides treat it as an ``N_h``-independent
        constant (assumption).
    min_eigval : array_like, optional
        ``min_{i: lambda_i^h > 0} lambda_i^h``. By default the lower MP edge
        ``(1 - sqrt(P/N_h))^2`` of the hidden covariance, i.e. the assumption that the
        features ``X_h^{a mu} = phi_a(W_a^1 . x^mu)/sqrt(N_h)`` behave like the slides'
        Gaussian data with ``N -> N_h`` and load ``alpha_h = P/N_h`` (unit feature
        variance; the non-zero mean of ReLU features, a rank-one spike, is ignored).

    Returns
    -------
    ndarray
        ``B_2 = sqrt(max_i ||ztilde_i||^2 / min lambda^2 * min(P, N_h)/N_h)``. From eq. (10)
        with ``z(0) = 0`` (small initialisation): ``(1 - e)^2 <= 1`` for every mode and only
        the ``min(P, N_h)`` non-frozen modes move. ``+inf`` at ``N_h = P`` with the default
        ``min_eigval`` (the eigengap closes; returned deliberately).

    Notes
    -----
    For ``N_h < P`` the default gap ``(sqrt(P/N_h) - 1)^2`` grows with ``P/N_h`` and the
    bound becomes small, but there ``ztilde ~ zbar lambda`` grows with the eigenvalues too,
    so a fixed ``max_ztilde_sq`` is a fair comparison only for ``N_h >= P``, the regime of
    the slides' argument (over-parameterised networks).
    """
    nh = _checks.counts(n_hidden, "n_hidden", extra=" (N_h)")
    p = _checks.counts(n_samples, "n_samples", extra=" (P)")
    m = _check_nonneg_finite(max_ztilde_sq, "max_ztilde_sq")
    lam = _hidden_min_eigval(nh, p) if min_eigval is None else _check_positive(min_eigval, "min_eigval")
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(m == 0, 0.0, m / lam**2)
    return np.sqrt(ratio * np.minimum(p, nh) / nh)


def dynamics_bound(n_hidden: ArrayLike, n_samples: ArrayLike, max_ztilde_sq: ArrayLike = 1.0,
                   min_eigval: ArrayLike | None = None, b1: ArrayLike = 1.0, c: ArrayLike = 1.0) -> np.ndarray:
    """Rademacher bound from the dynamics, eq. (12).

    Parameters
    ----------
    n_hidden, n_samples, max_ztilde_sq, min_eigval
        As in :func:`dynamics_weight_norm_bound`.
    b1, c : float
        ``B_1`` (first-layer weight norm) and ``C`` (input norm) as in eq. (8).

    Returns
    -------
    ndarray
        ``R(H) <= B_1 C sqrt(max_i ||ztilde_i||^2 / min lambda^2 * min(P, N_h)/P)``, which is
        eq. (8) with ``B_2`` from eq. (11). With the default (MP) eigengap it decreases in
        ``N_h`` for ``N_h > P`` (``lambda_min = (1 - sqrt(P/N_h))^2`` opens to 1) towards
        ``B_1 C sqrt(max ||ztilde||^2)``, and is ``+inf`` at ``N_h = P`` (documented).
    """
    nh = _checks.counts(n_hidden, "n_hidden", extra=" (N_h)")
    p = _checks.counts(n_samples, "n_samples", extra=" (P)")
    b1 = _check_positive(b1, "b1")
    c = _check_positive(c, "c")
    b2 = dynamics_weight_norm_bound(nh, p, max_ztilde_sq, min_eigval)
    return b1 * c * b2 * np.sqrt(nh / p)


# ----------------------------------------------------------------------------- sampled datasets


def _one_snr_inr(snr, inr):
    """One SNR (``> 0``, ``inf`` allowed) and one INR (``>= 0``), as floats."""
    snr = _checks.real_array(snr, "snr", lower=0, open_lower=True, allow_inf=True, ndim=0,
                             extra=" (sigma_w^2/sigma_eps^2; np.inf for noiseless labels)")
    return float(snr), float(_checks.real_array(inr, "inr", lower=0, ndim=0, extra=" (sigma_w0^2/sigma_w^2)"))


class SampledErrors(NamedTuple):
    """Eq. (5) and its training-error twin for sampled datasets (:func:`sampled_dataset_errors`)."""

    test: np.ndarray  # (S, T) test error of each dataset at each time, eq. (5)
    train: np.ndarray  # (S, T) training error of each dataset at each time


def _gram_spectrum(cov_eigvals, n_train):
    """The ``P`` eigenvalues of ``X^T X`` from the ``N`` of ``X X^T`` (the same nonzero part)."""
    nz = np.sort(cov_eigvals[cov_eigvals > 0])
    return np.concatenate([np.zeros(n_train - nz.size), nz])


def sampled_dataset_errors(t: ArrayLike, cov_eigvals: ArrayLike, n_train: int, snr: float,
                           inr: float) -> SampledErrors:
    """Eq. (5) and its training-error twin for each of ``S`` sampled datasets of ``P`` examples.

    The test error is :func:`single_dataset_error` of each spectrum; the training error
    :func:`single_dataset_training_error` of the ``P`` eigenvalues of ``X^T X`` (the nonzero
    eigenvalues of ``X X^T`` and ``P`` minus their number zeros).

    Parameters
    ----------
    t : array_like
        Times (``>= 0``, ``np.inf`` allowed), in units of tau (``T`` values).
    cov_eigvals : array_like, shape (S, N)
        The spectrum of ``Sigma = X X^T`` of each dataset, frozen modes exactly 0
        (``linear_experiments.GDVersusFlow.cov_eigvals`` or ``linear_experiments.sample_spectra``).
    n_train : int
        Examples ``P`` of every dataset (at least the number of nonzero eigenvalues).
    snr, inr : float
        Signal-to-noise and initialisation-to-teacher ratios of the labels and the initial weights.

    Returns
    -------
    SampledErrors
        ``test`` and ``train``, shape ``(S, T)`` each, in units of ``sigma_w^2``.

    References
    ----------
    Advani, Saxe & Sompolinsky (2020), slides eq. (5).
    """
    t = np.atleast_1d(_checks.real_array(t, "t", lower=0, allow_inf=True, ndim=(0, 1), extra=" (times)"))
    lam = _checks.real_array(cov_eigvals, "cov_eigvals", lower=0, ndim=2, extra=" (S spectra of N eigenvalues)")
    if lam.shape[1] == 0:
        raise ValueError(f"cov_eigvals must hold N >= 1 eigenvalues per dataset; got shape {lam.shape}")
    n_train = _checks.integer(n_train, "n_train", meaning=" (the examples P of each dataset)")
    rank = int((lam > 0).sum(-1).max(initial=0))
    if n_train < rank:
        raise ValueError(f"n_train must be at least the rank of each X X^T ({rank}); got {n_train}")
    snr, inr = _one_snr_inr(snr, inr)
    test = single_dataset_error(t[:, None], lam, snr, inr).T
    train = np.stack([single_dataset_training_error(t, _gram_spectrum(spec, n_train), snr, inr) for spec in lam])
    return SampledErrors(test=test, train=train)


class FiniteSizeGap(NamedTuple):
    """The gap between eq. (6) and finite datasets of one size (:func:`finite_size_gap`)."""

    gap: float  # |mean over datasets of the time-averaged signed relative gap of eq. (5) to eq. (6)|
    gap_se: float  # its standard error over the S datasets
    gap_sim: float  # time-averaged |relative gap| of the mean simulated test error to eq. (6)
    ratio_inf: float  # mean gap of eq. (5) at t = inf over the exact finite-N gap n / (d (d - 1)) / SNR
    ratio_inf_se: float  # its standard error


def finite_size_gap(t: ArrayLike, alpha: float, spectra: ArrayLike, simulated: ArrayLike, snr: float,
                    inr: float) -> FiniteSizeGap:
    """How far finite datasets of ``N`` inputs are from eq. (6), in theory and in simulation.

    The relative gap ``(E5 - E6) / E6`` of eq. (5) (:func:`single_dataset_error` of each of the ``S``
    sampled spectra) to eq. (6) (:func:`generalization_error`) is averaged over the times for each
    dataset, then over the datasets. At ``t = inf`` (the last time) the mean absolute gap is compared
    with its exact finite-N value, :func:`finite_size_asymptotic_error` minus :func:`asymptotic_error`
    (``n / (d (d - 1)) / SNR``, ``d = |P - N|``, from the inverse-Wishart mean).

    Parameters
    ----------
    t : array_like
        Ascending times in units of tau whose last is ``np.inf`` (``T`` values).
    alpha : float
        Load ``P/N``, with ``|round(alpha N) - N| >= 2`` (a finite gap at ``t = inf``).
    spectra : array_like, shape (S, N)
        The spectra of ``X X^T`` of ``S >= 2`` sampled datasets (``linear_experiments.sample_spectra``).
    simulated : array_like, shape (..., T)
        Simulated test errors at the times ``t`` (any number of students; ``linear_experiments.simulate_linear_student``).
    snr, inr : float
        Signal-to-noise and initialisation-to-teacher ratios.

    Returns
    -------
    FiniteSizeGap

    References
    ----------
    Advani, Saxe & Sompolinsky (2020), slides eqs. (5)-(6).
    """
    t = _checks.real_array(t, "t", lower=0, allow_inf=True, ndim=1, extra=" (ascending times ending with inf)")
    if t.size < 2 or not np.isinf(t[-1]) or np.any(np.diff(t[:-1]) <= 0):
        raise ValueError(f"t must hold ascending times ending with np.inf; got {t.tolist()[:5]}")
    alpha = float(_checks.real(alpha, "alpha", positive=True, extra=" (the load P/N)"))
    lam = _checks.real_array(spectra, "spectra", lower=0, ndim=2, extra=" (S spectra of N eigenvalues)")
    if lam.shape[0] < 2 or lam.shape[1] < 1:
        raise ValueError(f"spectra must hold S >= 2 spectra of N >= 1 eigenvalues; got shape {lam.shape}")
    n = lam.shape[1]
    p_n = round(alpha * n)
    if abs(p_n - n) < 2:
        raise ValueError(f"alpha must keep |round(alpha N) - N| >= 2 (a finite gap at t = inf); got alpha = {alpha} "
                         f"with N = {n}")
    sim = _checks.real_array(simulated, "simulated", lower=0, extra=" (simulated test errors)")
    if sim.ndim == 0 or sim.shape[-1] != t.size:
        raise ValueError(f"simulated must have the times on its last axis ({t.size}); got shape {sim.shape}")
    snr, inr = _one_snr_inr(snr, inr)
    if np.isinf(snr):
        raise ValueError("snr must be finite (the gap at t = inf is the noise's); got inf")
    th6 = generalization_error(t, alpha, snr, inr)
    rel = (single_dataset_error(t[:, None], lam, snr, inr) - th6[:, None]) / th6[:, None]  # (T, S)
    per_dataset = rel.mean(0)  # time-averaged signed relative gap of each dataset
    exact_gap = float(finite_size_asymptotic_error(p_n, n, snr, inr) - asymptotic_error(p_n / n, snr, inr))
    gap_inf = rel[-1] * th6[-1]  # t[-1] = inf; back from relative to absolute
    draws = sim.reshape(-1, t.size)
    return FiniteSizeGap(
        gap=float(abs(per_dataset.mean())), gap_se=float(per_dataset.std(ddof=1) / np.sqrt(per_dataset.size)),
        gap_sim=float(np.mean(np.abs(draws.mean(0) - th6) / th6)),
        ratio_inf=float(gap_inf.mean() / exact_gap),
        ratio_inf_se=float(gap_inf.std(ddof=1) / np.sqrt(gap_inf.size) / exact_gap))
