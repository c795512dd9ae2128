"""Fuzz: every public function of gendyn.task_data refuses bad arguments clearly."""

import pytest
import torch

from fuzzing import Case, findings, fuzz
from gendyn import task_data as td

GEN = torch.Generator().manual_seed(0)
TORCH = dict(rng=GEN, dtype=torch.float64, device="cpu")
TEACHER = torch.randn(2, 3, 4, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
X1, Y1 = td.sampled_task(TEACHER, 3, rng=GEN)
X2, Y2 = td.sampled_task(TEACHER, 5, rng=GEN)
PAIRS = td.task_pairs([1.0], [2.0], [0.5], td.PairSpec(6, 3, 2), rng=GEN)

CASES = [
    Case(td.task_pairs,
         dict(svals_a=[1.0], svals_b=[2.0], overlap=[0.5], spec=td.PairSpec(n1=6, n3=3, runs=2, noise_std=1.0),
              output_vectors="independent", **TORCH),
         accepted=dict(rng={"none", "zero"})),
    Case(td.leaky_relu_task_pairs,
         dict(svm_a=[1.0], svm_b=[2.0], q=[0.5], spec=td.PairSpec(n1=8, n3=4, runs=1, noise_std=1.0),
              teachers=td.LeakyTeachers(rank=2, slope=0.2, branches=False), **TORCH),
         accepted=dict(svm_a={"zero"}, svm_b={"zero"}, q={"negative", "zero"},  # one setting G = 1; q in [-1, 1]
                       teachers={"none"}, rng={"none", "zero"})),  # teachers None: LeakyTeachers()
    # their specs, field by field
    Case(td.PairSpec, dict(n1=6, n3=3, runs=2, noise_std=1.0), accepted=dict(noise_std={"zero"})),
    Case(td.LeakyTeachers, dict(rank=2, slope=0.2, branches=False), accepted=dict(slope={"zero"})),
    Case(td.task_a_only, dict(pairs=PAIRS, rows=[0, 1])),
    Case(td.task_a_rows, dict(points=[[1.0, 2.0, 0.0], [1.0, 2.0, 1.0]], sbar_a=[1.0], runs=2)),
    Case(td.randomised_outputs, dict(sigma31=TEACHER, rng=GEN), accepted=dict(rng={"none", "zero"})),
    Case(td.sampled_inputs, dict(n1=4, p=6, batch=2, kind="orthogonal", **TORCH), accepted=dict(rng={"none", "zero"})),
    Case(td.sampled_task, dict(teacher=TEACHER, p=6, kind="gaussian", noise_std=1.0, rng=GEN,
                               dtype=torch.float64),
         accepted=dict(noise_std={"zero"}, rng={"none", "zero"})),
    Case(td.stack_examples, dict(datasets=[(X1, Y1), (X2, Y2)])),
    Case(td.converged_map, dict(inputs=X1, targets=Y1, initial=TEACHER)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))
