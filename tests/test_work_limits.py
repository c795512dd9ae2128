"""Absurd sizes are refused up front: a 10**12 loop count raises at once, naming the argument.

Each call is a valid fuzz case (tests/test_fuzz_*.py) with one size made absurd; before
gendyn._checks.work_limit these hung for minutes or ran out of memory.
"""

import dataclasses
import importlib
import re

import pytest

from gendyn import _checks

BIG = 10**12

#: (fuzz module, function name, argument, absurd value: an int, or "last" for a list whose last entry is 10**12);
#: an argument "spec.field" is a field of the spec the case passes as ``spec``
ABSURD = [
    ("test_fuzz_committee", "integrate_odes", "times", "last"),
    ("test_fuzz_committee_sgd", "simulate", "times", "last"),
    ("test_fuzz_interleaved_sgd", "batch_schedule", "epochs", BIG),
    ("test_fuzz_interleaved_sgd", "train_interleaved", "schedule.epochs", BIG),
    ("test_fuzz_interleaved_sgd", "train_cells", "schedule.epochs", BIG),
    ("test_fuzz_linear_experiments", "linear_student_gd", "steps", "last"),
    ("test_fuzz_linear_experiments", "simulate_linear_student", "repeats", BIG),
    ("test_fuzz_linear_experiments", "sample_spectra", "repeats", BIG),
    ("test_fuzz_linear_experiments", "random_feature_relu", "hidden", "last"),
    ("test_fuzz_linear_experiments", "random_feature_gd", "steps", "last"),
    ("test_fuzz_multitask_train", "init_student", "n_heads", BIG),
    ("test_fuzz_multitask_train", "train_students", "schedule.steps", BIG),
    ("test_fuzz_softmax_multitask", "softmax_curvature", "n_samples", BIG),
    ("test_fuzz_softmax_multitask", "gaussian_softmax_feature_covariance", "n_samples", BIG),
    ("test_fuzz_softmax_multitask", "composite_flow", "n_samples", BIG),
    ("test_fuzz_softmax_multitask", "noisy_label_entropy", "n_samples", BIG),
    ("test_fuzz_task_data", "task_a_rows", "runs", BIG),
    ("test_fuzz_train", "train_students", "schedule.epochs", BIG),
    ("test_fuzz_train", "snr_sweep", "runs", BIG),
    ("test_fuzz_transfer", "sampled_head_errors", "t", "last"),
    ("test_fuzz_deep_linear", "TaStudent", "n_layers", BIG),  # the TA student of sampled_head_errors and the theory
    ("test_fuzz_deep_linear", "mode_strength", "n_layers", BIG),
    ("test_fuzz_rmt", "mp_rule", "order", BIG),
    ("test_fuzz_stopping", "minimum_over_time", "points", BIG),
]


def _case(module, name):
    cases = [c for c in importlib.import_module(module).CASES if c.func.__name__ == name]
    assert cases, f"no fuzz case of {name} in {module}"
    return cases[0]


@pytest.mark.parametrize("module, name, argument, value", ABSURD, ids=lambda v: str(v) if isinstance(v, str) else None)
def test_an_absurd_size_is_refused_at_once_naming_it(module, name, argument, value):
    case = _case(module, name)
    spec, _, field = argument.rpartition(".")
    kwargs = dict(case.kwargs)
    if value == "last":
        value = [*list(kwargs[argument])[:-1], BIG]
    if spec:  # a field of a spec (gendyn's "Specs" convention)
        kwargs[spec] = dataclasses.replace(kwargs[spec], **{field: value})
    else:
        kwargs[field] = value
    # refused before any work: without the check these calls run for minutes to years (no timed
    # assertion here: speed targets live in the benchmarks)
    with pytest.raises(ValueError, match=rf"\b{re.escape(field)}\b") as error:
        case.func(**kwargs)
    assert re.search(r"\d\.\de\+\d+ floating-point operations|GiB of memory|not finite", str(error.value))


def test_the_limit_says_what_it_estimated_and_can_be_raised(monkeypatch):
    with pytest.raises(ValueError, match=r"^steps=1e12 asks for about 1\.0e\+17 floating-point operations, more than"):
        _checks.work_limit(1e17, "steps=1e12")
    with pytest.raises(ValueError, match=r"^repeats=5 needs about .* GiB of memory at once"):
        _checks.work_limit(1.0, "repeats=5", memory=1e20)
    _checks.work_limit(1e14, "the papers' largest runs")  # never refused
    monkeypatch.setenv("GENDYN_WORK_LIMIT", "1e18")
    _checks.work_limit(1e17, "steps=1e12")
