"""Throughput of the online-SGD simulations of Goldt et al. (2019): steps per second.

    .venv/bin/python benchmarks/committee_sgd.py            # N = 784, K = M = 4 (Fig. 1's network)
    .venv/bin/python benchmarks/committee_sgd.py --repeats 5

Measures, in the same process and interleaved (so that a shared machine's load hits all
alike), the SGD steps per second of

* a straightforward per-sample numpy loop (one ``standard_normal(N)`` input per step, fields
  ``w @ x``, the update ``w -= outer(...)``): the baseline;
* :func:`gendyn.committee_sgd.simulate` with ``engine="weights"`` (the full weights, inputs
  drawn in blocks, compiled update loop);
* :func:`gendyn.committee_sgd.simulate` with ``engine="order-parameters"`` (the exact
  order-parameter chain, cost independent of ``N``),
* both engines again with ``--runs`` runs (default 8) in one call: the runs are spread over torch's CPU
  threads, so on an idle machine their summed rate is about the single run's times the threads,


for an erf soft committee machine with ``eta = 0.2``. Each is timed ``--repeats`` times and
the median is reported. Rows (steps/s, and the speed-up over the loop) go to
``benchmarks/results.json`` through :func:`run.record`, and the tables are rewritten.
"""

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch
from scipy.special import erf

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import RESULTS, load, record, write_tables  # noqa: E402

from gendyn import committee as cm  # noqa: E402
from gendyn import committee_sgd as cs  # noqa: E402


def numpy_loop(w, w_star, lr, steps, rng):
    """The baseline: one sample at a time, everything in numpy."""
    N = w.shape[1]
    sqrt_n = math.sqrt(N)
    c = math.sqrt(2 / math.pi)
    for _ in range(steps):
        x = rng.standard_normal(N)
        lam = w @ x / sqrt_n
        rho = w_star @ x / sqrt_n
        delta = erf(lam / math.sqrt(2)).sum() - erf(rho / math.sqrt(2)).sum()
        w -= lr / sqrt_n * np.outer(c * np.exp(-0.5 * lam * lam) * delta, x)
    return w


def rate_numpy(N, K, M, steps):
    rng = np.random.default_rng(0)
    w, w_star = rng.standard_normal((K, N)), rng.standard_normal((M, N))
    start = time.perf_counter()
    numpy_loop(w, w_star, 0.2, steps, rng)
    return steps / (time.perf_counter() - start)


def rate_engine(N, K, M, steps, engine, runs=1):
    init = cs.initial_weights(N, K, M, "erf", runs=runs, rng=0)
    res = cs.simulate(init, cm.OnlineSGD(0.2, 0.0), [0.0, steps / N], engine=engine)
    return res.steps_per_second


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--N", type=int, default=784)
    parser.add_argument("--K", type=int, default=4)
    parser.add_argument("--M", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--runs", type=int, default=8, help="runs of the multi-run rows (spread over the threads)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    N, K, M = args.N, args.K, args.M
    rate_engine(N, K, M, 10, "weights")  # compile (or load the cache) before timing
    rate_engine(N, K, M, 10, "order-parameters")
    runs = args.runs
    rates = {"numpy": [], "weights": [], "order-parameters": [], "weights-runs": [], "order-parameters-runs": []}
    for _ in range(args.repeats):
        rates["numpy"].append(rate_numpy(N, K, M, 20_000))
        rates["weights"].append(rate_engine(N, K, M, 300_000, "weights"))
        rates["order-parameters"].append(rate_engine(N, K, M, 3_000_000, "order-parameters"))
        rates["weights-runs"].append(rate_engine(N, K, M, 300_000 // runs, "weights", runs))
        rates["order-parameters-runs"].append(rate_engine(N, K, M, 3_000_000 // runs, "order-parameters", runs))
    med = {k: float(np.median(v)) for k, v in rates.items()}
    labels = {
        "numpy": "per-sample numpy loop (baseline)",
        "weights": "gendyn.committee_sgd, engine='weights'",
        "order-parameters": "gendyn.committee_sgd, engine='order-parameters'",
        "weights-runs": f"gendyn.committee_sgd, engine='weights', {runs} runs on {torch.get_num_threads()} threads",
        "order-parameters-runs": f"gendyn.committee_sgd, engine='order-parameters', {runs} runs on "
                                 f"{torch.get_num_threads()} threads",
    }
    print(f"online SGD, erf SCM, N={N}, K={K}, M={M}; median of {args.repeats} "
          f"(machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for key, label in labels.items():
        print(f"  {label:72s} {med[key]:12,.0f} steps/s  ({med[key] / med['numpy']:6.1f}x the loop)")
    if args.no_write:
        return
    rows = load()
    for key, label in labels.items():
        what = f"online SGD, erf SCM N={N} K={K} M={M}: {label}"
        record(rows, what, "paper", med[key], unit="steps/s")
        if key in ("weights", "order-parameters"):
            record(rows, f"speed-up over the numpy loop: {label}", "paper", med[key] / med["numpy"], unit="x")
        elif key != "numpy":  # the runs spread over the threads, against one run
            record(rows, f"{runs} runs in one call over one run: {label}", "paper",
                   med[key] / med[key.removesuffix("-runs")], unit="x")
    RESULTS.write_text(json.dumps(rows, indent=1) + "\n")
    write_tables(rows)


if __name__ == "__main__":
    main()
