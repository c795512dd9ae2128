"""Which unrecorded settings produced Lee & Ndirango's published runs? Inference by a calibration fit.

The authors' published files (:mod:`gendyn.published_runs`) record the grid columns of each run
(sizes, SNRs, relatedness, seed) but not the settings held fixed in a sweep: the input dimension
``N`` (``--nfeatures``), ``--clean_validation``, the trunk (linear or ReLU, its depth) and the
training length (epochs and learning rate). This module infers them the way a pre-registered
analysis does:

1. A **calibration subset** of published single-task cells is fixed before any fit
   (:data:`CALIBRATION`, one subset per scale of the book's chapter).
2. Every setting of a search grid trains the authors' protocol
   (:func:`gendyn.interleaved_sgd.train_cells` with ``data=AuthorsData(...)``) on the
   calibration cells; the setting whose simulated per-cell means and standard errors fit the
   published per-seed values best is the inferred one.
3. The inferred setting, with no further tuning, predicts the **held-out** cells (every other
   cell), and is scored there.

A cell is ``(P, s_a)``: the rank-10 file's single-task runs with ``P`` training points of task A
at SNR ``s_a`` (five published seeds each).
"""

from __future__ import annotations

__all__ = ["CALIBRATION"]

#: The pre-registered calibration subsets, fixed before any fit was run: the rank-10 file's
#: single-task cells ``(P, s_a)`` each scale of the chapter fits the settings to. ``"paper"``:
#: every SNR at P = 100 and P = 400 (12 cells: the smallest size and a larger one that the
#: search can afford on two cores); ``"smoke"``: three SNRs spanning the grid at P = 100 (3 cells). Every other published
#: cell is held out.
CALIBRATION = {
    "paper": tuple((p, s) for p in (100, 400)
                   for s in (0.01, 0.039810717055349734, 0.15848931924611134, 0.630957344480193,
                             2.5118864315095797, 10.0)),
    "smoke": ((100, 0.01), (100, 0.15848931924611134), (100, 10.0)),
}


# ----------------------------------------------------------------------------------------
# the search: settings, their simulated cells, the calibration fit, the held-out score
# ----------------------------------------------------------------------------------------

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from numpy.typing import ArrayLike
from scipy import special, stats

from . import _checks, seeding
from . import interleaved_sgd as _il
from . import multitask_train as _mt
from . import published_runs as _pr

__all__ += ["Setting", "SimulatedRuns", "CalibrationFit", "Agreement", "setting_grid", "simulate_settings",
            "published_values", "calibration_fit", "held_out_agreement", "exact_coverage", "label_floor"]


@dataclass(frozen=True)
class Setting:
    """One candidate of the unrecorded settings of a published sweep.

    Parameters
    ----------
    n_features : int
        Input dimension ``N`` (the authors' ``--nfeatures``; their labels' logit noise is ``1/sqrt(N)``).
    clean_validation : bool
        The authors' ``--clean_validation`` (half of each pool labelled by the noise-free teacher).
    activation : {"linear", "relu"}
        Trunk nonlinearity (the authors' ``--linear`` or not).
    depth : int
        Trunk layers (``--nlayers``).
    epochs : int
        Training epochs (``--nepochs``); the recorded value is the minimum over them.
    lr : float
        SGD learning rate (``--lr``).
    """

    n_features: int
    clean_validation: bool
    activation: str
    depth: int
    epochs: int
    lr: float

    def __post_init__(self):
        _checks.integer(self.n_features, "n_features", 2)
        _checks.flag(self.clean_validation, "clean_validation")
        _checks.choice(self.activation, "activation", _il.ACTIVATIONS)
        _checks.integer(self.depth, "depth", 1, " (trunk layers)")
        _checks.integer(self.epochs, "epochs", 1)
        _checks.positive(self.lr, "lr")

    @property
    def label(self) -> str:
        """A short name, e.g. ``N=64 clean linear x1 200ep lr=0.01``."""
        return (f"N={self.n_features} {'clean' if self.clean_validation else 'noisy'} {self.activation} "
                f"x{self.depth} {self.epochs}ep lr={self.lr:g}")


