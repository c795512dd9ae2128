"""Fuzz: every public function of gendyn.multitask_train refuses bad arguments clearly.

``reference_data_dir``, ``load_reference`` and ``reference_benefits``, the old names of
:mod:`gendyn.published_runs`, are fuzzed with that module (test_fuzz_published_runs.py).
"""

import numpy as np
import pytest
import torch

from fuzzing import Case, findings, fuzz
from gendyn import multitask_train as mt
from gendyn.book import grids, scales

F64 = dict(dtype=torch.float64, device="cpu")
DATA = mt.draw_tasks([0], n_train_a=8, n_train_b=6, n_val=5, **F64, teachers=mt.TeacherPair(n_features=6, rank=2))
Y_A = DATA.labels_a([1.0, 2.0])  # (S, P_a, R) with R = 2 runs
Y_B = DATA.labels_b([1.0, 2.0], [0.5, 1.0])
W0 = mt.init_student([0], n_features=6, n_classes=2, n_heads=2, **F64, students=mt.GridStudents(hidden=3))
GRID = dict(seeds=[0], n_train=[6], n_train_aux=None, s_a=(1.0,), s_b=(1.0,), relatedness=(0.5,), rank=2,
            n_features=4, hidden=3, depth=1, activation="linear", n_val=5, lr=0.5, steps=2, eval_every=1,
            init_scale=1.0, loss="ce", dtype=torch.float64, draw_dtype=None, device="cpu", arithmetic="plain",
            num_threads=1, workers=1,
            keep_curves=False, progress=False)
GRID_OK = dict(n_train_aux={"none"}, relatedness={"zero"}, keep_curves={"bool"}, progress={"bool"},
               draw_dtype={"none"})
RESULT = mt.run_grid(**mt.grid_specs(**dict(GRID, seeds=[0, 1], s_a=(1.0, 2.0))))  # two seeds: standard errors
SETUP = dict(n_classes=2, n_train=20, n_val=5, lr=0.5, horizon=1.0, n_features=4, s0=1e-3)  # two steps


@pytest.fixture(autouse=True)
def _cache_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("GENDYN_CACHE_DIR", str(tmp_path))  # cached_grid writes its pickles there


