"""Argument checks shared by the library.

Each returns the value as a plain Python number or raises a ``ValueError`` whose message
names the argument, what is allowed and what was given, e.g.
``n3 must be an integer >= 1; got 0``. Booleans are refused where numbers are expected
(``True`` is an ``int`` to Python, never a size or a rate to us).
"""

import dataclasses
import numbers
import warnings

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


def _kind(value):
    """What sort of option ``value`` is: a flag, an integer, another number, or its type."""
    if isinstance(value, (bool, np.bool_)):
        return "flag"
    if isinstance(value, numbers.Integral):
        return "integer"
    if isinstance(value, numbers.Real):
        return "real"
    if isinstance(value, str):  # numpy's strings too
        return "text"
    return type(value)


def choice(value, name, allowed):
    """``value`` if it is one of ``allowed``, and of the same sort: ``True`` is not the option ``1``
    (nor ``2.0`` the option ``2``), although Python finds them equal."""
    try:
        ok = any(bool(value == a) and _kind(value) == _kind(a) for a in allowed)
    except (TypeError, ValueError):  # an array or an unhashable value: not an option
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {tuple(allowed)}; got {value!r}")
    return value


def positive(value, name, extra=""):
    """``value`` as a ``float`` if it is one finite number ``> 0`` (see :func:`real`)."""
    return real(value, name, positive=True, extra=extra)


# ----------------------------------------------------------------------------------------
# arrays, flags, labels, sequences and torch objects (rmt, deep_linear, teachers,
# shrinkage, transfer, randomised, sampling, train). Same style: the message names the
# argument, says what is allowed and shows what was given.
# ----------------------------------------------------------------------------------------


