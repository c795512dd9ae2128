"""Lee & Ndirango's training protocol: interleaved minibatch SGD of a two-headed classifier.

Lee & Ndirango (2019) trained their students differently from the gradient flow their theory
describes (and that :func:`gendyn.multitask_train.train_students` integrates). Their public
trainer (repository ``tyler-nervana/mt-theory``, ``multitask/train.py``; read, not copied):

* **Network.** A shared trunk of ``depth`` fully connected layers of ``hidden`` units, each
  followed by a ReLU (none with ``activation="linear"``), and one linear head per task; every
  layer has a bias; every weight matrix starts orthogonal (``torch.nn.init.orthogonal_``), every
  bias uniform in ``+-1/sqrt(fan_in)`` (PyTorch's default for ``nn.Linear``).
* **Loss.** Softmax cross-entropy, the mean over a minibatch.
* **Steps.** Plain SGD with one learning rate for trunk and heads. Each epoch shuffles task A's
  training set into minibatches of ``batch_size`` (the last one smaller); after each task-A
  minibatch, head A and the trunk take one step, then ``P_B // P_A`` task-B minibatches each
  step head B and the trunk. Task B's minibatches come from a stream of shuffled passes over
  its training set that runs on across epochs. A single-task student takes only the task-A
  steps.
* **Records.** After every epoch, the cross-entropy and accuracy of head A on a validation set.

Here ``S`` such students train as one batched tensor program in lock-step (the same
``P_A``, ``P_B`` and ``batch_size``, so the same sequence of minibatch sizes), each with its own
data, parameters and shuffles. Student ``s``'s shuffles are drawn from named streams of
``seeds[s]`` alone (:mod:`gendyn.seeding`), so a student's result does not depend on which other
students share its batch (:func:`batch_schedule` gives them). Torch, any device.

**Data.** :func:`train_cells` draws, by default, independent teachers, training sets,
validation set and initial students for every seed, and each cell's training sets afresh at
its sizes. With ``data=AuthorsData(...)`` it follows instead the data protocol of the
authors' ``multitask/data.py`` and ``multitask/train.py`` (repository
``tyler-nervana/mt-theory``, Apache-2.0 licence, the source of the facts below) for one sweep,
whose ``--data_seed`` and ``--model_seed`` stay fixed while ``--train_seed`` (with
``--random_train``) varies:

* **One pool per task.** Each task's ``n_pool`` examples (``--nsamples``) are drawn once
  and shuffled. The first half of the shuffled pool is the training half, the second half the
  validation set (``--ntest``: by default all of it).
* **Nested training sets.** A run's training set is the first ``P`` examples of the training
  half after a permutation by its seed: one seed's training sets at different ``P`` are
  prefixes of each other, not fresh draws, and tasks A and B are permuted alike.
* **Shared across seeds.** The teachers, the pools, the validation set, the initial students
  and the minibatch shuffles; the seed only permutes the training half.
* **Half-clean labels** (``clean_validation``, the authors' ``--clean_validation``). The
  second half of each pool as drawn is labelled by the noise-free teacher *before* the
  shuffle, so about half of the training labels and half of the validation labels are clean.
* **Recorded value.** The authors' analysis helper (``multitask/jp_utils.py``, ``benefit``)
  takes the minimum over epochs of the per-epoch validation loss, not the last value:
  :attr:`CellRuns.multitask_min` and :attr:`CellRuns.single_task_min` (with
  ``record_every=1``).

The teachers and label law are those of :func:`gendyn.multitask_train.draw_tasks`, and the
draws come from this library's generators: the same law as the authors' draws (numpy's and
torch's global generators, float32), not the same numbers. Their validation loss is a mean of
per-minibatch means, this module's the mean over examples; their task-A and task-B minibatch
shuffles share one generator, here two streams. A training set larger than the training half,
which the authors' code truncates silently, is an error here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, _random, seeding
from .multitask_train import TeacherPair

__all__ = ["ACTIVATIONS", "InterleavedResult", "CellRuns", "orthogonal_students", "batch_schedule", "train_interleaved",
           "train_cells"]
__all__ += ["AuthorsData", "AuthorsPools", "authors_pools"]

#: Trunk nonlinearities.
ACTIVATIONS = ("relu", "linear")

#: Default trunk depth (hidden layers) of the students; ``n_layers`` was its old name (one release).
_DEPTH = _checks.Default(2)


def _depth(depth, n_layers):
    return _checks.renamed(depth, n_layers, "depth", "n_layers", default=_DEPTH, stacklevel=4,
                           check=lambda value, name: _checks.integer(value, name, 1, " (trunk layers)"))


@dataclass(frozen=True)
class InterleavedResult:
    """Records of :func:`train_interleaved` (numpy arrays) and the final parameters.

    Attributes
    ----------
    epochs : ndarray, shape (E,)
        Epochs after which the validation set was scored (0: before training).
    val_loss, val_acc : ndarray, shape (S, E)
        Head A's mean cross-entropy and accuracy on each student's validation set.
    train_loss : ndarray, shape (S, epochs)
        Mean of head A's minibatch losses over each epoch (as the authors' ``training-1/loss``).
    params : tuple of torch.Tensor
        Final parameters, in the layout of :func:`orthogonal_students`.
    """

    epochs: np.ndarray
    val_loss: np.ndarray
    val_acc: np.ndarray
    train_loss: np.ndarray
    params: tuple


def _stream_generator(rng, stream):
    """The CPU generator of the named stream ``stream`` of ``rng`` (:func:`gendyn.seeding.stream`): independent
    streams per seed and purpose (``"shuffles_a"``, ``"shuffles_b"``, ``"noise_val"``, ``"init"``,
    ``"pool_shuffles"``, ``"train_rows"``)."""
    return seeding.torch_generator(seeding.stream(rng, stream))


def orthogonal_students(n_students: int, n_features: int, n_classes: int, *, trunk: Trunk | None = None,
                        heads: int = 2, rng: seeding.Rng = None, dtype: torch.dtype = torch.float64,
                        device: str | torch.device = "cpu", **flat: object) -> tuple[torch.Tensor, ...]:
    """Initial parameters of ``S`` students as the authors' trainer draws them.

    Parameters
    ----------
    n_students : int
        ``S``.
    n_features, n_classes : int
        Inputs ``N`` and classes ``K`` per head.
    trunk : Trunk, optional
        Width and depth of the trunk (hidden layers); ``None``: ``Trunk()``.
    heads : int
        1 (single-task) or 2 (tasks A and B).
    rng : int, SeedSequence, torch or numpy Generator, or None
        What the weights and biases are drawn from (an integer seeds a CPU ``torch.Generator``);
        ``None``: fresh entropy, not torch's global generator (see :mod:`gendyn.seeding`).
    dtype, device
        Of the returned tensors.
    **flat
        Deprecated: ``generator`` (now ``rng``); ``hidden`` and ``depth`` (or its old name ``n_layers``) as
        keywords, accepted for one more release with a ``DeprecationWarning``; passing ``depth`` and
        ``n_layers`` is an error.

    Returns
    -------
    tuple of torch.Tensor
        ``(W_1, b_1, ..., W_L, b_L, W_A, b_A[, W_B, b_B])`` with ``W`` of shape
        ``(S, fan_out, fan_in)`` (orthonormal rows or columns, whichever are fewer) and ``b`` of
        shape ``(S, fan_out)``, uniform in ``+-1/sqrt(fan_in)``.
    """
    rng = seeding.former_rng(rng, flat, "orthogonal_students")
    if flat:
        shown = sorted(flat)
        if "n_layers" in flat:
            flat["depth"] = _depth(flat.pop("depth", _DEPTH), flat.pop("n_layers"))
        trunk = _flat_specs("orthogonal_students", flat, dict(trunk=(Trunk, trunk)),
                            "orthogonal_students(n_students, n_features, n_classes, trunk=Trunk(hidden=..., "
                            "depth=...))", shown=shown)["trunk"]
    trunk = Trunk() if trunk is None else _checks.instance(trunk, "trunk", Trunk)
    n_students = _checks.integer(n_students, "n_students", 1, " (number of students)")
    n_features = _checks.integer(n_features, "n_features", 1)
    n_classes = _checks.integer(n_classes, "n_classes", 2)
    hidden = _checks.integer(trunk.hidden, "hidden", 1)
    depth = _checks.integer(trunk.depth, "depth", 1, " (trunk layers)")
    heads = _checks.integer(heads, "heads", 1, " (1: task A only, 2: tasks A and B)")
    if heads > 2:
        raise ValueError(f"heads must be 1 (task A only) or 2 (tasks A and B); got {heads}")
    dtype = _checks.torch_dtype(dtype)
    device = _checks.torch_device(device)
    generator = seeding.torch_generator(rng)
    shapes = [(hidden, n_features)] + [(hidden, hidden)] * (depth - 1) + [(n_classes, hidden)] * heads
    params = []
    for fan_out, fan_in in shapes:
        if fan_out >= fan_in:
            w = _random.orthonormal(fan_out, fan_in, (n_students,), generator, "cpu", torch.float64)
        else:
            w = _random.orthonormal(fan_in, fan_out, (n_students,), generator, "cpu", torch.float64).mT
        bound = 1.0 / math.sqrt(fan_in)
        b = (2.0 * _random.rand(n_students, fan_out, generator=generator) - 1.0) * bound
        params += [w.to(device=device, dtype=dtype).contiguous(), b.to(device=device, dtype=dtype)]
    return tuple(params)


def batch_schedule(n_train_a: int, n_train_b: int, batch_size: int, epochs: int,
                   rng: seeding.Rng = None, **former: object) -> list[list[tuple[str, torch.Tensor]]]:
    """Minibatches of one student, in the order the protocol uses them.

    Parameters
    ----------
    n_train_a, n_train_b : int
        Training-set sizes ``P_A`` and ``P_B`` (``n_train_b = 0``: a single-task student).
    batch_size, epochs : int
    rng : int, SeedSequence, torch or numpy Generator, or None
        The student's seed: its task-A and task-B shuffles are drawn from its streams
        ``"shuffles_a"`` and ``"shuffles_b"`` and depend on nothing else; ``None``: fresh entropy
        (see :mod:`gendyn.seeding`).

    Returns
    -------
    list of list of (str, torch.Tensor)
        For each epoch, the steps in order: ``("A", indices)`` of a task-A minibatch, each
        followed by ``P_B // P_A`` steps ``("B", indices)``.
    """
    rng = seeding.former_rng(rng, former, "batch_schedule", alone=True)
    n_train_a = _checks.integer(n_train_a, "n_train_a", 1)
    n_train_b = _checks.integer(n_train_b, "n_train_b", 0)
    batch_size = _checks.integer(batch_size, "batch_size", 1)
    epochs = _checks.integer(epochs, "epochs", 1)
    n_steps = float(epochs) * (-(-n_train_a // batch_size)) * (1 + n_train_b // n_train_a)
    # a Python list of index tensors: ~ 8 bytes per index and ~ 200 per step
    _checks.work_limit(100.0 * epochs * (n_train_a + n_train_b),
                       f"epochs={epochs} with n_train_a={n_train_a}, n_train_b={n_train_b}",
                       memory=8.0 * epochs * (n_train_a + n_train_b) + 200.0 * n_steps, iterations=n_steps)
    gen_a, gen_b = (seeding.torch_generator(s) for s in seeding.streams(rng, "shuffles_a", "shuffles_b"))
    per_a = n_train_b // n_train_a
    stream_b = []
    schedule = []
    for _ in range(epochs):
        steps = []
        for idx in _random.randperm(n_train_a, gen_a).split(batch_size):
            steps.append(("A", idx))
            for _ in range(per_a):
                if not stream_b:  # a new shuffled pass over task B
                    stream_b = list(_random.randperm(n_train_b, gen_b).split(batch_size))
                steps.append(("B", stream_b.pop(0)))
        schedule.append(steps)
    return schedule


def _forward(params, x, depth, head, relu):
    h = x
    for i in range(depth):
        h = torch.baddbmm(params[2 * i + 1].unsqueeze(1), h, params[2 * i].mT)
        if relu:
            h = torch.relu(h)
    w, b = params[2 * (depth + head)], params[2 * (depth + head) + 1]
    return torch.baddbmm(b.unsqueeze(1), h, w.mT)


def _cross_entropy(logits, labels):
    """Mean cross-entropy of each student, shape (S,)."""
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, labels.unsqueeze(-1)).squeeze(-1).mean(-1)


def _check_task(x, y, name, s, n):
    x = _checks.tensor(x, f"x_{name}", 3, finite=True)
    _checks.instance(y, f"y_{name}", torch.Tensor)
    if x.shape[0] != s or x.shape[2] != n:
        raise ValueError(f"x_{name} must have shape ({s}, P, {n}); got {tuple(x.shape)}")
    if y.shape != x.shape[:2] or y.dtype != torch.int64:
        raise ValueError(f"y_{name} must be int64 labels of shape {tuple(x.shape[:2])}; got {y.dtype} "
                         f"{tuple(y.shape)}")
    return x, y


def train_interleaved(params: Sequence[torch.Tensor], x_a: torch.Tensor, y_a: torch.Tensor, x_val: torch.Tensor,
                      y_val: torch.Tensor, *, seeds: Sequence[int],
                      task_b: tuple[torch.Tensor, torch.Tensor] | None = None, schedule: SGDSchedule | None = None,
                      **flat: object) -> InterleavedResult:
    """Train ``S`` students by the authors' interleaved minibatch SGD (module docstring).

    Parameters
    ----------
    params : sequence of torch.Tensor
        Initial parameters (copied), as :func:`orthogonal_students` returns them; with
        ``task_b`` they must include head B.
    x_a, y_a : torch.Tensor, shapes (S, P_A, N) and (S, P_A) int64
        Task A's training inputs and (noisy) labels of each student.
    x_val, y_val : torch.Tensor, shapes (S, V, N) and (S, V) int64
        Task A's validation set of each student.
    seeds : sequence of int
        One integer ``rng`` per student: the seed of its shuffles (:func:`batch_schedule`).
    task_b : (x_b, y_b) pair of torch.Tensor, optional
        Task B's training set ``(S, P_B, N)``, ``(S, P_B)``; ``None`` for single-task students.
    schedule : SGDSchedule, optional
        Learning rate, epochs, minibatch size, the trunk's activation and the records;
        ``None``: ``SGDSchedule()``.
    **flat
        Deprecated: ``x_b``, ``y_b`` and the fields of :class:`SGDSchedule` as keywords, accepted for
        one more release with a ``DeprecationWarning``.

    Returns
    -------
    InterleavedResult
    """
    if flat:
        pair = {k: flat.pop(k) for k in ("x_b", "y_b") if k in flat}
        if pair and task_b is not None:
            raise ValueError(f"pass task B either as task_b or as the flat keywords {sorted(pair)} (deprecated), "
                             f"not both")
        if pair and "x_b" not in pair:
            raise ValueError("y_b needs x_b (task B's inputs)")
        task_b = (pair["x_b"], pair.get("y_b")) if pair else task_b
        schedule = _flat_specs("train_interleaved", flat, dict(schedule=(SGDSchedule, schedule)),
                               "train_interleaved(params, x_a, y_a, x_val, y_val, seeds=..., task_b=(x_b, y_b), "
                               "schedule=SGDSchedule(lr=..., epochs=...))",
                               shown=sorted(pair) + sorted(flat))["schedule"]
    schedule = SGDSchedule() if schedule is None else _checks.instance(schedule, "schedule", SGDSchedule)
    if task_b is not None and not (isinstance(task_b, (tuple, list)) and len(task_b) == 2):
        raise ValueError(f"task_b must be a pair (x_b, y_b) of task B's inputs and labels, or None; got "
                         f"{_checks._show(task_b)}")
    x_b, y_b = (None, None) if task_b is None else task_b
    lr, epochs, batch_size = schedule.lr, schedule.epochs, schedule.batch_size
    activation, record_every = schedule.activation, schedule.record_every
    x_a = _checks.tensor(x_a, "x_a", 3, finite=True)
    s, p_a, n = x_a.shape
    x_a, y_a = _check_task(x_a, y_a, "a", s, n)
    x_val, y_val = _check_task(x_val, y_val, "val", s, n)
    multitask = x_b is not None
    if multitask:
        x_b, y_b = _check_task(x_b, y_b, "b", s, n)
    elif y_b is not None:
        raise ValueError("y_b needs x_b (task B's inputs)")
    seeds = _checks.integers(seeds, "seeds", 0)
    if len(seeds) != s:
        raise ValueError(f"seeds must hold one seed per student ({s}); got {len(seeds)}")
    lr = _checks.positive(lr, "lr")
    epochs = _checks.integer(epochs, "epochs", 1)
    batch_size = _checks.integer(batch_size, "batch_size", 1)
    relu = _checks.choice(activation, "activation", ACTIVATIONS) == "relu"
    record_every = _checks.integer(record_every, "record_every", 1)
    try:
        params = [p.detach().clone() for p in params]
    except (TypeError, AttributeError):
        raise ValueError("params must be a sequence of torch tensors (see orthogonal_students)") from None
    n_heads = 2 if multitask else 1
    depth = (len(params) - 2 * n_heads) // 2
    if len(params) % 2 or depth < 1:
        raise ValueError(f"params must hold (W, b) of each trunk layer and of {n_heads} head(s); got "
                         f"{len(params)} tensors")
    hidden = params[0].shape[-2] if params[0].ndim == 3 else -1
    trunk_ok = all(w.ndim == 3 and w.shape[-2] == hidden for w in params[0 : 2 * depth : 2])
    heads_ok = all(w.ndim == 3 and w.shape[-1] == hidden and w.shape == params[2 * depth].shape
                   for w in params[2 * depth :: 2])
    if not (trunk_ok and heads_ok):
        raise ValueError(f"params must hold (W, b) of each trunk layer and of {n_heads} head(s) "
                         f"({'multitask students, x_b given, need head B' if multitask else 'single-task students have head A only'}); "
                         f"got shapes {[tuple(p.shape) for p in params]}")
    device, dtype = x_a.device, x_a.dtype
    params = [p.to(device=device, dtype=dtype).requires_grad_(True) for p in params]
    if any(p.shape[0] != s for p in params) or params[0].shape[-1] != n:
        raise ValueError(f"params must be batched over the {s} students with {n} input features")
    p_b = x_b.shape[1] if multitask else 0
    n_params = sum(p[0].numel() for p in params)
    _checks.work_limit(6.0 * s * epochs * (p_a + p_b) * n_params,
                       f"epochs={epochs} with {s} students of {n_params} parameters on {p_a} + {p_b} examples")
    schedules = [batch_schedule(p_a, p_b, batch_size, epochs, seed) for seed in seeds]
    rows = torch.arange(s, device=device)[:, None]
    trunk = list(range(2 * depth))
    head_of = {"A": [2 * depth, 2 * depth + 1], "B": [2 * depth + 2, 2 * depth + 3]}
    data = {"A": (x_a, y_a), "B": (x_b, y_b)}

    def validate():
        with torch.no_grad():
            logits = _forward(params, x_val, depth, 0, relu)
            loss = _cross_entropy(logits, y_val)
            acc = (logits.argmax(-1) == y_val).to(dtype).mean(-1)
        return loss.cpu().numpy(), acc.cpu().numpy()

    record_epochs, val_loss, val_acc = [0], [], []
    loss0, acc0 = validate()
    val_loss.append(loss0)
    val_acc.append(acc0)
    train_loss = np.zeros((s, epochs))
    for epoch in range(epochs):
        steps = zip(*(schedule[epoch] for schedule in schedules))
        count = 0
        for step in steps:
            task = step[0][0]
            idx = torch.stack([i for _, i in step]).to(device)  # (S, batch): same size for all
            x, y = data[task]
            loss = _cross_entropy(_forward(params, x[rows, idx], depth, 0 if task == "A" else 1, relu), y[rows, idx])
            moving = [params[i] for i in trunk + head_of[task]]
            grads = torch.autograd.grad(loss.sum(), moving)
            with torch.no_grad():
                for p, g in zip(moving, grads):
                    p.sub_(lr * g)
            if task == "A":
                train_loss[:, epoch] += loss.detach().cpu().numpy()
                count += 1
        train_loss[:, epoch] /= count
        if (epoch + 1) % record_every == 0 or epoch + 1 == epochs:
            loss_e, acc_e = validate()
            record_epochs.append(epoch + 1)
            val_loss.append(loss_e)
            val_acc.append(acc_e)
    if not np.all(np.isfinite(val_loss)):
        raise FloatingPointError("the validation loss is not finite: the learning rate is too large for "
                                 "these students")
    return InterleavedResult(np.array(record_epochs), np.stack(val_loss, 1), np.stack(val_acc, 1), train_loss,
                             tuple(p.detach() for p in params))


@dataclass(frozen=True)
class CellRuns:
    """Validation curves of grid cells trained by :func:`train_cells`.

    Attributes
    ----------
    cells : tuple of dict
        The cells as given (keys ``n_train_a``, ``n_train_b``, ``s_a``, ``s_b``, ``relatedness``).
    seeds : tuple of int
    epochs : ndarray, shape (E,)
        Epochs after which task A's validation set was scored (0: before training).
    multitask : ndarray, shape (C, S, E)
        Task A's validation loss of the two-headed student of each cell and seed (NaN for a
        single-task cell, ``n_train_b = 0``).
    single_task : ndarray, shape (C, S, E)
        Task A's validation loss of the single-task student with the same task-A data, initial
        trunk and head A, and task-A minibatches (the paired baseline).
    data : AuthorsData or None
        The authors' data protocol the runs followed (``train_cells(data=...)``), or ``None``: independent
        draws per seed. With a protocol, the seeds are the authors' train seeds of *one* draw of teachers,
        pools, validation set and initial students, so a spread over them is conditional on that draw.
    """

    cells: tuple
    seeds: tuple
    epochs: np.ndarray
    multitask: np.ndarray
    single_task: np.ndarray
    data: AuthorsData | None = None

    @property
    def multitask_min(self) -> np.ndarray:
        """Minimum of each run's :attr:`multitask` curve over the epochs scored after training began
        (epoch 0 left out), shape ``(C, S)``; NaN for a single-task cell.

        The value the authors recorded (the minimum over epochs of the per-epoch validation loss,
        module docstring) only when every epoch is scored
        (``train_cells(schedule=SGDSchedule(record_every=1))``); with ``record_every=k`` it is the
        minimum over every ``k``-th epoch, an upper bound of it.
        """
        return self.multitask[..., self.epochs >= 1].min(-1)

    @property
    def single_task_min(self) -> np.ndarray:
        """Minimum of each run's :attr:`single_task` curve over the epochs scored after training began
        (epoch 0 left out), shape ``(C, S)``, as :attr:`multitask_min`."""
        return self.single_task[..., self.epochs >= 1].min(-1)

    @classmethod
    def join(cls, parts: Iterable[CellRuns]) -> CellRuns:
        """The runs of the same cells for different seeds (e.g. one job per seed), seeds side by side."""
        parts = list(parts)
        if not parts or any(not isinstance(p, cls) for p in parts):
            raise ValueError("parts must be a non-empty sequence of CellRuns")
        if any(p.cells != parts[0].cells or not np.array_equal(p.epochs, parts[0].epochs) or p.data != parts[0].data
               for p in parts):
            raise ValueError("parts must hold the same cells, record epochs and data protocol (they differ in seeds "
                             "only)")
        return cls(parts[0].cells, tuple(s for p in parts for s in p.seeds), parts[0].epochs,
                   np.concatenate([p.multitask for p in parts], 1), np.concatenate([p.single_task for p in parts], 1),
                   parts[0].data)


_CELL_KEYS = ("n_train_a", "s_a", "n_train_b", "s_b", "relatedness")


def _cell(cell, i):
    """``(P_A, P_B, s_a, s_b, r)`` of ``cells[i]`` (``P_B = 0``: a single-task cell)."""
    what = (f"cells[{i}] must be a dict with n_train_a and s_a, and for a multitask cell also n_train_b >= 1, s_b "
            f"and relatedness")
    if not isinstance(cell, dict):
        raise ValueError(f"{what}; got {type(cell).__name__}")
    unknown = sorted(set(cell) - set(_CELL_KEYS))
    if unknown or "n_train_a" not in cell or "s_a" not in cell:
        raise ValueError(f"{what}; got {cell!r}" + (f" (unknown keys {unknown})" if unknown else ""))
    p_a = _checks.integer(cell["n_train_a"], f"cells[{i}]['n_train_a']", 1)
    p_b = _checks.integer(cell.get("n_train_b", 0), f"cells[{i}]['n_train_b']", 0)
    s_a = _checks.real(cell["s_a"], f"cells[{i}]['s_a']")
    if p_b == 0:
        if "s_b" in cell or "relatedness" in cell:
            raise ValueError(f"{what}: s_b and relatedness need n_train_b >= 1; got {cell!r}")
        s_b, r = 0.0, 0.0
    else:
        if "s_b" not in cell or "relatedness" not in cell:
            raise ValueError(f"{what}; got {cell!r}")
        s_b = _checks.real(cell["s_b"], f"cells[{i}]['s_b']")
        r = _checks.bounded(cell["relatedness"], f"cells[{i}]['relatedness']", 0.0, 1.0)
    if min(s_a, s_b) < 0:
        raise ValueError(f"cells[{i}]: the SNRs s_a and s_b must be >= 0; got {cell!r}")
    return p_a, p_b, s_a, s_b, r


def _cell_runs(cells, parsed, seeds, train_single, train_multi, data=None):
    """The :class:`CellRuns` of :func:`train_cells`, whichever data protocol: one batch of single-task students per
    task-A size (``train_single(p_a, snrs)``), one of multitask students per pair of sizes
    (``train_multi(p_a, p_b, members)``), each batch ordered student ``j * S + seed``."""
    n_seeds = len(seeds)
    single, multi, record = {}, {}, None
    for p_a in sorted({c[0] for c in parsed}):
        snrs = sorted({c[2] for c in parsed if c[0] == p_a})
        res = train_single(p_a, snrs)
        record = res.epochs
        for j, s_a in enumerate(snrs):
            single[p_a, s_a] = res.val_loss[j * n_seeds:(j + 1) * n_seeds]
    groups = {}
    for i, c in enumerate(parsed):
        if c[1]:
            groups.setdefault(c[:2], []).append(i)
    for (p_a, p_b), members in sorted(groups.items()):
        res = train_multi(p_a, p_b, members)
        for j, i in enumerate(members):
            multi[i] = res.val_loss[j * n_seeds:(j + 1) * n_seeds]
    blank = np.full((n_seeds, len(record)), np.nan)
    return CellRuns(tuple(dict(c) for c in cells), tuple(seeds), record,
                    np.stack([multi.get(i, blank) for i in range(len(parsed))]),
                    np.stack([single[c[0], c[2]] for c in parsed]), data)


def train_cells(cells: Sequence[dict[str, float]], seeds: Sequence[int], *, teachers: TeacherPair | None = None,
                n_val: int | None = None, trunk: Trunk | None = None, schedule: SGDSchedule | None = None,
                data: AuthorsData | None = None, execution: Execution | None = None, **flat: object) -> CellRuns:
    """Multitask students and their single-task baselines of grid cells, by the authors' protocol.

    For each seed, the teachers and validation inputs of
    :func:`gendyn.multitask_train.draw_tasks` serve every cell, and each cell's training sets
    are drawn at its own sizes, so a cell's numbers depend only on the cell and the seed (not on
    the other cells of the call). Task A's validation labels are noisy, as in the authors'
    default (``argmax(s_a z + noise)`` with noise of the training labels' law, drawn once per
    seed).
    Students of one seed start from the same trunk and heads and take the same task-A
    minibatches, so the benefit ``single_task - multitask`` is a paired difference. With
    ``data`` (an :class:`AuthorsData`), the data follow the authors' protocol instead: one pool
    per task for all seeds and cells, which the seeds only permute (module docstring). The
    multitask students of equal sizes train as one batch, and each single-task student
    (one per ``n_train_a``, ``s_a`` and seed) once (:func:`train_interleaved`).

    Parameters
    ----------
    cells : sequence of dict
        Each with ``n_train_a`` and ``s_a``; a multitask cell also ``n_train_b >= 1``, ``s_b``
        and ``relatedness`` (without them, or with ``n_train_b = 0``, a single-task cell).
    seeds : sequence of int
        One integer ``rng`` per run (see :mod:`gendyn.seeding`): its teachers, data, validation noise and
        initial students come from its named streams.
    teachers : gendyn.multitask_train.TeacherPair, optional
        ``N``, the teachers' rank, ``K`` and the label noise (:func:`gendyn.multitask_train.draw_tasks`);
        ``None``: ``TeacherPair()``. With ``data``, its ``noise_std`` must be ``None`` (the default noise).
    n_val : int, optional
        Validation examples of task A: 1000 by default. With ``data``, the first ``n_val`` of the
        pool's second half (the authors' ``--ntest``; at most and by default ``data.n_pool // 2``).
    trunk : Trunk, optional
        The students' trunk (:func:`orthogonal_students`); ``None``: ``Trunk()``.
    schedule : SGDSchedule, optional
        As in :func:`train_interleaved`; ``None``: ``SGDSchedule(record_every=10)``.
    data : AuthorsData, optional
        ``None`` (default): independent draws per seed, as above. An :class:`AuthorsData`: the
        authors' data protocol (:func:`authors_pools`), in which ``seeds`` play the role of the
        authors' ``--train_seed`` and every cell's ``n_train_a`` and ``n_train_b`` must be at most
        ``data.n_pool // 2``.
    execution : Execution, optional
        The precision, the device and an executor that runs each seed as its own job; ``None``:
        ``Execution()`` (float64 on the CPU, no executor).
    **flat
        Deprecated: the fields of the specs as keywords (``n_features``, ``rank``, ``n_classes``;
        ``hidden``, ``depth`` or its old name ``n_layers``; ``activation``, ``lr``, ``epochs``,
        ``batch_size``, ``record_every``; ``dtype``, ``device``, ``executor``), accepted for one more
        release with a ``DeprecationWarning``.

    Returns
    -------
    CellRuns
    """
    from .multitask_train import draw_tasks  # the teachers and data of the full-batch grids

    if flat:
        shown = sorted(flat)
        if "n_layers" in flat:
            flat["depth"] = _depth(flat.pop("depth", _DEPTH), flat.pop("n_layers"))
        if any(f in flat for f in SGDSchedule.__dataclass_fields__):
            flat.setdefault("record_every", 10)  # train_cells' default records
        specs = _flat_specs("train_cells", flat, dict(teachers=(TeacherPair, teachers), trunk=(Trunk, trunk),
                                                      schedule=(SGDSchedule, schedule),
                                                      execution=(Execution, execution)),
                            "train_cells(cells, seeds, teachers=TeacherPair(...), trunk=Trunk(...), "
                            "schedule=SGDSchedule(...), execution=Execution(...))", shown=shown)
        teachers, trunk, schedule, execution = (specs[k] for k in ("teachers", "trunk", "schedule", "execution"))
    teachers = TeacherPair() if teachers is None else _checks.instance(teachers, "teachers", TeacherPair)
    trunk = Trunk() if trunk is None else _checks.instance(trunk, "trunk", Trunk)
    schedule = SGDSchedule(record_every=10) if schedule is None else _checks.instance(schedule, "schedule",
                                                                                      SGDSchedule)
    execution = Execution() if execution is None else _checks.instance(execution, "execution", Execution)
    n_features, rank, n_classes = teachers.n_features, teachers.rank, teachers.n_classes
    epochs = schedule.epochs
    dtype, device, executor = execution.dtype, execution.device, execution.executor
    if isinstance(cells, dict) or not hasattr(cells, "__len__") or len(cells) == 0:
        raise ValueError(f"cells must be a non-empty sequence of dicts (one per grid cell); got {cells!r}")
    parsed = [_cell(c, i) for i, c in enumerate(cells)]
    seeds = _checks.integers(seeds, "seeds", 0)
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct (each is a run of its own); got {list(seeds)}")
    n_val = (1000 if data is None else None) if n_val is None else _checks.integer(n_val, "n_val", 1)
    if data is not None:
        _check_authors_sizes(data, parsed, n_val)
        if teachers.noise_std is not None:
            raise ValueError(f"teachers.noise_std must be None with data (the authors' protocol draws the default "
                             f"label noise); got {teachers.noise_std!r}")
    # at least one step per epoch, seed and cell: refused here, before any data are drawn
    _checks.work_limit(0.0, f"epochs={epochs} with {len(seeds)} seeds and {len(parsed)} cells",
                       iterations=float(_checks.integer(epochs, "epochs", 1)) * len(parsed))
    if executor is not None:
        if not callable(getattr(executor, "submit", None)):
            raise ValueError(f"executor must be a concurrent.futures.Executor (an object with submit) or None; "
                             f"got {type(executor).__name__}")
        options = dict(teachers=teachers, n_val=n_val, trunk=trunk, schedule=schedule, data=data,
                       execution=replace(execution, executor=None))
        jobs = [executor.submit(train_cells, [dict(c) for c in cells], [seed], **options) for seed in seeds]
        return CellRuns.join(job.result() for job in jobs)
    if data is not None:
        return _authors_cells(cells, parsed, seeds, data, n_features=n_features, rank=rank, n_classes=n_classes,
                              trunk=trunk, n_val=n_val, schedule=schedule, dtype=dtype, device=device)

    def tasks(p_a, p_b):
        # drawn at the cell's own sizes: a pool's first rows would depend on the largest size asked for
        return draw_tasks(seeds, n_train_a=p_a, n_train_b=p_b, n_val=n_val, teachers=teachers, dtype=dtype,
                          device=device)

    base = tasks(1, 0)  # teachers and validation inputs do not depend on the sizes
    k, n_seeds = base.n_classes, len(seeds)
    noise_val = torch.stack([base.noise_std * _random.randn(n_val, k, generator=_stream_generator(seed, "noise_val"),
                                                            dtype=dtype, device=device) for seed in seeds])
    z_val = base.x_val @ base.teacher_a.mT  # (S, V, K) at unit SNR
    init = [orthogonal_students(1, n_features, k, trunk=trunk, heads=2, rng=seeding.stream(seed, "init"),
                                dtype=dtype, device=device)
            for seed in seeds]
    init = [torch.cat(parts) for parts in zip(*init)]  # (S, ...) per tensor
    common = dict(schedule=schedule)

    def copies(t, m):  # m copies of each seed's tensor, copies outermost: student j * S + seed
        return t.repeat(m, *([1] * (t.ndim - 1)))

    def runs_outermost(y):  # (S, P, R) labels in the same student order
        return y.permute(2, 0, 1).reshape(-1, y.shape[1])

    def task_a(data, snrs):
        s = torch.tensor(snrs, dtype=dtype, device=device).repeat_interleave(n_seeds)[:, None, None]
        y_val = (s * copies(z_val, len(snrs)) + copies(noise_val, len(snrs))).argmax(-1)  # noisy, as the authors'
        return copies(data.x_a, len(snrs)), runs_outermost(data.labels_a(snrs)), copies(base.x_val, len(snrs)), y_val

    def train_single(p_a, snrs):
        return train_interleaved([copies(p, len(snrs)) for p in init[:-2]], *task_a(tasks(p_a, 0), snrs),
                                 seeds=list(seeds) * len(snrs), **common)

    def train_multi(p_a, p_b, members):
        data = tasks(p_a, p_b)
        y_b = runs_outermost(data.labels_b([parsed[i][3] for i in members], [parsed[i][4] for i in members]))
        return train_interleaved([copies(p, len(members)) for p in init],
                                 *task_a(data, [parsed[i][2] for i in members]),
                                 task_b=(copies(data.x_b, len(members)), y_b), seeds=list(seeds) * len(members),
                                 **common)

    return _cell_runs(cells, parsed, seeds, train_single, train_multi)


# ----------------------------------------------------------------------------------------
# the authors' data protocol: train_cells(data=AuthorsData(...))
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuthorsData:
    """The authors' data protocol for :func:`train_cells` (``data=``): one pool per task for a sweep.

    Parameters
    ----------
    n_pool : int
        Examples drawn per task (the authors' ``--nsamples``, ``>= 2``): the first
        ``n_pool // 2`` of the shuffled pool are the training half, the next ``n_pool // 2``
        the validation half.
    clean_validation : bool
        The authors' ``--clean_validation``: the second half of each pool *as drawn* is labelled
        by the noise-free teacher, before the shuffle, so that about half of the training labels
        and half of the validation labels are clean (the validation set is not all clean).
    data_seed : int
        Seed of the teachers, the pools, their label noise and their shuffles (``--data_seed``),
        shared by every seed and cell of the sweep; an integer ``rng`` whose named streams draw them
        (:mod:`gendyn.seeding`).
    model_seed : int
        Seed of the initial students and of their minibatch shuffles (``--model_seed``), shared
        likewise; an integer ``rng`` (streams ``"init"``, ``"shuffles_a"``, ``"shuffles_b"``).
    """

    n_pool: int
    clean_validation: bool = False
    data_seed: int = 0
    model_seed: int = 0

    def __post_init__(self):
        _checks.integer(self.n_pool, "n_pool", 2, " (examples per task: a training and a validation half)")
        _checks.flag(self.clean_validation, "clean_validation")
        _checks.integer(self.data_seed, "data_seed", 0)
        _checks.integer(self.model_seed, "model_seed", 0)


@dataclass(frozen=True)
class AuthorsPools:
    """One sweep's pools of tasks A and B, drawn and shuffled by :func:`authors_pools`.

    Positions (``rows``) count in the *shuffled* pool: its first :attr:`n_half` positions are
    the training half, the next :attr:`n_half` the validation half (:attr:`validation_rows`;
    the last example of an odd pool is in neither, as in the authors' code).

    Attributes
    ----------
    data : AuthorsData
    tasks : gendyn.multitask_train.TaskBatch
        The teachers and, in the order drawn, the ``n_pool`` inputs and label noise of each task
        (one group, of seed ``data.data_seed``; its one validation input is not used).
    order_a, order_b : torch.Tensor, shape (n_pool,), int64
        The shuffles: position ``i`` of a shuffled pool holds example ``order[i]`` as drawn.
    clean_a, clean_b : torch.Tensor, shape (n_pool,), bool
        By position: labelled by the noise-free teacher (examples ``>= n_pool // 2`` as drawn
        with ``data.clean_validation``, else none).
    """

    data: AuthorsData
    tasks: object  # multitask_train.TaskBatch (imported where used: the module imports lazily)
    order_a: torch.Tensor
    order_b: torch.Tensor
    clean_a: torch.Tensor
    clean_b: torch.Tensor

    @property
    def n_half(self) -> int:
        """Size of the training half and of the validation half, ``n_pool // 2``."""
        return self.data.n_pool // 2

    @property
    def x_a(self) -> torch.Tensor:
        """Task A's inputs by position, shape ``(n_pool, N)``."""
        return self.tasks.x_a[0, self.order_a]

    @property
    def x_b(self) -> torch.Tensor:
        """Task B's inputs by position, shape ``(n_pool, N)``."""
        return self.tasks.x_b[0, self.order_b]

    @property
    def validation_rows(self) -> torch.Tensor:
        """Positions of the validation half, ``n_half, ..., 2 n_half - 1`` (int64)."""
        return torch.arange(self.n_half, 2 * self.n_half, device=self.order_a.device)

    def training_rows(self, rng: seeding.Rng = None, **former: object) -> torch.Tensor:
        """Positions of the training half in the order that ``rng`` (the authors' ``--train_seed``
        with ``--random_train``: an int, SeedSequence, torch or numpy Generator, or None for fresh
        entropy; its stream ``"train_rows"``, see :mod:`gendyn.seeding`) permutes them, shape
        ``(n_half,)`` int64: a run's training set of ``P`` examples is the first ``P``, so one seed's
        training sets are nested. Tasks A and B use the same permutation, as in the authors' code."""
        rng = seeding.former_rng(rng, former, "AuthorsPools.training_rows", alone=True)
        return _random.randperm(self.n_half, _stream_generator(rng, "train_rows"), self.order_a.device)

    def labels_a(self, s_a: ArrayLike) -> torch.Tensor:
        """Task A's labels by position for SNRs ``s_a`` (length R), shape ``(R, n_pool)`` int64:
        ``argmax(s_a z + noise)``, or ``argmax(s_a z)`` at the clean positions. At ``s_a = 0`` the clean
        labels are all class 0 (the first index of a tie, as an argmax of zero logits gives in the
        authors' code too), so a clean validation set is then a single class."""
        noisy = self.tasks.labels_a(s_a)[0].mT  # (R, n_pool) as drawn; checks s_a
        clean = self.tasks.labels_a(s_a, noise=False)[0].mT
        return torch.where(self.clean_a, clean[:, self.order_a], noisy[:, self.order_a])

    def labels_b(self, s_b: ArrayLike, r: ArrayLike) -> torch.Tensor:
        """Task B's labels by position for pairs ``(s_b, r)`` (relatedness ``r``), shape
        ``(R, n_pool)`` int64, noise-free at the clean positions as :meth:`labels_a`."""
        noisy = self.tasks.labels_b(s_b, r)[0].mT  # checks s_b and r
        clean = self.tasks.labels_b(s_b, r, noise=False)[0].mT
        return torch.where(self.clean_b, clean[:, self.order_b], noisy[:, self.order_b])


def authors_pools(data: AuthorsData, *, n_features: int = 20, rank: int = 10, n_classes: int | None = None,
                  dtype: torch.dtype = torch.float64, device: str | torch.device = "cpu") -> AuthorsPools:
    """Draw one sweep's pools of tasks A and B and shuffle them, by the authors' data protocol.

    The teachers and their label law are those of :func:`gendyn.multitask_train.draw_tasks`
    (with seed ``data.data_seed``): each task's ``data.n_pool`` inputs and label noise are drawn
    once, the clean positions set (``data.clean_validation``), then each pool is shuffled
    (module docstring).

    Parameters
    ----------
    data : AuthorsData
    n_features, rank, n_classes : int
        ``N``, the teachers' rank and ``K`` (``n_classes = rank`` by default), as in
        :func:`gendyn.multitask_train.draw_tasks`.
    dtype, device
        Of the inputs and the arithmetic of the labels.

    Returns
    -------
    AuthorsPools
    """
    from .multitask_train import TeacherPair, draw_tasks

    _checks.instance(data, "data", AuthorsData, hint=" (the authors' data protocol)")
    n_features = _checks.integer(n_features, "n_features", 2)
    rank = _checks.integer(rank, "rank", 1)
    k = rank if n_classes is None else _checks.integer(n_classes, "n_classes", 2)
    n = data.n_pool
    # inputs and noise of two tasks, and the logits of a few label sets at once
    _checks.work_limit(8.0 * n * (n_features + k) * k, f"data.n_pool={n} with n_features={n_features}, n_classes={k}",
                       memory=8.0 * 8 * n * (n_features + k))
    tasks = draw_tasks([data.data_seed], n_train_a=n, n_train_b=n, n_val=1, dtype=dtype, device=device,
                       teachers=TeacherPair(n_features=n_features, rank=rank, n_classes=n_classes))
    device = tasks.x_a.device
    shuffles = _stream_generator(data.data_seed, "pool_shuffles")
    order_a, order_b = _random.randperm(n, shuffles, device), _random.randperm(n, shuffles, device)
    clean = torch.arange(n, device=device) >= (n // 2 if data.clean_validation else n)  # as drawn
    return AuthorsPools(data, tasks, order_a, order_b, clean[order_a], clean[order_b])


def _check_authors_sizes(data, parsed, n_val):
    """Refuse training and validation sets larger than the halves of ``data``'s pools (the authors'
    code truncates them silently)."""
    _checks.instance(data, "data", AuthorsData, hint=" (the authors' data protocol) or None")
    half = data.n_pool // 2
    for i, (p_a, p_b, *_) in enumerate(parsed):
        for key, p in (("n_train_a", p_a), ("n_train_b", p_b)):
            if p > half:
                raise ValueError(f"cells[{i}]['{key}'] must be at most data.n_pool // 2 = {half} (the training half "
                                 f"of each pool; the authors' code would truncate it silently); got {p}")
    if n_val is not None and n_val > half:
        raise ValueError(f"n_val must be at most data.n_pool // 2 = {half} (the validation half of the pool) or None; "
                         f"got {n_val}")


def _authors_cells(cells, parsed, seeds, data, *, n_features, rank, n_classes, trunk, n_val, schedule, dtype, device):
    """:func:`train_cells` with ``data``: the seeds permute the training halves of one pair of pools."""
    pools = authors_pools(data, n_features=n_features, rank=rank, n_classes=n_classes, dtype=dtype, device=device)
    k, n_seeds = pools.tasks.n_classes, len(seeds)
    rows = torch.stack([pools.training_rows(seed) for seed in seeds])  # (S, n_half)
    val = pools.validation_rows[: pools.n_half if n_val is None else n_val]
    x_pool_a, x_pool_b = pools.x_a, pools.x_b
    init = orthogonal_students(1, n_features, k, trunk=trunk, heads=2,
                               rng=seeding.stream(data.model_seed, "init"), dtype=dtype, device=device)
    common = dict(schedule=schedule)

    def students(params, m):  # m * S students, all from the one initialisation, with its minibatch shuffles
        return dict(params=[p.repeat(m * n_seeds, *([1] * (p.ndim - 1))) for p in params],
                    seeds=[data.model_seed] * (m * n_seeds))

    def task_a(p_a, snrs):  # student j * S + s: SNR snrs[j], seed seeds[s]
        m, idx = len(snrs), rows[:, :p_a]
        labels = pools.labels_a(snrs)  # (m, n_pool)
        return dict(x_a=x_pool_a[idx].repeat(m, 1, 1), y_a=labels[:, idx].reshape(m * n_seeds, p_a),
                    x_val=x_pool_a[val].expand(m * n_seeds, -1, -1).contiguous(),
                    y_val=labels[:, val].repeat_interleave(n_seeds, 0))

    def train_single(p_a, snrs):
        return train_interleaved(**students(init[:-2], len(snrs)), **task_a(p_a, snrs), **common)

    def train_multi(p_a, p_b, members):
        idx_b = rows[:, :p_b]
        labels_b = pools.labels_b([parsed[i][3] for i in members], [parsed[i][4] for i in members])
        return train_interleaved(**students(init, len(members)), **task_a(p_a, [parsed[i][2] for i in members]),
                                 task_b=(x_pool_b[idx_b].repeat(len(members), 1, 1),
                                         labels_b[:, idx_b].reshape(len(members) * n_seeds, p_b)), **common)

    return _cell_runs(cells, parsed, seeds, train_single, train_multi, data)


# ----------------------------------------------------------------------------------------
# specs: the students' trunk, their SGD schedule, where the cells run
# ----------------------------------------------------------------------------------------


def _flat_specs(func, flat, specs, new_form, shown=None):
    """:func:`gendyn.multitask_train._spec_form`: the specs of a deprecated flat call, with its warning."""
    from .multitask_train import _spec_form

    return _spec_form(func, flat, specs, new_form, shown=shown, stacklevel=4)


@dataclass(frozen=True)
class Trunk:
    """The trunk the heads of a student share (:func:`orthogonal_students`, :func:`train_cells`).

    Parameters
    ----------
    hidden : int
        Units of every hidden layer (>= 1; the authors' ``--nunits``).
    depth : int
        Trunk layers, i.e. hidden layers (>= 1), as in :func:`gendyn.multitask_train.init_student`.
    """

    hidden: int = 64
    depth: int = 2

    def __post_init__(self):
        _checks.integer(self.hidden, "hidden", 1)
        _checks.integer(self.depth, "depth", 1, " (trunk layers)")


@dataclass(frozen=True)
class SGDSchedule:
    """How the students train by the authors' interleaved minibatch SGD (:func:`train_interleaved`,
    :func:`train_cells`).

    Parameters
    ----------
    lr : float
        Learning rate of every parameter (> 0).
    epochs : int
        Passes over task A's training set (>= 1).
    batch_size : int
        Examples per minibatch (>= 1).
    activation : {"relu", "linear"}
        The trunk's nonlinearity in the forward pass.
    record_every : int
        Score the validation set before training and after every ``record_every``-th epoch (and
        the last).
    """

    lr: float = 1e-3
    epochs: int = 2000
    batch_size: int = 128
    activation: str = "relu"
    record_every: int = 1

    def __post_init__(self):
        _checks.positive(self.lr, "lr")
        _checks.integer(self.epochs, "epochs", 1)
        _checks.integer(self.batch_size, "batch_size", 1)
        _checks.choice(self.activation, "activation", ACTIVATIONS)
        _checks.integer(self.record_every, "record_every", 1)


@dataclass(frozen=True)
class Execution:
    """Where the students of :func:`train_cells` train: the precision, the device and an executor.

    Parameters
    ----------
    dtype : torch.dtype
        Of the data and the arithmetic (float64 by default).
    device : str or torch.device
    executor : concurrent.futures.Executor, optional
        Runs each seed as its own job (``executor.submit``), e.g. a process pool or
        ``dask.distributed.Client(address).get_executor()``. A student's numbers depend only on
        its seed and cell, not on the batch it trains in, so the result is the same with or
        without an executor (bit for bit in float64 on a CPU).
    """

    dtype: torch.dtype = torch.float64
    device: str | torch.device = "cpu"
    executor: Executor | None = None

    def __post_init__(self):
        _checks.torch_dtype(self.dtype)
        _checks.torch_device(self.device)
        if self.executor is not None and not callable(getattr(self.executor, "submit", None)):
            raise ValueError(f"executor must be a concurrent.futures.Executor (an object with submit) or None; "
                             f"got {type(self.executor).__name__}")


__all__ += ["Trunk", "SGDSchedule", "Execution"]