def setting_grid(n_features: Sequence[int], clean_validation: Sequence[bool], activations: Sequence[str],
                 depths: Sequence[int], schedules: Sequence[tuple[int, float]]) -> tuple[Setting, ...]:
    """Every combination of the given values: the search grid.

    Parameters
    ----------
    n_features : sequence of int
    clean_validation : sequence of bool
    activations : sequence of {"linear", "relu"}
    depths : sequence of int
    schedules : sequence of (int, float)
        ``(epochs, lr)`` pairs.

    Returns
    -------
    tuple of Setting
        In the order of :func:`itertools.product` of the arguments as listed.
    """
    def values(value, name):
        if isinstance(value, (str, bytes, dict)) or not isinstance(value, Sequence) or len(value) == 0:
            raise ValueError(f"{name} must be a non-empty sequence; got {_checks._show(value)}")
        return list(value)

    n_features = [_checks.integer(v, "n_features", 2) for v in values(n_features, "n_features")]
    clean = [_checks.flag(v, "clean_validation") for v in values(clean_validation, "clean_validation")]
    activations = [_checks.choice(v, "activations", _il.ACTIVATIONS) for v in values(activations, "activations")]
    depths = [_checks.integer(v, "depths", 1, " (trunk layers)") for v in values(depths, "depths")]
    pairs = []
    for pair in values(schedules, "schedules"):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"schedules must hold (epochs, lr) pairs; got {_checks._show(pair)}")
        pairs.append((_checks.integer(pair[0], "schedules (epochs)", 1), _checks.positive(pair[1], "schedules (lr)")))
    return tuple(Setting(n, c, a, d, e, lr) for n, c, a, d, (e, lr) in
                 itertools.product(n_features, clean, activations, depths, pairs))


@dataclass(frozen=True)
class SimulatedRuns:
    """The authors'-protocol runs of cells under each setting (:func:`simulate_settings`).

    Attributes
    ----------
    settings : tuple of Setting
    cells : tuple of dict
        As :func:`gendyn.interleaved_sgd.train_cells` takes them.
    seeds : tuple of int
        The ``--train_seed`` of each run.
    single_task, multitask : ndarray, shape (G, C, S)
        Task A's validation loss, minimum over each setting's epochs, of the single-task and
        multitask students (NaN for a single-task cell).
    """

    settings: tuple
    cells: tuple
    seeds: tuple
    single_task: np.ndarray
    multitask: np.ndarray

    def values(self, index: int) -> np.ndarray:
        """Setting ``index``'s recorded value of every cell and seed, shape ``(C, S)``: the
        single-task loss of a single-task cell, the benefit ``single - multitask`` of a multitask cell."""
        index = _checks.integer(index, "index", 0)
        if index >= len(self.settings):
            raise ValueError(f"index must be below the number of settings ({len(self.settings)}); got {index}")
        multi = ~np.isnan(self.multitask[index])
        return np.where(multi, self.single_task[index] - np.nan_to_num(self.multitask[index]),
                        self.single_task[index])


def simulate_settings(settings: Sequence[Setting], cells: Sequence[dict[str, float]], seeds: Sequence[int], *,
                      sweep: Sweep | None = None, dtype: torch.dtype = torch.float32,
                      device: str | torch.device = "cpu", **flat: object) -> SimulatedRuns:
    """Train the authors' protocol on ``cells`` under each setting; record the minimum over epochs.

    Settings that differ only in ``epochs`` share one run to the largest of their epochs: the
    minimum over the first ``E`` epochs of that run is the value a run of ``E`` epochs records
    (every epoch is scored), so the epochs of a schedule cost nothing extra.

    Parameters
    ----------
    settings : sequence of Setting
    cells : sequence of dict
        As :func:`gendyn.interleaved_sgd.train_cells` takes them (single-task and multitask cells).
    seeds : sequence of int
        The runs' ``--train_seed`` values (distinct): one integer ``rng`` per run, whose stream
        ``"train_rows"`` permutes the training halves (:mod:`gendyn.seeding`).
    sweep : Sweep, optional
        What every setting shares: classes, pool and validation sizes, width, minibatch size and
        the sweep's seeds; ``None``: ``Sweep()``.
    dtype, device
    **flat
        Deprecated: the fields of :class:`Sweep` as keywords, accepted for one more release with a
        ``DeprecationWarning``.

    Returns
    -------
    SimulatedRuns
    """
    if flat:
        sweep = _mt._spec_form("simulate_settings", flat, dict(sweep=(Sweep, sweep)),
                               "simulate_settings(settings, cells, seeds, sweep=Sweep(n_pool=..., n_val=...))")["sweep"]
    sweep = Sweep() if sweep is None else _checks.instance(sweep, "sweep", Sweep)
    n_classes, n_pool, n_val, hidden = sweep.n_classes, sweep.n_pool, sweep.n_val, sweep.hidden
    batch_size, data_seed, model_seed = sweep.batch_size, sweep.data_seed, sweep.model_seed
    if isinstance(settings, Setting) or not isinstance(settings, Sequence) or len(settings) == 0 or \
            not all(isinstance(s, Setting) for s in settings):
        raise ValueError(f"settings must be a non-empty sequence of Setting; got {_checks._show(settings)}")
    if isinstance(cells, dict) or not isinstance(cells, Sequence) or len(cells) == 0:
        raise ValueError(f"cells must be a non-empty sequence of dicts (as train_cells takes); got {_checks._show(cells)}")
    n_classes = _checks.integer(n_classes, "n_classes", 2)
    n_val = _checks.integer(n_val, "n_val", 1, " (validation examples scored)")
    groups = {}
    for g, s in enumerate(settings):
        groups.setdefault((s.n_features, s.clean_validation, s.activation, s.depth, s.lr), []).append(g)
    single = multi = None
    for (n_features, clean, activation, depth, lr), members in groups.items():
        epochs = max(settings[g].epochs for g in members)
        runs = _il.train_cells(list(cells), seeds,
                               teachers=_mt.TeacherPair(n_features=n_features, rank=n_classes, n_classes=n_classes),
                               n_val=n_val, trunk=_il.Trunk(hidden=hidden, depth=depth),
                               schedule=_il.SGDSchedule(lr=lr, epochs=epochs, batch_size=batch_size,
                                                        activation=activation, record_every=1),
                               data=_il.AuthorsData(n_pool, clean, data_seed, model_seed),
                               execution=_il.Execution(dtype=dtype, device=device))
        if single is None:
            single = np.full((len(settings),) + runs.single_task.shape[:2], np.nan)
            multi = single.copy()
        for g in members:
            window = (runs.epochs >= 1) & (runs.epochs <= settings[g].epochs)
            single[g] = runs.single_task[..., window].min(-1)
            multi[g] = runs.multitask[..., window].min(-1)
    return SimulatedRuns(tuple(settings), tuple(dict(c) for c in cells), tuple(int(s) for s in seeds), single, multi)


