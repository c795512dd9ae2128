"""Every chapter runs through papermill at the smoke scale, and all its claims hold.

The executed notebooks go to ``_build/runs/smoke/`` (as ``make runs SCALE=smoke`` would
write them), so the smoke-scale book built after the tests reuses them.
"""

import json
import os
import shutil
import time
from pathlib import Path

import nbformat
import papermill
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
NOTEBOOKS = [nb for nb in NOTEBOOKS if ".ipynb_checkpoints" not in nb.parts]
RUNS = ROOT / "_build" / "runs" / "smoke"


def execute(notebook, output, parameters, env_dir):
    os.environ["GENDYN_RUN_DIR"] = str(env_dir)
    os.environ.setdefault("GENDYN_PROGRESS", "0")
    return papermill.execute_notebook(
        str(notebook), str(output), parameters=parameters, cwd=str(notebook.parent), progress_bar=False
    )


def test_there_are_chapters():
    assert NOTEBOOKS, "no chapter notebooks found under notebooks/"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_chapter_runs_at_smoke_scale_with_all_claims(notebook):
    out = RUNS / notebook.relative_to(ROOT / "notebooks")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(".partial-" + out.name)
    records_dir = out.with_suffix("")  # claims and figures of this chapter, as the Makefile
    shutil.rmtree(records_dir, ignore_errors=True)
    start = time.perf_counter()
    execute(notebook, partial, {"SCALE": "smoke", "SEED": 0, "DEVICE": "cpu"}, records_dir)
    out.with_suffix(".seconds").write_text(f"{time.perf_counter() - start:.1f}\n")  # for benchmarks/run.py
    partial.replace(out)  # only a complete run counts as done (Make reuses it)
    images = [o for c in nbformat.read(out, as_version=4).cells if c.cell_type == "code"
              for o in c.outputs if "image/png" in o.get("data", {})]
    assert images, f"{notebook.name} shows no figure"
    records = [r for path in records_dir.glob("*.claims.json") for r in json.loads(path.read_text())]
    assert records, f"{notebook.name} checked no claim"
    assert all(r["passed"] for r in records), [r["id"] for r in records if not r["passed"]]
    assert all(r["scale"] == "smoke" for r in records)


def test_parameters_cell_holds_only_literals():
    import ast

    for notebook in NOTEBOOKS:
        cells = nbformat.read(notebook, as_version=4).cells
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
        ({"SCALE": "smoke", "DEVICE": "tpu"}, "DEVICE must be 'cpu' or 'cuda'"),
        ({"SCALE": "smoke", "N1": -10}, "size n1=-10"),
    ],
    ids=["unknown-scale", "unknown-device", "negative-size"],
)
def test_bad_parameter_stops_the_first_chapter_with_a_clear_message(parameters, message, tmp_path):
    notebook = ROOT / "notebooks" / "lampinen-ganguli" / "rmt-teacher-in-data.ipynb"
    with pytest.raises(papermill.PapermillExecutionError, match=message):
        execute(notebook, tmp_path / "out.ipynb", parameters, tmp_path)
