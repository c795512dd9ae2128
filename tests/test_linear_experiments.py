"""Tests of gendyn.linear_experiments: the batched simulations of the Advani-Saxe students.

The simulations are checked against independent computations (plain gradient descent in
numpy, least squares, the exact eq. (5) of gendyn.linear_student averaged over many
teacher draws) and for reproducibility. Sizes are small: the whole file runs in seconds.
"""

import numpy as np
import pytest
import torch

from gendyn import linear_experiments as le
from gendyn import linear_student as ls
from gendyn import seeding


def _batch(alphas=(0.5, 1.5), n=40, repeats=2, teachers=3, seed=0, **kw):
    kw.setdefault("teacher_var", 1.0)
    kw.setdefault("init_var", 0.3)
    kw.setdefault("noise_var", 0.25)
    return le.draw_linear_student(alphas, n, repeats, teachers=teachers, variances=le.Variances(**kw),
                                  rng=seed)


def test_padding_shapes_and_masks():
    batch = _batch(alphas=(0.25, 1.0, 2.0), n=20, repeats=2)
    assert batch.X.shape == (6, 20, 40)
    assert batch.p.tolist() == [5, 5, 20, 20, 40, 40]
    for b, p in enumerate(batch.p.tolist()):
        assert torch.all(batch.X[b, :, p:] == 0) and torch.all(batch.g_e[b, :, p:] == 0)
        assert torch.all(batch.X[b, :, :p] != 0)
    # entries N(0, 1/N)
    assert batch.X[4:].pow(2).mean().item() * 20 == pytest.approx(1.0, abs=0.1)


def test_flow_equals_closed_form_in_original_coordinates():
    """w(t) = w* + (w0 - w*) projected ... : compare with an explicit numpy solution."""
    batch = _batch(teachers=1, repeats=1)
    times = np.array([0.0, 0.3, 2.0, 15.0, np.inf])
    out = le.linear_student_flow(batch, times)
    wbar, w0, eps = (t.numpy() for t in batch.weights())
    for b in range(batch.X.shape[0]):
        X = batch.X[b].numpy()[:, : batch.p[b]]
        y = wbar[b, 0, 0] @ X + eps[b, 0, 0, : batch.p[b]]
        lam, V = np.linalg.eigh(X @ X.T)
        act = lam > 1e-9 * lam.max()
        zstar = np.where(act, (y @ X.T @ V) / np.where(act, lam, 1), w0[b, 0, 0] @ V)
        for j, t in enumerate(times):
            e = np.where(act, np.exp(-lam * t) if np.isfinite(t) else 0.0, 1.0)
            z = zstar + (w0[b, 0, 0] @ V - zstar) * e
            w = z @ V.T
            eg = np.sum((wbar[b, 0, 0] - w) ** 2) / X.shape[0] + 0.25
            et = np.mean((y - w @ X) ** 2)
            assert out["test_error"][b, 0, 0, j].item() == pytest.approx(eg, rel=1e-9)
            assert out["train_error"][b, 0, 0, j].item() == pytest.approx(et, rel=1e-7, abs=1e-12)
    parts = out["scale"] + out["overfit"] + out["cross"] + out["frozen"] + 0.25
    assert torch.allclose(parts, out["test_error"], rtol=1e-12)
    # converged: E_t = 0 when P <= N (noise memorised), > 0 when P > N
    assert out["train_error"][0, ..., -1].max() < 1e-12
    assert out["train_error"][1, ..., -1].min() > 0.01


def test_gradient_descent_matches_flow_with_discrete_factors():
    """GD steps equal eq. (4) with exp(-lambda t) replaced by (1 - lr lambda)^k, and tend to the flow."""
    batch = _batch(n=30, teachers=2)
    lr, steps = 0.02, np.array([0, 5, 40, 300])
    gd = le.linear_student_gd(batch, lr, steps)
    flow, d, et, perp = le._mode_decomposition(batch)
    lam, active = flow.eigvals, flow.active
    f = torch.as_tensor(le.gd_decay_factors(lam.numpy(), lr, steps))
    exact = le._errors_from_factors(lam, active, d, et, perp, batch.p, batch.noise_var, f)
    assert torch.allclose(gd["test_error"], exact["test_error"], rtol=1e-9)
    assert torch.allclose(gd["train_error"], exact["train_error"], rtol=1e-8)
    flow = le.linear_student_flow(batch, steps * lr)
    rel = (gd["test_error"] - flow["test_error"]).abs() / flow["test_error"]
    assert rel.max() < 0.05  # O(lr lambda_max) discretisation
    with pytest.raises(ValueError, match="unstable"):
        le.linear_student_gd(batch, 1.0, steps)


