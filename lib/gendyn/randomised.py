"""Randomised versus structured data: why random labels are learned more slowly (§3.6, Fig. 6).

Lampinen & Ganguli (2019, §3.6) replace the outputs of a structured training set by i.i.d.
Gaussians with the same variance (the inputs stay orthonormal). The training covariance
``Sigma31`` then has no outliers at all: its singular values follow the Marchenko-Pastur law
(13) *stretched* by ``sigma_r``, supported on ``[sigma_r (1 - sqrt(A)), sigma_r (1 + sqrt(A))]``,
where ``sigma_r^2`` is the output variance of the structured data in the units of eq. (13),

    sigma_r^2 = sigma_z^2 + sum_a sbar_a^2 / N3

(the paper's expression, with the per-entry variance ``sigma_r^2 / N1`` of ``Sigma31``: the
noise contributes ``sigma_z^2 / N1`` per entry and the teacher ``sum_a sbar_a^2 / (N3 N1)`` on
average). The teacher's few large singular values are diluted over all ``N3`` modes, so the
top of the stretched sea lies far below them, and the singular-mode detection wave of
eq. (9) reaches it later: the training error falls later.

* :func:`randomised_scale` -- ``sigma_r``.
* :func:`stretched_mp_density` -- the singular-value density of randomised data.
* :func:`randomised_train_error` -- eq. (14) for randomised data: no teacher modes, all
  ``N3`` modes from the stretched law.

The structured curve is :func:`gendyn.deep_linear.theory_errors`. Pure numpy.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from . import _checks, deep_linear, rmt

__all__ = ["randomised_scale", "stretched_mp_density", "randomised_train_error"]


def randomised_scale(teacher_svals: ArrayLike, n3: int, noise_std: float = 1.0) -> np.ndarray:
    """Stretch ``sigma_r = sqrt(sigma_z^2 + sum_a sbar_a^2 / N3)`` of randomised data (§3.6).

    Parameters
    ----------
    teacher_svals : array_like, shape (..., Nbar2)
        Teacher singular values ``>= 0`` along the last axis (a batch in front).
    n3 : int
        Number of outputs ``N3 >= 1``.
    noise_std : float
        ``sigma_z > 0`` (1 in the paper).

    Returns
    -------
    ndarray or float
        ``sigma_r``, of the batch shape.
    """
    sb = rmt.check_singular_values(teacher_svals)
    n3 = _checks.integer(n3, "n3")
    noise_std = _checks.positive(noise_std, "noise_std")
    out = np.sqrt(noise_std**2 + (sb**2).sum(-1) / n3)
    return out[()] if out.ndim == 0 else out


def stretched_mp_density(s: ArrayLike, aspect: ArrayLike, scale: ArrayLike) -> np.ndarray:
    """Singular-value density of i.i.d. data of variance ``scale^2 / N1`` per entry (§3.6).

    ``P(s) = P_MP(s / scale) / scale`` with ``P_MP`` eq. (13): supported on
    ``[scale (1 - sqrt(A)), scale (1 + sqrt(A))]``, integrating to 1. ``s`` may be any real
    numbers (the density is 0 off the support); ``aspect`` in ``(0, 1]`` and ``scale > 0``
    (finite) broadcast against it.
    """
    s = _checks.real_array(s, "s", allow_inf=True)
    c = _checks.real_array(scale, "scale", lower=0.0, open_lower=True)
    return rmt.mp_density(s / c, aspect) / c


def randomised_train_error(t: ArrayLike, teacher_svals: ArrayLike, n1: int, n2: int, n3: int, eps: float,
                           tau: float = 1.0, n_layers: int = 3, noise_std: float = 1.0) -> np.ndarray:
    """Training error of a TA student on randomised data, eq. (14) without teacher modes.

    Parameters
    ----------
    t : array_like
        Training times ``>= 0`` (finite), in units of ``tau``.
    teacher_svals : array_like, shape (Nbar2,)
        Singular values of the teacher whose data was randomised (they set ``sigma_r``).
    n1, n2, n3 : int
        Inputs (= examples), hidden units (student rank) and outputs, ``n2 <= n3 <= n1``.
    eps, tau, n_layers
        As in :func:`gendyn.deep_linear.mode_strength`.
    noise_std : float
        ``sigma_z``.

    Returns
    -------
    ndarray
        ``[(N3 - N2) <shat^2>_out + N2 <(s(shat, t) - shat)^2>_in] / [N3 <shat^2>]`` over the
        MP law of aspect ``A = N3/N1`` stretched by ``sigma_r``, with ``R_in`` its top
        ``N2/N3`` (the modes a rank-``N2`` student learns); shape of ``t``. It starts at 1 and
        falls to ``(N3 - N2) <shat^2>_out / (N3 <shat^2>)``.
    """
    n1, n2, n3 = (_checks.integer(n, name) for n, name in ((n1, "n1"), (n2, "n2"), (n3, "n3")))
    if not n2 <= n3 <= n1:
        raise ValueError(f"need n2 <= n3 <= n1 (student rank, outputs, inputs); got {n2}, {n3}, {n1}")
    sb = rmt.check_singular_values(teacher_svals)
    if sb.ndim != 1:
        raise ValueError(f"teacher_svals must be 1-d; got shape {sb.shape}")
    scale = float(randomised_scale(sb, n3, noise_std))
    avg = deep_linear.noise_mode_averages(t, n3 / n1, eps, tau, n_layers, fraction=n2 / n3, scale=scale)
    f_in = n2 / n3
    total = f_in * avg.data_sq_in + (1 - f_in) * avg.data_sq_out  # <shat^2> over the whole law = scale^2
    return (f_in * avg.residual_sq + (1 - f_in) * avg.data_sq_out) / total
