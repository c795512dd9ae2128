"""The authors' data protocol of Lee & Ndirango (interleaved_sgd.AuthorsData): one shuffled pool per task
and sweep, halved into a training half and a validation set; training sets are nested prefixes of the
training half as each seed permutes it; seeds share teachers, pools, validation set and initial students;
``clean_validation`` labels half of each pool clean before the shuffle; the recorded value is the minimum
over epochs. Tiny sizes throughout."""

import dataclasses
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

from gendyn import interleaved_sgd as il
from gendyn import multitask_train as mt

SIZES = dict(n_features=6, rank=2)
OPTS = dict(teachers=mt.TeacherPair(**SIZES), trunk=il.Trunk(hidden=3, depth=1),
            schedule=il.SGDSchedule(lr=0.1, epochs=2, batch_size=4, record_every=1))
DATA = il.AuthorsData(n_pool=25, data_seed=3, model_seed=4)
CELLS = [dict(n_train_a=4, n_train_b=8, s_a=1.0, s_b=2.0, relatedness=0.5),
         dict(n_train_a=8, n_train_b=8, s_a=1.0, s_b=0.5, relatedness=0.0),
         dict(n_train_a=8, s_a=0.3)]  # a single-task cell
SEEDS = [0, 1, 2]


def _spy(monkeypatch):
    """Record every call of train_interleaved that train_cells makes (and run it)."""
    calls, real = [], il.train_interleaved

    def spy(**kwargs):
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(il, "train_interleaved", spy)
    return calls


def _positions(x, pool):
    """Position in ``pool`` (rows) of each row of ``x``."""
    match = (x[..., None, :] == pool).all(-1)  # (..., P, n_pool)
    assert (match.sum(-1) == 1).all(), "a row that is not (exactly once) in the pool"
    return match.int().argmax(-1)


def test_one_pool_per_task_drawn_once_shuffled_and_halved():
    pools = il.authors_pools(DATA, **SIZES)
    drawn = mt.draw_tasks([DATA.data_seed], n_train_a=25, n_train_b=25, n_val=1, dtype=torch.float64,
                         teachers=mt.TeacherPair(**SIZES))
    for order in (pools.order_a, pools.order_b):
        assert sorted(order.tolist()) == list(range(25)) and order.tolist() != list(range(25))
    assert not torch.equal(pools.order_a, pools.order_b)  # each task's pool has its own shuffle
    torch.testing.assert_close(pools.x_a, drawn.x_a[0, pools.order_a], rtol=0, atol=0)
    torch.testing.assert_close(pools.x_b, drawn.x_b[0, pools.order_b], rtol=0, atol=0)
    # the noisy law of draw_tasks, shuffled: argmax(s z + noise) of the drawn example at each position
    assert torch.equal(pools.labels_a([0.5, 2.0]), drawn.labels_a([0.5, 2.0])[0].mT[:, pools.order_a])
    assert torch.equal(pools.labels_b([1.0], [0.5]), drawn.labels_b([1.0], [0.5])[0].mT[:, pools.order_b])
    # halves: 12 training positions, the next 12 validate, the 25th is in neither (as the authors' ntest)
    assert pools.n_half == 12 and pools.validation_rows.tolist() == list(range(12, 24))
    # the same data_seed draws the same pools; another data_seed others
    assert torch.equal(il.authors_pools(DATA, **SIZES).x_a, pools.x_a)
    other = il.authors_pools(il.AuthorsData(25, data_seed=5), **SIZES)
    assert not torch.equal(other.x_a, pools.x_a)
    assert not pools.clean_a.any() and not pools.clean_b.any()  # noisy labels by default


def test_training_rows_are_one_permutation_of_the_training_half_per_seed():
    pools = il.authors_pools(DATA, **SIZES)
    rows = {seed: pools.training_rows(seed) for seed in SEEDS}
    for seed, r in rows.items():
        assert sorted(r.tolist()) == list(range(12))
        assert torch.equal(r, pools.training_rows(seed))
    assert len({tuple(r.tolist()) for r in rows.values()}) == len(SEEDS)


