"""The book's pipeline: run chapters, accept only complete and passing runs, stage the book.

    python tools/chapters.py run notebooks/PAPER/CHAPTER.md --runs _build/runs/smoke -p SCALE smoke -p SEED 0 -p DEVICE cpu
    python tools/chapters.py stage --runs _build/runs/smoke --out book/generated -p ... SOURCE...
    python tools/chapters.py offer-pdf _build/latex/gendyn-book.pdf --out book/generated

A chapter's source is a MyST Markdown notebook, ``notebooks/<paper>/<chapter>.md``
(:mod:`gendyn.book.myst`; an ``.ipynb`` source not converted yet by ``tools/to_myst.py`` runs as
well). A run converts it into an ``.ipynb`` in a temporary folder, which papermill executes into
``<runs>/<paper>/<chapter>.ipynb``, the executed notebook that nbval, ``stage`` and the book read.

A chapter run has an **identity**: a hash of the chapter's source text, its parameters (scale, seed,
device and every override), ``pyproject.toml``, ``requirements.lock``, and the library
modules the chapter imports (transitively) with the data they read — so changing one module
re-runs only the chapters that use it. ``run`` skips a chapter whose accepted run has the current
identity and otherwise executes it with papermill into a hidden ``.partial-*`` notebook and
folder, with ``GENDYN_RUN_DIR`` and ``GENDYN_RUN_ID`` set so that the chapter's claims
record carries the identity. The run is accepted only if its one claims record reached
``ledger.finish()``, has this identity and every claim passed; only then are the notebook
and its folder (claims, figures) moved into place. A failed or interrupted run leaves
nothing behind that a later build could read.

Runs of different chapters may go on side by side (``make runs JOBS=N``, ``make -jN``): each has its
own hidden files, a run only sweeps away the partial files of dead processes, and the shared grid
cache is written atomically. With ``$GENDYN_JOBS`` (the Makefile's ``JOBS``) above 1, or
``$GENDYN_THREADS``, the chapter's kernel starts with its share of the cores
(:mod:`gendyn.book.threads`).

``stage`` checks the accepted run of every chapter given (those of ``notebooks/`` today:
a deleted chapter's old run is never read), copies the executed notebooks into the book's
source tree and writes the claims ledger page, the exact source of the build (``git archive``
of the built commit, linked from the introduction, the Reproducing page and every chapter's
"This run" box) and the build's citation (BibTeX and CITATION.cff with version, commit and
date, and the repository's address when ``repository: url:`` of _config.yml gives one). It
fails, writing nothing, if a chapter has no accepted run of this identity. ``offer-pdf`` links
the whole-book PDF from the staged book (``make book PDF=1``).
"""

import argparse
import ast
import hashlib
import json
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from gendyn.book.chapters import CHAPTERS  # noqa: E402
from gendyn.book.claims import category_counts, read_record  # noqa: E402
from gendyn.book.ledger_page import LedgerEntry, ledger_label, ledger_markdown, strength_page  # noqa: E402
from gendyn.book.myst import read_notebook, write_ipynb  # noqa: E402
from gendyn.book.sources import imports_of, module_closure, source_files  # noqa: E402
from gendyn.book.threads import chapter_threads, thread_environment  # noqa: E402

#: The chapters' sources, and what every chapter run depends on besides its notebook, its
#: parameters and the library modules it imports with the data they read
#: (:mod:`gendyn.book.sources`, relative to ``ROOT``).
NOTEBOOKS = ROOT / "notebooks"
SOURCES = ("pyproject.toml", "requirements.lock", "requirements/pip.lock", "requirements/torch-cpu.lock",
           "requirements/torch-cuda.lock",
           # the conversion of a MyST source into the notebook papermill runs: a change to it changes what runs
           "lib/gendyn/book/myst.py")


def _installed():
    """The builds that run the chapters and are chosen at install time, not by a lock (CPU or CUDA torch)."""
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for package in ("torch", "numpy"):
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            found.append(f"{package} missing")
    return ", ".join(found)


