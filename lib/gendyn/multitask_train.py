"""Batched torch experiments for multitask softmax classifiers (Lee & Ndirango, 2019).

The theory is :mod:`gendyn.softmax_multitask`; this module draws teachers and data,
trains thousands of single-task and multitask students as one tensor program, and reads
the authors' published per-run results.

Teachers (the authors' code, ``paper-facts.md`` §2)
---------------------------------------------------
Per seed: a ``2 rank x N`` matrix with orthonormal rows split into ``w1`` and ``w2``, and two
independent orthogonal second layers ``O_A``, ``O_B`` (``K x rank``, ``K = rank`` classes by
default). Task A's composite is ``s_a O_A w1``, task B's ``s_b O_B (r w1 + sqrt(1 - r^2) w2)``,
so ``r`` is the cosine of every principal angle between the input subspaces (eq. 4) and
``s_a``, ``s_b`` set the signal-to-noise ratios. Inputs ``x ~ N(0, I_N)``; training labels are
``argmax(W x + xi)`` with fresh Gaussian noise ``xi`` of standard deviation ``1/sqrt(N)`` on
every logit of every example; validation labels are the noise-free ``argmax(W x)``.

Every random draw of a seed (teacher, inputs, label noise, validation inputs, initial
weights) comes from its own named stream of the seed (``gendyn.seeding.streams(seed, "teacher",
"x_a", ...)``, independent streams spawned from one ``SeedSequence``), so a cell's data
do not depend on which other cells share its batch, and all cells of a seed share their
inputs and noise draws (common random numbers: the single-task and multitask students of
a seed see the same task-A data and start from the same weights, so the benefit is a
paired difference).

Students and training
---------------------
A trunk of ``depth`` layers ``N -> H -> ... -> H`` (linear, or ReLU after every trunk
layer) and one softmax head ``H -> K`` per task; cross-entropy (1), the multitask loss is
``L_A + L_B`` (the paper's ``alpha_A = alpha_B = 1``). Initial weights have i.i.d. entries
``N(0, init_scale^2 c / fan_in)`` (``c = 2`` for layers followed by a ReLU, else 1).
Training is gradient descent with learning rate ``lr`` on the whole training set
(``batch_size=None``, the default: a discretisation of the gradient flow (2)) or on
minibatches. The validation loss of task A on noise-free labels is recorded every
``eval_every`` steps; early stopping takes its minimum.

Batch layout
------------
Runs come in ``S`` groups (one per seed) of ``R`` runs. Inputs are shared within a group,
``x: (S, P, N)``; labels, masks and weights are per run, ``(S, P, R)`` and ``(S, R, ...)``.
The first layer (and, for a linear trunk, the whole composite map ``W = head @ trunk``) acts
on the group's inputs as **one** matrix product ``(S, P, N) @ (S, N, R*K)``, so a step costs
``~4 P N K`` multiply-adds per run and task for linear students, independent of ``H``.
Different training-set sizes within a batch are masks over a common pool (the first
``P_run`` examples of the pool).
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import math
import multiprocessing
import os
import pickle
import re
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, _random, published_runs, seeding, softmax_multitask
from .allocator import retain_freed_memory

from .progress import track

__all__ = [
    "SNR_GRID",
    "RELATEDNESS_GRID",
    "grid_snrs",
    "ACTIVATIONS",
    "TaskBatch",
    "TrainResult",
    "draw_tasks",
    "init_student",
    "training_aligned_init",
    "train_students",
    "SingleTaskSetup",
    "SingleTaskStudents",
    "train_single_task",
    "GridCells",
    "GridTask",
    "GridStudents",
    "GridSchedule",
    "GridPrecision",
    "GridExecution",
    "grid_specs",
    "run_grid",
    "GridResult",
    "INIT_SCALE",
    "REFERENCE_FILES",
    "reference_data_dir",
    "load_reference",
    "reference_benefits",
    "CELL_AXES",
    "BenefitChange",
    "benefit_change",
    "LabelAgreement",
    "label_agreement",
    "SampledGradient",
    "sampled_loss_gradient",
]
__all__ += ["BayesCrossEntropy", "bayes_cross_entropy"]

#: The SNR grid of the published results: ``logspace(-2, 1, 6)``.
SNR_GRID = tuple(float(v) for v in np.logspace(-2, 1, 6))
#: The relatedness grid of the published results.
RELATEDNESS_GRID = (0.0, 0.25, 0.5, 0.75, 1.0)
ACTIVATIONS = ("linear", "relu")
#: The arithmetic of a grid (:class:`GridPrecision`): ``"plain"`` (every operation in the training
#: dtype) or ``"mixed"`` (float64 weights, updates, losses and residuals; float32 matrix products).
ARITHMETICS = ("plain", "mixed")


def grid_snrs(points: int) -> tuple[float, ...]:
    """``points`` SNRs of :data:`SNR_GRID`, evenly spread in log scale, both ends included.

    The published grids (Figs. 2, A1-A4 of Lee & Ndirango) take every SNR of ``logspace(-2, 1, 6)``
    for ``s_a`` and ``s_b``; a smaller grid keeps the entries nearest ``points`` evenly spaced
    positions (3: 0.01, 0.63, 10).

    Parameters
    ----------
    points : int
        How many SNRs to keep, from 2 to ``len(SNR_GRID)`` (6: the whole grid).

    Returns
    -------
    tuple of float
        The SNRs kept, increasing.
    """
    points = _checks.integer(points, "points", 2, meaning=f" and <= {len(SNR_GRID)} (the SNRs of SNR_GRID)")
    if points > len(SNR_GRID):
        raise ValueError(f"points must be an integer in [2, {len(SNR_GRID)}] (the SNRs of SNR_GRID); got {points}")
    index = sorted({int(math.floor(i + 0.5)) for i in np.linspace(0, len(SNR_GRID) - 1, points)})
    return tuple(SNR_GRID[i] for i in index)


#: The named streams of one seed (:func:`gendyn.seeding.streams`), one per independent source of randomness.
_STREAMS = ("teacher", "x_a", "noise_a", "x_b", "noise_b", "x_val", "init")


# ----------------------------------------------------------------------------------------
# checks
# ----------------------------------------------------------------------------------------


def _seeds(seeds):
    return _checks.integers(seeds, "seeds", 0)


def _torch(dtype, device):
    """A float32/float64 dtype and a device, the device as a string (``"cpu"``, ``"cuda:0"``)."""
    return _checks.torch_dtype(dtype), str(_checks.torch_device(device))


def _rates(values, name, lower=0.0, open_lower=True, upper=None):
    """A 1-d sequence of SNRs (or relatedness values) as a tuple of floats."""
    arr = _checks.real_array(values, name, lower=lower, open_lower=open_lower, upper=upper, ndim=1)
    if arr.size == 0:
        raise ValueError(f"{name} must hold at least one value")
    return tuple(float(v) for v in arr)


def _generator(seed, stream):
    """The CPU generator of stream ``stream`` (one of :data:`_STREAMS`) of ``seed``."""
    return seeding.torch_generator(seeding.stream(seed, stream))


def _one_seed(rng):
    """One integer seed for :func:`draw_tasks` from an ``rng``: the integer itself, else a draw of its root."""
    rng = seeding.check(rng)
    return rng if isinstance(rng, int) else seeding.entropy(seeding.stream(rng))


def _activation(activation):
    return _checks.choice(activation, "activation", ACTIVATIONS)


# ----------------------------------------------------------------------------------------
# teachers and data
# ----------------------------------------------------------------------------------------


@dataclass
class TaskBatch:
    """Teachers and data of ``S`` seeds (one group each); see the module docstring.

    ``teacher_a``/``teacher_b_parts`` are the unit-SNR maps: task A's composite is
    ``s_a * teacher_a``, task B's ``s_b * (r * b_related + sqrt(1 - r^2) * b_orthogonal)``.
    """

    seeds: tuple
    n_features: int
    rank: int
    n_classes: int
    noise_std: float
    w1: torch.Tensor  # (S, rank, N)
    w2: torch.Tensor  # (S, rank, N)
    o_a: torch.Tensor  # (S, K, rank)
    o_b: torch.Tensor  # (S, K, rank)
    x_a: torch.Tensor  # (S, P_a, N)
    noise_a: torch.Tensor  # (S, P_a, K), already times noise_std
    x_b: torch.Tensor  # (S, P_b, N)
    noise_b: torch.Tensor
    x_val: torch.Tensor  # (S, V, N)

    @property
    def teacher_a(self) -> torch.Tensor:
        return self.o_a @ self.w1

    def teacher_b(self, r: float) -> torch.Tensor:
        """Task B's unit-SNR composite at relatedness ``r`` in [0, 1]: ``(S, K, N)``."""
        r = _checks.bounded(r, "r", 0, 1, extra=" (relatedness)")
        return self.o_b @ (r * self.w1 + math.sqrt(max(0.0, 1 - r * r)) * self.w2)

    @staticmethod
    def _snrs_a(s_a):
        return _checks.real_array(s_a, "s_a", lower=0, ndim=1, extra=" (one SNR per run)")

    @staticmethod
    def _pairs_b(s_b, r):
        s_b = _checks.real_array(s_b, "s_b", lower=0, extra=" (SNRs)")
        r = _checks.real_array(r, "r", lower=0, upper=1, extra=" (relatedness)")
        try:
            return np.broadcast_arrays(s_b, r)
        except ValueError:
            raise ValueError(f"s_b and r must broadcast (one pair per run); got shapes {s_b.shape} and "
                             f"{r.shape}") from None

    def labels_a(self, s_a: ArrayLike, noise: bool = True) -> torch.Tensor:
        """Training labels of task A for SNRs ``s_a`` (length R): ``(S, P_a, R)``, ``argmax(s_a z + xi)``
        (``noise=False``: ``argmax(s_a z)``, the noise-free teacher's)."""
        s = torch.as_tensor(self._snrs_a(s_a), dtype=self.x_a.dtype, device=self.x_a.device)
        z = s[None, None, :, None] * (self.x_a @ self.teacher_a.mT)[:, :, None, :]  # (S, P, R, K)
        return (z + self.noise_a[:, :, None, :] if _checks.flag(noise, "noise") else z).argmax(-1)

    def labels_b(self, s_b: ArrayLike, r: ArrayLike, noise: bool = True) -> torch.Tensor:
        """Training labels of task B for pairs ``(s_b, r)``: ``(S, P_b, R)``, noisy unless ``noise=False``
        (as :meth:`labels_a`)."""
        s_b, r = self._pairs_b(s_b, r)
        noise = _checks.flag(noise, "noise")
        out = []
        for sb, rr in zip(s_b.ravel(), r.ravel()):
            z = float(sb) * (self.x_b @ self.teacher_b(float(rr)).mT)
            out.append((z + self.noise_b if noise else z).argmax(-1))
        return torch.stack(out, -1)

    def labels_val(self) -> torch.Tensor:
        """Noise-free validation labels of task A (independent of ``s_a > 0``): ``(S, V)``."""
        return (self.x_val @ self.teacher_a.mT).argmax(-1)

    def regression_targets_a(self, s_a: ArrayLike) -> torch.Tensor:
        """Noisy logits of task A as regression targets ``(S, P_a, R, K)`` (the Lampinen-Ganguli
        setting with Gaussian inputs)."""
        s = torch.as_tensor(self._snrs_a(s_a), dtype=self.x_a.dtype, device=self.x_a.device)
        z = self.x_a @ self.teacher_a.mT
        return s[None, None, :, None] * z[:, :, None, :] + self.noise_a[:, :, None, :]

    def regression_targets_b(self, s_b: ArrayLike, r: ArrayLike) -> torch.Tensor:
        """Noisy logits of task B for pairs ``(s_b, r)``: ``(S, P_b, R, K)``."""
        s_b, r = self._pairs_b(s_b, r)
        return torch.stack([float(sb) * (self.x_b @ self.teacher_b(float(rr)).mT) + self.noise_b
                            for sb, rr in zip(s_b.ravel(), r.ravel())], 2)


def _haar(n, k, gen, dtype, device):
    """Haar-random ``n x k`` orthonormal columns, drawn in float64 (one random_orthonormal of a batch of one)."""
    return _random.orthonormal(n, k, (1,), gen, _checks.torch_device(device), torch.float64)[0].to(dtype)


