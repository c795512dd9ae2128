"""Engine of the fuzz tests: call a public function with one bad argument at a time.

A :class:`Case` names a function and one valid set of keyword arguments. For each argument
the engine substitutes, one at a time, the bad values of :data:`BAD` and classifies what
happens:

``clear``
    a ``ValueError`` or ``TypeError`` whose message names the argument (as a whole word);
``unclear``
    any other exception, or one whose message does not name the argument;
``silent``
    the call returns; unless the case lists the value as ``accepted`` for that argument
    (a negative shift, a zero noise level), this is a finding. An accepted value must
    still give a finite result: numerics never return NaN/inf silently.

The totals of every fuzz test are printed at the end of the pytest run (see conftest.py).
"""

import math
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

#: The bad values tried for every argument, by name.
BAD = {
    "string": "x",
    "none": None,
    "nan": math.nan,
    "+inf": math.inf,
    "-inf": -math.inf,
    "negative": -1,
    "zero": 0,
    "bool": True,
    "false": False,
    "wrong-shape": np.ones((2, 3, 5, 7)),
    "unknown-name": "no-such-option",
}

#: Outcomes of every fuzzed call of this pytest run: (function, argument, bad value) -> outcome.
OUTCOMES = {}


@dataclass
class Case:
    """One public function and a valid call of it.

    Parameters
    ----------
    func : callable
    kwargs : dict
        A valid call (by keyword). Arguments not listed here are not fuzzed.
    accepted : dict, optional
        ``{argument: {bad-value name, ...}}`` that the function rightly accepts.
    skip : set, optional
        Arguments not to fuzz (callbacks, generators, ...), with the reason in a comment.
    infinite : dict, optional
        ``{argument: {bad-value name, ...}}`` whose documented result is infinite (e.g. the
        error at the interpolation peak): accepted although not finite.
    """

    func: object
    kwargs: dict
    accepted: dict = field(default_factory=dict)
    skip: set = field(default_factory=set)
    infinite: dict = field(default_factory=dict)

    @property
    def name(self):
        return f"{self.func.__module__.removeprefix('gendyn.')}.{self.func.__qualname__}"


def _finite(result):
    """Whether every number in ``result`` (nested tuples/lists/dicts/arrays/tensors) is finite;
    ``None`` (an optional field left empty) counts as absent."""
    if result is None:
        return True
    if isinstance(result, dict):
        return all(_finite(v) for v in result.values())
    if isinstance(result, (tuple, list)):
        return all(_finite(v) for v in result)
    if hasattr(result, "detach"):  # torch tensor
        result = result.detach().cpu().numpy()
    if hasattr(result, "__dataclass_fields__"):
        return all(_finite(getattr(result, f)) for f in result.__dataclass_fields__)
    try:
        values = np.asarray(result, dtype=float)
    except (TypeError, ValueError):
        return True
    return bool(np.all(np.isfinite(values)))


def classify(case, argument, bad_name):
    """Call ``case.func`` with ``argument`` replaced by ``BAD[bad_name]``; return the outcome."""
    kwargs = dict(case.kwargs, **{argument: BAD[bad_name]})
    try:
        result = case.func(**kwargs)
    except (ValueError, TypeError) as error:
        outcome = "clear" if re.search(rf"\b{re.escape(argument)}\b", str(error)) else "unclear"
    except Exception:  # noqa: BLE001 - any other failure is what we count as unclear
        outcome = "unclear"
    else:
        # True and False are the values of a flag, bad only where a number is expected
        is_flag = isinstance(case.kwargs[argument], bool) and bad_name in ("bool", "false")
        accepted = is_flag or bad_name in case.accepted.get(argument, ())
        documented_inf = bad_name in case.infinite.get(argument, ())
        outcome = "accepted" if documented_inf or (accepted and _finite(result)) else "silent"
    OUTCOMES[(case.name, argument, bad_name)] = outcome
    return outcome


def fuzz(case):
    """All outcomes of one case: ``{(argument, bad value): outcome}``; the valid call must work."""
    result = case.func(**case.kwargs)
    assert _finite(result), f"{case.name} returns non-finite values on its valid call"
    return {(arg, bad): classify(case, arg, bad)
            for arg in case.kwargs if arg not in case.skip for bad in BAD}


def findings(outcomes):
    """The calls that were not a clear error or an accepted value, as readable lines."""
    return [f"{arg}={bad}: {outcome}" for (arg, bad), outcome in outcomes.items()
            if outcome in ("unclear", "silent")]


def summary():
    """Counts of every outcome so far, e.g. ``{'clear': 812, 'accepted': 40}``."""
    return Counter(OUTCOMES.values())
