"""gendyn.softmax_multitask (reconstructed theory of Lee & Ndirango 2019) and
gendyn.multitask_train (batched students) against Monte Carlo, autograd and simulation."""

import math

import numpy as np
import pytest
import torch
from scipy import integrate, stats

from gendyn import multitask_train as mt
from gendyn import seeding
from gendyn import softmax_multitask as sm
from flat_grid import run_flat



def centred_unit(k, rng):
    u = rng.standard_normal(k)
    u -= u.mean()
    return u / np.linalg.norm(u)


# ----------------------------------------------------------------------------------------
# the matrix function M(W), eqs. (13)-(16)
# ----------------------------------------------------------------------------------------


def test_gaussian_integration_by_parts_matches_autograd_of_monte_carlo_loss():
    """grad_W E[lse(W x)] (autograd of the Monte Carlo loss) = M(W) W Sigma (14)."""
    rng = np.random.default_rng(0)
    k, n = 4, 6
    w = rng.standard_normal((k, n))
    a = rng.standard_normal((n, n))
    sigma = a @ a.T / n + 0.5 * np.eye(n)
    formula = sm.gaussian_softmax_feature_covariance(w, sigma, n_samples=2**17, rng=1)
    # autograd of the Monte Carlo estimate of the loss, on independent draws
    gen = torch.Generator().manual_seed(2)
    x = torch.randn(2**17, n, generator=gen, dtype=torch.float64) @ torch.linalg.cholesky(torch.tensor(sigma)).T
    wt = torch.tensor(w, requires_grad=True)
    per = torch.logsumexp(x @ wt.T, -1)
    grad = torch.autograd.grad(per.mean(), wt)[0].numpy()
    # standard error of the autograd estimate, entrywise: sd of softmax(Wx) x^T over samples
    p = torch.softmax(x @ wt.detach().T, -1)
    se = (p[:, :, None] * x[:, None, :]).std(0).numpy() / math.sqrt(len(x))
    assert np.all(np.abs(grad - formula) <= 5 * se + 2e-3 * np.abs(formula).max())


def test_curvature_is_psd_with_one_zero_eigenvalue_along_ones():
    rng = np.random.default_rng(3)
    w = rng.standard_normal((5, 7, 8)) * np.array([0.1, 1, 3, 10, 0.5])[:, None, None]
    m = sm.softmax_curvature(w, n_samples=4096, rng=0)
    evals, evecs = np.linalg.eigh(m)
    assert np.all(np.abs(evals[:, 0]) < 1e-12)
    assert np.all(evals[:, 1] > 1e-6)
    ones = np.ones(7) / math.sqrt(7)
    assert np.allclose(np.abs(evecs[:, :, 0] @ ones), 1, atol=1e-8)


def test_rank1_curvature_matches_adaptive_quadrature_and_monte_carlo():
    rng = np.random.default_rng(4)
    u = centred_unit(6, rng)
    v = rng.standard_normal(9)
    v /= np.linalg.norm(v)
    for s in (0.0, 0.7, 5.0, 300.0):
        def integrand(g, s=s):
            p = sm.softmax(s * g * u)
            return ((p * u**2).sum() - (p @ u) ** 2) * math.exp(-g * g / 2) / math.sqrt(2 * math.pi)

        ref = sum(integrate.quad(integrand, a, b, limit=400, epsabs=1e-14)[0]
                  for a, b in ((-40, -1), (-1, 0), (0, 1), (1, 40)))
        assert sm.ta_curvature(s, u) == pytest.approx(ref, abs=1e-10)
        m = sm.rank1_curvature(s, u)
        assert u @ m @ u == pytest.approx(sm.ta_curvature(s, u), abs=1e-12)
    mc = sm.softmax_curvature(2.0 * np.outer(u, v), n_samples=2**17, rng=0)
    assert np.allclose(mc, sm.rank1_curvature(2.0, u), atol=3e-3)


