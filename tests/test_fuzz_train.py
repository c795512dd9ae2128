"""Fuzz: every public function of gendyn.train refuses bad arguments clearly.

Tiny students (2 networks, N1 = 4, N2 = 2, N3 = 2) and a few epochs keep each call fast.
"""

import functools

import numpy as np
import pytest
import torch

from fuzzing import Case, findings, fuzz
from gendyn import task_data, teachers, train


def _gen():
    return torch.Generator().manual_seed(0)


_TEACHER = teachers.low_rank_teacher(torch.tensor([[2.0], [3.0]], dtype=torch.float64), 4, 2, rng=_gen())
_DATA = teachers.noisy_training_covariance(_TEACHER, rng=_gen())
_WEIGHTS = train.init_weights(_DATA, 2, 3, "aligned", 1e-3, dtype=torch.float64)
_TIME = [0.0, 1.0, 2.0, 3.0]
_SWEEP = train.snr_sweep([2.0], [1], 2, 4, 2, rng=_gen())
_TWO_HEADED = {"pair": (torch.cat([_DATA, 0.5 * _DATA], 1), torch.cat([_TEACHER.matrix, 0.5 * _TEACHER.matrix], 1))}
_STOPPING = {"TA": (np.array([1.0, 2.0]), np.array([0.2, 0.3])), "random": (np.array([2.0, 2.5]), np.array([0.2, 0.3]))}


@functools.wraps(train.train_students)
def _train_students(*args, **kwargs):
    """train.train_students with the fields it documents as None (nothing recorded) left out.

    The fuzz engine counts a None in a result as non-finite; a TrainResult without a teacher
    or heads rightly holds None for the errors it did not record.
    """
    result = train.train_students(*args, **kwargs)
    return {name: getattr(result, name) for name in result.__dataclass_fields__
            if getattr(result, name) is not None}


CASES = [
    # TrainResult and SnrSweep are record types, INITS and ACTIVATIONS constants: no functions.
    Case(train.log_epoch_grid, dict(epochs=10, n_points=5)),
    Case(train.stability_limit, dict(sigma31=_DATA, n_layers=3, sigma11=torch.eye(4, dtype=torch.float64)),
         accepted={"sigma11": {"none"}}),
    Case(train.init_weights,
         dict(sigma31=_DATA, hidden=2, n_layers=3, init="aligned", eps=1e-3, rng=_gen(),
              dtype=torch.float64, num_threads=1),
         accepted={"rng": {"none", "zero"}, "num_threads": {"none"}}),
    Case(train.fan_average_weights, dict(batch=2, sizes=(4, 3, 2), factor=0.01, rng=_gen(),
                                         dtype=torch.float64, device="cpu"),
         accepted={"rng": {"none", "zero"}}),
    Case(train.composite_map, dict(weights=_WEIGHTS)),
    # teacher and test_data are alternatives (None: no test error); the valid call has a
    # teacher, so any test_data is refused as a second test set
    Case(_train_students,
         dict(data=_DATA, architecture=train.Architecture(hidden=2, n_layers=3),
              schedule=train.Schedule(lr=0.05, epochs=5, n_records=3), start=train.Start(init="aligned", eps=1e-3),
              evaluation=train.Evaluation(teacher=_TEACHER, modes=1),
              execution=train.Execution(dtype=torch.float64, device="cpu", desc="fuzz"), rng=_gen()),
         # a spec left out (None) is its default; rng: an int (0 included), a generator or None
         accepted={"schedule": {"none"}, "start": {"none"}, "evaluation": {"none"}, "execution": {"none"},
                   "rng": {"none", "zero"}}),
    # the specs of train_students, field by field (a teacher and test data are alternatives, None: no test error)
    Case(train.Architecture, dict(hidden=2, n_layers=3, activation=None, slope=0.2, output_activation=False,
                                  heads=None),
         accepted={"activation": {"none"}, "slope": {"zero"}, "output_activation": {"bool"}, "heads": {"none"}}),
    Case(train.Schedule, dict(lr=0.05, epochs=5, record_at=None, n_records=3, check_stability=True),
         accepted={"record_at": {"none"}, "check_stability": {"bool"}}),
    Case(train.Start, dict(init="aligned", eps=1e-3, weights=None), accepted={"weights": {"none"}}),
    Case(train.Evaluation, dict(teacher=_TEACHER, test_data=None, n_test=10, modes=1),
         accepted={"teacher": {"none"}, "test_data": {"none"}, "modes": {"zero"}}),
    Case(train.Execution, dict(dtype=torch.float64, device="cpu", num_threads=1, desc="fuzz"),
         accepted={"device": {"none"}, "num_threads": {"none"},
                   # the progress bar's label: any string, or None for none
                   "desc": {"string", "unknown-name", "none"}}),
    Case(train.train_specs, dict(hidden=2, lr=0.05, epochs=5, eps=1e-3)),
    # a level may be any finite number (a curve that starts past it crosses at time[0])
    Case(train.first_crossing,
         dict(time=_TIME, values=[[0.0, 0.5, 1.0, 1.5], [0.0, 0.2, 0.9, 2.0]], level=0.7, direction="up"),
         accepted={"level": {"negative", "zero"}}),
    Case(train.empirical_optimal_stopping, dict(time=_TIME, test_error=[[1.0, 0.5, 0.7, 0.9]])),
    Case(train.overfitting_onset, dict(time=_TIME, test_error=[[1.0, 0.5, 0.7, 1.1]], factor=2.0)),
    Case(train.ta_and_random, dict(sweep=_SWEEP, dtype=torch.float32)),
    Case(train.paired_optimal_stopping, dict(time=_TIME, test_error=[[1.0, 0.5, 0.7, 0.9], [1.0, 0.8, 0.6, 0.9]])),
    # a mask selects data sets; without one all are averaged
    Case(train.relative_lag, dict(stopping=_STOPPING, mask=[True, False]), accepted={"mask": {"none"}}),
    Case(train.snr_sweep,
         dict(svms=[1.0, 2.0], ranks=[1, 2], runs=2, n1=6, n3=3, rng=_gen(), dtype=torch.float64,
              device="cpu"),
         accepted={"rng": {"none", "zero"}}),
    Case(train.train_two_headed, dict(blocks=_TWO_HEADED, n3=2, hidden=2, lr=0.05, epochs=5, eps=1e-3, n_records=3,
                                      device="cpu"),
         accepted={"device": {"none"}}),
    Case(train.ta_mode_dynamics, dict(sigma31=_DATA[0], n_layers=3, lr=0.05, epochs=5, eps=1e-3, n_records=3,
                                      device="cpu")),
    Case(train.train_ta_and_random, dict(sweep=_SWEEP, architecture=train.Architecture(hidden=2, n_layers=3), lr=0.05,
                                         record_at=[0, 2, 5], eps=1e-3, rng=_gen(), device="cpu", modes=True),
         accepted={"rng": {"none", "zero"}, "device": {"none"}}),
    Case(train.sweep_subset, dict(sweep=_SWEEP, index=[1, 0])),
]


