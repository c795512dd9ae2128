"""Argument checks shared by the library.

Each returns the value as a plain Python number or raises a ``ValueError`` whose message
names the argument, what is allowed and what was given, e.g.
``n3 must be an integer >= 1; got 0``. Booleans are refused where numbers are expected
(``True`` is an ``int`` to Python, never a size or a rate to us).
"""

import numbers

import numpy as np


def integer(value, name, minimum=1, meaning=""):
    """``value`` as an ``int`` if it is an integer ``>= minimum``; ``meaning`` is appended to the message."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}{meaning}; got {value!r}")
    return int(value)


def real(value, name, *, positive=False, extra=""):
    """``value`` as a ``float`` if it is one finite number ``>= 0`` (``> 0`` if ``positive``).

    Numpy scalars and 0-d arrays count as numbers; strings, booleans and arrays do not.
    ``extra`` is appended to what the message says is allowed.
    """
    x = None
    if not isinstance(value, (bool, np.bool_, str, bytes)):
        try:
            x = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            x = None
    if x is None or x.ndim != 0 or not np.isfinite(x) or x < 0 or (positive and x == 0):
        allowed = "> 0" if positive else ">= 0"
        raise ValueError(f"{name} must be a finite number {allowed}{extra}; got {value!r}")
    return float(x)


def choice(value, name, allowed):
    """``value`` if it is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {tuple(allowed)}; got {value!r}")
    return value


def positive(value, name, extra=""):
    """``value`` as a ``float`` if it is one finite number ``> 0`` (see :func:`real`)."""
    return real(value, name, positive=True, extra=extra)