def test_ta_curvature_starts_at_one_over_k_decreases_and_its_signal_saturates_at_clean_limit():
    u = centred_unit(10, np.random.default_rng(5))
    s = np.geomspace(1e-3, 1e4, 60)
    f = sm.ta_curvature(s, u)
    assert sm.ta_curvature(0.0, u) == pytest.approx(0.1, abs=1e-10)
    assert np.all(np.diff(f) < 0)
    assert sm.ta_signal(1e6, u) == pytest.approx(sm.clean_rank1_signal(u), rel=1e-4)
    assert np.all(np.diff(sm.ta_signal(s, u)) > 0)


# ----------------------------------------------------------------------------------------
# dynamics (2), (3), (9), (10)
# ----------------------------------------------------------------------------------------


def test_composite_flow_is_the_gradient_descent_step_of_the_layers():
    rng = np.random.default_rng(6)
    k, h, n, p = 4, 5, 6, 50000
    w1, w2 = 0.3 * rng.standard_normal((h, n)), 0.3 * rng.standard_normal((k, h))
    x = rng.standard_normal((p, n))
    y = rng.integers(0, k, p)
    syx = sm.label_feature_covariance(x, y, k)
    # empirical gradient of each layer, then the composite's change to first order
    g = syx - sm.softmax_feature_covariance(w2 @ w1, x)
    eta = 1e-6
    dw = ((w2 + eta * g @ w1.T) @ (w1 + eta * w2.T @ g) - w2 @ w1) / eta
    empirical = w2 @ w2.T @ g + g @ w1.T @ w1
    assert np.allclose(dw, empirical, atol=1e-5)
    # (2) with the Gaussian form (14) of the softmax term agrees up to sampling error O(P^-1/2)
    flow = sm.composite_flow([w1, w2], syx, n_samples=2**16)
    assert np.abs(flow - empirical).max() < 5e-2 * np.abs(empirical).max() + 0.02


def test_ta_dynamics_match_a_simulated_training_aligned_student():
    """Eq. (3) against gradient descent of a rank-1 TA student, low SNR (diagonal M)."""
    n, k, p = 12, 5, 3000
    data = mt.draw_tasks([0], n_train_a=p, n_val=10, dtype=torch.float64,
                         teachers=mt.TeacherPair(n_features=n, rank=1, n_classes=k))
    y = data.labels_a([0.1])
    syx = sm.label_feature_covariance(data.x_a[0].numpy(), y[0, :, 0].numpy(), k)
    big_u, svals, vt = np.linalg.svd((np.eye(k) - 1 / k) @ syx)
    sigma_hat, u, v = svals[0], big_u[:, 0], vt[0]
    s0, lr, steps = 1e-3, 0.1, 1000  # (the draw of seed 0 since gendyn.seeding: 700 steps end 2e-3 short)
    w1 = np.zeros((4, n))
    w2 = np.zeros((k, 4))
    w1[0], w2[:, 0] = math.sqrt(s0) * v, math.sqrt(s0) * u
    res = mt.train_students(data.x_a, y, data.x_val, data.labels_val(),
                            [torch.tensor(w1)[None], torch.tensor(w2)[None]],
                            schedule=mt.GridSchedule(lr=lr, steps=steps, eval_every=20),
                            options=mt.TrainOptions(keep_trajectory=True))
    s_sim = np.linalg.svd(res.trajectory[0, 0], compute_uv=False)[:, 0]
    s_th = sm.ta_trajectory(res.eval_steps * lr, s0, sigma_hat, u)
    assert np.max(np.abs(s_sim - s_th) / s_th) < 0.05
    assert s_th[-1] == pytest.approx(sm.ta_fixed_point(sigma_hat, u), rel=1e-3)


