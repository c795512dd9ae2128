"""gendyn.train: initialisations, agreement with eq. (9), batching, reproducibility,
learning-rate rescaling, argument checks, nonlinear and two-headed students."""

import numpy as np
import pytest
import torch

from gendyn import task_data, teachers, train

EPS = 1e-5


def gen(seed):
    return torch.Generator().manual_seed(seed)


def designed_sigma31(shat, n1, n3, seed=0):
    """A batch-1 ``Sigma31 = U diag(shat) V^T`` with chosen singular values (float64)."""
    g = gen(seed)
    shat = torch.as_tensor(shat, dtype=torch.float64)
    u = teachers.random_orthonormal(n3, len(shat), batch=(1,), rng=g)
    v = teachers.random_orthonormal(n1, len(shat), batch=(1,), rng=g)
    return (u * shat) @ v.mT


def noisy_task(svals, n1=30, n3=15, seed=1):
    """Rank-1 teachers with the given singular values and their noisy Sigma31 (float64)."""
    g = gen(seed)
    sv = torch.tensor(svals, dtype=torch.float64).reshape(-1, 1)
    teacher = teachers.low_rank_teacher(sv, n1, n3, rng=g)
    return teacher, teachers.noisy_training_covariance(teacher, rng=g)


def eq9(t, shat, eps=EPS):
    """Eq. (9): TA singular value at time t (units of tau) for one hidden layer."""
    e = np.exp(2 * shat * t)
    return shat * e / (e - 1 + shat / eps)


# ----------------------------------------------------------------------------------------
# initialisation
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_layers", [3, 5])
@pytest.mark.parametrize("hidden", [6, 10])
def test_aligned_init_is_eps_times_the_data_modes_and_balanced(n_layers, hidden):
    _, s31 = noisy_task([3.0, 1.0], n1=20, n3=10)
    ws = train.init_weights(s31, hidden, n_layers, "aligned", EPS, dtype=torch.float64)
    shapes = [(2, hidden, 20)] + [(2, hidden, hidden)] * (n_layers - 3) + [(2, 10, hidden)]
    assert [tuple(w.shape) for w in ws] == shapes
    w = train.composite_map(ws)
    m = min(hidden, 10)
    u, s, vh = torch.linalg.svd(s31, full_matrices=False)
    # the composite map is exactly eps Uhat_m Vhat_m^T: top m data modes, singular values eps
    assert torch.allclose(w, EPS * u[..., :m] @ vh[..., :m, :], atol=1e-18, rtol=0)
    assert torch.allclose(torch.linalg.svdvals(w)[..., :m], torch.full((2, m), EPS, dtype=torch.float64))
    for lower, upper in zip(ws[:-1], ws[1:]):  # balanced: W_{l+1}^T W_{l+1} = W_l W_l^T
        assert torch.allclose(upper.mT @ upper, lower @ lower.mT, atol=1e-14)


def test_random_init_has_singular_values_eps_and_random_vectors():
    _, s31 = noisy_task([4.0, 4.0, 4.0], n1=40, n3=20)
    ws = train.init_weights(s31, 20, 5, "random", EPS, rng=gen(0), dtype=torch.float64)
    w = train.composite_map(ws)
    assert torch.allclose(torch.linalg.svdvals(w), torch.full((3, 20), EPS, dtype=torch.float64))
    # singular vectors unrelated to the data: overlap of the top data mode ~ 1/sqrt(N)
    u, _, vh = torch.linalg.svd(s31)
    assert float((u[..., :, 0].unsqueeze(-2) @ w @ vh[..., 0, :].unsqueeze(-1)).abs().max()) < 0.5 * EPS
    # a mixed batch picks per network
    mixed = train.init_weights(s31, 20, 3, ["aligned", "random", "aligned"], EPS, rng=gen(0),
                               dtype=torch.float64)
    aligned = train.init_weights(s31, 20, 3, "aligned", EPS, dtype=torch.float64)
    assert torch.equal(mixed[0][0], aligned[0][0]) and not torch.allclose(mixed[0][1], aligned[0][1])


# ----------------------------------------------------------------------------------------
# gradient descent vs the theory
# ----------------------------------------------------------------------------------------


def test_ta_student_follows_eq9():
    """Each TA mode follows eq. (9) at t = epochs * lr, up to the discretisation delay.

    Gradient descent multiplies the factor sqrt(s) of a small mode by ``1 + lr shat`` per
    step where the flow gives ``exp(lr shat)``: the growth rate is smaller by a relative
    ``lr shat / 2``, so the sigmoid of eq. (9), which takes ``t* = ln(shat/eps) / (2 shat)``
    to rise, arrives late by ``dt = t* lr shat / 2 = lr ln(shat/eps) / 4``. Its steepest
    slope is ``shat^2 / 2``, so ``|s_GD - s_theory| <= lr shat^2 ln(shat/eps) / 8``
    (measured: 0.84 of this bound, proportional to lr).
    """
    shat = np.array([4.0, 2.5, 1.5, 1.0, 0.6, 0.3])
    s31 = designed_sigma31(shat, n1=12, n3=6)
    lr = 1e-3
    res = train.train_students(s31, train.Architecture(hidden=6), train.Schedule(lr=lr, epochs=6000, n_records=150),
                               start=train.Start(eps=EPS), evaluation=train.Evaluation(modes=6),
                               execution=train.Execution(dtype=torch.float64))
    theory = eq9(res.time[:, None], shat[None, :])
    bound = lr * shat**2 * np.log(shat / EPS) / 8
    err = np.abs(res.mode_strength[0] - theory)
    assert np.all(err <= bound + 1e-12), (err.max(0), bound)
    assert err[:, 0].max() > 0.5 * bound[0]  # the bound is tight, not vacuous
    # the singular vectors never move: once the modes have separated the student's
    # singular values are its strengths along the data modes and the alignments are 1
    late = res.time > 1.0
    assert np.allclose(res.svals[0, late], res.mode_strength[0, late], rtol=1e-8)
    assert np.allclose(res.alignment[0, late], 1.0, atol=1e-8)
    # the train error is eq. (6) with these singular values
    train_theory = ((res.mode_strength[0] - shat) ** 2).sum(-1) / (shat**2).sum()
    assert np.allclose(res.train_error[0], train_theory, rtol=1e-8, atol=1e-14)


def test_linear_test_error_is_eq5_and_data_svals_reported():
    teacher, s31 = noisy_task([3.0, 1.0])
    res = train.train_students(s31, train.Architecture(hidden=15),
                               train.Schedule(lr=1e-2, epochs=50, record_at=[0, 50]),
                               evaluation=train.Evaluation(teacher=teacher),
                               execution=train.Execution(dtype=torch.float64))
    w = train.composite_map(res.weights)
    wbar = teacher.matrix
    expected = ((w - wbar) ** 2).sum((-2, -1)) / (wbar**2).sum((-2, -1))
    assert np.allclose(res.test_error[:, -1], expected.numpy())
    assert np.allclose(res.test_error[:, 0], 1.0, atol=1e-4)  # W(0) ~ eps
    assert np.allclose(res.data_svals, torch.linalg.svdvals(s31).numpy())
    assert np.array_equal(res.epochs, [0, 50]) and np.allclose(res.time, [0.0, 0.5])


