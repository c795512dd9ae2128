"""Claims that recur across chapters (gendyn.book.checks), recorded in a real ledger."""

import json

import numpy as np
from scipy import stats as sps

from gendyn.book import checks, claims, stats


def test_check_spearman_records_rho_against_its_one_sided_critical_value(tmp_path):
    ledger = claims.Ledger("demo", "smoke", directory=tmp_path)
    x = np.arange(8.0)
    rising, flat = x + np.array([0, 2, -1, 1, 0, 3, -2, 1]) * 0.4, np.array([3, 1, 4, 1, 5, 9, 2, 6.0])
    checks.check_spearman(ledger, "rises", "y rises with x", x, rising)
    checks.check_spearman(ledger, "flat", "y rises with x", x, flat, note="")
    recorded = {c["id"]: c for c in json.loads((tmp_path / "demo.claims.json").read_text())["claims"]}
    t = sps.t.ppf(0.99, 6)
    for claim_id, y in (("rises", rising), ("flat", flat)):
        claim = recorded[claim_id]
        assert claim["measured"] == sps.spearmanr(x, y).statistic
        assert claim["predicted"] == stats.spearman_critical(8) == t / np.sqrt(6 + t**2)
        assert claim["kind"] == "lower" and claim["tolerance"] == 0.0
    assert recorded["rises"]["passed"] and not recorded["flat"]["passed"]
    reason = "one-sided 1% critical value of Spearman's rho for n = 8 cells (t approximation)."
    assert recorded["rises"]["reason"] == reason
    assert recorded["flat"]["reason"].endswith("n = 8 cells.")
    assert recorded["rises"]["category"] == "agreement"


def test_check_spearman_passes_category_and_theory(tmp_path):
    ledger = claims.Ledger("demo2", "smoke", directory=tmp_path)
    checks.check_spearman(ledger, "trend", "y rises with x", np.arange(6.0), np.arange(6.0), category="finding")
    recorded = json.loads((tmp_path / "demo2.claims.json").read_text())["claims"][0]
    assert recorded["category"] == "finding" and recorded["passed"]
