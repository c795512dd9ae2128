"""What the HTML book does for its reader beyond the theme.

- **Every figure opens at full size.** Each image of a page is wrapped in a link to its own
  file: a figure drawn for the 770-px column and shown at 0.5x on a phone is one tap away from
  its native size (its 8-pt legend back at about 12 px).
- **Tables say what they hold.** A table is classed by its header row, and each of its cells by
  its column: the claims tables (``status | claim | category | measured | predicted | tolerance |
  used | resolution | why this tolerance``) get ``gendyn-claims`` and ``col-measured`` etc., so
  that the stylesheet can keep short values on one line on a wide screen and stack one claim per
  block on a phone without touching any other table (the general index's, the API's).
- **Tables fit the PDF's page** (LaTeX builders only; the HTML is not touched): a claims table is
  a longtable in a smaller font with fixed column widths, all nine columns on the page and the
  statement and reason wrapped; a long table breaks across pages with widths that fit the line;
  a short table's column of code keeps its width.
- **The API docstrings' "Public API" lists are not page sections**: a module docstring's
  ``Public API`` heading becomes a rubric naming the module, so the page's contents list the
  modules once each rather than "Public API" twice.
- **Only the MathJax the book loads is shipped**: sphinx-mathjax-offline copies the whole
  distribution (24 MB); the book loads ``tex-chtml.js``, which reads its fonts, TeX extensions
  and accessibility/menu components on demand. The other combined components, the SVG output
  and the MathML and AsciiMath inputs are removed from the build.
"""

import posixpath
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util.osutil import relative_uri

#: Column classes of a claims table, in the order of its header (gendyn.book.claims._table).
CLAIMS_HEAD = ("status", "claim", "category", "measured", "predicted", "tolerance", "used", "resolution")


def _slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")


def link_figures_to_full_size(app, doctree, docname):
    """Wrap every image of the page in a link to its file in ``_images/``."""
    builder = app.builder
    if builder.format != "html":
        return
    images = app.env.images
    imgpath = relative_uri(builder.get_target_uri(docname), builder.imagedir)
    for node in list(doctree.findall(nodes.image)):
        if isinstance(node.parent, nodes.reference):
            continue
        keys = [node["uri"], *node.get("candidates", {}).values()]
        key = next((k for k in keys if k in images), None)
        if key is None:  # a remote image, or one Sphinx does not copy
            continue
        reference = nodes.reference("", "", internal=True, refuri=posixpath.join(imgpath, images[key][1]),
                                    classes=["gendyn-full-size"],
                                    reftitle="Open the figure at full size")
        node.replace_self(reference)
        reference.append(node)


def classify_tables(app, doctree, docname):
    """Class each table by its header (``gendyn-claims`` for a claims table) and each cell by its
    column (``col-<header>``), so the stylesheet can lay it out by what it holds."""
    for table in doctree.findall(nodes.table):
        thead = next(table.findall(nodes.thead), None)
        if thead is None:
            continue
        rows = list(thead.findall(nodes.row))
        if not rows:
            continue
        head = [_slug(entry.astext()) for entry in rows[-1].children]
        if tuple(head[:len(CLAIMS_HEAD)]) == CLAIMS_HEAD:
            table["classes"].append("gendyn-claims")
        else:
            table["classes"].append("gendyn-table")
        for row in table.findall(nodes.row):
            for k, entry in enumerate(row.children):
                if k < len(head) and head[k]:
                    entry["classes"].append(f"col-{head[k]}")


#: The claims table in the PDF: each column's share of the line (``\\X{share}{1000}``), in the
#: order of the header (:data:`CLAIMS_HEAD`, then "why this tolerance"). In the tables' font
#: (:data:`CLAIMS_LATEX_FONT`) the numbers' columns are as wide as their widest values
#: (``-0.0001262``, ``(absolute)``, ``reproduction``, ``100%``, a resolution of ``18723011%``) and
#: their header words; the statement and the reason share the rest.
CLAIMS_LATEX_SHARES = (60, 190, 98, 92, 92, 86, 53, 92, 237)

#: Where code and identifiers in a table of the PDF may break: inline literals after their
#: hyphens (claim ids, chapter ids), and after underscores (``gd_lag_accuracy``, module names).
#: Set for the claims tables and the long tables only, in their own group.
LATEX_TABLE_BREAKS = (r"\protected\def\sphinxhyphenininlineliteral#1{\discretionary{-}{}{-}}"
                      r"\protected\def\_{\discretionary{\textunderscore}{}{\textunderscore}}")

