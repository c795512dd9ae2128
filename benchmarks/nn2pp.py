"""Goldt et al.'s own simulator and ODE integrator (nn2pp) against gendyn's, on the same machine.

    .venv/bin/python benchmarks/nn2pp.py --nn2pp /path/to/nn2pp            # folder with the two programs
    .venv/bin/python benchmarks/nn2pp.py --nn2pp /path/to/nn2pp --ode-alpha 1e5

The authors' C++ package (``github.com/sgoldt/nn2pp``, not part of this project) builds on a
Debian machine with ``apt-get install libarmadillo-dev`` and, in its folder,
``make nn2pp.exe scmpp_ode.exe MFLAGS="-larmadillo -lgomp" CFLAGS="-O3 -fopenmp"`` (GCC's OpenMP
library instead of the ``-lomp`` its Makefile names). This script runs those programs; it
contains none of their code.

Measures, interleaved in one run (so that a shared machine's load hits both alike):

* **online SGD on the weights**, erf soft committee machine, ``N = 784, K = M = 4, eta = 0.2``
  (Fig. 1's network): ``nn2pp.exe --g1 1 --g2 1 -N 784 -M 4 -K 4 --lr 0.2 --steps S --quiet``
  against :func:`gendyn.committee_sgd.simulate` with ``engine="weights"`` over the same
  ``S * N`` steps. Both record the generalisation error along the way (nn2pp at 200 log-spaced
  times, gendyn at two);
* **the ODEs (9) to ``alpha``** (``--ode-alpha``, the issue's ``1e5`` by default), erf, ``K = M = 4``,
  ``eta = 0.2``, output noise ``sigma = 0.01`` (without noise the error reaches ``1e-14``, where
  ``scmpp_ode.exe`` stops early): ``scmpp_ode.exe`` (fixed step ``dt = 0.01``, its default) against
  :func:`gendyn.committee.integrate_odes` (LSODA with error control, ``rtol = 1e-9``) from a
  random start of :func:`gendyn.committee_sgd.initial_weights`. The two start from different
  initial conditions (nn2pp draws its own), which changes the plateau's length, not the cost per
  unit of ``alpha`` of a fixed-step integrator.

Times are CPU seconds of the process doing the work (``time.process_time`` for gendyn, the
children's ``getrusage`` for nn2pp, both with one thread), so that a loaded machine does not
distort the ratio; wall seconds are printed beside them. Rows go to ``benchmarks/results.json``
through :func:`run.record` (``--no-write``: print only).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import RESULTS, load, record, write_tables  # noqa: E402

from gendyn import committee as cm  # noqa: E402
from gendyn import committee_sgd as cs  # noqa: E402

N, K, M, LR = 784, 4, 4, 0.2
ODE_SIGMA = 0.01  # noisy, so that the error stays above the 1e-14 at which scmpp_ode stops
ONE_THREAD = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_program(args, folder):
    """CPU and wall seconds of one run of an nn2pp program (its output files land in ``folder``)."""
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(args, cwd=folder, env=ONE_THREAD, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stderr[-500:]}")
    return _children_cpu() - cpu, time.perf_counter() - wall


def nn2pp_sgd(program, steps_over_n, folder):
    return run_program([str(program), "--g1", "1", "--g2", "1", "-N", str(N), "-M", str(M), "-K", str(K),
                        "--lr", str(LR), "--steps", str(steps_over_n), "--quiet"], folder)


def gendyn_sgd(steps_over_n):
    init = cs.initial_weights(N, K, M, "erf", rng=0)
    cpu, wall = time.process_time(), time.perf_counter()
    cs.simulate(init, cm.OnlineSGD(LR, 0.0), [0.0, steps_over_n], engine="weights")
    return time.process_time() - cpu, time.perf_counter() - wall


def nn2pp_ode(program, alpha, folder):
    return run_program([str(program), "--g", "1", "-M", str(M), "-K", str(K), "--lr", str(LR),
                        "--sigma", str(ODE_SIGMA), "--steps", str(alpha), "--quiet"], folder)


def gendyn_ode(alpha):
    init = cs.initial_weights(N, K, M, "erf", rng=0)
    # the initial order parameters only
    run = cs.simulate(init, cm.OnlineSGD(LR, 0.0), [0.0], engine="order-parameters")
    cpu, wall = time.process_time(), time.perf_counter()
    cm.integrate_odes(cm.OrderParameters(*run.initial_state(0)), "erf", cm.OnlineSGD(LR, ODE_SIGMA),
                      np.geomspace(1e-2, alpha, 200))
    return time.process_time() - cpu, time.perf_counter() - wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nn2pp", type=Path, required=True,
                        help="folder with the built nn2pp.exe and scmpp_ode.exe (see the docstring)")
    parser.add_argument("--sgd-steps", type=float, default=200.0, help="SGD steps in multiples of N (default 200)")
    parser.add_argument("--ode-alpha", type=float, default=1e5, help="integrate the ODEs to this alpha (1e5)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    programs = {name: args.nn2pp / name for name in ("nn2pp.exe", "scmpp_ode.exe")}
    for name, path in programs.items():
        if not os.access(path, os.X_OK):
            parser.error(f"--nn2pp: no executable {name} in {args.nn2pp} (build it as the docstring says)")
    steps = int(round(args.sgd_steps * N))
    gendyn_sgd(1.0)  # compile (or load the cache) before timing
    sgd = {"nn2pp": [], "gendyn": []}
    ode = {"nn2pp": [], "gendyn": []}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeats):
            sgd["nn2pp"].append(nn2pp_sgd(programs["nn2pp.exe"], args.sgd_steps, folder))
            sgd["gendyn"].append(gendyn_sgd(args.sgd_steps))
        ode["gendyn"].append(gendyn_ode(args.ode_alpha))
        ode["nn2pp"].append(nn2pp_ode(programs["scmpp_ode.exe"], args.ode_alpha, folder))
    med = {key: np.median(np.array(v), axis=0) for key, v in sgd.items()}  # (cpu, wall)
    rate = {key: steps / m[0] for key, m in med.items()}
    print(f"online SGD on the weights, erf SCM N={N} K={K} M={M} eta={LR}, {steps:,} steps; median of "
          f"{args.repeats} (machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for key, (cpu, wall) in med.items():
        print(f"  {key:8s} {rate[key]:12,.0f} steps per CPU second  ({cpu:.2f} CPU s, {wall:.2f} wall s)")
    print(f"  gendyn / nn2pp: {rate['gendyn'] / rate['nn2pp']:.1f}x")
    print(f"ODEs (9) to alpha = {args.ode_alpha:g}, erf K={K} M={M} eta={LR} sigma={ODE_SIGMA}:")
    for key, runs in ode.items():
        cpu, wall = runs[0]
        print(f"  {key:8s} {cpu:10.2f} CPU s  ({wall:.2f} wall s)")
    if args.no_write:
        return
    rows = load()
    what = f"online SGD, erf SCM N={N} K={K} M={M}"
    record(rows, f"{what}: nn2pp.exe (the authors' C++), per CPU second", "paper", rate["nn2pp"], unit="steps/s")
    record(rows, f"{what}: gendyn.committee_sgd engine='weights', per CPU second", "paper", rate["gendyn"],
           unit="steps/s")
    record(rows, f"{what}: gendyn over nn2pp", "paper", rate["gendyn"] / rate["nn2pp"], unit="x")
    for key, label in (("nn2pp", "scmpp_ode.exe (the authors' C++, dt = 0.01)"),
                       ("gendyn", "gendyn.committee.integrate_odes (LSODA)")):
        what = f"ODEs (9) to alpha = {args.ode_alpha:g}, erf K={K} M={M} sigma={ODE_SIGMA}: {label}"
        record(rows, what, "paper", ode[key][0][0], unit="CPU s")
    RESULTS.write_text(json.dumps(rows, indent=1) + "\n")
    write_tables(rows)


if __name__ == "__main__":
    main()
