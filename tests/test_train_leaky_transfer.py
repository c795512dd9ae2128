"""gendyn.train, App. F: transfer between leaky-ReLU tasks (leaky_relu_transfer, two_headed_fan_weights,
compare_initialisations)."""

import numpy as np
import pytest
import torch

from gendyn import task_data, train, transfer

SPEC = train.FullBatchSpec(n1=8, n2=4, n3=4, lr=0.05, horizon=2.0, n_records=10, eps=1e-3)
POINTS = np.array([[1.0, 3.0, 0.0], [1.0, 3.0, 1.0], [2.0, 3.0, 0.0], [2.0, 3.0, 1.0]])


def _pairs(runs=2, seed=0, **kw):
    return task_data.leaky_relu_task_pairs(POINTS[:, 0], POINTS[:, 1], POINTS[:, 2], task_data.PairSpec(8, 4, runs),
                                           rng=torch.Generator().manual_seed(seed), **kw)


def test_leaky_relu_transfer_pairs_each_student_with_its_single_task_baseline():
    torch.set_num_threads(1)
    pairs = _pairs()
    out = train.leaky_relu_transfer(pairs, POINTS, [1.0, 2.0], SPEC, rng=torch.Generator().manual_seed(1))
    assert out.benefit.shape == (4, 2) and out.single.shape == (2, 2)
    assert np.all(np.isfinite(out.benefit)) and np.all(out.single > 0)
    # the same students by hand
    rows = task_data.task_a_rows(POINTS, [1.0, 2.0], 2)
    single_data, single_clean = task_data.task_a_only(pairs, rows)
    result = train.train_students(torch.cat([pairs.sigma31, single_data]).float(),
                                  train.Architecture(hidden=4, activation="leaky_relu", output_activation=True,
                                                     heads=(4, 4)),
                                  train.Schedule(lr=0.05, epochs=40, n_records=10, check_stability=False),
                                  start=train.Start(init="random", eps=1e-3),
                                  evaluation=train.Evaluation(
                                      test_data=(torch.eye(8), torch.cat([pairs.teacher, single_clean]).float())),
                                  execution=train.Execution(desc=None), rng=torch.Generator().manual_seed(1))
    best = result.head_test_error[:, 0].min(-1)
    expected = transfer.paired_transfer(best[:8].reshape(4, 2), best[8:].reshape(2, 2), POINTS, [1.0, 2.0])
    assert np.array_equal(out.benefit, expected)


def test_fan_weights_and_the_two_initialisations():
    torch.set_num_threads(1)
    weights, joint = train.two_headed_fan_weights(3, 2, 8, 4, 4, rng=torch.Generator().manual_seed(0))
    assert [tuple(w.shape) for w in weights] == [(5, 4, 8), (5, 8, 4)]
    assert [tuple(w.shape) for w in joint] == [(3, 4, 8), (3, 8, 4)]
    assert torch.all(weights[1][3:, 4:] == 0) and torch.equal(weights[0][:3], joint[0])
    diag = task_data.leaky_relu_task_pairs([1.0], [3.0], [1.0], task_data.PairSpec(8, 4, 3),
                                           rng=torch.Generator().manual_seed(2))
    study = train.compare_initialisations(diag, SPEC, rng=torch.Generator().manual_seed(3))
    assert study.authors.shape == study.balanced.shape == (3,) and len(study.layer_scale) == 2
    assert np.all(np.isfinite(study.authors)) and min(study.layer_scale) > 0


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: train.FullBatchSpec(n1=8, n2=4, n3=4, lr=0.1, horizon=0.01, n_records=5, eps=1e-3), "horizon"),
        (lambda: train.leaky_relu_transfer(_pairs(), POINTS, [1.0, 2.0], dict(n1=8)), "spec must be"),
        (lambda: train.leaky_relu_transfer(_pairs(), POINTS[:2], [1.0], SPEC), "points must have shape"),
        (lambda: train.leaky_relu_transfer(
            _pairs(), POINTS, [1.0, 2.0],
            train.FullBatchSpec(n1=8, n2=4, n3=3, lr=0.05, horizon=1.0, n_records=5, eps=1e-3)), "spec must match"),
        (lambda: train.compare_initialisations(_pairs(), SPEC), "one grid point"),
        (lambda: train.two_headed_fan_weights(0, 1, 8, 4, 4), "n_joint"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()
