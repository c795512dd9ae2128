"""The arithmetic floor of every chapter: its operations counted, at this machine's own matmul rate.

    .venv/bin/python benchmarks/floors.py                 # paper scale, rates from benchmarks/results.json
    .venv/bin/python benchmarks/floors.py --scale smoke --terms

A chapter's **floor** is the arithmetic its programs must do, divided by the rate this machine reaches
on the most favourable arithmetic there is: one large ``torch.mm`` (2048 x 2048, all the threads torch
uses) in the same precision, the yardstick ``benchmarks/trainers.py`` measures and records in
``benchmarks/results.json``. A run's measured time over its floor says how far the chapter is from the
machine: near 1, the arithmetic itself is the cost; far above 1, the time goes elsewhere (Python loops
over small steps, small matrices whose products cannot reach the rate, sequential SGD steps,
elementwise and memory-bound work, random-number generation). ``benchmarks/run.py`` puts the floor and
that ratio beside each chapter's measured time.

What is counted
---------------
One function per chapter (:data:`FLOORS`, registered with :func:`floor_of`) returns the chapter's
:class:`Term` s: each a number of floating-point operations, the precision it runs in and a line saying
what was counted. Every size comes from :func:`gendyn.book.scales.configure` (the chapter's own
configuration at the scale asked), the structure (which programs, how many networks, epochs, records)
from the chapter's notebook and module. Conventions:

* a matrix product ``(m x k) (k x n)``: ``2 m k n`` (:func:`mm`);
* factorisations by the stages every LAPACK route takes (divide-and-conquer drivers, as torch and
  numpy call them), so as not to overcount: a symmetric eigendecomposition of order ``n``, the
  reduction to tridiagonal form ``4 n^3 / 3`` and, with eigenvectors, their back-transformation
  ``2 n^3`` (:func:`eigh`); an SVD of an ``m x n`` matrix (``m >= n``), the bidiagonalisation
  ``4 m n^2 - 4 n^3 / 3`` and, with vectors, as much again for the back-transformations of the thin
  ``U`` and ``V`` (:func:`svd`); the iterations on the tridiagonal or bidiagonal matrix are not counted;
  a Cholesky factorisation ``n^3 / 3``;
* a gradient-descent program: its steps times the products of one step, as the library's trainers do
  them (:func:`deep_linear_step`, :func:`leaky_step`, :func:`multitask_step`; ``tests/test_floors.py``
  checks these against torch's own count of the trainers' products), plus the forward passes of its
  records;
* online SGD: its steps times the multiply-adds of one step (:func:`sgd_weights_step`,
  :func:`sgd_order_parameter_step`); ODEs: their right-hand side (:func:`ode_rhs`) once per recorded
  time, the fewest evaluations any integrator needs (LSODA's adaptive step count is not set by the
  sizes, so the ODE terms are lower bounds);
* Monte Carlo and other elementwise work only where it *is* the chapter's computation, at a few
  operations per element (said in the term); elsewhere activations, losses, exponentials of mode decays,
  random draws and data set-up (teachers' QR, noise) are left out as negligible next to the products.

Where a term is the dominant one and the rest is negligible the function says so in its docstring.
Floors are not predictions: a program may be slower than its floor by large factors and is never faster
by much (a precision's yardstick is the best rate of that precision on this machine).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from gendyn.book.chapters import CHAPTERS  # noqa: E402
from gendyn.book.scales import configure  # noqa: E402

__all__ = ["Term", "Floor", "FLOORS", "floor", "floor_of", "yardsticks", "mm", "eigh", "svd", "gram",
           "deep_linear_step", "leaky_step", "multitask_step", "sgd_weights_step", "sgd_order_parameter_step",
           "ode_rhs"]

F32, F64 = "float32", "float64"
PRECISIONS = (F32, F64)


@dataclass(frozen=True)
class Term:
    """``flops`` floating-point operations in ``precision`` ("float32" or "float64"): ``what``."""

    what: str
    flops: float
    precision: str = F64


@dataclass(frozen=True)
class Floor:
    """The counted arithmetic of one chapter at one scale."""

    chapter: str
    scale: str
    summary: str
    terms: tuple[Term, ...]

    def flops(self, precision: str | None = None) -> float:
        """Operations counted, in ``precision`` or all."""
        return float(sum(t.flops for t in self.terms if precision in (None, t.precision)))

    def seconds(self, rates: dict[str, float]) -> float:
        """The floor: each precision's operations at its yardstick ``rates[precision]`` (FLOP/s)."""
        return float(sum(t.flops / rates[t.precision] for t in self.terms))

    def dominant(self) -> Term:
        return max(self.terms, key=lambda t: t.flops)


#: ``{chapter id: function(cfg) -> list of Term}``, one per chapter of :data:`gendyn.book.chapters.CHAPTERS`.
FLOORS = {}


def floor_of(chapter: str):
    """Register the decorated function as the floor of ``chapter``; its docstring's first paragraph is its summary."""
    def register(fn):
        FLOORS[chapter] = fn
        return fn
    return register


def floor(chapter: str, scale: str = "paper", seed: int = 0, device: str = "cpu") -> Floor:
    """The :class:`Floor` of ``chapter`` at ``scale``, from the chapter's configuration (``configure``);
    its summary is the first paragraph of the chapter's function's docstring."""
    cfg = configure(chapter, scale, seed, device)
    fn = FLOORS[chapter]
    terms = tuple(t for t in fn(cfg) if t.flops > 0)
    summary = " ".join((fn.__doc__ or "").strip().split("\n\n")[0].split())  # the first paragraph, one line
    return Floor(chapter, scale, summary, terms)


# ----------------------------------------------------------------------------- operation counts

def mm(m: float, k: float, n: float, batch: float = 1) -> float:
    """A product ``(m x k) (k x n)``, ``batch`` times."""
    return 2.0 * m * k * n * batch


def gram(m: float, n: float, batch: float = 1) -> float:
    """``A A^T`` of an ``m x n`` matrix (a full product, as torch and numpy compute it)."""
    return mm(m, n, m, batch)


def eigh(n: float, batch: float = 1, vectors: bool = True) -> float:
    """Symmetric eigendecomposition of order ``n``: tridiagonalisation, and the eigenvectors' back-transformation."""
    return (4.0 / 3.0 + (2.0 if vectors else 0.0)) * n**3 * batch


def svd(m: float, n: float, batch: float = 1, vectors: bool = True) -> float:
    """Thin SVD of an ``m x n`` matrix (either orientation): bidiagonalisation, and the vectors' back-
    transformations."""
    m, n = max(m, n), min(m, n)
    bidiagonal = 4.0 * m * n**2 - 4.0 * n**3 / 3.0
    return (2.0 if vectors else 1.0) * bidiagonal * batch


