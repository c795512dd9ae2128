"""Fuzz: every public function of gendyn.interleaved_sgd refuses bad arguments clearly.

Tiny students (2 students, N = 4, 3 units, 2 classes) and one epoch keep each call fast.
"""

import warnings

import pytest
import torch

from fuzzing import Case, findings, fuzz
from gendyn import interleaved_sgd as il
from gendyn import multitask_train as mt

_G = torch.Generator().manual_seed(0)
_X = torch.randn(2, 6, 4, generator=_G, dtype=torch.float64)
_Y = torch.randint(0, 2, (2, 6), generator=_G)
_PARAMS = il.orthogonal_students(2, 4, 2, heads=2, rng=1, trunk=il.Trunk(hidden=3, depth=1))


def _train(**kwargs):
    """train_interleaved's numeric records (the final parameters are tensors, checked elsewhere)."""
    result = il.train_interleaved(**kwargs)
    return {"val_loss": result.val_loss, "val_acc": result.val_acc, "train_loss": result.train_loss}


_train.__name__, _train.__wrapped__ = "train_interleaved", il.train_interleaved


def _cells(**kwargs):
    """train_cells' curves (numpy)."""
    result = il.train_cells(**kwargs)
    return {"multitask": result.multitask, "single_task": result.single_task}


_cells.__name__, _cells.__wrapped__ = "train_cells", il.train_cells
def _old_keyword(**kwargs):
    """orthogonal_students called with ``n_layers``, the deprecated name of ``depth`` (its warning is tested
    in test_interleaved_sgd.py): a bad value is still refused under the name the caller wrote."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return il.orthogonal_students(**kwargs)


_old_keyword.__wrapped__ = il.orthogonal_students
_CELLS = [dict(n_train_a=4, n_train_b=8, s_a=1.0, s_b=2.0, relatedness=0.5),
          dict(n_train_a=4, n_train_b=4, s_a=0.5, s_b=0.0, relatedness=0.0)]  # (single-task cells: NaN multitask curves)

CASES = [
    # ACTIVATIONS is a constant and InterleavedResult a record type: no functions.
    Case(il.orthogonal_students, dict(n_students=2, n_features=4, n_classes=2, trunk=il.Trunk(hidden=3, depth=1),
                                      heads=2, rng=0, dtype=torch.float64, device="cpu"),
         accepted={"rng": {"zero", "none"}, "trunk": {"none"}}),  # None: fresh entropy, the default Trunk()
    Case(_old_keyword, dict(n_students=2, n_features=4, n_classes=2, hidden=3, n_layers=1, heads=2),
         accepted={"n_layers": {"none"}}),  # None: not passed (depth's default)
    Case(il.Trunk, dict(hidden=3, depth=1)),
    Case(il.SGDSchedule, dict(lr=0.1, epochs=1, batch_size=4, activation="relu", record_every=1)),
    Case(il.Execution, dict(dtype=torch.float64, device="cpu", executor=None), accepted={"executor": {"none"}}),
    Case(il.batch_schedule, dict(n_train_a=6, n_train_b=12, batch_size=4, epochs=2, rng=3),
         accepted={"n_train_b": {"zero"}, "rng": {"zero", "none"}}),
    Case(_train, dict(params=_PARAMS, x_a=_X, y_a=_Y, x_val=_X, y_val=_Y, seeds=[1, 2], task_b=(_X, _Y),
                      schedule=il.SGDSchedule(lr=0.1, epochs=1, batch_size=4, activation="relu", record_every=1)),
         accepted={"schedule": {"none"}},  # None: the default SGDSchedule()
         skip={"task_b"}),  # None: single-task students, which _PARAMS' two heads do not fit (the params' error)
    Case(_cells, dict(cells=_CELLS, seeds=[0, 1], teachers=mt.TeacherPair(n_features=6, rank=2), n_val=5,
                      trunk=il.Trunk(hidden=3, depth=1),
                      schedule=il.SGDSchedule(lr=0.1, epochs=1, batch_size=4, activation="relu", record_every=1),
                      execution=il.Execution(dtype=torch.float64)),
         accepted={"seeds": {"zero"}, "n_val": {"none"}, "teachers": {"none"}, "trunk": {"none"},
                   "execution": {"none"}},  # None: the default spec
         skip={"schedule"}),  # None: 2000 epochs, too slow here; SGDSchedule and _train's schedule are fuzzed
]

# The authors' data protocol (train_cells(data=...)): the settings, the pools and their methods.
_DATA = il.AuthorsData(n_pool=16, clean_validation=True, data_seed=1, model_seed=2)
_POOLS = il.authors_pools(_DATA, n_features=6, rank=2)
CASES += [
    Case(il.AuthorsData, dict(n_pool=12, clean_validation=True, data_seed=1, model_seed=2),
         accepted={"data_seed": {"zero"}, "model_seed": {"zero"}}),
    Case(il.authors_pools, dict(data=_DATA, n_features=6, rank=2, n_classes=None, dtype=torch.float64, device="cpu"),
         accepted={"n_classes": {"none"}}),
    Case(_POOLS.training_rows, dict(rng=3), accepted={"rng": {"zero", "none"}}),
    Case(_POOLS.labels_a, dict(s_a=[0.5, 1.0])),
    Case(_POOLS.labels_b, dict(s_b=[0.5, 1.0], r=[0.0, 1.0]), accepted={"s_b": {"zero"}, "r": {"zero"}}),
    Case(_cells, dict(cells=_CELLS, seeds=[0, 1], teachers=mt.TeacherPair(n_features=6, rank=2), n_val=5,
                      trunk=il.Trunk(hidden=3, depth=1),
                      schedule=il.SGDSchedule(lr=0.1, epochs=1, batch_size=4, activation="relu", record_every=1),
                      data=_DATA, execution=il.Execution(dtype=torch.float64)),
         accepted={"seeds": {"zero"}, "n_val": {"none"}, "data": {"none"}, "teachers": {"none"}, "trunk": {"none"},
                   "execution": {"none"}},
         skip={"schedule"}),  # as above
]


def test_every_public_function_is_fuzzed():
    # a method counts for its class (AuthorsPools)
    names = {getattr(c.func, "__wrapped__", c.func).__qualname__.split(".")[0] for c in CASES}
    assert names | {"ACTIVATIONS", "InterleavedResult", "CellRuns"} == set(il.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
