"""The claims ledger page of the book, from the records the accepted chapter runs wrote.

Kept apart from :mod:`gendyn.book.claims`, which every chapter imports, so that a change of
the page's layout does not change the chapters' run identities.
"""

from dataclasses import dataclass

from .claims import CATEGORIES, KIND_NOTE, Record, _cell, _table, category_counts

__all__ = ["LedgerEntry", "ledger_label", "ledger_markdown", "strength_markdown", "strength_page", "killed_claims",
           "killed_in_table", "further_tallies"]


def ledger_label(chapter):
    """The MyST target of a chapter's section in the ledger page."""
    return f"ledger-{chapter}"


@dataclass(frozen=True)
class LedgerEntry:
    """One chapter on the ledger page: its record, title, page (relative link) and run."""

    record: Record
    title: str
    page: str
    seconds: float
    parameters: dict


def ledger_markdown(entries, title="Claims ledger"):
    """The ledger page: a summary table of every chapter, then one section per chapter."""
    claims = [c for e in entries for c in e.record.claims]
    n_fail = sum(not c.passed for c in claims)
    n_na = sum(not c.applies for c in claims)
    counts = category_counts(claims)
    close = [c for c in claims if c.applies and c.passed and c.used >= 0.9]
    # one build has one scale, seed and device: said once, not in every row
    runs = {tuple(sorted(e.parameters.items())) for e in entries}
    settings = ", ".join(f"{k} = {v}" for k, v in sorted(runs.pop())) if len(runs) == 1 else ""
    lines = [
        "(claims-ledger)=",
        f"# {title}",
        "",
        "Every quantitative statement a chapter makes is checked when the chapter runs: an *agreement* "
        "of theory and experiment, a *reproduction* of a paper's published numbers, or a *finding* (a "
        "measured effect, or a disagreement with a paper, with its significance). Each chapter declares "
        "its claims before it runs; a claim that does not apply in a run is listed as *n/a* with the "
        "reason. A chapter run reaches the book only if it ran to the end, recorded its declared claims "
        "and every one passed, so this page lists only passing claims; it is generated from the "
        "records the chapters wrote. How much error in the theory each claim of agreement would catch "
        "is measured on the page {ref}`claim-strength`.",
        "",
        f"**{len(claims)} claims in {len(entries)} chapters: {len(claims) - n_fail - n_na} pass, {n_fail} fail, "
        f"{n_na} do not apply in this run**" + (f" (run with {settings})." if settings else "."),
        "",
        "By category: " + ", ".join(f"{n} {k}" for k, n in counts.items()) + ". "
        f"{len(close)} passing claims use 90% or more of their tolerance (column *used*): they passed narrowly.",
        "",
        # the chapter first: on a phone the table scrolls sideways, and the row's name must be in view
        "| chapter | claims | " + " | ".join(CATEGORIES) + " | pass | fail | n/a | run time |",
        "|---|---|" + "---|" * len(CATEGORIES) + "---|---|---|---|",
    ]
    for e in entries:
        n = len(e.record.claims)
        bad = sum(not c.passed for c in e.record.claims)
        na = sum(not c.applies for c in e.record.claims)
        per = category_counts(e.record.claims)
        lines.append(f"| [{_cell(e.title)}]({e.page}) ({{ref}}`claims <{ledger_label(e.record.chapter)}>`) | {n} | "
                     + " | ".join(str(per.get(k, 0)) for k in CATEGORIES)
                     + f" | {n - bad - na} | {bad} | {na} | {e.seconds:.0f} s |")
    lines += ["", KIND_NOTE, ""]
    for e in entries:
        lines += [f"({ledger_label(e.record.chapter)})=", f"## {e.title}", "",
                  f"Chapter [{_cell(e.title)}]({e.page}), id `{e.record.chapter}`, run `{e.record.run}`.", "",
                  _table(e.record.claims), ""]
    return "\n".join(lines) + "\n"


#: The verdicts that count as a kill: the claim failed, or the run stopped before recording it.
KILLS = ("killed", "crashed")


def killed_in_table(entry):
    """The claims a mutation of the smoke table's ``entry`` (one chapter, seed 0) killed (none if its baseline failed)."""
    if not entry["baseline_ok"]:
        return set()
    return {c for m in entry["mutations"] for c, v in m["verdicts"].items() if v in KILLS}


