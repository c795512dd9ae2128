"""Fuzz: every public function of gendyn.teachers refuses bad arguments clearly."""

import pytest
import torch

from fuzzing import Case, findings, fuzz
from gendyn import teachers


def _gen():
    return torch.Generator().manual_seed(0)


_TEACHER = teachers.low_rank_teacher(torch.tensor([[2.0, 1.0], [3.0, 0.5]], dtype=torch.float64), 6, 4,
                                     rng=_gen())
_DATA = teachers.noisy_training_covariance(_TEACHER, rng=_gen())
_, _U, _V = teachers.top_singular_modes(_DATA, 2)

CASES = [
    # LowRankTeacher is a record type (a NamedTuple of tensors), not a function: the
    # functions that take one check it.
    Case(teachers.random_orthonormal,
         dict(n=5, r=2, batch=(3,), rng=_gen(), device="cpu", dtype=torch.float64),
         accepted={"rng": {"none", "zero"}}),
    Case(teachers.low_rank_teacher,
         dict(svals=torch.tensor([[2.0, 1.0]], dtype=torch.float64), n_in=6, n_out=4, rng=_gen()),
         accepted={"rng": {"none", "zero"}}),
    Case(teachers.noisy_training_covariance, dict(teacher=_TEACHER, noise_std=1.0, rng=_gen()),
         accepted={"noise_std": {"zero"}, "rng": {"none", "zero"}}),
    Case(teachers.top_singular_modes, dict(matrix=_DATA, k=2)),
    Case(teachers.mode_overlaps, dict(U=_U, V=_V, teacher=_TEACHER)),
    Case(teachers.measure_spikes,
         dict(sbar=[[2.0], [1.0]], n_in=8, aspect=0.5, repeats=2, rng=0, keep_spectra=1,
              execution=teachers.SpikeExecution(device="cpu", dtype=torch.float64, chunk=2)),
         accepted={"sbar": {"zero"}, "rng": {"zero", "none"}, "keep_spectra": {"zero"},
                   "execution": {"none"}}),  # None: SpikeExecution()
    Case(teachers.SpikeExecution, dict(device="cpu", dtype=torch.float64, chunk=2)),
    # SpikeMeasurement and SpikeGaps are result types, not functions
    Case(teachers.spike_gaps, dict(sbar=[0.0, 2.0], n_ins=(8, 16), aspect=0.5, repeats=2, rng=0, device="cpu"),
         accepted={"rng": {"zero", "none"}}),
]


def test_every_public_function_is_fuzzed():
    types = {"LowRankTeacher", "PROFILES", "SpikeMeasurement", "SpikeGaps"}
    assert {c.func.__name__ for c in CASES} | types == set(teachers.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
