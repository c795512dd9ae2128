"""The book's pipeline (tools/chapters.py) lets no failed, unfinished, stale or foreign claim
reach a built book, and leaves nothing of a failed or interrupted run.

Each test runs tiny chapters through a real kernel, exactly as ``make runs`` does, in a
temporary project tree.
"""

import importlib.util
import json
import os
import shutil
import time
from pathlib import Path

import nbformat
import papermill
import pytest

from gendyn.book import myst

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("chapters", ROOT / "tools" / "chapters.py")
chapters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chapters)

SMOKE = {"SCALE": "smoke", "SEED": 0, "DEVICE": "cpu"}

PASSING = """
from gendyn.book.claims import Ledger
ledger = Ledger("demo-{name}", SCALE)
ledger.declare(["x"])
ledger.check("x", "one is one", 1.0 + SEED * 0, 1.0, 0.1)
ledger.finish()
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project tree with its own notebooks/, lib/, data/ and lock; returns its root."""
    (tmp_path / "requirements").mkdir()
    for entry in ("pyproject.toml", "requirements.lock", "_config.yml", "CITATION.cff", "requirements/torch-cpu.lock",
                  "requirements/torch-cuda.lock"):
        shutil.copy(ROOT / entry, tmp_path / entry)
    package = tmp_path / "lib" / "gendyn"
    (package / "book").mkdir(parents=True)
    for name, text in {"__init__.py": "", "used.py": "from . import helper\n", "helper.py": "x = 1\n",
                       "unused.py": "y = 2\n", "published_runs.py": "", "book/__init__.py": "",
                       "book/claims.py": "from .. import helper\n"}.items():
        (package / name).write_text(text)
    (tmp_path / "data" / "lee-ndirango-2019").mkdir(parents=True)
    (tmp_path / "data" / "lee-ndirango-2019" / "table.csv").write_text("a,b\n1,2\n")
    (tmp_path / "notebooks" / "part").mkdir(parents=True)
    monkeypatch.setattr(chapters, "ROOT", tmp_path)
    monkeypatch.setattr(chapters, "NOTEBOOKS", tmp_path / "notebooks")
    monkeypatch.setenv("GENDYN_PROGRESS", "0")
    return tmp_path


def chapter(project, name, body=PASSING, suffix=".md"):
    """Write a chapter's source, a MyST Markdown notebook (``suffix=".ipynb"``: a notebook not converted
    yet), with a parameters cell and ``body``; returns its path."""
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('SCALE = "paper"\nSEED = 0\nDEVICE = "cpu"')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell(f"# Chapter {name}\n\n$$\\frac{{1}}{{2}}$$"), params,
                nbformat.v4.new_code_cell(body.format(name=name))]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = project / "notebooks" / "part" / f"{name}{suffix}"
    if suffix == ".md":
        path.write_text(myst.to_myst(nb))
    else:
        nbformat.write(nb, path)
    return path


def as_ipynb(nb, tmp):
    """The chapter source ``nb`` as an .ipynb papermill can run by hand."""
    return myst.write_ipynb(nb, Path(tmp) / f"{nb.stem}-source.ipynb")


def left_behind(runs):
    """Every file the runs folder holds (relative paths)."""
    return sorted(str(p.relative_to(runs)) for p in runs.rglob("*") if p.is_file()) if runs.exists() else []


