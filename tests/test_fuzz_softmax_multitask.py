"""Fuzz: every public function of gendyn.softmax_multitask refuses bad arguments clearly.

The rank-one functions are vectorised over the singular values ``s`` (an array of any
shape is a batch); the matrix functions over the leading axes of ``w``.
"""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import softmax_multitask as sm

RNG = np.random.default_rng(0)
W = RNG.standard_normal((3, 4)) / 2  # K = 3 classes, N = 4 features
X = RNG.standard_normal((6, 4))  # P = 6 examples
Y = np.array([0, 1, 2, 0, 1, 2])
U = np.array([1.0, 0.0, -1.0]) / np.sqrt(2)  # centred unit vector of K = 3 logits
V = np.linalg.qr(RNG.standard_normal((5, 2)))[0]  # orthonormal columns, N = 5, r = 2
MC = dict(n_samples=64, rng=0)  # Monte Carlo draws of M(W)
S_OK = {"zero", "wrong-shape"}  # singular values: vanishing, or a batch of any shape

CASES = [
    Case(sm.softmax, dict(z=[1.0, 2.0, 3.0], axis=-1),
         accepted=dict(z={"wrong-shape"}, axis={"negative", "zero", "none"})),  # axis=None: the whole array
    Case(sm.label_feature_covariance, dict(x=X, y=Y, n_classes=3)),
    Case(sm.softmax_feature_covariance, dict(w=W, x=X)),
    Case(sm.softmax_curvature, dict(w=W, sigma=None, **MC, return_stderr=False),
         accepted=dict(w={"wrong-shape"}, sigma={"none"}, rng={"zero", "none"}, return_stderr={"bool"})),
    Case(sm.gaussian_softmax_feature_covariance, dict(w=W, sigma=None, **MC),
         accepted=dict(w={"wrong-shape"}, sigma={"none"}, rng={"zero", "none"})),
    Case(sm.composite_flow, dict(weights=[W[:2], W[:, :2]], sigma_yx=W / 10, sigma=None, **MC),
         accepted=dict(sigma={"none"}, rng={"zero", "none"})),
    Case(sm.rank1_curvature, dict(s=1.0, u=U), accepted=dict(s=S_OK, u={"wrong-shape"})),  # a batch of u
    Case(sm.ta_curvature, dict(s=1.0, u=U), accepted=dict(s=S_OK)),
    Case(sm.ta_signal, dict(s=1.0, u=U), accepted=dict(s=S_OK)),
    Case(sm.clean_rank1_signal, dict(u=U)),
    Case(sm.ta_rate, dict(s=1.0, sigma_hat=0.2, u=U, n_layers=3), accepted=dict(s=S_OK, sigma_hat=S_OK)),
    Case(sm.ta_growth_rate, dict(sigma_hat=0.2, u=U, lr=0.1), accepted=dict(sigma_hat=S_OK, lr={"zero"})),
    Case(sm.ta_descent, dict(steps=[0, 3, 5], s0=0.01, sigma_hat=0.2, u=U, lr=0.1), accepted=dict(sigma_hat={"zero"})),
    Case(sm.ta_trajectory, dict(t=[0.0, 1.0, 2.0], s0=0.01, sigma_hat=0.2, u=U, n_layers=3, tau=1.0),
         accepted=dict(sigma_hat={"zero"})),
    Case(sm.ta_fixed_point, dict(sigma_hat=0.2, u=U), accepted=dict(sigma_hat={"zero"})),
    Case(sm.ta_prediction, dict(t=[0.0, 1.0, 2.0], s0=0.01, sigma_hat=0.2, u=U, u_teacher=U, overlap=0.5),
         accepted=dict(sigma_hat={"zero"}, overlap={"negative", "zero"})),  # overlap is a cosine in [-1, 1]
    Case(sm.off_diagonal_ratio, dict(s=1.0, u=U), accepted=dict(s=S_OK)),
    Case(sm.ta_generalization_loss, dict(s=1.0, u=U, u_teacher=U, overlap=0.5),
         accepted=dict(s=S_OK, overlap={"negative", "zero"})),  # overlap is a cosine in [-1, 1]
    Case(sm.noisy_argmax_probabilities, dict(z=[0.3, -0.1, 0.2], noise_std=0.5), accepted=dict(z={"wrong-shape"})),
    Case(sm.noisy_label_entropy, dict(s=0.5, n_classes=3, noise_std=0.5, n_samples=8, rng=0, return_stderr=False),
         accepted=dict(s=S_OK, rng={"zero", "none"}, return_stderr={"bool"})),
    Case(sm.label_agreement_excess, dict(sbar=0.01, n_classes=10, noise_std=0.2), accepted=dict(sbar=S_OK)),
    Case(sm.relatedness, dict(v_a=V, v_b=V[:, ::-1])),
    Case(sm.cross_entropy, dict(w=W, x=X, y=Y)),
    Case(sm.benefit_bounds, dict(w_st=W, w_mt=W * 1.1, x=X, y=Y)),
    Case(sm.expected_max_normal, dict(n_classes=3)),
    Case(sm.softmax_curvature_batches, dict(w=W, sigma=None, n_samples=64, batches=4, rng=0),
         accepted=dict(w={"wrong-shape"}, sigma={"none"}, rng={"zero", "none"})),
    Case(sm.rank_one_benefit_bound, dict(s=[0.5, 1.0, 2.0], u=U, u_teacher=[1.0, 0.5, 0.0], overlap=0.8),
         accepted=dict(overlap={"zero", "negative", "false", "bool"})),  # a cosine in [-1, 1]
    Case(sm.two_layer_gradient_descent, dict(x=X, y=Y, w1=RNG.standard_normal((2, 4)) / 2,
                                             w2=RNG.standard_normal((3, 2)) / 2, lr=0.1, steps=3)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