def published_values(cells: Sequence[dict[str, float]], name: str = "rank-10") -> tuple[np.ndarray, ...]:
    """The published per-seed values of ``cells`` in file ``name``: the single-task loss of a
    single-task cell, the benefit (single-task minus multitask loss) of a multitask cell.

    Parameters
    ----------
    cells : sequence of dict
        As :func:`gendyn.interleaved_sgd.train_cells` takes them.
    name : str
        A file of :data:`gendyn.published_runs.FILES` with a ``main_train_pts`` grid
        (``"rank-10"`` or ``"rank-3"``).

    Returns
    -------
    tuple of ndarray
        One array of per-seed values per cell, in the order of the seeds.
    """
    name = _checks.choice(name, "name", ("rank-10", "rank-3"))
    if isinstance(cells, dict) or not isinstance(cells, Sequence) or len(cells) == 0:
        raise ValueError(f"cells must be a non-empty sequence of dicts (as train_cells takes); got {_checks._show(cells)}")
    st, ben = _pr.single_task(name), _pr.benefits(name)
    out = []
    for i, cell in enumerate(cells):
        p_a, p_b, s_a, s_b, r = _il._cell(cell, i)
        if p_b == 0:
            pick = _pr.select(st, main_train_pts=p_a, s_a=s_a)
            table, order, column = st, st["train_seed"], "loss"
        else:
            pick = _pr.select(ben, main_train_pts=p_a, aux_train_pts=p_b, s_a=s_a, s_b=s_b, relatedness=r)
            table, order, column = ben, ben["train_seed"], "benefit"
        if not pick.any():
            raise ValueError(f"cells[{i}] = {cell!r} is not a cell of the published file {name!r}")
        values = table[column][pick][np.argsort(order[pick], kind="stable")]
        out.append(values.astype(float))
    return tuple(out)


def _mean_se(values, name):
    """Per-cell means and standard errors of a sequence of per-seed arrays (2 or more seeds each)."""
    if isinstance(values, (str, bytes, dict)) or not isinstance(values, (Sequence, np.ndarray)) or len(values) == 0:
        raise ValueError(f"{name} must be a non-empty sequence of per-seed value arrays; got {_checks._show(values)}")
    means, ses = [], []
    for i, v in enumerate(values):
        v = _checks.real_array(v, f"{name}[{i}]", ndim=1)
        if v.size < 2:
            raise ValueError(f"{name}[{i}] must hold at least 2 seeds (a standard error); got {v.size}")
        means.append(v.mean())
        ses.append(v.std(ddof=1) / math.sqrt(v.size))
    return np.array(means), np.array(ses)


