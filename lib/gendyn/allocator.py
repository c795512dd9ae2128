"""Keep freed memory in the process: a glibc malloc setting for the batched trainers.

Tensors of the batched trainers (tens of MB) exceed glibc's mmap threshold, so by default
every operation maps fresh pages from the kernel and unmaps them when the tensor is freed;
the page faults can cost as much CPU as the arithmetic. Serving large blocks from the heap
and never trimming it removes that churn. The arithmetic is untouched: results are
bit-identical. It is a process-wide setting, so the library applies it only in processes it
owns (the grid workers of ``multitask_train.run_grid``); the book's chapter start-up applies it
to the chapter's kernel.
"""

import ctypes
import sys

_M_TRIM_THRESHOLD = -1  # glibc's malloc.h
_M_MMAP_MAX = -4
_KEEP = 1 << 30  # never give back less than 1 GiB of free heap top


def retain_freed_memory():
    """Serve large allocations from the heap and keep freed memory; ``True`` if applied.

    A no-op (``False``) where the C library is not glibc.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_MMAP_MAX, 0)) and bool(mallopt(_M_TRIM_THRESHOLD, _KEEP))
