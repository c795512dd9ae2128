"""Theory mutations: a library function's result perturbed by a stated relative error.

A claim of agreement is worth what it could have caught. Each chapter module declares, in
``MUTATIONS``, the library functions that carry the theory its claims test and the relative
error each claim should detect at smoke scale; ``tools/mutants.py`` re-runs the chapter with
one of them perturbed (``$GENDYN_MUTATE``) and reports, claim by claim, whether the claim
failed (the mutant is *killed*) or passed (it *survived*).

The perturbation multiplies the function's numeric result by ``1 + error`` (every float,
numpy array and torch tensor in it; with ``output``, only that element of a tuple, key of a
dict or attribute of a result object). It is applied in the chapter's process only, when the
chapter starts (:func:`gendyn.book.chapter.start`): worker processes, and so experiments run
there, keep the true function.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import numbers
import os
import sys
from dataclasses import dataclass

import numpy as np

__all__ = ["Mutation", "ENVIRONMENT", "active", "apply", "apply_from_environment"]

#: The environment variable that carries a mutation into a chapter's kernel (JSON of :class:`Mutation`).
ENVIRONMENT = "GENDYN_MUTATE"


@dataclass(frozen=True)
class Mutation:
    """A perturbation of one theory function.

    Parameters
    ----------
    target : str
        ``"gendyn.module.function"``: a function of a science module.
    error : float
        Relative error: the result is multiplied by ``1 + error`` (non-zero, above -1).
    output : int or str, optional
        Perturb only this element (tuple index, dict key or attribute name) of the result.
    why : str
        Why a claim of the chapter should see this error at smoke scale.
    """

    target: str
    error: float
    output: int | str | None = None
    why: str = ""

    def __post_init__(self):
        if not (isinstance(self.target, str) and self.target.startswith("gendyn.") and self.target.count(".") >= 2):
            raise ValueError(f"target must be 'gendyn.module.function'; got {self.target!r}")
        if isinstance(self.error, bool) or not isinstance(self.error, numbers.Real) or not (
                -1 < self.error < np.inf) or self.error == 0:
            raise ValueError(f"error must be a non-zero real number above -1; got {self.error!r}")

    @property
    def label(self):
        where = f"[{self.output}]" if self.output is not None else ""
        return f"{self.target}{where} x{1 + self.error:g}"

    def to_json(self):
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text):
        return cls(**json.loads(text))


def _scaled(value, factor):
    if isinstance(value, (bool, np.bool_)) or isinstance(value, numbers.Integral):
        return value  # counts and flags are not theory values
    if isinstance(value, numbers.Real):
        return type(value)(value * factor) if isinstance(value, np.floating) else value * factor
    if isinstance(value, np.ndarray):
        return value * factor if np.issubdtype(value.dtype, np.floating) else value
    if "torch" in sys.modules and isinstance(value, sys.modules["torch"].Tensor):
        return value * factor if value.is_floating_point() else value
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(_scaled(v, factor) for v in value))
    if isinstance(value, (tuple, list)):
        return type(value)(_scaled(v, factor) for v in value)
    if isinstance(value, dict):
        return {k: _scaled(v, factor) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: _scaled(getattr(value, f.name), factor)
                                              for f in dataclasses.fields(value) if f.init})
    return value


def _perturb(result, mutation):
    factor = 1.0 + mutation.error
    key = mutation.output
    if key is None:
        return _scaled(result, factor)
    if isinstance(result, dict):
        return {**result, key: _scaled(result[key], factor)}
    if isinstance(key, int) and isinstance(result, (tuple, list)):
        items = list(result)
        items[key] = _scaled(items[key], factor)
        return type(result)(*items) if hasattr(result, "_fields") else type(result)(items)
    if dataclasses.is_dataclass(result):
        return dataclasses.replace(result, **{key: _scaled(getattr(result, key), factor)})
    raise TypeError(f"cannot select output {key!r} of a {type(result).__name__} result of {mutation.target}")


#: The mutation applied in this process, if any.
_ACTIVE = []


def active():
    """The :class:`Mutation` applied in this process, or ``None``."""
    return _ACTIVE[0] if _ACTIVE else None


def apply(mutation):
    """Replace ``mutation.target`` by its perturbed version in this process.

    The function is replaced in its module (so the module's own calls see it) and wherever a
    loaded ``gendyn`` module or ``__main__`` (a notebook's namespace) holds it under a name
    (``from gendyn.rmt import spike_overlap``).
    """
    if _ACTIVE:
        raise RuntimeError(f"a mutation is already applied in this process: {_ACTIVE[0].label}")
    module_name, name = mutation.target.rsplit(".", 1)
    module = importlib.import_module(module_name)
    original = getattr(module, name, None)
    if not callable(original):
        raise ValueError(f"target {mutation.target!r} is not a function of {module_name}")

    @functools.wraps(original)
    def mutant(*args, **kwargs):
        return _perturb(original(*args, **kwargs), mutation)

    for loaded in list(sys.modules.values()):
        names = getattr(loaded, "__dict__", None)
        # the library's modules, and the chapter's own namespace (a notebook's kernel runs in __main__)
        if not names or not (getattr(loaded, "__name__", "").startswith("gendyn") or loaded.__name__ == "__main__"):
            continue
        for attr, value in list(names.items()):
            if value is original:
                setattr(loaded, attr, mutant)
    _ACTIVE.append(mutation)
    return mutant


def apply_from_environment():
    """Apply the mutation given in ``$GENDYN_MUTATE`` (if set); returns it or ``None``.

    Refused in a run of the book's pipeline (``$GENDYN_RUN_ID`` set): a mutated run must never
    reach the book.
    """
    text = os.environ.get(ENVIRONMENT)
    if not text:
        return None
    if os.environ.get("GENDYN_RUN_ID"):
        raise RuntimeError(f"{ENVIRONMENT} is set in a run of the book's pipeline; unset it")
    mutation = Mutation.from_json(text)
    if active() == mutation:
        return mutation
    apply(mutation)
    return mutation
