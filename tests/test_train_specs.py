"""The specs of gendyn.train, gendyn.task_data and gendyn.teachers (Issue 33): checked when made, and the old
flat call forms, deprecated, give the very same results."""

import numpy as np
import pytest
import torch

from gendyn import task_data, teachers, train


def gen(seed=0):
    return torch.Generator().manual_seed(seed)


def _sweep():
    return train.snr_sweep([2.0], [1, 2], 2, 8, 4, rng=gen(0))


def _same(a, b):
    for name in a.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y, equal_nan=True), name
        elif isinstance(x, tuple) and x and isinstance(x[0], torch.Tensor):
            assert all(torch.equal(u, v) for u, v in zip(x, y)), name
        else:
            assert x == y, name


# ----------------------------------------------------------------------------------------
# old form == new form, with a DeprecationWarning that names the new form
# ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("activation", [None, "leaky_relu"])
def test_train_students_flat_form_is_deprecated_and_identical(activation):
    sweep = _sweep()
    flat = dict(hidden=3, n_layers=4, lr=0.05, epochs=30, init=("aligned", "random") * 2, eps=1e-3,
                teacher=sweep.teacher, n_test=50, activation=activation, slope=0.3, n_records=5,
                modes=0 if activation else 2, dtype=torch.float64, desc=None, check_stability=False)
    new = train.train_students(
        sweep.sigma31, train.Architecture(hidden=3, n_layers=4, activation=activation, slope=0.3),
        train.Schedule(lr=0.05, epochs=30, n_records=5, check_stability=False),
        start=train.Start(init=("aligned", "random") * 2, eps=1e-3),
        evaluation=train.Evaluation(teacher=sweep.teacher, n_test=50, modes=0 if activation else 2),
        execution=train.Execution(dtype=torch.float64, desc=None), rng=gen(1))
    with pytest.warns(DeprecationWarning, match=r"train_students\(data, Architecture\(hidden=\.\.\.\)"):
        old = train.train_students(sweep.sigma31, rng=gen(1), **flat)
    _same(new, old)
    assert new.time.shape == (5,) and np.isfinite(new.test_error).all()


def test_train_specs_splits_the_flat_keywords():
    specs = train.train_specs(hidden=4, lr=0.1, epochs=7, teacher=None, modes=1, rng=None)
    assert specs["architecture"] == train.Architecture(hidden=4)
    assert specs["schedule"] == train.Schedule(lr=0.1, epochs=7)
    assert specs["evaluation"].modes == 1 and specs["rng"] is None
    assert "start" not in specs and "execution" not in specs
    with pytest.raises(ValueError, match=r"^unknown train_students keyword\(s\) \['width'\]"):
        train.train_specs(hidden=4, width=3)
    with pytest.raises(ValueError, match=r"^hidden is required"):
        train.train_specs(lr=0.1)


def test_train_students_refuses_specs_and_flat_keywords_together():
    sweep = _sweep()
    with pytest.raises(ValueError, match=r"either as specs .* or as flat keywords"):
        train.train_students(sweep.sigma31, train.Architecture(hidden=2), lr=0.1)
    with pytest.raises(ValueError, match=r"^architecture must be an Architecture"):
        train.train_students(sweep.sigma31)
    with pytest.raises(ValueError, match=r"^schedule must be a Schedule"):
        train.train_students(sweep.sigma31, train.Architecture(hidden=2), dict(lr=0.1))


def test_train_ta_and_random_old_form_is_deprecated_and_identical():
    sweep = _sweep()
    kw = dict(lr=0.05, record_at=[0, 3, 10], eps=1e-3)
    new = train.train_ta_and_random(sweep, train.Architecture(hidden=3, n_layers=3), rng=gen(2), **kw)
    with pytest.warns(DeprecationWarning, match=r"train_ta_and_random\(sweep, Architecture\("):
        old = train.train_ta_and_random(sweep, hidden=3, n_layers=3, rng=gen(2), **kw)
    _same(new, old)
    with pytest.raises(ValueError, match=r"^architecture must be of linear students with one head"):
        train.train_ta_and_random(sweep, train.Architecture(hidden=3, activation="leaky_relu"), **kw)
    with pytest.raises(ValueError, match=r"^unknown train_ta_and_random keyword"):
        train.train_ta_and_random(sweep, hidden=3, n_layers=3, width=2, **kw)
    with pytest.raises(ValueError, match=r"not both"):
        train.train_ta_and_random(sweep, train.Architecture(hidden=3), hidden=3, **kw)
    with pytest.raises(ValueError, match=r"needs both hidden and n_layers"):  # the former form required both
        train.train_ta_and_random(sweep, hidden=3, **kw)


