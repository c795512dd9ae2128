"""gendyn.scales (parameter checks) and gendyn.claims (the harness and the ledger)."""

import json

import pytest

from gendyn import claims, scales


def test_configure_reads_sizes_and_overrides():
    cfg = scales.configure("lg-rmt", "smoke", 3, "cpu", n1=64, repeats=None)
    assert cfg.n1 == 64 and cfg.repeats == scales.CHAPTERS["lg-rmt"]["smoke"]["repeats"] and cfg.seed == 3
    assert "n1=64" in cfg.describe()


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("lg-rmt", "huge", 0, "cpu"), {}, r"SCALE must be one of \['paper', 'smoke'\]|SCALE must be one of"),
        (("lg-rmt", "smoke", -1, "cpu"), {}, "SEED must be a non-negative integer"),
        (("lg-rmt", "smoke", 0, "tpu"), {}, "DEVICE must be 'cpu' or 'cuda'"),
        (("lg-rmt", "smoke", 0, "cpu"), {"n1": -5}, "size n1=-5 .* positive integer"),
        (("lg-rmt", "smoke", 0, "cpu"), {"n1": 2.5}, "size n1=2.5 .* positive integer"),
        (("lg-rmt", "smoke", 0, "cpu"), {"sbar_step": 0.0}, "sbar_step=0.0 .* positive finite"),
        (("lg-rmt", "smoke", 0, "cpu"), {"nonsense": 1}, "unknown size 'nonsense'"),
        (("nope", "smoke", 0, "cpu"), {}, "unknown chapter 'nope'"),
    ],
)
def test_bad_parameters_name_the_value_and_what_is_allowed(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        scales.configure(*args, **kwargs)


def test_every_chapter_has_smoke_and_paper_scales():
    for chapter, table in scales.CHAPTERS.items():
        assert set(table) == set(scales.SCALES), chapter
        assert set(table["smoke"]) == set(table["paper"]), chapter


def test_ledger_checks_records_and_fails(tmp_path):
    ledger = claims.Ledger("demo", "smoke", directory=tmp_path)
    ok = ledger.check("a", "close", 1.01, 1.0, 0.02, kind="relative", reason="r")
    bound = ledger.check("b", "below a bound", 0.5, 1.0, 0.0, kind="upper")
    bad = ledger.check("c", "log off", 10.0, 1.0, 0.5, kind="log")
    nan = ledger.check("d", "nan never passes", float("nan"), 1.0, 1e9)
    assert ok.passed and bound.passed and not bad.passed and not nan.passed
    records = json.loads((tmp_path / "demo.claims.json").read_text())
    assert [r["id"] for r in records] == ["a", "b", "c", "d"]
    with pytest.raises(claims.ClaimFailed, match="2 claim"):
        ledger.finish()
    with pytest.raises(ValueError, match="already used"):
        ledger.check("a", "again", 1, 1, 0)
    with pytest.raises(ValueError, match="kind must be one of"):
        ledger.check("e", "x", 1, 1, 0, kind="vibes")


def test_ledger_page_collects_every_chapter(tmp_path):
    for chapter in ("one", "two"):
        claims.Ledger(chapter, "smoke", directory=tmp_path / chapter).check("x", "s", 1, 1, 0)
    page = claims.ledger_markdown(tmp_path)
    assert "2 claims, 2 pass, 0 fail" in page and "| one |" in page and "| two |" in page