def further_tallies(data):
    """The further checks of a mutation table by chapter, scale and mutation: ``{(chapter, scale, mutation):
    {"seeds": [...], "claims": {claim: (kills, runs)}, "coarser": {...}, "failed": [(seed, error)],
    "identities": {seed: identity}, "when": {(commit, date)}}}``.

    A run counts for a claim when its baseline passed and it judged the claim (a run stopped by the harness's
    time limit did not). At smoke scale the table's own run at seed 0 counts as one of the seeds.
    """
    table = {e["chapter"]: e for e in data["chapters"]}
    groups = {}

    def add(g, seed, entry, m):
        g["seeds"].append(seed)
        if not entry["baseline_ok"]:
            g["failed"].append((seed, entry.get("baseline_error") or "a claim failed"))
            return
        g["coarser"] |= set(m.get("below_resolution", ()))
        for claim, verdict in m["verdicts"].items():
            if verdict in KILLS or verdict == "survived":
                kills, runs = g["claims"].get(claim, (0, 0))
                g["claims"][claim] = (kills + (verdict in KILLS), runs + 1)

    for e in data.get("further_checks", ()):
        for m in e["mutations"]:
            g = groups.setdefault((e["chapter"], e["scale"], m["mutation"]),
                                  dict(seeds=[], claims={}, coarser=set(), failed=[], identities={}, when=set()))
            g["when"].add((e.get("commit", "?"), e.get("date", "?")))
            g["identities"][e["seed"]] = e.get("identity")
            add(g, e["seed"], e, m)
    for (chapter, scale, mutation), g in groups.items():
        base = table.get(chapter)
        if scale == "smoke" and base is not None and 0 not in g["seeds"]:
            for m in base["mutations"]:
                if m["mutation"] == mutation:
                    add(g, 0, base, m)
        g["seeds"].sort()
    return groups


def killed_claims(data):
    """``{chapter: claims killed}`` over the chapters of the smoke table whose baseline passed: killed in the
    table, or by a further check (:func:`further_tallies`) at half or more of the seeds run at its scale (at a
    single seed, there), so that running seeds until one kills does not count."""
    killed = {e["chapter"]: killed_in_table(e) for e in data["chapters"] if e["baseline_ok"]}
    targeted = {e["chapter"]: {c for m in e["mutations"] for c in m["verdicts"]} for e in data["chapters"]}
    for (chapter, _, _), g in further_tallies(data).items():
        if chapter in killed:
            killed[chapter] |= {c for c, (k, n) in g["claims"].items() if n and 2 * k >= n and c in targeted[chapter]}
    return killed


def _measured_when(data):
    """When and at which commit the table's chapters were measured: one sentence, with a chapter list
    per measurement where ``tools/mutants.py --merge`` measured some chapters again later."""
    when = {}
    for e in data["chapters"]:
        key = (e.get("commit", data.get("commit", "?")), e.get("date", data.get("date", "?")))
        when.setdefault(key, []).append(e["chapter"])
    if data.get("remeasured"):  # a table written before the chapters carried their own dates
        again = set(data["remeasured"]["chapters"])
        first = [c for c in sum(when.values(), []) if c not in again]
        when = {(data.get("commit", "?"), data.get("date", "?")): first,
                (data["remeasured"]["commit"], data["remeasured"]["date"]): sorted(again)}
    how = "smoke scale, seed 0, by `make mutants` (`tools/mutants.py`)"
    if len(when) <= 1:
        commit, date = next(iter(when), (data.get("commit", "?"), data.get("date", "?")))
        return f"Measured at commit `{commit}` on {date}, {how}."
    parts = [f"at commit `{commit}` on {date}: " + ", ".join(f"`{c}`" for c in chapters)
             for (commit, date), chapters in sorted(when.items(), key=lambda kv: kv[0][1])]
    return f"Measured at {how}, chapter by chapter: " + "; ".join(parts) + "."