def _layer_shapes(n1, hidden, n3, n_layers):
    """``(out, in)`` of each weight of a student with ``n_layers`` layers of units (``W^{21}`` first)."""
    k = n_layers - 1
    return [(hidden, n1)] + [(hidden, hidden)] * (k - 2) + [(n3, hidden)]


def deep_linear_step(n1: int, hidden: int, n3: int, n_layers: int, *, p: int | None = None,
                     update: bool = True) -> float:
    """One step of a linear student of :func:`gendyn.train.train_students` (``_linear_step``), one network.

    On ``Sigma31`` (``p=None``): the prefix products, the top map, ``W = top W^{21}``, and for the
    update ``E W^{21 T}``, the backward chain and ``top^T E``: ``3 N1 N2 N3 + 3 N2^2 N3 + 3 (k - 3) N2^3``
    multiply-adds for ``k >= 3`` weights, ``3 N1 N2 N3`` for one hidden layer. With inputs ``X``
    (``p`` examples): also ``W Sigma11``. ``update=False``: the forward part alone (a record).
    """
    k = n_layers - 1
    if k >= 3:
        forward = (k - 3) * mm(hidden, hidden, hidden) + mm(n3, hidden, hidden) + mm(n3, hidden, n1)
        backward = (mm(n3, n1, hidden) + 2 * mm(n3, hidden, hidden) + 2 * (k - 3) * mm(hidden, hidden, hidden)
                    + mm(hidden, n3, n1))
    else:
        forward = mm(n3, hidden, n1)
        backward = mm(n3, n1, hidden) + mm(hidden, n3, n1)
    if p is not None:
        forward += mm(n3, n1, n1)  # E = W Sigma11 - Sigma31
    return forward + (backward if update else 0.0)


def leaky_step(n1: int, hidden: int, n3: int, n_layers: int, *, p: int | None = None, update: bool = True) -> float:
    """One step of a leaky-ReLU student of :func:`gendyn.train.train_students` (``_nonlinear_step``), one network.

    Forward ``W_i a_i`` for every layer on ``p`` examples, backward ``delta a_i^T`` for every layer and
    ``W_i^T delta`` for all but the first. On ``Sigma31`` (``p=None``: one-hot inputs, ``P = N1``) the first
    layer's products with the identity are skipped, as the trainer does.
    """
    shapes = _layer_shapes(n1, hidden, n3, n_layers)
    cols = n1 if p is None else p
    total = 0.0
    for i, (out, inp) in enumerate(shapes):
        first_free = i == 0 and p is None
        total += 0.0 if first_free else mm(out, inp, cols)  # forward
        if update:
            total += 0.0 if first_free else mm(out, cols, inp)  # weight gradient
            total += mm(inp, out, cols) if i > 0 else 0.0  # back-propagated delta
    return total


def multitask_step(p: int, *, n_features: int, hidden: int, n_classes: int, depth: int, activation: str,
                   update: bool = True) -> float:
    """One student of :func:`gendyn.multitask_train.train_students` on ``p`` examples of one task (one head).

    ReLU trunk (``_relu_data_grad``): forward ``P (H N + (d - 1) H^2 + K H)``, backward
    ``P (H N + 2 (d - 1) H^2 + 2 K H)`` multiply-adds. Linear trunk: the composite map (``K H N``
    for depth 1), the logits and their gradient (``2 P K N``) and autograd's two products back to
    trunk and head (``2 K H N``). ``update=False``: the forward pass alone (an evaluation).
    """
    n, h, k, d = n_features, hidden, n_classes, depth
    if activation == "linear":
        composite = sum(mm(h, h, n) for _ in range(d - 1)) + mm(k, h, n)
        if not update:
            return composite + mm(p, n, k)
        chain = 2 * composite  # autograd: one product back per factor of the composite, on each side
        return composite + 2 * mm(p, n, k) + chain
    forward = mm(p, n, h) + (d - 1) * mm(p, h, h) + mm(p, h, k)
    if not update:
        return forward
    return forward + mm(k, p, h) + mm(p, k, h) + 2 * (d - 1) * mm(p, h, h) + mm(h, p, n)


def sgd_weights_step(n: int, k: int, m: int, train_second_layer: bool = False) -> float:
    """One online SGD step on the weights (``engine="weights"``): teacher and student fields ``(M + K) N``
    multiply-adds, the update ``K N`` (and ``K`` for the second layer)."""
    return 2.0 * n * (m + 2 * k) + (2.0 * k if train_second_layer else 0.0)


def sgd_order_parameter_step(k: int, m: int) -> float:
    """One step of the exact order-parameter chain (``engine="order-parameters"``): the Cholesky factor of
    the ``(K + M)`` Gram matrix, the fields ``L z``, and the updates of ``R`` and ``Q`` (the activations'
    transcendental functions counted as 10 operations each)."""
    d = k + m
    return d**3 / 3.0 + d * d + 4.0 * k * m + 6.0 * k * k + 20.0 * d


def ode_rhs(k: int, m: int, train_second_layer: bool = False) -> float:
    """One evaluation of the ODEs (9) (``committee._derivatives``, erf): the Gaussian averages
    ``I4(i, k, a, b)`` (i <= k, a <= b, about 60 operations each), ``I3(i, b, a)`` (about 20), ``I2``."""
    n = k + m
    i4 = k * (k + 1) / 2 * n * (n + 1) / 2
    return 60.0 * i4 + 20.0 * k * n * n + 10.0 * n * n + (2.0 * k * n if train_second_layer else 0.0)


# ----------------------------------------------------------------------------- shared programs

def _train_students(batch, n1, hidden, n3, n_layers, epochs, records, *, what, precision=F32, p=None,
                    activation="linear", test_inputs=None, modes=0):
    """The terms of one :func:`gendyn.train.train_students` call: ``batch`` networks, ``epochs`` steps,
    ``records`` recorded epochs (a forward pass each, and an ``eigh`` of ``W W^T`` with ``modes``).

    A linear student's record shares the forward pass of the step it precedes (``train_students`` reads the
    residual and the composite map the step computes anyway): only the last record, after the last step,
    takes a forward pass of its own, and with inputs ``p`` each record takes the residual ``W X - Y``."""
    if activation == "linear":
        step = deep_linear_step(n1, hidden, n3, n_layers, p=p)
        forward = deep_linear_step(n1, hidden, n3, n_layers, p=p, update=False)
        record = forward / max(records, 1)  # one forward pass over all the records
        if p is not None:
            record += mm(n3, n1, p)  # the training residual W X - Y
    else:
        step = leaky_step(n1, hidden, n3, n_layers, p=p)
        record = leaky_step(n1, hidden, n3, n_layers, p=p, update=False)
        if test_inputs:
            record += sum(mm(o, i, test_inputs) for o, i in _layer_shapes(n1, hidden, n3, n_layers))
    terms = [Term(f"{what}: {batch:,} networks x {epochs:,} steps", batch * epochs * step, precision),
             Term(f"{what}: {records:,} records" + (" (forward pass)" if activation != "linear" else ""),
                  batch * records * record, precision)]
    if modes:  # the composite map's top modes at every record, in float64 (teachers.top_singular_modes)
        a, b = min(n1, n3), max(n1, n3)
        terms.append(Term(f"{what}: modes at every record (W W^T, eigh)",
                          batch * records * (gram(a, b) + eigh(a) + mm(b, a, modes)), F64))
    return terms