def test_flow_average_matches_eq5():
    """Averaged over many teacher/noise/init draws, the simulated errors are eq. (5) for the dataset."""
    n, K = 60, 2000
    batch = _batch(alphas=(0.5, 2.0), n=n, repeats=1, teachers=K)
    times = np.array([0.0, 0.5, 3.0, 30.0, np.inf])
    out = le.linear_student_flow(batch, times)
    snr, inr = 1 / 0.25, 0.3
    for b in range(2):
        lam = out["cov_eigvals"][b].numpy()
        theory = ls.single_dataset_error(times, lam, snr, inr)
        sim = out["test_error"][b, 0].numpy()  # (K, T)
        se = sim.std(0) / np.sqrt(K)
        assert np.all(np.abs(sim.mean(0) - theory) < 5 * se + 1e-12)
        p = int(batch.p[b])
        gram = np.sort(np.concatenate([lam[lam > 0], np.zeros(p - np.sum(lam > 0))]))
        t_theory = ls.single_dataset_training_error(times, gram[None, :], snr, inr)
        tsim = out["train_error"][b, 0].numpy()
        tse = tsim.std(0) / np.sqrt(K)
        assert np.all(np.abs(tsim.mean(0) - t_theory) < 5 * tse + 1e-12)
    # the frozen part is (N - P)/N (1 + INR) on average, and absent for P > N
    fz = out["frozen"][0, 0, :, 0].numpy()
    assert fz.mean() == pytest.approx(0.5 * 1.3, abs=5 * fz.std() / np.sqrt(K))
    assert out["frozen"][1].abs().max() < 1e-20


def test_simulate_linear_student_shapes_and_reproducible():
    kw = dict(snr=[4.0, np.inf], inr=[0.0, 0.5], teachers=2)
    a = le.simulate_linear_student([0.5, 1.0, 2.0], 25, 2, [0.0, 1.0, np.inf], execution=le.Execution(rng=3, chunk=3),
                                   **kw)
    b = le.simulate_linear_student([0.5, 1.0, 2.0], 25, 2, [0.0, 1.0, np.inf], execution=le.Execution(rng=3, chunk=3),
                                   **kw)
    assert a.test_error.shape == (3, 2, 2, 2, 3)
    assert a.cov_eigvals.shape == (3, 2, 25)
    assert a.p.tolist() == [12, 25, 50]  # round(12.5) = 12 (banker's rounding)
    for key in a.__dataclass_fields__:
        assert np.array_equal(getattr(a, key), getattr(b, key))
    with pytest.warns(DeprecationWarning, match=r"use \.frozen"):
        assert a["frozen"] is a.frozen  # formerly a dict: item access for one more release
    # E_g(0) = 1 + INR + 1/SNR on average; noiseless converged error = frozen part
    assert np.allclose(a.test_error[..., 0].mean(), np.mean([1.25, 1.5]), atol=0.3)
    assert np.allclose(a.test_error[2, :, 1, :, -1], 0.0, atol=1e-12)
    c = le.simulate_linear_student([0.5, 1.0, 2.0], 25, 2, [0.0, 1.0, np.inf], execution=le.Execution(rng=4, chunk=3),
                                   **kw)
    assert not np.array_equal(a.test_error, c.test_error)


def test_random_feature_relu_against_least_squares():
    out = le.random_feature_relu(8, 20, [10, 20, 60], 2, [0.0, np.inf], labels=le.LinearLabels(snr=4.0, n_test=50),
                                 execution=le.Execution(rng=1, chunk=7))
    assert out.train_error.shape == (3, 2, 1, 2)
    assert out.eigvals.shape == (3, 2, 20)
    # reproduce one network (width 60, seed 0) from scratch, drawing in the same order
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(2, 8, 70, generator=gen, dtype=torch.float64) / np.sqrt(8)
    wbar = torch.randn(2, 1, 8, generator=gen, dtype=torch.float64)
    y = (wbar @ x)[..., :20] + 0.5 * torch.randn(2, 1, 20, generator=gen, dtype=torch.float64)
    W1 = torch.cat([torch.randn(2, m, 8, generator=gen, dtype=torch.float64) for m in (7, 3, 7, 3, 7, 7, 7, 7, 7, 5)], 1)
    feats = torch.relu(W1 @ x)[0].numpy() / np.sqrt(60)
    Xh, Xt = feats[:, :20], feats[:, 20:]
    w = np.linalg.lstsq(Xh.T, y[0, 0].numpy(), rcond=None)[0]  # minimum-norm interpolant (N_h > P)
    assert out.train_error[2, 0, 0, 1] < 1e-16
    assert out.weight_norm_sq[2, 0, 0, 1] == pytest.approx(np.sum(w**2), rel=1e-8)
    eg = np.mean((w @ Xt - (wbar @ x)[0, 0, 20:].numpy()) ** 2) + 0.25
    assert out.test_error[2, 0, 0, 1] == pytest.approx(eg, rel=1e-8)
    assert out.train_error[2, 0, 0, 0] == pytest.approx(np.mean(y[0, 0].numpy() ** 2))
    assert out.b1[2, 0] == pytest.approx(W1[0].norm(dim=-1).max().item())
    # narrow network (N_h < P): converged training error is the least-squares residual
    f10 = torch.relu(W1[0, :10] @ x[0]).numpy() / np.sqrt(10)
    w10 = np.linalg.lstsq(f10[:, :20].T, y[0, 0].numpy(), rcond=None)[0]
    assert out.train_error[0, 0, 0, 1] == pytest.approx(np.mean((y[0, 0].numpy() - w10 @ f10[:, :20]) ** 2))
    # eq. (11): the norm along the flow stays below the dynamics bound
    lam = out.eigvals[2, 0]
    b2 = ls.dynamics_weight_norm_bound(60, 20, out.ztilde_sq[2, 0, 0].max(), lam[lam > 0].min())
    assert np.sqrt(out.weight_norm_sq[2, 0, 0].max() / 60) <= b2