@dataclass(frozen=True)
class CalibrationFit:
    """The fit of each setting to the calibration cells (:func:`calibration_fit`).

    Attributes
    ----------
    z : ndarray, shape (G, C)
        ``(published mean - simulated mean) / combined SE`` of each setting and cell.
    statistic : ndarray, shape (G,)
        Mean squared z-score over the cells: about 1 (``(n_a+n_b-2)/(n_a+n_b-4)`` for t-distributed
        z) for a setting that reproduces the published runs, larger the worse it fits.
    best : int
        The setting of the smallest statistic.
    published_mean, published_se : ndarray, shape (C,)
    simulated_mean, simulated_se : ndarray, shape (G, C)
    """

    z: np.ndarray
    statistic: np.ndarray
    best: int
    published_mean: np.ndarray
    published_se: np.ndarray
    simulated_mean: np.ndarray
    simulated_se: np.ndarray


def calibration_fit(published: Sequence[ArrayLike], simulated: ArrayLike) -> CalibrationFit:
    """Score every setting on the calibration cells: the mean squared z-score of the published means.

    Parameters
    ----------
    published : sequence of array_like
        Per cell, the published per-seed values (:func:`published_values`), C cells.
    simulated : array_like, shape (G, C, S)
        Each setting's simulated values per cell and seed (:meth:`SimulatedRuns.values` stacked).

    Returns
    -------
    CalibrationFit
    """
    pub_m, pub_se = _mean_se(published, "published")
    sim = _checks.real_array(simulated, "simulated", ndim=3)
    if sim.shape[1] != pub_m.size or sim.shape[2] < 2:
        raise ValueError(f"simulated must have shape (settings, {pub_m.size} cells, >= 2 seeds); got {sim.shape}")
    sim_m = sim.mean(-1)
    sim_se = sim.std(-1, ddof=1) / math.sqrt(sim.shape[2])
    z = (pub_m - sim_m) / np.sqrt(pub_se**2 + sim_se**2 + 1e-300)
    statistic = (z**2).mean(-1)
    return CalibrationFit(z, statistic, int(np.argmin(statistic)), pub_m, pub_se, sim_m, sim_se)


def exact_coverage(seeds_published: int, seeds_simulated: int, z: float = 2.0) -> float:
    """Expected fraction of cells within ``z`` combined SE under exact reproduction.

    Both samples from one law: the difference of means over its combined SE is nearly Student-t
    with ``n_a + n_b - 2`` degrees of freedom, so the fraction is ``2 F_t(z) - 1``.

    Parameters
    ----------
    seeds_published, seeds_simulated : int
        Seeds per cell of each side (``>= 2``).
    z : float
        The band, in combined standard errors (``> 0``).

    Returns
    -------
    float
    """
    n_a = _checks.integer(seeds_published, "seeds_published", 2)
    n_b = _checks.integer(seeds_simulated, "seeds_simulated", 2)
    z = _checks.positive(z, "z")
    return float(2 * stats.t.cdf(z, n_a + n_b - 2) - 1)


@dataclass(frozen=True)
class Agreement:
    """The inferred setting's prediction of held-out cells (:func:`held_out_agreement`).

    Attributes
    ----------
    z : ndarray, shape (C,)
        ``(published mean - predicted mean) / combined SE`` per cell.
    within : float
        Fraction of cells with ``|z| <= 2``.
    expected : float
        That fraction under exact reproduction (:func:`exact_coverage`).
    rank_correlation : float
        Spearman's rho of published and predicted means (NaN for fewer than 3 cells).
    published_mean, published_se, predicted_mean, predicted_se : ndarray, shape (C,)
    """

    z: np.ndarray
    within: float
    expected: float
    rank_correlation: float
    published_mean: np.ndarray
    published_se: np.ndarray
    predicted_mean: np.ndarray
    predicted_se: np.ndarray


def held_out_agreement(published: Sequence[ArrayLike], predicted: ArrayLike) -> Agreement:
    """Score a prediction of held-out cells against the published runs.

    Parameters
    ----------
    published : sequence of array_like
        Per cell, the published per-seed values (:func:`published_values`), C cells.
    predicted : array_like, shape (C, S)
        The inferred setting's values per cell and seed (:meth:`SimulatedRuns.values`).

    Returns
    -------
    Agreement
    """
    fit = calibration_fit(published, _checks.real_array(predicted, "predicted", ndim=2)[None])
    z = fit.z[0]
    n_pub = min(len(np.ravel(v)) for v in published)
    rho = float(stats.spearmanr(fit.published_mean, fit.simulated_mean[0]).statistic) if z.size > 2 else math.nan
    return Agreement(z, float(np.mean(np.abs(z) <= 2.0)), exact_coverage(n_pub, np.shape(predicted)[1]), rho,
                     fit.published_mean, fit.published_se, fit.simulated_mean[0], fit.simulated_se[0])


