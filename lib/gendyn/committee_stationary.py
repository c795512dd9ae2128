"""Long online-SGD runs of two-layer students, any activation, read as their stationary error.

Goldt, Advani, Saxe, Krzakala & Zdeborová, "Dynamics of stochastic gradient descent for
two-layer neural networks in the teacher-student setup" (NeurIPS 2019), §3, Figs. 4 and S4: the
asymptotic error ``eps_g*`` of soft committee machines (second layer fixed) and of networks with
both layers trained, against the number ``K`` of hidden units. Fig. 4's linear networks have a
theory, eq. (12) (:func:`gendyn.committee_sgd.linear_stationary_runs` and
:func:`~gendyn.committee_sgd.linear_networks`); Fig. S4's ReLU networks have none, and are
measured with the functions here:

=========================  ==============================================================
:func:`student_start`      the initial weights of Fig. 4's students, linear or ReLU
:func:`stationary_runs`    long runs (the exact order-parameter chain) and their batch means
=========================  ==============================================================

The runs themselves are :func:`gendyn.committee_sgd.simulate`; the students are drawn by
:func:`gendyn.committee_sgd.initial_weights`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _checks, seeding
from . import committee as cm
from . import committee_sgd as sgd
from .batch_means import late_batches

__all__ = ["RELU_VARIANTS", "student_start", "StationaryRuns", "stationary_runs"]

#: The variants that ReLU networks can take (:data:`gendyn.committee_sgd.LINEAR_VARIANTS` but the last: a ReLU
#: network has no counterpart of the normalised SCM's solution, as a mean of ReLUs is not a ReLU).
RELU_VARIANTS = sgd.LINEAR_VARIANTS[:3]


def student_start(N: int, K: int, M: int, variant: str, *, activation: str = "linear", runs: int = 1,
                  rng: seeding.Rng = None) -> sgd.LinearStart:
    """The initial weights of one of the students of Goldt et al. (2019) Fig. 4 (linear) or Fig. S4 (ReLU).

    :data:`gendyn.committee_sgd.LINEAR_VARIANTS`: SCM, ``v = v* = 1`` fixed; normalised SCM, ``v = 1/K``
    and ``v* = 1/M`` fixed; both layers trained from ``v ~ N(0, 1/K)`` (``v* = 1``); and, for linear
    networks only, both layers trained from the normalised SCM's solution. Linear students are those
    of :func:`gendyn.committee_sgd.linear_student_start`, and for equal arguments the ReLU students
    have the same weights (orthonormal teachers, first-layer variance ``1/N``).

    Parameters
    ----------
    N, K, M : int
        Input dimension, student and teacher hidden units (``N > K + M``).
    variant : str
        One of :data:`gendyn.committee_sgd.LINEAR_VARIANTS` (of :data:`RELU_VARIANTS` for ReLU networks).
    activation : {"linear", "relu"}
        Of teacher and student.
    runs : int
        Independent networks.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The weights' random numbers (:func:`gendyn.committee_sgd.initial_weights`); ``None``: fresh
        entropy (see :mod:`gendyn.seeding`).

    Returns
    -------
    gendyn.committee_sgd.LinearStart
        The weights and whether the variant trains ``v``.
    """
    variant = _checks.choice(variant, "variant", sgd.LINEAR_VARIANTS)
    activation = _checks.choice(activation, "activation", ("linear", "relu"))
    if activation == "linear":
        return sgd.linear_student_start(N, K, M, variant, runs=runs, rng=rng)
    if variant not in RELU_VARIANTS:
        raise ValueError(f"variant must be one of {RELU_VARIANTS} for ReLU networks (the normalised SCM's "
                         f"solution is a zero-error state of linear networks only); got {variant!r}")
    start = sgd.linear_student_start(N, K, M, variant, runs=runs, rng=rng)  # the same draws, then ReLU units
    w = start.initial
    return sgd.LinearStart(sgd.InitialWeights(w.w, w.w_star, w.v, w.v_star, "relu"), start.train_second_layer)


@dataclass(frozen=True)
class StationaryRuns:
    """Long SGD runs of two-layer students and their stationary error (:func:`stationary_runs`).

    Attributes
    ----------
    run : gendyn.committee_sgd.SGDResult
        The runs (order-parameter chain), recorded at :func:`gendyn.committee_sgd.log_and_late_times`.
    batches : ndarray (runs, 10)
        Per run, 10 batch means of ``eps_g`` over the last 100 records of the second half: 10 nearly
        independent samples of the stationary error.
    """

    run: sgd.SGDResult
    batches: np.ndarray

    @property
    def K(self) -> int:
        """Student hidden units."""
        return self.run.Q.shape[-1]


def stationary_runs(initial: sgd.InitialWeights, lr: float, sigma: float, alpha_max: float, *,
                    train_second_layer: bool = False, rng: seeding.Rng = None) -> StationaryRuns:
    """Long online-SGD runs of two-layer students and their stationary error, as batch means.

    Goldt et al. (2019) §3, Figs. 4 and S4: the runs of ``initial`` are trained (eqs. 2-3; the exact
    order-parameter chain) up to ``alpha_max``, recorded at :func:`gendyn.committee_sgd.log_and_late_times`;
    the stationary error is read as 10 batch means per run of the last 100 records of the second half,
    as :func:`gendyn.committee_sgd.linear_stationary_runs` reads those of linear networks.

    Parameters
    ----------
    initial : gendyn.committee_sgd.InitialWeights
        Teachers and students (:func:`gendyn.committee_sgd.initial_weights`, :func:`student_start`).
    lr : float
        Learning rate ``eta > 0`` (both layers).
    sigma : float
        Output noise ``>= 0``.
    alpha_max : float
        The runs' horizon ``alpha > 0`` (its second half must hold 100 distinct steps).
    train_second_layer : bool
        Train ``v`` too.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The inputs and noise (:func:`gendyn.committee_sgd.simulate`); ``None``: fresh entropy (see
        :mod:`gendyn.seeding`).

    Returns
    -------
    StationaryRuns

    Raises
    ------
    FloatingPointError
        If a run's error is not finite (SGD diverged).
    """
    _checks.instance(initial, "initial", sgd.InitialWeights, hint=" (from initial_weights or student_start)")
    alpha_max = _checks.real(alpha_max, "alpha_max", positive=True)
    train2 = _checks.flag(train_second_layer, "train_second_layer")
    N = initial.shape[0]
    if alpha_max * N < 200:
        raise ValueError(f"alpha_max must be >= 200 / N = {200 / N:g} (its second half must hold 100 SGD steps to "
                         f"average); got {alpha_max!r}")
    res = sgd.simulate(initial, cm.OnlineSGD(lr, sigma, train_second_layer=train2),
                       sgd.log_and_late_times(alpha_max, N), engine="order-parameters", rng=rng)
    if not np.all(np.isfinite(res.eg)):
        raise FloatingPointError(f"the error of the {initial.activation} students is not finite (SGD diverged) at "
                                 f"lr={res.settings['lr']}, sigma={res.settings['sigma']}")
    return StationaryRuns(res, np.array([late_batches(res.alpha, e) for e in res.eg]))  # (runs, 10)
