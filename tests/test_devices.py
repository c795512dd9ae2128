"""The library's device policy (package docstring of gendyn, "Devices and random numbers").

1. Random numbers are drawn on the generator's device (the CPU for ``None``) and then moved,
   so a CPU generator gives the same data on any device and is accepted by every trainer.
2. Results are numpy arrays on the host (the one documented exception: the final weights of
   ``train.TrainResult``, torch tensors on the training device, to continue training from).

Most of it is checked without a GPU: the source is scanned for draws that bypass the policy
and for chapter code that hands a tensor to numpy without bringing it to the host, and every
result type is checked for tensors. The tests marked ``cuda`` run where a GPU is present: the
same tiny experiments on CPU and CUDA, one CPU generator, must agree.
"""

import ast
import dataclasses
import inspect
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from gendyn import _checks, _random, committee_sgd, linear_experiments as le, multitask_train as mt, train
from gendyn import interleaved_sgd as il, random_features as rf
from gendyn.book.myst import chapter_sources, read_notebook
from flat_grid import run_flat


ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "lib" / "gendyn"
CHAPTERS = chapter_sources(ROOT / "notebooks")
RANDOM_FUNCTIONS = {"randn", "rand", "randint", "randperm", "normal", "bernoulli", "multinomial", "poisson",
                    "randn_like", "rand_like", "randint_like"}
RANDOM_METHODS = {"normal_", "uniform_", "random_", "exponential_", "bernoulli_", "geometric_", "cauchy_",
                  "log_normal_"}
cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")


