"""Statistics of the book's claims: one copy of each, tested once, called by the chapters.

A claim compares a measured value with a prediction inside a tolerance that comes from
sampling error; these functions turn samples into those numbers. They are plain numpy/scipy
and know nothing of the ledger.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .. import _checks, batch_means, seeding

__all__ = ["mean_se", "z_score", "z_quantile", "t_quantile", "t_bound", "t_margin", "t_bound_reason", "late_average",
           "batch_means_interval", "ks_distance", "dkw_bound", "fitted_exponent", "weighted_mean_z", "weighted_slope_z",
           "within_combined_se", "sign_agreement", "rank_correlation", "spearman_critical"]


def _samples(x, name="x", axis=-1):
    if x is None or isinstance(x, (str, bytes, bool, np.bool_)):
        raise ValueError(f"{name} must be an array of finite real numbers; got {x!r}")
    try:
        x = np.asarray(x)  # its own dtype: a float32 mean stays a float32 mean
    except (TypeError, ValueError) as error:  # ragged lists
        raise ValueError(f"{name} must be an array of finite real numbers; got {error}") from None
    if x.dtype.kind not in "fiu" or not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be an array of finite real numbers; got dtype {x.dtype}"
                         + (" with non-finite values" if x.dtype.kind == "f" else ""))
    if x.ndim:
        axis = _axis(axis, x.ndim)
    if x.ndim == 0 or x.shape[axis] < 2:
        raise ValueError(f"{name} must hold at least 2 samples along axis {axis} to estimate a spread; "
                         f"got shape {x.shape}")
    return x


def _axis(axis, ndim):
    """``axis`` as an ``int`` if it is an axis of an array of ``ndim`` dimensions (negative counts from the end)."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, numbers.Integral) or not -ndim <= axis < ndim:
        raise ValueError(f"axis must be an integer in [-{ndim}, {ndim}) (an axis of x); got {axis!r}")
    return int(axis)


def mean_se(x: ArrayLike, axis: int = -1) -> tuple[np.ndarray, np.ndarray]:
    """Sample mean and its standard error ``std(ddof=1) / sqrt(n)`` along ``axis``."""
    x = _samples(x, axis=axis)
    return x.mean(axis), x.std(axis, ddof=1) / np.sqrt(x.shape[axis])


def z_score(x: ArrayLike, axis: int = -1) -> np.ndarray:
    """Mean over its standard error along ``axis``: how many SE the mean lies from zero.

    Raises ``ValueError`` if the samples of an entry are all equal (a zero standard error:
    no z-score).
    """
    m, se = mean_se(x, axis)
    if np.any(se == 0):
        raise ValueError(f"x has a zero standard error along axis {axis} (all samples of {int(np.sum(se == 0))} "
                         f"entr{'y' if np.sum(se == 0) == 1 else 'ies'} equal): no z-score")
    return m / se


def z_quantile(comparisons: int, level: float = 1e-3, sides: int = 2) -> float:
    """Normal quantile at family-wise ``level`` over ``comparisons`` tests (Bonferroni).

    ``sides=2`` for ``|deviation| <= z se`` tests, ``sides=1`` for one-sided ones.
    """
    comparisons = _checks.integer(comparisons, "comparisons", 1)
    level = _checks.bounded(level, "level", 0.0, 1.0, open_lower=True, open_upper=True)
    sides = _checks.choice(sides, "sides", (1, 2))
    return float(stats.norm.ppf(1 - level / (sides * comparisons)))


def t_quantile(comparisons: int, dof: int, level: float = 1e-3) -> float:
    """Two-sided Student-t quantile at family-wise ``level`` over ``comparisons`` tests (Bonferroni)."""
    comparisons = _checks.integer(comparisons, "comparisons", 1)
    dof = _checks.integer(dof, "dof", 1)
    level = _checks.bounded(level, "level", 0.0, 1.0, open_lower=True, open_upper=True)
    return float(stats.t.ppf(1 - level / (2 * comparisons), dof))


def t_bound(values: ArrayLike, side: str, confidence: float = 0.99) -> float:
    """One-sided Student-t confidence bound on the mean of ``values`` (1-D, one per seed).

    ``side="lower"``: ``mean - t se``; ``"upper"``: ``mean + t se``, with ``t`` the
    ``confidence`` quantile at ``n - 1`` degrees of freedom.
    """
    values = _samples(values, "values")
    if values.ndim != 1:
        raise ValueError(f"values must be 1-D (one value per independent run); got shape {values.shape}")
    side = _checks.choice(side, "side", ("lower", "upper"))
    confidence = _checks.bounded(confidence, "confidence", 0.5, 1.0, open_upper=True)
    t = stats.t.ppf(confidence, len(values) - 1)
    m, se = values.mean(), values.std(ddof=1) / math.sqrt(len(values))
    return m - t * se if side == "lower" else m + t * se


