"""Collect the book's wall times and write them where the README quotes them.

    make test && make book                      # runs every chapter; each run leaves its time
    .venv/bin/python benchmarks/run.py          # collect those times into the tables
    .venv/bin/python benchmarks/run.py --clean-clone
        # clone the repository afresh, time the README's two commands there (each creates
        # its own .venv), and collect every chapter's time from that clone
    .venv/bin/python benchmarks/run.py --clean-clone --book-only   # only `make book` there
    .venv/bin/python benchmarks/run.py --clean-clone --test-only   # only `make test` there (and its smoke times)
    .venv/bin/python benchmarks/run.py --tables-only   # rewrite the tables, measure nothing
    .venv/bin/python benchmarks/run.py --runs-from DIR --device cuda --machine "one NVIDIA H200, 16 cores"
        # collect the times of runs made on another machine (DIR/_build/runs, e.g. copied
        # back from a GPU machine after `make runs DEVICE=cuda`) into the table's GPU columns

Every chapter run (``make runs`` or the notebook tests) writes ``<chapter>.seconds`` beside
its executed notebook in ``_build/runs/<scale>/``; this script gathers them, so nothing is
run twice. Results go to ``benchmarks/results.json`` (rows merged with earlier ones) and
``benchmarks/results.md``, and the table between the ``benchmarks`` markers of README.md is
rewritten. Beside each chapter's paper time the chapter table shows its arithmetic floor
(``benchmarks/floors.py``: the chapter's counted operations at the float32/float64 matmul rates of
the yardstick ``benchmarks/trainers.py`` records) and the measured time over that floor.
A shared machine's speed changes from day to day (this project's 2-core machine has measured its
float64 yardstick at 161 and at 91 GFLOP/s), so the times collected here carry the yardstick measured
with them (:func:`machine_rates`, before and after ``make book`` on a clean clone, or when the local
runs are collected), and a chapter's floor and ratio use the rates of its own row.
Benchmarks are measurements, not tests: nothing here passes or fails on time.
Rows from other benchmark scripts (e.g. ``benchmarks/committee_sgd.py``) use the same
file and the same :func:`record`.
"""

import argparse
import json
import os
import platform
import shutil
import subprocess
import tempfile
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))  # floors.py, beside this script (imported when the tables are written)
RESULTS = ROOT / "benchmarks" / "results.json"
TABLE = ROOT / "benchmarks" / "results.md"
START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"


def machine():
    return f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"


def load():
    return json.loads(RESULTS.read_text()) if RESULTS.exists() else []


def _device(row):
    return row.get("device", "cpu")  # rows measured before devices were recorded ran on the CPU


def record(rows, what, scale, value, unit="s", device="cpu", where=None, rates=None):
    """Replace the row (what, scale, device) by a new measurement; ``where`` names the machine
    (default: this one), ``rates`` the yardstick measured with it (:func:`machine_rates`)."""
    rows[:] = [r for r in rows if (r["what"], r["scale"], _device(r)) != (what, scale, device)]
    row = dict(what=what, scale=scale, value=round(float(value), 1), unit=unit,
               date=str(date.today()), machine=where or machine(), device=device)
    if rates:
        row["rates"] = {k: round(v / 1e9, 1) for k, v in rates.items()}  # GFLOP/s
    rows.append(row)
    print(f"{what} [{scale}, {device}]: {value:.1f} {unit}")


def machine_rates(*snapshots):
    """This machine's yardstick now, ``{"float32": FLOP/s, "float64": FLOP/s}``: one 2048 x 2048 ``torch.mm``
    on all of torch's threads (``benchmarks/trainers.py``'s :func:`matmul_rate`). With ``snapshots``
    (earlier results of this function) the mean of them and a measurement now: a long run is bracketed."""
    import torch
    from floors import PRECISIONS  # the precisions a floor counts, each with its own yardstick
    from trainers import matmul_rate
    now = {p: matmul_rate(dtype=getattr(torch, p)) for p in PRECISIONS}
    print("yardstick now: " + ", ".join(f"{p} {v / 1e9:.1f} GFLOP/s" for p, v in now.items()))
    runs = [*snapshots, now]
    return {p: sum(r[p] for r in runs) / len(runs) for p in now}


def collect_chapter_times(rows, root, device="cpu", where=None, note="", rates=None):
    """Every accepted run's time under ``root/_build/runs`` (``<chapter>.seconds``), with the yardstick
    ``rates`` measured with them (:func:`machine_rates`; None: not known)."""
    for path in sorted((root / "_build" / "runs").glob("*/**/*.seconds")):
        scale = path.relative_to(root / "_build" / "runs").parts[0]
        chapter = path.relative_to(root / "_build" / "runs" / scale).with_suffix(".ipynb")
        what = f"chapter `{chapter}`"
        # a new time replaces older, annotated ones (e.g. "... (single run under load)")
        rows[:] = [r for r in rows if not (r["scale"] == scale and _device(r) == device
                                           and r["what"].startswith(what))]
        record(rows, what + (f" {note}" if note else ""), scale, float(path.read_text()), device=device, where=where,
               rates=rates)


