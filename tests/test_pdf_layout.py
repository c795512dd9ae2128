"""The PDF's layout of the book's tables (book/_ext/reader_aids.py), on a page built by Sphinx's
LaTeX builder (no TeX needed), and the HTML of the same page left as it was."""

import re
import sys
from pathlib import Path

import pytest

sphinx_application = pytest.importorskip("sphinx.application")
pytest.importorskip("myst_parser")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import reader_aids  # noqa: E402

CLAIMS = """\
| status | claim | category | measured | predicted | tolerance | used | resolution | why this tolerance |
|---|---|---|---|---|---|---|---|---|
| pass | `flow-N3-a-long-id`: largest gap over 13 modes | agreement | 0.9612 | 0 | 1 (upper) | 96% | <1% | the delay |
| pass | `peak`: the peak | reproduction | -0.0001262 | -4.024e-08 | 0.0753 (absolute) | 4% | 18723011% | the grid |
"""

MODULES = """\
| module | contents |
|---|---|
| `linear_experiments` | batched torch simulations of the linear student and of random-feature ReLU nets |
| `rmt` | random matrices |
"""

PLAIN = """\
| a | b |
|---|---|
| one | two |
"""


LONG = "| chapter | mutation (result × factor) | killed | survived | crashed |\n|---|---|---|---|---|\n" + "".join(
    f"| `lg-generalisation-deep` (*changed since*) | `gendyn.deep_linear.optimal_early_stopping[{k}] x1.3` "
    "| 2 | 0 | 0 |\n" for k in range(35))


def build(tmp_path, builder):
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / "index.md").write_text(f"# Tables\n\n{CLAIMS}\n\n{MODULES}\n\n{PLAIN}\n\n{LONG}\n")
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        "extensions = ['myst_parser', 'sphinx.ext.autodoc', 'reader_aids']\n"
        "latex_documents = [('index', 'tables.tex', 'Tables', 'gendyn', 'manual')]\n")
    out = tmp_path / builder
    app = sphinx_application.Sphinx(str(src), str(src), str(out), str(tmp_path / f"doctrees-{builder}"), builder,
                                    status=None, warning=None, freshenv=True)
    app.build()
    return out


def test_claims_tables_fit_the_pdf_page_and_code_columns_keep_their_width(tmp_path):
    tex = (build(tmp_path, "latex") / "tables.tex").read_text()
    tables = re.findall(r"\\begin\{(longtable|tabulary)\}(?:\{\\linewidth\}\[t\])?\{(.*)\}\n", tex)
    assert [kind for kind, _ in tables] == ["longtable", "tabulary", "tabulary", "longtable"]
    # the claims table: a longtable (it breaks across pages) whose columns share the whole line
    shares = [int(s) for s in re.findall(r"\\X\{(\d+)\}\{1000\}", tables[0][1])]
    assert shares == list(reader_aids.CLAIMS_LATEX_SHARES) and sum(shares) == 1000
    assert len(shares) == len(reader_aids.CLAIMS_HEAD) + 1  # and "why this tolerance"
    # in its own smaller font, with claim ids that may break after their hyphens
    start = tex.index(r"\begin{longtable}")
    assert "\\begingroup" + reader_aids.CLAIMS_LATEX_FONT in tex[:start]
    assert r"\endgroup" in tex[tex.index(r"\end{longtable}"):tex.index(r"\begin{tabulary}")]
    # a column of module names keeps its width (l); a table of plain words is Sphinx's own
    assert tables[1][1] == "lT"
    assert tables[2][1] == "TT"
    # a long table (a longtable) gets widths that fit the page, not Sphinx's "l" columns, the
    # numbers' columns as wide as their header words
    shares = [int(s) for s in re.findall(r"\\X\{(\d+)\}\{\d+\}", tables[3][1])]
    assert len(shares) == 5 and tables[3][1].count("\\X{") == 5
    assert sum(shares) == 1000 and min(shares[0], shares[1]) > max(shares[2:])
    assert all(share / 1000 * reader_aids.LATEX_LINE_PT - 12 >= len(word) * 5
               for share, word in zip(shares, ["chapter", "mutation", "killed", "survived", "crashed"]))


def test_the_html_tables_are_untouched(tmp_path):
    html = (build(tmp_path, "html") / "index.html").read_text()
    assert html.count('class="gendyn-claims') == 1
    assert "longtable" not in html and "footnotesize" not in html and "tabularcolumns" not in html


def test_the_claims_table_shares_match_the_claims_header():
    from gendyn.book.claims import _table

    head = _table([]).splitlines()[0].strip("| ").split(" | ")
    assert tuple(head[:len(reader_aids.CLAIMS_HEAD)]) == reader_aids.CLAIMS_HEAD
    assert len(head) == len(reader_aids.CLAIMS_LATEX_SHARES)
