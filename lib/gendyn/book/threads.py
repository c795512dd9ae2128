"""The CPU threads of a chapter run when several chapters run at once (``make runs JOBS=4``).

``make runs JOBS=N`` (or ``make -jN runs``) executes up to ``N`` chapters concurrently; each should then
use its share of the machine, ``max(1, cores // N)`` threads, instead of every chapter starting one thread
(or one grid worker process) per core and all of them fighting over the cores. The Makefile passes ``N``
to the pipeline as ``$GENDYN_JOBS``; ``tools/chapters.py`` turns it into the chapter's thread count
(:func:`chapter_threads`) and starts the chapter's kernel with that count in the environment
(:func:`thread_environment`: ``GENDYN_THREADS`` and the ``OMP``/``MKL``/``OpenBLAS``/``numba`` variables the
numerical libraries read when they load); :func:`gendyn.book.chapter.start` sets torch's thread count from
it (:func:`apply`), and the Lee & Ndirango grids run that many worker processes (:func:`workers`).

Without ``$GENDYN_JOBS`` (or with 1) and without ``$GENDYN_THREADS`` a chapter run alone keeps torch's,
MKL's and numba's defaults (one thread per core).

numpy's OpenBLAS gets **one thread in every chapter run** (:data:`NUMPY_BLAS`), whatever the share, unless
``$OPENBLAS_NUM_THREADS`` is set by hand: the chapters' numpy linear algebra is small and medium SVDs and
eigendecompositions, which OpenBLAS's threads make slower, not faster, on a few cores (``numpy.linalg.svd`` of
a 100 x 100 matrix: 3 ms of CPU on one thread against 86 ms on two, of a 800 x 800 one 0.38 s against 2.8 s,
measured on the 2-core machine under load; about 10x for small ones when idle). torch's products use MKL and
OpenMP, not OpenBLAS, and keep their threads. ``$GENDYN_THREADS`` set by hand
overrides the share. The trainers of :mod:`gendyn` spread their own work over the share: :mod:`gendyn.train`
trains parts of its batch and :mod:`gendyn.committee_sgd` its runs each on a thread of their own, with
torch's threads inside the products off, in a way that gives the same bytes at any thread count, so
their results do not depend on the share.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["THREADS", "JOBS", "LIBRARY_VARIABLES", "NUMPY_BLAS", "share", "available_cores", "chapter_threads",
           "thread_environment", "apply", "workers"]

#: The thread count of a chapter run (set by the pipeline, or by hand).
THREADS = "GENDYN_THREADS"
#: How many chapter runs share the machine (``make runs JOBS=N`` sets it).
JOBS = "GENDYN_JOBS"
#: The variables the numerical libraries read for their thread pools when they load.
LIBRARY_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS")
#: numpy's BLAS (OpenBLAS) in a chapter run: one thread (module docstring), unless set by hand.
NUMPY_BLAS = {"OPENBLAS_NUM_THREADS": "1"}


def share(cores: int, jobs: int) -> int:
    """Threads of each of ``jobs`` concurrent runs on ``cores`` cores: ``max(1, cores // jobs)``."""
    if isinstance(cores, bool) or not isinstance(cores, int) or cores < 1:
        raise ValueError(f"cores must be an integer >= 1; got {cores!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1; got {jobs!r}")
    return max(1, cores // jobs)


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _positive(environ, name):
    text = environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"${name} must be an integer >= 1; got {text!r}")
    return value


def chapter_threads(environ: Mapping[str, str] | None = None, cores: int | None = None) -> int | None:
    """The thread count of a chapter run: ``$GENDYN_THREADS`` if set, else :func:`share` of the
    ``cores`` (default :func:`available_cores`) among ``$GENDYN_JOBS`` runs if that is above 1, else
    ``None`` (the libraries' defaults)."""
    environ = os.environ if environ is None else environ
    threads = _positive(environ, THREADS)
    if threads is not None:
        return threads
    jobs = _positive(environ, JOBS)
    if jobs is None or jobs == 1:
        return None
    return share(available_cores() if cores is None else cores, jobs)


def thread_environment(threads: int | None, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a chapter's kernel for ``threads`` threads (``None``: the libraries' defaults).

    numpy's OpenBLAS gets :data:`NUMPY_BLAS` (one thread) in either case, unless ``environ`` (default
    ``os.environ``) already sets ``OPENBLAS_NUM_THREADS``.
    """
    environ = os.environ if environ is None else environ
    env = {} if threads is None else {name: str(threads) for name in (THREADS, *LIBRARY_VARIABLES)}
    for name, value in NUMPY_BLAS.items():
        env[name] = environ.get(name) or value
    return env


def apply(environ: Mapping[str, str] | None = None) -> int | None:
    """Set torch's thread count to ``$GENDYN_THREADS`` (a chapter's start-up); returns it, or ``None``
    (nothing changed) when it is not set."""
    environ = os.environ if environ is None else environ
    threads = _positive(environ, THREADS)
    if threads is not None:
        import torch

        torch.set_num_threads(threads)
    return threads


def workers(environ: Mapping[str, str] | None = None) -> int:
    """Worker processes for a chapter's grids: its thread count (:func:`chapter_threads`), or one per core."""
    threads = chapter_threads(environ)
    return available_cores() if threads is None else threads
