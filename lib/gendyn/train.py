"""Batched full-batch gradient descent for deep linear (and leaky-ReLU) student networks.

Lampinen & Ganguli (2019): the students of §2.2 and §3.1 trained by eq. (8), deeper
students (App. A, Fig. 4), the alignment of randomly initialised students (App. B,
Fig. 9), students of lower rank (App. H), nonlinear students (§3.5, App. F) and two-headed
students for transfer (§4). Every student of a figure (SNRs x seeds x initialisations x
teacher ranks) trains as **one** tensor program: each weight is a tensor with a leading
batch dimension ``B`` and each step is a handful of batched matrix products. The only
Python loop is over epochs.

Architecture
------------
``n_layers = N_l`` counts the layers of *units*, input and output included (the paper's
and :mod:`gendyn.deep_linear`'s convention), so there are ``N_l - 1`` weight matrices:
``W^{21}`` (``N2 x N1``), ``N_l - 3`` middle ones (``N2 x N2``) and the last one
(``N3 x N2``). ``n_layers=3`` is one hidden layer (Fig. 3), ``n_layers=5`` three (Fig. 4).

Training
--------
The loss is ``L = 1/2 sum_mu ||yhat^mu - f(xhat^mu)||^2`` and one full-batch step per
epoch is ``W <- W - lr dL/dW`` for every weight matrix at once. For a linear student with
composite map ``W`` the gradient with respect to ``W`` is ``W Sigma11 - Sigma31``, so for
orthonormal inputs (``Sigma11 = I``, eq. 3) the data enter only through ``Sigma31``. For
small ``lr`` the steps follow eq. (8) with ``tau = 1/lr``; time is reported in units of
``tau`` as ``t/tau = epochs * lr``. The ``1/2`` is what makes eq. (8) the gradient flow and
eq. (9) its solution (the paper's text writes the loss without it; the authors' public
linear script uses exactly the update above, with ``W^{32}`` updated after ``W^{21}``
rather than simultaneously, a difference of order ``lr^2``). Their nonlinear scripts
minimised the sum of squares without the ``1/2``, so their learning rate ``lr'`` is
``lr = 2 lr'`` here.

Data
----
* ``sigma31`` of shape ``(B, N3, N1)``: orthonormal training inputs, ``P = N1`` (eq. 3),
  e.g. from :func:`gendyn.teachers.noisy_training_covariance`. Nonlinear students are
  trained on the one-hot inputs ``X = I`` with targets ``Y = Sigma31``.
* ``(inputs, targets)`` with ``inputs`` ``(B, N1, P)`` or shared ``(N1, P)`` and
  ``targets`` ``(B, N3, P)``: any ``P`` (App. G); then ``Sigma11 = X X^T``,
  ``Sigma31 = Y X^T``.

Errors (eqs. 4 and 5)
---------------------
* ``train_error = ||f(X) - Y||_F^2 / ||Y||_F^2``; for orthonormal inputs and a linear
  student this is ``||W - Sigma31||_F^2 / ||Sigma31||_F^2``.
* ``test_error`` against a teacher ``Wbar`` over Gaussian test inputs ``x ~ N(0, I)``: for a
  linear student exactly ``||W - Wbar||_F^2 / ||Wbar||_F^2``; for a nonlinear student
  (whose map is not a matrix) a Monte Carlo estimate
  ``sum_j ||f(x_j) - Wbar x_j||^2 / sum_j ||Wbar x_j||^2`` over ``n_test`` fixed Gaussian
  inputs drawn once from ``rng`` and shared by all networks. A nonlinear teacher
  (App. F) is given instead as ``Evaluation(test_data=(X_test, Y_test))``.
* With ``heads`` (two tasks sharing every layer but the last, §4) the output rows are split
  into heads and each error is also reported per head, normalised by that head's targets.

Initialisations
---------------
Both are balanced (:func:`init_weights`): every weight matrix has all its nonzero singular
values equal to ``eps^(1/(N_l-1))``, so the composite map has all its
``m = min(N1, N2, N3)`` singular values equal to ``eps``.

* ``"aligned"`` (training-aligned, TA, §3.1): composite ``W = eps Uhat Vhat^T`` with the top
  ``m`` singular vectors of ``Sigma31``; hidden units ``1..m`` carry the modes in order
  (``W^{21} = eps^(1/2) [Vhat^T; 0]``, ``W^{32} = eps^(1/2) [Uhat, 0]`` for one hidden
  layer), as in the authors' script.
* ``"random"``: composite ``W = eps U V^T`` with Haar-random ``U``, ``V`` and Haar-random
  hidden bases ``O_l`` (``N2 x m``): ``W^{21} = c O_1 V^T``, middle ``c O_l O_{l-1}^T``,
  last ``c U O^T``, ``c = eps^(1/(N_l-1))``. With ``N2 = m`` this has the law of the
  authors' ``sqrt(eps)`` times slices of random orthogonal matrices.

Speed
-----
A step of ``B`` networks of one hidden layer costs three batched products of
``N3 x N2 x N1`` (about ``3 B N1 N2 N3`` multiply-adds); deeper networks add
``3 (N_l - 1) - 6`` products of ``N2 x N2 x N2``. Gradient descent is stable only for
``lr`` below :func:`stability_limit`; with one hidden layer a larger ``lr`` over the same
horizon ``t/tau`` follows the gradient flow up to a delay of about ``lr ln(shat/eps) / 4``
in ``t/tau`` per mode (derived and tested in ``tests/test_train.py``). On a CPU the trainers split the batch
into one part per thread (``Execution.num_threads``, default torch's setting) and train each part on a thread of
its own, with torch's threading inside the products off: on a CPU shared with other jobs, torch's threads
inside such small products were measured several times *slower*, waiting for each other. The results do not
depend on the number of threads.

Two tasks (§4)
--------------
A two-headed student is an ordinary student whose output rows are the two heads stacked:
pass ``sigma31 = [Sigma31_A; Sigma31_B]`` (and the stacked teacher) with
``heads=(N3_A, N3_B)``. Every layer but the last is shared, the loss is the sum over
heads, and the errors are also reported per head. The TA initialisation uses the modes of
the stacked ``Sigma31`` (the composite task). The single-task baseline is the same call
with ``Sigma31_A`` alone. :func:`train_two_headed` trains named blocks of such students in one batch and
returns head A's optimal error of each (a :class:`TwoHeadedStudents`).
"""

from __future__ import annotations

import contextlib
import math
import numbers
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, _random, _threads, seeding

from .progress import track
from .teachers import LowRankTeacher, _noisy, _random_orthonormal, _top_singular_modes, low_rank_teacher
from . import task_data

__all__ = [
    "TrainResult",
    "INITS",
    "ACTIVATIONS",
    "log_epoch_grid",
    "stability_limit",
    "init_weights",
    "fan_average_weights",
    "composite_map",
    "train_students",
    "first_crossing",
    "empirical_optimal_stopping",
    "overfitting_onset",
    "TwoHeadedStudents",
    "train_two_headed",
    "SnrSweep",
    "snr_sweep",
    "ta_and_random",
    "paired_optimal_stopping",
    "relative_lag",
    "ModeDynamics", "ta_mode_dynamics",
]
__all__ += ["FullBatchSpec", "LeakyTransfer", "leaky_relu_transfer", "two_headed_fan_weights",
            "InitialisationComparison", "compare_initialisations"]

#: Initialisations understood by :func:`init_weights` and :func:`train_students`.
INITS = ("aligned", "random")
#: Activations of the hidden layers (``None`` is the same as ``"linear"``).
ACTIVATIONS = ("linear", "leaky_relu")
_DTYPES = (torch.float32, torch.float64)


@dataclass(frozen=True)
class TrainResult:
    """What :func:`train_students` recorded; arrays are numpy, batch axis first.

    Attributes
    ----------
    epochs : ndarray, shape (T,)
        Epochs (full-batch steps taken) at which the state was recorded.
    time : ndarray, shape (T,)
        The same in units of ``tau = 1/lr``: ``epochs * lr``.
    train_error : ndarray, shape (B, T)
        Normalised training error, eq. (4), on all outputs.
    test_error : ndarray, shape (B, T), or None
        Normalised test error, eq. (4)/(5); ``None`` without a teacher or test data, NaN
        for a network whose teacher is zero.
    head_train_error, head_test_error : ndarray, shape (B, H, T), or None
        The errors of each head (``heads`` given), each normalised by its own targets.
    svals : ndarray, shape (B, T, k), or None
        Top ``k = modes`` singular values of the composite map (linear students).
    alignment : ndarray, shape (B, T, k), or None
        ``|u_a . uhat_a| |v_a . vhat_a|``: overlap of the student's ``a``-th singular
        vectors with the ``a``-th of ``Sigma31`` (both sorted by singular value), App. B.
        Meaningless while the student's singular values are (nearly) degenerate, e.g. at
        ``t = 0`` where all equal ``eps``: the rank order of its modes is then arbitrary.
    mode_strength : ndarray, shape (B, T, k), or None
        ``uhat_a^T W vhat_a``: the composite map along the data's ``a``-th mode. It does
        not depend on how the student's own modes are ordered; for a TA student it is its
        singular value ``s_a(t)`` of eq. (9).
    data_svals : ndarray, shape (B, min(N1, N3))
        Singular values of ``Sigma31``, descending.
    weights : tuple of torch.Tensor
        The final weights, ``W^{21}`` first, on the training device.
    lr : float
        The learning rate.
    init : tuple of str
        The initialisation of each network (``"given"`` if ``weights`` were passed).
    """

    epochs: np.ndarray
    time: np.ndarray
    train_error: np.ndarray
    test_error: np.ndarray | None
    head_train_error: np.ndarray | None
    head_test_error: np.ndarray | None
    svals: np.ndarray | None
    alignment: np.ndarray | None
    mode_strength: np.ndarray | None
    data_svals: np.ndarray
    weights: tuple
    lr: float
    init: tuple


# ----------------------------------------------------------------------------------------
# argument checks
# ----------------------------------------------------------------------------------------


def _check_n_layers(n_layers):
    return _checks.integer(n_layers, "n_layers", 3,
                      " (layers of units incl. input and output: 3 = one hidden layer, i.e. "
                      "at least 2 weight matrices)")


def _check_dtype(dtype):
    return _checks.torch_dtype(dtype)


def _check_tensor(x, name, ndims):
    """A floating-point tensor with finite entries (NaN data would only show up as a diverged run)."""
    return _checks.tensor(x, name, ndims, finite=True)


def _check_sigma31(sigma31):
    _check_tensor(sigma31, "sigma31", (3,))
    if min(sigma31.shape) < 1:
        raise ValueError(f"sigma31 must have shape (B, N3, N1) with all sizes >= 1; got {tuple(sigma31.shape)}")
    return sigma31


def _check_inits(init, batch):
    if isinstance(init, str):
        inits = (init,) * batch
    else:
        try:
            inits = tuple(init)
        except TypeError:
            raise ValueError(f"init must be one of {INITS} or a sequence of them, one per network; "
                             f"got {init!r}") from None
        if len(inits) != batch:
            raise ValueError(f"init has {len(inits)} entries but there are {batch} networks; "
                             f"give one init per network or a single string")
    bad = sorted({repr(i)[:40] for i in inits if not (isinstance(i, str) and i in INITS)})
    if bad:
        raise ValueError(f"init must be one of {INITS}; got {', '.join(bad)}")
    return inits


def _eps_tensor(eps, batch, device):
    if isinstance(eps, torch.Tensor):
        if eps.dtype == torch.bool:
            raise ValueError("eps must be a number > 0 or one per network; got a boolean tensor")
        e = eps.detach().to(device=device, dtype=torch.float64).reshape(-1)
    elif isinstance(eps, numbers.Real) and not isinstance(eps, (bool, np.bool_)):
        e = torch.full((batch,), float(eps), dtype=torch.float64, device=device)
    else:  # a sequence: real numbers only (True is not 1 here)
        values = _checks.real_array(eps, "eps", lower=0.0, open_lower=True, extra=" (one, or one per network)")
        e = torch.as_tensor(values, device=device).reshape(-1)
    if e.numel() == 1:
        e = e.expand(batch)
    if e.numel() != batch:
        raise ValueError(f"eps must be one number or {batch} numbers (one per network); got {e.numel()}")
    if not bool(torch.all(torch.isfinite(e) & (e > 0))):
        raise ValueError(f"eps (the initial singular value) must be finite and > 0; got {eps!r}")
    return e


def _resolve_device(device, default):
    return default if device is None else _checks.torch_device(device)


def _check_heads(heads, n3):
    if heads is None:
        return None
    sizes = _checks.integers(heads, "heads", 1, meaning=f" (output sizes summing to N3={n3})")
    if sum(sizes) != n3:
        raise ValueError(f"heads must be output sizes summing to N3={n3} (the rows of sigma31 / targets); "
                         f"got {sizes} (sum {sum(sizes)})")
    return sizes


@contextlib.contextmanager
def _thread_limit(num_threads):
    """Run with ``num_threads`` CPU threads (``None``: unchanged), then restore."""
    if num_threads is None:
        yield
        return
    num_threads = _checks.integer(num_threads, "num_threads", 1)
    old = torch.get_num_threads()
    torch.set_num_threads(num_threads)
    try:
        yield
    finally:
        torch.set_num_threads(old)


#: Parts of a batch trained on threads of their own start at multiples of this many students: every matrix then sits
#: at the same alignment as in the whole batch (64 bytes), so each student's arithmetic is the same as in one part.
_PART_ALIGN = 16


