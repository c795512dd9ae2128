"""The grids of multitask_train run on any concurrent.futures executor with identical results:
in-process, local worker processes, and a real Dask cluster (a LocalCluster on this machine)."""

import dataclasses
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

from gendyn import allocator, multitask_train as mt
from flat_grid import run_flat


GRID = dict(seeds=[0, 1], n_train=[20, 30], s_a=[1.0, 4.0], s_b=[2.0], relatedness=[0.0, 1.0], n_features=6,
            rank=2, hidden=4, n_val=30, steps=8, eval_every=4, dtype=torch.float64, progress=False)


def _assert_same(a, b):
    assert a.cells == b.cells
    for name in ("mt_loss", "st_loss", "mt_best_step", "st_best_step"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    for x, y in zip(a.bounds, b.bounds):
        np.testing.assert_array_equal(x, y)


@pytest.fixture(scope="module")
def in_process():
    return run_flat(**GRID)


def test_local_processes_give_the_same_grid(in_process):
    _assert_same(in_process, run_flat(**GRID, workers=2))


def test_any_executor_gives_the_same_grid(in_process):
    with ThreadPoolExecutor(1) as pool:  # threads would share torch's process-wide thread count
        _assert_same(in_process, run_flat(**GRID, executor=pool))


@pytest.fixture
def environment_kept():
    """Dask's nannies set OMP_NUM_THREADS=1, PYTHONHASHSEED and more in this process's
    environment; chapters run later by the same pytest would inherit them (and compute with
    one thread): put the environment back."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def test_a_dask_cluster_gives_the_same_grid(in_process, environment_kept):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster, distributed.Client(cluster) as client:
        client.run(allocator.retain_freed_memory)
        _assert_same(in_process, run_flat(**GRID, executor=client.get_executor()))


def test_executor_must_submit():
    with pytest.raises(ValueError, match="executor"):
        run_flat(**GRID, executor="tcp://127.0.0.1:8786")


def test_retaining_freed_memory_is_harmless():
    assert allocator.retain_freed_memory() in (True, False)
    assert allocator.retain_freed_memory() in (True, False)  # idempotent


def test_a_dask_cluster_leaves_the_environment_alone(environment_kept):
    before = dict(os.environ)
    distributed = pytest.importorskip("distributed")
    from gendyn.book import grids

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        os.environ.clear()
        os.environ.update(before)
        grids._on_cluster(cluster.scheduler_address, dict(GRID, seeds=[0], n_train=[20]))
    assert dict(os.environ) == before


def test_blocks_of_runs_give_the_same_grid(in_process):
    """Training the runs in blocks (cache-sized working sets) changes only float rounding."""
    blocked = run_flat(**GRID, block=3)
    assert blocked.cells == in_process.cells
    np.testing.assert_array_equal(blocked.mt_best_step, in_process.mt_best_step)
    np.testing.assert_allclose(blocked.mt_loss, in_process.mt_loss, rtol=1e-12)
    np.testing.assert_allclose(blocked.st_loss, in_process.st_loss, rtol=1e-12)


def test_blocks_keep_minibatches_and_curves():
    data = mt.draw_tasks([0], n_train_a=30, n_train_b=30, n_val=20, dtype=torch.float64,
                         teachers=mt.TeacherPair(n_features=6, rank=2))
    w = mt.init_student([0], n_features=6, n_classes=2, dtype=torch.float64,
                        students=mt.GridStudents(hidden=4, depth=2, activation="relu"))
    kw = dict(sets=mt.TrainingSets(x_b=data.x_b, y_b=data.labels_b([1.0, 2.0, 3.0], [0.5, 0.0, 1.0])),
              schedule=mt.GridSchedule(lr=0.1, steps=12, eval_every=4))
    options = mt.TrainOptions(activation="relu", batch_size=10)
    whole = mt.train_students(data.x_a, data.labels_a([1.0, 2.0, 3.0]), data.x_val, data.labels_val(), w,
                              options=options, **kw)
    parts = mt.train_students(data.x_a, data.labels_a([1.0, 2.0, 3.0]), data.x_val, data.labels_val(), w,
                              options=dataclasses.replace(options, block=2), **kw)
    np.testing.assert_allclose(parts.val_loss, whole.val_loss, rtol=1e-12)
    np.testing.assert_allclose(parts.train_loss, whole.train_loss, rtol=1e-12)
    np.testing.assert_array_equal(parts.eval_steps, whole.eval_steps)
    with pytest.raises(ValueError, match="block"):
        mt.train_students(data.x_a, data.labels_a([1.0]), data.x_val, data.labels_val(), w,
                          sets=mt.TrainingSets(x_b=data.x_b, y_b=data.labels_b([1.0], [0.5])),
                          options=mt.TrainOptions(block=0))


def test_the_authors_protocol_runs_on_local_processes_and_a_dask_cluster(environment_kept):
    """interleaved_sgd.train_cells through gendyn.book.grids.job_executor: the same numbers anywhere."""
    from gendyn import interleaved_sgd as il
    from gendyn.book import grids

    cells = [dict(n_train_a=12, n_train_b=24, s_a=1.0, s_b=3.0, relatedness=0.5), dict(n_train_a=12, s_a=2.0)]
    opts = dict(n_val=10, teachers=mt.TeacherPair(n_features=6, rank=2), trunk=il.Trunk(hidden=4, depth=2),
                schedule=il.SGDSchedule(lr=0.05, epochs=3, batch_size=5, record_every=10))
    here = il.train_cells(cells, [3, 4], **opts)
    with grids.job_executor("", workers=1) as in_process:
        np.testing.assert_array_equal(in_process.submit(il.train_cells, cells, [3, 4], **opts).result().multitask,
                                      here.multitask)
        with pytest.raises(ValueError, match="cells"):
            in_process.submit(il.train_cells, [], [3]).result()
    with grids.job_executor("", workers=2) as pool:
        local = il.train_cells(cells, [3, 4], **opts, execution=il.Execution(executor=pool))
    np.testing.assert_array_equal(local.single_task, here.single_task)
    np.testing.assert_array_equal(local.multitask, here.multitask)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        with grids.job_executor(cluster.scheduler_address) as client:
            remote = il.train_cells(cells, [3, 4], **opts, execution=il.Execution(executor=client))
    np.testing.assert_array_equal(remote.single_task, here.single_task)
    np.testing.assert_array_equal(remote.multitask, here.multitask)
