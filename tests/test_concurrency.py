"""Independent calls side by side (gendyn.concurrency): order, failures, and each call's bytes as alone."""

import numpy as np
import pytest
import torch

from gendyn import seeding, train
from gendyn.concurrency import concurrently


def test_results_come_in_the_order_of_the_items_and_the_first_failure_is_raised():
    def fail_odd(x):
        if x % 2:
            raise ValueError(f"item {x}")
        return x

    with pytest.raises(ValueError, match="item 1"):
        concurrently(fail_odd, range(4), threads=2)
    assert concurrently(fail_odd, [4, 2, 0], threads=2) == [4, 2, 0]
    assert concurrently(fail_odd, [], threads=2) == []
    with pytest.raises(ValueError, match="threads must be an integer >= 1"):
        concurrently(fail_odd, [0], threads=0)
    with pytest.raises(ValueError, match="fn must be callable"):
        concurrently(None, [0])


def _teacher_students(k, horizon=2.0):
    """A deep teacher's leaky-ReLU and linear students at their own learning rate (the authors' Fig. 5 loop)."""
    spec = train.FullBatchSpec(20, 10, 8, lr=(4e-3, 6e-3, 1e-2)[k], horizon=horizon, n_records=12, eps=1e-3)
    return train.train_leaky_and_linear([[4.0 + k, 1.0]], 3, spec, n_layers=5, slope=0.1,
                                        rng=seeding.stream(3, "teacher", k))


def test_deep_students_side_by_side_are_each_the_bytes_of_the_call_alone():
    alone = [_teacher_students(k) for k in range(3)]
    old = torch.get_num_threads()
    together = concurrently(_teacher_students, range(3), threads=3)
    assert torch.get_num_threads() == old  # each call limits its own thread's count (OpenMP's is per thread)
    for a, b in zip(alone, together):
        for name, value in vars(a).items():
            assert np.asarray(value).tobytes() == np.asarray(getattr(b, name)).tobytes(), name
