"""Random-matrix theory of a low-rank signal buried in Gaussian noise.

The training data of Lampinen & Ganguli (2019, §3.2) is the input-output covariance
``Sigma31 = Wbar + Z`` of a rank-``r`` teacher ``Wbar`` (singular values ``sbar``)
plus an ``N3 x N1`` noise matrix ``Z`` with i.i.d. entries of variance ``1/N1``.
With the aspect ratio ``A = N3/N1`` in ``(0, 1]`` and ``N1 -> inf`` at fixed ``r``:

* the bulk singular values of ``Sigma31`` follow the Marchenko-Pastur law,
  eq. (13): :func:`mp_density`, supported on ``[1 - sqrt(A), 1 + sqrt(A)]``;
* a teacher mode with ``sbar > A**(1/4)`` (:func:`detection_threshold`) pops out
  of the bulk at ``shat(sbar)``, eq. (11): :func:`spike_singular_value`;
  :func:`spike_teacher_value` inverts it;
* its singular vectors overlap the teacher's by ``O(sbar)``, eq. (12):
  :func:`spike_overlap`; the left and right vectors separately by
  :func:`spike_vector_overlaps`;
* at finite size the top noise singular value fluctuates about the upper MP edge on the
  Tracy-Widom scale :func:`tracy_widom_scale` (law: :data:`TW1_MEAN`, :data:`TW1_SD`); in the
  eigenvalue form of the law (below) the extreme eigenvalues fluctuate on
  :func:`tracy_widom_lower_scale` and :func:`tracy_widom_upper_scale`.

The MP law in its two forms, and its one quadrature rule:

* the singular values of eq. (13) (aspect ``A = N3/N1 <= 1``, unit mass) in the angle
  ``theta`` of ``s = 1 - sqrt(A) cos(theta)``: :func:`mp_singular_value_measure`;
* the eigenvalues of ``X X^T`` for ``X`` of ``N x P`` entries ``N(0, 1/N)`` (load
  ``alpha = P/N > 0``, the continuous part of mass ``min(1, alpha)``; Advani & Saxe's eq. (6),
  :mod:`gendyn.linear_student`) in the angle of ``lam = 1 + alpha - 2 sqrt(alpha) cos(theta)``:
  :func:`mp_eigenvalue_measure`;
* :func:`mp_rule`: composite Gauss-Legendre quadrature of either, in ``theta``, where both are
  smooth at the edges; :func:`mp_cdf`, :func:`mp_quantile`, :mod:`gendyn.deep_linear` and
  :mod:`gendyn.linear_student` integrate the law with it.

All functions are pure numpy, vectorised, and broadcast their arguments.
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike

from . import _checks

__all__ = [
    "check_aspect",
    "check_singular_values",
    "mp_edges",
    "mp_density",
    "mp_cdf",
    "mp_quantile",
    "detection_threshold",
    "spike_singular_value",
    "spike_teacher_value",
    "spike_overlap",
    "spike_vector_overlaps",
    "tracy_widom_scale",
    "tracy_widom_lower_scale",
    "tracy_widom_upper_scale",
    "mp_singular_value_measure",
    "mp_eigenvalue_measure",
    "mp_rule",
    "TW1_MEAN",
    "TW1_SD",
]

#: Mean and standard deviation of the Tracy-Widom law of real matrices (beta = 1), to the precision the
#: book's claims use: an extreme eigenvalue sits on average ``-TW1_MEAN`` sigma_N inside its MP edge (towards
#: the bulk) and fluctuates by TW1_SD sigma_N, sigma_N its Tracy-Widom scale (e.g. :func:`tracy_widom_scale`).
TW1_MEAN, TW1_SD = -1.21, 1.27

#: How the messages name an aspect ratio.
_ASPECT = "aspect (the aspect ratio A = N3/N1)"


def check_aspect(aspect: ArrayLike) -> np.ndarray:
    """Return ``aspect`` as a float array, or raise if any value is outside (0, 1].

    The aspect ratio is ``A = N3/N1`` (outputs over inputs); the theory needs
    ``0 < A <= 1``. Arrays of any shape are checked elementwise.
    """
    return _checks.real_array(aspect, _ASPECT, lower=0.0, upper=1.0, open_lower=True)


def _scalar_aspect(aspect):
    """One aspect ratio in (0, 1] as a float (functions that build a grid for it)."""
    return _checks.bounded(aspect, _ASPECT, 0.0, 1.0, open_lower=True)


def check_singular_values(svals: ArrayLike, name: str = "teacher_svals", *, vector: bool = False) -> np.ndarray:
    """Return singular values as a float array of at least one dimension, or raise.

    Every value must be finite and ``>= 0``. With ``vector=True`` the input must be one
    non-empty list of values (1-d; a scalar counts as one value); otherwise leading
    dimensions are a batch of teachers and the values run along the last axis.
    ``name`` is the argument the messages name.
    """
    name = _checks.text(name, "name")
    vector = _checks.flag(vector, "vector")
    s = np.atleast_1d(_checks.real_array(svals, name, lower=0.0))
    if vector and (s.ndim != 1 or s.size == 0):
        raise ValueError(f"{name} must be a non-empty 1-d array of singular values; got shape {s.shape}")
    return s


def _check_nonnegative(x, name):
    """Finite singular values ``>= 0`` as a float array (any shape)."""
    return _checks.real_array(x, name, lower=0.0)


def mp_edges(aspect: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Edges ``(1 - sqrt(A), 1 + sqrt(A))`` of the Marchenko-Pastur singular-value law."""
    root = np.sqrt(check_aspect(aspect))
    return 1.0 - root, 1.0 + root


