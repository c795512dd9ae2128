"""A chapter's start-up in one call: its sizes, its claims ledger and the book's figure style.

Every chapter begins the same way: check the notebook's parameters against the chapter's
sizes at the chosen scale (its module's ``SIZES``), open the chapter's claims ledger, apply the
figure style and show the settings the run uses. :func:`start` does all four, so a chapter's
first code cell is its imports and one line::

    cfg, ledger = chapter.start("lg-generalisation", SCALE, SEED, DEVICE, runs=RUNS, namespace=globals())
"""

from __future__ import annotations

import importlib

from .chapters import CHAPTERS
from .claims import Ledger
from .mutation import apply_from_environment
from .plotting import use_style
from .scales import RunConfig, configure
from .threads import apply as apply_thread_budget

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
        The chapter's claims ledger, with the chapter's claims declared (its module's
        ``claim_ids(cfg)``, see :data:`gendyn.book.chapters.CHAPTERS`); the chapter ends with
        ``ledger.finish()``.

    A theory mutation given in ``$GENDYN_MUTATE`` (by ``tools/mutants.py``) is applied here,
    after the chapter's imports, and said in the printed settings. A thread count given in
    ``$GENDYN_THREADS`` (the pipeline's share of the cores when chapters run side by side,
    :mod:`gendyn.book.threads`) becomes torch's.
    """
    apply_thread_budget()
    cfg = configure(chapter, scale, seed, device, namespace=namespace, scheduler=scheduler, **overrides)
    ledger = Ledger(cfg.chapter, cfg.scale)
    module = importlib.import_module(f"{__package__}.chapters.{CHAPTERS[cfg.chapter][1]}")
    if hasattr(module, "claim_ids"):
        ledger.declare(module.claim_ids(cfg))
    mutation = apply_from_environment()
    use_style()
    print(cfg.describe() + (f" [theory mutant: {mutation.label}]" if mutation else ""))
    return cfg, ledger
