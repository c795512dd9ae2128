"""Learning dynamics of training-aligned deep linear networks and their errors.

Lampinen & Ganguli (2019, §3.1, §3.3, App. A, App. H). A *training-aligned* (TA)
student of ``N_l`` layers (``N_l = 3``: one hidden layer) starts with composite map
``W = eps * Uhat Vhat^T`` built from the singular vectors of the training covariance
``Sigma31``. Under gradient flow its singular vectors never move and each singular value
``u`` follows its own training singular value ``shat`` (App. A):

    tau du/dt = (N_l - 1) u^(2 - 2/(N_l - 1)) (shat - u),    u(0) = eps.

* :func:`mode_strength` is the solution ``s(t, shat)``: eq. (9) in closed form for
  ``N_l = 3``; for deeper networks the exact time ``t(u)`` (a closed form for every
  integer depth, derived below) is inverted by a vectorised safeguarded Newton method.
* :func:`mode_time` is the inverse ``t(s, shat)`` (eq. 9 for ``N_l = 3``; App. A's
  formula for ``N_l = 5`` is the case ``k = 4`` of the general closed form).
* :func:`theory_errors` combines these with the random-matrix description of the
  training data (eqs. 11-13, :mod:`gendyn.rmt`) into the train and test error curves of
  eqs. (14) and (15), for a student of any rank ``N2 <= N3`` (App. H) and any depth.
* :func:`optimal_early_stopping` minimises the theoretical test error over training time.

Closed form for any depth
-------------------------
Write ``k = N_l - 1`` (the number of weight matrices), ``p = 2 - 2/k``, the scaled time
``T = k shat^p t / tau`` and ``x = u / shat``. The ODE becomes ``dx/dT = x^p (1 - x)``.
With ``w = x^(1/k)`` and the partial fractions
``1 / (w^(k-1) (1 - w^k)) = w^(1-k) + w / (1 - w^k)`` and
``w / (1 - w^k) = -(1/k) sum_j omega_j^2 / (w - omega_j)`` over the ``k``-th roots of
unity ``omega_j``,

    T(w) = k w^(2-k) / (2-k) - ln(1 - w) - Re sum_{j=1}^{k-1} omega_j^2 Log(w - omega_j)

(``k ln w`` in place of the first term when ``k = 2``), and ``t = tau [T(w) - T(w0)] /
(k shat^p)`` with ``w0 = (eps/shat)^(1/k)``. For ``k = 2`` this is eq. (9); for ``k = 4``
it is App. A's ``tau/2 [artanh(sqrt(u/shat))/shat^(3/2) - 1/(shat sqrt(u))]``. When
``shat < eps`` the mode *decays* from ``eps`` to ``shat``; with ``v = 1/w`` the same
calculation gives ``T = k F(v)``, ``F(v) = int_0^v y^(2k-3) / (1 - y^k) dy``, evaluated by
its power series for small ``v`` and by the roots-of-unity form otherwise.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from . import _checks, rmt, stopping

__all__ = [
    "mode_strength",
    "mode_time",
    "theory_errors",
    "optimal_early_stopping",
    "gd_lag",
    "gd_lag_accuracy",
    "sampled_ta_errors",
    "delayed_ta_errors",
    "linear_test_error",
    "NoiseAverages",
    "noise_mode_averages",
    "R_IN",
    "half_learning_time", "GdBand", "gd_band",
]

#: Definitions of the learned region R_in of the MP law (see :func:`theory_errors`).
R_IN = ("corrected", "literal")


# ----------------------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------------------


def _check_depth(n_layers):
    """Return ``k = n_layers - 1`` after checking ``n_layers`` is an integer >= 3."""
    n_layers = _checks.integer(n_layers, "n_layers", 3, " (3 = one hidden layer)")
    # the exact inversion sums (n_layers - 1) / 2 roots of unity per mode: arrays of that length
    _checks.work_limit(50.0 * n_layers, f"n_layers={n_layers}", memory=8.0 * n_layers)
    return n_layers - 1


def _check_array(x, name, *, allow_inf=False):
    """Float array with all values >= 0 (and finite unless ``allow_inf``)."""
    return _checks.real_array(x, name, lower=0.0, allow_inf=allow_inf)


def _check_times(t):
    """Training times: a 1-d array of finite numbers >= 0."""
    return _checks.real_array(t, "t (training times)", lower=0.0, ndim=1)


def _check_data(x, name):
    """Data or teacher matrices ``(B, N3, N1)``, numpy or torch, as a finite float array."""
    if hasattr(x, "detach"):  # a torch tensor, on any device
        x = x.detach().cpu().numpy()
    m = _checks.real_array(x, name, ndim=3, extra=", shape (B, N3, N1)")
    if min(m.shape) < 1:
        raise ValueError(f"{name} must have shape (B, N3, N1) with all sizes >= 1; got shape {m.shape}")
    return m


def _check_architecture(teacher_svals, n1, n2, n3):
    """Validate teacher and layer sizes; return ``(sbar, n1, n2, n3, aspect)``."""
    n1, n2, n3 = _checks.integer(n1, "n1"), _checks.integer(n2, "n2"), _checks.integer(n3, "n3")
    if n3 > n1:
        raise ValueError(f"need n3 <= n1 (aspect A = n3/n1 in (0, 1]); got n3={n3}, n1={n1}")
    if n2 > n3:
        raise ValueError(f"the student rank n2 must satisfy n2 <= n3; got n2={n2}, n3={n3}")
    aspect = float(rmt.check_aspect(n3 / n1))
    sbar = _check_array(teacher_svals, "teacher_svals (teacher singular values)")
    if sbar.ndim != 1 or sbar.size == 0:
        raise ValueError(
            f"teacher_svals must be a non-empty 1-d array (one value per teacher mode); "
            f"got shape {sbar.shape}"
        )
    if sbar.size > n2:
        raise ValueError(
            f"teacher rank (len(teacher_svals) = {sbar.size}) must be <= student rank n2 = {n2}"
        )
    if not np.any(sbar > 0):
        raise ValueError("teacher_svals are all zero: the test error (normalised by sum sbar^2) is undefined")
    return sbar, n1, n2, n3, aspect


def _scalar_or_array(a):
    return a[()] if a.ndim == 0 else a


# ----------------------------------------------------------------------------------------
# the scaled time T(w) of App. A for k = n_layers - 1 >= 3
# ----------------------------------------------------------------------------------------


def _log_sum(w, k, power=2):
    """``Re sum_{j>=1} omega_j^power Log(w - omega_j)`` for real ``w >= 0``.

    ``omega_j = exp(2 pi i j/k)``, ``j = 1..k-1``. ``w - omega_j`` never crosses the
    branch cut (its imaginary part ``-sin(2 pi j/k)`` has a fixed sign, or it is
    ``w + 1 > 0``), so this is a smooth function of ``w``.
    """
    # conjugate roots j and k - j give conjugate terms: sum j < k/2 twice, plus omega = -1
    phi = 2.0 * np.pi * np.arange(1, (k + 1) // 2) / k
    cos, sin = np.cos(phi), np.sin(phi)
    w = np.asarray(w, dtype=float)[..., None]
    dx = w - cos
    terms = np.cos(power * phi) * 0.5 * np.log(dx * dx + sin * sin) + np.sin(power * phi) * np.arctan2(sin, dx)
    out = 2.0 * terms.sum(axis=-1)
    if k % 2 == 0:
        out += (-1.0) ** power * np.log1p(w[..., 0])
    return out


def _log1m_exp(x):
    """``log(1 - exp(x))`` for ``x < 0``, accurate for all x."""
    return np.log(-np.expm1(x))


def _split_logit(z):
    """``(log w, log(1 - w))`` for ``w = expit(z)``, without cancellation."""
    return -np.logaddexp(0.0, -z), -np.logaddexp(0.0, z)


def _log_geometric(lnw, ln1mw, k):
    """``log(1 + w + ... + w^(k-1)) = log((1 - w^k)/(1 - w))``; ``log k`` once ``w`` rounds to 1."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = _log1m_exp(k * lnw) - ln1mw
    return np.where(lnw < 0, out, np.log(k))


def _up_delta_T(lnw, ln1mw, lnw0, ln1mw0, r0, k):
    """Scaled time ``T(w) - T(w0)`` for a growing mode (``eps < shat``, ``w < 1``)."""
    power = k * np.exp((2 - k) * lnw0) * np.expm1((2 - k) * (lnw - lnw0)) / (2 - k)
    return power - (ln1mw - ln1mw0) - (_log_sum(np.exp(lnw), k) - r0)


def _up_log_dT_dz(lnw, ln1mw, k):
    """``log dT/dz`` with ``z = logit(w)``: ``dT/dz = k w^(2-k) / (1 + w + ... + w^(k-1))``."""
    return np.log(k) + (2 - k) * lnw - _log_geometric(lnw, ln1mw, k)


_SERIES_TERMS = 64


def _down_log_F(lnv, ln1mv, k):
    """``log F(v)``, ``F(v) = int_0^v y^(2k-3)/(1 - y^k) dy``, for ``0 < v < 1``.

    Power series ``F = v^(2k-2) sum_n v^(nk)/(2k-2+nk)`` where ``v^k <= 1/2`` (evaluated in
    logs: no underflow or cancellation for tiny ``v``); otherwise the closed form
    ``-v^(k-2)/(k-2) - ln(1-v)/k - Re sum_{j>=1} omega_j^-2 [Log(v-omega_j) - Log(-omega_j)]/k``
    (from ``y^(2k-3)/(1-y^k) = -y^(k-3) + y^(k-3)/(1-y^k)``, whose last term has residue
    ``-omega_j^-2/k`` at ``omega_j``), where ``F >= 2^(-2+2/k)/(2k-2)`` is not small.
    """
    lnv, ln1mv = np.broadcast_arrays(lnv, ln1mv)
    out = np.empty(lnv.shape)
    q_ln = k * lnv
    small = q_ln <= np.log(0.5)
    if np.any(small):
        q = np.exp(q_ln[small])
        acc = np.zeros_like(q)
        for n in range(_SERIES_TERMS - 1, -1, -1):
            acc = acc * q + 1.0 / (2 * k - 2 + n * k)
        out[small] = (2 * k - 2) * lnv[small] + np.log(acc)
    big = ~small
    if np.any(big):
        v = np.exp(lnv[big])
        const = _log_sum(np.zeros(1), k, -2)[0]
        out[big] = np.log(
            -np.exp((k - 2) * lnv[big]) / (k - 2)
            - ln1mv[big] / k
            - (_log_sum(v, k, -2) - const) / k
        )
    return out


