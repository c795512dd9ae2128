import math
"""gendyn.book.scales (parameter checks) and gendyn.book.claims (the harness and the ledger)."""

import json

import pytest

from gendyn.book import claims, scales
from gendyn.book import ledger_page


def test_configure_reads_sizes_and_overrides():
    cfg = scales.configure("lg-rmt", "smoke", 3, "cpu", n1=64, repeats=None)
    assert cfg.n1 == 64 and cfg.repeats == scales.sizes("lg-rmt", "smoke")["repeats"] and cfg.seed == 3
    assert "n1=64" in cfg.describe()
    assert cfg.sizes.n1 == 64 and cfg.sizes.repeats == cfg.repeats  # typed: the chapter module's Sizes


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("lg-rmt", "huge", 0, "cpu"), {}, r"SCALE must be one of \['paper', 'smoke'\]|SCALE must be one of"),
        (("lg-rmt", "smoke", -1, "cpu"), {}, r"SEED must be an integer in \[0, 2\*\*63\)"),
        (("lg-rmt", "smoke", 2**63, "cpu"), {}, r"SEED must be an integer in \[0, 2\*\*63\)"),
        (("lg-rmt", "smoke", True, "cpu"), {}, r"SEED must be an integer"),
        (("lg-rmt", "smoke", 0, "tpu"), {}, "DEVICE must be 'cpu', 'cuda' or 'cuda:N'"),
        (("lg-rmt", "smoke", 0, "cpu"), {"n1": -5}, r"N1=-5 \(size n1 of chapter 'lg-rmt'\) .* integer >= 2"),
        (("lg-rmt", "smoke", 0, "cpu"), {"n1": 2.5}, "N1=2.5 .* integer >= 2"),
        (("lg-rmt", "smoke", 0, "cpu"), {"repeats": 1}, "REPEATS=1 .* integer >= 2"),
        (("lg-mode-dynamics", "smoke", 0, "cpu"), {"n_modes": 1}, "N_MODES=1 .* integer >= 2"),
        (("ln-setup", "smoke", 0, "cpu"), {"mc_samples": 1}, "MC_SAMPLES=1 .* integer >= 2"),
        (("lg-rmt", "smoke", 0, "cpu"), {"repeats": True}, "REPEATS=True .* expected a number"),
        (("lg-rmt", "smoke", 0, "cpu"), {"sbar_step": 0.0}, "SBAR_STEP=0.0 .* finite number > 0"),
        (("lg-rmt", "smoke", 0, "cpu"), {"sbar_step": float("nan")}, "SBAR_STEP=nan .* finite number > 0"),
        (("lg-rmt", "smoke", 0, "cpu"), {"aspects": []}, "ASPECTS=.* non-empty list"),
        (("lg-rmt", "smoke", 0, "cpu"), {"namespace": {"SCALE": "smoke", "REPEAT": 50}},
         "unknown notebook parameter\\(s\\) REPEAT: this chapter takes DEVICE, SCALE, SEED"),
        (("lg-rmt", "smoke", 0, "cpu"), {"nonsense": 1}, "unknown size 'nonsense'"),
        (("nope", "smoke", 0, "cpu"), {}, "unknown chapter 'nope'"),
    ],
)
def test_bad_parameters_name_the_value_and_what_is_allowed(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        scales.configure(*args, **kwargs)


def test_every_chapter_has_smoke_and_paper_scales():
    from gendyn.book.chapters import CHAPTERS

    for chapter in CHAPTERS:
        smoke, paper = (scales.sizes(chapter, scale) for scale in ("smoke", "paper"))
        assert list(smoke) == list(paper), chapter


def test_a_period_may_be_one_and_a_list_item_may_be_zero_where_the_default_has_zero():
    assert scales.configure("ln-multitask", "smoke", 0, "cpu", eval_every=1).eval_every == 1
    assert scales.configure("goldt-sec2", "smoke", 0, "cpu", erf_ls=(0, 3)).erf_ls == (0, 3)


def test_namespace_check_ignores_modules_functions_and_ipython_names():
    import numpy as np

    namespace = {"SCALE": "smoke", "SEED": 0, "DEVICE": "cpu", "N1": None, "np": np, "Ledger": claims.Ledger,
                 "In": [], "Out": {}, "_i1": "", "get_ipython": print}
    assert scales.configure("lg-rmt", "smoke", 0, "cpu", n1=None, namespace=namespace).n1 > 0


def test_ledger_checks_records_and_fails(tmp_path):
    ledger = claims.Ledger("demo", "smoke", directory=tmp_path)
    ok = ledger.check("a", "close", 1.01, 1.0, 0.02, kind="relative", reason="r")
    bound = ledger.check("b", "below a bound", 0.5, 1.0, 0.0, kind="upper")
    bad = ledger.check("c", "log off", 10.0, 1.0, 0.5, kind="log")
    nan = ledger.check("d", "nan never passes", float("nan"), 1.0, 1e9)
    assert ok.passed and bound.passed and not bad.passed and not nan.passed
    record = claims.read_record(tmp_path)
    assert [c.id for c in record.claims] == ["a", "b", "c", "d"] and not record.finished
    with pytest.raises(ValueError, match="already used"):
        ledger.check("a", "again", 1, 1, 0)
    with pytest.raises(ValueError, match="kind must be one of"):
        ledger.check("e", "x", 1, 1, 0, kind="vibes")
    with pytest.raises(claims.ClaimFailed, match="2 claim"):
        ledger.finish()
    record = claims.read_record(tmp_path)
    assert record.finished  # caught or not, the failure stays in the record
    assert [p.split(":")[0] for p in record.problems()] == ["demo/c", "demo/d"]


def test_a_second_ledger_for_the_same_chapter_is_an_error_not_an_erasure(tmp_path):
    ledger = claims.Ledger("twice", "smoke", directory=tmp_path)
    ledger.check("x", "fails", 2.0, 1.0, 0.1)
    with pytest.raises(ValueError, match="already opened in this run"):
        claims.Ledger("twice", "smoke", directory=tmp_path)
    assert not claims.read_record(tmp_path).claims[0].passed


def test_unfinished_or_empty_records_are_problems(tmp_path):
    ledger = claims.Ledger("open", "smoke", directory=tmp_path)
    assert any("did not reach ledger.finish()" in p for p in claims.read_record(tmp_path).problems())
    with pytest.raises(ValueError, match="checked no claim"):
        ledger.finish()


def test_ledger_page_summarises_then_lists_every_chapter():
    entries = []
    for chapter in ("one", "two"):
        c = claims.Claim(chapter, "x", "s", 1.0, 1.0, 0.0, "absolute", "why", "smoke", 0.0, True)
        record = claims.Record(chapter, "smoke", "id", True, (c,))
        entries.append(ledger_page.LedgerEntry(record, f"Title {chapter}", f"part/{chapter}.ipynb", 3.0, {"SEED": 0}))
    page = ledger_page.ledger_markdown(entries)
    assert "2 claims in 2 chapters: 2 pass, 0 fail, 0 do not apply in this run** (run with SEED = 0)." in page
    assert "By category: 2 agreement." in page
    assert "| [Title one](part/one.ipynb) ({ref}`claims <ledger-one>`) | 1 | 1 | 0 | 0 | 1 | 0 | 0 | 3 s |" in page
    assert "(ledger-two)=\n## Title two" in page
    assert "| pass | `x`: s | agreement | 1 | 1 | 0 (absolute) | 0% | 0% | why |" in page


def test_word_sizes_take_only_their_choices():
    cfg = scales.configure("ln-published", "smoke", 0, "cpu", authors_cells="all")
    assert cfg.authors_cells == "all"
    with pytest.raises(ValueError, match="AUTHORS_CELLS='everything'.*'subset', 'all'"):
        scales.configure("ln-published", "smoke", 0, "cpu", authors_cells="everything")


def test_record_sizes_take_lists_of_records_of_the_same_form():
    groups = [["rank-3", 100, 100, 1]]
    cfg = scales.configure("ln-published", "smoke", 0, "cpu", authors_groups=groups)
    assert cfg.authors_groups == (("rank-3", 100, 100, 1),)
    for bad in ([["rank-3", 100, 100]], [["rank-3", 100, 100, 0]], [[3, 100, 100, 1]], "rank-3"):
        with pytest.raises(ValueError, match="AUTHORS_GROUPS=.*records like \\['rank-10', 100, 100, 1\\]"):
            scales.configure("ln-published", "smoke", 0, "cpu", authors_groups=bad)


def test_chapter_start_checks_opens_the_ledger_styles_and_shows_the_settings(tmp_path, monkeypatch, capsys):
    import matplotlib as mpl

    from gendyn.book import chapter, plotting

    monkeypatch.setenv("GENDYN_RUN_DIR", str(tmp_path))
    with mpl.rc_context():  # the style is global: leave it as it was for the other tests
        mpl.rcParams["font.size"] = 3.0
        cfg, ledger = chapter.start("lg-rmt", "smoke", 4, "cpu", n1=None, repeats=None)
        assert mpl.rcParams["font.size"] == plotting.STYLE["font.size"]
    assert cfg.chapter == "lg-rmt" and cfg.seed == 4 and ledger.chapter == "lg-rmt"
    assert ledger.path == (tmp_path / "lg-rmt.claims.json").resolve()
    assert capsys.readouterr().out.strip() == cfg.describe()
    with pytest.raises(ValueError, match="SCALE must be one of"):
        chapter.start("lg-rmt", "huge", 0, "cpu")


def test_declared_claims_are_the_claims_a_run_records(tmp_path):
    ledger = claims.Ledger("declared", "smoke", tmp_path)
    ledger.declare(["a", "b"])
    with pytest.raises(ValueError, match="not among the declared"):
        ledger.check("c", "s", 1.0, 1.0, 0.1)
    ledger.check("a", "s", 1.0, 1.0, 0.1, theory="gendyn.rmt.mp_density")
    with pytest.raises(ValueError, match="did not record its declared claims"):
        ledger.finish()
    ledger.not_applicable("b", "s", "no teacher above threshold in this run")
    ledger.finish()
    record = claims.read_record(tmp_path)
    assert record.declared == ("a", "b") and [c.status for c in record.claims] == ["pass", "n/a"]
    assert record.claims[0].theory == ("gendyn.rmt.mp_density",) and record.problems() == []
    # a record whose claims differ from its declared set is refused by the pipeline
    bad = claims.Record(record.chapter, "smoke", None, True, record.claims[:1], ("a", "b"))
    assert any("differ from the declared set" in p for p in bad.problems())


def test_claim_categories_theory_and_strength_are_checked(tmp_path):
    ledger = claims.Ledger("strength", "smoke", tmp_path)
    with pytest.raises(ValueError, match="category must be one of"):
        ledger.check("x", "s", 1.0, 1.0, 0.1, category="identity")
    with pytest.raises(ValueError, match="theory must name library functions"):
        ledger.check("x", "s", 1.0, 1.0, 0.1, theory="mp_density")
    with pytest.raises(ValueError, match="predicted must be finite"):
        ledger.check("x", "s", 1.0, math.inf, 0.1)
    c = ledger.check("rel", "s", 1.05, 1.0, 0.1, kind="relative")
    assert c.resolution == pytest.approx(0.1) and c.used == pytest.approx(0.5)
    c = ledger.check("gap", "s", 0.02, 0.0, 0.05, reference=2.0)
    assert c.resolution == pytest.approx(0.025) and c.used == pytest.approx(0.4)
    c = ledger.check("log", "s", 1.0, 1.0, math.log10(1.2), kind="log", category="finding")
    assert c.resolution == pytest.approx(0.2) and c.category == "finding"
    assert claims.category_counts(ledger.claims) == {"agreement": 2, "finding": 1}
    table = ledger.markdown()
    assert "| used | resolution |" in table and "Claims: 2 agreement, 1 finding." in table


def test_a_resolution_of_ten_or_more_reads_as_a_factor(tmp_path):
    """A prediction near zero gives a resolution of thousands: written "9,700×", not "970379%"."""
    ledger = claims.Ledger("factor", "smoke", tmp_path)
    c = ledger.check("near-zero", "s", 1e-3, 1e-6, 9.70379e-3)
    assert c.resolution == pytest.approx(9703.79)
    row = next(line for line in ledger.markdown().splitlines() if "near-zero" in line)
    assert "| 9,700× |" in row and "970379%" not in row
    assert claims._percent(0.5) == "50%" and claims._percent(9.99) == "999%" and claims._percent(12.3) == "12×"
