"""gendyn.rmt against closed-form facts and Monte Carlo SVDs."""

import numpy as np
import pytest
from scipy import integrate

from gendyn import rmt


def noisy_rank1(sbar, n1, aspect, rng):
    """One draw of Sigma31 = sbar u v^T + Z, Z_ij ~ N(0, 1/n1), and its teacher vectors."""
    n3 = int(round(aspect * n1))
    u = rng.standard_normal(n3)
    v = rng.standard_normal(n1)
    u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
    return sbar * np.outer(u, v) + rng.standard_normal((n3, n1)) / np.sqrt(n1), u, v


@pytest.mark.parametrize("aspect", [1.0, 0.75, 0.5, 0.25, 0.01])
def test_mp_density_normalised_with_mean_square_one_plus_nothing(aspect):
    lo, hi = rmt.mp_edges(aspect)
    mass = integrate.quad(rmt.mp_density, lo, hi, args=(aspect,), limit=200)[0]
    # E[s^2] = (1/N3) Tr Z Z^T = 1 for entries of variance 1/N1 (N1 columns)
    second = integrate.quad(lambda s: s**2 * rmt.mp_density(s, aspect), lo, hi, limit=200)[0]
    assert mass == pytest.approx(1.0, abs=1e-8)
    assert second == pytest.approx(1.0, abs=1e-8)


def test_mp_density_zero_outside_and_finite_at_square_case():
    assert np.all(rmt.mp_density([-1.0, 0.0, 0.2, 1.8, 3.0], 0.5)[[0, 1, 2, 4]] == 0)
    dens = rmt.mp_density([1e-12, 1e-6], 1.0)  # A = 1: density tends to 1/pi * 2 at s -> 0
    assert np.all(np.isfinite(dens)) and dens[0] == pytest.approx(2 / np.pi, rel=1e-6)


def test_mp_density_matches_monte_carlo_histogram():
    rng = np.random.default_rng(0)
    aspect, n1 = 0.5, 2000
    s = np.linalg.svd(rng.standard_normal((1000, n1)) / np.sqrt(n1), compute_uv=False)
    counts, edges = np.histogram(s, bins=20, range=rmt.mp_edges(aspect))
    centres = 0.5 * (edges[1:] + edges[:-1])
    expected = rmt.mp_density(centres, aspect) * np.diff(edges) * s.size
    # interior bins only (edge bins have the square-root singularity of the bin average)
    assert np.allclose(counts[2:-2], expected[2:-2], rtol=0.1)


def test_mp_cdf_and_quantile_are_inverse():
    q = np.linspace(0.01, 0.99, 9)
    assert np.allclose(rmt.mp_cdf(rmt.mp_quantile(q, 0.3), 0.3), q, atol=1e-13)
    lo, hi = rmt.mp_edges(0.3)
    assert rmt.mp_cdf(lo - 1, 0.3) == 0 and rmt.mp_cdf(hi + 1, 0.3) == 1
    assert rmt.mp_cdf(-np.inf, 0.3) == 0 and rmt.mp_cdf(np.inf, 0.3) == 1
    assert rmt.mp_quantile(0.0, 0.3) == pytest.approx(lo) and rmt.mp_quantile(1.0, 0.3) == pytest.approx(hi)


@pytest.mark.parametrize("aspect", [1.0, 1 - 1e-12, 0.9, 0.5, 1e-3, 1e-9])
def test_mp_cdf_matches_direct_quadrature_of_the_density(aspect):
    lo, hi = rmt.mp_edges(aspect)
    s = lo + (hi - lo) * np.linspace(0.02, 0.98, 7)
    direct = [integrate.quad(rmt.mp_density, lo, x, args=(aspect,), epsabs=1e-13, limit=400)[0] for x in s]
    assert np.allclose(rmt.mp_cdf(s, aspect), direct, rtol=0, atol=1e-9)