def _library_draws(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            f = node.func
            if isinstance(f.value, ast.Name) and f.value.id == "torch" and f.attr in RANDOM_FUNCTIONS:
                yield node.lineno, f"torch.{f.attr}"
            elif f.attr in RANDOM_METHODS:
                yield node.lineno, f".{f.attr}"


def test_every_library_draw_goes_through_the_policy():
    bad = [f"{p.relative_to(ROOT)}:{line} {what}" for p in sorted(LIB.rglob("*.py")) if p.name != "_random.py"
           for line, what in _library_draws(p)]
    assert not bad, "random draws that bypass gendyn._random (draw on the generator's device, then move):\n" + \
        "\n".join(bad)


def _chapter_code(path):
    return [c.source for c in read_notebook(path).cells if c.cell_type == "code"]


CHAPTER_MODULES = sorted((LIB / "book" / "chapters").glob("*.py"))


@pytest.mark.parametrize("path", CHAPTERS + CHAPTER_MODULES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_chapters_draw_on_the_cpu_and_bring_tensors_home(path):
    """Chapters and their companion modules (gendyn.book.chapters) alike."""
    code = "\n".join(_chapter_code(path)) if path.suffix != ".py" else path.read_text()
    assert "Generator(device" not in code, "chapters seed CPU generators (the same data on every device)"
    bare = [line.strip() for line in code.splitlines() if re.search(r"(?<!\.cpu\(\))\.numpy\(\)", line)]
    assert not bare, "a tensor that may live on the GPU goes to numpy without .cpu():\n" + "\n".join(bare)


def test_draws_are_torch_draws_on_the_cpu():
    g1, g2 = torch.Generator().manual_seed(3), torch.Generator().manual_seed(3)
    assert torch.equal(_random.randn(4, 5, generator=g1, device="cpu"),
                       torch.randn(4, 5, generator=g2, dtype=torch.float64))
    assert torch.equal(_random.randperm(9, generator=g1), torch.randperm(9, generator=g2))
    assert torch.equal(_random.randn(2, generator=_random.seeded(7), dtype=torch.float32),
                       torch.randn(2, generator=torch.Generator().manual_seed(7)))


def test_a_generator_on_another_device_is_not_an_error():
    # the check knows nothing of the computation's device, so it cannot refuse a generator for it
    assert "device" not in inspect.signature(_checks.torch_generator).parameters
    gen = torch.Generator()
    assert _checks.torch_generator(gen) is gen
    with pytest.raises(ValueError, match="generator"):
        _checks.torch_generator("cpu")


def _assert_on_host(result, allowed=()):
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if f.name in allowed:
            continue
        items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else [value]
        for v in items:
            assert not isinstance(v, torch.Tensor), f"{type(result).__name__}.{f.name} is a torch.Tensor"


def _deep_linear(device):
    sweep = train.snr_sweep([2.0], [1], 2, 6, 5, rng=torch.Generator().manual_seed(0))
    return train.train_students(sweep.sigma31, train.Architecture(hidden=4),
                                train.Schedule(lr=0.05, epochs=40, n_records=5),
                                start=train.Start(init=("aligned", "random")),
                                evaluation=train.Evaluation(teacher=sweep.teacher, modes=1),
                                execution=train.Execution(dtype=torch.float64, device=device),
                                rng=torch.Generator().manual_seed(1))


def _deep_nonlinear(device):
    sweep = train.snr_sweep([2.0], [1], 2, 6, 5, rng=torch.Generator().manual_seed(0))
    return train.train_students(sweep.sigma31, train.Architecture(hidden=4, activation="leaky_relu"),
                                train.Schedule(lr=0.05, epochs=40, n_records=5, check_stability=False),
                                start=train.Start(init="random"), evaluation=train.Evaluation(teacher=sweep.teacher),
                                execution=train.Execution(dtype=torch.float64, device=device),
                                rng=torch.Generator().manual_seed(1))


def _multitask(device):
    data = mt.draw_tasks([0, 1], n_train_a=30, n_train_b=30, n_val=40, dtype=torch.float64, device=device,
                         teachers=mt.TeacherPair(n_features=6, rank=2))
    w = mt.init_student([0, 1], n_features=6, n_classes=data.n_classes, dtype=torch.float64, device=device,
                        students=mt.GridStudents(hidden=5, depth=2, activation="relu"))
    return mt.train_students(data.x_a, data.labels_a([1.0, 2.0]), data.x_val, data.labels_val(), w,
                             sets=mt.TrainingSets(x_b=data.x_b, y_b=data.labels_b([1.0, 2.0], [0.5, 0.5])),
                             schedule=mt.GridSchedule(lr=0.1, steps=12, eval_every=4),
                             options=mt.TrainOptions(activation="relu", batch_size=10))


def _grid(device):
    return run_flat(seeds=[0], n_train=[20], s_a=[1.0], s_b=[2.0], relatedness=[0.5], n_features=6, rank=2,
                       hidden=4, n_val=30, steps=8, eval_every=4, dtype=torch.float64, device=device,
                       progress=False)


def _linear_student(device):
    return le.simulate_linear_student([0.5, 2.0], 8, 2, [0.0, 1.0, 10.0], snr=4.0,
                                      execution=le.Execution(rng=0, device=device))


def _random_features(device):
    return le.random_feature_relu(6, 10, [4, 12], 2, [0.0, 1.0], labels=le.LinearLabels(n_test=20),
                                  execution=le.Execution(rng=0, device=device))


def _random_feature_students(device):
    return rf.random_feature_students(6, 10, [4, 12], 2, [0.0, 1.0], labels=rf.TeacherLabels(n_test=20), decompose=True,
                                      execution=le.Execution(rng=0, device=device))


def _random_features_gd(device):
    return le.random_feature_gd(6, 10, 8, 2, [0, 5], labels=le.LinearLabels(n_test=20),
                                execution=le.Execution(rng=0, device=device))


def _interleaved(device):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2, 20, 6, generator=g, dtype=torch.float64).to(device)
    y = torch.randint(0, 3, (2, 20), generator=g).to(device)
    params = il.orthogonal_students(2, 6, 3, heads=2, rng=1, device=device,
                                    trunk=il.Trunk(hidden=5))
    return il.train_interleaved(params, x, y, x, y, task_b=(x, y), seeds=[3, 4],
                                schedule=il.SGDSchedule(lr=0.1, epochs=3, batch_size=8))


# The student's alignment with the data's modes is not a function of the state while its
# singular values are degenerate (all eps at t = 0, TrainResult.alignment): the SVDs of CPU
# and CUDA pick different singular vectors there, so it is left out of the comparison.
EXPERIMENTS = {"deep-linear": (_deep_linear, ("weights", "alignment")), "deep-nonlinear": (_deep_nonlinear, ("weights",)),
               "multitask": (_multitask, ()), "grid": (_grid, ()), "linear-student": (_linear_student, ()),
               "random-features": (_random_features, ()), "random-features-gd": (_random_features_gd, ()),
               "random-feature-students": (_random_feature_students, ()),
               "interleaved-sgd": (_interleaved, ("params",))}


def _numbers(result, allowed):
    """The numeric arrays of a result, by field name (dicts of arrays flattened)."""
    out = {}
    for f in dataclasses.fields(result):
        v = getattr(result, f.name)
        if f.name in allowed or f.name == "seconds":
            continue
        if isinstance(v, dict):
            out.update({f"{f.name}.{k}": np.asarray(x) for k, x in v.items()
                        if isinstance(x, np.ndarray) and x.dtype.kind == "f"})
        elif isinstance(v, np.ndarray) and v.dtype.kind == "f":
            out[f.name] = v
    return out


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_results_are_numpy_on_the_host(name):
    run, allowed = EXPERIMENTS[name]
    result = run("cpu")
    if dataclasses.is_dataclass(result):
        _assert_on_host(result, allowed)
    else:  # a dict of arrays
        assert all(not isinstance(v, torch.Tensor) for v in result.values())


def test_online_sgd_results_are_numpy():  # a CPU program by design (numba), results on the host
    from gendyn import committee

    init = committee_sgd.initial_weights(20, 2, 2, runs=2, rng=0)
    _assert_on_host(committee_sgd.simulate(init, committee.OnlineSGD(0.5, 0.0), [0.0, 1.0], rng=0))


@cuda
@pytest.mark.parametrize("name", EXPERIMENTS)
def test_cuda_runs_the_same_experiment(name):
    run, allowed = EXPERIMENTS[name]
    on_cpu, on_gpu = run("cpu"), run("cuda")
    if dataclasses.is_dataclass(on_gpu):
        _assert_on_host(on_gpu, allowed)
        a, b = _numbers(on_cpu, allowed), _numbers(on_gpu, allowed)
    else:
        a, b = on_cpu, on_gpu
    assert a.keys() == b.keys()
    for k in a:  # the same draws on both devices; float64 kernels differ only in rounding
        np.testing.assert_allclose(b[k], a[k], rtol=1e-6, atol=1e-9, err_msg=k)