def test_random_feature_bounds_against_the_bound_functions():
    sweep = le.random_feature_relu(6, 10, [5, 10, 20, 40], 3, [0.0, 0.5, 5.0, np.inf],
                                   labels=le.LinearLabels(snr=4.0, n_test=30, teachers=2),
                                   execution=le.Execution(rng=4))
    b = le.random_feature_bounds(sweep, delta=0.1, teacher=1)
    assert isinstance(b, le.RandomFeatureBounds) and b.n_samples == sweep.n_samples == 10
    np.testing.assert_array_equal(b.wide, [False, False, True, True])
    np.testing.assert_array_equal(b.gap, sweep.test_error[:, :, 1] - sweep.train_error[:, :, 1])
    # one network by hand: width 20, seed 2
    g, s, nh = 2, 2, 20
    lam = sweep.eigvals[g, s]
    zt = sweep.ztilde_sq[g, s, 1].max()
    b2 = ls.dynamics_weight_norm_bound(nh, 10, zt, lam[lam > 0].min())
    assert b.b2_dyn[g, s] == pytest.approx(float(b2), rel=1e-12)
    r12 = ls.dynamics_bound(nh, 10, zt, lam[lam > 0].min(), b1=sweep.b1[g, s], c=sweep.c[s])
    assert b.bound12[g, s] == pytest.approx(float(ls.generalization_gap_bound(r12, 10, 0.1)), rel=1e-12)
    assert b.b2_fixed == b.b2_dyn[2:].max()
    post = ls.rademacher_bound(nh, 10, b1=sweep.b1[g, s], b2=np.sqrt(sweep.weight_norm_sq[g, s, 1] / nh).max(),
                               c=sweep.c[s])
    assert b.bound8_post[g, s] == pytest.approx(float(ls.generalization_gap_bound(post, 10, 0.1)), rel=1e-12)
    # eq. (11) holds along every trajectory, and the gap stays below the dynamics bound here
    assert (b.norm.max(-1) <= b.b2_dyn * (1 + 1e-12)).all()
    assert (b.sup_gap <= b.bound12).all()
    assert b.looseness() == pytest.approx(np.mean(b.bound12[-1] / b.sup_gap[-1]))


def test_random_feature_bounds_refuses_bad_input():
    sweep = le.random_feature_relu(5, 6, [4, 12], 1, [0.0, np.inf], labels=le.LinearLabels(n_test=10))
    with pytest.raises(ValueError, match="delta"):
        le.random_feature_bounds(sweep, delta=1.0)
    with pytest.raises(ValueError, match="teacher"):
        le.random_feature_bounds(sweep, teacher=1)
    with pytest.raises(ValueError, match="sweep"):
        le.random_feature_bounds({"hidden": sweep.hidden})
    narrow = le.random_feature_relu(5, 6, [4, 8], 1, [0.0, np.inf], labels=le.LinearLabels(n_test=10))
    with pytest.raises(ValueError, match="sweep must include a width"):
        le.random_feature_bounds(narrow)

