"""Test-error dynamics when the number of examples differs from the input dimension (App. G).

Lampinen & Ganguli (2019, App. G): ``P`` examples in ``N1`` input dimensions, data density
``D = P/N1``, a full-rank student ``N1 = N2 = N3`` and a teacher of rank ``Nbar2`` with
singular values ``sbar``; noise of variance ``1/N1`` per entry (eq. 25); inputs made as
white as possible (eq. 26):

* **Oversampled**, ``D > 1``: orthonormal *rows* scaled by ``sqrt(D)``, ``Sigma11 = D I`` and
  ``Sigma31 = sqrt(D) (sqrt(D) Wbar + Z')`` with ``Z'`` a noise matrix of the ``D = 1`` law.
  A mode ``u`` obeys ``tau du/dt = k u^p (shat' - D u)`` (``k = N_l - 1``, ``p = 2 - 2/k``), and
  ``utilde = sqrt(D) u`` obeys the ``D = 1`` equation with the rate multiplied by
  ``D^(1/k)``. So the normalised test error is the ``D = 1`` theory (eq. 15, aspect 1) with

      SNR sbar -> sqrt(D) sbar,   time t -> D^(1/k) t,   eps -> sqrt(D) eps.

  App. G states "a boost in the SNR by sqrt(D) and a speed-up of learning by D": relative
  to the *original* SNR the growth rate ``~ 2 shat'`` of a strong mode is indeed ``D`` times
  larger, but once the SNR is boosted the remaining speed-up is ``D^(1/k)`` (``sqrt(D)`` for
  one hidden layer), which is what this module uses.

* **Undersampled**, ``D < 1``: orthonormal *columns*, ``Sigma11`` the projection onto the
  ``P``-dimensional span of the inputs. The student's map on the other ``N1 - P`` directions
  is frozen at its initial value (squared norm ``(N1 - P) eps^2``); on the span the problem is
  that of §3 with aspect ``D`` and teacher singular values ``sqrt(D) sbar`` (a teacher input
  direction keeps ``||P v||^2 ~ D`` of its norm in the span). Eq. (27) writes the teacher
  terms as ``(s - sbar)^2 + 2 s sbar (1 - O(sqrt(D) sbar))``; but a student mode's input vector
  lies in the span, so its overlap with ``vbar`` carries the extra factor ``||P vbar|| =
  sqrt(D)``, and the correct cross term is ``2 s sbar (1 - sqrt(D) O)``::

      eps_test(t) = [ (N1 - P) eps^2 + (P - Nbar2) <s(shat, t)^2>_D
                      + sum_a ((s_a - sbar_a)^2 + 2 s_a sbar_a (1 - sqrt(D) O_D(sqrt(D) sbar_a))) ]
                    / sum_a sbar_a^2,

  with ``shat_a = shat_D(sqrt(D) sbar_a)`` (eq. 11 with ``A -> D``), ``O_D`` eq. (12) with
  ``A -> D`` and the average over the MP law of aspect ``D``. Without the factor the error of a
  perfectly learned span would be ``(1 - sqrt(D))^2`` instead of the ``1 - D`` of the directions
  never seen. ``as_printed=True`` evaluates the formula as printed, for comparison.

Functions: :func:`test_error` (any ``P``), :func:`optimal_test_error`,
:func:`asymptotic_test_error` (``t -> inf``: non-monotonic in ``P``, largest at ``P = N1``), both on a
grid of ``P`` and SNRs (:func:`theory_grid`), and the fit of the oversampled speed-up of learning
(:func:`speedup_exponent`, whose bootstrap draws from ``rng``, :mod:`gendyn.seeding`). Pure numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from . import _checks, deep_linear, rmt, seeding

__all__ = ["density", "test_error", "optimal_test_error", "asymptotic_test_error"]


def _check(teacher_svals, n1, n_examples):
    n1, n_examples = _checks.integer(n1, "n1"), _checks.integer(n_examples, "n_examples")
    sb = rmt.check_singular_values(teacher_svals, vector=True)
    if not np.any(sb > 0):
        raise ValueError("teacher_svals are all zero: the normalised test error is undefined")
    if sb.size > min(n1, n_examples):
        raise ValueError(f"teacher rank {sb.size} must be <= min(n1, n_examples) = {min(n1, n_examples)}")
    return sb, int(n1), int(n_examples)


def density(n1: int, n_examples: int) -> float:
    """Data density ``D = P / N1`` (App. G)."""
    _, n1, p = _check([1.0], n1, n_examples)
    return p / n1


def _under_parts(t, sb, n1, p, eps, tau, n_layers):
    d = p / n1
    sig = np.sqrt(d) * sb
    shat = rmt.spike_singular_value(sig, d)
    ovl = rmt.spike_overlap(sig, d)
    s = deep_linear.mode_strength(t[:, None], shat, eps, tau, n_layers)
    bulk = 0.0
    if p > sb.size:
        bulk = (p - sb.size) * deep_linear.noise_mode_averages(t, d, eps, tau, n_layers).learned_sq
    return d, s, ovl, bulk


def test_error(t: ArrayLike, teacher_svals: ArrayLike, n1: int, n_examples: int, eps: float, tau: float = 1.0,
               n_layers: int = 3, as_printed: bool = False) -> np.ndarray:
    """Test error of a full-rank TA student trained on ``P`` examples, App. G.

    Parameters
    ----------
    t : array_like
        Training times ``>= 0`` (finite), in units of ``tau``.
    teacher_svals : array_like, shape (Nbar2,)
        Teacher singular values ``>= 0``, not all zero, ``Nbar2 <= min(N1, P)``.
    n1 : int
        Input dimension ``N1 = N2 = N3``.
    n_examples : int
        Number of examples ``P``.
    eps, tau, n_layers
        As in :func:`gendyn.deep_linear.mode_strength`.
    as_printed : bool
        For ``P < N1``, use eq. (27) exactly as printed (cross term without ``sqrt(D)``; see
        the module docstring) instead of the corrected form.

    Returns
    -------
    ndarray
        ``epsilon_test(t)``, shape of ``t``. ``P = N1`` is eq. (15) with ``N1 = N2 = N3``.
    """
    sb, n1, p = _check(teacher_svals, n1, n_examples)
    eps, tau = _checks.positive(eps, "eps"), _checks.positive(tau, "tau")
    k = deep_linear._check_depth(n_layers)
    as_printed = _checks.flag(as_printed, "as_printed")
    t = deep_linear._check_array(t, "t (training times)")
    shape, t = t.shape, t.ravel()
    if p > n1:
        d = p / n1
        out = deep_linear.theory_errors(d ** (1.0 / k) * t, np.sqrt(d) * sb, deep_linear.TaStudent(
            n1=n1, n2=n1, n3=n1, eps=np.sqrt(d) * eps, tau=tau, n_layers=n_layers))[1]
        return out.reshape(shape)
    d, s, ovl, bulk = _under_parts(t, sb, n1, p, eps, tau, n_layers)
    factor = 1.0 if as_printed else np.sqrt(d)
    spikes = ((s - sb) ** 2 + 2.0 * s * sb * (1.0 - factor * ovl)).sum(-1)
    out = ((n1 - p) * eps**2 + bulk + spikes) / (sb**2).sum()
    return out.reshape(shape)


def optimal_test_error(teacher_svals: ArrayLike, n1: int, n_examples: int, eps: float, tau: float = 1.0,
                       n_layers: int = 3) -> tuple[float, float]:
    """Optimal early-stopping time and minimal test error for ``P`` examples (App. G, Fig. 13).

    Returns
    -------
    t_opt, err_opt : float
        From :func:`gendyn.deep_linear.optimal_early_stopping` of the equivalent problem:
        for ``P > N1`` the boosted ``D = 1`` problem (time divided by ``D^(1/k)``); for
        ``P <= N1`` the problem on the span (aspect ``D``, student rank ``P``), whose error
        is an increasing affine function of the corrected eq. (27):
        ``err = D err_span + (1 - D) + (N1 - P) eps^2 / sum sbar^2``.
    """
    sb, n1, p = _check(teacher_svals, n1, n_examples)
    eps, tau = _checks.positive(eps, "eps"), _checks.positive(tau, "tau")
    k = deep_linear._check_depth(n_layers)
    d = p / n1
    if p > n1:
        t_opt, e_opt = deep_linear.optimal_early_stopping(np.sqrt(d) * sb, deep_linear.TaStudent(
            n1=n1, n2=n1, n3=n1, eps=np.sqrt(d) * eps, tau=tau, n_layers=n_layers))
        return t_opt / d ** (1.0 / k), e_opt
    t_opt, e_span = deep_linear.optimal_early_stopping(np.sqrt(d) * sb, deep_linear.TaStudent(
        n1=n1, n2=p, n3=p, eps=eps, tau=tau, n_layers=n_layers))
    return t_opt, d * e_span + (1.0 - d) + (n1 - p) * eps**2 / (sb**2).sum()


def asymptotic_test_error(teacher_svals: ArrayLike, n1: int, n_examples: int, eps: float = 0.0) -> float:
    """Test error after training to convergence, ``t -> inf`` (App. G.3).

    Every learnable mode reaches its data value ``shat`` and the noise modes their mean
    square, 1 for the MP law of any aspect; for ``P < N1`` the frozen directions keep
    ``(N1 - P) eps^2``:

    * ``P <= N1``: ``[(N1 - P) eps^2 + (P - Nbar2) + sum_a ((shat_a - sbar_a)^2
      + 2 shat_a sbar_a (1 - sqrt(D) O_a))] / sum sbar^2`` (aspect ``D``, SNR ``sqrt(D) sbar``);
    * ``P > N1``: the ``D = 1`` value of the boosted problem,
      ``[(N1 - Nbar2) + sum_a ((shat_a - sig_a)^2 + 2 shat_a sig_a (1 - O_a))] / sum sig^2``
      with ``sig = sqrt(D) sbar``, which falls like ``N1/(D sum sbar^2)``.

    It grows with ``P`` up to ``P = N1`` (more noise modes are fitted) and then falls: it is
    non-monotonic, while the optimal early-stopping error falls monotonically.
    """
    sb, n1, p = _check(teacher_svals, n1, n_examples)
    eps = _checks.real(eps, "eps")
    d = p / n1
    sig = np.sqrt(d) * sb
    if p > n1:
        shat, ovl = rmt.spike_singular_value(sig, 1.0), rmt.spike_overlap(sig, 1.0)
        return float(((n1 - sb.size) + ((shat - sig) ** 2 + 2 * shat * sig * (1 - ovl)).sum()) / (sig**2).sum())
    shat, ovl = rmt.spike_singular_value(sig, d), rmt.spike_overlap(sig, d)
    spikes = ((shat - sb) ** 2 + 2 * shat * sb * (1 - np.sqrt(d) * ovl)).sum()
    return float(((n1 - p) * eps**2 + (p - sb.size) + spikes) / (sb**2).sum())


# ----------------------------------------------------------------------------------------
# the grid of Fig. 13, and the speed-up of learning in the oversampled regime
# ----------------------------------------------------------------------------------------

__all__ += ["TheoryGrid", "theory_grid", "SpeedupFit", "speedup_exponent"]


@dataclass(frozen=True)
class TheoryGrid:
    """The optimal and the converged test error of rank-1 teachers on a grid of ``P`` and SNRs (:func:`theory_grid`)."""

    n1: int  #: inputs ``N1 = N2 = N3``
    eps: float  #: initial scale of the TA students
    n_train: tuple[int, ...]  #: numbers of examples ``P``, increasing
    svms: np.ndarray  #: teacher singular values ``sbar``, shape (S,)
    optimum: np.ndarray  #: optimal stopping time and minimum test error (:func:`optimal_test_error`), shape (S, P, 2)
    asymptotic: np.ndarray  #: test error after convergence (:func:`asymptotic_test_error`), shape (S, P)

    @property
    def density(self) -> np.ndarray:
        """The data density ``D = P / N1`` of each ``P``, shape (P,)."""
        return np.array(self.n_train) / self.n1


def theory_grid(n1: int, n_train: Sequence[int], svms: ArrayLike, eps: float) -> TheoryGrid:
    """App. G on a grid (Fig. 13): the optimal and the converged test error of every ``P`` and SNR.

    A rank-1 teacher of singular value ``sbar`` labels ``P`` examples of ``N1`` inputs (eq. 25); the full-rank
    TA student's optimal early stopping is :func:`optimal_test_error` (the corrected eq. 27 for ``P < N1``, the
    boosted ``D = 1`` problem for ``P > N1``) and its error after convergence :func:`asymptotic_test_error`.

    Parameters
    ----------
    n1 : int
        Inputs ``N1 = N2 = N3``.
    n_train : sequence of int
        Numbers of examples ``P >= 1``, increasing.
    svms : array_like, shape (S,)
        Teacher singular values ``sbar > 0``.
    eps : float
        Initial scale of the TA students, ``> 0``.

    Returns
    -------
    TheoryGrid
    """
    n1 = _checks.integer(n1, "n1")
    n_train = _checks.integers(n_train, "n_train", 1, meaning=" (numbers of examples P)")
    if any(b <= a for a, b in zip(n_train, n_train[1:])):
        raise ValueError(f"n_train must be increasing; got {list(n_train)}")
    svms = _checks.real_array(svms, "svms", lower=0.0, open_lower=True, ndim=1, extra=" (teacher singular values)")
    if svms.size == 0:
        raise ValueError("svms must hold at least one teacher singular value")
    eps = _checks.positive(eps, "eps")
    optimum = np.array([[optimal_test_error([s], n1, p, eps) for p in n_train] for s in svms])
    asymptotic = np.array([[asymptotic_test_error([s], n1, p, eps) for p in n_train] for s in svms])
    return TheoryGrid(n1, eps, tuple(n_train), svms, optimum, asymptotic)


class SpeedupFit(NamedTuple):
    """The fitted exponent of the oversampled speed-up of learning (:func:`speedup_exponent`)."""

    gamma: float  #: the least-squares exponent, on a grid of step 0.01 in [0, 1.5]
    se: float  #: its bootstrap standard error over runs


def speedup_exponent(time: ArrayLike, curves: ArrayLike, grid: TheoryGrid, *, lr: float, rng: seeding.Rng = None,
                     n_boot: int = 100, **former: object) -> SpeedupFit:
    """Fit the exponent ``gamma`` of the speed-up of learning for ``P > N1``: time ``D^gamma t`` on top of the boost.

    The model of each strictly oversampled setting is the boosted ``D = 1`` theory
    (:func:`gendyn.deep_linear.theory_errors` at SNR and initial scale times ``sqrt(D)``) at the time
    ``D^gamma t``, shifted by the gradient-descent lag (:func:`gendyn.deep_linear.gd_lag` of the boosted
    mode, half grown). ``gamma`` on a grid of step 0.01 in [0, 1.5] minimises the squared log error of the
    mean curves over the drop of the error (before the theory's optimum, errors between 1.5 times its
    minimum and 0.9), jointly over the settings. The module's reading predicts ``gamma = 1/k`` (1/2 for one
    hidden layer); App. G's "speed-up by D" on top of the boost would be 1.

    Parameters
    ----------
    time : array_like, shape (T,)
        Record times ``t / tau >= 0``, increasing.
    curves : array_like, shape (P, S, runs, T)
        Test errors of the students of every ``P`` and SNR of ``grid``, ``runs >= 2`` each.
    grid : TheoryGrid
        The theory of the grid (:func:`theory_grid`); at least one ``P > N1``.
    lr : float
        The students' learning rate (for the lag), ``> 0``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the bootstrap resamples over runs (:func:`gendyn.seeding.numpy_generator`:
        ``numpy.random.default_rng(rng)`` for an integer); ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    n_boot : int
        Bootstrap resamples, ``>= 2``.

    Returns
    -------
    SpeedupFit
    """
    rng = seeding.former_rng(rng, former, "sampling.speedup_exponent", alone=True)
    grid = _checks.instance(grid, "grid", TheoryGrid, hint=" (from theory_grid)")
    t = _checks.real_array(time, "time", lower=0.0, ndim=1)
    if t.size < 2 or np.any(np.diff(t) <= 0):
        raise ValueError(f"time must hold at least two increasing record times; got {t.size}")
    curves = _checks.real_array(curves, "curves", lower=0.0, open_lower=True, ndim=4)
    n_p, n_s = len(grid.n_train), len(grid.svms)
    if curves.shape[:2] != (n_p, n_s) or curves.shape[2] < 2 or curves.shape[3] != t.size:
        raise ValueError(f"curves must have shape (P, S, runs >= 2, T) = ({n_p}, {n_s}, runs, {t.size}); "
                         f"got {curves.shape}")
    lr = _checks.positive(lr, "lr")
    n_boot = _checks.integer(n_boot, "n_boot", 2, " (bootstrap resamples)")
    n1, eps, ps = grid.n1, grid.eps, grid.n_train
    over = [j for j, p in enumerate(ps) if p > n1]
    if not over:
        raise ValueError(f"grid must hold a number of examples P > N1 = {n1}; got n_train = {list(ps)}")
    runs = curves.shape[2]
    gammas = np.linspace(0.0, 1.5, 151)
    model = {}  # (j, i) -> (window mask, model log-curves for every gamma)
    for j in over:
        d = ps[j] / n1
        for i, s in enumerate(grid.svms):
            shat_boost = float(rmt.spike_singular_value(np.sqrt(d) * s, 1.0))
            lag = float(deep_linear.gd_lag(shat_boost, np.sqrt(d) * eps, lr * np.sqrt(d),
                                           s=shat_boost / 2)) / np.sqrt(d)
            base = test_error(np.maximum(t - lag, 0), [s], n1, ps[j], eps)
            window = (t < grid.optimum[i, j, 0]) & (base < 0.9) & (base > 1.5 * grid.optimum[i, j, 1])
            boosted = np.stack([deep_linear.theory_errors(d**g * np.maximum(t[window] - lag, 0),
                                                          np.sqrt(d) * np.array([s]),
                                                          deep_linear.TaStudent(n1=n1, n2=n1, n3=n1,
                                                                                eps=np.sqrt(d) * eps))[1]
                                for g in gammas])
            model[j, i] = (window, np.log(boosted))
    if not any(window.any() for window, _ in model.values()):
        raise ValueError("time must reach into the drop of the error before the optimum of some P > N1; no record "
                         "time falls in the fit window")

    def fit_gamma(sample):
        """Least-squares exponent for mean curves built from the runs chosen by sample(j, i)."""
        cost = np.zeros(gammas.size)
        for (j, i), (window, log_model) in model.items():
            m = curves[j, i][sample(j, i)].mean(0)[window]
            cost += ((np.log(m)[None, :] - log_model) ** 2).sum(-1)
        return gammas[cost.argmin()]

    boot = seeding.numpy_generator(rng)
    gamma_hat = fit_gamma(lambda j, i: slice(None))
    gamma_boot = [fit_gamma(lambda j, i: boot.integers(0, runs, runs)) for _ in range(n_boot)]
    return SpeedupFit(float(gamma_hat), float(np.std(gamma_boot, ddof=1)))
