"""gendyn.shrinkage: the optimal shrinker, the estimator on sampled data, and eq. (16)."""

import numpy as np
import pytest
import torch

from gendyn import deep_linear as dl
from gendyn import rmt, seeding, shrinkage, teachers, train


def spiked(sbar, n1, n3, rng, batch=()):
    """``Wbar + Z`` for rank-len(sbar) teachers with Haar vectors, noise variance 1/n1."""
    sbar = np.asarray(sbar, dtype=float)
    u = np.linalg.qr(rng.standard_normal((*batch, n3, sbar.size)))[0]
    v = np.linalg.qr(rng.standard_normal((*batch, n1, sbar.size)))[0]
    w = (u * sbar) @ np.swapaxes(v, -1, -2)
    return w, w + rng.standard_normal((*batch, n3, n1)) / np.sqrt(n1)


@pytest.mark.parametrize("aspect", [0.25, 0.5, 1.0])
def test_shrinker_is_sbar_times_overlap_of_inverted_eq11(aspect):
    sbar = np.linspace(1.05, 12.0, 50) * aspect**0.25
    shat = rmt.spike_singular_value(sbar, aspect)
    expected = sbar * rmt.spike_overlap(sbar, aspect)
    assert np.allclose(shrinkage.optimal_shrinker(shat, aspect), expected, rtol=1e-10, atol=1e-12)
    # at or below the MP edge nothing is kept; continuous at the edge
    edge = 1 + np.sqrt(aspect)
    assert np.all(shrinkage.optimal_shrinker(np.linspace(0, edge, 20), aspect) == 0)
    assert shrinkage.optimal_shrinker(edge * (1 + 1e-12), aspect) < 1e-4
    # shrinks, and shat - eta -> (1 + A)/shat for large shat
    big = np.array([50.0, 500.0])
    eta = shrinkage.optimal_shrinker(big, aspect)
    assert np.all(eta < big)
    assert np.allclose((big - eta) * big, 1 + aspect, rtol=2e-3)


def test_estimator_reaches_eq16_at_large_n_and_beats_keeping_the_data():
    rng = np.random.default_rng(0)
    n1, n3 = 800, 400
    sbar = np.array([4.0, 2.5, 1.5])
    w, s31 = spiked(sbar, n1, n3, rng, batch=(2,))
    res = shrinkage.shrinkage_estimator(s31, full_output=True)
    err = ((res.matrix - w) ** 2).sum((-2, -1)) / (sbar**2).sum()
    theory = shrinkage.nongradient_optimal_error(sbar, n3 / n1)
    assert abs(err.mean() - theory) < 0.02
    assert np.all(res.rank == 3)
    # keeping the three outliers unshrunk (the best early stopping can do mode by mode) is worse:
    # its error exceeds the shrunk one by sum_a (shat_a - eta_a)^2 / sum sbar^2 to leading order
    gap = ((res.data_svals[:, :3] - res.svals[:, :3]) ** 2).sum(-1) / (sbar**2).sum()
    assert np.all(gap > 0.05)


def test_estimator_full_output_batch_transpose_and_noise_level():
    rng = np.random.default_rng(1)
    w, s31 = spiked([3.0], 300, 150, rng, batch=(2,))
    res = shrinkage.shrinkage_estimator(s31, full_output=True)
    assert res.matrix.shape == s31.shape and res.aspect == 0.5
    assert np.all(res.rank >= 1) and np.all(res.rank <= 3)
    assert np.allclose(res.teacher_svals[:, 0], 3.0, atol=0.3)
    assert np.allclose(res.svals[:, 0], 3.0 * rmt.spike_overlap(3.0, 0.5), atol=0.3)
    assert np.all(res.svals[:, res.rank.max():] == 0)
    # a transposed matrix with 2x the noise, noise level estimated from the median
    res2 = shrinkage.shrinkage_estimator(2.0 * np.swapaxes(s31, -1, -2), noise_std="estimate", full_output=True)
    # transposed: noise variance 4/300 per entry = sigma^2/150 with sigma^2 = 2
    assert np.allclose(res2.noise_std, np.sqrt(2.0), rtol=0.05)
    assert np.allclose(res2.matrix / 2.0, np.swapaxes(res.matrix, -1, -2), atol=0.05)
    # known noise level: scaling the data and noise_std together scales the estimate
    res3 = shrinkage.shrinkage_estimator(5.0 * s31, noise_std=5.0)
    assert np.allclose(res3, 5.0 * res.matrix, atol=1e-10)


def test_pure_noise_is_mostly_dropped():
    rng = np.random.default_rng(2)
    z = rng.standard_normal((4, 100, 200)) / np.sqrt(200)
    est = shrinkage.shrinkage_estimator(z)
    # false detections are shrunk to O(N^-1/3): tiny squared norm compared to ||Z||^2 ~ 100
    assert np.mean((est**2).sum((-2, -1))) < 0.05


