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
* :func:`learning_curves` -- both training errors of one teacher, structured (eq. 14,
  :func:`gendyn.deep_linear.theory_errors`) and randomised (a :class:`LearningCurves`).
* :func:`learning_times` -- when each falls to a level, plus the gradient-descent lag
  (a :class:`LearningTimes`).
* :func:`train_randomised` -- the experiment: draw structured training sets and their
  randomised versions, train students on both (a :class:`RandomisedTraining`; sizes and
  training in a :class:`~gendyn.train.FullBatchSpec`).

The theory is numpy; :func:`train_randomised` trains with torch (:mod:`gendyn.train`), drawing
its teachers, data and initial weights from three named streams of its ``rng``
(:mod:`gendyn.seeding`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, deep_linear, rmt, seeding, task_data, teachers, train

__all__ = ["randomised_scale", "stretched_mp_density", "randomised_train_error"]
__all__ += ["LearningCurves", "learning_curves", "LearningTimes", "learning_times",
            "RandomisedTraining", "train_randomised"]


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


def randomised_train_error(t: ArrayLike, teacher_svals: ArrayLike, student: deep_linear.TaStudent | None = None,
                           *args: object, noise_std: float = 1.0, **flat: object) -> np.ndarray:
    """Training error of a TA student on randomised data, eq. (14) without teacher modes.

    Parameters
    ----------
    t : array_like
        Training times ``>= 0`` (finite), in units of ``tau``.
    teacher_svals : array_like, shape (Nbar2,)
        Singular values of the teacher whose data was randomised (they set ``sigma_r``).
    student : gendyn.deep_linear.TaStudent
        Its inputs ``n1`` (= examples) and outputs ``n3``, both required, and hidden units ``n2``
        (student rank, default ``n3``), ``n2 <= n3 <= n1``; ``eps``, ``tau`` and ``n_layers`` as in
        :func:`gendyn.deep_linear.mode_strength`.
    noise_std : float
        ``sigma_z``.
    *args, **flat
        Deprecated: the former form ``randomised_train_error(t, teacher_svals, n1, n2, n3, eps, tau=1.0,
        n_layers=3, noise_std=1.0)``, accepted for one more release with a ``DeprecationWarning`` (the same
        results).

    Returns
    -------
    ndarray
        ``[(N3 - N2) <shat^2>_out + N2 <(s(shat, t) - shat)^2>_in] / [N3 <shat^2>]`` over the
        MP law of aspect ``A = N3/N1`` stretched by ``sigma_r``, with ``R_in`` its top
        ``N2/N3`` (the modes a rank-``N2`` student learns); shape of ``t``. It starts at 1 and
        falls to ``(N3 - N2) <shat^2>_out / (N3 <shat^2>)``.
    """
    if deep_linear._is_former(student, args, flat):
        old = deep_linear._former(
            "randomised_train_error", ("n1", "n2", "n3", "eps", "tau", "n_layers", "noise_std"), student, args, flat,
            defaults={"noise_std": noise_std},
            new_form=lambda v: f"randomised_train_error(t, teacher_svals, {deep_linear._show_student(v)}, "
                               f"noise_std={v['noise_std']!r})")
        return randomised_train_error(t, teacher_svals, old["student"], noise_std=old["noise_std"])
    student = deep_linear._student(student, "randomised_train_error")
    n1, n3 = deep_linear._needs(student, "randomised_train_error")
    n2 = n3 if student.n2 is None else student.n2
    eps, tau, n_layers = student.eps, student.tau, student.n_layers
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


# ----------------------------------------------------------------------------------------
# both theories of one teacher, and when they fall to a level (§3.6, Fig. 6b)
# ----------------------------------------------------------------------------------------

class LearningCurves(NamedTuple):
    """Training error of a TA student on structured and on randomised data (:func:`learning_curves`)."""

    structured: np.ndarray  #: eq. (14) of the teacher's data, shape of ``t``
    randomised: np.ndarray  #: eq. (14) without teacher modes, the stretched law (:func:`randomised_train_error`)


def learning_curves(t: ArrayLike, teacher_svals: ArrayLike, n1: int, n2: int, n3: int, eps: float) -> LearningCurves:
    """Training errors of structured data, eq. (14), and of its randomised version (§3.6, Fig. 6b).

    Parameters
    ----------
    t : array_like
        Training times ``>= 0`` (finite), in units of ``tau``.
    teacher_svals : array_like, shape (Nbar2,)
        The teacher's singular values ``>= 0``.
    n1, n2, n3 : int
        Inputs (= examples), hidden units and outputs, ``n2 <= n3 <= n1``.
    eps : float
        Initial singular value of the TA student, ``> 0``.

    Returns
    -------
    LearningCurves
        ``structured`` (:func:`gendyn.deep_linear.theory_errors`, its training error) and
        ``randomised`` (:func:`randomised_train_error`), one value per time.
    """
    student = deep_linear.TaStudent(n1=n1, n2=_checks.integer(n2, "n2"), n3=n3, eps=eps)  # n2 required here
    return LearningCurves(deep_linear.theory_errors(t, teacher_svals, student)[0],
                          randomised_train_error(t, teacher_svals, student))


class LearningTimes(NamedTuple):
    """Times at which the training error of structured and randomised data falls to a level (:func:`learning_times`)."""

    structured: float  #: crossing of eq. (14), plus the gradient-descent lag of the top outlier
    randomised: float  #: crossing of the randomised curve, plus the lag of the stretched sea's edge

    @property
    def ratio(self) -> float:
        """How much later randomised data is learned: ``randomised / structured``."""
        return self.randomised / self.structured


def learning_times(t: ArrayLike, teacher_svals: ArrayLike, n1: int, n2: int, n3: int, eps: float,
                   lr: float | None = None, level: float = 0.9) -> LearningTimes:
    """When a TA student's training error falls to ``level`` on structured and on randomised data (§3.6).

    The crossings of the two curves of :func:`learning_curves` on the grid ``t`` (linear
    interpolation, :func:`gendyn.train.first_crossing`). Gradient descent at learning rate ``lr``
    trails the flow of eq. (9) by :func:`gendyn.deep_linear.gd_lag` (half way up a mode); it is
    added with the mode that sets each crossing: the top outlier ``shat_1`` of eq. (11) for
    structured data, the edge ``sigma_r (1 + sqrt(A))`` of the stretched sea for randomised data.

    Parameters
    ----------
    t : array_like, shape (T,)
        Increasing times ``>= 0`` (finite) of the theory curves, in units of ``tau``; they must
        reach both crossings.
    teacher_svals : array_like, shape (Nbar2,)
        The teacher's singular values ``>= 0``.
    n1, n2, n3 : int
        Inputs, hidden units and outputs, ``n2 <= n3 <= n1``.
    eps : float
        Initial singular value of the TA student, ``> 0``.
    lr : float, optional
        Learning rate ``> 0`` of gradient descent; ``None``: gradient flow (no lag).
    level : float
        Training error to reach, in ``(0, 1)``.

    Returns
    -------
    LearningTimes
        The two times in units of ``tau``.
    """
    level = _checks.real(level, "level")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1) (a fraction of the initial training error); got {level}")
    t = _checks.real_array(t, "t", lower=0.0, ndim=1, extra=" (times of the theory curves)")
    if t.size < 2 or np.any(np.diff(t) <= 0):
        raise ValueError(f"t must hold at least two increasing times; got {t.size} values")
    curves = learning_curves(t, teacher_svals, n1, n2, n3, eps)
    times = [float(train.first_crossing(t, c, level, "down")) for c in curves]
    for name, value in zip(LearningTimes._fields, times):
        if not np.isfinite(value):
            raise ValueError(f"t must reach the {name} crossing of level {level:g}; t ends at {np.max(t):g}")
    if lr is not None:
        lr = _checks.positive(lr, "lr")
        sb = rmt.check_singular_values(teacher_svals)
        aspect = n3 / n1
        shat1 = float(rmt.spike_singular_value(sb, aspect).max())
        edge = float(randomised_scale(sb, n3)) * (1 + np.sqrt(aspect))
        times = [tc + float(deep_linear.gd_lag(s, eps, lr, s=s / 2)) for tc, s in zip(times, (shat1, edge))]
    return LearningTimes(*times)