def test_train_cells_with_data_nests_the_training_sets_and_shares_validation_set_and_init(monkeypatch):
    calls = _spy(monkeypatch)
    runs = il.train_cells(CELLS, SEEDS, data=DATA, **OPTS)
    pools = il.authors_pools(DATA, **SIZES)
    x_pool_a, x_pool_b = pools.x_a, pools.x_b
    n = len(SEEDS)
    seen = {}  # (task, P, seed) -> positions of the training set
    for call in calls:
        students = call["x_a"].shape[0]
        assert call["seeds"] == [DATA.model_seed] * students  # minibatch shuffles of model_seed, shared
        # one validation set for every student: the validation half of pool A, labels of the student's s_a
        assert torch.equal(call["x_val"], x_pool_a[pools.validation_rows].expand(students, -1, -1))
        for p in call["params"]:  # one initialisation for every student (that of model_seed)
            assert torch.equal(p, p[:1].expand_as(p))
        for task, x in (("A", call["x_a"]), ("B", call["task_b"][0] if call.get("task_b") else None)):
            if x is None:
                continue
            pos = _positions(x, x_pool_a if task == "A" else x_pool_b)
            for student in range(students):
                seed = SEEDS[student % n]
                assert torch.equal(pos[student], pools.training_rows(seed)[: x.shape[1]])  # in the training half
                seen.setdefault((task, x.shape[1], seed), pos[student])
    # nested: a seed's 4 examples of task A are the first of its 8
    for seed in SEEDS:
        assert torch.equal(seen["A", 4, seed], seen["A", 8, seed][:4])
        assert torch.equal(seen["B", 8, seed], seen["A", 8, seed])  # tasks A and B permuted alike
    assert not torch.equal(seen["A", 8, 0], seen["A", 8, 1])  # the seed permutes the training half
    # the validation labels of one s_a are the same for every seed
    y_val = calls[0]["y_val"]
    assert torch.equal(y_val, y_val[:1].expand_as(y_val))
    # the initial trunk and head A are those of the multitask students: the same epoch-0 loss everywhere
    s_a_one = runs.single_task[0, :, 0]
    assert np.all(runs.multitask[:2, :, 0] == s_a_one) and np.all(s_a_one == s_a_one[0])
    assert np.isnan(runs.multitask[2]).all() and np.isfinite(runs.single_task).all()


def test_the_default_draws_stay_independent_per_seed():
    """Without data: each seed its own validation set and initial student (different epoch-0 losses),
    and n_val=None is the former default 1000."""
    cells = [dict(n_train_a=4, s_a=1.0)]
    default = il.train_cells(cells, [0, 1], **OPTS)
    assert default.single_task[0, 0, 0] != default.single_task[0, 1, 0]
    explicit = il.train_cells(cells, [0, 1], n_val=1000, data=None, **OPTS)
    assert np.array_equal(default.single_task, explicit.single_task)


def test_n_val_takes_the_first_examples_of_the_validation_half(monkeypatch):
    calls = _spy(monkeypatch)
    il.train_cells([dict(n_train_a=4, s_a=1.0)], [0], n_val=5, data=DATA, **OPTS)
    pools = il.authors_pools(DATA, **SIZES)
    assert torch.equal(calls[0]["x_val"][0], pools.x_a[12:17])
    assert torch.equal(calls[0]["y_val"][0], pools.labels_a([1.0])[0, 12:17])