@pytest.mark.parametrize("aspect", [1e-2, 1e-6, 1e-12, 1e-20, 1e-31, 1e-32, 1e-100, 5e-324])
def test_mp_cdf_concentrates_at_one_for_tiny_aspect(aspect):
    # s = 1 + sqrt(A) x has the semicircle law of x on [-1, 1] as A -> 0, G(x) =
    # 1/2 + (x sqrt(1 - x^2) + arcsin x)/pi, with the first correction F(1) = 1/2 + sqrt(A)/(3 pi)
    root = np.sqrt(aspect)
    assert rmt.mp_cdf(1.0, aspect) == pytest.approx(0.5 + root / (3 * np.pi), abs=aspect + 1e-15)
    if root < 1e-3:  # 1 -+ 1e-3 lie off the support
        assert rmt.mp_cdf(1.0 - 1e-3, aspect) == 0.0 and rmt.mp_cdf(1.0 + 1e-3, aspect) == 1.0
    assert rmt.mp_quantile(0.5, aspect) == pytest.approx(1.0, abs=root)
    if 1e-20 <= aspect <= 1e-12:  # s - 1 = sqrt(A) x still resolved by doubles near 1
        x = np.linspace(-0.9, 0.9, 7)
        semicircle = 0.5 + (x * np.sqrt(1 - x**2) + np.arcsin(x)) / np.pi
        assert np.allclose(rmt.mp_cdf(1.0 + root * x, aspect), semicircle, atol=1e-5)


@pytest.mark.parametrize("sbar", [1.5, 2.5, 4.0])
def test_spike_value_and_overlap_match_monte_carlo(sbar):
    rng = np.random.default_rng(1)
    aspect, n1, reps = 0.5, 1000, 4
    shat, overlap = [], []
    for _ in range(reps):
        sigma31, u, v = noisy_rank1(sbar, n1, aspect, rng)
        U, S, Vt = np.linalg.svd(sigma31, full_matrices=False)
        shat.append(S[0])
        overlap.append(abs(U[:, 0] @ u) * abs(Vt[0] @ v))
    # fluctuations are O(N^-1/2) ~ 0.03 per draw: 4 draws, tolerance ~ 4 standard errors
    assert np.mean(shat) == pytest.approx(rmt.spike_singular_value(sbar, aspect), abs=0.05)
    assert np.mean(overlap) == pytest.approx(rmt.spike_overlap(sbar, aspect), abs=0.05)


def test_below_threshold_is_the_edge_with_no_overlap():
    aspect = 0.5
    sbar = np.array([0.0, 0.3, rmt.detection_threshold(aspect)])
    assert np.allclose(rmt.spike_singular_value(sbar, aspect), 1 + np.sqrt(aspect))
    assert np.all(rmt.spike_overlap(sbar, aspect) == 0)


def test_transition_is_continuous_and_large_sbar_limits():
    aspect = 0.75
    th = rmt.detection_threshold(aspect)
    assert rmt.spike_singular_value(th * (1 + 1e-9), aspect) == pytest.approx(1 + np.sqrt(aspect), rel=1e-6)
    assert rmt.spike_overlap(th * (1 + 1e-9), aspect) == pytest.approx(0, abs=1e-6)
    big = np.array([1e3, 1e100, 1e300])
    assert np.allclose(rmt.spike_singular_value(big, aspect) / big, 1.0)
    assert np.allclose(rmt.spike_overlap(big, aspect), 1.0)
    assert np.all(np.isfinite(rmt.spike_singular_value(big, aspect)))


def test_overlap_equals_the_papers_product_form():
    aspect, s = 0.6, np.linspace(0.9, 5, 50)
    paper = np.sqrt(1 - aspect * (1 + s**2) / (s**2 * (aspect + s**2))) * np.sqrt(
        1 - (aspect + s**2) / (s**2 * (1 + s**2)))
    assert np.allclose(rmt.spike_overlap(s, aspect), paper)


def test_spike_teacher_value_inverts_eq_11():
    aspect, s = 0.4, np.linspace(0.9, 20, 40)
    assert np.allclose(rmt.spike_teacher_value(rmt.spike_singular_value(s, aspect), aspect), s)
    assert rmt.spike_teacher_value(1.0, aspect) == pytest.approx(aspect**0.25)


def test_functions_broadcast():
    out = rmt.spike_singular_value(np.ones((3, 1)) * 2, np.array([0.25, 0.5, 1.0]))
    assert out.shape == (3, 3)


