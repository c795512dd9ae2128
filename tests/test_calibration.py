"""tools/calibration.py: which claims fail at other seeds with the right theory (the report, not the runs)."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location("calibration", ROOT / "tools" / "calibration.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_report_lists_each_claim_that_failed_at_some_seed_and_unfinished_runs():
    tool = _tool()
    Outcome = tool.mutants.Outcome

    def run(passed, finished=True, error=""):
        return Outcome("c", None, passed=passed, category={k: "agreement" for k in passed}, finished=finished,
                       error=error, seconds=1.0)

    outcomes = {("c", 0): run({"a": True, "b": True}), ("c", 1): run({"a": False, "b": True}),
                ("c", 2): run({"a": False, "b": None}, finished=False, error="boom")}
    data = tool.report(outcomes, [0, 1, 2])
    (entry,) = data["chapters"]
    # a claim is charged only with the seeds where a finished run recorded it failing
    assert entry["failing"] == {"a": dict(seeds=[1], category="agreement")}
    assert entry["unfinished"] == {"2": "boom"} and data["failing_claims"] == 1 and data["claims"] == 2
    page = tool.markdown(dict(data, commit="abc", date="d"))
    assert "**1 of 2 claims failed at one seed or more**" in page
    assert page.startswith("The chapters `c` at smoke scale, seeds 0, 1, 2,")  # a subset says which
    assert "| `c` | `a` | agreement | 1 |" in page and "| `c` | (run did not finish) | – | 2: boom |" in page


def test_merge_keeps_each_chapters_own_seeds_and_commit():
    tool = _tool()

    def entry(chapter, failing=None):
        return dict(chapter=chapter, claims=2, failing=failing or {}, unfinished={}, seconds={})

    table = dict(seeds=[1, 2, 3], commit="aaa", date="d1", claims=4, failing_claims=0,
                 chapters=[entry("x"), entry("y")])
    part = dict(seeds=[0, 1], commit="bbb", date="d2", claims=2, failing_claims=1,
                chapters=[dict(entry("y", {"a": dict(seeds=[1], category="finding")}), seeds=[0, 1], commit="bbb",
                               date="d2")])
    merged = tool.merge(table, part)
    assert [(e["chapter"], e["seeds"], e["commit"]) for e in merged["chapters"]] == [
        ("x", [1, 2, 3], "aaa"), ("y", [0, 1], "bbb")]
    assert (merged["claims"], merged["failing_claims"]) == (4, 1)
    page = tool.markdown(merged)
    assert page.startswith("At smoke scale, by `tools/calibration.py`, chapter by chapter: `x` at seeds 1, 2, 3 "
                           "(commit `aaa`, d1); `y` at seeds 0, 1 (commit `bbb`, d2).")
