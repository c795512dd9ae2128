"""One random-number convention: the ``rng`` argument and named streams.

Every stochastic public function of the science takes ``rng``, one of

- an ``int >= 0``, a seed: the same seed gives the same draws on any device;
- a ``numpy.random.SeedSequence``, typically a named stream of :func:`stream`;
- a ``torch.Generator`` or a ``numpy.random.Generator``, used as it is: the function draws from
  it and advances it, so two calls with one generator give different draws;
- ``None``: fresh entropy from the operating system, different at every call.

This follows scipy's SPEC 7, with torch's generator beside numpy's. :func:`check` validates an
``rng`` in one place; :func:`torch_generator` and :func:`numpy_generator` turn one into the
generator a function draws from.

Streams
-------
An experiment with several independent sources of randomness (teachers, data, initial weights,
minibatches), or a chapter with several series of runs, asks for **named streams**:
``stream(rng, "teacher")``, ``stream(rng, "relu", L)``. A stream is the ``SeedSequence`` of
``rng`` with the names appended to its spawn key, so

- it is the child ``SeedSequence(rng).spawn(n)[i]`` for an integer name ``i``, and its own child
  for every further name: streams are independent of each other and of the root;
- it depends only on ``rng`` and its path, not on which other streams were asked for or in what
  order;
- two different paths never give the same stream (a text name is hashed into ``2**32 + crc32``, an
  integer name is below ``2**32``, and ``SeedSequence`` mixes the whole key).

Reproducible runs
-----------------
``None`` is fresh entropy, so a run that forgets to pass ``rng`` is not reproducible. Where that must not
happen, set ``$GENDYN_REQUIRE_RNG=1``: making a generator or stream from ``None`` is then a
``ValueError``. The book's pipeline sets it for every chapter run (``tools/chapters.py``,
``tools/mutants.py``): the same seed gives the same bytes.

No seed arithmetic: a chapter writes ``rng=stream(SEED, "relu", L)``, not ``seed=1000 * SEED + L``,
which collides as soon as two series' offsets overlap.
"""

from __future__ import annotations

import numbers
import os
import warnings
import zlib
from typing import Union

import numpy as np
import torch

from . import _random

__all__ = ["Rng", "REQUIRE_RNG", "check", "stream", "streams", "run_seeds", "torch_generator", "numpy_generator", "entropy",
           "former_rng"]

#: What an ``rng`` argument may be (see the module docstring).
Rng = Union[int, np.integer, np.random.SeedSequence, np.random.Generator, torch.Generator, None]

_ALLOWED = ("an integer >= 0, a numpy SeedSequence or Generator, a torch.Generator, or None "
            "(fresh entropy)")
_TEXT_KEYS = 1 << 32  # text names hash into [2**32, 2**33): never equal to an integer name
#: Set to ``1`` to refuse ``rng=None`` (fresh entropy) where a run must be reproducible.
REQUIRE_RNG = "GENDYN_REQUIRE_RNG"


def _fresh(name: str) -> None:
    """Refuse fresh entropy for ``name`` when ``$GENDYN_REQUIRE_RNG`` is ``1``."""
    if os.environ.get(REQUIRE_RNG, "").strip() == "1":
        raise ValueError(f"{name}=None draws fresh entropy, which this run refuses (${REQUIRE_RNG}=1: it must be "
                         f"reproducible): pass an integer seed or a stream (gendyn.seeding.stream)")


def _is_torch_generator(value) -> bool:
    return isinstance(value, torch.Generator)


def check(rng: Rng, name: str = "rng") -> Rng:
    """``rng`` if it is an allowed random-number argument, else a ``ValueError`` naming ``name``.

    Integers come back as ``int``; everything else as it is.
    """
    if rng is None or isinstance(rng, (np.random.SeedSequence, np.random.Generator)) or _is_torch_generator(rng):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        if rng >= 0:
            return int(rng)
    raise ValueError(f"{name} must be {_ALLOWED}; got {rng!r}")


def _draw_63_bits(generator) -> int:
    """One integer in ``[0, 2**62)`` drawn from a torch or numpy generator (advancing it)."""
    if isinstance(generator, np.random.Generator):
        return int(generator.integers(0, 1 << 62))
    return _random.integer_seed(generator)


def _root(rng: Rng, name: str) -> np.random.SeedSequence:
    rng = check(rng, name)
    if isinstance(rng, np.random.SeedSequence):
        return rng
    if rng is None:
        _fresh(name)
    if rng is None or isinstance(rng, int):
        return np.random.SeedSequence(rng)
    return np.random.SeedSequence(_draw_63_bits(rng))


def _key(part, name: str) -> int:
    if isinstance(part, str):
        if not part:
            raise ValueError(f"a stream name of {name} must be a non-empty string or an integer >= 0; got ''")
        return _TEXT_KEYS + zlib.crc32(part.encode("utf-8"))
    if isinstance(part, numbers.Integral) and not isinstance(part, (bool, np.bool_)) and 0 <= part < _TEXT_KEYS:
        return int(part)
    raise ValueError(f"a stream name of {name} must be a non-empty string or an integer in [0, 2**32); "
                     f"got {part!r}")


