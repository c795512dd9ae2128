"""Theory mutants: can each claim of agreement fail when the theory it names is wrong?

    python tools/mutants.py                         # every declared mutation of every chapter
    python tools/mutants.py lg-rmt ln-setup -j 2    # some chapters, two runs at a time
    python tools/mutants.py --json benchmarks/mutants.json --markdown benchmarks/mutants.md

Each chapter module (:data:`gendyn.book.chapters.CHAPTERS`) declares in ``MUTATIONS`` the library
functions that carry the theory its claims test, each with the relative error its claims should
see at smoke scale (:class:`gendyn.book.mutation.Mutation`). For every chapter this runs the
notebook at smoke scale once as it is (the baseline) and once per mutation, with
``$GENDYN_MUTATE`` set, each in a fresh temporary run and cache folder (nothing reaches the book
or the shared cache), and reads the claims each run recorded. A claim that names the mutated
function in its ``theory`` is *targeted*: it is **killed** if it failed under the mutation (or the
run stopped before recording it: **crashed**), and **survived** if it still passed. Claims that
failed without a mutation make the baseline fail, and its mutations are not judged.

A claim whose tolerance at smoke scale is wider than its mutation cannot see it there. Such a
mutation can be checked at the papers' scale instead, where the tolerance is narrower:

    python tools/mutants.py lg-rmt --scale paper --only "gendyn.rmt.spike_overlap x1.05" \
        --json benchmarks/mutants.json --markdown benchmarks/mutants.md --merge

runs that chapter's baseline and the named mutation at paper scale and records them beside the
smoke table (``further_checks``). A claim whose tolerance is narrower than its mutation can still
survive one draw, when its measured value happens to lie on the mutation's side of the
prediction; ``--seed`` runs a mutation at other seeds, and the table shows at how many of them
the claim failed (its power against that mutation). ``--only`` may also name another factor on a
function the chapter declares (``x1.5`` for a claim whose resolution is coarser than the declared
``x1.3``). A targeted claim counts as killed if a mutation killed it in the smoke table, or in the
further checks at half or more of the seeds run at one scale; the table says which. Further checks
are kept while their chapter's run identity is unchanged and dropped when it changes.
"""

from __future__ import annotations

import argparse
import fcntl
import importlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from gendyn.book.chapters import CHAPTERS  # noqa: E402
from gendyn.book.claims import read_record  # noqa: E402
from gendyn.book.ledger_page import killed_claims, killed_in_table, strength_markdown  # noqa: E402
from gendyn.book.mutation import ENVIRONMENT, Mutation  # noqa: E402
from gendyn.book.myst import source_path, write_ipynb  # noqa: E402
from gendyn.book.threads import JOBS, chapter_threads, thread_environment  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
import chapters as pipeline  # noqa: E402

#: The parameters of the mutation table's runs (smoke scale, seed 0, on the CPU).
SMOKE = pipeline.cpu_parameters()
parameters = pipeline.cpu_parameters  # at another scale or seed: a further check

#: How the error of a run stopped by ``--timeout`` begins: its claims are *timed out*, never killed.
TIMED_OUT = "stopped after"


@dataclass
class Outcome:
    """The claims one run recorded: ``{claim id: passed}`` (``None`` for a claim the run did not reach)."""

    chapter: str
    mutation: Mutation | None
    passed: dict = field(default_factory=dict)
    theory: dict = field(default_factory=dict)
    category: dict = field(default_factory=dict)
    resolution: dict = field(default_factory=dict)
    applies: dict = field(default_factory=dict)
    finished: bool = False
    error: str = ""
    seconds: float = 0.0


def mutations_of(chapter):
    """The :class:`Mutation` objects chapter ``chapter`` declares (its module's ``MUTATIONS``)."""
    module = importlib.import_module(f"gendyn.book.chapters.{CHAPTERS[chapter][1]}")
    return tuple(getattr(module, "MUTATIONS", ()))


#: The runs under way, stopped with their process groups when the harness is stopped (:func:`_stop_all`).
RUNNING = set()


