"""Fuzz: every public function of gendyn.committee_stationary refuses bad arguments clearly."""

import pytest

from fuzzing import Case, findings, fuzz
from gendyn import committee_sgd as cs
from gendyn import committee_stationary as st

CASES = [
    Case(st.student_start, dict(N=20, K=2, M=1, variant="both layers", activation="relu", runs=1, rng=0),
         accepted=dict(rng={"zero", "none"})),
    Case(st.stationary_runs,
         dict(initial=cs.initial_weights(20, 2, 1, "relu", runs=2, rng=0), lr=0.05, sigma=0.1, alpha_max=12.0,
              train_second_layer=True, rng=0),
         accepted=dict(sigma={"zero"}, rng={"zero", "none"}, train_second_layer={"bool", "false"})),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
@pytest.mark.parametrize("bad", [-1, 1.5, "x"])
def test_a_bad_rng_is_refused_naming_rng(case, bad):
    with pytest.raises(ValueError, match=r"\brng\b"):
        case.func(**{**case.kwargs, "rng": bad})