def test_random_feature_gd_memorises_and_matches_spectral_theory():
    steps = np.array([0, 10, 100, 600])
    K = 200
    out = le.random_feature_gd(6, 15, 60, 2, steps, labels=le.LinearLabels(snr=4.0, n_test=40, teachers=K),
                               execution=le.Execution(rng=2))
    assert out.train_error.shape == (2, 2, K, 4)
    theory = np.einsum("lsp,spt->lst", out.label_power,
                       (1 - out.lr * out.eigvals[..., None]) ** (2 * steps)) / 15
    assert np.allclose(ls.gd_training_error(steps, out.lr, out.eigvals, out.label_power), theory,
                       rtol=1e-12, atol=1e-300)
    sim = out.train_error
    se = sim.std(2) / np.sqrt(K)
    assert np.all(np.abs(sim.mean(2) - theory) < 5 * se + 1e-15)
    # both label sets are memorised (N_h > P); random labels more slowly
    assert np.all(sim.mean(2)[..., -1] < 0.1 * sim.mean(2)[..., 0])
    assert np.all(theory[1, :, 1:] > theory[0, :, 1:])
    # test error: teacher labels generalise, random labels cannot beat their variance
    assert np.all(out.test_error[0].mean(1).min(-1) < out.test_error[0].mean(1)[:, 0])
    assert np.all(out.test_error[1].mean(1) >= out.label_var * 0.8)
    labels, execution = le.LinearLabels(snr=4.0, n_test=40, teachers=2), le.Execution(rng=2)
    small = le.random_feature_gd(6, 15, 60, 2, steps, labels=labels, execution=execution)
    again = le.random_feature_gd(6, 15, 60, 2, steps, labels=labels, execution=execution)
    assert np.array_equal(small.train_error, again.train_error)


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="alphas"):
        le.draw_linear_student([0.0], 10, 1)
    with pytest.raises(ValueError, match="P >= 1"):
        le.draw_linear_student([0.01], 10, 1)
    with pytest.raises(ValueError, match="repeats"):
        le.draw_linear_student([0.5], 10, 0)
    with pytest.raises(ValueError, match="snr"):
        le.simulate_linear_student([0.5], 10, 1, [1.0], snr=-1.0)
    with pytest.raises(ValueError, match="times"):
        le.linear_student_flow(_batch(), [-1.0])
    with pytest.raises(ValueError, match="steps"):
        le.linear_student_gd(_batch(), 0.01, [3, 1])
    with pytest.raises(ValueError, match="hidden"):
        le.random_feature_relu(5, 10, [20, 10], 1, [1.0])
    with pytest.raises(ValueError, match="rng"):
        le.random_feature_gd(5, 10, 20, 1, [1], execution=le.Execution(rng=-1))


def test_label_power_on_the_null_space_does_not_depend_on_the_basis():
    # P = 10 > N_h = 6: the Gram matrix has a 4-dimensional null space, any basis of which is an
    # eigenbasis; the teacher's power there is reported as its mean, equal over those modes.
    out = le.random_feature_gd(5, 10, 6, 3, [0, 2], labels=le.LinearLabels(n_test=20))
    power, s = out.label_power[0], out.eigvals
    null = s <= s.max(-1, keepdims=True) * 1e-10
    assert (null.sum(-1) == 4).all()
    for row, mask in zip(power, null):
        np.testing.assert_allclose(row[mask], row[mask][0], rtol=1e-12)


# ----------------------------------------------------------------------------- the eigenbasis flow


def test_eigen_flow_solves_the_residual_flow_exactly():
    """dr/dt = -r X^T X (w(0) = 0, tau = 1): r(t) = y expm(-X^T X t) = ((y U) e(t)) U^T."""
    import torch

    gen = torch.Generator().manual_seed(4)
    X = torch.randn(2, 5, 8, generator=gen, dtype=torch.float64) / 5**0.5  # P = 8 > N = 5: 3 frozen modes
    y = torch.randn(2, 1, 8, generator=gen, dtype=torch.float64)
    flow = le.EigenFlow.of(X.mT @ X)
    assert flow.active.sum(-1).tolist() == [5, 5]  # rank N
    t = torch.tensor([0.0, 0.3, 2.0, float("inf")], dtype=torch.float64)
    e = flow.decay(t)  # (2, 8, 4)
    assert torch.all(e[..., 0] == 1) and torch.all(e[..., -1][flow.active] == 0)
    assert torch.all(e[~flow.active] == 1)  # frozen modes never move
    yt = y @ flow.eigvecs
    for j, tj in enumerate(t[:-1].tolist()):
        exact = y @ torch.linalg.matrix_exp(-(X.mT @ X) * tj)
        assert torch.allclose((yt * e[None, ..., j].squeeze(0)[:, None, :]) @ flow.eigvecs.mT, exact, atol=1e-12)
    # the pseudo-inverse: 1/s on the learning modes, 0 on the frozen ones
    pinv = flow.eigvecs @ torch.diag_embed(flow.inverse()) @ flow.eigvecs.mT
    assert torch.allclose(pinv, torch.linalg.pinv(X.mT @ X, hermitian=True), atol=1e-10)


def test_eigen_flow_rank_cutoff():
    import torch

    gram = torch.diag(torch.tensor([1e-20, 1e-12, 0.5, 2.0], dtype=torch.float64))
    assert le.EigenFlow.of(gram).active.tolist() == [False, False, True, True]  # below 1e-9 of the largest
    assert le.EigenFlow.of(gram, rank=3).active.tolist() == [False, True, True, True]  # the exact rank: top 3
    assert le.EigenFlow.of(gram, rank=1).active.tolist() == [False, False, False, True]
    with pytest.raises(ValueError, match="gram must be square"):
        le.EigenFlow.of(torch.ones(2, 3, dtype=torch.float64))


# ----------------------------------------------------------------------------- early stopping vs ridge


def test_early_stopping_never_beats_optimal_ridge_on_a_dataset():
    out = le.early_stopping_vs_ridge([0.5, 1.0, 2.0], 30, 3, snr=4.0, rng=1)
    assert isinstance(out, le.StoppingVsRidge)
    assert out.ridge.shape == out.early_stopped.shape == (3, 3)
    assert out.n_features == 30 and out.snr == 4.0
    np.testing.assert_array_equal(out.alphas, [0.5, 1.0, 2.0])
    # ridge at gamma* = 1/SNR is optimal mode by mode, so for every dataset
    assert (out.excess >= -1e-12).all()
    np.testing.assert_array_equal(out.excess, out.early_stopped - out.ridge)


