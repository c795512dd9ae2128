"""A chapter's start-up in one call: its sizes, its claims ledger and the book's figure style.

Every chapter begins the same way: check the notebook's parameters against the chapter's
sizes at the chosen scale, open the chapter's claims ledger, apply the figure style and show
the settings the run uses. :func:`start` does all four, so a chapter's first code cell is its
imports and one line::

    cfg, ledger = chapter.start("lg-generalisation", SCALE, SEED, DEVICE, runs=RUNS, namespace=globals())
"""

from __future__ import annotations

from .claims import Ledger
from .plotting import use_style
from .scales import RunConfig, configure

__all__ = ["start"]


def start(chapter: str, scale: str, seed: int, device: str, *, namespace: dict | None = None,
          scheduler: str | None = None, **overrides) -> tuple[RunConfig, Ledger]:
    """Start a chapter run: ``(cfg, ledger)``, with the book's style applied and the settings shown.

    Parameters
    ----------
    chapter, scale, seed, device, namespace, scheduler, **overrides
        As in :func:`gendyn.book.scales.configure`, which checks them (a mistyped parameter
        stops the run with a message naming it and the allowed values).

    Returns
    -------
    cfg : gendyn.book.scales.RunConfig
        The checked settings; ``cfg.describe()`` is printed, one line.
    ledger : gendyn.book.claims.Ledger
        The chapter's claims ledger; the chapter ends with ``ledger.finish()``.
    """
    cfg = configure(chapter, scale, seed, device, namespace=namespace, scheduler=scheduler, **overrides)
    ledger = Ledger(cfg.chapter, cfg.scale)
    use_style()
    print(cfg.describe())
    return cfg, ledger