def strength_markdown(data, identities=None, title=None):
    """The mutation table of ``tools/mutants.py`` (its JSON ``data``) as Markdown.

    With ``identities`` (``{chapter: identity of its smoke run now}``, and ``{(chapter, scale, seed): identity}``
    for the further checks), a chapter whose notebook or library changed since the table was
    measured is marked as such, and counted, so an old table is never read as today's.
    """
    stale = sorted(e["chapter"] for e in data["chapters"]
                   if identities is not None and identities.get(e["chapter"]) != e.get("identity"))
    later = data.get("killed_by_further_checks", 0)
    lines = ([f"# {title}", ""] if title else []) + [
        _measured_when(data), "",
        f"**{data['killed_claims']} of {data['targeted_claims']} targeted claims of agreement are killed by at "
        "least one mutation of the theory they name" + (
            f"** ({data['killed_claims'] - later} at smoke scale and seed 0, {later} more by the further checks "
            "of the last table)." if later else ".**")]
    if identities is not None:
        lines += ["", f"{len(stale)} of {len(data['chapters'])} chapters changed since this table was measured"
                  + (": " + ", ".join(f"`{c}`" for c in stale) + " (marked *changed since*; run `make mutants` "
                     "to measure them again)." if stale else ".")]
    lines += ["", "| chapter | mutation (result × factor) | killed | survived | crashed |", "|---|---|---|---|---|"]
    for entry in data["chapters"]:
        name = f"`{entry['chapter']}`" + (" (*changed since*)" if entry["chapter"] in stale else "")
        if not entry["baseline_ok"]:
            lines.append(f"| {name} | baseline failed: {_cell(entry['baseline_error'] or 'a claim failed')} | – | – | – |")
            continue
        for m in entry["mutations"]:
            count = {k: sorted(i for i, v in m["verdicts"].items() if v == k) for k in ("killed", "survived", "crashed")}
            survivors = ", ".join(f"`{i}`" + (" (coarser than the mutation)" if i in m.get("below_resolution", ())
                                               else "") for i in count["survived"]) or "0"
            lines.append(f"| {name} | `{m['mutation']}` | {len(count['killed'])} | {survivors} | {len(count['crashed'])} |")
        if entry.get("untargeted"):
            lines.append(f"| {name} | agreement claims no mutation targets | – | "
                         + ", ".join(f"`{i}`" for i in entry["untargeted"]) + " | – |")
    further = further_tallies(data)
    if further:
        lines += ["", "Further checks, for claims that survived a mutation in the table above: the chapter's baseline "
                  "and the mutation at the papers' scale (where a claim's tolerance is narrower), at other seeds, or "
                  "with another factor for a claim whose resolution is coarser than the declared error. "
                  "A claim counts as killed there if it failed at half or more of the seeds run at that scale "
                  "(*k of n*: its power against the mutation).", "",
                  "| chapter | scale | mutation (result × factor) | seeds | killed | survived | measured |",
                  "|---|---|---|---|---|---|---|"]
        for (chapter, scale, mutation), g in further.items():
            changed = identities is not None and any(
                identities.get((chapter, scale, seed), identity) != identity for seed, identity in g["identities"].items())
            name = f"`{chapter}`" + (" (*changed since*)" if changed else "")
            several = len(g["seeds"]) > 1

            def tally(claim, kills, runs):
                return f"`{claim}`" + (f" ({kills} of {runs})" if several else "") + (
                    " (coarser than the mutation)" if claim in g["coarser"] and 2 * kills < runs else "")

            killed = [tally(c, k, n) for c, (k, n) in sorted(g["claims"].items()) if n and 2 * k >= n]
            survived = [tally(c, k, n) for c, (k, n) in sorted(g["claims"].items()) if not (n and 2 * k >= n)]
            survived += [f"baseline failed at seed {seed}: {_cell(error)}" for seed, error in g["failed"]]
            when = ", ".join(f"`{commit}` {date}" for commit, date in sorted(g["when"]))
            lines.append(f"| {name} | {scale} | `{mutation}` | {', '.join(str(x) for x in g['seeds'])} | "
                         f"{', '.join(killed) or '0'} | {', '.join(survived) or '0'} | {when} |")
    return "\n".join(lines) + "\n"


def strength_page(data, identities):
    """The book's page "How strong are the claims?": the method, then :func:`strength_markdown`
    (``data`` ``None``: the table was never measured, and the page says so)."""
    lines = [
        "(claim-strength)=", "# How strong are the claims?", "",
        "A claim of agreement between theory and experiment is worth what it could have caught. Each chapter "
        "declares the library functions that carry the theory its claims test, and for each a relative error "
        "that those claims should detect at smoke scale (5 % for a spike position, 20 % for an asymptotic "
        "error, ...). The mutation harness re-runs the chapter once per declared function with that function's "
        "result multiplied by one plus the error — the experiment is untouched — and records, claim by claim, "
        "whether the claim failed (the wrong theory is *killed*) or still passed (it *survived*). A survivor "
        "marked *coarser than the mutation* has a tolerance, set by sampling error and finite size, wider "
        "than the error it was shown; the ledger's *resolution* column gives that width for every claim. Such a "
        "mutation can be checked at the papers' scale, where the same claim's tolerance is narrower. A claim can "
        "also survive one draw whose measured value happens to lie on the mutation's side of the prediction; its "
        "mutation can then be run at other seeds, and the share of seeds at which it fails is its power against "
        "that error. Those checks are the last table; a claim they kill at half or more of the seeds run at a "
        "scale counts as killed.", "",
        "Claims of the other categories are not mutated: a *reproduction* compares with the papers' published "
        "numbers and a *finding* states a measured effect with its significance.", ""]
    if data is None:
        lines += ["The mutation table has not been measured for this version: run `make mutants`.", ""]
        return "\n".join(lines)
    return "\n".join(lines) + "\n" + strength_markdown(data, identities)
