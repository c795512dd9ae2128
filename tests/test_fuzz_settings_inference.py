"""Fuzz: every public function of gendyn.settings_inference refuses bad arguments clearly.

Tiny runs (one epoch, a pool of 40 examples, 2 seeds) keep each call fast.
"""

import numpy as np
import pytest
import torch

from fuzzing import Case, findings, fuzz
from gendyn import settings_inference as si

_SETTING = si.Setting(n_features=6, clean_validation=False, activation="linear", depth=1, epochs=1, lr=0.05)
_CELLS = [dict(n_train_a=8, s_a=1.0), dict(n_train_a=8, n_train_b=8, s_a=1.0, s_b=2.0, relatedness=0.5)]
_PUB = [np.array([2.1, 2.2, 2.0]), np.array([1.5, 1.7, 1.6]), np.array([0.9, 1.1, 1.0])]
_SIM = np.array([[[2.0, 2.1], [1.6, 1.5], [1.0, 1.2]], [[2.3, 2.2], [1.9, 1.8], [1.4, 1.3]]])


def _simulate(**kwargs):
    """simulate_settings' recorded values (a single-task cell's multitask entry is NaN by design)."""
    runs = si.simulate_settings(**kwargs)
    return {"values": np.stack([runs.values(g) for g in range(len(runs.settings))])}


_simulate.__name__, _simulate.__wrapped__ = "simulate_settings", si.simulate_settings

_RUNS = si.simulate_settings([_SETTING], _CELLS, [0, 1], sweep=si.Sweep(n_classes=2, n_pool=40, n_val=10, hidden=3))

CASES = [
    Case(si.Setting, dict(n_features=6, clean_validation=True, activation="relu", depth=2, epochs=3, lr=0.1)),
    Case(si.setting_grid, dict(n_features=[6, 8], clean_validation=[False, True], activations=["linear"],
                               depths=[1], schedules=[(2, 0.1)])),
    Case(_simulate, dict(settings=[_SETTING], cells=_CELLS, seeds=[0, 1],
                         sweep=si.Sweep(n_classes=2, n_pool=40, n_val=10, hidden=3, batch_size=4), dtype=torch.float32,
                         device="cpu"),
         skip={"sweep"}),  # None: Sweep(), whose 10 classes do not fit N = 6 (TeacherPair says so); others: refused
    Case(si.Sweep, dict(n_classes=2, n_pool=40, n_val=10, hidden=3, batch_size=4, data_seed=0, model_seed=0),
         accepted=dict(data_seed={"zero", "false"}, model_seed={"zero", "false"})),
    Case(_RUNS.values, dict(index=0), accepted=dict(index={"zero", "false"})),
    Case(si.published_values, dict(cells=[dict(n_train_a=100, s_a=10.0)], name="rank-10")),
    Case(si.calibration_fit, dict(published=_PUB, simulated=_SIM)),
    Case(si.held_out_agreement, dict(published=_PUB, predicted=_SIM[0])),
    Case(si.exact_coverage, dict(seeds_published=5, seeds_simulated=5, z=2.0)),
    Case(si.label_floor, dict(s_a=[0.1, 1.0], n_classes=3, n_features=20, clean_validation=True, n_samples=8,
                              rng=0),
         accepted=dict(s_a={"zero", "wrong-shape"}, rng={"zero", "none"})),  # s_a: any shape
]


def test_every_public_function_is_fuzzed():
    constants = {"CALIBRATION", "SimulatedRuns", "CalibrationFit", "Agreement"}
    assert {c.func.__name__ for c in CASES} | constants >= set(si.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{sorted(c.kwargs)[-1]}")
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