#: What the claims tables of the PDF set for themselves: a smaller font, a narrower gap between
#: columns, and the breaks of :data:`LATEX_TABLE_BREAKS`.
CLAIMS_LATEX_FONT = r"\footnotesize\setlength{\tabcolsep}{3pt}" + LATEX_TABLE_BREAKS


def fit_claims_tables_to_page(app, doctree, docname):
    """In the PDF, lay a claims table out to fit the page (LaTeX builders only).

    Left to Sphinx, a claims table is a ``tabulary`` of nine columns in the body font: it cannot
    break across pages (a long one runs off the bottom), and tabulary's column widths cut the
    numbers and claim ids off. Here a claims table gets a ``longtable`` (it breaks across pages
    and repeats its header), fixed column widths (:data:`CLAIMS_LATEX_SHARES`: all columns on the
    page), ragged-right cells and a smaller font (:data:`CLAIMS_LATEX_FONT`). The HTML is not
    touched: its layout is the stylesheet's (``gendyn-claims``, :func:`classify_tables`).
    """
    if app.builder.format != "latex":
        return
    cells = r">{\raggedright\arraybackslash}"
    spec = "".join(f"{cells}\\X{{{share}}}{{{sum(CLAIMS_LATEX_SHARES)}}}" for share in CLAIMS_LATEX_SHARES)
    for table in list(doctree.findall(nodes.table)):
        if "gendyn-claims" not in table["classes"]:
            continue
        ncols = sum(1 for _ in table.findall(nodes.colspec))
        if ncols != len(CLAIMS_LATEX_SHARES):  # a claims table without its reason column: Sphinx's layout
            continue
        table["classes"].append("longtable")
        parent, index = table.parent, table.parent.index(table)
        parent.insert(index + 1, nodes.raw("", "\\endgroup\n", format="latex"))
        parent.insert(index, addnodes.tabular_col_spec(spec=spec))
        parent.insert(index, nodes.raw("", "\\begingroup" + CLAIMS_LATEX_FONT + "\n", format="latex"))


#: The longest code (in characters) a column of a table may keep on one line in the PDF.
LATEX_CODE_COLUMN_CHARS = 30


def _only_literal(entry):
    """The one inline literal an entry (table cell) holds, else None."""
    literals = list(entry.findall(nodes.literal))
    if len(literals) != 1 or entry.astext().strip() != literals[0].astext().strip():
        return None
    return literals[0].astext()


def keep_code_columns_whole(app, doctree, docname):
    """In the PDF, a table's column of code (module names, run ids, commands) is as wide as its
    longest entry (LaTeX builders only).

    Sphinx sets a short table as a ``tabulary``, which shares the line between the columns by the
    length of their text: a column of module names next to a column of sentences gets too narrow
    for its names (unbreakable code), which run into the next column. Here a column whose every
    body cell is one inline literal of at most :data:`LATEX_CODE_COLUMN_CHARS` characters becomes
    an ``l`` column (its natural width); the others stay tabulary's. Claims tables, tables that
    become longtables (:func:`fit_long_tables_to_page`) and tables with a code block are left alone.
    """
    if app.builder.format != "latex":
        return
    for table in list(doctree.findall(nodes.table)):
        if "gendyn-claims" in table["classes"] or "longtable" in table["classes"]:
            continue
        parent = table.parent
        index = parent.index(table)
        if index and isinstance(parent[index - 1], addnodes.tabular_col_spec):
            continue
        if next(table.findall(nodes.literal_block), None) is not None:
            continue
        tbody = next(table.findall(nodes.tbody), None)
        if tbody is None or _long_in_pdf(table):  # fit_long_tables_to_page lays it out
            continue
        ncols = sum(1 for _ in table.findall(nodes.colspec))
        body = [row.children for row in tbody.findall(nodes.row)]
        if any(len(cells) != ncols for cells in body):  # merged cells: leave it to Sphinx
            continue
        code = [all((text := _only_literal(cells[k])) is not None and len(text) <= LATEX_CODE_COLUMN_CHARS
                    for cells in body) for k in range(ncols)]
        if not any(code) or all(code):
            continue
        spec = "".join("l" if c else "T" for c in code)
        parent.insert(index, addnodes.tabular_col_spec(spec=spec))


