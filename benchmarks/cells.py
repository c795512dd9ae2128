"""Where each chapter spends its time: the slowest cells of its last run, from papermill's own clock.

    .venv/bin/python benchmarks/cells.py                        # paper scale, the 3 slowest cells of each chapter
    .venv/bin/python benchmarks/cells.py --scale smoke --top 5
    .venv/bin/python benchmarks/cells.py --markdown benchmarks/cells.md

papermill records the wall time of every cell it executes (``metadata.papermill.duration``) in the
executed notebook ``_build/runs/<scale>/<paper>/<chapter>.ipynb``; this script reads them, so nothing is
run. Per chapter it prints the run's total, then its slowest cells with their share of that total and
the cell's first line (after its imports): the place to profile first (issue 34: a chapter far above its floor,
``benchmarks/floors.py``, spends its time somewhere; this says where). The times are those of the run
as it happened: a run that shared the machine with other jobs is slower throughout, so compare shares
within a chapter, and totals only between runs made alike.
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cell_times(executed):
    """``[(seconds, index, first line)]`` of the code cells papermill timed in ``executed``, slowest first."""
    cells = json.loads(Path(executed).read_text())["cells"]
    out = []
    for i, cell in enumerate(cells):
        seconds = (cell.get("metadata", {}).get("papermill") or {}).get("duration")
        if cell.get("cell_type") == "code" and seconds is not None:
            # the first line that says what the cell does (not an import)
            lines = [line for line in "".join(cell["source"]).splitlines()
                     if line.strip() and not line.startswith(("import ", "from "))]
            out.append((float(seconds), i, lines[0] if lines else ""))
    return sorted(out, reverse=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="paper", help="the runs read: _build/runs/<scale> (default paper)")
    parser.add_argument("--top", type=int, default=3, help="slowest cells shown per chapter (default 3)")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown here")
    args = parser.parse_args(argv)
    if args.top < 1:
        parser.error(f"--top must be a whole number >= 1; got {args.top}")
    runs = ROOT / "_build" / "runs" / args.scale
    executed = sorted(p for p in runs.glob("*/*.ipynb") if not p.name.startswith("."))
    if not executed:
        parser.error(f"no executed chapters in {runs}: run them first (make runs SCALE={args.scale})")
    rows = []
    for path in executed:
        times = cell_times(path)
        total = sum(t for t, _, _ in times)
        rows.append((total, path.relative_to(runs).with_suffix("").as_posix(), times[: args.top]))
    rows.sort(reverse=True)
    lines = [f"| chapter ({args.scale}) | run (cells) | slowest cells: seconds, share, cell, first line |",
             "|---|---|---|"]
    for total, chapter, top in rows:
        print(f"{chapter}: {total:.0f} s")
        cells = []
        for seconds, index, first in top:
            share = seconds / total if total else 0.0
            print(f"  {seconds:8.1f} s {share:5.0%}  cell {index:3d}  {first[:90]}")
            cells.append(f"{seconds:.0f} s, {share:.0%}, cell {index}: `{first[:70].replace('|', '/')}`")
        lines.append(f"| `{chapter}` | {total:.0f} s | {'<br>'.join(cells)} |")
    if args.markdown:
        args.markdown.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
