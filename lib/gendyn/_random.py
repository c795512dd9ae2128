"""Random draws under the library's device policy (see the package docstring).

Every random tensor of the library is drawn on the device of the ``torch.Generator`` that
is passed (the CPU for ``None``, i.e. torch's global CPU generator) and only then moved to
the device the computation runs on. A CPU generator therefore gives the same numbers on any
device: a seed means the same data, initial weights and minibatches on a laptop and on a GPU,
and a generator on one device is never an error for a computation on another.
"""

import weakref

import torch

from . import _checks

#: Generators made from ``rng=None`` in a run that must be reproducible ($GENDYN_REQUIRE_RNG=1,
#: gendyn.seeding): drawing from one is refused, making one (for a draw that may not happen) is not.
#: Held weakly where torch's Generator takes a weak reference; older builds (torch 2.11) refuse one,
#: and then the few such generators of a run are kept and compared by identity.
_UNSEEDED = weakref.WeakSet()
_UNSEEDED_HELD = {}  # id -> generator: the generator is kept, so its id is not reused


def mark_unseeded(generator):
    """Refuse every later draw from ``generator`` (made from fresh entropy in a reproducible run)."""
    try:
        _UNSEEDED.add(generator)
    except TypeError:  # "cannot create weak reference to 'torch._C.Generator' object"
        _UNSEEDED_HELD[id(generator)] = generator


def _unseeded(generator):
    return generator in _UNSEEDED or _UNSEEDED_HELD.get(id(generator)) is generator


def _checked(generator):
    generator = _checks.torch_generator(generator)
    if generator is not None and _unseeded(generator):
        from .seeding import REQUIRE_RNG

        raise ValueError(f"rng=None draws fresh entropy, which this run refuses (${REQUIRE_RNG}=1: it must be "
                         f"reproducible): pass an integer seed or a stream (gendyn.seeding.stream)")
    return generator


def _source(generator):
    return torch.device("cpu") if generator is None else torch.device(generator.device)


def randn(*size, generator=None, device="cpu", dtype=torch.float64):
    """Standard normal tensor of ``size`` drawn on ``generator``'s device, then moved to ``device``."""
    generator = _checked(generator)
    z = torch.randn(*size, generator=generator, device=_source(generator), dtype=dtype)
    return z.to(device)


def rand(*size, generator=None, device="cpu", dtype=torch.float64):
    """Uniform ``[0, 1)`` tensor of ``size`` drawn on ``generator``'s device, then moved to ``device``."""
    generator = _checked(generator)
    u = torch.rand(*size, generator=generator, device=_source(generator), dtype=dtype)
    return u.to(device)


def randperm(n, generator=None, device="cpu"):
    """Random permutation of ``range(n)`` drawn on ``generator``'s device, then moved to ``device``."""
    generator = _checked(generator)
    return torch.randperm(n, generator=generator, device=_source(generator)).to(device)


def seeded(seed):
    """A CPU ``torch.Generator`` seeded with ``seed`` (the library's generators live on the CPU)."""
    return torch.Generator().manual_seed(int(seed))


def orthonormal(n, r, batch, generator, device, dtype):
    """Haar-random ``n x r`` matrices with orthonormal columns, shape ``(*batch, n, r)``, arguments
    unchecked (:func:`gendyn.teachers.random_orthonormal` is the public, checked form): QR of a
    Gaussian matrix with the signs of ``R``'s diagonal moved into ``Q``, so exactly Haar."""
    g = randn(*batch, n, r, generator=generator, device=device, dtype=dtype)
    q, rr = torch.linalg.qr(g)
    return q * torch.sign(torch.diagonal(rr, dim1=-2, dim2=-1)).unsqueeze(-2)


def integer_seed(generator):
    """One integer in ``[0, 2**62)`` drawn from ``generator`` on its device (it seeds a root stream,
    :mod:`gendyn.seeding`); the generator is advanced."""
    generator = _checked(generator)
    return int(torch.randint(0, 1 << 62, (1,), generator=generator, device=_source(generator)).item())
