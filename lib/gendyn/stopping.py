"""Optimal early stopping: the minimum of a theoretical error curve over training time.

Every theory of the book predicts a test error ``E(t)`` that first falls, as the signal is
learned, and then rises, as the noise is fitted; the best one can do by stopping early is
``min_t E(t)``. :func:`minimum_over_time` finds it for any such curve (a callable evaluating
``E`` on an array of times) in one way: a log-spaced grid of times, vectorised, then bounded
Brent minimisation in ``ln t`` between the neighbours of the best grid point. It serves

* :func:`gendyn.deep_linear.optimal_early_stopping`, Lampinen & Ganguli (2019), eq. (15);
* :func:`gendyn.transfer.joint_optimal_error`, the same for a head of a multitask network (§4);
* :func:`gendyn.linear_student.optimal_stopping_error`, Advani, Saxe & Sompolinsky (2020),
  eq. (6), and the early stopping of single datasets, eq. (5), in the book's chapters.

Pure numpy/scipy.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize

from . import _checks

__all__ = ["minimum_over_time"]

#: How far below the grid (in ``ln t``) the search goes when the grid's best point is its
#: first and ``t = 0`` is a candidate: the first cell of the grid on the way to ``t = 0``.
_BELOW = 10.0


def minimum_over_time(error: Callable[[np.ndarray], ArrayLike], t_lo: float, t_max: float, *, points: int = 241,
                      special_times: ArrayLike = (), zero: bool = False,
                      xatol: float = 1e-10) -> tuple[float, float]:
    """Global minimum ``(t_opt, error(t_opt))`` of an error curve over training time.

    Parameters
    ----------
    error : callable
        Maps a 1-d array of times ``t > 0`` (and ``t = 0`` if ``zero``) to the errors there, one
        per time (any shape of that size; vectorised: the grid is evaluated in one call).
    t_lo, t_max : float
        The log-spaced grid runs from ``t_lo > 0`` to ``t_max > t_lo``.
    points : int
        Times of the grid (``>= 2``).
    special_times : array_like
        Further times added to the grid, e.g. where one mode alone is optimal: deep networks
        pass them too quickly for a log grid to see the dip. Those outside ``(t_lo, t_max)``
        are ignored.
    zero : bool
        Also consider ``t = 0`` (no training at all), which wins if nothing beats it; and when
        the best grid point is ``t_lo``, refine down to ``t_lo e^-10``, toward ``t = 0``.
    xatol : float
        Absolute tolerance of the refinement in ``ln t``.

    Returns
    -------
    t_opt, e_opt : float
        The minimising time in ``[t_lo, t_max]`` (or ``0``, or down to ``t_lo e^-10`` with
        ``zero``) and the error there.

    Notes
    -----
    The grid finds the global minimum's cell even where the curve has several local minima
    (several teacher modes learned at different times); its best point ``t_i`` is refined by
    bounded Brent minimisation of ``error(exp(u))`` over ``u`` in ``[ln t_(i-1), ln t_(i+1)]``
    (the end cell at an end of the grid), kept only if it beats ``error(t_i)``. Where the curve
    is flat at its minimum ``t_opt`` is fixed only to ``sqrt(rounding / curvature)``, but
    ``e_opt`` to rounding.

    References
    ----------
    Lampinen & Ganguli (2019), §3.3 and eq. (15): the optimal stopping time and the optimal
    test error; Advani, Saxe & Sompolinsky (2020), eqs. (5)-(6) and §3 (early stopping).
    """
    if not callable(error):
        raise ValueError(f"error must be a callable mapping an array of times to errors; got {type(error).__name__}")
    t_lo = _checks.positive(t_lo, "t_lo")
    t_max = _checks.positive(t_max, "t_max")
    if not t_max > t_lo:
        raise ValueError(f"t_max must exceed t_lo (the grid runs from t_lo to t_max); got t_lo={t_lo!r}, t_max={t_max!r}")
    points = _checks.integer(points, "points", 2)
    _checks.work_limit(1e3 * points, f"points={points}", memory=16.0 * points)  # the grid and its errors, at least
    special = np.atleast_1d(_checks.real_array(special_times, "special_times", lower=0.0, ndim=(0, 1)))
    zero = _checks.flag(zero, "zero")
    xatol = _checks.positive(xatol, "xatol")

    grid = np.unique(np.concatenate([np.geomspace(t_lo, t_max, points), [t for t in special if t_lo < t < t_max]]))

    def at(t):
        return float(np.ravel(error(np.array([t])))[0])

    errs = np.asarray(error(grid), dtype=float)
    if errs.size != grid.size:
        raise ValueError(f"error must return one error per time: {grid.size} for the grid; got shape {errs.shape}")
    errs = errs.reshape(grid.shape)
    i = int(np.argmin(errs))
    lo = np.log(grid[i - 1]) if i > 0 else np.log(grid[0]) - (_BELOW if zero else 0.0)
    hi = np.log(grid[min(i + 1, grid.size - 1)])
    t_opt, e_opt = float(grid[i]), float(errs[i])
    if hi > lo:
        res = optimize.minimize_scalar(lambda u: at(np.exp(u)), bounds=(lo, hi), method="bounded",
                                       options={"xatol": xatol})
        if res.fun <= errs[i]:
            t_opt, e_opt = float(np.exp(res.x)), float(res.fun)
    if zero:
        err0 = at(0.0)
        if err0 <= e_opt:
            return 0.0, err0
    return t_opt, e_opt
