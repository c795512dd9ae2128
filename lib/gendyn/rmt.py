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
  :func:`spike_overlap`.

All functions are pure numpy, vectorised, and broadcast their arguments.
"""

import numpy as np

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
]


def check_aspect(aspect):
    """Return ``aspect`` as a float array, or raise if any value is outside (0, 1].

    The aspect ratio is ``A = N3/N1`` (outputs over inputs); the theory needs
    ``0 < A <= 1``.
    """
    a = np.asarray(aspect, dtype=float)
    bad = ~((a > 0) & (a <= 1))  # also catches NaN
    if np.any(bad):
        raise ValueError(
            f"aspect ratio A = N3/N1 must lie in (0, 1]; got {a[bad].ravel()[:5].tolist()}"
        )
    return a


def check_singular_values(svals, name="teacher_svals", *, vector=False):
    """Return singular values as a float array of at least one dimension, or raise.

    Every value must be finite and ``>= 0``. With ``vector=True`` the input must be one
    non-empty list of values (1-d; a scalar counts as one value); otherwise leading
    dimensions are a batch of teachers and the values run along the last axis.
    """
    s = np.atleast_1d(np.asarray(svals, dtype=float))
    if vector and (s.ndim != 1 or s.size == 0):
        raise ValueError(f"{name} must be a non-empty 1-d array of singular values; got shape {s.shape}")
    bad = ~np.isfinite(s) | (s < 0)
    if np.any(bad):
        raise ValueError(f"{name} must be finite and >= 0; got {s[bad].ravel()[:5].tolist()}")
    return s


def _check_nonnegative(x, name):
    x = np.asarray(x, dtype=float)
    bad = ~(x >= 0)  # catches negatives and NaN
    if np.any(bad):
        raise ValueError(f"{name} must be >= 0 (singular values); got {x[bad].ravel()[:5].tolist()}")
    return x


def mp_edges(aspect):
    """Edges ``(1 - sqrt(A), 1 + sqrt(A))`` of the Marchenko-Pastur singular-value law."""
    root = np.sqrt(check_aspect(aspect))
    return 1.0 - root, 1.0 + root


def mp_density(s, aspect):
    """Marchenko-Pastur density of the noise singular values, eq. (13).

    Parameters
    ----------
    s : array_like
        Singular values at which to evaluate the density.
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
    s = np.asarray(s, dtype=float)
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


def _mp_theta_grid(aspect, n=4001):
    """Grid on the MP support in the angle theta, ``s = c - h cos(theta)``.

    ``c`` and ``h`` are the centre and half-width of the support; the substitution
    turns the square-root edges of eq. (13) into a smooth integrand.
    """
    lo, hi = mp_edges(aspect)
    theta = np.linspace(0.0, np.pi, n)
    centre, half = (lo + hi) / 2.0, (hi - lo) / 2.0
    return theta, centre - half * np.cos(theta), half * np.sin(theta)


def mp_cdf(s, aspect):
    """Cumulative distribution ``F(s) = P(s' <= s)`` of the MP singular-value law.

    Integrates eq. (13) by the trapezoidal rule in ``theta`` (see
    :func:`_mp_theta_grid`), accurate to ~1e-8. ``aspect`` must be a scalar.
    """
    a = float(check_aspect(aspect))
    theta, grid, jac = _mp_theta_grid(a)
    f = mp_density(grid, a) * jac
    cum = np.concatenate([[0.0], np.cumsum(0.5 * (f[1:] + f[:-1]) * np.diff(theta))])
    cum /= cum[-1]
    return np.interp(np.asarray(s, dtype=float), grid, cum, left=0.0, right=1.0)


def mp_quantile(q, aspect):
    """Inverse of :func:`mp_cdf`: the singular value below which a fraction ``q`` lies."""
    q = np.asarray(q, dtype=float)
    if np.any(~((q >= 0) & (q <= 1))):
        raise ValueError(f"quantile levels must lie in [0, 1]; got {q.ravel()[:5].tolist()}")
    a = float(check_aspect(aspect))
    _, grid, _ = _mp_theta_grid(a)
    return np.interp(q, mp_cdf(grid, a), grid)


def detection_threshold(aspect):
    """Teacher singular value ``A**(1/4)`` above which a mode leaves the MP sea."""
    return check_aspect(aspect) ** 0.25


def _supercritical(sbar, aspect):
    """Checked, broadcast ``(sbar, A)``, the mask ``sbar > A**(1/4)``, and ``1/sbar^2``.

    ``1/sbar^2`` is set to 1 below the threshold (masked out by the callers); working in
    powers of ``1/sbar^2`` avoids overflow of ``sbar^2`` for huge ``sbar``.
    """
    a = check_aspect(aspect)
    sb = _check_nonnegative(sbar, "teacher singular value sbar")
    sb, a = np.broadcast_arrays(sb, a)
    above = sb > a**0.25
    x = np.where(above, sb, 1.0)
    return x, a, above, (1.0 / x) ** 2


def spike_singular_value(sbar, aspect):
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


def spike_teacher_value(shat, aspect):
    """Invert eq. (11): the teacher singular value that produces ``shat``.

    ``shat^2 = sbar^2 + 1 + A + A / sbar^2`` is a quadratic in ``sbar^2``; its larger
    root is the teacher value. Values at or inside the MP edge ``1 + sqrt(A)`` carry no
    detectable teacher signal and map to the threshold ``A**(1/4)``.
    """
    a = check_aspect(aspect)
    sh = _check_nonnegative(shat, "training singular value shat")
    sh, a = np.broadcast_arrays(sh, a)
    edge = 1.0 + np.sqrt(a)
    above = sh > edge
    x = np.where(above, sh, 2.0 * edge)
    b = x**2 - 1.0 - a
    disc = np.clip(b**2 - 4.0 * a, 0.0, None)
    sbar2 = 0.5 * (b + np.sqrt(disc))
    return np.where(above, np.sqrt(sbar2), a**0.25)


def spike_overlap(sbar, aspect):
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
    x, a, above, inv2 = _supercritical(sbar, aspect)
    overlap = (1.0 - a * inv2**2) / np.sqrt((1.0 + a * inv2) * (1.0 + inv2))
    return np.where(above, overlap, 0.0)