def t_margin(values: ArrayLike, confidence: float = 0.99) -> float:
    """The one-sided Student-t margin ``t se`` of the mean of ``values`` (1-D, one per seed).

    The margin of a significance claim (:data:`gendyn.book.claims.SIGNIFICANCE`): the mean is
    significantly above 0 when it exceeds this margin (equivalently, :func:`t_bound` ``"lower"``
    is above 0). ``t`` is the ``confidence`` quantile at ``n - 1`` degrees of freedom.
    """
    values = _samples(values, "values")
    if values.ndim != 1:
        raise ValueError(f"values must be 1-D (one value per independent run); got shape {values.shape}")
    confidence = _checks.bounded(confidence, "confidence", 0.5, 1.0, open_upper=True)
    return float(stats.t.ppf(confidence, len(values) - 1) * values.std(ddof=1) / math.sqrt(len(values)))


def t_bound_reason(seeds: int, detail: str = "", confidence: float = 0.99) -> str:
    """The reason of a claim on a :func:`t_bound` over ``seeds`` seeds, naming its quantile; ``detail`` is appended.

    ``t`` is the ``confidence`` quantile at ``seeds - 1`` degrees of freedom, that of :func:`t_bound`; e.g.
    ``"one-sided Student-t bound over 5 seeds (t = 3.75), paired within seeds."``.
    """
    seeds = _checks.integer(seeds, "seeds", 2)
    if not isinstance(detail, str):
        raise ValueError(f"detail must be a str; got {type(detail).__name__}")
    confidence = _checks.bounded(confidence, "confidence", 0.5, 1.0, open_upper=True)
    return f"one-sided Student-t bound over {seeds} seeds (t = {stats.t.ppf(confidence, seeds - 1):.2f}){detail}."


def late_average(time: ArrayLike, values: ArrayLike, *, points: int = 100, batches: int = 10) -> tuple[float, float]:
    """Mean of the last ``points`` records of ``values`` in the second half of ``time``, and
    its standard error from ``batches`` batch means (consecutive records are correlated).

    The science's :func:`gendyn.batch_means.late_average` (one copy).
    """
    return batch_means.late_average(time, values, points=points, batches=batches)


def batch_means_interval(batches: ArrayLike, level: float = 1e-3) -> tuple[float, float, float]:
    """Mean of batch means ``(runs, batches)`` and the half-width of its two-sided t-interval.

    Adjacent batch means of one run are slightly correlated; the standard error is widened
    by the batch-means factor ``sqrt((1 + rho) / (1 - rho))``, ``rho`` the pooled lag-1
    correlation within runs, clipped to ``[0, 0.8]``. Returns ``(mean, half_width, rho)``.
    """
    batches = _samples(batches, "batches")
    if batches.ndim != 2:
        raise ValueError(f"batches must be 2-D (runs, batch means of each run); got shape {batches.shape}")
    level = _checks.bounded(level, "level", 0.0, 1.0, open_lower=True, open_upper=True)
    x = batches.ravel()
    rho = float(np.clip(np.corrcoef(batches[:, :-1].ravel(), batches[:, 1:].ravel())[0, 1], 0.0, 0.8))
    se = x.std(ddof=1) / np.sqrt(x.size) * np.sqrt((1 + rho) / (1 - rho))
    return x.mean(), stats.t.ppf(1 - level / 2, x.size - 1) * se, rho