def test_an_accepted_run_is_staged_with_its_ledger(project):
    runs, out = project / "runs", project / "staged"
    nb = chapter(project, "good")
    record = chapters.run(nb, runs, SMOKE)
    assert record.finished and record.run == chapters.identity(nb, SMOKE)
    chapters.stage([nb], runs, out, SMOKE)
    assert (out / "part" / "good.ipynb").exists()
    page = (out / "claims-ledger.md").read_text()
    assert "1 claims in 1 chapters: 1 pass, 0 fail" in page
    staged = json.loads((out / "part" / "good.ipynb").read_text())
    hidden = [c for c in staged["cells"] if "remove-cell" in c["metadata"].get("tags", [])]
    assert len(hidden) == 1 and "parameters" in hidden[0]["metadata"]["tags"]  # the defaults, not what ran
    shown = [c for c in staged["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]
    assert len(shown) == 1 and 'SCALE = "smoke"' in "".join(shown[0]["source"])  # the parameters of this run
    assert "(run `" in "".join(staged["cells"][3]["source"])  # the box that says which run this is
    assert "extra_footer" in (out / "_config.yml").read_text()
    assert "| [Chapter good](part/good.ipynb) |" in (out / "execution-statistics.md").read_text()  # its title
    # the exact source of the build (outside git: the project tree without the build's outputs)
    import tarfile

    archive = next(out.glob("gendyn-*.tar.gz"))
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    folder = archive.name[:-len(".tar.gz")]
    assert f"{folder}/notebooks/part/good.md" in names and f"{folder}/_config.yml" in names
    assert not any(n.startswith((f"{folder}/staged", f"{folder}/.venv")) for n in names)
    assert archive.name in (out / "source.md").read_text()
    assert f"</staged/{archive.name}>" in "".join(staged["cells"][3]["source"])  # from the chapter's box
    assert staged["metadata"]["papermill"]["input_path"] == str(nb)  # the source, not the notebook papermill ran
    assert "version" in (out / "citation.bib").read_text() and (out / "CITATION.cff").exists()


def test_a_chapter_source_is_run_as_a_notebook_and_lands_as_one(project):
    """A MyST source runs as the .ipynb converted from it (nothing written under notebooks/); an .ipynb
    source not converted yet runs the same way; the identity is that of the source's text."""
    runs = project / "runs"
    text = chapter(project, "text")
    legacy = chapter(project, "legacy", suffix=".ipynb")
    before = sorted(p.name for p in (project / "notebooks" / "part").iterdir())
    for nb in (text, legacy):
        record = chapters.run(nb, runs, SMOKE)
        assert record.finished and record.run == chapters.identity(nb, SMOKE)
        out = chapters.places(nb, runs)[0]
        assert out == runs / "part" / f"{nb.stem}.ipynb" and out.exists()
        executed = nbformat.read(out, as_version=4)
        assert [c.cell_type for c in executed.cells][:2] == ["markdown", "code"]
        assert any("injected-parameters" in c.metadata.get("tags", []) for c in executed.cells)
    assert sorted(p.name for p in (project / "notebooks" / "part").iterdir()) == before
    base = chapters.identity(text, SMOKE)
    text.write_text(text.read_text().replace("Chapter text", "Chapter text, reworded"))
    assert chapters.identity(text, SMOKE) != base


@pytest.mark.parametrize("name, body, why", [
    ("failing", PASSING.replace("1.0 + SEED * 0", "2.0"), "claim.s. of .demo-failing. failed"),
    ("unfinished", PASSING.replace("ledger.finish()", ""), "did not reach ledger.finish()"),
    ("caught", PASSING.replace("1.0 + SEED * 0", "2.0").replace(
        "ledger.finish()", "try:\n    ledger.finish()\nexcept Exception:\n    pass"), "FAIL"),
    ("twice", PASSING.replace("ledger.finish()", 'ledger = Ledger("demo-twice", SCALE)\nledger.finish()'),
     "already opened in this run"),
    ("no-ledger", "x = 1", "expected one claims record"),
    ("undeclared", PASSING.replace('ledger.declare(["x"])', ""), "declared no claim set"),
], ids=lambda v: v if isinstance(v, str) and len(v) < 20 else "")
def test_a_run_that_must_not_reach_the_book_leaves_nothing(project, name, body, why):
    runs = project / "runs"
    nb = chapter(project, name, body)
    with pytest.raises((chapters.RunRejected, papermill.PapermillExecutionError), match=why):
        chapters.run(nb, runs, SMOKE, log=lambda *_: None)
    # only the failed notebook, for reading its traceback; never read by stage
    assert left_behind(runs) in ([], [f"part/{name}.failed.ipynb"])
    with pytest.raises(chapters.RunRejected, match=f"part/{name}.ipynb: .*no executed notebook"):
        chapters.stage([nb], runs, project / "staged", SMOKE)
    assert not (project / "staged").exists()


def test_any_change_of_parameters_or_sources_makes_a_new_run(project):
    nb = chapter(project, "ident", "from gendyn import used\nfrom gendyn.published_runs import load")
    base = chapters.identity(nb, SMOKE)
    for changed in ({"SEED": 1}, {"DEVICE": "cuda"}, {"REPEATS": 5}, {"SCALE": "paper"}):
        assert chapters.identity(nb, {**SMOKE, **changed}) != base, changed
    for path in ("requirements.lock", "requirements/torch-cpu.lock", "requirements/torch-cuda.lock",
                 "pyproject.toml", "lib/gendyn/used.py", "lib/gendyn/helper.py",
                 "lib/gendyn/__init__.py", "data/lee-ndirango-2019/table.csv"):
        with open(project / path, "a") as fh:
            fh.write("\n")
        assert chapters.identity(nb, SMOKE) != base, path
        base = chapters.identity(nb, SMOKE)
    # the torch build is chosen at install time (CPU or CUDA wheel), not by the lock
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(chapters, "_installed", lambda: "torch 2.13.0+cu130, numpy 2.0")
        assert chapters.identity(nb, SMOKE) != base


def test_a_module_the_chapter_does_not_use_does_not_rerun_it(project):
    nb = chapter(project, "narrow", "import gendyn.book.claims")
    assert set(chapters.library_modules(nb)) == {"gendyn", "gendyn.book", "gendyn.book.claims", "gendyn.helper"}
    base = chapters.identity(nb, SMOKE)
    for path in ("lib/gendyn/unused.py", "lib/gendyn/used.py", "data/lee-ndirango-2019/table.csv"):
        with open(project / path, "a") as fh:
            fh.write("\n")
    assert chapters.identity(nb, SMOKE) == base
    with open(project / "lib/gendyn/helper.py", "a") as fh:  # imported by gendyn.book.claims
        fh.write("\n")
    assert chapters.identity(nb, SMOKE) != base


def test_a_run_of_another_identity_is_rerun_and_never_staged(project):
    runs, out = project / "runs", project / "staged"
    nb = chapter(project, "seeded")
    chapters.run(nb, runs, SMOKE)
    messages = []
    chapters.run(nb, runs, SMOKE, log=messages.append)
    assert messages == [f"up to date: {nb}"]
    with pytest.raises(chapters.RunRejected, match="recorded by another run"):
        chapters.stage([nb], runs, out, {**SMOKE, "SEED": 1})
    record = chapters.run(nb, runs, {**SMOKE, "SEED": 1}, log=messages.append)
    assert len(messages) == 1 and record.run == chapters.identity(nb, {**SMOKE, "SEED": 1})


def test_only_todays_chapters_and_only_their_own_folders_reach_the_ledger(project):
    runs, out = project / "runs", project / "staged"
    kept, deleted = chapter(project, "kept"), chapter(project, "deleted")
    for nb in (kept, deleted):
        chapters.run(nb, runs, SMOKE)
    deleted.unlink()
    # claims left at the top of the runs folder (e.g. by a hand run) are never read
    shutil.copy(runs / "part" / "kept" / "demo-kept.claims.json", runs / "stray.claims.json")
    chapters.stage([kept], runs, out, SMOKE)
    page = (out / "claims-ledger.md").read_text()
    assert "1 claims in 1 chapters" in page and "demo-deleted" not in page
    assert not (out / "part" / "deleted.ipynb").exists()


def test_a_tampered_record_is_rejected(project):
    runs = project / "runs"
    nb = chapter(project, "tampered")
    chapters.run(nb, runs, SMOKE)
    path = runs / "part" / "tampered" / "demo-tampered.claims.json"
    record = json.loads(path.read_text())
    record["claims"][0]["passed"] = False
    path.write_text(json.dumps(record))
    with pytest.raises(chapters.RunRejected, match="FAIL"):
        chapters.stage([nb], runs, project / "staged", SMOKE)


def test_an_interrupted_run_leaves_nothing_not_even_the_old_run(project, monkeypatch):
    runs = project / "runs"
    nb = chapter(project, "interrupted")
    chapters.run(nb, runs, SMOKE)

    def interrupted(notebook, output, **kwargs):
        Path(output).write_text("{}")
        folder = Path(os.environ["GENDYN_RUN_DIR"])
        (folder / "demo-interrupted.claims.json").write_text('{"claims": []}')
        raise KeyboardInterrupt

    monkeypatch.setattr(papermill, "execute_notebook", interrupted)
    with pytest.raises(KeyboardInterrupt):
        chapters.run(nb, runs, {**SMOKE, "SEED": 2})
    assert left_behind(runs) == []


def test_a_hand_run_writes_its_claims_outside_the_runs_folder(project, monkeypatch):
    nb = chapter(project, "by-hand")
    monkeypatch.delenv("GENDYN_RUN_DIR", raising=False)
    monkeypatch.delenv("GENDYN_RUN_ID", raising=False)
    monkeypatch.chdir(ROOT)  # the kernel finds the project root from its working directory
    papermill.execute_notebook(str(as_ipynb(nb, project)), str(project / "out.ipynb"), parameters=SMOKE,
                               progress_bar=False, cwd=str(ROOT))
    scratch = ROOT / "_build" / "scratch" / "smoke" / "demo-by-hand.claims.json"
    assert scratch.exists()
    scratch.unlink()


def test_a_notebook_executed_by_hand_over_an_accepted_run_is_refused(project):
    """Issue 36: a notebook run with SEED 1 and copied over the accepted SEED 0 run was staged
    under a settings box saying SEED = 0."""
    runs = project / "runs"
    nb = chapter(project, "bound")
    chapters.run(nb, runs, SMOKE)
    out, _, _, _ = chapters.places(nb, runs)
    chapters.accepted(nb, runs, SMOKE)
    by_hand = project / "by-hand.ipynb"
    papermill.execute_notebook(str(as_ipynb(nb, project)), str(by_hand), parameters={**SMOKE, "SEED": 1},
                               progress_bar=False, kernel_name="python3")
    shutil.copy(by_hand, out)
    with pytest.raises(chapters.RunRejected, match="not the one of this run"):
        chapters.accepted(nb, runs, SMOKE)
    with pytest.raises(chapters.RunRejected, match="not the one of this run"):
        chapters.stage([nb], runs, project / "staged", SMOKE)


def test_partial_files_of_killed_runs_are_swept(project):
    import subprocess
    import sys

    runs = project / "runs" / "part"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    for name, pid in (("killed", dead.pid), ("running", os.getpid())):
        (runs / f".partial-{name}").mkdir(parents=True)
        (runs / f".partial-{name}" / chapters.OWNER).write_text(f"{pid}\n")
        (runs / f".partial-{name}.ipynb").write_text("{}")
    (runs / ".partial-orphan.ipynb").write_text("{}")
    old = time.time() - 120
    os.utime(runs / ".partial-orphan.ipynb", (old, old))
    # a run being accepted has moved its folder into place and is about to move its notebook: a run
    # of another chapter (make -j) sweeping meanwhile must leave it
    (runs / ".partial-accepting.ipynb").write_text("{}")
    removed = chapters.sweep(project / "runs", log=lambda *_: None)
    assert sorted(p.name for p in removed) == [".partial-killed", ".partial-killed.ipynb", ".partial-orphan.ipynb"]
    assert (runs / ".partial-running").is_dir() and (runs / ".partial-running.ipynb").exists()
    assert (runs / ".partial-accepting.ipynb").exists()


@pytest.mark.parametrize("environment, expected", [({}, None), ({"GENDYN_JOBS": "1"}, None),
                                                    ({"GENDYN_JOBS": "2"}, "share"), ({"GENDYN_THREADS": "3"}, "3")])
def test_a_chapters_kernel_gets_its_share_of_the_cores(project, monkeypatch, environment, expected):
    """make runs JOBS=N: the kernel starts with the chapter's thread count in its environment, and the
    pipeline's own environment is restored afterwards."""
    from gendyn.book import threads

    for name in ("GENDYN_JOBS", "GENDYN_THREADS", *threads.LIBRARY_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    seen = {}

    def execute(notebook, output, **kwargs):
        seen.update({k: os.environ.get(k) for k in ("GENDYN_THREADS", *threads.LIBRARY_VARIABLES)})
        raise KeyboardInterrupt  # the environment is all this test needs

    monkeypatch.setattr(papermill, "execute_notebook", execute)
    with pytest.raises(KeyboardInterrupt):
        chapters.run(chapter(project, "threads"), project / "runs", SMOKE)
    # numpy's OpenBLAS gets one thread in every run (gendyn.book.threads.NUMPY_BLAS), whatever the share
    assert {k: seen.pop(k) for k in threads.NUMPY_BLAS} == threads.NUMPY_BLAS
    if expected is None:
        assert set(seen.values()) == {None}
    else:
        want = str(threads.share(threads.available_cores(), 2)) if expected == "share" else expected
        assert set(seen.values()) == {want}
    assert os.environ.get("OMP_NUM_THREADS") is None and os.environ.get("OPENBLAS_NUM_THREADS") is None


def test_sigterm_leaves_no_partial_files(project):
    import signal
    import subprocess
    import sys
    import time

    runs = project / "runs"
    nb = chapter(project, "slow", "import time\ntime.sleep(120)")
    script = (f"import importlib.util, pathlib\n"
              f"spec = importlib.util.spec_from_file_location('chapters', {str(ROOT / 'tools' / 'chapters.py')!r})\n"
              f"m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
              f"m.ROOT = pathlib.Path({str(project)!r}); m.NOTEBOOKS = m.ROOT / 'notebooks'\n"
              f"m.main(['run', {str(nb)!r}, '--runs', {str(runs)!r}, '-p', 'SCALE', 'smoke', '-p', 'SEED', '0',"
              f" '-p', 'DEVICE', 'cpu'])\n")
    proc = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.time() + 60
    while not list(runs.rglob(".partial-slow.ipynb")) and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    assert not list(runs.rglob(".partial-*")), list(runs.rglob("*"))


def test_a_run_identity_covers_the_conversion_of_its_myst_source():
    # the notebook papermill runs is made from the .md by gendyn.book.myst: a change there changes the run
    files = chapters._source_files(chapters.ROOT / "notebooks" / "advani-saxe" / "bounds.md")
    assert chapters.ROOT / "lib" / "gendyn" / "book" / "myst.py" in files
