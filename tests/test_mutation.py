"""Theory mutations (gendyn.book.mutation) and the mutation harness (tools/mutants.py)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gendyn.book import mutation

ROOT = Path(__file__).resolve().parents[1]


def _mutants_tool():
    spec = importlib.util.spec_from_file_location("mutants", ROOT / "tools" / "mutants.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutants"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_mutation_scales_floats_only_and_selects_outputs():
    m = mutation.Mutation("gendyn.rmt.mp_edges", 0.5)
    assert mutation._perturb((1.0, np.array([2.0]), 3, True), m) == (1.5, np.array([3.0]), 3, True)
    one = mutation.Mutation("gendyn.rmt.mp_edges", 0.5, output=1)
    lo, hi = mutation._perturb((np.array(1.0), np.array(2.0)), one)
    assert lo == 1.0 and hi == 3.0
    keyed = mutation.Mutation("gendyn.rmt.mp_edges", -0.5, output="b")
    assert mutation._perturb({"a": 1.0, "b": 4.0}, keyed) == {"a": 1.0, "b": 2.0}


@pytest.mark.parametrize("bad", [dict(target="rmt.mp_edges", error=0.1), dict(target="gendyn.rmt.mp_edges", error=0),
                                 dict(target="gendyn.rmt.mp_edges", error=-1.0),
                                 dict(target="gendyn.rmt.mp_edges", error=True)])
def test_a_bad_mutation_is_refused(bad):
    with pytest.raises(ValueError, match="target|error"):
        mutation.Mutation(**bad)


def test_apply_reaches_the_module_and_names_imported_from_it():
    """In a fresh interpreter: the module's attribute, a `from ... import` name, and the module's own
    callers all see the mutant."""
    code = """