def test_early_stopping_vs_ridge_against_its_spectra():
    # the same draws, made by hand: ridge from the spectrum, early stopping on a fine grid of times
    out = le.early_stopping_vs_ridge([0.5, 1.5], 20, 2, snr=2.0, rng=3)
    rng = np.random.default_rng(3)
    t = np.geomspace(1e-2, 1e4, 20001)
    for i, p in enumerate((10, 30)):
        for r in range(2):
            x = rng.standard_normal((20, p)) / np.sqrt(20)
            lam = np.linalg.eigvalsh(x @ x.T)
            assert out.ridge[i, r] == pytest.approx(float(ls.single_dataset_ridge_error(lam, 2.0)), rel=1e-12)
            grid = ls.single_dataset_error(t[:, None], lam[None], 2.0, 0.0).min()
            assert out.early_stopped[i, r] <= grid + 1e-12
            assert out.early_stopped[i, r] == pytest.approx(grid, rel=1e-6)


def test_early_stopping_vs_ridge_means_follow_the_mp_theory():
    out = le.early_stopping_vs_ridge([0.5, 2.0], 100, 6, snr=4.0, rng=0)
    for a, ridge, early in zip(out.alphas, out.ridge, out.early_stopped):
        assert ridge.mean() == pytest.approx(float(ls.ridge_error(a, 4.0)), abs=0.02)
        assert early.mean() == pytest.approx(float(ls.optimal_stopping_error(a, 4.0, 0.0)[1]), abs=0.02)


def test_early_stopping_vs_ridge_keeps_the_draws_of_earlier_loads():
    one = le.early_stopping_vs_ridge([0.5], 16, 2, snr=4.0, rng=5)
    two = le.early_stopping_vs_ridge([0.5, 1.0], 16, 2, snr=4.0, rng=5)
    np.testing.assert_array_equal(one.ridge[0], two.ridge[0])
    np.testing.assert_array_equal(one.early_stopped[0], two.early_stopped[0])


@pytest.mark.parametrize("kwargs, name", [(dict(alphas=[0.01]), "alpha"), (dict(n_features=0), "n_features"),
                                          (dict(repeats=0), "repeats"), (dict(snr=np.inf), "snr"),
                                          (dict(snr=0.0), "snr"), (dict(rng=-1), "rng")])
def test_early_stopping_vs_ridge_refuses_bad_input(kwargs, name):
    call = dict(alphas=[0.5], n_features=10, repeats=1, snr=4.0, rng=0) | kwargs
    with pytest.raises(ValueError, match=name):
        le.early_stopping_vs_ridge(call.pop("alphas"), call.pop("n_features"), call.pop("repeats"), **call)


# ----------------------------------------------------------------------------- gradient descent vs flow


def test_gd_versus_flow_is_the_two_trainers_per_load():
    batch = le.draw_linear_student([0.5, 2.0], 10, 2, teachers=3,
                                   variances=le.Variances(teacher_var=1.0, init_var=0.25, noise_var=0.25), rng=2)
    steps = np.array([0, 1, 5, 20])
    times = np.unique(np.r_[steps * 0.1, 10.0, np.inf])
    run = le.gd_versus_flow(batch, [0.5, 2.0], 0.1, steps, times, gd_teachers=2)
    assert isinstance(run, le.GDVersusFlow)
    assert run.gd_test.shape == run.gd_train.shape == (2, 2, 2, 4)
    assert run.flow_test.shape == run.scale.shape == run.frozen.shape == (2, 2, 3, times.size)
    assert run.cov_eigvals.shape == (2, 2, 10) and run.n_train.tolist() == [5, 20]
    np.testing.assert_array_equal(run.times[run.on_gd], run.t_gd)
    flow = le.linear_student_flow(batch, times)
    np.testing.assert_array_equal(run.flow_test, flow["test_error"].numpy().reshape(2, 2, 3, -1))
    np.testing.assert_allclose(run.flow_test, run.scale + run.overfit + run.cross + run.frozen + 0.25, rtol=1e-12)
    # gradient descent of the first draws runs close to the flow at the same times (small lr)
    np.testing.assert_allclose(run.gd_test, run.flow_test[:, :, :2][..., run.on_gd], rtol=0.05)
    assert np.isfinite(run.gd_train).all() and (run.gd_train >= 0).all()


