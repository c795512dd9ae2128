"""gendyn.teachers: shapes, orthonormality, the noise scale, and reproducibility."""

import numpy as np
import pytest
import torch

from gendyn import rmt, seeding, teachers


def test_random_orthonormal_columns():
    q = teachers.random_orthonormal(50, 3, batch=(4,), rng=torch.Generator().manual_seed(0))
    eye = q.mT @ q
    assert q.shape == (4, 50, 3)
    assert torch.allclose(eye, torch.eye(3, dtype=q.dtype).expand(4, 3, 3), atol=1e-12)


def test_teacher_has_its_singular_values():
    svals = torch.tensor([[3.0, 2.0, 1.0]], dtype=torch.float64)
    t = teachers.low_rank_teacher(svals, 40, 20, rng=torch.Generator().manual_seed(1))
    s = torch.linalg.svdvals(t.matrix)
    assert torch.allclose(s[0, :3], svals[0]) and torch.all(s[0, 3:] < 1e-10)


def test_noise_scale_gives_unit_mean_square_singular_value():
    t = teachers.low_rank_teacher(torch.zeros(1, 1, dtype=torch.float64), 800, 400)
    sigma = teachers.noisy_training_covariance(t, rng=torch.Generator().manual_seed(2))
    assert (torch.linalg.svdvals(sigma) ** 2).mean().item() == pytest.approx(1.0, abs=0.01)


