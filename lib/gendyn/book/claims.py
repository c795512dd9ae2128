"""Checked theory-vs-experiment claims, and the book's claims ledger.

A chapter states each quantitative agreement as data::

    ledger = Ledger("lg-rmt", scale=cfg.scale)
    ledger.check(
        "outlier-position",
        "Top singular value of the data vs eq. (11), sbar >= 1.5 A^(1/4)",
        measured=..., predicted=..., tolerance=..., kind="absolute",
        reason="4 standard errors over repeats + O(1/N1) finite-size bias",
    )
    ledger.finish()   # records, shows the table, and raises if any claim failed

Each claim is written to ``<run dir>/<chapter>.claims.json`` as soon as it is checked (see
:func:`run_dir`), with whether the chapter reached ``finish()`` and the identity of the run
(``$GENDYN_RUN_ID``, set by the book's pipeline, ``tools/chapters.py``). The pipeline
accepts a chapter run only if its record is finished, from this run, and every claim
passed; only such records make the ledger page of the book.

Kinds of tolerance
------------------
``absolute``  ``|measured - predicted| <= tolerance``
``relative``  ``|measured - predicted| <= tolerance * |predicted|``
``log``       ``|log10(measured) - log10(predicted)| <= tolerance`` (both positive)
``upper``     ``measured <= predicted + tolerance`` (a bound from above)
``lower``     ``measured >= predicted - tolerance`` (a bound from below)

``predicted`` is what the theory (or the paper, or the null hypothesis) says and ``tolerance``
the allowance around it; a bound is never moved into ``predicted``.

What a claim says (its category)
--------------------------------
- ``agreement``: theory vs experiment. The theory functions it tests are named in ``theory``,
  and a perturbation of any of them by the error its ``resolution`` states must make it fail
  (``tools/mutants.py`` shows it).
- ``reproduction``: our numbers vs the paper's published numbers or figures.
- ``finding``: a measured effect with its significance, or a disagreement with a paper stated
  as such (a failed reproduction is a finding, not a pass).

Identities and internal consistency checks are unit tests, not claims.

A chapter's set of claims is fixed before it runs: ``ledger.declare(ids)`` (done by
:func:`gendyn.book.chapter.start` from the chapter module's ``claim_ids(cfg)``) lists them,
a claim that does not apply in a run is recorded with :meth:`Ledger.not_applicable`, and
:meth:`Ledger.finish` refuses a run whose ids differ from the declared set.
"""

import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from .prose import sig, symbols

__all__ = ["KINDS", "SIGNIFICANCE", "CATEGORIES", "Claim", "ClaimFailed", "Ledger", "Record", "category_counts", "read_record", "run_dir",
           "cache_dir"]

KINDS = ("absolute", "relative", "log", "upper", "lower", "above", "below")

#: What a claim says: theory vs experiment, ours vs the paper's numbers, or a measured effect.
#: The kinds that test a significance: ``measured`` beyond the null value ``predicted`` by the margin ``tolerance``.
SIGNIFICANCE = ("above", "below")
CATEGORIES = ("agreement", "reproduction", "finding")


class ClaimFailed(AssertionError):
    """Raised by :meth:`Ledger.finish` when a chapter's claim does not hold."""


