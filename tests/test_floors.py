"""The chapters' arithmetic floors (benchmarks/floors.py): one per chapter, positive and finite at both
scales, and the per-step counts equal to torch's own count of the trainers' matrix products."""

import math
import sys
from pathlib import Path

import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from gendyn import multitask_train as mt, train
from gendyn.book.chapters import CHAPTERS
from gendyn.book.scales import SCALES

ROOT = Path(__file__).resolve().parents[1]


sys.path.insert(0, str(ROOT / "benchmarks"))

import floors  # noqa: E402


def test_every_chapter_has_a_floor():
    assert set(floors.FLOORS) == set(CHAPTERS)
    for chapter, fn in floors.FLOORS.items():
        assert (fn.__doc__ or "").strip(), f"{chapter}: the floor function says what it counts"


@pytest.mark.parametrize("scale", SCALES)
def test_floors_are_positive_and_finite(scale):
    rates = {"float32": 300e9, "float64": 150e9}
    for chapter in CHAPTERS:
        f = floors.floor(chapter, scale)
        assert f.terms, chapter
        for t in f.terms:
            assert t.precision in floors.PRECISIONS and t.what, (chapter, t)
            assert math.isfinite(t.flops) and t.flops > 0, (chapter, t)
        seconds = f.seconds(rates)
        assert math.isfinite(seconds) and seconds > 0, chapter


def test_paper_floors_exceed_smoke_floors():
    """The paper scale does more arithmetic than the smoke scale in every chapter."""
    for chapter in CHAPTERS:
        assert floors.floor(chapter, "paper").flops() > floors.floor(chapter, "smoke").flops(), chapter


def _counted(fn):
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


def _per_step(run, short=2, long=5):
    """Products of ``run(steps)`` per step: the difference of two lengths cancels set-up and records."""
    return (_counted(lambda: run(long)) - _counted(lambda: run(short))) / (long - short)


@pytest.mark.parametrize("n_layers", [3, 4, 5])
@pytest.mark.parametrize("activation", ["linear", "leaky_relu"])
@pytest.mark.parametrize("inputs", [False, True])
def test_deep_student_step_counts(n_layers, activation, inputs):
    n1, n2, n3, p, batch = 7, 5, 4, 9, 3
    gen = torch.Generator().manual_seed(0)
    if inputs:
        data = (torch.randn(batch, n1, p, generator=gen), torch.randn(batch, n3, p, generator=gen))
    else:
        data = torch.randn(batch, n3, n1, generator=gen)

    def run(epochs):
        train.train_students(data, train.Architecture(hidden=n2, n_layers=n_layers, activation=activation),
                             train.Schedule(lr=1e-3, epochs=epochs, record_at=[0], check_stability=False),
                             start=train.Start(init="random", eps=1e-2), execution=train.Execution(desc=None),
                             rng=torch.Generator().manual_seed(1))

    step = floors.deep_linear_step if activation == "linear" else floors.leaky_step
    counted = _per_step(run)
    if activation == "linear":
        # the first layer's update is an in-place baddbmm_, which torch's counter does not register
        counted += batch * floors.mm(n2, n3, n1)
    assert counted == batch * step(n1, n2, n3, n_layers, p=p if inputs else None)


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("activation", ["linear", "relu"])
@pytest.mark.parametrize("multitask", [False, True])
def test_multitask_step_counts(depth, activation, multitask):
    if activation == "linear" and depth > 1:
        pytest.skip("the book's linear students have one trunk layer")
    n, h, k, p_a, p_b, runs = 6, 5, 3, 8, 11, 4
    data = mt.draw_tasks([0], n_train_a=p_a, n_train_b=p_b, n_val=7, teachers=mt.TeacherPair(n_features=n, rank=k))
    snrs = [0.5, 1.0, 2.0, 4.0][:runs]
    w0 = mt.init_student([0], n_features=n, n_classes=k, n_heads=2 if multitask else 1,
                         students=mt.GridStudents(hidden=h, depth=depth, activation=activation))
    extra = dict(sets=mt.TrainingSets(x_b=data.x_b, y_b=data.labels_b(snrs, [0.5] * runs))) if multitask else {}

    def run(steps):
        mt.train_students(data.x_a, data.labels_a(snrs), data.x_val, data.labels_val(), w0,
                          schedule=mt.GridSchedule(lr=0.1, steps=steps, eval_every=100),
                          options=mt.TrainOptions(activation=activation), **extra)

    dims = dict(n_features=n, hidden=h, n_classes=k, depth=depth, activation=activation)
    expected = floors.multitask_step(p_a, **dims) + (floors.multitask_step(p_b, **dims) if multitask else 0.0)
    assert _per_step(run) == runs * expected


def test_floor_seconds_use_each_precisions_rate():
    f = floors.Floor("x", "paper", "test", (floors.Term("a", 2e9, "float32"), floors.Term("b", 1e9, "float64")))
    assert f.seconds({"float32": 1e9, "float64": 0.5e9}) == pytest.approx(4.0)
    assert f.flops("float32") == 2e9 and f.flops() == 3e9


def test_yardsticks_read_from_results_rows():
    rows = [dict(what="float32 torch.mm 2048 x 2048 (2 threads): the yardstick", value=300.0, unit="GFLOP/s"),
            dict(what="float64 torch.mm 2048 x 2048 (2 threads): the yardstick", value=150.0, unit="GFLOP/s"),
            dict(what="something else", value=1.0, unit="s")]
    assert floors.yardsticks(rows) == {"float32": 300e9, "float64": 150e9}
    assert floors.yardstick_threads(rows) == "2 threads"


def test_a_floor_uses_the_yardstick_measured_with_its_time():
    """benchmarks/run.py: a paper time carrying the rates measured with it is divided by the floor at those
    rates; one without them by the floor at the recorded yardstick, marked '*'."""
    import run
    yard = [dict(what=f"{p} torch.mm 2048 x 2048 (2 threads): the yardstick", scale="-", value=v, unit="GFLOP/s",
                 date="d", machine="m") for p, v in (("float32", 200.0), ("float64", 100.0))]
    notebook = "lee-ndirango/aux-data-and-depth.ipynb"
    slow = {"float32": 100.0, "float64": 50.0}  # the machine at half its recorded speed

    def table(rates):
        row = dict(what=f"chapter `{notebook}`", scale="paper", value=3600.0, unit="s", date="d", machine="m")
        rows = yard + [dict(row, rates=rates) if rates else row]
        line = next(x for x in run.render(rows, *run.chapter_floors(rows)).splitlines() if notebook in x)
        return [c.strip() for c in line.split("|")[1:-1]]  # chapter, smoke, paper, floor, paper / floor
    floor = floors.floor("ln-aux-depth", "paper")
    recorded = {"float32": 200e9, "float64": 100e9}
    at_slow = {k: v * 1e9 for k, v in slow.items()}
    assert table(None)[3].endswith(" *")
    assert float(table(None)[4]) == pytest.approx(3600 / floor.seconds(recorded), rel=0.05)
    assert not table(slow)[3].endswith("*")
    assert float(table(slow)[4]) == pytest.approx(3600 / floor.seconds(at_slow), rel=0.05)
    assert floor.seconds(at_slow) == pytest.approx(2 * floor.seconds(recorded))
