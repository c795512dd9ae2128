"""Measure the book's wall times and write them where the README quotes them.

    .venv/bin/python benchmarks/run.py                  # every chapter at every scale
    .venv/bin/python benchmarks/run.py --scales smoke   # only the smoke scale
    .venv/bin/python benchmarks/run.py --clean-clone    # also the README's two commands
                                                        # (make test, make book) on a fresh clone

Results go to ``benchmarks/results.json`` (one row per measurement, merged with earlier
rows) and ``benchmarks/results.md``; the table between the ``benchmarks`` markers of
README.md is rewritten from them. Benchmarks are measurements, not tests: nothing here
passes or fails on time.
"""

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results.json"
TABLE = ROOT / "benchmarks" / "results.md"
START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"


def timed(cmd, cwd, env=None):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def chapters():
    return sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def time_chapter(notebook, scale):
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GENDYN_RUN_DIR=tmp, GENDYN_PROGRESS="0")
        cmd = [str(ROOT / ".venv" / "bin" / "papermill"), "--cwd", str(notebook.parent), "-p", "SCALE", scale,
               str(notebook), str(Path(tmp) / "out.ipynb")]
        return timed(cmd, ROOT, env)


def time_clean_clone():
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        # the clone looks for ../shared like the checkout does
        if (ROOT.parent / "shared").exists():
            os.symlink(ROOT.parent / "shared", Path(tmp) / "shared")
        env = dict(os.environ, GENDYN_PROGRESS="0")
        rows["`make test` (fresh clone, creates .venv)"] = timed(["make", "test"], clone, env)
        shutil.rmtree(clone / ".venv")
        rows["`make book` (fresh clone, creates .venv)"] = timed(["make", "book"], clone, env)
    return rows


def write_tables(rows):
    lines = ["| what | scale | wall time | measured on |", "|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (r["what"], r["scale"])):
        minutes = f"{r['seconds'] / 60:.1f} min" if r["seconds"] >= 90 else f"{r['seconds']:.0f} s"
        lines.append(f"| {r['what']} | {r['scale']} | {minutes} | {r['date']}, {r['machine']} |")
    table = "\n".join(lines) + "\n"
    TABLE.write_text("# Benchmarks\n\nWritten by `benchmarks/run.py`.\n\n" + table)
    readme = ROOT / "README.md"
    text = readme.read_text()
    if START in text and END in text:
        head, rest = text.split(START, 1)
        readme.write_text(head + START + "\n" + table + END + rest.split(END, 1)[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", nargs="+", default=["smoke", "paper"])
    parser.add_argument("--clean-clone", action="store_true", help="also time the README's two commands")
    args = parser.parse_args()
    machine = f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"
    rows = json.loads(RESULTS.read_text()) if RESULTS.exists() else []

    def record(what, scale, seconds):
        rows[:] = [r for r in rows if (r["what"], r["scale"]) != (what, scale)]
        rows.append(dict(what=what, scale=scale, seconds=round(seconds, 1), date=str(date.today()), machine=machine))
        print(f"{what} [{scale}]: {seconds:.1f} s", file=sys.stderr)

    for scale in args.scales:
        for notebook in chapters():
            record(f"chapter `{notebook.relative_to(ROOT / 'notebooks')}`", scale, time_chapter(notebook, scale))
    if args.clean_clone:
        for what, seconds in time_clean_clone().items():
            record(what, "smoke" if "test" in what else "paper", seconds)
    RESULTS.write_text(json.dumps(rows, indent=1) + "\n")
    write_tables(rows)


if __name__ == "__main__":
    main()
