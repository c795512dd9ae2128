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


def test_choice_refuses_an_array_naming_the_argument():
    with pytest.raises(ValueError, match=r"^kind must be one of \('a', 'b'\); got array"):
        _checks.choice(np.ones((2, 3)), "kind", ("a", "b"))


# ----------------------------------------------------------------------------------------
# real_array, bounded, flag, text, integers and the torch checks
# ----------------------------------------------------------------------------------------


def test_real_array_returns_floats_of_any_shape():
    x = _checks.real_array([[1, 2], [3, 4]], "t", lower=0)
    assert x.dtype == float and x.shape == (2, 2)
    a = np.arange(3.0)
    assert _checks.real_array(a, "t") is a  # not copied
    assert _checks.real_array(np.inf, "t", lower=0, allow_inf=True) == np.inf
    assert _checks.real_array(-np.inf, "s", allow_inf=True) == -np.inf


@pytest.mark.parametrize("value, shown", [
    ("x", "'x'"), (None, "None"), (True, "True"), ([1.0, None], r"\[1.0, None\]"), ([1.0, True], r"\[1.0, True\]"),
    (np.nan, "nan"), ([0.5, np.inf], r"\[inf\]"), (-1, "-1.0"), (2.0, "2.0"), (0, "0.0"), (1j, r"1j"),
])
def test_real_array_names_the_argument_the_range_and_the_bad_values(value, shown):
    with pytest.raises(ValueError, match=rf"^aspect must be real numbers in \(0, 1\]; got {shown}$"):
        _checks.real_array(value, "aspect", lower=0, upper=1, open_lower=True)


def test_real_array_checks_the_number_of_dimensions():
    with pytest.raises(ValueError, match=r"^aspect must be a real number in \[0, inf\); got an array of shape \(2,\)$"):
        _checks.real_array([1.0, 2.0], "aspect", lower=0, ndim=0)
    with pytest.raises(ValueError, match=r"^t must be a 1-d array of real numbers in \[0, inf\); got shape \(\)$"):
        _checks.real_array(1.0, "t", lower=0, ndim=1)
    assert _checks.real_array([[1.0]], "q", ndim=(1, 2)).shape == (1, 1)


def test_bounded_is_one_number_in_a_range():
    assert _checks.bounded(np.float32(0.5), "fraction", 0, 1, open_lower=True) == 0.5
    with pytest.raises(ValueError, match=r"^fraction must be a real number in \(0, 1\]; got 0.0$"):
        _checks.bounded(0, "fraction", 0, 1, open_lower=True)
    with pytest.raises(ValueError, match=r"^level must be a real number in \(-inf, inf\); got inf$"):
        _checks.bounded(np.inf, "level")


def test_flag_accepts_only_booleans():
    assert _checks.flag(np.bool_(True), "full_output") is True
    for value in (0, 1, "yes", None):
        with pytest.raises(ValueError, match=r"^full_output must be True or False; got"):
            _checks.flag(value, "full_output")


def test_text():
    assert _checks.text("label", "desc") == "label"
    assert _checks.text(None, "desc", optional=True) is None
    with pytest.raises(ValueError, match=r"^desc must be a string or None; got 1"):
        _checks.text(1, "desc", optional=True)


def test_integers():
    assert _checks.integers([1, np.int64(2)], "ranks") == (1, 2)
    assert _checks.integers((), "batch", nonempty=False) == ()
    for value in ("12", 3, [1, True], [0], [1.0], None, [], np.ones((2, 2), dtype=int)):
        with pytest.raises(ValueError, match=r"^ranks must be a non-empty sequence of integers >= 1; got"):
            _checks.integers(value, "ranks")


