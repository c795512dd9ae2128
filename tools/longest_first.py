"""Print chapter runs longest first, so that ``make runs JOBS=N`` starts the long chapters early.

With chapters side by side, the whole run ends when its last chapter does; started in alphabetical
order, a long chapter that comes late (Lee & Ndirango's Fig. A4 grid, say) runs alone at the end.
This orders the executed notebooks ``<runs>/<paper>/<chapter>.ipynb`` by the wall time that
``benchmarks/results.json`` last recorded for them at that scale on that device (on the CPU where the
device has no record), unknown chapters last, ties alphabetically. Standard library only: Make calls
it before any environment exists.

    python3 tools/longest_first.py --scale paper --device cuda _build/runs/paper/a/b.ipynb ...
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "results.json"
_CHAPTER = re.compile(r"^chapter `([^`]+)`")


def recorded_seconds(rows: list[dict], scale: str, device: str) -> dict[str, float]:
    """``{paper/chapter.ipynb: seconds}`` at ``scale`` on ``device``, the CPU's where ``device`` has none."""
    times: dict[str, dict[str, float]] = {"cpu": {}, device: {}}
    for row in rows:
        match = _CHAPTER.match(str(row.get("what", "")))
        if match and row.get("scale") == scale and row.get("unit") == "s":
            on = row.get("device", "cpu")
            if on in times:
                times[on][match.group(1)] = float(row["value"])
    return {**times["cpu"], **times[device]}


def longest_first(targets: list[str], seconds: dict[str, float]) -> list[str]:
    """``targets`` (paths ending in ``<paper>/<chapter>.ipynb``) sorted by ``seconds``, longest first."""
    def key(target):
        chapter = "/".join(Path(target).parts[-2:])
        return (-seconds.get(chapter, -1.0), target)
    return sorted(targets, key=key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", required=True)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("targets", nargs="*")
    args = parser.parse_args()
    try:
        rows = json.loads(RESULTS.read_text())
    except (OSError, ValueError):
        rows = []  # no record: the order given
    print(" ".join(longest_first(args.targets, recorded_seconds(rows, args.scale, args.device))))


if __name__ == "__main__":
    main()
