"""The argument checks every module of the library shares."""

import numpy as np
import pytest

from gendyn import _checks


def test_integer_accepts_python_and_numpy_integers():
    assert _checks.integer(3, "n") == 3
    assert _checks.integer(np.int64(5), "n", minimum=5) == 5


@pytest.mark.parametrize("value", [0, -1, 2.5, True, np.bool_(True), "3", None])
def test_integer_names_the_argument_and_the_allowed_values(value):
    with pytest.raises(ValueError, match=r"^n3 must be an integer >= 1 \(outputs\); got"):
        _checks.integer(value, "n3", meaning=" (outputs)")


def test_real_accepts_numbers_and_zero_dimensional_arrays():
    assert _checks.real(0, "lr") == 0.0
    assert _checks.real(np.float32(0.5), "lr") == 0.5
    assert _checks.positive(np.array(2.0), "eps") == 2.0


@pytest.mark.parametrize("value", [-0.1, np.nan, np.inf, "1.0", True, [1.0], np.ones(2), None])
def test_real_refuses_what_is_not_one_finite_number(value):
    with pytest.raises(ValueError, match=r"^lr must be a finite number >= 0; got"):
        _checks.real(value, "lr")


def test_positive_refuses_zero_and_says_what_else_is_allowed():
    with pytest.raises(ValueError, match=r"noise_std must be a finite number > 0 or 'estimate'; got 0"):
        _checks.positive(0, "noise_std", " or 'estimate'")


def test_choice():
    assert _checks.choice("erf", "activation", ("erf", "relu")) == "erf"
    with pytest.raises(ValueError, match=r"activation must be one of \('erf', 'relu'\); got 'tanh'"):
        _checks.choice("tanh", "activation", ("erf", "relu"))
