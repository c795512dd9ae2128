"""Batched training data for the Lampinen & Ganguli experiments beyond one linear task (torch).

* :func:`task_pairs` -- two tasks sharing their inputs, with chosen singular values and
  input-mode overlap ``Q = Vbar^A^T Vbar^B`` and a choice of output vectors (§4, App. D,
  Figs. 8 and 10): the stacked data of a two-headed student.
* :func:`leaky_relu_task_pairs` -- the same for leaky-ReLU teachers (App. F, Fig. 12).
* :func:`task_a_only` -- the single-task baseline of such data: task A alone, head B zero;
  :func:`task_a_rows` picks one data set of task A per ``(sbar_A, run)`` of a grid.
* :func:`randomised_outputs` -- outputs replaced by i.i.d. Gaussians of the same variance
  (§3.6, Fig. 6).
* :func:`sampled_inputs` and :func:`sampled_task` -- ``P != N1`` training inputs,
  orthogonalised or Gaussian, and their noisy targets (App. G, Fig. 13);
  :func:`stack_examples` batches data sets of different ``P`` (zero-padded examples), and
  :func:`converged_map` is where gradient descent ends (``t -> inf``).

Every function draws from ``rng`` (:mod:`gendyn.seeding`: an integer seed, which draws as
``torch.Generator().manual_seed(seed)``, a named stream, a torch or numpy generator, or ``None``
for fresh entropy), one torch generator per call, and returns whole batches, so a figure's
networks train as one tensor program (:func:`gendyn.train.train_students`).
Noise entries have variance ``noise_std^2 / N1`` (eqs. 2-3 and 25-26).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, _random, seeding

from .teachers import random_orthonormal

__all__ = [
    "OUTPUT_VECTORS",
    "TaskPairs",
    "task_pairs",
    "leaky_relu_task_pairs",
    "task_a_only",
    "task_a_rows",
    "randomised_outputs",
    "INPUT_KINDS",
    "sampled_inputs",
    "sampled_task",
    "stack_examples",
    "converged_map",
]

#: How :func:`task_pairs` chooses the output singular vectors ``Ubar^A``, ``Ubar^B``.
OUTPUT_VECTORS = ("independent", "identical", "axis")
#: Kinds of training inputs of :func:`sampled_inputs`.
INPUT_KINDS = ("orthogonal", "gaussian")


class TaskPairs(NamedTuple):
    """Stacked two-task data; networks are ordered setting-major (``g * runs + r``).

    ``sigma31``/``targets`` and ``teacher`` have shape ``(G * runs, 2 N3, N1)``: rows
    ``:N3`` are task A (head A), rows ``N3:`` task B. The single-task data of task A is
    ``sigma31[:, :N3]`` (the same draw, so single and joint students can be compared
    pairwise).
    """

    sigma31: torch.Tensor  # noisy training data (orthonormal / one-hot inputs)
    teacher: torch.Tensor  # noise-free targets (the teacher map, or its outputs on the inputs)
    n3: int
    runs: int


def _check_torch(rng, dtype, device):
    """The torch generator of ``rng`` (on any device), dtype (float32/float64) and device of a draw."""
    device = _checks.torch_device(device)
    return seeding.torch_generator(rng), _checks.torch_dtype(dtype), device


def _settings(svals_a, svals_b, overlap):
    """Arrays ``(G, rA)``, ``(G, rB)``, ``(G, rA, rB)`` after checks."""
    sa = _checks.real_array(svals_a, "svals_a", lower=0, extra=" (singular values)")
    sb = _checks.real_array(svals_b, "svals_b", lower=0, extra=" (singular values)")
    q = _checks.real_array(overlap, "overlap")
    if sa.ndim == 1:
        sa = sa[:, None]
    if sb.ndim == 1:
        sb = sb[:, None]
    if sa.ndim != 2 or sb.ndim != 2 or sa.shape[0] != sb.shape[0] or sa.shape[0] == 0:
        raise ValueError(f"svals_a and svals_b must have shapes (G, rA) and (G, rB) (or (G,) for rank 1) "
                         f"with the same G >= 1; got {sa.shape} and {sb.shape}")
    if q.ndim == 1:
        q = q[:, None, None]
    if q.shape != (sa.shape[0], sa.shape[1], sb.shape[1]):
        raise ValueError(f"overlap must have shape (G, rA, rB) = {(sa.shape[0], sa.shape[1], sb.shape[1])} "
                         f"(or (G,) for rank 1); got {q.shape}")
    if np.any(np.linalg.norm(q, 2, axis=(-2, -1)) > 1 + 1e-12):
        raise ValueError("every overlap matrix Q must be finite with singular values <= 1")
    return sa, sb, q


def _complement_root(q):
    """``(I - Q^T Q)^(1/2)`` for a batch of ``(rA, rB)`` matrices."""
    m = np.eye(q.shape[-1]) - np.swapaxes(q, -1, -2) @ q
    lam, vec = np.linalg.eigh(m)
    return (vec * np.sqrt(np.clip(lam, 0.0, None))[..., None, :]) @ np.swapaxes(vec, -1, -2)


def _input_modes(q, n1, runs, generator, dtype, device):
    """``Vbar^A`` ``(R, N1, rA)`` and ``Vbar^B`` ``(G, R, N1, rB)`` with ``Vbar^A^T Vbar^B = Q``."""
    g_count, r_a, r_b = q.shape
    if n1 < r_a + r_b:
        raise ValueError(f"n1 = {n1} inputs cannot hold rA + rB = {r_a + r_b} input modes")
    basis = random_orthonormal(n1, r_a + r_b, batch=(runs,), rng=generator, device=device,
                               dtype=torch.float64)
    v_a, v_perp = basis[..., :r_a], basis[..., r_a:]
    qt = torch.as_tensor(q, dtype=torch.float64, device=device)[:, None]  # (G, 1, rA, rB)
    root = torch.as_tensor(_complement_root(q), dtype=torch.float64, device=device)[:, None]
    v_b = v_a[None] @ qt + v_perp[None] @ root
    return v_a.to(dtype), v_b.to(dtype)


def _output_modes(n3, r_a, r_b, runs, output_vectors, generator, dtype, device):
    _checks.choice(output_vectors, "output_vectors", OUTPUT_VECTORS)
    if max(r_a, r_b) > n3:
        raise ValueError(f"n3 = {n3} outputs per head cannot hold rank {max(r_a, r_b)}")
    kw = dict(batch=(runs,), rng=generator, device=device, dtype=torch.float64)
    if output_vectors == "axis":
        eye = torch.eye(n3, dtype=torch.float64, device=device)
        return eye[:, :r_a].expand(runs, n3, r_a).to(dtype), eye[:, :r_b].expand(runs, n3, r_b).to(dtype)
    u_a = random_orthonormal(n3, r_a, **kw)
    if output_vectors == "identical":
        if r_a != r_b:
            raise ValueError("output_vectors='identical' needs tasks of equal rank")
        return u_a.to(dtype), u_a.to(dtype)
    return u_a.to(dtype), random_orthonormal(n3, r_b, **kw).to(dtype)


def task_pairs(svals_a: ArrayLike, svals_b: ArrayLike, overlap: ArrayLike, spec: PairSpec | None = None,
               *sizes: int, output_vectors: str = "independent", rng: seeding.Rng = None,
               dtype: torch.dtype = torch.float64, device: str | torch.device = "cpu", **flat: object) -> TaskPairs:
    """Noisy training data of two linear tasks sharing orthonormal inputs (§4, eq. 24).

    ``task_pairs(svals_a, svals_b, overlap, PairSpec(n1=30, n3=10, runs=3), rng=0)``.

    Parameters
    ----------
    svals_a, svals_b : array_like, shapes (G, rA), (G, rB)
        Singular values of the two teachers for ``G`` settings (``(G,)`` for rank 1).
    overlap : array_like, shape (G, rA, rB)
        ``Q = Vbar^A^T Vbar^B`` of each setting (``(G,)`` of cosines ``q`` for rank 1); its
        singular values must be ``<= 1``.
    spec : PairSpec
        Inputs ``n1``, outputs per head ``n3``, runs per setting and the noise (required).
    *sizes, **flat
        Deprecated: the old form ``task_pairs(svals_a, svals_b, overlap, n1, n3, runs, noise_std=...)``,
        and ``generator=`` instead of ``rng``, accepted for one more release with a
        ``DeprecationWarning``; the results are identical.
    output_vectors : {"independent", "identical", "axis"}
        ``Ubar^A``, ``Ubar^B`` Haar-random and independent; the same matrix for both tasks
        (each in its own head); or the first standard basis vectors of each head. By
        Theorem 1 the transfer benefit is the same for all three.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the input modes, the noise and the output vectors (one torch generator, in that
        order); ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    dtype, device
        Of the returned tensors (draws are made in float64).

    Returns
    -------
    TaskPairs
        ``sigma31 = Wbar^{A+B} + Z`` and ``teacher = Wbar^{A+B}``, shape ``(G * runs, 2 n3, n1)``.

    Notes
    -----
    Within a run every setting shares its random draws (``Vbar^A``, the orthogonal
    complement used for ``Vbar^B = Vbar^A Q + Vbar_perp (I - Q^T Q)^(1/2)``, ``Ubar^A``,
    ``Ubar^B`` and the noise ``Z``): only the singular values and ``Q`` change across the
    grid, which makes differences between settings far less noisy (common random numbers).
    The input modes and the noise are drawn before the output vectors, so two calls with the
    same ``rng`` (an integer or a stream; a generator in the same state) that differ only in
    ``output_vectors`` share them exactly.
    """
    rng = seeding.former_rng(rng, flat, "task_data.task_pairs")
    if sizes or flat:
        spec = _old_pair_spec("task_pairs", spec, sizes, flat, ("output_vectors",))
        return task_pairs(svals_a, svals_b, overlap, spec, output_vectors=output_vectors, rng=rng,
                          dtype=dtype, device=device)
    spec = _checks.instance(spec, "spec", PairSpec, hint=" (PairSpec(n1=..., n3=..., runs=...))")
    sa, sb, q = _settings(svals_a, svals_b, overlap)
    n1, n3, runs, noise_std = spec.n1, spec.n3, spec.runs, spec.noise_std
    _checks.choice(output_vectors, "output_vectors", OUTPUT_VECTORS)
    generator, dtype, device = _check_torch(rng, dtype, device)
    f64 = dict(dtype=torch.float64, device=device)
    # draw order V, Z, U: with the same rng, calls that differ only in
    # output_vectors share their input modes and noise exactly (paired tests of Theorem 1)
    v_a, v_b = _input_modes(q, n1, runs, generator, torch.float64, device)
    z = _random.randn(runs, 2 * n3, n1, generator=generator, **f64) * (noise_std / math.sqrt(n1))
    u_a, u_b = _output_modes(n3, sa.shape[1], sb.shape[1], runs, output_vectors, generator, torch.float64, device)
    s_a = torch.as_tensor(sa, **f64)[:, None, None, :]  # (G, 1, 1, rA)
    s_b = torch.as_tensor(sb, **f64)[:, None, None, :]
    w_a = (u_a[None] * s_a) @ v_a[None].mT  # (G, R, n3, n1)
    w_b = (u_b[None] * s_b) @ v_b.mT
    w = torch.cat([w_a, w_b], dim=-2)
    g_count = sa.shape[0]
    teacher = w.reshape(g_count * runs, 2 * n3, n1)
    noisy = (w + z[None]).reshape(g_count * runs, 2 * n3, n1)
    return TaskPairs(noisy.to(dtype), teacher.to(dtype), n3, runs)


def _leaky(x, slope):
    return torch.where(x > 0, x, slope * x)


def leaky_relu_task_pairs(svm_a: ArrayLike, svm_b: ArrayLike, q: ArrayLike, spec: PairSpec | None = None,
                          *sizes: int, teachers: LeakyTeachers | None = None, rng: seeding.Rng = None,
                          dtype: torch.dtype = torch.float64, device: str | torch.device = "cpu",
                          **flat: object) -> TaskPairs:
    """Two leaky-ReLU teacher tasks on one-hot inputs (App. F, Fig. 12).

    Teacher ``X`` (``X = A, B``) is the network ``f_X(x) = lrelu(Ubar^X S^X lrelu(Vbar^X^T x))``
    with ``rank`` hidden units (``Nbar2 = 4`` in the paper), leaky ReLU (negative slope
    ``slope``) at the hidden and output layers, orthonormal ``Ubar^X`` (``n3 x rank``) and
    ``Vbar^X`` (``n1 x rank``), and ``S^X = svm_X diag(rank, ..., 2, 1)/rank``. The input
    modes are aligned column by column, ``Vbar^A^T Vbar^B = q I``.

    Parameters
    ----------
    svm_a, svm_b, q : array_like, shape (G,)
        Singular-value multipliers and the input alignment of ``G`` settings.
    spec : PairSpec
        Inputs ``n1``, outputs per head ``n3``, runs per setting and the noise, as in
        :func:`task_pairs` (required).
    teachers : LeakyTeachers, optional
        The teachers' hidden units ``rank``, leaky-ReLU ``slope`` and construction (``branches``);
        ``None``: ``LeakyTeachers()``, the single network of App. F with 4 hidden units.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the teachers' directions, then the noise (one torch generator); ``None``: fresh
        entropy (see :mod:`gendyn.seeding`).
    dtype, device
        As in :func:`task_pairs`.
    *sizes, **flat
        Deprecated: the old form ``leaky_relu_task_pairs(svm_a, svm_b, q, n1, n3, runs, rank=...,
        slope=..., noise_std=..., branches=...)``, and ``generator=`` instead of ``rng``, accepted for
        one more release with a ``DeprecationWarning``; the results are identical.

    Returns
    -------
    TaskPairs
        ``sigma31`` = noisy targets ``Y = f(I) + Z`` on the ``n1`` one-hot inputs (which is
        also ``Sigma31``) and ``teacher`` = the noise-free ``f(I)``, shape
        ``(G * runs, 2 n3, n1)``; pass ``(torch.eye(n1), teacher)`` as ``test_data`` of
        :func:`gendyn.train.train_students` to score the noise-free outputs on the training
        inputs, as the authors' script did.

    Notes
    -----
    The default is the single network with ``Nbar2 = rank`` hidden units that App. F
    describes; ``LeakyTeachers(branches=True)`` is the construction of the authors' script, in which
    the branches' directions are independent, not orthonormal, and each branch has its own
    output nonlinearity.
    """
    rng = seeding.former_rng(rng, flat, "task_data.leaky_relu_task_pairs")
    if sizes or flat:
        teacher_keys = ("rank", "slope", "branches")
        if teachers is not None and set(flat) & set(teacher_keys):
            raise ValueError("pass either teachers or rank, slope and branches (deprecated), not both")
        old = {k: flat.pop(k) for k in teacher_keys if k in flat}
        if old and isinstance(spec, PairSpec) and not (sizes or flat):
            warnings.warn("leaky_relu_task_pairs(..., rank=..., slope=..., branches=...) is deprecated and will be "
                          "removed in the next release: pass teachers=LeakyTeachers(rank=..., slope=..., "
                          "branches=...)", DeprecationWarning, stacklevel=2)
        spec = _old_pair_spec("leaky_relu_task_pairs", spec, sizes, flat, teacher_keys)
        teachers = LeakyTeachers(**old) if old else teachers
        return leaky_relu_task_pairs(svm_a, svm_b, q, spec, teachers=teachers, rng=rng, dtype=dtype,
                                     device=device)
    spec = _checks.instance(spec, "spec", PairSpec, hint=" (PairSpec(n1=..., n3=..., runs=...))")
    teachers = LeakyTeachers() if teachers is None else _checks.instance(teachers, "teachers", LeakyTeachers)
    svm_a, svm_b = (np.atleast_1d(_checks.real_array(x, name, lower=0, ndim=(0, 1)))
                    for x, name in ((svm_a, "svm_a"), (svm_b, "svm_b")))
    q = np.atleast_1d(_checks.real_array(q, "q", lower=-1, upper=1, ndim=(0, 1), extra=" (cosines)"))
    if not svm_a.size == svm_b.size == q.size > 0:
        raise ValueError(f"svm_a, svm_b and q must be 1-d arrays of the same length G >= 1; got lengths "
                         f"{svm_a.size}, {svm_b.size}, {q.size}")
    rank, slope, branches = teachers.rank, teachers.slope, teachers.branches
    n1, n3, runs, noise_std = spec.n1, spec.n3, spec.runs, spec.noise_std
    generator, dtype, device = _check_torch(rng, dtype, device)
    g_count = q.size
    f64 = dict(dtype=torch.float64, device=device)
    profile = torch.arange(rank, 0, -1, **f64) / rank
    if branches:  # rank independent rank-one networks, each with q-aligned input directions
        parts = [(_input_modes(q[:, None, None], n1, runs, generator, torch.float64, device),
                  _output_modes(n3, 1, 1, runs, "independent", generator, torch.float64, device))
                 for _ in range(rank)]
    else:
        qmat = q[:, None, None] * np.eye(rank)[None]
        parts = [(_input_modes(qmat, n1, runs, generator, torch.float64, device),
                  _output_modes(n3, rank, rank, runs, "independent", generator, torch.float64, device))]
    z = _random.randn(runs, 2 * n3, n1, generator=generator, **f64) * (noise_std / math.sqrt(n1))
    y = torch.zeros(g_count, runs, 2 * n3, n1, **f64)
    for i, ((v_a, v_b), (u_a, u_b)) in enumerate(parts):
        weight = profile[i : i + 1] if branches else profile
        s_a = torch.as_tensor(svm_a, **f64)[:, None, None, None] * weight  # (G, 1, 1, rank or 1)
        s_b = torch.as_tensor(svm_b, **f64)[:, None, None, None] * weight
        # one-hot inputs: the hidden pre-activations are Vbar^T itself
        y[..., :n3, :] += _leaky((u_a[None] * s_a) @ _leaky(v_a[None].mT, slope), slope)  # (G, R, n3, n1)
        y[..., n3:, :] += _leaky((u_b[None] * s_b) @ _leaky(v_b.mT, slope), slope)
    clean = y.reshape(g_count * runs, 2 * n3, n1)
    noisy = (y + z[None]).reshape(g_count * runs, 2 * n3, n1)
    return TaskPairs(noisy.to(dtype), clean.to(dtype), n3, runs)


def task_a_only(pairs: TaskPairs, rows: Sequence[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """Two-headed data of task A alone: some data sets of ``pairs`` with head B's targets and teacher zeroed.

    A two-headed student of it is a single-task student of A (head B starts at, or decays to, zero),
    trained on the very task-A data of its two-task twin: the baseline ``eps_A^opt`` of the transfer
    benefit ``T^{A<-B} = eps_A^opt - eps_{A<-B}^opt`` (Lampinen & Ganguli 2019, §4), paired run by run.

    Parameters
    ----------
    pairs : TaskPairs
        Two-task data (:func:`task_pairs` or :func:`leaky_relu_task_pairs`).
    rows : sequence of int
        The data sets (rows of ``pairs``) to take task A from.

    Returns
    -------
    sigma31, teacher : Tensor, shape (len(rows), 2 N3, N1)
        Copies of those rows of ``pairs.sigma31`` and ``pairs.teacher``, rows ``N3:`` set to zero.
    """
    pairs = _checks.instance(pairs, "pairs", TaskPairs, hint=" (see task_pairs)")
    rows = list(_checks.integers(rows, "rows", 0))
    if max(rows) >= len(pairs.sigma31):
        raise ValueError(f"rows must index the {len(pairs.sigma31)} data sets of pairs; got {max(rows)}")
    data, teacher = pairs.sigma31[rows].clone(), pairs.teacher[rows].clone()
    data[:, pairs.n3:], teacher[:, pairs.n3:] = 0.0, 0.0
    return data, teacher


def task_a_rows(points: ArrayLike, sbar_a: ArrayLike, runs: int) -> list[int]:
    """Rows of :func:`task_pairs` data that hold task A once per ``(sbar_A, run)``: those of its first grid point.

    :func:`task_pairs` shares its draws across the settings of a run, so task A's data depends on
    ``(sbar_A, run)`` only: one single-task student per ``(sbar_A, run)`` (:func:`task_a_only`)
    serves every ``(sbar_B, q)`` of a grid.

    Parameters
    ----------
    points : array_like, shape (G, 3)
        The grid's settings ``(sbar_A, sbar_B, q)``, in the order given to :func:`task_pairs`.
    sbar_a : array_like, shape (A,)
        The distinct values of ``sbar_A`` wanted (each must occur in ``points``).
    runs : int
        Runs per setting.

    Returns
    -------
    list of int
        ``A * runs`` rows, ``sbar_A``-major then run.
    """
    points = _checks.real_array(points, "points", ndim=2)
    if points.shape[1:] != (3,):
        raise ValueError(f"points must have shape (G, 3): (sbar_A, sbar_B, q) per setting; got {points.shape}")
    sbar_a = _checks.real_array(sbar_a, "sbar_a", ndim=1)
    runs = _checks.integer(runs, "runs")
    _checks.work_limit(0.0, f"runs={runs} with {len(sbar_a)} values of sbar_a",
                       memory=40.0 * runs * len(sbar_a), iterations=runs * len(sbar_a) / 100)
    missing = [float(a) for a in sbar_a if not np.any(points[:, 0] == a)]
    if missing:
        raise ValueError(f"sbar_a must hold values of points[:, 0]; got {missing[:5]} not among them")
    first = [int(np.flatnonzero(points[:, 0] == a)[0]) for a in sbar_a]
    return [g * runs + r for g in first for r in range(runs)]


def randomised_outputs(sigma31: torch.Tensor, *, rng: seeding.Rng = None, **former: object) -> torch.Tensor:
    """Replace structured data by i.i.d. Gaussian outputs of the same variance (§3.6).

    Parameters
    ----------
    sigma31 : torch.Tensor, shape (B, N3, N1)
        Training data on orthonormal inputs (``Sigma31 = Y Xhat^T``).
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the Gaussian outputs; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    **former
        Deprecated: ``generator=`` instead of ``rng`` (one more release, ``DeprecationWarning``).

    Returns
    -------
    torch.Tensor, shape (B, N3, N1)
        For each network, i.i.d. ``N(0, sigma_r^2 / N1)`` entries with
        ``sigma_r^2 = ||Sigma31||_F^2 / N3``: every output gets the output variance of the
        structured data averaged over outputs (each output's expected variance over the
        random teacher ensemble), and the total variance is preserved exactly. With
        orthonormal inputs this is the law of ``Y_rand Xhat^T`` for i.i.d. Gaussian outputs
        ``Y_rand``.
    """
    rng = seeding.former_rng(rng, former, "task_data.randomised_outputs", alone=True)
    if not isinstance(sigma31, torch.Tensor) or sigma31.ndim != 3 or not torch.is_floating_point(sigma31):
        raise ValueError("sigma31 must be a floating-point torch.Tensor of shape (B, N3, N1)")
    generator = seeding.torch_generator(rng)
    b, n3, n1 = sigma31.shape
    var = sigma31.square().sum((-2, -1), keepdim=True) / n3  # sigma_r^2
    z = _random.randn(sigma31.shape, generator=generator, dtype=sigma31.dtype, device=sigma31.device)
    return z * torch.sqrt(var / n1)


def sampled_inputs(n1: int, p: int, batch: int, kind: str = "orthogonal", *, rng: seeding.Rng = None,
                   dtype: torch.dtype = torch.float64, device: str | torch.device = "cpu",
                   **former: object) -> torch.Tensor:
    """``P`` training inputs in ``N1`` dimensions, columns of ``(batch, N1, P)`` (App. G).

    ``kind="orthogonal"``: for ``P >= N1`` orthonormal *rows* scaled by ``sqrt(P/N1)``
    (``Sigma11 = (P/N1) I``, columns of norm 1 on average); for ``P < N1`` orthonormal
    *columns* (``Sigma11`` the projection onto their span). ``kind="gaussian"``: i.i.d.
    ``N(0, 1/N1)`` entries (columns of norm ~1), the case the orthogonalised inputs stand
    for. Haar-random in every case.

    ``rng`` (int, SeedSequence, torch or numpy Generator, or None) is the source of the inputs;
    ``None``: fresh entropy (see :mod:`gendyn.seeding`). The former ``generator=`` still works for one
    release, with a ``DeprecationWarning``.
    """
    rng = seeding.former_rng(rng, former, "task_data.sampled_inputs", alone=True)
    n1, p, batch = _checks.integer(n1, "n1"), _checks.integer(p, "p (number of examples)"), _checks.integer(batch, "batch")
    _checks.choice(kind, "kind", INPUT_KINDS)
    generator, dtype, device = _check_torch(rng, dtype, device)
    kw = dict(batch=(batch,), rng=generator, device=device, dtype=torch.float64)
    if kind == "gaussian":
        x = _random.randn(batch, n1, p, generator=generator, dtype=torch.float64, device=device) / math.sqrt(n1)
    elif p >= n1:
        x = random_orthonormal(p, n1, **kw).mT * math.sqrt(p / n1)
    else:
        x = random_orthonormal(n1, p, **kw)
    return x.to(dtype)


def sampled_task(teacher: torch.Tensor, p: int, kind: str = "orthogonal", *, noise_std: float = 1.0,
                 rng: seeding.Rng = None,
                 dtype: torch.dtype = torch.float64, **former: object) -> tuple[torch.Tensor, torch.Tensor]:
    """Inputs and noisy targets ``Y = Wbar X + Z`` of ``P`` examples, eq. (25).

    Parameters
    ----------
    teacher : torch.Tensor, shape (B, N3, N1)
        Teacher maps ``Wbar``.
    p : int
        Number of examples ``P``.
    kind : {"orthogonal", "gaussian"}
        Inputs of :func:`sampled_inputs`.
    noise_std : float
        ``Z`` has entries of variance ``noise_std^2 / N1`` (App. G).
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the inputs, then the noise (one torch generator); ``None``: fresh entropy (see
        :mod:`gendyn.seeding`).
    **former
        Deprecated: ``generator=`` instead of ``rng`` (one more release, ``DeprecationWarning``).

    Returns
    -------
    inputs, targets : torch.Tensor
        ``(B, N1, P)`` and ``(B, N3, P)``, for ``train_students(data=(inputs, targets))``.
    """
    rng = seeding.former_rng(rng, former, "task_data.sampled_task", alone=True)
    if not isinstance(teacher, torch.Tensor) or teacher.ndim != 3:
        raise ValueError("teacher must be a torch.Tensor of shape (B, N3, N1)")
    b, n3, n1 = teacher.shape
    noise_std = _checks.real(noise_std, "noise_std")
    _checks.choice(kind, "kind", INPUT_KINDS)
    generator = seeding.torch_generator(rng)
    dtype = _checks.torch_dtype(dtype)
    x = sampled_inputs(n1, p, b, kind, rng=generator, dtype=torch.float64, device=teacher.device)
    z = _random.randn(b, n3, p, generator=generator, dtype=torch.float64, device=teacher.device)
    y = teacher.to(torch.float64) @ x + z * (noise_std / math.sqrt(n1))
    return x.to(dtype), y.to(dtype)


def stack_examples(datasets: Sequence[tuple[torch.Tensor, torch.Tensor]]) -> tuple[torch.Tensor, torch.Tensor]:
    """Stack ``(inputs, targets)`` of different numbers of examples into one batch.

    Parameters
    ----------
    datasets : sequence of (torch.Tensor, torch.Tensor)
        ``(B_i, N1, P_i)`` inputs and ``(B_i, N3, P_i)`` targets with common ``N1``, ``N3``.

    Returns
    -------
    inputs, targets : torch.Tensor
        ``(sum B_i, N1, max P_i)`` and ``(sum B_i, N3, max P_i)``: every set padded with
        examples whose input and target are zero. Zero examples change neither
        ``Sigma11 = X X^T``, ``Sigma31 = Y X^T``, nor the squared training error and its
        normalisation ``||Y||^2``, so training on the padded batch is training on each set.
    """
    pairs = None if isinstance(datasets, (str, bytes, np.ndarray, torch.Tensor)) else datasets
    try:
        pairs = list(pairs)
    except TypeError:
        pairs = None
    if not pairs or not all(isinstance(d, (tuple, list)) and len(d) == 2 and
                            all(isinstance(a, torch.Tensor) for a in d) for d in pairs):
        raise ValueError("datasets must be a non-empty sequence of (inputs, targets) pairs of torch tensors; "
                         f"got {type(datasets).__name__}")
    datasets = pairs
    p_max = max(x.shape[-1] for x, _ in datasets)
    xs, ys = [], []
    for x, y in datasets:
        if x.ndim != 3 or y.ndim != 3 or x.shape[0] != y.shape[0] or x.shape[-1] != y.shape[-1]:
            raise ValueError(f"each pair must be inputs (B, N1, P) and targets (B, N3, P); got "
                             f"{tuple(x.shape)} and {tuple(y.shape)}")
        pad = p_max - x.shape[-1]
        xs.append(torch.nn.functional.pad(x, (0, pad)))
        ys.append(torch.nn.functional.pad(y, (0, pad)))
    if len({x.shape[1] for x in xs}) != 1 or len({y.shape[1] for y in ys}) != 1:
        raise ValueError("all data sets must have the same N1 and N3")
    return torch.cat(xs), torch.cat(ys)


def converged_map(inputs: torch.Tensor, targets: torch.Tensor, initial: torch.Tensor) -> torch.Tensor:
    """The composite map reached by gradient descent as ``t -> inf`` (App. G.3).

    ``W_inf = Sigma31 Sigma11^+ + W_0 (I - Sigma11 Sigma11^+)``: the least-squares solution on
    the span of the inputs, and the initial map ``W_0`` on the directions no example
    touches, which gradient descent never moves (the *frozen subspace*; exact for TA
    initialisation, where no hidden unit mixes the two).

    Parameters
    ----------
    inputs, targets : torch.Tensor
        ``(B, N1, P)`` and ``(B, N3, P)``.
    initial : torch.Tensor, shape (B, N3, N1)
        Initial composite maps ``W_0`` (e.g. ``train.composite_map(train.init_weights(...))``).

    Returns
    -------
    torch.Tensor, shape (B, N3, N1), float64
    """
    for name, a in (("inputs", inputs), ("targets", targets), ("initial", initial)):
        _checks.tensor(a, name, 3)
    x, y, w0 = (a.detach().to(torch.float64) for a in (inputs, targets, initial))
    if x.ndim != 3 or y.ndim != 3 or w0.shape != (y.shape[0], y.shape[1], x.shape[1]):
        raise ValueError(f"need inputs (B, N1, P), targets (B, N3, P) and initial (B, N3, N1); got "
                         f"{tuple(x.shape)}, {tuple(y.shape)}, {tuple(w0.shape)}")
    s11 = x @ x.mT
    pinv = torch.linalg.pinv(s11, hermitian=True)
    proj = s11 @ pinv
    eye = torch.eye(x.shape[1], dtype=torch.float64, device=x.device)
    return (y @ x.mT) @ pinv + w0 @ (eye - proj)


# ----------------------------------------------------------------------------------------
# Specs of task_pairs and leaky_relu_task_pairs (Issue 33: small frozen dataclasses instead of wide signatures)
# ----------------------------------------------------------------------------------------

__all__ += ["PairSpec", "LeakyTeachers"]


@dataclass(frozen=True)
class PairSpec:
    """The sizes and noise of two-task data (:func:`task_pairs`, :func:`leaky_relu_task_pairs`).

    Attributes
    ----------
    n1 : int
        Inputs = examples (orthonormal, ``Sigma11 = I``; one-hot for leaky-ReLU teachers), ``>= 1``.
    n3 : int
        Outputs per task (head), ``>= 1``.
    runs : int
        Independent draws per setting, ``>= 1``.
    noise_std : float
        ``sigma_z``: noise entries have variance ``noise_std^2 / n1`` (eq. 3), finite.
    """

    n1: int
    n3: int
    runs: int
    noise_std: float = 1.0

    def __post_init__(self):
        for name in ("n1", "n3", "runs"):
            object.__setattr__(self, name, _checks.integer(getattr(self, name), name))
        object.__setattr__(self, "noise_std", _checks.real(self.noise_std, "noise_std"))


@dataclass(frozen=True)
class LeakyTeachers:
    """The leaky-ReLU teachers of :func:`leaky_relu_task_pairs` (App. F).

    Attributes
    ----------
    rank : int
        Hidden units ``Nbar2`` of each teacher (4 in the paper), ``>= 1``.
    slope : float
        Negative-side slope of the leaky ReLU, in ``[0, 1]``.
    branches : bool
        Build each task as the authors' script did: a *sum* of ``rank`` rank-one branches
        ``lrelu(ubar_i s_i lrelu(vbar_i^T x))``, each with its own random unit directions
        (``vbar_i^A . vbar_i^B = q`` within a branch, independent across branches), and the
        output nonlinearity inside the sum. Default: the single network of App. F.
    """

    rank: int = 4
    slope: float = 0.2
    branches: bool = False

    def __post_init__(self):
        object.__setattr__(self, "rank", _checks.integer(self.rank, "rank"))
        object.__setattr__(self, "slope", _checks.bounded(self.slope, "slope", 0, 1))
        object.__setattr__(self, "branches", _checks.flag(self.branches, "branches"))


def _old_pair_spec(func, first, sizes, flat, extra):
    """The :class:`PairSpec` of an old flat call ``func(..., n1, n3, runs, noise_std=...)``, with its warning."""
    if isinstance(first, PairSpec):
        if sizes or flat:
            raise ValueError(f"{func}: pass n1, n3, runs and noise_std either in spec=PairSpec(...) or flat "
                             f"(deprecated), not both; got a PairSpec and "
                             f"{sorted(flat) if flat else f'{len(sizes)} positional size(s)'}")
        return first
    positional = ((first,) if first is not None else ()) + tuple(sizes)
    names = ("n1", "n3", "runs")
    if len(positional) > len(names):
        raise ValueError(f"{func} takes at most n1, n3 and runs positionally in its deprecated form; "
                         f"got {len(positional)} values")
    given = dict(zip(names, positional))
    unknown = set(flat) - set(names) - {"noise_std"}
    if unknown or set(given) & set(flat):
        raise ValueError(f"unknown or repeated {func} keyword(s) {sorted(unknown | (set(given) & set(flat)))}; "
                         f"allowed: spec, {', '.join(extra + ('rng', 'dtype', 'device'))}")
    warnings.warn(f"{func}(..., n1, n3, runs, noise_std=...) is deprecated and will be removed in the next release: "
                  f"pass {func}(..., PairSpec(n1, n3, runs, noise_std=...), ...)"
                  + (", teachers=LeakyTeachers(rank=..., slope=..., branches=...)" if func.startswith("leaky")
                     else ""),
                  DeprecationWarning, stacklevel=3)
    return PairSpec(**given, **flat)