def test_task_pairs_old_form_is_deprecated_and_identical():
    args = ([[3.0, 1.0]], [[2.0, 0.5]], [[[0.4, 0.1], [0.0, 0.3]]])
    new = task_data.task_pairs(*args, task_data.PairSpec(12, 4, 3, noise_std=0.5), output_vectors="axis",
                               rng=gen(3))
    with pytest.warns(DeprecationWarning, match=r"PairSpec\(n1, n3, runs"):
        old = task_data.task_pairs(*args, 12, 4, 3, noise_std=0.5, output_vectors="axis", rng=gen(3))
    with pytest.warns(DeprecationWarning):
        by_name = task_data.task_pairs(*args, n1=12, n3=4, runs=3, noise_std=0.5, output_vectors="axis",
                                       rng=gen(3))
    for other in (old, by_name):
        assert torch.equal(new.sigma31, other.sigma31) and torch.equal(new.teacher, other.teacher)
        assert (new.n3, new.runs) == (other.n3, other.runs)
    with pytest.raises(ValueError, match=r"^spec must be a PairSpec"):
        task_data.task_pairs(*args)
    with pytest.raises(ValueError, match=r"unknown or repeated task_pairs keyword\(s\) \['n1'\]"):
        task_data.task_pairs(*args, 12, 4, 3, n1=12)


@pytest.mark.parametrize("branches", [False, True])
def test_leaky_relu_task_pairs_old_form_is_deprecated_and_identical(branches):
    args = ([2.0, 5.0], [1.0, 1.0], [1.0, 0.0])
    new = task_data.leaky_relu_task_pairs(*args, task_data.PairSpec(10, 4, 2, noise_std=0.7),
                                          teachers=task_data.LeakyTeachers(rank=2, slope=0.1, branches=branches),
                                          rng=gen(4))
    with pytest.warns(DeprecationWarning, match=r"teachers=LeakyTeachers\(rank=\.\.\."):
        old = task_data.leaky_relu_task_pairs(*args, 10, 4, 2, rank=2, slope=0.1, noise_std=0.7, branches=branches,
                                              rng=gen(4))
    assert torch.equal(new.sigma31, old.sigma31) and torch.equal(new.teacher, old.teacher)
    with pytest.raises(ValueError, match=r"not both"):
        task_data.leaky_relu_task_pairs(*args, 10, 4, 2, rank=2, teachers=task_data.LeakyTeachers())
    with pytest.raises(ValueError, match=r"^teachers must be a LeakyTeachers"):
        task_data.leaky_relu_task_pairs(*args, task_data.PairSpec(10, 4, 2), teachers=dict(rank=2))


def test_measure_spikes_old_form_is_deprecated_and_identical():
    sbar = [[2.0], [0.5]]
    new = teachers.measure_spikes(sbar, 16, 0.5, 3, rng=5, keep_spectra=2,
                                  execution=teachers.SpikeExecution(device="cpu", dtype=torch.float64, chunk=2))
    with pytest.warns(DeprecationWarning, match=r"execution=SpikeExecution\("):
        old = teachers.measure_spikes(sbar, 16, 0.5, 3, rng=5, keep_spectra=2, device="cpu", dtype=torch.float64,
                                      chunk=2)
    _same(new, old)
    with pytest.raises(ValueError, match=r"not both"):
        teachers.measure_spikes(sbar, 16, 0.5, 3, chunk=2, execution=teachers.SpikeExecution())
    with pytest.raises(ValueError, match=r"^unknown measure_spikes keyword"):
        teachers.measure_spikes(sbar, 16, 0.5, 3, block=2)


# ----------------------------------------------------------------------------------------
# the specs are checked when they are made: the message names the field and what is allowed
# ----------------------------------------------------------------------------------------

_TEACHER = torch.zeros(1, 2, 3)