def test_gd_versus_flow_refuses_bad_input():
    batch = _batch()
    with pytest.raises(ValueError, match="alphas"):
        le.gd_versus_flow(batch, [0.5, 1.0, 2.0, 3.0], 0.01, [0, 1], [0.0, 1.0], gd_teachers=1)
    with pytest.raises(ValueError, match="gd_teachers"):
        le.gd_versus_flow(batch, [0.5, 1.5], 0.01, [0, 1], [0.0, 1.0], gd_teachers=99)
    with pytest.raises(ValueError, match="steps"):
        le.gd_versus_flow(batch, [0.5, 1.5], 0.01, [3, 1], [0.0, 1.0], gd_teachers=1)
    run = le.gd_versus_flow(batch, [0.5, 1.5], 0.01, [0, 1], [0.0, 1.0], gd_teachers=1)
    with pytest.raises(ValueError, match="times"):
        run.on_gd


# ----------------------------------------------------------------------------- errors per condition


def test_condition_errors_reads_each_load_at_its_own_stopping_time():
    times = np.array([0.0, 0.5, 1.0, 2.0, np.inf])
    sim = le.simulate_linear_student([0.5, 2.0], 12, 2, times, snr=[4.0, 1.0], inr=[0.0, 0.5], teachers=3,
                                     execution=le.Execution(rng=1))
    t_stop = np.array([[0.5, 1.0], [2.0, 0.0]])  # (A, C)
    out = le.condition_errors(sim.test_error, sim.frozen, times, t_stop)
    assert isinstance(out, le.ConditionErrors)
    assert out.converged.shape == out.early_stopped.shape == out.frozen.shape == (2, 2, 6)
    col = {0.0: 0, 0.5: 1, 1.0: 2, 2.0: 3}
    for a in range(2):
        for c in range(2):
            draws = sim.test_error[a, :, c].reshape(6, -1)
            np.testing.assert_array_equal(out.converged[c, a], draws[:, -1])
            np.testing.assert_array_equal(out.early_stopped[c, a], draws[:, col[t_stop[a, c]]])
            np.testing.assert_array_equal(out.frozen[c, a], sim.frozen[a, :, c].reshape(6, -1)[:, 0])


def test_condition_errors_refuses_bad_input():
    times = np.array([0.0, 1.0, np.inf])
    eg = np.ones((2, 1, 1, 1, 3))
    with pytest.raises(ValueError, match="stopping time"):
        le.condition_errors(eg, eg, times, [[0.5], [1.0]])
    with pytest.raises(ValueError, match="t_stop"):
        le.condition_errors(eg, eg, times, [[1.0]])
    with pytest.raises(ValueError, match="times"):
        le.condition_errors(eg, eg, times[:2], [[1.0], [1.0]])
    with pytest.raises(ValueError, match="frozen"):
        le.condition_errors(eg, eg[..., :2], times, [[1.0], [1.0]])


def test_per_mode_stopping_gd_finds_the_per_mode_formula():
    torch.set_num_threads(1)
    out = le.per_mode_stopping_gd(2.0, 40, 1000, snr=4.0, lr=0.02, steps=220, execution=le.Execution(rng=1))
    assert isinstance(out, le.PerModeStopping)
    T = 221
    assert out.mode_error.shape == (T, 40) and out.test_error.shape == (T,) and out.times[-1] == pytest.approx(4.4)
    # at step 0 (w = 0) every mode's error is the teacher's mean square, the test error 1 + 1/SNR
    assert out.test_error[0] == pytest.approx(1.25, abs=0.02)
    assert out.train_error[0] > out.train_error[-1]
    th = ls.per_mode_stopping_time(out.cov_eigvals, 4.0)
    ratio = np.log(out.t_stop / th)
    assert not np.any(np.isnan(ratio))  # alpha = 2: a gap, every mode learns and stops inside the run
    assert abs(ratio.mean()) < 0.03 and np.std(ratio) < 0.1  # 2000 draws: a few % per mode
    # the mean errors follow eq. (5') of the dataset, exact for gradient descent
    theory = ls.single_dataset_gd_error(np.arange(T), 0.02, out.cov_eigvals, 4.0, 0.0)
    assert np.max(np.abs(out.test_error - theory)) < 0.03


def test_per_mode_stopping_gd_marks_unresolved_modes_and_refuses_bad_arguments():
    out = le.per_mode_stopping_gd(0.5, 20, 50, snr=4.0, lr=0.02, steps=10)
    assert np.all(np.isnan(out.t_stop[out.cov_eigvals == 0]))  # frozen modes never move
    assert np.isnan(out.t_stop[out.cov_eigvals > 0][0])  # the slowest mode still falls at step 10
    with pytest.raises(ValueError, match="lr"):
        le.per_mode_stopping_gd(2.0, 20, 5, snr=4.0, lr=0.5, steps=10)
    with pytest.raises(ValueError, match="snr"):
        le.per_mode_stopping_gd(2.0, 20, 5, snr=np.inf, lr=0.02, steps=10)


# ----------------------------------------------------------------------------- specs and the deprecated flat form


