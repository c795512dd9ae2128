"""One figure style for the whole book, and figure files next to each run.

Call :func:`use_style` once at the top of a chapter and make figures with :func:`subplots`,
which sizes them for the book's text column (:data:`COLUMN` inches wide at the style's
110 dpi, about 770 px): shown at full size, their 10-pt labels are about 15 px tall, as
large as the body's small print. :func:`save` writes every figure as PNG (for the page)
and PDF (for reuse) to ``<run dir>/figures/``, byte-identical run to run.
"""

from __future__ import annotations

import matplotlib as mpl
from matplotlib.figure import Figure

from .claims import run_dir

__all__ = ["use_style", "subplots", "save", "COLORS", "COLUMN", "METADATA"]

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
    or a title outside the panels); ``False`` keeps the figure's layout as it is.

    Returns nothing, so that a cell ending in ``save(...)`` shows only the figure (a path
    would differ from machine to machine and break the output comparison of nbval).
    """
    if tight is True:
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
