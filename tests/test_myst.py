"""The chapters' sources are MyST Markdown notebooks (gendyn.book.myst, tools/to_myst.py): their text
gives back the same cells, tags, metadata and notebook metadata, and the conversion is stable."""

import importlib.util
import shutil
from pathlib import Path

import nbformat
import pytest

from gendyn.book import myst

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("to_myst", ROOT / "tools" / "to_myst.py")
to_myst_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(to_myst_tool)

SOURCES = myst.chapter_sources(ROOT / "notebooks")


def demo():
    """A notebook with what chapters hold: LaTeX, tags, a mystnb figure caption, two Markdown cells in a row."""
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('SCALE = "paper"  # "smoke" or "paper"\nSEED = 0')
    params.metadata["tags"] = ["parameters"]
    figure = nbformat.v4.new_code_cell("fig = plot()\nfig")
    figure.metadata["mystnb"] = {"figure": {"caption": "Errors against $t/\\tau$: theory (lines), it's "
                                                       "the *simulation* (points): {numref}`fig-x`.",
                                            "name": "fig-x"}}
    figure.metadata["tags"] = ["remove-input"]
    glue = nbformat.v4.new_code_cell("from myst_nb import glue\nglue('x', 1, display=False)")
    glue.metadata["tags"] = ["remove-cell"]
    nb.cells = [nbformat.v4.new_markdown_cell("# Title\n\nThe error $E_g = \\frac{1}{N}\\|W - \\bar W\\|^2$.\n"),
                params, nbformat.v4.new_markdown_cell("## Next\n\n$$\n\\sum_k s_k\n$$"),
                nbformat.v4.new_markdown_cell("```bash\nmake runs\n```"), figure, glue]
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                   "language_info": {"name": "python"}, "mystnb": {"execution_mode": "off"}}
    return nb


def test_the_text_gives_back_the_notebook(tmp_path):
    nb = demo()
    text = myst.to_myst(nb)
    assert "```{code-cell} ipython3\n:tags: [parameters]\n" in text
    assert "\\frac{1}{N}" in text and "\\\\frac" not in text  # LaTeX written once
    assert "execution_mode: 'off'" in text.split("---")[1]  # notebook metadata in the front matter
    path = tmp_path / "demo.md"
    path.write_text(text)
    back = myst.read_notebook(path)
    assert myst.same_cells(nb, back) == []
    assert back.metadata == myst.text_metadata(nb.metadata) and "jupytext" not in back.metadata
    assert [c.id for c in back.cells] == [myst.cell_id(k) for k in range(len(nb.cells))]
    nbformat.validate(back)
    assert myst.to_myst(back) == text  # stable
    assert myst.read_notebook(path) == back  # deterministic, ids included
    out = myst.write_ipynb(path, tmp_path / "out" / "demo.ipynb")
    assert nbformat.read(out, as_version=4) == back


def test_a_source_with_outputs_or_raw_cells_is_refused():
    nb = demo()
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", text="1\n")]
    with pytest.raises(ValueError, match="hold outputs"):
        myst.to_myst(nb)
    nb = demo()
    nb.cells.append(nbformat.v4.new_raw_cell("raw"))
    with pytest.raises(ValueError, match="code and Markdown cells only"):
        myst.to_myst(nb)


def test_a_chapter_with_two_sources_is_an_error(tmp_path):
    (tmp_path / "part").mkdir()
    nbformat.write(demo(), tmp_path / "part" / "x.ipynb")
    (tmp_path / "part" / "x.md").write_text(myst.to_myst(demo()))
    with pytest.raises(ValueError, match="both an .md and an .ipynb"):
        myst.chapter_sources(tmp_path)
    (tmp_path / "part" / "x.ipynb").unlink()
    assert myst.chapter_sources(tmp_path) == [tmp_path / "part" / "x.md"]
    assert myst.source_path(tmp_path / "part" / "x.ipynb") == tmp_path / "part" / "x.md"
    with pytest.raises(FileNotFoundError):
        myst.source_path(tmp_path / "part" / "y.md")


def test_the_tool_converts_once_and_removes_the_ipynb(tmp_path):
    (tmp_path / "part").mkdir()
    nbformat.write(demo(), tmp_path / "part" / "x.ipynb")
    target = to_myst_tool.convert(tmp_path / "part" / "x.ipynb")
    assert target == tmp_path / "part" / "x.md" and not (tmp_path / "part" / "x.ipynb").exists()
    assert sorted(p.name for p in (tmp_path / "part").iterdir()) == ["x.md"]  # no scratch file left
    assert to_myst_tool.check(target) == []
    text = target.read_text()
    nbformat.write(demo(), tmp_path / "part" / "x.ipynb")  # the same notebook again: the same text
    assert to_myst_tool.convert(tmp_path / "part" / "x.ipynb").read_text() == text
    target.write_text(text.replace("```{code-cell} ipython3", "```{code-cell}"))
    assert to_myst_tool.check(target)  # not as the tool writes it


def test_an_older_ipynb_beside_an_edited_md_is_not_converted_over_it_without_force(tmp_path):
    nbformat.write(demo(), tmp_path / "x.ipynb")
    target = to_myst_tool.convert(tmp_path / "x.ipynb")
    edited = target.read_text() + "\nA sentence added to the text source.\n"
    target.write_text(edited)
    nbformat.write(demo(), tmp_path / "x.ipynb")  # e.g. left by jupytext --to ipynb without -o
    with pytest.raises(ValueError, match="exists and differs"):
        to_myst_tool.convert(tmp_path / "x.ipynb")
    assert target.read_text() == edited and (tmp_path / "x.ipynb").exists()
    assert to_myst_tool.convert(tmp_path / "x.ipynb", force=True).read_text() != edited


def test_a_conversion_that_would_lose_something_writes_nothing(tmp_path):
    nb = demo()
    nb.metadata["widgets"] = {"state": {}}  # notebook metadata the text does not keep
    nbformat.write(nb, tmp_path / "x.ipynb")
    with pytest.raises(ValueError, match="would be dropped"):
        to_myst_tool.convert(tmp_path / "x.ipynb")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.ipynb"]


def test_there_are_chapter_sources():
    assert len(SOURCES) >= 27


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_every_chapter_source_round_trips(source, tmp_path):
    """A MyST source is as tools/to_myst.py writes it; an .ipynb not converted yet would convert without loss."""
    if source.suffix == myst.SUFFIX:
        assert to_myst_tool.check(source) == []
        return
    copy = tmp_path / source.name
    shutil.copy(source, copy)
    original = nbformat.read(copy, as_version=4)
    converted = myst.read_notebook(to_myst_tool.convert(copy))
    assert myst.same_cells(original, converted) == []
    assert converted.metadata == myst.text_metadata(original.metadata)
