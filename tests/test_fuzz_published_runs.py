"""Fuzz: every public function of gendyn.published_runs (and its old names in multitask_train) refuses bad
arguments clearly."""

import pytest

from fuzzing import Case, findings, fuzz
from gendyn import multitask_train as mt
from gendyn import published_runs

_TABLE = published_runs.single_task("rank-3")

CASES = [
    # directory=None: the project's own copy. Any other value is a folder that does not hold the files.
    Case(published_runs.data_dir, dict(directory=None), accepted=dict(directory={"none"})),
    Case(published_runs.verify, dict(directory=None), accepted=dict(directory={"none"})),
    Case(published_runs.load, dict(name="rank-3", directory=None), accepted=dict(directory={"none"})),
    Case(published_runs.benefits, dict(name="rank-3", directory=None), accepted=dict(directory={"none"})),
    Case(published_runs.single_task, dict(name="rank-3", directory=None), accepted=dict(directory={"none"})),
    # a column value may be any real number (a row matches or not); single_task takes a flag
    Case(published_runs.select, dict(table=_TABLE, s_a=0.01, train_seed=0, main_train_pts=100.0),
         accepted=dict(s_a={"negative", "zero"}, train_seed={"negative", "zero"},
                       main_train_pts={"negative", "zero"})),
    Case(published_runs.select, dict(table=published_runs.load("rank-3"), single_task=True)),
    # the old names
    Case(mt.reference_data_dir, dict(directory=None), accepted=dict(directory={"none"})),
    Case(mt.load_reference, dict(name="rank-3", directory=None), accepted=dict(directory={"none"})),
    Case(mt.reference_benefits, dict(name="rank-3", directory=None), accepted=dict(directory={"none"})),
]


def test_every_public_function_is_fuzzed():
    constants = {"FILES", "N_CLASSES", "NOISE_STD", "DataNotFoundError"}
    assert {c.func.__name__ for c in CASES if c.func.__module__ == published_runs.__name__} | constants == \
        set(published_runs.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{sorted(c.kwargs)[-1]}")
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
