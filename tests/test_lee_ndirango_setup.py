"""Exact properties of the reconstructed Lee & Ndirango theory (gendyn.softmax_multitask) that the
setup chapter (notebooks/lee-ndirango/setup-and-derivations.md) shows but does not claim:
identities, algebraic limits and properties true by construction are tested here, on the science
functions directly."""

import math

import numpy as np
import pytest
import torch

from gendyn import multitask_train as mt
from gendyn import softmax_multitask as sm
from flat_grid import run_flat



def centred_unit(k, rng):
    u = rng.standard_normal(k)
    u -= u.mean()
    return u / np.linalg.norm(u)


S_GRID = np.geomspace(1e-3, 1e4, 400)


@pytest.mark.parametrize("k", [3, 10])
def test_f_limits_at_small_and_large_s(k):
    """(15): f(0) = 1/K, f(s) = 1/K + kappa4 s^2/2 + O(s^4), f(s) s -> the clean-label sigma."""
    u = centred_unit(k, np.random.default_rng(k))
    kappa4 = (u**4).mean() - 3 / k**2
    assert sm.ta_curvature(0.0, u) == pytest.approx(1 / k, abs=1e-10)
    assert (sm.ta_curvature(1e-3, u) - 1 / k) / 0.5e-6 == pytest.approx(kappa4, abs=1e-5)
    assert sm.ta_signal(1e6, u) == pytest.approx(sm.clean_rank1_signal(u), rel=1e-6)


def test_f_decreases_monotonically_for_three_classes():
    """For K = 3 every centred unit u has sum u^4 = 1/2, so kappa4 < 0 and f falls from s = 0."""
    rng = np.random.default_rng(11)
    for _ in range(5):
        u = centred_unit(3, rng)
        assert np.diff(sm.ta_curvature(S_GRID, u)).max() <= 0.0


def test_f_is_unimodal_and_rises_exactly_when_kappa4_is_positive():
    """100 random u (K = 3..12): at most one maximum of f, and f rises from s = 0 iff kappa4 > 0."""
    rng = np.random.default_rng(12)
    for _ in range(100):
        k = int(rng.integers(3, 13))
        u = centred_unit(k, rng)
        d = np.diff(sm.ta_curvature(S_GRID, u))
        d = d[np.abs(d) > 1e-13]
        assert np.sum(np.diff(np.sign(d)) != 0) <= 1
        assert (d[0] > 0) == ((u**4).mean() - 3 / k**2 > 0)


def test_16_is_exact_for_a_mode_odd_under_a_class_permutation():
    u = np.r_[1.0, -1.0, np.zeros(8)] / math.sqrt(2)
    assert sm.off_diagonal_ratio(S_GRID, u).max() <= 1e-9


def test_gradient_descent_changes_the_conserved_quantity_by_exactly_the_lr_squared_term():
    """(9): each step changes W1 W1^T - W2^T W2 by lr^2 (W2^T G G^T W2 - W1 G^T G W1^T); (10): the loss falls."""
    rng = np.random.default_rng(13)
    k, n, h, p, lr = 5, 8, 4, 400, 0.05
    x = rng.standard_normal((p, n))
    y = (x @ rng.standard_normal((k, n)).T + 0.5 * rng.standard_normal((p, k))).argmax(1)
    w1, w2 = 0.3 * rng.standard_normal((h, n)), 0.3 * rng.standard_normal((k, h))
    syx = sm.label_feature_covariance(x, y, k)
    losses = []
    for _ in range(200):
        losses.append(sm.cross_entropy(w2 @ w1, x, y))
        g = syx - sm.softmax_feature_covariance(w2 @ w1, x)
        a, b = w2.T @ g, g @ w1.T
        q_before = w1 @ w1.T - w2.T @ w2
        w1, w2 = w1 + lr * a, w2 + lr * b
        change = (w1 @ w1.T - w2.T @ w2) - q_before
        # the exact per-step change, with the weights before the step
        w1_old, w2_old = w1 - lr * a, w2 - lr * b
        exact = lr**2 * (w2_old.T @ g @ g.T @ w2_old - w1_old @ g.T @ g @ w1_old.T)
        assert np.abs(change - exact).max() <= 1e-12
    assert np.diff(losses).max() <= 0.0


