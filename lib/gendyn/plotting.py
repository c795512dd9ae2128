"""One figure style for the whole book, and figure files next to each run.

Call :func:`use_style` once at the top of a chapter; :func:`save` writes every figure
as PNG (for the page) and PDF (for reuse) to ``<run dir>/figures/``.
"""

import matplotlib as mpl

from .claims import run_dir

__all__ = ["use_style", "save", "COLORS", "METADATA"]

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


def use_style():
    """Apply the book's matplotlib style."""
    mpl.rcParams.update(STYLE)


#: File metadata without dates, so that the same run gives the same bytes.
METADATA = {"png": {"Software": None}, "pdf": {"Creator": None, "Producer": None, "CreationDate": None}}


def save(fig, name, scale):
    """Save ``fig`` as ``<run dir>/figures/<name>.{png,pdf}``, byte-identical run to run.

    Returns nothing, so that a cell ending in ``save(...)`` shows only the figure (a path
    would differ from machine to machine and break the output comparison of nbval).
    """
    folder = run_dir(scale) / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    for ext in ("png", "pdf"):
        fig.savefig(folder / f"{name}.{ext}", metadata=METADATA[ext])