def test_lr_1e2_reproduces_lr_1e3_at_equal_time():
    """lr = 1e-2 over 1,000 epochs gives the curves of lr = 1e-3 over 10,000 epochs.

    The only difference is the delay ``dt ~ lr ln(shat/eps) / 4`` of eq. (9)'s sigmoid
    (see :func:`test_ta_student_follows_eq9`): ``9e-3 * ln(3e5) / 4 = 0.03 tau`` between
    the two rates. So: (i) train errors agree within ``max slope * dt``, a few 1e-2;
    (ii) optimal early stopping (error and time) agrees; (iii) after shifting by the
    predicted delay the log test-error curves agree within 5 %.
    """
    teacher, s31 = noisy_task([3.0, 2.0, 1.0, 3.0, 2.0, 1.0], n1=40, n3=20)
    init = ["aligned"] * 3 + ["random"] * 3
    horizon = 10.0
    runs = {}
    for lr in (1e-3, 1e-2):
        grid = np.rint(np.linspace(0, horizon, 201) / lr).astype(int)
        runs[lr] = train.train_students(s31, train.Architecture(hidden=20),
                                        train.Schedule(lr=lr, epochs=int(round(horizon / lr)), record_at=grid),
                                        start=train.Start(init=init), evaluation=train.Evaluation(teacher=teacher),
                                        rng=gen(5))
    fine, coarse = runs[1e-3], runs[1e-2]
    assert np.allclose(fine.time, coarse.time)
    assert np.abs(fine.train_error - coarse.train_error).max() < 0.03
    assert np.allclose(fine.test_error.min(1), coarse.test_error.min(1), rtol=5e-3)
    t_opt = [run.time[run.test_error.argmin(1)] for run in (fine, coarse)]
    assert np.abs(t_opt[0] - t_opt[1]).max() <= 0.1
    delay = (1e-2 - 1e-3) * np.log(fine.data_svals[:, 0] / EPS) / 4
    shifted = np.stack([np.interp(fine.time - d, fine.time, np.log(e)) for d, e in zip(delay, fine.test_error)])
    assert np.abs(shifted - np.log(coarse.test_error)).max() < 0.05


@pytest.mark.parametrize("n_layers", [3, 4, 5])
@pytest.mark.parametrize("activation", [None, "leaky_relu"])
def test_one_step_is_gradient_descent_on_half_the_squared_error(n_layers, activation):
    """The hand-written gradients equal autograd's for L = 1/2 ||f(X) - Y||^2, X = I."""
    _, s31 = noisy_task([3.0, 1.0], n1=12, n3=6)
    ws = train.init_weights(s31, 5, n_layers, "random", 0.5, rng=gen(6), dtype=torch.float64)
    lr = 1e-2
    res = train.train_students(s31,
                               train.Architecture(hidden=5, n_layers=n_layers, activation=activation,
                                                  output_activation=activation is not None),
                               train.Schedule(lr=lr, epochs=1, record_at=[0, 1]), start=train.Start(weights=ws),
                               execution=train.Execution(dtype=torch.float64))
    params = [w.clone().requires_grad_(True) for w in ws]
    out = params[0]
    for p in params[1:]:
        out = p @ (torch.nn.functional.leaky_relu(out, 0.2) if activation else out)
    if activation:
        out = torch.nn.functional.leaky_relu(out, 0.2)
    loss = 0.5 * ((out - s31) ** 2).sum()
    loss.backward()
    for p, w in zip(params, res.weights):
        torch.testing.assert_close(w, (p - lr * p.grad).detach(), rtol=1e-12, atol=1e-14)
    expected = ((out - s31) ** 2).sum((-2, -1)) / (s31**2).sum((-2, -1))
    np.testing.assert_allclose(res.train_error[:, 0], expected.detach().numpy(), rtol=1e-12)


# ----------------------------------------------------------------------------------------
# batching, data forms, reproducibility
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("activation", [None, "leaky_relu"])
def test_batched_equals_one_network_at_a_time(activation):
    teacher, s31 = noisy_task([4.0, 2.0, 0.5, 3.0])
    init = ["aligned", "random", "random", "aligned"]
    ws = train.init_weights(s31, 10, 4, init, [1e-3, 1e-3, 1e-2, 1e-2], rng=gen(3), dtype=torch.float64)
    kw = dict(hidden=10, n_layers=4, lr=5e-3, epochs=300, n_records=20, activation=activation,
              dtype=torch.float64, modes=0 if activation else 3)
    # the nonlinear test error uses Gaussian test inputs shared by the batch: same seed, same inputs
    batched = train.train_students(s31,
                                   **train.train_specs(weights=ws, teacher=teacher.matrix, rng=gen(7), **kw))
    for i in range(4):
        one = train.train_students(s31[i : i + 1],
                                   **train.train_specs(weights=[w[i : i + 1] for w in ws],
                                                       teacher=teacher.matrix[i : i + 1], rng=gen(7), **kw))
        # (not "alignment": it matches student modes by rank, which is arbitrary while
        # their singular values are degenerate, e.g. all equal to eps at t = 0)
        for name in ("train_error", "test_error", "svals", "mode_strength"):
            a, b = getattr(batched, name), getattr(one, name)
            if a is not None:
                np.testing.assert_allclose(a[i : i + 1], b, rtol=1e-9, atol=1e-13, err_msg=name)


def test_inputs_targets_form_matches_sigma31_form():
    """Orthonormal inputs Q with targets Sigma31 Q: the same training as Sigma31 alone."""
    teacher, s31 = noisy_task([3.0, 1.0], n1=20, n3=10)
    q = teachers.random_orthonormal(20, 20, rng=gen(9))
    kw = dict(hidden=8, lr=1e-2, epochs=200, teacher=teacher, n_records=10, dtype=torch.float64)
    a = train.train_students(s31, **train.train_specs(**kw))
    b = train.train_students((q, s31 @ q), **train.train_specs(**kw))
    np.testing.assert_allclose(a.train_error, b.train_error, rtol=1e-9)
    np.testing.assert_allclose(a.test_error, b.test_error, rtol=1e-9)


@pytest.mark.parametrize("activation", [None, "leaky_relu"])
def test_seeded_runs_are_identical(activation):
    teacher, s31 = noisy_task([3.0, 2.0])
    kw = dict(hidden=10, lr=1e-2, epochs=100, init="random", teacher=teacher, activation=activation,
              n_test=200)
    a = train.train_students(s31, **train.train_specs(rng=gen(11), **kw))
    b = train.train_students(s31, **train.train_specs(rng=gen(11), **kw))
    c = train.train_students(s31, **train.train_specs(rng=gen(12), **kw))
    assert np.array_equal(a.train_error, b.train_error) and np.array_equal(a.test_error, b.test_error)
    assert not np.array_equal(a.train_error, c.train_error)
    assert a.train_error.dtype == np.float64 and a.weights[0].dtype == torch.float32


# ----------------------------------------------------------------------------------------
# nonlinear and two-headed students, stability
# ----------------------------------------------------------------------------------------


def test_leaky_relu_with_slope_one_is_the_linear_student():
    teacher, s31 = noisy_task([3.0, 2.0])
    kw = dict(hidden=10, n_layers=4, lr=1e-2, epochs=600, eps=1e-3, init="random", teacher=teacher,
              n_records=12, dtype=torch.float64)
    lin = train.train_students(s31, **train.train_specs(rng=gen(2), **kw))
    leaky = train.train_students(s31,
                                 **train.train_specs(rng=gen(2), activation="leaky_relu", slope=1.0,
                                                     n_test=4000, **kw))
    np.testing.assert_allclose(leaky.train_error, lin.train_error, rtol=1e-9)
    # the nonlinear path estimates the test error with Gaussian inputs
    np.testing.assert_allclose(leaky.test_error, lin.test_error, rtol=0.1)


@pytest.mark.parametrize("output_activation", [False, True])
def test_leaky_relu_students_learn(output_activation):
    teacher, s31 = noisy_task([5.0, 5.0], n1=30, n3=15)
    res = train.train_students(s31,
                               train.Architecture(hidden=15, activation="leaky_relu",
                                                  output_activation=output_activation),
                               train.Schedule(lr=2e-2, epochs=400, n_records=20),
                               start=train.Start(init="random", eps=1e-3),
                               evaluation=train.Evaluation(teacher=teacher, n_test=300), rng=gen(4))
    assert res.train_error.shape == res.test_error.shape == (2, len(res.epochs))
    assert np.all(np.isfinite(res.test_error))
    assert np.all(res.train_error[:, -1] < 0.5) and np.all(res.test_error.min(1) < 0.6)


