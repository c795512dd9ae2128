"""Fuzz: every public function of gendyn.linear_experiments and random_features refuses bad arguments clearly."""

import numpy as np
import pytest
import torch

from fuzzing import Case, findings, fuzz
from gendyn import linear_experiments as le
from gendyn import random_features as rf

GEN = torch.Generator().manual_seed(0)
BATCH = le.draw_linear_student([0.5, 1.0], 8, 1, teachers=1, variances=le.Variances(noise_var=0.1), rng=GEN)
TORCH = dict(rng=0, device="cpu", dtype=torch.float64)
#: rng: an integer >= 0 (zero among them) or None (fresh entropy); -1, 1.5-like floats, strings are refused
RNG = {"zero", "none"}
EXECUTION = le.Execution(**TORCH)
SWEEP = le.random_feature_relu(5, 6, [4, 12], 2, [0.0, 1.0, np.inf], labels=le.LinearLabels(snr=10.0, n_test=10))
#: A spec argument left out (None) is its default spec.
DEFAULT = {"none"}

CASES = [
    # rank None: the relative cutoff; rank 0: no mode learns (a valid, if idle, flow)
    Case(le.EigenFlow.of, dict(gram=2.0 * torch.eye(3, dtype=torch.float64), rank=2), accepted=dict(rank={"none", "zero"})),
    Case(le.draw_linear_student,
         dict(alphas=[0.5, 1.0], n=8, repeats=1, teachers=1, variances=le.Variances(), rng=GEN, device="cpu",
              dtype=torch.float64),
         accepted=dict(variances=DEFAULT, rng=RNG)),
    Case(le.Variances, dict(teacher_var=1.0, init_var=0.0, noise_var=0.0),
         accepted=dict(teacher_var={"zero"}, init_var={"zero"}, noise_var={"zero"})),
    # chunk None: each function's default
    Case(le.Execution, dict(TORCH, chunk=4), accepted=dict(rng=RNG, chunk={"none"})),
    Case(le.LinearLabels, dict(snr=10.0, teachers=1, n_test=10), infinite=dict(snr={"+inf"})),  # noiseless
    Case(le.linear_student_flow, dict(batch=BATCH, times=[0.0, 1.0, np.inf], tau=1.0),
         accepted=dict(times={"zero", "+inf"})),  # one time
    Case(le.gd_decay_factors, dict(eigvals=[0.5, 1.0], lr=0.1, steps=[0, 1, 5]),
         accepted=dict(eigvals={"zero", "wrong-shape"}, steps={"zero"})),  # a batch of spectra; one step count
    Case(le.linear_student_gd, dict(batch=BATCH, lr=0.1, steps=[0, 2]), accepted=dict(steps={"zero"})),
    Case(le.simulate_linear_student,
         dict(alphas=[0.5], n=8, repeats=1, times=[0.0, 1.0], snr=10.0, inr=0.1, teachers=1,
              execution=le.Execution(**TORCH, chunk=4)),
         accepted=dict(times={"zero", "+inf"}, snr={"+inf"}, inr={"zero"}, execution=DEFAULT)),
    Case(le.sample_spectra, dict(alphas=[0.5, 2.0], n=8, repeats=2, chunk=4, **TORCH), accepted=dict(rng=RNG)),
    Case(le.condition_errors, dict(test_error=np.ones((2, 1, 1, 1, 3)), frozen=np.zeros((2, 1, 1, 1, 3)),
                                   times=[0.0, 1.0, 5.0], t_stop=[[1.0], [0.0]])),
    Case(le.gd_versus_flow, dict(batch=BATCH, alphas=[0.5, 1.0], lr=0.1, steps=[0, 2], times=[0.0, 0.2, 5.0],
                                 gd_teachers=1),
         accepted=dict(steps={"zero"}, times={"zero"}),
         infinite=dict(times={"+inf"})),  # t = inf (converged): the result's times hold it
    Case(le.early_stopping_vs_ridge, dict(alphas=[0.5, 1.0], n_features=6, repeats=2, snr=4.0, rng=0),
         accepted=dict(rng=RNG)),
    Case(le.per_mode_stopping_gd, dict(alpha=2.0, n_features=6, teachers=200, snr=4.0, lr=0.02, steps=300,
                                       execution=EXECUTION),
         accepted=dict(execution=DEFAULT)),
    Case(le.random_feature_relu,
         dict(n_in=5, n_samples=6, hidden=[4, 8], repeats=1, times=[0.0, 1.0, np.inf],
              labels=le.LinearLabels(snr=10.0, teachers=1, n_test=10), execution=le.Execution(**TORCH, chunk=4)),
         accepted=dict(times={"zero", "+inf"}, labels=DEFAULT, execution=DEFAULT)),
    Case(le.random_feature_bounds, dict(sweep=SWEEP, delta=0.05, teacher=0), accepted=dict(teacher={"zero"})),
    Case(le.random_feature_gd,
         dict(n_in=5, n_samples=6, n_hidden=8, repeats=1, steps=[0, 2], lr=None,
              labels=le.LinearLabels(snr=10.0, teachers=1, n_test=10), execution=EXECUTION),
         accepted=dict(steps={"zero"}, lr={"none"}, labels=DEFAULT, execution=DEFAULT)),
    Case(rf.hidden_spectrum, dict(eigvals=[[0.0, 0.1, 0.3, 2.0], [0.0, 0.2, 0.4, 3.0]], n_hidden=6, n_cluster=1),
         accepted=dict(n_cluster={"zero"})),
    Case(rf.relu_feature_moments, dict()),  # no arguments: the constants of the decomposition
    # rows of weights; any batch shape broadcasts (the 4-d "wrong-shape" is a batch of (5, 7) rows)
    Case(rf.relu_kernel, dict(a=torch.ones(3, 4, dtype=torch.float64), b=torch.eye(4, dtype=torch.float64)[:2])),
    Case(rf.random_feature_students,
         dict(n_in=5, n_samples=6, hidden=[4, 8], repeats=2, times=[0.0, 1.0, 10.0],
              labels=rf.TeacherLabels(teacher="relu", teacher_hidden=3, snr=10.0, n_test=10), decompose=True,
              execution=le.Execution(**TORCH, chunk=1)),
         accepted=dict(times={"zero", "+inf"}, decompose={"none"}, labels=DEFAULT, execution=DEFAULT)),
    Case(rf.TeacherLabels, dict(teacher="relu", teacher_hidden=3, snr=10.0, n_test=10),
         accepted=dict(n_test={"zero"}), infinite=dict(snr={"+inf"})),  # no test set; noiseless labels
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