# ----------------------------------------------------------------------------------------
# the experiment: structured and randomised training sets learned by students (Fig. 6)
# ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RandomisedTraining:
    """Students trained on structured data and on its randomised version (:func:`train_randomised`).

    Attributes
    ----------
    time : ndarray, shape (T,)
        Recorded times ``t/tau``.
    train_error : ndarray, shape (inits, 2, teachers, runs, T)
        Training error of each initialisation, data kind (structured, randomised), teacher and run.
    data_svals : ndarray, shape (2, teachers, runs, N3)
        Singular values of the training data (structured, randomised).
    """

    time: np.ndarray
    train_error: np.ndarray
    data_svals: np.ndarray

    def crossing(self, level: float = 0.9) -> np.ndarray:
        """When each training error falls to ``level`` (linear interpolation between records;
        :func:`gendyn.train.first_crossing`, NaN where it does not get there), ``(inits, 2, teachers, runs)``."""
        return train.first_crossing(self.time, self.train_error, level, "down")


def train_randomised(teacher_svals: ArrayLike, runs: int, spec: train.FullBatchSpec, *, inits: Sequence[str] = ("aligned",),
                     rng: seeding.Rng = None, device: str | torch.device = "cpu",
                     desc: str | None = "structured and randomised", **former: object) -> RandomisedTraining:
    """Structured training sets, their randomised versions, and students trained on both (§3.6, Fig. 6).

    For each teacher and run: a random teacher with the given singular values (eq. 1,
    :func:`gendyn.teachers.low_rank_teacher`), its noisy training data on orthonormal inputs
    (eq. 3, ``sigma_z = 1``) and the randomised version of that data, i.i.d. outputs of the same
    variance (:func:`gendyn.task_data.randomised_outputs`). Every data set is learned by one
    student per initialisation in ``inits``, all by full-batch gradient descent, eq. (8), in one
    batch (float32).

    Parameters
    ----------
    teacher_svals : array_like, shape (teachers, Nbar2)
        Singular values ``>= 0`` of each teacher (pad lower ranks with zeros).
    runs : int
        Data sets per teacher, ``>= 1``.
    spec : gendyn.train.FullBatchSpec
        Sizes and training.
    inits : sequence of str
        Initialisations, ``"aligned"`` (TA) or ``"random"`` (App. B), each a student on every data set.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of everything drawn, in three named streams (:func:`gendyn.seeding.streams`):
        ``"teacher"`` the teachers, ``"data"`` the noise and then the randomised outputs, ``"init"``
        the random initial weights (teachers outermost, runs innermost); ``None``: fresh entropy
        (see :mod:`gendyn.seeding`).
    device : str
        Torch device of the training.
    desc : str, optional
        Label of the progress bar (None: none).
    **former
        Deprecated: ``generator=`` instead of ``rng`` (one more release, ``DeprecationWarning``; the
        draws are those of ``rng=`` with the same generator).

    Returns
    -------
    RandomisedTraining
    """
    rng = seeding.former_rng(rng, former, "randomised.train_randomised", alone=True)
    spec = _checks.instance(spec, "spec", train.FullBatchSpec, hint=" (sizes and training)")
    if not spec.n2 <= spec.n3 <= spec.n1:
        raise ValueError(f"spec must have n2 <= n3 <= n1 (hidden units, outputs, inputs); got {spec.n2}, {spec.n3}, "
                         f"{spec.n1}")
    sb = train._teacher_profiles(teacher_svals, spec.n3)
    runs = _checks.integer(runs, "runs")
    if isinstance(inits, str) or not isinstance(inits, Sequence) or len(inits) == 0:
        raise ValueError(f"inits must be a non-empty sequence of 'aligned' or 'random'; got {inits!r}")
    inits = [_checks.choice(i, "inits", ("aligned", "random")) for i in inits]
    device = _checks.torch_device(device)
    teacher_rng, data_rng, init_rng = seeding.streams(rng, "teacher", "data", "init")
    data_gen = seeding.torch_generator(data_rng)  # the noise, then the randomised outputs
    n_teachers = sb.shape[0]
    svals = np.repeat(sb, runs, axis=0)  # teachers outermost, runs innermost
    teacher = teachers.low_rank_teacher(torch.tensor(svals), spec.n1, spec.n3, rng=teacher_rng)
    structured = teachers.noisy_training_covariance(teacher, rng=data_gen)
    randomised = task_data.randomised_outputs(structured, rng=data_gen)
    data = torch.cat([structured, randomised]).float()
    result = train.train_students(torch.cat([data] * len(inits)), train.Architecture(hidden=spec.n2),
                                  train.Schedule(lr=spec.lr, epochs=spec.epochs, n_records=spec.n_records),
                                  start=train.Start(init=[i for i in inits for _ in range(len(data))], eps=spec.eps),
                                  execution=train.Execution(device=device, desc=desc),
                                  rng=init_rng)
    n_data = 2 * n_teachers * runs
    return RandomisedTraining(
        time=result.time,
        train_error=result.train_error.reshape(len(inits), 2, n_teachers, runs, -1),
        data_svals=result.data_svals[:n_data].reshape(2, n_teachers, runs, -1),
    )