def _batch_parts(batch, workers):
    """``batch`` students split into at most ``workers`` contiguous slices of whole multiples of :data:`_PART_ALIGN`
    (the last takes the rest), as even as that allows; one slice when there are too few students."""
    blocks = -(-batch // _PART_ALIGN)
    n = max(1, min(workers, blocks))
    cuts = [min(batch, _PART_ALIGN * (blocks * k // n)) for k in range(n + 1)]
    return [slice(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]


def _rows(t, rows):
    """Students ``rows`` of a batched tensor (three or more dimensions); a shared one (fewer) or None as it is."""
    return t if t is None or t.ndim < 3 else t[rows]


def _check_activation(activation, slope):
    """The activation's name (None is "linear") and the leaky ReLU's slope in [0, 1] (checked always)."""
    activation = "linear" if activation is None else _checks.choice(activation, "activation", (None,) + ACTIVATIONS)
    slope = _checks.bounded(slope, "slope (of the leaky ReLU)", 0.0, 1.0)
    return activation, slope


# ----------------------------------------------------------------------------------------
# public helpers
# ----------------------------------------------------------------------------------------


def _low_rank_teacher(svals, n1, n3, generator):
    """:func:`gendyn.teachers.low_rank_teacher` on a checked ``svals`` and torch generator (its draws, in its
    order: output singular vectors, then input ones)."""
    args = (tuple(svals.shape[:-1]), generator, svals.device, svals.dtype)
    return LowRankTeacher(_random_orthonormal(n3, svals.shape[-1], *args), svals,
                          _random_orthonormal(n1, svals.shape[-1], *args))


def log_epoch_grid(epochs: int, n_points: int = 100) -> np.ndarray:
    """Epoch 0 and about ``n_points - 1`` log-spaced epochs in ``[1, epochs]``.

    Parameters
    ----------
    epochs : int
        Last epoch (included), ``>= 1``.
    n_points : int
        Requested number of points, ``>= 2``; fewer are returned where rounding to
        integers merges neighbours at early epochs.

    Returns
    -------
    ndarray of int64
        Strictly increasing, starting at 0 and ending at ``epochs``.
    """
    epochs = _checks.integer(epochs, "epochs", 1)
    n_points = _checks.integer(n_points, "n_points", 2)
    points = np.geomspace(1, epochs, n_points - 1) if n_points > 2 else np.array([epochs])
    return np.concatenate([[0], np.unique(np.rint(points).astype(np.int64))]).astype(np.int64)


def stability_limit(sigma31: torch.Tensor, n_layers: int = 3, sigma11: torch.Tensor | None = None) -> torch.Tensor:
    """Largest stable learning rate of gradient descent for balanced linear students.

    At the minimum reached by a balanced network of ``k = N_l - 1`` weight matrices the
    top Hessian eigenvalue of the loss is ``k s^(2 - 2/k) lambda`` with ``s`` the top
    singular value of the converged map and ``lambda`` the top eigenvalue of ``Sigma11``;
    gradient descent is stable for ``lr < 2 / (k s^(2-2/k) lambda)``. This is exact for
    white inputs (``s = shat_1``, ``lambda = 1``; the curvature is largest at convergence
    along the trajectory from a small initialisation); for general inputs it uses
    ``s = ||Sigma31 Sigma11^+||_2``, an estimate.

    Parameters
    ----------
    sigma31 : torch.Tensor, shape (B, N3, N1)
    n_layers : int
        Layers of units ``N_l >= 3``.
    sigma11 : torch.Tensor, shape (B, N1, N1) or (N1, N1), optional
        Input covariance; ``None`` means the identity.

    Returns
    -------
    torch.Tensor, shape (B,), float64
    """
    _check_sigma31(sigma31)
    k = _check_n_layers(n_layers) - 1
    if sigma11 is not None:
        _check_tensor(sigma11, "sigma11", (2, 3))
        n1 = sigma31.shape[-1]
        if sigma11.shape[-2:] != (n1, n1) or (sigma11.ndim == 3 and sigma11.shape[0] != sigma31.shape[0]):
            raise ValueError(f"sigma11 must have shape (B, N1, N1) or (N1, N1) with B={sigma31.shape[0]}, N1={n1}; "
                             f"got {tuple(sigma11.shape)}")
    out = _stability_limit(sigma31, k, sigma11)
    if not bool(torch.isfinite(out).all()):
        raise ValueError("sigma31 or sigma11 is zero for some network: the loss has no curvature and no "
                         "learning rate is unstable")
    return out


def _stability_limit(sigma31, k, sigma11):
    """:func:`stability_limit` for checked arguments (``k = N_l - 1`` weight matrices)."""
    s31 = sigma31.detach().to(torch.float64)
    if sigma11 is None:
        s, lam = torch.linalg.matrix_norm(s31, ord=2), torch.ones(s31.shape[0], dtype=torch.float64,
                                                                 device=s31.device)
    else:
        s11 = sigma11.detach().to(device=s31.device, dtype=torch.float64)
        s = torch.linalg.matrix_norm(s31 @ torch.linalg.pinv(s11, hermitian=True), ord=2)
        lam = torch.linalg.eigvalsh(s11)[..., -1].expand(s31.shape[0])
    return 2.0 / (k * s.clamp_min(1e-300) ** (2.0 - 2.0 / k) * lam)


def _modes_of(sigma31):
    """Thin SVD of ``Sigma31`` in float64: ``(U (B,N3,r), s (B,r), V (B,N1,r))``."""
    u, s, vh = torch.linalg.svd(sigma31.detach().to(torch.float64), full_matrices=False)
    return u, s, vh.mT


def init_weights(sigma31: torch.Tensor, hidden: int, n_layers: int = 3, init: str | Sequence[str] = "aligned",
                 eps: ArrayLike = 1e-5, *, rng: seeding.Rng = None, dtype: torch.dtype = torch.float32,
                 num_threads: int | None = 1, **former: object) -> tuple[torch.Tensor, ...]:
    """Balanced initial weights whose composite map has all singular values ``eps``.

    Parameters
    ----------
    sigma31 : torch.Tensor, shape (B, N3, N1)
        Training input-output covariance (for the TA singular vectors and the shapes).
    hidden : int
        Hidden width ``N2``.
    n_layers : int
        Layers of units ``N_l >= 3`` (``N_l - 1`` weight matrices).
    init : str or sequence of str
        ``"aligned"`` (TA: composite ``eps Uhat Vhat^T`` with the top ``m`` modes of
        ``Sigma31``) or ``"random"`` (composite ``eps U V^T``, Haar-random ``U``, ``V``);
        one string for all networks or one per network. See the module docstring.
    eps : float or sequence of float
        Initial singular value of the composite map (one, or one per network).
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the Haar-random singular vectors of ``"random"`` (drawn for every network when any is
        random); ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    dtype : torch.dtype
        ``torch.float32`` or ``torch.float64``.
    num_threads : int or None
        CPU threads for the call (see :func:`train_students`; the batched QR and SVD are
        the slowest part under contention).

    Returns
    -------
    tuple of torch.Tensor
        ``N_l - 1`` weights ``(B, N2, N1), (B, N2, N2), ..., (B, N3, N2)`` on the device of
        ``sigma31``.
    """
    rng = seeding.former_rng(rng, former, "train.init_weights", alone=True)
    generator = seeding.torch_generator(rng)
    with _thread_limit(num_threads):
        return _init_weights(sigma31, hidden, n_layers, init, eps, generator, dtype)


def _init_weights(sigma31, hidden, n_layers, init, eps, generator, dtype):
    _check_sigma31(sigma31)
    hidden = _checks.integer(hidden, "hidden", 1, " (hidden width N2)")
    n_w = _check_n_layers(n_layers) - 1
    dtype = _check_dtype(dtype)
    batch, n3, n1 = sigma31.shape
    device = sigma31.device
    inits = _check_inits(init, batch)
    scale = _eps_tensor(eps, batch, device).pow(1.0 / n_w).view(batch, 1, 1)
    m = min(n1, hidden, n3)
    f64 = dict(device=device, dtype=torch.float64)

    def build(u, v, hidden_bases):
        ws = [hidden_bases[0] @ v.mT]
        ws += [hidden_bases[i] @ hidden_bases[i - 1].mT for i in range(1, n_w - 1)]
        ws.append(u @ hidden_bases[-1].mT)
        return [scale * w for w in ws]

    candidates = {}
    if "aligned" in inits:
        u, _, v = _modes_of(sigma31)
        eye = torch.eye(hidden, m, **f64).expand(batch, hidden, m)
        candidates["aligned"] = build(u[..., :m], v[..., :m], [eye] * (n_w - 1))
    if "random" in inits:
        args = ((batch,), generator, device, torch.float64)
        u = _random_orthonormal(n3, m, *args)
        v = _random_orthonormal(n1, m, *args)
        bases = [_random_orthonormal(hidden, m, *args) for _ in range(n_w - 1)]
        candidates["random"] = build(u, v, bases)
    if len(candidates) == 1:
        ws = next(iter(candidates.values()))
    else:
        pick = torch.tensor([i == "random" for i in inits], device=device).view(batch, 1, 1)
        ws = [torch.where(pick, r, a) for r, a in zip(candidates["random"], candidates["aligned"])]
    return tuple(w.to(dtype).contiguous() for w in ws)


def fan_average_weights(batch: int, sizes: Sequence[int], factor: float, *, rng: seeding.Rng = None,
                        dtype: torch.dtype = torch.float32,
                        device: str | torch.device = "cpu", **former: object) -> tuple[torch.Tensor, ...]:
    """Independent Gaussian initial weights of variance ``factor / fan_avg``, truncated at 2 SD.

    The initialisation of the authors' TensorFlow scripts for nonlinear networks
    (``variance_scaling_initializer(factor, mode='FAN_AVG')``), as an alternative to the balanced
    :func:`init_weights`: each layer ``W^{l+1,l}`` has i.i.d. entries from a normal law
    truncated at two standard deviations and rescaled to variance
    ``factor / ((N_l + N_{l+1}) / 2)``. (TensorFlow rescales by ``sqrt(1.3)``, which leaves the
    variance 0.6% higher.)

    Parameters
    ----------
    batch : int
        Number of networks.
    sizes : sequence of int
        Layer sizes ``N1, N2, ..., N_{N_l}`` (inputs first).
    factor : float
        Variance scale (``> 0``); the authors passed ``sqrt(1e-4) = 0.01``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the weights, layer by layer; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    dtype, device
        Of the returned weights.

    Returns
    -------
    tuple of torch.Tensor
        ``(B, N2, N1), (B, N3, N2), ...``, ready for ``train_students(..., start=Start(weights=...))``.
    """
    rng = seeding.former_rng(rng, former, "train.fan_average_weights", alone=True)
    batch = _checks.integer(batch, "batch", 1, " (number of networks)")
    sizes = _checks.integers(sizes, "sizes", meaning=" (layer sizes, inputs first)")
    if len(sizes) < 2:
        raise ValueError(f"sizes must list at least two layers (inputs and outputs); got {list(sizes)}")
    factor = _checks.positive(factor, "factor")
    dtype = _check_dtype(dtype)
    device = _checks.torch_device(device)
    generator = seeding.torch_generator(rng)
    normal = torch.distributions.Normal(0.0, 1.0)
    lo = float(normal.cdf(torch.tensor(-2.0)))
    unit_sd = math.sqrt(1.0 - 4.0 * math.exp(-2.0) / math.sqrt(2.0 * math.pi) / (1.0 - 2.0 * lo))
    weights = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        u = _random.rand(batch, n_out, n_in, generator=generator, device=device)
        z = torch.special.ndtri(lo + (1.0 - 2.0 * lo) * u) / unit_sd  # truncated at +-2, unit variance
        weights.append((z * math.sqrt(factor / ((n_in + n_out) / 2.0))).to(dtype).contiguous())
    return tuple(weights)


def composite_map(weights: Sequence[torch.Tensor]) -> torch.Tensor:
    """The composite map ``W = W^{N_l, N_l-1} ... W^{21}`` of linear students, ``(B, N3, N1)``.

    ``weights`` is a sequence of floating-point tensors ``(B, n_out, n_in)``, ``W^{21}`` first
    (e.g. :attr:`TrainResult.weights`), each taking the previous one's outputs.
    """
    if isinstance(weights, torch.Tensor) or not isinstance(weights, (tuple, list)) or not weights:
        raise ValueError(f"weights must be a non-empty sequence of torch tensors (B, n_out, n_in), W21 first; "
                         f"got {type(weights).__name__}")
    for i, w in enumerate(weights):
        _checks.tensor(w, f"weights[{i}]", (3,))
        if i and (w.shape[0] != weights[0].shape[0] or w.shape[-1] != weights[i - 1].shape[-2]):
            raise ValueError(f"weights[{i}] of shape {tuple(w.shape)} does not take the outputs of weights[{i - 1}] "
                             f"of shape {tuple(weights[i - 1].shape)}")
    out = weights[0]
    for w in weights[1:]:
        out = w @ out
    return out


# ----------------------------------------------------------------------------------------
# training
# ----------------------------------------------------------------------------------------


def _leaky(a, slope):
    return torch.nn.functional.leaky_relu(a, slope)


def _leaky_backward(grad, a, slope):
    """``grad`` times the leaky ReLU's derivative at ``a``: one fused pass, bit-identical to the product with
    ``where(a > 0, 1, slope)`` (which builds two constant tensors and a mask: 7x slower on a step's tensors)."""
    return torch.ops.aten.leaky_relu_backward(grad, a, slope, False)


def _forward(ws, x, activation, slope, output_activation):
    """Outputs of the students on inputs ``x`` (``None``: the identity / one-hot inputs)."""
    cur = ws[0] if x is None else ws[0] @ x
    for w in ws[1:]:
        if activation == "leaky_relu":
            cur = _leaky(cur, slope)
        cur = w @ cur
    if activation == "leaky_relu" and output_activation:
        cur = _leaky(cur, slope)
    return cur


def _row_sq_norms(r, heads, scratch=False):
    """Squared Frobenius norms ``(B,)`` and per head ``(B, H)`` (or None) of ``r``.

    ``scratch``: ``r`` is a temporary nobody reads afterwards, squared in place (the same values, one
    allocation and one pass over memory fewer: a record of a batch of students makes two of these).
    """
    rows = (r.square_() if scratch else r.square()).sum(-1)  # (B, N3)
    total = rows.sum(-1)
    if heads is None:
        return total, None
    return total, torch.stack([part.sum(-1) for part in rows.split(heads, dim=-1)], dim=-1)


def _check_weights(weights, shapes, device, dtype):
    try:
        ws = tuple(weights)
    except TypeError:
        raise ValueError("weights must be a sequence of torch tensors, W21 first") from None
    if len(ws) != len(shapes):
        raise ValueError(f"weights must hold {len(shapes)} matrices for these n_layers; got {len(ws)}")
    out = []
    for i, (w, shape) in enumerate(zip(ws, shapes)):
        if not isinstance(w, torch.Tensor) or tuple(w.shape) != shape:
            got = tuple(w.shape) if isinstance(w, torch.Tensor) else type(w).__name__
            raise ValueError(f"weights[{i}] must have shape {shape}; got {got}")
        _check_tensor(w, f"weights[{i}]", (3,))
        out.append(w.detach().to(device=device, dtype=dtype).clone().contiguous())
    return out


def train_students(data: torch.Tensor | tuple[torch.Tensor, torch.Tensor], architecture: Architecture | None = None,
                   schedule: Schedule | None = None, *, start: Start | None = None,
                   evaluation: Evaluation | None = None, execution: Execution | None = None,
                   rng: seeding.Rng = None, **flat: object) -> TrainResult:
    """Train a batch of students by full-batch gradient descent, eq. (8).

    ``train_students(sigma31, Architecture(hidden=4), Schedule(lr=0.05, epochs=400),
    evaluation=Evaluation(teacher=wbar))``.

    Parameters
    ----------
    data : torch.Tensor or tuple of torch.Tensor
        Either ``sigma31`` of shape ``(B, N3, N1)`` (orthonormal inputs, ``P = N1``), or
        ``(inputs, targets)`` with ``inputs`` ``(B, N1, P)`` or ``(N1, P)`` and
        ``targets`` ``(B, N3, P)``. ``B`` is the number of networks.
    architecture : Architecture
        Hidden width, layers, activation and heads of the students (required).
    schedule : Schedule, optional
        Learning rate, epochs, records and the stability check; ``None``: ``Schedule()``.
    start : Start, optional
        Initialisation (``"aligned"`` or ``"random"`` and ``eps``) or given initial weights;
        ``None``: ``Start()``, TA students of ``eps = 1e-5``.
    evaluation : Evaluation, optional
        The teacher or test data of the test error and the singular modes to record; ``None``:
        ``Evaluation()``, the training error alone.
    execution : Execution, optional
        Precision, device, CPU threads and the progress bar's label; ``None``: ``Execution()``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the random initialisation, then of the Gaussian test inputs (one generator, in that
        order); an integer gives identical results run to run on the CPU; ``None``: fresh entropy (see
        :mod:`gendyn.seeding`).
    **flat
        Deprecated: the fields of the specs as keywords, ``train_students(data, hidden=4, lr=0.05,
        ...)`` (:func:`train_specs`), accepted for one more release with a ``DeprecationWarning``;
        the results are identical.

    Returns
    -------
    TrainResult

    Raises
    ------
    ValueError
        For a bad argument; the message names it and what is allowed.
    FloatingPointError
        If training diverges (a non-finite training error at a recorded epoch).
    """
    rng = seeding.former_rng(rng, flat, "train.train_students")
    if flat:
        specs = dict(architecture=architecture, schedule=schedule, start=start, evaluation=evaluation,
                     execution=execution)
        if any(v is not None for v in specs.values()):
            raise ValueError(f"pass the students either as specs (architecture, schedule, start, evaluation, "
                             f"execution) or as flat keywords (deprecated), not both; got the keywords {sorted(flat)}")
        warnings.warn("train_students(data, hidden=..., lr=..., ...) with flat keywords is deprecated and will be "
                      "removed in the next release: pass specs, train_students(data, Architecture(hidden=...), "
                      "Schedule(lr=..., epochs=...), start=Start(...), evaluation=Evaluation(...), "
                      "execution=Execution(...)), or train_students(data, **train_specs(...))",
                      DeprecationWarning, stacklevel=2)
        return train_students(data, rng=rng, **train_specs(**flat))
    architecture = _checks.instance(architecture, "architecture", Architecture, hint=" (hidden width, layers, ...)")
    schedule = Schedule() if schedule is None else _checks.instance(schedule, "schedule", Schedule)
    start = Start() if start is None else _checks.instance(start, "start", Start)
    evaluation = Evaluation() if evaluation is None else _checks.instance(evaluation, "evaluation", Evaluation)
    execution = Execution() if execution is None else _checks.instance(execution, "execution", Execution)
    a, s, st, ev, ex = architecture, schedule, start, evaluation, execution
    workers = torch.get_num_threads() if ex.num_threads is None else ex.num_threads
    with _thread_limit(1):  # each part of the batch on one thread of its own (Execution)
        return _train_students(
            data, hidden=a.hidden, n_layers=a.n_layers, lr=s.lr, epochs=s.epochs, init=st.init, eps=st.eps,
            teacher=ev.teacher, test_data=ev.test_data, n_test=ev.n_test, activation=a.activation, slope=a.slope,
            output_activation=a.output_activation, heads=a.heads, record_at=s.record_at, n_records=s.n_records,
            modes=ev.modes, weights=st.weights, dtype=ex.dtype, device=ex.device,
            generator=seeding.torch_generator(rng), check_stability=s.check_stability, desc=ex.desc, workers=workers)


def _train_students(data, *, hidden, n_layers, lr, epochs, init, eps, teacher, test_data, n_test, activation,
                    slope, output_activation, heads, record_at, n_records, modes, weights, dtype, device,
                    generator, check_stability, desc, workers):
    """The body of :func:`train_students` (run on one torch thread; ``workers`` threads train parts of the batch)."""
    # --- data --------------------------------------------------------------------------
    if isinstance(data, torch.Tensor):
        _check_sigma31(data)
        x, y = None, data
        sigma31, sigma11 = data, None
    elif isinstance(data, (tuple, list)) and len(data) == 2:
        x, y = data
        _check_tensor(x, "inputs", (2, 3))
        _check_tensor(y, "targets", (3,))
        if x.shape[-1] != y.shape[-1] or (x.ndim == 3 and x.shape[0] != y.shape[0]):
            raise ValueError(f"inputs (B, N1, P) or (N1, P) and targets (B, N3, P) must agree in B and P; "
                             f"got {tuple(x.shape)} and {tuple(y.shape)}")
        sigma31, sigma11 = None, None
    else:
        raise ValueError("data must be sigma31 (a tensor of shape (B, N3, N1)) or a pair (inputs, targets)")
    device = _resolve_device(device, y.device)
    dtype = _check_dtype(dtype)
    y = y.detach().to(device=device, dtype=dtype)
    if x is not None:
        x = x.detach().to(device=device, dtype=dtype)
        sigma31 = y @ x.mT
        sigma11 = x @ x.mT
    else:
        sigma31 = y
    batch, n3, n1 = sigma31.shape

    # --- other arguments ---------------------------------------------------------------
    hidden = _checks.integer(hidden, "hidden", 1, " (hidden width N2)")
    n_w = _check_n_layers(n_layers) - 1
    lr = _checks.positive(lr, "lr", " (the learning rate)")
    epochs = _checks.integer(epochs, "epochs", 1)
    activation, slope = _check_activation(activation, slope)
    linear = activation == "linear"
    output_activation = _checks.flag(output_activation, "output_activation")
    check_stability = _checks.flag(check_stability, "check_stability")
    n_test = _checks.integer(n_test, "n_test", 1)
    desc = _checks.text(desc, "desc", optional=True)
    heads = _check_heads(heads, n3)
    modes = _checks.integer(modes, "modes", 0)
    m = min(n1, hidden, n3)
    if modes > m:
        raise ValueError(f"modes must lie in [0, min(N1, N2, N3)] = [0, {m}]; got {modes}")
    if modes and not linear:
        raise ValueError("modes (singular modes of the composite map) need a linear student; "
                         f"got activation={activation!r}")
    if record_at is None:
        grid = log_epoch_grid(epochs, _checks.integer(n_records, "n_records", 2))
    else:
        grid = np.asarray(_checks.integers(record_at, "record_at", 0, meaning=f" (epochs in [0, {epochs}])"))
        if grid.max() > epochs:
            raise ValueError(f"record_at must be a non-empty sequence of integer epochs in [0, {epochs}]; "
                             f"got {record_at!r}")
        grid = np.unique(grid).astype(np.int64)

    # --- test data ---------------------------------------------------------------------
    if test_data is not None and not (isinstance(test_data, (tuple, list)) and len(test_data) == 2):
        raise ValueError(f"test_data must be None or a pair (X_test, Y_test); got {type(test_data).__name__}")
    if teacher is not None and test_data is not None:
        raise ValueError("give at most one of teacher and test_data")
    wbar = x_test = y_test = None
    if teacher is not None:
        wbar = teacher.matrix if isinstance(teacher, LowRankTeacher) else teacher
        _check_tensor(wbar, "teacher", (3,))
        if tuple(wbar.shape) != (batch, n3, n1):
            raise ValueError(f"teacher must have the shape of sigma31 {(batch, n3, n1)}; "
                             f"got {tuple(wbar.shape)}")
        wbar = wbar.detach().to(device=device, dtype=dtype)
    elif test_data is not None:
        x_test, y_test = test_data
        _check_tensor(x_test, "X_test", (2, 3))
        _check_tensor(y_test, "Y_test", (3,))
        if (x_test.shape[-2] != n1 or tuple(y_test.shape[:2]) != (batch, n3)
                or x_test.shape[-1] != y_test.shape[-1] or (x_test.ndim == 3 and x_test.shape[0] != batch)):
            raise ValueError(f"test_data must be X_test (B, N1, M) or (N1, M) and Y_test (B, N3, M) with "
                             f"B={batch}, N1={n1}, N3={n3}; got {tuple(x_test.shape)} and {tuple(y_test.shape)}")
        x_test = x_test.detach().to(device=device, dtype=dtype)
        y_test = y_test.detach().to(device=device, dtype=dtype)

    # --- stability ---------------------------------------------------------------------
    if linear and check_stability:
        limit = float(_stability_limit(sigma31, n_w, sigma11).min())
        if lr >= limit:
            raise ValueError(f"lr={lr:g} is at or above the gradient-descent stability limit of this data; "
                             f"allowed: 0 < lr < {limit:.4g} = min over networks of "
                             f"2 / ((N_l-1) shat_1^(2-2/(N_l-1))) (see stability_limit; "
                             f"check_stability=False skips this check)")

    # --- initial weights ---------------------------------------------------------------
    shapes = [(batch, hidden, n1)] + [(batch, hidden, hidden)] * (n_w - 2) + [(batch, n3, hidden)]
    n_weights = float(sum(math.prod(sh) for sh in shapes))
    _checks.work_limit(6.0 * epochs * n_weights * max(n1, n3, hidden), f"epochs={epochs} with {batch} networks of "
                       f"{n_weights / batch:.0f} weights (hidden={hidden}, n_layers={n_w + 1})",
                       memory=8.0 * 4 * n_weights, iterations=epochs)
    if weights is not None:
        ws = _check_weights(weights, shapes, device, dtype)
        inits = ("given",) * batch
    else:
        inits = _check_inits(init, batch)
        ws = list(_init_weights(sigma31, hidden, n_w + 1, inits, eps, generator, dtype))

    if wbar is not None and not linear:
        x_test = _random.randn(n1, n_test, generator=generator, device=device, dtype=dtype)
        y_test = wbar @ x_test

    data_u, data_s, data_v = _modes_of(sigma31)
    if modes:
        data_u, data_v = data_u[..., :modes], data_v[..., :modes]

    # --- records -----------------------------------------------------------------------
    n_rec = len(grid)
    rec = dict(train=torch.empty(batch, n_rec, dtype=torch.float64, device=device))
    y_norm, y_norm_heads = _row_sq_norms(y.to(torch.float64), heads)
    if not bool((y_norm > 0).all()):
        bad = torch.nonzero(y_norm <= 0).flatten().tolist()
        raise ValueError(f"the training targets of network(s) {bad[:5]} are all zero: the train error "
                         f"(normalised by ||Y||^2, eq. 4) is undefined")
    if heads:
        rec["head_train"] = torch.empty(batch, len(heads), n_rec, dtype=torch.float64, device=device)
    have_test = wbar is not None or y_test is not None
    if have_test:
        rec["test"] = torch.empty(batch, n_rec, dtype=torch.float64, device=device)
        t_norm, t_norm_heads = _row_sq_norms((wbar if y_test is None else y_test).to(torch.float64), heads)
        # a zero teacher (sbar = 0) has no normalised test error: NaN, not a division by zero
        t_norm = torch.where(t_norm > 0, t_norm, torch.nan)
        if heads:
            t_norm_heads = torch.where(t_norm_heads > 0, t_norm_heads, torch.nan)
        if heads:
            rec["head_test"] = torch.empty(batch, len(heads), n_rec, dtype=torch.float64, device=device)
    if modes:
        for key in ("svals", "alignment", "strength"):
            rec[key] = torch.empty(batch, n_rec, modes, dtype=torch.float64, device=device)

    def record(rows, ws_rows, j, epoch, train_residual, w_composite):
        """Record epoch ``epoch`` (record ``j``) of the students ``rows`` (a slice), whose weights are ``ws_rows``."""
        # the residuals are the step's temporaries (the fused update has used them already): scratch
        total, per_head = _row_sq_norms(train_residual.to(torch.float64), heads, scratch=True)
        rec["train"][rows, j] = total / y_norm[rows]
        if not bool(torch.isfinite(rec["train"][rows, j]).all()):
            raise FloatingPointError(f"gradient descent diverged by epoch {epoch} (lr={lr:g}); "
                                     f"use a smaller lr")
        if heads:
            rec["head_train"][rows, :, j] = per_head / y_norm_heads[rows]
        if have_test:
            if y_test is None:  # linear student, exact Gaussian average
                resid = w_composite - wbar[rows]
            else:
                resid = _forward(ws_rows, _rows(x_test, rows), activation, slope, output_activation) - y_test[rows]
            total, per_head = _row_sq_norms(resid.to(torch.float64), heads, scratch=True)
            rec["test"][rows, j] = total / t_norm[rows]
            if heads:
                rec["head_test"][rows, :, j] = per_head / t_norm_heads[rows]
        if modes:
            w64 = w_composite.to(torch.float64)
            if n3 <= n1:
                s, u, v = _top_singular_modes(w64, modes)
            else:
                s, v, u = _top_singular_modes(w64.mT, modes)
            rec["svals"][rows, j] = s[..., :modes]
            du, dv = data_u[rows], data_v[rows]
            rec["alignment"][rows, j] = (u * du).sum(-2).abs() * (v * dv).sum(-2).abs()
            rec["strength"][rows, j] = (du * (w64 @ dv)).sum(-2)

    # --- the loop ----------------------------------------------------------------------
    step = _linear_step if linear else _nonlinear_step

    # a linear student's record reads only the residual and the composite map of the forward pass, which the
    # update leaves alone: one step computes both (the same arithmetic as a forward pass, then a step)
    fused = linear and y_test is None

    def train_rows(rows, show):
        """Every epoch of the students ``rows`` (a slice of the batch); their weights are views of ``ws``, updated
        in place. ``show``: this part draws the progress bar."""
        ws_rows = [w[rows] for w in ws]
        kwargs = dict(sigma31=sigma31[rows], sigma11=_rows(sigma11, rows), x=_rows(x, rows), y=y[rows],
                      slope=slope, output_activation=output_activation)
        j = 0
        with torch.no_grad():
            for epoch in track(range(epochs + 1), desc=desc) if show else range(epochs + 1):
                if j < n_rec and epoch == grid[j]:
                    if fused:  # one pass: the residual and map before the update, then the update (in place)
                        residual, w_composite = step(ws_rows, lr, epoch < epochs, True, **kwargs)
                        record(rows, ws_rows, j, epoch, residual, w_composite)
                        j += 1
                        continue
                    # a record that reads the weights (test inputs): forward pass only, then record
                    residual, w_composite = step(ws_rows, lr, False, True, **kwargs)
                    record(rows, ws_rows, j, epoch, residual, w_composite)
                    j += 1
                if epoch < epochs:
                    step(ws_rows, lr, True, False, **kwargs)

    parts = _batch_parts(batch, workers if device.type == "cpu" else 1)
    # one thread per part: torch's operations release the GIL, so the parts train at once
    _threads.each(lambda k: train_rows(parts[k], k == 0), range(len(parts)), len(parts))

    out = {k: v.cpu().numpy() for k, v in rec.items()}
    epochs_rec = grid
    return TrainResult(
        epochs=epochs_rec,
        time=epochs_rec * lr,
        train_error=out["train"],
        test_error=out.get("test"),
        head_train_error=out.get("head_train"),
        head_test_error=out.get("head_test"),
        svals=out.get("svals"),
        alignment=out.get("alignment"),
        mode_strength=out.get("strength"),
        data_svals=data_s.cpu().numpy(),
        weights=tuple(ws),
        lr=lr,
        init=tuple(inits),
    )


def _linear_step(ws, lr, do_update, want_residual, *, sigma31, sigma11, x, y, **_):
    """One gradient step of linear students, in place; returns (train residual, W).

    With ``k`` weights, prefix products ``Q_i = W_i ... W_2`` (``N2 x N2``), the top map
    ``M = W_k Q_{k-1}``, the error ``E = M W_1 Sigma11 - Sigma31`` and ``F = E W_1^T``
    (``N3 x N2``), the gradients are ``G_1 = M^T E`` and ``G_i = T_i Q_{i-1}^T`` with
    ``T_{k} = F``, ``T_{i} = W_{i+1}^T T_{i+1}``: three ``N3 x N2 x N1`` products per step
    and ``3k - 6`` of size ``N2^3``.
    """
    k = len(ws)
    prefix = [None] * (k - 1)  # prefix[i] = ws[i] @ ... @ ws[1]
    if k >= 3:
        prefix[1] = ws[1]
        for i in range(2, k - 1):
            prefix[i] = ws[i] @ prefix[i - 1]
        top = ws[k - 1] @ prefix[k - 2]
    else:
        top = ws[1]
    w = top @ ws[0]
    err = w - sigma31 if sigma11 is None else w @ sigma11 - sigma31
    residual = None
    if want_residual:
        residual = err if x is None else w @ x - y
    if do_update:
        t = err @ ws[0].mT  # F
        grads = [None] * k
        for i in range(k - 1, 0, -1):
            grads[i] = t if i == 1 else t @ prefix[i - 1].mT
            if i > 1:
                t = ws[i].mT @ t
        ws[0].baddbmm_(top.mT, err, alpha=-lr)
        for i in range(1, k):
            ws[i].sub_(grads[i], alpha=lr)
    return residual, w


def _nonlinear_step(ws, lr, do_update, want_residual, *, x, y, slope, output_activation, **_):
    """One gradient step of leaky-ReLU students (backpropagation by hand), in place."""
    k = len(ws)
    acts = [x]  # inputs of each weight matrix
    pres = []  # pre-activations of the hidden layers
    cur = ws[0] if x is None else ws[0] @ x
    for i in range(1, k):
        pres.append(cur)
        acts.append(_leaky(cur, slope))
        cur = ws[i] @ acts[-1]
    out = _leaky(cur, slope) if output_activation else cur
    residual = out - y
    if do_update:
        delta = _leaky_backward(residual, cur, slope) if output_activation else residual
        grads = [None] * k
        for i in range(k - 1, -1, -1):
            grads[i] = delta if acts[i] is None else delta @ acts[i].mT
            if i > 0:
                delta = _leaky_backward(ws[i].mT @ delta, pres[i - 1], slope)
        for w, g in zip(ws, grads):
            w.sub_(g, alpha=lr)
    return residual, None


# ----------------------------------------------------------------------------------------
# reading recorded curves
# ----------------------------------------------------------------------------------------


def _check_curves(time, values, name, positive=False):
    """Increasing finite record times ``(T,)`` (``>= 0``) and finite curves ``(..., T)`` (``> 0`` if asked)."""
    time = _checks.real_array(time, "time", lower=0.0, ndim=1)
    if time.size < 1 or np.any(np.diff(time) <= 0):
        raise ValueError(f"time must be a non-empty increasing 1-d array; got {time.tolist()[:5]}...")
    values = _checks.real_array(values, name, lower=0.0 if positive else None, open_lower=positive)
    if values.shape[-1:] != time.shape:
        raise ValueError(f"{name} must have shape (..., T) with T = len(time) = {time.size}; got shape {values.shape}")
    return time, values


def first_crossing(time: ArrayLike, values: ArrayLike, level: ArrayLike, direction: str = "up") -> np.ndarray:
    """First time at which recorded curves cross ``level``, by linear interpolation.

    Parameters
    ----------
    time : array_like, shape (T,)
        Increasing record times ``>= 0`` (e.g. :attr:`TrainResult.time`).
    values : array_like, shape (..., T)
        Curves sampled at ``time`` (finite).
    level : float or array_like broadcasting against ``values[..., 0]``
        The level to cross (finite).
    direction : "up" or "down"
        Crossing from below (``values >= level``) or from above (``values <= level``).

    Returns
    -------
    ndarray, shape (...)
        The interpolated crossing time between the last record before and the first
        record at or past the level; the first record time if the curve starts past the
        level; NaN where the curve never gets there.
    """
    direction = _checks.choice(direction, "direction", ("up", "down"))
    time, values = _check_curves(time, values, "values")
    level = _checks.real_array(level, "level")
    try:
        level = np.broadcast_to(level, values.shape[:-1])[..., None]
    except ValueError:
        raise ValueError(f"level must broadcast against values[..., 0] of shape {values.shape[:-1]}; "
                         f"got shape {level.shape}") from None
    sign = 1.0 if direction == "up" else -1.0
    past = sign * (values - level) >= 0
    hit = past.any(-1)
    j = np.argmax(past, axis=-1)
    jm = np.maximum(j - 1, 0)
    v0 = np.take_along_axis(values, jm[..., None], -1)[..., 0]
    v1 = np.take_along_axis(values, j[..., None], -1)[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(v1 != v0, (level[..., 0] - v0) / (v1 - v0), 1.0)
    out = time[jm] + np.clip(frac, 0.0, 1.0) * (time[j] - time[jm])
    out = np.where(j == 0, time[0], out)
    return np.where(hit, out, np.nan)


def overfitting_onset(time: ArrayLike, test_error: ArrayLike, factor: float = 2.0) -> np.ndarray:
    """When overfitting has set in: the first time after its minimum that a test-error curve
    has risen to ``factor`` times that minimum.

    The time *of* the minimum says little about how fast a network overfits: a flat minimum
    (a long plateau) puts it anywhere on the plateau. The time to reach a fixed multiple of
    the minimum measures the onset of the rise itself (Lampinen & Ganguli's "begin to overfit").

    Parameters
    ----------
    time : array_like, shape (T,)
        Increasing record times ``>= 0`` (e.g. :attr:`TrainResult.time`).
    test_error : array_like, shape (..., T)
        Positive (finite) test-error curves.
    factor : float
        The rise that counts as overfitting, ``> 1`` (default 2: the error has doubled).

    Returns
    -------
    ndarray, shape (...)
        The crossing time, interpolated linearly between records (:func:`first_crossing`);
        NaN where a curve stays below ``factor`` times its minimum up to its last record (the
        onset is then later than ``time[-1]``).
    """
    time, err = _check_curves(time, test_error, "test_error", positive=True)
    factor = _checks.bounded(factor, "factor", 1.0, open_lower=True)
    i = err.argmin(-1)
    e_min = np.take_along_axis(err, i[..., None], -1)[..., 0]
    after = np.arange(time.size) >= i[..., None]
    # before its minimum a curve may sit above factor x min (it is still learning): only a rise
    # after the minimum counts, so the earlier records are set below every level
    return first_crossing(time, np.where(after, err, 0.0), factor * e_min)


def empirical_optimal_stopping(time: ArrayLike, test_error: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Optimal early-stopping time and minimal test error read off recorded curves.

    The minimum over the records; its time is refined by the vertex of the parabola
    through the three records around it in ``(log t, log error)`` (kept between the two
    neighbours), so the time is not limited to the spacing of a log grid. At the first or
    last record the record's own time is returned.

    Parameters
    ----------
    time : array_like, shape (T,)
        Increasing record times ``>= 0`` (``time[0]`` may be 0).
    test_error : array_like, shape (..., T)
        Positive (finite) test-error curves.

    Returns
    -------
    t_opt, e_min : ndarray, shape (...)
    """
    time, err = _check_curves(time, test_error, "test_error", positive=True)
    shape = err.shape[:-1]
    err = err.reshape(-1, time.size)
    i = np.argmin(err, axis=-1)
    rows = np.arange(err.shape[0])
    e_min = err[rows, i]
    t_opt = time[i].astype(float)
    inner = (i > 0) & (i < time.size - 1)
    inner[inner] &= time[i[inner] - 1] > 0
    if np.any(inner):
        r, ii = rows[inner], i[inner]
        x = np.log(np.stack([time[ii - 1], time[ii], time[ii + 1]], -1))
        y = np.log(np.stack([err[r, ii - 1], err[r, ii], err[r, ii + 1]], -1))
        # vertex of the parabola through the three points
        d1 = (y[:, 1] - y[:, 0]) / (x[:, 1] - x[:, 0])
        d2 = (y[:, 2] - y[:, 1]) / (x[:, 2] - x[:, 1])
        curv = (d2 - d1) / (x[:, 2] - x[:, 0])
        with np.errstate(divide="ignore", invalid="ignore"):
            vertex = 0.5 * (x[:, 0] + x[:, 1]) - d1 / (2 * curv)
        vertex = np.where(curv > 0, np.clip(vertex, x[:, 0], x[:, 2]), x[:, 1])
        t_opt[inner] = np.exp(vertex)
    t_opt, e_min = t_opt.reshape(shape), e_min.reshape(shape)
    return t_opt, e_min


# ----------------------------------------------------------------------------------------
# two-headed students (§4): several experiments in one batch
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TwoHeadedStudents:
    """Two-headed TA students trained in one batch (:func:`train_two_headed`).

    Attributes
    ----------
    result : TrainResult
        The whole batch, the blocks in the order given (head B's test error is NaN for a single-task block: its
        head-B teacher is zero, :func:`train_students`).
    best : dict of str to ndarray
        Per block, head A's optimal error of each of its students: the minimum over the recorded epochs of
        head A's test error, shape ``(B_block,)``.
    """

    result: TrainResult
    best: dict[str, np.ndarray]


def train_two_headed(blocks: Mapping[str, tuple[torch.Tensor, torch.Tensor]], n3: int, *, hidden: int, lr: float,
                     epochs: int, eps: float = 1e-5, n_records: int = 100,
                     device: str | torch.device | None = None) -> TwoHeadedStudents:
    """Train blocks of two-headed TA students in one batch; head A's optimal early-stopping error of each (§4).

    Every student shares its input and hidden layers and has one head of ``n3`` outputs per task (Fig. 7); it
    starts from the aligned (TA) initialisation of scale ``eps`` and follows full-batch gradient descent,
    eq. (8), on the stacked data ``[Sigma31_A; Sigma31_B]`` (:func:`train_students` with ``heads=(n3, n3)``, in
    float32). A single-task student is a block whose head-B rows are zero
    (:func:`gendyn.task_data.task_a_only`): its TA initialisation puts no weight in head B, which therefore stays
    zero. Its score is the minimum over training of head A's test error, ``eps_{A<-B}^opt`` (or ``eps_A^opt``).

    Parameters
    ----------
    blocks : mapping of str to (Tensor, Tensor)
        Named blocks of ``(sigma31, teacher)``, each ``(B_block, 2 n3, N1)`` with the same ``N1``
        (:func:`gendyn.task_data.task_pairs`).
    n3 : int
        Outputs of each head.
    hidden : int
        Hidden units ``N2``.
    lr : float
        Learning rate, below :func:`stability_limit` of every student.
    epochs : int
        Full-batch steps (``t = epochs x lr`` in units of ``tau``).
    eps : float
        Initial scale of the TA students, ``> 0``.
    n_records : int
        Recorded epochs (log-spaced, :func:`log_epoch_grid`).
    device : str or torch.device, optional
        Where to train (default: the data's device).

    Returns
    -------
    TwoHeadedStudents
    """
    if not isinstance(blocks, Mapping) or not blocks:
        raise ValueError(f"blocks must be a non-empty mapping of names to (sigma31, teacher) pairs; got "
                         f"{type(blocks).__name__}")
    n3 = _checks.integer(n3, "n3")
    shapes = set()
    for name, block in blocks.items():
        if not (isinstance(block, tuple) and len(block) == 2 and all(isinstance(b, torch.Tensor) for b in block)):
            raise ValueError(f"blocks must map each name to a (sigma31, teacher) pair of tensors; {name!r} is not one")
        if block[0].ndim != 3 or block[0].shape != block[1].shape or block[0].shape[1] != 2 * n3:
            raise ValueError(f"blocks must hold sigma31 and teacher of one shape (B, 2 n3, N1) = (B, {2 * n3}, N1) "
                             f"(n3 = {n3}); {name!r} has {tuple(block[0].shape)} and {tuple(block[1].shape)}")
        shapes.add(block[0].shape[2])
    if len(shapes) > 1:
        raise ValueError(f"blocks must share their inputs N1; got {sorted(shapes)}")
    sizes = [len(b[0]) for b in blocks.values()]
    result = train_students(torch.cat([b[0] for b in blocks.values()]).float(),
                            Architecture(hidden=hidden, heads=(n3, n3)),
                            Schedule(lr=lr, epochs=epochs, n_records=n_records), start=Start(init="aligned", eps=eps),
                            evaluation=Evaluation(teacher=torch.cat([b[1] for b in blocks.values()]).float()),
                            execution=Execution(device=device, desc=f"{sum(sizes)} two-headed students"))
    best = np.split(result.head_test_error[:, 0].min(-1), np.cumsum(sizes)[:-1])
    return TwoHeadedStudents(result, dict(zip(blocks, best)))


# ----------------------------------------------------------------------------------------
# the teachers of the single-task experiments
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SnrSweep:
    """Teachers and training data of a sweep over teacher ranks, SNRs and runs.

    ``teacher`` holds ``B = len(ranks) * len(svms) * runs`` teachers, rank-major, then
    SNR multiplier, then run; every teacher has ``max(ranks)`` columns, those beyond its
    rank with singular value 0. ``rank[b]`` and ``svm[b]`` label network ``b``.
    """

    teacher: LowRankTeacher
    sigma31: torch.Tensor
    rank: np.ndarray
    svm: np.ndarray

    def sbar(self, rank: int, svm: float) -> np.ndarray:
        """The teacher singular values ``svm * (rank, rank - 1, ..., 1)`` of a condition."""
        return float(svm) * np.arange(int(rank), 0, -1, dtype=float)

    def select(self, rank: int, svm: float) -> np.ndarray:
        """Boolean mask of the networks of one condition."""
        return (self.rank == rank) & np.isclose(self.svm, svm)


def snr_sweep(svms: ArrayLike, ranks: Sequence[int], runs: int, n1: int, n3: int, *,
              rng: seeding.Rng = None, dtype: torch.dtype = torch.float64,
              device: str | torch.device = "cpu", **former: object) -> SnrSweep:
    """Random teachers and noisy training sets of Figs. 3, 4, 9 and 14.

    A teacher of rank ``r`` with SNR multiplier ``svm`` has singular values
    ``svm * (r, r - 1, ..., 1)`` (the authors' scripts) and Haar-random singular vectors;
    its training covariance is ``Sigma31 = Wbar + Z`` with ``Z_ij ~ N(0, 1/N1)``
    (:func:`gendyn.teachers.noisy_training_covariance`, ``sigma_z = 1``). Each run draws
    its own teacher and noise.

    Parameters
    ----------
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the teachers (all of them first), then of the noise; ``None``: fresh entropy (see
        :mod:`gendyn.seeding`).

    Returns
    -------
    SnrSweep
    """
    rng = seeding.former_rng(rng, former, "train.snr_sweep", alone=True)
    svms = [float(s) for s in _checks.real_array(svms, "svms", lower=0.0, ndim=1, extra=" (SNR multipliers)")]
    if not svms:
        raise ValueError("svms must hold at least one SNR multiplier")
    ranks = list(_checks.integers(ranks, "ranks", 1))
    runs = _checks.integer(runs, "runs", 1)
    n1, n3 = _checks.integer(n1, "n1"), _checks.integer(n3, "n3")
    n_draws = float(runs) * len(ranks) * len(svms)
    _checks.work_limit(10.0 * n_draws * n1 * n1 * n3, f"runs={runs} with {len(ranks)} ranks, {len(svms)} svms, n1={n1}, "
                       f"n3={n3}", memory=8.0 * n_draws * n1 * n3, iterations=n_draws / 100)
    if n3 > n1:
        raise ValueError(f"the teachers need n3 <= n1 (aspect <= 1); got n3={n3}, n1={n1}")
    width = max(ranks)
    if width > n3:
        raise ValueError(f"teacher ranks must be <= N3 = {n3}; got {ranks}")
    dtype = _check_dtype(dtype)
    device = _checks.torch_device(device)
    generator = seeding.torch_generator(rng)
    labels = [(r, s) for r in ranks for s in svms for _ in range(runs)]
    sv = torch.zeros(len(labels), width, dtype=dtype, device=device)
    for b, (r, s) in enumerate(labels):
        sv[b, :r] = torch.as_tensor(s * np.arange(r, 0, -1, dtype=float), dtype=dtype)
    teacher = _low_rank_teacher(sv, n1, n3, generator)
    sigma31 = _noisy(teacher, 1.0, generator)
    return SnrSweep(teacher, sigma31, np.array([r for r, _ in labels]), np.array([s for _, s in labels]))


# ----------------------------------------------------------------------------------------
# a TA and a random student on every data set of a sweep (App. B, Figs. 3, 4, 9 and 14)
# ----------------------------------------------------------------------------------------

#: The two initialisations of a :func:`ta_and_random` batch, in the order of its halves.
_PAIRED = ("TA", "random")


def ta_and_random(sweep: SnrSweep, dtype: torch.dtype = torch.float32
                  ) -> tuple[torch.Tensor, torch.Tensor, list[str]]:
    """Every data set of ``sweep`` twice: for a TA student (first half) and a random student (second half).

    Lampinen & Ganguli compare training-aligned and randomly initialised students on the same data
    (§3.3-3.4, App. B, Figs. 3, 4, 9, 14); one batch of :func:`train_students` trains both.

    Parameters
    ----------
    sweep : SnrSweep
        The data sets (:func:`snr_sweep`), ``B`` of them.
    dtype : torch.dtype
        Of the returned data and teachers (float32: the chapters' training precision, or float64).

    Returns
    -------
    sigma31, teacher : Tensor, shape (2 B, N3, N1)
        The training covariance and the teacher of each student.
    init : list of str
        ``"aligned"`` for the first ``B`` students, ``"random"`` for the others (the ``init`` of
        :func:`train_students`).
    """
    sweep = _checks.instance(sweep, "sweep", SnrSweep, hint=" (see snr_sweep)")
    dtype = _check_dtype(dtype)
    n_data = len(sweep.rank)
    sigma31 = torch.cat([sweep.sigma31, sweep.sigma31]).to(dtype)
    teacher = torch.cat([sweep.teacher.matrix, sweep.teacher.matrix]).to(dtype)
    return sigma31, teacher, ["aligned"] * n_data + ["random"] * n_data


def paired_optimal_stopping(time: ArrayLike, test_error: ArrayLike) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Optimal stopping of the TA and of the random students of a :func:`ta_and_random` batch.

    :func:`empirical_optimal_stopping` of each student, split into the two halves of the batch.

    Parameters
    ----------
    time : array_like, shape (T,)
        Increasing record times ``>= 0``.
    test_error : array_like, shape (2 B, T)
        Positive test-error curves: ``B`` TA students, then their random twins on the same data.

    Returns
    -------
    dict
        ``{"TA": (t_opt, e_min), "random": (t_opt, e_min)}``, each array of shape ``(B,)``.
    """
    time, err = _check_curves(time, test_error, "test_error", positive=True)
    if err.ndim != 2 or err.shape[0] % 2:
        raise ValueError(f"test_error must have shape (2 B, T): B TA students, then B random ones; "
                         f"got shape {err.shape}")
    half = err.shape[0] // 2
    return {name: empirical_optimal_stopping(time, err[k * half:(k + 1) * half]) for k, name in enumerate(_PAIRED)}


def relative_lag(stopping: dict[str, tuple[np.ndarray, np.ndarray]], mask: ArrayLike | None = None) -> float:
    """Mean relative lag of the random students' optimal stopping time behind their TA twins' (App. B).

    ``mean(t_random / t_TA - 1)`` over the data sets, each pair trained on the same data.

    Parameters
    ----------
    stopping : dict
        ``{"TA": (t_opt, e_min), "random": (t_opt, e_min)}`` as :func:`paired_optimal_stopping` returns
        it; the TA times must be positive.
    mask : array_like of bool, shape (B,), optional
        The data sets to average over (e.g. ``sweep.select(rank, svm)``); default all.

    Returns
    -------
    float
    """
    try:
        t_ta, t_random = stopping["TA"][0], stopping["random"][0]
    except (TypeError, KeyError, IndexError):
        raise ValueError("stopping must be a dict {'TA': (t_opt, e_min), 'random': (t_opt, e_min)} "
                         f"(see paired_optimal_stopping); got {type(stopping).__name__}") from None
    t_ta = _checks.real_array(t_ta, "stopping['TA'] times", lower=0.0, open_lower=True, ndim=1)
    t_random = _checks.real_array(t_random, "stopping['random'] times", lower=0.0, ndim=1)
    if t_ta.shape != t_random.shape or t_ta.size == 0:
        raise ValueError(f"stopping must hold as many TA as random times (at least one); got {t_ta.size} and "
                         f"{t_random.size}")
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool or mask.shape != t_ta.shape or not mask.any():
            raise ValueError(f"mask must be a boolean array of shape {t_ta.shape} selecting at least one data set; "
                             f"got dtype {mask.dtype}, shape {mask.shape}")
        t_ta, t_random = t_ta[mask], t_random[mask]
    return float(np.mean(t_random / t_ta - 1))


# ----------------------------------------------------------------------------------------
# the mode strengths of one TA network (§3.1, Fig. 1, App. A)
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModeDynamics:
    """The mode strengths of one TA network trained by :func:`ta_mode_dynamics`.

    Attributes
    ----------
    time : ndarray, shape (T,)
        Recorded times ``t/tau = epochs x lr``.
    strength : ndarray, shape (T, M)
        Mode strengths ``s(t)`` (the composite map's projections on the data's singular vectors),
        modes in *ascending* order of the training singular values ``shat``.
    lr : float
        Learning rate of the run.
    n_layers : int
        Layers of units ``N_l``.
    """

    time: np.ndarray
    strength: np.ndarray
    lr: float
    n_layers: int


def ta_mode_dynamics(sigma31: torch.Tensor, n_layers: int, lr: float, epochs: int, *, eps: float, n_records: int,
                     device: str | torch.device = "cpu") -> ModeDynamics:
    """Train one TA network on ``sigma31`` and record its mode strengths (§3.1, eq. 8; App. A).

    Gradient descent in float64 (so that rounding plays no role) on orthonormal inputs with
    training covariance ``sigma31``; the network has ``N2 = N3`` hidden units and starts training
    aligned (composite ``W = eps Uhat Vhat^T``), so each of its ``N3`` singular values follows
    eq. (9) / (A.1) for its own ``shat`` (:func:`gendyn.deep_linear.mode_strength`) up to the
    forward-Euler delay (:func:`gendyn.deep_linear.gd_band`).

    Parameters
    ----------
    sigma31 : Tensor, shape (N3, N1)
        Training covariance, ``N3 <= N1``, ``N3`` nonzero distinct singular values.
    n_layers : int
        Layers of units ``N_l >= 3`` (``N_l - 1`` weight matrices).
    lr : float
        Learning rate, below :func:`stability_limit`.
    epochs : int
        Full-batch steps (``t/tau = epochs x lr``).
    eps : float
        Composite initial singular value, ``> 0``.
    n_records : int
        Recorded epochs (log-spaced, :func:`log_epoch_grid`).
    device : str or torch.device
        Where to train.

    Returns
    -------
    ModeDynamics
    """
    sigma31 = _checks.tensor(sigma31, "sigma31", 2, finite=True)
    n3, n1 = sigma31.shape
    if not 1 <= n3 <= n1:
        raise ValueError(f"sigma31 must have shape (N3, N1) with 1 <= N3 <= N1; got {tuple(sigma31.shape)}")
    n_layers = _check_n_layers(n_layers)
    device = _checks.torch_device(device)
    res = train_students(sigma31[None], Architecture(hidden=n3, n_layers=n_layers),
                         Schedule(lr=lr, epochs=epochs, n_records=n_records), start=Start(eps=eps),
                         evaluation=Evaluation(modes=n3),
                         execution=Execution(dtype=torch.float64, device=device,
                                             desc=f"TA network, N_l = {n_layers}"))
    return ModeDynamics(res.time, np.ascontiguousarray(res.mode_strength[0][:, ::-1]), float(lr), n_layers)


# ----------------------------------------------------------------------------------------
# transfer between leaky-ReLU tasks (App. F, Fig. 12): T of two-headed students, the
# authors' initial weights, and the two initialisations compared on the same data
# ----------------------------------------------------------------------------------------

def _teacher_profiles(teacher_svals, n3):
    """``teacher_svals`` checked as teacher profiles, ``(teachers >= 1, rank <= n3)`` singular values >= 0."""
    sb = _checks.real_array(teacher_svals, "teacher_svals", lower=0.0, ndim=2, extra=" (teachers x singular values)")
    if sb.shape[0] < 1 or not 1 <= sb.shape[1] <= n3:
        raise ValueError(f"teacher_svals must have shape (teachers >= 1, rank <= n3 = {n3}); got {sb.shape}")
    return sb


@dataclass(frozen=True)
class FullBatchSpec:
    """Sizes and schedule of students trained by full-batch gradient descent from a small initial map
    (Lampinen & Ganguli: :func:`gendyn.randomised.train_randomised`, :func:`gendyn.shrinkage.compare_algorithms`,
    :func:`leaky_relu_transfer`, :func:`compare_initialisations`).

    Attributes
    ----------
    n1, n2, n3 : int
        Inputs (= examples), hidden units ``N2`` and outputs (of each task); a function that needs an
        order among them (e.g. ``n2 <= n3 <= n1``) says so and checks it.
    lr : float
        Learning rate of full-batch gradient descent.
    horizon : float
        Training time ``t/tau``: ``round(horizon / lr)`` epochs.
    n_records : int
        Recorded times.
    eps : float
        Initial scale of the students' composite map.
    """

    n1: int
    n2: int
    n3: int
    lr: float
    horizon: float
    n_records: int
    eps: float = 1e-5

    def __post_init__(self):
        for name in ("n1", "n2", "n3", "n_records"):
            _checks.integer(getattr(self, name), name)
        for name in ("lr", "horizon", "eps"):
            _checks.positive(getattr(self, name), name)
        if round(self.horizon / self.lr) < 1:
            raise ValueError(f"horizon must be at least lr (one epoch); got horizon={self.horizon}, lr={self.lr}")

    @property
    def epochs(self) -> int:
        """Full-batch steps: ``round(horizon / lr)``."""
        return int(round(self.horizon / self.lr))


class LeakyTransfer(NamedTuple):
    """``T`` of leaky-ReLU two-headed students on a grid (:func:`leaky_relu_transfer`)."""

    benefit: np.ndarray  #: ``T^{A<-B}`` of every grid point and run, shape (G, runs)
    single: np.ndarray  #: the single-task students' optimal errors, shape (len(sbar_a), runs)


def _leaky_optimal_errors(data, clean, spec, start, rng, device, desc):
    """Head A's optimal test error (minimum over the records) of each leaky-ReLU two-headed student."""
    result = train_students(data.float(), Architecture(hidden=spec.n2, activation="leaky_relu", output_activation=True,
                                                       heads=(spec.n3, spec.n3)),
                            Schedule(lr=spec.lr, epochs=spec.epochs, n_records=spec.n_records, check_stability=False),
                            start=Start(**start), evaluation=Evaluation(test_data=(torch.eye(spec.n1), clean.float())),
                            execution=Execution(device=device, desc=desc), rng=rng)
    return result.head_test_error[:, 0].min(-1)


def leaky_relu_transfer(pairs: task_data.TaskPairs, points: ArrayLike, sbar_a: ArrayLike, spec: FullBatchSpec, *,
                        weights: Sequence[torch.Tensor] | None = None, rng: seeding.Rng = None,
                        device: str | torch.device = "cpu", desc: str = "leaky-ReLU students",
                        **former: object) -> LeakyTransfer:
    """Transfer ``T^{A<-B}`` between leaky-ReLU tasks: two-headed against single-task students (App. F, Fig. 12).

    Every two-headed student learns both tasks of its data; the single-task baseline of each
    ``(sbar_A, run)`` is a two-headed network with zero targets on head B
    (:func:`gendyn.task_data.task_a_only`). All train in one batch by full-batch gradient descent with
    leaky-ReLU hidden and output units. Head A's test error is measured on the training inputs against the
    noise-free teacher outputs (the authors' script); ``T`` is the single-task minus the joint optimal
    (minimum over training) error, paired on task A's data (:func:`gendyn.transfer.paired_transfer`).

    Parameters
    ----------
    pairs : TaskPairs
        Two-task data of every grid point and run (:func:`gendyn.task_data.leaky_relu_task_pairs`).
    points : array_like, shape (G, 3)
        The grid points ``(sbar_A, sbar_B, q)`` of ``pairs``.
    sbar_a : array_like, shape (A,)
        The distinct values of ``sbar_A``, increasing (``TransferGrid.sa``).
    spec : FullBatchSpec
        Sizes and training (``n3`` that of ``pairs``).
    weights : sequence of Tensor, optional
        Initial weights of the two-headed students followed by the single-task ones
        (:func:`two_headed_fan_weights`); default balanced random weights of composite scale ``spec.eps``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the balanced initial weights; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    device : str
        Torch device of the training.
    desc : str
        What the progress bar calls the students.

    Returns
    -------
    LeakyTransfer
    """
    from .transfer import paired_transfer

    rng = seeding.former_rng(rng, former, "train.leaky_relu_transfer", alone=True)
    pairs = _checks.instance(pairs, "pairs", task_data.TaskPairs, hint=" (from task_data.leaky_relu_task_pairs)")
    spec = _checks.instance(spec, "spec", FullBatchSpec, hint=" (sizes and training)")
    if pairs.n3 != spec.n3 or pairs.sigma31.shape[-1] != spec.n1:
        raise ValueError(f"spec must match the data: n1={spec.n1}, n3={spec.n3} against pairs of "
                         f"N1={pairs.sigma31.shape[-1]}, N3={pairs.n3}")
    points = _checks.real_array(points, "points", ndim=2)
    if points.shape != (len(pairs.sigma31) // pairs.runs, 3):
        raise ValueError(f"points must have shape (G, 3) with G = {len(pairs.sigma31) // pairs.runs} grid points "
                         f"of pairs; got {points.shape}")
    device = _checks.torch_device(device)
    generator = seeding.torch_generator(rng)
    rows = task_data.task_a_rows(points, sbar_a, pairs.runs)
    single_data, single_clean = task_data.task_a_only(pairs, rows)
    start = dict(init="random", eps=spec.eps) if weights is None else dict(weights=weights)
    n_joint = len(pairs.sigma31)
    best = _leaky_optimal_errors(torch.cat([pairs.sigma31, single_data]), torch.cat([pairs.teacher, single_clean]),
                                 spec, start, generator, device, f"{n_joint + len(rows)} {desc}")
    joint = best[:n_joint].reshape(-1, pairs.runs)
    single = best[n_joint:].reshape(-1, pairs.runs)
    return LeakyTransfer(paired_transfer(joint, single, points, sbar_a), single)


def two_headed_fan_weights(n_joint: int, n_single: int, n1: int, hidden: int, n3: int, *,
                           rng: seeding.Rng = None, **former: object
                           ) -> tuple[tuple[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]]:
    """The authors' initial weights of two-headed and one-task networks (App. F; :func:`fan_average_weights`, 0.01).

    The two-headed networks (``n3`` outputs per head) are drawn first, then the one-task networks (fan
    average of their own sizes; head B zero, so that they stay one-task networks).

    Parameters
    ----------
    n_joint, n_single : int
        Numbers of two-headed and one-task networks, ``>= 1``.
    n1, hidden, n3 : int
        Inputs, hidden units and outputs of each task.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the weights, two-headed networks first; ``None``: fresh entropy (see :mod:`gendyn.seeding`).

    Returns
    -------
    weights : (Tensor, Tensor)
        Both layers of every network, two-headed ones first (``weights`` of :func:`leaky_relu_transfer`).
    joint : (Tensor, Tensor)
        The two-headed networks' layers alone.
    """
    rng = seeding.former_rng(rng, former, "train.two_headed_fan_weights", alone=True)
    generator = seeding.torch_generator(rng)
    n_joint = _checks.integer(n_joint, "n_joint", 1, " (two-headed networks)")
    n_single = _checks.integer(n_single, "n_single", 1, " (one-task networks)")
    n1, hidden, n3 = _checks.integer(n1, "n1"), _checks.integer(hidden, "hidden"), _checks.integer(n3, "n3")
    joint = fan_average_weights(n_joint, (n1, hidden, 2 * n3), 0.01, rng=generator)
    single = fan_average_weights(n_single, (n1, hidden, n3), 0.01, rng=generator)
    return (torch.cat([joint[0], single[0]]),
            torch.cat([joint[1], torch.cat([single[1], torch.zeros_like(single[1])], dim=1)])), joint


@dataclass(frozen=True)
class InitialisationComparison:
    """``T`` of the same data sets from the authors' and from balanced initial weights (:func:`compare_initialisations`).

    Attributes
    ----------
    authors, balanced : ndarray, shape (data sets,)
        ``T^{A<-B}`` of each data set from the authors' weights (:func:`two_headed_fan_weights`) and from
        balanced small ones (:func:`init_weights`, composite scale ``eps``).
    layer_scale : list of float
        Mean top singular value of each layer of the authors' two-headed weights over the balanced
        weights' per-layer singular value ``eps^(1/2)``.
    """

    authors: np.ndarray
    balanced: np.ndarray
    layer_scale: list[float]


def compare_initialisations(pairs: task_data.TaskPairs, spec: FullBatchSpec, *,
                            rng: seeding.Rng = None,
                            device: str | torch.device = "cpu", **former: object) -> InitialisationComparison:
    """``T`` of one setting's data sets learned from the authors' and from balanced initial weights (App. F).

    Each data set is learned four times in one batch: by a two-headed and a single-task (head B's targets
    zero) network, each from the authors' weights (:func:`two_headed_fan_weights`) and from balanced small
    ones (:func:`init_weights`, ``"random"``, composite scale ``spec.eps``).

    Parameters
    ----------
    pairs : TaskPairs
        Two-task data of one grid point, ``runs`` data sets (:func:`gendyn.task_data.leaky_relu_task_pairs`).
    spec : FullBatchSpec
        Sizes and training.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the authors' weights, then of the balanced ones; ``None``: fresh entropy (see
        :mod:`gendyn.seeding`).
    device : str
        Torch device of the training.

    Returns
    -------
    InitialisationComparison
    """
    rng = seeding.former_rng(rng, former, "train.compare_initialisations", alone=True)
    pairs = _checks.instance(pairs, "pairs", task_data.TaskPairs, hint=" (from task_data.leaky_relu_task_pairs)")
    spec = _checks.instance(spec, "spec", FullBatchSpec, hint=" (sizes and training)")
    d, n3 = len(pairs.sigma31), spec.n3
    if pairs.runs != d or pairs.n3 != n3 or pairs.sigma31.shape[-1] != spec.n1:
        raise ValueError(f"pairs must hold one grid point of N1 = spec.n1 = {spec.n1}, N3 = spec.n3 = {n3}; got "
                         f"{d} networks of {pairs.runs} runs, N1 = {pairs.sigma31.shape[-1]}, N3 = {pairs.n3}")
    device = _checks.torch_device(device)
    generator = seeding.torch_generator(rng)
    data, clean = torch.cat([pairs.sigma31] * 2), torch.cat([pairs.teacher] * 2)
    data[d:, n3:], clean[d:, n3:] = 0.0, 0.0  # rows d..2d: task A alone
    fan, fan_joint = two_headed_fan_weights(d, d, spec.n1, spec.n2, n3, rng=generator)
    small = init_weights(data.float(), spec.n2, 3, "random", spec.eps, rng=generator)
    best = _leaky_optimal_errors(torch.cat([data] * 2), torch.cat([clean] * 2), spec,
                                 dict(weights=[torch.cat([f, b]) for f, b in zip(fan, small)]), generator, device,
                                 "two initialisations").reshape(2, 2, d)  # (initialisation, joint or single, data set)
    t_authors, t_balanced = best[:, 1] - best[:, 0]
    layer_scale = [float(torch.linalg.matrix_norm(w, ord=2).mean()) / spec.eps**0.5 for w in fan_joint]
    return InitialisationComparison(t_authors, t_balanced, layer_scale)


# ----------------------------------------------------------------------------------------
# App. B, Fig. 9: the modes of TA and random students on the same data sets
# ----------------------------------------------------------------------------------------

__all__ += ["ModeCrossings", "PairedStudents", "train_ta_and_random", "sweep_subset"]


@dataclass(frozen=True)
class ModeCrossings:
    """When each data mode of a :class:`PairedStudents` batch aligns and grows (:meth:`PairedStudents.crossings`).

    Each array has shape ``(B, modes)``, one row per data set; NaN where the curve never crosses.
    """

    align: np.ndarray  #: random students: the alignment ``A_alpha`` first reaches its level (0.9)
    grow: np.ndarray  #: random students: the mode strength first reaches its level (half of ``shat_alpha``)
    grow_ta: np.ndarray  #: TA students: the same


@dataclass(frozen=True)
class PairedStudents:
    """A TA and a random student trained on every data set of a sweep (:func:`train_ta_and_random`).

    The first ``B`` students are training aligned, the last ``B`` their random twins on the same data
    (:func:`ta_and_random`).

    Attributes
    ----------
    time : ndarray, shape (T,)
        Record times ``t / tau``.
    alignment : ndarray, shape (2 B, T, modes)
        ``A_alpha(t) = |u_alpha . uhat_alpha| |v_alpha . vhat_alpha|`` of each data mode (App. B).
    strength : ndarray, shape (2 B, T, modes)
        The composite map along each data mode, ``uhat_alpha^T W vhat_alpha``, over ``shat_alpha``
        (for a TA student its singular value of eq. 9 over ``shat_alpha``).
    svals : ndarray, shape (2 B, T, modes)
        The student's top singular values over the data's ``shat_alpha``.
    shat : ndarray, shape (2 B, modes)
        The data's top singular values ``shat_alpha`` of each student.
    test_error : ndarray, shape (2 B, T)
        Normalised test error, eq. (5).
    lr : float
        The learning rate.
    train_error : ndarray, shape (2 B, T)
        Normalised training error, eq. (4).
    data_svals : ndarray, shape (2 B, min(N1, N3))
        All singular values of each student's training covariance, descending (e.g. for
        :func:`gendyn.deep_linear.gd_lag`).
    """

    time: np.ndarray
    alignment: np.ndarray
    strength: np.ndarray
    svals: np.ndarray
    shat: np.ndarray
    test_error: np.ndarray
    lr: float
    train_error: np.ndarray
    data_svals: np.ndarray

    def crossings(self, align_level: float = 0.9, grow_level: float = 0.5) -> ModeCrossings:
        """Alignment and growth times of every mode, read off the records by :func:`first_crossing`.

        Parameters
        ----------
        align_level : float
            Level of the alignment ``A_alpha`` in ``(0, 1)`` (App. B: 0.9).
        grow_level : float
            Level of the strength over ``shat_alpha`` in ``(0, 1)`` (half grown: 0.5).
        """
        align_level = _checks.bounded(align_level, "align_level", 0.0, 1.0, open_lower=True, open_upper=True)
        grow_level = _checks.bounded(grow_level, "grow_level", 0.0, 1.0, open_lower=True, open_upper=True)
        half = len(self.test_error) // 2
        ta, rnd = slice(0, half), slice(half, 2 * half)
        return ModeCrossings(
            first_crossing(self.time, np.moveaxis(self.alignment[rnd], 1, -1), align_level),
            first_crossing(self.time, np.moveaxis(self.strength[rnd], 1, -1), grow_level),
            first_crossing(self.time, np.moveaxis(self.strength[ta], 1, -1), grow_level),
        )

    def optimal_stopping(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each student's optimal stopping time and minimum test error, the record at ``t = 0`` left out.

        ``{"TA": (t_opt, e_min), "random": (t_opt, e_min)}``, each of shape ``(B,)``
        (:func:`paired_optimal_stopping`).
        """
        return paired_optimal_stopping(self.time[1:], self.test_error[:, 1:])


def train_ta_and_random(sweep: SnrSweep, architecture: Architecture | None = None, *, lr: float, record_at: ArrayLike,
                        eps: float, rng: seeding.Rng = None,
                        device: str | torch.device = "cpu", modes: bool = True, **flat: object) -> PairedStudents:
    """Train a TA and a random student on every data set of ``sweep`` by gradient descent, eq. (8) (App. B).

    One batch of :func:`train_students` on the data of :func:`ta_and_random`, for ``max(record_at)``
    epochs, recording the top ``max(sweep.rank)`` modes of each student against the data's (``modes``).

    Parameters
    ----------
    sweep : SnrSweep
        The data sets (:func:`snr_sweep`).
    architecture : Architecture
        Hidden units ``N2`` of every hidden layer and layers of units ``N_l >= 3``, input and output
        included: ``Architecture(hidden=..., n_layers=...)`` of linear students with one head (required).
    lr : float
        Learning rate (the time constant is ``tau = 1 / lr``).
    record_at : array_like of int
        Epochs at which to record, ``>= 0``; the students train for ``max(record_at)`` epochs.
    eps : float
        Initial scale of every student (the singular values of its composite map).
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the random students' initial weights; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    device : str
        Torch device of the training.
    modes : bool
        Record the modes (``alignment``, ``strength``, ``svals``). ``False``: those fields are empty,
        shape ``(2 B, T, 0)``, and the training costs less: a singular value decomposition of every
        student at every record (2-3x the training's own time with dense records) is skipped.
    **flat
        Deprecated: ``hidden=..., n_layers=...`` instead of ``architecture``, accepted for one more
        release with a ``DeprecationWarning``; the results are identical.

    Returns
    -------
    PairedStudents
        The records, TA students first.
    """
    rng = seeding.former_rng(rng, flat, "train.train_ta_and_random")
    if flat:
        if set(flat) - {"hidden", "n_layers"}:
            raise ValueError(f"unknown train_ta_and_random keyword(s) {sorted(set(flat) - {'hidden', 'n_layers'})}; "
                             f"allowed: architecture, lr, record_at, eps, rng, device, modes")
        if architecture is not None:
            raise ValueError("pass either architecture or hidden and n_layers (deprecated), not both")
        if set(flat) != {"hidden", "n_layers"}:  # the former form required both
            raise ValueError(f"the deprecated form of train_ta_and_random needs both hidden and n_layers; got "
                             f"only {sorted(flat)}: pass Architecture(hidden=..., n_layers=...)")
        warnings.warn("train_ta_and_random(sweep, hidden=..., n_layers=..., ...) is deprecated and will be removed "
                      "in the next release: pass train_ta_and_random(sweep, Architecture(hidden=..., n_layers=...), "
                      "...)", DeprecationWarning, stacklevel=2)
        return train_ta_and_random(sweep, Architecture(**flat), lr=lr, record_at=record_at, eps=eps,
                                   rng=rng, device=device, modes=modes)
    architecture = _checks.instance(architecture, "architecture", Architecture,
                                    hint=" (Architecture(hidden=..., n_layers=...))")
    if not architecture.linear or architecture.heads is not None or architecture.output_activation:
        raise ValueError(f"architecture must be of linear students with one head (activation None or 'linear', "
                         f"heads None, output_activation False); got {architecture}")
    n_layers = architecture.n_layers
    sweep = _checks.instance(sweep, "sweep", SnrSweep, hint=" (see snr_sweep)")
    record_at = _checks.integer_array(record_at, "record_at", 0, ndim=1)
    if record_at.size == 0:
        raise ValueError("record_at must hold at least one epoch; got an empty array")
    rank = int(sweep.rank.max())
    recorded = rank if _checks.flag(modes, "modes") else 0
    data, teacher, init = ta_and_random(sweep)
    res = train_students(data, architecture, Schedule(lr=lr, epochs=int(record_at.max()), record_at=record_at),
                         start=Start(init=init, eps=eps), evaluation=Evaluation(teacher=teacher, modes=recorded),
                         execution=Execution(device=device, desc=f"TA and random students, N_l = {n_layers}"),
                         rng=rng)
    shat = res.data_svals[:, :rank]
    if recorded:
        alignment, strength, svals = res.alignment, res.mode_strength / shat[:, None, :], res.svals / shat[:, None, :]
    else:
        alignment = strength = svals = np.empty(res.test_error.shape + (0,))
    return PairedStudents(res.time, alignment, strength, svals, shat, res.test_error, float(res.lr), res.train_error,
                          res.data_svals)


def sweep_subset(sweep: SnrSweep, index: Sequence[int]) -> SnrSweep:
    """The data sets ``index`` of ``sweep`` (teachers, training data and labels), in that order.

    Parameters
    ----------
    sweep : SnrSweep
        The data sets (:func:`snr_sweep`), ``B`` of them.
    index : sequence of int
        Data sets to keep, each in ``[0, B)``, at least one.

    Returns
    -------
    SnrSweep
    """
    sweep = _checks.instance(sweep, "sweep", SnrSweep, hint=" (see snr_sweep)")
    n_data = len(sweep.rank)
    index = list(_checks.integers(index, "index", 0, meaning=f" (data sets in [0, {n_data}))"))
    if max(index) >= n_data:
        raise ValueError(f"index must hold data sets in [0, {n_data}); got {index}")
    teacher = LowRankTeacher(*(x[index] for x in sweep.teacher))
    return SnrSweep(teacher, sweep.sigma31[index], sweep.rank[index], sweep.svm[index])


# ----------------------------------------------------------------------------------------
# §3.5, Fig. 5: leaky-ReLU students beside linear ones on the same data, and readings of their curves
# ----------------------------------------------------------------------------------------

__all__ += ["LeakyAndLinear", "train_leaky_and_linear", "count_drops", "plateau_span", "MinimumTimeRatio",
            "minimum_time_ratios", "onset_log_ratio", "OnsetComparison", "onset_comparison"]


@dataclass(frozen=True)
class LeakyAndLinear:
    """Leaky-ReLU and linear students of one depth trained on the same data sets (:func:`train_leaky_and_linear`).

    Every error array has shape ``(teachers, runs, T)``: one row per teacher, one data set per run.
    """

    time: np.ndarray  #: record times ``t / tau``, shape (T,)
    leaky_train: np.ndarray  #: training error of the leaky-ReLU students, eq. (5)
    leaky_test: np.ndarray  #: their test error on the training inputs against the noise-free teacher outputs
    linear_train: np.ndarray  #: training error of the linear students (same data and initial scale)
    linear_test: np.ndarray  #: their test error, eq. (4)

    def subset(self, rows: Sequence[int]) -> LeakyAndLinear:
        """The teachers ``rows`` (indices into the first axis, at least one), in that order.

        Parameters
        ----------
        rows : sequence of int
            Teachers to keep, each in ``[0, teachers)``.

        Returns
        -------
        LeakyAndLinear
        """
        n = len(self.leaky_train)
        rows = list(_checks.integers(rows, "rows", 0, meaning=f" (teachers in [0, {n}))"))
        if max(rows) >= n:
            raise ValueError(f"rows must hold teachers in [0, {n}); got {rows}")
        return LeakyAndLinear(self.time, *(x[rows] for x in (self.leaky_train, self.leaky_test, self.linear_train,
                                                             self.linear_test)))


def train_leaky_and_linear(teacher_svals: ArrayLike, runs: int, spec: FullBatchSpec, *, n_layers: int = 3,
                           slope: float = 0.2, noise_std: float = 1.0, rng: seeding.Rng = None,
                           device: str | torch.device = "cpu", **former: object) -> LeakyAndLinear:
    """Leaky-ReLU and linear students of one depth on the same noisy data sets of low-rank teachers (§3.5, Fig. 5).

    For each teacher (a row of singular values) ``runs`` data sets are drawn: a random teacher of
    those singular values, eq. (1) (:func:`gendyn.teachers.low_rank_teacher`), and noisy training data on
    orthonormal inputs, eq. (3) (:func:`gendyn.teachers.noisy_training_covariance`), in that order, all
    teachers first. On every data set a leaky-ReLU student (leak ``slope`` after every hidden layer,
    linear output layer) and then a linear student train by full-batch gradient descent, eq. (8), from
    balanced random weights of composite scale ``spec.eps`` (:func:`train_students`, one batched program
    each). The test error compares the outputs on the training inputs with the noise-free teacher's
    (the authors' script); for a linear student it is eq. (4).

    Parameters
    ----------
    teacher_svals : array_like, shape (teachers, rank)
        Singular values of each teacher (finite, ``>= 0``, ``rank <= spec.n3``); pad a lower-rank teacher with
        zeros to share a batch.
    runs : int
        Data sets per teacher, ``>= 1``.
    spec : FullBatchSpec
        Sizes ``n1`` (inputs = examples), ``n2`` (hidden units), ``n3`` (outputs), learning rate, horizon in
        ``tau``, recorded times and initial scale ``eps``.
    n_layers : int
        Layers of units ``N_l >= 3``: 3 for one hidden layer, 5 for three.
    slope : float
        Leak of the leaky ReLU, ``>= 0`` (TensorFlow's default 0.2; the authors' Fig. 5 script 0.1).
    noise_std : float
        Label noise: entries of variance ``noise_std**2 / n1``, ``>= 0``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the teachers, the noise and the initial weights, in that order (one generator); ``None``:
        fresh entropy (see :mod:`gendyn.seeding`).
    device : str
        Torch device of the training.

    Returns
    -------
    LeakyAndLinear
    """
    rng = seeding.former_rng(rng, former, "train.train_leaky_and_linear", alone=True)
    spec = _checks.instance(spec, "spec", FullBatchSpec, hint=" (sizes and training)")
    svals = _teacher_profiles(teacher_svals, spec.n3)
    runs = _checks.integer(runs, "runs")
    n_layers = _check_n_layers(n_layers)
    slope = _checks.real(slope, "slope")
    noise_std = _checks.real(noise_std, "noise_std")
    generator = seeding.torch_generator(rng)
    device = _checks.torch_device(device)
    if spec.n3 > spec.n1:
        raise ValueError(f"spec must have n3 <= n1 (a teacher maps n1 inputs to n3 outputs); got n1={spec.n1}, "
                         f"n3={spec.n3}")
    sv = np.repeat(svals[:, None, :], runs, axis=1).reshape(-1, svals.shape[1])
    teacher = _low_rank_teacher(torch.tensor(sv), spec.n1, spec.n3, generator)
    sigma31 = _noisy(teacher, noise_std, generator)
    errors = []
    for activation in ("leaky_relu", "linear"):
        res = train_students(sigma31.float(),
                             Architecture(hidden=spec.n2, n_layers=n_layers, activation=activation, slope=slope),
                             Schedule(lr=spec.lr, epochs=spec.epochs, n_records=spec.n_records, check_stability=False),
                             start=Start(init="random", eps=spec.eps),
                             evaluation=Evaluation(test_data=(torch.eye(spec.n1), teacher.matrix.float())),
                             execution=Execution(device=device,
                                                 desc=f"{activation} students, {n_layers - 2} hidden layer(s)"),
                             rng=generator)
        errors += [e.reshape(len(svals), runs, -1) for e in (res.train_error, res.test_error)]
    return LeakyAndLinear(res.time, *errors)


def _check_curve(time, curve, name):
    """Increasing record times and one positive finite curve of the same length, at least 3 records."""
    time, curve = _check_curves(time, curve, name, positive=True)
    if curve.ndim != 1 or time.size < 3:
        raise ValueError(f"{name} must be one curve of len(time) >= 3 records; got shape {curve.shape}")
    return time, curve


def count_drops(time: ArrayLike, curve: ArrayLike, *, floor: float = 0.1, dip: float = 0.5) -> int:
    """Number of separate drops (stages) of a decreasing error curve on a log time grid (§3.5, Fig. 5).

    Drops are peaks of the (3-point smoothed) log-slope ``-d ln curve / d ln t`` higher than ``floor``
    times its largest; two peaks count as one unless the slope dips between them below ``dip`` times the
    smaller (a plateau between the stages, as between the modes of eq. 14). A drop still under way at the
    first or last record is not a peak and is not counted.

    Parameters
    ----------
    time : array_like, shape (T,)
        Increasing record times ``>= 0`` (``t = 0`` is left out), at least 3 of them after 0.
    curve : array_like, shape (T,)
        Positive finite errors at ``time``.
    floor : float
        Smallest peak counted, relative to the largest, in ``[0, 1)``.
    dip : float
        Dip that separates two peaks, relative to the smaller, in ``(0, 1]``.

    Returns
    -------
    int
    """
    time, curve = _check_curve(time, curve, "curve")
    floor = _checks.bounded(floor, "floor", 0.0, 1.0, open_upper=True)
    dip = _checks.bounded(dip, "dip", 0.0, 1.0, open_lower=True)
    keep = time > 0
    if keep.sum() < 3:
        raise ValueError(f"time must hold at least 3 records after t = 0; got {int(keep.sum())}")
    slope = -np.gradient(np.log(curve[keep]), np.log(time[keep]))
    # the ends are padded with their own value, not zero: a zero pad lowers the last (or first) smoothed
    # point and makes a drop still under way at the edge of the records look like a finished peak
    slope = np.convolve(np.pad(slope, 1, mode="edge"), np.ones(3) / 3, mode="valid")
    peaks = [k for k in range(1, slope.size - 1)
             if slope[k] >= slope[k - 1] and slope[k] > slope[k + 1]
             and slope[k] > floor * slope.max()]
    stages = []
    for k in peaks:  # merge peaks without a clear dip between them
        if stages and slope[stages[-1]:k + 1].min() > dip * min(slope[stages[-1]], slope[k]):
            stages[-1] = k if slope[k] > slope[stages[-1]] else stages[-1]
        else:
            stages.append(k)
    return len(stages)


def plateau_span(time: ArrayLike, curve: ArrayLike, factor: float = 1.5) -> float:
    """Length in log time of an error curve's plateau near its minimum (§3.5, the plateau of eq. 15).

    Parameters
    ----------
    time : array_like, shape (T,)
        Increasing record times ``>= 0``.
    curve : array_like, shape (T,)
        Positive finite errors at ``time``.
    factor : float
        The plateau is where the curve stays within ``factor`` (``>= 1``) of its minimum.

    Returns
    -------
    float
        ``ln(t_end / t_start)`` of the longest run of records within ``factor`` of the minimum (a run
        starting at ``t = 0`` is left out; 0 if none is left).
    """
    time, curve = _check_curve(time, curve, "curve")
    factor = _checks.bounded(factor, "factor", 1.0)
    inside = curve <= factor * curve.min()
    best, start = 0.0, None
    for k, flag in enumerate(inside):
        if flag and start is None:
            start = k
        if start is not None and (not flag or k == len(inside) - 1):
            end = k if flag else k - 1
            if time[start] > 0:
                best = max(best, np.log(time[end] / time[start]))
            start = None
    return best


class MinimumTimeRatio(NamedTuple):
    """``ln`` of the geometric-mean ratio of the times of minimal mean test error (:func:`minimum_time_ratios`)."""

    log_ratio: float  #: mean over teachers of ``ln(t_opt leaky-ReLU / t_opt linear)``
    se: float  #: its bootstrap standard error over runs


def _log_minimum_ratio(time, leaky, linear, pick):
    """Mean log ratio of the argmin times of the run-mean curves, the same runs (``pick``) of both kinds of
    student for each teacher; NaN if no teacher has both minima strictly inside ``(0, horizon)``."""
    vals = []
    last = len(time) - 1
    for i in range(len(leaky)):
        runs = pick()  # paired: the two kinds of student were trained on the same data sets
        nl, lin = leaky[i][runs].mean(0).argmin(), linear[i][runs].mean(0).argmin()
        if 0 < nl < last and 0 < lin < last:
            vals.append(np.log(time[nl] / time[lin]))
    return np.mean(vals) if vals else np.nan


def minimum_time_ratios(results: Sequence[LeakyAndLinear], *, rng: seeding.Rng = None, n_boot: int = 200,
                        **former: object) -> tuple[MinimumTimeRatio, ...]:
    """When the test error is minimal, leaky-ReLU over linear students: log geometric-mean ratio per result (§3.5).

    For each result the times of minimal mean test error (over runs) of the two kinds of student are compared
    per teacher, over the teachers whose two minima fall strictly between the first and the last record. The
    standard error comes from ``n_boot`` bootstrap resamples of the runs, paired: one resample of a teacher's
    runs serves both kinds of student, which were trained on the same data sets, so that what the two share
    cancels in the ratio. The resamples come from one numpy generator (:func:`gendyn.seeding.numpy_generator`
    of ``rng``: ``numpy.random.default_rng(rng)`` for an integer) drawn through the results in order.

    Parameters
    ----------
    results : sequence of LeakyAndLinear
        Students of each depth (:func:`train_leaky_and_linear`), at least one, each with ``runs >= 2``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the bootstrap resamples; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    n_boot : int
        Bootstrap resamples, ``>= 2``.

    Returns
    -------
    tuple of MinimumTimeRatio
        One per result.
    """
    rng = seeding.former_rng(rng, former, "train.minimum_time_ratios", alone=True)
    results = list(_checks.instance(r, "results", LeakyAndLinear, hint=" (from train_leaky_and_linear)")
                   for r in (results if isinstance(results, Sequence) else [results]))
    if not results:
        raise ValueError("results must hold at least one LeakyAndLinear; got none")
    n_boot = _checks.integer(n_boot, "n_boot", 2)
    boot = seeding.numpy_generator(rng)
    out = []
    for k, res in enumerate(results):
        runs = res.leaky_test.shape[1]
        if runs < 2:
            raise ValueError(f"results[{k}] must hold runs >= 2 per teacher (for a bootstrap); got {runs}")
        t, nl, lin = res.time, res.leaky_test, res.linear_test
        est = _log_minimum_ratio(t, nl, lin, lambda: slice(None))
        draws = [_log_minimum_ratio(t, nl, lin, lambda: boot.integers(0, runs, runs)) for _ in range(n_boot)]
        if not np.isfinite(est) or np.isfinite(draws).sum() < 2:
            raise ValueError(f"results[{k}] has no teacher whose two minima fall inside the horizon (and after "
                             "t = 0), in the runs or in at least two bootstrap resamples: no ratio to measure")
        out.append(MinimumTimeRatio(float(est), float(np.nanstd(draws, ddof=1))))
    return tuple(out)


def onset_log_ratio(onset_leaky: ArrayLike, onset_linear: ArrayLike, horizon: float, *,
                    bound: str = "upper") -> np.ndarray:
    """Per run ``ln(onset leaky-ReLU / onset linear)`` of overfitting, read as a bound where a curve had not doubled.

    The onsets come from :func:`overfitting_onset` (NaN: the test error had not doubled its minimum by the
    horizon). An onset past the horizon is read so that the result bounds the ratio: ``bound="upper"``
    counts a linear student at the horizon and a leaky-ReLU one as never (``+inf``); ``bound="lower"`` a
    leaky-ReLU student at the horizon and a linear one as never (``-inf``). An infinite value is the
    documented answer "no bound of this side can be read" (Lampinen & Ganguli §3.5: "begin to overfit").

    Parameters
    ----------
    onset_leaky, onset_linear : array_like, shape (runs,)
        Onsets ``> 0`` of the two kinds of student on the same data sets, NaN where not doubled.
    horizon : float
        Last record time ``> 0``.
    bound : "upper" or "lower"
        Which side the reading bounds.

    Returns
    -------
    ndarray, shape (runs,)
    """
    bound = _checks.choice(bound, "bound", ("upper", "lower"))
    horizon = _checks.positive(horizon, "horizon")
    onsets = []
    for value, name in ((onset_leaky, "onset_leaky"), (onset_linear, "onset_linear")):
        x = _checks._as_reals(value)
        if x is None or x.ndim != 1 or np.any(np.isinf(x)) or np.any(x[~np.isnan(x)] <= 0):
            raise ValueError(f"{name} must be a 1-d array of onsets > 0 (NaN: not doubled); got {_checks._show(value)}")
        onsets.append(x)
    if onsets[0].shape != onsets[1].shape or onsets[0].size == 0:
        raise ValueError(f"onset_leaky and onset_linear must have the same shape (runs >= 1,); got "
                         f"{onsets[0].shape} and {onsets[1].shape}")
    late = {"upper": (np.inf, horizon), "lower": (horizon, np.inf)}[bound]
    with np.errstate(divide="ignore"):  # a never-doubled linear student gives ln 0 = -inf, on purpose
        return np.log(np.where(np.isnan(onsets[0]), late[0], onsets[0])
                      / np.where(np.isnan(onsets[1]), late[1], onsets[1]))


class OnsetComparison(NamedTuple):
    """Onsets of overfitting of leaky-ReLU and linear students on the same data sets (:func:`onset_comparison`)."""

    leaky: float  #: mean onset of the leaky-ReLU students over the runs that doubled (inf: none did)
    linear: float  #: the same for the linear students
    upper: np.ndarray  #: per run ln(onset ratio), an upper bound (:func:`onset_log_ratio`), shape (runs,)
    lower: np.ndarray  #: per run ln(onset ratio), a lower bound, shape (runs,)


def onset_comparison(time: ArrayLike, leaky_test: ArrayLike, linear_test: ArrayLike) -> OnsetComparison:
    """Onset of overfitting (test error doubled, :func:`overfitting_onset`) of the two kinds of student, and its
    log ratio per run as an upper and a lower bound (:func:`onset_log_ratio`; §3.5).

    Parameters
    ----------
    time : array_like, shape (T,)
        Increasing record times ``>= 0``, the last ``> 0`` (the horizon).
    leaky_test, linear_test : array_like, shape (runs, T)
        Positive test-error curves of the leaky-ReLU and the linear students, run by run on the same data.

    Returns
    -------
    OnsetComparison
    """
    curves = []
    for value, name in ((leaky_test, "leaky_test"), (linear_test, "linear_test")):
        time, x = _check_curves(time, value, name, positive=True)
        if x.ndim != 2 or len(x) < 1:
            raise ValueError(f"{name} must have shape (runs >= 1, T); got shape {x.shape}")
        curves.append(x)
    if curves[0].shape != curves[1].shape:
        raise ValueError(f"leaky_test and linear_test must have the same shape; got {curves[0].shape} and "
                         f"{curves[1].shape}")
    if time[-1] <= 0:
        raise ValueError(f"time must end after t = 0 (its last record is the horizon); got {time.tolist()}")
    onsets = [overfitting_onset(time, x) for x in curves]
    horizon = float(time[-1])
    mean = [np.inf if np.isnan(o).all() else float(np.nanmean(o)) for o in onsets]
    return OnsetComparison(mean[0], mean[1], *(onset_log_ratio(*onsets, horizon, bound=b) for b in ("upper", "lower")))
# App. H, Fig. 14: learning curves of TA and random students of one rank on every data set
# ----------------------------------------------------------------------------------------

__all__ += ["PairedCurves", "train_paired_curves"]


@dataclass(frozen=True)
class PairedCurves:
    """Learning curves of a TA and a random student on every data set of a sweep (:func:`train_paired_curves`).

    The first ``B`` students are training aligned, the last ``B`` their random twins on the same data
    (:func:`ta_and_random`).
    """

    time: np.ndarray  #: record times ``t / tau``, shape (T,), from 0
    train_error: np.ndarray  #: training error, eq. (4), shape (2 B, T)
    test_error: np.ndarray  #: test error, eq. (5), shape (2 B, T)
    hidden: int  #: hidden units ``N2`` of every student (its rank)

    def ta_errors(self, kind: str = "train") -> np.ndarray:
        """The TA students' ``"train"`` or ``"test"`` errors after ``t = 0``, shape ``(B, T - 1)``."""
        kind = _checks.choice(kind, "kind", ("train", "test"))
        errors = self.train_error if kind == "train" else self.test_error
        return errors[:len(errors) // 2, 1:]

    def optimal_stopping(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each student's optimal stopping time and minimum test error, the record at ``t = 0`` left out.

        ``{"TA": (t_opt, e_min), "random": (t_opt, e_min)}``, each of shape ``(B,)``
        (:func:`paired_optimal_stopping`).
        """
        return paired_optimal_stopping(self.time[1:], self.test_error[:, 1:])


def train_paired_curves(sweep: SnrSweep, *, hidden: int, lr: float, epochs: int, n_records: int, eps: float,
                        rng: seeding.Rng = None, device: str | torch.device = "cpu", **former: object
                        ) -> PairedCurves:
    """Train a TA and a random student of one hidden layer on every data set of ``sweep``, eq. (8) (App. H).

    One batch of :func:`train_students` on the data of :func:`ta_and_random` (``n_layers = 3``, float32),
    recording the training error (4) and the test error (5) of every student. A student of
    ``hidden < N3`` units has rank ``hidden``: a TA student learns the top ``hidden`` modes of its data
    (eqs. 6-7 with eq. 9 for those modes; eqs. 14-15 with the rank-``N2`` region ``R_in``).

    Parameters
    ----------
    sweep : SnrSweep
        The data sets (:func:`snr_sweep`), ``B`` of them.
    hidden : int
        Hidden units ``N2 >= 1``, the students' rank.
    lr : float
        Learning rate (``tau = 1 / lr``), below :func:`stability_limit`.
    epochs : int
        Full-batch steps, ``>= 1`` (``t / tau`` up to ``epochs * lr``).
    n_records : int
        Recorded epochs (:func:`log_epoch_grid`), ``>= 2``.
    eps : float
        Initial scale of every student (the singular values of its composite map), ``> 0``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the random students' initial weights; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    device : str or torch.device
        Where to train.

    Returns
    -------
    PairedCurves
        The records, TA students first.
    """
    rng = seeding.former_rng(rng, former, "train.train_paired_curves", alone=True)
    sweep = _checks.instance(sweep, "sweep", SnrSweep, hint=" (see snr_sweep)")
    hidden = _checks.integer(hidden, "hidden", 1, " (hidden units, the students' rank)")
    n_records = _checks.integer(n_records, "n_records", 2, " (recorded epochs)")
    device = _checks.torch_device(device)
    data, teacher, init = ta_and_random(sweep)
    res = train_students(data, Architecture(hidden=hidden), Schedule(lr=lr, epochs=epochs, n_records=n_records),
                         start=Start(init=init, eps=eps), evaluation=Evaluation(teacher=teacher),
                         execution=Execution(device=device, desc=f"rank-{hidden} students"), rng=rng)
    return PairedCurves(res.time, res.train_error, res.test_error, hidden)


# ----------------------------------------------------------------------------------------
# App. G, Fig. 13: full-rank TA students of tasks with P examples, and where they converge
# ----------------------------------------------------------------------------------------

__all__ += ["SampledStudents", "train_sampled_students"]


@dataclass(frozen=True)
class SampledStudents:
    """Full-rank TA students of data sets of ``P`` examples, and the map each converges to (:func:`train_sampled_students`)."""

    time: np.ndarray  #: record times ``t / tau``, shape (T,), from 0
    test_error: np.ndarray  #: test error, eq. (5), shape (B, T)
    converged_error: np.ndarray  #: test error of the map reached as ``t -> inf`` (App. G.3), shape (B,)
    sigma31_norm: float  #: the largest ``||Sigma31||_2`` of the data sets (it bounds the curvature met in training)

    @property
    def best(self) -> np.ndarray:
        """Each student's minimum test error over the records (its optimal early stopping), shape (B,)."""
        return self.test_error.min(-1)


def train_sampled_students(data: tuple[torch.Tensor, torch.Tensor], teacher: torch.Tensor, spec: FullBatchSpec, *,
                           check_stability: bool = True, device: str | torch.device = "cpu") -> SampledStudents:
    """Train TA students of one hidden layer on data sets of ``P`` examples each, eq. (8) (App. G, Fig. 13).

    Every student starts from the aligned (TA) initialisation of scale ``spec.eps`` and follows full-batch
    gradient descent in float32 (:func:`train_students`) for ``spec.epochs`` steps; its test error (5) is
    exact against its teacher. The map it converges to is computed directly (in float64,
    :func:`gendyn.task_data.converged_map`): the least-squares solution on the span of the inputs and the
    initial map on the frozen directions no example touches.

    Parameters
    ----------
    data : (Tensor, Tensor)
        Inputs ``(B, N1, P)`` and targets ``(B, N3, P)`` (:func:`gendyn.task_data.sampled_task`; sets of
        different ``P`` stacked with zero examples, :func:`gendyn.task_data.stack_examples`).
    teacher : Tensor, shape (B, N3, N1)
        The noise-free teacher ``Wbar`` of each data set.
    spec : FullBatchSpec
        ``n1``, ``n2`` (hidden units), ``n3`` of the data, and the training: ``lr``, ``horizon``, ``n_records``,
        ``eps``.
    check_stability : bool
        Refuse an ``lr`` at or above :func:`stability_limit` of some data set. For Gaussian inputs with
        ``P`` near ``N1`` that limit is set by the near-zero eigenvalues of ``Sigma11``, whose modes are
        learned only long after the optimal stopping time; ``False`` skips it (``sigma31_norm`` then says how
        close ``lr`` came to the curvature met along the way).
    device : str or torch.device
        Where to train.

    Returns
    -------
    SampledStudents
    """
    from .deep_linear import linear_test_error

    spec = _checks.instance(spec, "spec", FullBatchSpec, hint=" (sizes and training)")
    if not (isinstance(data, (tuple, list)) and len(data) == 2):
        raise ValueError(f"data must be a pair (inputs, targets) of tensors; got {type(data).__name__}")
    inputs = _checks.tensor(data[0], "data[0] (inputs)", 3, finite=True)
    targets = _checks.tensor(data[1], "data[1] (targets)", 3, finite=True)
    teacher = _checks.tensor(teacher, "teacher", 3, finite=True)
    b, n3, n1 = teacher.shape
    if (n1, n3) != (spec.n1, spec.n3) or inputs.shape[:2] != (b, n1) or targets.shape != (b, n3, inputs.shape[2]):
        raise ValueError(f"data and teacher must have shapes (B, N1, P), (B, N3, P) and (B, N3, N1) with N1 = "
                         f"spec.n1 = {spec.n1}, N3 = spec.n3 = {spec.n3}; got {tuple(inputs.shape)}, "
                         f"{tuple(targets.shape)} and {tuple(teacher.shape)}")
    check_stability = _checks.flag(check_stability, "check_stability")
    device = _checks.torch_device(device)
    result = train_students((inputs.float(), targets.float()), Architecture(hidden=spec.n2),
                            Schedule(lr=spec.lr, epochs=spec.epochs, n_records=spec.n_records,
                                     check_stability=check_stability),
                            start=Start(init="aligned", eps=spec.eps), evaluation=Evaluation(teacher=teacher.float()),
                            # rng=0 here and below: nothing is drawn (aligned start, exact test error of linear
                            # students), but rng=None would ask for fresh entropy, which $GENDYN_REQUIRE_RNG=1 refuses
                            execution=Execution(device=device, desc=f"{b} students"), rng=0)
    w0 = composite_map(init_weights((targets @ inputs.mT), spec.n2, 3, "aligned", spec.eps, rng=0, dtype=torch.float64))
    w_inf = task_data.converged_map(inputs, targets, w0)
    converged = linear_test_error(w_inf, teacher)
    sigma31_norm = torch.linalg.matrix_norm(targets @ inputs.mT, ord=2).max().item()
    return SampledStudents(result.time, result.test_error, converged, sigma31_norm)


# ----------------------------------------------------------------------------------------
# §3.3-3.4, Figs. 3 and 4: the exact optimum of TA students, and how the exact errors
# approach the asymptotic eqs. (14)-(15) as N1 grows
# ----------------------------------------------------------------------------------------

from . import deep_linear  # noqa: E402  (here, not at the top, to keep this section self-contained)

__all__ += ["OptimalStopping", "exact_ta_optimum", "AsymptoticGap", "asymptotic_gap"]


class OptimalStopping(NamedTuple):
    """Optimal early stopping of each data set (:func:`exact_ta_optimum`)."""

    #: optimal stopping time ``t_opt / tau`` of each data set
    time: np.ndarray
    #: minimum test error of each data set
    error: np.ndarray


def exact_ta_optimum(t: ArrayLike, sigma31: ArrayLike, teacher: ArrayLike, eps: float, *, n_layers: int,
                     n2: int | None = None, lr: float | None = None) -> OptimalStopping:
    """The optimum of the exact test error of a TA student on each data set, read off the times ``t``.

    The test error of eqs. (6)-(7) with each data mode's own dynamics (eq. 9, App. A:
    :func:`gendyn.deep_linear.sampled_ta_errors`; with ``lr``, delayed by gradient descent:
    :func:`gendyn.deep_linear.delayed_ta_errors`), minimised over ``t`` as a student's records are
    (:func:`empirical_optimal_stopping`): the finite-size truth of the optimum on these data sets,
    without a student. On a fine grid the read-out is exact to well below a per cent.

    Parameters
    ----------
    t : array_like, shape (T,)
        Increasing times ``t / tau >= 0``.
    sigma31, teacher : array_like, shape (B, N3, N1)
        Training covariances and noise-free teachers ``Wbar`` (numpy or torch).
    eps : float
        Composite initial singular value of the students, ``> 0``.
    n_layers : int
        Layers of units ``N_l >= 3``.
    n2 : int, optional
        Student rank (hidden width); default ``min(N1, N3)``.
    lr : float, optional
        Learning rate of gradient descent; ``None``: the gradient flow.

    Returns
    -------
    OptimalStopping
        ``time`` and ``error``, each of shape ``(B,)``.
    """
    if lr is None:
        test = deep_linear.sampled_ta_errors(t, sigma31, teacher, deep_linear.TaStudent(eps=eps, n2=n2, n_layers=n_layers))[1]
    else:
        test = deep_linear.delayed_ta_errors(t, sigma31, teacher, eps, n2=n2, n_layers=n_layers, lr=lr)[1]
    return OptimalStopping(*empirical_optimal_stopping(t, test))


class AsymptoticGap(NamedTuple):
    """The exact TA theory of the data sets of one sweep against eqs. (14)-(15) (:func:`asymptotic_gap`).

    One entry per condition (teacher rank and SNR multiplier) of the sweep, in its order.
    """

    #: the conditions ``(rank, svm)``
    conditions: tuple[tuple[int, float], ...]
    #: mean over the times of ``|log10 <eps_train> - log10 eq. (14)|``, ``<.>`` the mean over the data sets
    train: np.ndarray
    #: the same for the test error and eq. (15)
    test: np.ndarray
    #: optimum of the exact TA test error of each data set on the fine grid, shape (conditions, runs)
    exact: OptimalStopping
    #: optimum of eq. (15) at this size (:func:`gendyn.deep_linear.optimal_early_stopping`), shape (conditions,)
    theory: OptimalStopping


def asymptotic_gap(sweep: SnrSweep, t: ArrayLike, t_fine: ArrayLike, *, eps: float,
                   n_layers: int) -> AsymptoticGap:
    """How far the exact TA errors of a sweep's data sets are from their ``N1 -> inf`` limit, eqs. (14)-(15).

    Full-rank TA students (``N2 = N3``). Per condition of ``sweep``: the exact errors (eqs. 6-7,
    :func:`gendyn.deep_linear.sampled_ta_errors`) averaged over its data sets, against the asymptotic
    ones (:func:`gendyn.deep_linear.theory_errors`) at the times ``t``; and the exact optimum of each data
    set (:func:`exact_ta_optimum` on ``t_fine``) beside eq. (15)'s. Drawing sweeps of growing ``N1`` at
    fixed ``A = N3/N1`` shows the finite-size gap closing (Lampinen & Ganguli §3.3).

    Parameters
    ----------
    sweep : SnrSweep
        The data sets (:func:`snr_sweep`), the same number per condition.
    t : array_like, shape (T,)
        Times ``t / tau > 0`` of the error curves.
    t_fine : array_like, shape (T',)
        Increasing times ``>= 0`` on which the optimum is read.
    eps : float
        Composite initial singular value, ``> 0``.
    n_layers : int
        Layers of units ``N_l >= 3``.

    Returns
    -------
    AsymptoticGap
    """
    sweep = _checks.instance(sweep, "sweep", SnrSweep, hint=" (see snr_sweep)")
    fine = _checks.real_array(t_fine, "t_fine", lower=0.0, ndim=1, extra=" (times of the optimum)")
    if fine.size < 1 or np.any(np.diff(fine) <= 0):
        raise ValueError("t_fine must be a non-empty, increasing 1-d array of times >= 0; got "
                         + (f"{fine.size} times, not increasing" if fine.size else "an empty array"))
    n3, n1 = (int(x) for x in sweep.sigma31.shape[-2:])
    conditions = tuple(dict.fromkeys((int(r), float(s)) for r, s in zip(sweep.rank, sweep.svm)))
    errs = deep_linear.sampled_ta_errors(t, sweep.sigma31, sweep.teacher.matrix, deep_linear.TaStudent(eps=eps, n_layers=n_layers))
    gaps = [[np.abs(np.log10(errs[k][sweep.select(*c)].mean(0))
                    - np.log10(deep_linear.theory_errors(t, sweep.sbar(*c), deep_linear.TaStudent(n1=n1, n2=n3, n3=n3, eps=eps, n_layers=n_layers))[k]))
             .mean() for c in conditions] for k in (0, 1)]
    exact = [exact_ta_optimum(fine, sweep.sigma31[sweep.select(*c)], sweep.teacher.matrix[sweep.select(*c)], eps,
                              n_layers=n_layers) for c in conditions]
    theory = [deep_linear.optimal_early_stopping(sweep.sbar(*c), deep_linear.TaStudent(n1=n1, n2=n3, n3=n3, eps=eps, n_layers=n_layers))
              for c in conditions]
    return AsymptoticGap(conditions, np.array(gaps[0]), np.array(gaps[1]),
                         OptimalStopping(*(np.stack([x[q] for x in exact]) for q in (0, 1))),
                         OptimalStopping(*(np.array([x[q] for x in theory], dtype=float) for q in (0, 1))))


# ----------------------------------------------------------------------------------------
# §3.4, App. A, Fig. 4: records that resolve a deep student's optimum, and the random
# students' excess over the exact TA optimum on the same data sets
# ----------------------------------------------------------------------------------------

__all__ += ["dense_epoch_grid", "RandomExcess", "random_excess"]


def dense_epoch_grid(epochs: int, n_records: int, *, lr: float, dense_from: float, dense_dt: float = 0.02
                     ) -> np.ndarray:
    """Epochs to record: a log grid of about ``n_records`` points, and every ``dense_dt`` tau from ``dense_from`` tau.

    A deep TA student's test error dips for only ~0.1 tau as a teacher mode rises through ``sbar O(sbar)``
    (the minimum of its term in eq. 15, App. A): the dense part resolves that optimum.

    Parameters
    ----------
    epochs : int
        Full-batch steps of the run, ``>= 1``.
    n_records : int
        Points of the log grid (:func:`log_epoch_grid`), ``>= 2``.
    lr : float
        Learning rate (``t / tau = epochs x lr``), ``> 0``.
    dense_from : float
        Start of the dense records in units of tau, ``>= 0``.
    dense_dt : float
        Spacing of the dense records in units of tau, ``> 0`` (at least one epoch).

    Returns
    -------
    ndarray of int
        Sorted unique epochs in ``[0, epochs]``, 0 included.
    """
    epochs = _checks.integer(epochs, "epochs", 1)
    n_records = _checks.integer(n_records, "n_records", 2)
    lr = _checks.positive(lr, "lr", " (the learning rate)")
    dense_from = _checks.real(dense_from, "dense_from", extra=" (in units of tau)")
    dense_dt = _checks.positive(dense_dt, "dense_dt")
    dense = np.arange(int(round(dense_from / lr)), epochs + 1, max(1, int(round(dense_dt / lr))))
    return np.union1d(log_epoch_grid(epochs, n_records), dense)


class RandomExcess(NamedTuple):
    """Random students' minimum test error over the exact TA minimum on the same data sets (:func:`random_excess`).

    One entry per data set, in the order of its sweep (:func:`snr_sweep`: rank-major, then SNR).
    """

    #: teacher rank of each data set
    rank: np.ndarray
    #: SNR multiplier of each data set
    svm: np.ndarray
    #: paired relative excess ``e_min(random) / e_min(TA) - 1``
    excess: np.ndarray
    #: whether the random student's minimum is at its last record (cut off by the horizon)
    at_end: np.ndarray

    def select(self, rank: int, svm: float) -> np.ndarray:
        """Boolean mask of the data sets of one condition."""
        return (self.rank == rank) & np.isclose(self.svm, svm)


def random_excess(spec: FullBatchSpec, *, svms: ArrayLike, ranks: Sequence[int], runs: int, n_layers: int,
                  rng: seeding.Rng = None, device: str | torch.device = "cpu", **former: object) -> RandomExcess:
    """How much higher a randomly initialised student's minimum test error is than a TA student's (App. B, Fig. 4).

    Draws ``runs`` fresh data sets per rank and SNR (:func:`snr_sweep`, sizes of ``spec``) and trains only
    random students on them (composite initial scale ``spec.eps``, ``spec.horizon`` tau at ``spec.lr``,
    recorded on :func:`dense_epoch_grid` from 5 % of the horizon); a TA student's error on each data set is
    known exactly with the gradient-descent delay (eqs. 6-7 with eq. 9 / App. A,
    :func:`gendyn.deep_linear.delayed_ta_errors`), so its minimum is read off the same record times
    (:func:`exact_ta_optimum`) and the two minima are paired.

    Parameters
    ----------
    spec : FullBatchSpec
        Sizes ``n1``, ``n2`` (hidden units), ``n3`` (``n3 <= n1``), learning rate, horizon, log-grid points
        and initial scale.
    svms : array_like
        SNR multipliers of the teachers (:func:`snr_sweep`).
    ranks : sequence of int
        Teacher ranks.
    runs : int
        Data sets per rank and SNR, ``>= 2``.
    n_layers : int
        Layers of units ``N_l >= 3``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the data sets, then of the random initial weights (one generator, in that order); ``None``:
        fresh entropy (see :mod:`gendyn.seeding`).
    device : str or torch.device
        Where to train.

    Returns
    -------
    RandomExcess
    """
    rng = seeding.former_rng(rng, former, "train.random_excess", alone=True)
    spec = _checks.instance(spec, "spec", FullBatchSpec, hint=" (see FullBatchSpec)")
    runs = _checks.integer(runs, "runs", 2)
    device = _checks.torch_device(device)
    generator = seeding.torch_generator(rng)
    data = snr_sweep(svms, ranks, runs, spec.n1, spec.n3, rng=generator)
    rec = dense_epoch_grid(spec.epochs, spec.n_records, lr=spec.lr, dense_from=0.05 * spec.horizon)
    res = train_students(data.sigma31.float(), Architecture(hidden=spec.n2, n_layers=n_layers),
                         Schedule(lr=spec.lr, epochs=spec.epochs, record_at=rec),
                         start=Start(init="random", eps=spec.eps),
                         evaluation=Evaluation(teacher=data.teacher.matrix.float()),
                         execution=Execution(device=device, desc=f"random students, eps = {spec.eps:g}"),
                         rng=generator)
    t_rec = res.time[1:]
    t_rand, e_rand = empirical_optimal_stopping(t_rec, res.test_error[:, 1:])
    e_ta = exact_ta_optimum(t_rec, data.sigma31, data.teacher.matrix, spec.eps, n2=spec.n2, n_layers=n_layers,
                            lr=spec.lr).error
    return RandomExcess(data.rank, data.svm, e_rand / e_ta - 1, t_rand >= t_rec[-1])


# ----------------------------------------------------------------------------------------
# Specs of train_students: what a batch of students is, how it trains, where it starts, what it
# records and where it runs (Issue 33: small frozen dataclasses instead of one wide signature)
# ----------------------------------------------------------------------------------------

__all__ += ["Architecture", "Schedule", "Start", "Evaluation", "Execution", "train_specs"]


@dataclass(frozen=True)
class Architecture:
    """The students' architecture (:func:`train_students`, :func:`train_ta_and_random`).

    Attributes
    ----------
    hidden : int
        Hidden width ``N2`` (all hidden layers), ``>= 1``.
    n_layers : int
        Layers of units ``N_l >= 3``, input and output included: 3 for one hidden layer, 5 for three.
    activation : None, "linear" or "leaky_relu"
        Nonlinearity of the hidden layers (§3.5); ``None`` is ``"linear"``.
    slope : float
        Negative-side slope of the leaky ReLU, in ``[0, 1]`` (0.2: TensorFlow's default, which the
        authors' nonlinear scripts used).
    output_activation : bool
        Also apply the leaky ReLU to the output layer (the authors' nonlinear scripts do).
    heads : tuple of int, optional
        Output sizes of the heads (summing to ``N3``): one head per task sharing every layer but the
        last (§4); ``None``: one head.
    """

    hidden: int
    n_layers: int = 3
    activation: str | None = None
    slope: float = 0.2
    output_activation: bool = False
    heads: tuple[int, ...] | None = None

    def __post_init__(self):
        _checks.integer(self.hidden, "hidden", 1, " (hidden width N2)")
        _check_n_layers(self.n_layers)
        _check_activation(self.activation, self.slope)
        _checks.flag(self.output_activation, "output_activation")
        if self.heads is not None:
            object.__setattr__(self, "heads", tuple(_checks.integers(self.heads, "heads", 1,
                                                                     meaning=" (output sizes summing to N3)")))

    @property
    def linear(self) -> bool:
        """Whether the students are linear (no activation)."""
        return self.activation in (None, "linear")


@dataclass(frozen=True)
class Schedule:
    """How the students train (:func:`train_students`): full-batch gradient descent and its records.

    Attributes
    ----------
    lr : float
        Learning rate ``lambda = 1/tau`` (``> 0``; below :func:`stability_limit` for linear students).
    epochs : int
        Full-batch steps, ``>= 1``.
    record_at : tuple of int, optional
        Epochs at which to record, in ``[0, epochs]``; ``None``: ``log_epoch_grid(epochs, n_records)``.
    n_records : int
        Points of the default record grid, ``>= 2``.
    check_stability : bool
        Raise if ``lr`` is at or above :func:`stability_limit` (linear students).
    """

    lr: float = 1e-3
    epochs: int = 10_000
    record_at: tuple[int, ...] | None = None
    n_records: int = 100
    check_stability: bool = True

    def __post_init__(self):
        _checks.positive(self.lr, "lr", " (the learning rate)")
        epochs = _checks.integer(self.epochs, "epochs", 1)
        _checks.integer(self.n_records, "n_records", 2)
        _checks.flag(self.check_stability, "check_stability")
        if self.record_at is not None:
            grid = _checks.integers(self.record_at, "record_at", 0, meaning=f" (epochs in [0, {epochs}])")
            if max(grid) > epochs:
                raise ValueError(f"record_at must be a non-empty sequence of integer epochs in [0, {epochs}]; "
                                 f"got {self.record_at!r}")
            object.__setattr__(self, "record_at", tuple(int(e) for e in grid))


@dataclass(frozen=True, eq=False)
class Start:
    """Where the students start (:func:`train_students`): a balanced initialisation or given weights.

    Attributes
    ----------
    init : str or tuple of str
        ``"aligned"`` (TA) or ``"random"`` (:data:`INITS`), one for all networks or one per network
        (:func:`init_weights`). Ignored when ``weights`` is given.
    eps : float or array_like
        Initial singular value of the composite map (``> 0``; one, or one per network).
    weights : sequence of torch.Tensor, optional
        Initial weights (copied), ``W^{21}`` first; replaces ``init``.
    """

    init: str | tuple[str, ...] = "aligned"
    eps: ArrayLike = 1e-5
    weights: Sequence[torch.Tensor] | None = None

    def __post_init__(self):
        if not isinstance(self.init, str):
            try:
                object.__setattr__(self, "init", tuple(self.init))
            except TypeError:
                raise ValueError(f"init must be one of {INITS} or a sequence of them, one per network; "
                                 f"got {self.init!r}") from None
        _check_inits(self.init, 1 if isinstance(self.init, str) else len(self.init))
        ndim = self.eps.ndim if isinstance(self.eps, torch.Tensor) else np.ndim(self.eps)
        if ndim > 1:
            raise ValueError(f"eps must be a number > 0 or a 1-d sequence of them, one per network; got {ndim} "
                             f"dimensions")
        if isinstance(self.eps, torch.Tensor):
            size = self.eps.numel()
        else:
            try:
                size = int(np.size(self.eps))
            except (TypeError, ValueError):
                size = 1  # not a number: _eps_tensor says what is allowed
        _eps_tensor(self.eps, max(size, 1), "cpu")
        if self.weights is not None:
            try:
                weights = None if isinstance(self.weights, (torch.Tensor, str)) else tuple(self.weights)
            except TypeError:
                weights = None
            if not weights or not all(isinstance(w, torch.Tensor) for w in weights):
                raise ValueError(f"weights must be a non-empty sequence of torch tensors, W21 first, or None; "
                                 f"got {type(self.weights).__name__}")
            object.__setattr__(self, "weights", weights)


@dataclass(frozen=True, eq=False)
class Evaluation:
    """What :func:`train_students` measures besides the training error: a test error and the singular modes.

    Attributes
    ----------
    teacher : torch.Tensor ``(B, N3, N1)`` or LowRankTeacher, optional
        Noise-free teacher ``Wbar`` for the test error (eq. 5).
    test_data : tuple of torch.Tensor, optional
        ``(X_test, Y_test)``, ``(B, N1, M)`` or ``(N1, M)`` and ``(B, N3, M)``: test error
        ``||f(X_test) - Y_test||^2 / ||Y_test||^2`` (e.g. a nonlinear teacher, App. F). At most one of
        ``teacher`` and ``test_data``.
    n_test : int
        Gaussian test inputs for a nonlinear student with a matrix ``teacher``, ``>= 1``.
    modes : int
        Record the top ``modes`` singular values, alignments and mode strengths of the composite map
        (linear students only; ``0 <= modes <= min(N1, N2, N3)``).
    """

    teacher: torch.Tensor | LowRankTeacher | None = None
    test_data: tuple[torch.Tensor, torch.Tensor] | None = None
    n_test: int = 1000
    modes: int = 0

    def __post_init__(self):
        if self.teacher is not None and not isinstance(self.teacher, (torch.Tensor, LowRankTeacher)):
            raise ValueError(f"teacher must be a torch tensor (B, N3, N1), a LowRankTeacher or None; "
                             f"got {type(self.teacher).__name__}")
        if self.test_data is not None:
            if not (isinstance(self.test_data, (tuple, list)) and len(self.test_data) == 2):
                raise ValueError(f"test_data must be None or a pair (X_test, Y_test); "
                                 f"got {type(self.test_data).__name__}")
            object.__setattr__(self, "test_data", tuple(self.test_data))
        if self.teacher is not None and self.test_data is not None:
            raise ValueError("give at most one of teacher and test_data")
        _checks.integer(self.n_test, "n_test", 1)
        _checks.integer(self.modes, "modes", 0)


@dataclass(frozen=True)
class Execution:
    """The arithmetic and where :func:`train_students` runs; the results depend on ``dtype`` only (and the device's
    rounding).

    Attributes
    ----------
    dtype : torch.dtype
        ``torch.float32`` (default, for speed) or ``torch.float64``.
    device : str or torch.device, optional
        ``"cpu"``, ``"cuda"`` or ``"cuda:N"``; ``None``: the device of the data.
    num_threads : int or None
        CPU threads of the call; ``None`` (default): torch's setting (``torch.get_num_threads()``, a chapter's
        share of the machine). On a CPU the students are split into that many contiguous parts, each trained by
        a thread of its own with torch's own threading off for the call (restored afterwards): the parts never
        wait for each other, where torch's threads inside each small product did (5-10x slower per epoch on a
        CPU shared with other jobs), and each student's arithmetic is the same for any count, so the results do
        not depend on it (tested). Other devices train the batch as one part.
    desc : str or None
        Label of the terminal progress bar (:func:`gendyn.progress.track`).
    """

    dtype: torch.dtype = torch.float32
    device: str | torch.device | None = None
    num_threads: int | None = None
    desc: str | None = "gradient descent"

    def __post_init__(self):
        _check_dtype(self.dtype)
        if self.device is not None:
            _checks.torch_device(self.device)
        if self.num_threads is not None:
            _checks.integer(self.num_threads, "num_threads", 1)
        _checks.text(self.desc, "desc", optional=True)


#: The specs of :func:`train_students` and the keywords of its old one-signature form that each takes.
_TRAIN_SPECS = {"architecture": (Architecture, ("hidden", "n_layers", "activation", "slope", "output_activation",
                                                "heads")),
                "schedule": (Schedule, ("lr", "epochs", "record_at", "n_records", "check_stability")),
                "start": (Start, ("init", "eps", "weights")),
                "evaluation": (Evaluation, ("teacher", "test_data", "n_test", "modes")),
                "execution": (Execution, ("dtype", "device", "num_threads", "desc"))}


def train_specs(**keywords: object) -> dict[str, object]:
    """The specs of :func:`train_students` from its keywords written out flat.

    ``train_specs(hidden=4, lr=0.05, epochs=40, teacher=wbar)`` gives ``{"architecture":
    Architecture(hidden=4), "schedule": Schedule(lr=0.05, epochs=40), "evaluation":
    Evaluation(teacher=wbar)}``: every field of :class:`Architecture`, :class:`Schedule`, :class:`Start`,
    :class:`Evaluation` and :class:`Execution` by its name, plus ``rng`` (and the former ``generator``, passed
    on as it is for :func:`train_students` to warn about). A spec none of whose fields is given is left out (the
    trainer's default).

    Returns
    -------
    dict
        ``train_students(data, **train_specs(**keywords))`` trains the students.
    """
    rest = dict(keywords)
    out = {}
    for name in ("rng", "generator", "seed"):
        if name in rest:
            out[name] = rest.pop(name)
    for name, (cls, fields) in _TRAIN_SPECS.items():
        given = {f: rest.pop(f) for f in fields if f in rest}
        if given or name == "architecture":
            if name == "architecture" and "hidden" not in given:
                raise ValueError("hidden is required: the students' hidden width N2")
            out[name] = cls(**given)
    if rest:
        known = sorted(f for _, fields in _TRAIN_SPECS.values() for f in fields) + ["rng"]
        raise ValueError(f"unknown train_students keyword(s) {sorted(rest)}; allowed: {', '.join(known)}")
    return out
