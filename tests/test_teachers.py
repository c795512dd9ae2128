"""gendyn.teachers: shapes, orthonormality, the noise scale, and reproducibility."""

import numpy as np
import pytest
import torch

from gendyn import rmt, teachers


def test_random_orthonormal_columns():
    q = teachers.random_orthonormal(50, 3, batch=(4,), generator=torch.Generator().manual_seed(0))
    eye = q.mT @ q
    assert q.shape == (4, 50, 3)
    assert torch.allclose(eye, torch.eye(3, dtype=q.dtype).expand(4, 3, 3), atol=1e-12)


def test_teacher_has_its_singular_values():
    svals = torch.tensor([[3.0, 2.0, 1.0]], dtype=torch.float64)
    t = teachers.low_rank_teacher(svals, 40, 20, generator=torch.Generator().manual_seed(1))
    s = torch.linalg.svdvals(t.matrix)
    assert torch.allclose(s[0, :3], svals[0]) and torch.all(s[0, 3:] < 1e-10)


def test_noise_scale_gives_unit_mean_square_singular_value():
    t = teachers.low_rank_teacher(torch.zeros(1, 1, dtype=torch.float64), 800, 400)
    sigma = teachers.noisy_training_covariance(t, generator=torch.Generator().manual_seed(2))
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
    a = teachers.measure_spikes(sbar, 400, 0.5, 3, seed=7, keep_spectra=2)
    b = teachers.measure_spikes(sbar, 400, 0.5, 3, seed=7, keep_spectra=2)
    assert isinstance(a, teachers.SpikeMeasurement)
    assert a.shat.shape == a.overlap.shape == (2, 3, 1) and a.spectra.shape == (2, 2, 200)
    for key in ("shat", "overlap", "spectra"):  # identical run to run on the CPU
        assert np.array_equal(getattr(a, key), getattr(b, key))
    assert a.shat[0].mean() == pytest.approx(rmt.spike_singular_value(3.0, 0.5), abs=0.05)
    assert teachers.measure_spikes(sbar, 40, 0.5, 2, seed=7).spectra is None


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
    with pytest.raises(ValueError, match=r"^generator must be a torch.Generator or None; got int"):
        teachers.random_orthonormal(5, 2, generator=0)
    with pytest.raises(ValueError, match=r"^r must be <= n = 5"):
        teachers.random_orthonormal(5, 6, generator=gen)
    t = teachers.low_rank_teacher(torch.ones(2, dtype=torch.float64), 5, 3, generator=gen)
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
    gaps = teachers.spike_gaps(sbar, (20, 80), 0.5, 4, seed=3)
    assert isinstance(gaps, teachers.SpikeGaps)
    assert gaps.n_ins.tolist() == [20.0, 80.0] and gaps.shat.shape == gaps.overlap.shape == (2,)
    # size i is measure_spikes with the seed seed + i, compared with eqs. (11)-(12)
    run = teachers.measure_spikes(sbar[:, None], 80, 0.5, 4, seed=4)
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