def test_two_heads_share_the_input_layer_and_report_each_task():
    t_a, s_a = noisy_task([4.0, 4.0], n1=30, n3=10, seed=1)
    t_b, s_b = noisy_task([2.0, 2.0], n1=30, n3=10, seed=2)
    s31 = torch.cat([s_a, s_b], dim=-2)
    wbar = torch.cat([t_a.matrix, t_b.matrix], dim=-2)
    res = train.train_students(s31, train.Architecture(hidden=10, heads=(10, 10)),
                               train.Schedule(lr=1e-2, epochs=300, n_records=10),
                               evaluation=train.Evaluation(teacher=wbar),
                               execution=train.Execution(dtype=torch.float64))
    assert res.head_train_error.shape == res.head_test_error.shape == (2, 2, len(res.epochs))
    w = train.composite_map(res.weights)[..., :10, :]
    expected = ((w - t_a.matrix) ** 2).sum((-2, -1)) / (t_a.matrix**2).sum((-2, -1))
    np.testing.assert_allclose(res.head_test_error[:, 0, -1], expected.numpy(), rtol=1e-9)
    norms = np.stack([(s_a**2).sum((-2, -1)).numpy(), (s_b**2).sum((-2, -1)).numpy()], -1)  # (B, 2)
    total = (res.head_train_error * norms[..., None]).sum(1) / norms.sum(-1, keepdims=True)
    np.testing.assert_allclose(res.train_error, total, rtol=1e-9)


def test_lr_below_the_stability_limit_is_stable_and_above_it_is_refused():
    s31 = designed_sigma31([5.0, 1.0], n1=8, n3=4)
    for n_layers in (3, 5):
        limit = float(train.stability_limit(s31, n_layers)[0])
        assert limit == pytest.approx(2 / ((n_layers - 1) * 5.0 ** (2 - 2 / (n_layers - 1))))
        kw = dict(hidden=4, n_layers=n_layers, eps=1e-2, epochs=int(60 / limit) + 1, n_records=5)
        ok = train.train_students(s31, **train.train_specs(lr=0.95 * limit, **kw))
        assert np.isfinite(ok.train_error).all() and ok.train_error[0, -1] < 0.04  # only shat=1 left
        with pytest.raises(ValueError, match="stability limit"):
            train.train_students(s31, **train.train_specs(lr=1.01 * limit, **kw))
        with pytest.raises(FloatingPointError, match="diverged"):
            train.train_students(s31, **train.train_specs(lr=3 * limit, check_stability=False, **kw))


# ----------------------------------------------------------------------------------------
# argument checks
# ----------------------------------------------------------------------------------------

_S31 = torch.randn(2, 4, 6, generator=gen(0)) * 0.3


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(lr=0.0), "lr must be a finite number > 0"),
        (dict(lr=-1e-3), "lr must be a finite number > 0"),
        (dict(lr=float("nan")), "lr must be a finite number > 0"),
        (dict(epochs=0), "epochs must be an integer >= 1"),
        (dict(epochs=10.5), "epochs must be an integer >= 1"),
        (dict(n_layers=2), r"n_layers must be an integer >= 3"),
        (dict(hidden=0), "hidden must be an integer >= 1"),
        (dict(init="orthogonal"), r"init must be one of \('aligned', 'random'\)"),
        (dict(init=["aligned"]), "init has 1 entries but there are 2 networks"),
        (dict(eps=0.0), "eps"),
        (dict(activation="tanh"), r"activation must be one of \(None, 'linear', 'leaky_relu'\); got 'tanh'"),
        (dict(activation="leaky_relu", slope=-0.1), r"slope \(of the leaky ReLU\) must be a real number in \[0, 1\]; got -0.1"),
        (dict(teacher=torch.zeros(2, 4, 5)), r"teacher must have the shape of sigma31 \(2, 4, 6\)"),
        (dict(heads=(3, 3)), "heads must be output sizes summing to N3=4"),
        (dict(modes=5), r"modes must lie in \[0, min\(N1, N2, N3\)\] = \[0, 4\]"),
        (dict(modes=1, activation="leaky_relu"), "need a linear student"),
        (dict(record_at=[0, 11]), r"record_at must be .* in \[0, 10\]"),
        (dict(dtype=torch.float16), "dtype must be torch.float32 or torch.float64"),
        (dict(device="tpu"), r"device must be 'cpu', 'cuda' or 'cuda:N' \(a str or torch.device\); got 'tpu'"),
        (dict(weights=[torch.zeros(2, 4, 6)]), "weights must hold 2 matrices"),
        (dict(num_threads=0), "num_threads must be an integer >= 1"),
    ],
)
def test_bad_arguments_raise(kwargs, match):
    args = dict(hidden=4, lr=1e-3, epochs=10)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        train.train_students(_S31, **train.train_specs(**args))


def test_bad_data_raise():
    with pytest.raises(ValueError, match=r"sigma31 must have 3 dimensions"):
        train.train_students(torch.zeros(4, 6), train.Architecture(hidden=2), train.Schedule(epochs=1))
    with pytest.raises(ValueError, match="must agree in B and P"):
        train.train_students((torch.zeros(6, 5), torch.zeros(2, 4, 7)), train.Architecture(hidden=2),
                             train.Schedule(epochs=1))
    with pytest.raises(ValueError, match="data must be sigma31"):
        train.train_students(np.zeros((2, 4, 6)), train.Architecture(hidden=2), train.Schedule(epochs=1))
    with pytest.raises(ValueError, match=r"training targets of network\(s\) \[1\] are all zero"):
        train.train_students(torch.cat([_S31[:1], torch.zeros(1, 4, 6)]), train.Architecture(hidden=2),
                             train.Schedule(epochs=1))
    zero_teacher = train.train_students(_S31, train.Architecture(hidden=2), train.Schedule(epochs=1),
                                        evaluation=train.Evaluation(teacher=torch.zeros(2, 4, 6)))
    assert np.isnan(zero_teacher.test_error).all()
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA device is available"):
            train.train_students(_S31, train.Architecture(hidden=2), train.Schedule(epochs=1),
                                 execution=train.Execution(device="cuda"))


def test_log_epoch_grid():
    grid = train.log_epoch_grid(10_000, 100)
    assert grid[0] == 0 and grid[-1] == 10_000 and np.all(np.diff(grid) > 0) and 80 <= len(grid) <= 100
    assert list(train.log_epoch_grid(5, 2)) == [0, 5]


# ----------------------------------------------------------------------------------------
# reading recorded curves
# ----------------------------------------------------------------------------------------


def test_first_crossing_interpolates_and_flags_misses():
    time = np.array([0.0, 1.0, 2.0, 4.0])
    values = np.array([[0.0, 0.2, 0.6, 1.0], [0.9, 0.95, 0.97, 0.99], [0.0, 0.1, 0.1, 0.2]])
    out = train.first_crossing(time, values, [0.4, 0.5, 0.5])
    assert out[0] == pytest.approx(1.5) and out[1] == 0.0 and np.isnan(out[2])
    down = train.first_crossing(time, 1 - values[:1], 0.6, direction="down")
    assert down[0] == pytest.approx(1.5)
    with pytest.raises(ValueError, match="direction must be"):
        train.first_crossing(time, values, 0.5, direction="sideways")


def test_empirical_optimal_stopping_refines_a_log_grid():
    time = np.concatenate([[0.0], np.geomspace(0.1, 10, 41)])
    t_true = np.array([0.77, 1.9, 3.3])
    err = np.exp((np.log(time[1:])[None, :] - np.log(t_true)[:, None]) ** 2)  # exact parabola in log t
    err = np.concatenate([np.full((3, 1), 5.0), err], axis=1)
    t_opt, e_min = train.empirical_optimal_stopping(time, err)
    np.testing.assert_allclose(t_opt, t_true, rtol=1e-9)
    assert np.all(e_min >= 1.0) and np.all(e_min < 1.02)
    # a minimum at the end of the records stays there; one curve works too
    t_end, _ = train.empirical_optimal_stopping(time, -time + 20.0)
    assert t_end == time[-1]


