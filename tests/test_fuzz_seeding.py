"""Fuzz: every public function of gendyn.seeding refuses bad arguments clearly."""

import numpy as np
import pytest

from fuzzing import Case, findings, fuzz
from gendyn import seeding

#: rng = 0 is a seed and None is fresh entropy: both are valid random-number arguments.
VALID_RNG = {"zero", "none"}

CASES = [
    # name only labels the error message: any value is a label
    Case(seeding.check, dict(rng=0, name="rng"), accepted={"rng": VALID_RNG}, skip={"name"}),
    Case(seeding.stream, dict(rng=0), accepted={"rng": VALID_RNG}),
    Case(seeding.streams, dict(rng=0), accepted={"rng": VALID_RNG}),
    Case(seeding.run_seeds, dict(rng=0, runs=3), accepted={"rng": VALID_RNG}),
    Case(seeding.torch_generator, dict(rng=0, name="rng"), accepted={"rng": VALID_RNG}, skip={"name"}),
    Case(seeding.numpy_generator, dict(rng=0, name="rng"), accepted={"rng": VALID_RNG}, skip={"name"}),
    Case(seeding.entropy, dict(seed_sequence=np.random.SeedSequence(0))),
    # any name of the former keywords' tuple may be one that the dict does not hold
    Case(seeding.former_rng, dict(rng=None, keywords={}, where="f", names=("seed",)),
         accepted={"rng": VALID_RNG, "where": {"string", "unknown-name"}}),
]


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} | {"Rng", "REQUIRE_RNG"} == set(seeding.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
