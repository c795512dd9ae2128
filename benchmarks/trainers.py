"""How close the batched trainers come to the machine: FLOP/s against a plain float32 matmul.

    .venv/bin/python benchmarks/trainers.py              # the book's heaviest programs, a slice of each
    .venv/bin/python benchmarks/trainers.py --repeats 5

The yardstick is what this machine's torch reaches on one large ``torch.mm`` (2048 x 2048,
all threads torch uses) in the program's precision, measured in the same process. Each trainer runs a
slice of a paper-scale program of the book (the first steps of it, same shapes) once under
``torch.utils.flop_counter.FlopCounterMode``, which counts the FLOPs of every matrix product
it dispatches, then is timed without the counter; the achieved rate is those FLOPs over the
median wall time. The elementwise work (activations, losses, softmax) is not counted, so
the fraction is a lower bound of how busy the arithmetic units are.

Programs (paper scale, ``SEED = 0``, CPU):

* Lee & Ndirango Fig. A4: one (seed, size) program of the deepest grid, a depth-5 ReLU trunk
  with P = 800, every multitask and single-task student of the grid (``run_grid``), float64 as in the book;
* Lampinen & Ganguli Fig. 4: the 200 deep linear students of the chapter (3 hidden layers,
  N1 = 100, N2 = N3 = 50), gradient descent on Sigma31 (``train.train_students``), float32;
* Lee & Ndirango's own protocol (``interleaved_sgd.train_interleaved``): 60 two-headed students
  of the rank-10 file (5 seeds x 6 SNRs, P_A = P_B = 400, 64-unit ReLU trunk of 2 layers, batch
  128), 20 of the authors' 2,000 epochs, float32; also reported as seconds per student-epoch.

Rows go to ``benchmarks/results.json`` through :func:`run.record` and the tables are rewritten.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
from torch.utils.flop_counter import FlopCounterMode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import load, record, save  # noqa: E402

from gendyn import allocator, interleaved_sgd as il, multitask_train as mt, train  # noqa: E402
from gendyn.book import grids, scales  # noqa: E402


def matmul_rate(n=2048, repeats=5, dtype=torch.float32):
    """FLOP/s of one ``n x n`` ``torch.mm`` in ``dtype`` (median of ``repeats``)."""
    a, b = torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
    torch.mm(a, b)  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        torch.mm(a, b)
        times.append(time.perf_counter() - start)
    return 2 * n**3 / statistics.median(times)


def a4_program(steps=24):
    cfg = scales.configure("ln-aux-depth", "paper", 0, "cpu")
    kw = grids.book_grid("deep-nonlinear", cfg, depth=5)
    kw.update(seeds=(0,), n_train=(800,), steps=steps, workers=1, progress=False)
    return lambda: mt.run_grid(**kw)


def lg_fig4_program(epochs=400):
    cfg = scales.configure("lg-generalisation-deep", "paper", 0, "cpu")
    gen = torch.Generator().manual_seed(0)
    sweep = train.snr_sweep(cfg.svms, cfg.ranks, cfg.runs, cfg.n1, cfg.n3, rng=gen)
    n = len(sweep.rank)
    data = torch.cat([sweep.sigma31, sweep.sigma31]).float()
    wbar = torch.cat([sweep.teacher.matrix, sweep.teacher.matrix]).float()
    init = ["aligned"] * n + ["random"] * n
    return lambda: train.train_students(data, train.Architecture(hidden=cfg.n2, n_layers=5),
                                        train.Schedule(lr=cfg.lr, epochs=epochs, n_records=20),
                                        start=train.Start(init=init, eps=1e-5),
                                        evaluation=train.Evaluation(teacher=wbar),
                                        execution=train.Execution(desc=None), rng=gen)


INTERLEAVED_STUDENTS, INTERLEAVED_EPOCHS = 60, 20


def interleaved_program(epochs=INTERLEAVED_EPOCHS):
    data = mt.draw_tasks(range(5), n_train_a=400, n_train_b=400, n_val=1000,
                         teachers=mt.TeacherPair(n_features=20, rank=10))
    snrs = [0.01, 0.04, 0.16, 0.63, 2.5, 10.0]
    r = len(snrs)
    x_a, x_b, x_val = (x.repeat_interleave(r, 0) for x in (data.x_a, data.x_b, data.x_val))
    y_a = data.labels_a(snrs).permute(0, 2, 1).reshape(-1, 400)
    y_b = data.labels_b(snrs, [0.5] * r).permute(0, 2, 1).reshape(-1, 400)
    y_val = data.labels_val().repeat_interleave(r, 0)
    params = il.orthogonal_students(len(x_a), 20, 10, dtype=torch.float32, rng=0)
    return lambda: il.train_interleaved(params, x_a, y_a, x_val, y_val, task_b=(x_b, y_b), seeds=range(len(x_a)),
                                        schedule=il.SGDSchedule(epochs=epochs))


def measure(program, repeats):
    with FlopCounterMode(display=False) as counter:
        program()
    flops = counter.get_total_flops()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        program()
        times.append(time.perf_counter() - start)
    return flops, statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    allocator.retain_freed_memory()  # as in the book's chapters and grid workers
    rows = load()
    peak = {}
    for dtype in ("float32", "float64"):
        peak[dtype] = matmul_rate(dtype=getattr(torch, dtype))
        record(rows, f"{dtype} torch.mm 2048 x 2048 ({torch.get_num_threads()} threads): the yardstick", "-",
               peak[dtype] / 1e9, "GFLOP/s")
    # (name, precision, program): each rate is compared with the yardstick of its own precision
    programs = [("Lee & Ndirango Fig. A4 program (depth-5 ReLU, P = 800, 24 steps, float64)", "float64",
                 a4_program()),
                ("Lampinen & Ganguli Fig. 4 students (200 deep linear, 400 epochs)", "float32", lg_fig4_program()),
                ("Lee & Ndirango authors' protocol (60 students, P = 400, 20 epochs)", "float32",
                 interleaved_program())]
    for name, dtype, program in programs:
        flops, seconds = measure(program, args.repeats)
        rate = flops / seconds
        print(f"{name}: {flops / 1e9:.1f} GFLOP in {seconds:.2f} s")
        record(rows, f"{name}: matmul GFLOP/s", "paper", rate / 1e9, "GFLOP/s")
        record(rows, f"{name}: fraction of the {dtype} matmul rate", "paper", 100 * rate / peak[dtype], "%")
        if "authors' protocol" in name:
            per = seconds / (INTERLEAVED_STUDENTS * INTERLEAVED_EPOCHS)
            record(rows, f"{name}: milliseconds per student-epoch", "paper", 1e3 * per, "ms")
    save(rows)


if __name__ == "__main__":
    main()