def mp_density(s: ArrayLike, aspect: ArrayLike) -> np.ndarray:
    """Marchenko-Pastur density of the noise singular values, eq. (13).

    Parameters
    ----------
    s : array_like
        Singular values at which to evaluate the density (any real numbers, ``inf``
        included: the density is 0 off the support).
    aspect : array_like
        Aspect ratio ``A = N3/N1`` in ``(0, 1]``; broadcast against ``s``.

    Returns
    -------
    ndarray
        ``P(s) = sqrt(4A - (s^2 - (1 + A))^2) / (pi A s)`` inside
        ``[1 - sqrt(A), 1 + sqrt(A)]`` and 0 outside. It integrates to 1 over ``s``.

    Notes
    -----
    At ``A = 1`` the density tends to ``2/pi * sqrt(1 - s^2/4)`` (finite) as
    ``s -> 0``; the formula is evaluated in a form that stays finite there.
    """
    a = check_aspect(aspect)
    s = _checks.real_array(s, "s", allow_inf=True)
    s, a = np.broadcast_arrays(s, a)
    lo, hi = 1.0 - np.sqrt(a), 1.0 + np.sqrt(a)
    inside = (s > lo) & (s < hi)
    # 4A - (s^2 - 1 - A)^2 = (s^2 - lo^2)(hi^2 - s^2) = (s - lo)(s + lo)(hi^2 - s^2):
    # the factored form avoids cancellation near the edges and the 0/0 at s = 0, A = 1.
    s_in = np.where(inside, s, 1.0)
    lo_in = np.where(inside, lo, 0.0)
    num = (s_in - lo_in) * (s_in + lo_in) * (hi**2 - s_in**2)
    dens = np.sqrt(np.clip(num, 0.0, None)) / (np.pi * a * s_in)
    return np.where(inside, dens, 0.0)


# ----------------------------------------------------------------------------------------
# the MP law in the angle theta, and its one quadrature rule
# ----------------------------------------------------------------------------------------


def _check_angles(theta, name="theta"):
    return _checks.real_array(theta, name, lower=0.0, upper=np.pi, extra=" (an angle of the MP support)")


def _singular_measure(theta, root):
    """:func:`mp_singular_value_measure` for checked ``theta`` and ``root = sqrt(A)``."""
    lo, hi = 1.0 - root, 1.0 + root
    s = lo + 2.0 * root * np.sin(0.5 * theta) ** 2  # = 1 - root cos(theta), accurate at theta = 0
    safe = np.where(s > 0, s, 1.0)  # s = 0 only at theta = 0 for A = 1, where the weight is 0
    return s, np.where(s > 0, np.sin(theta) ** 2 * np.sqrt((s + lo) * (s + hi)) / (np.pi * safe), 0.0)


def _eigenvalue_measure(theta, h, lam_minus):
    """:func:`mp_eigenvalue_measure` for checked ``theta``, ``h = 2 sqrt(alpha)`` and ``lam_minus``."""
    sn, cs = np.sin(0.5 * theta), np.cos(0.5 * theta)
    lam = lam_minus + 2.0 * h * sn**2
    # sin^2(theta)/lam = 4 cs^2 / (lam_minus/sn^2 + 2h): no 0/0 at alpha = 1 when sn^2 underflows
    with np.errstate(over="ignore", divide="ignore"):
        r2 = (np.sqrt(lam_minus) / sn) ** 2  # inf deep inside the gap: weight 0
        return lam, 2.0 * h**2 * cs**2 / (np.pi * (r2 + 2.0 * h))