#: The PDF's text width in points (letter paper, Sphinx's 1-inch margins), and roughly how wide a
#: character of text and of code is in the body font (10-pt FreeSerif, FreeMono).
LATEX_LINE_PT, LATEX_TEXT_CHAR_PT, LATEX_CODE_CHAR_PT = 470.0, 5.0, 6.0


#: A table of more rows than this (and at most :data:`LATEX_LONG_TABLE_COLS` columns) is a
#: longtable in the PDF: it may not fit the rest of its page, and a tabulary cannot break.
LATEX_LONG_TABLE_ROWS, LATEX_LONG_TABLE_COLS = 20, 6


def _long_in_pdf(table):
    """Whether a table is a longtable in the PDF (:func:`fit_long_tables_to_page`)."""
    rows = sum(1 for _ in table.findall(nodes.row))
    ncols = sum(1 for _ in table.findall(nodes.colspec))
    return rows > 30 or "longtable" in table["classes"] or (
        rows > LATEX_LONG_TABLE_ROWS and ncols <= LATEX_LONG_TABLE_COLS)


def _cell_widths(entry, header=False):
    """About how wide a table cell is in the PDF, in points: ``(narrowest, natural)``, the
    widest word it cannot break (code breaks after ``.``, ``/``, ``-`` and ``_``: Sphinx's breaks
    and :data:`LATEX_TABLE_BREAKS`; text after ``_``) and its whole text on one
    line. A header cell wraps at its spaces (its natural width is its longest word)."""
    code = [lit.astext() for lit in entry.findall(nodes.literal)]
    text = entry.astext().strip()
    for c in code:
        text = text.replace(c, " ")
    words = [len(w) * LATEX_TEXT_CHAR_PT for w in re.split(r"(?<=_)|\s+", text) if w]
    words += [len(p) * LATEX_CODE_CHAR_PT for c in code for p in re.split(r"(?<=[./_-])|\s+", c) if p]
    narrowest = max(words, default=0.0)
    if header:
        return narrowest * 1.1, narrowest * 1.1
    natural = len(" ".join(text.split())) * LATEX_TEXT_CHAR_PT + sum(len(c) for c in code) * LATEX_CODE_CHAR_PT
    return narrowest, max(natural, narrowest)


def column_shares(rows, head_rows=(), line=LATEX_LINE_PT, gap=14.0):
    """Column widths (shares of ``line``, summing to 1000) for a table of docutils rows, as a
    browser lays out a table: each column at least its widest unbreakable word, then the rest of
    the line shared in proportion to how much more each column's longest cell (counted up to 40%
    of the line; the long cells get what is left beyond that) needs on one line. All on one line
    if everything fits; if even the words do not fit, the columns of at most 60 points keep
    theirs and the others share the rest. ``gap``: the space between columns (two tabcolsep) and
    2 points to spare (the widths are estimates)."""
    ncols = len(rows[0].children)
    widths = [[_cell_widths(row.children[k], row in head_rows) for row in rows] for k in range(ncols)]
    lo = [max(w[0] for w in col) + gap for col in widths]
    hi = [max(w[1] for w in col) + gap for col in widths]
    if sum(hi) <= line:
        width = hi
    elif sum(lo) >= line:  # the short columns keep their width, the others share the rest
        short = [h <= 60 for h in hi]
        rest = max(line - sum(h for h, f in zip(hi, short) if f), line / 2)
        wide = sum(l for l, f in zip(lo, short) if not f) or 1.0
        width = [h if f else l * rest / wide for h, l, f in zip(hi, lo, short)]
    else:  # a long cell wraps anyway: it should not take the table's width from the others
        capped = [max(min(h, 0.4 * line), l) for h, l in zip(hi, lo)]
        if sum(capped) <= line:  # the capped widths fit: what is left goes to the long cells
            extra = (line - sum(capped)) / (sum(h - c for h, c in zip(hi, capped)) or 1.0)
            width = [c + (h - c) * extra for h, c in zip(hi, capped)]
        else:
            extra = (line - sum(lo)) / (sum(c - l for c, l in zip(capped, lo)) or 1.0)
            width = [l + (c - l) * extra for c, l in zip(capped, lo)]
    total = sum(width)
    shares = [max(1, round(1000 * w / total)) for w in width]
    shares[shares.index(max(shares))] += 1000 - sum(shares)
    return shares