def test_top_singular_modes_agree_with_svd():
    m = torch.randn(3, 30, 60, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
    s, u, v = teachers.top_singular_modes(m, 2)
    U, S, Vh = torch.linalg.svd(m, full_matrices=False)
    assert torch.allclose(s, S)
    assert torch.allclose((u * U[..., :2]).sum(-2).abs(), torch.ones(3, 2, dtype=m.dtype))
    assert torch.allclose((v * Vh[..., :2, :].mT).sum(-2).abs(), torch.ones(3, 2, dtype=m.dtype))


def test_measure_spikes_shapes_reproducible_and_close_to_theory():
    sbar = np.array([[3.0], [0.0]])
    a = teachers.measure_spikes(sbar, 400, 0.5, 3, rng=7, keep_spectra=2)
    b = teachers.measure_spikes(sbar, 400, 0.5, 3, rng=7, keep_spectra=2)
    assert isinstance(a, teachers.SpikeMeasurement)
    assert a.shat.shape == a.overlap.shape == (2, 3, 1) and a.spectra.shape == (2, 2, 200)
    for key in ("shat", "overlap", "spectra"):  # identical run to run on the CPU
        assert np.array_equal(getattr(a, key), getattr(b, key))
    assert a.shat[0].mean() == pytest.approx(rmt.spike_singular_value(3.0, 0.5), abs=0.05)
    assert teachers.measure_spikes(sbar, 40, 0.5, 2, rng=7).spectra is None


def test_measure_spikes_rejects_bad_aspect():
    with pytest.raises(ValueError, match=r"aspect must be a real number in \(0, 1\]; got 1.5"):
        teachers.measure_spikes([[1.0]], 100, 1.5, 2)
    with pytest.raises(ValueError, match=r"aspect \* n_in must round to N3 >= 1"):
        teachers.measure_spikes([[1.0]], 100, 1e-3, 2)


@pytest.mark.parametrize("k", [-1, 0, 7, 2.0, True])
def test_top_singular_modes_refuses_a_k_it_cannot_return(k):
    # k = -1 used to return 4 vectors and k = 7 of 5 returned 5
    m = torch.randn(5, 8, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    with pytest.raises(ValueError, match=r"^k must be"):
        teachers.top_singular_modes(m, k)


def test_top_singular_modes_refuses_undetermined_vectors():
    with pytest.raises(ValueError, match=r"matrix has rank < k = 2"):
        teachers.top_singular_modes(torch.zeros(3, 4, dtype=torch.float64), 2)


def test_teacher_functions_name_their_bad_arguments():
    gen = torch.Generator().manual_seed(0)
    with pytest.raises(ValueError, match=r"^svals must be a torch.Tensor; got list"):
        teachers.low_rank_teacher([1.0], 5, 3)
    with pytest.raises(ValueError, match=r"svals holds r = 4 singular values per teacher; the rank must be <= "
                                         r"n_out = 3"):
        teachers.low_rank_teacher(torch.ones(4, dtype=torch.float64), 5, 3)
    with pytest.raises(ValueError, match=r"^teacher must be a LowRankTeacher"):
        teachers.noisy_training_covariance(torch.ones(3, 5))
    with pytest.raises(ValueError, match=r"^rng must be an integer >= 0"):
        teachers.random_orthonormal(5, 2, rng=-1)
    with pytest.raises(ValueError, match=r"^r must be <= n = 5"):
        teachers.random_orthonormal(5, 6, rng=gen)
    t = teachers.low_rank_teacher(torch.ones(2, dtype=torch.float64), 5, 3, rng=gen)
    assert torch.equal(teachers.noisy_training_covariance(t, noise_std=0.0), t.matrix)  # no noise: the teacher


def test_profiles_are_the_authors_spectra_svm_times_rank_down_to_one():
    from gendyn import train

    assert sorted(teachers.PROFILES) == [1, 3]
    sweep = train.snr_sweep([1.0], [1, 3], 1, 8, 4, rng=torch.Generator().manual_seed(0))
    for rank, profile in teachers.PROFILES.items():
        np.testing.assert_array_equal(profile, np.arange(rank, 0, -1.0))
        np.testing.assert_array_equal(2.5 * profile, sweep.sbar(rank, 2.5))  # the sweeps' teachers too


def test_spike_gaps_match_measure_spikes_and_shrink_with_size():
    sbar = np.array([0.0, 1.0, 2.0, 3.0])
    gaps = teachers.spike_gaps(sbar, (20, 80), 0.5, 4, rng=3)
    assert isinstance(gaps, teachers.SpikeGaps)
    assert gaps.n_ins.tolist() == [20.0, 80.0] and gaps.shat.shape == gaps.overlap.shape == (2,)
    # size i is measure_spikes with the stream seeding.stream(rng, i), compared with eqs. (11)-(12)
    run = teachers.measure_spikes(sbar[:, None], 80, 0.5, 4, rng=seeding.stream(3, 1))
    expected = np.abs(run.shat[:, :, 0].mean(1) - rmt.spike_singular_value(sbar, 0.5)).mean()
    assert gaps.shat[1] == expected
    expected = np.abs(run.overlap[:, :, 0].mean(1) - rmt.spike_overlap(sbar, 0.5)).mean()
    assert gaps.overlap[1] == expected
    slope = np.polyfit(np.log([20.0, 80.0]), np.log(gaps.shat), 1)[0]
    assert gaps.exponent("shat") == pytest.approx(slope)
    assert np.isfinite(gaps.exponent("overlap"))


def test_spike_gaps_refuses_bad_sizes_and_names():
    with pytest.raises(ValueError, match=r"^n_ins must hold at least two sizes"):
        teachers.spike_gaps([1.0], (20,), 0.5, 2)
    with pytest.raises(ValueError, match=r"^n_ins must be a non-empty sequence of integers >= 1"):
        teachers.spike_gaps([1.0], (20, 0), 0.5, 2)
    with pytest.raises(ValueError, match=r"^sbar must"):
        teachers.spike_gaps([[1.0]], (20, 40), 0.5, 2)
    gaps = teachers.SpikeGaps(np.array([10.0, 20.0]), np.array([0.1, 0.0]), np.array([0.1, 0.05]))
    with pytest.raises(ValueError, match=r"^which must be one of"):
        gaps.exponent("gap")
    with pytest.raises(ValueError, match=r"shat gaps must all be > 0"):
        gaps.exponent("shat")


_SVALS = torch.tensor([[2.0, 1.0]], dtype=torch.float64)
_TORCH_CALLS = {  # the generator-taking draws of teachers, by their rng keyword
    "random_orthonormal": lambda **r: teachers.random_orthonormal(6, 2, batch=(2,), **r),
    "low_rank_teacher": lambda **r: teachers.low_rank_teacher(_SVALS, 6, 4, **r).matrix,
    "noisy_training_covariance": lambda **r: teachers.noisy_training_covariance(
        teachers.low_rank_teacher(_SVALS, 6, 4, rng=0), **r),
}


@pytest.mark.parametrize("name", sorted(_TORCH_CALLS))
def test_rng_seeds_as_the_former_generator_and_generator_is_deprecated(name):
    call = _TORCH_CALLS[name]
    new = call(rng=5)  # an integer rng draws as torch.Generator().manual_seed(rng)
    assert torch.equal(new, call(rng=torch.Generator().manual_seed(5)))
    with pytest.warns(DeprecationWarning, match=rf"teachers.{name}\(generator=...\) is deprecated"):
        assert torch.equal(call(generator=torch.Generator().manual_seed(5)), new)
    assert not torch.equal(call(rng=None), call(rng=None))  # None: fresh entropy
    with pytest.raises(ValueError, match="one random-number argument, rng"):
        call(rng=5, generator=torch.Generator())
    for bad in (-1, 1.5, "x"):
        with pytest.raises(ValueError, match=r"\brng must be"):
            call(rng=bad)
    with pytest.raises(TypeError, match="unexpected keyword"):
        call(rng=5, seeds=3)


def test_measure_spikes_and_spike_gaps_take_rng_in_place_of_seed():
    sbar = np.array([[2.0], [0.5]])
    new = teachers.measure_spikes(sbar, 16, 0.5, 2, rng=5)
    with pytest.warns(DeprecationWarning, match=r"measure_spikes\(seed=...\) is deprecated"):
        old = teachers.measure_spikes(sbar, 16, 0.5, 2, seed=5)  # the former seed draws as rng
    assert np.array_equal(old.shat, new.shat) and np.array_equal(old.overlap, new.overlap)
    with pytest.warns(DeprecationWarning):  # with the former flat execution keywords too
        flat = teachers.measure_spikes(sbar, 16, 0.5, 2, seed=5, device="cpu")
    assert np.array_equal(flat.shat, new.shat)
    with pytest.raises(ValueError, match="one random-number argument, rng"):
        teachers.measure_spikes(sbar, 16, 0.5, 2, rng=5, seed=5)
    gaps = teachers.spike_gaps([1.0, 2.0], (8, 16), 0.5, 2, rng=2)
    with pytest.warns(DeprecationWarning, match=r"spike_gaps\(seed=...\) is deprecated"):
        old_gaps = teachers.spike_gaps([1.0, 2.0], (8, 16), 0.5, 2, seed=2)
    assert np.array_equal(gaps.shat, old_gaps.shat)
    for bad in (-1, 1.5, "x"):
        with pytest.raises(ValueError, match=r"\brng must be"):
            teachers.measure_spikes(sbar, 16, 0.5, 2, rng=bad)
        with pytest.raises(ValueError, match=r"\brng must be"):
            teachers.spike_gaps([1.0], (8, 16), 0.5, 2, rng=bad)