@pytest.mark.parametrize("bad", [0.0, -0.5, 1.5, np.nan])
def test_bad_aspect_raises_with_value(bad):
    for fn in (rmt.mp_density, rmt.spike_singular_value, rmt.spike_overlap):
        with pytest.raises(ValueError, match=r"aspect ratio .* \(0, 1\]"):
            fn(1.0, bad)


def test_negative_singular_value_raises():
    with pytest.raises(ValueError, match=r"sbar \(teacher singular values\) must be real numbers in \[0, inf\); got -1.0"):
        rmt.spike_overlap(-1.0, 0.5)


def test_spike_vector_overlaps_split_eq12_and_match_sampled_vectors():
    """L R = O^2 (eq. 12), zero below threshold, and the right overlap matches sampled data."""
    sbar = np.array([0.5, 1.2, 2.0, 5.0])
    left, right = rmt.spike_vector_overlaps(sbar, 0.5)
    np.testing.assert_allclose(np.sqrt(left * right), rmt.spike_overlap(sbar, 0.5), rtol=1e-14)
    assert left[0] == right[0] == 0.0
    rng = np.random.default_rng(0)
    n1, n3, s = 800, 400, 2.0
    measured = []
    for _ in range(20):
        u, v = rng.standard_normal(n3), rng.standard_normal(n1)
        u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
        data = s * np.outer(u, v) + rng.standard_normal((n3, n1)) / np.sqrt(n1)
        uh, _, vh = np.linalg.svd(data)
        measured.append(((uh[:, 0] @ u) ** 2, (vh[0] @ v) ** 2))
    expected = rmt.spike_vector_overlaps(s, n3 / n1)
    np.testing.assert_allclose(np.mean(measured, axis=0), np.ravel(expected), atol=0.02)


def test_tracy_widom_scale_matches_the_top_noise_singular_value():
    # sigma_N = (1/2) (1 + A^(-1/2))^(1/3) N1^(-2/3), written out for A = 1/4, N1 = 1000
    assert rmt.tracy_widom_scale(0.25, 1000) == pytest.approx(0.5 * 3 ** (1 / 3) / 100)
    # the top singular value of Gaussian noise: mean and spread on that scale (TW1: -1.21, 1.27)
    rng = np.random.default_rng(0)
    n1, aspect, draws = 200, 0.5, 400
    n3 = int(aspect * n1)
    top = np.array([np.linalg.norm(rng.normal(size=(n3, n1)) / np.sqrt(n1), 2) for _ in range(draws)])
    sigma = rmt.tracy_widom_scale(aspect, n1)
    chi = (top - (1 + np.sqrt(aspect))) / sigma
    assert chi.mean() == pytest.approx(rmt.TW1_MEAN, abs=0.3)  # finite N1 shifts the mean by O(N1^-1/3)
    assert chi.std() == pytest.approx(rmt.TW1_SD, rel=0.2)
    with pytest.raises(ValueError, match="aspect"):
        rmt.tracy_widom_scale(2.0, 100)
    with pytest.raises(ValueError, match="n1"):
        rmt.tracy_widom_scale(0.5, 0)


# ----------------------------------------------------------------------------------------
# the MP law in the angle, its quadrature rule, and the Tracy-Widom edges of the eigenvalues
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("aspect", [1.0, 0.9, 0.5, 1e-3])
def test_singular_value_measure_is_the_density_times_the_jacobian(aspect):
    theta = np.linspace(0.05, np.pi - 0.05, 11)
    s, weight = rmt.mp_singular_value_measure(theta, aspect)
    assert np.allclose(s, 1 - np.sqrt(aspect) * np.cos(theta), rtol=0, atol=1e-15)
    jacobian = np.sqrt(aspect) * np.sin(theta)  # ds/dtheta
    assert np.allclose(weight, rmt.mp_density(s, aspect) * jacobian, rtol=1e-12)