def _sampled_ta(count, n1, n3, *, svds=1, what):
    """``count`` data sets whose exact TA errors are computed (``deep_linear.sampled_ta_errors``): ``svds``
    thin SVDs of each ``N3 x N1`` ``Sigma31`` (numpy, float64)."""
    return Term(f"{what}: {svds} SVD(s) of {count:,} Sigma31 of {n3} x {n1}", svd(n1, n3, count * svds), F64)


def _log_records(epochs, n_records):
    from gendyn import train
    return len(train.log_epoch_grid(epochs, n_records))


# ----------------------------------------------------------------------------- Lampinen & Ganguli

@floor_of("lg-rmt")
def _lg_rmt(cfg):
    """Fig. 2: every noisy teacher's spectrum, eigh of Sigma31 Sigma31^T (float32); dominated by N1 = 1000."""
    g = len(np.round(np.arange(0.0, cfg.sbar_max + 1e-9, cfg.sbar_step), 10))
    terms = []

    def spikes(n1, aspect, count, what):
        n3 = int(round(aspect * n1))
        return Term(f"{what}: {count:,} x (Sigma31 Sigma31^T + eigh), N3 = {n3}, N1 = {n1}",
                    gram(n3, n1, count) + eigh(n3, count), F32)

    for a in cfg.aspects:
        terms.append(spikes(cfg.n1, a, g * cfg.repeats, "rank-1 teachers"))
    for a in cfg.rank3_aspects:
        terms.append(spikes(cfg.n1, a, g * cfg.repeats, "rank-3 teachers"))
    for n1 in cfg.finite_size_n1:
        terms.append(spikes(n1, 0.5, g * cfg.finite_size_repeats, "finite size"))
    return terms


@floor_of("lg-mode-dynamics")
def _lg_mode_dynamics(cfg):
    """Fig. 1: one TA network per depth trained in float64 to twice the weakest mode's half-time, records with its
    modes."""
    from gendyn import deep_linear as dl
    shat = cfg.shat_min * (cfg.shat_max / cfg.shat_min) ** (np.arange(cfg.n_modes) / (cfg.n_modes - 1))
    terms = []
    for depth, lr in zip(cfg.depths, cfg.lrs):
        epochs = int(round(cfg.horizon * float(dl.mode_time(shat[0] / 2, shat[0], 1e-5, n_layers=depth)) / lr))
        terms += _train_students(1, cfg.n1, cfg.n_modes, cfg.n_modes, depth, epochs,
                                 _log_records(epochs, cfg.n_records), what=f"N_l = {depth}", precision=F64,
                                 modes=cfg.n_modes)
    return terms


def _ta_and_random_sweep(cfg, ranks, svms, runs):
    return 2 * len(ranks) * len(svms) * runs


@floor_of("lg-generalisation")
def _lg_generalisation(cfg):
    """Fig. 3: 2 x 10 x runs TA and random students of one hidden layer, 10 tau at lr; SVDs of the Monte Carlo data
    sets."""
    n_cond = len(cfg.ranks) * len(cfg.svms)
    epochs = int(round(cfg.horizon / cfg.lr))
    batch = _ta_and_random_sweep(cfg, cfg.ranks, cfg.svms, cfg.runs)
    terms = _train_students(batch, cfg.n1, cfg.n2, cfg.n3, 3, epochs, _log_records(epochs, cfg.n_records),
                            what="Fig. 3 students")
    # Monte Carlo data sets: sampled, delayed (values + vectors) and the fine exact optimum
    terms.append(_sampled_ta(n_cond * cfg.mc_draws, cfg.n1, cfg.n3, svds=3, what="Monte Carlo TA theory"))
    for n1 in cfg.finite_size_n1:
        n3 = int(round(cfg.n3 / cfg.n1 * n1))
        terms.append(_sampled_ta(n_cond * cfg.finite_size_draws, n1, n3, svds=2, what=f"finite size N1 = {n1}"))
    return terms


@floor_of("lg-generalisation-deep")
def _lg_generalisation_deep(cfg):
    """Fig. 4: the 200 three-hidden-layer students over 150 tau (dense records), the random students' excess runs,
    the side-by-side rates."""
    from gendyn import train
    n_layers = 5
    epochs = int(round(cfg.horizon / cfg.lr))
    batch = _ta_and_random_sweep(cfg, cfg.ranks, cfg.svms, cfg.runs)
    records = len(train.dense_epoch_grid(epochs, cfg.n_records, lr=cfg.lr, dense_from=5.0))
    terms = _train_students(batch, cfg.n1, cfg.n2, cfg.n3, n_layers, epochs, records, what="Fig. 4 students")
    for rate, every in ((cfg.lr, 1), (cfg.side_lr, 2)):  # side by side: 2 TA and 2 random networks
        n = int(round(cfg.side_horizon / rate))
        terms += _train_students(4, cfg.n1, cfg.n2, cfg.n3, n_layers, n, n // every + 1,
                                 what=f"side by side, lr = {rate:g}")
    n_cond = len(cfg.ranks) * len(cfg.svms)
    terms.append(_sampled_ta(n_cond * cfg.mc_draws, cfg.n1, cfg.n3, svds=3, what="Monte Carlo optimum"))

    def excess(svms, horizon, what):
        nets = len(svms) * len(cfg.ranks) * cfg.excess_runs
        n = int(round(horizon / cfg.lr))
        rec = len(train.dense_epoch_grid(n, cfg.n_records, lr=cfg.lr, dense_from=0.05 * horizon))
        return (_train_students(nets, cfg.n1, cfg.n2, cfg.n3, n_layers, n, rec, what=what)
                + [_sampled_ta(nets, cfg.n1, cfg.n3, svds=2, what=f"{what}, TA theory")])

    terms += excess(cfg.excess_svms, cfg.excess_horizon, "random students' excess")
    for e, h in zip(cfg.excess_eps, cfg.excess_eps_horizons):
        terms += excess([min(cfg.excess_svms)], h, f"excess at eps = {e:g}")
    return terms


