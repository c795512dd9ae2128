"""What a reader gets in the built book, checked on its HTML (no browser needed).

Runs only when ``GENDYN_BOOK_HTML`` names a built book's html folder: ``make test`` sets it
after building the smoke-scale book. (``make browser-check`` checks the same pages in
headless Chromium: typeset math, layout, screenshots.)
"""

import os
import re
from pathlib import Path

import pytest

from gendyn.book.myst import chapter_sources

HTML = Path(os.environ["GENDYN_BOOK_HTML"]) if os.environ.get("GENDYN_BOOK_HTML") else None
pytestmark = pytest.mark.skipif(HTML is None, reason="set GENDYN_BOOK_HTML to a built book's html folder")

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted(p.relative_to(ROOT / "notebooks").with_suffix(".html") for p in chapter_sources(ROOT / "notebooks"))


def page(rel):
    return (HTML / "book" / "generated" / rel).read_text()


def main_text(html):
    """The article's HTML, without scripts."""
    article = html.split('<article class="bd-article"', 1)[-1].split("</article>", 1)[0]
    return re.sub(r"<script.*?</script>", "", article, flags=re.S)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=str)
def test_chapter_page_has_its_claims_table_and_captioned_figures(chapter):
    html = main_text(page(chapter))
    assert "<table" in html and "measured" in html, "the claims table did not render as a table"
    assert not re.search(r"\|\s*status\s*\|", html), "a Markdown table was left as text"
    figures = re.findall(r"<figure.*?</figure>", html, flags=re.S)
    images = re.findall(r"<img [^>]*>", html)
    assert images, "no figure"
    assert len(figures) == len(images), f"{len(images) - len(figures)} image(s) without a figure caption"
    for fig in figures:
        assert re.search(r'<span class="caption-number">Fig\. \d+', fig), "a figure without a number"
        alt = re.search(r'alt="([^"]*)"', fig).group(1)
        assert alt and not alt.endswith(".png"), f"alt text is a file name: {alt!r}"
    assert "This run" in html and "claims ledger" in html  # the run box, linking to the ledger
    assert 'SCALE = "paper"' not in html, "the parameters cell is shown"
    # every figure opens at full size: its image is a link to its own file
    for fig in figures:
        link = re.search(r'<a [^>]*href="([^"]+)"[^>]*>\s*<img [^>]*src="([^"]+)"', fig)
        assert link and link.group(1) == link.group(2), "a figure without a link to its full-size file"
    assert 'class="gendyn-claims' in html, "the claims table is not classed (book/_ext/reader_aids.py)"
    assert source_archive() in html, "the run box does not link the source of this build"


def source_archive():
    """The name of the build's source archive, as the introduction links it (and the file exists)."""
    html = (HTML / "book" / "intro.html").read_text()
    match = re.search(r'href="(\.\./_downloads/[0-9a-f]+/(gendyn-[^"/]+\.tar\.gz))"', html)
    assert match, "the introduction does not link the source of this build"
    assert (HTML / match.group(1)[3:]).is_file()
    return match.group(2)


def test_the_source_and_the_citation_of_this_build_are_in_the_book():
    name = source_archive()
    assert name in (HTML / "book" / "reproducing.html").read_text()
    citing = main_text((HTML / "book" / "citing.html").read_text())
    assert re.search(r'_downloads/[0-9a-f]+/CITATION\.cff"', citing)
    bibtex = re.sub(r"<[^>]+>", "", citing)  # the record as the reader sees it (highlighted)
    assert "@misc{gendyn" in bibtex and re.search(r"version\s*=\s*\{\d+\.\d+\.\d+\}", bibtex)
    assert re.search(r"commit [0-9a-f]{7}", bibtex) and "built 20" in bibtex


def test_no_page_loads_thebe_or_names_a_placeholder_repository():
    for path in HTML.rglob("*.html"):
        html = path.read_text()
        assert "thebe" not in html.lower(), path
        assert "executablebooks/jupyter-book" not in html, path


def test_math_is_served_with_the_book():
    index = (HTML / "book" / "intro.html").read_text()
    assert "_static/mathjax/tex-chtml.js" in index and "cdn" not in index.split("mathjax")[0][-200:]
    assert (HTML / "_static" / "mathjax" / "tex-chtml.js").is_file()


def test_ledger_summary_and_sections():
    html = main_text(page(Path("claims-ledger.html")))
    tables = re.findall(r"<table.*?</table>", html, flags=re.S)
    assert len(tables) == 1 + len(CHAPTERS)  # the summary, then one per chapter
    assert "FAIL" not in html


def test_provenance_in_every_footer_and_statistics_page():
    for name in ("book/intro.html", "book/generated/claims-ledger.html", "book/citing.html"):
        html = (HTML / name).read_text()
        assert re.search(r"gendyn \d+\.\d+\.\d+ · commit \w+", html), name
    assert (HTML / "book" / "generated" / "execution-statistics.html").is_file()
    assert (HTML / "book" / "api.html").is_file()
