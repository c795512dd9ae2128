"""The authors' interleaved minibatch SGD (Lee & Ndirango): batched students against one network
trained step by step with torch.nn and torch.optim.SGD, as the authors' trainer does."""

import re

import numpy as np
import pytest
import torch
from torch import nn

from gendyn import interleaved_sgd as il
from gendyn import multitask_train as mt

N, K, H = 12, 3, 10


def _data(s, p_a, p_b, v=60, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = dict(x_a=torch.randn(s, p_a, N, generator=g, dtype=torch.float64),
               y_a=torch.randint(0, K, (s, p_a), generator=g),
               x_val=torch.randn(s, v, N, generator=g, dtype=torch.float64),
               y_val=torch.randint(0, K, (s, v), generator=g))
    if p_b:
        out.update(x_b=torch.randn(s, p_b, N, generator=g, dtype=torch.float64),
                   y_b=torch.randint(0, K, (s, p_b), generator=g))
    return out


def _reference(params, data, student, seed, *, depth, lr, epochs, batch_size, relu=True):
    """One network, the authors' loop: SGD per minibatch, head + trunk, in the schedule's order."""
    layers = []
    for i in range(depth):
        layers.append(nn.Linear(N if i == 0 else H, H).double())
        if relu:
            layers.append(nn.ReLU())
    trunk = nn.Sequential(*layers)
    heads = [nn.Linear(H, K).double() for _ in range((len(params) - 2 * depth) // 2)]
    linears = [m for m in trunk if isinstance(m, nn.Linear)] + heads
    with torch.no_grad():
        for i, m in enumerate(linears):
            m.weight.copy_(params[2 * i][student])
            m.bias.copy_(params[2 * i + 1][student])
    opt_trunk = torch.optim.SGD(trunk.parameters(), lr=lr)
    opt_heads = [torch.optim.SGD(h.parameters(), lr=lr) for h in heads]
    loss_fn = nn.CrossEntropyLoss()
    p_b = data["x_b"].shape[1] if "x_b" in data else 0
    curve = []
    for epoch in il.batch_schedule(data["x_a"].shape[1], p_b, batch_size, epochs, seed):
        for task, idx in epoch:
            k = 0 if task == "A" else 1
            x, y = (data["x_a"], data["y_a"]) if task == "A" else (data["x_b"], data["y_b"])
            opt_trunk.zero_grad()
            opt_heads[k].zero_grad()
            loss_fn(heads[k](trunk(x[student, idx])), y[student, idx]).backward()
            opt_heads[k].step()
            opt_trunk.step()
        with torch.no_grad():
            curve.append(loss_fn(heads[0](trunk(data["x_val"][student])), data["y_val"][student]).item())
    return np.array(curve)



def _args(data):
    """train_interleaved's data arguments from a _data dict: task B as the pair task_b."""
    out = {k: data[k] for k in ("x_a", "y_a", "x_val", "y_val")}
    if "x_b" in data:
        out["task_b"] = (data["x_b"], data["y_b"])
    return out

@pytest.mark.parametrize("p_a, p_b, depth, relu", [(40, 80, 2, True), (30, 105, 1, True), (40, 0, 3, True),
                                                      (25, 50, 2, False)])
def test_batched_students_follow_the_authors_loop(p_a, p_b, depth, relu):
    """Multitask (P_B = 2 P_A), a task-B stream that wraps mid-epoch (P_B = 3.5 P_A), single-task,
    and a linear trunk: every student's validation curve equals the step-by-step reference."""
    s, seeds, lr, epochs, batch = 3, [11, 12, 13], 0.05, 6, 16
    data = _data(s, p_a, p_b)
    params = il.orthogonal_students(s, N, K, heads=2 if p_b else 1, rng=1,
                                    trunk=il.Trunk(hidden=H, depth=depth))
    res = il.train_interleaved(params, **_args(data), seeds=seeds,
                               schedule=il.SGDSchedule(lr=lr, epochs=epochs, batch_size=batch,
                                                       activation="relu" if relu else "linear"))
    assert res.val_loss.shape == (s, epochs + 1) and list(res.epochs) == list(range(epochs + 1))
    for student, seed in enumerate(seeds):
        ref = _reference(params, data, student, seed, depth=depth, lr=lr, epochs=epochs,
                         batch_size=batch, relu=relu)
        np.testing.assert_allclose(res.val_loss[student, 1:], ref, rtol=1e-12)


def test_a_student_does_not_depend_on_its_batch_mates():
    data = _data(3, 40, 80)
    params = il.orthogonal_students(3, N, K, rng=2, trunk=il.Trunk(hidden=H))
    together = il.train_interleaved(params, **_args(data), seeds=[5, 6, 7],
                                    schedule=il.SGDSchedule(lr=0.05, epochs=4, batch_size=16))
    alone = il.train_interleaved([p[1:2] for p in params], **_args({k: v[1:2] for k, v in data.items()}), seeds=[6],
                                 schedule=il.SGDSchedule(lr=0.05, epochs=4, batch_size=16))
    np.testing.assert_allclose(together.val_loss[1], alone.val_loss[0], rtol=1e-12)


def test_batch_schedule_covers_each_pass_once():
    schedule = il.batch_schedule(50, 175, 16, 3, rng=4)
    b_seen = []
    for epoch in schedule:
        a = [idx for task, idx in epoch if task == "A"]
        assert sorted(torch.cat(a).tolist()) == list(range(50))
        assert [len(i) for i in a] == [16, 16, 16, 2]
        assert len(epoch) == 4 * (1 + 175 // 50)
        b_seen += [idx for task, idx in epoch if task == "B"]
    # the task-B stream runs on across epochs: its first pass is a permutation of range(175)
    first_pass = torch.cat(b_seen[:11])
    assert sorted(first_pass.tolist()) == list(range(175))


def test_orthogonal_students_layout():
    params = il.orthogonal_students(4, N, K, heads=2, rng=0,
                                    trunk=il.Trunk(hidden=H, depth=2))
    shapes = [tuple(p.shape) for p in params]
    assert shapes == [(4, H, N), (4, H), (4, H, H), (4, H), (4, K, H), (4, K), (4, K, H), (4, K)]
    for w, b in zip(params[::2], params[1::2]):
        small = min(w.shape[1:])
        gram = w @ w.mT if w.shape[1] == small else w.mT @ w
        torch.testing.assert_close(gram, torch.eye(small, dtype=w.dtype).expand_as(gram), rtol=0, atol=1e-12)
        assert float(b.abs().max()) <= 1 / np.sqrt(w.shape[2])


def test_bad_inputs_are_named():
    data = _data(2, 20, 0)
    params = il.orthogonal_students(2, N, K, heads=1, trunk=il.Trunk(hidden=H))
    with pytest.raises(ValueError, match="seeds"):
        il.train_interleaved(params, **_args(data), seeds=[1], schedule=il.SGDSchedule(epochs=1))
    with pytest.raises(ValueError, match="need head B"):
        il.train_interleaved(params, **_args(_data(2, 20, 40)), seeds=[1, 2], schedule=il.SGDSchedule(epochs=1))
    with pytest.raises(ValueError, match="head A only"):
        il.train_interleaved(il.orthogonal_students(2, N, K, heads=2, trunk=il.Trunk(hidden=H)), **_args(data),
                             seeds=[1, 2], schedule=il.SGDSchedule(epochs=1))
    with pytest.raises(ValueError, match="y_a"):
        il.train_interleaved(params, **_args({**data, "y_a": data["y_a"].float()}), seeds=[1, 2],
                             schedule=il.SGDSchedule(epochs=1))
    with pytest.raises(FloatingPointError, match="learning rate"):
        il.train_interleaved(params, **_args({**data, "x_a": 1e6 * data["x_a"]}), seeds=[1, 2],
                             schedule=il.SGDSchedule(lr=1e300, epochs=3))


def test_train_cells_results_do_not_depend_on_the_batch_and_pair_the_baselines():
    cells = [dict(n_train_a=20, n_train_b=40, s_a=sa, s_b=2.0, relatedness=r) for sa in (0.5, 3.0) for r in (0.0, 1.0)]
    cells.append(dict(n_train_a=20, s_a=0.5))  # a single-task cell
    opts = dict(n_val=30, teachers=mt.TeacherPair(n_features=8, rank=2),
                trunk=il.Trunk(hidden=5, depth=1),
                schedule=il.SGDSchedule(activation="relu", lr=0.05, epochs=6, batch_size=8, record_every=2))
    runs = il.train_cells(cells, [3, 4], **opts)
    assert runs.multitask.shape == runs.single_task.shape == (5, 2, 4)
    assert np.isnan(runs.multitask[4]).all() and np.isfinite(runs.multitask[:4]).all()
    # the single-task baseline depends on (n_train_a, s_a, seed) only: every cell of s_a = 0.5 shares it
    assert np.array_equal(runs.single_task[0], runs.single_task[1])
    assert np.array_equal(runs.single_task[0], runs.single_task[4])
    assert not np.array_equal(runs.single_task[0], runs.single_task[2])
    # one cell and one seed alone: the same numbers as inside the batch
    alone = il.train_cells([cells[3]], [4], **opts)
    assert np.array_equal(alone.multitask[0, 0], runs.multitask[3, 1])
    assert np.array_equal(alone.single_task[0, 0], runs.single_task[3, 1])
    # relatedness matters only through task B: unrelated and related cells differ
    assert not np.array_equal(runs.multitask[2], runs.multitask[3])


def test_train_cells_rejects_malformed_cells():
    bad = [
        (dict(n_train_a=10), "cells\\[0\\] must be a dict with n_train_a and s_a"),
        (dict(n_train_a=10, n_train_b=10, s_a=1.0, s_b=1.0, relatedness=1.5), "relatedness.*\\[0, 1\\]"),
        (dict(n_train_a=2.7, s_a=1.0), "n_train_a"),  # not silently truncated
        (dict(n_train_a=10, s_a=1.0, s_b=1.0, relatedness=0.5), "need n_train_b >= 1"),  # not silently single-task
        (dict(n_train_a=10, s_a=1.0, relatednes=0.5), "unknown keys"),
        (dict(n_train_a=10, n_train_b=10, s_a=1.0, s_b=1.0), "cells\\[0\\]"),
    ]
    for cell, message in bad:
        with pytest.raises(ValueError, match=message):
            il.train_cells([cell], [0])
    with pytest.raises(ValueError, match="non-empty sequence"):
        il.train_cells([], [0])
    with pytest.raises(ValueError, match="distinct"):
        il.train_cells([dict(n_train_a=10, s_a=1.0)], [3, 3])


def test_a_cells_numbers_do_not_depend_on_the_sizes_of_the_other_cells():
    """Pools drawn at the largest size would differ in their last values (torch's randn), so each
    cell draws at its own sizes."""
    opts = dict(n_val=9, teachers=mt.TeacherPair(n_features=6, rank=2),
                trunk=il.Trunk(hidden=3, depth=1),
                schedule=il.SGDSchedule(lr=0.05, epochs=2, batch_size=4, record_every=10))
    small = dict(n_train_a=10, n_train_b=10, s_a=1.0, s_b=2.0, relatedness=0.5)
    alone = il.train_cells([small], [5], **opts)
    mixed = il.train_cells([small, dict(n_train_a=30, n_train_b=30, s_a=1.0, s_b=2.0, relatedness=0.5),
                            dict(n_train_a=23, s_a=1.0)],
                           [5], **opts)
    np.testing.assert_array_equal(mixed.multitask[0], alone.multitask[0])
    np.testing.assert_array_equal(mixed.single_task[0], alone.single_task[0])


def test_train_cells_on_an_executor_gives_the_same_numbers():
    from concurrent.futures import ThreadPoolExecutor

    cells = [dict(n_train_a=12, n_train_b=24, s_a=1.0, s_b=3.0, relatedness=0.5), dict(n_train_a=12, s_a=2.0)]
    opts = dict(n_val=10, teachers=mt.TeacherPair(n_features=6, rank=2),
                trunk=il.Trunk(hidden=4, depth=2),
                schedule=il.SGDSchedule(lr=0.05, epochs=3, batch_size=5, record_every=10))
    here = il.train_cells(cells, [7, 8, 9], **opts)
    with ThreadPoolExecutor(2) as pool:
        there = il.train_cells(cells, [7, 8, 9], **opts, execution=il.Execution(executor=pool))
    assert np.array_equal(here.multitask, there.multitask, equal_nan=True)
    assert np.array_equal(here.single_task, there.single_task)
    assert there.seeds == (7, 8, 9)


def test_cell_runs_join_seeds_and_refuse_different_cells():
    cells = [dict(n_train_a=10, n_train_b=10, s_a=1.0, s_b=1.0, relatedness=1.0)]
    opts = dict(n_val=8, teachers=mt.TeacherPair(n_features=6, rank=2),
                trunk=il.Trunk(hidden=3, depth=1),
                schedule=il.SGDSchedule(lr=0.05, epochs=2, batch_size=4, record_every=10))
    both = il.train_cells(cells, [1, 2], **opts)
    joined = il.CellRuns.join([il.train_cells(cells, [1], **opts), il.train_cells(cells, [2], **opts)])
    assert joined.seeds == (1, 2)
    np.testing.assert_array_equal(joined.multitask, both.multitask)
    other = il.train_cells([dict(cells[0], s_a=2.0)], [3], **opts)
    with pytest.raises(ValueError, match="same cells"):
        il.CellRuns.join([both, other])
    with pytest.raises(ValueError, match="non-empty"):
        il.CellRuns.join([])


def test_depth_is_the_trunk_depth_and_n_layers_its_deprecated_name():
    """``depth`` (hidden layers of the trunk, as multitask_train's; now a field of :class:`Trunk`) replaced
    ``n_layers``; in the flat call form the old keyword works for one release with a DeprecationWarning,
    and both together are refused."""
    assert il.Trunk().depth == 2
    new = il.orthogonal_students(2, N, K, trunk=il.Trunk(hidden=H, depth=3),
                                 rng=0)
    assert len(new) == 2 * (3 + 2)
    with pytest.warns(DeprecationWarning) as caught:  # the old name, and the flat call form
        old = il.orthogonal_students(2, N, K, hidden=H, n_layers=3, rng=0)
    messages = [str(w.message) for w in caught]
    assert any(re.search(r"n_layers is deprecated.*pass depth=3", m) for m in messages), messages
    assert any("['hidden', 'n_layers']" in m and "trunk=Trunk(" in m for m in messages), messages
    assert all(w.filename == __file__ for w in caught)  # points at the caller
    assert all(torch.equal(a, b) for a, b in zip(new, old))
    default = il.orthogonal_students(2, N, K, trunk=il.Trunk(hidden=H), rng=0)
    assert len(default) == 2 * (2 + 2)
    for depth in (2, 3):  # both names, even with depth at its default value: which one was meant?
        with pytest.raises(ValueError, match=r"n_layers is the old name of depth: pass depth only"):
            il.orthogonal_students(2, N, K, hidden=H, depth=depth, n_layers=3)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match=r"\bn_layers must be an integer >= 1"):
        il.orthogonal_students(2, N, K, hidden=H, n_layers=0)  # a bad value under the name the caller wrote
    with pytest.raises(ValueError, match=r"\bdepth must be an integer >= 1"):
        il.Trunk(hidden=H, depth=0)

    cells = [dict(n_train_a=8, n_train_b=8, s_a=1.0, s_b=1.0, relatedness=1.0)]
    opts = dict(n_features=6, rank=2, hidden=3, n_val=8, lr=0.05, epochs=1, batch_size=4)
    with pytest.warns(DeprecationWarning) as caught:
        old_cells = il.train_cells(cells, [1], n_layers=1, **opts)
    assert any("pass depth=1" in str(w.message) for w in caught) and len(caught) == 2
    assert all(w.filename == __file__ for w in caught)
    new_cells = il.train_cells(cells, [1], teachers=mt.TeacherPair(n_features=6, rank=2), n_val=8,
                               trunk=il.Trunk(hidden=3, depth=1), schedule=il.SGDSchedule(lr=0.05, epochs=1,
                                                                                         batch_size=4, record_every=10))
    np.testing.assert_array_equal(old_cells.multitask, new_cells.multitask)
    with pytest.raises(ValueError, match="n_layers is the old name of depth"):
        il.train_cells(cells, [1], depth=1, n_layers=1, **opts)


def test_the_flat_forms_warn_and_give_bit_identical_results():
    """The call forms before the specs (Trunk, SGDSchedule, Execution, task_b) work for one release."""
    data = _data(2, 20, 30)
    new_params = il.orthogonal_students(2, N, K, trunk=il.Trunk(hidden=H, depth=1),
                                        rng=4)
    with pytest.warns(DeprecationWarning, match=r"trunk=Trunk\(") as caught:
        old_params = il.orthogonal_students(2, N, K, hidden=H, depth=1, rng=4)
    assert caught[0].filename == __file__
    assert all(torch.equal(a, b) for a, b in zip(new_params, old_params))
    new = il.train_interleaved(new_params, **_args(data), seeds=[1, 2],
                               schedule=il.SGDSchedule(lr=0.05, epochs=3, batch_size=8, activation="linear",
                                                       record_every=2))
    with pytest.warns(DeprecationWarning, match=r"task_b=\(x_b, y_b\)") as caught:
        old = il.train_interleaved(new_params, data["x_a"], data["y_a"], data["x_val"], data["y_val"], seeds=[1, 2],
                                   x_b=data["x_b"], y_b=data["y_b"], lr=0.05, epochs=3, batch_size=8,
                                   activation="linear", record_every=2)
    assert caught[0].filename == __file__
    for name in ("epochs", "val_loss", "val_acc", "train_loss"):
        np.testing.assert_array_equal(getattr(new, name), getattr(old, name), err_msg=name)
    with pytest.raises(ValueError, match="task_b or as the flat keywords"):
        il.train_interleaved(new_params, **_args(data), seeds=[1, 2], x_b=data["x_b"], y_b=data["y_b"])
    cells = [dict(n_train_a=8, n_train_b=12, s_a=1.0, s_b=2.0, relatedness=0.5), dict(n_train_a=8, s_a=2.0)]
    new_cells = il.train_cells(cells, [1, 2], teachers=mt.TeacherPair(n_features=6, rank=2, n_classes=3), n_val=7,
                               trunk=il.Trunk(hidden=3, depth=1),
                               schedule=il.SGDSchedule(lr=0.05, epochs=2, batch_size=4, record_every=10),
                               execution=il.Execution(dtype=torch.float64))
    with pytest.warns(DeprecationWarning, match=r"schedule=SGDSchedule\(") as caught:
        old_cells = il.train_cells(cells, [1, 2], n_features=6, rank=2, n_classes=3, n_val=7, hidden=3, depth=1,
                                   lr=0.05, epochs=2, batch_size=4, dtype=torch.float64)
    assert caught[0].filename == __file__
    assert np.array_equal(new_cells.multitask, old_cells.multitask, equal_nan=True)
    assert np.array_equal(new_cells.single_task, old_cells.single_task) and new_cells.epochs.tolist() == [0, 2]
    with pytest.raises(ValueError, match="unknown keyword"):
        il.train_cells(cells, [1], n_layer=1)
    for name in ("teachers", "trunk", "schedule", "execution"):
        with pytest.raises(ValueError, match=name):
            il.train_cells(cells, [1], **{name: "x"})


@pytest.mark.parametrize("make, message", [
    (lambda: il.Trunk(hidden=0), r"hidden must be an integer >= 1"),
    (lambda: il.Trunk(depth=1.5), r"depth must be an integer >= 1"),
    (lambda: il.SGDSchedule(lr=0.0), r"lr must be"),
    (lambda: il.SGDSchedule(epochs=0), r"epochs must be an integer >= 1"),
    (lambda: il.SGDSchedule(batch_size=0), r"batch_size must be an integer >= 1"),
    (lambda: il.SGDSchedule(activation="tanh"), r"activation"),
    (lambda: il.SGDSchedule(record_every=0), r"record_every must be an integer >= 1"),
    (lambda: il.Execution(dtype=torch.int64), r"dtype must be"),
    (lambda: il.Execution(device="gpu"), r"device"),
    (lambda: il.Execution(executor=object()), r"executor must be a concurrent.futures.Executor"),
])
def test_the_specs_check_their_fields_when_made(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_train_interleaved_refuses_a_task_b_that_is_not_a_pair():
    data = _data(2, 20, 30)
    params = il.orthogonal_students(2, N, K, trunk=il.Trunk(hidden=H), rng=1)
    with pytest.raises(ValueError, match=r"task_b must be a pair \(x_b, y_b\)"):
        il.train_interleaved(params, data["x_a"], data["y_a"], data["x_val"], data["y_val"], seeds=[1, 2],
                             task_b=data["x_b"])
    with pytest.raises(ValueError, match="schedule"):
        il.train_interleaved(params, **_args(data), seeds=[1, 2], schedule=il.Trunk())