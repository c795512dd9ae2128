"""What the HTML book does for its reader beyond the theme.

- **Every figure opens at full size.** Each image of a page is wrapped in a link to its own
  file: a figure drawn for the 770-px column and shown at 0.5x on a phone is one tap away from
  its native size (its 8-pt legend back at about 12 px).
- **Tables say what they hold.** A table is classed by its header row, and each of its cells by
  its column: the claims tables (``status | claim | category | measured | predicted | tolerance |
  used | resolution | why this tolerance``) get ``gendyn-claims`` and ``col-measured`` etc., so
  that the stylesheet can keep short values on one line on a wide screen and stack one claim per
  block on a phone without touching any other table (the general index's, the API's).
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
    app.connect("autodoc-process-docstring", public_api_rubric)
    app.connect("build-finished", prune_mathjax, priority=900)  # after sphinx-mathjax-offline copied it
    return {"parallel_read_safe": True, "parallel_write_safe": True}
