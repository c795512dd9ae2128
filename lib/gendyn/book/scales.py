"""Run configurations of the chapters, and the checks on a notebook's parameters.

Every chapter notebook starts with a papermill ``parameters`` cell of literals::

    SCALE = "paper"   # "smoke" (seconds, for the tests) or "paper" (the papers' sizes)
    SEED = 0
    DEVICE = "cpu"    # or "cuda"

and derives its run configuration in the next cell::

    cfg = gendyn.scales.configure("lg-rmt", SCALE, SEED, DEVICE)
    cfg.n1, cfg.repeats, cfg.device, ...

The sizes of a chapter live with the chapter, in its module of :mod:`gendyn.book.chapters`
(:data:`gendyn.book.chapters.CHAPTERS`): a frozen dataclass ``Sizes`` (a field and its
meaning per size) and ``SIZES = {"smoke": Sizes(...), "paper": Sizes(...)}``. So a chapter's
run identity (``tools/chapters.py``, which follows the modules a notebook imports) covers its
own sizes and no other chapter's: this module imports no chapter module, :func:`configure`
imports the chapter's by name when it is called. A bad value stops the notebook at once with
a message that names the parameter and what is allowed.
"""

import dataclasses
import importlib
import math
import types
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _checks
from ..allocator import retain_freed_memory
from . import chapters as _chapters

__all__ = ["SCALES", "RunConfig", "configure", "sizes", "check_device"]

SCALES = ("smoke", "paper")


def _table(chapter):
    """``SIZES`` of ``chapter``'s module, imported by name (a static import would put every chapter's
    sizes in every chapter's run identity)."""
    if chapter not in _chapters.CHAPTERS:
        raise ValueError(f"unknown chapter {chapter!r}; known: {sorted(_chapters.CHAPTERS)}")
    module = importlib.import_module(f"{_chapters.__name__}.{_chapters.CHAPTERS[chapter][1]}")
    return module.SIZES


def _names(sizes):
    return [f.name for f in dataclasses.fields(sizes)]


def sizes(chapter, scale):
    """The default sizes of ``chapter`` at ``scale`` as a dict ``{size: value}``, in the order of its ``Sizes``."""
    table = _table(chapter)
    if scale not in table:
        raise ValueError(f"SCALE must be one of {list(table)}; got {scale!r}")
    return {name: getattr(table[scale], name) for name in _names(table[scale])}


@dataclass(frozen=True)
class RunConfig:
    """The resolved configuration of one notebook run; sizes read as attributes (``cfg.n1``)."""

    chapter: str
    scale: str
    seed: int
    device: str
    #: The chapter's ``Sizes`` (a frozen dataclass of its module) with the run's overrides.
    sizes: Any = field(repr=False)
    #: Address of a Dask scheduler that runs the chapter's grids ("" = local processes).
    scheduler: str = ""

    def __getattr__(self, name):
        sizes = self.__dict__.get("sizes")
        if sizes is None or name.startswith("__"):  # not yet set (copy, pickle) or a protocol's name
            raise AttributeError(name)
        if name in _names(sizes):
            return getattr(sizes, name)
        raise AttributeError(f"chapter {self.chapter!r} has no size {name!r}; known: {sorted(_names(sizes))}")

    def describe(self):
        """One line per setting, for the top of a chapter."""
        rows = [f"scale={self.scale}", f"seed={self.seed}", f"device={self.device}"]
        rows += [f"scheduler={self.scheduler}"] if self.scheduler else []
        rows += [f"{k}={getattr(self.sizes, k)}" for k in _names(self.sizes)]
        return ", ".join(rows)


def check_device(device):
    """Return a valid torch device string or raise naming the allowed values."""
    return str(_checks.torch_device(device, "DEVICE"))


#: The largest SEED: torch's and numpy's seeding take any integer in [0, 2**63).
MAX_SEED = 2**63 - 1

#: Names a notebook's kernel holds that are not parameters (IPython's own).
_KERNEL_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}


def _minimum(name, default):
    """The smallest value an integer size may take: 1 for a period (``*_every``), else 2
    (one repeat, mode, sample or record leaves no spread to measure and no curve to fit)."""
    return 1 if name.endswith("_every") else 2


#: Sizes that are a choice among words rather than a number, and their allowed values.
CHOICES = {"authors_cells": ("subset", "all"), "search": ("coarse", "wide")}