def test_torch_checks_name_the_argument():
    torch = pytest.importorskip("torch")
    assert _checks.tensor(torch.zeros(2, 3), "m", 2) is not None
    for value, match in ((np.zeros((2, 3)), "must be a torch.Tensor"), (torch.zeros(3), "must have 2 dimensions"),
                         (torch.zeros(2, 3, dtype=torch.int64), "must be a floating-point"),
                         (torch.full((2, 3), float("nan")), "must have finite entries")):
        with pytest.raises(ValueError, match=rf"^m {match}"):
            _checks.tensor(value, "m", 2, finite=True)
    assert _checks.torch_device("cpu") == torch.device("cpu")
    assert _checks.torch_device(torch.device("cpu")) == torch.device("cpu")
    for value in ("x", None, 0, "cuda:x"):
        with pytest.raises(ValueError, match=r"^device must be 'cpu', 'cuda' or 'cuda:N'"):
            _checks.torch_device(value)
    assert _checks.torch_dtype(torch.float32) is torch.float32
    with pytest.raises(ValueError, match=r"^dtype must be torch.float32 or torch.float64; got torch.int64"):
        _checks.torch_dtype(torch.int64)
    gen = torch.Generator()
    assert _checks.torch_generator(gen) is gen and _checks.torch_generator(None) is None
    with pytest.raises(ValueError, match=r"^generator must be a torch.Generator or None; got int"):
        _checks.torch_generator(0)


# ----------------------------------------------------------------------------------------
# shape, integer_array, labels, instance
# ----------------------------------------------------------------------------------------


def test_shape_with_batch_axes_and_any_size():
    assert _checks.shape(np.zeros((4, 2, 2)), "C", (..., 2, 2)).shape == (4, 2, 2)
    _checks.shape(np.zeros((3, 5)), "w", (3, None))
    with pytest.raises(ValueError, match=r"^C must have shape \(\.\.\., 2, 2\) \(covariance\); got \(2, 3\)$"):
        _checks.shape(np.zeros((2, 3)), "C", (..., 2, 2), meaning=" (covariance)")
    with pytest.raises(ValueError, match=r"^v must have shape \(3,\); got \(\)$"):
        _checks.shape(1.0, "v", (3,))


def test_integer_array():
    assert _checks.integer_array([0, 2, 5], "steps").tolist() == [0, 2, 5]
    assert _checks.integer_array(np.int32(3), "steps").ndim == 0


@pytest.mark.parametrize("value", [[1.0, 2.0], [0, True], True, "3", None, [-1, 2], np.ones((2, 2), int)])
def test_integer_array_refuses_floats_booleans_negatives_and_wrong_dimensions(value):
    with pytest.raises(ValueError, match=r"^steps must be a 1-d array of integers >= 0; got"):
        _checks.integer_array(value, "steps", ndim=1)


def test_labels_numpy_and_torch():
    import torch

    y = np.array([0, 2, 1])
    assert _checks.labels(y, "y", 3) is y
    t = torch.tensor([[0, 1]])
    assert _checks.labels(t, "y_a", 2, expected_shape=(1, 2)) is t


@pytest.mark.parametrize("value", [[0, -1], [0, 3], [0.0, 1.0], [True, False], "x", None])
def test_labels_refuse_negative_and_too_large_labels_instead_of_wrapping(value):
    with pytest.raises(ValueError, match=r"^y must be integer class labels in \[0, 3\); got"):
        _checks.labels(value, "y", 3)


def test_labels_refuse_float_and_out_of_range_tensors():
    import torch

    for value in (torch.tensor([0.0, 1.0]), torch.tensor([0, 5]), torch.tensor([True])):
        with pytest.raises(ValueError, match=r"^y must be integer class labels in \[0, 3\)"):
            _checks.labels(value, "y", 3)


def test_instance():
    with pytest.raises(ValueError, match=r"^initial must be a dict \(from somewhere\); got str$"):
        _checks.instance("x", "initial", dict, hint=" (from somewhere)")


def test_choice_refuses_a_flag_or_a_float_for_an_integer_option():
    assert _checks.choice(2, "sides", (1, 2)) == 2 and _checks.choice(np.int64(1), "sides", (1, 2)) == 1
    for bad in (True, np.True_, 2.0):
        with pytest.raises(ValueError, match=r"^sides must be one of \(1, 2\)"):
            _checks.choice(bad, "sides", (1, 2))
    assert _checks.choice(np.str_("relu"), "activation", ("linear", "relu")) == "relu"
