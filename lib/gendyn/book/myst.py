"""The chapters' sources: MyST Markdown notebooks (``notebooks/<paper>/<chapter>.md``), paired by jupytext.

A chapter is written as text: Markdown cells as they are (LaTeX written once), code cells as
```` ```{code-cell} ipython3 ```` blocks whose tags and metadata (``parameters``, ``remove-cell``,
the ``mystnb`` figure captions and names) are the block's options (``:tags: [remove-cell]``, or a
YAML header), and the notebook's metadata (kernelspec, ``mystnb: execution_mode: 'off'``) in the
YAML front matter. Executed chapters are still ``.ipynb``: the pipeline (``tools/chapters.py``)
converts the text with :func:`write_ipynb` into a notebook papermill runs, and nbval, staging and
the book read the executed notebook as before. ``tools/to_myst.py`` writes the text from an
``.ipynb`` (:func:`to_myst`).

Cell ids are not stored in the text: :func:`read_notebook` numbers the cells (``cell-0``,
``cell-1``, ...), so the same text always gives the same notebook; nothing in the project refers to
a cell by its id. jupytext is imported only when a chapter is read or written.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nbformat import NotebookNode

__all__ = ["FORMAT", "SUFFIX", "METADATA", "LEXER", "read_notebook", "to_myst", "write_ipynb", "cell_id",
           "same_cells", "chapter_sources", "source_path", "text_metadata"]

#: The jupytext format of the chapters' sources.
FORMAT = "md:myst"
#: The file suffix of a chapter's source.
SUFFIX = ".md"
#: The notebook metadata a chapter's front matter keeps (jupytext drops the rest).
METADATA = ("kernelspec", "language_info", "mystnb")
#: The language of the code cells: ```` ```{code-cell} ipython3 ````.
LEXER = "ipython3"


def cell_id(index: int) -> str:
    """The id of the cell at position ``index`` of a notebook read from its text."""
    return f"cell-{index}"


def _text_format() -> dict:
    return {"extension": SUFFIX, "format_name": "myst", "notebook_metadata_filter": ",".join(METADATA)}


def read_notebook(path: str | Path) -> NotebookNode:
    """The chapter at ``path`` as an nbformat 4.5 notebook (``nbformat.NotebookNode``).

    A MyST source (``.md``) is read with jupytext: its cells in order with their tags and metadata,
    the notebook metadata of its front matter without jupytext's own, no outputs, cell ids
    :func:`cell_id`. An ``.ipynb`` (an executed chapter, or a source not converted yet) is read as it is.
    """
    import nbformat

    path = Path(path)
    if path.suffix != SUFFIX:
        return nbformat.read(path, as_version=4)
    import jupytext

    nb = jupytext.reads(path.read_text(encoding="utf-8"), fmt=FORMAT)
    nb.metadata.pop("jupytext", None)
    nb.nbformat, nb.nbformat_minor = 4, 5
    for k, cell in enumerate(nb.cells):
        cell["id"] = cell_id(k)
        if cell.cell_type == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return nb


def write_ipynb(path: str | Path, out: str | Path) -> Path:
    """Write the chapter at ``path`` (:func:`read_notebook`) as an ``.ipynb`` file ``out``; returns ``out``."""
    import nbformat

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(read_notebook(path), out)
    return out


def to_myst(nb: NotebookNode) -> str:
    """The MyST text of the notebook ``nb`` (an ``nbformat.NotebookNode``): what ``tools/to_myst.py`` writes.

    Raises ``ValueError`` if a code cell has outputs (a chapter's source holds none) or a cell type is
    neither code nor Markdown. Deterministic: the same notebook always gives the same text, and the
    text of :func:`read_notebook` of that text is that text again.
    """
    import jupytext

    stored = [k for k, c in enumerate(nb.cells) if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]
    if stored:
        raise ValueError(f"nb: cells {stored} hold outputs; a chapter's source holds none (clear them first)")
    other = sorted({c.cell_type for c in nb.cells} - {"code", "markdown"})
    if other:
        raise ValueError(f"nb: cells of type {other}; a chapter has code and Markdown cells only")
    nb = copy.deepcopy(nb)
    nb.metadata = text_metadata(nb.metadata)
    return jupytext.writes(nb, fmt=_text_format())


def text_metadata(metadata: dict) -> dict:
    """The notebook metadata a chapter's text keeps of ``metadata``: the keys :data:`METADATA`, with
    ``language_info`` naming its lexer (:data:`LEXER`, the language of the ```` ```{code-cell} ```` blocks)."""
    out = {k: copy.deepcopy(v) for k, v in metadata.items() if k in METADATA}
    language = out.setdefault("language_info", {})
    language.setdefault("name", (out.get("kernelspec") or {}).get("language", "python"))
    language.setdefault("pygments_lexer", LEXER)
    return out


def same_cells(original: NotebookNode, converted: NotebookNode) -> list[str]:
    """How the cells of ``converted`` (read back from the text of ``original``) differ from those of
    ``original``: type, source, metadata (tags included). The one difference allowed is a trailing
    newline of a source, which the text cannot hold. Returns the differences, ``[]`` if none."""
    problems = []
    if len(original.cells) != len(converted.cells):
        problems.append(f"{len(original.cells)} cells became {len(converted.cells)}")
    for k, (a, b) in enumerate(zip(original.cells, converted.cells)):
        if a.cell_type != b.cell_type:
            problems.append(f"cell {k}: {a.cell_type} became {b.cell_type}")
        if a.source.rstrip("\n") != b.source:
            problems.append(f"cell {k}: its source changed")
        if dict(a.metadata) != dict(b.metadata):
            problems.append(f"cell {k}: metadata {dict(a.metadata)} became {dict(b.metadata)}")
    return problems


def chapter_sources(root: str | Path) -> list[Path]:
    """Every chapter source under ``root`` (the project's ``notebooks/``), sorted: the MyST ``.md``
    files, and any ``.ipynb`` not converted yet (``tools/to_myst.py`` converts them); checkpoints
    left out. Raises ``ValueError`` if a chapter has both."""
    found = sorted(p for suffix in (SUFFIX, ".ipynb") for p in Path(root).rglob(f"*{suffix}")
                   if ".ipynb_checkpoints" not in p.parts and not p.name.startswith("."))
    stems = [p.with_suffix("") for p in found]
    twice = sorted({str(s) for s in stems if stems.count(s) > 1})
    if twice:
        raise ValueError(f"root: chapters with both an .md and an .ipynb source: {twice} (remove the .ipynb "
                         "if it is an older copy, e.g. from jupytext --to ipynb without -o, or convert it with "
                         "tools/to_myst.py --force if it is the newer source)")
    return found


def source_path(path: str | Path) -> Path:
    """The chapter source ``path`` names (``notebooks/<paper>/<chapter>.md``), or the ``.ipynb`` of the
    same name where that chapter is not converted yet. Raises ``FileNotFoundError`` if neither exists."""
    path = Path(path)
    for candidate in (path, path.with_suffix(SUFFIX), path.with_suffix(".ipynb")):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"path: no chapter source {path.with_suffix(SUFFIX)}")
