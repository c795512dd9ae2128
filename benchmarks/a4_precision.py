"""Fig. A4 in mixed arithmetic against plain float64, on identical draws: the benefit's change per cell and the cost.

    .venv/bin/python benchmarks/a4_precision.py                      # the whole paper-scale A4 grid (hours on a CPU)
    .venv/bin/python benchmarks/a4_precision.py --depths 5 --n-train 200 --snr-points 3   # a subset
    .venv/bin/python benchmarks/a4_precision.py --device cuda --record   # rows into benchmarks/results.json

The deep ReLU grid of the chapter ``notebooks/lee-ndirango/aux-data-and-depth.md`` (paper scale by
default: :func:`gendyn.book.grids.book_grid`, ``"deep-nonlinear"``) runs in each arithmetic on the same
float64 draws (``GridPrecision(draw_dtype=torch.float64)``): plain float64 (the book's), mixed
(``arithmetic="mixed"``: float64 weights, updates, losses and residuals, float32 matrix products) and,
with ``--float32``, plain float32. Per cell (depth, P, s_a, s_b, r) and seed the benefit's change
``b_mode - b_float64`` is divided by the seed-to-seed standard deviation of the cell's float64
benefit (the ``SD`` the claims' statistics see); the script prints, per depth and over all cells,
the largest and the median of two ratios: ``run`` (the largest change of one seed's benefit, max over
seeds) and ``mean`` (the change of the cell's mean over seeds). The book's criterion for switching
A4 to mixed arithmetic is ``run <= 0.01`` in every cell.

Cost: the wall time and the CPU time of each grid (``--workers`` processes, one thread each, as the
book runs it), and its matrix-product FLOP rate: the FLOPs of each (seed, P) program counted by
``torch.utils.flop_counter.FlopCounterMode`` on two short runs (linear in the steps, the same in every
arithmetic), over the CPU time (one worker on a CPU: on a shared machine that is the wall time of an
idle one) or else the wall time; beside the yardsticks of ``benchmarks/trainers.py`` (one large
``torch.mm`` in float32 and float64, one thread). ``--record`` writes the rows to
``benchmarks/results.json`` (:func:`run.record`) and rewrites the tables; ``--out FILE`` keeps the
per-cell numbers as JSON.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch.utils.flop_counter import FlopCounterMode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from trainers import matmul_rate  # noqa: E402  (the yardstick, timed by the wall clock)

from gendyn import allocator, multitask_train as mt  # noqa: E402
from gendyn.book import grids, scales  # noqa: E402

MATMUL = {"float64": "float64", "mixed": "float32", "float32": "float32"}  # the precision of each mode's products
MODES = {"float64": dict(dtype=torch.float64, draw_dtype=torch.float64),
         "mixed": dict(dtype=torch.float64, draw_dtype=torch.float64, arithmetic="mixed"),
         "float32": dict(dtype=torch.float32, draw_dtype=torch.float64)}


def cpu_matmul_rate(dtype, repeats=5):
    """The yardstick of ``benchmarks/trainers.py`` (:func:`trainers.matmul_rate`, one thread) in CPU time: on a
    shared machine, the rate of an idle one."""
    cpu = time.process_time()
    matmul_rate(repeats=repeats, dtype=dtype)
    return (repeats + 1) * 2 * 2048**3 / (time.process_time() - cpu)  # warm-up and repeats


def grid_arguments(args, depth):
    cfg = scales.configure("ln-aux-depth", args.scale, args.seed, args.device)
    kw = grids.book_grid("deep-nonlinear", cfg, depth=depth)
    snrs = mt.grid_snrs(args.snr_points or cfg.deep_snr_points)
    kw.update(seeds=tuple(range(args.seed, args.seed + (args.seeds or cfg.seeds))), s_a=snrs, s_b=snrs,
              workers=args.workers, progress=False, dtype=torch.float64)
    kw.pop("scheduler", None)
    if args.n_train:
        kw["n_train"] = tuple(args.n_train)
    if args.steps:
        kw["steps"] = args.steps
    return kw


def program_flops(kw):
    """Matrix-product FLOPs of every (seed, P) program of the grid ``kw`` (counted on short runs, linear in steps)."""
    short = 2 * kw["eval_every"]
    counts = []
    for steps in (short, 2 * short):
        with FlopCounterMode(display=False) as counter:
            mt.run_grid(**mt.grid_specs(**dict(kw, seeds=kw["seeds"][:1], steps=steps, workers=1)))
        counts.append(counter.get_total_flops())
    per_step = (counts[1] - counts[0]) / short
    return len(kw["seeds"]) * (counts[0] + per_step * (kw["steps"] - short))


def compare(reference, other):
    """Per cell: (largest |change| of one seed's benefit, |change of the mean|) over the float64 seed SD."""
    ref = reference.cell_means(("n_train", "s_a", "s_b", "relatedness"))
    keys = list(ref)
    cols = {name: reference.column(name) for name in ("n_train", "s_a", "s_b", "relatedness", "seed")}
    change = other.benefit - reference.benefit
    out = []
    for key in keys:
        mask = np.all([np.isclose(cols[n], v) for n, v in zip(("n_train", "s_a", "s_b", "relatedness"), key)], 0)
        sd = np.std(reference.benefit[mask], ddof=1)
        out.append((key, float(np.abs(change[mask]).max() / sd), float(abs(change[mask].mean()) / sd), float(sd)))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="paper", choices=sorted(scales.SCALES))
    parser.add_argument("--depths", type=int, nargs="+", help="default: the scale's depths")
    parser.add_argument("--n-train", type=int, nargs="+", help="default: the scale's training-set sizes")
    parser.add_argument("--snr-points", type=int, help="SNRs per task (default: the scale's)")
    parser.add_argument("--seeds", type=int, help="number of seeds (default: the scale's)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--steps", type=int, help="gradient steps (default: the scale's)")
    parser.add_argument("--workers", type=int, default=1, help="processes (CPU), one thread each")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--float32", action="store_true", help="also plain float32 arithmetic")
    parser.add_argument("--record", action="store_true", help="rows into benchmarks/results.json and the tables")
    parser.add_argument("--out", type=Path, help="per-cell ratios as JSON")
    args = parser.parse_args()
    allocator.retain_freed_memory()  # as in the book's chapters and grid workers
    torch.set_num_threads(1)
    modes = ["float64", "mixed"] + (["float32"] if args.float32 else [])
    cfg = scales.configure("ln-aux-depth", args.scale, args.seed, args.device)
    depths = args.depths or cfg.deep_depths
    peak = {d: cpu_matmul_rate(getattr(torch, d)) for d in ("float32", "float64")} if args.device == "cpu" else {}
    for d, rate in peak.items():
        print(f"yardstick: {d} torch.mm 2048 x 2048, 1 thread: {rate / 1e9:.1f} GFLOP/s (CPU time)")
    rows, report, all_ratios = [], {}, {m: [] for m in modes[1:]}
    for depth in depths:
        kw = grid_arguments(args, depth)
        flops = program_flops(kw)
        results = {}
        for mode in modes:
            start, cpu = time.perf_counter(), time.process_time()
            results[mode] = mt.run_grid(**mt.grid_specs(**dict(kw, **MODES[mode])))
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            # one thread per program: on a shared machine the CPU time is the time an idle one would take
            rate = flops / (cpu if args.workers == 1 and args.device == "cpu" else seconds)
            print(f"depth {depth} {mode}: {seconds:.1f} s wall, {cpu:.1f} s CPU, {flops / 1e12:.3f} TFLOP, "
                  f"{rate / 1e9:.2f} GFLOP/s" + (f" ({100 * rate / peak[MATMUL[mode]]:.0f} % of the {MATMUL[mode]} "
                                                 f"yardstick)" if peak else "")
                  + f" ({results[mode].runs} students)", flush=True)
            rows.append((f"depth {depth}, {mode}", seconds, cpu, rate))
        for mode in modes[1:]:
            cells = compare(results["float64"], results[mode])
            all_ratios[mode] += cells
            run = [c[1] for c in cells]
            mean = [c[2] for c in cells]
            print(f"depth {depth} {mode} - float64 over the seed SD, {len(cells)} cells: run max {max(run):.3g} "
                  f"median {statistics.median(run):.3g}; mean max {max(mean):.3g} median {statistics.median(mean):.3g}")
            report[f"depth{depth}-{mode}"] = [dict(n_train=k[0], s_a=k[1], s_b=k[2], relatedness=k[3], run=r, mean=m,
                                                   sd=sd) for k, r, m, sd in cells]
    for mode, cells in all_ratios.items():
        run = [c[1] for c in cells]
        print(f"all depths {mode}: {len(cells)} cells, run ratio max {max(run):.3g} median {statistics.median(run):.3g}"
              f", mean ratio max {max(c[2] for c in cells):.3g}: "
              + ("meets" if max(run) <= 0.01 else "misses") + " the 1% criterion")
    what = (f"depths {','.join(map(str, depths))}, P {','.join(map(str, kw['n_train']))}, "
            f"{len(kw['s_a'])}x{len(kw['s_b'])} SNRs, {len(kw['seeds'])} seeds, {kw['steps']} steps")
    if args.out:
        args.out.write_text(json.dumps(dict(what=what, rows=rows, cells=report), indent=1))
    if args.record:
        from run import load, record, save

        results_rows = load()
        for name, seconds, _, rate in rows:
            record(results_rows, f"Lee & Ndirango Fig. A4 grid ({what}), {name}: wall time", args.scale, seconds,
                   device=args.device)
            record(results_rows, f"Lee & Ndirango Fig. A4 grid ({what}), {name}: matmul GFLOP/s", args.scale,
                   rate / 1e9, "GFLOP/s", device=args.device)
        for mode, cells in all_ratios.items():
            record(results_rows, f"Lee & Ndirango Fig. A4 grid ({what}): largest |b_{mode} - b_float64| over the "
                   "seed SD", args.scale, 100 * max(c[1] for c in cells), "%", device=args.device)
        save(results_rows)


if __name__ == "__main__":
    main()