def test_conservation_law_and_monotone_loss_of_gradient_descent():
    data = mt.draw_tasks([1], n_train_a=300, n_val=50, dtype=torch.float64,
                         teachers=mt.TeacherPair(n_features=8, rank=2))
    w0 = mt.init_student([1], n_features=8, n_classes=2, n_heads=1, dtype=torch.float64,
                         students=mt.GridStudents(hidden=6, depth=1))
    y = data.labels_a([2.0])
    res = mt.train_students(data.x_a, y, data.x_val, data.labels_val(), w0,
                            schedule=mt.GridSchedule(lr=0.01, steps=300, eval_every=10))
    assert np.all(np.diff(res.train_loss[0, 0]) <= 1e-12)  # (10): the training loss never rises


# ----------------------------------------------------------------------------------------
# relatedness (4) and the bounds (22)-(25)
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("r", [0.0, 0.3, 1.0])
def test_relatedness_of_the_authors_teacher_pair(r):
    data = mt.draw_tasks([0, 1], n_train_a=5, n_train_b=5, n_val=5, dtype=torch.float64,
                         teachers=mt.TeacherPair(n_features=20, rank=3))
    for i in range(2):
        va = np.linalg.svd(data.teacher_a[i].numpy())[2][:3].T
        vb = np.linalg.svd(data.teacher_b(r)[i].numpy())[2][:3].T
        assert sm.relatedness(va, vb) == pytest.approx(r, abs=1e-10)


def test_benefit_bounds_hold_for_random_students():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((500, 6))
    y = rng.integers(0, 4, 500)
    w_st = rng.standard_normal((30, 4, 6))
    w_mt = w_st + rng.standard_normal((30, 4, 6))
    lo, b, up = sm.benefit_bounds(w_st, w_mt, x, y)
    assert np.all(lo <= b + 1e-12) and np.all(b <= up + 1e-12)
    assert np.allclose(b, sm.cross_entropy(w_st, x, y) - sm.cross_entropy(w_mt, x, y))


# ----------------------------------------------------------------------------------------
# the batched trainer
# ----------------------------------------------------------------------------------------

SMALL = dict(rank=3, n_features=10, hidden=8, n_val=200, lr=1.0, steps=30, eval_every=3, progress=False)


def test_batched_equals_unbatched():
    kw = dict(SMALL, dtype=torch.float64)
    whole = run_flat(seeds=[3], n_train=[60], s_a=(0.5, 5.0), s_b=(0.1, 3.0), relatedness=(0.0, 1.0), **kw)
    for i, cell in [(0, whole.cells[0]), (5, whole.cells[5])]:
        one = run_flat(seeds=[3], n_train=[60], s_a=(cell["s_a"],), s_b=(cell["s_b"],),
                          relatedness=(cell["relatedness"],), **kw)
        assert one.mt_loss[0] == pytest.approx(whole.mt_loss[i], abs=1e-10)
        assert one.st_loss[0] == pytest.approx(whole.st_loss[i], abs=1e-10)


def test_masks_equal_smaller_pools_and_relu_runs():
    kw = dict(SMALL, dtype=torch.float64)
    masked = run_flat(seeds=[2], n_train=[40], n_train_aux=(40, 80), s_a=(3.0,), s_b=(3.0,),
                         relatedness=(1.0,), **kw)
    alone = run_flat(seeds=[2], n_train=[40], n_train_aux=(40,), s_a=(3.0,), s_b=(3.0,), relatedness=(1.0,), **kw)
    # the aux run of size 40 uses the first 40 points of the pool of 80: same data as a pool of 40
    assert masked.mt_loss[0] == pytest.approx(alone.mt_loss[0], abs=1e-10)
    relu = run_flat(seeds=[2], n_train=[40], s_a=(3.0,), s_b=(3.0,), relatedness=(0.0, 1.0), depth=2,
                       activation="relu", **kw)
    assert relu.bounds is None and np.all(np.isfinite(relu.benefit))