def stream(rng: Rng, *path: str | int) -> np.random.SeedSequence:
    """The random stream named ``path`` under ``rng``: a ``numpy.random.SeedSequence``.

    Parameters
    ----------
    rng : int, SeedSequence, numpy or torch Generator, or None
        The root (module docstring). A generator is advanced by one draw, which seeds the root.
    *path : str or int
        Names of the stream, outermost first: texts (``"teacher"``, ``"relu"``) and integers in
        ``[0, 2**32)`` (a run, a size). No path: the root itself.

    Returns
    -------
    numpy.random.SeedSequence
        Pass it on as an ``rng``, or to ``numpy.random.default_rng``.

    Examples
    --------
    >>> from gendyn.seeding import stream
    >>> a, b = stream(0, "relu", 2), stream(0, "inverse_k", 2)
    >>> bool((a.generate_state(4) != b.generate_state(4)).any())
    True
    >>> import numpy as np
    >>> stream(7, 3).spawn_key == np.random.SeedSequence(7).spawn(4)[3].spawn_key
    True
    """
    root = _root(rng, "rng")
    keys = tuple(_key(part, "rng") for part in path)
    if not keys:
        return root
    return np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + keys, pool_size=root.pool_size)


def streams(rng: Rng, *names: str | int) -> tuple[np.random.SeedSequence, ...]:
    """Several named streams of one root: ``stream(root, name)`` for each name.

    A generator ``rng`` is drawn from once for all of them.
    """
    root = _root(rng, "rng")
    return tuple(stream(root, name) for name in names)


def entropy(seed_sequence: np.random.SeedSequence) -> int:
    """A 63-bit integer seed from ``seed_sequence`` (for generators that take one integer)."""
    if not isinstance(seed_sequence, np.random.SeedSequence):
        raise ValueError(f"seed_sequence must be a numpy SeedSequence; got {seed_sequence!r}")
    return int(seed_sequence.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def run_seeds(rng: Rng, runs: int, *path: str | int) -> tuple[int, ...]:
    """One integer seed per run, for the functions batched over independent runs (``seeds=``).

    Run ``r`` gets :func:`entropy` of ``stream(rng, *path, r)``: 63-bit integers that differ between
    runs, between paths and between roots, so the runs of ``SEED = 1`` are not those of ``SEED = 0``
    shifted by one (as ``range(SEED, SEED + runs)`` would make them).
    """
    from . import _checks

    runs = _checks.integer(runs, "runs", 1)
    root = stream(rng, *path)
    return tuple(entropy(stream(root, r)) for r in range(runs))


def torch_generator(rng: Rng, name: str = "rng") -> torch.Generator:
    """The ``torch.Generator`` to draw from for ``rng``.

    A torch generator is returned as it is (on its own device). Otherwise a new CPU generator:
    seeded with the integer itself (so ``rng=s`` draws as ``torch.Generator().manual_seed(s)``), with
    :func:`entropy` of a ``SeedSequence`` (fresh for ``None``), or with one draw of a numpy generator.
    Under ``$GENDYN_REQUIRE_RNG=1`` the generator of ``None`` refuses its first draw (through
    ``gendyn._random``, where every draw of the library goes), not its making.
    """
    rng = check(rng, name)
    if isinstance(rng, torch.Generator):
        return rng
    if isinstance(rng, int):
        seed = rng
    elif isinstance(rng, np.random.Generator):
        seed = _draw_63_bits(rng)
    elif rng is None:
        # refused at its first draw, not here: many calls make a generator they never draw from
        generator = torch.Generator().manual_seed(entropy(np.random.SeedSequence()))
        if os.environ.get(REQUIRE_RNG, "").strip() == "1":
            _random.mark_unseeded(generator)
        return generator
    else:
        seed = entropy(rng)
    return torch.Generator().manual_seed(seed)


def numpy_generator(rng: Rng, name: str = "rng") -> np.random.Generator:
    """The ``numpy.random.Generator`` to draw from for ``rng``.

    A numpy generator is returned as it is; an integer, a ``SeedSequence`` or ``None`` give
    ``numpy.random.default_rng(rng)``; a torch generator seeds one with one draw.
    """
    rng = check(rng, name)
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        _fresh(name)
    if rng is None or isinstance(rng, (int, np.random.SeedSequence)):
        return np.random.default_rng(rng)
    return np.random.default_rng(_draw_63_bits(rng))


_FORMER_NAMES = ("generator", "seed")


def former_rng(rng: Rng, keywords: dict, where: str, names: tuple[str, ...] = _FORMER_NAMES, *,
               alone: bool = False) -> Rng:
    """``rng``, or the value of its former keyword (``generator=``, ``seed=``) popped from ``keywords``.

    For the functions that took ``generator`` or ``seed`` before the one convention: the former
    keyword still works for one release, with a ``DeprecationWarning`` that names the new call
    (``where`` is the function's name); passing it together with ``rng`` is a ``ValueError``.
    ``keywords`` is the function's ``**`` dictionary; other keys are left in it, unless ``alone``
    (the ``**`` takes nothing else): then a key left is a ``TypeError`` naming it, as Python's own
    for an unknown keyword.
    """
    if not isinstance(keywords, dict):
        raise ValueError(f"keywords must be the dict of a function's ** keywords; got {keywords!r}")
    if not isinstance(where, str) or not where:
        raise ValueError(f"where must be the function's name (a non-empty string); got {where!r}")
    if not isinstance(names, tuple) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be a tuple of keyword names; got {names!r}")
    found = [n for n in names if n in keywords]
    if alone and set(keywords) - set(found):
        name = sorted(set(keywords) - set(found))[0]
        raise TypeError(f"{where.rsplit('.', 1)[-1]}() got an unexpected keyword argument {name!r}")
    if not found:
        return check(rng)
    if len(found) > 1 or rng is not None:
        given = ", ".join(f"{n}=" for n in (["rng"] if rng is not None else []) + found)
        raise ValueError(f"{where} takes one random-number argument, rng; got {given}")
    value = keywords.pop(found[0])
    warnings.warn(f"{where}({found[0]}=...) is deprecated and will be removed in the next release: "
                  f"pass rng=... (an int, a SeedSequence, a torch or numpy Generator, or None)",
                  DeprecationWarning, stacklevel=3)
    return check(value, found[0])
