"""Run configurations of the chapters, and the checks on a notebook's parameters.

Every chapter notebook starts with a papermill ``parameters`` cell of literals::

    SCALE = "paper"   # "smoke" (seconds, for the tests) or "paper" (the papers' sizes)
    SEED = 0
    DEVICE = "cpu"    # or "cuda"

and derives its run configuration in the next cell::

    cfg = gendyn.scales.configure("lg-rmt", SCALE, SEED, DEVICE)
    cfg.n1, cfg.repeats, cfg.device, ...

The sizes of every chapter at every scale live in :data:`CHAPTERS`, one table for the
whole book. A bad value stops the notebook at once with a message that names the
parameter and what is allowed.
"""

import math
from dataclasses import dataclass, field
from types import MappingProxyType

import torch

__all__ = ["SCALES", "CHAPTERS", "RunConfig", "configure", "check_device"]

SCALES = ("smoke", "paper")

#: Sizes of each chapter at each scale. Keys are chapter ids (``paper-section``).
CHAPTERS = {
    # Lampinen & Ganguli (2019) §3.2, Fig. 2: the teacher buried in the training data.
    "lg-rmt": {
        "paper": dict(
            n1=1000,  # inputs = examples, as the authors' script
            aspects=(1.0, 0.75, 0.5, 0.25),
            repeats=10,
            sbar_max=5.0,
            sbar_step=0.05,
            rank3_aspects=(0.5, 1.0),
            finite_size_n1=(125, 250, 500, 1000),
            finite_size_repeats=10,
        ),
        "smoke": dict(
            n1=200,
            aspects=(1.0, 0.75, 0.5, 0.25),
            repeats=3,
            sbar_max=5.0,
            sbar_step=0.25,
            rank3_aspects=(0.5, 1.0),
            finite_size_n1=(50, 100, 200),
            finite_size_repeats=3,
        ),
    },
}


@dataclass(frozen=True)
class RunConfig:
    """The resolved configuration of one notebook run; sizes read as attributes."""

    chapter: str
    scale: str
    seed: int
    device: str
    sizes: MappingProxyType = field(repr=False)

    def __getattr__(self, name):
        try:
            return self.sizes[name]
        except KeyError:
            raise AttributeError(f"chapter {self.chapter!r} has no size {name!r}; "
                                 f"known: {sorted(self.sizes)}") from None

    def describe(self):
        """One line per setting, for the top of a chapter."""
        rows = [f"scale={self.scale}", f"seed={self.seed}", f"device={self.device}"]
        rows += [f"{k}={v}" for k, v in self.sizes.items()]
        return ", ".join(rows)


def check_device(device):
    """Return a valid torch device string or raise naming the allowed values."""
    if not isinstance(device, str) or not (device == "cpu" or device == "cuda" or device.startswith("cuda:")):
        raise ValueError(f"DEVICE must be 'cpu' or 'cuda' (or 'cuda:N'); got {device!r}")
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"DEVICE={device!r} was requested but no CUDA device is available; use DEVICE='cpu'")
    return device


def _check_size(chapter, name, value, default):
    """An override must have the type of the default and be positive (sizes, counts)."""
    def bad(allowed):
        return ValueError(f"size {name}={value!r} for chapter {chapter!r} is not allowed: {allowed}")

    if isinstance(default, tuple):
        if not isinstance(value, (tuple, list)) or len(value) == 0:
            raise bad(f"expected a non-empty list like {list(default)}")
        for item in value:
            _check_size(chapter, name, item, default[0])
        return tuple(value)
    if isinstance(default, bool) or isinstance(value, bool):
        raise bad("expected a number")
    if isinstance(default, int):
        if not isinstance(value, int) or value <= 0:
            raise bad("expected a positive integer")
        return value
    if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise bad("expected a positive finite number")
    return float(value)


def configure(chapter, scale, seed, device, **overrides):
    """Resolve and check a notebook's parameters into a :class:`RunConfig`.

    Parameters
    ----------
    chapter : str
        Chapter id, a key of :data:`CHAPTERS`.
    scale : str
        One of :data:`SCALES`.
    seed : int
        Non-negative integer seed.
    device : str
        ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.
    **overrides
        Sizes to change from the scale's defaults; ``None`` keeps the default.
        Each must be a positive number of the default's type.
    """
    if chapter not in CHAPTERS:
        raise ValueError(f"unknown chapter {chapter!r}; known: {sorted(CHAPTERS)}")
    if scale not in CHAPTERS[chapter]:
        raise ValueError(f"SCALE must be one of {list(CHAPTERS[chapter])}; got {scale!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"SEED must be a non-negative integer; got {seed!r}")
    device = check_device(device)
    sizes = dict(CHAPTERS[chapter][scale])
    for name, value in overrides.items():
        if value is None:
            continue
        if name not in sizes:
            raise ValueError(f"unknown size {name!r} for chapter {chapter!r}; known: {sorted(sizes)}")
        sizes[name] = _check_size(chapter, name, value, sizes[name])
    return RunConfig(chapter, scale, seed, device, MappingProxyType(sizes))