from gendyn import rmt
from gendyn.rmt import spike_singular_value as imported
from gendyn.book import mutation
before = float(rmt.spike_singular_value(3.0, 0.5)), float(rmt.spike_teacher_value(3.0, 0.5))
mutation.apply(mutation.Mutation("gendyn.rmt.spike_singular_value", 0.1))
from gendyn.book.chapters import lampinen_ganguli_rmt_teacher_in_data as ch
after = float(rmt.spike_singular_value(3.0, 0.5)), float(imported(3.0, 0.5))
assert abs(after[0] / before[0] - 1.1) < 1e-12 and after[0] == after[1], (before, after)
assert float(rmt.spike_teacher_value(3.0, 0.5)) == before[1]   # other functions untouched
"""
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_mutation_never_runs_in_the_books_pipeline(monkeypatch):
    monkeypatch.setenv(mutation.ENVIRONMENT, mutation.Mutation("gendyn.rmt.mp_edges", 0.1).to_json())
    monkeypatch.setenv("GENDYN_RUN_ID", "abc")
    with pytest.raises(RuntimeError, match="pipeline"):
        mutation.apply_from_environment()


def test_verdicts_read_the_claims_that_name_the_mutated_theory():
    tool = _mutants_tool()
    m = mutation.Mutation("gendyn.rmt.mp_edges", 0.1)
    base = tool.Outcome("c", None, passed={"a": True, "b": True, "c": True},
                        theory={"a": ("gendyn.rmt.mp_edges",), "b": ("gendyn.rmt.mp_edges",), "c": ()})
    mutant = tool.Outcome("c", m, passed={"a": False, "b": True, "c": False})
    assert tool.verdicts(base, mutant) == {"a": "killed", "b": "survived"}
    mutant = tool.Outcome("c", m, passed={"a": None, "b": True})
    assert tool.verdicts(base, mutant)["a"] == "crashed"


@pytest.mark.notebook
def test_a_wrong_mp_edge_fails_the_edge_claims(tmp_path):
    """The fast subset of `make mutants`: the lg-rmt chapter at smoke scale with the MP edge 3 % off."""
    tool = _mutants_tool()
    wrong, = (m for m in tool.mutations_of("lg-rmt") if m.target == "gendyn.rmt.mp_edges")
    base, mutant = tool.run_once("lg-rmt", None), tool.run_once("lg-rmt", wrong)
    assert base.finished and all(base.passed.values()), base.error
    verdicts = tool.verdicts(base, mutant)
    assert verdicts and set(verdicts.values()) == {"killed"}, verdicts


def test_the_strength_page_marks_chapters_changed_since_the_table_was_measured():
    from gendyn.book.ledger_page import strength_page

    entry = dict(chapter="lg-rmt", notebook="lampinen-ganguli/rmt-teacher-in-data.ipynb", identity="aaa",
                 baseline_ok=True, baseline_error="", untargeted=["edge-A1"],
                 mutations=[dict(mutation="gendyn.rmt.mp_edges[1] x1.03", verdicts={"a": "killed", "b": "survived"},
                                 below_resolution=["b"])])
    data = dict(chapters=[entry], targeted_claims=2, killed_claims=1, commit="abc1234", date="2026-11-28")
    fresh = strength_page(data, {"lg-rmt": "aaa"})
    assert "**1 of 2 targeted claims" in fresh and "0 of 1 chapters changed" in fresh
    assert "`b` (coarser than the mutation)" in fresh and "`edge-A1`" in fresh
    stale = strength_page(data, {"lg-rmt": "bbb"})
    assert "1 of 1 chapters changed" in stale and "`lg-rmt` (*changed since*)" in stale
    assert "has not been measured" in strength_page(None, {})


def test_merge_replaces_the_remeasured_chapters_and_counts_again():
    tool = _mutants_tool()

    def entry(chapter, verdicts, ok=True):
        return dict(chapter=chapter, baseline_ok=ok, baseline_error="", untargeted=[],
                    mutations=[dict(mutation="gendyn.m.f x1.1", verdicts=verdicts)])

    table = dict(commit="aaa", date="d1", targeted_claims=3, killed_claims=2,
                 chapters=[entry("x", {"a": "killed", "b": "survived"}), entry("y", {"c": "killed"})])
    part = dict(commit="bbb", date="d2", chapters=[entry("x", {"a": "killed", "b": "killed"}), entry("z", {}, ok=False)])
    merged = tool.merge(table, part)
    assert [e["chapter"] for e in merged["chapters"]] == ["x", "y", "z"]
    assert (merged["targeted_claims"], merged["killed_claims"]) == (3, 3)  # z's failed baseline counts nothing
    assert merged["commit"] == "bbb" and "remeasured" not in merged
    assert [(e["commit"], e["date"]) for e in merged["chapters"]] == [("bbb", "d2"), ("aaa", "d1"), ("bbb", "d2")]
    page = tool.strength_markdown(merged)
    assert "at commit `aaa` on d1: `y`; at commit `bbb` on d2: `x`, `z`" in page
    # merged again later: y keeps its own measurement, never the newer table's date
    again = tool.merge(merged, dict(commit="ccc", date="d3", chapters=[entry("z", {})]))
    assert [(e["commit"], e["date"]) for e in again["chapters"]] == [("bbb", "d2"), ("aaa", "d1"), ("ccc", "d3")]
    assert "Measured at commit `aaa` on d1, smoke" in tool.strength_markdown(dict(table, chapters=table["chapters"]))
    # a table of the former form, with one "remeasured" record: its chapters keep the dates it gave them
    former = dict(table, remeasured=dict(chapters=["y"], commit="abc", date="d0"))
    dates = {e["chapter"]: (e["commit"], e["date"]) for e in tool.merge(former, part)["chapters"]}
    assert dates == {"x": ("bbb", "d2"), "y": ("abc", "d0"), "z": ("bbb", "d2")}


def test_further_checks_at_a_larger_scale_or_other_seeds_kill_claims_the_smoke_table_could_not(monkeypatch):
    """``--scale paper`` and ``--seed`` results sit beside the smoke table; a claim they kill at half or more of
    the seeds run at a scale counts, and the table says so."""
    tool = _mutants_tool()
    monkeypatch.setattr(tool.pipeline, "identity", lambda notebook, p: f"id-{p['SCALE']}-{p['SEED']}")
    m = mutation.Mutation("gendyn.rmt.spike_overlap", 0.05)
    base = tool.Outcome("lg-rmt", None, passed={"a": True, "b": True, "c": True, "d": True}, finished=True,
                        theory={i: ("gendyn.rmt.spike_overlap",) for i in "abcd"})

    def run(scale="smoke", seed=0, ok=True, **passed):
        outcome = tool.Outcome("lg-rmt", m, passed=passed)
        baseline = base if ok else tool.Outcome("lg-rmt", None, passed={"a": False}, finished=True, theory=base.theory)
        return tool.report({"lg-rmt": (baseline, [outcome])}, scale, seed)

    smoke = dict(run(a=False, b=True, c=True, d=True), commit="aaa", date="d1")
    assert (smoke["targeted_claims"], smoke["killed_claims"], smoke["killed_by_further_checks"]) == (4, 1, 0)
    paper = dict(run("paper", a=False, b=False, c=True, d=True), commit="bbb", date="d2")
    assert paper["chapters"] == [] and "untargeted" not in paper["further_checks"][0]
    merged = tool.merge(smoke, paper)
    assert (merged["killed_claims"], merged["killed_by_further_checks"]) == (2, 1)
    assert merged["chapters"][0]["commit"] == "aaa"  # the smoke measurement keeps its own date
    # at smoke scale, with the table's seed 0: c fails at seeds 3 and 4 (2 of 3), d at seed 4 only (1 of 3)
    for seed, passed in ((3, dict(a=False, b=True, c=False, d=True)), (4, dict(a=False, b=True, c=False, d=False))):
        merged = tool.merge(merged, dict(run("smoke", seed, **passed), commit="ccc", date="d3"))
    assert (merged["killed_claims"], merged["killed_by_further_checks"]) == (3, 2)  # c counts, d does not
    ids = {"lg-rmt": "id-smoke-0", ("lg-rmt", "paper", 0): "id-paper-0", ("lg-rmt", "smoke", 3): "id-smoke-3",
           ("lg-rmt", "smoke", 4): "id-smoke-4"}
    page = tool.strength_markdown(merged, ids)
    assert "**3 of 4 targeted claims of agreement are killed by at least one mutation of the theory they name** " \
           "(1 at smoke scale and seed 0, 2 more by the further checks" in page
    assert "| `lg-rmt` | paper | `gendyn.rmt.spike_overlap x1.05` | 0 | `a`, `b` | `c`, `d` | `bbb` d2 |" in page
    assert ("| `lg-rmt` | smoke | `gendyn.rmt.spike_overlap x1.05` | 0, 3, 4 | `a` (3 of 3), `c` (2 of 3) | "
            "`b` (0 of 3), `d` (1 of 3) | `ccc` d3 |") in page
    stale = tool.strength_markdown(merged, {**ids, ("lg-rmt", "paper", 0): "other"})
    assert "| `lg-rmt` (*changed since*) | paper |" in stale and "| `lg-rmt` | smoke |" in stale
    # the same check measured again replaces the former one, with its own baseline
    again = tool.merge(merged, dict(run("paper", ok=False, a=False, b=False, c=False, d=False), commit="ddd", date="d4"))
    assert [e["commit"] for e in again["further_checks"]] == ["ccc", "ccc", "ddd"]
    assert again["killed_by_further_checks"] == 1  # the paper kills no longer count: that baseline failed
    assert "baseline failed at seed 0" in tool.strength_markdown(again)
    # checks measured before their chapter changed are dropped, not counted
    current = tool.current_checks(merged, lambda chapter, scale, seed: f"id-{scale}-{seed}" if scale == "smoke" else "x")
    assert [e["scale"] for e in current["further_checks"]] == ["smoke", "smoke"] and current["killed_claims"] == 2


def test_a_run_stopped_by_the_time_limit_kills_nothing_and_only_runs_further_checks():
    tool = _mutants_tool()
    m = mutation.Mutation("gendyn.rmt.mp_edges", 0.1)
    base = tool.Outcome("c", None, passed={"a": True}, theory={"a": ("gendyn.rmt.mp_edges",)})
    stopped = tool.Outcome("c", m, error=f"{tool.TIMED_OUT} 5 s (--timeout)")
    assert tool.verdicts(base, stopped) == {"a": "timed out"}
    assert tool.verdicts(base, tool.Outcome("c", m, error="exit 1")) == {"a": "crashed"}
    with pytest.raises(SystemExit):  # a further check complements an existing table
        tool.main(["lg-rmt", "--only", "gendyn.rmt.mp_cdf x0.9"])
    declared = (m, mutation.Mutation("gendyn.deep_linear.optimal_early_stopping", 0.3, output=1))
    assert tool.mutation_from_label("gendyn.rmt.mp_edges x1.1", declared) is m
    larger = tool.mutation_from_label("gendyn.deep_linear.optimal_early_stopping[1] x1.5", declared)
    assert (larger.output, larger.label) == (1, "gendyn.deep_linear.optimal_early_stopping[1] x1.5")
    with pytest.raises(ValueError, match="not a declared mutation"):
        tool.mutation_from_label("gendyn.rmt.spike_overlap x2", declared)