def _autograd_reference(x_a, y_a, x_val, y_val, weights, *, x_b=None, y_b=None, mask_a=None, mask_b=None, loss, lr,
                        steps):
    """Full-batch gradient descent on the ReLU students' loss by autograd: validation curve and train losses."""
    params = [w.clone().requires_grad_(True) for w in weights]
    n_heads = 2 if x_b is not None else 1
    trunk, heads = params[:-n_heads], params[-n_heads:]
    s, p_a, r = y_a.shape[:3]
    w_a = mask_a / mask_a.sum(1, keepdim=True) if mask_a is not None else torch.full((s, p_a, r), 1.0 / p_a,
                                                                                    dtype=x_a.dtype)
    tasks = [(x_a, y_a, w_a)]
    if x_b is not None:
        w_b = mask_b / mask_b.sum(1, keepdim=True) if mask_b is not None else torch.full(
            (s, x_b.shape[1], r), 1.0 / x_b.shape[1], dtype=x_a.dtype)
        tasks.append((x_b, y_b, w_b))
    val_w = torch.full(y_val.shape[:3], 1.0 / y_val.shape[1], dtype=x_a.dtype)
    val, train = [], []
    for _ in range(steps + 1):
        with torch.no_grad():
            val.append(mt._weighted_loss(mt._logits(x_val, trunk, heads[0], "relu"), y_val, val_w, loss))
        total = 0
        for t, (x, y, w) in enumerate(tasks):
            task_loss = mt._weighted_loss(mt._logits(x, trunk, heads[t], "relu"), y, w, loss)
            if t == 0:
                train.append(task_loss.detach())
            total = total + task_loss.sum()
        grads = torch.autograd.grad(total, params)
        with torch.no_grad():
            for w, g in zip(params, grads):
                w.sub_(lr * g)
    return torch.stack(val, -1).numpy(), torch.stack(train, -1).numpy()


@pytest.mark.parametrize("multitask, loss, depth, masked",
                         [(True, "ce", 3, False), (False, "ce", 3, False), (True, "mse", 3, False),
                          (True, "ce", 1, False), (False, "ce", 2, True)])
def test_relu_gradients_written_out_equal_autograd(multitask, loss, depth, masked):
    data = mt.draw_tasks([4], n_train_a=30, n_train_b=50, n_val=40, dtype=torch.float64,
                         teachers=mt.TeacherPair(n_features=10, rank=3))
    w0 = mt.init_student([4], n_features=10, n_classes=3, n_heads=2 if multitask else 1, dtype=torch.float64,
                         students=mt.GridStudents(hidden=8, depth=depth, activation="relu", init_scale=1.0))
    if loss == "ce":
        y_a, y_b, y_val = data.labels_a([0.5, 4.0]), data.labels_b([1.0, 3.0], [0.0, 1.0]), data.labels_val()
        y_val_runs = y_val[:, :, None].expand(-1, -1, 2)
    else:
        y_a, y_b = data.regression_targets_a([0.5, 4.0]), data.regression_targets_b([1.0, 3.0], [0.0, 1.0])
        z = data.x_val @ data.teacher_a.mT
        y_val = y_val_runs = torch.tensor([0.5, 4.0], dtype=torch.float64)[None, None, :, None] * z[:, :, None, :]
    mask_b = (torch.arange(50)[None, :, None] < torch.tensor([30, 50])[None, None, :]).double()
    extra = dict(x_b=data.x_b, y_b=y_b, mask_b=mask_b) if multitask else {}
    mask_a = (torch.arange(30)[None, :, None] < torch.tensor([20, 30])[None, None, :]).double() if masked else None
    ours = mt.train_students(data.x_a, y_a, data.x_val, y_val, w0, sets=mt.TrainingSets(mask_a=mask_a, **extra),
                             schedule=mt.GridSchedule(loss=loss, lr=0.3, steps=12, eval_every=1),
                             options=mt.TrainOptions(activation="relu"))
    val, train = _autograd_reference(data.x_a, y_a, data.x_val, y_val_runs, [w[:, None].expand(-1, 2, *w.shape[1:])
                                     for w in w0], loss=loss, lr=0.3, steps=12, mask_a=mask_a, **extra)
    np.testing.assert_allclose(ours.val_loss, val, rtol=1e-12)
    np.testing.assert_allclose(ours.train_loss, train, rtol=1e-12)
    assert np.all(ours.train_loss[..., -1] < ours.train_loss[..., 0])  # the runs did train