def test_every_public_function_is_fuzzed():
    others = {"TrainResult", "SnrSweep", "TwoHeadedStudents", "INITS", "ACTIVATIONS", "ModeDynamics"}
    others |= {"FullBatchSpec", "LeakyTransfer", "InitialisationComparison", "ModeCrossings", "PairedStudents"}
    others |= {"LeakyAndLinear", "MinimumTimeRatio", "OnsetComparison"}
    others |= {"PairedCurves", "SampledStudents"}
    others |= {"OptimalStopping", "AsymptoticGap", "RandomExcess"}
    functions = {c.func.__name__ for c in CASES if "." not in c.func.__qualname__}  # methods aside
    assert functions | others == set(train.__all__)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_arguments_give_clear_errors(case):
    assert not findings(fuzz(case))


# transfer between leaky-ReLU tasks (App. F): a grid of 2 points x 2 runs, N1 = 4, N2 = 2, N3 = 2
_LEAKY_SPEC = train.FullBatchSpec(n1=4, n2=2, n3=2, lr=0.05, horizon=0.5, n_records=3, eps=1e-2)
_POINTS = np.array([[1.0, 2.0, 0.0], [1.0, 2.0, 1.0]])
_PAIRS = task_data.leaky_relu_task_pairs(_POINTS[:, 0], _POINTS[:, 1], _POINTS[:, 2], task_data.PairSpec(4, 2, 2),
                                         teachers=task_data.LeakyTeachers(rank=1), rng=_gen())
_DIAG = task_data.leaky_relu_task_pairs([1.0], [2.0], [1.0], task_data.PairSpec(4, 2, 2),
                                        teachers=task_data.LeakyTeachers(rank=1), rng=_gen())
CASES += [
    # rng: an int, a generator or None (fuzzed above); weights: None or tensors (train_students checks them);
    # desc: any label of a progress bar
    Case(train.leaky_relu_transfer, dict(pairs=_PAIRS, points=_POINTS, sbar_a=[1.0], spec=_LEAKY_SPEC, device="cpu")),
    Case(train.two_headed_fan_weights, dict(n_joint=2, n_single=1, n1=4, hidden=2, n3=2)),
    Case(train.compare_initialisations, dict(pairs=_DIAG, spec=_LEAKY_SPEC, device="cpu")),
]


