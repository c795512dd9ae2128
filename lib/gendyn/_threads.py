"""Independent calls on threads of this process: the one pool the library's CPU paths share.

:func:`gendyn.train.train_students` trains the parts of a batch and :func:`gendyn.committee_sgd.simulate`
its runs here. The work handed over must release the GIL while it computes (torch's operations, numba's
``nogil`` loops); otherwise the threads only take turns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def each(fn: Callable[[T], R], items: Iterable[T], workers: int,
         wrap: Callable[[Iterator[R]], Iterable[R]] | None = None) -> list[R]:
    """``[fn(x) for x in items]`` on at most ``workers`` threads, the results in the order of ``items``.

    With one worker (or one item) it is a plain loop in the calling thread. ``wrap``, if given, sees the
    results as they are taken, in order (a progress bar). The first failure in the order of ``items`` is
    raised, after the calls already started have finished.
    """
    items = list(items)
    workers = max(1, min(workers, len(items)))
    if workers == 1:
        results = map(fn, items)
        return list(wrap(results) if wrap else results)
    with ThreadPoolExecutor(workers) as pool:
        results = pool.map(fn, items)
        return list(wrap(results) if wrap else results)