def ks_distance(samples: ArrayLike, cdf: Callable[[np.ndarray], ArrayLike]) -> float:
    """Kolmogorov-Smirnov distance between ``samples`` and the distribution function ``cdf``.

    ``cdf`` maps sorted sample values (an array) to probabilities, e.g.
    ``lambda x: rmt.mp_cdf(x, aspect)``.
    """
    x = np.sort(_checks.real_array(samples, "samples", ndim=1))
    if x.size == 0:
        raise ValueError("samples must hold at least one value")
    if not callable(cdf):
        raise ValueError(f"cdf must be a callable (array -> probabilities); got {type(cdf).__name__}")
    try:
        f = np.asarray(cdf(x), dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError(f"cdf must map the sorted samples to probabilities; it returned a non-number ({error})") \
            from None
    if f.shape != x.shape or not np.all((f >= 0) & (f <= 1)):
        raise ValueError(f"cdf must map the {x.size} sorted samples to as many probabilities in [0, 1]; got "
                         f"shape {f.shape}" + ("" if f.shape != x.shape else f", values from {np.nanmin(f):g} to "
                                               f"{np.nanmax(f):g}" + (" and NaN" if np.isnan(f).any() else "")))
    n = len(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


def dkw_bound(n: int, level: float = 1e-3) -> float:
    """Dvoretzky-Kiefer-Wolfowitz bound ``sqrt(ln(2 / level) / (2 n))`` on the KS distance of ``n`` samples.

    The Kolmogorov-Smirnov distance (:func:`ks_distance`) of ``n`` independent samples from their own
    distribution exceeds it with probability at most ``level`` (Massart's constant).
    """
    n = _checks.integer(n, "n", 1)
    level = _checks.bounded(level, "level", 0.0, 1.0, open_lower=True, open_upper=True)
    return float(np.sqrt(np.log(2 / level) / (2 * n)))


def fitted_exponent(sizes: ArrayLike, samples: Sequence[ArrayLike], offsets: ArrayLike | None = None, *,
                    n_boot: int = 400, rng: seeding.Rng = None, **former: object) -> tuple[float, float]:
    """Exponent ``b`` of ``|mean - offset| ~ size^b`` fitted in log-log, and its bootstrap standard error.

    ``samples[k]`` holds independent values measured at ``sizes[k]`` (one per run or data set);
    the fit goes through ``|mean(samples[k]) - offsets[k]|`` (``offsets`` default 0: the means
    themselves). The standard error resamples the values within each size ``n_boot`` times, drawing
    from ``rng`` (an int, a SeedSequence, a torch or numpy Generator, or None: fresh entropy; see
    :mod:`gendyn.seeding`; ``numpy.random.default_rng(rng)`` for an integer, so the same integer gives
    the same standard error; the former ``seed=`` keyword still works for one release).
    Returns ``(exponent, standard_error)``.
    """
    sizes = _checks.real_array(sizes, "sizes", lower=0.0, open_lower=True, ndim=1)
    if isinstance(samples, (str, bytes)) or not isinstance(samples, (Sequence, np.ndarray)) or \
            getattr(samples, "ndim", 2) < 2:
        raise ValueError(f"samples must be a sequence of sample arrays, one per size; got {_checks._show(samples)}")
    if sizes.size < 2 or len(samples) != sizes.size:
        raise ValueError(f"sizes must hold at least 2 values and samples one array per size; got {sizes.size} "
                         f"sizes and {len(samples)} sample arrays")
    samples = [_samples(v, f"samples[{k}]").astype(float) for k, v in enumerate(samples)]
    for k, v in enumerate(samples):
        if v.ndim != 1:
            raise ValueError(f"samples[{k}] must be 1-d (one value per run); got shape {v.shape}")
    offsets = np.zeros(sizes.size) if offsets is None else _checks.real_array(offsets, "offsets", ndim=1)
    if offsets.shape != sizes.shape:
        raise ValueError(f"offsets must have one value per size ({sizes.size}); got shape {offsets.shape}")
    n_boot = _checks.integer(n_boot, "n_boot", 2)
    rng = seeding.numpy_generator(seeding.former_rng(rng, former, "stats.fitted_exponent", alone=True))
    x = np.log(sizes)
    level = np.abs(np.array([v.mean() for v in samples]) - offsets)
    boot = np.abs(np.stack([v[rng.integers(0, v.size, (n_boot, v.size))].mean(-1) for v in samples])
                  - offsets[:, None])  # (size, draw)
    if np.any(level <= 0) or np.any(boot <= 0):
        raise ValueError("|mean - offset| is 0 at some size (or in a resample): no power law can be fitted")
    exponent = np.polyfit(x, np.log(level), 1)[0]
    return float(exponent), float(np.std(np.polyfit(x, np.log(boot), 1)[0], ddof=1))


def _estimates(means, se, name="means"):
    """Finite estimates and their positive standard errors, one each per entry, flattened."""
    means = _checks.real_array(means, name).ravel()
    se = _checks.real_array(se, "se", lower=0.0, open_lower=True).ravel()
    if means.size != se.size or means.size == 0:
        raise ValueError(f"{name} and se must hold one value each per estimate (at least one); got sizes "
                         f"{means.size} and {se.size}")
    return means, se


def weighted_mean_z(means: ArrayLike, se: ArrayLike) -> float:
    """z-statistic of the inverse-variance weighted mean of independent estimates.

    ``sum(m_i / se_i^2) / sqrt(sum(1 / se_i^2))``: the weighted mean ``sum(w_i m_i) / sum(w_i)``,
    ``w_i = 1 / se_i^2``, over its standard error ``1 / sqrt(sum(w_i))``; standard normal when every
    estimate has mean zero. ``means`` and ``se`` are flattened (one estimate per entry).
    """
    m, se = _estimates(means, se)
    return float((m / se**2).sum() / np.sqrt((1 / se**2).sum()))


def weighted_slope_z(x: ArrayLike, y: ArrayLike, se: ArrayLike) -> float:
    """Slope of a weighted linear fit ``y ~ a + b x`` over its standard error (weights ``1 / se^2``).

    Weighted least squares with the estimates' own standard errors: ``cov = (A^T W A)^-1``,
    ``(a, b) = cov A^T W y`` for ``A = [1, x]``; returns ``b / sqrt(cov[1, 1])``, standard normal when
    ``y`` has no trend. The standard error comes from ``se`` alone (not from the residuals), so two
    points, at different ``x``, are enough.
    """
    x = _checks.real_array(x, "x", ndim=1)
    y, se = _estimates(y, se, "y")
    if x.size != y.size or x.size < 2 or np.ptp(x) == 0:
        raise ValueError(f"x must hold one value per estimate, at least 2 and not all equal; got {x.size} "
                         f"values for {y.size} estimates")
    w = 1 / se**2
    A = np.c_[np.ones_like(x), x]
    cov = np.linalg.inv(A.T @ (w[:, None] * A))
    coef = cov @ A.T @ (w * y)
    return float(coef[1] / np.sqrt(cov[1, 1]))


def _paired_estimates(mean_a, se_a, mean_b, se_b):
    """Four equal-length 1-d arrays of finite values (standard errors >= 0)."""
    arrays = [_checks.real_array(v, name, ndim=1) for v, name in
              ((mean_a, "mean_a"), (se_a, "se_a"), (mean_b, "mean_b"), (se_b, "se_b"))]
    if len({a.size for a in arrays}) != 1:
        raise ValueError(f"mean_a, se_a, mean_b and se_b must have one value per cell each; got sizes "
                         f"{[a.size for a in arrays]}")
    if np.any(arrays[1] < 0) or np.any(arrays[3] < 0):
        raise ValueError("se_a and se_b must be standard errors (>= 0)")
    return arrays


def within_combined_se(mean_a: ArrayLike, se_a: ArrayLike, mean_b: ArrayLike, se_b: ArrayLike, z: float = 2.0
                       ) -> float:
    """Fraction of cells whose two estimates differ by at most ``z`` combined standard errors.

    Cell ``i`` agrees when ``|mean_a[i] - mean_b[i]| <= z * hypot(se_a[i], se_b[i])`` (two
    independent estimates of the same quantity); ``nan`` for no cells. Every value must be
    finite (a cell without a standard error has no place here).
    """
    ma, sa, mb, sb = _paired_estimates(mean_a, se_a, mean_b, se_b)
    z = _checks.positive(z, "z", " (standard errors)")
    return float(np.mean(np.abs(ma - mb) <= z * np.hypot(sa, sb))) if ma.size else float("nan")


def sign_agreement(mean_a: ArrayLike, se_a: ArrayLike, mean_b: ArrayLike, se_b: ArrayLike, z: float = 2.0
                   ) -> tuple[float, int]:
    """Same sign of two estimates where both are significant: ``(fraction, number of such cells)``.

    A cell counts when both means lie more than ``z`` of their standard errors from zero;
    the fraction is ``nan`` when no cell does. Every value must be finite.
    """
    ma, sa, mb, sb = _paired_estimates(mean_a, se_a, mean_b, se_b)
    z = _checks.positive(z, "z", " (standard errors)")
    both = (np.abs(ma) > z * sa) & (np.abs(mb) > z * sb)
    n = int(both.sum())
    return (float(np.mean(np.sign(ma[both]) == np.sign(mb[both]))) if n else float("nan")), n


def rank_correlation(x: ArrayLike, y: ArrayLike) -> float:
    """Spearman's rank correlation of ``x`` and ``y``; ``nan`` for fewer than 3 pairs."""
    x, y = _checks.real_array(x, "x", ndim=1), _checks.real_array(y, "y", ndim=1)
    if x.size != y.size:
        raise ValueError(f"x and y must have the same length; got {x.size} and {y.size}")
    return float(stats.spearmanr(x, y).statistic) if x.size > 2 else float("nan")


def spearman_critical(n: int, confidence: float = 0.99) -> float:
    """One-sided critical value of Spearman's rho for ``n`` pairs at ``confidence`` (default: the 1% test).

    The Student-t approximation: ``rho_c = t / sqrt(n - 2 + t^2)``, ``t`` the ``confidence`` quantile of
    Student's t at ``n - 2`` degrees of freedom; a rank correlation (:func:`rank_correlation`) above it
    is significant.
    """
    n = _checks.integer(n, "n", 3)
    confidence = _checks.bounded(confidence, "confidence", 0.5, 1.0, open_upper=True)
    t_crit = stats.t.ppf(confidence, n - 2)
    return t_crit / math.sqrt(n - 2 + t_crit**2)


__all__ += ["mean_and_margin"]


def mean_and_margin(values: ArrayLike, side: str, comparisons: int = 1, level: float = 0.01
                    ) -> tuple[float, float]:
    """Mean of ``values`` (1-D, one per independent run) and its one-sided Student-t margin (:func:`t_margin`)
    at family-wise ``level`` over ``comparisons`` (Bonferroni: the quantile ``1 - level / comparisons``).

    A value that is a bound which could not be read is infinite (e.g. :func:`gendyn.train.onset_log_ratio`): if
    any is, the result is the extreme value on ``side`` (the largest for ``"upper"``, the smallest for
    ``"lower"``) with a margin of 0, so that a claim on it cannot pass; NaN is refused.

    Returns
    -------
    (mean, margin) : tuple of float
    """
    x = _checks.real_array(values, "values", ndim=1, allow_inf=True)
    side = _checks.choice(side, "side", ("lower", "upper"))
    comparisons = _checks.integer(comparisons, "comparisons", 1)
    level = _checks.bounded(level, "level", 0.0, 0.5, open_lower=True)
    if not np.all(np.isfinite(x)):
        return float(x.max() if side == "upper" else x.min()), 0.0
    return float(x.mean()), t_margin(x, 1 - level / comparisons)


__all__ += ["difference_and_margin"]


def difference_and_margin(a: ArrayLike, b: ArrayLike, side: str, comparisons: int = 1, level: float = 0.01
                          ) -> tuple[float, float]:
    """Difference of the means of two independent samples, ``mean(a) - mean(b)``, and its one-sided Welch margin.

    ``a`` and ``b`` are 1-D, one value per independent run, at least 2 each. The margin is the
    ``1 - level / comparisons`` quantile of Student's t (Bonferroni over ``comparisons``) at the
    Welch-Satterthwaite degrees of freedom, times the combined standard error
    ``sqrt(var(a)/n_a + var(b)/n_b)``: the margin its stated level gives a difference, smaller than the sum of
    the two means' own margins (:func:`mean_and_margin`). A value that is a bound which could not be read is
    infinite: if any is, the result is the extreme difference on ``side`` (``max(a) - min(b)`` for
    ``"upper"``, ``min(a) - max(b)`` for ``"lower"``) with a margin of 0, so that a claim on it cannot pass;
    NaN is refused. Two samples without spread: margin 0.

    Returns
    -------
    (difference, margin) : tuple of float
    """
    a = _checks.real_array(a, "a", ndim=1, allow_inf=True)
    b = _checks.real_array(b, "b", ndim=1, allow_inf=True)
    for x, name in ((a, "a"), (b, "b")):
        if x.size < 2:
            raise ValueError(f"{name} must hold at least 2 values (one per independent run); got {x.size}")
    side = _checks.choice(side, "side", ("lower", "upper"))
    comparisons = _checks.integer(comparisons, "comparisons", 1)
    level = _checks.bounded(level, "level", 0.0, 0.5, open_lower=True)
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        return float(a.max() - b.min() if side == "upper" else a.min() - b.max()), 0.0
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    if va + vb == 0:
        return float(a.mean() - b.mean()), 0.0
    dof = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    return float(a.mean() - b.mean()), float(stats.t.ppf(1 - level / comparisons, dof) * math.sqrt(va + vb))
