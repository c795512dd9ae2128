"""The Lee & Ndirango grids of the book: presets per scale, and a cache shared by chapters.

Book machinery on top of :mod:`gendyn.multitask_train`: :func:`book_grid` turns a chapter's
:class:`~gendyn.book.scales.RunConfig` into the arguments of
:func:`gendyn.multitask_train.run_grid`, and :func:`cached_grid` runs a grid once per
scale and configuration and keeps the result under :func:`gendyn.book.claims.cache_dir`.
"""

import contextlib
import multiprocessing
import os
import pickle
import re

import numpy as np
import torch

from .. import _checks, seeding
from ..multitask_train import INIT_SCALE, RELATEDNESS_GRID, grid_snrs, grid_specs, run_grid
from .claims import cache_dir
from . import threads
from .scales import SCALES, RunConfig
from .sources import source_hash

__all__ = ["BOOK_GRIDS", "book_grid", "placement", "cached_grid", "grid_key", "job_executor"]

#: Runs of the deep ReLU grid trained together on a CPU (``GridExecution(block=...)``): their
#: activations stay in cache, about a fifth less CPU time than all runs at once (float
#: rounding differs at the 1e-7 level; no gain measured for the linear grids, which keep
#: all runs at once); a GPU takes every run at once.
BLOCK = 16

#: Precision of the deep ReLU grid (Fig. A4) and of its linear reference. In float32 the deepest
#: students' per-cell benefits move by about half their seed-to-seed spread, with a bias, when
#: only the rounding changes; in float64 a perturbation of the size of its rounding moves them by
#: far less than their standard errors (both measured by the aux-data-and-depth chapter). Mixed
#: arithmetic (``GridPrecision(arithmetic="mixed")``: float32 matrix products, float64 weights, updates
#: and losses) moves them by up to several times their seed-to-seed spread at paper scale, for a
#: quarter less CPU time (``benchmarks/a4_precision.py``), so it does not replace float64.
DEEP_DTYPE = torch.float64

#: The book's grids, by the name of the published file they reproduce.
BOOK_GRIDS = ("rank-10", "rank-3", "aux-train-pts", "deep-nonlinear")


def book_grid(name, cfg, depth=None):
    """Arguments of :func:`gendyn.multitask_train.run_grid` for one of the book's grids (:data:`BOOK_GRIDS`),
    written out flat (:func:`gendyn.multitask_train.grid_specs` turns them into its specs).

    ``cfg`` is the :class:`gendyn.book.scales.RunConfig` of chapter ``ln-multitask`` (``rank-10``,
    ``rank-3``) or ``ln-aux-depth`` (``aux-train-pts``, ``deep-nonlinear``, then ``depth``).
    Seeds are ``seeding.run_seeds(cfg.seed, cfg.seeds, name)``: one integer ``rng`` per seed, its own
    series for each grid, except that every depth of ``deep-nonlinear`` (and the chapter's linear
    reference built from it) shares one series on purpose, so that depths are compared on the
    same teachers and data; ``snr_points = n`` keeps ``n`` SNRs of
    :data:`SNR_GRID` evenly spread in log scale including both ends (3: 0.01, 0.63, 10);
    ``relatedness_every = 2`` keeps the relatedness values 0, 0.5, 1. The deep ReLU grid
    trains in :data:`DEEP_DTYPE` (float64), the others in float32. At paper scale the
    grid's programs run in one process per CPU core, or per thread of the chapter's share of the
    cores when chapters run side by side (:func:`gendyn.book.threads.workers`; the results do not
    depend on it).
    With ``cfg.scheduler`` set (the chapter's ``DASK_SCHEDULER``), the returned arguments
    carry ``scheduler``, which :func:`cached_grid` turns into an executor on that cluster.
    """
    _checks.choice(name, "name", BOOK_GRIDS)
    _checks.instance(cfg, "cfg", RunConfig, hint=" (from gendyn.book.scales.configure)")
    if name != "deep-nonlinear" and depth is not None:
        raise ValueError(f"depth applies to the 'deep-nonlinear' grid only; got depth={depth!r} for {name!r}")
    snrs = grid_snrs(cfg.deep_snr_points if name == "deep-nonlinear" else cfg.snr_points)
    kw = dict(seeds=seeding.run_seeds(cfg.seed, cfg.seeds, name), s_a=snrs, s_b=snrs,
              relatedness=RELATEDNESS_GRID[::cfg.relatedness_every], n_val=cfg.n_val, init_scale=INIT_SCALE,
              device=cfg.device, lr=cfg.lr, steps=cfg.steps, eval_every=cfg.eval_every, **placement(cfg))
    if name == "rank-10":
        kw.update(n_train=cfg.n_train, rank=10)
    elif name == "rank-3":
        kw.update(n_train=cfg.rank3_n_train, rank=3)
    elif name == "aux-train-pts":
        kw.update(n_train=(100,), n_train_aux=cfg.aux_n_train, rank=10)
    else:
        if depth not in cfg.deep_depths:
            raise ValueError(f"depth must be one of {cfg.deep_depths} for the deep grid; got {depth!r}")
        kw.update(n_train=cfg.deep_n_train, rank=10, depth=depth, activation="relu", lr=cfg.deep_lr,
                  steps=cfg.deep_steps, eval_every=cfg.deep_eval_every, dtype=DEEP_DTYPE,
                  block=BLOCK if cfg.device == "cpu" else None)
    return kw