# leaky-ReLU and linear students on the same data (§3.5, Fig. 5): 2 teachers x 2 runs, N1 = 4, N2 = 2, N3 = 2;
# readings of curves on synthetic records (minimum inside the horizon, doubled by its end)
_TIME = np.array([0.0, 0.5, 1.0, 2.0, 4.0, 8.0])
_RISING = np.array([[4.0, 2.0, 1.0, 1.2, 2.5, 4.0], [4.0, 1.8, 1.1, 1.0, 2.2, 3.0]])
_CURVES = train.LeakyAndLinear(_TIME, *(np.stack([_RISING, _RISING * k]) for k in (1.0, 1.1, 0.9, 1.2)))
CASES += [
    # slope 0 is a ReLU, noise_std 0 noise-free data; rng: an int, a generator or None
    Case(train.train_leaky_and_linear, dict(teacher_svals=[[1.0, 0.0], [2.0, 1.0]], runs=2, spec=_LEAKY_SPEC,
                                            n_layers=3, slope=0.2, noise_std=1.0, rng=_gen(), device="cpu"),
         accepted={"slope": {"zero"}, "noise_std": {"zero"}, "rng": {"none", "zero"}, "device": {"none"}}),
    Case(train.LeakyAndLinear.subset, dict(self=_CURVES, rows=[1, 0]), skip={"self"},
         accepted={"rows": {"zero", "false"}}),  # teacher 0 (False: numpy reads it as 0)
    Case(train.count_drops, dict(time=_TIME, curve=4.0 / (1.0 + _TIME), floor=0.1, dip=0.5),
         accepted={"floor": {"zero"}}),  # every peak counts
    Case(train.plateau_span, dict(time=_TIME, curve=_RISING[0], factor=1.5)),
    Case(train.minimum_time_ratios, dict(results=[_CURVES], rng=0, n_boot=5), accepted={"rng": {"zero", "none"}}),
    Case(train.onset_log_ratio, dict(onset_leaky=[1.0, 2.0], onset_linear=[2.0, 3.0], horizon=8.0, bound="upper")),
    Case(train.onset_comparison, dict(time=_TIME, leaky_test=_RISING, linear_test=_RISING * 1.1)),
]

# students of lower rank (App. H): a TA and a random student of one rank on every data set of a sweep
CASES += [
    Case(train.train_paired_curves, dict(sweep=_SWEEP, hidden=1, lr=0.05, epochs=5, n_records=3, eps=1e-3,
                                         rng=_gen(), device="cpu"),
         accepted={"rng": {"none", "zero"}}),
]

# students of P examples (App. G): two data sets of P = 2 and 6 examples, N1 = N2 = N3 = 4
_SAMPLED_SPEC = train.FullBatchSpec(n1=4, n2=4, n3=4, lr=0.05, horizon=0.25, n_records=3, eps=1e-3)
_SQUARE = teachers.low_rank_teacher(torch.tensor([[2.0], [3.0]], dtype=torch.float64), 4, 4, rng=_gen())
_SAMPLED = [task_data.sampled_task(_SQUARE.matrix, p, "orthogonal", rng=_gen()) for p in (2, 6)]
CASES += [
    Case(train.train_sampled_students, dict(data=task_data.stack_examples(_SAMPLED),
                                            teacher=torch.cat([_SQUARE.matrix] * 2), spec=_SAMPLED_SPEC,
                                            check_stability=False, device="cpu")),
]

# §3.3-3.4: the exact TA optimum and the gap to eqs. (14)-(15) of a sweep's data sets
_FINE = np.geomspace(0.1, 3.0, 12)
CASES += [
    # n2 and lr are optional (None: full rank, the gradient flow)
    Case(train.exact_ta_optimum, dict(t=_FINE, sigma31=_SWEEP.sigma31, teacher=_SWEEP.teacher.matrix, eps=1e-3,
                                      n_layers=3, n2=2, lr=0.05),
         accepted={"n2": {"none"}, "lr": {"none"}}),
    Case(train.asymptotic_gap, dict(sweep=_SWEEP, t=_FINE, t_fine=_FINE, eps=1e-3, n_layers=3)),
]


# §3.4, Fig. 4: the records of deep students and the random students' excess (2 data sets, N1 = 4)
_EXCESS_SPEC = train.FullBatchSpec(n1=4, n2=2, n3=2, lr=0.05, horizon=1.0, n_records=3, eps=1e-2)
CASES += [
    # the dense records may start at t = 0
    Case(train.dense_epoch_grid, dict(epochs=20, n_records=4, lr=0.05, dense_from=0.5, dense_dt=0.1),
         accepted={"dense_from": {"zero"}}),
    Case(train.random_excess, dict(spec=_EXCESS_SPEC, svms=[2.0], ranks=[1], runs=2, n_layers=3, rng=_gen(),
                                   device="cpu"),
         accepted={"rng": {"none", "zero"}}),
]