CASES = [
    Case(mt.draw_tasks,
         dict(seeds=[0], n_train_a=8, n_train_b=6, n_val=5, teachers=mt.TeacherPair(n_features=6, rank=2), **F64),
         accepted=dict(n_train_b={"zero"}, teachers={"none"})),  # None: the default TeacherPair()
    Case(mt.TeacherPair, dict(n_features=6, rank=2, n_classes=None, noise_std=None),
         accepted=dict(n_classes={"none"}, noise_std={"none", "zero"})),
    Case(mt.init_student,
         dict(seeds=[0], n_features=6, n_classes=2, students=mt.GridStudents(hidden=3, depth=1), n_heads=2, **F64),
         accepted=dict(students={"none"})),  # None: the default GridStudents()
    Case(mt.training_aligned_init, dict(x=DATA.x_a, y=Y_A, n_classes=2, s0=1e-3, hidden=4)),
    Case(mt.train_students,
         dict(x_a=DATA.x_a, y_a=Y_A, x_val=DATA.x_val, y_val=DATA.labels_val(), weights=W0,
              sets=mt.TrainingSets(x_b=DATA.x_b, y_b=Y_B), schedule=mt.GridSchedule(lr=0.5, steps=3, eval_every=1),
              options=mt.TrainOptions(keep_trajectory=True)),
         accepted=dict(schedule={"none"}, options={"none"}),  # None: the default spec
         skip={"sets"}),  # None: single-task students, which W0's two heads do not fit (the weights' error)
    Case(mt.TrainingSets, dict(x_b=DATA.x_b, y_b=Y_B, mask_a=None, mask_b=None),
         accepted=dict(mask_a={"none"}, mask_b={"none"})),
    Case(mt.TrainOptions,
         dict(activation="linear", batch_size=None, batch_rng=0, num_threads=1, keep_composite=True,
              keep_trajectory=True, progress=None, block=None),
         accepted=dict(batch_size={"none"}, batch_rng={"zero", "none"}, num_threads={"none"}, keep_composite={"bool"},
                       keep_trajectory={"bool"}, progress={"none", "string", "unknown-name"},  # any label
                       block={"none"})),
    Case(mt.SingleTaskSetup, SETUP),
    Case(mt.train_single_task,
         dict(setup=mt.SingleTaskSetup(**SETUP), s_a=[0.3, 1.0], seeds=[0], init="aligned", hidden=3, init_scale=0.05,
              device="cpu"),
         accepted=dict(seeds={"zero"})),  # seed 0
    Case(mt.grid_snrs, dict(points=3)),
    Case(mt.grid_specs, GRID, accepted=GRID_OK),
    Case(mt.run_grid, dict(mt.grid_specs(**GRID)), accepted=dict(keep_curves={"bool"})),
    *[Case(cls, {f: GRID[f] for f in fields}, accepted={k: v for k, v in GRID_OK.items() if k in fields})
      for cls, fields in ((mt.GridCells, ("n_train", "n_train_aux", "s_a", "s_b", "relatedness")),
                          (mt.GridTask, ("rank", "n_features", "n_val")),
                          (mt.GridStudents, ("hidden", "depth", "activation", "init_scale")),
                          (mt.GridSchedule, ("lr", "steps", "eval_every", "loss")),
                          (mt.GridPrecision, ("dtype", "draw_dtype", "device", "arithmetic")),
                          (mt.GridExecution, ("num_threads", "workers", "progress")))],
    Case(grids.cached_grid, dict(name="fuzz", scale="smoke", **GRID),
         accepted=dict(GRID_OK, name={"string", "unknown-name"})),  # any label of the cache file
    Case(grids.placement, dict(cfg=scales.configure("ln-multitask", "smoke", 0, "cpu"))),
    Case(grids.book_grid, dict(name="rank-10", cfg=scales.configure("ln-multitask", "smoke", 0, "cpu"), depth=None),
         accepted=dict(depth={"none"})),
    # the methods of the data and of the grid's result
    Case(DATA.teacher_b, dict(r=0.5), accepted=dict(r={"zero"})),
    Case(DATA.labels_a, dict(s_a=[1.0, 2.0], noise=True)),
    Case(DATA.labels_b, dict(s_b=[1.0, 2.0], r=[0.5, 1.0], noise=True),
         accepted=dict(s_b={"zero"}, r={"zero"})),  # one value for every run; SNR 0: labels of the noise alone
    Case(DATA.regression_targets_a, dict(s_a=[1.0, 2.0])),
    Case(DATA.regression_targets_b, dict(s_b=[1.0, 2.0], r=[0.5, 1.0]), accepted=dict(s_b={"zero"}, r={"zero"})),
    # GridResult.where(**conditions) takes axis names as keywords: nothing fixed to fuzz
    Case(RESULT.column, dict(name="s_a")),
    Case(RESULT.per_seed, dict(mask=RESULT.where(s_a=1.0), values=None), accepted=dict(values={"none"})),
    Case(RESULT.cell_means, dict(keys=("s_a", "s_b"))),
    Case(RESULT.table, dict(over="seed")),
    Case(mt.benefit_change, dict(grid=RESULT, reference=RESULT)),
    Case(mt.label_agreement, dict(s_a=[0.1, 1.0], n_labels=50, rng=0, rank=2, n_features=4, group=20),
         accepted=dict(rng={"zero", "none"})),
    Case(mt.sampled_loss_gradient, dict(w=np.ones((2, 3)) / 2, sigma=None, n_samples=16, rng=0),
         accepted=dict(sigma={"none"}, rng={"zero", "none"})),
    Case(mt.bayes_cross_entropy, dict(s_a=[0.1, 1.0], n_test=20, rng=0, rank=2, n_features=4),
         accepted=dict(rng={"zero", "none"})),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