def _show(value, limit=60):
    """A short ``repr`` of ``value`` for an error message (arrays by their shape)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    shape = getattr(value, "shape", None)
    return f"{type(value).__name__} of shape {tuple(shape)}" if shape is not None else text[:limit] + "..."


def _interval(lower, upper, open_lower, open_upper, allow_inf):
    """``[0, inf)``-style text of the allowed range; an infinite end is closed if ``allow_inf``."""
    if lower is None:
        left = "[-inf" if allow_inf else "(-inf"
    else:
        left = ("(" if open_lower else "[") + f"{lower:g}"
    if upper is None:
        right = "inf]" if allow_inf else "inf)"
    else:
        right = f"{upper:g}" + (")" if open_upper else "]")
    return f"{left}, {right}"


def _has_non_number(items):
    """Whether a (nested) list holds a boolean, string or ``None``."""
    return any(v is None or isinstance(v, (str, bytes, bool, np.bool_))
               or (isinstance(v, (list, tuple)) and _has_non_number(v)) for v in items)


def _as_reals(value):
    """``value`` as a float array if every entry is a real number, else ``None``.

    Strings, booleans, ``None`` and complex numbers are not real numbers here (``True`` is
    an ``int`` to numpy, never a value to us), also inside lists.
    """
    if value is None or isinstance(value, (str, bytes, bool, np.bool_)):
        return None
    if isinstance(value, (list, tuple)) and _has_non_number(value):  # numpy would read True as 1.0
        return None
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError, RuntimeError):  # ragged lists, tensors on a GPU
        return None
    if raw.dtype.kind in "iuf":
        return raw.astype(float, copy=False)
    if raw.dtype.kind == "O":  # a list mixing numbers with other objects
        if any(v is None or isinstance(v, (str, bytes, bool, np.bool_)) for v in raw.flat):
            return None
        try:
            return raw.astype(float)
        except (TypeError, ValueError):
            return None
    return None


def real_array(value, name, *, lower=None, upper=None, open_lower=False, open_upper=False, allow_inf=False,
               ndim=None, extra=""):
    """``value`` as a float ndarray of real numbers in a range, or a ``ValueError`` naming ``name``.

    Parameters
    ----------
    value : array_like
        Numbers, lists or arrays of them (numpy and torch on the CPU); never strings,
        booleans or ``None``.
    name : str
        The argument, as the message names it.
    lower, upper : float, optional
        Bounds of the allowed range (closed unless ``open_lower`` / ``open_upper``).
    allow_inf : bool
        Let ``inf`` / ``-inf`` through (subject to the bounds); NaN is never allowed.
    ndim : int or tuple of int, optional
        Allowed numbers of dimensions (``0``: a single number).
    extra : str
        Appended to what the message says is allowed.

    Returns
    -------
    ndarray of float
        Not copied if ``value`` already is one.
    """
    allowed = f"in {_interval(lower, upper, open_lower, open_upper, allow_inf)}{extra}"
    dims = None if ndim is None else tuple(np.atleast_1d(ndim).tolist())
    if dims == (0,):
        what = f"a real number {allowed}"
    elif dims is None:
        what = f"real numbers {allowed}"
    else:
        what = f"a {' or '.join(f'{d}-d' for d in dims)} array of real numbers {allowed}"
    x = _as_reals(value)
    if x is None:
        raise ValueError(f"{name} must be {what}; got {_show(value)}")
    if dims is not None and x.ndim not in dims:
        raise ValueError(f"{name} must be {what}; got {'an array of ' if x.ndim else ''}shape {x.shape}")
    ok = ~np.isnan(x) if allow_inf else np.isfinite(x)
    if lower is not None:
        ok &= (x > lower) if open_lower else (x >= lower)
    if upper is not None:
        ok &= (x < upper) if open_upper else (x <= upper)
    if not np.all(ok):
        bad = x[~ok].ravel()[:5].tolist() if x.ndim else float(x)
        raise ValueError(f"{name} must be {what}; got {bad}")
    return x


def counts(value, name, minimum=1, *, extra=""):
    """``value`` as a float ndarray if every entry is a whole number ``>= minimum`` (a size, a count).

    Whole floats (``100.0``) pass, as sizes computed in floating point do; ``2.5``, booleans,
    NaN and infinities are refused with a ``ValueError`` naming ``name``.
    """
    x = real_array(value, name, lower=minimum, extra=f" (whole numbers){extra}")
    if not np.all(x == np.floor(x)):
        bad = x[x != np.floor(x)].ravel()[:5].tolist() if x.ndim else float(x)
        raise ValueError(f"{name} must be whole numbers >= {minimum:g}{extra} (a count); got {bad}")
    return x


def bounded(value, name, lower=None, upper=None, *, open_lower=False, open_upper=False, extra=""):
    """``value`` as a ``float`` if it is one finite number in the range (see :func:`real_array`)."""
    return float(real_array(value, name, lower=lower, upper=upper, open_lower=open_lower,
                            open_upper=open_upper, ndim=0, extra=extra))


def flow_times(value, name="times"):
    """Times ``t >= 0`` (``np.inf``: converged) as a 1-d float array: one number or a 1-d array."""
    return np.atleast_1d(real_array(value, name, lower=0, allow_inf=True, ndim=(0, 1),
                                    extra=" (np.inf: converged)"))


def snr(value, name="snr"):
    """One signal-to-noise ratio ``> 0`` as a ``float`` (``np.inf``: noiseless labels)."""
    return float(real_array(value, name, lower=0, open_lower=True, allow_inf=True, ndim=0,
                            extra=" (np.inf: noiseless labels)"))


def widths(value, name="hidden"):
    """Network widths as a 1-d strictly ascending int array (one integer ``>= 1`` or several)."""
    w = np.atleast_1d(integer_array(value, name, 1, ndim=(0, 1)))
    if np.any(np.diff(w) <= 0):
        raise ValueError(f"{name} must be a 1-d strictly ascending array of positive integers; got {w.tolist()}")
    return w


def flag(value, name):
    """``value`` as a ``bool`` if it is ``True`` or ``False`` (numbers, strings and ``None`` are not)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {_show(value)}")
    return bool(value)


def text(value, name, *, optional=False):
    """``value`` if it is a ``str`` (or ``None`` if ``optional``): labels, not options."""
    if not (isinstance(value, str) or (optional and value is None)):
        raise ValueError(f"{name} must be a string{' or None' if optional else ''}; got {_show(value)}")
    return value


