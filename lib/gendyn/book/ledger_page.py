"""The claims ledger page of the book, from the records the accepted chapter runs wrote.

Kept apart from :mod:`gendyn.book.claims`, which every chapter imports, so that a change of
the page's layout does not change the chapters' run identities.
"""

from dataclasses import dataclass

from .claims import CATEGORIES, KIND_NOTE, Record, _cell, _table, category_counts

__all__ = ["LedgerEntry", "ledger_label", "ledger_markdown"]


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
        "Every quantitative agreement between theory and experiment that a chapter states is "
        "checked when the chapter runs. A chapter run reaches the book only if it ran to the end "
        "and every claim passed, so this page lists only passing claims; it is generated from the "
        "records the chapters wrote.",
        "",
        f"**{len(claims)} claims in {len(entries)} chapters: {len(claims) - n_fail - n_na} pass, {n_fail} fail, "
        f"{n_na} do not apply in this run**" + (f" (run with {settings})." if settings else "."),
        "",
        "By category: " + ", ".join(f"{n} {k}" for k, n in counts.items()) + ". "
        f"{len(close)} passing claims use 90% or more of their tolerance (column *used*): they passed narrowly.",
        "",
        "| claims | " + " | ".join(CATEGORIES) + " | pass | fail | n/a | run time | chapter |",
        "|---|" + "---|" * len(CATEGORIES) + "---|---|---|---|---|",
    ]
    for e in entries:
        n = len(e.record.claims)
        bad = sum(not c.passed for c in e.record.claims)
        na = sum(not c.applies for c in e.record.claims)
        per = category_counts(e.record.claims)
        lines.append(f"| {n} | " + " | ".join(str(per.get(k, 0)) for k in CATEGORIES)
                     + f" | {n - bad - na} | {bad} | {na} | {e.seconds:.0f} s | [{_cell(e.title)}]({e.page}) "
                     f"({{ref}}`claims <{ledger_label(e.record.chapter)}>`) |")
    lines += ["", KIND_NOTE, ""]
    for e in entries:
        lines += [f"({ledger_label(e.record.chapter)})=", f"## {e.title}", "",
                  f"Chapter [{_cell(e.title)}]({e.page}), id `{e.record.chapter}`, run `{e.record.run}`.", "",
                  _table(e.record.claims), ""]
    return "\n".join(lines) + "\n"
