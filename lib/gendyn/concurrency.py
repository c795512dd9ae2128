"""Independent calls side by side on the CPU threads of this process.

Some runs cannot share one batched call: a Goldt et al. simulation at each of several ``K``,
learning rates or noise levels (:mod:`gendyn.committee_sgd`), or a batch of deep students for
each of several teachers trained at their own learning rates and horizons (:mod:`gendyn.train`).
Such a call's batch is often too small to keep the CPU's cores busy (a deep student's step is
a handful of small matrix products on one thread), so :func:`concurrently` runs several calls
at once, each on a thread of its own. Each call gives the same bytes as alone: its random
numbers come from its own streams (:mod:`gendyn.seeding`), :func:`gendyn.train.train_students`
computes every student on one thread whatever the count, and the compiled loops of
:mod:`gendyn.committee_sgd` seed numba's generator (one per thread) first.

Only work that releases Python's GIL runs in parallel: torch's operations and numba's
``nogil`` loops do; the ODEs of :mod:`gendyn.committee` (scipy's LSODA calling a Python
right-hand side) and numpy's small operations do not, and such calls only take turns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import torch

from . import _checks, _threads

__all__ = ["concurrently"]


def concurrently(fn: Callable[[Any], Any], items: Iterable[Any], *, threads: int | None = None) -> list:
    """``[fn(x) for x in items]`` with the calls side by side on the CPU threads: independent runs at once.

    For runs with settings that differ from call to call, which one batched call cannot hold
    (:func:`gendyn.committee_sgd.stationary_run` at several ``K``; :func:`gendyn.train.train_leaky_and_linear`
    for teachers of different learning rates). Each call gives the same bytes as alone (module docstring).
    Calls that mostly hold the GIL (the ODEs (9) of :meth:`gendyn.committee_sgd.SGDResult.ode`, numpy's
    small operations) only take turns: such calls are better run one after another (two ODE integrations
    side by side take longer than in a row).

    Parameters
    ----------
    fn : callable
        One call, ``fn(item)``.
    items : iterable
        The calls' arguments.
    threads : int, optional (keyword only)
        Calls at a time, ``>= 1``; default ``torch.get_num_threads()`` (a chapter's share of the cores).
        One thread: a plain loop.

    Returns
    -------
    list
        The results, in the order of ``items``.

    Raises
    ------
    Exception
        The first failure in the order of ``items``, after the calls already started have finished.

    Examples
    --------
    >>> from gendyn import committee_sgd as sgd, seeding
    >>> from gendyn.concurrency import concurrently
    >>> def run(L):
    ...     start = sgd.initial_weights(100, 2 + L, 2, "erf", rng=seeding.stream(0, L, "start"))
    ...     return sgd.stationary_run(start, 0.5, 0.1, 50.0, rng=seeding.stream(0, L, "sgd"))
    >>> together = concurrently(run, [0, 1], threads=2)
    >>> [r.sgd for r in together] == [run(L).sgd for L in (0, 1)]
    True
    """
    if not callable(fn):
        raise ValueError(f"fn must be callable (one call, fn(item)); got {fn!r}")
    if not isinstance(items, Iterable):
        raise ValueError(f"items must be an iterable of the calls' arguments; got {items!r}")
    threads = torch.get_num_threads() if threads is None else _checks.integer(threads, "threads", 1)
    return _threads.each(fn, items, threads)
