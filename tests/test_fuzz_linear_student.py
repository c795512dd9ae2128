"""Fuzz: every public function of gendyn.linear_student refuses bad arguments clearly.

The theory functions are vectorised: their elementwise arguments take arrays of any shape
(``wrong-shape`` is accepted there, with a finite result); ``tau`` of the one-dataset
functions and the mode arrays are not elementwise.
"""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import linear_student as ls

ANY = {"wrong-shape"}  # an elementwise argument: an array of any shape is a batch
LAM = np.array([0.0, 0.5, 2.0])
MODES = dict(zbar=np.array([1.0, -0.5, 0.3]), z0=np.array([0.1, 0.2, 0.0]), eps_tilde=np.array([0.2, 0.1, -0.1]))
CURVE = dict(t=1.0, alpha=0.5, snr=10.0, inr=0.1, tau=1.0)
CURVE_OK = dict(t={"zero", "+inf"} | ANY, alpha=ANY, snr={"+inf"} | ANY, inr={"zero"} | ANY, tau=ANY)
ONE = dict(snr={"+inf"} | ANY, inr={"zero"} | ANY, t={"zero", "+inf"} | ANY)

CASES = [
    Case(ls.mp_eigenvalue_edges, dict(alpha=0.5), accepted=dict(alpha=ANY)),
    Case(ls.mp_point_mass, dict(alpha=0.5), accepted=dict(alpha=ANY)),
    Case(ls.mp_eigenvalue_density, dict(lam=1.0, alpha=0.5),
         accepted=dict(lam={"negative", "zero", "+inf", "-inf"} | ANY, alpha=ANY)),
    Case(ls.mp_eigenvalue_cdf, dict(lam=1.0, alpha=0.5),
         accepted=dict(lam={"negative", "zero", "+inf", "-inf"} | ANY, alpha=ANY)),
    Case(ls.data_spectrum, dict(X=np.arange(12.0).reshape(3, 4) / 10), accepted=dict(X=ANY)),  # a batch of X
    Case(ls.sampled_eigengap, dict(eigvals=LAM), accepted=dict(eigvals=ANY)),  # a batch of spectra
    Case(ls.mode_dynamics, dict(t=1.0, eigvals=LAM, **MODES, tau=1.0),
         accepted=dict(t={"zero"} | ANY, zbar={"negative", "zero"}, z0={"negative", "zero"},
                       eps_tilde={"negative", "zero"})),  # one number for every mode
    Case(ls.single_dataset_error, dict(t=1.0, eigvals=LAM, snr=10.0, inr=0.1, tau=1.0),
         accepted=dict(ONE, eigvals=ANY)),  # a batch of datasets
    Case(ls.single_dataset_gd_error, dict(steps=[0, 5], lr=0.1, eigvals=LAM, snr=10.0, inr=0.1),
         accepted=dict(eigvals=ANY, snr={"+inf"}, inr={"zero"})),
    Case(ls.gd_training_error, dict(steps=[0, 5], lr=0.1, gram_eigvals=LAM, label_power=[1.0, 0.5, 2.0]),
         accepted=dict(gram_eigvals=ANY, label_power={"zero"})),
    Case(ls.single_dataset_training_error, dict(t=1.0, gram_eigvals=LAM, snr=10.0, inr=0.1, tau=1.0),
         accepted=dict(ONE, gram_eigvals=ANY)),
    Case(ls.generalization_error, CURVE, accepted=CURVE_OK),
    Case(ls.training_error, CURVE, accepted=CURVE_OK),
    Case(ls.asymptotic_error, dict(alpha=0.5, snr=10.0, inr=0.1),
         accepted=dict(snr={"+inf"} | ANY, inr={"zero"} | ANY)),
    Case(ls.finite_size_asymptotic_error, dict(n_samples=20, n_features=50, snr=10.0, inr=0.1),
         accepted=dict(n_samples=ANY, snr={"+inf"} | ANY, inr={"zero"} | ANY)),
    Case(ls.optimal_stopping_error, dict(alpha=0.5, snr=10.0, inr=0.1, tau=1.0),
         accepted=dict(alpha=ANY, snr=ANY, inr={"zero"} | ANY)),
    Case(ls.eigengap, dict(alpha=0.5, tau=1.0), accepted=dict(tau=ANY)),
    Case(ls.mp_stieltjes, dict(lam=0.5, alpha=0.5), accepted=dict(lam=ANY, alpha=ANY)),
    Case(ls.ridge_error, dict(alpha=0.5, snr=10.0, lam=None),
         accepted=dict(alpha=ANY, snr={"+inf"} | ANY, lam={"none"} | ANY)),
    Case(ls.single_dataset_ridge_error, dict(eigvals=LAM, snr=10.0, lam=0.1),
         accepted=dict(eigvals=ANY, snr={"+inf"} | ANY, lam={"none"} | ANY)),
    Case(ls.per_mode_stopping_time, dict(eigvals=LAM, snr=10.0, tau=1.0),
         accepted=dict(eigvals={"zero"} | ANY, snr={"+inf"} | ANY)),  # lambda = 0: the limit tau SNR
    Case(ls.per_mode_stopped_shrinkage, dict(eigvals=LAM, snr=10.0),
         accepted=dict(eigvals={"zero"} | ANY, snr={"+inf"} | ANY)),
    Case(ls.per_mode_stopped_error, dict(eigvals=LAM, snr=10.0), accepted=dict(eigvals=ANY, snr=ANY)),
    Case(ls.frozen_subspace_error, dict(alpha=0.5, inr=0.1), accepted=dict(alpha=ANY, inr={"zero"} | ANY)),
    Case(ls.generalization_gap_bound, dict(rademacher=0.1, n_samples=100, delta=0.05),
         accepted=dict(rademacher={"zero"} | ANY, n_samples=ANY, delta=ANY)),
    Case(ls.rademacher_bound, dict(n_hidden=10, n_samples=100, b1=1.0, b2=1.0, c=1.0),
         accepted=dict(n_hidden=ANY, n_samples=ANY, b1=ANY, b2=ANY, c=ANY)),
    Case(ls.weight_norm_sq, dict(t=1.0, eigvals=LAM, ztilde_sq=[1.0, 0.5, 0.2], z0_sq=[0.1, 0.1, 0.1], tau=1.0),
         accepted=dict(t={"zero"} | ANY, ztilde_sq={"zero"}, z0_sq={"zero"})),
    Case(ls.dynamics_weight_norm_bound, dict(n_hidden=200, n_samples=100, max_ztilde_sq=1.0, min_eigval=None),
         accepted=dict(n_hidden=ANY, n_samples=ANY, max_ztilde_sq={"zero"} | ANY, min_eigval={"none"} | ANY)),
    Case(ls.dynamics_bound, dict(n_hidden=200, n_samples=100, max_ztilde_sq=1.0, min_eigval=None, b1=1.0, c=1.0),
         accepted=dict(n_hidden=ANY, n_samples=ANY, max_ztilde_sq={"zero"} | ANY, min_eigval={"none"} | ANY,
                       b1=ANY, c=ANY)),
    Case(ls.sampled_dataset_errors,
         dict(t=[0.0, 1.0, np.inf], cov_eigvals=[[0.0, 0.5, 2.0], [0.0, 0.4, 1.5]], n_train=2, snr=10.0, inr=0.1),
         accepted=dict(t={"zero", "+inf"}, snr={"+inf"}, inr={"zero"})),
    Case(ls.finite_size_gap,
         dict(t=[0.1, 1.0, np.inf], alpha=0.5, spectra=[[0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 2.0, 0.1]] * 2,
              simulated=[[1.0, 0.8, 0.7]], snr=10.0, inr=0.1),
         accepted=dict(inr={"zero"})),
]


# Calls whose documented result is infinite: alpha = 1 (the overfitting peak; the eigengap
# closes, t_slow = inf) and snr = inf (noiseless: never stop, t_opt = inf);
# test_documented_infinities checks that they are exactly those values.
INFINITE = {
    "linear_student.asymptotic_error": {"alpha": {"wrong-shape"}},
    "linear_student.eigengap": {"alpha": {"wrong-shape"}},
    "linear_student.optimal_stopping_error": {"snr": {"+inf"}},
    "linear_student.per_mode_stopping_time": {"snr": {"+inf"}},
}
for _case in CASES:
    _case.infinite = INFINITE.get(_case.name, {})


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))


def test_documented_infinities():
    ones = np.ones((2, 3))
    assert np.all(ls.asymptotic_error(ones, 10.0, 0.1) == np.inf)
    lam, t_slow = ls.eigengap(ones)
    assert np.all(lam == 0) and np.all(t_slow == np.inf)
    t_opt, e_opt = ls.optimal_stopping_error(0.5, np.inf, 0.1)
    assert t_opt == np.inf and e_opt == ls.asymptotic_error(0.5, np.inf, 0.1)
