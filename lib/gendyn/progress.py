"""Progress bars that show in the terminal but never in a rendered notebook.

Inside a Jupyter kernel ``sys.stderr`` is captured into the notebook, so a tqdm bar
would be stored in the page. :func:`track` writes to ``sys.__stderr__`` instead: the
kernel process's own stderr, which papermill and Jupyter print to the terminal.
Set ``GENDYN_PROGRESS=0`` to silence the bars altogether.
"""

import os
import sys

from tqdm import tqdm

__all__ = ["track"]


def track(iterable, desc=None, total=None):
    """Iterate over ``iterable`` with a terminal progress bar (see module docstring).

    ``desc`` labels the bar (a str or ``None``); ``total`` is the number of items (an integer
    ``>= 0``, or ``None``: ``len(iterable)`` where it has one).
    """
    from . import _checks

    try:
        iter(iterable)
    except TypeError:
        raise ValueError(f"iterable must be an iterable (a list, range, generator, ...); got "
                         f"{_checks._show(iterable)}") from None
    _checks.text(desc, "desc", optional=True)
    if total is not None:
        total = _checks.integer(total, "total", 0, " (the number of items) or None")
    stream = sys.__stderr__
    disable = os.environ.get("GENDYN_PROGRESS", "1") == "0" or stream is None
    return tqdm(iterable, desc=desc, total=total, file=stream, disable=disable, leave=False,
                mininterval=1.0)