def test_clean_validation_labels_half_of_each_pool_clean_before_the_shuffle():
    n, low = 400, 0.01  # at s = 0.01 the noise decides most noisy labels
    noisy = il.authors_pools(il.AuthorsData(n, data_seed=2), **SIZES)
    half_clean = il.authors_pools(il.AuthorsData(n, clean_validation=True, data_seed=2), **SIZES)
    assert torch.equal(noisy.order_a, half_clean.order_a) and torch.equal(noisy.x_a, half_clean.x_a)
    for pools, clean in ((half_clean, half_clean.clean_a), (half_clean, half_clean.clean_b)):
        order = pools.order_a if clean is pools.clean_a else pools.order_b
        assert torch.equal(clean, order >= n // 2)  # the second half as drawn, before the shuffle
        train, val = clean[: n // 2].float().mean(), clean[n // 2:].float().mean()
        assert 0.4 < train < 0.6 and 0.4 < val < 0.6  # so about half of both halves
    drawn = mt.draw_tasks([2], n_train_a=n, n_train_b=n, n_val=1, dtype=torch.float64,
                         teachers=mt.TeacherPair(**SIZES))
    for labels, old, x, teacher, clean in (
            (half_clean.labels_a([low]), noisy.labels_a([low]), half_clean.x_a, drawn.teacher_a[0],
             half_clean.clean_a),
            (half_clean.labels_b([low], [0.5]), noisy.labels_b([low], [0.5]), half_clean.x_b, drawn.teacher_b(0.5)[0],
             half_clean.clean_b)):
        truth = (x @ teacher.mT).argmax(-1)
        assert torch.equal(labels[0, clean], truth[clean])  # noise-free at the clean positions
        assert torch.equal(labels[0, ~clean], old[0, ~clean])  # the default's noisy labels elsewhere
        assert (old[0, clean] != truth[clean]).float().mean() > 0.2  # which the noise would have changed


def test_the_recorded_value_is_the_minimum_over_the_epochs_after_training_began():
    curve = np.array([[[0.1, 0.9, 0.5, 0.7]]])  # epoch 0 (before training) is not a recorded epoch
    runs = il.CellRuns(({"n_train_a": 4, "s_a": 1.0},), (0,), np.arange(4), np.full_like(curve, np.nan), curve)
    assert runs.single_task_min.shape == (1, 1) and runs.single_task_min[0, 0] == 0.5
    assert np.isnan(runs.multitask_min).all()  # a single-task cell
    trained = il.train_cells(CELLS, [0, 1], data=DATA,
                             **dict(OPTS, schedule=dataclasses.replace(OPTS["schedule"], epochs=3)))
    np.testing.assert_array_equal(trained.multitask_min, trained.multitask[..., 1:].min(-1))
    np.testing.assert_array_equal(trained.single_task_min, trained.single_task[..., 1:].min(-1))
    assert trained.multitask_min.shape == (3, 2) and np.isnan(trained.multitask_min[2]).all()


def test_a_seeds_numbers_do_not_depend_on_the_other_seeds_or_the_executor():
    together = il.train_cells(CELLS, SEEDS, data=DATA, **OPTS)
    alone = il.train_cells(CELLS, [1], data=DATA, **OPTS)
    np.testing.assert_array_equal(alone.multitask[:, 0], together.multitask[:, 1])
    np.testing.assert_array_equal(alone.single_task[:, 0], together.single_task[:, 1])
    with ThreadPoolExecutor(2) as pool:
        there = il.train_cells(CELLS, SEEDS, data=DATA, **OPTS, execution=il.Execution(executor=pool))
    assert np.array_equal(there.multitask, together.multitask, equal_nan=True)
    assert np.array_equal(there.single_task, together.single_task)


def test_sizes_beyond_the_halves_and_bad_settings_are_refused():
    small = il.AuthorsData(n_pool=9)  # halves of 4
    with pytest.raises(ValueError, match=r"cells\[0\]\['n_train_a'\] must be at most data.n_pool // 2 = 4"):
        il.train_cells([dict(n_train_a=5, s_a=1.0)], [0], data=small, **OPTS)  # not truncated silently
    with pytest.raises(ValueError, match=r"cells\[1\]\['n_train_b'\] must be at most data.n_pool // 2 = 4"):
        il.train_cells([dict(n_train_a=4, s_a=1.0), dict(n_train_a=2, n_train_b=8, s_a=1.0, s_b=1.0, relatedness=0.0)],
                       [0], data=small, **OPTS)
    with pytest.raises(ValueError, match=r"n_val must be at most data.n_pool // 2 = 4"):
        il.train_cells([dict(n_train_a=4, s_a=1.0)], [0], data=small, n_val=5, **OPTS)
    with pytest.raises(ValueError, match=r"\bdata must be an AuthorsData"):
        il.train_cells([dict(n_train_a=4, s_a=1.0)], [0], data={"n_pool": 9}, **OPTS)
    with pytest.raises(ValueError, match=r"\bn_pool must be an integer >= 2"):
        il.AuthorsData(n_pool=1)
    with pytest.raises(ValueError, match=r"\bclean_validation must be True or False"):
        il.AuthorsData(n_pool=10, clean_validation=1)
    with pytest.raises(ValueError, match=r"\bdata_seed must be an integer >= 0"):
        il.AuthorsData(n_pool=10, data_seed=-1)
    with pytest.raises(ValueError, match=r"\bn_pool=1000000000000 .*(floating-point operations|GiB)"):
        il.authors_pools(il.AuthorsData(n_pool=10**12), **SIZES)  # refused before drawing
