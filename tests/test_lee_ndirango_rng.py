"""The one random-number convention (gendyn.seeding) in the Lee & Ndirango modules: ``rng`` in place of the
former ``generator=``/``seed=`` keywords (still accepted for one release, with a DeprecationWarning and the
same draws), and named streams that never coincide between the experiments' purposes and seeds."""

import warnings

import numpy as np
import pytest
import torch

from gendyn import interleaved_sgd as il
from gendyn import multitask_train as mt
from gendyn import published_runs, seeding
from gendyn import settings_inference as si
from gendyn import softmax_multitask as sm

W = np.array([[0.5, -0.2, 0.1], [0.3, 0.4, -0.6]])


def _same(a, b):
    if isinstance(a, torch.Tensor):
        return torch.equal(a, b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, str):
        return a == b
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if hasattr(a, "__dataclass_fields__"):
        return all(_same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


# one call per function family: (name in the warning, the call with **rng keywords, the former keyword)
FAMILIES = [
    ("label_agreement", lambda **k: mt.label_agreement([0.1, 1.0], n_labels=40, rank=2, n_features=4, **k), "seed"),
    ("sampled_loss_gradient", lambda **k: mt.sampled_loss_gradient(W, n_samples=16, **k), "seed"),
    ("bayes_cross_entropy", lambda **k: mt.bayes_cross_entropy([0.5], n_test=20, rank=2, n_features=4, **k), "seed"),
    ("softmax_curvature", lambda **k: sm.softmax_curvature(W, n_samples=16, **k), "seed"),
    ("softmax_curvature_batches", lambda **k: sm.softmax_curvature_batches(W, n_samples=16, batches=2, **k), "seed"),
    ("noisy_label_entropy", lambda **k: sm.noisy_label_entropy([0.5], 3, 0.5, n_samples=8, **k), "seed"),
    ("label_floor", lambda **k: si.label_floor([0.5], 3, 20, True, n_samples=8, **k), "seed"),
    ("label_entropy_floor", lambda **k: published_runs.label_entropy_floor(n_samples=64, files=("rank-3",), **k),
     "seed"),
    ("orthogonal_students", lambda **k: il.orthogonal_students(2, 4, 3, trunk=il.Trunk(hidden=3, depth=1), **k),
     "generator"),
    ("batch_schedule", lambda **k: il.batch_schedule(6, 12, 4, 2, **k), "seed"),
    ("training_rows", lambda **k: il.authors_pools(il.AuthorsData(n_pool=12), n_features=6, rank=2).training_rows(**k),
     "seed"),
]


@pytest.mark.parametrize("name, call, former", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_the_former_keyword_warns_and_draws_as_rng(name, call, former):
    new = call(rng=5)
    value = torch.Generator().manual_seed(5) if former == "generator" else 5
    with pytest.warns(DeprecationWarning, match=rf"{name}\({former}=...\) is deprecated.*pass rng="):
        old = call(**{former: value})
    assert _same(new, old)
    assert _same(call(rng=5), new)  # an integer rng: the same draws at every call
    with pytest.raises(ValueError, match="one random-number argument, rng"):
        call(rng=5, **{former: value})
    for bad in (-1, 1.5, "x"):
        with pytest.raises(ValueError, match=r"\brng must be"):
            call(rng=bad)


def test_an_integer_rng_draws_as_the_integer_seed_did():
    """seed=s -> rng=s keeps the draws where a function drew from one generator seeded with s."""
    g = torch.Generator().manual_seed(3)
    legacy = il.orthogonal_students(2, 4, 3, trunk=il.Trunk(hidden=3, depth=1), rng=g)
    assert _same(il.orthogonal_students(2, 4, 3, trunk=il.Trunk(hidden=3, depth=1), rng=3), legacy)
    assert _same(sm.softmax_curvature(W, n_samples=16, rng=3),
                 sm.softmax_curvature(W, n_samples=16, rng=np.random.default_rng(3)))


def test_train_students_takes_batch_rng_and_its_former_flat_keyword():
    data = mt.draw_tasks([1], n_train_a=12, n_val=4, teachers=mt.TeacherPair(n_features=6, rank=2),
                         dtype=torch.float64)
    w0 = mt.init_student([1], n_features=6, n_classes=2, students=mt.GridStudents(hidden=3), n_heads=1,
                         dtype=torch.float64)
    args = (data.x_a, data.labels_a([1.0]), data.x_val, data.labels_val(), w0)
    schedule = mt.GridSchedule(lr=0.1, steps=4, eval_every=2)
    new = mt.train_students(*args, schedule=schedule, options=mt.TrainOptions(batch_size=4, batch_rng=7))
    with pytest.warns(DeprecationWarning) as caught:
        old = mt.train_students(*args, lr=0.1, steps=4, eval_every=2, batch_size=4, batch_seed=7)
    assert any("train_students(batch_seed=...) is deprecated" in str(w.message) for w in caught)
    np.testing.assert_array_equal(new.val_loss, old.val_loss)
    other = mt.train_students(*args, schedule=schedule, options=mt.TrainOptions(batch_size=4, batch_rng=8))
    assert not np.array_equal(new.val_loss, other.val_loss)
    with pytest.raises(ValueError, match=r"batch_rng must be"):
        mt.TrainOptions(batch_rng=1.5)


def test_the_streams_of_the_experiments_never_coincide():
    """Every purpose of a seed (teacher, inputs, noise, validation, initial weights, shuffles, ...) and every
    seed has its own stream: no two of them start alike, and seed s + 1 is not seed s shifted."""
    names = list(mt._STREAMS) + ["shuffles_a", "shuffles_b", "noise_val", "pool_shuffles", "train_rows"]
    starts = {}
    for seed in (0, 1, 2, *seeding.run_seeds(0, 3, "grid")):
        for name in names:
            key = tuple(torch.randn(4, generator=seeding.torch_generator(seeding.stream(seed, name))).tolist())
            assert key not in starts, f"{(seed, name)} coincides with {starts[key]}"
            starts[key] = (seed, name)
    two = mt.draw_tasks([0, 1], n_train_a=5, n_train_b=5, n_val=5, dtype=torch.float64)
    assert not torch.equal(two.x_a[0], two.x_b[0]) and not torch.equal(two.x_a[0], two.x_val[0])
    assert not torch.equal(two.x_a[0], two.x_a[1]) and not torch.equal(two.noise_a[0], two.noise_b[0])
    alone = mt.draw_tasks([1], n_train_a=5, n_train_b=5, n_val=5, dtype=torch.float64)
    assert torch.equal(alone.x_a[0], two.x_a[1])  # a seed's draws do not depend on the other seeds


def test_none_is_fresh_entropy():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, b = (sm.softmax_curvature(W, n_samples=16) for _ in range(2))
    assert not np.array_equal(a, b)