@pytest.mark.parametrize("alpha", [0.3, 1.0, 2.5])
def test_eigenvalue_measure_is_the_continuous_law_times_the_jacobian(alpha):
    from gendyn import linear_student as ls

    theta = np.linspace(0.05, np.pi - 0.05, 11)
    lam, weight = rmt.mp_eigenvalue_measure(theta, alpha)
    assert np.allclose(lam, 1 + alpha - 2 * np.sqrt(alpha) * np.cos(theta), rtol=1e-13)
    jacobian = 2 * np.sqrt(alpha) * np.sin(theta)  # dlam/dtheta
    assert np.allclose(weight, ls.mp_eigenvalue_density(lam, alpha) * jacobian, rtol=1e-12)


@pytest.mark.parametrize("aspect", [1.0, 1 - 1e-9, 0.5, 1e-6])
def test_mp_rule_integrates_the_singular_value_law(aspect):
    # mass 1 and E s^2 = 1 (entries of variance 1/N1) over the whole support, on any panels
    breaks = np.unique(np.concatenate([np.linspace(0, np.pi, 17), np.pi / 16 * 2.0 ** -np.arange(1, 30)]))
    s, w = rmt.mp_rule(breaks, aspect=aspect)
    assert w.sum() == pytest.approx(1.0, abs=1e-13) and (w * s**2).sum() == pytest.approx(1.0, abs=1e-13)
    # a part of the support holds the mass mp_cdf gives it
    theta = np.pi / 3
    edge = float(rmt.mp_singular_value_measure(theta, aspect)[0])
    _, w_part = rmt.mp_rule(np.unique(np.concatenate([np.linspace(0, theta, 9), theta * 2.0 ** -np.arange(1, 30)])),
                            aspect=aspect)
    assert w_part.sum() == pytest.approx(rmt.mp_cdf(edge, aspect), abs=1e-12)


@pytest.mark.parametrize("alpha", [0.2, 1.0, 4.0])
def test_mp_rule_integrates_the_eigenvalue_law_in_theta_and_log_theta(alpha):
    # continuous part: mass min(1, alpha), mean eigenvalue alpha (the point mass sits at 0)
    lam, w = rmt.mp_rule(np.linspace(0, np.pi, 33), alpha=alpha, order=12)
    assert w.sum() == pytest.approx(min(1.0, alpha), rel=1e-13) and (w * lam).sum() == pytest.approx(alpha, rel=1e-13)
    # log panels on [1e-8, pi] plus the tiny rest [0, 1e-8]
    lam_log, w_log = rmt.mp_rule(np.linspace(np.log(1e-8), np.log(np.pi), 41), alpha=alpha, order=12, log=True)
    _, w_rest = rmt.mp_rule([0.0, 1e-8], alpha=alpha, order=12)
    assert w_log.sum() + w_rest.sum() == pytest.approx(min(1.0, alpha), rel=1e-13)
    assert np.all(lam_log >= 0) and lam_log.shape == w_log.shape == (40 * 12,)


def test_mp_rule_batches_rules_and_refuses_bad_panels():
    breaks = np.stack([np.linspace(0, np.pi, 9), np.linspace(0, np.pi / 2, 9)])
    s, w = rmt.mp_rule(breaks, aspect=np.array([0.5, 0.25]), order=8)
    assert s.shape == w.shape == (2, 64)
    assert w[0].sum() == pytest.approx(1.0, abs=1e-13)
    half = rmt.mp_singular_value_measure(np.pi / 2, 0.25)[0]
    assert w[1].sum() == pytest.approx(rmt.mp_cdf(half, 0.25), abs=1e-12)
    with pytest.raises(ValueError, match="exactly one of aspect"):
        rmt.mp_rule([0.0, 1.0])
    with pytest.raises(ValueError, match="exactly one of aspect"):
        rmt.mp_rule([0.0, 1.0], aspect=0.5, alpha=0.5)
    with pytest.raises(ValueError, match="breaks must be ascending"):
        rmt.mp_rule([1.0, 0.5], aspect=0.5)
    with pytest.raises(ValueError, match="breaks must be real numbers in"):
        rmt.mp_rule([0.0, 4.0], aspect=0.5)
    with pytest.raises(ValueError, match=r"aspect must be one value or one per rule"):
        rmt.mp_rule(breaks, aspect=[0.5, 0.25, 0.1])


