"""Fuzz: every public function of gendyn.book.stats and order_statistics refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import rmt
from gendyn.book import order_statistics, stats

_RNG = np.random.default_rng(0)
_SAMPLES = _RNG.normal(1.0, 0.5, (3, 6))  # three quantities, six seeds each
_PAIRED = dict(mean_a=[1.0, -2.0, 0.1], se_a=[0.1, 0.2, 0.3], mean_b=[1.1, -2.1, 0.2], se_b=[0.1, 0.2, 0.1])
# the means of two estimates (and their differences) may be any real numbers; a zero standard error is exact
_PAIRED_OK = dict(mean_a={"negative", "zero"}, mean_b={"negative", "zero"}, se_a={"zero"}, se_b={"zero"})

CASES = [
    # axis picks an axis of x; -1 is the last (numpy's convention)
    Case(stats.mean_se, dict(x=_SAMPLES, axis=-1), accepted=dict(axis={"negative", "zero"},
                                                                 x={"wrong-shape"})),  # a batch of samples
    Case(stats.z_score, dict(x=_SAMPLES, axis=-1), accepted=dict(axis={"negative", "zero"}, x={"wrong-shape"})),
    Case(stats.z_quantile, dict(comparisons=10, level=1e-3, sides=2)),
    Case(stats.t_quantile, dict(comparisons=10, dof=5, level=1e-3)),
    Case(stats.t_bound, dict(values=_SAMPLES[0], side="lower", confidence=0.99)),
    Case(stats.t_margin, dict(values=_SAMPLES[0], confidence=0.99)),
    Case(stats.t_bound_reason, dict(seeds=5, detail=", paired within seeds", confidence=0.99),
         accepted=dict(detail={"string", "unknown-name"})),  # any text is a detail
    Case(stats.late_average, dict(time=np.arange(40.0), values=np.sin(np.arange(40.0)), points=20, batches=4)),
    Case(stats.batch_means_interval, dict(batches=_SAMPLES, level=1e-3)),
    Case(stats.ks_distance, dict(samples=_RNG.normal(size=50), cdf=lambda x: rmt.mp_cdf(x, 0.5)),
         accepted=dict(samples={"negative", "zero"})),  # one sample: a distance from its distribution function
    Case(stats.dkw_bound, dict(n=100, level=1e-3)),
    Case(stats.fitted_exponent,
         dict(sizes=[10.0, 20.0, 40.0], samples=[_SAMPLES[0] * 2.0, _SAMPLES[1], _SAMPLES[2] / 2.0],
              offsets=[0.0, 0.0, 0.0], n_boot=50, rng=0),
         accepted=dict(offsets={"none"}, rng={"zero", "none"})),
    # one estimate per entry: a zero or negative estimate is an estimate
    Case(stats.weighted_mean_z, dict(means=[0.1, -0.2, 0.3], se=[0.1, 0.2, 0.1]),
         accepted=dict(means={"negative", "zero", "wrong-shape"})),
    Case(stats.weighted_slope_z, dict(x=[1.0, 2.0, 3.0], y=[0.1, 0.3, 0.2], se=[0.1, 0.2, 0.1])),
    Case(stats.within_combined_se, dict(**_PAIRED, z=2.0), accepted=_PAIRED_OK),
    Case(stats.sign_agreement, dict(**_PAIRED, z=2.0), accepted=_PAIRED_OK),
    Case(stats.rank_correlation, dict(x=[1.0, 2.0, 3.0, 4.0], y=[1.0, 3.0, 2.0, 4.0])),
    Case(stats.spearman_critical, dict(n=10, confidence=0.99)),
]
CASES += [
    # a value that is an unreadable bound is infinite: the extreme value and margin 0, a claim on it cannot pass
    Case(stats.mean_and_margin, dict(values=_SAMPLES[0], side="upper", comparisons=2, level=0.01)),
]


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} == set(stats.__all__) | set(order_statistics.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
CASES += [
    # the difference of two independent means: unreadable (infinite) bounds give the extreme and margin 0
    Case(stats.difference_and_margin, dict(a=_SAMPLES[0], b=_SAMPLES[1], side="upper", comparisons=2, level=0.01)),
]
CASES += [
    # the range of a median of n draws from a reference sample (order statistics)
    Case(order_statistics.median_range, dict(reference=_RNG.normal(size=200), n=10, level=0.01, comparisons=2),
         accepted=dict(reference={"negative", "zero"})),  # any real values are a sample
]
