"""Every chapter runs through the book's pipeline at the smoke scale, and all its claims hold.

The chapters run through ``tools/chapters.py`` exactly as ``make runs SCALE=smoke`` runs them:
into ``_build/runs/smoke/``, accepted (moved into place) only after their claims record was
checked, so the smoke-scale book built after the tests reuses them.
"""

import importlib.util
import os
from pathlib import Path

import nbformat
import papermill
import pytest

from gendyn.book.myst import chapter_sources, read_notebook, source_path, write_ipynb

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = chapter_sources(ROOT / "notebooks")  # MyST Markdown notebooks (gendyn.book.myst)
RUNS = ROOT / "_build" / "runs" / "smoke"
SMOKE = {"SCALE": "smoke", "SEED": 0, "DEVICE": "cpu"}
pytestmark = pytest.mark.notebook  # `make unit` leaves these out

_spec = importlib.util.spec_from_file_location("chapters", ROOT / "tools" / "chapters.py")
chapters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chapters)


def execute(notebook, output, parameters, env_dir):
    """papermill on the chapter source ``notebook``, converted into an .ipynb beside ``output``."""
    os.environ["GENDYN_RUN_DIR"] = str(env_dir)
    os.environ.setdefault("GENDYN_PROGRESS", "0")
    source = write_ipynb(notebook, Path(output).with_name(f"source-{notebook.stem}.ipynb"))
    return papermill.execute_notebook(
        str(source), str(output), parameters=parameters, cwd=str(notebook.parent), progress_bar=False
    )


def test_there_are_chapters():
    assert NOTEBOOKS, "no chapter notebooks found under notebooks/"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_chapter_runs_at_smoke_scale_with_all_claims(notebook):
    os.environ.setdefault("GENDYN_PROGRESS", "0")
    record = chapters.run(notebook, RUNS, SMOKE, log=lambda *_: None)  # raises unless accepted
    out, folder, _, _ = chapters.places(notebook, RUNS)
    images = [o for c in nbformat.read(out, as_version=4).cells if c.cell_type == "code"
              for o in c.outputs if "image/png" in o.get("data", {})]
    assert images, f"{notebook.name} shows no figure"
    assert record.claims and all(c.passed for c in record.claims) and record.finished
    assert all(c.scale == "smoke" for c in record.claims)


def test_parameters_cell_holds_only_literals():
    import ast

    for notebook in NOTEBOOKS:
        cells = read_notebook(notebook).cells
        params = [c for c in cells if "parameters" in c.metadata.get("tags", [])]
        assert len(params) == 1, f"{notebook.name}: need exactly one parameters cell"
        for node in ast.parse(params[0].source).body:
            assert isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant), (
                f"{notebook.name}: parameters cell must assign literals only")
        names = {n.targets[0].id for n in ast.parse(params[0].source).body}
        assert {"SCALE", "SEED", "DEVICE"} <= names


@pytest.mark.parametrize(
    "parameters, message",
    [
        ({"SCALE": "huge"}, "SCALE must be one of"),
        ({"SCALE": "smoke", "DEVICE": "tpu"}, "DEVICE must be 'cpu', 'cuda' or 'cuda:N'"),
        ({"SCALE": "smoke", "N1": -10}, "N1=-10 .* integer >= 2"),
        ({"SCALE": "smoke", "REPEATS": 1}, "REPEATS=1 .* integer >= 2"),
        ({"SCALE": "smoke", "SEED": 2**64}, r"SEED must be an integer in \[0, 2\*\*63\)"),
        ({"SCALE": "smoke", "REPEAT": 50}, "unknown notebook parameter.* REPEAT: this chapter takes"),
    ],
    ids=["unknown-scale", "unknown-device", "negative-size", "one-repeat", "huge-seed", "misspelt-name"],
)
def test_bad_parameter_stops_the_first_chapter_with_a_clear_message(parameters, message, tmp_path):
    notebook = source_path(ROOT / "notebooks" / "lampinen-ganguli" / "rmt-teacher-in-data.md")
    with pytest.raises(papermill.PapermillExecutionError, match=message):
        execute(notebook, tmp_path / "out.ipynb", parameters, tmp_path)


def test_same_seed_gives_byte_identical_claims_and_figures(tmp_path):
    notebook = source_path(ROOT / "notebooks" / "advani-saxe" / "bounds.md")  # a quick chapter with figures
    folders = []
    for run in ("first", "second"):
        chapters.run(notebook, tmp_path / run, SMOKE, force=True, log=lambda *_: None)
        folders.append(chapters.places(notebook, tmp_path / run)[1])
    files = sorted(p.relative_to(folders[0]) for p in folders[0].rglob("*") if p.is_file())
    assert any(f.suffix == ".pdf" for f in files) and any(f.suffix == ".png" for f in files)
    assert files == sorted(p.relative_to(folders[1]) for p in folders[1].rglob("*") if p.is_file())
    for f in files:
        assert (folders[0] / f).read_bytes() == (folders[1] / f).read_bytes(), f