def integers(value, name, minimum=1, *, nonempty=True, meaning=""):
    """``value`` as a tuple of ``int`` if it is a sequence of integers ``>= minimum``."""
    items = None
    if not isinstance(value, (str, bytes)) and not (isinstance(value, np.ndarray) and value.ndim != 1):
        try:
            items = tuple(value)
        except TypeError:
            items = None
    if items is None or (nonempty and not items) or not all(
            isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)) and v >= minimum
            for v in items):
        what = "a non-empty sequence" if nonempty else "a sequence"
        raise ValueError(f"{name} must be {what} of integers >= {minimum}{meaning}; got {_show(value)}")
    return tuple(int(v) for v in items)


def tensor(value, name, ndims=None, *, finite=False):
    """``value`` if it is a floating-point ``torch.Tensor`` with ``ndims`` dimensions (finite if asked)."""
    import torch  # the numpy-only modules need not import torch

    if not isinstance(value, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor; got {type(value).__name__}")
    if ndims is not None and value.ndim not in tuple(np.atleast_1d(ndims).tolist()):
        raise ValueError(f"{name} must have {' or '.join(map(str, np.atleast_1d(ndims).tolist()))} dimensions; "
                         f"got shape {tuple(value.shape)}")
    if not torch.is_floating_point(value):
        raise ValueError(f"{name} must be a floating-point tensor; got dtype {value.dtype}")
    if finite and not bool(torch.isfinite(value).all()):
        raise ValueError(f"{name} must have finite entries (no NaN or inf)")
    return value


def torch_device(value, name="device"):
    """``value`` as a ``torch.device`` if it is ``"cpu"``, ``"cuda"`` or ``"cuda:N"`` (str or device)."""
    import torch

    text_ = str(value) if isinstance(value, torch.device) else value
    if not isinstance(text_, str) or not (text_ in ("cpu", "cuda") or (
            text_.startswith("cuda:") and text_[5:].isdigit())):
        raise ValueError(f"{name} must be 'cpu', 'cuda' or 'cuda:N' (a str or torch.device); got {_show(value)}")
    if text_.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"{name}={text_!r} was requested but no CUDA device is available; use {name}='cpu'")
    return torch.device(text_)


def torch_dtype(value, name="dtype", allowed=None):
    """``value`` if it is one of the torch dtypes ``allowed`` (default float32 and float64)."""
    import torch

    allowed = (torch.float32, torch.float64) if allowed is None else tuple(allowed)
    if not isinstance(value, torch.dtype) or value not in allowed:
        raise ValueError(f"{name} must be {' or '.join(map(str, allowed))}; got {_show(value)}")
    return value


def torch_generator(value, name="generator"):
    """``value`` if it is ``None`` or a ``torch.Generator``.

    A generator may live on any device, whatever device the computation runs on: the
    library draws on the generator's device and moves the numbers (``gendyn._random``), so
    it is never a reason to refuse one.
    """
    import torch

    if value is None:
        return None
    if not isinstance(value, torch.Generator):
        raise ValueError(f"{name} must be a torch.Generator or None; got {type(value).__name__}")
    return value


# ----------------------------------------------------------------------------------------
# shapes, integer arrays, class labels and instances (committee, committee_sgd,
# linear_student, linear_experiments, softmax_multitask, task_data, multitask_train).
# Same style: the message names the argument, what is allowed and what was given.
# ----------------------------------------------------------------------------------------


def _shape_text(expected):
    return "(" + ", ".join("..." if s is Ellipsis else "any" if s is None else str(s) for s in expected) + \
        ("," if len(expected) == 1 else "") + ")"


def shape(value, name, expected, *, meaning=""):
    """``value`` (an array or tensor) if its shape matches ``expected``.

    ``expected`` is a tuple of sizes; ``None`` stands for any size and a leading ``...``
    for any number of batch axes, e.g. ``(..., K, K)``. ``meaning`` is appended to the
    message (what the axes are).
    """
    got = tuple(np.shape(value))
    fixed = expected[1:] if expected and expected[0] is Ellipsis else expected
    ok = len(got) == len(fixed) if fixed is expected else len(got) >= len(fixed)
    ok = ok and all(e is None or g == e for g, e in zip(got[len(got) - len(fixed):], fixed))
    if not ok:
        raise ValueError(f"{name} must have shape {_shape_text(expected)}{meaning}; got {got}")
    return value


