"""The significance kinds of a claim: ``above`` and ``below`` a null value by a margin."""

import math

import numpy as np
import pytest
import scipy.stats as sps

from gendyn.book import claims, stats


def test_above_and_below_pass_only_beyond_the_margin(tmp_path):
    ledger = claims.Ledger("significance", "smoke", directory=tmp_path)
    far = ledger.check("far", "z of 6 above 0 by 3", 6.0, 0.0, 3.0, kind="above", category="finding")
    near = ledger.check("near", "z of 2.9 above 0 by 3", 2.9, 0.0, 3.0, kind="above", category="finding")
    down = ledger.check("down", "-4 below 0 by 3", -4.0, 0.0, 3.0, kind="below", category="finding")
    wrong_side = ledger.check("wrong-side", "+4 below 0 by 3", 4.0, 0.0, 3.0, kind="below", category="finding")
    assert far.passed and not near.passed and down.passed and not wrong_side.passed
    # the columns say what was compared: the measured effect, the null value, the margin
    assert (far.measured, far.predicted, far.tolerance, far.deviation) == (6.0, 0.0, 3.0, 6.0)
    assert far.used == pytest.approx(0.5) and near.used > 1 and wrong_side.used == math.inf
    assert math.isnan(far.resolution)  # a significance names no theory value to resolve
    with pytest.raises(claims.ClaimFailed, match=r"near: .*excess 2\.9 < margin 3 \(above\)"):
        ledger.finish()
    problems = claims.read_record(tmp_path).problems()
    assert [p.split(":")[0] for p in problems] == ["significance/near", "significance/wrong-side"]
    assert "margin" in problems[0]


def test_t_margin_is_the_distance_from_the_mean_to_the_t_bound():
    v = np.array([0.1, 0.3, 0.2, 0.4, 0.25])
    se = v.std(ddof=1) / math.sqrt(5)
    assert stats.t_margin(v) == pytest.approx(sps.t.ppf(0.99, 4) * se)
    assert stats.t_margin(v, 0.9) == pytest.approx(stats.t_bound(v, "upper", 0.9) - v.mean())
    # the claim "mean above 0 by the margin" holds exactly when the lower t-bound is above 0
    for sample in (v, v - 0.2, v - v.mean()):
        assert (sample.mean() >= stats.t_margin(sample)) == (stats.t_bound(sample, "lower") >= 0)
    with pytest.raises(ValueError, match="values"):
        stats.t_margin([[1.0, 2.0]])