def _load_parameters(alpha):
    """``(h, lambda_-) = (2 sqrt(alpha), (1 - sqrt(alpha))^2)``, ``lambda_-`` free of cancellation."""
    root = np.sqrt(alpha)
    return 2.0 * root, ((1.0 - alpha) / (1.0 + root)) ** 2


def mp_singular_value_measure(theta: ArrayLike, aspect: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The MP law of the noise singular values, eq. (13), in the angle ``theta`` of its support.

    Parameters
    ----------
    theta : array_like
        Angles in ``[0, pi]``.
    aspect : array_like
        Aspect ratio ``A = N3/N1`` in ``(0, 1]``; broadcast against ``theta``.

    Returns
    -------
    s, weight : ndarray
        The singular value ``s = 1 - sqrt(A) cos(theta)`` (``theta = 0``: the lower edge
        ``1 - sqrt(A)``; ``pi``: the upper edge) and the density times the Jacobian,
        ``weight = P(s) ds/dtheta``, so that ``int f(s) P(s) ds = int_0^pi f(s) weight dtheta``.

    Notes
    -----
    Since ``(s - lo)(hi - s) = A sin^2(theta)``, eq. (13) of Lampinen & Ganguli (2019) times
    ``ds/dtheta = sqrt(A) sin(theta)`` is ``sin^2(theta) sqrt((s + lo)(s + hi)) / (pi s)``:
    smooth in ``theta`` (the square-root edges are gone), with no ``1/A`` and no cancellation
    however small ``A`` is (it tends to ``2 sin^2(theta)/pi``, the semicircle law of
    ``(s - 1)/sqrt(A)``). :func:`mp_rule` integrates it.

    References
    ----------
    Lampinen & Ganguli (2019), eq. (13).
    """
    a = check_aspect(aspect)
    theta = _check_angles(theta)
    return _singular_measure(theta, np.sqrt(a))


def mp_eigenvalue_measure(theta: ArrayLike, alpha: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The continuous MP law of the eigenvalues of ``X X^T`` (load ``alpha``) in the angle ``theta``.

    The eigenvalue form of the law (the variance form, ``X`` of ``N x P`` entries
    ``N(0, 1/N)``, load ``alpha = P/N > 0``; :mod:`gendyn.linear_student`): its continuous
    part ``rho_c(lam) = sqrt((lam_+ - lam)(lam - lam_-)) / (2 pi lam)`` on
    ``lam_pm = (1 pm sqrt(alpha))^2``, of mass ``min(1, alpha)``.

    Parameters
    ----------
    theta : array_like
        Angles in ``[0, pi]``.
    alpha : array_like
        Load ``alpha > 0``; broadcast against ``theta``.

    Returns
    -------
    lam, weight : ndarray
        The eigenvalue ``lam = lam_- + 4 sqrt(alpha) sin^2(theta/2)`` (``= 1 + alpha - 2 sqrt(alpha)
        cos(theta)``) and ``weight = rho_c(lam) dlam/dtheta = 2 alpha sin^2(theta) / (pi lam)``,
        so that ``int f rho_c dlam = int_0^pi f(lam) weight dtheta``.

    Notes
    -----
    For ``alpha <= 1`` this is ``alpha`` times the singular-value law of
    :func:`mp_singular_value_measure` with ``A = alpha``, carried to ``lam = s^2``, but in another
    angle (``lam``, not ``s``, is linear in ``cos(theta)``). The weight is evaluated as
    ``2h^2 cos^2(theta/2) / (pi (lam_-/sin^2(theta/2) + 2h))``, ``h = 2 sqrt(alpha)``: finite at
    ``alpha = 1`` where ``lam_- = 0``.

    References
    ----------
    Advani, Saxe & Sompolinsky (2020), eq. (6) (the MP law of the slides, ``rho^MP``).
    """
    a = _check_load(alpha)
    theta = _check_angles(theta)
    return _eigenvalue_measure(theta, *_load_parameters(a))


#: Largest panel end in ln(theta), with room for ln(pi) rounded either way (math.log or np.log).
_LOG_PI = float(np.log(np.pi)) + 1e-12


@functools.lru_cache(maxsize=None)
def _legendre(order):
    """Gauss-Legendre nodes and weights on ``[-1, 1]`` (read-only, one table per order)."""
    x, w = np.polynomial.legendre.leggauss(order)
    x.flags.writeable = w.flags.writeable = False
    return x, w


def _angle_nodes(centre, half, order, log):
    """Composite Gauss-Legendre nodes ``theta`` and weights ``dtheta`` of panels ``centre +- half``
    (shape ``(..., P, 1)``; in ``ln(theta)`` if ``log``), flattened to ``(..., P * order)``."""
    x, w = _legendre(order)
    nodes = centre + half * x
    shape = nodes.shape[:-2] + (-1,)
    if log:  # panels in u = ln(theta): dtheta = theta du
        theta = np.exp(nodes)
        return theta.reshape(shape), (theta * half * w).reshape(shape)
    return nodes.reshape(shape), (half * w).reshape(shape)


def _panels(breaks):
    """Centres and half-widths ``(..., P, 1)`` of the panels between sorted ``breaks`` ``(..., P + 1)``."""
    a, b = breaks[..., :-1, None], breaks[..., 1:, None]
    return 0.5 * (a + b), 0.5 * (b - a)


def _rule(centre, half, order, log, root=None, load=None):
    """:func:`mp_rule` for checked panels ``centre +- half`` (:func:`_panels`): ``root = sqrt(A)``
    (singular values) or ``load = (h, lambda_-)`` (eigenvalues), of the batch shape or scalar."""
    theta, dtheta = _angle_nodes(centre, half, order, log)
    if root is not None:
        values, weight = _singular_measure(theta, np.asarray(root)[..., None])
    else:
        h, lam_minus = load
        values, weight = _eigenvalue_measure(theta, np.asarray(h)[..., None], np.asarray(lam_minus)[..., None])
    return values, dtheta * weight


def mp_rule(breaks: ArrayLike, *, aspect: ArrayLike | None = None, alpha: ArrayLike | None = None, order: int = 16,
            log: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Quadrature rule of the Marchenko-Pastur law: composite Gauss-Legendre in its angle.

    The one quadrature of the MP law in the library, in either form: the singular values of
    eq. (13) (``aspect``, :func:`mp_singular_value_measure`) or the eigenvalues of ``X X^T``
    (``alpha``, :func:`mp_eigenvalue_measure`).

    Parameters
    ----------
    breaks : array_like, shape (..., P + 1)
        Ends of ``P >= 1`` panels, ascending along the last axis, in the angle ``theta``
        (``[0, pi]``), or in ``ln(theta)`` (``(-inf, ln(pi)]``) if ``log``; leading axes are a
        batch of rules.
    aspect : array_like, optional
        Aspect ratio ``A`` in ``(0, 1]`` (singular-value form), one or one per rule of the
        batch.
    alpha : array_like, optional
        Load ``alpha > 0`` (eigenvalue form; the continuous part of the law), one or one per
        rule. Exactly one of ``aspect`` and ``alpha`` is given.
    order : int
        Gauss-Legendre nodes per panel.
    log : bool
        The panels are intervals of ``ln(theta)`` (``dtheta = theta d ln(theta)``): fine
        panels at small angles, near the lower edge, at no cost elsewhere.

    Returns
    -------
    values, weights : ndarray, shape (..., P * order)
        Singular values (or eigenvalues) at the nodes and weights such that
        ``sum(weights * f(values), -1)`` approximates the integral of ``f`` against the law
        over the panels: the mass ``1`` (``min(1, alpha)``) over the whole support
        ``[0, pi]``.

    Notes
    -----
    In ``theta`` the law times the Jacobian is smooth at both edges (the square-root edges of
    the density are removed), so a Gauss-Legendre rule on panels converges fast; the panels
    are the caller's: graded toward an edge, toward a learning front, or uniform in
    ``ln(theta)``.

    References
    ----------
    Lampinen & Ganguli (2019), eq. (13); Advani, Saxe & Sompolinsky (2020), eq. (6).
    """
    order = _checks.integer(order, "order")
    log = _checks.flag(log, "log")
    if (aspect is None) == (alpha is None):
        raise ValueError("give exactly one of aspect (singular values, eq. 13) and alpha (eigenvalues of X X^T); "
                         f"got aspect={aspect!r}, alpha={alpha!r}")
    upper = _LOG_PI if log else np.pi
    breaks = _checks.real_array(breaks, "breaks", lower=None if log else 0.0, upper=upper,
                                extra=" (panel ends in ln(theta): log=True)" if log else " (panel ends in theta: log=False)")
    if breaks.ndim < 1 or breaks.shape[-1] < 2 or np.any(np.diff(breaks, axis=-1) < 0):
        raise ValueError(f"breaks must be ascending panel ends along the last axis, at least two; got "
                         f"{_checks._show(breaks)}")
    batch = breaks.shape[:-1]
    # the Gauss-Legendre table (an eigenproblem of size order) and ~10 arrays of the nodes
    _checks.work_limit(float(order) ** 3 + 50.0 * breaks.size * order, f"order={order} with {breaks.size} breaks",
                       memory=8.0 * order**2 + 80.0 * breaks.size * order)
    if aspect is not None:
        root = np.sqrt(check_aspect(aspect))
        _check_batch(root, batch, "aspect")
        return _rule(*_panels(breaks), order, log, root=root)
    a = _check_load(alpha)
    _check_batch(a, batch, "alpha")
    return _rule(*_panels(breaks), order, log, load=_load_parameters(a))


def _check_batch(param, batch, name):
    """A parameter of :func:`mp_rule`: one value, or one per rule of the batch."""
    try:
        if np.broadcast_shapes(np.shape(param), batch) != batch:
            raise ValueError
    except ValueError:
        raise ValueError(f"{name} must be one value or one per rule (shape {batch}); got shape {np.shape(param)}") \
            from None


# Composite 16-point Gauss-Legendre rule in the angle theta of s = 1 - sqrt(A) cos(theta): 32 equal
# panels, graded geometrically toward theta = 0, where the density of an aspect close to 1
# varies on the scale ~ sqrt(1 - A) (the lower edge 1 - sqrt(A) approaches 0).
_BREAKS = np.unique(np.concatenate([np.linspace(0.0, np.pi, 33), np.pi / 32 * 2.0 ** -np.arange(1, 48)]))


def _gl_integral(a, b, root):
    """MP mass between the angles ``a`` and ``b`` (elementwise arrays), one 16-point panel each."""
    return _rule(*_panels(np.stack([a, b], axis=-1)), 16, False, root=root)[1].sum(-1)


def _mp_cdf_theta(theta, root):
    """``F`` at the angles ``theta`` in ``[0, pi]``: whole panels plus the partial one."""
    cum = np.concatenate([[0.0], np.cumsum(_gl_integral(_BREAKS[:-1], _BREAKS[1:], root))])
    idx = np.clip(np.searchsorted(_BREAKS, theta, side="right") - 1, 0, _BREAKS.size - 2)
    out = (cum[idx] + _gl_integral(_BREAKS[idx], theta, root)) / cum[-1]
    return np.clip(out, 0.0, 1.0)


def _theta_of(s, root):
    """The angle of ``s = 1 - root cos(theta)``, clipped to ``[0, pi]`` off the support."""
    return np.arccos(np.clip((1.0 - s) / root, -1.0, 1.0))


def mp_cdf(s: ArrayLike, aspect: float) -> np.ndarray:
    """Cumulative distribution ``F(s) = P(s' <= s)`` of the MP singular-value law.

    Parameters
    ----------
    s : array_like
        Singular values (any real numbers, ``inf`` included).
    aspect : float
        One aspect ratio ``A`` in ``(0, 1]``.

    Returns
    -------
    ndarray or float
        ``F(s)``, shape of ``s``: 0 below ``1 - sqrt(A)``, 1 above ``1 + sqrt(A)``.

    Notes
    -----
    Eq. (13) is integrated in the angle ``theta`` of ``s = 1 - sqrt(A) cos(theta)``,
    where the density times the Jacobian is smooth and free of ``1/A``
    (:func:`mp_singular_value_measure`), by :func:`mp_rule`'s composite 16-point Gauss-Legendre quadrature on panels graded
    toward ``theta = 0``: accurate to ~1e-14 for every ``A`` in ``(0, 1]``. As
    ``A -> 0`` the law concentrates at 1 and ``(s - 1)/sqrt(A)`` follows the semicircle
    law on ``[-1, 1]`` (so ``F(1) -> 1/2``); evaluating in ``theta`` keeps that limit
    exact even where ``1 +- sqrt(A)`` rounds to 1.
    """
    root = np.sqrt(_scalar_aspect(aspect))
    s = _checks.real_array(s, "s", allow_inf=True)
    out = _mp_cdf_theta(_theta_of(s, root), root)
    return out[()] if out.ndim == 0 else out


def mp_quantile(q: ArrayLike, aspect: float) -> np.ndarray:
    """Inverse of :func:`mp_cdf`: the singular value below which a fraction ``q`` lies.

    Parameters
    ----------
    q : array_like
        Levels in ``[0, 1]``.
    aspect : float
        One aspect ratio ``A`` in ``(0, 1]``.

    Returns
    -------
    ndarray or float
        ``s`` with ``F(s) = q``, shape of ``q``: ``1 - sqrt(A)`` at ``q = 0`` and
        ``1 + sqrt(A)`` at ``q = 1``.

    Notes
    -----
    Solved for the angle ``theta`` (see :func:`mp_cdf`): linear interpolation of ``F`` on a
    grid, then safeguarded Newton steps (``dF/dtheta`` is :func:`mp_singular_value_measure`) inside the
    grid cell that brackets the root, to ~1e-14.
    """
    q = _checks.real_array(q, "q (quantile levels)", lower=0.0, upper=1.0)
    root = np.sqrt(_scalar_aspect(aspect))
    grid = np.linspace(0.0, np.pi, 257)
    f_grid = _mp_cdf_theta(grid, root)
    cell = np.clip(np.searchsorted(f_grid, q, side="right") - 1, 0, grid.size - 2)
    lo, hi = grid[cell], grid[cell + 1]
    theta = np.interp(q, f_grid, grid)
    for _ in range(8):
        resid = _mp_cdf_theta(theta, root) - q
        slope = _singular_measure(theta, root)[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(slope > 0, resid / slope, 0.0)
        lo, hi = np.where(resid <= 0, theta, lo), np.where(resid >= 0, theta, hi)
        new = theta - step
        # bisect where Newton leaves the bracket; a step below rounding means converged
        theta = np.where((new >= lo) & (new <= hi) | (np.abs(step) <= 1e-15), new, 0.5 * (lo + hi))
    theta = np.where(q <= 0, 0.0, np.where(q >= 1, np.pi, theta))
    out = (1.0 - root) + 2.0 * root * np.sin(0.5 * theta) ** 2
    return out[()] if out.ndim == 0 else out


def tracy_widom_scale(aspect: float, n1: int) -> float:
    """Tracy-Widom scale of the top singular value of an ``N3 x N1`` noise matrix at the MP edge.

    ``sigma_N = (1/2) (1 + A^(-1/2))^(1/3) N1^(-2/3)``: Johnstone's (2001) scale of the largest
    eigenvalue of ``Z Z^T`` carried to singular values (entries of variance ``1/N1``, ``A = N3/N1``;
    :func:`tracy_widom_upper_scale` is the same edge for the eigenvalues, :func:`tracy_widom_lower_scale`
    the lower one). The top noise singular value is ``1 + sqrt(A) + sigma_N chi`` with ``chi`` Tracy-Widom
    distributed (:data:`TW1_MEAN`, :data:`TW1_SD`).

    Parameters
    ----------
    aspect : float
        One aspect ratio ``A`` in ``(0, 1]``.
    n1 : int
        Inputs ``N1`` (columns of the noise matrix).

    Returns
    -------
    float
    """
    aspect = _scalar_aspect(aspect)
    n1 = _checks.integer(n1, "n1")
    return 0.5 * (1 + aspect**-0.5) ** (1 / 3) * n1 ** (-2 / 3)


def _check_load(alpha):
    return _checks.real_array(alpha, "alpha", lower=0, open_lower=True, extra=" (the load P/N)")


def tracy_widom_lower_scale(alpha: ArrayLike, n: int) -> np.ndarray:
    """Tracy-Widom scale of the smallest nonzero eigenvalue of ``X X^T`` at the lower MP edge.

    ``X`` is ``N x P`` with entries ``N(0, 1/N)`` and load ``alpha = P/N`` (the eigenvalue form
    of :func:`mp_eigenvalue_measure`). The smallest nonzero eigenvalue is
    ``(1 - sqrt(alpha))^2 - sigma_N chi`` with ``chi`` Tracy-Widom distributed (:data:`TW1_MEAN`,
    :data:`TW1_SD`): on average ``-TW1_MEAN sigma_N`` above the edge.

    Parameters
    ----------
    alpha : array_like
        Loads ``alpha = P/N > 0``.
    n : int
        ``N``, the rows of ``X`` (the dimension whose ``1/N`` is the entries' variance).

    Returns
    -------
    ndarray
        ``sigma_N = |1 - sqrt(alpha)|^(4/3) alpha^(-1/6) N^(-2/3)``, shape of ``alpha``. It is the
        same for ``alpha`` and ``1/alpha`` up to the factor ``alpha^(-1/6)`` of the units, and 0 at
        ``alpha = 1``, where the edge at 0 is hard and this soft-edge law does not apply.

    Notes
    -----
    With ``p = min(N, P)``, ``m = max(N, P)`` and ``W = N X X^T`` a white Wishart matrix, the
    smallest eigenvalue of ``W`` has centre ``(sqrt(m) - sqrt(p))^2`` and scale
    ``(sqrt(m) - sqrt(p)) (1/sqrt(p) - 1/sqrt(m))^(1/3)``; dividing by ``N`` gives the above.
    The upper edge is :func:`tracy_widom_upper_scale`.

    References
    ----------
    Feldheim & Sodin (2010), "A universality result for the smallest eigenvalues of certain
    sample covariance matrices", Geom. Funct. Anal. 20, Theorem 1.1; Advani, Saxe &
    Sompolinsky (2020), eq. (6) (the MP law and its eigengap ``(1 - sqrt(alpha))^2``).
    """
    a = _check_load(alpha)
    n = _checks.integer(n, "n")
    return np.abs(1 - np.sqrt(a)) ** (4 / 3) * a ** (-1 / 6) * n ** (-2 / 3)


def tracy_widom_upper_scale(alpha: ArrayLike, n: int) -> np.ndarray:
    """Tracy-Widom scale of the largest eigenvalue of ``X X^T`` at the upper MP edge.

    ``X`` is ``N x P`` with entries ``N(0, 1/N)``, ``alpha = P/N``. The largest eigenvalue is
    ``(1 + sqrt(alpha))^2 + sigma_N chi`` with ``chi`` Tracy-Widom distributed (:data:`TW1_MEAN`,
    :data:`TW1_SD`).

    Parameters
    ----------
    alpha : array_like
        Loads ``alpha = P/N > 0``.
    n : int
        ``N``, the rows of ``X``.

    Returns
    -------
    ndarray
        ``sigma_N = (1 + sqrt(alpha))^(4/3) alpha^(-1/6) N^(-2/3)``, shape of ``alpha``.

    Notes
    -----
    Johnstone's centre ``(sqrt(m) + sqrt(p))^2`` and scale ``(sqrt(m) + sqrt(p))
    (1/sqrt(m) + 1/sqrt(p))^(1/3)`` of the white Wishart matrix ``N X X^T`` divided by ``N``.
    In the singular-value form of eq. (13) (``A = N3/N1 = alpha``, ``N = N1``) the same edge,
    carried to ``s = sqrt(lam)``, is :func:`tracy_widom_scale`: ``sigma_N / (2 (1 + sqrt(A)))``.
    The lower edge is :func:`tracy_widom_lower_scale`.

    References
    ----------
    Johnstone (2001), "On the distribution of the largest eigenvalue in principal components
    analysis", Ann. Statist. 29, Theorem 1.1; Advani, Saxe & Sompolinsky (2020), eq. (6).
    """
    a = _check_load(alpha)
    n = _checks.integer(n, "n")
    return (1 + np.sqrt(a)) ** (4 / 3) * a ** (-1 / 6) * n ** (-2 / 3)


def detection_threshold(aspect: ArrayLike) -> np.ndarray:
    """Teacher singular value ``A**(1/4)`` above which a mode leaves the MP sea."""
    return check_aspect(aspect) ** 0.25


def _supercritical(sbar, aspect):
    """Checked, broadcast ``(sbar, A)``, the mask ``sbar > A**(1/4)``, and ``1/sbar^2``.

    ``1/sbar^2`` is set to 1 below the threshold (masked out by the callers); working in
    powers of ``1/sbar^2`` avoids overflow of ``sbar^2`` for huge ``sbar``.
    """
    a = check_aspect(aspect)
    sb = _check_nonnegative(sbar, "sbar (teacher singular values)")
    sb, a = np.broadcast_arrays(sb, a)
    above = sb > a**0.25
    x = np.where(above, sb, 1.0)
    return x, a, above, (1.0 / x) ** 2


def spike_singular_value(sbar: ArrayLike, aspect: ArrayLike) -> np.ndarray:
    """Training-data singular value produced by a teacher singular value, eq. (11).

    Parameters
    ----------
    sbar : array_like
        Teacher singular values (``>= 0``).
    aspect : array_like
        Aspect ratio ``A`` in ``(0, 1]``.

    Returns
    -------
    ndarray
        ``shat = sqrt((1 + sbar^2)(A + sbar^2)) / sbar`` if ``sbar > A**(1/4)``,
        else the MP edge ``1 + sqrt(A)``. ``shat >= sbar`` always (noise inflation),
        and ``shat / sbar -> 1`` as ``sbar -> inf``.
    """
    x, a, above, inv2 = _supercritical(sbar, aspect)
    # sbar * sqrt((1 + 1/sbar^2)(1 + A/sbar^2))
    spike = x * np.sqrt((1.0 + inv2) * (1.0 + a * inv2))
    return np.where(above, spike, 1.0 + np.sqrt(a))


def spike_teacher_value(shat: ArrayLike, aspect: ArrayLike) -> np.ndarray:
    """Invert eq. (11): the teacher singular value that produces ``shat``.

    ``shat^2 = sbar^2 + 1 + A + A / sbar^2`` is a quadratic in ``sbar^2``; its larger
    root is the teacher value. Values at or inside the MP edge ``1 + sqrt(A)`` carry no
    detectable teacher signal and map to the threshold ``A**(1/4)``.
    """
    a = check_aspect(aspect)
    sh = _check_nonnegative(shat, "shat (training singular values)")
    sh, a = np.broadcast_arrays(sh, a)
    edge = 1.0 + np.sqrt(a)
    above = sh > edge
    x = np.where(above, sh, 2.0 * edge)
    b = x**2 - 1.0 - a
    disc = np.clip(b**2 - 4.0 * a, 0.0, None)
    sbar2 = 0.5 * (b + np.sqrt(disc))
    return np.where(above, np.sqrt(sbar2), a**0.25)


def spike_overlap(sbar: ArrayLike, aspect: ArrayLike) -> np.ndarray:
    """Teacher/training singular-vector overlap ``|u.ubar| |v.vbar|``, eq. (12).

    Parameters
    ----------
    sbar : array_like
        Teacher singular values (``>= 0``).
    aspect : array_like
        Aspect ratio ``A`` in ``(0, 1]``.

    Returns
    -------
    ndarray
        ``O(sbar)`` in ``[0, 1)``: zero up to the threshold ``A**(1/4)``, rising to 1
        as ``sbar -> inf``.

    Notes
    -----
    Both brackets of eq. (12) simplify to ``(sbar^4 - A)`` over ``sbar^2 (A + sbar^2)``
    and ``sbar^2 (1 + sbar^2)``, so
    ``O = (sbar^4 - A) / (sbar^2 sqrt((A + sbar^2)(1 + sbar^2)))``,
    evaluated here in powers of ``1/sbar^2`` (no overflow, no cancellation).
    """
    above, gap, left_den, right_den = _overlap_brackets(sbar, aspect)
    return np.where(above, gap / np.sqrt(left_den * right_den), 0.0)


def spike_vector_overlaps(sbar: ArrayLike, aspect: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Squared overlaps of a spike's left and right singular vectors with the teacher's.

    Parameters
    ----------
    sbar : array_like
        Teacher singular values (``>= 0``).
    aspect : array_like
        Aspect ratio ``A`` in ``(0, 1]``.

    Returns
    -------
    left, right : ndarray
        ``L = |uhat . ubar|^2 = (sbar^4 - A) / (sbar^2 (sbar^2 + A))`` (outputs, ``N3``
        side) and ``R = |vhat . vbar|^2 = (sbar^4 - A) / (sbar^2 (sbar^2 + 1))`` (inputs,
        ``N1`` side): the two brackets of eq. (12), so ``sqrt(L R)`` is
        :func:`spike_overlap`. Both are zero up to the threshold ``A**(1/4)``.
    """
    above, gap, left_den, right_den = _overlap_brackets(sbar, aspect)
    return np.where(above, gap / left_den, 0.0), np.where(above, gap / right_den, 0.0)


def _overlap_brackets(sbar, aspect):
    """The mask ``sbar > A**(1/4)`` and the pieces of eq. (12): ``L = gap / left_den``,
    ``R = gap / right_den``, in powers of ``1/sbar^2`` (no overflow, no cancellation)."""
    _, a, above, inv2 = _supercritical(sbar, aspect)
    return above, 1.0 - a * inv2**2, 1.0 + a * inv2, 1.0 + inv2


__all__ += ["near_detection_threshold"]


def near_detection_threshold(sbar: ArrayLike, n1: int, aspect: float) -> bool:
    """Whether a teacher mode lies in the detection transition at this size, ``|sbar - A^(1/4)| < N1^(-1/3)``.

    Eqs. (11)-(12) are the ``N1 -> inf`` limit; at finite ``N1`` a teacher singular value within the
    ``O(N1^(-1/3))`` window around the detection threshold :func:`detection_threshold` is not asymptotic
    yet (its outlier still mixes with the edge of the MP sea), so Lampinen & Ganguli's eq. (15) does not
    apply to it (§3.3; the paper's svm = 0.84 ~ 0.5^(1/4) is such a mode by design).

    Parameters
    ----------
    sbar : array_like
        Teacher singular values (``>= 0``, at least one).
    n1 : int
        Inputs ``N1``.
    aspect : float
        One aspect ratio ``A = N3/N1`` in ``(0, 1]``.

    Returns
    -------
    bool
        True if any of ``sbar`` is inside the window.
    """
    sb = _check_nonnegative(sbar, "sbar (teacher singular values)")
    if sb.size == 0:
        raise ValueError("sbar must hold at least one teacher singular value; got an empty array")
    n1 = _checks.integer(n1, "n1")
    window = n1 ** (-1 / 3)  # width of the detection transition at this size
    return bool(np.any(np.abs(sb - detection_threshold(_scalar_aspect(aspect))) < window))