@dataclass(frozen=True)
class Claim:
    """One checked claim. ``deviation`` is in the units of ``tolerance``.

    For the kinds ``above`` and ``below`` (a significance: ``measured`` must lie beyond the null
    value ``predicted`` by the margin ``tolerance``, above or below it), ``deviation`` is the
    excess found beyond the null (``measured - predicted`` or ``predicted - measured``), and the
    claim passes when it is at least the margin.
    """

    chapter: str
    id: str
    statement: str
    measured: float
    predicted: float
    tolerance: float
    kind: str
    reason: str
    scale: str
    deviation: float
    passed: bool
    category: str = "agreement"
    theory: tuple = ()
    applies: bool = True
    reference: float = math.nan

    @property
    def status(self):
        if not self.applies:
            return "n/a"
        return "pass" if self.passed else "FAIL"

    @property
    def used(self):
        """Fraction of the tolerance the deviation uses (above 1: failed); nan where it has no meaning."""
        if not self.applies or not math.isfinite(self.deviation):
            return math.nan
        if self.kind in SIGNIFICANCE:  # the share of the excess found that the margin needs
            if self.deviation > 0:
                return self.tolerance / self.deviation
            return 0.0 if self.tolerance == 0 and self.deviation == 0 else math.inf
        if self.tolerance > 0:
            return self.deviation / self.tolerance
        return 0.0 if self.deviation <= 0 else math.inf

    @property
    def resolution(self):
        """The smallest relative error of ``predicted`` this claim would detect (``nan`` if none can be said).

        Shifting ``predicted`` by this fraction of itself moves the deviation by the whole tolerance,
        so a theory wrong by more than it fails the claim (for a claim that now passes near
        the middle of its tolerance; a one-sided claim detects errors in one direction only).
        """
        if not self.applies or self.kind in SIGNIFICANCE:  # a significance tests no theory's value
            return math.nan
        if self.kind == "relative":
            return self.tolerance
        if self.kind == "log":
            return 10.0 ** self.tolerance - 1.0
        size = abs(self.reference) if math.isfinite(self.reference) else abs(self.predicted)
        return self.tolerance / size if size > 0 and math.isfinite(size) else math.nan

    def _ipython_display_(self):
        """Show nothing when a cell ends with ``ledger.check(...)``: the chapter's table
        (:meth:`Ledger.finish`) shows every claim. (A trailing ``;`` is not enough: nbval
        re-executes cells without history, where IPython cannot see it.)"""


def _deviation(measured, predicted, kind):
    if kind == "absolute":
        return abs(measured - predicted)
    if kind == "relative":
        return abs(measured - predicted) / abs(predicted) if predicted != 0 else math.inf
    if kind == "log":
        if measured <= 0 or predicted <= 0:
            return math.inf
        return abs(math.log10(measured) - math.log10(predicted))
    if kind == "upper":
        return measured - predicted
    if kind == "above":
        return measured - predicted  # the excess beyond the null value
    return predicted - measured  # lower, below


def _holds(deviation, tolerance, kind):
    if kind in SIGNIFICANCE:
        return deviation >= tolerance
    return deviation <= tolerance


def _failure(c):
    """Why claim ``c`` failed, in one phrase."""
    if c.kind in SIGNIFICANCE:
        return f"excess {c.deviation:.3g} < margin {c.tolerance:.3g} ({c.kind})"
    return f"deviation {c.deviation:.3g} > tolerance {c.tolerance:.3g} ({c.kind})"