def timed(cmd, cwd, log):
    """Wall time of ``cmd``; its output goes to ``log`` so a failure can be read afterwards."""
    log.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with open(log, "w") as out:
        subprocess.run(cmd, cwd=cwd, check=True, stdout=out, stderr=subprocess.STDOUT,
                       env=dict(os.environ, GENDYN_PROGRESS="0"))
    return time.perf_counter() - start


def clean_clone(rows, book_only=False, test_only=False):
    # The clone is kept (its path is printed) so the paper-scale book it built can be looked at.
    tmp = Path(tempfile.mkdtemp(prefix="gendyn-clean-clone-"))
    clone, logs = tmp / "clone", ROOT / "_build" / "benchmarks"
    print(f"fresh clone in {clone}; logs in {logs}")
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    if not book_only:
        before = machine_rates()
        record(rows, "`make test` on a fresh clone (creates .venv; = .ci/run)", "smoke",
               timed(["make", "test"], clone, logs / "clean-clone-make-test.log"))
        if test_only:  # its chapters' smoke times, with the yardstick measured around it
            collect_chapter_times(rows, clone, rates=machine_rates(before))
            return
        save(rows)  # a later failure keeps what was measured
        shutil.rmtree(clone / ".venv")
    before = machine_rates()
    seconds = timed(["make", "book"], clone, logs / "clean-clone-make-book.log")
    rates = machine_rates(before)
    record(rows, "`make book` on a fresh clone (creates .venv)", "paper", seconds, rates=rates)
    collect_chapter_times(rows, clone, rates=rates)


def fmt(row):
    if row.get("unit", "s") != "s":
        value = row["value"]
        return f"{value:,.0f} {row['unit']}" if value >= 1000 else f"{value:g} {row['unit']}"
    seconds = row["value"]
    return f"{seconds / 60:.1f} min" if seconds >= 90 else f"{seconds:.0f} s"


def _when(rows):
    return "; ".join(sorted({f"{r['date']}, {r['machine']}" for r in rows}))


def _device_name(device):
    return {"cpu": "CPU", "cuda": "CUDA"}.get(device, device)


def _column(scale, device):
    return scale if device == "cpu" else f"{scale}, {_device_name(device)}"


def chapter_floors(rows):
    """``({"`<notebook>`": floor in seconds at a row's rates}, "N cores")``: every chapter's arithmetic at paper
    scale (``benchmarks/floors.py``), as a function of the matmul rates (``{"float32": FLOP/s, ...}``; None:
    the yardstick recorded in ``rows`` by ``benchmarks/trainers.py``); ``({}, None)`` when no yardstick was
    recorded or the floors cannot be computed."""
    try:
        import floors
    except Exception as error:  # the tables are still written, without the floors
        print(f"no floors: benchmarks/floors.py failed to load ({error})")
        return {}, None
    recorded = floors.yardsticks(rows)
    if set(recorded) != set(floors.PRECISIONS):
        return {}, None

    def at(floor):
        return lambda rates=None: floor.seconds(rates or recorded)
    # keyed like the chapter rows: the executed notebook's name (the source is notebooks/<paper>/<chapter>.md)
    seconds = {f"`{Path(notebook).with_suffix('.ipynb').as_posix()}`": at(floors.floor(chapter, "paper"))
               for chapter, (notebook, _) in floors.CHAPTERS.items()}
    threads = floors.yardstick_threads(rows) or "all threads"
    return seconds, threads.replace("threads", "cores")


def _row_rates(row):
    """The yardstick measured with a row, in FLOP/s (None: not recorded with it)."""
    rates = row.get("rates")
    return {k: v * 1e9 for k, v in rates.items()} if rates else None


def _fmt_floor(seconds):
    return fmt(dict(value=seconds)) if seconds >= 10 else f"{seconds:.2g} s"


def _fmt_ratio(ratio):
    return f"{ratio:,.0f}" if ratio >= 10 else f"{ratio:.1f}"


