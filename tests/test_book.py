"""The book's configuration and its citation records agree with each other."""

from pathlib import Path

import yaml

from gendyn.book.myst import chapter_sources, read_notebook, source_path

ROOT = Path(__file__).resolve().parents[1]


def _chapters():
    import importlib.util

    spec = importlib.util.spec_from_file_location("chapters", ROOT / "tools" / "chapters.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_citation_page_agrees_with_citation_cff():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    page = (ROOT / "book" / "citing.md").read_text()
    bib = (ROOT / "book" / "references.bib").read_text()
    assert "generated/citation.bib" in page  # the build's own record, with version and commit
    assert cff["title"] in bib and f"version {cff['version']}" in bib
    import gendyn

    assert cff["version"] == gendyn.__version__


def test_the_generated_bibtex_carries_version_commit_date_and_address():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    chapters = _chapters()
    facts = dict(version=cff["version"], sha="0123456789abcdef0123456789abcdef01234567", dirty=False,
                 date="2026-11-28")
    bib = chapters.citation(facts)
    assert cff["title"] in bib and "version = {" + cff["version"] + "}" in bib.replace("  ", "")
    assert "commit 0123456" in bib and "2026-11-28" in bib and "url" not in bib
    bib = chapters.citation(dict(facts, dirty=True), "https://example.org/gendyn")
    assert "url     = {https://example.org/gendyn}" in bib and "with uncommitted changes" in bib
    built = yaml.safe_load(chapters.citation_cff(facts, "https://example.org/gendyn"))
    assert built["commit"] == facts["sha"] and built["repository-code"] == "https://example.org/gendyn"


def test_the_repository_address_is_one_setting_that_citation_cff_follows():
    """``repository: url:`` of _config.yml is the public address (empty while there is none); the
    repository's CITATION.cff carries the same address, or none."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    url = (config["repository"]["url"] or "").rstrip("/")
    assert (cff.get("repository-code") or "").rstrip("/") == url
    assert config["html"]["use_repository_button"] is False  # stage turns it on when url is set
    assert "use_repository_button" not in config["sphinx"]["config"]["html_theme_options"]


def test_the_browser_check_knows_the_figures_smallest_text():
    """tools/browser-check estimates a figure's smallest text from the book's figure style."""
    import re

    from gendyn.book.plotting import STYLE

    check = (ROOT / "tools" / "browser-check" / "check.mjs").read_text()
    assert int(re.search(r"SMALLEST_FONT_PT = (\d+)", check).group(1)) == min(
        STYLE["legend.fontsize"], STYLE["font.size"], STYLE["axes.labelsize"], STYLE["axes.titlesize"])
    assert int(re.search(r"FIGURE_DPI = (\d+)", check).group(1)) == STYLE["figure.dpi"]


def test_the_four_papers_are_in_the_bibliography():
    bib = (ROOT / "book" / "references.bib").read_text()
    for key in ("lampinen2019analytic", "lee2019generalization", "goldt2019dynamics", "advani2020high",
                "advani2017high"):
        assert "{" + key + "," in bib
    assert "10.1016/j.neunet.2020.08.022" in bib


def test_book_executes_nothing_and_fails_on_errors():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["execute"]["execute_notebooks"] == "off"
    assert config["only_build_toc_files"] is True
    assert config["sphinx"]["config"]["nb_execution_raise_on_error"] is True


def test_every_chapter_notebook_is_in_the_toc_and_every_static_page_exists():
    toc = (ROOT / "_toc.yml").read_text()
    for notebook in chapter_sources(ROOT / "notebooks"):
        stem = notebook.relative_to(ROOT / "notebooks").with_suffix("")
        assert f"book/generated/{stem}" in toc, f"{stem} is not in _toc.yml"
    files = [line.split("file:")[1].strip() for line in toc.splitlines() if "file:" in line]
    files.append(yaml.safe_load(toc)["root"])
    for entry in files:
        if not entry.startswith("book/generated/"):
            assert (ROOT / f"{entry}.md").exists() or (ROOT / f"{entry}.ipynb").exists(), entry


def test_every_notebook_cell_has_a_unique_id():
    # nbformat 4.5 requires cell ids (missing ones are a warning today, an error in future nbformat);
    # a MyST source stores none: the notebook the pipeline runs numbers its cells
    for notebook in chapter_sources(ROOT / "notebooks"):
        ids = [cell.get("id") for cell in read_notebook(notebook).cells]
        assert None not in ids and len(set(ids)) == len(ids), notebook


def test_the_advani_saxe_figure_map_names_claims_its_chapters_check():
    """Every claim the figure map lists is checked by the chapter of its row (a rename shows up here)."""
    import re

    page = (ROOT / "book" / "advani-saxe-figures.md").read_text()
    rows = [line for line in page.splitlines() if line.startswith("- **") and "{doc}" in line]
    assert len(rows) >= 7
    for row in rows:
        chapter = re.search(r"\{doc\}`generated/advani-saxe/([a-z-]+)`", row).group(1)
        nb = read_notebook(source_path(ROOT / "notebooks" / "advani-saxe" / f"{chapter}.md"))
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        # the chapter's claims live in its companion module (gendyn.book.chapters)
        module = ROOT / "lib" / "gendyn" / "book" / "chapters" / f"advani_saxe_{chapter.replace('-', '_')}.py"
        code += "\n" + module.read_text()
        # a claim id, with each {expression} of an f-string id matching any value
        checked = [re.compile("[a-z0-9.-]+".join(map(re.escape, re.split(r"\{[^}]*\}", c))))
                   for c in re.findall(r"check\(\s*f?\"([^\"]+)\"", code)]
        listed = re.findall(r"`([a-z0-9{}-]+)`", row.split("Claims:")[1])
        for claim in listed:
            name = re.sub(r"\{[^}]*\}", "x", claim)  # the page's {placeholder}: any value
            assert any(p.fullmatch(name) for p in checked), (chapter, claim)