def placement(cfg: RunConfig) -> dict:
    """Where a chapter's grid runs, as arguments of :func:`cached_grid`: ``workers`` (one process per CPU
    core, or per thread of the chapter's share of the cores, at paper scale; 1 at smoke scale, where
    processes do not pay off) and, with ``cfg.scheduler`` set (the chapter's ``DASK_SCHEDULER``), the
    ``scheduler`` whose workers run it. Neither changes the result, nor the cache key."""
    _checks.instance(cfg, "cfg", RunConfig, hint=" (from gendyn.book.scales.configure)")
    kw = dict(workers=threads.workers() if cfg.scale == "paper" else 1)
    if cfg.scheduler:
        kw["scheduler"] = cfg.scheduler
    return kw


#: Where and how a grid runs: not part of its result, so not part of its cache key.
_WHERE = ("progress", "workers", "executor")


def grid_key(kwargs):
    """The cache key of :func:`gendyn.multitask_train.run_grid` called with ``kwargs``.

    A hash of the arguments (device and dtypes included), of every library module ``run_grid``
    imports, transitively, with the data they read (:func:`gendyn.book.sources.source_hash`, the
    closure a chapter's run identity uses), of the torch and numpy versions, and of a theory
    mutation if one is applied (:mod:`gendyn.book.mutation`).
    """
    from .mutation import ENVIRONMENT

    arguments = repr(sorted((k, v) for k, v in kwargs.items() if k not in _WHERE)).encode()
    versions = f"torch {torch.__version__} numpy {np.__version__}".encode()
    return source_hash(["gendyn.multitask_train"], arguments, versions,
                       os.environ.get(ENVIRONMENT, "").encode())[:16]


def cached_grid(name, scale, **kwargs):
    """:func:`gendyn.multitask_train.run_grid` with its result cached in :func:`gendyn.book.claims.cache_dir` (shared by chapters).

    The key (:func:`grid_key`) is the arguments and a hash of every library module the grid's
    computation imports, with the data they read, and the torch and numpy versions, so a changed
    library or configuration recomputes. Results are deterministic, so a cached result equals a
    fresh one.

    Parameters
    ----------
    name : str
        Label of the cache file (letters, digits, ``_``, ``-``, ``.``).
    scale : {"smoke", "paper"}
        The run scale (:data:`gendyn.book.scales.SCALES`); the cache folder of that scale.
    **kwargs
        Arguments of :func:`gendyn.multitask_train.run_grid`, and optionally ``scheduler``:
        the address of a Dask scheduler whose workers run the grid's programs (``""``:
        local processes). Neither it nor ``workers``, ``executor`` or ``progress`` is part of
        the key: the result is the same wherever it ran.
    """
    if not (isinstance(name, str) and re.fullmatch(r"[\w.-]+", name)):
        raise ValueError(f"name must be a label for the cache file (letters, digits, '_', '-', '.'); got {name!r}")
    _checks.choice(scale, "scale", SCALES)
    # not part of the key (they do not change the result), so checked before a cache hit
    _checks.integer(kwargs.get("workers", 1), "workers", 1)
    _checks.flag(kwargs.get("progress", True), "progress")
    scheduler = _checks.text(kwargs.pop("scheduler", ""), "scheduler", optional=True) or ""
    path = cache_dir(scale) / f"ln-{name}-{grid_key(kwargs)}.pkl"
    if path.exists():
        with open(path, "rb") as fh:
            return pickle.load(fh)
    if scheduler:
        result = _on_cluster(scheduler, kwargs)
    else:
        result = run_grid(**grid_specs(**kwargs))
    tmp = path.with_suffix(f".{os.getpid()}.partial")  # chapters run in parallel (make -j) may race
    with open(tmp, "wb") as fh:
        pickle.dump(result, fh)
    tmp.replace(path)
    return result


def _on_cluster(address, kwargs):
    """:func:`run_grid` with its programs on the workers of the Dask scheduler at ``address``."""
    with job_executor(address) as executor:
        return run_grid(**grid_specs(**kwargs, executor=executor))


@contextlib.contextmanager
def job_executor(scheduler="", workers=1):
    """An executor for a chapter's independent jobs (a context manager).

    Parameters
    ----------
    scheduler : str
        Address of a Dask scheduler (the chapter's ``DASK_SCHEDULER``); ``""`` or ``None``: this
        machine.
    workers : int
        Local worker processes when there is no scheduler; 1: run each job in this process
        when it is submitted.

    Yields
    ------
    An object with ``submit(fn, *args, **kwargs)`` returning a ``concurrent.futures.Future``:
    ``Client(scheduler).get_executor()``, a spawned process pool, or the in-process executor.

    Every worker keeps freed memory (:func:`gendyn.allocator.retain_freed_memory`); a local
    worker computes on one thread (the processes share the cores). The chapter's environment is
    restored after a cluster run (``distributed`` may set thread variables).
    """
    from concurrent.futures import ProcessPoolExecutor

    from ..allocator import retain_freed_memory

    workers = _checks.integer(workers, "workers", 1)
    if scheduler:
        from distributed import Client  # the optional dependency of cluster runs

        saved = dict(os.environ)
        try:
            with Client(scheduler) as client:
                client.run(retain_freed_memory)
                yield client.get_executor()
        finally:
            os.environ.clear()
            os.environ.update(saved)
    elif workers > 1:
        # spawn, not fork: a forked torch process can hang on the parent's thread pools
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_one_thread_worker) as pool:
            yield pool
    else:
        yield _InProcess()


def _one_thread_worker():
    from ..allocator import retain_freed_memory

    retain_freed_memory()
    torch.set_num_threads(1)


class _InProcess:
    """The trivial executor: ``submit`` runs the job at once and returns its finished future."""

    def submit(self, fn, *args, **kwargs):
        from concurrent.futures import Future

        future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # delivered by result(), as a real executor would
            future.set_exception(error)
        return future