def test_snr_sweep_layout_and_noise_scale():
    sweep = train.snr_sweep([2.0, 4.0], [1, 3], 5, 60, 30, rng=gen(0))
    assert sweep.sigma31.shape == (20, 30, 60) and sweep.teacher.matrix.shape == (20, 30, 60)
    assert list(sweep.rank[:10]) == [1] * 10 and list(sweep.svm[:5]) == [2.0] * 5
    mask = sweep.select(3, 4.0)
    assert mask.sum() == 5 and np.all(sweep.rank[mask] == 3)
    svals = torch.linalg.svdvals(sweep.teacher.matrix[mask]).numpy()[:, :4]
    np.testing.assert_allclose(svals, np.broadcast_to([12.0, 8.0, 4.0, 0.0], (5, 4)), atol=1e-10)
    np.testing.assert_allclose(sweep.sbar(3, 4.0), [12.0, 8.0, 4.0])
    noise = (sweep.sigma31 - sweep.teacher.matrix).numpy()
    assert abs(noise.var() * 60 - 1.0) < 0.05  # Z_ij ~ N(0, 1/N1)


def test_arguments_are_checked_by_name_and_booleans_are_not_numbers():
    with pytest.raises(ValueError, match=r"^eps must be a number > 0 or one per network"):
        train.train_students(_S31, train.Architecture(hidden=2), train.Schedule(epochs=1),
                             start=train.Start(eps=torch.tensor([True, False])))
    with pytest.raises(ValueError, match=r"^eps must be real numbers in \(0, inf\) \(one, or one per network\); got "
                                         r"\[1e-05, True\]"):
        train.train_students(_S31, train.Architecture(hidden=2), train.Schedule(epochs=1),
                             start=train.Start(eps=[1e-5, True]))
    for flag in ("output_activation", "check_stability"):
        with pytest.raises(ValueError, match=rf"^{flag} must be True or False; got 'no'"):
            train.train_students(_S31, **train.train_specs(hidden=2, epochs=1, **{flag: "no"}))
    with pytest.raises(ValueError, match=r"^slope \(of the leaky ReLU\) must be a real number in \[0, 1\]; got None"):
        train.Architecture(hidden=2, slope=None)  # checked for linear students too
    with pytest.raises(ValueError, match=r"^heads must be a non-empty sequence of integers >= 1"):
        train.Architecture(hidden=2, heads="x")
    with pytest.raises(ValueError, match=r"^record_at must be a non-empty sequence of integers >= 0"):
        train.train_students(_S31, train.Architecture(hidden=2), train.Schedule(epochs=1, record_at=[0, True]))
    with pytest.raises(ValueError, match=r"^test_data must be None or a pair"):
        train.train_students(_S31, train.Architecture(hidden=2), train.Schedule(epochs=1),
                             evaluation=train.Evaluation(test_data="x"))