def _log_diff(log_a, log_b):
    """``log(exp(log_a) - exp(log_b))``; ``-inf`` where ``log_a <= log_b``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = log_a + _log1m_exp(np.minimum(log_b - log_a, 0.0))
    return np.where(log_a > log_b, out, -np.inf)


def _down_log_dT_dz(lnv, ln1mv, k):
    """``log dT/dz`` with ``z = logit(v)``: ``dT/dz = k v^(2k-2) / (1 + v + ... + v^(k-1))``."""
    return np.log(k) + (2 * k - 2) * lnv - _log_geometric(lnv, ln1mv, k)


def _solve_increasing(fun, lo, hi, start, target, origin, max_iter=300):
    """Vectorised safeguarded Newton for ``fun(z) = target`` with ``fun`` increasing.

    ``fun(z, idx)`` returns ``(value, log_derivative)`` for the elements ``idx``; the root
    lies in ``[lo, hi]``. A Newton step leaving the current bracket is replaced by
    bisection, so the iteration always converges; in the cases used here ``fun`` is
    concave and Newton climbs monotonically from the left in ~5-40 steps. Convergence is
    judged relative to the distance from ``origin`` (where the mode starts, ``z(eps)``),
    so that even a mode that has barely moved from ``eps`` is found to full precision.
    """
    z, lo, hi = start.astype(float).copy(), lo.astype(float).copy(), hi.astype(float).copy()
    active = np.arange(z.size)
    for _ in range(max_iter):
        if active.size == 0:
            break
        za = z[active]
        val, log_der = fun(za, active)
        resid = val - target[active]
        lo_a = np.where(resid <= 0, za, lo[active])
        hi_a = np.where(resid >= 0, za, hi[active])
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            step = np.sign(resid) * np.exp(np.log(np.abs(resid)) - log_der)
            z_new = za - step
        outside = ~((z_new >= lo_a) & (z_new <= hi_a))  # also NaN
        z_new = np.where(outside, 0.5 * (lo_a + hi_a), z_new)
        # Newton converges quadratically: a step below 1e-10 of the distance moved leaves a
        # relative error ~1e-20, below the rounding noise of fun (a stricter test would stall)
        ulp = 4e-16 * np.maximum(1.0, np.abs(za))
        tol = np.maximum(1e-10 * np.abs(za - origin[active]), ulp)
        done = (resid == 0) | (np.abs(z_new - za) <= tol) | (hi_a - lo_a <= ulp)
        z[active], lo[active], hi[active] = np.where(resid == 0, za, z_new), lo_a, hi_a
        active = active[~done]
    return z


# ----------------------------------------------------------------------------------------
# mode strength and its inverse
# ----------------------------------------------------------------------------------------


def _strength_k2(t, shat, eps, tau):
    """Eq. (9), for ``shat > 0, shat != eps``, in overflow-free logistic form."""
    out = np.empty(t.shape)
    up = shat > eps
    # eq. (9) is  s = shat * expit(2 shat t/tau - log(shat/eps - 1))  for shat > eps
    su, tu = shat[up], t[up]
    with np.errstate(invalid="ignore"):
        out[up] = su * special.expit(2 * su * tu / tau + np.log(eps) - np.log(su - eps))
    # for shat < eps:  s = shat / (1 - exp(-c)),  c = 2 shat t/tau - log(1 - shat/eps)
    sd, td = shat[~up], t[~up]
    c = 2 * sd * td / tau - np.log1p(-sd / eps)
    out[~up] = sd / -np.expm1(-c)
    return out


def _strength_deep(t, shat, eps, tau, k):
    """Invert ``t(u)`` of App. A for ``k >= 3``, ``shat > 0, shat != eps``, ``0 < t < inf``."""
    p = 2.0 - 2.0 / k
    out = np.empty(t.shape)
    log_target = np.log(k) + p * np.log(shat) + np.log(t) - np.log(tau)
    target = np.exp(log_target)

    up = shat > eps
    if np.any(up):
        su, tg = shat[up], target[up]
        lnw0 = (np.log(eps) - np.log(su)) / k
        ln1mw0 = _log1m_exp(lnw0)
        r0 = _log_sum(np.exp(lnw0), k)
        z0 = lnw0 - ln1mw0

        def fun(z, idx):
            lnw, ln1mw = _split_logit(z)
            return (_up_delta_T(lnw, ln1mw, lnw0[idx], ln1mw0[idx], r0[idx], k),
                    _up_log_dT_dz(lnw, ln1mw, k))

        # dT/dz >= 1 on w < 1, so the root lies in [z0, z0 + target]; T is concave in z,
        # so Newton from z0 climbs monotonically to the root.
        z = _solve_increasing(fun, z0, z0 + tg, z0, tg, z0)
        out[up] = su * np.exp(k * _split_logit(z)[0])

    down = ~up
    if np.any(down):
        sd, tg = shat[down], target[down]
        lnv0 = (np.log(sd) - np.log(eps)) / k
        ln1mv0 = _log1m_exp(lnv0)
        log_f0 = _down_log_F(lnv0, ln1mv0, k)
        z0 = lnv0 - ln1mv0
        log_tg = log_target[down]

        def fun(z, idx):
            # Newton on log(Delta T), which is concave in z (Delta T itself is convex and
            # exponentially flat at the start, where plain Newton would crawl)
            lnv, ln1mv = _split_logit(z)
            log_dt = np.log(k) + _log_diff(_down_log_F(lnv, ln1mv, k), log_f0[idx])
            return log_dt, _down_log_dT_dz(lnv, ln1mv, k) - log_dt

        # bounds: dT/dz <= 1 and dT/dz <= k e^((2k-2) z) (v <= e^z) give two lower bounds;
        # dT/dz increases with z, so its value at z_a = max(lo, 3) gives an upper bound
        lo = np.maximum(z0 + np.exp(log_tg),
                        np.logaddexp((2 * k - 2) * z0, np.log((2 * k - 2) / k) + log_tg) / (2 * k - 2))
        za = np.maximum(lo, 3.0)
        lnva, ln1mva = _split_logit(za)
        ta = k * (np.exp(_down_log_F(lnva, ln1mva, k)) - np.exp(log_f0))
        slope = np.exp(_down_log_dT_dz(lnva, ln1mva, k))
        hi = za + np.maximum(np.exp(log_tg) - ta, 0.0) / slope
        z = z0.copy()  # where lo rounds to z0 the mode has not moved from eps within an ulp
        moved = lo > z0
        if np.any(moved):
            z[moved] = _solve_increasing(lambda zz, idx: fun(zz, np.flatnonzero(moved)[idx]),
                                         lo[moved], hi[moved], lo[moved], log_tg[moved], z0[moved])
        res = sd * np.exp(-k * _split_logit(z)[0])
        out[down] = res
    return out


def _strength_zero(t, eps, tau, k):
    """``shat = 0``: ``tau du/dt = -k u^(3 - 2/k)``, so ``u = eps (1 + (2k-2) eps^p t/tau)^(-1/p)``."""
    p = 2.0 - 2.0 / k
    return eps * np.exp(-np.log1p((2 * k - 2) * eps**p * t / tau) / p)


def mode_strength(t: ArrayLike, s_hat: ArrayLike, eps: float, tau: float = 1.0, n_layers: int = 3) -> np.ndarray:
    """Singular value ``s(t, shat)`` of a training-aligned deep linear network, eq. (9) / App. A.

    Solves ``tau du/dt = (N_l - 1) u^(2 - 2/(N_l - 1)) (shat - u)`` with ``u(0) = eps``,
    the dynamics of one composite singular value of an ``N_l``-layer linear network
    trained by gradient flow from training-aligned, balanced initial weights (App. A).

    Parameters
    ----------
    t : array_like
        Training times (``>= 0``; ``inf`` gives the limit), in the units of ``tau``.
    s_hat : array_like
        Training-data singular values ``shat >= 0``; broadcast against ``t``.
    eps : float
        Initial composite singular value ``epsilon > 0``.
    tau : float, optional
        Time constant ``tau = 1/learning rate``.
    n_layers : int, optional
        Number of layers ``N_l >= 3`` (``3`` = one hidden layer, eq. 9).

    Returns
    -------
    ndarray or float
        ``s(t, shat)``, shape of the broadcast inputs. It lies between ``eps`` and
        ``shat`` and tends monotonically to ``shat``.

    Notes
    -----
    * ``N_l = 3``: eq. (9), ``s = shat e^(2 shat t/tau) / (e^(2 shat t/tau) - 1 + shat/eps)``,
      evaluated as ``shat * expit(2 shat t/tau - log(shat/eps - 1))``, which cannot
      overflow (``t = 1e8, shat = 10`` gives ``shat``).
    * ``N_l >= 4``: the exact time ``t(u)`` (module docstring; ``N_l = 5`` is App. A's
      formula) is inverted by safeguarded Newton in ``z = logit((u/shat)^(1/k))``,
      vectorised over all elements; relative accuracy ~1e-13.
    * ``shat < eps``: the mode decays from ``eps`` to ``shat`` (same ODE, same formulas).
    * ``shat = eps``: ``s = eps`` for all ``t``.
    * ``shat = 0``: the ODE is ``tau du/dt = -(N_l - 1) u^(3 - 2/(N_l-1))``, a slow decay
      ``s = eps (1 + (2k-2) eps^p t/tau)^(-1/p)`` (``k = N_l - 1``, ``p = 2 - 2/k``);
      for ``N_l = 3`` this is ``eps / (1 + 2 eps t/tau)``, the ``shat -> 0`` limit of eq. (9).
    * ``t = 0`` returns ``eps`` exactly.
    """
    k = _check_depth(n_layers)
    eps, tau = _checks.positive(eps, "eps"), _checks.positive(tau, "tau")
    t = _check_array(t, "t (training times)", allow_inf=True)
    shat = _check_array(s_hat, "s_hat (training singular values)")
    t, shat = np.broadcast_arrays(t, shat)
    out = np.full(t.shape, eps)

    zero = shat == 0
    out[zero] = _strength_zero(t[zero], eps, tau, k)
    late = (t == np.inf) & ~zero
    out[late] = shat[late]
    grow = (shat != eps) & ~zero & (t > 0) & (t < np.inf)
    if np.any(grow):
        tg, sg = t[grow], shat[grow]
        vals = _strength_k2(tg, sg, eps, tau) if k == 2 else _strength_deep(tg, sg, eps, tau, k)
        # the exact solution lies between eps and shat: clip away last-ulp rounding
        out[grow] = np.clip(vals, np.minimum(sg, eps), np.maximum(sg, eps))
    return _scalar_or_array(out)


_GL_TIME_X, _GL_TIME_W = rmt._legendre(16)  # the library's one table of Gauss-Legendre rules


def _time_near_eps(s, shat, eps, tau, k, gam):
    """``t(s)`` by 16-point Gauss-Legendre in ``g = ln|u - shat|`` (any depth, either direction).

    With ``u = shat + (s - shat) e^g`` the integral ``t = tau/k int_eps^s du / (u^p (shat - u))``
    becomes ``tau/k int_0^gam u^-p dg``, ``gam = ln((eps - shat)/(s - shat))``: no pole at
    ``shat`` and no cancellation of two nearly equal closed-form values, so a mode that has
    barely left ``eps`` gets its time to full relative precision. ``u = s + (s - shat)
    expm1(g)`` is evaluated without cancellation. The integrand's singularity (``u = 0``,
    or ``Im g = pi`` for a decaying mode) lies at least ``gam`` beyond the interval where
    the caller uses this, so 16 nodes give ~1e-16.
    """
    p = 2.0 - 2.0 / k
    half = 0.5 * gam[:, None]
    g = half * (1.0 + _GL_TIME_X)
    u = s[:, None] + (s - shat)[:, None] * np.expm1(g)
    return tau / k * (half * _GL_TIME_W * u ** (-p)).sum(-1)


def _time_unchecked(s, shat, eps, tau, k):
    """``t(s, shat)`` for validated arrays with ``s`` strictly between ``eps`` and ``shat``
    (or ``s = eps``), ``shat > 0``, ``shat != eps``.

    Where the mode has not gone far from ``eps`` (``gam = ln((eps - shat)/(s - shat)) <= 1``,
    and for a growing mode ``gam <= ln(shat/(shat - eps))``, roughly ``s <= 2 eps``) the
    closed form is a difference of nearly equal terms: there the integral is evaluated
    directly (:func:`_time_near_eps`). Elsewhere the closed forms of the module docstring.
    """
    out = np.empty(s.shape)
    up = shat > eps
    with np.errstate(divide="ignore"):
        gam = np.log1p((eps - s) / (s - shat))  # > 0; s = eps gives 0 (t = 0)
        limit = np.where(up, -np.log1p(-np.minimum(eps / shat, 1.0)), np.inf)  # ln(shat/(shat - eps))
    near = (gam <= np.minimum(1.0, limit))
    if np.any(near):
        out[near] = _time_near_eps(s[near], shat[near], eps, tau, k, gam[near])
    far = ~near
    s, shat = s[far], shat[far]
    up = shat > eps
    res = np.empty(s.shape)
    if k == 2:
        su, ss = shat[up], s[up]
        res[up] = (np.log(su - eps) - np.log(eps) - np.log(su - ss) + np.log(ss)) / (2 * su) * tau
        sd, ss = shat[~up], s[~up]
        # ln(1 - shat/s): log1p while shat/s is small, else from s - shat (exact near shat)
        with np.errstate(divide="ignore", invalid="ignore"):
            ln_gap = np.where(sd < 0.5 * ss, np.log1p(-sd / ss), np.log((ss - sd) / ss))
        res[~up] = (np.log1p(-sd / eps) - ln_gap) / (2 * sd) * tau
        out[far] = res
        return out
    p = 2.0 - 2.0 / k
    log_scale = np.log(tau) - np.log(k) - p * np.log(shat)  # t = tau dT / (k shat^p)
    if np.any(up):
        su, ss = shat[up], s[up]
        lnw0 = (np.log(eps) - np.log(su)) / k
        # w = (s/shat)^(1/k): log1p((s - shat)/shat) keeps s -> shat accurate; a ratio far
        # below shat must not go through 1 + (s/shat - 1), which loses s/shat's digits
        lnw = np.where(ss >= 0.5 * su, np.log1p((ss - su) / su), np.log(ss) - np.log(su)) / k
        dT = _up_delta_T(lnw, _log1m_exp(lnw), lnw0, _log1m_exp(lnw0),
                         _log_sum(np.exp(lnw0), k), k)
        with np.errstate(divide="ignore", over="ignore"):
            res[up] = np.exp(log_scale[up] + np.log(dT))
    down = ~up
    if np.any(down):
        sd, ss = shat[down], s[down]
        lnv0 = (np.log(sd) - np.log(eps)) / k
        lnv = -np.log1p((ss - sd) / sd) / k
        log_dT = np.log(k) + _log_diff(_down_log_F(lnv, _log1m_exp(lnv), k),
                                       _down_log_F(lnv0, _log1m_exp(lnv0), k))
        with np.errstate(over="ignore"):  # times beyond 1e308 (shat ~ 1e-300) are inf
            res[down] = np.exp(log_scale[down] + log_dT)
    out[far] = res
    return out


def mode_time(s: ArrayLike, s_hat: ArrayLike, eps: float, tau: float = 1.0, n_layers: int = 3) -> np.ndarray:
    """Training time ``t(s, shat)`` at which a TA mode reaches ``s``, eq. (9) / App. A.

    The inverse of :func:`mode_strength` in its first argument.

    Parameters
    ----------
    s : array_like
        Target mode strengths. They must lie between ``eps`` and ``s_hat`` (inclusive):
        ``eps <= s <= shat`` for a growing mode, ``shat <= s <= eps`` for a decaying one
        (``shat < eps``, including ``shat = 0``), and ``s = eps`` if ``shat = eps``.
    s_hat : array_like
        Training-data singular values ``shat >= 0``; broadcast against ``s``.
    eps, tau, n_layers
        As in :func:`mode_strength`.

    Returns
    -------
    ndarray or float
        ``t >= 0``: ``0`` at ``s = eps`` and ``inf`` at ``s = shat`` (the mode only
        reaches ``shat`` asymptotically).

    Raises
    ------
    ValueError
        If some ``s`` lies outside that range: the mode never takes that value.

    Notes
    -----
    ``N_l = 3``: eq. (9), ``t = tau/(2 shat) ln[(shat/eps - 1)/(shat/s - 1)]``.
    ``N_l = 5``: App. A, ``t = tau/2 [artanh(sqrt(u/shat))/shat^(3/2) - 1/(shat sqrt u)]``
    between ``eps`` and ``s``. General depth: the closed form in the module docstring.
    ``shat = 0``: ``t = tau (s^-p - eps^-p) / (p k)``.

    Where the mode has not gone far from ``eps`` (about ``s < 2 eps``) those closed forms are
    differences of nearly equal terms; there ``t = tau/k int u^-p dg`` over
    ``g = ln|u - shat|`` is integrated by Gauss-Legendre instead. The result is accurate to
    ~1e-14 relative for every ``s`` (tested against 30-digit quadrature). Note that a double
    ``s`` fixes ``t`` only to ``kappa`` times its rounding, ``kappa = |d ln t / d ln s|``,
    which is large next to ``eps`` (``~ eps/|s - eps|``) and next to ``shat``; so
    ``mode_time(mode_strength(t))`` returns ``t`` to 1e-8 wherever ``kappa < 1e5``.
    """
    k = _check_depth(n_layers)
    eps, tau = _checks.positive(eps, "eps"), _checks.positive(tau, "tau")
    s = _check_array(s, "s (mode strengths)")
    shat = _check_array(s_hat, "s_hat (training singular values)")
    s, shat = np.broadcast_arrays(s, shat)
    lo, hi = np.minimum(shat, eps), np.maximum(shat, eps)
    bad = (s < lo) | (s > hi)
    if np.any(bad):
        raise ValueError(
            "no training time gives these mode strengths: s must lie between eps and s_hat "
            f"(eps = {eps:g}); got s = {s[bad].ravel()[:5].tolist()} "
            f"for s_hat = {shat[bad].ravel()[:5].tolist()}"
        )
    out = np.zeros(s.shape)
    out[(s == shat) & (shat != eps)] = np.inf
    zero = (shat == 0) & (s > 0) & (s < eps)
    if np.any(zero):
        p = 2.0 - 2.0 / k
        with np.errstate(over="ignore"):
            out[zero] = tau * eps**-p * np.expm1(p * (np.log(eps) - np.log(s[zero]))) / (p * k)
    inner = (shat > 0) & (shat != eps) & (s != shat) & (s != eps)
    if np.any(inner):
        out[inner] = _time_unchecked(s[inner], shat[inner], eps, tau, k)
    return _scalar_or_array(np.maximum(out, 0.0))


def _half_time(shat, eps, tau, k):
    """Time at which a mode with ``shat > 2 eps`` reaches ``shat/2`` (no validation)."""
    return _time_unchecked(0.5 * shat, shat, eps, tau, k)


# ----------------------------------------------------------------------------------------
# Marchenko-Pastur quadrature
# ----------------------------------------------------------------------------------------

_ORDER = 8  # Gauss-Legendre nodes per panel of the MP quadrature (rmt.mp_rule)
_BASE_PANELS = 16
_CHUNK = 256  # times per batch in theory_errors
_EDGE_LEVELS = 14


def _theta_of_s(s, aspect):
    """The angle of ``s`` under the map of :func:`gendyn.rmt.mp_singular_value_measure`, in the
    arcsin form that stays accurate next to the lower edge, where the quadrature is graded
    (``rmt.mp_cdf`` inverts with arccos instead, exact for a vanishing aspect)."""
    root = np.sqrt(aspect)
    lo = 1.0 - root
    return 2.0 * np.arcsin(np.sqrt(np.clip((s - lo) / (2.0 * root), 0.0, 1.0)))


def _base_breaks(a, b):
    """Uniform panels on ``[a, b]`` plus geometric grading toward both ends.

    The grading toward ``theta = 0`` resolves the near-singular lower edge of the MP law
    when ``A`` is close to (but not) 1.
    """
    uniform = np.linspace(a, b, _BASE_PANELS + 1)
    levels = (b - a) * 2.0 ** -np.arange(1, _EDGE_LEVELS + 1)
    return np.concatenate([uniform, a + levels, b - levels])


def _mp_rule(a, b, aspect):
    """Fixed rule on ``[a, b]`` in theta: singular values and weights (MP measure, :func:`gendyn.rmt.mp_rule`)."""
    return rmt.mp_rule(np.sort(_base_breaks(a, b)), aspect=aspect, order=_ORDER)


def _mass_above(theta, aspect):
    return _mp_rule(theta, np.pi, aspect)[1].sum()


def _split_angle(q_in, aspect):
    """Angle ``theta_f`` with MP mass ``q_in`` above it (Newton-polished mp_quantile)."""
    if q_in >= 1.0:
        return 0.0
    if q_in <= 0.0:
        return np.pi
    theta = float(_theta_of_s(rmt.mp_quantile(1.0 - q_in, aspect), aspect))
    for _ in range(4):
        theta -= (q_in - _mass_above(theta, aspect)) / float(rmt.mp_singular_value_measure(theta, aspect)[1])
        theta = min(max(theta, 0.0), np.pi)
    return theta


def _transition(t, s_lo, s_hi, eps, tau, k):
    """Where (``shat*``) and how sharply (width in shat) modes are being learned at ``t``.

    ``shat*(t)`` solves ``t_half(shat*) = t`` (half learned), found by bisection in
    ``log shat`` on ``[max(s_lo, 20 eps), s_hi]`` (``t_half`` decreases there); it is
    clipped to the interval when the transition lies outside. The width is the inverse
    slope of ``logit(s/shat)`` in ``shat`` at fixed ``t``, from differentiating ``t(s)``.
    """
    p = 2.0 - 2.0 / k
    a = max(s_lo, 20.0 * eps)
    star = np.full(t.shape, s_hi)
    if a < s_hi:
        t_a, t_b = _half_time(np.array([a, s_hi]), eps, tau, k)
        star = np.where(t >= t_a, a, star)
        mid = (t > t_b) & (t < t_a)
        if np.any(mid):
            tm = t[mid]
            lo, hi = np.full(tm.shape, np.log(a)), np.full(tm.shape, np.log(s_hi))
            for _ in range(60):
                c = 0.5 * (lo + hi)
                later = _half_time(np.exp(c), eps, tau, k) > tm
                lo, hi = np.where(later, c, lo), np.where(later, hi, c)
            star[mid] = np.exp(0.5 * (lo + hi))
    x0 = np.minimum(eps / star, 0.5)
    T = k * star**p * t / tau
    slope = 4.0 * np.abs(p * T - x0 ** (1.0 - p) / (1.0 - x0)) / (star * 2.0 ** (p + 1))
    width = 1.0 / np.maximum(slope, 1e-300)
    return star, width


def _in_region_rule(t, theta_a, aspect, eps, tau, k):
    """Per-time quadrature on ``R_in = [theta_a, pi]``, graded around the learning front.

    Returns singular values and MP weights of shape ``(len(t), M)``.
    """
    root = np.sqrt(aspect)
    s_a = float(rmt.mp_singular_value_measure(theta_a, aspect)[0]) if theta_a > 0 else 1.0 - root
    star, width = _transition(t, s_a, 1.0 + root, eps, tau, k)
    theta_star = _theta_of_s(star, aspect)
    sin_star = np.sin(theta_star)
    width_theta = np.minimum(width / np.maximum(root * sin_star, 1e-300), np.sqrt(2.0 * width / root))
    d0 = np.clip(0.05 * width_theta, 1e-13, 0.05)
    levels = int(np.ceil(np.log2(np.pi / d0.min()))) + 1
    offsets = d0[:, None] * 2.0 ** np.arange(levels)
    graded = np.concatenate([theta_star[:, None] - offsets, theta_star[:, None] + offsets], axis=1)
    base = _base_breaks(theta_a, np.pi)
    base = np.broadcast_to(base, (t.size, base.size))
    breaks = np.sort(np.clip(np.concatenate([base, graded], axis=1), theta_a, np.pi), axis=1)
    return rmt.mp_rule(breaks, aspect=aspect, order=_ORDER)


# ----------------------------------------------------------------------------------------
# train and test errors
# ----------------------------------------------------------------------------------------


def theory_errors(t: ArrayLike, teacher_svals: ArrayLike, student: TaStudent | None = None, *args: object,
                  r_in: str = "corrected", **flat: object) -> tuple[np.ndarray, np.ndarray]:
    """Theoretical train and test errors of a TA student, eqs. (14) and (15).

    Parameters
    ----------
    t : array_like
        Training times (``>= 0``, finite), in units of ``tau``.
    teacher_svals : array_like, shape (Nbar2,)
        Teacher singular values (SNRs) ``sbar_alpha >= 0``, not all zero; the teacher
        rank ``Nbar2`` is their number and may not exceed ``n2``.
    student : TaStudent
        Its sizes ``n1`` (inputs = examples ``N1``) and ``n3`` (outputs ``N3``), both required,
        and ``n2`` (hidden ``N2``, the student rank, App. H; default ``n3``), with
        ``Nbar2 <= N2 <= N3 <= N1`` (``A = N3/N1``); its initial singular value ``eps``,
        time constant ``tau`` and depth ``n_layers``, as in :func:`mode_strength`.
    r_in : {"corrected", "literal"}
        Which MP mass the learned region ``R_in`` holds (see Notes): ``"corrected"``
        (default) the learned share ``(N2 - Nbar2)/(N3 - Nbar2)`` of the noise modes;
        ``"literal"`` the paper's §3.3 wording, ``1 - N2/N3``. The literal reading is
        kept only to show that it disagrees with simulations; it is undefined for a
        full-rank student (``N2 = N3`` leaves no mass for ``N3 - Nbar2`` learned modes).
    *args, **flat
        Deprecated: the former form ``theory_errors(t, teacher_svals, n1, n2, n3, eps, tau=1.0,
        n_layers=3, r_in="corrected")``, accepted for one more release with a ``DeprecationWarning``
        (the same results).

    Returns
    -------
    train, test : ndarray
        ``epsilon_train(t)`` and ``epsilon_test(t)``, each of the shape of ``t``.

    Notes
    -----
    The training data has ``Nbar2`` teacher modes at ``shat(sbar)`` with overlap
    ``O(sbar)`` (eqs. 11-12; modes below ``A^(1/4)`` sit at the MP edge with ``O = 0``)
    and ``N3 - Nbar2`` noise modes with the MP law (eq. 13). The rank-``N2`` TA student
    learns the top ``N2`` of them: the teacher modes, and the top ``N2 - Nbar2`` noise
    modes, in ``R_in``; the other ``N3 - N2`` noise modes, in ``R_out``, stay unlearned.

    * train error (14): ``[(N3-N2)<shat^2>_out + (N2-Nbar2)<(s-shat)^2>_in
      + sum_a (s_a - shat_a)^2] / [sum_a shat_a^2 + (N3-N2)<shat^2>_out
      + (N2-Nbar2)<shat^2>_in]`` (the denominator is ``sum`` of all ``N3`` squared
      training singular values, ``~ sum_a shat_a^2 + (N3 - Nbar2)``).
    * test error (15): ``[(N2-Nbar2)<s^2>_in + sum_a ((s_a - sbar_a)^2
      + 2 s_a sbar_a (1 - O_a))] / sum_a sbar_a^2``.

    **Correction to the paper's R_in.** §3.3 defines ``f`` as "the point at which the MP
    density has 1 - N2/N3 of its mass to the right" and ``R_in = [f, 1 + sqrt(A)]``. That
    puts the wrong mass in ``R_in`` (a full-rank student would give ``f = 1 + sqrt(A)``,
    contradicting the paper's own ``f = 1 - sqrt(A)``). Here ``R_in`` holds the top
    fraction ``(N2 - Nbar2)/(N3 - Nbar2)`` of the MP mass (the learned share of the noise
    modes; ``N2/N3`` up to ``O(Nbar2/N3)``, and the whole support for ``N2 = N3``).

    Averages ``<.>_R`` are conditional MP averages over ``R``, computed by composite
    Gauss-Legendre quadrature in ``theta`` (``s = 1 - sqrt(A) cos theta``, which removes
    the square-root edges), with panels graded geometrically around the learning front
    ``shat*(t)`` so that the sharp sigmoid of deep networks is resolved at every ``t``
    (agreement with brute-force quadrature ~1e-12).

    Eq. (15) neglects the small systematic correlation of the noise modes with the
    teacher (``sum_bulk shat_b c_b = A/sbar^3`` per teacher mode, since ``shat O = sbar
    - A/sbar^3``): it matters only once noise modes are learned, when the ``O(N3)``
    noise term dominates the test error anyway.
    """
    if _is_former(student, args, flat):
        old = _former("theory_errors", ("n1", "n2", "n3", "eps", "tau", "n_layers", "r_in"), student, args, flat,
                      defaults={"r_in": r_in},
                      new_form=lambda v: f"theory_errors(t, teacher_svals, {_show_student(v)}, r_in={v['r_in']!r})")
        return theory_errors(t, teacher_svals, old["student"], r_in=old["r_in"])
    student = _student(student, "theory_errors")
    n1, n3 = _needs(student, "theory_errors")
    eps, tau, n_layers = student.eps, student.tau, student.n_layers
    k = n_layers - 1
    sbar, n1, n2, n3, aspect = _check_architecture(teacher_svals, n1, n3 if student.n2 is None else student.n2, n3)
    t = _check_array(t, "t (training times)")
    shape = t.shape
    t = t.ravel()
    rank = sbar.size
    n_bulk, n_in, n_out = n3 - rank, n2 - rank, n3 - n2
    mass_in = _learned_mass(r_in, n_in, n_bulk, n2, n3)

    shat_a = rmt.spike_singular_value(sbar, aspect)
    overlap = rmt.spike_overlap(sbar, aspect)
    s_a = mode_strength(t[:, None], shat_a, eps, tau, n_layers)
    train_num = ((s_a - shat_a) ** 2).sum(axis=1)
    train_den = np.full(t.shape, (shat_a**2).sum())
    test_num = ((s_a - sbar) ** 2 + 2.0 * s_a * sbar * (1.0 - overlap)).sum(axis=1)

    if n_bulk > 0:
        theta_f = _split_angle(mass_in, aspect)
        if n_out > 0:
            s_out, w_out = _mp_rule(0.0, theta_f, aspect)
            mean_out = (w_out * s_out**2).sum() / w_out.sum()
            train_num += n_out * mean_out
            train_den += n_out * mean_out
        if n_in > 0:
            s_in, w_in = _mp_rule(theta_f, np.pi, aspect)
            train_den += n_in * (w_in * s_in**2).sum() / w_in.sum()
            for start in range(0, t.size, _CHUNK):  # bounded memory: ~1000 nodes per time
                sl = slice(start, start + _CHUNK)
                s_in, w_in = _in_region_rule(t[sl], theta_f, aspect, eps, tau, k)
                mass = w_in.sum(axis=1)
                s_t = mode_strength(t[sl, None], s_in, eps, tau, n_layers)
                train_num[sl] += n_in * (w_in * (s_t - s_in) ** 2).sum(axis=1) / mass
                test_num[sl] += n_in * (w_in * s_t**2).sum(axis=1) / mass
    test = test_num / (sbar**2).sum()
    return (train_num / train_den).reshape(shape), test.reshape(shape)


def _learned_mass(r_in, n_in, n_bulk, n2, n3):
    """MP mass of ``R_in`` under the corrected or the paper's literal definition."""
    if _checks.choice(r_in, "r_in", R_IN) == "corrected":
        return n_in / n_bulk if n_bulk > 0 else 0.0
    if n_in > 0 and n2 == n3:
        raise ValueError("r_in='literal' is undefined for a full-rank student (n2 = n3): the paper's "
                         "R_in then has no MP mass for its n3 - Nbar2 learned noise modes")
    return 1.0 - n2 / n3


def optimal_early_stopping(teacher_svals: ArrayLike, student: TaStudent | None = None, *args: object,
                           t_max: float | None = None, r_in: str = "corrected",
                           **flat: object) -> tuple[float, float]:
    """Optimal stopping time and the minimal theoretical test error, from eq. (15).

    Parameters
    ----------
    teacher_svals, student
        As in :func:`theory_errors`.
    t_max : float, optional
        Longest training time considered. Default: ten times the time at which the
        median MP noise mode is half learned, by when the noise has long dominated.
    r_in : {"corrected", "literal"}
        Definition of the learned region, as in :func:`theory_errors`.
    *args, **flat
        Deprecated: the former form ``optimal_early_stopping(teacher_svals, n1, n2, n3, eps, tau=1.0,
        n_layers=3, t_max=None, r_in="corrected")``, accepted for one more release with a
        ``DeprecationWarning`` (the same results).

    Returns
    -------
    t_opt, eps_opt : float
        The minimiser of ``epsilon_test(t)`` (eq. 15) on ``[0, t_max]`` and the minimum.
        ``t_opt = 0`` (``eps_opt ~ 1``) if learning never helps, e.g. every teacher mode
        is below the detection threshold ``A^(1/4)``; ``t_opt = t_max`` if the error
        still falls there.

    Notes
    -----
    The test error is evaluated on 241 log-spaced times from ``1e-3`` times the
    half-learning time of the strongest mode to ``t_max``, plus the times at which each
    teacher mode alone would be optimal (``s_a = sbar_a O_a``, where its term of eq. 15
    is minimal: deep networks pass that point so quickly that a grid can miss it). The
    best of these is refined by bounded scalar minimisation (Brent) in ``log t``
    between its neighbours (:func:`gendyn.stopping.minimum_over_time`, with ``t = 0`` a
    candidate). With several teacher modes ``epsilon_test(t)`` can have several local minima;
    the grid picks the global one.

    For a single strong mode the minimum approaches ``1 - O(sbar)^2`` from above (the
    spike term of eq. 15 is at least ``sbar^2 (1 - O^2)`` and the noise terms are >= 0).
    """
    if _is_former(student, args, flat):
        old = _former("optimal_early_stopping", ("n1", "n2", "n3", "eps", "tau", "n_layers", "t_max", "r_in"),
                      student, args, flat, defaults={"t_max": t_max, "r_in": r_in},
                      new_form=lambda v: f"optimal_early_stopping(teacher_svals, {_show_student(v)}, "
                                         f"t_max={v['t_max']!r}, r_in={v['r_in']!r})")
        return optimal_early_stopping(teacher_svals, old["student"], t_max=old["t_max"], r_in=old["r_in"])
    student = _student(student, "optimal_early_stopping")
    n1, n3 = _needs(student, "optimal_early_stopping")
    eps, tau, n_layers = student.eps, student.tau, student.n_layers
    k = n_layers - 1
    sbar, n1, n2, n3, aspect = _check_architecture(teacher_svals, n1, n3 if student.n2 is None else student.n2, n3)
    _learned_mass(r_in, n2 - sbar.size, n3 - sbar.size, n2, n3)  # refuse a bad r_in before any work
    shat = rmt.spike_singular_value(sbar, aspect)
    ideal = sbar * rmt.spike_overlap(sbar, aspect)  # s_a minimising the mode's own term
    if t_max is None:
        t_max = 10.0 * _characteristic_time(float(rmt.mp_quantile(0.5, aspect)), eps, tau, k)
    t_max = _checks.positive(t_max, "t_max")
    t_lo = min(1e-3 * _characteristic_time(float(shat.max()), eps, tau, k), 1e-3 * t_max)
    fits = (ideal > eps) & (ideal < shat)
    special_times = mode_time(ideal[fits], shat[fits], eps, tau, n_layers) if np.any(fits) else []

    def test_error(times):
        return theory_errors(times, sbar, student, r_in=r_in)[1]

    return stopping.minimum_over_time(test_error, t_lo, t_max, special_times=special_times, zero=True)


def _characteristic_time(shat, eps, tau, k):
    """Half-learning time of a mode; its own relaxation time if it cannot grow (``shat <= 2 eps``)."""
    if shat > 2.0 * eps:
        return float(_half_time(np.array([shat]), eps, tau, k)[0])
    return tau / (k * shat ** (2.0 - 2.0 / k))


# ----------------------------------------------------------------------------------------
# finite learning rate, finite size
# ----------------------------------------------------------------------------------------


def gd_lag(s_hat: ArrayLike, eps: float, lr: float, n_layers: int = 3, s: ArrayLike | None = None) -> np.ndarray:
    """Delay of a TA mode trained by gradient descent behind eq. (9) / App. A, in units of tau.

    Gradient descent with learning rate ``lr`` is the forward-Euler method, in steps
    ``dt = lr`` of ``t/tau``, for each layer's singular value ``a`` (``u = a^k``,
    ``k = N_l - 1``) of a balanced TA network: ``da/dt = f(a) = a^(k-1) (shat - a^k)``.
    To first order in ``lr`` Euler follows the *modified* flow
    ``da/dt = f - (lr/2) f' f``, which needs longer to reach ``a`` by
    ``(lr/2) int f'/f da``, i.e.

        delay(u) = (lr/2) ln[ g(u) / g(eps) ],    g(u) = u^(1 - 1/k) (shat - u).

    The delay grows while the mode accelerates and is largest where ``g`` peaks, at
    ``u* = shat (k - 1)/(2k - 1)`` (a third of ``shat`` for one hidden layer), which is
    what ``s=None`` returns. For one hidden layer, half way up (``u = shat/2``) it is
    ``lr ln(shat/eps)/4 - (3/4) lr ln 2``. The expansion needs ``lr |f'| << 1`` along the
    way, i.e. ``lr`` well below :func:`gendyn.train.stability_limit`; it is meaningless
    for a mode that does not grow (``shat <= eps``), for which 0 is returned.

    Parameters
    ----------
    s_hat : array_like
        Training singular values ``shat >= 0``.
    eps : float
        Initial composite singular value.
    lr : float
        Learning rate (``1/tau``); time is ``t/tau = epochs * lr``.
    n_layers : int
        Layers of units ``N_l >= 3``.
    s : array_like, optional
        Mode strengths (between ``eps`` and ``shat``) at which to evaluate the delay;
        default: its maximum over the trajectory.

    Returns
    -------
    ndarray or float
        The delay ``>= 0`` in units of ``tau``, broadcast over ``s_hat`` (and ``s``).
    """
    k = _check_depth(n_layers)
    eps, lr = _checks.positive(eps, "eps"), _checks.positive(lr, "lr")
    shat = _check_array(s_hat, "s_hat (training singular values)")
    if s is None:
        u = shat * (k - 1) / (2 * k - 1)
    else:
        u = _check_array(s, "s (mode strengths)")
    shat, u = np.broadcast_arrays(shat, u)
    grows = (shat > eps) & (u > eps) & (u < shat)
    out = np.zeros(shat.shape)
    sg, ug = shat[grows], u[grows]
    out[grows] = 0.5 * lr * ((1 - 1 / k) * (np.log(ug) - np.log(eps)) + np.log(sg - ug) - np.log(sg - eps))
    return _scalar_or_array(np.maximum(out, 0.0))


def gd_lag_accuracy(s_hat: ArrayLike, lr: float, n_layers: int = 3) -> np.ndarray:
    """The expansion parameter of :func:`gd_lag`: ``lr`` times the largest ``|f'|`` on a mode's way up.

    :func:`gd_lag` keeps the first order in ``lr`` of Euler's modified flow; the next order is
    smaller by a factor of order ``lr |f'|``. With ``f(a) = a^(k-1) (shat - a^k)`` and ``u = a^k``,

        f'(u) = (k - 1) u^(1 - 2/k) (shat - u) - k u^(2 - 2/k),

    whose first term is below ``(k - 1) shat^(2 - 2/k)``, so ``max |f'| = k shat^(2 - 2/k)``,
    reached at convergence (``u = shat``). This is the top Hessian eigenvalue there: gradient
    descent is unstable above 2 (:func:`gendyn.train.stability_limit`), and the delay is a fair
    estimate only well below 1.

    Parameters
    ----------
    s_hat : array_like
        Training singular values ``shat >= 0``.
    lr : float
        Learning rate (``1/tau``).
    n_layers : int
        Layers of units ``N_l >= 3``.

    Returns
    -------
    ndarray or float
        ``lr k shat^(2 - 2/k)``, broadcast over ``s_hat``.
    """
    k = _check_depth(n_layers)
    lr = _checks.positive(lr, "lr")
    shat = _check_array(s_hat, "s_hat (training singular values)")
    return _scalar_or_array(lr * k * shat ** (2 - 2 / k))


def sampled_ta_errors(t: ArrayLike, sigma31: ArrayLike, teacher: ArrayLike, student: TaStudent | None = None,
                      *args: object, delay: ArrayLike | None = None, per_mode: bool = False,
                      **flat: object) -> tuple[np.ndarray, np.ndarray]:
    """Exact train and test errors of TA students on *sampled* training data, eqs. (6)-(7).

    The finite-size counterpart of :func:`theory_errors`: instead of the random-matrix
    limit (eqs. 11-13) it uses the actual SVD ``Sigma31 = sum_b shat_b uhat_b vhat_b^T`` of
    each data set. A rank-``N2`` TA student has ``W(t) = sum_{b <= N2} s(t, shat_b) uhat_b
    vhat_b^T`` (eq. 10), so with ``c_b = uhat_b . Wbar vhat_b``

        train(t) = [sum_{b <= N2} (s_b - shat_b)^2 + sum_{b > N2} shat_b^2] / sum_b shat_b^2,
        test(t)  = [sum_{b <= N2} (s_b^2 - 2 s_b c_b) + ||Wbar||^2] / ||Wbar||^2.

    Nothing is approximated but the gradient flow (eq. 9 / App. A), so a TA network trained
    by gradient descent on the same data must follow these curves up to the discretisation
    delay of :func:`gd_lag`.

    Parameters
    ----------
    t : array_like, shape (T,)
        Times in units of ``tau``.
    sigma31, teacher : array_like, shape (B, N3, N1)
        Training covariances and the noise-free teachers ``Wbar`` (numpy or torch).
    student : TaStudent
        Its ``eps``, ``tau`` and ``n_layers`` (as in :func:`mode_strength`) and rank ``n2``
        (hidden width; default ``min(N1, N3)``); ``n1`` and ``n3``, if given, must be the data's.
    delay : array_like of shape (B, min(N1, N3)), optional
        Per-mode time shifts ``d_b`` (units of ``tau``, finite, broadcast): evaluate
        ``s(t - d_b, shat_b)`` (clipped at ``t = 0``; a negative shift is an advance), e.g.
        ``gd_lag(shat, eps, lr, n_layers)``.
    per_mode : bool
        Return each learned mode's term of the two sums instead, ``(s_b - shat_b)^2 / sum shat^2`` and
        ``(s_b^2 - 2 s_b c_b) / ||Wbar||^2``: the errors are these summed over ``b`` plus a constant of
        the data. (How much each mode moves under a delay, without the cancellations of the sum.)
    *args, **flat
        Deprecated: the former form ``sampled_ta_errors(t, sigma31, teacher, eps, n2=None, tau=1.0,
        n_layers=3, delay=None, per_mode=False)``, accepted for one more release with a
        ``DeprecationWarning`` (the same results).

    Returns
    -------
    train, test : ndarray, shape (B, T), or (B, T, n2) with ``per_mode``
    """
    if _is_former(student, args, flat):
        old = _former("sampled_ta_errors", ("eps", "n2", "tau", "n_layers", "delay", "per_mode"), student, args,
                      flat, defaults={"delay": delay, "per_mode": per_mode},
                      new_form=lambda v: f"sampled_ta_errors(t, sigma31, teacher, {_show_student(v)}, "
                                         f"delay=..., per_mode={v['per_mode']!r})")
        return sampled_ta_errors(t, sigma31, teacher, old["student"], delay=old["delay"], per_mode=old["per_mode"])
    student = _student(student, "sampled_ta_errors")
    eps, tau, k = student.eps, student.tau, student.n_layers - 1
    s31, wbar = _check_data(sigma31, "sigma31"), _check_data(teacher, "teacher")
    if wbar.shape != s31.shape:
        raise ValueError(f"sigma31 and teacher must both have shape (B, N3, N1); got {s31.shape} and {wbar.shape}")
    # the errors are normalised by ||Sigma31||^2 and ||Wbar||^2
    for name, x in (("sigma31", s31), ("teacher", wbar)):
        if np.any(~np.any(x != 0, axis=(-2, -1))):
            raise ValueError(f"{name} is zero for some data set: its normalised error is undefined")
    t = _check_times(t)
    per_mode = _checks.flag(per_mode, "per_mode")
    _data_sizes(student, s31.shape)
    m = min(s31.shape[1:])
    n2 = m if student.n2 is None else student.n2
    if n2 > m:
        raise ValueError(f"the student rank n2 must be <= min(N1, N3) = {m}; got {n2}")
    if delay is not None:
        d = _checks.real_array(delay, "delay")
        try:
            d = np.broadcast_to(d, (s31.shape[0], m))[:, None, :n2]
        except ValueError:
            raise ValueError(f"delay must broadcast to (B, min(N1, N3)) = {(s31.shape[0], m)}; "
                             f"got shape {d.shape}") from None
    u, shat, vt = np.linalg.svd(s31, full_matrices=False)
    c = np.einsum("bia,bij,baj->ba", u, wbar, vt)  # uhat_b . Wbar vhat_b
    times = np.broadcast_to(t[None, :, None], (s31.shape[0], t.size, n2))
    if delay is not None:
        times = np.maximum(times - d, 0.0)
    s = mode_strength(times, shat[:, None, :n2], eps, tau, k + 1)
    total = (shat**2).sum(-1)
    norm = (wbar**2).sum((-2, -1))
    if per_mode:
        return ((s - shat[:, None, :n2]) ** 2 / total[:, None, None],
                (s**2 - 2 * s * c[:, None, :n2]) / norm[:, None, None])
    train = (((s - shat[:, None, :n2]) ** 2).sum(-1) + (shat[:, n2:] ** 2).sum(-1)[:, None]) / total[:, None]
    test = ((s**2 - 2 * s * c[:, None, :n2]).sum(-1) + norm[:, None]) / norm[:, None]
    return train, test


def delayed_ta_errors(t: ArrayLike, sigma31: ArrayLike, teacher: ArrayLike, eps: float, lr: float,
                      n2: int | None = None, n_layers: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Exact train and test errors of TA students trained by gradient descent on *sampled* data.

    :func:`sampled_ta_errors` with every mode ``b`` delayed by its forward-Euler lag
    ``gd_lag(shat_b, eps, lr, n_layers)`` (:func:`gd_lag`, its maximum over the trajectory): the
    expectation of TA networks trained at learning rate ``lr`` on these data sets, to first order in ``lr``.

    Parameters
    ----------
    t : array_like, shape (T,)
        Times in units of ``tau``.
    sigma31, teacher : array_like, shape (B, N3, N1)
        Training covariances and the noise-free teachers ``Wbar`` (numpy or torch).
    eps, n_layers
        As in :func:`mode_strength`.
    lr : float
        The learning rate of gradient descent (``1/tau``).
    n2 : int, optional
        Student rank (hidden width); default ``min(N1, N3)``.

    Returns
    -------
    train, test : ndarray, shape (B, T)
    """
    s31 = _check_data(sigma31, "sigma31")
    delay = gd_lag(np.linalg.svd(s31, compute_uv=False), eps, lr, n_layers)
    return sampled_ta_errors(t, s31, teacher, TaStudent(eps=eps, n2=n2, n_layers=n_layers), delay=delay)


def linear_test_error(w: ArrayLike, teacher: ArrayLike) -> np.ndarray:
    """Test error of linear maps against their teachers, eq. (5): ``||W - Wbar||_F^2 / ||Wbar||_F^2``.

    The exact average over Gaussian test inputs ``x ~ N(0, I)`` of ``||W x - Wbar x||^2 / ||Wbar x||^2``
    (Lampinen & Ganguli 2019, §2.1), for any linear map ``W``: a converged student (App. G) or an
    estimator built from the data, such as the shrinkage estimator (§3.7).

    Parameters
    ----------
    w, teacher : array_like, shape (B, N3, N1)
        The maps and their noise-free teachers ``Wbar`` (numpy or torch; no teacher all zero).

    Returns
    -------
    ndarray, shape (B,)
    """
    m, wbar = _check_data(w, "w"), _check_data(teacher, "teacher")
    if m.shape != wbar.shape:
        raise ValueError(f"w and teacher must both have shape (B, N3, N1); got {m.shape} and {wbar.shape}")
    norm = (wbar**2).sum((-2, -1))
    if np.any(norm == 0):
        raise ValueError("teacher is zero for some map: its normalised test error is undefined")
    return ((m - wbar) ** 2).sum((-2, -1)) / norm


# ----------------------------------------------------------------------------------------
# Marchenko-Pastur averages over the learned noise modes (reused by transfer, App. G, §3.6)
# ----------------------------------------------------------------------------------------


class NoiseAverages(NamedTuple):
    """Conditional MP averages returned by :func:`noise_mode_averages`."""

    learned_sq: np.ndarray  # <s(shat, t)^2>_in, shape of t
    residual_sq: np.ndarray  # <(s(shat, t) - shat)^2>_in, shape of t
    data_sq_in: float  # <shat^2>_in
    data_sq_out: float  # <shat^2>_out (0 when fraction = 1)


def noise_mode_averages(t: ArrayLike, aspect: float, eps: float, tau: float = 1.0, n_layers: int = 3,
                        fraction: float = 1.0, scale: float = 1.0) -> NoiseAverages:
    """MP averages over the noise modes a TA student learns: the bulk terms of eqs. (14)-(15).

    The noise singular values of the data follow the Marchenko-Pastur law (13) of aspect
    ``A``, stretched by ``scale`` (``shat = scale * x``: noise entries of variance
    ``scale^2/N1``, e.g. the randomised data of §3.6). A rank-``N2`` student learns the top
    ``fraction`` of them (``R_in``; ``fraction = (N2 - Nbar2)/(N3 - Nbar2)`` as in
    :func:`theory_errors`) and leaves the rest (``R_out``).

    Parameters
    ----------
    t : array_like
        Training times ``>= 0`` (finite), in units of ``tau``.
    aspect : float
        Aspect ratio ``A`` in ``(0, 1]``.
    eps, tau, n_layers
        As in :func:`mode_strength`.
    fraction : float
        Share of the MP mass (from the top) in ``R_in``, in ``(0, 1]``.
    scale : float
        Stretch ``> 0`` of the MP law.

    Returns
    -------
    NoiseAverages
        ``learned_sq = <s(shat, t)^2>_in`` and ``residual_sq = <(s(shat, t) - shat)^2>_in``
        (shape of ``t``), ``data_sq_in = <shat^2>_in`` and ``data_sq_out = <shat^2>_out``.
        In :func:`theory_errors` the test error's bulk term is ``(N2 - Nbar2) learned_sq``
        and the train error's ``(N2 - Nbar2) residual_sq + (N3 - N2) data_sq_out``.

    Notes
    -----
    A stretched mode obeys ``s(t; c x, eps) = c s(c^p t; x, eps/c)`` with ``p = 2 - 2/k``,
    ``k = N_l - 1`` (substitute ``u = c w`` in the ODE of App. A), so the averages are those
    of the unit law at time ``c^p t`` and initial value ``eps/c``, times ``c^2``; they use
    the same graded quadrature as :func:`theory_errors`.
    """
    k = _check_depth(n_layers)
    eps, tau = _checks.positive(eps, "eps"), _checks.positive(tau, "tau")
    c = _checks.positive(scale, "scale")
    a = rmt._scalar_aspect(aspect)
    fraction = _checks.bounded(fraction, "fraction (share of the MP mass learned)", 0.0, 1.0, open_lower=True)
    t = _check_array(t, "t (training times)")
    shape = t.shape
    p = 2.0 - 2.0 / k
    tt, e = t.ravel() * c**p, eps / c
    theta_f = _split_angle(float(fraction), a)
    s_in, w_in = _mp_rule(theta_f, np.pi, a)
    data_in = float((w_in * s_in**2).sum() / w_in.sum())
    data_out = 0.0
    if theta_f > 0:
        s_out, w_out = _mp_rule(0.0, theta_f, a)
        data_out = float((w_out * s_out**2).sum() / w_out.sum())
    learned, residual = np.empty(tt.size), np.empty(tt.size)
    for start in range(0, tt.size, _CHUNK):
        sl = slice(start, start + _CHUNK)
        s_q, w_q = _in_region_rule(tt[sl], theta_f, a, e, tau, k)
        mass = w_q.sum(axis=1)
        s_t = mode_strength(tt[sl, None], s_q, e, tau, n_layers)
        learned[sl] = (w_q * s_t**2).sum(axis=1) / mass
        residual[sl] = (w_q * (s_t - s_q) ** 2).sum(axis=1) / mass
    return NoiseAverages(c**2 * learned.reshape(shape), c**2 * residual.reshape(shape), c**2 * data_in,
                         c**2 * data_out)


# ----------------------------------------------------------------------------------------
# the detection wave and the band of gradient descent around the flow (§3.1, App. A)
# ----------------------------------------------------------------------------------------


def half_learning_time(s_hat: ArrayLike, eps: float, n_layers: int = 3, lr: float | None = None) -> np.ndarray:
    """Time ``t(shat/2, shat)`` at which a TA mode is half learned: the detection front (§3.1, Fig. 1).

    Eq. (9) (``N_l = 3``) or the closed form of (A.1) inverted at half height (:func:`mode_time`);
    at a time ``t`` the modes with ``t(shat/2, shat) < t`` are more than half learned, so the
    front ``shat*(t)`` of the singular-mode detection wave solves ``t(shat*/2, shat*) = t``. With
    ``lr`` the first-order delay of gradient descent at half height (:func:`gd_lag` at
    ``s = shat/2``) is added.

    Parameters
    ----------
    s_hat : array_like
        Training singular values ``shat > eps``.
    eps : float
        Initial composite singular value.
    n_layers : int
        Layers of units ``N_l >= 3``.
    lr : float, optional
        Learning rate of gradient descent (``1/tau``); default: gradient flow (no delay).

    Returns
    -------
    ndarray or float
        The half-learning time in units of ``tau``, broadcast over ``s_hat``.
    """
    eps = _checks.positive(eps, "eps")
    shat = _check_array(s_hat, "s_hat (training singular values)")
    if np.any(shat <= eps):
        raise ValueError(f"s_hat must be > eps = {eps:g} (a mode that grows) for a half-learning time; "
                         f"got smallest {float(np.min(shat)):g}")
    half = mode_time(shat / 2, shat, eps, n_layers=n_layers)
    if lr is None:
        return half
    return half + gd_lag(shat, eps, lr, n_layers, s=shat / 2)


class GdBand(NamedTuple):
    """Where gradient descent may lie around the flow (9) / (A.1), per record and mode (:func:`gd_band`);
    ``below`` and ``above`` are to first order in ``lr``, times ``1 + accuracy``."""

    flow: np.ndarray  #: ``s(t, shat)`` of the gradient flow (:func:`mode_strength`), shape (T, M)
    below: np.ndarray  #: how far below ``flow`` gradient descent may lie, shape (T, M)
    above: np.ndarray  #: how far above ``flow`` gradient descent may lie, shape (T, M)
    lag: np.ndarray  #: each mode's largest first-order delay (:func:`gd_lag`), shape (M,)
    speedup: np.ndarray  #: ``-ln(1 - rho_b)/rho_b``, gradient descent's rate near convergence over the flow's, (M,)
    accuracy: float  #: ``lr max|f'|`` over the modes (:func:`gd_lag_accuracy`), ``< 1``


def gd_band(t: ArrayLike, s_hat: ArrayLike, eps: float, lr: float, n_layers: int = 3) -> GdBand:
    """The band around eq. (9) / (A.1) in which gradient descent at learning rate ``lr`` stays (App. A).

    Gradient descent is the forward-Euler method for (A.1) in steps ``lr`` of ``t/tau``. Below the
    flow it may lie by what delaying each mode by its largest first-order delay ``lag``
    (:func:`gd_lag`) changes at each time; above it by what advancing it as much *and* running it
    ``speedup = -ln(1 - rho_b)/rho_b`` times faster changes (``rho_b = lr |f'|`` at the mode's own
    convergence: gradient descent closes a mode's last gap at the rate ``-ln(1 - lr|f'|)/lr``).
    Both sides are multiplied by ``1 + rho``, ``rho = lr max|f'|`` (:func:`gd_lag_accuracy`), for
    the expansion's next order.

    Parameters
    ----------
    t : array_like, shape (T,)
        Times ``t/tau >= 0``.
    s_hat : array_like, shape (M,)
        Training singular values ``shat > eps``.
    eps : float
        Initial composite singular value.
    lr : float
        Learning rate; ``lr max|f'|`` must be below 1 (else the first-order delay means nothing).
    n_layers : int
        Layers of units ``N_l >= 3``.

    Returns
    -------
    GdBand
    """
    t = _check_times(t)
    eps = _checks.positive(eps, "eps")
    shat = _checks.real_array(s_hat, "s_hat (training singular values)", lower=eps, open_lower=True, ndim=1,
                              extra=" (modes that grow from eps)")
    if shat.size == 0:
        raise ValueError("s_hat must hold at least one training singular value")
    rho_b = np.asarray(gd_lag_accuracy(shat, lr, n_layers))
    rho = float(np.max(rho_b))
    if rho >= 1:
        raise ValueError(f"lr = {lr:g} at n_layers = {n_layers} gives lr max|f'| = {rho:.2f} >= 1: the first-order "
                         "delay of gradient descent does not apply; use a smaller lr")
    lag = np.asarray(gd_lag(shat, eps, lr, n_layers))
    faster = -np.log1p(-rho_b) / rho_b
    tt = t[:, None]
    flow = mode_strength(tt, shat, eps, n_layers=n_layers)
    late = mode_strength(np.maximum(tt - lag, 0.0), shat, eps, n_layers=n_layers)
    early = mode_strength(faster * tt + lag, shat, eps, n_layers=n_layers)
    return GdBand(flow, (1 + rho) * np.abs(flow - late), (1 + rho) * np.abs(early - flow), lag, faster, rho)


__all__ += ["teacher_learned_time"]


def teacher_learned_time(teacher_svals: ArrayLike, aspect: float, eps: float, n_layers: int = 3) -> float:
    """When a TA student has learned a teacher: its weakest detectable mode reaches ``sbar O(sbar)`` (App. A).

    A TA mode grows from ``eps`` towards its data singular value ``shat(sbar)`` (eq. 11, :func:`mode_time`);
    its own term of eq. (15) is smallest where it passes ``sbar O(sbar)`` (eq. 12's overlap): for a deep
    TA student, whose modes rise in near steps, the weakest teacher mode's passage there is the optimal
    stopping time of the teacher's part of the error. Known from the sizes alone, before any run.

    Parameters
    ----------
    teacher_svals : array_like
        Teacher singular values ``sbar >= 0`` (at least one).
    aspect : float
        Aspect ratio ``A = N3/N1`` in ``(0, 1]``.
    eps : float
        Composite initial singular value, ``> 0`` and below the weakest detectable mode's ``sbar O(sbar)``.
    n_layers : int
        Layers of units ``N_l >= 3``.

    Returns
    -------
    float
        The time in units of ``tau``; ``inf`` if no mode is above the detection threshold ``A^(1/4)``.
    """
    sb = _checks.real_array(teacher_svals, "teacher_svals", lower=0.0, extra=" (teacher singular values)").ravel()
    if sb.size == 0:
        raise ValueError("teacher_svals must hold at least one teacher singular value; got an empty array")
    aspect = _checks.bounded(aspect, "aspect", 0.0, 1.0, open_lower=True)
    up = sb[sb > rmt.detection_threshold(aspect)]
    if not up.size:
        return float("inf")
    weakest = up.min()
    return float(mode_time(weakest * rmt.spike_overlap(weakest, aspect), rmt.spike_singular_value(weakest, aspect),
                           eps, n_layers=n_layers))


# ----------------------------------------------------------------------------------------
# the spec of a TA student and its gradient flow, shared by the theory of deep_linear,
# transfer and randomised
# ----------------------------------------------------------------------------------------

__all__ += ["TaStudent"]


@dataclass(frozen=True, kw_only=True)
class TaStudent:
    """A training-aligned (TA) deep linear student and its gradient flow: what the theory needs to know of a run.

    Checked when made (a ``ValueError`` names the field and what is allowed); the relations of the sizes to
    the data or the teacher are checked by the function that uses it. Used by :func:`theory_errors`,
    :func:`optimal_early_stopping`, :func:`sampled_ta_errors`, the theory of :mod:`gendyn.transfer` and
    :func:`gendyn.randomised.randomised_train_error`, e.g.
    ``theory_errors(t, [3.0], TaStudent(n1=100, n2=50, n3=50, eps=1e-5))``.

    Attributes
    ----------
    eps : float
        Initial composite singular value of every mode, ``> 0`` (the paper: ``1e-5``).
    n1 : int or None
        Inputs ``N1`` (= training examples), ``>= 1``; ``None`` where the data give it (the functions of
        sampled data), required by the random-matrix theory.
    n2 : int or None
        Hidden units ``N2`` = the student's rank (App. H), ``>= 1`` and ``<= n3``; ``None``: full rank
        (``min(n1, n3)``, ``n3`` where ``n3 <= n1``).
    n3 : int or None
        Outputs ``N3`` (of a two-headed student of :mod:`gendyn.transfer`: both heads), ``>= 1``; ``None``
        where the data give it.
    tau : float
        Time constant of the gradient flow, ``> 0`` (``1/lr``); times are in its units.
    n_layers : int
        Layers of units ``N_l >= 3``, input and output included (3: one hidden layer).
    """

    eps: float
    n1: int | None = None
    n2: int | None = None
    n3: int | None = None
    tau: float = 1.0
    n_layers: int = 3

    def __post_init__(self):
        for name in ("n1", "n2", "n3"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _checks.integer(getattr(self, name), name))
        if self.n2 is not None and self.n3 is not None and self.n2 > self.n3:
            raise ValueError(f"the student rank n2 must satisfy n2 <= n3; got n2={self.n2}, n3={self.n3}")
        object.__setattr__(self, "eps", _checks.positive(self.eps, "eps"))
        object.__setattr__(self, "tau", _checks.positive(self.tau, "tau"))
        _check_depth(self.n_layers)
        object.__setattr__(self, "n_layers", int(self.n_layers))


def _needs(student, function, names=("n1", "n3")):
    """The sizes ``names`` of ``student``, each required (not ``None``) by ``function``."""
    missing = [n for n in names if getattr(student, n) is None]
    if missing:
        raise ValueError(f"{function} needs the student's {' and '.join(missing)}: pass "
                         f"student=TaStudent({', '.join(f'{n}=...' for n in missing)}, ...); got None")
    return tuple(getattr(student, n) for n in names)


def _student(student, function):
    """``student`` if it is a :class:`TaStudent`, else a ``ValueError`` naming the argument."""
    return _checks.instance(student, "student", TaStudent,
                            hint=f" (the TA student and its flow: {function}(..., TaStudent(eps=..., ...)))")


def _is_former(student, args, flat):
    """Whether a call uses the former flat form: values after the student's place, flat keywords, or a
    number in the student's place (the former first size or ``eps``)."""
    number = isinstance(student, numbers.Real) and not isinstance(student, (bool, np.bool_))
    # a 0-d numpy array or torch tensor was a valid former size or eps too
    scalar = (getattr(student, "ndim", None) == 0 and hasattr(student, "dtype")
              and str(student.dtype) not in ("bool", "torch.bool"))
    return bool(args) or bool(flat) or number or scalar


def _former(function, names, student, args, flat, *, defaults=None, new_form, build=None):
    """The values of a call in the former flat form, by their former names, with a ``DeprecationWarning``.

    ``names`` are the former parameters from the student's place on; ``student`` and ``args`` the
    values passed there, ``flat`` the keywords; ``defaults`` fill what was not passed. ``build`` makes
    the :class:`TaStudent` of the values (default :func:`_spec`), stored under ``"student"``; only a call
    whose values make one warns (``new_form``, a function of the values, writes the call in the new form).
    """
    if isinstance(student, TaStudent):
        extra = [f"{len(args)} more positional argument(s)"] if args else []
        raise ValueError(f"pass the student to {function} either as a TaStudent or (deprecated) as separate sizes "
                         f"and flow, not both; got student={student!r} and "
                         f"{', '.join(extra + sorted(flat))}")
    values = (student, *args) if (student is not None or args) else ()
    if len(values) > len(names):
        raise TypeError(f"{function}() takes at most {len(names)} arguments in its former form after the data "
                        f"({', '.join(names)}); got {len(values)}")
    given = dict(zip(names, values))
    unknown = sorted(set(flat) - set(names))
    if unknown:
        raise ValueError(f"unknown keyword(s) {unknown} of {function}; allowed: student, or formerly "
                         f"{', '.join(names)}")
    twice = sorted(set(given) & set(flat))
    if twice:
        raise TypeError(f"{function}() got multiple values for {', '.join(twice)}")
    given.update(flat)
    out = dict(defaults or {})
    out.update(given)
    out["student"] = (build or (lambda v: _spec(v, function)))(out)
    warnings.warn(f"{function}() with the student's sizes and flow ({', '.join(n for n in names if n in given)}) "
                  f"as separate arguments is deprecated and will be removed in the next release: pass "
                  f"{new_form(out)}", DeprecationWarning, stacklevel=3)
    return out


def _spec(values, function, **extra):
    """The :class:`TaStudent` of a former call's ``values`` (the fields among them), ``extra`` fields added.

    A bad value is reported under its former name, and as the former form of ``student``."""
    fields = {n: values[n] for n in ("eps", "n1", "n2", "n3", "tau", "n_layers") if n in values}
    fields.update(extra)
    if "eps" not in fields:
        raise TypeError(f"{function}() missing required argument 'eps' (the student's initial scale) in its former "
                        f"form; pass student=TaStudent(eps=..., ...)")
    try:
        return TaStudent(**fields)
    except ValueError as error:
        raise ValueError(f"{error} (the former form of {function}; pass student=TaStudent(...))") from None


def _show_student(fields, **extra):
    """``TaStudent(n1=100, ...)`` of the fields given, ``extra`` fields written as given (expressions)."""
    parts = []
    for n in ("n1", "n2", "n3", "eps", "tau", "n_layers"):
        if n in extra:
            parts.append(f"{n}={extra[n]}")
        elif n in fields:
            parts.append(f"{n}={fields[n]!r}")
    return "TaStudent(" + ", ".join(parts) + ")"


def _data_sizes(student, shape):
    """Refuse a student whose ``n1`` or ``n3`` (where given) are not those of data of ``shape`` ``(B, N3, N1)``."""
    for name, given, size in (("n3", student.n3, shape[-2]), ("n1", student.n1, shape[-1])):
        if given is not None and given != size:
            raise ValueError(f"student.{name} must be the data's {name.upper()} = {size} (or None); got {given}")