def test_eq16_values_and_limits():
    a = 0.5
    assert shrinkage.nongradient_optimal_error([0.5], a) == 1.0  # below threshold
    s = 3.0
    assert np.isclose(shrinkage.nongradient_optimal_error(s, a), 1 - rmt.spike_overlap(s, a) ** 2)
    sb = np.array([6.0, 4.0, 2.0])
    o = rmt.spike_overlap(sb, a)
    assert np.isclose(shrinkage.nongradient_optimal_error(sb, a), (sb**2 * (1 - o**2)).sum() / (sb**2).sum())
    batch = shrinkage.nongradient_optimal_error([[6.0, 4.0, 2.0], [0.3, 0.2, 0.0]], [a, 1.0])
    assert batch.shape == (2,) and batch[1] == 1.0
    assert shrinkage.nongradient_optimal_error([1e200], a) < 1e-100  # no overflow
    big = shrinkage.nongradient_optimal_error([1e3], a)
    assert np.isclose(big, (1 + a) / 1e6, rtol=1e-3)  # 1 - O^2 ~ (1 + A)/sbar^2


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: shrinkage.optimal_shrinker(-1.0, 0.5), r"shat \(data singular values\) must be real numbers in \[0, inf\); got -1\.0"),
        (lambda: shrinkage.optimal_shrinker(2.0, 1.5), r"aspect ratio .* \(0, 1\].*1\.5"),
        (lambda: shrinkage.shrinkage_estimator(np.ones(5)), r"shape \(\.\.\., N3, N1\)"),
        (lambda: shrinkage.shrinkage_estimator(np.full((3, 4), np.nan)), r"sigma31 must be real numbers in \(-inf, inf\) \(finite\)"),
        (lambda: shrinkage.shrinkage_estimator(np.eye(4), noise_std=0.0), r"noise_std must be a finite number > 0"),
        (lambda: shrinkage.shrinkage_estimator(np.eye(4), noise_std="guess"), r"'estimate'"),
        (lambda: shrinkage.shrinkage_estimator(np.eye(4), aspect=2.0), r"\(0, 1\]"),
        (lambda: shrinkage.shrinkage_estimator(np.zeros((4, 6)), noise_std="estimate"), r"cannot estimate"),
        (lambda: shrinkage.nongradient_optimal_error([0.0, 0.0], 0.5), r"all zero"),
        (lambda: shrinkage.nongradient_optimal_error([np.inf], 0.5), r"teacher_svals must be real numbers in \[0, inf\); got \[inf\]"),
        (lambda: shrinkage.nongradient_optimal_error([1.0], 0.0), r"\(0, 1\]"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_estimation_excess_is_the_gap_to_the_oracle_on_the_same_modes():
    rng = np.random.default_rng(3)
    w, s31 = spiked([3.0, 1.5], 200, 100, rng, batch=(1,))
    res = shrinkage.shrinkage_estimator(s31, full_output=True)
    u, _, vh = np.linalg.svd(s31, full_matrices=False)
    c = np.einsum("...ia,...ij,...aj->...a", u, w, vh)
    kept = res.svals > 0
    oracle = (u * np.where(kept, c, 0.0)[..., None, :]) @ vh
    norm = (w**2).sum((-2, -1))
    gap = (((res.matrix - w) ** 2).sum((-2, -1)) - ((oracle - w) ** 2).sum((-2, -1))) / norm
    assert np.allclose(shrinkage.estimation_excess(s31, w), gap, atol=1e-12)
    with pytest.raises(ValueError, match="shape of sigma31"):
        shrinkage.estimation_excess(s31, w[0])
    with pytest.raises(ValueError, match="teacher is zero"):
        shrinkage.estimation_excess(s31, np.zeros_like(w))


def test_flags_and_teacher_are_checked_by_name():
    with pytest.raises(ValueError, match=r"^full_output must be True or False; got 1"):
        shrinkage.shrinkage_estimator(np.eye(4), full_output=1)
    with pytest.raises(ValueError, match=r"^teacher must be real numbers"):
        shrinkage.estimation_excess(np.eye(4), "x")
    with pytest.raises(ValueError, match=r"^aspect must be a real number in \(0, 1\] or None; got True"):
        shrinkage.shrinkage_estimator(np.eye(4), aspect=True)


@pytest.mark.parametrize("profile", [(1.0,), (3.0, 2.0, 1.0)])
def test_eq16_never_exceeds_the_optimum_of_eq15(profile):
    """Eq. (16) <= min_t eq. (15) (App. E): the noise term of (15) is non-negative and (16) minimises each
    mode's term separately; 1e-9 covers the numerical minimisation over t (formerly a claim of the chapter
    ``non-gradient-algorithm``, an identity of the two formulas, not of an experiment)."""
    from gendyn import deep_linear

    for svm in np.geomspace(0.5, 10.0, 12):
        sbar = svm * np.array(profile)
        gradient = deep_linear.optimal_early_stopping(sbar, dl.TaStudent(n1=100, n2=50, n3=50, eps=1e-5))[1]
        assert shrinkage.nongradient_optimal_error(sbar, 0.5) <= gradient + 1e-9, svm


# ----------------------------------------------------------------------------------------
# the chapter's theory and experiments: optimal_errors, compare_algorithms, sampled_shrinkage
# ----------------------------------------------------------------------------------------

def test_optimal_errors_are_min_eq15_and_eq16():
    sb = np.array([[4.0, 0.0], [6.0, 2.0]])
    out = shrinkage.optimal_errors(sb, 40, 20, 20, 1e-5)
    assert out.gradient.shape == out.nongradient.shape == (2,)
    for k, row in enumerate(sb):
        assert out.gradient[k] == dl.optimal_early_stopping(row, dl.TaStudent(n1=40, n2=20, n3=20, eps=1e-5))[1]
        assert out.nongradient[k] == shrinkage.nongradient_optimal_error(row, 0.5)
    assert np.all(out.nongradient <= out.gradient + 1e-12)  # the non-gradient student is never worse
    with pytest.raises(ValueError, match="teacher_svals"):
        shrinkage.optimal_errors([2.0, 1.0], 40, 20, 20, 1e-5)


def test_compare_algorithms_trains_ta_and_random_students_on_the_estimators_data():
    torch.set_num_threads(1)
    spec = train.FullBatchSpec(n1=16, n2=8, n3=8, lr=0.05, horizon=5.0, n_records=20)
    sb = np.array([[4.0, 0.0], [3.0, 2.0]])
    out = shrinkage.compare_algorithms(sb, 3, spec, rng=torch.Generator().manual_seed(2), desc=None)
    assert out.gd_opt.shape == (2, 2, 3) and out.shrink_err.shape == out.excess.shape == (2, 3)
    t_rng, d_rng = seeding.streams(torch.Generator().manual_seed(2), "teacher", "data")  # the same draws by hand
    teacher = teachers.low_rank_teacher(torch.tensor(np.repeat(sb, 3, axis=0)), 16, 8, rng=t_rng)
    sigma31 = teachers.noisy_training_covariance(teacher, rng=d_rng).numpy()
    w = teacher.matrix.numpy()
    assert np.allclose(out.shrink_err.ravel(), dl.linear_test_error(shrinkage.shrinkage_estimator(sigma31), w))
    assert np.allclose(out.excess.ravel(), shrinkage.estimation_excess(sigma31, w))
    assert np.all((out.gd_opt > 0) & (out.gd_opt <= 1.0 + 1e-6))


def test_sampled_shrinkage_compares_each_run_with_eq16():
    out = shrinkage.sampled_shrinkage([4.0, 2.0], 200, 100, 4, rng=torch.Generator().manual_seed(0))
    assert out.error.shape == out.excess.shape == (4,)
    assert out.predicted == float(shrinkage.nongradient_optimal_error([4.0, 2.0], 0.5))
    assert np.array_equal(out.deviation, np.abs(out.error - out.predicted))
    assert out.deviation.mean() < 0.05 and np.all(out.excess >= -1e-12)
    with pytest.raises(ValueError, match="n3 <= n1"):
        shrinkage.sampled_shrinkage([4.0], 10, 20, 2)
    with pytest.raises(ValueError, match="spec must be a FullBatchSpec"):
        shrinkage.compare_algorithms([[2.0]], 2, dict(n1=6))
    with pytest.raises(ValueError, match="n3 <= n1"):
        shrinkage.compare_algorithms([[2.0]], 2, train.FullBatchSpec(n1=4, n2=2, n3=6, lr=0.1, horizon=1.0, n_records=5))


def test_former_generator_is_deprecated_and_draws_as_rng():
    torch.set_num_threads(1)
    spec = train.FullBatchSpec(n1=8, n2=4, n3=4, lr=0.05, horizon=1.0, n_records=5)
    for call in (lambda **r: shrinkage.compare_algorithms([[3.0]], 2, spec, desc=None, **r).gd_opt,
                 lambda **r: shrinkage.sampled_shrinkage([3.0], 8, 4, 3, **r).error):
        new = call(rng=torch.Generator().manual_seed(6))
        with pytest.warns(DeprecationWarning, match=r"\(generator=...\) is deprecated"):
            old = call(generator=torch.Generator().manual_seed(6))
        assert np.array_equal(old, new) and np.array_equal(call(rng=6), call(rng=6))
        with pytest.raises(ValueError, match="one random-number argument, rng"):
            call(rng=6, generator=torch.Generator())
        for bad in (-1, 1.5, "x"):
            with pytest.raises(ValueError, match=r"\brng must be"):
                call(rng=bad)
    # the estimator's data in sampled_shrinkage are those of compare_algorithms' streams
    assert np.array_equal(shrinkage.sampled_shrinkage([3.0], 8, 4, 2, rng=1).error,
                          shrinkage.compare_algorithms([[3.0]], 2, spec, rng=1, desc=None).shrink_err[0])
