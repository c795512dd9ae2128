"""Claims that recur across chapters (gendyn.book.checks), recorded in a real ledger."""

import json

import numpy as np
import pytest
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
        # rho must exceed the null value 0 by the critical value: a significance, the margin as tolerance
        assert claim["tolerance"] == stats.spearman_critical(8) == t / np.sqrt(6 + t**2)
        assert claim["kind"] == "above" and claim["predicted"] == 0.0
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


def test_ta_band_is_pointwise_and_sees_a_constant_factor_where_the_curve_is_flat(tmp_path):
    """A delay shifts a sigmoid-like error curve only where it is steep; a theory wrong by a constant
    factor is off everywhere, so the pointwise band catches it on the flat parts."""
    t = np.linspace(0, 10, 201)
    exact = 1 / (1 + np.exp(3 * (t - 5))) + 0.01  # a drop at t = 5, flat elsewhere
    delayed = 1 / (1 + np.exp(3 * (t - 5.1))) + 0.01
    simulated = 1 / (1 + np.exp(3 * (t - 5.08))) + 0.01  # follows the delayed flow
    ledger = claims.Ledger("band", "smoke", directory=tmp_path)
    for claim_id, theory in (("true", exact), ("wrong", 1.1 * exact)):
        gap, band = checks.ta_band_gaps(simulated[None], theory[None], delayed[None], rho=0.2, slack=1e-4)
        assert gap.shape == band.shape == (1, t.size)
        checks.check_ta_band(ledger, claim_id, "demo", [(gap, band)], t=t, rho=0.2, lag=0.1, lr=0.01,
                             slack_reason="1e-4 for rounding")
    true, wrong = ledger.claims
    assert true.passed and true.measured < 1 and not wrong.passed and wrong.measured > 10
    # the resolution is the narrowest band as a relative error: 1e-4 in log10 where the curve is flat
    assert true.resolution == pytest.approx(1e-4 / np.log10(np.e), rel=1e-2)


def test_ta_band_resolution_ignores_time_zero(tmp_path):
    """At t = 0 the band is the rounding slack alone and no error of the dynamics can show there: the
    claim's resolution comes from the narrowest band after it."""
    t = np.array([0.0, 1.0, 2.0])
    gap, band = np.zeros((1, 3)), np.array([[1e-6, 0.05, 0.1]])
    ledger = claims.Ledger("band0", "smoke", directory=tmp_path)
    checks.check_ta_band(ledger, "c", "demo", [(gap, band)], t=t, rho=0.2, lag=0.1, lr=0.01, slack_reason="none")
    assert ledger.claims[0].resolution == pytest.approx(0.05 / np.log10(np.e))
    with pytest.raises(ValueError, match="t must hold a time after 0"):
        checks.check_ta_band(ledger, "d", "demo", [(gap, band)], t=np.zeros(3), rho=0.2, lag=0.1, lr=0.01,
                             slack_reason="none")