@pytest.mark.parametrize("make, match", [
    (lambda: train.Architecture(hidden=0), r"^hidden must be an integer >= 1 \(hidden width N2\)"),
    (lambda: train.Architecture(hidden=2, n_layers=2), r"^n_layers must be an integer >= 3"),
    (lambda: train.Architecture(hidden=2, activation="relu"), r"^activation must be one of"),
    (lambda: train.Architecture(hidden=2, slope=1.5), r"^slope \(of the leaky ReLU\) must be"),
    (lambda: train.Architecture(hidden=2, output_activation=1), r"^output_activation must be True or False"),
    (lambda: train.Architecture(hidden=2, heads=(2, 0)), r"^heads must be a non-empty sequence of integers >= 1"),
    (lambda: train.Schedule(lr=0.0), r"^lr must be"),
    (lambda: train.Schedule(epochs=0), r"^epochs must be an integer >= 1"),
    (lambda: train.Schedule(epochs=5, record_at=[0, 6]), r"^record_at must be a non-empty sequence of integer "
                                                         r"epochs in \[0, 5\]"),
    (lambda: train.Schedule(n_records=1), r"^n_records must be an integer >= 2"),
    (lambda: train.Schedule(check_stability="yes"), r"^check_stability must be True or False"),
    (lambda: train.Start(init="balanced"), r"^init must be one of \('aligned', 'random'\)"),
    (lambda: train.Start(init=3), r"^init must be one of .* or a sequence of them"),
    (lambda: train.Start(eps=0.0), r"^eps .*> 0"),
    (lambda: train.Start(eps=[[1e-3]]), r"^eps must be a number > 0 or a 1-d sequence"),
    (lambda: train.Start(weights=[np.eye(2)]), r"^weights must be a non-empty sequence of torch tensors"),
    (lambda: train.Evaluation(teacher="wbar"), r"^teacher must be a torch tensor"),
    (lambda: train.Evaluation(test_data=(1, 2, 3)), r"^test_data must be None or a pair"),
    (lambda: train.Evaluation(teacher=_TEACHER, test_data=(_TEACHER, _TEACHER)), r"^give at most one of teacher"),
    (lambda: train.Evaluation(n_test=0), r"^n_test must be an integer >= 1"),
    (lambda: train.Evaluation(modes=-1), r"^modes must be an integer >= 0"),
    (lambda: train.Execution(dtype=torch.int32), r"^dtype must be"),
    (lambda: train.Execution(device="gpu"), r"^device must be 'cpu', 'cuda' or 'cuda:N'"),
    (lambda: train.Execution(num_threads=0), r"^num_threads must be an integer >= 1"),
    (lambda: train.Execution(desc=3), r"^desc must be"),
    (lambda: task_data.PairSpec(0, 2, 1), r"^n1 must be an integer >= 1"),
    (lambda: task_data.PairSpec(4, 2.0, 1), r"^n3 must be an integer >= 1"),
    (lambda: task_data.PairSpec(4, 2, True), r"^runs must be an integer >= 1"),
    (lambda: task_data.PairSpec(4, 2, 1, noise_std=-1.0), r"^noise_std must be a finite number >= 0"),
    (lambda: task_data.LeakyTeachers(rank=0), r"^rank must be an integer >= 1"),
    (lambda: task_data.LeakyTeachers(slope=2.0), r"^slope must be"),
    (lambda: task_data.LeakyTeachers(branches="no"), r"^branches must be True or False"),
    (lambda: teachers.SpikeExecution(device="tpu"), r"^device must be 'cpu', 'cuda' or 'cuda:N'"),
    (lambda: teachers.SpikeExecution(dtype=torch.float16), r"^dtype must be"),
    (lambda: teachers.SpikeExecution(chunk=0), r"^chunk must be an integer >= 1"),
])
def test_specs_refuse_bad_fields_by_name(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_specs_are_frozen_and_normalised():
    arch = train.Architecture(hidden=2, heads=[1, 1])
    assert arch.heads == (1, 1) and arch.linear
    assert train.Schedule(epochs=9, record_at=np.array([0, 9])).record_at == (0, 9)
    assert task_data.PairSpec(np.int64(4), 2, 1, noise_std=1).noise_std == 1.0
    assert teachers.SpikeExecution(device="cpu").device == torch.device("cpu")
    with pytest.raises(AttributeError):
        arch.hidden = 3