def _integers(value):
    """``value`` as an ndarray of an integer dtype, else ``None`` (floats, booleans, strings, ``None``)."""
    if value is None or isinstance(value, (str, bytes, bool, np.bool_)) or (
            isinstance(value, (list, tuple)) and _has_non_number(value)):
        return None
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError, RuntimeError):
        return None
    return raw if raw.dtype.kind in "iu" else None


def integer_array(value, name, minimum=0, *, ndim=None):
    """``value`` as an int64 ndarray if every entry is an integer ``>= minimum``.

    Integer dtypes only: floats (even whole ones), booleans and strings are refused, also
    inside lists. ``ndim``: allowed numbers of dimensions (int or tuple).
    """
    dims = None if ndim is None else tuple(np.atleast_1d(ndim).tolist())
    what = "integers" if dims is None else f"a {' or '.join(f'{d}-d' for d in dims)} array of integers"
    raw = _integers(value)
    if raw is None or (dims is not None and raw.ndim not in dims) or (raw.size and raw.min() < minimum):
        raise ValueError(f"{name} must be {what} >= {minimum}; got {_show(value)}")
    return raw.astype(np.int64, copy=False)


def labels(value, name, n_classes, *, expected_shape=None, meaning=""):
    """``value`` if it holds integer class labels in ``[0, n_classes)``: a numpy array or torch tensor.

    Returned unchanged (an ndarray for lists). Negative labels are refused, not wrapped
    around as numpy's and torch's indexing would. ``expected_shape`` as in :func:`shape`.
    """
    n_classes = integer(n_classes, "n_classes", 1)
    what = f"{name} must be integer class labels in [0, {n_classes}){meaning}"
    if type(value).__module__.startswith("torch"):
        import torch

        if not isinstance(value, torch.Tensor) or value.is_floating_point() or value.is_complex() or \
                value.dtype == torch.bool:
            raise ValueError(f"{what}; got {_show(value)}")
        low, high = (int(value.min()), int(value.max())) if value.numel() else (0, 0)
    else:
        given, value = value, _integers(value)
        if value is None:
            raise ValueError(f"{what}; got {_show(given)}")
        low, high = (int(value.min()), int(value.max())) if value.size else (0, 0)
    if expected_shape is not None:
        shape(value, name, expected_shape, meaning=meaning)
    if low < 0 or high >= n_classes:
        raise ValueError(f"{what}; got labels from {low} to {high}")
    return value


def instance(value, name, cls, *, hint=""):
    """``value`` if it is an instance of ``cls``; ``hint`` says where one comes from."""
    if not isinstance(value, cls):
        article = "an" if cls.__name__[:1].lower() in "aeiou" else "a"
        raise ValueError(f"{name} must be {article} {cls.__name__}{hint}; got {type(value).__name__}")
    return value


# ----------------------------------------------------------------------------------------
# absurd sizes: refused before the work starts (train, multitask_train, interleaved_sgd,
# committee, committee_sgd, linear_experiments, transfer, random_features, teachers, ...)
# ----------------------------------------------------------------------------------------

#: Most work one call may ask for, in floating-point operations (an order-of-magnitude
#: estimate): 1e16, days of a GPU. The papers' largest runs need about 1e14. The environment
#: variable ``GENDYN_WORK_LIMIT`` sets another limit.
WORK_LIMIT = 1e16

#: What one step of a Python-level loop (a few torch or numpy calls) costs, in operations: ~10 us.
STEP_COST = 1e6


def _memory_bytes():
    """The machine's physical memory in bytes (1 TiB where it cannot be read)."""
    import os

    try:
        return float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return float(2**40)


