"""The claims' statistics toolkit (gendyn.book.stats) against direct formulas and scipy."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from gendyn.book import order_statistics, stats


def test_mean_se_is_the_textbook_formula():
    x = np.random.default_rng(0).normal(size=(3, 40))
    m, se = stats.mean_se(x)
    np.testing.assert_array_equal(m, x.mean(-1))
    np.testing.assert_array_equal(se, x.std(-1, ddof=1) / np.sqrt(40))
    m0, se0 = stats.mean_se(x, axis=0)
    assert m0.shape == (40,) and np.all(se0 > 0)
    assert stats.mean_se(x.astype(np.float32))[0].dtype == np.float32
    np.testing.assert_array_equal(stats.z_score(x), m / se)


def test_t_quantile_and_bound():
    assert stats.t_quantile(1, 9, level=0.05) == pytest.approx(sps.t.ppf(0.975, 9))
    assert stats.t_quantile(10, 9, level=0.05) == pytest.approx(sps.t.ppf(1 - 0.0025, 9))
    v = np.array([0.1, 0.3, 0.2, 0.4, 0.25])
    se = v.std(ddof=1) / math.sqrt(5)
    assert stats.t_bound(v, "lower") == pytest.approx(v.mean() - sps.t.ppf(0.99, 4) * se)
    assert stats.t_bound(v, "upper", 0.9) == pytest.approx(v.mean() + sps.t.ppf(0.9, 4) * se)
    # a bound that can fail: the lower bound of a mean-zero sample lies below zero
    noise = np.random.default_rng(1).normal(size=50)
    assert stats.t_bound(noise - noise.mean(), "lower") < 0


def test_late_average_uses_batch_means():
    t = np.arange(400.0)
    y = np.r_[np.zeros(300), np.arange(100.0)]
    m, se = stats.late_average(t, y)
    batches = np.arange(100.0).reshape(10, 10).mean(1)
    assert m == pytest.approx(49.5) and se == pytest.approx(batches.std(ddof=1) / math.sqrt(10))


def test_ks_distance_matches_scipy():
    x = np.random.default_rng(2).normal(size=500)
    assert stats.ks_distance(x, sps.norm.cdf) == pytest.approx(sps.kstest(x, "norm").statistic)


@pytest.mark.parametrize("call, name", [
    (lambda: stats.mean_se([1.0]), "x"),
    (lambda: stats.mean_se([1.0, np.nan]), "x"),
    (lambda: stats.t_bound([1.0, 2.0], "middle"), "side"),
    (lambda: stats.t_bound([[1.0, 2.0]], "lower"), "values"),
    (lambda: stats.t_quantile(0, 3), "comparisons"),
    (lambda: stats.t_quantile(2, 3, level=1.0), "level"),
    (lambda: stats.late_average(np.arange(10.0), np.arange(10.0)), "records"),
    (lambda: stats.late_average(np.arange(10.0), np.arange(9.0)), "length"),
    (lambda: stats.ks_distance([1.0, 2.0], "norm"), "cdf"),
])
def test_bad_input_is_named(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_batch_means_interval_widens_for_correlated_batches():
    rng = np.random.default_rng(0)
    noise = rng.standard_normal((20, 11))
    walk = noise[:, 1:] + 0.6 * noise[:, :-1]  # moving average: lag-1 correlation about 0.44
    mean, half, rho = stats.batch_means_interval(walk)
    x = walk.ravel()
    expected_rho = np.corrcoef(walk[:, :-1].ravel(), walk[:, 1:].ravel())[0, 1]
    assert 0 < rho < 0.8 and rho == pytest.approx(expected_rho)
    se = x.std(ddof=1) / np.sqrt(x.size)
    assert mean == pytest.approx(x.mean())
    assert half == pytest.approx(sps.t.ppf(1 - 5e-4, x.size - 1) * se * np.sqrt((1 + rho) / (1 - rho)))
    anti = np.tile([1.0, -1.0], (3, 5)) + 0.01 * rng.standard_normal((3, 10))  # negative rho: not narrowed
    assert stats.batch_means_interval(anti)[2] == 0.0
    with pytest.raises(ValueError, match="batches must be 2-D"):
        stats.batch_means_interval(x)


def test_fitted_exponent_recovers_a_power_law_and_its_spread():
    rng = np.random.default_rng(1)
    sizes = np.array([100.0, 200.0, 400.0, 800.0])
    samples = [n ** -0.5 * (1 + 0.1 * rng.standard_normal(400)) for n in sizes]
    b, se = stats.fitted_exponent(sizes, samples, rng=3)
    assert abs(b + 0.5) < 4 * se and 0 < se < 0.01
    # an offset: the fit goes through |mean - offset|
    shifted = [v + 2.0 for v in samples]
    assert stats.fitted_exponent(sizes, shifted, offsets=[2.0] * 4, rng=3) == pytest.approx((b, se))
    assert stats.fitted_exponent(sizes, samples, rng=3) == (b, se)  # the seed fixes the resamples


@pytest.mark.parametrize("kwargs, match", [(dict(sizes=[1.0]), "sizes"), (dict(sizes=[1.0, -2.0]), "sizes"),
                                           (dict(offsets=[0.0]), "offsets"), (dict(n_boot=1), "n_boot"),
                                           (dict(offsets=[1.0, 1.0]), "power law")])
def test_fitted_exponent_rejects_bad_input(kwargs, match):
    args = {"sizes": [1.0, 2.0], "samples": [np.ones(3), np.ones(3) * 0.5], **kwargs}
    if len(args["sizes"]) != 2:
        args["samples"] = args["samples"][: len(args["sizes"])]
    with pytest.raises(ValueError, match=match):
        stats.fitted_exponent(**args)


def test_paired_agreement_statistics():
    ma, sa = np.array([1.0, -1.0, 0.1, 3.0]), np.array([0.1, 0.1, 0.1, 0.1])
    mb, sb = np.array([1.1, 1.0, 0.0, 3.5]), np.array([0.1, 0.1, 0.2, 0.1])
    # |diff| vs 2 hypot: 0.1 <= 0.28 yes; 2 > 0.28 no; 0.1 <= 0.45 yes; 0.5 > 0.28 no
    assert stats.within_combined_se(ma, sa, mb, sb) == 0.5
    # both significant: cells 0, 1, 3 (cell 2: 0.1 is not > 0.2); signs agree on 0 and 3
    assert stats.sign_agreement(ma, sa, mb, sb) == (pytest.approx(2 / 3), 3)
    assert math.isnan(stats.sign_agreement(ma[2:3], sa[2:3], mb[2:3], sb[2:3])[0])
    assert math.isnan(stats.within_combined_se([], [], [], []))
    assert stats.rank_correlation([1, 2, 3, 4], [10, 30, 20, 40]) == pytest.approx(0.8)
    assert math.isnan(stats.rank_correlation([1, 2], [2, 1]))
    with pytest.raises(ValueError, match="one value per cell"):
        stats.sign_agreement(ma, sa, mb[:2], sb)
    with pytest.raises(ValueError, match="se_a and se_b"):
        stats.within_combined_se(ma, -sa, mb, sb)


def test_z_quantile_is_the_bonferroni_normal_quantile():
    assert stats.z_quantile(10) == sps.norm.ppf(1 - 1e-3 / 20)
    assert stats.z_quantile(4, sides=1, level=0.01) == sps.norm.ppf(1 - 0.01 / 4)
    assert stats.z_quantile(1, sides=1) == sps.norm.ppf(1 - 1e-3)
    with pytest.raises(ValueError, match="sides"):
        stats.z_quantile(3, sides=3)
    with pytest.raises(ValueError, match="comparisons"):
        stats.z_quantile(0)


def test_t_bound_reason_names_the_quantile_of_t_bound():
    assert stats.t_bound_reason(5) == f"one-sided Student-t bound over 5 seeds (t = {sps.t.ppf(0.99, 4):.2f})."
    assert stats.t_bound_reason(5, ", paired").endswith("(t = 3.75), paired.")
    assert f"(t = {sps.t.ppf(0.9, 9):.2f})" in stats.t_bound_reason(10, confidence=0.9)
    with pytest.raises(ValueError, match="seeds"):
        stats.t_bound_reason(1)


def test_dkw_bound_holds_the_ks_distance_with_the_stated_probability():
    assert stats.dkw_bound(200, 0.05) == pytest.approx(math.sqrt(math.log(40) / 400))
    # at level 0.2 the KS distance of n uniform samples exceeds the bound in at most 20% of draws (Massart's
    # constant is sharp: about 20%), up to 3 standard errors of the 2000-draw frequency
    rng = np.random.default_rng(3)
    bound = stats.dkw_bound(100, 0.2)
    exceed = np.mean([stats.ks_distance(rng.random(100), lambda u: u) > bound for _ in range(2000)])
    assert 0.1 < exceed <= 0.2 + 3 * math.sqrt(0.2 * 0.8 / 2000)
    with pytest.raises(ValueError, match="level"):
        stats.dkw_bound(10, 0.0)
    with pytest.raises(ValueError, match="^n must"):
        stats.dkw_bound(0)


def test_weighted_mean_z_is_the_inverse_variance_weighted_mean_over_its_se():
    m, se = np.array([[0.5, -0.2], [0.1, 0.3]]), np.array([[0.1, 0.2], [0.4, 0.1]])
    w = 1 / se.ravel() ** 2
    mean, mean_se_ = np.average(m.ravel(), weights=w), 1 / np.sqrt(w.sum())
    assert stats.weighted_mean_z(m, se) == pytest.approx(mean / mean_se_)
    assert stats.weighted_mean_z([2.0], [0.5]) == pytest.approx(4.0)  # one estimate: its own z
    with pytest.raises(ValueError, match="^se must"):
        stats.weighted_mean_z([1.0, 2.0], [0.1, 0.0])
    with pytest.raises(ValueError, match="one value each"):
        stats.weighted_mean_z([1.0, 2.0], [0.1])


def test_weighted_slope_z_is_the_weighted_least_squares_slope_over_its_se():
    rng = np.random.default_rng(4)
    x = np.arange(6.0)
    se = np.array([0.1, 0.2, 0.1, 0.3, 0.2, 0.1])
    y = 1.0 + 0.05 * x + se * rng.normal(size=6)
    # the same fit by numpy: polyfit with weights 1/se and cov="unscaled" gives the covariance (A^T W A)^-1
    (slope, _), cov = np.polyfit(x, y, 1, w=1 / se, cov="unscaled")
    assert stats.weighted_slope_z(x, y, se) == pytest.approx(slope / math.sqrt(cov[0, 0]))
    # two points: the slope through them over its standard error from the two se
    assert stats.weighted_slope_z([0.0, 2.0], [1.0, 2.0], [0.3, 0.4]) == pytest.approx(0.5 / (0.5 / 2))
    with pytest.raises(ValueError, match="^x must"):
        stats.weighted_slope_z([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], [0.1, 0.1, 0.1])
    with pytest.raises(ValueError, match="^y must"):
        stats.weighted_slope_z(x, np.full(6, np.nan), se)


def test_spearman_critical_is_the_t_approximation_of_the_one_sided_test():
    t = sps.t.ppf(0.99, 18)
    assert stats.spearman_critical(20) == pytest.approx(t / math.sqrt(18 + t**2))
    # under independence, rho exceeds it in about 1% of draws
    rng = np.random.default_rng(5)
    rho = [stats.rank_correlation(rng.random(20), rng.random(20)) for _ in range(4000)]
    assert np.mean(np.array(rho) > stats.spearman_critical(20)) == pytest.approx(0.01, abs=0.006)
    with pytest.raises(ValueError, match="^n must"):
        stats.spearman_critical(2)


def test_thresholds_seeds_and_options_refuse_what_is_not_meant():
    """No silent outcome: a NaN or negative z, a zero spread, an OS-entropy seed, True as an option."""
    paired = ([1.0, -2.0], [0.1, 0.2], [1.1, -2.1], [0.1, 0.2])
    for z in (np.nan, -1.0, 0.0, np.inf, True):
        with pytest.raises(ValueError, match=r"^z must be a finite number > 0"):
            stats.sign_agreement(*paired, z=z)
        with pytest.raises(ValueError, match=r"^z must be a finite number > 0"):
            stats.within_combined_se(*paired, z=z)
    with pytest.raises(ValueError, match=r"^x has a zero standard error along axis -1"):
        stats.z_score(np.ones((2, 5)))
    sizes, samples = [10.0, 20.0], [[1.0, 1.2, 0.9], [0.5, 0.6, 0.4]]
    for rng in (True, 1.5, -1, "x"):
        with pytest.raises(ValueError, match=r"^rng must be an integer >= 0"):
            stats.fitted_exponent(sizes, samples, rng=rng)
    assert stats.fitted_exponent(sizes, samples, rng=3) == stats.fitted_exponent(sizes, samples, rng=3)
    for sides in (True, 2.0):
        with pytest.raises(ValueError, match=r"^sides must be one of \(1, 2\)"):
            stats.z_quantile(10, sides=sides)
    with pytest.raises(ValueError, match=r"^axis must be an integer in \[-2, 2\)"):
        stats.mean_se(np.ones((2, 5)), axis=2)
    with pytest.raises(ValueError, match=r"^cdf must map the 3 sorted samples"):
        stats.ks_distance([0.1, 0.2, 0.3], lambda x: x[:2])


def test_mean_and_margin_is_the_bonferroni_t_margin_and_refuses_to_pass_an_unread_bound():
    x = np.array([0.1, -0.3, 0.2, 0.05, -0.1])
    m, margin = stats.mean_and_margin(x, "upper", comparisons=3)
    assert m == pytest.approx(x.mean())
    assert margin == pytest.approx(stats.t_margin(x, 1 - 0.01 / 3))
    assert stats.mean_and_margin(np.append(x, np.inf), "upper") == (np.inf, 0.0)
    assert stats.mean_and_margin(np.append(x, -np.inf), "lower") == (-np.inf, 0.0)
    with pytest.raises(ValueError, match="values"):
        stats.mean_and_margin([0.1, np.nan], "upper")


def test_difference_and_margin_is_welchs_bonferroni_t_margin_and_refuses_to_pass_an_unread_bound():
    from scipy import stats as sps

    a, b = np.array([-0.6, -0.4, -0.7, -0.5, -0.55]), np.array([-0.1, -0.05, -0.2, -0.12])
    d, margin = stats.difference_and_margin(a, b, "upper", comparisons=2)
    assert d == pytest.approx(a.mean() - b.mean())
    welch = sps.ttest_ind(a, b, equal_var=False)  # the same standard error and degrees of freedom
    se = abs(a.mean() - b.mean()) / abs(welch.statistic)
    assert margin == pytest.approx(sps.t.ppf(1 - 0.01 / 2, welch.df) * se)
    # stricter than its level no more: below the sum of the two means' own margins
    assert margin < stats.mean_and_margin(a, "upper", 2)[1] + stats.mean_and_margin(b, "lower", 2)[1]
    assert stats.difference_and_margin(np.append(a, np.inf), b, "upper") == (np.inf, 0.0)
    assert stats.difference_and_margin(a, np.append(b, -np.inf), "upper") == (np.inf, 0.0)
    assert stats.difference_and_margin(a, np.append(b, np.inf), "lower") == (-np.inf, 0.0)
    assert stats.difference_and_margin([1.0, 1.0], [0.0, 0.0], "upper") == (1.0, 0.0)
    with pytest.raises(ValueError, match="^b must hold at least 2"):
        stats.difference_and_margin(a, [0.1], "upper")
    with pytest.raises(ValueError, match="^a"):
        stats.difference_and_margin([0.1, np.nan], b, "upper")


@pytest.mark.parametrize("n", [7, 10])
def test_median_range_holds_the_median_of_n_draws_with_the_stated_probability(n):
    # a skewed reference with a far tail (as the optimal times of data sets without a dip): resampling it
    # is exactly its empirical distribution, so each side may hold at most level / 2 (up to Monte Carlo error)
    rng = np.random.default_rng(4)
    reference = np.concatenate([rng.normal(20.0, 0.3, 97), rng.uniform(50.0, 90.0, 3)])
    lo, hi = order_statistics.median_range(reference, n, level=0.02, comparisons=2)
    medians = np.median(rng.choice(reference, (200_000, n)), axis=1)
    assert np.mean(medians < lo) <= 0.005 + 0.001 and np.mean(medians > hi) <= 0.005 + 0.001
    assert 19.0 < lo < 20.0 < hi < 21.0  # the tail does not reach the median's range
    if n % 2 == 0:
        return  # an even n's median is the mean of two draws: the bound is conservative, not tight
    # for an odd n the range is the tightest: one reference value further in leaves too much outside
    inner = np.sort(reference)
    assert np.mean(medians < inner[inner > lo][0]) > 0.005 or np.mean(medians > inner[inner < hi][-1]) > 0.005


def test_median_range_refuses_a_reference_too_small_for_its_tail():
    with pytest.raises(ValueError, match="reference must hold enough values"):
        order_statistics.median_range(np.arange(10.0), 10, level=1e-2, comparisons=16)


def test_median_range_does_not_take_tied_extremes_for_a_resolved_tail():
    # every copy of the smallest and largest value passes its tail trivially (F = 0 or 1): still unresolved
    tied = np.r_[np.zeros(5), np.arange(1.0, 5.0), np.full(5, 9.0)]
    with pytest.raises(ValueError, match="reference must hold enough values"):
        order_statistics.median_range(tied, 10, level=1e-2, comparisons=16)