def label_floor(s_a: ArrayLike, n_classes: int, n_features: int, clean_validation: bool, *, n_samples: int = 4096,
                rng: seeding.Rng = None, **former: object) -> tuple[np.ndarray, np.ndarray]:
    """The label-entropy floor of a validation loss under a setting's label law, and its Monte Carlo SE.

    The authors' teachers give unit-SNR logits ``z ~ N(0, I_K)``; a noisy label is
    ``argmax(s_a z + xi / sqrt(N))``, a clean one ``argmax(z)``. With ``clean_validation`` half of
    the validation labels (as a classifier cannot tell which) are clean, so the label law given
    ``x`` is ``p = (delta_argmax + p_noisy) / 2``. By Gibbs' inequality no classifier's expected
    cross-entropy is below ``H(y | x) = E_z[-sum p log p]``.

    Parameters
    ----------
    s_a : array_like
        SNRs (``>= 0``), any shape.
    n_classes, n_features : int
        ``K`` and ``N``.
    clean_validation : bool
    n_samples : int
        Draws of ``z`` (even, ``>= 4``: antithetic pairs).
    rng : int, SeedSequence, torch or numpy Generator, or None
        What the logits ``z`` are drawn from (an integer seeds ``numpy.random.default_rng``); ``None``:
        fresh entropy (see :mod:`gendyn.seeding`).

    Returns
    -------
    (ndarray, ndarray)
        The floor and its standard error, shape of ``s_a``.
    """
    from .softmax_multitask import noisy_argmax_probabilities

    rng = seeding.former_rng(rng, former, "label_floor", alone=True)
    s = _checks.real_array(s_a, "s_a", lower=0)
    k = _checks.integer(n_classes, "n_classes", 2)
    n = _checks.integer(n_features, "n_features", 1)
    clean = _checks.flag(clean_validation, "clean_validation")
    n_samples = _checks.integer(n_samples, "n_samples", 4, " (even: antithetic pairs)")
    if n_samples % 2:
        raise ValueError(f"n_samples must be even (antithetic pairs z, -z); got {n_samples}")
    _checks.work_limit(4000.0 * n_samples * max(s.size, 1) * k * k, f"n_samples={n_samples} with {s.size} SNRs")
    g = seeding.numpy_generator(rng).standard_normal((n_samples // 2, k))
    flat = s.ravel()
    pair = np.zeros((g.shape[0], flat.size))
    for sign in (1.0, -1.0):
        z = sign * flat[None, :, None] * g[:, None, :]  # (n, S, K)
        p = noisy_argmax_probabilities(z, n ** -0.5)
        if clean:
            p = 0.5 * p + 0.5 * (np.arange(k) == (sign * g).argmax(-1)[:, None, None])
        pair += 0.5 * -special.xlogy(p, p).sum(-1)
    h = pair.mean(0)
    se = pair.std(0, ddof=1) / math.sqrt(pair.shape[0])
    return h.reshape(s.shape), se.reshape(s.shape)


@dataclass(frozen=True)
class Sweep:
    """What every setting of a sweep shares (:func:`simulate_settings`): the flags the search does not vary.

    Parameters
    ----------
    n_classes : int
        ``K``, also the teachers' rank (>= 2).
    n_pool : int
        Examples per task pool (``--nsamples``): every cell's sizes must be at most ``n_pool // 2``.
    n_val : int
        Validation examples scored (the first ``n_val`` of the pool's second half; ``--ntest``).
    hidden : int
        Trunk width (``--nunits``).
    batch_size : int
        Minibatch size.
    data_seed, model_seed : int
        The sweep's fixed ``--data_seed`` and ``--model_seed`` (>= 0): integer ``rng`` values whose named
        streams draw the data and the students (:class:`gendyn.interleaved_sgd.AuthorsData`).
    """

    n_classes: int = 10
    n_pool: int = 6400
    n_val: int = 1000
    hidden: int = 64
    batch_size: int = 128
    data_seed: int = 0
    model_seed: int = 0

    def __post_init__(self):
        _checks.integer(self.n_classes, "n_classes", 2)
        _checks.integer(self.n_pool, "n_pool", 2, " (examples per task: a training and a validation half)")
        _checks.integer(self.n_val, "n_val", 1, " (validation examples scored)")
        _checks.integer(self.hidden, "hidden", 1)
        _checks.integer(self.batch_size, "batch_size", 1)
        _checks.integer(self.data_seed, "data_seed", 0)
        _checks.integer(self.model_seed, "model_seed", 0)


__all__ += ["Sweep"]
