"""Convert a percent-format script (``# %%`` code, ``# %% [markdown]`` text) to a notebook.

The chapters are MyST Markdown notebooks; this helper only writes a first version of one
from a plain-text draft: ``python tools/py2nb.py draft.py notebooks/x/y.md`` (a target ending
in ``.ipynb`` gets a JSON notebook). A cell whose header line ends with ``tags=["parameters"]``
gets that tag.
"""

import re
import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

from gendyn.book.myst import to_myst  # noqa: E402


def convert(text):
    cells = []
    for block in re.split(r"^# %%", text, flags=re.M)[1:]:
        header, _, body = block.partition("\n")
        body = body.strip("\n")
        if "[markdown]" in header:
            lines = [line[2:] if line.startswith("# ") else line.lstrip("#") for line in body.splitlines()]
            cells.append(nbformat.v4.new_markdown_cell("\n".join(lines)))
        else:
            cell = nbformat.v4.new_code_cell(body)
            if 'tags=["parameters"]' in header:
                cell.metadata["tags"] = ["parameters"]
            cells.append(cell)
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["mystnb"] = {"execution_mode": "off"}
    return nb


if __name__ == "__main__":
    src, dst = sys.argv[1:3]
    if dst.endswith(".md"):
        Path(dst).write_text(to_myst(convert(open(src).read())))
    else:
        nbformat.write(convert(open(src).read()), dst)
