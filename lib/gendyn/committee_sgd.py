"""Online SGD of two-layer teacher-student networks: the simulations of Goldt et al. (2019).

Goldt, Advani, Saxe, Krzakala & Zdeborová, "Dynamics of stochastic gradient descent for
two-layer neural networks in the teacher-student setup" (NeurIPS 2019; JSTAT 2020).
The theory (ODEs (9), asymptotic errors (10)-(15)) is :mod:`gendyn.committee`; this module
runs the networks themselves.

Model and updates (eqs. 1-3)
----------------------------
Teacher ``y = sum_m v*_m g(rho_m) + sigma zeta``, student ``phi = sum_k v_k g(lambda_k)``,
fields ``rho = w* x / sqrt(N)``, ``lambda = w x / sqrt(N)``, inputs ``x ~ N(0, I_N)``.
With ``Delta = phi - y`` one SGD step on a mini-batch of ``b`` samples is (the authors'
``nn2pp`` code, whose weight decay :mod:`gendyn.committee` also follows)::

    w_k <- (1 - kappa/N) w_k - eta   / sqrt(N) * (1/b) sum_mu v_k g'(lambda_k^mu) Delta^mu x^mu
    v_k <- (1 - kappa/N) v_k - eta_v / N       * (1/b) sum_mu g(lambda_k^mu) Delta^mu

(the second line only when the second layer is trained; all gradients are taken at the
weights before the step). Time is ``alpha = steps / N`` whatever the batch size, as in the
authors' code. Online learning draws fresh samples every step; with ``train_set_size = P``
the samples come from one fixed training set of ``P`` noisy examples, visited in
reshuffled passes (mini-batches are consecutive slices of a fresh permutation each pass).

Order parameters ``Q = w w^T / N``, ``R = w w*^T / N``, ``T = w* w*^T / N`` and ``v`` are
recorded at the steps ``round(alpha N)`` of a time grid (usually :func:`log_times`), and
``eps_g`` is eq. (4) evaluated on them (:func:`gendyn.committee.generalisation_error`,
the exact population error, no test set). The initial order parameters of every run are
kept, so :meth:`SGDResult.ode` integrates eqs. (9) from exactly the state the simulation
started from.

Two engines
-----------
``"weights"`` (default): the networks' weights, ``K x N`` numbers per student. Inputs are
drawn in blocks (``torch.randn``, float32: the Gaussian generator is the cost floor, ``N``
normals per step); the teacher fields of a block are one matrix product; only the
student's sequential update runs step by step, in a compiled (numba) loop. Supports every
option (mini-batches, finite training sets, weight decay, both layers).

``"order-parameters"``: the exact Markov chain of the order parameters of online SGD
(batch size 1). The law of the next step depends on the weights only through their Gram
matrix ``G = [[Q, R], [R^T, T]]``: with ``G = L L^T`` (Cholesky), the fields are
``(lambda, rho) = L z`` with ``z ~ N(0, I_{K+M})``, and ``|x|^2 = |z|^2 + chi2_{N-K-M}``
independently (the part of ``x`` orthogonal to the weights). The update ``w' = a w + c x^T``
(``a = 1 - kappa/N``, ``c_k = -eta/sqrt(N) v_k g'(lambda_k) Delta``) then gives exactly::

    R' = a R + c rho^T / sqrt(N)
    Q' = a^2 Q + a (lambda c^T + c lambda^T) / sqrt(N) + c c^T |x|^2 / N

so the sequence ``(Q, R, v)`` has the same law, step by step, as that of the full SGD at
this ``N`` (including every finite-``N`` fluctuation), at a cost independent of ``N``.
The fields are those of inputs in exact arithmetic; the ``"weights"`` engine's inputs are
float32-rounded Gaussians. Used for the long runs of the chapters; the tests and the
chapters check it against the ``"weights"`` engine.

Initial weights
---------------
:func:`initial_weights`. Student first layer i.i.d. ``N(0, init_var)``: ``init_var = 1``
for erf networks (the paper), ``1/N`` for ReLU and linear networks. The paper's text says
"variance ``1/sqrt(N)``" for the latter; we follow the facts sheet and the help text of
the authors' code (standard deviation ``1/sqrt(N)``, i.e. variance ``1/N``). Either way
``Q_kk << 1``: "small initial weights". Teacher rows i.i.d. ``N(0, 1)`` (``"gaussian"``,
the authors' choice, ``T = I + O(N^{-1/2})``) or rescaled Gram-Schmidt rows with
``T = I`` exactly (``"orthonormal"``: the ``N -> inf`` value the asymptotic formulas
assume).

Random numbers
--------------
Every stochastic function takes ``rng`` (an ``int``, a ``SeedSequence``, a torch or numpy generator, or
``None`` for fresh entropy; :mod:`gendyn.seeding`). Run ``r`` of a batch draws from the stream
``seeding.stream(rng, r)`` (for an integer ``s``, ``numpy.random.SeedSequence(s).spawn(runs)[r]``), so
its draws do not depend on the number of runs: :func:`initial_weights` draws its teacher and student
from it (numpy), :func:`simulate` its inputs and noise (a torch generator seeded with
:func:`gendyn.seeding.entropy` of it; the order-parameter chain: numba's generator seeded with 32 bits
of it) and the order of a training set from its sub-stream ``0``. Functions with several SGD runs of
their own take named streams of ``rng`` (:func:`ode_comparison`: ``"single"``, ``"spread"``,
``"early"``). Pass the initial weights and the SGD of one experiment *different* streams
(``stream(SEED, "erf", L, "start")`` and ``stream(SEED, "erf", L, "sgd")``): the same integer for
both seeds the numpy and torch generators from one ``SeedSequence``.

Public API
----------
ENGINES, TEACHERS     allowed values of ``engine`` and ``teacher``
initial_weights       draw teacher and student weights for a batch of runs
Initialisation        spec: how they are drawn (init_var, teacher, v, v_star, v_var)
InitialWeights        those weights, with their order parameters
log_times             a log-spaced grid of times alpha
log_and_late_times    that grid and evenly spaced times in the second half (for late averages)
simulate              run SGD for a batch of independent runs; returns an SGDResult
concurrently          runs at different settings side by side on the CPU threads (from gendyn.concurrency)
Sampling              spec: the examples of a step (batch_size, train_set_size); the SGD: committee.OnlineSGD
SGDResult             recorded times, eps_g, Q, R, v, initial state; ``.ode()``
order_parameters      Q, R, T from weights
near_specialised      erf students near the specialised state (no plateau to cross)
stationary_run        one long run of a soft committee machine and its asymptotic error (eqs. 10-13)
StationaryRun         that run, its ``eps_g*`` and standard error, the ODE's and the theory's
late_average          time average of the late records, with a batch-means standard error (gendyn.batch_means)
LateAverage           that average and its standard error
ode_comparison        SGD runs from one initial state against the ODEs (9) from it (§1, Fig. 1)
ODEComparison         those runs and the ODE solution
ode_distance          the RMS distance of each SGD run's error from the ODEs (Theorem 1, eq. 7)
ODEDistance           those runs and their distances
escape_time           the escape from the plateau: first crossing of eps_g below a threshold
linear_stationary_runs long runs of linear students: batch means of the stationary error, eta' (§3, Fig. 4)
LinearStationaryRuns  those runs, batch means and effective rates
long_ode_runs         the ODEs (9) to long times from near a fixed point and from random starts (§2-3)
LongODERuns           those runs and the fixed point's eps_g*
linear_student_start  the four linear students of Fig. 4 (LINEAR_VARIANTS): initial weights (§3)
linear_networks       eq. (12) for each of them, with their runs' batch means (LinearNetworks)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import scipy.special
import torch
from numba import njit
from numpy.typing import ArrayLike

from . import _checks, _random, _threads, committee as cm, seeding
from .batch_means import LateAverage, late_average  # re-exported: their former home, a stable name
from .concurrency import concurrently  # re-exported: its former home, a stable name
from .progress import track

__all__ = [
    "ENGINES",
    "TEACHERS",
    "InitialWeights",
    "SGDResult",
    "initial_weights",
    "log_times",
    "log_and_late_times",
    "order_parameters",
    "simulate",
    "concurrently",
    "LateAverage",
    "late_average",
    "near_specialised",
    "StationaryRun",
    "stationary_run",
    "ODEComparison",
    "ode_comparison",
    "ODEDistance",
    "ode_distance",
    "escape_time",
    "LinearStationaryRuns",
    "linear_stationary_runs",
    "LongODERuns", "long_ode_runs",
    "LINEAR_VARIANTS", "LinearStart", "linear_student_start", "LinearNetworks", "linear_networks",
]

ENGINES = ("weights", "order-parameters")
TEACHERS = ("gaussian", "orthonormal")
_ACT_CODE = {"erf": 0, "relu": 1, "linear": 2}
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT2 = 1.0 / math.sqrt(2.0)


# ----------------------------------------------------------------------------- checks


def _check_activation(activation):
    return _checks.choice(activation, "activation", cm.ACTIVATIONS)


# ------------------------------------------------------------------- initial weights


@dataclass
class InitialWeights:
    """Teacher and student weights of ``runs`` independent networks.

    Attributes
    ----------
    w : ndarray (runs, K, N)
        Student first-layer weights.
    w_star : ndarray (runs, M, N)
        Teacher first-layer weights.
    v : ndarray (runs, K)
        Student second-layer weights.
    v_star : ndarray (runs, M)
        Teacher second-layer weights.
    activation : str
        The activation the weights were drawn for (sets the default ``init_var``).
    """

    w: np.ndarray
    w_star: np.ndarray
    v: np.ndarray
    v_star: np.ndarray
    activation: str

    @property
    def runs(self) -> int:
        return self.w.shape[0]

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(N, K, M)``."""
        return self.w.shape[2], self.w.shape[1], self.w_star.shape[1]

    def order_parameters(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(Q, R, T)`` of every run, shapes (runs, K, K), (runs, K, M), (runs, M, M)."""
        return order_parameters(self.w, self.w_star)


def order_parameters(w: ArrayLike, w_star: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``Q = w w^T / N``, ``R = w w*^T / N``, ``T = w* w*^T / N`` (eq. 5), batched.

    Parameters
    ----------
    w : array_like (..., K, N)
    w_star : array_like (..., M, N)

    Returns
    -------
    Q, R, T : ndarray, shapes (..., K, K), (..., K, M), (..., M, M)
    """
    w = _checks.real_array(w, "w")
    w_star = _checks.real_array(w_star, "w_star")
    if w.ndim < 2 or w_star.ndim < 2 or w.shape[-1] != w_star.shape[-1]:
        raise ValueError(f"w (..., K, N) and w_star (..., M, N) need the same N; got {w.shape}, {w_star.shape}")
    n = w.shape[-1]
    wt = np.swapaxes(w, -1, -2)
    return w @ wt / n, w @ np.swapaxes(w_star, -1, -2) / n, w_star @ np.swapaxes(w_star, -1, -2) / n


def _default_init_var(activation, N):
    return 1.0 if activation == "erf" else 1.0 / N


def initial_weights(N: int, K: int, M: int, activation: str = "erf", *, runs: int = 1, rng: seeding.Rng = None,
                    init: Initialisation | None = None, **former: object) -> InitialWeights:
    """Draw teacher and student weights for ``runs`` independent networks.

    Parameters
    ----------
    N, K, M : int
        Input dimension, student and teacher hidden units (``N > K + M``).
    activation : {"erf", "relu", "linear"}
        Sets the default student initialisation.
    runs : int
        Number of independent networks (teacher and student drawn anew for each).
    rng : int, SeedSequence, torch or numpy Generator, or None
        The weights' random numbers: run ``r`` draws from the stream ``seeding.stream(rng, r)`` (for an
        integer ``s``, ``numpy.random.SeedSequence(s).spawn(runs)[r]``), so its weights do not depend on
        ``runs``; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    init : Initialisation, optional
        How teacher and student are drawn: the student's first-layer variance (default 1 for erf,
        ``1/N`` for ReLU and linear networks, module docstring), the teacher's rows, both second
        layers; default ``Initialisation()``.

    Returns
    -------
    InitialWeights

    Notes
    -----
    The former keywords ``init_var, teacher, v, v_star, v_var`` (now the fields of :class:`Initialisation`)
    and ``seed`` (now ``rng``) still work for one release, with a ``DeprecationWarning``.
    """
    rng = seeding.former_rng(rng, former, "committee_sgd.initial_weights", alone=True)
    init = Initialisation() if init is None else _checks.instance(init, "init", Initialisation,
                                                                  hint=" (init_var, teacher, v, v_star, v_var)")
    init_var, teacher, v, v_star, v_var = init.init_var, init.teacher, init.v, init.v_star, init.v_var
    act = _check_activation(activation)
    N = _checks.integer(N, "N", 2)
    K = _checks.integer(K, "K", 1)
    M = _checks.integer(M, "M", 1)
    if N <= K + M:
        raise ValueError(f"need N > K + M; got N={N}, K={K}, M={M}")
    runs = _checks.integer(runs, "runs", 1)
    root = seeding.stream(rng)
    init_var = _default_init_var(act, N) if init_var is None else init_var
    w = np.empty((runs, K, N))
    ws = np.empty((runs, M, N))
    vv = np.empty((runs, K))
    for r in range(runs):
        draws = seeding.numpy_generator(seeding.stream(root, r))
        ws[r] = draws.standard_normal((M, N))
        if teacher == "orthonormal":
            q, _ = np.linalg.qr(ws[r].T)
            ws[r] = q.T * math.sqrt(N)
        w[r] = draws.standard_normal((K, N)) * math.sqrt(init_var)
        vv[r] = draws.standard_normal(K) * math.sqrt(v_var) if isinstance(v, str) else v
    return InitialWeights(w, ws, vv, np.full((runs, M), v_star), act)


def log_times(alpha_max: float, n_points: int = 60, alpha_min: float = 0.01, N: int | None = None) -> np.ndarray:
    """Log-spaced times ``alpha`` from ``alpha_min`` to ``alpha_max``, with ``alpha = 0`` first.

    With ``N`` given, the times are rounded to whole steps (``alpha = steps / N``) and
    duplicates removed, so they are exactly the times a simulation records.
    """
    alpha_max = _checks.real(alpha_max, "alpha_max", positive=True)
    alpha_min = _checks.real(alpha_min, "alpha_min", positive=True)
    n_points = _checks.integer(n_points, "n_points", 2)
    if alpha_min >= alpha_max:
        raise ValueError(f"alpha_min must be < alpha_max; got {alpha_min} >= {alpha_max}")
    t = np.concatenate([[0.0], np.logspace(math.log10(alpha_min), math.log10(alpha_max), n_points)])
    if N is not None:
        N = _checks.integer(N, "N", 1)
        t = np.unique(np.round(t * N)) / N
    return t


def log_and_late_times(alpha_max: float, N: int, n_points: int = 40, n_late: int = 101) -> np.ndarray:
    """Recorded times of a long run: a log grid, and ``n_late`` evenly spaced times in its second half.

    The late times are where a time average reads the asymptotic error ``eps_g*`` (Goldt et al.
    2019, §2-3; e.g. :func:`late_average`), the log grid shows the learning curve.

    Parameters
    ----------
    alpha_max : float
        The run's horizon ``alpha`` (> 0).
    N : int
        Input dimension: every time is rounded to whole steps ``alpha = steps / N``.
    n_points : int
        Points of the log grid, :func:`log_times` from ``alpha = 0.01`` (and 0).
    n_late : int
        Evenly spaced times from ``alpha_max / 2`` to ``alpha_max`` (>= 2).

    Returns
    -------
    ndarray
        The sorted union of both grids, duplicates removed.
    """
    alpha_max = _checks.real(alpha_max, "alpha_max", positive=True)
    N = _checks.integer(N, "N", 1)
    n_late = _checks.integer(n_late, "n_late", 2)
    late = np.round(np.linspace(alpha_max / 2, alpha_max, n_late) * N) / N
    return np.union1d(log_times(alpha_max, n_points, N=N), late)


# --------------------------------------------------------------------- compiled kernels


@njit(cache=True, inline="always")
def _g(x, act):
    if act == 0:
        return math.erf(x * _INV_SQRT2)
    if act == 1:
        return x if x > 0.0 else 0.0
    return x


@njit(cache=True, inline="always")
def _dg(x, act):
    if act == 0:
        return _SQRT_2_OVER_PI * math.exp(-0.5 * x * x)
    if act == 1:
        return 1.0 if x > 0.0 else 0.0
    return 1.0


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _teacher_labels(X, w_star, v_star, act, inv_sqrt_n, noise, y):
    """``y = sum_m v*_m g(w*_m x / sqrt(N)) + noise`` for every row ``x`` of ``X`` (float32)."""
    M, N = w_star.shape
    for row in range(X.shape[0]):
        out = 0.0
        for m in range(M):
            acc = 0.0
            for n in range(N):
                acc += w_star[m, n] * X[row, n]
            out += v_star[m] * _g(acc * inv_sqrt_n, act)
        y[row] = out + noise[row]


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _weights_block(w, v, X, y, act, lr_w, lr_v, decay, train2, bs, inv_sqrt_n, lam, coef, gv):
    """``len(X) // bs`` SGD steps on the samples ``X`` (rows, float32) with labels ``y``, in place.

    ``lr_w = eta / sqrt(N) / bs``, ``lr_v = eta_v / N / bs``, ``decay = 1 - kappa / N``.
    Scratch: ``lam`` (K,), ``coef`` (bs, K), ``gv`` (K,). Every gradient of a step is
    taken at the weights before the step. (``fastmath`` only lets the compiler reorder the
    sums of the dot products; the order is fixed at compile time, so runs are identical.)
    """
    K, N = w.shape
    steps = X.shape[0] // bs
    for s in range(steps):
        for k in range(K):
            gv[k] = 0.0
        for j in range(bs):
            row = s * bs + j
            out = 0.0
            for k in range(K):
                acc = 0.0
                for n in range(N):
                    acc += w[k, n] * X[row, n]
                lam[k] = acc * inv_sqrt_n
                out += v[k] * _g(lam[k], act)
            delta = out - y[row]
            for k in range(K):
                coef[j, k] = lr_w * v[k] * _dg(lam[k], act) * delta
                if train2:
                    gv[k] += _g(lam[k], act) * delta
        if decay != 1.0:
            for k in range(K):
                for n in range(N):
                    w[k, n] *= decay
        for j in range(bs):
            row = s * bs + j
            for k in range(K):
                ck = coef[j, k]
                for n in range(N):
                    w[k, n] -= ck * X[row, n]
        if train2:
            for k in range(K):
                v[k] = decay * v[k] - lr_v * gv[k]


@njit(cache=True)
def _op_update(Q, R, v, v_star, f, xnorm, zeta, act, lr, lr2, sigma, decay, train2, N, c, gl):
    """One SGD step written on the order parameters, in place (module docstring).

    ``f = (lambda, rho)`` are the fields of the input, ``xnorm = |x|^2`` its squared norm,
    ``zeta`` the label noise (``y = teacher + sigma zeta``). Scratch: ``c``, ``gl`` (K,).
    """
    K = Q.shape[0]
    M = R.shape[1]
    sqrt_n = math.sqrt(N)
    out = 0.0
    for k in range(K):
        gl[k] = _g(f[k], act)
        out += v[k] * gl[k]
    for m in range(M):
        out -= v_star[m] * _g(f[K + m], act)
    delta = out - sigma * zeta
    for k in range(K):
        c[k] = -lr / sqrt_n * v[k] * _dg(f[k], act) * delta
    for k in range(K):
        for m in range(M):
            R[k, m] = decay * R[k, m] + c[k] * f[K + m] / sqrt_n
    for k in range(K):
        for l in range(k, K):
            val = decay * decay * Q[k, l] + decay * (f[k] * c[l] + c[k] * f[l]) / sqrt_n + c[k] * c[l] * xnorm / N
            Q[k, l] = val
            Q[l, k] = val
    if train2:
        for k in range(K):
            v[k] = decay * v[k] - lr2 / N * gl[k] * delta


@njit(cache=True, nogil=True)
def _order_parameter_run(Q, R, T, v, v_star, act, lr, lr2, sigma, wd, train2, N, record_steps, seed,
                         outQ, outR, outv):
    """The exact order-parameter chain of online SGD (module docstring), recording at ``record_steps``.

    Each step: Cholesky factor ``L`` of the Gram matrix ``G = [[Q, R], [R^T, T]]``, fields
    ``f = L z`` and ``|x|^2 = |z|^2 + chi2(N - K - M)``, then :func:`_op_update`.
    """
    np.random.seed(seed)
    K = Q.shape[0]
    M = T.shape[0]
    d = K + M
    G = np.empty((d, d))
    L = np.zeros((d, d))
    z = np.empty(d)
    f = np.empty(d)
    c = np.empty(K)
    gl = np.empty(K)
    decay = 1.0 - wd / N
    dof = N - d
    for m in range(M):
        for n in range(M):
            G[K + m, K + n] = T[m, n]
    step = 0
    for i in range(record_steps.shape[0]):
        target = record_steps[i]
        while step < target:
            for k in range(K):
                for l in range(K):
                    G[k, l] = Q[k, l]
                for m in range(M):
                    G[k, K + m] = R[k, m]
                    G[K + m, k] = R[k, m]
            for p in range(d):
                s = G[p, p]
                for q in range(p):
                    s -= L[p, q] * L[p, q]
                piv = math.sqrt(s) if s > 0.0 else 0.0
                L[p, p] = piv
                for r in range(p + 1, d):
                    s = G[r, p]
                    for q in range(p):
                        s -= L[r, q] * L[p, q]
                    L[r, p] = s / piv if piv > 0.0 else 0.0
            znorm = 0.0
            for p in range(d):
                z[p] = np.random.standard_normal()
                znorm += z[p] * z[p]
            for p in range(d):
                s = 0.0
                for q in range(p + 1):
                    s += L[p, q] * z[q]
                f[p] = s
            xnorm = znorm + np.random.chisquare(dof)
            _op_update(Q, R, v, v_star, f, xnorm, np.random.standard_normal(), act, lr, lr2, sigma, decay,
                       train2, N, c, gl)
            step += 1
        outQ[i] = Q
        outR[i] = R
        outv[i] = v


# ------------------------------------------------------------------------- simulation


@dataclass
class SGDResult:
    """Recorded trajectories of ``runs`` independent SGD runs.

    Attributes
    ----------
    alpha : ndarray (n_times,)
        Recorded times, ``steps / N`` exactly.
    eg : ndarray (runs, n_times)
        Generalisation error eq. (4) from the order parameters.
    Q, R, v : ndarray
        Order parameters, shapes (runs, n_times, K, K), (runs, n_times, K, M), (runs, n_times, K).
    T, v_star : ndarray
        Teacher order parameters, (runs, M, M) and (runs, M).
    Q0, R0, v0 : ndarray
        Initial order parameters of each run (equal to ``Q[:, 0]`` etc. when ``alpha[0] = 0``).
    train_error : ndarray (runs, n_times) or None
        With a finite training set: ``1/(2P) sum_mu (phi(x^mu) - y^mu)^2`` on its noisy labels.
    N : int
    activation, engine : str
    settings : dict
        ``lr, sigma, lr2, train_second_layer, weight_decay, batch_size, train_set_size``.
    steps : int
        SGD steps per run.
    seconds : float
        Wall time of the simulation.
    """

    alpha: np.ndarray
    eg: np.ndarray
    Q: np.ndarray
    R: np.ndarray
    v: np.ndarray
    T: np.ndarray
    v_star: np.ndarray
    Q0: np.ndarray
    R0: np.ndarray
    v0: np.ndarray
    train_error: np.ndarray
    N: int
    activation: str
    engine: str
    settings: dict = field(default_factory=dict)
    steps: int = 0
    seconds: float = 0.0

    @property
    def steps_per_second(self) -> float:
        """SGD steps per second, summed over the runs."""
        return self.steps * self.eg.shape[0] / self.seconds if self.seconds > 0 else math.inf

    def _run(self, run):
        """``run`` as an index in ``[0, runs)`` (negative indices would wrap around)."""
        runs = self.eg.shape[0]
        if _checks.integer(run, "run", 0) >= runs:
            raise ValueError(f"run must be an integer in [0, {runs}); got {run!r}")
        return int(run)

    def initial_state(self, run: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(Q, R, T, v, v_star)`` at ``alpha = 0`` of one run: the ODEs' initial condition."""
        run = self._run(run)
        return self.Q0[run], self.R0[run], self.T[run], self.v0[run], self.v_star[run]

    def ode(self, run: int = 0, times: ArrayLike | None = None, **kwargs: float | str) -> cm.ODEResult:
        """Integrate eqs. (9) from this run's initial state with the run's settings.

        ``times`` defaults to :attr:`alpha`; other keywords (``method``, ``rtol``, ``atol``) make the
        :class:`gendyn.committee.ODESolver` of :func:`gendyn.committee.integrate_odes`.
        """
        s = self.settings
        run = self._run(run)
        sgd = cm.OnlineSGD(s["lr"], s["sigma"], s["lr2"], s["train_second_layer"], s["weight_decay"])
        return cm.integrate_odes(cm.OrderParameters(*self.initial_state(run)), self.activation, sgd,
                                 self.alpha if times is None else times, solver=cm.ODESolver(**kwargs))


def _check_gram(Qs, Rs, T, alpha):
    """Stop if the chain's order parameters stopped being a Gram matrix (they can, in floating point).

    The chain updates (Q, R) without the weights; when student vectors become nearly collinear (e.g.
    strong weight decay pulls every unit onto one direction), rounding can make the Gram matrix of
    (w, w*) indefinite, after which the updates amplify the error instead of returning garbage quietly.
    """
    T = np.broadcast_to(T[:, None], Rs.shape[:2] + T.shape[1:])
    gram = np.concatenate([np.concatenate([Qs, Rs], -1), np.concatenate([np.swapaxes(Rs, -1, -2), T], -1)], -2)
    scale = np.maximum(1.0, np.abs(gram).max(axis=(-2, -1)))
    bad = np.linalg.eigvalsh(gram)[..., 0] < -1e-6 * scale
    if bad.any():
        run, t = np.argwhere(bad)[0]
        raise FloatingPointError(
            f"engine 'order-parameters' lost a valid state (the Gram matrix of student and teacher weights became "
            f"indefinite) in run {run} by alpha = {alpha[t]:.6g}: student units nearly collinear; use "
            "engine='weights' for this setting")


def _record_steps(times, N):
    times = cm._check_times(times)  # the same times as the ODEs take
    steps = np.unique(np.round(times * N).astype(np.int64))
    return steps


def _student_outputs(X, w, v, act, inv_sqrt_n):
    lam = (X.astype(np.float64) @ w.T) * inv_sqrt_n
    if act == "erf":
        gl = scipy.special.erf(lam * _INV_SQRT2)
    elif act == "relu":
        gl = np.maximum(lam, 0.0)
    else:
        gl = lam
    return gl @ v


def _run_weights(init, r, act, lr, lr2, sigma, wd, train2, bs, P, steps_rec, child, block):
    N, K, M = init.shape
    w = init.w[r].copy()
    v = init.v[r].copy()
    ws, vs = init.w_star[r], init.v_star[r]
    gen = seeding.torch_generator(child)  # inputs and noise
    inv_sqrt_n = 1.0 / math.sqrt(N)
    code = _ACT_CODE[act]
    lam, coef, gv = np.empty(K), np.empty((bs, K)), np.empty(K)
    n_rec = len(steps_rec)
    Qs, Rs, vs_out = np.empty((n_rec, K, K)), np.empty((n_rec, K, M)), np.empty((n_rec, K))
    train_err = np.full(n_rec, np.nan)
    if P is not None:
        X_train = _random.randn(P, N, generator=gen, dtype=torch.float32).numpy()
        y_train = np.empty(P)
        _teacher_labels(X_train, ws, vs, code, inv_sqrt_n,
                        sigma * _random.randn(P, generator=gen, dtype=torch.float64).numpy(), y_train)
        order_rng = seeding.numpy_generator(seeding.stream(child, 0))  # the order of the training set
        per_pass = P // bs
        perm, pos = order_rng.permutation(P), 0
    step = 0
    for i, target in enumerate(steps_rec):
        while step < target:
            n_steps = int(min(block, target - step))
            if P is None:
                X = _random.randn(n_steps * bs, N, generator=gen, dtype=torch.float32).numpy()
                noise = sigma * _random.randn(n_steps * bs, generator=gen, dtype=torch.float64).numpy()
                y = np.empty(n_steps * bs)
                _teacher_labels(X, ws, vs, code, inv_sqrt_n, noise, y)
            else:
                idx = np.empty(n_steps * bs, dtype=np.int64)
                for s in range(n_steps):
                    if pos == per_pass:
                        perm, pos = order_rng.permutation(P), 0
                    idx[s * bs:(s + 1) * bs] = perm[pos * bs:(pos + 1) * bs]
                    pos += 1
                X, y = X_train[idx], y_train[idx]
            _weights_block(w, v, X, y, code, lr / math.sqrt(N) / bs, lr2 / N / bs, 1.0 - wd / N, train2, bs,
                           inv_sqrt_n, lam, coef, gv)
            step += n_steps
        Qs[i], Rs[i], _ = order_parameters(w, ws)
        vs_out[i] = v
        if P is not None:
            train_err[i] = 0.5 * np.mean((_student_outputs(X_train, w, v, act, inv_sqrt_n) - y_train) ** 2)
    return Qs, Rs, vs_out, train_err


def _run_order_parameters(init, r, act, lr, lr2, sigma, wd, train2, steps_rec, child):
    N, K, M = init.shape
    Q, R, T = order_parameters(init.w[r], init.w_star[r])
    Q, R = Q.copy(), R.copy()
    v = init.v[r].copy()
    n_rec = len(steps_rec)
    outQ, outR, outv = np.empty((n_rec, K, K)), np.empty((n_rec, K, M)), np.empty((n_rec, K))
    seed = int(child.generate_state(1, dtype=np.uint32)[0])
    _order_parameter_run(Q, R, T, v, init.v_star[r].copy(), _ACT_CODE[act], lr, lr2, sigma, wd, train2, N,
                         steps_rec, seed, outQ, outR, outv)
    return outQ, outR, outv, np.full(n_rec, np.nan)


def _each_run(one_run, runs, progress):
    """``[one_run(r) for r in range(runs)]``, the runs spread over torch's CPU threads.

    Each run draws from its own stream and its compiled loops release the GIL, so threads give the
    same bytes as one loop: numba's ``np.random`` state is per thread, and each run seeds it first.
    """
    wrap = (lambda done: track(done, desc=progress, total=runs)) if progress else None
    return _threads.each(one_run, range(runs), torch.get_num_threads(), wrap)


def simulate(initial: InitialWeights, sgd: cm.OnlineSGD, times: ArrayLike, *, sampling: Sampling | None = None,
             engine: str = "weights", rng: seeding.Rng = None, block: int = 2048, progress: str | None = None,
             **former: object) -> SGDResult:
    """Train the students of ``initial`` by SGD (eqs. 2-3) and record their order parameters.

    Parameters
    ----------
    initial : InitialWeights
        Teacher and student weights of the runs (:func:`initial_weights`); not modified.
        Its ``activation`` is that of teacher and student.
    sgd : gendyn.committee.OnlineSGD
        First-layer learning rate ``eta`` (step ``eta / sqrt(N)``, > 0), the teacher's output noise
        ``sigma``, second-layer rate ``eta_v`` (step ``eta_v / N``; default ``lr``), whether ``v`` is
        trained (otherwise a soft committee machine, ``v`` fixed), and the weight decay
        ``kappa >= 0``: every step shrinks the trained weights by ``1 - kappa / N``. The same spec
        as that of the ODEs (:func:`gendyn.committee.integrate_odes`).
    times : array_like
        Non-decreasing times ``alpha >= 0`` to record at (rounded to whole steps
        ``round(alpha N)``; see :func:`log_times`). The run lasts until the last one.
    sampling : Sampling, optional
        The examples of a step: their number, and online learning or a fixed training set;
        default ``Sampling()`` (online, one example per step).
    engine : {"weights", "order-parameters"}
        See the module docstring; "order-parameters" needs online learning with
        ``batch_size = 1``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The inputs, noise and training sets: run ``r`` draws from the stream ``seeding.stream(rng, r)``
        (module docstring), independent of the number of runs; ``None``: fresh entropy (see
        :mod:`gendyn.seeding`). Results are identical run to run (CPU) for identical arguments.
    block : int
        Steps whose inputs are drawn at once ("weights" engine; memory ``block * N * 4``
        bytes). Changing it changes the random stream.
    progress : str, optional
        Show a terminal progress bar over the runs with this label.

    Returns
    -------
    SGDResult

    Notes
    -----
    The former call ``simulate(initial, lr, sigma, times, *, lr2=None, train_second_layer=False,
    weight_decay=0.0, batch_size=1, train_set_size=None, engine="weights", seed=0, block=2048, progress=None)``
    and the keyword ``seed`` (now ``rng``) still work for one release, with a ``DeprecationWarning``.
    """
    rng = seeding.former_rng(rng, former, "committee_sgd.simulate", alone=True)
    _checks.instance(initial, "initial", InitialWeights, hint=" (from initial_weights)")
    act = _check_activation(initial.activation)
    _checks.instance(sgd, "sgd", cm.OnlineSGD, hint=" (lr, sigma, lr2, train_second_layer, weight_decay)")
    sampling = Sampling() if sampling is None else _checks.instance(sampling, "sampling", Sampling,
                                                                    hint=" (batch_size, train_set_size)")
    if sgd.lr == 0:
        raise ValueError("sgd.lr must be a finite number > 0; got 0.0")
    lr, sigma, lr2, wd, train_second_layer = sgd.lr, sgd.sigma, sgd.rate2, sgd.weight_decay, sgd.train_second_layer
    bs, train_set_size = sampling.batch_size, sampling.train_set_size
    block = _checks.integer(block, "block", 1)
    engine = _checks.choice(engine, "engine", ENGINES)
    train2 = _checks.flag(train_second_layer, "train_second_layer")
    progress = _checks.text(progress, "progress", optional=True)
    N, K, M = initial.shape
    P = train_set_size
    if engine == "order-parameters" and (bs != 1 or P is not None):
        raise ValueError("engine 'order-parameters' simulates online SGD with batch_size=1 only; got "
                         f"batch_size={bs}, train_set_size={P} (allowed: batch_size=1, train_set_size=None)")
    steps_rec = _record_steps(times, N)
    runs = initial.runs
    # every step: the students' and teachers' outputs and the updates, ~ 10 N (K + M) per example
    _checks.work_limit(10.0 * runs * float(steps_rec[-1]) * bs * N * (K + M),
                       f"times up to {float(steps_rec[-1]) / N:g} (steps = times * N = {int(steps_rec[-1])}) with "
                       f"{runs} runs, batch_size={bs}, N={N}, K={K}, M={M}",
                       iterations=runs * float(steps_rec[-1]) / block)
    root = seeding.stream(rng)
    children = [seeding.stream(root, r) for r in range(runs)]
    if engine == "weights":
        def one_run(r):
            return _run_weights(initial, r, act, lr, lr2, sigma, wd, train2, bs, P, steps_rec, children[r], block)
    else:
        def one_run(r):
            return _run_order_parameters(initial, r, act, lr, lr2, sigma, wd, train2, steps_rec, children[r])
    start = time.perf_counter()
    out = _each_run(one_run, runs, progress)
    seconds = time.perf_counter() - start
    Qs, Rs, vs, te = (np.stack(x) for x in zip(*out))
    Q0, R0, T = initial.order_parameters()
    if engine == "order-parameters":
        _check_gram(Qs, Rs, T, steps_rec / N)
    eg = cm.generalisation_error(Qs, Rs, T[:, None], vs, initial.v_star[:, None], act)
    settings = dict(lr=lr, sigma=sigma, lr2=lr2, train_second_layer=train2, weight_decay=wd, batch_size=bs,
                    train_set_size=P)
    return SGDResult(steps_rec / N, np.asarray(eg), Qs, Rs, vs, T, initial.v_star.copy(), Q0, R0,
                     initial.v.copy(), te if P is not None else None, N, act, engine, settings,
                     int(steps_rec[-1]), seconds)


# ------------------------------------------------------------- asymptotic errors (§2)


def near_specialised(N: int, K: int, M: int, *, rng: seeding.Rng = None, jitter: float = 0.01,
                     **former: object) -> InitialWeights:
    """Erf students near the specialised state (Goldt et al. 2019, §2): no plateau to cross.

    The weights of :func:`initial_weights` (``teacher="orthonormal"``, one run, ``rng``) are
    replaced by i.i.d. ``N(0, jitter^2)`` numbers (drawn from the root stream of ``rng``, run 0's being
    the teacher's: ``numpy.random.default_rng(s)`` for an integer ``s``), and student
    units ``0 .. M-1`` get the teacher's vectors added: ``M`` specialists, ``K - M`` superfluous units
    of small weights, the state whose noisy fixed point eq. (10) perturbs.

    Parameters
    ----------
    N, K, M : int
        Input dimension, student and teacher hidden units (``K >= M``, ``N > K + M``).
    rng : int, SeedSequence, torch or numpy Generator, or None
        The teacher's and the jitter's random numbers; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
        The former keyword ``seed`` still works for one release, with a ``DeprecationWarning``.
    jitter : float
        Standard deviation of the student's weights around the specialised state, ``>= 0``.

    Returns
    -------
    InitialWeights
        One run of erf networks, ``v = v* = 1``.
    """
    rng = seeding.former_rng(rng, former, "committee_sgd.near_specialised", alone=True)
    K = _checks.integer(K, "K", 1)
    M = _checks.integer(M, "M", 1)
    if K < M:
        raise ValueError(f"K must be >= M = {M} (one specialist per teacher unit); got K={K}")
    jitter = _checks.real(jitter, "jitter", extra=" (a standard deviation)")
    root = seeding.stream(rng)
    init = initial_weights(N, K, M, "erf", rng=root, init=Initialisation(teacher="orthonormal"))  # from stream 0
    w = jitter * seeding.numpy_generator(root).standard_normal(init.w.shape)
    w[:, :M] += init.w_star
    return InitialWeights(w, init.w_star, init.v, init.v_star, "erf")


@dataclass(frozen=True)
class StationaryRun:
    """One long online-SGD run of a soft committee machine and its asymptotic error (:func:`stationary_run`).

    Attributes
    ----------
    run : SGDResult
        The run (order-parameter chain), recorded at :func:`log_and_late_times`.
    sgd, se : float
        ``eps_g*``: the time average of ``eps_g`` over the second half (:func:`late_average`), and
        its batch-means standard error.
    theory : float or None
        Eq. (10) (erf) or (12) (linear) at the run's ``M, K, lr, sigma``
        (:func:`gendyn.committee.asymptotic_error`); ``None`` for ReLU or with weight decay. With both
        layers trained, the denoising fixed point (erf, ``K`` a multiple of ``M``), else ``None``.
    ode, ode_long : float or None
        With ``ode=True``: the ODEs (9) from the run's initial state averaged over the same times,
        and their ``eps_g`` at 10 times the horizon.
    ode_run : gendyn.committee.ODEResult or None
        That ODE solution at the run's times.
    """

    run: SGDResult
    sgd: float
    se: float
    theory: float | None = None
    ode: float | None = None
    ode_long: float | None = None
    ode_run: cm.ODEResult | None = None

    @property
    def K(self) -> int:
        """Student hidden units."""
        return self.run.Q.shape[-1]

    @property
    def M(self) -> int:
        """Teacher hidden units."""
        return self.run.R.shape[-1]

    @property
    def L(self) -> int:
        """Superfluous units ``K - M``."""
        return self.K - self.M

    @property
    def lr(self) -> float:
        """The learning rate ``eta``."""
        return self.run.settings["lr"]


def stationary_run(initial: InitialWeights, lr: float, sigma: float, alpha_max: float, *,
                   weight_decay: float = 0.0, rng: seeding.Rng = None, ode: bool = False,
                   train_second_layer: bool = False, **former: object) -> StationaryRun:
    """One long SGD run of a soft committee machine (``v = v*`` fixed) and its asymptotic error ``eps_g*``.

    Goldt et al. (2019) §2, Fig. 2: online SGD (eq. 2) as the exact chain of its order parameters
    (``engine="order-parameters"``) up to ``alpha_max``, recorded at :func:`log_and_late_times`;
    ``eps_g*`` is the time average over the second half (:func:`late_average`), compared with
    eq. (10) (erf) or (12) (linear) and, with ``ode``, with the ODEs (9) from the same initial state.
    With ``train_second_layer`` (§3, Fig. 3a: eqs. 2-3, both layers at rate ``lr``) the theory is the
    denoising fixed point (:func:`gendyn.committee.asymptotic_error` with ``train_second_layer=True``)
    for erf students with ``K`` a multiple of ``M`` and one ``v*`` for every teacher unit, else ``None``.

    Parameters
    ----------
    initial : InitialWeights
        One run's teacher and student (:func:`initial_weights`, :func:`near_specialised`).
    lr : float
        Learning rate ``eta > 0``.
    sigma : float
        Output noise ``>= 0``.
    alpha_max : float
        The run's horizon ``alpha > 0`` (its second half must hold 100 distinct steps).
    weight_decay : float
        ``kappa >= 0`` (the paper's section G); the theory is then ``None``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The inputs and noise (:func:`simulate`); ``None``: fresh entropy (see :mod:`gendyn.seeding`). The
        former keyword ``seed`` still works for one release, with a ``DeprecationWarning``.
    ode : bool
        Also integrate the ODEs (9) from the run's initial state: their average over the same
        times and their ``eps_g`` at ``10 alpha_max``.
    train_second_layer : bool
        Train ``v`` too (:func:`simulate`), at the rate ``lr``.

    Returns
    -------
    StationaryRun

    Raises
    ------
    FloatingPointError
        If the run's error is not finite (SGD diverged).
    """
    rng = seeding.former_rng(rng, former, "committee_sgd.stationary_run", alone=True)
    _checks.instance(initial, "initial", InitialWeights, hint=" (from initial_weights or near_specialised)")
    if initial.runs != 1:
        raise ValueError(f"initial must hold one run (a stationary run averages one trajectory); got {initial.runs}")
    alpha_max = _checks.real(alpha_max, "alpha_max", positive=True)
    ode = _checks.flag(ode, "ode")
    train2 = _checks.flag(train_second_layer, "train_second_layer")
    N, K, M = initial.shape
    if alpha_max * N < 200:
        raise ValueError(f"alpha_max must be >= 200 / N = {200 / N:g} (its second half must hold 100 SGD steps to "
                         f"average); got {alpha_max!r}")
    res = simulate(initial, cm.OnlineSGD(lr, sigma, train_second_layer=train2, weight_decay=weight_decay),
                   log_and_late_times(alpha_max, N), engine="order-parameters", rng=rng)
    if not np.all(np.isfinite(res.eg)):
        raise FloatingPointError(f"the SGD run's error is not finite (diverged) at lr={lr}, sigma={sigma}, K={K}")
    sgd, se = late_average(res.alpha, res.eg[0])
    theory = None
    if train2:
        v_star = initial.v_star[0]
        if initial.activation == "erf" and res.settings["weight_decay"] == 0 and K % M == 0 and np.all(
                v_star == v_star[0]):
            theory = cm.asymptotic_error("erf", M, K, cm.OnlineSGD(res.settings["lr"], res.settings["sigma"],
                                                                   train_second_layer=True), v_star=float(v_star[0]))
    elif initial.activation != "relu" and res.settings["weight_decay"] == 0:
        theory = cm.asymptotic_error(initial.activation, M, K, cm.OnlineSGD(res.settings["lr"], res.settings["sigma"]))
    if not ode:
        return StationaryRun(res, sgd, se, theory)
    ode_run = res.ode(0)
    ode_mean, _ = late_average(res.alpha, ode_run.eg)
    ode_long = res.ode(0, times=[0.0, 10 * alpha_max]).eg[-1]
    return StationaryRun(res, sgd, se, theory, ode_mean, ode_long, ode_run)


# ------------------------------------------------------------- SGD against the ODEs (§1)


def _repeated(initial, runs):
    """``runs`` copies of one network's initial weights: SGD runs from the same initial state."""
    return InitialWeights(*(np.repeat(a, runs, 0) for a in (initial.w, initial.w_star, initial.v, initial.v_star)),
                          initial.activation)


def _finite_runs(res, what):
    """``res`` if every recorded error is finite; raises FloatingPointError (SGD diverged) otherwise."""
    if not np.all(np.isfinite(res.eg)):
        raise FloatingPointError(f"the error of the {what} is not finite (SGD diverged) at "
                                 f"lr={res.settings['lr']}, sigma={res.settings['sigma']}")
    return res


@dataclass(frozen=True)
class ODEComparison:
    """SGD runs from one initial state and the ODEs (9) from it (:func:`ode_comparison`).

    Attributes
    ----------
    single : SGDResult
        One run on the weights (``engine="weights"``), recorded at the comparison's times.
    spread : SGDResult
        ``spread_runs`` runs of the order-parameter chain from the same state, at the same times.
    early : SGDResult
        ``early_runs`` runs of the chain at the times ``<= early_alpha``: the spread of SGD there.
    ode : gendyn.committee.ODEResult
        The ODEs (9) from the state, at the comparison's times.
    """

    single: SGDResult
    spread: SGDResult
    early: SGDResult
    ode: cm.ODEResult

    @property
    def K(self) -> int:
        """Student hidden units."""
        return self.single.Q.shape[-1]


def ode_comparison(initial: InitialWeights, lr: float, sigma: float, times: ArrayLike, *, spread_runs: int,
                   early_runs: int, early_alpha: float, rng: seeding.Rng = None, **former: object) -> ODEComparison:
    """SGD at a finite ``N`` against the ODEs (9) from one initial state: Goldt et al. (2019) §1, Fig. 1.

    Online SGD (eqs. 2-3; a soft committee machine, ``v`` fixed) follows the ODEs (9) up to
    fluctuations ``O(N^-1/2)`` (Theorem 1, eq. 7). From the one network of ``initial``: one run on
    the weights, ``spread_runs`` runs of the order-parameter chain (the spread of SGD over the whole
    run) and ``early_runs`` runs of it up to ``early_alpha`` (the spread at early times), and the
    ODEs (9) from the same state (:meth:`SGDResult.ode`).

    Parameters
    ----------
    initial : InitialWeights
        One run's teacher and student (:func:`initial_weights`).
    lr : float
        Learning rate ``eta > 0``.
    sigma : float
        Output noise ``>= 0``.
    times : array_like
        Times ``alpha`` to record at (:func:`log_times`); at least one of them ``<= early_alpha``.
    spread_runs : int
        Runs of the chain over all ``times`` (``>= 1``).
    early_runs : int
        Runs of the chain up to ``early_alpha`` (``>= 2``: a spread needs two).
    early_alpha : float
        End of the early times, ``> 0``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The inputs and noise (:func:`simulate`) of the run on the weights, the spread runs and the early
        runs: the streams ``"single"``, ``"spread"`` and ``"early"`` of ``rng``; ``None``: fresh entropy
        (see :mod:`gendyn.seeding`). The former keyword ``seed`` still works for one release, with a
        ``DeprecationWarning``.

    Returns
    -------
    ODEComparison

    Raises
    ------
    FloatingPointError
        If a run's error is not finite (SGD diverged).
    """
    rng = seeding.former_rng(rng, former, "committee_sgd.ode_comparison", alone=True)
    _checks.instance(initial, "initial", InitialWeights, hint=" (from initial_weights)")
    if initial.runs != 1:
        raise ValueError(f"initial must hold one run (every SGD run starts from its state); got {initial.runs}")
    spread_runs = _checks.integer(spread_runs, "spread_runs", 1)
    early_runs = _checks.integer(early_runs, "early_runs", 2, " (a spread needs two runs)")
    early_alpha = _checks.real(early_alpha, "early_alpha", positive=True)
    times = _checks.real_array(times, "times", ndim=1, lower=0.0)
    if not np.any(times <= early_alpha):
        raise ValueError(f"early_alpha must be >= the first of times = {times[0]:g}; got {early_alpha!r}")
    single_rng, spread_rng, early_rng = seeding.streams(rng, "single", "spread", "early")
    single = _finite_runs(simulate(initial, cm.OnlineSGD(lr, sigma), times, rng=single_rng), "run on the weights")
    spread = _finite_runs(simulate(_repeated(initial, spread_runs), cm.OnlineSGD(lr, sigma), times,
                                   engine="order-parameters", rng=spread_rng), "spread runs")
    early = _finite_runs(simulate(_repeated(initial, early_runs), cm.OnlineSGD(lr, sigma), times[times <= early_alpha],
                                  engine="order-parameters", rng=early_rng), "early runs")
    return ODEComparison(single, spread, early, single.ode(0))


@dataclass(frozen=True)
class ODEDistance:
    """The distance between SGD and the ODEs (9), run by run (:func:`ode_distance`).

    Attributes
    ----------
    run : SGDResult
        The SGD runs.
    rms : ndarray (runs,)
        Per run, the root mean square over the recorded times after the first of
        ``eps_g^SGD - eps_g^ODE``, the ODEs integrated from the run's own initial state.
    """

    run: SGDResult
    rms: np.ndarray

    @property
    def N(self) -> int:
        """Input dimension."""
        return self.run.N


def ode_distance(initial: InitialWeights, lr: float, sigma: float, times: ArrayLike, *,
                 engine: str = "order-parameters", rng: seeding.Rng = None, **former: object) -> ODEDistance:
    """The RMS distance of each SGD run's ``eps_g`` from the ODEs (9): Goldt et al. (2019) Theorem 1, eq. (7).

    Every run of ``initial`` (its own teacher and student) is trained by online SGD (:func:`simulate`)
    and the ODEs (9) are integrated from its initial state; Theorem 1 bounds the distance by
    ``C(alpha) / sqrt(N)``.

    Parameters
    ----------
    initial : InitialWeights
        The runs' teachers and students (:func:`initial_weights`).
    lr : float
        Learning rate ``eta > 0``.
    sigma : float
        Output noise ``>= 0``.
    times : array_like
        Times ``alpha`` to record at (:func:`log_times`); the distance is taken over all but the
        first (at ``alpha = 0`` both start from the same state), so at least two.
    engine : {"weights", "order-parameters"}
        The SGD engine (:func:`simulate`).
    rng : int, SeedSequence, torch or numpy Generator, or None
        The inputs and noise (:func:`simulate`); ``None``: fresh entropy (see :mod:`gendyn.seeding`). The
        former keyword ``seed`` still works for one release, with a ``DeprecationWarning``.

    Returns
    -------
    ODEDistance

    Raises
    ------
    FloatingPointError
        If a run's error is not finite (SGD diverged).
    """
    rng = seeding.former_rng(rng, former, "committee_sgd.ode_distance", alone=True)
    _checks.instance(initial, "initial", InitialWeights, hint=" (from initial_weights)")
    times = _checks.real_array(times, "times", ndim=1, lower=0.0)
    if times.size < 2:
        raise ValueError(f"times must hold at least two times (the distance is taken after the first); got {times}")
    res = _finite_runs(simulate(initial, cm.OnlineSGD(lr, sigma), times, engine=engine, rng=rng), "SGD runs")
    rms = []
    for r in range(initial.runs):
        ode = res.ode(r)
        rms.append(np.sqrt(np.mean((res.eg[r, 1:] - ode.eg[1:]) ** 2)))
    return ODEDistance(res, np.array(rms))


def escape_time(alpha: ArrayLike, eps: ArrayLike, threshold: float = 1e-3) -> float:
    """The escape from the plateau: first crossing of ``eps`` below ``threshold``, interpolated in log-log.

    Goldt et al. (2019) §1, Fig. 1: students with ``K >= M`` leave the plateau of ``eps_g`` when their
    units specialise; the time is read as the first recorded ``eps_g < threshold``, between the two
    records around it linearly in ``log alpha, log eps``.

    Parameters
    ----------
    alpha : array_like (n,)
        Recorded times, increasing and ``> 0`` from the second on.
    eps : array_like (n,)
        ``eps_g`` at those times (finite), the first at or above ``threshold``.
    threshold : float
        The error the escape is read at, ``> 0``.

    Returns
    -------
    float
        The escape time; ``inf`` if ``eps`` stays at or above ``threshold`` (no escape within the
        run, a censored time).
    """
    alpha = _checks.real_array(alpha, "alpha", ndim=1, lower=0.0)
    eps = _checks.real_array(eps, "eps", ndim=1)
    threshold = _checks.real(threshold, "threshold", positive=True)
    if alpha.shape != eps.shape or alpha.size < 2:
        raise ValueError(f"alpha and eps must have the same length >= 2; got {alpha.shape} and {eps.shape}")
    if eps[0] < threshold:
        raise ValueError(f"eps must start at or above threshold = {threshold:g} (an escape from above); "
                         f"got eps[0] = {eps[0]:g}")
    below = np.nonzero(eps < threshold)[0]
    if below.size == 0:
        return math.inf
    i = below[0]
    if alpha[i - 1] <= 0:
        raise ValueError(f"alpha must be > 0 where eps crosses threshold (a log-log interpolation); "
                         f"got alpha[{i - 1}] = {alpha[i - 1]:g}")
    la, le = np.log(alpha[i - 1:i + 1]), np.log(np.maximum(eps[i - 1:i + 1], 1e-300))
    return float(np.exp(la[0] + (np.log(threshold) - le[0]) * (la[1] - la[0]) / (le[1] - le[0])))


# --------------------------------------------------------- linear networks, both layers (§3)


@dataclass(frozen=True)
class LinearStationaryRuns:
    """Long SGD runs of linear students and their stationary error (:func:`linear_stationary_runs`).

    Attributes
    ----------
    run : SGDResult
        The runs (order-parameter chain), recorded at :func:`log_and_late_times`.
    batches : ndarray (runs, 10)
        Per run, 10 batch means of ``eps_g`` over the last 100 records of the second half: 10 nearly
        independent samples of the stationary error.
    eff : ndarray (runs,)
        Per run, the effective rate ``eta'`` of eq. (12) averaged over the same times
        (:func:`gendyn.committee.linear_effective_rate`; it moves only when the second layer is trained).
    """

    run: SGDResult
    batches: np.ndarray
    eff: np.ndarray

    @property
    def K(self) -> int:
        """Student hidden units."""
        return self.run.Q.shape[-1]


def linear_stationary_runs(initial: InitialWeights, lr: float, sigma: float, alpha_max: float, *,
                           train_second_layer: bool = False, rng: seeding.Rng = None,
                           **former: object) -> LinearStationaryRuns:
    """Long online-SGD runs of linear two-layer students and their stationary error: Goldt et al. (2019) §3, Fig. 4.

    The runs of ``initial`` are trained (eqs. 2-3; the exact order-parameter chain) up to ``alpha_max``,
    recorded at :func:`log_and_late_times`; the stationary error is read as 10 batch means per run of the
    second half, to be compared with eq. (12) at each run's effective rate ``eta'``
    (:func:`gendyn.committee.linear_stationary_error`).

    Parameters
    ----------
    initial : InitialWeights
        Linear teachers and students (:func:`initial_weights` with ``activation="linear"``).
    lr : float
        Learning rate ``eta > 0`` (both layers).
    sigma : float
        Output noise ``>= 0``.
    alpha_max : float
        The runs' horizon ``alpha > 0`` (its second half must hold 100 distinct steps).
    train_second_layer : bool
        Train ``v`` too (:func:`simulate`); ``eta'`` then uses ``Q`` and ``N`` as well.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The inputs and noise (:func:`simulate`); ``None``: fresh entropy (see :mod:`gendyn.seeding`). The
        former keyword ``seed`` still works for one release, with a ``DeprecationWarning``.

    Returns
    -------
    LinearStationaryRuns

    Raises
    ------
    FloatingPointError
        If a run's error is not finite (SGD diverged).
    """
    from .committee_stationary import stationary_runs  # it builds on this module: imported when called

    rng = seeding.former_rng(rng, former, "committee_sgd.linear_stationary_runs", alone=True)
    _checks.instance(initial, "initial", InitialWeights, hint=" (from initial_weights)")
    if initial.activation != "linear":
        raise ValueError(f"initial must hold linear networks (eq. 12 is theirs); got activation {initial.activation!r}")
    out = stationary_runs(initial, lr, sigma, alpha_max, train_second_layer=train_second_layer, rng=rng)
    res, train2, N = out.run, out.run.settings["train_second_layer"], initial.shape[0]
    late = res.alpha >= res.alpha[-1] / 2
    Q = res.Q[:, late] if train2 else None
    eff = cm.linear_effective_rate(res.settings["lr"], res.v[:, late], Q, N if train2 else None).mean(1)
    return LinearStationaryRuns(res, out.batches, eff)


# ------------------------------------------------------ the ODEs (9) to long times (§2-3)


@dataclass(frozen=True)
class LongODERuns:
    """The ODEs (9) of one erf student to a long horizon, from near its fixed point and from random starts
    (:func:`long_ode_runs`).

    Attributes
    ----------
    times : ndarray
        The recorded times ``alpha``: a log grid to the horizon and the extra times asked for.
    theory : float
        The fixed point's ``eps_g*`` (:func:`gendyn.committee.asymptotic_error`): eq. (10), or the denoising
        fixed point with both layers trained.
    near : gendyn.committee.ODEResult
        The run from near the fixed point.
    starts : tuple of gendyn.committee.ODEResult
        The runs from the random starts, in their order.
    """

    times: np.ndarray
    theory: float
    near: cm.ODEResult
    starts: tuple[cm.ODEResult, ...]

    @property
    def long_alpha(self) -> float:
        """The horizon."""
        return float(self.times[-1])

    @property
    def K(self) -> int:
        """Student hidden units."""
        return self.near.Q.shape[-1]

    @property
    def final(self) -> np.ndarray:
        """``eps_g`` over :attr:`theory` at the horizon, one per random start."""
        return np.array([run.eg[-1] / self.theory for run in self.starts])


def long_ode_runs(near: tuple[ArrayLike, ...], starts: list[InitialWeights], lr: float, sigma: float,
                  long_alpha: float, *, extra_times: ArrayLike = (), train_second_layer: bool = False,
                  v_star: float = 1.0) -> LongODERuns:
    """The ODEs (9) of an erf student to long times, from near its fixed point and from SGD's random starts.

    Goldt et al. (2019) §2-3: the fixed points that eq. (10) (second layer fixed) and the denoising
    theory (both layers trained) perturb sit on continua of zero-error states, along which the noise
    moves a student on times of order ``1 / (eta^2 sigma^2)``, far beyond an SGD run. Both runs follow
    the ODEs (eqs. 9, ``v* = v_star`` for every teacher unit) to ``long_alpha``, recorded on a log grid
    (8 points per decade from ``alpha = 1``, and 0) and at ``extra_times``.

    Parameters
    ----------
    near : tuple of array_like
        ``(Q, R, T)`` (student ``v = v_star``; e.g. :func:`gendyn.committee.specialised_state`) or
        ``(Q, R, T, v)`` (e.g. :func:`gendyn.committee.denoising_state`), shapes (K, K), (K, M), (M, M), (K,).
    starts : list of InitialWeights
        Random starts of one run each, erf students of the same ``K, M`` and teacher weight ``v_star``
        (:func:`initial_weights`; may be empty): each is integrated from its order parameters and ``v``.
    lr : float
        Learning rate ``eta > 0``.
    sigma : float
        Output noise ``>= 0``.
    long_alpha : float
        The horizon ``alpha > 1``.
    extra_times : array_like
        More times to record, in ``[0, long_alpha]``.
    train_second_layer : bool
        Train ``v`` too (eqs. 2-3), at the rate ``lr``; the theory is then the denoising fixed point
        (``K`` a multiple of ``M``).
    v_star : float
        Teacher second-layer weight, nonzero.

    Returns
    -------
    LongODERuns
    """
    if not isinstance(near, (tuple, list)) or len(near) not in (3, 4):
        raise ValueError(f"near must be a tuple (Q, R, T) or (Q, R, T, v) of order parameters; got "
                         f"{type(near).__name__}")
    if not isinstance(starts, (tuple, list)):
        raise ValueError(f"starts must be a list of InitialWeights (one run each); got {type(starts).__name__}")
    v_star = _checks.bounded(v_star, "v_star", extra=", nonzero")
    if v_star == 0:
        raise ValueError(f"v_star must be a finite nonzero number; got {v_star!r}")
    train2 = _checks.flag(train_second_layer, "train_second_layer")
    lr = _checks.real(lr, "lr", positive=True)
    sigma = _checks.real(sigma, "sigma")
    long_alpha = _checks.real(long_alpha, "long_alpha", positive=True)
    if long_alpha <= 1:
        raise ValueError(f"long_alpha must be a finite number > 1 (the log grid starts at alpha = 1); got {long_alpha!r}")
    extra = _checks.real_array(extra_times, "extra_times", lower=0, upper=long_alpha, ndim=1,
                               extra=f", times in [0, long_alpha = {long_alpha:g}]")
    R = _checks.real_array(near[1], "near", ndim=2, extra=": R of shape (K, M)")
    K, M = R.shape
    v_teacher = np.full(M, v_star)
    for s in starts:
        _checks.instance(s, "starts", InitialWeights, hint=" (a list of them, from initial_weights)")
        if s.runs != 1 or s.activation != "erf" or s.shape[1:] != (K, M) or np.any(s.v_star != v_star):
            raise ValueError(f"starts must hold one erf run each with K={K}, M={M} (those of near) and v_star="
                             f"{v_star:g}; got {s.runs} {s.activation} runs with (K, M)={s.shape[1:]}")
    times = np.union1d(np.r_[0.0, np.geomspace(1.0, long_alpha, 8 * round(np.log10(long_alpha)) + 1)], extra)
    theory = cm.asymptotic_error("erf", M, K, cm.OnlineSGD(lr, sigma, train_second_layer=train2), v_star=v_star)
    v_near = near[3] if len(near) == 4 else np.full(K, v_star)
    sgd = cm.OnlineSGD(lr, sigma, train_second_layer=train2)
    near_run = cm.integrate_odes(cm.OrderParameters(*near[:3], v_near, v_teacher), "erf", sgd, times)
    runs = []
    for s in starts:
        Q0, R0, T0 = (x[0] for x in s.order_parameters())
        runs.append(cm.integrate_odes(cm.OrderParameters(Q0, R0, T0, s.v[0], v_teacher), "erf", sgd, times))
    return LongODERuns(times, theory, near_run, tuple(runs))


# --------------------------------------------------------- linear networks, Fig. 4 (§3)

#: The four linear students of Fig. 4: second layer fixed (SCM: ``v = v* = 1``; normalised SCM:
#: ``v = 1/K``, ``v* = 1/M``), both layers trained (from ``v ~ N(0, 1/K)``; from the normalised SCM's solution).
LINEAR_VARIANTS = ("SCM", "normalised SCM", "both layers", "both layers from the normalised SCM")


class LinearStart(NamedTuple):
    """The initial weights of one of Fig. 4's linear students (:func:`linear_student_start`)."""

    initial: InitialWeights  # teachers and students, ``runs`` networks
    train_second_layer: bool  # whether the variant trains ``v``


def _check_variant(variant):
    return _checks.choice(variant, "variant", LINEAR_VARIANTS)


def linear_student_start(N: int, K: int, M: int, variant: str, *, runs: int = 1, rng: seeding.Rng = None,
                         **former: object) -> LinearStart:
    """The initial weights of one of the four linear students of Goldt et al. (2019) Fig. 4 (§3).

    :data:`LINEAR_VARIANTS`: SCM, ``v = v* = 1`` fixed; normalised SCM, ``v = 1/K`` and ``v* = 1/M``
    fixed; both layers trained from ``v ~ N(0, 1/K)`` (``v* = 1``); both layers trained from the
    normalised SCM's solution: its teacher, ``v = 1/K`` and every unit the teachers' mean plus its
    small initial weights (``sum_k w_k / K = sum_n w*_n / M``, the normalised SCM's zero-error state).
    Drawn by :func:`initial_weights` (orthonormal teachers, linear networks).

    Parameters
    ----------
    N, K, M : int
        Input dimension, student and teacher hidden units (``N > K + M``).
    variant : str
        One of :data:`LINEAR_VARIANTS`.
    runs : int
        Independent networks.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The weights' random numbers (:func:`initial_weights`); ``None``: fresh entropy (see
        :mod:`gendyn.seeding`). The former keyword ``seed`` still works for one release, with a
        ``DeprecationWarning``.

    Returns
    -------
    LinearStart
    """
    rng = seeding.former_rng(rng, former, "committee_sgd.linear_student_start", alone=True)
    variant = _check_variant(variant)
    K = _checks.integer(K, "K", 1)
    M = _checks.integer(M, "M", 1)
    if variant == "SCM":
        kw, v, v_star, train2 = {}, 1.0, 1.0, False
    elif variant == "normalised SCM":
        kw, v, v_star, train2 = {}, 1.0 / K, 1.0 / M, False
    elif variant == "both layers":
        kw, v, v_star, train2 = dict(v_var=1.0 / K), "normal", 1.0, True
    else:  # both layers trained from the normalised SCM's solution (its teacher, v = 1/K)
        kw, v, v_star, train2 = {}, 1.0 / K, 1.0 / M, True
    init = initial_weights(N, K, M, "linear", runs=runs, rng=rng,
                           init=Initialisation(teacher="orthonormal", v=v, v_star=v_star, **kw))
    if variant == LINEAR_VARIANTS[3]:
        # every unit the teachers' mean plus its small initial weights
        w = init.w + init.w_star.mean(axis=1, keepdims=True)
        init = InitialWeights(w, init.w_star, init.v, init.v_star, "linear")
    return LinearStart(init, train2)


@dataclass(frozen=True)
class LinearNetworks:
    """Fig. 4's runs of the linear students and eq. (12) for each (:func:`linear_networks`).

    Attributes
    ----------
    ks : tuple of int
        Student sizes ``K``, in the runs' order.
    N, runs, M : int
        Input dimension, runs per point, teacher units.
    lr, sigma : float
        Learning rate and output noise.
    batches : dict
        ``(variant, K) ->`` batch means (runs, 10) of the stationary ``eps_g`` (:data:`LINEAR_VARIANTS`).
    eff : dict
        ``(variant, K) ->`` each run's effective rate ``eta'`` over the same times.
    theory : dict
        Eq. (12): ``(variant, K) ->`` a value for the SCMs (``eta' = eta K v^2``), one per run at its own
        ``eta'`` when both layers are trained.
    eff_fixed_point, theory_fixed_point : dict
        ``K ->`` ``eta' = eta (1/K + K/(M N))`` of the normalised SCM's solution as a state of both-layer
        SGD (``v_k = 1/K``, every ``Q_kl = 1/M``), and eq. (12) there.
    """

    ks: tuple[int, ...]
    N: int
    runs: int
    lr: float
    sigma: float
    M: int
    batches: dict
    eff: dict
    theory: dict
    eff_fixed_point: dict
    theory_fixed_point: dict


def linear_networks(runs: dict[tuple[str, int], LinearStationaryRuns], N: int, lr: float, sigma: float,
                    M: int) -> LinearNetworks:
    """Eq. (12) for each of Fig. 4's linear students (Goldt et al. 2019 §3), with their runs' stationary errors.

    Second layer fixed: eq. (12) at ``eta' = eta K v^2`` (:func:`gendyn.committee.linear_effective_rate`,
    :func:`gendyn.committee.linear_stationary_error`). Both layers trained: eq. (12) at each run's own
    ``eta' = eta (sum_k v_k^2 + tr Q / N)`` averaged over the times of its batch means, and at the
    normalised SCM's solution.

    Parameters
    ----------
    runs : dict
        ``(variant, K) ->`` :func:`linear_stationary_runs` of the students of :func:`linear_student_start`,
        every variant of :data:`LINEAR_VARIANTS` for every ``K``, the same number of runs each.
    N : int
        Input dimension.
    lr : float
        The runs' learning rate ``eta > 0``.
    sigma : float
        Their output noise ``>= 0``.
    M : int
        Teacher units.

    Returns
    -------
    LinearNetworks
    """
    if not isinstance(runs, dict) or not runs:
        raise ValueError(f"runs must be a non-empty dict (variant, K) -> LinearStationaryRuns; got {runs!r:.60}")
    for key, r in runs.items():
        if not (isinstance(key, tuple) and len(key) == 2 and key[0] in LINEAR_VARIANTS):
            raise ValueError(f"runs must have keys (variant, K), variant one of {LINEAR_VARIANTS}; got {key!r}")
        _checks.instance(r, "runs", LinearStationaryRuns, hint=" (values from linear_stationary_runs)")
        if r.K != key[1]:
            raise ValueError(f"runs[{key!r}] has K = {r.K}, not {key[1]!r}")
    ks = tuple(dict.fromkeys(K for _, K in runs))
    if any((var, K) not in runs for var in LINEAR_VARIANTS for K in ks):
        raise ValueError(f"runs must hold every variant of {LINEAR_VARIANTS} for every K in {ks}")
    n_runs = next(iter(runs.values())).batches.shape[0]
    if any(r.batches.shape[0] != n_runs for r in runs.values()):
        raise ValueError("runs must hold the same number of runs for every (variant, K)")
    N = _checks.integer(N, "N", 1)
    M = _checks.integer(M, "M", 1)
    lr = _checks.real(lr, "lr", positive=True)
    sigma = _checks.real(sigma, "sigma")
    batches = {key: r.batches for key, r in runs.items()}
    eff = {key: r.eff for key, r in runs.items()}
    theory = {(var, K): cm.linear_stationary_error(eff[var, K], sigma) for var in LINEAR_VARIANTS[2:] for K in ks}
    eff_fixed_point = {K: cm.linear_effective_rate(lr, np.full(K, 1 / K), np.full((K, K), 1 / M), N) for K in ks}
    theory_fixed_point = {K: cm.linear_stationary_error(e, sigma) for K, e in eff_fixed_point.items()}
    for var, v in (("SCM", lambda K: 1.0), ("normalised SCM", lambda K: 1.0 / K)):
        theory |= {(var, K): cm.linear_stationary_error(cm.linear_effective_rate(lr, np.full(K, v(K))), sigma)
                   for K in ks}
    return LinearNetworks(ks, N, n_runs, lr, sigma, M, batches, eff, theory, eff_fixed_point, theory_fixed_point)


# ------------------------------------------------------------------- specs of a run of SGD


@dataclass(frozen=True)
class Sampling:
    """The examples of an SGD step (:func:`simulate`): how many, and where they come from.

    Checked when made.

    Parameters
    ----------
    batch_size : int
        Samples per step (gradient averaged over them), ``>= 1``; time is still ``steps / N``.
    train_set_size : int, optional
        Number ``P`` of training examples of a fixed training set visited in reshuffled passes
        (``P >= batch_size``); ``None``: online learning (fresh samples every step).
    """

    batch_size: int = 1
    train_set_size: int | None = None

    def __post_init__(self):
        bs = _checks.integer(self.batch_size, "batch_size", 1)
        object.__setattr__(self, "batch_size", bs)
        if self.train_set_size is not None:
            P = _checks.integer(self.train_set_size, "train_set_size", 1)
            if bs > P:
                raise ValueError(f"batch_size must be <= train_set_size = {P} (a minibatch is drawn from the "
                                 f"training set); got batch_size={bs}")
            object.__setattr__(self, "train_set_size", P)


@dataclass(frozen=True)
class Initialisation:
    """How :func:`initial_weights` draws teacher and student weights (besides their sizes and ``rng``).

    Checked when made.

    Parameters
    ----------
    init_var : float, optional
        Variance ``> 0`` of the student's first-layer weights; ``None``: 1 for erf, ``1/N`` for ReLU
        and linear networks (module docstring).
    teacher : {"gaussian", "orthonormal"}
        I.i.d. ``N(0, 1)`` teacher rows, or rows with ``T = I`` exactly.
    v : float or "normal"
        Student second-layer weights: all equal to ``v``, or i.i.d. ``N(0, v_var)``
        ("normal"; ``v_var = 1`` is the authors' initialisation when both layers are trained).
    v_star : float
        Teacher second-layer weight (all equal, as in every figure of the paper), nonzero.
    v_var : float
        Variance ``> 0`` of the student's second-layer weights when ``v="normal"``.
    """

    init_var: float | None = None
    teacher: str = "gaussian"
    v: float | str = 1.0
    v_star: float = 1.0
    v_var: float = 1.0

    def __post_init__(self):
        if self.init_var is not None:
            object.__setattr__(self, "init_var", _checks.real(self.init_var, "init_var", positive=True))
        _checks.choice(self.teacher, "teacher", TEACHERS)
        if not (isinstance(self.v, str) and self.v == "normal"):
            try:
                object.__setattr__(self, "v", _checks.bounded(self.v, "v"))
            except ValueError:
                raise ValueError(f"v must be a real number or 'normal'; got {self.v!r}") from None
        object.__setattr__(self, "v_var", _checks.real(self.v_var, "v_var", positive=True))
        v_star = _checks.bounded(self.v_star, "v_star", extra=", nonzero")
        if v_star == 0:
            raise ValueError(f"v_star must be a finite nonzero number; got {v_star!r}")
        object.__setattr__(self, "v_star", v_star)


__all__ += ["Sampling", "Initialisation"]


# ------------------------------------------------------------ the former call forms (one more release)


def _former_simulate(initial, lr, sigma, times, *, lr2=None, train_second_layer=False, weight_decay=0.0,
                     batch_size=1, train_set_size=None, engine="weights", seed=0, block=2048, progress=None):
    """The signature of :func:`simulate` before its specs."""


def _former_initial_weights(N, K, M, activation="erf", *, runs=1, seed=0, init_var=None, teacher="gaussian", v=1.0,
                            v_star=1.0, v_var=1.0):
    """The signature of :func:`initial_weights` before its spec."""


simulate = cm._former_signature(
    _former_simulate,
    lambda **a: ((a["initial"], cm.OnlineSGD(a["lr"], a["sigma"], a["lr2"], a["train_second_layer"],
                                             a["weight_decay"]), a["times"]),
                 dict(sampling=Sampling(a["batch_size"], a["train_set_size"]), engine=a["engine"], rng=a["seed"],
                      block=a["block"], progress=a["progress"])),
    "simulate(initial, gendyn.committee.OnlineSGD(lr, sigma, lr2, train_second_layer, weight_decay), times, "
    "sampling=Sampling(batch_size, train_set_size), engine=..., rng=..., block=..., progress=...)")(simulate)
initial_weights = cm._former_signature(
    _former_initial_weights,
    lambda **a: ((a["N"], a["K"], a["M"], a["activation"]),
                 dict(runs=a["runs"], rng=a["seed"], init=Initialisation(a["init_var"], a["teacher"], a["v"],
                                                                          a["v_star"], a["v_var"]))),
    "initial_weights(N, K, M, activation, runs=..., rng=..., init=Initialisation(init_var, teacher, v, v_star, "
    "v_var))")(initial_weights)
