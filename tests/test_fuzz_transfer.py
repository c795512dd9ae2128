"""Fuzz: every public function of gendyn.transfer refuses bad arguments clearly."""

import numpy as np
import pytest

import torch

from fuzzing import Case, findings, fuzz
from gendyn import deep_linear, task_data, transfer

_RNG = np.random.default_rng(0)
_TEACHER = np.zeros((2, 4, 6))
_TEACHER[:, 0, 0], _TEACHER[:, 2, 1] = 3.0, 2.0
_DATA = _TEACHER + _RNG.normal(size=(2, 4, 6)) / np.sqrt(6)
# an overlap q and -q (or 0) are all valid cosines; a zero task B is a single task
_TASKS = dict(svals_a=[2.0], svals_b=[1.5], overlap=[[0.5]])
_TASKS_OK = {"svals_b": {"zero"}, "overlap": {"zero", "negative"}}
_SIZES = dict(student=deep_linear.TaStudent(n1=8, n2=4, n3=4, eps=1e-3, tau=1.0, n_layers=3), n3_a=2)
# a grid of 2 points (sbar_A = 3; sbar_B = 0, 2; q = 0, 1 -> 4 points) and 2 runs of its data
_GRID = transfer.transfer_grid([3.0], [0.0, 2.0], 2, n1=8, n2=2, n3=2, eps=1e-3)
_PAIRS = task_data.task_pairs(_GRID.points[:, 0], _GRID.points[:, 1], _GRID.points[:, 2], task_data.PairSpec(8, 2, 2),
                              rng=torch.Generator().manual_seed(0))

CASES = [
    # KINDS is a constant, not a function.
    # a zero svals_a with a nonzero svals_b is a valid pair of teachers
    Case(transfer.composite_modes, dict(_TASKS), accepted={"svals_a": {"zero"}, **_TASKS_OK}),
    Case(transfer.composite_input_alignment, dict(_TASKS), accepted={"svals_a": {"zero"}, **_TASKS_OK}),
    Case(transfer.head_test_error, dict(t=[0.5, 2.0], **_TASKS, **_SIZES),
         accepted={"t": {"zero", "wrong-shape"}, **_TASKS_OK}),
    Case(transfer.joint_optimal_error, dict(**_TASKS, **_SIZES, t_max=50.0),
         accepted={"t_max": {"none"}, **_TASKS_OK}),
    Case(transfer.transfer_benefit_general,
         dict(**_TASKS, student=deep_linear.TaStudent(n1=8, n2=2, n3=2, eps=1e-3), kind="difference"),
         accepted=_TASKS_OK),
    # sbar_a, sbar_b and q broadcast: a grid of them is a grid of results
    Case(transfer.transfer_benefit,
         dict(sbar_a=3.0, sbar_b=2.0, q=0.5, student=deep_linear.TaStudent(n1=8, n2=2, n3=2, eps=1e-3),
              kind="difference", return_errors=False),
         accepted={"sbar_a": {"wrong-shape"}, "sbar_b": {"zero", "wrong-shape"},
                   "q": {"zero", "negative", "wrong-shape"}, "return_errors": {"bool"}}),
    Case(transfer.sampled_head_errors,
         dict(t=[0.0, 0.5, 1.0], sigma31=_DATA, teacher=_TEACHER, n3_a=2,
              student=deep_linear.TaStudent(n2=2, eps=1e-3, tau=1.0, n_layers=3), chunk=1, lr=0.5),
         # no student: the deprecated former form, whose defaults (eps = 1e-5) still run for one release
         accepted={"lr": {"none"}, "student": {"none"}}),
    # TransferGrid is a record type: its constructor takes the theory as computed here.
    Case(transfer.transfer_grid, dict(sbar_a=[3.0], sbar_b=[0.0, 2.0], q_steps=2, n1=8, n2=2, n3=2, eps=1e-3)),
    Case(transfer.paired_transfer,
         dict(joint=[[0.5, 0.6], [0.4, 0.5]], single=[[0.7, 0.8]], points=[[3.0, 1.0, 0.0], [3.0, 1.0, 1.0]],
              sa=[3.0])),
    # a T of any sign is a valid value
    Case(transfer.sign_change_overlap, dict(benefit=[-0.2, -0.1, 0.3], qs=[0.0, 0.5, 1.0])),
    # CompositeExample, SimulatedTransfer, D1Alignments and SampledTransfer are record types.
    # a zero task B is a single task
    Case(transfer.composite_example, dict(sbar_a=3.0, sbar_b=2.0, n1=8, n2=2, n3=2, eps=1e-3, head_q=[0.0, 0.5]),
         accepted={"sbar_b": {"zero"}}),
    Case(transfer.simulated_transfer,
         dict(joint=[[0.5, 0.6], [0.4, 0.5], [0.5, 0.5], [0.3, 0.4]], single=[[0.7, 0.8]], grid=_GRID)),
    Case(transfer.d1_alignments, dict(sigma31=_PAIRS.sigma31.numpy(), teacher=_PAIRS.teacher.numpy(), grid=_GRID)),
    Case(transfer.sampled_transfer, dict(t=[0.0, 0.5, 1.0], sigma31=_DATA, teacher=_TEACHER, n3_a=2, n2=2, eps=1e-3),
         accepted={"n2": {"none"}}),
]


def test_every_public_function_is_fuzzed():
    assert {c.func.__name__ for c in CASES} | {"KINDS", "TransferGrid", "CompositeExample", "SimulatedTransfer",
                                                 "D1Alignments", "SampledTransfer"} == set(transfer.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