@floor_of("lg-alignment")
def _lg_alignment(cfg):
    """Fig. 9: TA and random students at two depths with their modes recorded (eigh per record), and the side-by-
    side rates."""
    from gendyn import deep_linear as dl, train
    modes = max(cfg.ranks)
    batch = 2 * len(cfg.ranks) * cfg.runs
    terms = []
    for depth, lr, horizon in zip(cfg.depths, cfg.lrs, cfg.horizons):
        epochs = int(round(horizon / lr))
        rec = np.union1d(train.log_epoch_grid(epochs, cfg.n_records),
                         np.rint(np.linspace(0, epochs, 5 * cfg.n_records + 1)).astype(int))
        t_opt = float(dl.optimal_early_stopping(np.array([cfg.svm]), dl.TaStudent(n1=cfg.n1, n2=cfg.n2, n3=cfg.n3,
                                                                                 eps=1e-5, n_layers=depth))[0])
        dip = np.rint(np.arange(0.7 * t_opt, 1.4 * t_opt, 0.02) / lr).astype(int)
        records = len(np.union1d(rec, dip[dip <= epochs]))
        terms += _train_students(batch, cfg.n1, cfg.n2, cfg.n3, depth, epochs, records, what=f"N_l = {depth}",
                                 modes=modes)
    deep_depth = max(cfg.depths)
    horizon = dict(zip(cfg.depths, cfg.horizons))[deep_depth]
    for lr in (dict(zip(cfg.depths, cfg.lrs))[deep_depth], cfg.side_lr):
        n = int(round(horizon / lr))
        terms += _train_students(2 * len(cfg.ranks), cfg.n1, cfg.n2, cfg.n3, deep_depth, n, min(n + 1, 7501),
                                 what=f"side by side, lr = {lr:g}", modes=modes)
    return terms


@floor_of("lg-low-rank")
def _lg_low_rank(cfg):
    """Fig. 14: TA and random students of every rank on the same data; the Monte Carlo reference (SVDs)."""
    from gendyn.book.chapters import lampinen_ganguli_low_rank_students as low_rank
    epochs = int(round(cfg.horizon / cfg.lr))
    batch = 2 * len(cfg.svms) * cfg.runs
    terms = []
    for n2 in cfg.student_ranks:
        terms += _train_students(batch, cfg.n1, n2, cfg.n3, 3, epochs, _log_records(epochs, cfg.n_records),
                                 what=f"rank-{n2} students")
    terms.append(_sampled_ta(len(cfg.svms) * low_rank.MC_DRAWS, cfg.n1, cfg.n3, svds=2 * len(cfg.student_ranks),
                             what="Monte Carlo reference, every rank"))
    return terms


