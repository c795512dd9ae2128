"""A non-gradient learning algorithm that beats optimal early stopping (§3.7, App. E).

Lampinen & Ganguli (2019, §3.7): a training-aligned student trained by gradient descent
can only move all its singular values along the one learning curve of eq. (9), so at the
optimal stopping time it has over-learned the strong teacher modes while the weak ones are
still being picked up. The test error (15) is minimised mode by mode by setting each
student singular value to ``sbar_a O(sbar_a)`` (eq. 12), which gives the smallest error
any such student can reach, eq. (16):

    eps_non-gradient^opt = sum_a sbar_a^2 (1 - O(sbar_a)^2) / sum_a sbar_a^2.

A *usable* algorithm reaches it from the data alone (§3.7): take the singular values of
``Sigma31`` that pop out of the Marchenko-Pastur sea (above ``1 + sqrt(A)``), invert
eq. (11) to estimate each teacher value ``sbar``, shrink the singular value to
``sbar O(sbar)`` and drop every other mode. In terms of the data singular value this is

    eta(shat) = sqrt((shat^2 - 1 - A)^2 - 4 A) / shat     (shat > 1 + sqrt(A)),   0 otherwise,

because ``shat^2 - 1 - A = sbar^2 + A/sbar^2`` by eq. (11), so the square root is
``sbar^2 - A/sbar^2`` and ``sbar O(sbar) = (sbar^4 - A)/(sbar^2 shat)``. This is the
Frobenius-loss optimal singular-value shrinker of random matrix theory (Nadakuditi 2014;
Gavish & Donoho 2017); it is continuous, vanishing at the MP edge, so a noise singular
value that crosses the edge by a finite-size fluctuation is shrunk to almost nothing.

* :func:`optimal_shrinker` -- ``eta(shat)`` in the units of the paper (noise variance
  ``1/N1``).
* :func:`shrinkage_estimator` -- the algorithm applied to any data matrix (a batch of them),
  with a known or estimated noise level and either orientation.
* :func:`nongradient_optimal_error` -- eq. (16).
* :func:`optimal_errors` -- both algorithms' optimal errors for a batch of teachers: min over
  t of eq. (15) (gradient descent) and eq. (16) (an :class:`OptimalErrors`).
* :func:`compare_algorithms` -- the experiment: gradient descent of TA and random students
  against the estimator on the same data sets (an :class:`AlgorithmComparison`; sizes and
  training in a :class:`~gendyn.train.FullBatchSpec`).
* :func:`sampled_shrinkage` -- the estimator on fresh data sets of one teacher, with eq. (16)
  and its estimation excess (a :class:`SampledShrinkage`; finite size).

The theory is numpy, vectorised over leading batch dimensions; the experiments draw with torch
(:mod:`gendyn.teachers`) and :func:`compare_algorithms` trains with :mod:`gendyn.train`. They take
``rng`` (:mod:`gendyn.seeding`) and draw teachers, data and initial weights from its named streams
``"teacher"``, ``"data"`` and ``"init"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, deep_linear, rmt, seeding, teachers, train

__all__ = ["ShrinkageResult", "optimal_shrinker", "shrinkage_estimator", "estimation_excess",
           "nongradient_optimal_error"]
__all__ += ["OptimalErrors", "optimal_errors", "AlgorithmComparison", "compare_algorithms",
            "SampledShrinkage", "sampled_shrinkage"]


class ShrinkageResult(NamedTuple):
    """What :func:`shrinkage_estimator` returns with ``full_output=True``.

    Singular-value arrays have shape ``(..., min(N3, N1))``, descending, in the units of
    the input matrix; ``rank`` and ``noise_std`` have the batch shape.
    """

    matrix: np.ndarray  # the estimate, shape of the input
    data_svals: np.ndarray  # singular values of the data
    teacher_svals: np.ndarray  # eq. (11) inverted for the outliers, 0 for the rest
    svals: np.ndarray  # the shrunk singular values of the estimate
    rank: np.ndarray  # number of outliers (modes kept)
    noise_std: np.ndarray  # the noise level sigma_z used (given or estimated)
    aspect: float  # the aspect ratio used


def optimal_shrinker(shat: ArrayLike, aspect: ArrayLike) -> np.ndarray:
    """Optimal student singular value for a data singular value ``shat`` (§3.7).

    Parameters
    ----------
    shat : array_like
        Singular values of the training covariance ``Sigma31`` in the paper's units (noise
        entries of variance ``1/N1``), ``>= 0``.
    aspect : array_like
        Aspect ratio ``A = N3/N1`` in ``(0, 1]``; broadcast against ``shat``.

    Returns
    -------
    ndarray
        ``sbar O(sbar)`` with ``sbar = sbar(shat)`` the inverse of eq. (11) and ``O`` eq. (12)
        for ``shat`` above the MP edge ``1 + sqrt(A)``; ``0`` at or below the edge. Equal to
        ``sqrt((shat^2 - 1 - A)^2 - 4A) / shat`` (module docstring); it is below ``shat``,
        and ``shat - eta(shat) -> (1 + A)/shat`` for large ``shat``.
    """
    a = rmt.check_aspect(aspect)
    sh = _checks.real_array(shat, "shat (data singular values)", lower=0.0)
    sh, a = np.broadcast_arrays(sh, a)
    above = sh > 1.0 + np.sqrt(a)
    x = np.where(above, sh, 2.0 + 2.0 * np.sqrt(a))
    # (x^2 - 1 - A)^2 - 4A = (x^2 - (1 - sqrt A)^2)(x^2 - (1 + sqrt A)^2): no cancellation
    root = np.sqrt(a)
    prod = (x - 1.0 + root) * (x + 1.0 - root) * (x - 1.0 - root) * (x + 1.0 + root)
    eta = np.sqrt(np.clip(prod, 0.0, None)) / x
    out = np.where(above, eta, 0.0)
    return out[()] if out.ndim == 0 else out


def _check_matrix(x, name):
    """Finite real matrices of shape ``(..., N3, N1)``, ``N3, N1 >= 1``."""
    m = _checks.real_array(x, name, extra=" (finite), shape (..., N3, N1)")
    if m.ndim < 2 or min(m.shape[-2:]) < 1:
        raise ValueError(f"{name} must have shape (..., N3, N1) with N3, N1 >= 1; got shape {m.shape}")
    return m


def shrinkage_estimator(sigma31: ArrayLike, aspect: float | None = None, *, noise_std: float | str = 1.0,
                        full_output: bool = False) -> np.ndarray | ShrinkageResult:
    """Non-gradient estimate of the teacher from noisy data by optimal shrinkage (§3.7, App. E).

    Parameters
    ----------
    sigma31 : array_like, shape (..., N3, N1)
        Data matrices: the input-output covariance ``Sigma31 = Wbar + Z`` of eq. (3) with
        orthonormal inputs, where ``Z`` has i.i.d. entries of variance ``noise_std^2 / N1``
        (``N1`` = number of columns). Leading dimensions are a batch. Either orientation
        works (``N3 > N1`` is handled by the symmetry of the problem under transposition).
    aspect : float, optional
        Aspect ratio ``A`` in ``(0, 1]`` of the Marchenko-Pastur law of the noise; default
        ``min(N3, N1) / max(N3, N1)``, the shape of the matrix (give it only to use an
        asymptotic value instead).
    noise_std : float or "estimate"
        The noise level ``sigma_z`` (1 in the paper). ``"estimate"`` infers it, for each
        matrix, from the median singular value, which a low-rank signal hardly moves:
        ``sigma_z = sqrt(N1/n) * median(shat) / m_A`` with ``n = max(N3, N1)`` and ``m_A`` the
        median of the MP law (:func:`gendyn.rmt.mp_quantile`).
    full_output : bool
        Return a :class:`ShrinkageResult` instead of the estimate alone.

    Returns
    -------
    ndarray or ShrinkageResult
        The estimate ``W = sum_a eta(shat_a) uhat_a vhat_a^T`` (shape of ``sigma31``): the
        singular vectors of the data, the outlier singular values shrunk by
        :func:`optimal_shrinker` to ``sbar O(sbar)``, every other mode dropped.

    Notes
    -----
    In the standardised units ``x = c shat`` with ``c = sqrt(N1/n) / sigma_z`` the noise
    has entries of variance ``1/n``, so its singular values follow eq. (13) with aspect
    ``A``; an outlier is a singular value above the edge ``1 + sqrt(A)``. Eq. (11) is
    inverted (:func:`gendyn.rmt.spike_teacher_value`) and the shrunk value
    ``eta(x) = sbar O(sbar)`` is mapped back by ``1/c``. When the teacher's modes lie
    above the detection threshold ``A^(1/4)`` the test error of the estimate tends to
    eq. (16) as ``N1 -> inf`` (:func:`nongradient_optimal_error`); at finite size a noise
    value can exceed the edge by ``O(N^(-2/3))``, where ``eta`` is ``O(N^(-1/3))``, so
    such false detections cost ``O(N^(-2/3))`` in squared error.
    """
    m = _check_matrix(sigma31, "sigma31")
    full_output = _checks.flag(full_output, "full_output")
    u, s, vh, x, eta, scale, sigma, aspect = _shrink(m, aspect, noise_std)
    estimate = (u * eta[..., None, : u.shape[-1]]) @ vh  # u, vh: the kept modes (and a few zeros)
    if not full_output:
        return estimate
    outlier = x > 1.0 + np.sqrt(aspect)
    sbar = np.where(outlier, rmt.spike_teacher_value(x, aspect), 0.0) / scale
    return ShrinkageResult(estimate, s, sbar, eta, outlier.sum(-1), sigma, aspect)


def _shrink(m, aspect, noise_std):
    """SVD of checked data ``m`` and the shrunk singular values (see shrinkage_estimator)."""
    n3, n1 = m.shape[-2:]
    n_big, n_small = max(n3, n1), min(n3, n1)
    if aspect is None:
        aspect = n_small / n_big
    aspect = _checks.bounded(aspect, "aspect", 0.0, 1.0, open_lower=True, extra=" or None")
    s, gram_vecs = _gram_eigh(m)
    unit = np.sqrt(n1 / n_big)  # singular values of noise with variance 1/N1, in units of variance 1/n
    if isinstance(noise_std, str):
        if noise_std != "estimate":
            raise ValueError(f"noise_std must be a number > 0 or 'estimate'; got {noise_std!r}")
        median = float(rmt.mp_quantile(0.5, aspect))
        sigma = unit * np.median(s, axis=-1) / median
        if np.any(~(sigma > 0)):
            raise ValueError("cannot estimate the noise level: the median singular value is 0 "
                             "(the matrix has rank below min(N3, N1)/2); give noise_std")
    else:
        sigma = np.full(m.shape[:-2], _checks.positive(noise_std, "noise_std", " or 'estimate'"))
    scale = (unit / sigma)[..., None]  # data -> standardised units
    x = s * scale
    eta = optimal_shrinker(x, aspect) / scale
    u, vh = _kept_vectors(m, s, gram_vecs, max(1, int((eta > 0).sum(-1).max(initial=0))))
    return u, s, vh, x, eta, scale, sigma, aspect


def _gram_eigh(m):
    """All singular values (descending) of ``m`` and the eigenvectors of its smaller Gram matrix.

    The symmetric eigenproblem of ``m m^T`` (or ``m^T m``) is about four times as fast as a full
    SVD; squaring costs accuracy only for the smallest singular values, which the shrinker drops.
    """
    wide = m.shape[-2] <= m.shape[-1]
    gram = m @ np.swapaxes(m, -1, -2) if wide else np.swapaxes(m, -1, -2) @ m
    evals, evecs = np.linalg.eigh(gram)
    return np.sqrt(np.clip(evals[..., ::-1], 0.0, None)), evecs[..., ::-1]


def _kept_vectors(m, s, gram_vecs, k):
    """The top ``k`` left and right singular vectors, ``(..., N3, k)`` and ``(..., k, N1)``: one side
    from the Gram eigenvectors, the other as ``m^T u / s`` (``m v / s``); ``k`` covers every kept mode,
    whose singular value is above the noise edge and so far from 0."""
    top = gram_vecs[..., :k]
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(s[..., None, :k] > 0, 1.0 / s[..., None, :k], 0.0)
    if m.shape[-2] <= m.shape[-1]:
        return top, np.swapaxes((np.swapaxes(m, -1, -2) @ top) * inv, -1, -2)
    return (m @ top) * inv, np.swapaxes(top, -1, -2)


def estimation_excess(sigma31: ArrayLike, teacher: ArrayLike, aspect: float | None = None, *,
                      noise_std: float | str = 1.0) -> np.ndarray:
    """Squared error the estimator pays for estimating ``sbar O(sbar)`` from the data.

    With the data modes ``(shat_a, uhat_a, vhat_a)`` the estimate is
    ``W = sum_a eta_a uhat_a vhat_a^T`` and its squared error is
    ``sum_a (eta_a^2 - 2 eta_a c_a) + ||Wbar||^2`` with ``c_a = uhat_a . Wbar vhat_a``; the
    best values on the same modes, ``eta_a = c_a``, need the teacher (an *oracle*). The
    difference is

        excess = sum_a (eta_a - c_a)^2 / ||Wbar||^2     (summed over the kept modes),

    which vanishes as ``N -> inf``: ``O(1/N)`` on the true spikes (``eta_a - c_a`` fluctuates by
    ``O(N^(-1/2))``) plus ``O(N^(-2/3))`` for noise values kept after a Tracy-Widom excursion
    beyond the edge. Optimal early stopping (the minimum over time of the *test* error) is an
    oracle choice of the same kind, so at finite ``N`` it may beat the estimator by up to
    about this amount on a rank-1 teacher, where both tend to eq. (16).

    Parameters
    ----------
    sigma31, teacher : array_like, shape (..., N3, N1)
        Data and noise-free teacher ``Wbar`` (not all zero).
    aspect, noise_std
        As in :func:`shrinkage_estimator`.

    Returns
    -------
    ndarray, shape (...)
    """
    m = _check_matrix(sigma31, "sigma31")
    w = _check_matrix(teacher, "teacher")
    if w.shape != m.shape:
        raise ValueError(f"teacher must have the shape of sigma31 {m.shape}; got {w.shape}")
    norm = (w**2).sum((-2, -1))
    if np.any(norm == 0):
        raise ValueError("the teacher is zero for some matrix: the relative excess is undefined")
    u, _, vh, _, eta, _, _, _ = _shrink(m, aspect, noise_std)
    c = np.einsum("...ia,...ij,...aj->...a", u, w, vh)
    eta = eta[..., : u.shape[-1]]  # every kept mode (eta > 0) is among the vectors returned
    return np.where(eta > 0, (eta - c) ** 2, 0.0).sum(-1) / norm


def nongradient_optimal_error(teacher_svals: ArrayLike, aspect: ArrayLike) -> np.ndarray:
    """Test error of the optimal non-gradient (shrinkage) student, eq. (16).

    Parameters
    ----------
    teacher_svals : array_like, shape (..., Nbar2)
        Teacher singular values ``sbar_a >= 0`` (finite) along the last axis, not all zero;
        leading dimensions are a batch.
    aspect : array_like
        Aspect ratio ``A = N3/N1`` in ``(0, 1]``, broadcast against the batch shape.

    Returns
    -------
    ndarray or float
        ``sum_a sbar_a^2 (1 - O(sbar_a)^2) / sum_a sbar_a^2``: between 0 and 1, equal to 1
        when no mode exceeds the detection threshold ``A^(1/4)``. For one mode it is
        ``1 - O(sbar)^2``, the paper's estimate of the optimal early-stopping error of
        gradient descent for a rank-1 teacher (§3.7, Fig. 11); for several modes it is a
        lower bound on that error.
    """
    sb = rmt.check_singular_values(teacher_svals)
    top = sb.max(-1)
    if np.any(top == 0):
        raise ValueError("teacher_svals are all zero for some teacher: eq. (16) (normalised by sum sbar^2) "
                         "is undefined")
    a = rmt.check_aspect(aspect)
    a = np.broadcast_to(a, np.broadcast_shapes(a.shape, top.shape))[..., None]
    overlap = rmt.spike_overlap(sb, a)
    # sbar^2 (1 - O^2) relative to sum sbar^2, scaled by the largest value (no overflow of sbar^2)
    w = (sb / top[..., None]) ** 2
    out = (w * (1.0 - overlap**2)).sum(-1) / w.sum(-1)
    return out[()] if out.ndim == 0 else out


# ----------------------------------------------------------------------------------------
# the two algorithms' optimal errors in theory (eqs. 15-16), and measured (Fig. 11)
# ----------------------------------------------------------------------------------------

class OptimalErrors(NamedTuple):
    """Optimal test errors of gradient descent and of the non-gradient student (:func:`optimal_errors`)."""

    gradient: np.ndarray  #: min over t of eq. (15), one per teacher
    nongradient: np.ndarray  #: eq. (16), one per teacher


def optimal_errors(teacher_svals: ArrayLike, n1: int, n2: int, n3: int, eps: float) -> OptimalErrors:
    """Optimal test errors of a TA student by gradient descent and of the shrinkage student (§3.7, eqs. 15-16).

    Parameters
    ----------
    teacher_svals : array_like, shape (K, Nbar2)
        Singular values ``>= 0`` of ``K`` teachers (each not all zero).
    n1, n2, n3 : int
        Inputs, hidden units and outputs.
    eps : float
        Initial singular value of the TA students, ``> 0``.

    Returns
    -------
    OptimalErrors
        ``gradient``: :func:`gendyn.deep_linear.optimal_early_stopping`'s minimal error (eq. 15);
        ``nongradient``: :func:`nongradient_optimal_error` at ``A = N3/N1`` (eq. 16); shape ``(K,)``.
    """
    sb = _checks.real_array(teacher_svals, "teacher_svals", lower=0.0, ndim=2, extra=" (teachers x singular values)")
    if sb.shape[0] == 0 or sb.shape[1] == 0:
        raise ValueError(f"teacher_svals must hold at least one teacher and one value; got shape {sb.shape}")
    n2 = _checks.integer(n2, "n2")  # required here (TaStudent would read None as full rank)
    grad = np.array([deep_linear.optimal_early_stopping(row, deep_linear.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps))[1]
                     for row in sb])
    return OptimalErrors(grad, nongradient_optimal_error(sb, _checks.integer(n3, "n3") / _checks.integer(n1, "n1")))


@dataclass(frozen=True)
class AlgorithmComparison:
    """Gradient descent against the shrinkage estimator on the same data sets (:func:`compare_algorithms`).

    Attributes
    ----------
    gd_opt : ndarray, shape (2, K, runs)
        Optimal early-stopping test error (minimum over the records) of TA (first) and random students.
    shrink_err : ndarray, shape (K, runs)
        Test error, eq. (5), of the shrinkage estimator on the same data.
    excess : ndarray, shape (K, runs)
        Its estimation excess (:func:`estimation_excess`).
    """

    gd_opt: np.ndarray
    shrink_err: np.ndarray
    excess: np.ndarray


def _estimate(sigma31, teacher):
    """Test error of the shrinkage estimate of each data set, and its estimation excess."""
    err = deep_linear.linear_test_error(shrinkage_estimator(sigma31, full_output=True).matrix, teacher)
    return err, estimation_excess(sigma31, teacher)


def _draw(sb, runs, n1, n3, teacher_rng, data_rng):
    """``runs`` teachers per row of ``sb`` (rows outermost) and their noisy training data (eq. 3)."""
    teacher = teachers.low_rank_teacher(torch.tensor(np.repeat(sb, runs, axis=0)), n1, n3, rng=teacher_rng)
    return teacher.matrix, teachers.noisy_training_covariance(teacher, rng=data_rng)


def compare_algorithms(teacher_svals: ArrayLike, runs: int, spec: train.FullBatchSpec, *,
                       rng: seeding.Rng = None, device: str | torch.device = "cpu",
                       desc: str | None = "TA and random students", **former: object) -> AlgorithmComparison:
    """Optimal early stopping of gradient descent against the shrinkage estimator, on the same data (§3.7, Fig. 11).

    For each teacher, ``runs`` random teachers with its singular values (eq. 1) and their noisy
    training data on orthonormal inputs (eq. 3, ``sigma_z = 1``) are drawn; a TA and a randomly
    initialised student learn each data set by full-batch gradient descent, eq. (8) (one float32
    batch), and the estimator (:func:`shrinkage_estimator`) is applied once.

    Parameters
    ----------
    teacher_svals : array_like, shape (K, Nbar2)
        Singular values ``>= 0`` of each teacher (pad lower ranks with zeros).
    runs : int
        Data sets per teacher, ``>= 1``.
    spec : gendyn.train.FullBatchSpec
        Sizes and training.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of everything drawn, in three named streams (:func:`gendyn.seeding.streams`):
        ``"teacher"`` the teachers, ``"data"`` the noise, ``"init"`` the random students' weights;
        ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    device : str
        Torch device of the training.
    desc : str, optional
        Label of the progress bar (None: none).
    **former
        Deprecated: ``generator=`` instead of ``rng`` (one more release, ``DeprecationWarning``).

    Returns
    -------
    AlgorithmComparison
    """
    rng = seeding.former_rng(rng, former, "shrinkage.compare_algorithms", alone=True)
    spec = _checks.instance(spec, "spec", train.FullBatchSpec, hint=" (sizes and training)")
    if spec.n3 > spec.n1:
        raise ValueError(f"spec must have n3 <= n1 (aspect <= 1); got n3={spec.n3}, n1={spec.n1}")
    sb = train._teacher_profiles(teacher_svals, spec.n3)
    runs = _checks.integer(runs, "runs")
    device = _checks.torch_device(device)
    teacher_rng, data_rng, init_rng = seeding.streams(rng, "teacher", "data", "init")
    wbar, sigma31 = _draw(sb, runs, spec.n1, spec.n3, teacher_rng, data_rng)
    batch = sigma31.shape[0]
    result = train.train_students(torch.cat([sigma31, sigma31]).float(), train.Architecture(hidden=spec.n2),
                                  train.Schedule(lr=spec.lr, epochs=spec.epochs, n_records=spec.n_records),
                                  start=train.Start(init=["aligned"] * batch + ["random"] * batch, eps=spec.eps),
                                  evaluation=train.Evaluation(teacher=torch.cat([wbar, wbar]).float()),
                                  execution=train.Execution(device=device, desc=desc),
                                  rng=init_rng)
    err, excess = _estimate(sigma31.cpu().numpy(), wbar.cpu().numpy())
    shape = (sb.shape[0], runs)
    return AlgorithmComparison(result.test_error.min(-1).reshape(2, *shape), err.reshape(shape), excess.reshape(shape))


class SampledShrinkage(NamedTuple):
    """The shrinkage estimator on fresh data sets of one teacher (:func:`sampled_shrinkage`)."""

    error: np.ndarray  #: test error of each run's estimate, eq. (5), shape (runs,)
    predicted: float  #: eq. (16), its large-N1 limit
    excess: np.ndarray  #: estimation excess of each run (:func:`estimation_excess`)

    @property
    def deviation(self) -> np.ndarray:
        """``|error - predicted|`` of each run."""
        return np.abs(self.error - self.predicted)


def sampled_shrinkage(teacher_svals: ArrayLike, n1: int, n3: int, runs: int, *,
                      rng: seeding.Rng = None, **former: object) -> SampledShrinkage:
    """The shrinkage estimator on ``runs`` fresh data sets of one teacher profile (§3.7; finite size).

    Each run draws a random teacher with singular values ``teacher_svals`` (eq. 1) and its noisy
    training data (eq. 3, ``sigma_z = 1``); the estimate's test error is compared with eq. (16).

    Parameters
    ----------
    teacher_svals : array_like, shape (Nbar2,)
        The teacher's singular values ``>= 0``, not all zero, ``Nbar2 <= n3``.
    n1, n3 : int
        Inputs and outputs, ``n3 <= n1``.
    runs : int
        Data sets, ``>= 1``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the teachers (stream ``"teacher"``) and the noise (stream ``"data"``), as in
        :func:`compare_algorithms`; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    **former
        Deprecated: ``generator=`` instead of ``rng`` (one more release, ``DeprecationWarning``).

    Returns
    -------
    SampledShrinkage
    """
    rng = seeding.former_rng(rng, former, "shrinkage.sampled_shrinkage", alone=True)
    sb = _checks.real_array(teacher_svals, "teacher_svals", lower=0.0, ndim=1, extra=" (one teacher)")
    n1, n3, runs = _checks.integer(n1, "n1"), _checks.integer(n3, "n3"), _checks.integer(runs, "runs")
    if n3 > n1:
        raise ValueError(f"need n3 <= n1 (aspect <= 1); got n3={n3}, n1={n1}")
    if not 1 <= sb.size <= n3:
        raise ValueError(f"teacher_svals must hold 1 to n3 = {n3} values; got {sb.size}")
    predicted = float(nongradient_optimal_error(sb, n3 / n1))
    wbar, sigma31 = _draw(sb[None], runs, n1, n3, *seeding.streams(rng, "teacher", "data"))
    err, excess = _estimate(sigma31.cpu().numpy(), wbar.cpu().numpy())
    return SampledShrinkage(err, predicted, excess)
