"""One figure style for the whole book, and figure files next to each run.

Call :func:`use_style` once at the top of a chapter and make figures with :func:`subplots`,
which sizes them for the book's text column (:data:`COLUMN` inches wide at the style's
110 dpi, about 770 px): shown at full size, their 10-pt labels are about 15 px tall, as
large as the body's small print. :func:`save` writes every figure as PNG (for the page)
and PDF (for reuse) to ``<run dir>/figures/``, byte-identical run to run.
:func:`plain_log_ticks` labels a log axis with plain numbers (0.3, 1, 20) where powers of
ten would be hard to read.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib as mpl
import numpy as np
from matplotlib.axis import Axis
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from .claims import run_dir

__all__ = ["use_style", "subplots", "save", "plain_log_ticks", "COLORS", "COLUMN", "METADATA"]

#: Width of the book's text column in inches at the style's ``figure.dpi`` (770 px of 784).
COLUMN = 7.0

#: A colour-blind-safe cycle (Okabe & Ito), used for every figure of the book.
COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": mpl.cycler(color=COLORS),
    "lines.linewidth": 1.6,
    "image.cmap": "viridis",
}


def use_style() -> None:
    """Apply the book's matplotlib style."""
    mpl.rcParams.update(STYLE)


#: File metadata without dates, so that the same run gives the same bytes.
METADATA = {"png": {"Software": None}, "pdf": {"Creator": None, "Producer": None, "CreationDate": None}}


def subplots(nrows: int = 1, ncols: int = 1, *, height: float | None = None, width: float = COLUMN,
             **kwargs) -> tuple[Figure, object]:
    """``plt.subplots`` with a figure as wide as the text column (or ``width`` inches).

    ``height`` defaults to 2.6 inches per row for three or more panels a row, 3.2 otherwise.
    A width over :data:`COLUMN` is refused: the page would shrink the figure and its text.
    """
    import matplotlib.pyplot as plt

    if not 0 < width <= COLUMN:
        raise ValueError(f"width must be in (0, {COLUMN}] inches (the text column); got {width!r}")
    if height is None:
        height = nrows * (2.6 if ncols >= 3 else 3.2)
    return plt.subplots(nrows, ncols, figsize=(width, height), **kwargs)


def save(fig: Figure, name: str, scale: str, *,
         tight: bool | tuple[float, float, float, float] = True) -> None:
    """Lay out ``fig`` and save it as ``<run dir>/figures/<name>.{png,pdf}``, byte-identical run to run.

    ``tight``: ``True`` applies ``fig.tight_layout()`` first; a rectangle ``(left, bottom,
    right, top)`` in figure coordinates applies it inside that rectangle (room for a legend
    or a title outside the panels); ``False`` keeps the figure's layout as it is. A figure made
    with a layout engine of its own (``subplots(..., layout="constrained")``, which makes room
    for a legend placed ``"outside lower center"``) keeps it, whatever ``tight`` says.

    Returns nothing, so that a cell ending in ``save(...)`` shows only the figure (a path
    would differ from machine to machine and break the output comparison of nbval).
    """
    if fig.get_layout_engine() is not None:
        pass  # its own engine lays it out when drawn; tight_layout would replace it
    elif tight is True:
        fig.tight_layout()
    elif tight is not False:
        rect = tuple(tight) if isinstance(tight, (tuple, list)) else ()
        if len(rect) != 4 or not all(isinstance(v, (int, float)) and 0 <= v <= 1 for v in rect):
            raise ValueError(f"tight must be True, False or a rectangle (left, bottom, right, top) in [0, 1]; "
                             f"got {tight!r}")
        fig.tight_layout(rect=rect)
    folder = run_dir(scale) / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    for ext in ("png", "pdf"):
        fig.savefig(folder / f"{name}.{ext}", metadata=METADATA[ext])


def _plain(value: float, _position: int) -> str:
    """A tick label as a plain number: 0.3, 1, 20, 1e-05."""
    return f"{value:g}"


def plain_log_ticks(axis: Axis, subs: Sequence[float] | str | None = None, *, numticks: int | None = None,
                    minor: bool = False) -> None:
    """Label a log-scaled axis with plain numbers (0.3, 1, 20) instead of powers of ten.

    Parameters
    ----------
    axis : matplotlib.axis.Axis
        E.g. ``ax.xaxis``; its scale must already be log (and its limits set, for ``subs="auto"``).
    subs : sequence of float, "auto" or None
        Where the labelled (major) ticks sit in each decade, e.g. ``(1, 2, 5)``; ``"auto"``: 1 and 3
        over at most 3 decades, else 1 only, so that the labels never run into each other; ``None``:
        keep the axis' ticks.
    numticks : int, optional
        At most this many major ticks (with ``subs``; default matplotlib's choice).
    minor : bool
        Also label the minor ticks: for an axis that spans about a decade, with at most one major tick.
        Otherwise the minor ticks are left unlabelled.
    """
    if not isinstance(axis, Axis):
        raise ValueError(f"axis must be a matplotlib Axis (e.g. ax.xaxis); got {type(axis).__name__}")
    if isinstance(subs, str):
        if subs != "auto":
            raise ValueError(f"subs must be a sequence of numbers, 'auto' or None; got {subs!r}")
        lo, hi = axis.get_view_interval()
        subs = (1.0, 3.0) if np.log10(hi / lo) <= 3 else (1.0,)
    if subs is not None:
        axis.set_major_locator(LogLocator(subs=subs, numticks=numticks))
    axis.set_major_formatter(FuncFormatter(_plain))
    axis.set_minor_formatter(FuncFormatter(_plain) if minor else NullFormatter())
