"""Fuzz: every public function of gendyn.rmt refuses bad arguments clearly."""

import pytest

from fuzzing import Case, findings, fuzz
from gendyn import rmt

#: An elementwise argument rightly accepts an array of any shape (the ones of "wrong-shape"
#: are valid values) and broadcasts it.
ANY_SHAPE = {"wrong-shape"}
#: A point at which a density or distribution function is evaluated may be any real number,
#: infinite included (P(s) = 0 off the support, F(-inf) = 0, F(inf) = 1).
ANY_POINT = {"negative", "zero", "+inf", "-inf", "wrong-shape"}

CASES = [
    Case(rmt.check_aspect, dict(aspect=0.5), accepted={"aspect": ANY_SHAPE}),
    # the name only labels error messages: any string is a name
    Case(rmt.check_singular_values, dict(svals=[2.0, 1.0], name="svals", vector=False),
         accepted={"svals": {"zero", "wrong-shape"}, "name": {"string", "unknown-name"},
                   "vector": {"bool"}}),
    Case(rmt.mp_edges, dict(aspect=0.5), accepted={"aspect": ANY_SHAPE}),
    Case(rmt.mp_density, dict(s=1.0, aspect=0.5), accepted={"s": ANY_POINT, "aspect": ANY_SHAPE}),
    # mp_cdf and mp_quantile take one aspect (a scalar): a grid is built for it
    Case(rmt.mp_cdf, dict(s=1.0, aspect=0.5), accepted={"s": ANY_POINT}),
    Case(rmt.mp_quantile, dict(q=0.5, aspect=0.5), accepted={"q": {"zero", "wrong-shape"}}),
    Case(rmt.detection_threshold, dict(aspect=0.5), accepted={"aspect": ANY_SHAPE}),
    Case(rmt.spike_singular_value, dict(sbar=2.0, aspect=0.5),
         accepted={"sbar": {"zero", "wrong-shape"}, "aspect": ANY_SHAPE}),
    Case(rmt.spike_teacher_value, dict(shat=3.0, aspect=0.5),
         accepted={"shat": {"zero", "wrong-shape"}, "aspect": ANY_SHAPE}),
    Case(rmt.spike_overlap, dict(sbar=2.0, aspect=0.5),
         accepted={"sbar": {"zero", "wrong-shape"}, "aspect": ANY_SHAPE}),
    Case(rmt.spike_vector_overlaps, dict(sbar=2.0, aspect=0.5),
         accepted={"sbar": {"zero", "wrong-shape"}, "aspect": ANY_SHAPE}),
    # one aspect ratio and one size: a scale, not a broadcast
    Case(rmt.tracy_widom_scale, dict(aspect=0.5, n1=100)),
    # the eigenvalue-form edges broadcast over loads (alpha = 1: the lower scale is 0, the hard edge)
    Case(rmt.tracy_widom_lower_scale, dict(alpha=0.5, n=100), accepted={"alpha": ANY_SHAPE}),
    Case(rmt.tracy_widom_upper_scale, dict(alpha=0.5, n=100), accepted={"alpha": ANY_SHAPE}),
    # an angle of the support is in [0, pi]: 0 is the lower edge
    Case(rmt.mp_singular_value_measure, dict(theta=1.0, aspect=0.5),
         accepted={"theta": {"zero", "wrong-shape"}, "aspect": ANY_SHAPE}),
    Case(rmt.mp_eigenvalue_measure, dict(theta=1.0, alpha=0.5),
         accepted={"theta": {"zero", "wrong-shape"}, "alpha": ANY_SHAPE}),
    # a batch of equal breaks (the wrong-shape ones) is a batch of empty panels: weights 0
    Case(rmt.mp_rule, dict(breaks=[0.0, 1.0, 3.0], aspect=0.5, order=16, log=False),
         accepted={"breaks": {"wrong-shape"}}),
    Case(rmt.mp_rule, dict(breaks=[-3.0, 0.0, 1.0], alpha=2.0, order=12, log=True),
         accepted={"breaks": {"wrong-shape"}}),
    # any number of teacher modes, of any shape: a yes or no for all of them
    Case(rmt.near_detection_threshold, dict(sbar=[2.0, 0.8], n1=100, aspect=0.5),
         accepted={"sbar": {"zero", "wrong-shape"}}),
]


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} | {"TW1_MEAN", "TW1_SD"} == set(rmt.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