def fit_long_tables_to_page(app, doctree, docname):
    """In the PDF, a long table gets column widths that fit the page and may break across pages
    (LaTeX builders only).

    Left to Sphinx, a table of over 30 rows is a longtable with ``l`` columns, each as wide as its
    longest cell: the claim-strength page's table of mutations runs far off the right margin, its
    result columns out of sight. A shorter one is a tabulary, which cannot break across pages: the
    execution statistics' 27 chapters run off the bottom. Here a table of more than
    :data:`LATEX_LONG_TABLE_ROWS` rows and at most :data:`LATEX_LONG_TABLE_COLS` columns, or of
    over 30, becomes a longtable whose columns share the line as a browser would share it
    (:func:`column_shares`), its cells wrapped ragged-right. (A table of many short columns, like
    the claims ledger's overview, stays a tabulary, which hyphenates its headers to fit.) Claims
    tables have their own layout (:func:`fit_claims_tables_to_page`); a table with a
    ``tabularcolumns`` spec, merged cells or a code block is left alone.
    """
    if app.builder.format != "latex":
        return
    for table in list(doctree.findall(nodes.table)):
        if "gendyn-claims" in table["classes"]:
            continue
        parent = table.parent
        index = parent.index(table)
        if index and isinstance(parent[index - 1], addnodes.tabular_col_spec):
            continue
        rows = list(table.findall(nodes.row))
        ncols = sum(1 for _ in table.findall(nodes.colspec))
        if not _long_in_pdf(table) or not rows or next(table.findall(nodes.literal_block), None) is not None:
            continue
        if any(len(row.children) != ncols for row in rows):
            continue
        thead = next(table.findall(nodes.thead), None)
        head_rows = set(thead.findall(nodes.row)) if thead is not None else set()
        cells = r">{\raggedright\arraybackslash}"
        spec = "".join(f"{cells}\\X{{{share}}}{{1000}}" for share in column_shares(rows, head_rows))
        if "longtable" not in table["classes"]:
            table["classes"].append("longtable")
        parent.insert(index + 1, nodes.raw("", "\\endgroup\n", format="latex"))
        parent.insert(index, addnodes.tabular_col_spec(spec=spec))
        parent.insert(index, nodes.raw("", "\\begingroup" + LATEX_TABLE_BREAKS + "\n", format="latex"))


def public_api_rubric(app, what, name, obj, options, lines):
    """A module docstring's ``Public API`` section heading becomes a rubric naming the module."""
    if what != "module":
        return
    for k in range(len(lines) - 1):
        if lines[k].strip() == "Public API" and set(lines[k + 1].strip()) == {"-"}:
            lines[k:k + 2] = [f".. rubric:: Public API of {name}", ""]
            return


#: What of MathJax's distribution the book's pages load: ``tex-chtml.js`` and what it reads on
#: demand (fonts, TeX extensions through autoload, the menu and its accessibility components).
MATHJAX_KEEP = ("tex-chtml.js", "output/chtml", "output/chtml.js", "input/tex", "ui", "a11y", "sre", "adaptors")


def prune_mathjax(app, exception):
    """Remove from the build the parts of MathJax the book never loads."""
    if exception is not None or app.builder.format != "html":
        return
    root = Path(app.outdir) / "_static" / "mathjax"
    if not (root / "tex-chtml.js").is_file():
        return
    for path in sorted(root.rglob("*"), reverse=True):
        rel = path.relative_to(root).as_posix()
        kept = any(rel == k or rel.startswith(k + "/") or k.startswith(rel + "/") for k in MATHJAX_KEEP)
        if not kept:
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def setup(app):
    app.connect("doctree-resolved", link_figures_to_full_size)
    app.connect("doctree-resolved", classify_tables)
    app.connect("doctree-resolved", fit_claims_tables_to_page)  # after classify_tables
    app.connect("doctree-resolved", keep_code_columns_whole)  # after fit_claims_tables_to_page
    app.connect("doctree-resolved", fit_long_tables_to_page)  # after both
    app.connect("autodoc-process-docstring", public_api_rubric)
    app.connect("build-finished", prune_mathjax, priority=900)  # after sphinx-mathjax-offline copied it
    return {"parallel_read_safe": True, "parallel_write_safe": True}