def render(rows, floors=None, floor_cores=None):
    """Markdown: the two commands, then one row per chapter (smoke and paper side by side, and with
    ``floors`` (``{"`<notebook>`": seconds at given rates}``, :func:`chapter_floors`) each chapter's arithmetic
    floor, at the yardstick measured with its paper time where there is one, and the measured paper time over
    it), then every other measurement; each table says when and where it was measured."""
    commands = [r for r in rows if r["what"].startswith("`make")]
    chapters = [r for r in rows if r["what"].startswith("chapter `")]
    others = [r for r in rows if r not in commands and r not in chapters]
    floors = floors or {}
    out = []
    if commands:
        out += ["| command | scale | wall time |", "|---|---|---|"]
        out += [f"| {r['what']} | {r['scale']} | {fmt(r)} |" for r in sorted(commands, key=lambda r: r["what"])]
        out += ["", f"Measured {_when(commands)}.", ""]
    if chapters:
        cells, paper = {}, {}
        for r in chapters:
            name, _, note = r["what"][len("chapter "):].partition(" ")
            cells.setdefault(name, {})[_column(r["scale"], _device(r))] = fmt(r) + (f" {note}" if note else "")
            if r["scale"] == "paper" and _device(r) == "cpu" and r.get("unit", "s") == "s":
                paper[name] = r
        floor_column, ratio_column = f"floor ({floor_cores or 'all cores'})", "paper / floor"
        for name in cells:
            if name in floors:
                rates = _row_rates(paper[name]) if name in paper else None
                floor = floors[name](rates)
                cells[name][floor_column] = _fmt_floor(floor) + ("" if rates or name not in paper else " *")
                if name in paper:
                    cells[name][ratio_column] = _fmt_ratio(paper[name]["value"] / floor)
        devices = sorted({_device(r) for r in chapters}, key=lambda d: (d != "cpu", d))
        columns = [_column(scale, d) for d in devices for scale in ("smoke", "paper")]
        if any(name in floors for name in cells):  # beside the CPU's paper column
            at = columns.index("paper") + 1 if "paper" in columns else len(columns)
            columns[at:at] = [floor_column, ratio_column]
        out += ["| chapter | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
        out += [f"| {name} | " + " | ".join(c.get(col, "–") for col in columns) + " |"
                for name, c in sorted(cells.items())]
        for d in devices:
            label = "" if len(devices) == 1 else f" ({_device_name(d)} columns)"
            out += ["", f"Measured{label} {_when([r for r in chapters if _device(r) == d])}."]
        if any(name in floors for name in cells):
            out += ["", "Floor: the chapter's counted arithmetic at paper scale (`benchmarks/floors.py`) at the "
                    "float32 and float64 `torch.mm` rates measured with that paper time (marked * where none was: "
                    "at the yardstick below); paper / floor: the measured CPU time over it."]
        out += [""]
    if others:
        out += ["| what | measured |", "|---|---|"]
        out += [f"| {r['what']} | {fmt(r)} |" for r in sorted(others, key=lambda r: r["what"])]
        out += ["", f"Measured {_when(others)}.", ""]
    return "\n".join(out)


def write_tables(rows):
    table = render(rows, *chapter_floors(rows))
    TABLE.write_text("# Benchmarks\n\nWritten by `benchmarks/run.py`; see its docstring.\n\n" + table)
    readme = ROOT / "README.md"
    text = readme.read_text()
    if START in text and END in text:
        head, rest = text.split(START, 1)
        readme.write_text(head + START + "\n" + table + END + rest.split(END, 1)[1])


def save(rows):
    RESULTS.write_text(json.dumps(rows, indent=1) + "\n")
    write_tables(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean-clone", action="store_true",
                        help="time the README's two commands on a fresh clone and collect its chapter times")
    parser.add_argument("--book-only", action="store_true", help="with --clean-clone: time `make book` only")
    parser.add_argument("--test-only", action="store_true",
                        help="with --clean-clone: time `make test` only, and collect its smoke chapter times")
    parser.add_argument("--tables-only", action="store_true",
                        help="only rewrite the tables from benchmarks/results.json")
    parser.add_argument("--runs-from", type=Path, metavar="DIR",
                        help="collect the chapter times under DIR/_build/runs (runs made on another machine)")
    parser.add_argument("--device", default="cpu", help="the device those runs used (with --runs-from)")
    parser.add_argument("--machine", help="the machine those runs used, in words (with --runs-from)")
    parser.add_argument("--note", default="", help="a note for each collected time, e.g. '(4 at a time)'")
    args = parser.parse_args()
    rows = load()
    if args.tables_only:
        pass
    elif args.clean_clone:
        if args.book_only and args.test_only:
            parser.error("--book-only and --test-only exclude each other (neither: both commands)")
        clean_clone(rows, book_only=args.book_only, test_only=args.test_only)
    elif args.runs_from:
        if args.device != "cpu" and not args.machine:
            parser.error("--machine is required with --device other than cpu (name the GPU)")
        collect_chapter_times(rows, args.runs_from, args.device, args.machine, args.note)
    else:  # runs made here just before: the yardstick now is theirs
        collect_chapter_times(rows, ROOT, rates=machine_rates())
    save(rows)


if __name__ == "__main__":
    main()