def work_limit(estimate, what, *, memory=0.0, iterations=0.0):
    """Refuse a call whose work or memory is absurd, before it starts.

    Parameters
    ----------
    estimate : float
        Floating-point operations the call would do (an order of magnitude is enough).
    what : str
        The arguments that set the size, e.g. ``"steps=1000000000000 with N=500"``: the
        message names them.
    memory : float, optional
        Bytes the call would hold at once; refused beyond the machine's physical memory.
    iterations : float, optional
        Steps of a Python-level loop; each adds :data:`STEP_COST` operations to ``estimate``
        (a billion tiny steps take hours however small each is).

    Raises
    ------
    ValueError
        If ``estimate`` exceeds :data:`WORK_LIMIT` (or ``GENDYN_WORK_LIMIT``) or ``memory``
        the machine's memory; the message gives the estimate and names ``what``.
    """
    import os

    limit = float(os.environ.get("GENDYN_WORK_LIMIT", WORK_LIMIT))
    estimate, memory = float(estimate) + STEP_COST * float(iterations), float(memory)
    if not estimate <= limit:  # NaN too
        raise ValueError(f"{what} asks for about {estimate:.1e} floating-point operations, more than the "
                         f"{limit:.0e} one call may do (GENDYN_WORK_LIMIT sets another limit); reduce it")
    available = _memory_bytes()
    if not memory <= available:
        raise ValueError(f"{what} needs about {memory / 2**30:.3g} GiB of memory at once, more than this "
                         f"machine's {available / 2**30:.3g} GiB; reduce it")


class Default(int):
    """An integer default that can tell it was not passed (``value is DEFAULT``); it shows as the number.

    A keyword renamed in the public API keeps its old name for one release (:func:`renamed`); to
    refuse a call that passes both names, the new keyword's default must be told apart from the
    same number passed explicitly.
    """

    __slots__ = ()

    def __repr__(self):
        return int.__repr__(self)


def renamed(value, old_value, name, old_name, *, default, check, stacklevel=3):
    """The value of the keyword ``name``, formerly ``old_name`` (kept for one release), checked.

    ``old_value`` is ``None`` when the old keyword was not passed; ``default`` is the new keyword's
    :class:`Default`. Passing the old keyword warns (``DeprecationWarning`` naming the new one);
    passing both is a ``ValueError``. Returns ``check(value, keyword)`` for the keyword used, so
    that a bad value is reported under the name the caller wrote.
    """
    if old_value is None:
        return check(value, name)
    if value is not default:
        raise ValueError(f"{old_name} is the old name of {name}: pass {name} only; got {name}={value!r} and "
                         f"{old_name}={old_value!r}")
    warnings.warn(f"{old_name} is deprecated and will be removed in the next release: pass {name}={old_value!r}",
                  DeprecationWarning, stacklevel=stacklevel)
    return check(old_value, old_name)


class FormerlyDict:
    """Mixin of a result type (a dataclass) that was a ``dict``: ``result["key"]``, ``"key" in result``,
    ``keys()``, ``items()`` and iteration still work as on the former dict for one release, with a
    ``DeprecationWarning`` that names the attribute to use (an unknown key is a ``KeyError``)."""

    __slots__ = ()

    def _former_keys(self, use):
        warnings.warn(f"{type(self).__name__} is no longer a dict and dict access will be removed in the next "
                      f"release: use {use}", DeprecationWarning, stacklevel=3)
        return [f.name for f in dataclasses.fields(self)]

    def __getitem__(self, key):
        if not isinstance(key, str) or key.startswith("_") or not hasattr(self, key):
            raise KeyError(key)
        warnings.warn(f"{type(self).__name__} is no longer a dict and item access will be removed in the next "
                      f"release: use .{key}", DeprecationWarning, stacklevel=2)
        return getattr(self, key)

    def __contains__(self, key):
        return key in self._former_keys("hasattr(result, name)")

    def __iter__(self):
        return iter(self._former_keys("dataclasses.fields(result)"))

    def keys(self):
        """The former dict's keys, the field names (deprecated)."""
        return self._former_keys("dataclasses.fields(result)")

    def items(self):
        """The former dict's items, ``(field name, value)`` (deprecated)."""
        return [(k, getattr(self, k)) for k in self._former_keys("dataclasses.asdict(result)")]