#: The pipeline accepts only runs whose chapter declared its claim set before running.
DECLARED = True


class RunRejected(RuntimeError):
    """A chapter run that must not reach the book (failed claim, unfinished, wrong identity)."""


def library_modules(notebook):
    """The library modules a chapter uses: those its code imports, the registry module of every
    chapter it starts or configures (``chapter.start("id", ...)``, ``scales.configure("id", ...)``:
    imported at call time, out of an import's sight), and theirs, transitively (each package's
    ``__init__`` included). Returns ``{module name: file}``."""
    code = []
    for cell in read_notebook(notebook).cells:
        if cell.cell_type == "code":
            source = cell.source
            try:
                code.append(ast.parse(source))
            except SyntaxError:  # a cell with IPython magics: read it line by line
                code += [ast.parse(line) for line in source.splitlines() if line.strip().startswith(("import", "from"))]
    names = set().union(*(imports_of(tree, "") for tree in code))
    names |= {f"gendyn.book.chapters.{CHAPTERS[c][1]}" for tree in code for c in configured_chapters(tree)}
    return module_closure(names, ROOT)


def configured_chapters(tree):
    """Chapter ids (keys of ``CHAPTERS``) passed as the first argument of a ``start`` or ``configure`` call."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            if name in ("start", "configure") and node.args[0].value in CHAPTERS:
                found.add(node.args[0].value)
    return found


def _source_files(notebook):
    files = [ROOT / entry for entry in SOURCES] + source_files(library_modules(notebook), ROOT)
    return [f for f in files if f.is_file()]


def identity(notebook, parameters):
    """The identity of a run of ``notebook`` with ``parameters`` (a dict), as a hex string:
    a hash of the chapter's source (its path under ``notebooks/`` and its text), the parameters, the lock files, the torch build installed (CPU or
    CUDA) and every library module (and data file) the chapter uses, so a change anywhere else
    does not re-run it."""
    digest = hashlib.sha256()
    notebook = Path(notebook).resolve()
    digest.update(str(notebook.relative_to(NOTEBOOKS)).encode())
    digest.update(notebook.read_bytes())
    digest.update(json.dumps(parameters, sort_keys=True).encode())
    digest.update(_installed().encode())
    for path in _source_files(notebook):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def places(notebook, runs):
    """Where the run of the chapter source ``notebook`` lands: (executed notebook, folder, partial
    notebook, partial folder); the executed notebook is ``<runs>/<paper>/<chapter>.ipynb``."""
    rel = Path(notebook).resolve().relative_to(NOTEBOOKS).with_suffix(".ipynb")
    out = Path(runs) / rel
    folder = out.with_suffix("")
    return out, folder, out.with_name(f".partial-{out.name}"), folder.with_name(f".partial-{folder.name}")


def _stamp(executed, run_id, parameters, source=None):
    """Bind the executed notebook to its run: its identity and parameters in its metadata (and, given
    ``source``, the chapter's source as papermill's input, not the temporary notebook it ran)."""
    nb = json.loads(Path(executed).read_text())
    nb["metadata"]["gendyn"] = {"run": run_id, "parameters": parameters}
    if source is not None and "papermill" in nb["metadata"]:
        nb["metadata"]["papermill"]["input_path"] = str(source)
    Path(executed).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def _binding_problems(executed, run_id, parameters):
    """Why the executed notebook is not the one the run ``run_id`` with ``parameters`` produced."""
    try:
        meta = json.loads(Path(executed).read_text())["metadata"]
    except (ValueError, OSError, KeyError, TypeError) as error:
        return [f"{executed}: unreadable executed notebook ({error})"]
    stamp = meta.get("gendyn") or {}
    injected = (meta.get("papermill") or {}).get("parameters")
    out = []
    if stamp.get("run") != run_id:
        out.append(f"{executed}: the executed notebook is not the one of this run (stamped {stamp.get('run')!r}, "
                   f"run {run_id}); was it executed by hand and copied here?")
    elif stamp.get("parameters") != parameters or injected != parameters:
        out.append(f"{executed}: the executed notebook ran with {injected}, not {parameters}")
    return out


def accepted(notebook, runs, parameters):
    """The accepted :class:`Record` of the run of ``notebook`` with this identity; raises
    :class:`RunRejected` saying why there is none.

    Accepted means: the claims record reached ``ledger.finish()``, has this identity, recorded its
    declared claims and every one passed; and the executed notebook beside it is the one that run
    produced (stamped with the same identity and parameters).
    """
    out, folder, _, _ = places(notebook, runs)
    if not out.exists():
        raise RunRejected(f"{out}: no executed notebook")
    try:
        record = read_record(folder)
    except (ValueError, OSError, KeyError, TypeError) as error:
        raise RunRejected(str(error)) from None
    run_id = identity(notebook, parameters)
    problems = record.problems(run=run_id, scale=parameters.get("SCALE"), declared=DECLARED)
    problems += _binding_problems(out, run_id, parameters)
    if problems:
        raise RunRejected("; ".join(problems))
    return record


def _remove(*paths):
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


#: The file in a partial run folder naming the process that writes it.
OWNER = ".owner"


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep(runs, log=print):
    """Remove what killed runs left in ``runs``: hidden ``.partial-*`` notebooks and folders whose
    writing process is gone (a SIGKILL, a power cut). Returns the paths removed."""
    removed = []
    for folder in sorted(Path(runs).rglob(".partial-*")):
        if not folder.is_dir():
            continue
        try:
            pid = int((folder / OWNER).read_text())
        except (OSError, ValueError):  # no owner yet: a run that is starting, unless it is old
            pid = None if time.time() - folder.stat().st_mtime > 60 else os.getpid()
        if pid is None or not _alive(pid):
            notebook = folder.with_name(folder.name + ".ipynb")
            _remove(folder, notebook)
            removed += [folder, notebook]
    for notebook in sorted(Path(runs).rglob(".partial-*.ipynb")):  # a notebook whose folder is gone
        # ... for a minute: a run that is being accepted (make -j: another chapter's) has moved its
        # folder into place and is about to move its notebook
        try:
            orphan = not notebook.with_suffix("").is_dir() and time.time() - notebook.stat().st_mtime > 60
        except FileNotFoundError:  # moved into place meanwhile
            continue
        if orphan:
            _remove(notebook)
            removed.append(notebook)
    if removed:
        log(f"removed {len(removed)} partial files of killed runs in {runs}")
    return removed


def run(notebook, runs, parameters, force=False, log=print):
    """Run ``notebook`` unless its accepted run has this identity; returns its :class:`Record`.

    Raises :class:`RunRejected` (or papermill's execution error) if the run fails; then
    nothing of it is left in ``runs``.
    """
    if not force:
        try:
            record = accepted(notebook, runs, parameters)
            log(f"up to date: {notebook}")
            return record
        except RunRejected:
            pass
    out, folder, partial_out, partial_folder = places(notebook, runs)
    run_id = identity(notebook, parameters)
    sweep(runs, log=log)
    _remove(out, folder, partial_out, partial_folder, folder.with_suffix(".seconds"),
            out.with_suffix(".failed.ipynb"))
    partial_folder.mkdir(parents=True)
    (partial_folder / OWNER).write_text(f"{os.getpid()}\n")
    # GENDYN_REQUIRE_RNG: a draw from fresh entropy (rng=None) fails the run, so the same seed gives the same bytes
    env = {"GENDYN_RUN_DIR": str(partial_folder), "GENDYN_RUN_ID": run_id, "GENDYN_REQUIRE_RNG": "1"}
    # chapters run side by side (make runs JOBS=N) share the cores: the kernel starts with its share
    env.update(thread_environment(chapter_threads()))
    saved = {k: os.environ.get(k) for k in env}
    try:
        import papermill

        os.environ.update(env)
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="gendyn-chapter-") as scratch:
            # papermill runs an .ipynb: the chapter's source converted (never a file under notebooks/)
            source = write_ipynb(notebook, Path(scratch) / out.name)
            papermill.execute_notebook(str(source), str(partial_out), parameters=parameters,
                                       cwd=str(Path(notebook).parent), progress_bar=False, log_output=False)
        seconds = time.perf_counter() - start
        try:
            record = read_record(partial_folder)
        except ValueError as error:
            raise RunRejected(f"{notebook}: {error}") from None
        problems = record.problems(run=run_id, scale=parameters.get("SCALE"), declared=DECLARED)
        if problems:
            raise RunRejected(f"{notebook}: " + "; ".join(problems))
        _stamp(partial_out, run_id, parameters, source=notebook)
        (partial_folder / OWNER).unlink()
        partial_folder.replace(folder)
        (folder.with_suffix(".seconds")).write_text(f"{seconds:.1f}\n")  # for benchmarks/run.py
        partial_out.replace(out)  # last: the notebook is what Make and stage look for
        return record
    except BaseException as error:  # a failure or an interrupt leaves nothing readable behind
        if partial_out.exists() and not isinstance(error, KeyboardInterrupt):
            failed = out.with_suffix(".failed.ipynb")  # for reading the traceback; never staged
            partial_out.replace(failed)
            log(f"failed: {notebook}; the executed notebook is {failed}")
        _remove(partial_out, partial_folder, folder, out)
        raise
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def title_of(notebook):
    """The chapter's title: the first level-1 heading of the notebook."""
    for cell in read_notebook(notebook).cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return Path(notebook).stem


def _book_order():
    """Position of each staged chapter (``part/name``) in the book's table of contents."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text()) if (ROOT / "_toc.yml").exists() else {}
    files = [c["file"] for part in toc.get("parts", []) for c in part.get("chapters", [])]
    prefix = "book/generated/"
    return {f[len(prefix):]: k for k, f in enumerate(files) if f.startswith(prefix)}


def _page(executed, record, parameters, source=None):
    """The executed notebook as the book shows it: the parameters this run used shown (papermill's
    injected cell; the notebook's defaults hidden), one box that
    says which run this is, with a link to the chapter's section of the claims ledger and, given
    ``source`` (:func:`source_archive`'s dict, with ``notebook``, the chapter's path in the
    repository), to the exact source of this build and the chapter's notebook in the repository."""
    nb = json.loads(Path(executed).read_text())
    cells = nb["cells"]
    last_parameter_cell = 0
    injected = any("injected-parameters" in c.get("metadata", {}).get("tags", []) for c in cells)
    for k, cell in enumerate(cells):
        tags = cell.get("metadata", {}).get("tags", [])
        if "parameters" in tags or "injected-parameters" in tags:
            # the reader sees the parameters this run used (papermill's injected cell), not the defaults
            if "parameters" in tags and injected:
                cell["metadata"]["tags"] = tags + ["remove-cell"]
            last_parameter_cell = k
    n = len(record.claims)
    settings = ", ".join(f"{k} = {v!r}" for k, v in parameters.items())
    counts = ", ".join(f"{k} {c}" for c, k in category_counts(record.claims).items())
    na = sum(not c.applies for c in record.claims)
    # the categories count every claim, so they follow the total, not the claims that apply
    passed = (f"Of the chapter's {n} claims ({counts}), all {n - na} that apply in this run passed and {na} do not apply"
              if na else f"All {n} claims of this chapter passed ({counts})")
    box = [":::{admonition} This run\n", ":class: note\n\n",
           f"Executed with {settings} (run `{record.run}`). {passed}. "
           f"Each is listed with the reason for its tolerance in the {{ref}}`claims ledger <{ledger_label(record.chapter)}>`.\n"]
    if source is not None:
        box += [f"\nThe exact source of this build: {{download}}`{source['name']} </{source['path']}>` "
                f"({source['what']}, {source['size']}); unpack it and run the commands of the *Rerun* box "
                f"in its folder `{source['folder']}/`."]
        if source.get("url") and source.get("sha"):
            box += [f" This chapter's notebook in the repository: "
                    f"[`notebooks/{source['notebook']}`]({source['url']}/blob/{source['sha']}/notebooks/{source['notebook']})."]
        box += ["\n"]
    box += [":::\n"]
    cells.insert(last_parameter_cell + 1, {"cell_type": "markdown", "id": "gendyn-this-run", "metadata": {}, "source": box})
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _git(*args):
    """A git command's output in the project (``None`` outside a git checkout or without git)."""
    import subprocess

    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def _provenance(parameters):
    """Version, commit, scale and build date, for the footer of every page, the citation and the
    source archive: ``sha`` (the full commit, ``None`` outside git), ``dirty`` (tracked files
    changed since that commit)."""
    from datetime import datetime, timezone

    import gendyn

    sha = _git("rev-parse", "HEAD") if _git("rev-parse", "--show-toplevel") == str(ROOT.resolve()) else None
    dirty = bool(sha and _git("status", "--porcelain", "--untracked-files=no"))
    commit = "unknown" if sha is None else sha[:7] + (" (with uncommitted changes)" if dirty else "")
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    settings = ", ".join(f"{k.lower()} {v}" for k, v in parameters.items())
    return dict(version=gendyn.__version__, commit=commit, sha=sha, dirty=dirty, date=date, settings=settings)


#: What a source archive made without git leaves out (the build's outputs, as in .gitignore).
NOT_SOURCE = {".git", ".venv", "_build", "__pycache__", ".ipynb_checkpoints", ".pytest_cache", "node_modules"}


def source_archive(out, facts):
    """Write the exact source of this build into ``out`` as a ``.tar.gz`` and return what the pages
    say of it: ``name``, ``path`` (from the project root), ``folder`` (what it unpacks to),
    ``what`` (which source it is) and ``size``.

    In a git checkout it is ``git archive`` of the built commit — with the uncommitted changes to
    tracked files when there are any (``git stash create``; untracked files are not in it).
    Outside git it is the project tree without the build's outputs.
    """
    import tarfile

    out = Path(out)
    version = facts["version"]
    if facts["sha"]:
        short = facts["sha"][:7]
        tree = (_git("stash", "create") or facts["sha"]) if facts["dirty"] else facts["sha"]
        folder = f"gendyn-{version}-{short}" + ("-modified" if facts["dirty"] else "")
        what = (f"commit {short} with its uncommitted changes to tracked files" if facts["dirty"]
                else f"the repository at commit {short}")
    else:
        tree, folder, what = None, f"gendyn-{version}-source", "the project as it was built, without git history"
    name = f"{folder}.tar.gz"
    target = out / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if tree is not None:
        import subprocess

        subprocess.run(["git", "archive", "--format=tar.gz", f"--prefix={folder}/", "-o", str(target.resolve()), tree],
                       cwd=ROOT, check=True)
    else:
        skip = {out.resolve()}

        def keep(info):
            parts = Path(info.name).parts[1:]
            if any(p in NOT_SOURCE or p.endswith(".egg-info") for p in parts):
                return None
            if (ROOT / Path(*parts)).resolve() in skip if parts else False:
                return None
            return info

        with tarfile.open(target, "w:gz") as tar:
            tar.add(ROOT, arcname=folder, filter=keep)
    size = target.stat().st_size
    return dict(name=name, path=target.resolve().relative_to(ROOT.resolve()).as_posix(), folder=folder, what=what,
                size=f"{size / 1e6:.1f} MB" if size >= 1e5 else f"{size / 1e3:.0f} kB")


def _repository(config):
    """The public address of the repository (``repository: url:`` of _config.yml), or ``""``."""
    return ((config.get("repository") or {}).get("url") or "").rstrip("/")


def citation(facts, url=""):
    """The book's BibTeX record for this build (title and authors from CITATION.cff; version,
    commit and date of the build; the repository's address when there is one)."""
    import yaml

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    authors = " and ".join("{" + a["name"] + "}" if "name" in a else f"{a['family-names']}, {a['given-names']}"
                           for a in cff["authors"])
    year = facts["date"][:4]
    commit = "unknown commit" if facts["sha"] is None else (
        f"commit {facts['sha'][:7]}" + (" with uncommitted changes" if facts["dirty"] else ""))
    fields = [("title", "{" + cff["title"] + "}"), ("author", authors), ("year", year),
              ("version", facts["version"]), ("date", facts["date"]),
              ("note", f"Jupyter Book and Python package gendyn, version {facts['version']}, {commit}, "
                       f"built {facts['date']}")]
    if url:
        fields.append(("url", url))
    width = max(len(k) for k, _ in fields)
    return (f"@misc{{gendyn{year}book,\n" + ",\n".join(f"  {k:<{width}} = {{{v}}}" for k, v in fields) + "\n}\n")


def citation_cff(facts, url=""):
    """CITATION.cff for this build: the repository's, with the commit and the repository's address."""
    import yaml

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    if facts["sha"] and not facts["dirty"]:
        cff["commit"] = facts["sha"]
    if url:
        cff["repository-code"] = url
    return yaml.safe_dump(cff, sort_keys=False, allow_unicode=True)


#: Where the whole-book PDF is offered from when the book was built with it (``make book PDF=1``).
PDF_NAME = "gendyn-book.pdf"


def pdf_snippet(pdf=None):
    """What the introduction and the citing page say of the whole-book PDF: a link to it when this
    build made it (``pdf``, its path in the staged folder), else how to make it. HTML only."""
    if pdf is None:
        text = ("The whole book is also a PDF, built by `make pdf` (it needs TeX; see "
                "{doc}`Reproducing the book </book/reproducing>`; `make book PDF=1` builds it with the book and links it "
                "here); this copy was built without it.")
    else:
        size = Path(pdf).stat().st_size
        text = (f"**The whole book as one PDF:** {{download}}`{PDF_NAME} </{Path(pdf).resolve().relative_to(ROOT.resolve()).as_posix()}>` "
                f"({size / 1e6:.1f} MB), made by the same build as these pages.")
    return f"```{{only}} html\n{text}\n```\n"


def source_snippet(source, facts, url=""):
    """What the introduction and the Reproducing page say of the source of this build."""
    lines = [f"**The exact source of this build** is {{download}}`{source['name']} </{source['path']}>` "
             f"({source['what']}, {source['size']}; the commit and date are also in every page's footer)."]
    if url:
        lines[0] += f" The repository: <{url}>."
    lines += ["To run it, with Python 3.11–3.13 and `make` (the environment is created on first use):", "",
              "```bash", f"tar xzf {source['name']} && cd {source['folder']}",
              "make test    # unit tests, every chapter at smoke scale with its claims, the smoke book (about 20 min on 2 cores)",
              "make book    # every chapter at the papers' scale, and this book (about an hour on 2 cores)",
              "```", ""]
    return "\n".join(lines)


def offer_pdf(pdf, out):
    """Copy the whole-book PDF ``pdf`` into the staged folder ``out`` and link it from the book
    (``make book PDF=1`` builds it first)."""
    target = Path(out) / PDF_NAME
    shutil.copyfile(pdf, target)
    (Path(out) / "pdf.md").write_text(pdf_snippet(target))
    print(f"the book offers {target}")


def chapter_numbers():
    """``{part/name: number}`` of each staged chapter, as the book numbers them (numbered parts of
    _toc.yml, counted on across parts)."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text()) if (ROOT / "_toc.yml").exists() else {}
    numbers, k = {}, 0
    prefix = "book/generated/"
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            if part.get("numbered"):
                k += 1
                if chapter["file"].startswith(prefix):
                    numbers[chapter["file"][len(prefix):]] = k
    return numbers


def stage(notebooks, runs, out, parameters):
    """Copy the accepted runs of ``notebooks`` into ``out`` as book pages, and write the claims
    ledger, the execution-statistics page and the book's configuration with its provenance.

    Raises :class:`RunRejected` listing every chapter without an accepted run of this
    identity; then ``out`` is left empty.
    """
    import yaml

    records, problems = [], []
    for notebook in notebooks:
        try:
            records.append((notebook, accepted(notebook, runs, parameters)))
        except RunRejected as error:
            problems.append(f"{Path(notebook).relative_to(NOTEBOOKS)}: {error}")
    _remove(Path(out))
    if problems:
        raise RunRejected("no book: chapters without an accepted run of this identity:\n  " + "\n  ".join(problems))
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    url = _repository(config)
    facts = _provenance(parameters)
    source = source_archive(out, facts)
    numbers = chapter_numbers()
    entries = []
    for notebook, record in records:
        executed, folder, _, _ = places(notebook, runs)
        rel = executed.relative_to(runs)
        target = Path(out) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_page(executed, record, parameters,
                                dict(source, url=url, sha=facts["sha"],
                                     notebook=Path(notebook).resolve().relative_to(NOTEBOOKS).as_posix())))
        seconds = folder.with_suffix(".seconds")
        number = numbers.get(rel.with_suffix("").as_posix())
        title = title_of(notebook) if number is None else f"{number}. {title_of(notebook)}"
        entries.append(LedgerEntry(record, title, str(rel),
                                   float(seconds.read_text()) if seconds.exists() else math.nan, parameters))
    entries.sort(key=lambda e: _book_order().get(Path(e.page).with_suffix("").as_posix(), len(entries)))
    (Path(out) / "claims-ledger.md").write_text(ledger_markdown(entries))
    (Path(out) / "claim-strength.md").write_text(claim_strength(notebooks))
    (Path(out) / "execution-statistics.md").write_text(execution_statistics(entries, facts))
    (Path(out) / "source.md").write_text(source_snippet(source, facts, url))
    (Path(out) / "pdf.md").write_text(pdf_snippet())
    (Path(out) / "citation.bib").write_text(citation(facts, url))
    (Path(out) / "CITATION.cff").write_text(citation_cff(facts, url))
    # this copy of the configuration lives in `out`: folders of local extensions (and the search
    # scorer) are given from the project root, which Jupyter Book would read relative to the copy
    local = config.get("sphinx", {}).get("local_extensions") or {}
    config["sphinx"]["local_extensions"] = {name: str((ROOT / folder).resolve()) for name, folder in local.items()}
    sphinx_config = config["sphinx"].get("config") or {}
    if sphinx_config.get("html_search_scorer"):
        sphinx_config["html_search_scorer"] = str((ROOT / sphinx_config["html_search_scorer"]).resolve())
    html = config.setdefault("html", {})
    if url:  # the theme's repository and issue buttons (no edit or source button: pages are generated)
        html["use_repository_button"] = html["use_issues_button"] = True
    html["extra_footer"] = (
        f"gendyn {facts['version']} · commit {facts['commit']} · {facts['settings']} · built {facts['date']} · "
        "text and figures CC BY 4.0, code MIT")
    (Path(out) / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    n = sum(len(r.claims) for _, r in records)
    print(f"staged {len(records)} chapters into {out}; ledger: {n} claims, all pass; source {source['name']}")


def cpu_parameters(scale="smoke", seed=0):
    """The parameters of a run on the CPU at ``scale`` and ``seed``: those of the mutation table and its
    further checks (``tools/mutants.py``) and of the calibration runs."""
    return {"SCALE": scale, "SEED": seed, "DEVICE": "cpu"}


#: The mutation table of ``make mutants`` (tools/mutants.py), measured at smoke scale.
MUTANTS = "benchmarks/mutants.json"


def claim_strength(notebooks):
    """The page "How strong are the claims?" from :data:`MUTANTS`, with each chapter's smoke identity
    now, so a chapter changed since the table was measured is marked."""
    path = ROOT / MUTANTS
    data = json.loads(path.read_text()) if path.exists() else None
    identities = {}
    if data is not None:
        # by the chapter's path without its suffix: a table measured before the sources became .md still names them
        by_notebook = {str(Path(e["notebook"]).with_suffix("")): e["chapter"] for e in data["chapters"]}
        for notebook in notebooks:
            rel = str(Path(notebook).resolve().relative_to(NOTEBOOKS).with_suffix(""))
            if rel in by_notebook:
                identities[by_notebook[rel]] = identity(notebook, cpu_parameters())
                further = data.get("further_checks", ())
                for scale, seed in {(e["scale"], e["seed"]) for e in further if e["chapter"] == by_notebook[rel]}:
                    identities[by_notebook[rel], scale, seed] = identity(notebook, cpu_parameters(scale, seed))
    return strength_page(data, identities)


def execution_statistics(entries, facts):
    """The execution-statistics page: what ran, how long, and how many claims it checked."""
    total = sum(e.seconds for e in entries if math.isfinite(e.seconds))
    lines = ["# Execution statistics", "",
             f"Built {facts['date']} from commit {facts['commit']} of gendyn {facts['version']}, "
             f"with {facts['settings']}. Each chapter was executed once by `tools/chapters.py` "
             "(papermill); the book shows exactly those runs. Run times are wall-clock seconds on the "
             "machine that built this book.", "",
             "| run time | run | claims | chapter |", "|---|---|---|---|"]
    for e in entries:
        lines.append(f"| {e.seconds:.0f} s | `{e.record.run}` | {len(e.record.claims)} "
                     f"({{ref}}`ledger <{ledger_label(e.record.chapter)}>`) | [{e.title}]({e.page}) |")
    lines += ["", f"**{len(entries)} chapters, {sum(len(e.record.claims) for e in entries)} claims, "
              f"{total / 60:.1f} min of execution in all.**", ""]
    return "\n".join(lines)


def parse_value(text):
    """A papermill-style ``-p`` value: a Python literal if it is one, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _terminate(signum, frame):
    """SIGTERM (a CI timeout, ``kill``) unwinds like Ctrl-C, so a run's partial files are removed."""
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv=None):
    import signal

    signal.signal(signal.SIGTERM, _terminate)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "stage"):
        p = sub.add_parser(name)
        p.add_argument("--runs", required=True, help="folder of the executed chapters, e.g. _build/runs/smoke")
        p.add_argument("-p", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                       help="a notebook parameter (SCALE, SEED, DEVICE, overrides)")
    sub.choices["run"].add_argument("notebook", help="the chapter's source, notebooks/<paper>/<chapter>.md")
    sub.choices["run"].add_argument("--force", action="store_true", help="run even if up to date")
    sub.choices["stage"].add_argument("--out", required=True, help="folder of the book's chapter pages")
    sub.choices["stage"].add_argument("notebooks", nargs="+")
    offer = sub.add_parser("offer-pdf", help="link the whole-book PDF from the staged book")
    offer.add_argument("pdf")
    offer.add_argument("--out", required=True, help="the staged folder (book/generated)")
    args = parser.parse_args(argv)
    if args.command == "offer-pdf":
        return offer_pdf(args.pdf, args.out)
    parameters = {name: parse_value(value) for name, value in args.p}
    try:
        if args.command == "run":
            run(args.notebook, Path(args.runs).resolve(), parameters, force=args.force)
        else:
            stage([Path(n).resolve() for n in args.notebooks], Path(args.runs).resolve(), args.out, parameters)
    except RunRejected as error:
        sys.exit(f"error: {error}")


if __name__ == "__main__":
    main()