@floor_of("lg-nongradient")
def _lg_nongradient(cfg):
    """Fig. 11: TA and random students; the shrinkage estimator (M M^T and eigh, twice per matrix) up to N1 = 800
    dominates."""
    epochs = int(round(cfg.horizon / cfg.lr))
    batch = 2 * 2 * len(cfg.svms) * cfg.runs  # TA and random, rank 1 and 3
    terms = _train_students(batch, cfg.n1, cfg.n2, cfg.n3, 3, epochs, _log_records(epochs, cfg.n_records),
                            what="TA and random students")

    def shrink(n1, n3, count):  # _gram_eigh: m m^T and its eigh; the kept vectors are a few columns
        return gram(n3, n1, count) + eigh(n3, count)

    terms.append(Term("shrinkage estimator and its excess on the students' data",
                      2 * shrink(cfg.n1, cfg.n3, batch // 2), F64))
    for n1 in cfg.finite_size_n1:
        terms.append(Term(f"finite size N1 = {n1}: estimator and excess, {2 * cfg.finite_size_runs} matrices",
                          2 * shrink(n1, n1 // 2, 2 * cfg.finite_size_runs), F64))
    return terms


@floor_of("lg-nonlinear")
def _lg_nonlinear(cfg):
    """Fig. 5: leaky-ReLU and linear students (one and three hidden layers) in our setting and the authors';
    training dominates."""
    terms = []

    def pair(settings, runs, n_layers, lr, horizon, what):
        epochs = int(round(horizon / lr))
        out = []
        for act in ("leaky_relu", "linear"):
            out += _train_students(settings * runs, cfg.n1, cfg.n2, cfg.n3, n_layers, epochs,
                                   _log_records(epochs, cfg.n_records), what=f"{what}, {act}", activation=act,
                                   test_inputs=cfg.n1)
        return out

    terms += pair(2 * len(cfg.svms), cfg.runs, 3, cfg.lr, cfg.horizon, "our setting, 1 hidden layer")
    terms += pair(2 * len(cfg.deep_svms), cfg.deep_runs, 5, cfg.deep_lr, cfg.deep_horizon,
                  "our setting, 3 hidden layers")
    for _ in range(2 * len(cfg.authors_svms)):
        terms += pair(1, cfg.authors_runs, 3, cfg.authors_lr, cfg.authors_horizon, "authors' setting, 1 hidden layer")
    for _, _, lr, horizon in cfg.authors_deep:
        terms += pair(1, cfg.authors_runs, 5, lr, horizon, "authors' setting, 3 hidden layers")
    return _merge(terms)


@floor_of("lg-nonlinear-transfer")
def _lg_nonlinear_transfer(cfg):
    """Fig. 12: two-headed leaky-ReLU students on the (sbar_A, sbar_B, q) grid, in our and the authors' setting;
    training dominates."""
    points = len(cfg.svm_a) * len(cfg.svm_b) * cfg.q_steps
    epochs = int(round(cfg.horizon / cfg.lr))
    records = _log_records(epochs, cfg.n_records)
    terms = []
    for runs, what in ((cfg.runs, "our setting"), (cfg.authors_runs, "authors' setting")):
        batch = points * runs + len(cfg.svm_a) * runs  # two-headed students and the single-task baselines
        terms += _train_students(batch, cfg.n1, cfg.n2, 2 * cfg.n3, 3, epochs, records, what=what,
                                 activation="leaky_relu", test_inputs=cfg.n1)
    terms += _train_students(4 * cfg.init_runs, cfg.n1, cfg.n2, 2 * cfg.n3, 3, epochs, records,
                             what="two initialisations", activation="leaky_relu", test_inputs=cfg.n1)
    return terms


@floor_of("lg-examples")
def _lg_examples(cfg):
    """Fig. 13: linear students of P examples (inputs given: W Sigma11 each step), two input kinds; training
    dominates."""
    ps = sorted({int(round(d * cfg.n1)) for d in cfg.densities})
    batch = 2 * len(ps) * len(cfg.svms) * cfg.runs
    epochs = int(round(cfg.horizon / cfg.lr))
    terms = _train_students(batch, cfg.n1, cfg.n1, cfg.n1, 3, epochs, _log_records(epochs, cfg.n_records),
                            what="students", p=max(ps))
    # converged maps: Sigma11 and its pseudo-inverse (an eigh), float64
    terms.append(Term("converged maps (Sigma11 = X X^T, its pseudo-inverse)",
                      gram(cfg.n1, max(ps), batch) + eigh(cfg.n1, batch) + mm(cfg.n1, cfg.n1, cfg.n1, 2 * batch), F64))
    return terms


@floor_of("lg-randomised")
def _lg_randomised(cfg):
    """Fig. 6: TA students on structured and randomised data, and the authors' setting (random and TA); training
    dominates."""
    epochs = int(round(cfg.horizon / cfg.lr))
    records = _log_records(epochs, cfg.n_records)
    batch = 2 * 2 * len(cfg.svms) * cfg.runs  # structured and randomised, ranks 1 and 3
    return (_train_students(batch, cfg.n1, cfg.n2, cfg.n3, 3, epochs, records, what="structured and randomised")
            + _train_students(4 * cfg.runs, cfg.n1, cfg.n2, cfg.n3, 3, epochs, records, what="authors' setting"))


@floor_of("lg-transfer")
def _lg_transfer(cfg):
    """Fig. 8: one batch of two-headed TA students (grid, Theorem 1, general ranks); SVDs of the exact TA recursion
    and the finite-size study."""
    points = len(cfg.sbar_a) * len(cfg.sbar_b) * cfg.q_steps
    grid = points * cfg.runs + len(cfg.sbar_a) * cfg.runs
    theorem = 3 * 2 * 3 * cfg.theorem_runs  # three output-vector kinds x (joint, single) x three settings
    general = 3 * cfg.general_runs + cfg.general_runs
    batch = grid + theorem + general
    epochs = int(round(cfg.horizon / cfg.lr))
    terms = _train_students(batch, cfg.n1, cfg.n2, 2 * cfg.n3, 3, epochs, _log_records(epochs, cfg.n_records),
                            what="two-headed students")
    # exact TA head errors (sampled_head_errors: an SVD each), gradient descent and flow, joint and single
    exact = svd(cfg.n1, 2 * cfg.n3, points * cfg.runs) + svd(cfg.n1, 2 * cfg.n3, len(cfg.sbar_a) * cfg.runs)
    terms.append(Term("exact TA recursion on the grid (SVDs), gradient descent and flow", 2 * exact, F64))
    terms.append(Term("d1 alignments (SVDs)", svd(cfg.n1, 2 * cfg.n3, 2 * points * cfg.runs), F64))
    for n1 in cfg.finite_size_n1:
        count = 3 * cfg.finite_size_draws
        terms.append(Term(f"finite size N1 = {n1} (SVDs)", svd(n1, n1, count) + svd(n1, n1 // 2, count), F64))
    return terms


def _merge(terms):
    """Sum terms of the same description and precision (repeated programs)."""
    out = {}
    for t in terms:
        key = (t.what, t.precision)
        out[key] = out.get(key, 0.0) + t.flops
    return [Term(what, flops, precision) for (what, precision), flops in out.items()]


# ----------------------------------------------------------------------------- Lee & Ndirango

def _grid_terms(kw, what):
    """A :func:`gendyn.multitask_train.run_grid` call with arguments ``kw``: per (seed, size) program, its
    multitask students (tasks A and B, each with its head) and single-task students, ``steps`` each,
    with a validation forward pass every ``eval_every`` steps."""
    depth = kw.get("depth", 1)
    activation = kw.get("activation", "linear")
    dims = dict(n_features=kw.get("n_features", 20), hidden=kw.get("hidden", 64), n_classes=kw.get("rank", 10),
                depth=depth, activation=activation)
    precision = str(kw.get("dtype", "float32")).replace("torch.", "")
    steps, every, n_val = kw.get("steps", 400), kw.get("eval_every", 4), kw.get("n_val", 1000)
    evals = steps // every + 2
    combos = len(kw["s_a"]) * len(kw["s_b"]) * len(kw["relatedness"])
    aux = kw.get("n_train_aux")
    flops = 0.0
    for p in kw["n_train"]:
        pool_b = max(aux) if aux else p
        r_mt = (len(aux) if aux else 1) * combos
        r_st = len(kw["s_a"])
        step_mt = multitask_step(p, **dims) + multitask_step(pool_b, **dims)
        flops += len(kw["seeds"]) * (steps * (r_mt * step_mt + r_st * multitask_step(p, **dims))
                                     + evals * (r_mt + r_st) * multitask_step(n_val, update=False, **dims))
    n_programs = len(kw["seeds"]) * len(kw["n_train"])
    return Term(f"{what}: {n_programs} programs, {combos * (len(aux) if aux else 1) + len(kw['s_a'])} students each, "
                f"{steps} steps", flops, precision)


@floor_of("ln-multitask")
def _ln_multitask(cfg):
    """Figs. 2, A1, A2: the rank-10 and rank-3 grids of linear students (full-batch gradient flow, float32)."""
    from gendyn.book import grids
    return [_grid_terms(grids.book_grid(name, cfg), f"{name} grid") for name in ("rank-10", "rank-3")]


@floor_of("ln-aux-depth")
def _ln_aux_depth(cfg):
    """Figs. 3, A3, A4: the auxiliary-data grid, the deep ReLU grids (float64; depth 5 dominates), their linear
    reference (float64), the three precision reruns."""
    from gendyn.book import grids
    terms = [_grid_terms(grids.book_grid("aux-train-pts", cfg), "aux-train-pts grid")]
    for d in cfg.deep_depths:
        terms.append(_grid_terms(grids.book_grid("deep-nonlinear", cfg, depth=d), f"deep ReLU grid, depth {d}"))
    # the linear reference keeps the deep grid's dtype (float64, grids.DEEP_DTYPE), as the chapter trains it
    linear = dict(grids.book_grid("deep-nonlinear", cfg, depth=cfg.deep_depths[0]), activation="linear", block=None,
                  depth=1, lr=cfg.lr, steps=cfg.steps, eval_every=cfg.eval_every)
    terms.append(_grid_terms(linear, "deep-linear grid (the reference)"))
    one = grids.book_grid("deep-nonlinear", cfg, depth=max(cfg.deep_depths))
    one = dict(one, seeds=one["seeds"][:1], n_train=(min(cfg.deep_n_train),))  # the chapter's: its first seed
    terms.append(_grid_terms(dict(one, dtype="float32"), "precision rerun, float32"))
    # mixed arithmetic: its matrix products (all that is counted) in float32
    terms.append(_grid_terms(dict(one, dtype="float32"), "precision rerun, mixed"))
    terms.append(_grid_terms(one, "precision rerun, float64 with lr + 1 ulp"))
    return terms


@floor_of("ln-relation")
def _ln_relation(cfg):
    """The classification (cross-entropy) and regression (MSE) grids of linear students, P = n_train."""
    from gendyn import multitask_train as mt
    from gendyn import seeding
    common = dict(seeds=seeding.run_seeds(cfg.seed, cfg.seeds, "relation"), n_train=(cfg.n_train,),
                  s_a=(mt.SNR_GRID[3],),
                  s_b=(mt.SNR_GRID[3], mt.SNR_GRID[5]), relatedness=mt.RELATEDNESS_GRID, rank=10)
    return [_grid_terms(dict(common, steps=cfg.steps, eval_every=3), "classification grid"),
            _grid_terms(dict(common, steps=cfg.mse_steps, eval_every=25), "regression grid")]


@floor_of("ln-published")
def _ln_published(cfg):
    """The authors' protocol (interleaved minibatch SGD, float64) on the subset of cells; the grids compared are
    those of ln-multitask and ln-aux-depth (cached there, not counted here)."""
    from gendyn import published_runs
    terms = []
    hidden, n_features, n_val, record_every = 64, 20, 1000, 10
    for name, p_a, p_b, depth in cfg.authors_groups:
        k = published_runs.N_CLASSES[name]
        # one example through the trunk and a head (with biases), forward; backward twice that but the input's
        fwd = mm(1, n_features, hidden) + (depth - 1) * mm(1, hidden, hidden) + mm(1, hidden, k)
        per_example = 3 * fwd - mm(1, n_features, hidden)
        examples_mt = p_a + p_a * (p_b // p_a)  # task-B minibatches: P_B // P_A after each task-A one
        singles, multis = 6, 8  # every SNR of task A; the subset's (s_a, s_b, r) cells
        flops = cfg.authors_seeds * cfg.authors_epochs * per_example * (singles * p_a + multis * examples_mt)
        flops += cfg.authors_seeds * (cfg.authors_epochs // record_every + 1) * (singles + multis) * n_val * fwd
        terms.append(Term(f"authors' protocol, {name} P_A = {p_a}, P_B = {p_b}, depth {depth}", flops, F64))
    # the label-entropy floor and its check: Monte Carlo over inputs, ~ K^2 operations per sample and SNR
    terms.append(Term("label-entropy floor and its check (Monte Carlo, ~100 K operations per sample)",
                      100.0 * 10 * (cfg.floor_check_samples * 3 + cfg.floor_samples * 6 * 3), F64))
    return terms


@floor_of("ln-authors-settings")
def _ln_authors_settings(cfg):
    """The authors' protocol (interleaved minibatch SGD, float32) of every searched setting on the calibration
    cells (settings that differ only in epochs share one run, to the longest), then the best setting on the
    held-out cells (counted at the grid's largest trunk and epochs); the label-entropy floors (Monte Carlo)."""
    hidden, k, seeds = 64, 10, cfg.seeds

    def fwd(n_features, depth):  # one example through the trunk and a head, with biases
        return mm(1, n_features, hidden) + (depth - 1) * mm(1, hidden, hidden) + mm(1, hidden, k)

    def cells(examples, n_cells, n_features, depth, epochs):
        per_example = 3 * fwd(n_features, depth) - mm(1, n_features, hidden)
        return seeds * epochs * (per_example * examples + n_cells * cfg.n_val * fwd(n_features, depth))

    lrs = {lr for _, lr in cfg.schedules}
    epochs = max(e for e, _ in cfg.schedules)
    cal = sum(p for p, _ in cfg.calibration)
    search = sum(cells(cal, len(cfg.calibration), n, d, epochs) for n in cfg.n_features for d in cfg.depths)
    search *= len(cfg.clean_validation) * len(cfg.activations) * len(lrs)
    n_big, d_big = max(cfg.n_features), max(cfg.depths)
    held = sum(p for p, _ in cfg.held_out_single) + sum(pa + pb for pa, pb, *_ in cfg.held_out_benefits)
    held_cells = len(cfg.held_out_single) + 2 * len(cfg.held_out_benefits)
    return [Term("the search: every setting on the calibration cells", search, F32),
            Term("the best setting on the held-out cells", cells(held, held_cells, n_big, d_big, epochs), F32),
            Term("label-entropy floors, default and inferred law (Monte Carlo, ~100 K^2 operations per sample)",
                 2 * 100.0 * k * k * cfg.floor_samples * 6, F64)]


@floor_of("ln-single-task")
def _ln_single_task(cfg):
    """Fig. 1: TA students (K = 10 and 2) and random students of one hidden layer, float64, on P = n_train; the
    finite-size runs."""
    steps = int(round(cfg.horizon / cfg.lr))
    every = max(1, steps // 300)
    evals = steps // every + 2

    def students(runs, p, k, hidden, groups=1, n_val=cfg.n_val):
        dims = dict(n_features=20, hidden=hidden, n_classes=k, depth=1, activation="linear")
        return groups * runs * (steps * multitask_step(p, **dims) + evals * multitask_step(n_val, update=False, **dims))

    return [Term("TA students, K = 10", students(len(cfg.sbars), cfg.n_train, 10, 4), F64),
            Term("TA students, K = 2", students(len(cfg.binary_sbars), cfg.n_train, 2, 4), F64),
            Term("finite size (K = 2)", sum(students(1, n, 2, 4, cfg.finite_size_seeds, n_val=100)
                                            for n in cfg.finite_size_n), F64),
            Term("random initialisation, K = 10", students(len(cfg.sbars), cfg.n_train, 10, 64), F64)]


@floor_of("ln-setup")
def _ln_setup(cfg):
    """§2-4 checks: Monte Carlo over Gaussian inputs (softmax curvature M(W), label agreement); elementwise work
    counted at its operations."""
    def curvature(samples, n_w, k, n):  # per sample and W: two logits x W^T, two softmaxes, the K x K pair
        return samples * n_w * (2 * mm(1, n, k) + 2 * 10 * k + 4 * k * k)

    terms = [Term("label agreement (41 SNRs) and near-chance labels: logits and argmax",
                  cfg.label_samples * (mm(1, 20, 10) + 41 * 3 * 10) + cfg.near_chance_samples * 2 * (mm(1, 20, 10)
                                                                                                   + 3 * 10), F64),
             Term("Stein identity (14): M(W) of a 5 x 8 W and autograd", curvature(cfg.mc_samples, 1, 5, 8)
                  + cfg.mc_samples * 3 * mm(1, 8, 5), F64),
             Term("spectrum of M: 13 W of 10 x 20", curvature(cfg.mc_samples // 8, 13, 10, 20), F64),
             Term("f(s) (15) by Monte Carlo: 3 W of 10 x 20", curvature(cfg.mc_samples, 3, 10, 20), F64)]
    return terms


# ----------------------------------------------------------------------------- Goldt et al.

def _op_runs(runs, steps, k, m):
    return runs * steps * sgd_order_parameter_step(k, m)


def _ode(count, times, k, m, train2=False):
    return count * times * ode_rhs(k, m, train2)


def _n_log_times(alpha_max, n_points, n, alpha_min=0.01):
    from gendyn import committee_sgd as sgd
    return len(np.unique(np.round(sgd.log_times(alpha_max, n_points, alpha_min=alpha_min, N=n) * n)))


def _n_late_times(alpha_max, n):
    from gendyn import committee_sgd as sgd
    return len(sgd.log_and_late_times(alpha_max, n))


@floor_of("goldt-sec1")
def _goldt_sec1(cfg):
    """Fig. 1: one weight-space SGD run and order-parameter chains per K (alpha_max N steps each), ODEs; the finite-
    size runs."""
    m, n = 4, cfg.n
    steps = int(round(cfg.alpha_max * n))
    t = _n_log_times(cfg.alpha_max, cfg.n_times, n)
    early_steps = int(round(cfg.early_alpha * n))
    sgd_w, sgd_op, ode = 0.0, 0.0, 0.0
    for k in cfg.ks:
        sgd_w += steps * sgd_weights_step(n, k, m)
        sgd_op += _op_runs(cfg.spread_runs, steps, k, m) + _op_runs(cfg.early_runs, early_steps, k, m)
        ode += _ode(1, t, k, m)
    fs_op = sum(_op_runs(cfg.finite_size_runs, int(round(cfg.early_alpha * nn)), 4, m) for nn in cfg.finite_size_n)
    fs_w = sum(cfg.finite_size_runs * int(round(cfg.early_alpha * nn)) * sgd_weights_step(nn, 4, m)
               for nn in cfg.finite_size_weights_n)
    fs_ode = _ode(cfg.finite_size_runs * (len(cfg.finite_size_n) + len(cfg.finite_size_weights_n)), 26, 4, m)
    return [Term("SGD on the weights (Fig. 1, one run per K; finite size)", sgd_w + fs_w, F64),
            Term("order-parameter chains (spread, early, finite size)", sgd_op + fs_op, F64),
            Term("ODEs (9), one right-hand side per recorded time (a lower bound)", ode + fs_ode, F64)]


@floor_of("goldt-sec2")
def _goldt_sec2(cfg):
    """Fig. 2: order-parameter SGD chains (alpha N steps each) of every series, the scaling and weight-decay runs;
    ODEs (lower bound)."""
    m, n = 2, cfg.n
    op, ode = 0.0, 0.0

    def series(ls, alpha, with_ode=True):
        nonlocal op, ode
        t = _n_late_times(alpha, n)
        for L in ls:
            op += _op_runs(1, int(round(alpha * n)), m + L, m)
            ode += _ode(2, t, m + L, m) if with_ode else 0.0

    series(cfg.erf_ls, cfg.erf_alpha)
    series(cfg.linear_ls, cfg.linear_alpha, with_ode=False)
    for _ in cfg.relu_lrs:
        series(cfg.relu_ls, cfg.relu_alpha, with_ode=False)
    series(cfg.inverse_k_ls, cfg.inverse_k_alpha)
    if cfg.fig2b_l not in cfg.erf_ls:
        series([cfg.fig2b_l], cfg.erf_alpha, with_ode=False)
    settings = len({(0.05, s) for s in cfg.scaling_sigmas} | {(r, 0.01) for r in cfg.scaling_lrs})
    scaling_steps = int(round(cfg.scaling_alpha * n))
    op += _op_runs(settings, scaling_steps, m + cfg.scaling_l, m)
    for L in cfg.decay_ls:
        op += _op_runs(1 + len(cfg.weight_decays), scaling_steps, m + L, m)
    long_t = 8 * round(np.log10(cfg.long_alpha)) + 3
    for L in cfg.long_ls:
        ode += _ode(1 + cfg.long_seeds, long_t, m + L, m)
        ode += _ode(len(cfg.manifold_qs), 4, m + L, m)
    ode += _ode(4 * len(cfg.manifold_qs), 4, m + 2, m)
    return [Term("order-parameter SGD chains", op, F64),
            Term("ODEs (9), one right-hand side per recorded time (a lower bound)", ode, F64)]


@floor_of("goldt-sec3")
def _goldt_sec3(cfg):
    """Figs. 3-4: order-parameter SGD chains with both layers trained (alpha N steps each), the linear networks;
    ODEs (lower bound)."""
    m = 2
    op = sum(_op_runs(1, int(round(cfg.alpha_max * cfg.n)), k, m) + 2.0 * k for k in cfg.ks)
    op += sum(_op_runs(4 * cfg.linear_runs, int(round(cfg.linear_alpha * cfg.linear_n)), k, 4) for k in cfg.linear_ks)
    long_t = 8 * round(np.log10(cfg.long_alpha)) + 3
    ode = sum(_ode(1 + cfg.long_seeds, long_t, k, m, True) for k in cfg.long_ks)
    ode += _ode(5, 22, 4, m, True)
    ode += sum(_ode(1, 3, k, mm_, True) for mm_ in (1, 2) for k in cfg.theory_ks if k % mm_ == 0)
    return [Term("order-parameter SGD chains (Fig. 3a, Fig. 4)", op, F64),
            Term("ODEs (9), one right-hand side per recorded time (a lower bound)", ode, F64)]


# ----------------------------------------------------------------------------- Advani, Saxe & Sompolinsky

def _linear_flow(count, n, p, teachers, conditions, times):
    """``linear_experiments.linear_student_flow`` of ``count`` data sets: eigh of ``X X^T`` and the draws
    projected on its modes, the errors at every time."""
    return (gram(n, p, count) + eigh(n, count) + count * (mm(teachers, n, n, 3) + mm(teachers, p, n))
            + count * 4 * mm(conditions * teachers, n, times))


@floor_of("as-toy-model")
def _as_toy_model(cfg):
    """Slides (1)-(6): gradient descent on the linear students, their exact flow, and the finite-size spectra (X
    X^T, eigvalsh) that dominate."""
    ps = [int(round(a * cfg.n)) for a in cfg.alphas]
    count = len(ps) * cfg.repeats
    gd = sum(cfg.repeats * cfg.gd_steps * mm(cfg.teachers, cfg.n, cfg.n) for _ in ps)
    flow = sum(_linear_flow(cfg.repeats, cfg.n, p, cfg.flow_teachers, 1, 45) for p in ps)
    spectra, sims = 0.0, 0.0
    for a in (0.5, 2.0):
        for n in cfg.finite_size_n:
            p = int(round(a * n))
            spectra += gram(n, p, cfg.finite_size_repeats) + eigh(n, cfg.finite_size_repeats, vectors=False)
            sims += _linear_flow(cfg.finite_size_sim_repeats, n, p, cfg.flow_teachers, 1, 25)
    return [Term(f"gradient descent: {count} data sets x {cfg.teachers} draws x {cfg.gd_steps} steps", gd, F64),
            Term("exact flow of the main experiment", flow, F64),
            Term("finite size: spectra of X X^T", spectra, F64),
            Term("finite size: simulated flows", sims, F64)]


@floor_of("as-double-descent")
def _as_double_descent(cfg):
    """Slides' double descent: the exact flow of every data set (eigh of X X^T, projections, errors at every time)."""
    conds = len(cfg.snrs) + len([r for r in cfg.inrs if r > 0])
    times = len(cfg.alphas) * conds + 2
    flops = sum(_linear_flow(cfg.repeats, cfg.n, int(round(a * cfg.n)), cfg.teachers, conds, times)
                for a in cfg.alphas)
    return [Term(f"exact flow: {len(cfg.alphas) * cfg.repeats} data sets, {cfg.teachers} draws, {conds} conditions",
                 flops, F64)]


@floor_of("as-early-stopping-ridge")
def _as_early_stopping_ridge(cfg):
    """Early stopping vs ridge: the finite-N data sets' spectra (X X^T and eigvalsh, N = 1000) dominate; the maps
    are quadratures (elementwise, not counted)."""
    flops = sum(gram(cfg.n, int(round(a * cfg.n)), cfg.datasets) + eigh(cfg.n, cfg.datasets, vectors=False)
                for a in cfg.sim_alphas)
    curve = cfg.datasets * len(cfg.sim_alphas) * 2001 * cfg.n * 10  # each data set's error on 2001 times
    return [Term("finite-N data sets: X X^T and eigvalsh", flops, F64),
            Term("per-data-set error curves (elementwise, ~10 operations per mode and time)", curve, F64)]


def _rf_students(n_in, p, hidden, repeats, times, n_test, decompose):
    """``random_features.random_feature_students``: per seed, the features and their population kernel, then
    per width the Gram eigh, the projections and the population quadratic form ``X U`` ``Sigma`` ``X U``."""
    n_max = max(hidden)
    per_seed = mm(n_max, n_in, p + n_test) + mm(n_max, n_in, n_max)
    for n in hidden:
        per_seed += (gram(p, n) + eigh(p) + mm(n, p, p) + mm(n, n, p) + mm(p, n, p) + mm(p, p, times)
                     + (mm(n, p, n_test) + mm(times, p, n_test) if n_test else 0.0))
        if decompose:
            per_seed += eigh(n) + 6 * mm(1, n, n) + 4 * mm(1, n, p)
    return repeats * per_seed


@floor_of("as-nonlinear-teacher")
def _as_nonlinear_teacher(cfg):
    """Figs. 7-9: exact flow of random-feature students over the width sweeps (three SNRs) and the Fig. 9
    decomposition (eigh of N_h x N_h)."""
    t = 62
    sweeps = 3 * _rf_students(cfg.n_in, cfg.n_samples, cfg.hidden, cfg.repeats, t, 0, False)
    dec = _rf_students(cfg.n_in, cfg.decomposition_samples, cfg.decomposition_hidden, cfg.decomposition_repeats, 1,
                       cfg.n_test, True)
    return [Term(f"width sweeps: 3 SNRs x {cfg.repeats} seeds x {len(cfg.hidden)} widths", sweeps, F64),
            Term(f"Fig. 9 decomposition: {cfg.decomposition_repeats} trials", dec, F64)]


@floor_of("as-bounds")
def _as_bounds(cfg):
    """Memorisation by gradient descent (random features) and the width sweep's exact flow (Gram accumulation, eigh,
    Monte Carlo test error)."""
    k = 2 * cfg.mem_teachers  # teacher and random labels
    gd = cfg.mem_repeats * cfg.mem_steps * 2 * mm(k, cfg.mem_hidden, cfg.mem_samples)
    gd += cfg.mem_repeats * (mm(cfg.mem_hidden, cfg.mem_n_in, cfg.mem_samples + cfg.n_test)
                             + gram(cfg.mem_samples, cfg.mem_hidden) + eigh(cfg.mem_samples))
    p, pt, t, g = cfg.n_samples, cfg.n_test, 38, len(cfg.hidden)
    h = max(cfg.hidden)
    sweep = cfg.repeats * (mm(h, cfg.n_in, p + pt) + mm(p, h, p + pt))  # features and Gram of every width at once
    sweep += g * cfg.repeats * (eigh(p) + mm(p, p, pt) + mm(t, p, pt))  # per width: eigh, U^T K, predictions
    return [Term(f"memorisation: {cfg.mem_steps} steps of {cfg.mem_repeats} x {k} students", gd, F64),
            Term(f"width sweep: {cfg.repeats} seeds, widths to {h}", sweep, F64)]


# ----------------------------------------------------------------------------- table

def yardsticks(rows=None) -> dict[str, float]:
    """The float32 and float64 matmul rates (FLOP/s) recorded in ``benchmarks/results.json``
    (``benchmarks/trainers.py``); ``{}`` if none was measured."""
    if rows is None:
        path = ROOT / "benchmarks" / "results.json"
        rows = json.loads(path.read_text()) if path.exists() else []
    out = {}
    for r in rows:
        for precision in PRECISIONS:
            if r["what"].startswith(f"{precision} torch.mm") and r.get("unit") == "GFLOP/s":
                out[precision] = float(r["value"]) * 1e9
    return out


def yardstick_threads(rows) -> str | None:
    """The thread count of the recorded yardstick ("2 threads"), for the table's heading."""
    for r in rows:
        if r["what"].startswith("float32 torch.mm") and "(" in r["what"]:
            return r["what"].split("(", 1)[1].split(")", 1)[0]
    return None


def floors(scale="paper"):
    """``{chapter id: Floor}`` for every chapter."""
    return {c: floor(c, scale) for c in CHAPTERS}


def _fmt_seconds(s):
    if s >= 90:
        return f"{s / 60:.1f} min"
    if s >= 10:
        return f"{s:.0f} s"
    if s >= 0.1:
        return f"{s:.1f} s"
    return f"{s:.2g} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="paper", choices=("paper", "smoke"))
    parser.add_argument("--terms", action="store_true", help="list every counted term")
    args = parser.parse_args()
    rates = yardsticks()
    if not rates:
        sys.exit("no yardstick in benchmarks/results.json: run benchmarks/trainers.py first")
    for c, f in floors(args.scale).items():
        print(f"{c:26s} {f.flops(F32) / 1e9:12,.0f} GFLOP f32 {f.flops(F64) / 1e9:12,.0f} GFLOP f64   "
              f"floor {_fmt_seconds(f.seconds(rates)):>9s}   {f.summary}")
        if args.terms:
            for t in sorted(f.terms, key=lambda t: -t.flops):
                print(f"    {t.flops / 1e9:14,.1f} GFLOP {t.precision}  {t.what}")


if __name__ == "__main__":
    main()