def _stop(proc):
    """End ``proc``'s process group (papermill and its kernel) and reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate()


def _stop_all(signum, _frame):
    """On SIGTERM or SIGINT: stop every run under way and exit at once, as that signal would (``os._exit``: the
    worker threads would otherwise start the next run; the table is written only after every run, and whole)."""
    for proc in list(RUNNING):
        _stop(proc)
    os._exit(128 + signum)


def run_once(chapter, mutation, scale="smoke", seed=0, python=sys.executable, timeout=900):
    """Execute ``chapter`` at ``scale`` with ``mutation`` (or none) in fresh folders; its :class:`Outcome`."""
    notebook = source_path(ROOT / "notebooks" / CHAPTERS[chapter][0])
    with tempfile.TemporaryDirectory(prefix="gendyn-mutant-") as tmp:
        source = write_ipynb(notebook, f"{tmp}/chapter.ipynb")  # papermill runs the chapter's text as an .ipynb
        env = {k: v for k, v in os.environ.items() if k not in ("GENDYN_RUN_ID", ENVIRONMENT)}
        env.update(GENDYN_RUN_DIR=f"{tmp}/run", GENDYN_CACHE_DIR=f"{tmp}/cache", GENDYN_PROGRESS="0",
                   PYTHONHASHSEED="0", GENDYN_REQUIRE_RNG="1")
        if mutation is not None:
            env[ENVIRONMENT] = mutation.to_json()
        env.update(thread_environment(chapter_threads(env), env))  # the runs side by side share the cores
        start = time.perf_counter()
        command = [python, "-m", "papermill", str(source), f"{tmp}/out.ipynb", "-p", "SCALE", scale,
                   "-p", "SEED", str(seed), "-p", "DEVICE", "cpu", "--cwd", str(notebook.parent), "--no-progress-bar"]
        # its own process group, so that a time-out (or the harness stopped) ends papermill *and* its kernel
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        RUNNING.add(proc)
        try:
            _, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(proc)
            return Outcome(chapter, mutation, seconds=time.perf_counter() - start,
                           error=f"{TIMED_OUT} {timeout} s (--timeout)")
        finally:
            RUNNING.discard(proc)
        try:
            record = read_record(f"{tmp}/run")
        except ValueError as error:
            return Outcome(chapter, mutation, seconds=time.perf_counter() - start,
                           error=f"no record ({error}); papermill: {stderr.strip().splitlines()[-1:]}")
        outcome = outcome_of(chapter, mutation, record, seconds=time.perf_counter() - start)
        if proc.returncode and not record.finished:
            lines = [line for line in stderr.splitlines() if "Error" in line]
            outcome.error = lines[-1][:300] if lines else f"exit {proc.returncode}"
        return outcome


def mutation_from_label(label, declared):
    """The :class:`Mutation` a further check runs, from its ``label`` (as the table writes it, e.g.
    ``"gendyn.rmt.spike_overlap x1.05"`` or ``"gendyn.deep_linear.optimal_early_stopping[1] x1.5"``): one of the
    chapter's ``declared`` mutations, or a larger (or smaller) factor on a function one of them targets, for a
    claim whose resolution is coarser than the declared error."""
    for m in declared:
        if m.label == label:
            return m
    found = re.fullmatch(r"(?P<target>[\w.]+)(\[(?P<output>[^\]]+)\])? x(?P<factor>[0-9.]+(e[+-]?[0-9]+)?)", label)
    targets = {m.target for m in declared}
    if found is None or found["target"] not in targets:
        raise ValueError(f"--only {label!r}: not a declared mutation of the chapter nor a factor on a function it "
                         f"declares ({sorted(targets)}); declared: {sorted(m.label for m in declared)}")
    output = found["output"]
    output = int(output) if output is not None and output.lstrip("-").isdigit() else output
    factor = float(found["factor"])
    return Mutation(found["target"], factor - 1, output=output,
                    why=f"a further check: x{factor:g} for claims whose resolution is coarser than the declared error")


def outcome_of(chapter, mutation, record, seconds=0.0):
    """The :class:`Outcome` of a run from its claims ``record`` (:func:`gendyn.book.claims.read_record`)."""
    outcome = Outcome(chapter, mutation, seconds=seconds, finished=record.finished)
    for claim in record.claims:
        outcome.passed[claim.id] = claim.passed
        outcome.theory[claim.id] = claim.theory
        outcome.category[claim.id] = claim.category
        outcome.resolution[claim.id] = claim.resolution
        outcome.applies[claim.id] = claim.applies
    for claim_id in record.declared or ():
        outcome.passed.setdefault(claim_id, None)
    return outcome


def accepted_baseline(chapter, runs, scale, seed=0):
    """The :class:`Outcome` of the book pipeline's accepted run of ``chapter`` at ``scale`` and ``seed`` in ``runs``
    (e.g. ``_build/runs/paper``) if it is current (same identity: :func:`chapters.accepted`), else ``None``:
    the same run as a baseline of the harness, which need not be repeated."""
    notebook = source_path(ROOT / "notebooks" / CHAPTERS[chapter][0])
    try:
        record = pipeline.accepted(notebook, runs, parameters(scale, seed))
    except pipeline.RunRejected:
        return None
    return outcome_of(chapter, None, record)


def verdicts(baseline, outcome):
    """``{claim id: verdict}`` for the claims ``outcome``'s mutation targets: killed, crashed (the run stopped
    before recording the claim: the wrong theory broke it), timed out (stopped by ``--timeout``: not judged) or
    survived."""
    target = outcome.mutation.target
    out = {}
    for claim_id, theory in baseline.theory.items():
        if target not in theory or not baseline.applies.get(claim_id, True):
            continue  # a claim that does not apply in the baseline run cannot be killed
        if baseline.category.get(claim_id, "agreement") != "agreement":
            continue  # a finding or reproduction names its theory but states no agreement to kill
        passed = outcome.passed.get(claim_id)
        if passed is None and outcome.error.startswith(TIMED_OUT):
            out[claim_id] = "timed out"  # the run was stopped, not the claim: never a kill
        else:
            out[claim_id] = "survived" if passed else ("killed" if passed is False else "crashed")
    return out


def report(results, scale="smoke", seed=0, further=False):
    """The mutation table as JSON-able data: per chapter, per mutation, per targeted claim.

    At smoke scale and seed 0 (the table itself) its ``chapters`` and their totals; at another ``scale`` or
    ``seed``, or ``further`` (a run of some mutations only), its ``further_checks``, which :func:`merge` adds to a
    smoke table."""
    chapters = []
    for chapter, (baseline, outcomes) in results.items():
        notebook = source_path(ROOT / "notebooks" / CHAPTERS[chapter][0])
        entry = dict(chapter=chapter, notebook=CHAPTERS[chapter][0], baseline_seconds=round(baseline.seconds, 1),
                     identity=pipeline.identity(notebook, parameters(scale, seed)),
                     baseline_ok=baseline.finished and all(baseline.passed.values()), baseline_error=baseline.error,
                     claims=len(baseline.passed),
                     agreement=sorted(i for i, k in baseline.category.items()
                                      if k == "agreement" and baseline.applies.get(i, True)),
                     untargeted=[], mutations=[])
        targeted = set()
        for outcome in outcomes:
            v = verdicts(baseline, outcome)
            targeted |= set(v)
            # a survivor whose resolution is coarser than the mutation could not have seen it at this scale
            blind = sorted(i for i, verdict in v.items() if verdict == "survived"
                           and not baseline.resolution.get(i, 0) < abs(outcome.mutation.error))
            entry["mutations"].append(dict(mutation=outcome.mutation.label, why=outcome.mutation.why,
                                           seconds=round(outcome.seconds, 1), error=outcome.error, verdicts=v,
                                           below_resolution=blind))
        # an agreement claim no declared mutation targets has not been shown to be able to fail
        entry["untargeted"] = sorted(set(entry["agreement"]) - targeted)
        chapters.append(entry)
    if further or (scale, seed) != ("smoke", 0):  # further checks judge the table's targets: no lists needed
        return dict(chapters=[], further_checks=[
            {**{k: v for k, v in e.items() if k not in ("agreement", "untargeted")}, "scale": scale, "seed": seed}
            for e in chapters])
    return counted(dict(chapters=chapters))


def counted(table):
    """``table`` with its totals counted again: the targeted claims of the chapters whose smoke baseline
    passed, those killed (by a mutation in the smoke table, or by one of its further checks at another
    scale or seed: :func:`gendyn.book.ledger_page.killed_claims`), and of those the ones killed only by
    further checks."""
    killed = killed_claims(table)
    total = later = 0
    for e in table["chapters"]:
        if not e["baseline_ok"]:
            continue
        targeted = set().union(set(), *(m["verdicts"] for m in e["mutations"]))
        total += len(targeted)
        later += len(killed[e["chapter"]] - killed_in_table(e))
    out = {k: v for k, v in table.items() if k != "further_checks"}
    return dict(out, **({"further_checks": table["further_checks"]} if table.get("further_checks") else {}),
                targeted_claims=total, killed_claims=sum(len(k) for k in killed.values()),
                killed_by_further_checks=later)


def merge(table, part):
    """``table`` with the chapters of ``part`` (a later, partial measurement) replaced and the totals
    counted again over all chapters. Each chapter keeps the commit and date it was measured at (a
    chapter of an older table without its own takes the table's), so no chapter is dated to a commit
    that did not measure it; the table's own commit and date are those of its latest measurement."""
    def dated(entry, source):
        return dict(entry, commit=entry.get("commit", source.get("commit")), date=entry.get("date", source.get("date")))

    again = table.get("remeasured") or {}  # a table written before the chapters carried their own dates

    def dated_before(entry):
        return dated(entry, again if entry["chapter"] in again.get("chapters", ()) else table)

    new = {e["chapter"]: dated(e, part) for e in part["chapters"]}
    chapters = [new.pop(e["chapter"], None) or dated_before(e) for e in table["chapters"]] + list(new.values())
    # each run's further check keeps its own baseline; a later check of the same chapter, scale, seed and
    # mutation replaces the former one
    def key(entry, m):
        return entry["chapter"], entry["scale"], entry["seed"], m["mutation"]

    later = [dated(e, part) for e in part.get("further_checks", ())]
    newer = {key(e, m) for e in later for m in e["mutations"]}
    further = [dict(e, mutations=kept) for e in table.get("further_checks", ())
               if (kept := [m for m in e["mutations"] if key(e, m) not in newer])] + later
    merged = {k: v for k, v in table.items() if k != "remeasured"}  # the per-chapter dates replace it
    return counted(dict(merged, chapters=chapters, further_checks=further, commit=part["commit"], date=part["date"]))


def current_checks(table, identity_of):
    """``table`` without the further checks that are no longer current: ``identity_of(chapter, scale, seed)``
    (the run identity now) differs from the one they were measured at. They are dropped, not counted."""
    keep = [e for e in table.get("further_checks", ()) if identity_of(e["chapter"], e["scale"], e["seed"]) == e["identity"]]
    return counted(dict(table, further_checks=keep))


def identity_now(chapter, scale, seed):
    """The identity of a run of ``chapter`` at ``scale`` and ``seed`` with today's sources (:func:`chapters.identity`)."""
    return pipeline.identity(source_path(ROOT / "notebooks" / CHAPTERS[chapter][0]), parameters(scale, seed))


def chapter_arguments(parser, jobs):
    """The arguments of a tool that runs chapters at smoke scale (this one, ``tools/calibration.py``):
    chapter ids, runs at a time (default ``jobs``), where to write the table, a run's time limit."""
    parser.add_argument("chapters", nargs="*", help=f"chapter ids (default: all): {', '.join(CHAPTERS)}")
    parser.add_argument("-j", "--jobs", type=int, default=jobs, help="runs at a time")
    parser.add_argument("--json", type=Path, help="write the table as JSON here")
    parser.add_argument("--markdown", type=Path, help="write the table as Markdown here")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds one run may take")


def chosen_chapters(parser, args):
    """The chapters ``args`` names (all by default), after checking them and ``--jobs``; sets each run's
    share of the cores (``$GENDYN_JOBS``, :mod:`gendyn.book.threads`) unless it is set."""
    chosen = args.chapters or list(CHAPTERS)
    unknown = [c for c in chosen if c not in CHAPTERS]
    if unknown:
        parser.error(f"unknown chapters {unknown}; known: {list(CHAPTERS)}")
    if args.jobs < 1:
        parser.error("--jobs must be >= 1")
    os.environ.setdefault(JOBS, str(args.jobs))
    return chosen


def measured_now():
    """``{"commit": short hash of HEAD, "date": today}``: when a table of these tools was measured."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    return dict(commit=commit, date=time.strftime("%Y-%m-%d"))


def write_table(args, data, page):
    """Print the Markdown ``page`` and write it and ``data`` (as JSON) where ``--markdown``/``--json`` say."""
    print(page)
    for path, text in ((args.json, json.dumps(data, indent=1) + "\n"), (args.markdown, page)):
        if path:  # whole or not at all: a book build may read the table meanwhile
            temporary = path.with_name(f".{path.name}.tmp")
            temporary.write_text(text)
            os.replace(temporary, path)


def main(argv=None):
    for signum in (signal.SIGTERM, signal.SIGINT):  # stopped, the harness leaves no kernel running
        signal.signal(signum, _stop_all)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chapter_arguments(parser, jobs=max(1, (os.cpu_count() or 2)))
    parser.add_argument("--merge", action="store_true",
                        help="replace only the chosen chapters in the existing --json table (the rest keep "
                             "their measurement and identity)")
    parser.add_argument("--fail-on-survivor", action="store_true",
                        help="exit 1 if a targeted claim survives every mutation or a baseline fails")
    parser.add_argument("--scale", default="smoke",
                        help="the scale of the runs: smoke (the table) or a larger one (paper: checks that complement "
                             "the smoke table, for mutations its claims are too coarse to see there; needs --merge)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the seed of the runs: 0 (the table) or another (checks that complement the smoke "
                             "table: a claim's power against a mutation it survived at seed 0; needs --merge)")
    parser.add_argument("--baselines", type=Path, metavar="RUNS",
                        help="take each chapter's baseline from the book's accepted run in RUNS (e.g. "
                             "_build/runs/paper) where it is current, instead of running it again")
    parser.add_argument("--only", action="append", metavar="MUTATION",
                        help="run only this mutation, as a further check beside the table (needs --merge): a declared "
                             "one by its label, e.g. 'gendyn.rmt.spike_overlap x1.05', or another factor on a declared "
                             "function, e.g. 'gendyn.deep_linear.optimal_early_stopping[1] x1.5'; repeatable")
    args = parser.parse_args(argv)
    chosen = chosen_chapters(parser, args)
    # a run of some mutations (--only), or at another scale or seed, is a further check beside the smoke table
    further = bool(args.only) or (args.scale, args.seed) != ("smoke", 0)
    if further and not (args.merge and args.json and args.json.exists()):
        parser.error("--only, a --scale other than smoke or a --seed other than 0 complements the smoke table: give "
                     "--merge and an existing --json")
    try:
        only = {c: [mutation_from_label(label, mutations_of(c)) for label in args.only] for c in chosen} if args.only else {}
    except ValueError as error:
        parser.error(str(error))

    def chosen_mutations(chapter):
        return only[chapter] if args.only else list(mutations_of(chapter))

    reused = {c: accepted_baseline(c, args.baselines, args.scale, args.seed) for c in chosen} if args.baselines else {}
    reused = {c: o for c, o in reused.items() if o is not None}
    for c in reused:
        print(f"  {c}: baseline from the accepted run in {args.baselines}", flush=True)
    jobs = [(c, None) for c in chosen if c not in reused] + [(c, m) for c in chosen for m in chosen_mutations(c)]
    print(f"{len(jobs)} runs ({len(chosen)} baselines), {args.jobs} at a time", flush=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = {job: pool.submit(run_once, *job, scale=args.scale, seed=args.seed, timeout=args.timeout)
                   for job in jobs}
        outcomes = {(c, None): o for c, o in reused.items()}
        for job, future in futures.items():
            outcomes[job] = future.result()
            o = outcomes[job]
            print(f"  {job[0]:24s} {job[1].label if job[1] else 'baseline':60s} {o.seconds:5.0f} s "
                  f"{sum(p is False for p in o.passed.values())} failed {o.error}", flush=True)
    results = {c: (outcomes[c, None], [outcomes[c, m] for m in chosen_mutations(c)]) for c in chosen}
    data = report(results, args.scale, args.seed, further=further)
    data.update(measured_now())
    for entry in data["chapters"] + data.get("further_checks", []):
        entry.update(commit=data["commit"], date=data["date"])
    # runs of the harness side by side write one at a time (read, merge and write under one lock)
    with open(args.json.with_name(f".{args.json.name}.lock") if args.json else os.devnull, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        former = json.loads(args.json.read_text()) if args.json and args.json.exists() else None
        if args.merge and former is not None:
            data = merge(former, data)
        elif former is not None:  # a new table keeps the former one's further checks (those still current)
            data = dict(data, further_checks=former.get("further_checks", []))
        stale = [(e["chapter"], e["scale"], e["seed"]) for e in data.get("further_checks", ())
                 if identity_now(e["chapter"], e["scale"], e["seed"]) != e["identity"]]
        if stale:
            print(f"dropped further checks measured before their chapter changed: {stale}", flush=True)
        data = current_checks(data, identity_now)
        write_table(args, data, strength_markdown(data))
    if args.fail_on_survivor:
        bad = [e["chapter"] for e in data["chapters"] if not e["baseline_ok"]]
        if bad or data["killed_claims"] < data["targeted_claims"]:
            sys.exit(f"mutants: {data['targeted_claims'] - data['killed_claims']} targeted claims survive; "
                     f"failed baselines: {bad}")


if __name__ == "__main__":
    main()