def test_helpers_refuse_what_they_cannot_use():
    with pytest.raises(ValueError, match=r"^level must be real numbers in \(-inf, inf\); got inf"):
        train.first_crossing([0.0, 1.0], [0.0, 1.0], np.inf)  # would only give NaN
    with pytest.raises(ValueError, match=r"^time must be a non-empty increasing 1-d array"):
        train.first_crossing([0.0, 0.0], [0.0, 1.0], 0.5)
    with pytest.raises(ValueError, match=r"^test_error must be real numbers in \(0, inf\)"):
        train.empirical_optimal_stopping([0.0, 1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match=r"^weights must be a non-empty sequence of torch tensors"):
        train.composite_map("x")
    with pytest.raises(ValueError, match=r"^weights\[1\] of shape \(2, 3, 5\) does not take the outputs"):
        train.composite_map([torch.zeros(2, 4, 6), torch.zeros(2, 3, 5)])
    with pytest.raises(ValueError, match=r"^sigma11 must have shape \(B, N1, N1\) or \(N1, N1\)"):
        train.stability_limit(_S31, sigma11=torch.eye(3))
    with pytest.raises(ValueError, match=r"no learning rate is unstable"):
        train.stability_limit(_S31, sigma11=torch.zeros(6, 6))
    with pytest.raises(ValueError, match=r"^svms must be a 1-d array of real numbers in \[0, inf\)"):
        train.snr_sweep("x", [1], 1, 6, 3)
    with pytest.raises(ValueError, match=r"^ranks must be a non-empty sequence of integers >= 1"):
        train.snr_sweep([1.0], [True], 1, 6, 3)
    with pytest.raises(ValueError, match=r"^the teachers need n3 <= n1"):
        train.snr_sweep([1.0], [1], 1, 3, 6)


def test_overfitting_onset_reads_the_rise_after_the_minimum():
    t = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    curves = np.array([[5.0, 1.0, 1.5, 2.5, 4.0, 6.0],   # min 1 at t = 1; 2 is crossed between t = 2 and 3
                       [5.0, 3.0, 1.0, 1.1, 1.2, 1.3],   # never doubles: NaN
                       [9.0, 4.0, 2.0, 1.0, 3.0, 3.0]])  # above 2 x min before its minimum: not a rise
    onset = train.overfitting_onset(t, curves)
    np.testing.assert_allclose(onset[0], 2.5)
    assert np.isnan(onset[1])
    np.testing.assert_allclose(onset[2], 3.5)
    np.testing.assert_allclose(train.overfitting_onset(t, curves[0], factor=4.0), 4.0)
    assert train.overfitting_onset(t, curves[None]).shape == (1, 3)


@pytest.mark.parametrize("kwargs, match", [(dict(factor=1.0), "factor"), (dict(factor=np.nan), "factor"),
                                           (dict(test_error=[[1.0, 0.0, 2.0]]), "test_error")])
def test_overfitting_onset_rejects_bad_input(kwargs, match):
    args = {"time": [0.0, 1.0, 2.0], "test_error": [[3.0, 1.0, 2.0]], **kwargs}
    with pytest.raises(ValueError, match=match):
        train.overfitting_onset(**args)


def test_fan_average_weights_variance_truncation_and_seed():
    sizes, factor = (60, 30, 20), 0.01
    draw = train.fan_average_weights(400, sizes, factor, rng=torch.Generator().manual_seed(0),
                                     dtype=torch.float64)
    again = train.fan_average_weights(400, sizes, factor, rng=torch.Generator().manual_seed(0),
                                      dtype=torch.float64)
    assert all(torch.equal(x, y) for x, y in zip(draw, again))
    for w, (n_in, n_out) in zip(draw, zip(sizes[:-1], sizes[1:])):
        assert w.shape == (400, n_out, n_in)
        target = factor / ((n_in + n_out) / 2)
        assert float(w.var()) == pytest.approx(target, rel=0.02)
        # truncated at two standard deviations of the untruncated law (unit SD 0.8796)
        assert float(w.abs().max()) <= 2 / 0.8796 * np.sqrt(target) * (1 + 1e-9)
    with pytest.raises(ValueError, match="sizes"):
        train.fan_average_weights(2, (10,), factor)
    with pytest.raises(ValueError, match="factor"):
        train.fan_average_weights(2, (10, 5), -1.0)


def test_ta_and_random_doubles_each_data_set_ta_first():
    sweep = train.snr_sweep([2.0], [1, 2], 2, 6, 3, rng=torch.Generator().manual_seed(0))
    data, teacher, init = train.ta_and_random(sweep)
    b = len(sweep.rank)
    assert data.shape == teacher.shape == (2 * b, 3, 6) and data.dtype == torch.float32
    assert init == ["aligned"] * b + ["random"] * b
    for half in (slice(0, b), slice(b, 2 * b)):  # both halves hold the sweep's data, in order
        torch.testing.assert_close(data[half], sweep.sigma31.float(), rtol=0, atol=0)
        torch.testing.assert_close(teacher[half], sweep.teacher.matrix.float(), rtol=0, atol=0)
    assert train.ta_and_random(sweep, torch.float64)[0].dtype == torch.float64
    with pytest.raises(ValueError, match="sweep"):
        train.ta_and_random(sweep.sigma31)


def test_paired_optimal_stopping_and_relative_lag():
    time = np.array([0.5, 1.0, 2.0, 4.0, 8.0])
    # two TA students with minima at t = 1 and 2, their random twins at t = 2 and 8
    err = np.array([[0.9, 0.2, 0.5, 0.8, 0.9], [0.9, 0.5, 0.2, 0.8, 0.9],
                    [0.9, 0.5, 0.3, 0.8, 0.9], [0.9, 0.8, 0.7, 0.5, 0.4]])
    stop = train.paired_optimal_stopping(time, err)
    assert sorted(stop) == ["TA", "random"]
    for name, rows in (("TA", slice(0, 2)), ("random", slice(2, 4))):
        t_opt, e_min = train.empirical_optimal_stopping(time, err[rows])
        np.testing.assert_array_equal(stop[name][0], t_opt)
        np.testing.assert_array_equal(stop[name][1], e_min)
    np.testing.assert_array_equal(stop["TA"][1], [0.2, 0.2])
    assert stop["random"][0][1] == 8.0  # a minimum at the last record: its own time
    lag = stop["random"][0] / stop["TA"][0] - 1
    assert train.relative_lag(stop) == pytest.approx(lag.mean())
    assert train.relative_lag(stop, np.array([False, True])) == pytest.approx(lag[1])
    with pytest.raises(ValueError, match="test_error"):
        train.paired_optimal_stopping(time, err[:3])  # not two halves
    with pytest.raises(ValueError, match="stopping"):
        train.relative_lag({"TA": stop["TA"]})
    with pytest.raises(ValueError, match="mask"):
        train.relative_lag(stop, np.array([False, False]))


def test_train_two_headed_scores_every_block_and_keeps_a_zero_head_b_at_zero():
    sa = torch.tensor([[3.0], [3.0]], dtype=torch.float64)
    a = teachers.low_rank_teacher(sa, 12, 4, rng=gen(0))
    data_a = teachers.noisy_training_covariance(a, rng=gen(1))
    two = (torch.cat([data_a, data_a.flip(0)], 1), torch.cat([a.matrix, a.matrix.flip(0)], 1))
    single = (torch.cat([data_a, torch.zeros_like(data_a)], 1), torch.cat([a.matrix, torch.zeros_like(a.matrix)], 1))
    out = train.train_two_headed({"two": two, "single": single}, 4, hidden=4, lr=0.05, epochs=60, eps=EPS,
                                 n_records=20, device="cpu")
    assert list(out.best) == ["two", "single"] and out.best["two"].shape == (2,)
    head_a = out.result.head_test_error[:, 0].min(-1)
    np.testing.assert_array_equal(np.concatenate([out.best["two"], out.best["single"]]), head_a)
    w32 = out.result.weights[-1]
    assert torch.all(w32[2:, 4:] == 0)  # the single-task students' head B never moves
    assert np.all(out.best["single"] < 1)
    with pytest.raises(ValueError, match="blocks"):
        train.train_two_headed({"bad": single}, 3, hidden=4, lr=0.05, epochs=5)
    with pytest.raises(ValueError, match="blocks"):
        train.train_two_headed({}, 4, hidden=4, lr=0.05, epochs=5)


def test_ta_mode_dynamics_stays_in_the_band_of_gradient_descent():
    from gendyn import deep_linear as dl

    shat = np.array([0.5, 1.0, 2.0])
    gen = torch.Generator().manual_seed(0)
    sigma31 = teachers.low_rank_teacher(torch.as_tensor(shat[::-1].copy())[None], 6, 3, rng=gen).matrix[0]
    run = train.ta_mode_dynamics(sigma31, 3, 0.02, 1000, eps=1e-3, n_records=20)
    assert isinstance(run, train.ModeDynamics) and run.n_layers == 3 and run.lr == 0.02
    assert run.strength.shape == (len(run.time), 3) and run.time[-1] == pytest.approx(20.0)
    np.testing.assert_allclose(run.strength[-1], shat, rtol=1e-3)  # ascending, learned
    band = dl.gd_band(run.time, shat, 1e-3, 0.02, 3)
    gap = run.strength - band.flow
    assert np.all(gap <= band.above + 1e-9) and np.all(-gap <= band.below + 1e-9)
    with pytest.raises(ValueError, match="sigma31"):
        train.ta_mode_dynamics(sigma31.T, 3, 0.02, 10, eps=1e-3, n_records=5)


def test_train_ta_and_random_is_one_batch_of_train_students():
    sweep = train.snr_sweep([2.0], [1, 2], 2, 8, 4, rng=gen(0))
    record_at = np.array([0, 5, 10, 20, 40])
    paired = train.train_ta_and_random(sweep, train.Architecture(hidden=4, n_layers=3), lr=0.05, record_at=record_at,
                                       eps=1e-3, rng=gen(1))
    data, teacher, init = train.ta_and_random(sweep)
    res = train.train_students(data, train.Architecture(hidden=4, n_layers=3),
                               train.Schedule(lr=0.05, epochs=40, record_at=record_at),
                               start=train.Start(init=init, eps=1e-3),
                               evaluation=train.Evaluation(teacher=teacher, modes=2), rng=gen(1))
    shat = res.data_svals[:, :2]
    assert isinstance(paired, train.PairedStudents) and paired.lr == 0.05
    assert np.array_equal(paired.time, res.time) and np.array_equal(paired.test_error, res.test_error)
    assert np.array_equal(paired.alignment, res.alignment)
    assert np.array_equal(paired.strength, res.mode_strength / shat[:, None, :])
    assert np.array_equal(paired.svals, res.svals / shat[:, None, :])
    assert np.array_equal(paired.shat, shat)
    assert np.array_equal(paired.train_error, res.train_error) and np.array_equal(paired.data_svals, res.data_svals)
    # optimal stopping of each half, the record at t = 0 left out
    stop, ref = paired.optimal_stopping(), train.paired_optimal_stopping(res.time[1:], res.test_error[:, 1:])
    for name in ("TA", "random"):
        assert all(np.array_equal(a, b) for a, b in zip(stop[name], ref[name]))
    # crossings: the random students' alignment and growth, the TA students' growth, one row per data set
    cross = paired.crossings(align_level=0.9, grow_level=0.5)
    assert isinstance(cross, train.ModeCrossings) and cross.align.shape == cross.grow_ta.shape == (4, 2)
    expected = train.first_crossing(res.time, np.moveaxis(paired.strength[:4], 1, -1), 0.5)
    assert np.array_equal(cross.grow_ta, expected, equal_nan=True)
    expected = train.first_crossing(res.time, np.moveaxis(paired.alignment[4:], 1, -1), 0.9)
    assert np.array_equal(cross.align, expected, equal_nan=True)


def test_train_ta_and_random_refuses_bad_records_and_levels():
    sweep = train.snr_sweep([2.0], [1], 2, 6, 3, rng=gen(0))
    with pytest.raises(ValueError, match=r"^record_at must be a 1-d array of integers >= 0"):
        train.train_ta_and_random(sweep, train.Architecture(hidden=2, n_layers=3), lr=0.05, record_at=[0, -5],
                                  eps=1e-3)
    with pytest.raises(ValueError, match=r"^record_at must hold at least one epoch"):
        train.train_ta_and_random(sweep, train.Architecture(hidden=2, n_layers=3), lr=0.05,
                                  record_at=np.array([], int), eps=1e-3)
    with pytest.raises(ValueError, match=r"^sweep must be"):
        train.train_ta_and_random(sweep.sigma31, train.Architecture(hidden=2, n_layers=3), lr=0.05, record_at=[0, 5],
                                  eps=1e-3)
    paired = train.train_ta_and_random(sweep, train.Architecture(hidden=2, n_layers=3), lr=0.05, record_at=[0, 5],
                                       eps=1e-3)
    with pytest.raises(ValueError, match=r"^align_level must"):
        paired.crossings(align_level=1.0)
    with pytest.raises(ValueError, match=r"^grow_level must"):
        paired.crossings(grow_level=0.0)


def test_sweep_subset_keeps_the_data_sets_in_order():
    sweep = train.snr_sweep([2.0], [1, 3], 2, 8, 4, rng=gen(0))
    sub = train.sweep_subset(sweep, [2, 0])
    assert sub.rank.tolist() == [3, 1] and sub.svm.tolist() == [2.0, 2.0]
    assert torch.equal(sub.sigma31, sweep.sigma31[[2, 0]])
    assert torch.equal(sub.teacher.matrix, sweep.teacher.matrix[[2, 0]])
    with pytest.raises(ValueError, match=r"^index must hold data sets in \[0, 4\)"):
        train.sweep_subset(sweep, [4])
    with pytest.raises(ValueError, match=r"^index must be a non-empty sequence"):
        train.sweep_subset(sweep, [])


# ----------------------------------------------------------------------------------------
# §3.5, Fig. 5: leaky-ReLU and linear students on the same data, and readings of their curves
# ----------------------------------------------------------------------------------------

def _leaky_spec(**kw):
    return train.FullBatchSpec(**dict(dict(n1=8, n2=4, n3=4, lr=0.05, horizon=2.0, n_records=6, eps=1e-3), **kw))


def test_leaky_and_linear_students_share_their_data_and_the_linear_ones_match_train_students():
    svals = [[2.0, 0.0], [3.0, 1.0]]
    res = train.train_leaky_and_linear(svals, 3, _leaky_spec(), slope=0.2, rng=gen(4))
    assert res.leaky_train.shape == res.linear_test.shape == (2, 3, len(res.time))
    assert np.all(np.isfinite(res.leaky_test)) and np.all(res.linear_train > 0)
    # the same draws, made by hand: teachers, noise, then the leaky-ReLU and the linear initial weights
    g = gen(4)
    teacher = teachers.low_rank_teacher(torch.tensor(np.repeat(svals, 3, axis=0)), 8, 4, rng=g)
    sigma31 = teachers.noisy_training_covariance(teacher, rng=g)
    kw = dict(hidden=4, lr=0.05, epochs=40, init="random", eps=1e-3, n_records=6, generator=g,
              test_data=(torch.eye(8), teacher.matrix.float()), check_stability=False, desc=None)
    leaky = train.train_students(sigma31.float(), **train.train_specs(activation="leaky_relu", **kw))
    linear = train.train_students(sigma31.float(), **train.train_specs(activation="linear", **kw))
    np.testing.assert_array_equal(res.leaky_test.reshape(6, -1), leaky.test_error)
    np.testing.assert_array_equal(res.linear_train.reshape(6, -1), linear.train_error)
    # a linear student's test error on the training inputs is eq. (4): the error of its composite map
    sub = res.subset([1])
    assert sub.linear_test.shape == (1, 3, len(res.time))
    np.testing.assert_array_equal(sub.leaky_train[0], res.leaky_train[1])


def test_leaky_and_linear_refuses_bad_input():
    with pytest.raises(ValueError, match="teacher_svals"):
        train.train_leaky_and_linear([[1.0] * 5], 2, _leaky_spec())  # rank 5 > n3 = 4
    with pytest.raises(ValueError, match="spec"):
        train.train_leaky_and_linear([[1.0]], 2, _leaky_spec(n3=10))  # n3 > n1
    with pytest.raises(ValueError, match="rows"):
        train.train_leaky_and_linear([[1.0]], 2, _leaky_spec(), rng=gen(0)).subset([1])


def test_count_drops_counts_separated_stages_and_merges_close_ones():
    t = np.concatenate([[0.0], np.geomspace(1e-2, 1e3, 200)])

    def stages(times):  # a sum of sigmoidal drops in log time, one per stage
        return 1e-3 + sum(1.0 / (1.0 + (t / ts) ** 4) for ts in times)

    assert train.count_drops(t, stages([1.0])) == 1
    assert train.count_drops(t, stages([0.1, 100.0])) == 2
    assert train.count_drops(t, stages([1.0, 1.2])) == 1  # no plateau between them: one drop
    with pytest.raises(ValueError, match="dip"):
        train.count_drops(t, stages([1.0]), dip=0.0)



def test_count_drops_does_not_count_a_drop_cut_off_by_the_records():
    # the slope still rises at the last record: no peak there (a zero-padded smoothing made one)
    t = np.logspace(-2, 0.3, 60)
    assert train.count_drops(t, 1.0 + 5.0 * np.exp(-t)) == 0
    t = np.logspace(-2, 2, 200)
    assert train.count_drops(t, 1.0 + 5.0 * np.exp(-t) + 5.0 * np.exp(-t / 1000.0)) == 1
    # the mirror image at the first record: a drop already under way when the records start
    assert train.count_drops(t, 1.0 + 5.0 * np.exp(-t / 0.001) + 5.0 * np.exp(-t)) == 1

def test_plateau_span_is_the_log_length_of_the_longest_stretch_near_the_minimum():
    t = np.array([0.0, 1.0, 2.0, 4.0, 8.0, 16.0])
    curve = np.array([5.0, 1.0, 1.2, 1.4, 3.0, 1.1])
    assert train.plateau_span(t, curve) == pytest.approx(np.log(4.0))  # records 1..3, within 1.5 x 1.0
    assert train.plateau_span(t, curve, factor=1.0) == 0.0  # one record: no span
    with pytest.raises(ValueError, match="factor"):
        train.plateau_span(t, curve, factor=0.5)


def test_minimum_time_ratios_compare_the_times_of_the_minima():
    t = np.array([0.0, 1.0, 2.0, 4.0, 8.0])
    early = np.array([[3.0, 1.0, 2.0, 3.0, 4.0]] * 3)  # minimum at t = 1
    late = np.array([[3.0, 2.0, 1.5, 1.0, 2.0]] * 3)  # minimum at t = 4
    res = train.LeakyAndLinear(t, early[None], late[None], early[None], early[None])
    (ratio,) = train.minimum_time_ratios([res], rng=0, n_boot=10)
    assert ratio.log_ratio == pytest.approx(np.log(4.0)) and ratio.se == 0.0  # identical runs: no spread
    edge = train.LeakyAndLinear(t, early[None], np.sort(early)[:, ::-1][None], early[None], early[None])
    with pytest.raises(ValueError, match="horizon"):  # the leaky minimum at the last record
        train.minimum_time_ratios([edge], rng=0)
    # a minimum at t = 0 is not a time to compare (its log ratio would be -inf): that teacher is left out
    start = np.array([[1.0, 3.0, 4.0, 5.0, 6.0]] * 3)
    both = np.stack([early, early])  # (teacher, run, time)
    two = train.LeakyAndLinear(t, both, np.stack([start, late]), both, both)  # fields: time, then train, test
    (ratio,) = train.minimum_time_ratios([two], rng=0, n_boot=10)
    assert ratio.log_ratio == pytest.approx(np.log(4.0)) and ratio.se == 0.0  # teacher 1 alone
    with pytest.raises(ValueError, match="after t = 0"):
        train.minimum_time_ratios([train.LeakyAndLinear(t, early[None], start[None], early[None], early[None])],
                                  rng=0)


def test_minimum_time_ratios_resample_the_two_kinds_of_student_in_pairs():
    # runs that differ, the same in both kinds: a paired resample keeps their ratio, so no spread
    t = np.array([0.0, 1.0, 2.0, 4.0, 8.0])
    runs = np.array([[3.0, 1.0, 2.0, 3.0, 4.0], [3.0, 2.0, 1.0, 3.0, 4.0], [3.0, 2.5, 2.0, 1.0, 4.0]])
    res = train.LeakyAndLinear(t, runs[None], runs[None], runs[None], runs[None])
    (ratio,) = train.minimum_time_ratios([res], rng=0, n_boot=50)
    assert ratio.log_ratio == 0.0 and ratio.se == 0.0


def test_onset_log_ratio_reads_undoubled_curves_as_bounds():
    nl, lin = np.array([1.0, np.nan, 2.0]), np.array([2.0, 2.0, np.nan])
    upper = train.onset_log_ratio(nl, lin, 8.0, bound="upper")
    lower = train.onset_log_ratio(nl, lin, 8.0, bound="lower")
    np.testing.assert_allclose(upper, [np.log(0.5), np.inf, np.log(2.0 / 8.0)])
    np.testing.assert_allclose(lower, [np.log(0.5), np.log(8.0 / 2.0), -np.inf])
    assert np.all(lower <= upper)
    with pytest.raises(ValueError, match="onset_linear"):
        train.onset_log_ratio(nl, [1.0, 2.0], 8.0)


def test_onset_comparison_uses_overfitting_onset():
    t = np.array([0.0, 1.0, 2.0, 3.0])
    leaky = np.array([[3.0, 1.0, 2.0, 4.0], [3.0, 1.0, 1.5, 3.0]])
    linear = np.array([[3.0, 1.0, 1.2, 1.5], [3.0, 1.0, 1.5, 2.0]])
    o = train.onset_comparison(t, leaky, linear)
    on_nl, on_lin = train.overfitting_onset(t, leaky), train.overfitting_onset(t, linear)
    assert o.leaky == pytest.approx(on_nl.mean()) and o.linear == pytest.approx(np.nanmean(on_lin))
    np.testing.assert_array_equal(o.upper, train.onset_log_ratio(on_nl, on_lin, 3.0, bound="upper"))
    assert train.onset_comparison(t, linear[:1], linear[:1]).leaky == np.inf  # never doubled
def test_train_paired_curves_is_one_batch_of_train_students():
    sweep = train.snr_sweep([2.0, 4.0], [1], 2, 8, 6, rng=gen(0))
    curves = train.train_paired_curves(sweep, hidden=3, lr=0.05, epochs=40, n_records=6, eps=1e-3, rng=gen(1))
    data, teacher, init = train.ta_and_random(sweep)
    res = train.train_students(data, train.Architecture(hidden=3), train.Schedule(lr=0.05, epochs=40, n_records=6),
                               start=train.Start(init=init, eps=1e-3), evaluation=train.Evaluation(teacher=teacher),
                               rng=gen(1))
    assert isinstance(curves, train.PairedCurves) and curves.hidden == 3
    assert np.array_equal(curves.time, res.time)
    assert np.array_equal(curves.train_error, res.train_error) and np.array_equal(curves.test_error, res.test_error)
    # the TA students are the first half; their errors after t = 0
    assert np.array_equal(curves.ta_errors("train"), res.train_error[:4, 1:])
    assert np.array_equal(curves.ta_errors("test"), res.test_error[:4, 1:])
    stop, ref = curves.optimal_stopping(), train.paired_optimal_stopping(res.time[1:], res.test_error[:, 1:])
    for name in ("TA", "random"):
        assert all(np.array_equal(a, b) for a, b in zip(stop[name], ref[name]))
    # a rank-3 TA student learns its top 3 modes only: its final training error is the rest of the data
    shat = np.linalg.svd(sweep.sigma31.numpy(), compute_uv=False)
    rest = (shat[:, 3:] ** 2).sum(-1) / (shat ** 2).sum(-1)
    assert np.all(curves.ta_errors("train")[:, -1] >= rest * (1 - 1e-4))


def test_train_paired_curves_refuses_bad_arguments():
    sweep = train.snr_sweep([2.0], [1], 2, 6, 3, rng=gen(0))
    with pytest.raises(ValueError, match=r"^sweep must be"):
        train.train_paired_curves(sweep.sigma31, hidden=2, lr=0.05, epochs=5, n_records=3, eps=1e-3)
    with pytest.raises(ValueError, match=r"^hidden must be an integer >= 1"):
        train.train_paired_curves(sweep, hidden=0, lr=0.05, epochs=5, n_records=3, eps=1e-3)
    with pytest.raises(ValueError, match=r"^n_records must be an integer >= 2"):
        train.train_paired_curves(sweep, hidden=2, lr=0.05, epochs=5, n_records=1, eps=1e-3)
    curves = train.train_paired_curves(sweep, hidden=2, lr=0.05, epochs=5, n_records=3, eps=1e-3)
    with pytest.raises(ValueError, match=r"^kind must be one of"):
        curves.ta_errors("validation")


def test_train_sampled_students_is_train_students_and_the_converged_map():
    g = gen(0)
    teacher = teachers.low_rank_teacher(torch.tensor([[2.0], [3.0]], dtype=torch.float64), 6, 6, rng=g)
    sets = [task_data.sampled_task(teacher.matrix, p, "orthogonal", rng=g) for p in (3, 9)]
    data, wbar = task_data.stack_examples(sets), torch.cat([teacher.matrix] * 2)
    spec = train.FullBatchSpec(n1=6, n2=6, n3=6, lr=0.02, horizon=4.0, n_records=10, eps=1e-3)
    students = train.train_sampled_students(data, wbar, spec, check_stability=False)
    res = train.train_students((data[0].float(), data[1].float()), train.Architecture(hidden=6),
                               train.Schedule(lr=0.02, epochs=200, n_records=10, check_stability=False),
                               start=train.Start(init="aligned", eps=1e-3),
                               evaluation=train.Evaluation(teacher=wbar.float()))
    assert isinstance(students, train.SampledStudents)
    assert np.array_equal(students.time, res.time) and np.array_equal(students.test_error, res.test_error)
    assert np.array_equal(students.best, res.test_error.min(-1))
    # P = 9 > N1: the converged map is the least-squares solution Sigma31 Sigma11^-1
    x, y = data[0][2:], data[1][2:]
    w_ls = (y @ x.mT) @ torch.linalg.inv(x @ x.mT)
    assert np.allclose(students.converged_error[2:], dl_test_error(w_ls, wbar[2:]), rtol=1e-8)
    sigma31 = data[1] @ data[0].mT
    assert students.sigma31_norm == pytest.approx(float(torch.linalg.matrix_norm(sigma31, ord=2).max()))


def dl_test_error(w, wbar):
    return (((w - wbar) ** 2).sum((-2, -1)) / (wbar**2).sum((-2, -1))).numpy()


def test_train_sampled_students_refuses_data_that_do_not_fit_the_spec():
    g = gen(0)
    teacher = teachers.low_rank_teacher(torch.tensor([[2.0]], dtype=torch.float64), 6, 6, rng=g)
    data = task_data.sampled_task(teacher.matrix, 4, "orthogonal", rng=g)
    spec = train.FullBatchSpec(n1=6, n2=6, n3=6, lr=0.02, horizon=1.0, n_records=5, eps=1e-3)
    with pytest.raises(ValueError, match=r"^data and teacher must have shapes"):
        train.train_sampled_students(data, teacher.matrix, train.FullBatchSpec(n1=5, n2=5, n3=5, lr=0.02,
                                                                                horizon=1.0, n_records=5))
    with pytest.raises(ValueError, match=r"^data must be a pair"):
        train.train_sampled_students(data[0], teacher.matrix, spec)
    with pytest.raises(ValueError, match=r"^spec must be"):
        train.train_sampled_students(data, teacher.matrix, dict(n1=6))
    with pytest.raises(ValueError, match=r"^check_stability must be True or False"):
        train.train_sampled_students(data, teacher.matrix, spec, check_stability=None)
def test_exact_ta_optimum_reads_the_exact_theory_as_the_records_are():
    from gendyn import deep_linear as dl
    sweep = train.snr_sweep([3.0], [1, 2], 3, 12, 6, rng=gen(0))
    t = np.geomspace(0.05, 8.0, 200)
    found = train.exact_ta_optimum(t, sweep.sigma31, sweep.teacher.matrix, 1e-4, n_layers=3)
    assert isinstance(found, train.OptimalStopping) and found.time.shape == found.error.shape == (6,)
    test = dl.sampled_ta_errors(t, sweep.sigma31, sweep.teacher.matrix, dl.TaStudent(eps=1e-4, n_layers=3))[1]
    ref = train.empirical_optimal_stopping(t, test)
    assert np.array_equal(found.time, ref[0]) and np.array_equal(found.error, ref[1])
    # the minimum is no higher than any point of the exact curve, and inside the grid
    assert np.all(found.error <= test.min(-1)) and np.all((found.time >= t[0]) & (found.time <= t[-1]))
    # gradient descent lags the flow: with the delay the optimum comes later, at about the same error
    delayed = train.exact_ta_optimum(t, sweep.sigma31, sweep.teacher.matrix, 1e-4, n_layers=3, lr=0.05)
    ref = train.empirical_optimal_stopping(t, dl.delayed_ta_errors(t, sweep.sigma31, sweep.teacher.matrix, 1e-4,
                                                                   n_layers=3, lr=0.05)[1])
    assert np.array_equal(delayed.time, ref[0]) and np.all(delayed.time >= found.time - 1e-9)
    assert delayed.error == pytest.approx(found.error, rel=0.02)


def test_asymptotic_gap_per_condition_and_its_closing_with_size():
    from gendyn import deep_linear as dl
    t = np.geomspace(0.05, 6.0, 40)
    t_fine = np.geomspace(0.05, 6.0, 300)
    means = []
    for n1 in (40, 160):
        sweep = train.snr_sweep([2.0, 4.0], [1], 12, n1, n1 // 2, rng=gen(n1))
        found = train.asymptotic_gap(sweep, t, t_fine, eps=1e-4, n_layers=3)
        assert isinstance(found, train.AsymptoticGap)
        assert found.conditions == ((1, 2.0), (1, 4.0))
        assert found.train.shape == found.test.shape == (2,) and np.all(found.test >= 0)
        assert found.exact.time.shape == found.exact.error.shape == (2, 12)
        # eq. (15)'s optimum at this size, N2 = N3
        assert found.theory.error[1] == dl.optimal_early_stopping([4.0], dl.TaStudent(n1=n1, n2=n1 // 2, n3=n1 // 2, eps=1e-4))[1]
        # the exact optimum of a data set is the exact theory's on its own
        mask = sweep.select(1, 4.0)
        ref = train.exact_ta_optimum(t_fine, sweep.sigma31[mask], sweep.teacher.matrix[mask], 1e-4, n_layers=3)
        assert np.array_equal(found.exact.error[1], ref.error)
        means.append(found.test.mean())
    assert means[1] < means[0]  # the finite-size gap closes as N1 grows


def test_asymptotic_gap_and_exact_optimum_refuse_bad_input():
    sweep = train.snr_sweep([2.0], [1], 2, 8, 4, rng=gen(0))
    t = np.geomspace(0.1, 2.0, 10)
    with pytest.raises(ValueError, match=r"^sweep must be"):
        train.asymptotic_gap(sweep.sigma31, t, t, eps=1e-3, n_layers=3)
    with pytest.raises(ValueError, match=r"eps"):
        train.asymptotic_gap(sweep, t, t, eps=-1.0, n_layers=3)
    with pytest.raises(ValueError, match=r"n_layers"):
        train.exact_ta_optimum(t, sweep.sigma31, sweep.teacher.matrix, 1e-3, n_layers=1)
    with pytest.raises(ValueError, match=r"lr"):
        train.exact_ta_optimum(t, sweep.sigma31, sweep.teacher.matrix, 1e-3, n_layers=3, lr=0.0)


def test_dense_epoch_grid_adds_dense_records_to_the_log_grid():
    grid = train.dense_epoch_grid(1000, 20, lr=0.01, dense_from=5.0, dense_dt=0.02)
    log = train.log_epoch_grid(1000, 20)
    assert np.all(np.isin(log, grid)) and np.all(np.diff(grid) > 0) and grid[0] == 0 and grid[-1] == 1000
    dense = grid[grid >= 500]
    assert np.all(np.isin(np.arange(500, 1001, 2), dense))  # every 0.02 tau = 2 epochs from 5 tau
    # a spacing below one epoch records every epoch
    assert np.array_equal(train.dense_epoch_grid(10, 2, lr=0.5, dense_from=0.0, dense_dt=0.1), np.arange(11))
    with pytest.raises(ValueError, match=r"^dense_dt must"):
        train.dense_epoch_grid(10, 4, lr=0.5, dense_from=0.0, dense_dt=0.0)
    with pytest.raises(ValueError, match=r"^dense_from must"):
        train.dense_epoch_grid(10, 4, lr=0.5, dense_from=-1.0)


def test_random_excess_pairs_random_students_with_the_exact_ta_optimum():
    spec = train.FullBatchSpec(n1=12, n2=6, n3=6, lr=0.05, horizon=12.0, n_records=30, eps=1e-3)
    found = train.random_excess(spec, svms=[3.0], ranks=[1, 2], runs=3, n_layers=3, rng=gen(0))
    assert isinstance(found, train.RandomExcess) and found.excess.shape == found.at_end.shape == (6,)
    assert list(found.rank) == [1, 1, 1, 2, 2, 2] and found.select(2, 3.0).sum() == 3
    # the same draws by hand: data, then the random students, then the exact TA minimum on the same records
    g = gen(0)
    data = train.snr_sweep([3.0], [1, 2], 3, 12, 6, rng=g)
    rec = train.dense_epoch_grid(spec.epochs, 30, lr=0.05, dense_from=0.6)
    res = train.train_students(data.sigma31.float(), train.Architecture(hidden=6, n_layers=3),
                               train.Schedule(lr=0.05, epochs=spec.epochs, record_at=rec),
                               start=train.Start(init="random", eps=1e-3),
                               evaluation=train.Evaluation(teacher=data.teacher.matrix.float()),
                               execution=train.Execution(desc=None), rng=g)
    e_rand = train.empirical_optimal_stopping(res.time[1:], res.test_error[:, 1:])[1]
    e_ta = train.exact_ta_optimum(res.time[1:], data.sigma31, data.teacher.matrix, 1e-3, n2=6, n_layers=3,
                                  lr=0.05).error
    assert np.array_equal(found.excess, e_rand / e_ta - 1)
    # with one hidden layer a random student aligns early and reaches about the TA minimum
    assert np.all(np.abs(found.excess) < 0.1) and not found.at_end.any()
    with pytest.raises(ValueError, match=r"^spec must be"):
        train.random_excess(dict(n1=12), svms=[3.0], ranks=[1], runs=3, n_layers=3)
    with pytest.raises(ValueError, match=r"^runs must"):
        train.random_excess(spec, svms=[3.0], ranks=[1], runs=1, n_layers=3)


def test_train_ta_and_random_without_modes_trains_the_same_students():
    sweep = train.snr_sweep([2.0], [1, 2], 2, 6, 3, rng=torch.Generator().manual_seed(0))
    kw = dict(lr=0.05, record_at=[0, 3, 10], eps=1e-3)
    arch = train.Architecture(hidden=3, n_layers=3)
    full = train.train_ta_and_random(sweep, arch, **kw, rng=torch.Generator().manual_seed(1))
    lean = train.train_ta_and_random(sweep, arch, **kw, rng=torch.Generator().manual_seed(1), modes=False)
    assert np.array_equal(full.test_error, lean.test_error) and np.array_equal(full.train_error, lean.train_error)
    assert np.array_equal(full.shat, lean.shat) and np.array_equal(full.data_svals, lean.data_svals)
    assert full.alignment.shape[-1] == 2 and lean.alignment.shape == lean.strength.shape == full.test_error.shape + (0,)


def test_batch_parts_are_aligned_contiguous_and_cover_the_batch():
    for batch in (1, 15, 16, 17, 40, 200, 1000):
        for workers in (1, 2, 3, 8):
            parts = train._batch_parts(batch, workers)
            assert parts[0].start == 0 and parts[-1].stop == batch and len(parts) <= workers
            assert all(p.stop == q.start and p.start % train._PART_ALIGN == 0 for p, q in zip(parts, parts[1:]))
    assert len(train._batch_parts(200, 2)) == 2 and len(train._batch_parts(20, 2)) == 2  # 16 + 4
    assert len(train._batch_parts(16, 4)) == 1


@pytest.mark.parametrize("activation", ["linear", "leaky_relu"])
def test_students_trained_in_parts_on_threads_give_the_same_bytes_as_one_part(activation):
    sweep = train.snr_sweep((2.0, 4.0), (1, 3), 9, 30, 12, rng=0)  # 36 data sets, 72 students
    data, teacher, init = train.ta_and_random(sweep)
    out = {}
    for threads in (1, 2, 3):
        res = train.train_students(data, train.Architecture(hidden=10, n_layers=4, activation=activation),
                                   train.Schedule(lr=1e-2, epochs=120, n_records=12),
                                   start=train.Start(init=init if activation == "linear" else "random", eps=1e-2),
                                   evaluation=train.Evaluation(teacher=teacher, modes=2 if activation == "linear" else 0),
                                   execution=train.Execution(num_threads=threads), rng=1)
        out[threads] = res
    for threads in (2, 3):
        for name in ("train_error", "test_error", "svals", "alignment"):
            a, b = getattr(out[1], name), getattr(out[threads], name)
            assert (a is None and b is None) or np.array_equal(a, b)
        assert all(torch.equal(a, b) for a, b in zip(out[1].weights, out[threads].weights))
