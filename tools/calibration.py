"""Calibration: does each claim pass at other seeds when nothing is wrong?

    python tools/calibration.py --seeds 1 2 3                   # every chapter at smoke, three more seeds
    python tools/calibration.py lg-alignment lg-nonlinear --seeds 0 1 2 3 -j 2    # chapters before --seeds
    python tools/calibration.py --seeds 1 2 3 --json benchmarks/calibration.json --markdown benchmarks/calibration.md

The mutation harness (``tools/mutants.py``) asks whether a claim fails when its theory is wrong;
this asks the converse. A claim's tolerance states a level (most claims: a family-wise error rate
of 1e-3 per chapter, from sampling error and finite size), so with the right theory it should pass
at almost every seed. Each chapter runs at smoke scale once per seed, exactly as the harness runs a
baseline (fresh run and cache folders, ``$GENDYN_REQUIRE_RNG``), and every claim that fails at any
seed is listed: at a level of 1e-3 even one failure in a handful of seeds says the tolerance is
narrower than its stated justification (or the claim is underpowered, for a finding), and the
claim needs a look, not a new seed.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import mutants  # noqa: E402  (its run of one chapter, and its import of the library)


def report(outcomes, seeds):
    """``outcomes`` (``{(chapter, seed): Outcome}``) as JSON-able data: per chapter, the claims
    that failed or were not reached at some seed, and the runs that did not finish."""
    chapters, suspects = [], 0
    for chapter in dict.fromkeys(c for c, _ in outcomes):
        runs = {seed: outcomes[chapter, seed] for seed in seeds}
        ids = sorted(set().union(*(o.passed for o in runs.values())))
        failing = {}
        for claim_id in ids:
            bad = [seed for seed, o in runs.items() if o.finished and o.passed.get(claim_id) is False]
            if bad:
                failing[claim_id] = dict(seeds=bad, category=next(
                    (o.category[claim_id] for o in runs.values() if claim_id in o.category), "?"))
        unfinished = {str(seed): o.error or "did not finish" for seed, o in runs.items() if not o.finished}
        suspects += len(failing)
        chapters.append(dict(chapter=chapter, claims=len(ids), failing=failing, unfinished=unfinished,
                             seconds={str(seed): round(o.seconds, 1) for seed, o in runs.items()}))
    return dict(seeds=list(seeds), chapters=chapters, claims=sum(e["claims"] for e in chapters),
                failing_claims=suspects)


def merge(table, part):
    """``table`` with the chapters of ``part`` (a later measurement) replaced and the totals counted again;
    each chapter keeps the seeds, commit and date it was measured with."""
    def own(entry, source):
        return dict(entry, seeds=entry.get("seeds", source["seeds"]), commit=entry.get("commit", source.get("commit")),
                    date=entry.get("date", source.get("date")))

    new = {e["chapter"]: own(e, part) for e in part["chapters"]}
    chapters = [new.pop(e["chapter"], None) or own(e, table) for e in table["chapters"]] + list(new.values())
    return dict(table, chapters=chapters, claims=sum(e["claims"] for e in chapters),
                failing_claims=sum(len(e["failing"]) for e in chapters), commit=part.get("commit"), date=part.get("date"))


def _measured(data):
    """Which chapters were run, at which seeds, commit and date: one sentence (per measurement when merged)."""
    when = {}
    for e in data["chapters"]:
        key = (tuple(e.get("seeds", data["seeds"])), e.get("commit", data.get("commit", "?")), e.get("date", data.get("date", "?")))
        when.setdefault(key, []).append(e["chapter"])
    if len(when) == 1:
        (seeds, commit, date), names = next(iter(when.items()))
        which = ("Every chapter" if set(names) >= set(mutants.CHAPTERS)
                 else "The chapters " + ", ".join(f"`{n}`" for n in names))
        return (f"{which} at smoke scale, seeds {', '.join(map(str, seeds))}, measured at commit `{commit}` on {date} "
                "by `tools/calibration.py`.")
    parts = [", ".join(f"`{n}`" for n in names) + f" at seed{'s' if len(seeds) > 1 else ''} "
             f"{', '.join(map(str, seeds))} (commit `{commit}`, {date})"
             for (seeds, commit, date), names in when.items()]
    return "At smoke scale, by `tools/calibration.py`, chapter by chapter: " + "; ".join(parts) + "."


def markdown(data):
    """The calibration table as Markdown: one row per claim that failed at some seed."""
    lines = [_measured(data), "",
             f"**{data['failing_claims']} of {data['claims']} claims failed at one seed or more** "
             f"(with the right theory, a claim at level 1e-3 should pass at every one).", "",
             "| chapter | claim | category | failed at seeds |", "|---|---|---|---|"]
    for e in data["chapters"]:
        for claim_id, f in e["failing"].items():
            lines.append(f"| `{e['chapter']}` | `{claim_id}` | {f['category']} | {', '.join(map(str, f['seeds']))} |")
        for seed, error in e["unfinished"].items():
            lines.append(f"| `{e['chapter']}` | (run did not finish) | – | {seed}: {error[:120]} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    for signum in (signal.SIGTERM, signal.SIGINT):  # stopped, it leaves no kernel running
        signal.signal(signum, mutants._stop_all)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mutants.chapter_arguments(parser, jobs=1)
    parser.add_argument("--seeds", type=int, nargs="+", required=True, help="the SEEDs to run each chapter at")
    parser.add_argument("--merge", action="store_true",
                        help="replace only the chosen chapters in the existing --json table (the rest keep their seeds, "
                             "commit and date)")
    args = parser.parse_args(argv)
    chosen = mutants.chosen_chapters(parser, args)
    if any(seed < 0 for seed in args.seeds) or len(set(args.seeds)) != len(args.seeds):
        parser.error(f"--seeds must be distinct integers >= 0; got {args.seeds}")
    jobs = [(c, seed) for c in chosen for seed in args.seeds]
    print(f"{len(jobs)} runs ({len(chosen)} chapters x {len(args.seeds)} seeds), {args.jobs} at a time", flush=True)
    outcomes = {}
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = {job: pool.submit(mutants.run_once, job[0], None, seed=job[1], timeout=args.timeout) for job in jobs}
        for job, future in futures.items():
            o = outcomes[job] = future.result()
            failed = sorted(i for i, p in o.passed.items() if p is False)
            print(f"  {job[0]:24s} seed {job[1]:<4d} {o.seconds:5.0f} s  failed: {', '.join(failed) or '-'} {o.error}",
                  flush=True)
    data = report(outcomes, args.seeds)
    data.update(mutants.measured_now())
    for entry in data["chapters"]:
        entry.update(seeds=list(args.seeds), commit=data["commit"], date=data["date"])
    if args.merge and args.json and args.json.exists():
        data = merge(json.loads(args.json.read_text()), data)
    mutants.write_table(args, data, markdown(data))
    return 1 if data["failing_claims"] else 0


if __name__ == "__main__":
    sys.exit(main())
