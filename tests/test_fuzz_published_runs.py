"""Fuzz: every public function of gendyn.published_runs (and its old names in multitask_train) refuses bad
arguments clearly."""

from types import SimpleNamespace

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import multitask_train as mt
from gendyn import published_runs

_TABLE = published_runs.single_task("rank-3")
_REFS = {name: published_runs.benefits(name) for name in published_runs.FILES}
_R3 = {k: v[_REFS["rank-3"]["s_b"] == 0.01] for k, v in _REFS["rank-3"].items()}  # cells of five seeds
_COLUMNS = ("main_train_pts", "aux_train_pts", "s_a", "s_b", "relatedness")
_GRID = SimpleNamespace(cells=[dict(n_train=p, n_train_aux=a, s_a=sa, s_b=sb, relatedness=r)
                               for p, a, sa, sb, r in zip(*(_R3[c] for c in _COLUMNS))],
                        benefit=_R3["benefit"])
_SNR = np.array(mt.SNR_GRID)
_FLOOR = published_runs.label_entropy_floor(rng=0, n_samples=64, files=("rank-3",))

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
    # the published cells against other runs
    Case(published_runs.cell_key, dict(depth=1, n_train=100, n_train_aux=100, s_a=0.01, s_b=10.0, relatedness=0.5),
         accepted=dict(depth={"zero"}, n_train={"zero"}, n_train_aux={"zero"}, relatedness={"zero"})),
    Case(published_runs.match_cells, dict(ours={"rank-3": {1: _GRID}}, refs={"rank-3": _R3})),
    Case(published_runs.single_task_cells, dict(name="rank-3", directory=None), accepted=dict(directory={"none"})),
    Case(published_runs.label_entropy_floor, dict(rng=0, n_samples=64, files=("rank-3",)),
         accepted=dict(rng={"zero", "none"})),
    Case(_FLOOR.at, dict(name="rank-3", s=float(_FLOOR.snrs[0]))),
    Case(_FLOOR.smallest_snr, dict(loss=0.5, n_classes=3), accepted=dict(loss={"zero"})),
    Case(published_runs.authors_plan,
         dict(refs=_REFS, snrs=_SNR, groups=[("rank-10", 100, 100, 1)], multitask_cells=[(0.01, 10.0, 0.0)]),
         accepted=dict(groups={"none"}, multitask_cells={"none"})),
    # the old names
    Case(mt.reference_data_dir, dict(directory=None), accepted=dict(directory={"none"})),
    Case(mt.load_reference, dict(name="rank-3", directory=None), accepted=dict(directory={"none"})),
    Case(mt.reference_benefits, dict(name="rank-3", directory=None), accepted=dict(directory={"none"})),
]


def test_every_public_function_is_fuzzed():
    constants = {"FILES", "N_CLASSES", "NOISE_STD", "DataNotFoundError", "BenefitGrid", "MatchedCells",
                 "SingleTaskCell", "LabelEntropyFloor", "AuthorsGroup"}
    assert {c.func.__name__ for c in CASES if c.func.__module__ == published_runs.__name__
            and not hasattr(c.func, "__self__")} | constants == \
        set(published_runs.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{sorted(c.kwargs)[-1]}")
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