def test_mp_rule_serves_the_old_quadratures_unchanged():
    """The rules of rmt.mp_cdf, deep_linear and linear_student are mp_rule's: the values their
    own quadratures gave before the merge, to the last digit (recorded at commit 59d1f40)."""
    from gendyn import deep_linear as dl
    from gendyn import linear_student as ls

    assert rmt.mp_cdf(0.9, 0.5) == 0.49015041926722247
    train, test = dl.theory_errors([1.0, 30.0], [3.0], dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-3))
    assert train.tolist() == [0.9288686665182562, 7.0936540069770184e-15]
    assert test.tolist() == [0.6970864021227235, 5.629629588675132]
    assert ls.generalization_error(3.0, 0.7, 4.0, 0.5).item() == 0.9817000171905427


@pytest.mark.parametrize("alpha", [0.25, 0.5, 2.0, 4.0])
def test_tracy_widom_edges_scale_as_n_to_minus_two_thirds(alpha):
    for f in (rmt.tracy_widom_lower_scale, rmt.tracy_widom_upper_scale):
        assert f(alpha, 800) / f(alpha, 100) == pytest.approx(8.0 ** (-2 / 3), rel=1e-14)
    # the upper edge carried to singular values s = sqrt(lam) is tracy_widom_scale (alpha = A <= 1)
    if alpha <= 1:
        carried = rmt.tracy_widom_upper_scale(alpha, 100) / (2 * (1 + np.sqrt(alpha)))
        assert carried == pytest.approx(rmt.tracy_widom_scale(alpha, 100), rel=1e-14)
    # the lower edge closes (a hard edge) at alpha = 1 and is wider on the far side of it
    assert rmt.tracy_widom_lower_scale(1.0, 100) == 0
    assert np.all(np.diff(rmt.tracy_widom_lower_scale([0.1, 0.3, 0.6], 100)) < 0)


def test_tracy_widom_edges_match_monte_carlo_wishart_extremes():
    """Mean extreme eigenvalues of X X^T (N x P, entries N(0, 1/N)) sit at edge -/+ TW1_MEAN sigma_N."""
    rng = np.random.default_rng(3)
    n, p, draws = 100, 400, 200
    ev = np.linalg.eigvalsh([x @ x.T for x in rng.standard_normal((draws, n, p)) / np.sqrt(n)])
    alpha = p / n
    low, high = ev[:, 0], ev[:, -1]
    lo_scale, hi_scale = rmt.tracy_widom_lower_scale(alpha, n), rmt.tracy_widom_upper_scale(alpha, n)
    # 4 standard errors of the mean plus the O(N^-1) next-order shift of the edges
    assert abs(low.mean() - ((1 - np.sqrt(alpha)) ** 2 - rmt.TW1_MEAN * lo_scale)) < \
        4 * low.std() / np.sqrt(draws) + 1.0 / n
    assert abs(high.mean() - ((1 + np.sqrt(alpha)) ** 2 + rmt.TW1_MEAN * hi_scale)) < \
        4 * high.std() / np.sqrt(draws) + 1.0 / n
    # and fluctuate on those scales (TW1 sd 1.27), within 25 %
    assert low.std() / lo_scale == pytest.approx(rmt.TW1_SD, rel=0.25)
    assert high.std() / hi_scale == pytest.approx(rmt.TW1_SD, rel=0.25)


def test_near_detection_threshold_is_the_n1_to_the_minus_third_window():
    aspect, n1 = 0.5, 100
    threshold, window = 0.5 ** 0.25, 100 ** (-1 / 3)
    assert rmt.near_detection_threshold([0.84], n1, aspect)  # the paper's svm = 0.84 by design
    assert not rmt.near_detection_threshold([threshold + 1.01 * window], n1, aspect)
    assert rmt.near_detection_threshold([6.0, threshold - 0.99 * window], n1, aspect)  # any mode
    assert not rmt.near_detection_threshold([6.0, 4.0, 2.0], n1, aspect)
    assert rmt.near_detection_threshold([threshold + 1.01 * window], 10 * n1, aspect) is False
    with pytest.raises(ValueError, match=r"^sbar"):
        rmt.near_detection_threshold([], n1, aspect)
    with pytest.raises(ValueError, match=r"aspect"):
        rmt.near_detection_threshold([1.0], n1, 2.0)