def project_root(start=None):
    """The nearest folder above ``start`` (default: cwd) holding this project's pyproject."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").exists() and (folder / "lib" / "gendyn").is_dir():
            return folder
    return here


def run_dir(scale):
    """Folder for a run's records and figures.

    ``$GENDYN_RUN_DIR`` when set (the book's pipeline sets it to a fresh folder per chapter
    run); otherwise ``_build/scratch/<scale>``, which the book never reads, so a chapter run
    by hand cannot slip its claims into the ledger.
    """
    folder = Path(os.environ.get("GENDYN_RUN_DIR") or project_root() / "_build" / "scratch" / scale)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def cache_dir(scale):
    """Folder for results shared between chapters: ``$GENDYN_CACHE_DIR`` or ``_build/cache/<scale>``.

    Callers key their files on everything the result depends on (arguments, library source),
    so a cached result is always the one a fresh computation would give.
    """
    folder = Path(os.environ.get("GENDYN_CACHE_DIR") or project_root() / "_build" / "cache" / scale)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


#: Claims files opened by a :class:`Ledger` in this process: a second ledger for the same
#: chapter would start the file afresh and could erase a failure.
_OPENED = set()


class Ledger:
    """The claims of one chapter run.

    A chapter opens exactly one ledger, checks its claims, and ends with :meth:`finish`.
    The record file says whether ``finish`` was reached; the book's pipeline accepts a run
    only if it was and every claim passed.

    Parameters
    ----------
    chapter : str
        Chapter id (as in :data:`gendyn.book.chapters.CHAPTERS`).
    scale : str
        The scale the numbers were computed at.
    directory : path-like, optional
        Where to record the claims; default :func:`run_dir`.

    Raises
    ------
    ValueError
        If a ledger for the same chapter and folder was already opened in this process, or
        (in a pipeline run, ``$GENDYN_RUN_ID`` set) its record file already exists.
    """

    def __init__(self, chapter, scale, directory=None):
        self.chapter, self.scale = chapter, scale
        self.path = (Path(directory or run_dir(scale)) / f"{chapter}.claims.json").resolve()
        self.run = os.environ.get("GENDYN_RUN_ID")
        if self.path in _OPENED or (self.run and self.path.exists()):
            raise ValueError(
                f"a ledger for chapter {chapter!r} was already opened in this run ({self.path}); a chapter "
                f"has one ledger per run: restart the kernel (or use a new GENDYN_RUN_DIR) to run it again")
        _OPENED.add(self.path)
        self.claims = []
        self.declared = None
        self.finished = False
        self._write()

    def declare(self, ids):
        """Fix the ids of the claims this run will record, before any is checked.

        :meth:`finish` then raises if the recorded ids differ: the set of claims a chapter checks
        must not depend on its data or its theory (record a claim that does not apply with
        :meth:`not_applicable`).
        """
        ids = tuple(ids)
        if self.claims or self.declared is not None:
            raise ValueError(f"declare the claims of {self.chapter!r} once, before checking any")
        if not ids or not all(isinstance(i, str) and i for i in ids) or len(set(ids)) != len(ids):
            raise ValueError(f"ids must be distinct non-empty strings; got {ids!r}")
        self.declared = ids
        self._write()

    def _new_id(self, id, category, theory):
        if self.finished:
            raise ValueError(f"the ledger of {self.chapter!r} is finished; check claims before finish()")
        if not (isinstance(id, str) and id):
            raise ValueError(f"claim id must be a non-empty string; got {id!r}")
        if any(c.id == id for c in self.claims):
            raise ValueError(f"claim id {id!r} is already used in chapter {self.chapter!r}")
        if self.declared is not None and id not in self.declared:
            raise ValueError(f"claim id {id!r} is not among the declared claims of {self.chapter!r}")
        if category not in CATEGORIES:
            raise ValueError(f"category must be one of {CATEGORIES}; got {category!r}")
        theory = (theory,) if isinstance(theory, str) else tuple(theory)
        if not all(isinstance(t, str) and t.startswith("gendyn.") for t in theory):
            raise ValueError(f"theory must name library functions ('gendyn.module.function'); got {theory!r}")
        return theory

    def check(self, id, statement, measured, predicted, tolerance, kind="absolute", reason="", *,
              category="agreement", theory=(), reference=None):
        """Check and record one claim; returns the :class:`Claim`.

        ``measured``, ``predicted`` and ``tolerance`` must be real scalars. A non-finite
        measured value fails the claim (it never passes silently). ``category`` is one of
        :data:`CATEGORIES`; ``theory`` names the library functions (``"gendyn.rmt.spike_overlap"``)
        whose results ``predicted`` comes from, the ones the mutation harness perturbs.
        ``reference``: the size of the theory's values when ``measured`` is a deviation from
        them (a curve's largest gap, ``predicted`` 0), so that the claim's resolution
        (:attr:`Claim.resolution`) is ``tolerance / |reference|``.
        """
        theory = self._new_id(id, category, theory)
        if kind not in KINDS:
            raise ValueError(f"claim kind must be one of {KINDS}; got {kind!r}")
        measured, predicted, tolerance = float(measured), float(predicted), float(tolerance)
        if not (math.isfinite(tolerance) and tolerance >= 0):
            raise ValueError(f"tolerance must be finite and >= 0; got {tolerance}")
        if not math.isfinite(predicted):
            raise ValueError(f"predicted must be finite; got {predicted} for claim {id!r}")
        reference = math.nan if reference is None else float(reference)
        if not (math.isnan(reference) or (math.isfinite(reference) and reference != 0)):
            raise ValueError(f"reference must be finite and non-zero; got {reference} for claim {id!r}")
        deviation = _deviation(measured, predicted, kind)
        passed = math.isfinite(measured) and math.isfinite(deviation) and _holds(deviation, tolerance, kind)
        claim = Claim(self.chapter, id, statement, measured, predicted, tolerance, kind, reason,
                      self.scale, deviation, bool(passed), category, theory, reference=reference)
        self.claims.append(claim)
        self._write()
        return claim

    def not_applicable(self, id, statement, reason, *, category="agreement", theory=()):
        """Record that a declared claim does not apply in this run, and why (shown as ``n/a``)."""
        theory = self._new_id(id, category, theory)
        if not (isinstance(reason, str) and reason.strip()):
            raise ValueError(f"reason must say why claim {id!r} does not apply; got {reason!r}")
        claim = Claim(self.chapter, id, statement, math.nan, math.nan, 0.0, "absolute", reason,
                      self.scale, math.nan, True, category, theory, applies=False)
        self.claims.append(claim)
        self._write()
        return claim

    def _write(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        record = dict(chapter=self.chapter, scale=self.scale, run=self.run, finished=self.finished,
                      declared=list(self.declared) if self.declared is not None else None,
                      claims=[asdict(c) for c in self.claims])
        tmp = self.path.with_name(f".{self.path.name}.partial")
        tmp.write_text(json.dumps(record, indent=1, allow_nan=True) + "\n")
        tmp.replace(self.path)  # a reader never sees half a file

    @property
    def failures(self):
        return [c for c in self.claims if not c.passed]

    def markdown(self):
        """The chapter's claims as a markdown table, with their counts per category."""
        counts = ", ".join(f"{n} {k}" for k, n in category_counts(self.claims).items())
        return f"Claims: {counts}.\n\n" + _table(self.claims) + "\n\n" + KIND_NOTE

    def _repr_markdown_(self):
        return self.markdown()

    def finish(self):
        """Record that the chapter reached its end, show the claims, and raise
        :class:`ClaimFailed` if any did not hold (catching it does not hide the failure: the
        record keeps it)."""
        if not self.claims:
            raise ValueError(f"chapter {self.chapter!r} checked no claim before finish()")
        if self.declared is not None:
            missing = [i for i in self.declared if i not in {c.id for c in self.claims}]
            if missing:
                raise ValueError(f"chapter {self.chapter!r} did not record its declared claims {missing}: a claim "
                                 "that does not apply is recorded with ledger.not_applicable(...)")
        self.finished = True
        self._write()
        try:
            from IPython.display import Markdown, display

            display(Markdown(self.markdown()))
        except ImportError:  # plain Python: print instead
            print(self.markdown())
        if self.failures:
            lines = [f"{c.id}: measured {c.measured:.4g} vs predicted {c.predicted:.4g}, {_failure(c)}"
                     for c in self.failures]
            raise ClaimFailed(f"{len(self.failures)} claim(s) of {self.chapter!r} failed:\n" + "\n".join(lines))


@dataclass(frozen=True)
class Record:
    """What one chapter run wrote: its claims, whether it finished, and its run identity."""

    chapter: str
    scale: str
    run: object
    finished: bool
    claims: tuple
    declared: tuple | None = None

    @classmethod
    def read(cls, path):
        data = json.loads(Path(path).read_text())
        claims = tuple(Claim(**{**c, "theory": tuple(c.get("theory", ()))}) for c in data["claims"])
        declared = data.get("declared")
        return cls(data["chapter"], data["scale"], data["run"], data["finished"], claims,
                   tuple(declared) if declared is not None else None)

    def problems(self, run=None, scale=None, declared=False):
        """Why this record may not reach the book (empty if it may).

        ``declared``: require a declared claim set (the book's pipeline does: a chapter's claims are
        fixed before it runs).
        """
        out = []
        if declared and self.declared is None:
            out.append(f"{self.chapter}: the chapter declared no claim set (claim_ids(cfg) in its module)")
        if not self.finished:
            out.append(f"{self.chapter}: the run did not reach ledger.finish()")
        if not self.claims:
            out.append(f"{self.chapter}: no claim was checked")
        out += [f"{self.chapter}/{c.id}: FAIL (measured {c.measured:.4g}, predicted {c.predicted:.4g}, {_failure(c)})"
                for c in self.claims if not c.passed]
        if self.declared is not None and set(self.declared) != {c.id for c in self.claims}:
            ids = {c.id for c in self.claims}
            out.append(f"{self.chapter}: recorded claims differ from the declared set (missing "
                       f"{sorted(set(self.declared) - ids)}, undeclared {sorted(ids - set(self.declared))})")
        if run is not None and self.run != run:
            out.append(f"{self.chapter}: recorded by another run ({self.run}), not this one ({run})")
        if scale is not None and self.scale != scale:
            out.append(f"{self.chapter}: recorded at scale {self.scale!r}, not {scale!r}")
        return out


def read_record(folder):
    """The one claims record in ``folder``; raises ``ValueError`` if there is none or several."""
    paths = sorted(Path(folder).glob("*.claims.json"))
    if len(paths) != 1:
        raise ValueError(f"{folder}: expected one claims record (<chapter>.claims.json), found {len(paths)}")
    return Record.read(paths[0])


def _fmt(x):
    return f"{x:.4g}" if math.isfinite(x) else str(x)


def _cell(text):
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _percent(x):
    """A share for the tables: a percentage, or from 10 on a factor ("9,700×" reads; "970379%" does not)."""
    if not math.isfinite(x):
        return "–"
    if x <= 0:  # a one-sided claim well inside its bound
        return "0%"
    if x >= 10:  # a claim far from resolving its theory (a prediction near zero), or far outside its tolerance
        return f"{sig(x, 2)}×"
    return f"{100 * x:.0f}%" if x >= 0.01 else "<1%"


def _table(claims, with_reason=True):
    """Claims as a MyST table, status first (plain words: no emoji that need a font).

    Each column means one thing: ``measured``; ``predicted`` by the theory (or the paper, or the
    null hypothesis); the ``tolerance`` around it and its kind; ``used``, the fraction of the
    tolerance the deviation takes (a claim near 100% passed narrowly); ``resolution``, the
    smallest relative error of ``predicted`` the claim would detect.
    """
    head = ["status", "claim", "category", "measured", "predicted", "tolerance", "used", "resolution"] + (
        ["why this tolerance"] if with_reason else [])
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in claims:
        status = {"pass": "pass", "FAIL": "**FAIL**", "n/a": "n/a"}[c.status]
        cells = [status, f"`{c.id}`: {_cell(symbols(c.statement))}", c.category]
        if c.applies:
            cells += [_fmt(c.measured), _fmt(c.predicted), f"{_fmt(c.tolerance)} ({c.kind})", _percent(c.used),
                      _percent(c.resolution)]
        else:
            cells += ["–"] * 5
        if with_reason:
            cells.append(_cell(symbols(c.reason) if c.reason else "(no reason recorded)"))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def category_counts(claims):
    """``{category: number of claims}`` for the categories present, in :data:`CATEGORIES` order."""
    return {k: n for k in CATEGORIES if (n := sum(c.category == k for c in claims))}


#: How each kind of tolerance is read, for the pages that list claims.
KIND_NOTE = ("Tolerance kinds: `absolute` |m − p| ≤ tol; `relative` |m − p| ≤ tol·|p|; "
             "`log` |log10 m − log10 p| ≤ tol; `upper` m ≤ p + tol; `lower` m ≥ p − tol; "
             "`above` m ≥ p + tol and `below` m ≤ p − tol (a significance: p the null value, tol the margin). "
             "Categories: *agreement* (theory vs experiment), *reproduction* (vs the paper's published "
             "numbers), *finding* (a measured effect, or a disagreement with a paper stated as such). "
             "*used*: the share of the tolerance the deviation takes (for `above`/`below`: the margin over the excess "
             "found); *resolution*: the smallest relative "
             "error of the prediction the claim would detect (tolerance / |predicted|, or over the size of the theory's "
             "values where the claim measures a gap; none for a significance); *n/a*: a declared "
             "claim that does not apply in this run, with the reason.")