def test_draw_dtype_separates_the_draws_from_the_arithmetic():
    kw = dict(SMALL, seeds=[1], n_train=[40], s_a=(0.5, 4.0), s_b=(3.0,), relatedness=(0.0, 1.0), depth=2,
              activation="relu")
    f64 = run_flat(**kw, dtype=torch.float64)
    assert np.array_equal(run_flat(**kw, dtype=torch.float64, draw_dtype=torch.float64).mt_loss, f64.mt_loss)
    f32 = run_flat(**kw, dtype=torch.float32, draw_dtype=torch.float64)  # same data, float32 arithmetic
    plain32 = run_flat(**kw, dtype=torch.float32)  # float32 draws: torch draws other numbers
    assert np.abs(f32.benefit - f64.benefit).max() < 1e-4 and not np.array_equal(f32.mt_loss, f64.mt_loss)
    assert np.abs(plain32.benefit - f64.benefit).max() > 1e-3
    with pytest.raises(ValueError, match="dtype"):
        run_flat(**kw, draw_dtype=torch.int64)


def test_worker_processes_give_the_same_grid():
    kw = dict(seeds=[0, 1], n_train=[40, 60], s_a=(0.5, 4.0), s_b=(2.0,), relatedness=(0.0, 1.0), **SMALL)
    one, two = run_flat(**kw), run_flat(**kw, workers=2)
    assert one.cells == two.cells and one.runs == two.runs and one.at_end == two.at_end
    assert np.array_equal(one.mt_loss, two.mt_loss) and np.array_equal(one.st_loss, two.st_loss)
    assert all(np.array_equal(a, b) for a, b in zip(one.bounds, two.bounds))


