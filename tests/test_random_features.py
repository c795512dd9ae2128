"""gendyn.random_features: the arc-cosine kernel, exact errors and the Fig. 9 decomposition."""

import math

import numpy as np
import pytest
import torch
from scipy import integrate, stats

from gendyn import linear_experiments as le
from gendyn import random_features as rf


def _gaussian_average(a, b, n_samples=400_000, seed=0):
    """Monte Carlo E[ReLU(a.x) ReLU(b.x)] with x ~ N(0, I/N_i): mean and standard error."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(n_samples, a.shape[-1], generator=gen, dtype=torch.float64) / math.sqrt(a.shape[-1])
    v = torch.relu(x @ a) * torch.relu(x @ b)
    return v.mean().item(), v.std().item() / math.sqrt(n_samples)


@pytest.mark.parametrize("cos", [-0.9, -0.2, 0.0, 0.5, 0.95])
def test_relu_kernel_against_monte_carlo(cos):
    n_in = 7
    a = torch.zeros(n_in, dtype=torch.float64)
    b = torch.zeros(n_in, dtype=torch.float64)
    a[0], b[0], b[1] = 1.3, 0.8 * cos, 0.8 * math.sqrt(1 - cos**2)
    exact = rf.relu_kernel(a[None], b[None])[0, 0].item()
    mc, se = _gaussian_average(a, b)
    assert abs(exact - mc) < 5 * se


def test_relu_kernel_special_angles():
    a = torch.tensor([[3.0, 4.0]], dtype=torch.float64)
    same = rf.relu_kernel(a, a)[0, 0].item()
    assert same == pytest.approx(25 / 2 / 2)  # |a|^2 / N_i * E ReLU(z)^2
    assert rf.relu_kernel(a, -a)[0, 0].item() == pytest.approx(0.0, abs=1e-15)  # never both positive
    batch = torch.randn(3, 4, 5, dtype=torch.float64)
    k = rf.relu_kernel(batch, batch)
    assert k.shape == (3, 4, 4) and torch.allclose(k, k.mT)
    assert torch.linalg.eigvalsh(k).min() > -1e-12  # a covariance


def test_relu_kernel_refuses_mismatched_rows():
    with pytest.raises(ValueError, match="same N_i"):
        rf.relu_kernel(torch.ones(2, 3), torch.ones(2, 4))


def test_relu_feature_moments_by_quadrature():
    pdf = stats.norm.pdf
    m = rf.relu_feature_moments()
    mean = integrate.quad(lambda z: z * pdf(z), 0, np.inf)[0]
    lin = integrate.quad(lambda z: z * z * pdf(z), 0, np.inf)[0]
    second = integrate.quad(lambda z: z * z * pdf(z), 0, np.inf)[0]
    assert m["mean"] == pytest.approx(mean, rel=1e-10)
    assert m["linear"] == pytest.approx(lin, rel=1e-10)
    assert m["remainder_var"] == pytest.approx(second - mean**2 - lin**2, rel=1e-10)


@pytest.fixture(scope="module")
def run():
    return rf.random_feature_students(6, 12, [4, 12, 30], 40, [0.0, 0.3, 3.0, np.inf],
                                      labels=rf.TeacherLabels(teacher_hidden=5, snr=4.0, n_test=4000), decompose=True,
                                      execution=le.Execution(rng=3))


def test_start_and_end_of_the_flow(run):
    assert np.allclose(run.test_error[..., 0], 1.0 + run.noise_var)  # w = 0 and E f^2 = 1
    assert np.all(run.train_error[1:, :, -1] < 1e-20)  # N_h >= P interpolates
    assert np.all(run.train_error[0, :, -1] > 1e-3)  # N_h < P cannot
    assert np.all(np.diff(run.train_error, axis=-1) <= 1e-12)  # gradient flow never raises the training error


def test_exact_error_matches_a_test_set(run):
    d = (run.test_error_sampled - run.test_error)[..., 1:].reshape(-1, run.test_error.shape[1])
    z = d.mean(1) / (d.std(1, ddof=1) / np.sqrt(d.shape[1]))
    assert np.all(np.abs(z) < 4.5), z


def test_decomposition_is_exact(run):
    total = run.approximation + run.null_space + run.over_fitting + run.cross
    assert np.allclose(total, run.converged(), rtol=1e-8, atol=1e-10)
    assert np.all(run.null_space[0] < 1e-12)  # N_h < P: nothing out of reach
    assert np.all(run.approximation >= run.noise_var - 1e-12)
    assert np.all(run.over_fitting_gaussian > 0) and np.all(run.over_fitting >= 0)


def test_wider_students_approximate_better(run):
    assert np.all(np.diff(run.approximation, axis=0) <= 1e-9)  # nested: a wider student contains the narrower


def test_results_do_not_depend_on_chunk():
    args = (5, 8, [3, 9], 5, [0.0, 1.0, np.inf])
    kw = dict(labels=rf.TeacherLabels(teacher_hidden=4, n_test=10), decompose=True)
    one = rf.random_feature_students(*args, execution=le.Execution(rng=1, chunk=1), **kw)
    all_ = rf.random_feature_students(*args, execution=le.Execution(rng=1, chunk=5), **kw)
    for name in ("test_error", "train_error", "test_error_sampled", "approximation", "over_fitting"):
        assert np.allclose(getattr(one, name), getattr(all_, name), rtol=1e-12, atol=1e-14), name


def test_linear_teacher_against_a_test_set():
    run = rf.random_feature_students(4, 30, [8, 200], 20, [0.5, np.inf],
                                     labels=rf.TeacherLabels(teacher="linear", n_test=3000), decompose=True)
    d = (run.test_error_sampled - run.test_error).reshape(-1, 20)
    assert np.all(np.abs(d.mean(1) / (d.std(1, ddof=1) / np.sqrt(20))) < 4.5)
    assert np.all(run.approximation >= -1e-12)  # a mean square (noiseless labels)
    # a wide student represents a linear teacher almost exactly (the ReLU has a linear part)
    assert run.approximation[1].mean() < 0.05


def test_rank_is_min_of_width_and_samples():
    run = rf.random_feature_students(15, 60, [30, 60, 120], 10, [np.inf], labels=rf.TeacherLabels(teacher_hidden=8),
                                     execution=le.Execution(rng=2))
    rank = (run.eigvals > 0).sum(-1)
    assert np.all(rank == np.array([30, 60, 60])[:, None])  # nothing genuine dropped at N_h = P


@pytest.mark.parametrize("kwargs, match", [
    (dict(hidden=[8, 4]), "strictly ascending"),
    (dict(times=[-1.0]), "times"),
    (dict(labels="relu"), "labels"),
    (dict(execution=dict(rng=0)), "execution"),
])
def test_bad_arguments(kwargs, match):
    args = dict(n_in=3, n_samples=5, hidden=[2, 6], repeats=1, times=[1.0])
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        rf.random_feature_students(**args)


@pytest.mark.parametrize("kwargs, match", [
    (dict(teacher="tanh"), "teacher must be one of"),
    (dict(teacher_hidden=0), "teacher_hidden"),
    (dict(snr=0.0), "snr"),
    (dict(n_test=-1), "n_test"),
])
def test_teacher_labels_are_checked_when_made(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rf.TeacherLabels(**kwargs)


def test_the_flat_form_is_deprecated_and_gives_the_same_run():
    args = (4, 8, [3, 9], 3, [0.0, 1.0, np.inf])
    new = rf.random_feature_students(*args, labels=rf.TeacherLabels(teacher_hidden=4, snr=5.0, n_test=6),
                                     decompose=True, execution=le.Execution(rng=2, chunk=2))
    with pytest.warns(DeprecationWarning, match=r"labels=TeacherLabels\(teacher_hidden=\.\.\., snr=\.\.\., "
                                                r"n_test=\.\.\.\), execution=Execution\(rng=\.\.\., chunk"):
        old = rf.random_feature_students(*args, teacher_hidden=4, snr=5.0, n_test=6, decompose=True, seed=2,
                                         chunk=2)
    for name in ("hidden", "train_error", "test_error", "test_error_sampled", "eigvals", "approximation",
                 "null_space", "over_fitting", "cross", "over_fitting_gaussian"):
        assert np.array_equal(getattr(old, name), getattr(new, name)), name
    assert old.noise_var == new.noise_var
    with pytest.raises(ValueError, match="not both"):
        rf.random_feature_students(*args, labels=rf.TeacherLabels(), snr=5.0)
    with pytest.raises(TypeError, match="no_such"):
        rf.random_feature_students(*args, no_such=1)


# ----------------------------------------------------------------------------- Fig. 7E: the hidden spectrum


def test_hidden_spectrum_of_an_mp_spectrum_has_scale_one():
    # pure Gaussian features (no cluster): the small eigenvalues follow the MP law of load P/N_h at scale 1
    rng = np.random.default_rng(0)
    n_hidden, p, s = 400, 200, 4
    spectra = []
    for _ in range(s):
        x = rng.standard_normal((n_hidden, p)) / np.sqrt(n_hidden)
        spectra.append(np.sort(np.linalg.eigvalsh(x.T @ x)))
    out = rf.hidden_spectrum(np.array(spectra), n_hidden, 0)
    assert isinstance(out, rf.HiddenSpectrum)
    assert out.alpha == 0.5 and out.rank.tolist() == [p] * s and out.nonzero.size == p * s
    assert out.scale == pytest.approx(1.0, abs=0.03)
    assert out.weight == pytest.approx(p * s / (n_hidden * s))
    # the smallest eigenvalue sits near the lower MP edge (1 - sqrt(alpha))^2
    assert np.median(out.lam_min) == pytest.approx((1 - np.sqrt(0.5)) ** 2, rel=0.2)


def test_hidden_spectrum_leaves_out_the_cluster_and_counts_frozen_modes():
    ev = np.array([[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 50.0], [0.0, 0.15, 0.25, 0.3, 0.35, 0.45, 0.6, 60.0]])
    out = rf.hidden_spectrum(ev, 16, 1)
    assert out.rank.tolist() == [7, 7]
    assert out.weight == pytest.approx(12 / 32)  # six small eigenvalues per network (the largest left out)
    np.testing.assert_array_equal(out.lam_min, [0.1, 0.15])


@pytest.mark.parametrize("kwargs, name", [(dict(eigvals=np.zeros((2, 3))), "eigvals"),
                                          (dict(eigvals=np.ones(3)), "eigvals"), (dict(n_hidden=0), "n_hidden"),
                                          (dict(n_cluster=-1), "n_cluster")])
def test_hidden_spectrum_refuses_bad_input(kwargs, name):
    call = dict(eigvals=np.ones((2, 3)), n_hidden=4, n_cluster=1) | kwargs
    with pytest.raises(ValueError, match=name):
        rf.hidden_spectrum(**call)