@pytest.mark.parametrize("cls, kwargs, match", [
    (le.Variances, dict(teacher_var=-1.0), "teacher_var must"),
    (le.Variances, dict(init_var=[0.0, np.nan]), "init_var must"),
    (le.Variances, dict(noise_var="x"), "noise_var"),
    (le.Variances, dict(init_var=[0.0, 1.0], noise_var=[0.0, 1.0, 2.0]), "must broadcast"),
    (le.Execution, dict(rng=-1), "rng must be an integer >= 0"),
    (le.Execution, dict(rng=1.5), "rng must be an integer >= 0"),
    (le.Execution, dict(rng="x"), "rng must be an integer >= 0"),
    (le.Execution, dict(device="gpu"), "device must be"),
    (le.Execution, dict(dtype=torch.int64), "dtype must be"),
    (le.Execution, dict(chunk=0), "chunk must be an integer >= 1 or None"),
    (le.LinearLabels, dict(snr=0.0), "snr must"),
    (le.LinearLabels, dict(teachers=0), "teachers must"),
    (le.LinearLabels, dict(n_test=0), "n_test must"),
])
def test_specs_are_checked_when_made(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cls(**kwargs)


def test_specs_are_frozen_and_normalised():
    v = le.Variances(init_var=np.array([0.0, 0.5]), noise_var=np.float64(0.25))
    assert v.init_var == (0.0, 0.5) and v.noise_var == 0.25 and hash(v) == hash(le.Variances(1.0, (0.0, 0.5), 0.25))
    assert le.Execution(device="cpu").device == torch.device("cpu")
    with pytest.raises(AttributeError):
        le.Execution().rng = 1


def _same(a, b):
    """Two results (dicts of arrays or dataclasses) hold the same bytes."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        return all(_same(a[k], b[k]) for k in a)
    if hasattr(a, "__dataclass_fields__"):
        return all(_same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    if isinstance(a, torch.Tensor):
        return torch.equal(a, b)
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b, equal_nan=a.dtype.kind == "f")  # NaN: a mode without a stopping time
    return a == b


@pytest.mark.parametrize("func, args, new, flat, message", [
    (le.draw_linear_student, ([0.5, 2.0], 6, 2),
     dict(teachers=2, variances=le.Variances(init_var=[0.0, 0.3], noise_var=0.2)),
     dict(teachers=2, init_var=[0.0, 0.3], noise_var=0.2),
     r"variances=Variances\(init_var=\.\.\., noise_var=\.\.\.\)"),
    (le.simulate_linear_student, ([0.5, 2.0], 6, 3, [0.0, 1.0, np.inf]),
     dict(snr=[4.0, 1.0], teachers=2, execution=le.Execution(rng=2, chunk=4)),
     dict(snr=[4.0, 1.0], teachers=2, seed=2, chunk=4),
     r"execution=Execution\(rng=\.\.\., chunk=\.\.\.\)"),
    (le.per_mode_stopping_gd, (2.0, 6, 20),
     dict(snr=4.0, lr=0.05, steps=30, execution=le.Execution(rng=3)),
     dict(snr=4.0, lr=0.05, steps=30, seed=3),
     r"execution=Execution\(rng=\.\.\.\)"),
    (le.random_feature_relu, (5, 8, [4, 12], 2, [0.0, 1.0, np.inf]),
     dict(labels=le.LinearLabels(snr=4.0, teachers=2, n_test=7), execution=le.Execution(rng=1, chunk=5)),
     dict(snr=4.0, teachers=2, n_test=7, seed=1, block=5),
     r"labels=LinearLabels\(snr=\.\.\., teachers=\.\.\., n_test=\.\.\.\), execution=Execution\(rng=\.\.\., chunk"),
    (le.random_feature_gd, (5, 8, 6, 2, [0, 3]),
     dict(lr=0.1, labels=le.LinearLabels(snr=4.0, n_test=7), execution=le.Execution(rng=1)),
     dict(lr=0.1, snr=4.0, n_test=7, seed=1),
     r"labels=LinearLabels\(snr=\.\.\., n_test=\.\.\.\), execution=Execution\(rng=\.\.\.\)"),
])
def test_the_flat_form_is_deprecated_and_gives_the_same_bytes(func, args, new, flat, message):
    gen = dict(rng=5) if func is le.draw_linear_student else {}
    expected = func(*args, **new, **gen)
    with pytest.warns(DeprecationWarning, match=message):
        got = func(*args, **flat, **gen)
    assert _same(got, expected)


def test_the_flat_form_refuses_mixing_and_unknown_keywords():
    with pytest.raises(ValueError, match="not both"):
        le.simulate_linear_student([0.5], 6, 1, [1.0], execution=le.Execution(), seed=1)
    with pytest.raises(TypeError, match="no_such"):
        le.random_feature_relu(5, 8, [4], 1, [1.0], no_such=1)
    with pytest.raises(ValueError, match="chunk must be None for random_feature_gd"):
        le.random_feature_gd(5, 8, 6, 1, [1], execution=le.Execution(chunk=2))


# ----------------------------------------------------------------------------- rng: the one random-number convention


def test_an_integer_rng_draws_as_the_former_seed_and_generator():
    # rng=s is torch.Generator().manual_seed(s), what generator= and seed= gave: the draws did not move
    by_hand = torch.Generator().manual_seed(7)
    x = torch.randn(2, 6, 3, generator=by_hand, dtype=torch.float64) / np.sqrt(6)
    batch = le.draw_linear_student([0.5], 6, 2, rng=7)
    assert torch.equal(batch.X, x)
    spectra = le.sample_spectra([0.5], 6, 2, rng=7)
    by_hand = np.linalg.eigvalsh((x @ x.mT).numpy())  # P = 3 < N = 6: three frozen modes, set to 0
    np.testing.assert_allclose(spectra[0][:, 3:], by_hand[:, 3:], rtol=1e-12)
    assert not spectra[0][:, :3].any()
    # the numpy path: default_rng(s)
    data = np.random.default_rng(7).standard_normal((10, 5)) / np.sqrt(10)
    out = le.early_stopping_vs_ridge([0.5], 10, 1, snr=4.0, rng=7)
    lam = np.linalg.eigvalsh(data @ data.T)
    assert out.ridge[0, 0] == pytest.approx(float(ls.single_dataset_ridge_error(lam, 4.0)), rel=1e-12)


@pytest.mark.parametrize("func, args, kw, former", [
    (le.draw_linear_student, ([0.5, 2.0], 6, 2), dict(teachers=2), "generator"),
    (le.sample_spectra, ([0.5, 2.0], 6, 3), {}, "seed"),
    (le.early_stopping_vs_ridge, ([0.5, 2.0], 8, 2), dict(snr=4.0), "seed"),
])
def test_the_former_keyword_warns_and_draws_as_rng(func, args, kw, former):
    value = (lambda: torch.Generator().manual_seed(3)) if former == "generator" else (lambda: 3)
    expected = func(*args, **kw, rng=value())
    with pytest.warns(DeprecationWarning, match=rf"{func.__name__}\({former}=\.\.\.\) is deprecated.*rng="):
        got = func(*args, **kw, **{former: value()})
    assert _same(got, expected)
    assert _same(func(*args, **kw, rng=3), expected)  # an integer: as manual_seed(3)
    with pytest.raises(ValueError, match="one random-number argument, rng"):
        func(*args, **kw, rng=3, **{former: value()})


@pytest.mark.parametrize("call", [
    lambda rng: le.draw_linear_student([0.5], 4, 1, rng=rng),
    lambda rng: le.sample_spectra([0.5], 4, 1, rng=rng),
    lambda rng: le.early_stopping_vs_ridge([0.5], 4, 1, snr=4.0, rng=rng),
    lambda rng: le.Execution(rng=rng),
])
@pytest.mark.parametrize("bad", [-1, 1.5, "x", True])
def test_a_bad_rng_is_refused_by_name(call, bad):
    with pytest.raises(ValueError, match=r"\brng must be an integer >= 0"):
        call(bad)


def test_rng_none_is_fresh_entropy_and_a_generator_is_advanced():
    a = le.random_feature_relu(4, 6, [4], 1, [1.0], labels=le.LinearLabels(n_test=5))
    b = le.random_feature_relu(4, 6, [4], 1, [1.0], labels=le.LinearLabels(n_test=5))
    assert not np.array_equal(a.test_error, b.test_error)
    one = le.Execution(rng=torch.Generator().manual_seed(1))
    first = le.random_feature_relu(4, 6, [4], 1, [1.0], labels=le.LinearLabels(n_test=5), execution=one)
    second = le.random_feature_relu(4, 6, [4], 1, [1.0], labels=le.LinearLabels(n_test=5), execution=one)
    assert not np.array_equal(first.test_error, second.test_error)
    again = le.random_feature_relu(4, 6, [4], 1, [1.0], labels=le.LinearLabels(n_test=5),
                                   execution=le.Execution(rng=1))
    assert _same(again, first)  # the generator's first run is rng=1's
    stream = seeding.stream(0, "x")
    assert _same(le.sample_spectra([0.5], 4, 2, rng=stream), le.sample_spectra([0.5], 4, 2, rng=stream))


def test_the_advani_saxe_chapters_series_never_share_a_stream():
    # the series of runs of the five Advani-Saxe chapters, as they derive them from SEED: the root
    # itself (one series per chapter) and named streams; no two may draw alike, within a SEED or across
    # SEEDs (the former SEED + 1, SEED + 100 + 10 j + m made SEED = 1's runs SEED = 0's shifted)
    def series(seed):
        yield ("root",), seed
        for name in ("width-sweep", "per-mode", "decomposition", "fig2"):
            yield (name,), seeding.stream(seed, name)
        for name in ("finite-size-spectra", "finite-size-simulation"):
            for j in range(2):
                for m in range(6):
                    yield (name, j, m), seeding.stream(seed, name, j, m)

    seen = {}
    for seed in range(4):
        for path, rng in series(seed):
            key = seeding.torch_generator(rng).initial_seed()
            assert key not in seen, f"SEED {seed} {path} draws as {seen.get(key)}"
            seen[key] = (seed, path)