def test_results_identical_run_to_run_and_minibatches_differ():
    a = run_flat(seeds=[0, 1], n_train=[50], s_a=(2.0,), s_b=(2.0,), relatedness=(0.5,), **SMALL)
    b = run_flat(seeds=[0, 1], n_train=[50], s_a=(2.0,), s_b=(2.0,), relatedness=(0.5,), **SMALL)
    assert np.array_equal(a.mt_loss, b.mt_loss) and np.array_equal(a.st_loss, b.st_loss)
    data = mt.draw_tasks([0], n_train_a=50, n_val=20, teachers=mt.TeacherPair(n_features=10, rank=3))
    w0 = mt.init_student([0], n_features=10, n_classes=3, n_heads=1, students=mt.GridStudents(hidden=8))
    y = data.labels_a([2.0])
    full = mt.train_students(data.x_a, y, data.x_val, data.labels_val(), w0,
                             schedule=mt.GridSchedule(lr=0.5, steps=20))
    mini = mt.train_students(data.x_a, y, data.x_val, data.labels_val(), w0,
                             schedule=mt.GridSchedule(lr=0.5, steps=20), options=mt.TrainOptions(batch_size=16))
    mini2 = mt.train_students(data.x_a, y, data.x_val, data.labels_val(), w0,
                              schedule=mt.GridSchedule(lr=0.5, steps=20), options=mt.TrainOptions(batch_size=16))
    assert not np.allclose(full.val_loss, mini.val_loss) and np.array_equal(mini.val_loss, mini2.val_loss)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: mt.draw_tasks([0], n_train_a=10,
                               teachers=mt.TeacherPair(n_features=1)), "n_features must be an integer >= 2; got 1"),
        (lambda: mt.draw_tasks([0], n_train_a=10,
                               teachers=mt.TeacherPair(n_features=10, rank=6)), "2\\*rank <= n_features"),
        (lambda: mt.draw_tasks([-1],
                               n_train_a=10), r"seeds must be a non-empty sequence of integers >= 0; got \[-1\]"),
        (lambda: run_flat(seeds=[0], n_train=[10], relatedness=(1.5,)),
         r"relatedness must be a 1-d array of real numbers in \[0, 1\]; got \[1.5\]"),
        (lambda: run_flat(seeds=[0], n_train=[10], lr=-1.0), "lr must be a finite number > 0; got -1.0"),
        (lambda: run_flat(seeds=[0], n_train=[10], workers=0), "workers must be an integer >= 1; got 0"),
        (lambda: mt.init_student([0], n_features=4, n_classes=2, students=mt.GridStudents(activation="tanh")),
         "activation must be one of \\('linear', 'relu'\\); got 'tanh'"),
        (lambda: sm.ta_curvature(1.0, [1.0, 2.0, 3.0]), "orthogonal to the all-ones vector"),
        (lambda: sm.ta_curvature(-1.0, [1.0, -1.0]), r"s must be real numbers in \[0, inf\) \(singular values\); got -1.0"),
        (lambda: sm.ta_trajectory([0, 1], 0.0, 0.1, [1.0, -1.0]), r"s0 must be a real number in \(0, inf\) .*; got 0.0"),
        (lambda: sm.softmax_curvature(np.ones((2, 3)), n_samples=1), "n_samples must be an integer >= 2; got 1"),
        (lambda: sm.label_feature_covariance(np.ones((3, 2)), np.array([0, 1, 5]), 3),
         r"y must be integer class labels in \[0, 3\) .*; got labels from 0 to 5"),
        # a label -1 used to act as the last class (numpy's negative indexing)
        (lambda: sm.cross_entropy(np.ones((3, 2)), np.ones((2, 2)), np.array([0, -1])),
         r"y must be integer class labels in \[0, 3\) .*; got labels from -1 to 0"),
    ],
)
def test_bad_inputs_raise_value_error_naming_value_and_range(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_train_students_refuses_labels_outside_the_classes():
    """A label -1 would index the last class (torch's gather), a label K fail inside torch."""
    data = mt.draw_tasks([0], n_train_a=6, n_val=4, dtype=torch.float64,
                         teachers=mt.TeacherPair(n_features=4, rank=2))
    w0 = mt.init_student([0], n_features=4, n_classes=2, n_heads=1, dtype=torch.float64,
                         students=mt.GridStudents(hidden=3))
    y = data.labels_a([1.0])
    for bad in (-1, 2):
        y_bad = y.clone()
        y_bad[0, 0, 0] = bad
        with pytest.raises(ValueError, match=r"y_a must be integer class labels in \[0, 2\)"):
            mt.train_students(data.x_a, y_bad, data.x_val, data.labels_val(), w0, schedule=mt.GridSchedule(steps=1))


def test_noisy_argmax_probabilities_match_sampling_and_the_two_class_closed_form():
    z = np.array([0.3, -0.2, 0.1, 0.0])
    p = sm.noisy_argmax_probabilities(z, 0.5)
    assert abs(p.sum() - 1) < 1e-12
    rng = np.random.default_rng(1)
    n = 400_000
    freq = np.bincount((z + 0.5 * rng.standard_normal((n, 4))).argmax(1), minlength=4) / n
    assert np.all(np.abs(freq - p) < 4 * np.sqrt(p * (1 - p) / n))
    # K = 2: P(z_1 + s xi_1 > z_2 + s xi_2) = Phi((z_1 - z_2) / (s sqrt 2))
    for gap, std in ((0.8, 0.3), (-2.0, 0.1), (0.0, 1.0)):
        p2 = sm.noisy_argmax_probabilities([gap, 0.0], std)
        assert abs(p2[0] - stats.norm.cdf(gap / (std * np.sqrt(2)))) < 1e-12


def test_noisy_label_entropy_limits_and_monotone_in_snr():
    s = np.array([0.0, 0.01, 0.1, 1.0, 10.0])
    h, se = sm.noisy_label_entropy(s, 10, 1 / np.sqrt(20), n_samples=512, rng=0, return_stderr=True)
    assert abs(h[0] - np.log(10)) < 1e-12 and se[0] < 1e-12  # no signal: uniform labels
    assert np.all(np.diff(h) < 0) and h[-1] < 0.06  # clean labels: entropy -> 0
    # only s / noise_std matters (the logits scale together)
    assert np.allclose(sm.noisy_label_entropy([0.2], 3, 0.5, n_samples=256, rng=0),
                       sm.noisy_label_entropy([0.4], 3, 1.0, n_samples=256, rng=0))


def test_noisy_label_entropy_is_the_sampled_conditional_entropy():
    # draw inputs' logits, then many labels per input: the plug-in entropy per input, averaged
    rng = np.random.default_rng(3)
    s, std, k = 0.3, 0.25, 3
    z = rng.standard_normal((200, k))
    labels = (s * z[:, None, :] + std * rng.standard_normal((200, 20_000, k))).argmax(-1)
    freq = np.stack([np.bincount(row, minlength=k) for row in labels]) / labels.shape[1]
    plug_in = -(freq * np.log(np.where(freq > 0, freq, 1))).sum(-1)
    exact = -(lambda p: (p * np.log(p)).sum(-1))(sm.noisy_argmax_probabilities(s * z, std))
    # per input the plug-in estimate has sampling error ~ sqrt(Var(log p) / 20000) ~ 0.005
    diff = plug_in - exact
    assert abs(diff.mean()) < 4 * diff.std() / np.sqrt(len(diff)) + (k - 1) / (2 * labels.shape[1])
    assert np.abs(diff).max() < 0.03
    h, se = sm.noisy_label_entropy(s, k, std, n_samples=4096, rng=0, return_stderr=True)
    assert abs(h - exact.mean()) < 4 * np.hypot(se, exact.std() / np.sqrt(len(exact)))


def test_noisy_label_entropy_needs_antithetic_pairs():
    with pytest.raises(ValueError, match="n_samples must be even"):
        sm.noisy_label_entropy(0.5, 3, 0.5, n_samples=7)
    with pytest.raises(ValueError, match="n_samples"):
        sm.noisy_label_entropy(0.5, 3, 0.5, n_samples=2)


def test_ta_prediction_gathers_the_ta_theory_of_one_student():
    u = np.array([1.0, 0.5, -1.5]) / np.linalg.norm([1.0, 0.5, -1.5])
    ubar = np.array([1.0, 0.0, -1.0]) / math.sqrt(2)
    t = np.linspace(0, 20, 11)
    pred = sm.ta_prediction(t, 1e-3, 0.2, u, ubar, 0.9)
    np.testing.assert_array_equal(pred.s, sm.ta_trajectory(t, 1e-3, 0.2, u))
    assert pred.s_star == sm.ta_fixed_point(0.2, u)
    assert pred.rho == float(sm.off_diagonal_ratio(pred.s_star, u))
    np.testing.assert_array_equal(pred.loss, sm.ta_generalization_loss(pred.s, u, ubar, 0.9))
    # at the clean-label limit the fixed point is infinite, and so is rho, by definition
    top = float(sm.clean_rank1_signal(u))
    clean = sm.ta_prediction(t[:3], 1e-3, top, u, ubar, 1.0)
    assert math.isinf(clean.s_star) and math.isinf(clean.rho) and np.isfinite(clean.loss).all()


# ----------------------------------------------------------------------------------------
# the setup chapter's checks: batches of M, the bound (5) on a grid, gradient descent (9)-(10)
# ----------------------------------------------------------------------------------------


def test_expected_max_normal_is_the_mean_of_the_largest_of_k_normals():
    assert sm.expected_max_normal(2) == pytest.approx(1 / math.sqrt(math.pi), rel=1e-10)
    draws = np.random.default_rng(0).standard_normal((200_000, 10)).max(1)
    assert sm.expected_max_normal(10) == pytest.approx(draws.mean(), abs=4 * draws.std() / math.sqrt(len(draws)))
    mu = sm.expected_max_normal(10)
    assert sm.label_agreement_excess(0.01, 10, 0.5) == pytest.approx(mu**2 / 9 * 0.02, rel=1e-14)


def test_softmax_curvature_batches_are_independent_estimates_from_streams_of_rng():
    rng = np.random.default_rng(1)
    w = rng.standard_normal((3, 4))
    batches = sm.softmax_curvature_batches(w, n_samples=400, batches=4, rng=2)
    assert batches.shape == (4, 3, 3)
    for b in range(4):
        assert np.array_equal(batches[b], sm.softmax_curvature(w, n_samples=100, rng=seeding.stream(2, b)))
    assert not np.allclose(batches[0], batches[1])
    with pytest.raises(ValueError, match="n_samples"):
        sm.softmax_curvature_batches(w, n_samples=6, batches=4)


def test_rank_one_benefit_bound_is_an_upper_bound_and_zero_on_the_diagonal():
    rng = np.random.default_rng(2)
    u_bar = centred_unit(10, rng)
    u_hat = u_bar + 0.3 * rng.standard_normal(10)
    u_hat -= u_hat.mean()
    u_hat /= np.linalg.norm(u_hat)
    s = np.geomspace(0.05, 30, 25)
    res = sm.rank_one_benefit_bound(s, u_hat, u_bar, overlap=0.8)
    assert isinstance(res, sm.RankOneBound)
    assert np.all(res.benefit <= res.bound + 1e-10)  # (5), by convexity
    assert np.allclose(np.diag(res.benefit), 0) and np.allclose(np.diag(res.bound), 0)
    loss = sm.ta_generalization_loss(s, u_hat, u_bar, 0.8)
    assert np.allclose(res.benefit, loss[:, None] - loss[None, :])
    assert res.s_opt == s[np.argmin(loss)]
    with pytest.raises(ValueError, match="u"):
        sm.rank_one_benefit_bound(s, 2 * u_hat, u_bar)


def test_two_layer_gradient_descent_conserves_9_to_order_lr2_and_decreases_the_loss():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((200, 6))
    y = (x @ rng.standard_normal((4, 6)).T).argmax(1)
    w1, w2 = 0.3 * rng.standard_normal((3, 6)), 0.3 * rng.standard_normal((4, 3))
    run = sm.two_layer_gradient_descent(x, y, w1, w2, lr=0.05, steps=100)
    assert isinstance(run, sm.GradientDescentRun)
    assert run.losses.shape == (100,) and np.all(np.diff(run.losses) < 0)  # (10)
    assert run.drift <= run.drift_bound * (1 + 1e-9)  # (9): only the lr^2 terms move it
    half = sm.two_layer_gradient_descent(x, y, w1, w2, lr=0.025, steps=200)
    assert half.drift_bound < 0.6 * run.drift_bound  # the same time, half the step: about half the drift
    assert run.losses[0] == pytest.approx(sm.cross_entropy(w2 @ w1, x, y))
    with pytest.raises(ValueError, match="lr"):
        sm.two_layer_gradient_descent(x, y, w1 * 50, w2 * 50, lr=1e6, steps=50)


def test_ta_descent_steps_3_and_tends_to_its_flow():
    u = np.array([1.0, 0.0, -1.0])  # centred; ta_rate normalises it
    s0, sigma_hat = 1e-3, 0.3
    one = s0 * (1 + 0.1 * float(sm.ta_rate(s0, sigma_hat, u)) / (2 * s0)) ** 2
    np.testing.assert_allclose(sm.ta_descent([1, 0], s0, sigma_hat, u, 0.1), [one, s0], rtol=1e-15)
    # at a small step the descent follows the flow of (3) to O(lr)
    lr, steps = 1e-3, np.arange(0, 20001, 5000)
    flow = sm.ta_trajectory(steps * lr, s0, sigma_hat, u)
    np.testing.assert_allclose(sm.ta_descent(steps, s0, sigma_hat, u, lr), flow, rtol=2e-2)
    with pytest.raises(ValueError, match="steps must"):
        sm.ta_descent([], s0, sigma_hat, u, lr)