def _pool_rows(n, cols, gen, dtype, device):
    """``n`` rows of standard normals whose first ``m`` rows do not depend on ``n``: drawn in whole blocks of 16
    rows (torch transforms its uniform draws in blocks of 16 values, so a draw of any other length would change
    its last values), then cut to ``n``."""
    rows = -(-n // 16) * 16
    return _random.randn(rows, cols, generator=gen, dtype=dtype, device=device)[:n].contiguous()


def draw_tasks(seeds: Sequence[int], *, n_train_a: int, n_train_b: int = 0, n_val: int = 1000,
               teachers: TeacherPair | None = None, dtype: torch.dtype = torch.float32,
               device: str | torch.device = "cpu", **flat: object) -> TaskBatch:
    """Teachers, training pools and validation inputs of tasks A and B, one group per seed.

    Parameters
    ----------
    seeds : sequence of int
        One integer ``rng`` per group of runs (see :mod:`gendyn.seeding`): its named streams draw the
        group's teachers, inputs and noise, independent of the other seeds'.
    n_train_a, n_train_b : int
        Sizes of the training pools of tasks A and B (runs use the first ``P`` examples; the first ``P``
        examples of a pool, inputs and noise, do not depend on its size).
    n_val : int
        Validation inputs of task A (noise-free labels).
    teachers : TeacherPair, optional
        ``N``, the teacher rank, ``K`` and the label noise; ``None``: ``TeacherPair()`` (``N = 20``,
        rank 10, ``K = rank``, noise ``1/sqrt(N)``).
    dtype, device
        Of the draws.
    **flat
        Deprecated: the fields of :class:`TeacherPair` as keywords (``n_features``, ``rank``,
        ``n_classes``, ``noise_std``), accepted for one more release with a ``DeprecationWarning``.

    Returns
    -------
    TaskBatch
    """
    if flat:
        teachers = _spec_form("draw_tasks", flat, dict(teachers=(TeacherPair, teachers)),
                              "draw_tasks(seeds, n_train_a=..., teachers=TeacherPair(n_features=..., rank=...))"
                              )["teachers"]
    teachers = TeacherPair() if teachers is None else _checks.instance(teachers, "teachers", TeacherPair)
    n_features, rank, noise_std = teachers.n_features, teachers.rank, teachers.noise_std
    n_classes = rank if teachers.n_classes is None else teachers.n_classes
    seeds = _seeds(seeds)
    n_train_a = _checks.integer(n_train_a, "n_train_a", 1)
    n_train_b = _checks.integer(n_train_b, "n_train_b", 0)
    n_val = _checks.integer(n_val, "n_val", 1)
    noise_std = 1 / math.sqrt(n_features) if noise_std is None else _checks.real(noise_std, "noise_std",
                                                                                 extra=" or None")
    dtype, device = _torch(dtype, device)
    parts = {k: [] for k in ("w1", "w2", "o_a", "o_b", "x_a", "noise_a", "x_b", "noise_b", "x_val")}
    for seed in seeds:
        gen = _generator(seed, "teacher")
        q = _haar(n_features, 2 * rank, gen, dtype, device).mT  # (2 rank, N) orthonormal rows
        parts["w1"].append(q[:rank])
        parts["w2"].append(q[rank:])
        parts["o_a"].append(_haar(n_classes, rank, gen, dtype, device))
        parts["o_b"].append(_haar(n_classes, rank, gen, dtype, device))
        for name, n in (("x_a", n_train_a), ("x_b", n_train_b), ("x_val", n_val)):
            parts[name].append(_pool_rows(n, n_features, _generator(seed, name), dtype, device))
        for name, n in (("noise_a", n_train_a), ("noise_b", n_train_b)):
            parts[name].append(noise_std * _pool_rows(n, n_classes, _generator(seed, name), dtype, device))
    stacked = {k: torch.stack(v) for k, v in parts.items()}
    return TaskBatch(seeds, n_features, rank, n_classes, noise_std, **stacked)


# ----------------------------------------------------------------------------------------
# students
# ----------------------------------------------------------------------------------------


def init_student(seeds: Sequence[int], *, n_features: int, n_classes: int, students: GridStudents | None = None,
                 n_heads: int = 2, dtype: torch.dtype = torch.float32, device: str | torch.device = "cpu",
                 **flat: object) -> list[torch.Tensor]:
    """Initial weights of one student per seed: ``[trunk_1, ..., trunk_depth, head_A, head_B...]``.

    Shapes ``(S, H, N)``, ``(S, H, H)``..., ``(S, K, H)``; entries ``N(0, init_scale^2 c / fan_in)``
    with ``c = 2`` for trunk layers followed by a ReLU, else 1. Every head of a seed is drawn
    from the same stream, so a single-task student (``n_heads=1``) starts exactly like the
    trunk and head A of the multitask student of its seed.

    Parameters
    ----------
    seeds : sequence of int
        One integer ``rng`` per student (its stream ``"init"``, see :mod:`gendyn.seeding`).
    n_features, n_classes : int
        Inputs ``N`` and classes ``K`` per head.
    students : GridStudents, optional
        Width, depth, activation and initial scale; ``None``: ``GridStudents()``.
    n_heads : int
        Heads (1: single-task, 2: tasks A and B).
    dtype, device
        Of the weights.
    **flat
        Deprecated: the fields of :class:`GridStudents` as keywords (``hidden``, ``depth``,
        ``activation``, ``init_scale``), accepted for one more release with a ``DeprecationWarning``.

    Returns
    -------
    list of torch.Tensor
    """
    if flat:
        students = _spec_form("init_student", flat, dict(students=(GridStudents, students)),
                              "init_student(seeds, n_features=..., n_classes=..., students=GridStudents(hidden=..., "
                              "depth=...))")["students"]
    students = GridStudents() if students is None else _checks.instance(students, "students", GridStudents)
    seeds = _seeds(seeds)
    n_features = _checks.integer(n_features, "n_features", 1)
    n_classes = _checks.integer(n_classes, "n_classes", 2)
    depth = _checks.integer(students.depth, "depth", 1)
    hidden = _checks.integer(students.hidden, "hidden", 1)
    n_heads = _checks.integer(n_heads, "n_heads", 1)
    activation = _activation(students.activation)
    init_scale = _checks.positive(students.init_scale, "init_scale")
    dtype, device = _torch(dtype, device)
    n_seeds = len(seeds)
    _checks.work_limit(3.0 * n_seeds * hidden * (n_features + (depth - 1) * hidden + n_heads * n_classes),
                       f"{n_seeds} seeds of depth={depth}, hidden={hidden}, n_features={n_features}, n_classes={n_classes}, "
                       f"n_heads={n_heads}",
                       memory=8.0 * n_seeds * hidden * (n_features + (depth - 1) * hidden + n_heads * n_classes),
                       iterations=n_seeds * (depth + n_heads))
    gain = 2.0 if activation == "relu" else 1.0
    shapes = [(hidden, n_features)] + [(hidden, hidden)] * (depth - 1)
    out = [[] for _ in range(depth + n_heads)]
    for seed in seeds:
        gen = _generator(seed, "init")
        for i, (n_out, n_in) in enumerate(shapes):
            std = init_scale * math.sqrt(gain / n_in)
            out[i].append(std * _random.randn(n_out, n_in, generator=gen, dtype=dtype, device=device))
        for h in range(n_heads):
            std = init_scale / math.sqrt(hidden)
            out[depth + h].append(std * _random.randn(n_classes, hidden, generator=gen, dtype=dtype, device=device))
    return [torch.stack(w) for w in out]


def training_aligned_init(x: torch.Tensor, y: torch.Tensor, n_classes: int, *, s0: float = 1e-3, hidden: int = 4
                          ) -> tuple[list[torch.Tensor], np.ndarray, np.ndarray, np.ndarray]:
    """Training-aligned (TA) rank-one students, one per run, for (3).

    The top singular triplet ``(sigma_hat, u, v)`` of each run's centred label-feature
    covariance ``(I - 11^T/K) Sigma^{yx}`` (7) gives balanced weights ``W1 = sqrt(s0) e_1 v^T``
    (``hidden x N``) and ``W2 = sqrt(s0) u e_1^T`` (``K x hidden``): composite ``s0 u v^T``.

    Parameters
    ----------
    x : (S, P, N) tensor
        Inputs of each group.
    y : (S, P, R) int64 tensor
        Labels of each run.
    n_classes : int
    s0 : float
        Initial strength of the mode.
    hidden : int
        Hidden units.

    Returns
    -------
    tuple
        ``([W1, W2], sigma_hat (S, R), u (S, R, K), v (S, R, N))``, the last three as numpy.
    """
    _checks.tensor(x, "x", 3, finite=True)
    s, p, n = x.shape
    _check_group_tensor(y, "y", (s, p), 3)
    n_classes = _checks.integer(n_classes, "n_classes", 2)
    _checks.labels(y, "y", n_classes)
    hidden = _checks.integer(hidden, "hidden", 1)
    s0 = _checks.positive(s0, "s0")
    onehot = torch.nn.functional.one_hot(y, n_classes).to(x.dtype)  # (S, P, R, K)
    syx = torch.einsum("sprk,spn->srkn", onehot, x) / p
    syx = syx - syx.mean(-2, keepdim=True)
    big_u, svals, vh = torch.linalg.svd(syx)
    u, v, sig = big_u[..., :, 0], vh[..., 0, :], svals[..., 0]
    r = y.shape[2]
    w1 = torch.zeros(s, r, hidden, n, dtype=x.dtype, device=x.device)
    w2 = torch.zeros(s, r, n_classes, hidden, dtype=x.dtype, device=x.device)
    w1[..., 0, :] = math.sqrt(s0) * v
    w2[..., :, 0] = math.sqrt(s0) * u
    return [w1, w2], sig.cpu().numpy(), u.cpu().numpy(), v.cpu().numpy()


@dataclass
class TrainResult:
    """Outcome of :func:`train_students` for ``S`` groups of ``R`` runs.

    ``val_loss``: ``(S, R, E)`` validation loss of task A at the steps ``eval_steps`` (E);
    ``train_loss``: ``(S, R, E)`` training loss of task A there; ``best_val``/``best_step``:
    ``(S, R)`` early-stopping minimum and where it occurred; ``best_composite``: task A's
    composite map ``(S, R, K, N)`` at the minimum (linear trunks only, else ``None``);
    ``seconds``: wall time of the training loop.
    """

    val_loss: np.ndarray
    train_loss: np.ndarray
    eval_steps: np.ndarray
    best_val: np.ndarray
    best_step: np.ndarray
    best_composite: np.ndarray = None
    seconds: float = 0.0
    run_steps: int = 0
    trajectory: np.ndarray = None


def _check_group_tensor(t, name, shape_prefix, dims):
    if not isinstance(t, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor; got {type(t).__name__}")
    if t.ndim != dims or tuple(t.shape[:len(shape_prefix)]) != tuple(shape_prefix):
        raise ValueError(f"{name} must have shape {tuple(shape_prefix)} + ... with {dims} dimensions; "
                         f"got {tuple(t.shape)}")
    return t


def _composite(trunk, head):
    w = trunk[0]
    for layer in trunk[1:]:
        w = layer @ w
    return head @ w  # (S, R, K, N)


def _logits(x, trunk, head, activation):
    """Logits ``(S, P, R, K)`` of ``R`` runs per group on the group's inputs ``x: (S, P, N)``."""
    s, p, n = x.shape
    r = head.shape[1]
    if activation == "linear":
        w = _composite(trunk, head)  # (S, R, K, N)
        k = w.shape[-2]
        return (x @ w.reshape(s, r * k, n).mT).view(s, p, r, k)
    h = trunk[0]
    hidden = h.shape[-2]
    # one product with the shared inputs, then per-run products in the (S, R, P, H) layout
    a = torch.relu(x @ h.reshape(s, r * hidden, n).mT).view(s, p, r, hidden).transpose(1, 2)
    for layer in trunk[1:]:
        a = torch.relu(a @ layer.mT)
    return (a @ head.mT).transpose(1, 2)


def _weighted_loss(logits, target, weight, loss):
    """Per-run mean loss ``(S, R)``; ``weight`` ``(S, P, R)`` is 1/P_run on a run's examples."""
    if loss == "ce":
        per = torch.logsumexp(logits, -1) - logits.gather(-1, target.unsqueeze(-1)).squeeze(-1)
    else:
        per = 0.5 * ((logits - target) ** 2).sum(-1)
    return (per * weight).sum(1)


def _residual_(z, y, weight, loss):
    """Turn logits ``z`` in place into the gradient of the weighted loss; return the weighted per-example loss.

    ``z`` is ``(..., K)``; ``y`` holds labels ``(...)`` (``"ce"``) or targets ``(..., K)``
    (``"mse"``) and ``weight`` ``(...)`` the examples' weights (1/P_run on a run's examples).
    Written out (softmax minus one-hot) rather than through autograd: the steps are
    memory-bound on these tensors, and this touches each of them the fewest times.
    """
    if loss == "ce":
        picked = z.gather(-1, y.unsqueeze(-1)).squeeze(-1)
        top = z.amax(-1, keepdim=True)
        z.sub_(top).exp_()
        total = z.sum(-1, keepdim=True)
        z.div_(total)
        per = total.squeeze(-1).log_() + top.squeeze(-1) - picked
        z.scatter_add_(-1, y.unsqueeze(-1), torch.full(y.shape + (1,), -1.0, dtype=z.dtype, device=z.device))
    else:
        z.sub_(y)
        per = 0.5 * (z * z).sum(-1)
    z.mul_(weight.unsqueeze(-1))
    return per * weight


def _linear_data_grad(x, y, w, weight, loss):
    """Loss ``(S, R)`` and its gradient ``(S, R, K, N)`` with respect to the composite ``w``."""
    if _MIXED.get() is not None:  # mixed arithmetic (GridPrecision(arithmetic="mixed"))
        return _linear_data_grad_mixed(x, y, w, weight, loss, _MIXED.get())
    s, p, n = x.shape
    r, k = w.shape[1], w.shape[2]
    z = (x @ w.reshape(s, r * k, n).mT).view(s, p, r, k)
    per = _residual_(z, y, weight, loss)
    grad = (z.view(s, p, r * k).mT @ x).view(s, r, k, n)
    return per.sum(1), grad


def _relu_data_grad(x, y, trunk, head, weight, loss):
    """Loss ``(S, R)`` of ReLU students and its gradients for ``trunk`` (a list) and ``head``.

    Forward and backward written out in the ``(S, R, P, H)`` layout of :func:`_logits`: each
    activation is stored once and the ReLU applied in place (autograd would keep a second
    copy and pass over both), the loss gradient comes from :func:`_residual_`. The same
    arithmetic as autograd on :func:`_logits` up to float rounding (tested).
    """
    if _MIXED.get() is not None:  # mixed arithmetic (GridPrecision(arithmetic="mixed"))
        return _relu_data_grad_mixed(x, y, trunk, head, weight, loss, _MIXED.get())
    s, p, n = x.shape
    r, hidden = head.shape[1], trunk[0].shape[-2]
    first = (x @ trunk[0].reshape(s, r * hidden, n).mT).view(s, p, r, hidden).transpose(1, 2)
    acts = [torch.clamp_min(first, 0.0, out=torch.empty(s, r, p, hidden, dtype=x.dtype, device=x.device))]
    for layer in trunk[1:]:
        acts.append((acts[-1] @ layer.mT).relu_())
    z = acts[-1] @ head.mT  # (S, R, P, K)
    y_runs = y.transpose(1, 2)  # (S, R, P) labels or (S, R, P, K) targets
    per = _residual_(z, y_runs, weight.transpose(1, 2), loss)
    grad_head = z.mT @ acts[-1]
    back = z @ head
    grads = [None] * len(trunk)
    for i in range(len(trunk) - 1, 0, -1):
        back = torch.ops.aten.threshold_backward(back, acts[i], 0)
        grads[i] = back.mT @ acts[i - 1]
        back = back @ trunk[i]
    back = torch.ops.aten.threshold_backward(back, acts[0], 0)
    grads[0] = back.mT @ x[:, None]
    return per.sum(2), grads, grad_head


def _check_mask(mask, name, shape):
    """``None`` or a tensor of weights ``>= 0`` (1: the example is in the run's training set) of ``shape``."""
    if mask is None:
        return None
    _checks.instance(mask, name, torch.Tensor)
    _checks.shape(mask, name, shape, meaning=" (S, P, R)")
    if mask.is_complex() or not bool(((mask >= 0) & torch.isfinite(mask.double())).all()):
        raise ValueError(f"{name} must hold finite weights >= 0 (1 where an example belongs to a run)")
    return mask


def _mask_weights(mask, shape, dtype, device):
    s, p, r = shape
    if mask is None:
        return torch.full((s, p, r), 1.0 / p, dtype=dtype, device=device)
    m = mask.to(dtype=dtype, device=device)
    counts = m.sum(1, keepdim=True)
    if bool((counts <= 0).any()):
        raise ValueError("every run needs at least one training example (a mask column is all zero)")
    return m / counts


def train_students(x_a: torch.Tensor, y_a: torch.Tensor, x_val: torch.Tensor, y_val: torch.Tensor,
                   weights: Sequence[torch.Tensor], *, sets: TrainingSets | None = None,
                   schedule: GridSchedule | None = None, options: TrainOptions | None = None,
                   **flat: object) -> TrainResult:
    """Train ``S x R`` single-task (no ``x_b``) or multitask students as one tensor program.

    Parameters
    ----------
    x_a : (S, P_a, N) tensor
        Task-A training inputs of each group (shared by its ``R`` runs).
    y_a : (S, P_a, R) int64 tensor, or (S, P_a, R, K) float for ``loss="mse"``
        Task-A training labels of every run.
    x_val, y_val : (S, V, N) tensor and (S, V) or (S, V, R) int64 tensor
        Validation inputs and noise-free labels of task A (see ``loss`` for regression).
    weights : list of tensors
        Initial ``[trunk..., head_A(, head_B)]`` per group ``(S, ...)`` (:func:`init_student`)
        or per run ``(S, R, ...)``; copied, never modified.
    sets : TrainingSets, optional
        Task B's data (multitask students) and the masks of the runs' training sets (the fields
        ``x_b``, ``y_b``, ``mask_a``, ``mask_b`` below); ``None``: single-task students on every
        example of the pool.
    schedule : GridSchedule, optional
        ``lr``, ``steps``, ``eval_every`` and ``loss`` below; ``None``: ``GridSchedule()``.
    options : TrainOptions, optional
        ``activation``, ``batch_size``, ``batch_rng``, ``num_threads``, ``keep_composite``,
        ``keep_trajectory``, ``progress`` and ``block`` below; ``None``: ``TrainOptions()``.
    **flat
        Deprecated: the fields of the three specs as keywords, ``train_students(x_a, y_a, x_val,
        y_val, weights, x_b=..., lr=..., activation=...)``, accepted for one more release with a
        ``DeprecationWarning``.

    Other Parameters
    ----------------
    x_b, y_b : tensors, optional
        Task B (multitask students); then ``weights`` must end with two heads.
    mask_a, mask_b : (S, P, R) tensors, optional
        1 where an example belongs to a run's training set (different training-set sizes in
        one batch); default: every example of the pool.
    activation : "linear" or "relu"
    lr : float
        Learning rate; with full batches, step ``k`` is time ``t = k lr`` of the flow (2).
    steps, eval_every : int
        Gradient steps, and validation every ``eval_every`` steps (and at 0 and ``steps``).
    batch_size : int, optional
        ``None``: full-batch gradient descent. Otherwise SGD: every step draws, per group, a
        minibatch of the pool uniformly without replacement (shared by the group's runs; a
        run's minibatch is the part inside its mask, normalised by its size).
    loss : "ce" or "mse"
        Softmax cross-entropy on labels (the paper; validation: cross-entropy on noise-free
        labels) or half the squared error on noisy logits (Lampinen & Ganguli's regression, for
        comparison; ``y_val`` then holds noise-free logits ``(S, V, K)`` or ``(S, V, R, K)`` and
        validation is their squared error).
    num_threads : int or None
        CPU threads during training (``None``: leave torch's setting).
    keep_composite, keep_trajectory : bool
        Keep task A's composite map at the early-stopping minimum (linear trunks), and at
        every evaluation (``TrainResult.trajectory``, ``(S, R, E, K, N)``: small batches only).
    progress : str, optional
        Label of a terminal progress bar.
    block : int, optional
        Train the runs in blocks of ``block`` runs per group, one block after another.
        The runs are independent (a minibatch is drawn per group and shared by its runs, the
        same in every block), so the results are those of one program up to float rounding.
        On a CPU a block's activations stay in cache: about a fifth less CPU time for the
        deep ReLU students of Fig. A4 (measured), no gain for linear trunks. ``None``: all
        ``R`` runs at once (best on a GPU).
    """
    shown = sorted(flat)
    if "batch_seed" in flat:  # its former flat keyword (the field is batch_rng now)
        flat["batch_rng"] = seeding.former_rng(None, flat, "train_students", ("batch_seed",))
    if flat:
        specs = _spec_form("train_students", flat, dict(sets=(TrainingSets, sets), schedule=(GridSchedule, schedule),
                                                        options=(TrainOptions, options)),
                           "train_students(x_a, y_a, x_val, y_val, weights, sets=TrainingSets(x_b=..., y_b=...), "
                           "schedule=GridSchedule(lr=..., steps=...), options=TrainOptions(activation=...))",
                           shown=shown)
        sets, schedule, options = specs["sets"], specs["schedule"], specs["options"]
    sets = TrainingSets() if sets is None else _checks.instance(sets, "sets", TrainingSets)
    schedule = GridSchedule() if schedule is None else _checks.instance(schedule, "schedule", GridSchedule)
    options = TrainOptions() if options is None else _checks.instance(options, "options", TrainOptions)
    x_b, y_b, mask_a, mask_b = sets.x_b, sets.y_b, sets.mask_a, sets.mask_b
    lr, steps, eval_every, loss = schedule.lr, schedule.steps, schedule.eval_every, schedule.loss
    activation, batch_size, batch_rng = options.activation, options.batch_size, options.batch_rng
    num_threads, keep_composite, keep_trajectory = options.num_threads, options.keep_composite, options.keep_trajectory
    progress, block = options.progress, options.block
    if block is not None:
        _checks.instance(y_a, "y_a", torch.Tensor)
    if block is not None and y_a.ndim in (3, 4) and block < y_a.shape[2]:  # else the checks below speak
        return _train_in_blocks(x_a, y_a, x_val, y_val, weights, block, sets, schedule, options)
    activation = _activation(activation)
    loss = _checks.choice(loss, "loss", ("ce", "mse"))
    lr = _checks.positive(lr, "lr")
    steps = _checks.integer(steps, "steps", 1)
    eval_every = _checks.integer(eval_every, "eval_every", 1)
    if batch_size is not None:
        batch_size = _checks.integer(batch_size, "batch_size", 1)
    batch_rng = seeding.check(batch_rng, "batch_rng")
    if num_threads is not None:
        num_threads = _checks.integer(num_threads, "num_threads", 1)
    keep_composite = _checks.flag(keep_composite, "keep_composite")
    keep_trajectory = _checks.flag(keep_trajectory, "keep_trajectory")
    progress = _checks.text(progress, "progress", optional=True)
    if x_b is None and (y_b is not None or mask_b is not None):
        raise ValueError("x_b must be given with y_b or mask_b (the inputs of task B of multitask students)")
    _check_group_tensor(x_a, "x_a", (), 3)
    s, p_a, n = x_a.shape
    if loss == "ce":
        _check_group_tensor(y_a, "y_a", (s, p_a), 3)
    else:
        _check_group_tensor(y_a, "y_a", (s, p_a), 4)
    r = y_a.shape[2]
    _check_group_tensor(x_val, "x_val", (s,), 3)
    if x_val.shape[-1] != n:
        raise ValueError(f"x_val must have N={n} features; got {tuple(x_val.shape)}")
    _checks.instance(y_val, "y_val", torch.Tensor)
    multitask = x_b is not None
    if multitask:
        _check_group_tensor(x_b, "x_b", (s,), 3)
        if y_b is not None:
            _checks.instance(y_b, "y_b", torch.Tensor)
        if y_b is None or y_b.shape[:1] != (s,) or y_b.shape[1] != x_b.shape[1] or y_b.shape[2] != r:
            raise ValueError(f"y_b must have shape ({s}, {x_b.shape[1]}, {r}{', K' if loss == 'mse' else ''}); "
                             f"got {None if y_b is None else tuple(y_b.shape)}")
    n_heads = 2 if multitask else 1
    if not isinstance(weights, (list, tuple)) or len(weights) < 1 + n_heads:
        raise ValueError(f"weights must be a list [trunk..., head_A{', head_B' if multitask else ''}]; "
                         f"got {type(weights).__name__} of length {len(weights) if hasattr(weights, '__len__') else '?'}")
    device, dtype = x_a.device, x_a.dtype
    n_weights = r * sum(w.numel() if isinstance(w, torch.Tensor) and w.ndim == 3 else
                        (w.numel() / max(r, 1) if isinstance(w, torch.Tensor) else 0) for w in weights)
    p_b = x_b.shape[1] if multitask else 0
    batch = p_a + p_b if batch_size is None else min(batch_size, p_a) + min(batch_size, p_b)
    _checks.work_limit(6.0 * n_weights * (steps * batch + (steps / eval_every) * (p_a + x_val.shape[1])),
                       f"steps={steps} (eval_every={eval_every}) with {s} x {r} students of {n_weights / (s * r):.0f} "
                       f"weights on {p_a} + {p_b} examples", iterations=steps)

    def per_run(w):
        w = w.to(device=device, dtype=dtype)
        if w.ndim == 3:
            w = w[:, None].expand(w.shape[0], r, *w.shape[1:])
        if w.shape[:2] != (s, r):
            raise ValueError(f"initial weights must be (S, ...) or (S, R, ...) with S={s}, R={r}; got {tuple(w.shape)}")
        return w.clone().requires_grad_(activation == "linear")  # ReLU students: gradients by hand

    params = [per_run(w) for w in weights]
    if multitask:
        trunk, heads = params[:-2], params[-2:]
    else:
        trunk, heads = params[:-1], params[-1:]
    if trunk[0].shape[-1] != n:
        raise ValueError(f"the first layer must take N={n} inputs; got {tuple(trunk[0].shape)}")
    if loss == "ce":  # out-of-range labels would fail inside torch, negative ones index from the end
        _checks.labels(y_a, "y_a", heads[0].shape[-2])
        _checks.labels(y_val, "y_val", heads[0].shape[-2])
        if multitask:
            _checks.labels(y_b, "y_b", heads[1].shape[-2])
    _check_mask(mask_a, "mask_a", (s, p_a, r))
    if multitask:
        _check_mask(mask_b, "mask_b", (s, x_b.shape[1], r))
    w_a = _mask_weights(mask_a, (s, p_a, r), dtype, device)
    tasks = [(x_a, y_a, mask_a, w_a)]
    if multitask:
        w_b = _mask_weights(mask_b, (s, x_b.shape[1], r), dtype, device)
        tasks.append((x_b, y_b, mask_b, w_b))
    y_val = y_val.to(device)
    if loss == "ce" and y_val.ndim == 2:
        y_val = y_val[:, :, None].expand(s, y_val.shape[1], r)
    if loss == "mse" and y_val.ndim == 3:
        y_val = y_val[:, :, None, :].expand(s, y_val.shape[1], r, y_val.shape[2])
    if y_val.shape[:3] != (s, x_val.shape[1], r):
        raise ValueError(f"y_val must have shape ({s}, {x_val.shape[1]}) or ({s}, {x_val.shape[1]}, {r})"
                         f"{' + (K,)' if loss == 'mse' else ''}; got {tuple(y_val.shape)}")
    val_weight = torch.full(y_val.shape[:3], 1.0 / y_val.shape[1], dtype=dtype, device=device)

    eval_steps = sorted(set(range(0, steps + 1, eval_every)) | {steps})
    val_curve = torch.empty(s, r, len(eval_steps), dtype=torch.float64)
    train_curve = torch.empty(s, r, len(eval_steps), dtype=torch.float64)
    best_val = torch.full((s, r), math.inf, dtype=torch.float64)
    best_step = torch.zeros((s, r), dtype=torch.int64)
    keep = keep_composite and activation == "linear"
    if keep_trajectory and activation != "linear":
        raise ValueError("keep_trajectory needs a linear trunk (a ReLU student has no composite map)")
    best_w, trajectory = None, []
    batch_gen = seeding.torch_generator(batch_rng, "batch_rng") if batch_size else None
    minibatches = batch_size is not None and batch_size < p_a  # else a step's task-A loss is the training loss

    def evaluate(index, step, train_loss=None):
        nonlocal best_w
        with torch.no_grad():
            v = _weighted_loss(_logits(x_val, trunk, heads[0], activation), y_val, val_weight, loss).double().cpu()
            if train_loss is None:
                train_loss = _weighted_loss(_logits(x_a, trunk, heads[0], activation), y_a, w_a, loss)
            tr = train_loss.double().cpu()
            if not bool(torch.isfinite(v).all()):
                raise FloatingPointError(f"validation loss became non-finite at step {step}: lr={lr} is too "
                                         f"large for these students (reduce lr)")
            val_curve[:, :, index], train_curve[:, :, index] = v, tr
            if keep_trajectory:
                trajectory.append(_composite(trunk, heads[0]).detach().double().cpu())
            better = v < best_val
            best_val[better] = v[better]
            best_step[better] = step
            if keep:
                comp = _composite(trunk, heads[0]).detach()
                if best_w is None:
                    best_w = comp.clone()
                else:
                    best_w[better.to(device)] = comp[better.to(device)]

    old_threads = torch.get_num_threads()
    if num_threads is not None:
        torch.set_num_threads(num_threads)
    start = time.perf_counter()
    try:
        next_eval = 0
        steps_iter = range(steps)
        if progress:
            steps_iter = track(steps_iter, desc=progress)
        for step in steps_iter:
            outputs, grad_outputs, grads = [], [], [None] * len(params)
            for t, (x, y, mask, wt) in enumerate(tasks):
                head = heads[t]
                if batch_size is not None and batch_size < x.shape[1]:
                    idx = _minibatch(x.shape[1], s, batch_size, batch_gen, device)
                    x = torch.gather(x, 1, idx[:, :, None].expand(-1, -1, n))
                    y = torch.gather(y, 1, idx.view(s, -1, *([1] * (y.ndim - 2))).expand(-1, -1, *y.shape[2:]))
                    mb = (torch.ones(s, tasks[t][0].shape[1], r, dtype=dtype, device=device) if mask is None else
                          mask.to(dtype)).gather(1, idx[:, :, None].expand(-1, -1, r))
                    wt = mb / mb.sum(1, keepdim=True).clamp_min(1.0)
                if activation == "linear":
                    comp = _composite(trunk, head)
                    task_loss, g = _linear_data_grad(x, y, comp.detach(), wt, loss)
                    outputs.append(comp)
                    grad_outputs.append(g)
                else:
                    with torch.no_grad():
                        task_loss, g_trunk, g_head = _relu_data_grad(x, y, trunk, head, wt, loss)
                    grads[:len(trunk)] = g_trunk if t == 0 else [a.add_(b) for a, b in zip(grads, g_trunk)]
                    grads[len(trunk) + t] = g_head
                if t == 0:
                    step_loss = task_loss
            if eval_steps[next_eval] == step:  # before the update: the weights the step's loss was taken at
                evaluate(next_eval, step, None if minibatches else step_loss)
                next_eval += 1
            if activation == "linear":
                grads = torch.autograd.grad(outputs, params, grad_outputs)
            with torch.no_grad():
                for w, g in zip(params, grads):
                    w.sub_(lr * g)
        evaluate(next_eval, steps)
    finally:
        torch.set_num_threads(old_threads)
    seconds = time.perf_counter() - start
    return TrainResult(val_curve.numpy(), train_curve.numpy(), np.array(eval_steps), best_val.numpy(),
                       best_step.numpy(), None if best_w is None else best_w.double().cpu().numpy(), seconds, steps,
                       torch.stack(trajectory, 2).numpy() if trajectory else None)


def _train_in_blocks(x_a, y_a, x_val, y_val, weights, block, sets, schedule, options):
    """:func:`train_students` on blocks of ``block`` runs, results joined along the run axis."""
    r = y_a.shape[2]
    batch_rng = seeding.check(options.batch_rng, "batch_rng")
    if not isinstance(batch_rng, (int, np.random.SeedSequence)):  # a generator or fresh entropy: one root for all
        batch_rng = seeding.stream(batch_rng)  # blocks, so that every block sees the same minibatches
    options = replace(options, batch_rng=batch_rng)
    parts = []
    for start in range(0, r, block):
        sl = slice(start, min(start + block, r))

        def runs(t, axis=2):
            return None if t is None else t[(slice(None),) * axis + (sl,)]

        weights_block = [w[:, sl] if isinstance(w, torch.Tensor) and w.ndim == 4 and w.shape[1] == r else w
                         for w in weights]  # per-run weights of another R are refused by train_students
        y_val_block = runs(y_val) if isinstance(y_val, torch.Tensor) and y_val.ndim >= 3 + (
            schedule.loss == "mse") else y_val
        parts.append(train_students(x_a, runs(y_a), x_val, y_val_block, weights_block,
                                    sets=TrainingSets(x_b=sets.x_b, y_b=runs(sets.y_b), mask_a=runs(sets.mask_a),
                                                      mask_b=runs(sets.mask_b)),
                                    schedule=schedule, options=replace(options, block=None)))
    first = parts[0]

    def join(name):
        values = [getattr(p, name) for p in parts]
        return None if values[0] is None else np.concatenate(values, axis=1)

    return TrainResult(join("val_loss"), join("train_loss"), first.eval_steps, join("best_val"), join("best_step"),
                       join("best_composite"), sum(p.seconds for p in parts), first.run_steps, join("trajectory"))


def _minibatch(pool, s, batch_size, gen, device):
    """Indices ``(S, batch)`` of a random minibatch of each group's pool (without replacement)."""
    return torch.stack([_random.randperm(pool, generator=gen, device=device)[:batch_size] for _ in range(s)])


# ----------------------------------------------------------------------------------------
# single-task students of rank-one teachers (§3, App. B: the TA dynamics (3))
# ----------------------------------------------------------------------------------------

#: Validation records kept along a single-task training (:attr:`SingleTaskSetup.eval_every`).
_RECORDS = 300


@dataclass(frozen=True)
class SingleTaskSetup:
    """One task of a rank-one teacher and its training by full-batch gradient descent (:func:`train_single_task`).

    Parameters
    ----------
    n_classes : int
        Classes ``K`` (>= 2).
    n_train, n_val : int
        Training examples and validation examples (noise-free labels).
    lr : float
        Learning rate; step ``k`` is time ``t = k lr`` in units of ``tau``.
    horizon : float
        Training time in units of ``tau``: ``steps = round(horizon / lr)`` (at least one).
    n_features : int
        Input dimension ``N`` (the authors' 20).
    s0 : float
        Singular value of a training-aligned student at initialisation.
    """

    n_classes: int
    n_train: int
    n_val: int
    lr: float
    horizon: float
    n_features: int = 20
    s0: float = 1e-3

    def __post_init__(self):
        _checks.integer(self.n_classes, "n_classes", 2)
        _checks.integer(self.n_train, "n_train", 1)
        _checks.integer(self.n_val, "n_val", 1)
        _checks.positive(self.lr, "lr")
        _checks.positive(self.horizon, "horizon", extra=" (the training time in units of tau)")
        _checks.integer(self.n_features, "n_features", 2, meaning=" (2 * rank for the rank-one teachers)")
        _checks.positive(self.s0, "s0", extra=" (the initial singular value)")
        if self.horizon / self.lr < 0.5:
            raise ValueError(f"horizon must be at least lr / 2 (one step); got horizon={self.horizon!r}, "
                             f"lr={self.lr!r}")

    @property
    def steps(self) -> int:
        """Gradient-descent steps over the horizon."""
        return int(round(self.horizon / self.lr))

    @property
    def eval_every(self) -> int:
        """Steps between validation records (about 300 records along training)."""
        return max(1, self.steps // _RECORDS)


@dataclass(frozen=True)
class SingleTaskStudents:
    """Single-task students of rank-one teachers (:func:`train_single_task`): ``S`` seeds, ``R`` SNRs.

    Attributes
    ----------
    s_a : (R,) array
        Teacher SNR of each run (its singular value ``sbar``).
    t : (E,) array
        Times of the validation records, in units of ``tau``.
    result : TrainResult
        The training, with the composite weights along it (``trajectory``, ``(S, R, E, K, N)``).
    sigma_hat, u_hat, v_hat : (S, R), (S, R, K), (S, R, N) arrays
        Top singular triple of each training set's centred label-feature covariance (7): the
        ``sigma_hat`` and ``u`` of (3).
    u_teacher, v_teacher : (S, K), (S, N) arrays
        The teacher's output and input directions, ``Wbar = sbar u_teacher v_teacher^T``.
    """

    s_a: np.ndarray
    t: np.ndarray
    result: TrainResult
    sigma_hat: np.ndarray
    u_hat: np.ndarray
    v_hat: np.ndarray
    u_teacher: np.ndarray
    v_teacher: np.ndarray

    def top_singular_value(self) -> np.ndarray:
        """The largest singular value of every student's composite weight along training, ``(S, R, E)``."""
        return np.linalg.svd(self.result.trajectory, compute_uv=False)[..., 0]


def train_single_task(setup: SingleTaskSetup, s_a: ArrayLike, seeds: Sequence[int], *, init: str = "aligned",
                      hidden: int = 64, init_scale: float = 0.05, device: str | torch.device = "cpu"
                      ) -> SingleTaskStudents:
    """Single-task softmax students of noisy rank-one teachers, one per SNR of ``s_a`` and seed (§3, Fig. 1).

    Each seed draws a rank-one teacher ``sbar u_teacher v_teacher^T`` and one training set
    (:func:`draw_tasks`, ``rank=1``); every SNR of ``s_a`` labels it by its own teacher strength and
    trains one student by full-batch gradient descent on the cross-entropy (1), the discretised flow
    (2), in float64. A training-aligned (TA) student (``init="aligned"``,
    :func:`training_aligned_init`) starts as ``s0 u_hat v_hat^T`` along the top singular vectors of
    the centred label-feature covariance (7), so its singular value follows (3)
    (:func:`gendyn.softmax_multitask.ta_trajectory`) as far as (16) holds; ``init="random"`` starts from
    small random weights with ``hidden`` units (:func:`init_student`, scale ``init_scale``).

    Parameters
    ----------
    setup : SingleTaskSetup
        The task and the training.
    s_a : array_like of float
        Teacher SNRs (singular values ``sbar > 0``), one student each.
    seeds : sequence of int
        One integer ``rng`` per teacher, training set and group of students (see :mod:`gendyn.seeding`).
    init : {"aligned", "random"}
        Training-aligned students, or small random initial weights.
    hidden : int
        Hidden units of the random students (the TA students have the 4 of :func:`training_aligned_init`).
    init_scale : float
        Scale of the random students' initial weights (:func:`init_student`).
    device : str or torch.device

    Returns
    -------
    SingleTaskStudents
        The runs, their training and the statistics (3) needs. The same ``setup`` and ``seeds`` give the
        same teachers and data for either ``init``.
    """
    _checks.instance(setup, "setup", SingleTaskSetup)
    s_a = np.asarray(_rates(s_a, "s_a"), dtype=float)
    seeds = _seeds(seeds)
    _checks.choice(init, "init", ("aligned", "random"))
    hidden = _checks.integer(hidden, "hidden", 1)
    init_scale = _checks.positive(init_scale, "init_scale")
    data = draw_tasks(seeds, n_train_a=setup.n_train, n_val=setup.n_val,
                      teachers=TeacherPair(n_features=setup.n_features, rank=1, n_classes=setup.n_classes),
                      dtype=torch.float64, device=device)
    y = data.labels_a(s_a)
    aligned, sigma_hat, u_hat, v_hat = training_aligned_init(data.x_a, y, setup.n_classes, s0=setup.s0)
    weights = aligned if init == "aligned" else init_student(
        seeds, n_features=setup.n_features, n_classes=setup.n_classes,
        students=GridStudents(hidden=hidden, depth=1, init_scale=init_scale), n_heads=1, dtype=torch.float64,
        device=device)
    res = train_students(data.x_a, y, data.x_val, data.labels_val(), weights,
                         schedule=GridSchedule(lr=setup.lr, steps=setup.steps, eval_every=setup.eval_every),
                         options=TrainOptions(keep_trajectory=True))
    return SingleTaskStudents(s_a, res.eval_steps * setup.lr, res, sigma_hat, u_hat, v_hat,
                              data.o_a[:, :, 0].cpu().numpy(), data.w1[:, 0].cpu().numpy())


# ----------------------------------------------------------------------------------------
# grids
# ----------------------------------------------------------------------------------------


@dataclass
class GridResult:
    """Early-stopped validation losses of a grid of single-task and multitask students.

    ``cells``: list of dicts, one per multitask cell (keys: the grid's axes and ``seed``);
    ``mt_loss``/``st_loss``: early-stopping validation losses of task A of the multitask
    student of each cell and of the single-task student of its (seed, s_a, train sizes);
    ``bounds``: ``(lower, benefit, upper)`` of (22)-(25) on the validation set (linear
    trunks), else ``None``; ``at_end``: fraction of students whose minimum was at the last
    evaluation; ``seconds``: training wall time; ``runs``: students trained.
    """

    axes: dict
    cells: list
    mt_loss: np.ndarray
    st_loss: np.ndarray
    bounds: tuple = None
    mt_best_step: np.ndarray = None
    st_best_step: np.ndarray = None
    curves: dict = field(default_factory=dict)
    at_end: float = 0.0
    seconds: float = 0.0
    runs: int = 0
    steps: int = 0

    @property
    def benefit(self) -> np.ndarray:
        """Single-task minus multitask validation loss of task A, per cell."""
        return self.st_loss - self.mt_loss

    def _axis(self, name, what="name"):
        return _checks.choice(name, what, tuple(self.axes))

    def column(self, name: str) -> np.ndarray:
        """The value of axis ``name`` (a key of :attr:`axes`) in every cell."""
        self._axis(name)
        return np.array([c[name] for c in self.cells])

    def where(self, **conditions: float | Sequence[float] | Callable[[float], bool]) -> np.ndarray:
        """Boolean mask of the cells meeting every condition: a value (compared with
        ``isclose``), a collection of values, or a predicate."""
        mask = np.ones(len(self.cells), dtype=bool)
        for name, cond in conditions.items():
            col = self.column(name)
            if callable(cond):
                mask &= np.array([bool(cond(v)) for v in col])
            elif isinstance(cond, (tuple, list, set, np.ndarray)):
                mask &= np.any(np.isclose(col[:, None], np.asarray(list(cond), dtype=float)[None, :]), axis=1)
            else:
                mask &= np.isclose(col, cond)
        return mask

    def per_seed(self, mask: np.ndarray, values: np.ndarray | None = None) -> np.ndarray:
        """Mean of ``values`` (default: the benefit) over the masked cells, per seed: ``(n_seeds,)``."""
        mask = _checks.instance(mask, "mask", np.ndarray, hint=" (a boolean array, e.g. from where)")
        if mask.dtype != bool or mask.shape != (len(self.cells),):
            raise ValueError(f"mask must be a boolean array of shape ({len(self.cells)},) (one per cell, from "
                             f"where); got {mask.dtype} {mask.shape}")
        values = self.benefit if values is None else _checks.real_array(values, "values", ndim=1)
        if values.shape != (len(self.cells),):
            raise ValueError(f"values must have one entry per cell, shape ({len(self.cells)},); got {values.shape}")
        seeds = self.column("seed")
        return np.array([values[mask & (seeds == sd)].mean() for sd in self.axes["seed"]])

    def cell_means(self, keys: Sequence[str] = ("n_train", "n_train_aux", "s_a", "s_b", "relatedness")
                   ) -> dict[tuple, tuple[float, float, int]]:
        """Per-cell benefit over seeds: ``{key tuple: (mean, standard error, n)}``."""
        if isinstance(keys, (str, bytes)) or not isinstance(keys, (tuple, list)) or not keys:
            raise ValueError(f"keys must be a non-empty tuple of axis names from {tuple(self.axes)}; got {keys!r}")
        for k in keys:
            self._axis(k, "every name in keys")
        groups = {}
        for c, b in zip(self.cells, self.benefit):
            groups.setdefault(tuple(c[k] for k in keys), []).append(b)
        return {k: (float(np.mean(v)), float(np.std(v, ddof=1) / math.sqrt(len(v))) if len(v) > 1 else math.nan,
                    len(v)) for k, v in groups.items()}

    def benefit_maps(self, by: str) -> dict[float, dict[tuple[float, float, float], float]]:
        """Mean benefit over seeds per ``(s_a, s_b, relatedness)``, one map per value of axis ``by``.

        Returns ``{value: {(s_a, s_b, r): mean}}`` (the strips of Figs. A1-A4, e.g. ``by=
        "n_train"``); the means are those of :meth:`cell_means` with these keys, so any other
        axis (e.g. ``n_train_aux`` of a grid with several auxiliary sizes) is averaged over too.
        """
        self._axis(by, "by")
        maps = {}
        for (value, *cell), (mean, _, _) in self.cell_means((by, "s_a", "s_b", "relatedness")).items():
            maps.setdefault(value, {})[tuple(cell)] = mean
        return maps

    def table(self, *, over: str = "seed") -> tuple[list[tuple], np.ndarray, np.ndarray, np.ndarray]:
        """Mean and standard error over ``over`` of the benefit, per remaining cell key.

        Returns ``(keys, mean, stderr, n)`` with ``keys`` a list of tuples of the other axes
        (in the order of :attr:`axes`).
        """
        self._axis(over, "over")
        names = [a for a in self.axes if a != over]
        groups = {}
        for c, b in zip(self.cells, self.benefit):
            groups.setdefault(tuple(c[a] for a in names), []).append(b)
        keys = sorted(groups)
        vals = [np.asarray(groups[k]) for k in keys]
        mean = np.array([v.mean() for v in vals])
        se = np.array([v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else np.nan for v in vals])
        return keys, mean, se, np.array([len(v) for v in vals])


# ----------------------------------------------------------------------------------------
# what a grid is: small specs instead of one wide signature
# ----------------------------------------------------------------------------------------


def _frozen_set(obj, name, value):
    object.__setattr__(obj, name, value)  # a frozen dataclass normalises its fields once


@dataclass(frozen=True)
class GridCells:
    """The cells of a grid (:func:`run_grid`): training-set sizes, SNRs and relatedness values.

    Every ``(s_a, s_b, relatedness)`` at every size is a multitask cell, and every ``s_a`` at every
    task-A size also a single-task cell.

    Parameters
    ----------
    n_train : sequence of int
        Task-A training-set sizes; each is also task B's size unless ``n_train_aux`` is given.
    n_train_aux : sequence of int, optional
        Task-B sizes, crossed with ``n_train`` (Fig. 3 left: ``n_train=(100,)``); runs of all
        sizes share one program through masks over the largest pool.
    s_a, s_b : sequence of float
        Teacher SNRs of tasks A and B (> 0); the published grid :data:`SNR_GRID` by default.
    relatedness : sequence of float
        Values of ``r`` in ``[0, 1]``; :data:`RELATEDNESS_GRID` by default.
    """

    n_train: Sequence[int]
    n_train_aux: Sequence[int] | None = None
    s_a: Sequence[float] = SNR_GRID
    s_b: Sequence[float] = SNR_GRID
    relatedness: Sequence[float] = RELATEDNESS_GRID

    def __post_init__(self):
        _frozen_set(self, "n_train", tuple(_checks.integers(self.n_train, "n_train", 1)))
        if self.n_train_aux is not None:
            _frozen_set(self, "n_train_aux", tuple(_checks.integers(self.n_train_aux, "n_train_aux", 1)))
        _frozen_set(self, "s_a", _rates(self.s_a, "s_a"))
        _frozen_set(self, "s_b", _rates(self.s_b, "s_b"))
        _frozen_set(self, "relatedness", _rates(self.relatedness, "relatedness", lower=0.0, open_lower=False,
                                                upper=1.0))


@dataclass(frozen=True)
class GridTask:
    """The teachers and data of a grid (:func:`draw_tasks`).

    Parameters
    ----------
    rank : int
        Teacher rank, also the number of classes ``K`` (>= 2).
    n_features : int
        Input dimension ``N`` (>= ``2 * rank``; the authors' 20).
    n_val : int
        Validation examples of task A (noise-free labels).
    """

    rank: int = 10
    n_features: int = 20
    n_val: int = 1000

    def __post_init__(self):
        _checks.integer(self.rank, "rank", 2, meaning=" (also the number of classes)")
        _checks.integer(self.n_features, "n_features", 2)
        _checks.integer(self.n_val, "n_val", 1)
        if 2 * self.rank > self.n_features:  # the two tasks' teachers span orthogonal rank-dimensional subspaces
            raise ValueError(f"n_features must be >= 2 * rank = {2 * self.rank}; got n_features={self.n_features}")


@dataclass(frozen=True)
class GridStudents:
    """The students of a grid (:func:`init_student`): a trunk of ``depth`` layers of ``hidden`` units and one
    softmax head per task.

    Parameters
    ----------
    hidden : int
        Units of every trunk layer.
    depth : int
        Trunk layers (hidden layers), >= 1.
    activation : {"linear", "relu"}
    init_scale : float
        Scale of the Gaussian initial weights (> 0; :data:`INIT_SCALE` is PyTorch's default variance).
    """

    hidden: int = 64
    depth: int = 1
    activation: str = "linear"
    init_scale: float = 1.0

    def __post_init__(self):
        _checks.integer(self.hidden, "hidden", 1)
        _checks.integer(self.depth, "depth", 1)
        _activation(self.activation)
        _checks.positive(self.init_scale, "init_scale")


@dataclass(frozen=True)
class GridSchedule:
    """How a grid's students train (:func:`train_students`): full-batch gradient descent, early-stopped on task A's
    validation loss.

    Parameters
    ----------
    lr : float
        Learning rate (> 0).
    steps : int
        Gradient steps (>= 1).
    eval_every : int
        Steps between validation records (and at 0 and ``steps``).
    loss : {"ce", "mse"}
        Cross-entropy (the paper), or squared error on the logits (regression).
    """

    lr: float = 0.5
    steps: int = 400
    eval_every: int = 4
    loss: str = "ce"

    def __post_init__(self):
        _checks.positive(self.lr, "lr")
        _checks.integer(self.steps, "steps", 1)
        _checks.integer(self.eval_every, "eval_every", 1)
        _checks.choice(self.loss, "loss", ("ce", "mse"))


@dataclass(frozen=True)
class GridPrecision:
    """The arithmetic of a grid: training ``dtype``, the precision of the draws, the device, and plain or
    mixed arithmetic.

    Parameters
    ----------
    dtype : torch.float32 or torch.float64
        Precision of the training.
    draw_dtype : torch dtype, optional
        Draw the data and initial weights and compute the labels in this precision, then train in
        ``dtype``: two grids with ``draw_dtype=torch.float64`` and different ``dtype`` see the same
        examples, labels and initial weights and differ only by the arithmetic's rounding. ``None``:
        ``dtype`` (torch draws other numbers in float32 than in float64, so a float32 grid and a
        float64 grid of the same seeds see different data).
    device : str or torch.device
    arithmetic : {"plain", "mixed"}
        ``"plain"``: every operation in ``dtype``. ``"mixed"`` (needs ``dtype=torch.float64``): the
        weights, their updates, the losses and the softmax residuals stay float64, the forward and
        backward matrix products run in float32 on float32 copies (:data:`MIXED_MATMUL_DTYPE`), and the
        two tasks' gradients are summed in float64; the validation losses are taken in float64.
    """

    dtype: torch.dtype = torch.float32
    draw_dtype: torch.dtype | None = None
    device: str | torch.device = "cpu"
    arithmetic: str = "plain"

    def __post_init__(self):
        dtype, device = _torch(self.dtype, self.device)
        _frozen_set(self, "dtype", dtype)
        _frozen_set(self, "device", device)
        _frozen_set(self, "draw_dtype", dtype if self.draw_dtype is None
                    else _checks.torch_dtype(self.draw_dtype, "draw_dtype"))
        _checks.choice(self.arithmetic, "arithmetic", ARITHMETICS)
        if self.arithmetic == "mixed" and dtype != torch.float64:
            raise ValueError(f"arithmetic='mixed' keeps float64 weights and losses: it needs dtype=torch.float64; "
                             f"got dtype={dtype}")


@dataclass(frozen=True)
class GridExecution:
    """Where and how a grid's programs run; the results do not depend on it, except ``block``
    (float rounding).

    Parameters
    ----------
    num_threads : int
        CPU threads of each (seed, size) program.
    workers : int
        Processes that run the (seed, size) programs side by side on the CPU (every program is
        seeded on its own and runs on ``num_threads`` threads wherever it runs). Ignored on a GPU.
        Workers are spawned, so a script that asks for more than one must call :func:`run_grid`
        under ``if __name__ == "__main__":``. Each worker keeps freed memory
        (:func:`gendyn.allocator.retain_freed_memory`).
    executor : concurrent.futures.Executor, optional
        Runs the programs instead of ``workers`` local processes: any executor whose ``submit``
        takes a picklable function, e.g. ``dask.distributed.Client(address).get_executor()`` for a
        cluster (there, ``client.run(retain_freed_memory)`` applies the memory setting on every
        worker). The results are identical for any executor that runs one program per process at a
        time (local processes; Dask workers with ``threads_per_worker=1``): a program sets torch's
        process-wide thread count.
    block : int, optional
        Train each program's runs in blocks of this many (:func:`train_students`): the same results
        up to float rounding, faster on a CPU.
    progress : bool
        Show a progress bar.
    """

    num_threads: int = 1
    workers: int = 1
    executor: Executor | None = None
    block: int | None = None
    progress: bool = True

    def __post_init__(self):
        _checks.integer(self.num_threads, "num_threads", 1)
        _checks.integer(self.workers, "workers", 1)
        if self.block is not None:
            _checks.integer(self.block, "block", 1)
        if self.executor is not None and not callable(getattr(self.executor, "submit", None)):
            raise ValueError(f"executor must be a concurrent.futures.Executor (an object with submit) or None; "
                             f"got {type(self.executor).__name__}")
        _frozen_set(self, "progress", _checks.flag(self.progress, "progress"))


#: The specs of :func:`run_grid` and the keywords of its one-signature form that each takes.
_GRID_SPECS = {"cells": (GridCells, ("n_train", "n_train_aux", "s_a", "s_b", "relatedness")),
               "task": (GridTask, ("rank", "n_features", "n_val")),
               "students": (GridStudents, ("hidden", "depth", "activation", "init_scale")),
               "schedule": (GridSchedule, ("lr", "steps", "eval_every", "loss")),
               "precision": (GridPrecision, ("dtype", "draw_dtype", "device", "arithmetic")),
               "execution": (GridExecution, ("num_threads", "workers", "executor", "block", "progress"))}


def grid_specs(**keywords: object) -> dict[str, object]:
    """The arguments of :func:`run_grid` from its keywords written out flat.

    ``grid_specs(seeds=(0, 1), n_train=(100,), depth=2, lr=0.1)`` gives ``{"seeds": (0, 1),
    "cells": GridCells(n_train=(100,)), "students": GridStudents(depth=2), "schedule":
    GridSchedule(lr=0.1), ...}``: every field of :class:`GridCells`, :class:`GridTask`,
    :class:`GridStudents`, :class:`GridSchedule`, :class:`GridPrecision` and :class:`GridExecution` by
    its name, plus ``seeds`` and ``keep_curves``. The one-signature form of :func:`run_grid`
    (deprecated) and :func:`gendyn.book.grids.cached_grid` use it.

    Returns
    -------
    dict
        ``run_grid(**grid_specs(**keywords))`` runs the grid.
    """
    rest = dict(keywords)
    out = {}
    if "seeds" in rest:
        out["seeds"] = _seeds(rest.pop("seeds"))
    if "keep_curves" in rest:
        out["keep_curves"] = _checks.flag(rest.pop("keep_curves"), "keep_curves")
    for name, (cls, fields) in _GRID_SPECS.items():
        out[name] = cls(**{f: rest.pop(f) for f in fields if f in rest}) if name != "cells" or "n_train" in rest \
            else None
    if out["cells"] is None:
        raise ValueError("n_train is required: the task-A training-set sizes of the grid")
    if rest:
        known = sorted(f for _, fields in _GRID_SPECS.values() for f in fields) + ["keep_curves", "seeds"]
        raise ValueError(f"unknown grid keyword(s) {sorted(rest)}; allowed: {', '.join(known)}")
    return out


def run_grid(cells: GridCells | None = None, seeds: Sequence[int] | None = None, *, task: GridTask = GridTask(),
             students: GridStudents = GridStudents(), schedule: GridSchedule = GridSchedule(),
             precision: GridPrecision = GridPrecision(), execution: GridExecution = GridExecution(),
             keep_curves: bool = False, **flat: object) -> GridResult:
    """Train the single-task and multitask students of a grid, one batched program per
    (seed, task-A size), and measure the multitask benefit of every cell.

    Parameters
    ----------
    cells : GridCells
        The grid's sizes, SNRs and relatedness values.
    seeds : sequence of int
        One integer ``rng`` per teacher pair, data set and initialisation (see :mod:`gendyn.seeding`).
    task, students, schedule : GridTask, GridStudents, GridSchedule
        The data (:func:`draw_tasks`), the students (:func:`init_student`) and their training
        (:func:`train_students`).
    precision : GridPrecision
        Training precision, the precision of the draws, and the device.
    execution : GridExecution
        Threads, worker processes or an executor, blocks and the progress bar (the results do not
        depend on where the programs run).
    keep_curves : bool
        Keep every run's validation curve (``GridResult.curves``).
    **flat
        Deprecated: the fields of the specs as keywords, ``run_grid(seeds=..., n_train=...,
        lr=...)`` (:func:`grid_specs`), accepted for one more release with a ``DeprecationWarning``.

    Returns
    -------
    GridResult
    """
    if flat:
        known = {f for _, fields in _GRID_SPECS.values() for f in fields}
        if set(flat) - known:
            raise ValueError(f"unknown grid keyword(s) {sorted(set(flat) - known)}; allowed: "
                             f"{', '.join(sorted(known | {'keep_curves', 'seeds'}))}")
        given = dict(task=task, students=students, schedule=schedule, precision=precision, execution=execution)
        defaults = dict(task=GridTask(), students=GridStudents(), schedule=GridSchedule(),
                        precision=GridPrecision(), execution=GridExecution())
        if cells is not None or any(given[k] != defaults[k] for k in given):
            raise ValueError(f"pass the grid either as specs (cells, task, students, ...) or as flat keywords "
                             f"(deprecated), not both; got the keywords {sorted(flat)}")
        warnings.warn("run_grid(n_train=..., lr=..., ...) with flat keywords is deprecated and will be removed in "
                      "the next release: pass specs (cells=GridCells(...), schedule=GridSchedule(...), ...), or "
                      "run_grid(**grid_specs(...))", DeprecationWarning, stacklevel=2)
        return run_grid(**grid_specs(seeds=seeds, keep_curves=keep_curves, **flat))
    _checks.instance(cells, "cells", GridCells, hint=" (the grid's sizes and SNRs)")
    for name, value, cls in (("task", task, GridTask), ("students", students, GridStudents),
                             ("schedule", schedule, GridSchedule), ("precision", precision, GridPrecision),
                             ("execution", execution, GridExecution)):
        _checks.instance(value, name, cls)
    if seeds is None:
        raise ValueError("seeds is required: a sequence of distinct ints, one teacher pair and data set each")
    seeds = _seeds(seeds)
    keep_curves = _checks.flag(keep_curves, "keep_curves")
    n_train, aux = cells.n_train, cells.n_train_aux
    s_a, s_b, rel = cells.s_a, cells.s_b, cells.relatedness
    dtype, draw_dtype, device = precision.dtype, precision.draw_dtype, precision.device
    depth, activation, steps = students.depth, students.activation, schedule.steps
    workers, executor, progress = execution.workers, execution.executor, execution.progress
    axes = {"n_train": n_train, "n_train_aux": aux if aux else n_train, "s_a": s_a, "s_b": s_b, "relatedness": rel,
            "seed": seeds}
    job = partial(_grid_job, aux=aux, s_a=s_a, combos=[(a, b, rr) for a in s_a for b in s_b for rr in rel],
                  settings=dict(rank=task.rank, n_features=task.n_features, hidden=students.hidden, depth=depth,
                                activation=activation, n_val=task.n_val, lr=schedule.lr, steps=steps,
                                eval_every=schedule.eval_every, init_scale=students.init_scale,
                                loss=schedule.loss, dtype=dtype, draw_dtype=draw_dtype, device=str(device),
                                num_threads=execution.num_threads, block=execution.block,
                                arithmetic=precision.arithmetic),
                  keep_curves=keep_curves)
    jobs = [(seed, p) for p in n_train for seed in seeds]
    workers = min(workers, len(jobs)) if str(device) == "cpu" else 1
    desc = f"grid depth={depth} {activation}"
    if executor is not None:
        done = _run_on(executor, job, jobs, desc if progress else None)
    elif workers == 1:
        done = [job(*j) for j in (track(jobs, desc=desc) if progress else jobs)]
    else:
        # spawn, not fork: a forked torch process can hang on the parent's thread pools
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=retain_freed_memory) as pool:
            done = _run_on(pool, job, jobs, desc if progress else None)
    parts = {key: [d[key] for d in done] for key in done[0]}
    bounds = None
    if parts["bounds"][0] is not None:
        bounds = tuple(np.concatenate([d[i] for d in parts["bounds"]]) for i in range(3))
    curves = {k: v for d in parts["curves"] for k, v in d.items()}
    n_students = sum(parts["n_students"])
    # cells in the order (n_train, seed, aux size, s_a, s_b, r) for stable tables
    return GridResult(axes, [c for group in parts["cells"] for c in group], np.concatenate(parts["mt"]),
                      np.concatenate(parts["st"]), bounds, np.concatenate(parts["mt_step"]),
                      np.concatenate(parts["st_step"]), curves, sum(parts["at_end"]) / n_students,
                      sum(parts["seconds"]), n_students, steps)


def _run_on(executor, job, jobs, desc):
    """``job(*j)`` for every ``j`` of ``jobs`` on ``executor``, results in the order of ``jobs``."""
    futures = [executor.submit(job, *j) for j in jobs]
    return [f.result() for f in (track(futures, desc=desc) if desc else futures)]


def _grid_job(seed, p, *, aux, s_a, combos, settings, keep_curves):
    """One (seed, task-A size) program of :func:`run_grid`: every multitask and single-task student of it."""
    old_threads = torch.get_num_threads()
    torch.set_num_threads(settings["num_threads"])  # the same arithmetic in any process
    try:
        return _grid_job_body(seed, p, aux, s_a, combos, keep_curves, **settings)
    finally:
        torch.set_num_threads(old_threads)


def _grid_job_body(seed, p, aux, s_a, combos, keep_curves, *, rank, n_features, hidden, depth, activation, n_val,
                   lr, steps, eval_every, init_scale, loss, dtype, draw_dtype, device, num_threads, block,
                   arithmetic="plain"):
    aux_sizes = aux if aux else (p,)
    pool_b = max(aux_sizes)
    data = draw_tasks([seed], n_train_a=p, n_train_b=pool_b, n_val=n_val,
                      teachers=TeacherPair(n_features=n_features, rank=rank), dtype=draw_dtype, device=device)
    k = data.n_classes
    # multitask runs: (aux size, s_a, s_b, r)
    run_keys = [(pb, a, b, rr) for pb in aux_sizes for (a, b, rr) in combos]
    ra = [key[1] for key in run_keys]
    if loss == "ce":
        ya_all = data.labels_a(s_a)
        yb_combo = data.labels_b([c[1] for c in combos], [c[2] for c in combos])
    else:
        ya_all = data.regression_targets_a(s_a)
        yb_combo = data.regression_targets_b([c[1] for c in combos], [c[2] for c in combos])
    ia = [s_a.index(a) for a in ra]
    y_a = ya_all[:, :, ia]
    y_b = yb_combo[:, :, [combos.index(key[1:]) for key in run_keys]]
    mask_b = None
    if len(aux_sizes) > 1 or pool_b != aux_sizes[0]:
        sizes = torch.tensor([key[0] for key in run_keys], device=device)
        mask_b = (torch.arange(pool_b, device=device)[None, :, None] < sizes[None, None, :]).to(dtype)
    w0 = init_student([seed], n_features=n_features, n_classes=k,
                      students=GridStudents(hidden=hidden, depth=depth, activation=activation, init_scale=init_scale),
                      n_heads=2, dtype=draw_dtype, device=device)
    y_val = data.labels_val()
    y_val_st = y_val
    if loss == "mse":  # noise-free logits of task A, per run
        z_val = data.x_val @ data.teacher_a.mT
        sa_t = torch.as_tensor(np.asarray(s_a, dtype=float), dtype=draw_dtype, device=device)
        y_val_st = sa_t[None, None, :, None] * z_val[:, :, None, :]
        y_val = y_val_st[:, :, ia]
    common = dict(schedule=GridSchedule(lr=lr, steps=steps, eval_every=eval_every, loss=loss),
                  options=TrainOptions(activation=activation, num_threads=num_threads, block=block))
    # labels and targets above are taken in draw_dtype; training runs in dtype
    x_a, x_b, x_val = (t.to(dtype) for t in (data.x_a, data.x_b, data.x_val))
    w0 = [w.to(dtype) for w in w0]
    if loss == "mse":
        y_a, y_b, ya_all, y_val, y_val_st = (t.to(dtype) for t in (y_a, y_b, ya_all, y_val, y_val_st))
    with _arithmetic(arithmetic):
        res_mt = train_students(x_a, y_a, x_val, y_val, w0, sets=TrainingSets(x_b=x_b, y_b=y_b, mask_b=mask_b),
                                **common)
        res_st = train_students(x_a, ya_all, x_val, y_val_st, w0[:-1], **common)
    out = dict(cells=[dict(n_train=p, n_train_aux=key[0], s_a=key[1], s_b=key[2], relatedness=key[3], seed=seed)
                      for key in run_keys],
               mt=res_mt.best_val[0], st=res_st.best_val[0, ia], mt_step=res_mt.best_step[0],
               st_step=res_st.best_step[0, ia], seconds=res_mt.seconds + res_st.seconds,
               n_students=len(run_keys) + len(s_a),
               at_end=int((res_mt.best_step == steps).sum() + (res_st.best_step == steps).sum()),
               curves={}, bounds=None)
    if keep_curves:
        out["curves"][(seed, p)] = dict(mt=res_mt.val_loss[0], st=res_st.val_loss[0], steps=res_mt.eval_steps,
                                        keys=run_keys)
    if res_mt.best_composite is not None and loss == "ce":
        from .softmax_multitask import benefit_bounds

        out["bounds"] = benefit_bounds(res_st.best_composite[0, ia], res_mt.best_composite[0],
                                       data.x_val[0].double().cpu().numpy(), y_val[0].cpu().numpy())
    return out


#: Initial weights: the variance of PyTorch's default ``nn.Linear`` initialisation,
#: ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``, i.e. ``init_scale = 1/sqrt(3)`` (Gaussian, no biases).
INIT_SCALE = 1 / math.sqrt(3)

# ----------------------------------------------------------------------------------------
# the authors' published results: kept here under their old names, now in gendyn.published_runs
# ----------------------------------------------------------------------------------------

#: Files of the published per-run results (:data:`gendyn.published_runs.FILES`).
REFERENCE_FILES = published_runs.FILES


def reference_data_dir(directory: str | os.PathLike | None = None) -> Path:
    """Same as :func:`gendyn.published_runs.data_dir`."""
    return published_runs.data_dir(directory)


def load_reference(name: str, directory: str | os.PathLike | None = None) -> dict[str, np.ndarray]:
    """Same as :func:`gendyn.published_runs.load`."""
    return published_runs.load(name, directory)


def reference_benefits(name: str, directory: str | os.PathLike | None = None) -> dict[str, np.ndarray]:
    """Same as :func:`gendyn.published_runs.benefits`."""
    return published_runs.benefits(name, directory)


# ----------------------------------------------------------------------------------------
# comparing two grids cell by cell
# ----------------------------------------------------------------------------------------

#: The axes that name a cell of :meth:`GridResult.cell_means` (its default keys), in that order.
CELL_AXES = ("n_train", "n_train_aux", "s_a", "s_b", "relatedness")


@dataclass(frozen=True)
class BenefitChange:
    """The benefit of each cell of one grid minus that of the same cell of another (:func:`benefit_change`).

    ``keys``: the cell of each entry, ``(n_train, n_train_aux, s_a, s_b, relatedness)`` (the keys of
    :meth:`GridResult.cell_means`); ``seeds``: its seed; ``change``: ``(n_cells,)`` benefit of the
    grid minus that of the reference, in nats.
    """

    keys: tuple[tuple[float, ...], ...]
    seeds: tuple[int, ...]
    change: np.ndarray


def benefit_change(grid: GridResult, reference: GridResult) -> BenefitChange:
    """The benefit (single-task minus multitask validation loss of task A, Lee & Ndirango (2019)
    Eq. (21)) of every cell of ``grid`` minus that of the same cell of ``reference``.

    A cell is the same when its seed and the axes of :data:`CELL_AXES` agree; the two grids
    differ in how they were computed (precision, learning rate, ...), not in their data. Used
    to measure what rounding does to a grid: rerun a part of it with one setting changed, on
    the same draws, and compare.

    Parameters
    ----------
    grid : GridResult
        The grid whose every cell is compared (e.g. one program of ``reference`` rerun).
    reference : GridResult
        A grid that holds every cell of ``grid`` (and possibly more).

    Returns
    -------
    BenefitChange
        The cells of ``grid`` in its order, their seeds, and the change of their benefit.

    Raises
    ------
    ValueError
        If either is not a :class:`GridResult`, or a cell of ``grid`` is not in ``reference``.
    """
    _checks.instance(grid, "grid", GridResult, hint=" (from run_grid)")
    _checks.instance(reference, "reference", GridResult, hint=" (from run_grid)")

    def key(cell):
        return tuple(cell[a] for a in CELL_AXES), cell["seed"]

    ref = {key(c): b for c, b in zip(reference.cells, reference.benefit)}
    missing = [key(c) for c in grid.cells if key(c) not in ref]
    if missing:
        raise ValueError(f"reference must hold every cell of grid; {len(missing)} are missing, e.g. "
                         f"(cell, seed) = {missing[0]}")
    keys = tuple(key(c)[0] for c in grid.cells)
    seeds = tuple(int(c["seed"]) for c in grid.cells)
    change = grid.benefit - np.array([ref[key(c)] for c in grid.cells])
    if not np.all(np.isfinite(change)):
        raise ValueError("grid or reference has a non-finite benefit in a compared cell")
    return BenefitChange(keys, seeds, change)


# ----------------------------------------------------------------------------------------
# checks of the theory on the experiments' draws: label agreement, the sampled loss gradient (14)
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelAgreement:
    """How often the experiments' noisy labels equal the clean ones (:func:`label_agreement`).

    ``s_a``: the teacher singular values; ``agree``: the fraction of the ``n_labels`` noisy labels equal
    to the clean label ``argmax(Wbar x)``, one per SNR.
    """

    s_a: np.ndarray
    agree: np.ndarray
    n_labels: int


def label_agreement(s_a: ArrayLike, *, n_labels: int, rng: seeding.Rng = None, rank: int = 10, n_features: int = 20,
                    group: int = 200_000, **former: object) -> LabelAgreement:
    """The fraction of the experiments' noisy labels ``argmax(sbar O w1 x + xi)`` of task A that equal the
    clean label ``argmax(O w1 x)``, at each teacher singular value of ``s_a`` (Lee & Ndirango §2; the first
    order near chance is :func:`gendyn.softmax_multitask.label_agreement_excess`).

    The labels are those of :func:`draw_tasks` (``K = rank`` classes, noise ``1/sqrt(N)`` per logit, float64),
    drawn in groups of at most ``group`` inputs, group ``k`` with seed ``seeding.run_seeds(rng, groups,
    "groups")[k]``; every SNR labels the same inputs with the same noise.

    Parameters
    ----------
    s_a : array_like
        Teacher singular values ``> 0`` (1-d).
    n_labels : int
        Labels per SNR, ``>= 1``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        The root of the groups' seeds (teachers, inputs and noise); ``None``: fresh entropy (see
        :mod:`gendyn.seeding`).
    rank, n_features : int
        The teacher's rank (= ``K``) and ``N``, as in :func:`draw_tasks`.
    group : int
        Largest number of inputs drawn at once (bounds the memory), ``>= 1``.
    """
    s_a = np.array(_rates(s_a, "s_a"))
    rng = seeding.former_rng(rng, former, "label_agreement", alone=True)
    n_labels = _checks.integer(n_labels, "n_labels", 1)
    group = _checks.integer(group, "group", 1)
    _checks.integer(rank, "rank", 1)
    _checks.integer(n_features, "n_features", 2)
    group_seeds = seeding.run_seeds(rng, -(-n_labels // group), "groups")
    agree, done, k = np.zeros(len(s_a), dtype=np.int64), 0, 0
    while done < n_labels:
        n = min(group, n_labels - done)
        data = draw_tasks([group_seeds[k]], n_train_a=n, n_val=1,
                          teachers=TeacherPair(n_features=n_features, rank=rank),
                          dtype=torch.float64)
        noisy = data.labels_a(s_a)[0]  # (P, S)
        clean = (data.x_a[0] @ data.teacher_a[0].T).argmax(-1)
        agree += (noisy == clean[:, None]).sum(0).cpu().numpy()
        done, k = done + n, k + 1
    return LabelAgreement(s_a, agree / n_labels, n_labels)


@dataclass(frozen=True)
class SampledGradient:
    """The gradient of a Monte Carlo loss and its standard error (:func:`sampled_loss_gradient`)."""

    mean: np.ndarray
    stderr: np.ndarray
    n_samples: int


def sampled_loss_gradient(w: ArrayLike, sigma: ArrayLike | None = None, *, n_samples: int,
                          rng: seeding.Rng = None, **former: object) -> SampledGradient:
    """``d/dW E_x[lse(W x)]`` by autograd of its Monte Carlo mean over ``x ~ N(0, Sigma)``: the sampled side of
    Gaussian integration by parts (14), ``E[p(x) x^T] = M(W) W Sigma``
    (:func:`gendyn.softmax_multitask.softmax_curvature`).

    The standard error is that of the mean of ``p(x) x^T`` over the samples, entrywise.

    Parameters
    ----------
    w : array_like (K, N)
        Composite weights.
    sigma : array_like (N, N), optional
        Input covariance, symmetric positive definite (identity by default).
    n_samples : int
        Gaussian inputs, ``>= 2``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        What the Gaussian inputs are drawn from (an integer seeds a CPU ``torch.Generator``);
        ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    """
    rng = seeding.former_rng(rng, former, "sampled_loss_gradient", alone=True)
    w = _checks.real_array(w, "w", ndim=2)
    n_features = w.shape[1]
    sigma = np.eye(n_features) if sigma is None else _checks.real_array(sigma, "sigma", ndim=2)
    if sigma.shape != (n_features, n_features) or not np.allclose(sigma, sigma.T):
        raise ValueError(f"sigma must be a symmetric ({n_features}, {n_features}) matrix (the columns of w); got "
                         f"shape {sigma.shape}")
    n_samples = _checks.integer(n_samples, "n_samples", 2)
    _checks.work_limit(20.0 * n_samples * w.size, f"n_samples={n_samples} with w of shape {w.shape}")
    try:
        chol = torch.linalg.cholesky(torch.tensor(sigma))
    except RuntimeError:
        raise ValueError("sigma must be positive definite") from None
    x = _random.randn(n_samples, n_features, generator=seeding.torch_generator(rng)) @ chol.T
    w_t = torch.tensor(w, requires_grad=True)
    grad = torch.autograd.grad(torch.logsumexp(x @ w_t.T, -1).mean(), w_t)[0].cpu().numpy()
    p = torch.softmax(x @ w_t.detach().T, -1)
    stderr = (p[:, :, None] * x[:, None, :]).std(0).cpu().numpy() / math.sqrt(n_samples)
    return SampledGradient(grad, stderr, n_samples)


@dataclass(frozen=True)
class BayesCrossEntropy:
    """The cross-entropy of the Bayes predictor on sampled noisy labels (:func:`bayes_cross_entropy`)."""

    s_a: np.ndarray  #: teacher SNRs, ``(R,)``
    mean: np.ndarray  #: mean cross-entropy over the labelled inputs at each SNR, ``(R,)``
    stderr: np.ndarray  #: its standard error, ``(R,)``
    n_test: int  #: labelled inputs per SNR


def bayes_cross_entropy(s_a: ArrayLike, *, n_test: int, rng: seeding.Rng = None, rank: int = 10,
                        n_features: int = 20, **former: object) -> BayesCrossEntropy:
    """The cross-entropy of the Bayes predictor on labels drawn by the experiments' code.

    One teacher of rank ``rank`` and ``n_test`` inputs (:func:`draw_tasks` of one seed, float64)
    are labelled at every SNR of ``s_a`` with the training labels' noise (:meth:`TaskBatch.labels_a`);
    each label is scored by the exact label law ``p_k(x)`` of the noisy argmax
    (:func:`gendyn.softmax_multitask.noisy_argmax_probabilities`). The mean of ``-ln p_y(x)`` estimates
    the conditional entropy ``H(y | x)``, the floor under any validation loss on such labels
    (:func:`gendyn.softmax_multitask.noisy_label_entropy`), by an independent route.

    Parameters
    ----------
    s_a : array_like of float
        Teacher SNRs (singular values ``> 0``).
    n_test : int
        Labelled inputs per SNR (``>= 2``).
    rng : int, SeedSequence, torch or numpy Generator, or None
        The seed of the teacher, inputs and noise (an integer is :func:`draw_tasks`' seed itself);
        ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    rank : int
        The teacher's rank and number of classes.
    n_features : int
        Input dimension ``N`` (logit noise ``1/sqrt(N)``).

    Returns
    -------
    BayesCrossEntropy
    """
    s_a = np.asarray(_rates(s_a, "s_a"), dtype=float)
    rng = seeding.former_rng(rng, former, "bayes_cross_entropy", alone=True)
    n_test = _checks.integer(n_test, "n_test", 2)
    seed = _one_seed(rng)
    rank = _checks.integer(rank, "rank", 2)
    n_features = _checks.integer(n_features, "n_features", 1)
    _checks.work_limit(float(n_test) * len(s_a) * rank * rank * 64, f"n_test={n_test} with {len(s_a)} SNRs")
    data = draw_tasks([seed], n_train_a=n_test, n_val=1, teachers=TeacherPair(n_features=n_features, rank=rank),
                      dtype=torch.float64)
    y = data.labels_a(s_a)[0].cpu().numpy()  # (P, R)
    z = (data.x_a[0] @ data.teacher_a[0].T).cpu().numpy()  # unit-SNR logits
    nll = np.empty((n_test, len(s_a)))
    for j, s in enumerate(s_a):
        for lo in range(0, n_test, 1000):
            p = softmax_multitask.noisy_argmax_probabilities(s * z[lo:lo + 1000], data.noise_std)
            nll[lo:lo + 1000, j] = -np.log(p[np.arange(len(p)), y[lo:lo + 1000, j]])
    if not np.all(np.isfinite(nll)):
        raise ValueError("s_a is too large for the labels' noise: a sampled label has probability 0 under its law")
    return BayesCrossEntropy(s_a, nll.mean(0), nll.std(0, ddof=1) / math.sqrt(n_test), n_test)


# ----------------------------------------------------------------------------------------
# mixed arithmetic: float64 weights, updates and losses, float32 matrix products
# ----------------------------------------------------------------------------------------

#: The precision of the matrix products of mixed arithmetic.
MIXED_MATMUL_DTYPE = torch.float32

#: The matmul dtype of mixed arithmetic in the training under way, or ``None``: plain arithmetic.
_MIXED = contextvars.ContextVar("gendyn_multitask_train_mixed", default=None)


@contextlib.contextmanager
def _arithmetic(arithmetic):
    """Train in ``arithmetic`` (:data:`ARITHMETICS`) inside the ``with`` block."""
    token = _MIXED.set(MIXED_MATMUL_DTYPE if arithmetic == "mixed" else None)  # read when training starts
    try:
        yield
    finally:
        _MIXED.reset(token)


def _linear_data_grad_mixed(x, y, w, weight, loss, low):
    """:func:`_linear_data_grad` with the two matrix products in ``low`` and the loss, the residual and the
    gradient in the precision of ``w``."""
    s, p, n = x.shape
    r, k = w.shape[1], w.shape[2]
    x_low = x.to(low)
    z = (x_low @ w.to(low).reshape(s, r * k, n).mT).view(s, p, r, k).to(w.dtype)
    per = _residual_(z, y, weight, loss)
    grad = (z.to(low).view(s, p, r * k).mT @ x_low).view(s, r, k, n).to(w.dtype)
    return per.sum(1), grad


def _relu_data_grad_mixed(x, y, trunk, head, weight, loss, low):
    """:func:`_relu_data_grad` with every matrix product in ``low`` on copies of the weights and inputs
    in ``low``; the logits, the loss and its residual, and the gradients returned are in the weights'
    precision."""
    s, p, n = x.shape
    r, hidden = head.shape[1], trunk[0].shape[-2]
    high = head.dtype
    x_low = x.to(low)
    trunk_low = [w.to(low) for w in trunk]
    head_low = head.to(low)
    first = (x_low @ trunk_low[0].reshape(s, r * hidden, n).mT).view(s, p, r, hidden).transpose(1, 2)
    acts = [torch.clamp_min(first, 0.0, out=torch.empty(s, r, p, hidden, dtype=low, device=x.device))]
    for layer in trunk_low[1:]:
        acts.append((acts[-1] @ layer.mT).relu_())
    z = (acts[-1] @ head_low.mT).to(high)  # (S, R, P, K): the loss and the residual in the high precision
    y_runs = y.transpose(1, 2)
    per = _residual_(z, y_runs, weight.transpose(1, 2), loss)
    z_low = z.to(low)
    grad_head = (z_low.mT @ acts[-1]).to(high)
    back = z_low @ head_low
    grads = [None] * len(trunk)
    for i in range(len(trunk) - 1, 0, -1):
        back = torch.ops.aten.threshold_backward(back, acts[i], 0)
        grads[i] = (back.mT @ acts[i - 1]).to(high)
        back = back @ trunk_low[i]
    back = torch.ops.aten.threshold_backward(back, acts[0], 0)
    grads[0] = (back.mT @ x_low[:, None]).to(high)
    return per.sum(2), grads, grad_head


__all__ += ["ARITHMETICS", "MIXED_MATMUL_DTYPE"]


# ----------------------------------------------------------------------------------------
# specs of the batched trainers (draw_tasks, train_students; init_student takes GridStudents)
# ----------------------------------------------------------------------------------------


def _spec_form(func, flat, specs, new_form, *, shown=None, stacklevel=3):
    """The specs of a call in its deprecated flat form, with a ``DeprecationWarning`` that says the new form.

    ``specs`` maps each spec argument to ``(spec class, the spec the caller passed or None)``; every
    keyword of ``flat`` must be a field of one of them, and a spec is either passed or written out flat.
    ``shown``: the keywords the warning names (default: those of ``flat``); ``stacklevel``: that of the
    caller of the public function.
    """
    fields = {f: name for name, (cls, _) in specs.items() for f in cls.__dataclass_fields__}
    unknown = sorted(set(flat) - set(fields))
    if unknown:
        raise ValueError(f"{func}() got unknown keyword(s) {unknown}; allowed: the specs "
                         f"{', '.join(specs)} or (deprecated) their fields {', '.join(sorted(fields))}")
    out = {}
    for name, (cls, given) in specs.items():
        mine = {f: flat[f] for f in cls.__dataclass_fields__ if f in flat}
        if mine and given is not None:
            raise ValueError(f"pass {name} either as a {cls.__name__} or as the flat keywords {sorted(mine)} "
                             f"(deprecated), not both")
        out[name] = cls(**mine) if mine else given
    warnings.warn(f"{func}() with the flat keywords {sorted(flat) if shown is None else shown} is deprecated and "
                  f"will be removed in the next release: pass specs, {new_form}", DeprecationWarning,
                  stacklevel=stacklevel)
    return out


@dataclass(frozen=True)
class TeacherPair:
    """The teachers of tasks A and B and their labels' noise (:func:`draw_tasks`).

    Parameters
    ----------
    n_features : int
        Input dimension ``N`` (>= 2, and >= 2 * rank).
    rank : int
        Rank of each teacher (>= 1).
    n_classes : int, optional
        Classes ``K`` (>= 2, >= rank); ``None``: ``K = rank``, as inferred for the paper.
    noise_std : float, optional
        Standard deviation of the label noise on each logit (>= 0); ``None``: ``1/sqrt(N)``.
    """

    n_features: int = 20
    rank: int = 10
    n_classes: int | None = None
    noise_std: float | None = None

    def __post_init__(self):
        n_features = _checks.integer(self.n_features, "n_features", 2)
        rank = _checks.integer(self.rank, "rank", 1)
        n_classes = rank if self.n_classes is None else _checks.integer(self.n_classes, "n_classes", 2)
        if n_classes < 2:
            raise ValueError(f"n_classes must be >= 2 (default = rank); got {n_classes} (rank={rank})")
        if rank > n_classes or 2 * rank > n_features:
            raise ValueError(f"need rank <= n_classes and 2*rank <= n_features; got rank={rank}, "
                             f"n_classes={n_classes}, n_features={n_features}")
        if self.noise_std is not None:
            _checks.real(self.noise_std, "noise_std", extra=" or None")


def _optional_tensor(value, name):
    if value is not None and not isinstance(value, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor or None; got {type(value).__name__}")


@dataclass(frozen=True, eq=False)
class TrainingSets:
    """What the runs of :func:`train_students` train on beyond task A's pool: task B's data
    (multitask students) and the masks that pick each run's training set from the pools.

    Parameters
    ----------
    x_b, y_b : torch.Tensor, optional
        Task B's inputs ``(S, P_b, N)`` and labels ``(S, P_b, R)`` (``(S, P_b, R, K)`` targets for
        ``loss="mse"``); both or neither (``None``: single-task students).
    mask_a, mask_b : torch.Tensor, optional
        ``(S, P, R)``: 1 where an example of the pool belongs to a run's training set (different
        training-set sizes in one batch); ``None``: every example. ``mask_b`` needs ``x_b``.
    """

    x_b: torch.Tensor | None = None
    y_b: torch.Tensor | None = None
    mask_a: torch.Tensor | None = None
    mask_b: torch.Tensor | None = None

    def __post_init__(self):
        for name in ("x_b", "y_b", "mask_a", "mask_b"):
            _optional_tensor(getattr(self, name), name)
        if self.x_b is None and (self.y_b is not None or self.mask_b is not None):
            raise ValueError("x_b must be given with y_b or mask_b (the inputs of task B of multitask students)")
        if self.x_b is not None and self.y_b is None:
            raise ValueError("y_b must be given with x_b (task B's labels); got y_b=None")


@dataclass(frozen=True)
class TrainOptions:
    """How :func:`train_students` trains, beyond its schedule (:class:`GridSchedule`): the students'
    activation, minibatches, threads, what it keeps and how it shows progress.

    Parameters
    ----------
    activation : {"linear", "relu"}
        The trunk's nonlinearity.
    batch_size : int, optional
        ``None``: full-batch gradient descent. Otherwise SGD on minibatches of this size, drawn per
        group uniformly without replacement.
    batch_rng : int, SeedSequence, torch or numpy Generator, or None
        What the minibatches are drawn from (see :mod:`gendyn.seeding`); ``None``: fresh entropy.
        A generator is drawn from once per call of :func:`train_students` (every block of
        ``block`` runs then sees the same minibatches).
    num_threads : int, optional
        CPU threads during training (``None``: leave torch's setting).
    keep_composite, keep_trajectory : bool
        Keep task A's composite map at the early-stopping minimum (linear trunks), and at every
        evaluation (small batches only).
    progress : str, optional
        Label of a terminal progress bar.
    block : int, optional
        Train the runs in blocks of ``block`` runs per group (the same results up to float rounding).
    """

    activation: str = "linear"
    batch_size: int | None = None
    batch_rng: seeding.Rng = 0
    num_threads: int | None = 1
    keep_composite: bool = True
    keep_trajectory: bool = False
    progress: str | None = None
    block: int | None = None

    def __post_init__(self):
        _activation(self.activation)
        if self.batch_size is not None:
            _checks.integer(self.batch_size, "batch_size", 1)
        seeding.check(self.batch_rng, "batch_rng")
        if self.num_threads is not None:
            _checks.integer(self.num_threads, "num_threads", 1)
        _checks.flag(self.keep_composite, "keep_composite")
        _checks.flag(self.keep_trajectory, "keep_trajectory")
        _checks.text(self.progress, "progress", optional=True)
        if self.block is not None:
            _checks.integer(self.block, "block", 1)


__all__ += ["TeacherPair", "TrainingSets", "TrainOptions"]