def test_relatedness_of_the_experiments_rank10_pairs_is_the_nominal_r():
    pair = mt.draw_tasks(range(3), n_train_a=1, n_train_b=1, n_val=1, dtype=torch.float64,
                         teachers=mt.TeacherPair(rank=10))
    for r in mt.RELATEDNESS_GRID:
        for i in range(3):
            va = np.linalg.svd(pair.teacher_a[i].numpy())[2][:10].T
            vb = np.linalg.svd(pair.teacher_b(r)[i].numpy())[2][:10].T
            assert sm.relatedness(va, vb) == pytest.approx(r, abs=1e-10)


def test_bound_5_holds_for_rank_one_ta_students():
    """(5): L(s_ST) - L(s_MT) <= (s_MT - s_ST)(sigma_bar - f(s_ST) s_ST) on a grid (convexity along s u v^T)."""
    rng = np.random.default_rng(14)
    u_bar = centred_unit(10, rng)
    u_hat = u_bar + 0.3 * rng.standard_normal(10)
    u_hat -= u_hat.mean()
    u_hat /= np.linalg.norm(u_hat)
    overlap = 0.8
    s = np.geomspace(0.05, 30, 40)
    loss = sm.ta_generalization_loss(s, u_hat, u_bar, overlap)
    sigma_bar = overlap * (u_hat[np.argmax(u_bar)] - u_hat[np.argmin(u_bar)]) / math.sqrt(2 * math.pi)
    bound = (s[None, :] - s[:, None]) * (sigma_bar - sm.ta_signal(s, u_hat))[:, None]
    benefit = loss[:, None] - loss[None, :]
    assert (benefit - bound).max() <= 1e-9


def test_label_agreement_excess_is_the_first_order_term_of_the_exact_label_law():
    """P(y = ybar) - 1/K from the exact law (noisy_argmax_probabilities, averaged over z) against the
    first-order term, at eps = sbar / noise_std small: they differ by O(eps^2)."""
    k, noise = 10, 20**-0.5
    z = np.random.default_rng(15).standard_normal((4000, k))
    for sbar in (0.002, 0.005):
        eps = sbar / noise
        p = sm.noisy_argmax_probabilities(sbar * z, noise)
        exact = p[np.arange(len(z)), z.argmax(1)].mean() - 1 / k
        se = p[np.arange(len(z)), z.argmax(1)].std() / math.sqrt(len(z))
        predicted = sm.label_agreement_excess(sbar, k, noise)
        assert abs(exact - predicted) <= 4 * se + eps**2
        assert abs(exact - predicted) < 0.2 * predicted


def test_ta_growth_rate_is_the_small_s_limit_of_3():
    u = centred_unit(6, np.random.default_rng(16))
    for sigma_hat in (0.05, 0.3):
        assert sm.ta_growth_rate(sigma_hat, u) == pytest.approx(2 * sigma_hat, rel=1e-8)
        assert sm.ta_growth_rate(sigma_hat, u, lr=0.1) == pytest.approx(2 * math.log1p(0.1 * sigma_hat) / 0.1,
                                                                         rel=1e-8)


def test_grid_bounds_hold_and_the_recorded_benefit_is_the_recomputed_one():
    """On trained linear students of a small grid (float32 training, as the book's linear grids): the convexity
    bounds (22)-(25) hold on every cell and the benefit recomputed in float64 from the stored weights equals the
    one recorded during training up to float32 rounding (the checks the multitask and aux-data chapters print)."""
    grid = run_flat(seeds=[0, 1], n_train=[60], n_train_aux=(60, 120), s_a=(0.5, 4.0), s_b=(0.1, 4.0),
                       relatedness=(0.0, 1.0), rank=3, n_features=10, hidden=8, n_val=200, lr=1.0, steps=30,
                       eval_every=3, progress=False)
    lower, benefit, upper = grid.bounds
    assert np.max(lower - benefit) <= 1e-9 and np.max(benefit - upper) <= 1e-9
    assert np.max(np.abs(benefit - grid.benefit)) <= 1e-4
