"""gendyn.committee_stationary: the students of Goldt et al. Figs. 4 and S4 and their stationary runs."""

import numpy as np
import pytest

from gendyn import committee_sgd as cs
from gendyn import committee_stationary as st


def test_student_start_draws_the_same_weights_for_linear_and_relu_students():
    for variant in st.RELU_VARIANTS:
        lin = cs.linear_student_start(30, 3, 2, variant, runs=2, rng=5)
        relu = st.student_start(30, 3, 2, variant, activation="relu", runs=2, rng=5)
        assert relu.initial.activation == "relu" and relu.train_second_layer == lin.train_second_layer
        for name in ("w", "w_star", "v", "v_star"):
            np.testing.assert_array_equal(getattr(relu.initial, name), getattr(lin.initial, name))
    same = st.student_start(30, 3, 2, cs.LINEAR_VARIANTS[3], runs=2, rng=5)  # linear: linear_student_start's
    np.testing.assert_array_equal(same.initial.w, cs.linear_student_start(30, 3, 2, cs.LINEAR_VARIANTS[3], runs=2,
                                                                          rng=5).initial.w)
    with pytest.raises(ValueError, match="for ReLU networks"):
        st.student_start(30, 3, 2, cs.LINEAR_VARIANTS[3], activation="relu")
    with pytest.raises(ValueError, match="activation must be one of"):
        st.student_start(30, 3, 2, "SCM", activation="erf")


def test_stationary_runs_give_batch_means_of_the_second_half_for_any_activation():
    start = st.student_start(40, 2, 2, "both layers", activation="relu", runs=2, rng=6)
    out = st.stationary_runs(start.initial, 0.05, 0.1, 20.0, train_second_layer=True, rng=6)
    assert isinstance(out, st.StationaryRuns) and out.K == 2 and out.batches.shape == (2, 10)
    assert out.run.activation == "relu" and out.run.settings["train_second_layer"]
    late = out.run.alpha >= out.run.alpha[-1] / 2
    np.testing.assert_allclose(out.batches.mean(1), out.run.eg[:, late][:, -100:].mean(1))
    # linear students: the batch means of linear_stationary_runs
    lin = cs.linear_student_start(40, 2, 2, "SCM", runs=2, rng=6)
    np.testing.assert_array_equal(st.stationary_runs(lin.initial, 0.05, 0.1, 20.0, rng=6).batches,
                                  cs.linear_stationary_runs(lin.initial, 0.05, 0.1, 20.0, rng=6).batches)
    with pytest.raises(ValueError, match="alpha_max must be >= 200 / N"):
        st.stationary_runs(start.initial, 0.05, 0.1, 1.0)