def _check_size(chapter, name, value, default, *, item_of=None):
    """An override must have the type of the default and a value that can serve (sizes, counts)."""
    def bad(allowed):
        what = f"an item of {name.upper()}" if item_of is not None else name.upper()
        return ValueError(f"{what}={value!r} (size {name} of chapter {chapter!r}) is not allowed: {allowed}")

    if name in CHOICES and item_of is None:
        if value not in CHOICES[name]:
            raise bad(f"expected one of {list(CHOICES[name])}")
        return value

    if isinstance(default, tuple) and default and isinstance(default[0], tuple):  # a list of records
        like = list(default[0])
        if not isinstance(value, (tuple, list)) or len(value) == 0:
            raise bad(f"expected a non-empty list of records like {like}")
        for item in value:
            if (not isinstance(item, (tuple, list)) or len(item) != len(like)
                    or any(isinstance(v, bool) or not isinstance(v, type(d)) or (isinstance(d, int) and v < 1)
                           for v, d in zip(item, like))):
                raise bad(f"expected records like {like} (text where it has text, integers >= 1 where it has "
                          f"numbers)")
        return tuple(tuple(item) for item in value)
    if isinstance(default, tuple):
        if not isinstance(value, (tuple, list)) or len(value) == 0:
            raise bad(f"expected a non-empty list like {list(default)}")
        for item in value:
            _check_size(chapter, name, item, default[0], item_of=default)
        return tuple(value)
    if isinstance(default, bool) or isinstance(value, (bool, np.bool_)):
        raise bad("expected a number")
    if isinstance(default, int):
        lowest = (0 if min(item_of) == 0 else 1) if item_of is not None else _minimum(name, default)
        if not isinstance(value, (int, np.integer)) or value < lowest:
            raise bad(f"expected an integer >= {lowest}")
        return int(value)
    if not isinstance(value, (int, float, np.integer, np.floating)) or not math.isfinite(value) or value <= 0:
        raise bad("expected a finite number > 0")
    return float(value)


def _check_parameter_names(namespace, allowed):
    """Refuse any notebook parameter (a plain value in the kernel's namespace) not in ``allowed``:
    papermill injects unknown ``-p`` names without a word, so a typo would run the defaults."""
    unknown = sorted(
        name for name, value in namespace.items()
        if not name.startswith("_") and name not in _KERNEL_NAMES and name not in allowed
        and not (isinstance(value, (types.ModuleType, type)) or callable(value)))
    if unknown:
        raise ValueError(f"unknown notebook parameter(s) {', '.join(unknown)}: this chapter takes "
                         f"{', '.join(sorted(allowed))}")


def configure(chapter, scale, seed, device, *, namespace=None, scheduler=None, **overrides):
    """Resolve and check a notebook's parameters into a :class:`RunConfig`.

    Parameters
    ----------
    chapter : str
        Chapter id, a key of :data:`gendyn.book.chapters.CHAPTERS`; its sizes are the ``SIZES`` of
        that module.
    scale : str
        One of :data:`SCALES`.
    seed : int
        Integer seed in ``[0, 2**63)``.
    device : str
        ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.
    namespace : dict, optional
        The notebook's ``globals()``: then every plain value in it must be a parameter of
        this chapter (``SCALE``, ``SEED``, ``DEVICE`` and the upper-case names of
        ``overrides``), so that a mistyped papermill ``-p`` stops the run.
    scheduler : str, optional
        A chapter with grids passes its ``DASK_SCHEDULER`` parameter: the address of a
        Dask scheduler (e.g. ``"tcp://10.0.0.5:8786"``) that runs its grids, or ``""`` for
        local processes. ``None``: the chapter has no such parameter.
    **overrides
        Sizes to change from the scale's defaults; ``None`` keeps the default. Each must
        have the default's type; integers must be at least 2 (periods ``*_every``: 1),
        numbers finite and positive.
    """
    table = _table(chapter)
    if namespace is not None:
        _check_parameter_names(namespace, {"SCALE", "SEED", "DEVICE"} | {k.upper() for k in overrides}
                               | (set() if scheduler is None else {"DASK_SCHEDULER"}))
    if scheduler is not None and not isinstance(scheduler, str):
        raise ValueError(f"DASK_SCHEDULER must be a scheduler address (str) or '' for local processes; "
                         f"got {scheduler!r}")
    if scale not in table:
        raise ValueError(f"SCALE must be one of {list(table)}; got {scale!r}")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"SEED must be an integer in [0, 2**63); got {seed!r}")
    device = check_device(device)
    defaults = table[scale]
    changed = {}
    for name, value in overrides.items():
        if value is None:
            continue
        if name not in _names(defaults):
            raise ValueError(f"unknown size {name!r} for chapter {chapter!r}; known: {sorted(_names(defaults))}")
        changed[name] = _check_size(chapter, name, value, getattr(defaults, name))
    retain_freed_memory()  # large tensors without page-fault churn (results bit-identical)
    return RunConfig(chapter, scale, int(seed), device, dataclasses.replace(defaults, **changed), scheduler or "")
