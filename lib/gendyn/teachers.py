"""Teacher networks and the training data they generate (torch, batched).

Lampinen & Ganguli (2019, §2.1): a rank-``r`` linear teacher ``Wbar = U diag(sbar) V^T``
with random orthonormal ``U`` (``N3 x r``) and ``V`` (``N1 x r``) produces noisy outputs
on ``N1`` orthonormal inputs; the input-output covariance of the training set is
``Sigma31 = Wbar + Z Xhat^T`` (eq. 3), where ``Z`` has i.i.d. entries of variance
``sigma_z^2 / N1``. For orthonormal inputs ``Z Xhat^T`` has the law of ``Z`` itself, so
:func:`noisy_training_covariance` draws it directly.

Every function takes leading batch dimensions, so a whole sweep (SNRs x seeds) is one
tensor program. Every draw takes ``rng`` (:mod:`gendyn.seeding`): an integer seed (``rng=s``
draws as ``torch.Generator().manual_seed(s)``), a ``SeedSequence`` (a named stream), a torch or
numpy generator, or ``None`` for fresh entropy.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch
from numpy.typing import ArrayLike

from . import _checks, _random, rmt, seeding
from .progress import track

__all__ = [
    "LowRankTeacher",
    "random_orthonormal",
    "low_rank_teacher",
    "noisy_training_covariance",
    "top_singular_modes",
    "mode_overlaps",
    "measure_spikes",
    "PROFILES",
]
__all__ += ["SpikeMeasurement", "SpikeGaps", "spike_gaps"]

#: The authors' teacher spectra (Lampinen & Ganguli's scripts, Figs. 5, 6 and 11): a rank-``r`` teacher of
#: SNR multiplier ``svm`` has singular values ``svm * PROFILES[r] = svm * (r, ..., 1)``, for the two ranks
#: of their figures, 1 and 3.
PROFILES = {1: np.array([1.0]), 3: np.array([3.0, 2.0, 1.0])}


class LowRankTeacher(NamedTuple):
    """A batch of low-rank teachers ``Wbar = U diag(svals) V^T``."""

    U: torch.Tensor  # (..., n_out, r), orthonormal columns
    svals: torch.Tensor  # (..., r)
    V: torch.Tensor  # (..., n_in, r), orthonormal columns

    @property
    def matrix(self) -> torch.Tensor:
        """The composite map ``Wbar``, shape ``(..., n_out, n_in)``."""
        return (self.U * self.svals.unsqueeze(-2)) @ self.V.mT


def _check_teacher(teacher, name="teacher"):
    if not isinstance(teacher, LowRankTeacher):
        raise ValueError(f"{name} must be a LowRankTeacher (see low_rank_teacher); got {type(teacher).__name__}")
    return teacher


def random_orthonormal(n: int, r: int, *, batch: Sequence[int] = (), rng: seeding.Rng = None,
                      device: str | torch.device = "cpu", dtype: torch.dtype = torch.float64,
                      **former: object) -> torch.Tensor:
    """Haar-random ``n x r`` matrices with orthonormal columns, shape ``(*batch, n, r)``.

    QR of a Gaussian matrix, with the signs of ``R``'s diagonal moved into ``Q`` so the
    result is exactly Haar distributed.

    Parameters
    ----------
    n, r : int
        Rows and columns, ``1 <= r <= n``.
    batch : sequence of int
        Leading batch dimensions (each ``>= 1``); ``()`` for one matrix.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the Gaussian matrices; ``None``: fresh entropy (see :mod:`gendyn.seeding`). A torch
        generator may live on any device (drawn there, then moved to ``device``).
    device : str or torch.device
        ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.
    dtype : torch.dtype
        ``torch.float32`` or ``torch.float64``.
    **former
        Deprecated: ``generator=`` instead of ``rng``, accepted for one more release with a
        ``DeprecationWarning``.
    """
    rng = seeding.former_rng(rng, former, "teachers.random_orthonormal", alone=True)
    n, r = _checks.integer(n, "n"), _checks.integer(r, "r")
    if r > n:
        raise ValueError(f"r must be <= n = {n} for orthonormal columns; got {r}")
    batch = _checks.integers(batch, "batch", 1, nonempty=False)
    device = _checks.torch_device(device)
    dtype = _checks.torch_dtype(dtype)
    return _random_orthonormal(n, r, batch, seeding.torch_generator(rng), device, dtype)


# the draw itself lives in _random, so that modules needing only it do not import this one
_random_orthonormal = _random.orthonormal


def low_rank_teacher(svals: torch.Tensor, n_in: int, n_out: int, *,
                     rng: seeding.Rng = None, **former: object) -> LowRankTeacher:
    """Random teacher with the given singular values, eq. (1).

    Parameters
    ----------
    svals : torch.Tensor
        Teacher singular values (finite, ``>= 0``), shape ``(..., r)``; leading dimensions
        are a batch.
    n_in, n_out : int
        Input and output dimensions ``N1`` and ``N3`` (``1 <= r <= n_out <= n_in``).
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the singular vectors (``U`` drawn before ``V``); ``None``: fresh entropy (see
        :mod:`gendyn.seeding`). A torch generator may live on any device (drawn there, then moved to
        the device of ``svals``).
    **former
        Deprecated: ``generator=`` instead of ``rng`` (one more release, ``DeprecationWarning``).
    """
    rng = seeding.former_rng(rng, former, "teachers.low_rank_teacher", alone=True)
    svals = _checks.tensor(svals, "svals", finite=True)
    if svals.ndim < 1 or svals.shape[-1] < 1 or bool((svals < 0).any()):
        raise ValueError(f"svals must be a tensor of singular values >= 0, shape (..., r) with r >= 1; "
                         f"got shape {tuple(svals.shape)}, smallest {float(svals.min()) if svals.numel() else None}")
    n_in, n_out = _checks.integer(n_in, "n_in"), _checks.integer(n_out, "n_out")
    if n_out > n_in:
        raise ValueError(f"the teacher needs n_out <= n_in (aspect <= 1); got n_out={n_out}, n_in={n_in}")
    batch, r = tuple(svals.shape[:-1]), svals.shape[-1]
    if r > n_out:
        raise ValueError(f"svals holds r = {r} singular values per teacher; the rank must be <= n_out = {n_out}")
    args = (batch, seeding.torch_generator(rng), svals.device, svals.dtype)
    return LowRankTeacher(_random_orthonormal(n_out, r, *args), svals, _random_orthonormal(n_in, r, *args))


def noisy_training_covariance(teacher: LowRankTeacher, *, noise_std: float = 1.0,
                              rng: seeding.Rng = None, **former: object) -> torch.Tensor:
    """Input-output covariance of a noisy training set on orthonormal inputs, eq. (3).

    Returns ``Sigma31 = Wbar + Z`` with ``Z_ij ~ N(0, noise_std^2 / N1)`` (``noise_std >= 0``;
    0 gives the teacher itself).

    ``rng`` (int, SeedSequence, torch or numpy Generator, or None) is the source of the noise ``Z``;
    ``None``: fresh entropy (see :mod:`gendyn.seeding`). The former ``generator=`` still works for one
    release, with a ``DeprecationWarning``.
    """
    rng = seeding.former_rng(rng, former, "teachers.noisy_training_covariance", alone=True)
    teacher = _check_teacher(teacher)
    noise_std = _checks.real(noise_std, "noise_std")
    return _noisy(teacher, noise_std, seeding.torch_generator(rng))


def _noisy(teacher, noise_std, generator):
    w = teacher.matrix
    n_in = w.shape[-1]
    z = _random.randn(w.shape, generator=generator, device=w.device, dtype=w.dtype)
    return w + z * (noise_std / np.sqrt(n_in))


def top_singular_modes(matrix: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """All singular values and the top ``k`` singular vectors of a batch of wide matrices.

    Uses the symmetric eigenproblem of ``M M^T`` (``n_out x n_out``, ``n_out <= n_in``),
    about twice as fast as a full SVD; the right vectors follow as ``M^T u / s``.

    Parameters
    ----------
    matrix : torch.Tensor, shape (..., n_out, n_in)
        Finite, ``n_out <= n_in``, with its top ``k`` singular values ``> 0`` (else the right
        vectors are not determined).
    k : int
        Number of singular vectors, ``1 <= k <= n_out``.

    Returns
    -------
    svals : (..., n_out), descending
    U : (..., n_out, k)
    V : (..., n_in, k)
    """
    matrix = _checks.tensor(matrix, "matrix", finite=True)
    if matrix.ndim < 2 or not 1 <= matrix.shape[-2] <= matrix.shape[-1]:
        raise ValueError(f"matrix must have shape (..., n_out, n_in) with 1 <= n_out <= n_in; "
                         f"got {tuple(matrix.shape)}")
    k = _checks.integer(k, "k")
    if k > matrix.shape[-2]:
        raise ValueError(f"k must be <= n_out = {matrix.shape[-2]} (singular vectors of the matrix); got {k}")
    s, u, v = _top_singular_modes(matrix, k)
    if not bool((s[..., k - 1] > 0).all()):
        raise ValueError(f"matrix has rank < k = {k} (a zero singular value among the top k): its right "
                         f"singular vectors M^T u / s are not determined")
    return s, u, v


def _top_singular_modes(matrix, k):
    evals, evecs = torch.linalg.eigh(matrix @ matrix.mT)
    s = evals.flip(-1).clamp_min(0).sqrt()
    u = evecs[..., -k:].flip(-1)
    v = (matrix.mT @ u) / s[..., :k].unsqueeze(-2)
    return s, u, v


def mode_overlaps(U: torch.Tensor, V: torch.Tensor, teacher: LowRankTeacher) -> torch.Tensor:
    """Overlaps ``|u_a . ubar_a| |v_a . vbar_a|`` of data modes with teacher modes.

    Mode ``a`` of the data is matched with mode ``a`` of the teacher (both sorted by
    singular value), as in eq. (12). ``U`` ``(..., n_out, >= r)`` and ``V`` ``(..., n_in, >= r)``
    (e.g. from :func:`top_singular_modes`) broadcast against the teacher's batch. Returns
    shape ``(..., r)``.
    """
    teacher = _check_teacher(teacher)
    r = teacher.svals.shape[-1]
    for name, x, ref in (("U", U, teacher.U), ("V", V, teacher.V)):
        _checks.tensor(x, name, finite=True)
        if x.ndim < 2 or x.shape[-2] != ref.shape[-2] or x.shape[-1] < r:
            raise ValueError(f"{name} must have shape (..., {ref.shape[-2]}, >= {r}) to match the teacher; "
                             f"got {tuple(x.shape)}")
        try:
            torch.broadcast_shapes(x.shape[:-2], ref.shape[:-2])
        except RuntimeError:
            raise ValueError(f"{name} has batch shape {tuple(x.shape[:-2])}, which does not broadcast against "
                             f"the teacher's {tuple(ref.shape[:-2])}") from None
    return _overlaps(U, V, teacher)


def _overlaps(U, V, teacher):
    r = teacher.svals.shape[-1]
    left = (U[..., :r] * teacher.U).sum(-2).abs()
    right = (V[..., :r] * teacher.V).sum(-2).abs()
    return left * right


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class SpikeMeasurement(_checks.FormerlyDict):
    """Top singular values and overlaps of noisy low-rank teachers' training data (:func:`measure_spikes`).

    Attributes
    ----------
    shat : ndarray, shape (G, repeats, r)
        The top ``r`` singular values of each draw's ``Sigma31`` (eq. 11 predicts their mean).
    overlap : ndarray, shape (G, repeats, r)
        ``|u_hat . u_bar| |v_hat . v_bar|`` of each mode with its teacher's (eq. 12).
    spectra : ndarray, shape (G, keep_spectra, N3), or None
        The full singular spectra of the first ``keep_spectra`` repeats of each row (eq. 13), if kept.
    """

    shat: np.ndarray
    overlap: np.ndarray
    spectra: np.ndarray | None = None


def measure_spikes(sbar: ArrayLike, n_in: int, aspect: float, repeats: int, *, rng: seeding.Rng = None,
                   keep_spectra: int = 0, execution: SpikeExecution | None = None,
                   **flat: object) -> SpikeMeasurement:
    """Empirical top singular values and overlaps of noisy low-rank teachers (Fig. 2).

    Parameters
    ----------
    sbar : array_like, shape (G, r)
        Teacher singular values (finite, ``>= 0``) for ``G`` teachers of rank
        ``r <= N3``, sorted descending along the last axis.
    n_in : int
        Inputs = examples ``N1``; the outputs are ``N3 = round(aspect * N1)``.
    aspect : float
        ``A = N3 / N1`` in ``(0, 1]``.
    repeats : int
        Independent teachers and noise draws per row of ``sbar``.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the teachers and the noise, drawn chunk by chunk from one torch generator
        (``rng=s`` draws as the former ``seed=s``; the same ``rng``, the same results on the CPU);
        ``None`` (the default; formerly ``seed=0``): fresh entropy (see :mod:`gendyn.seeding`).
    keep_spectra : int
        Keep the full singular spectra of the first ``keep_spectra <= repeats`` repeats of
        every row.
    execution : SpikeExecution, optional
        Device, precision and batch size of the decompositions; ``None``: ``SpikeExecution()``
        (CPU, float32, 32 matrices at a time).
    **flat
        Deprecated: ``device=``, ``chunk=`` and ``dtype=`` instead of ``execution``, and ``seed=``
        instead of ``rng``, accepted for one more release with a ``DeprecationWarning``; the results
        are identical.

    Returns
    -------
    SpikeMeasurement
        ``shat`` and ``overlap`` of shape ``(G, repeats, r)``; ``spectra`` of shape
        ``(G, keep_spectra, N3)`` if requested (else None).
    """
    rng = seeding.former_rng(rng, flat, "teachers.measure_spikes")
    if flat:
        if set(flat) - {"device", "chunk", "dtype"}:
            raise ValueError(f"unknown measure_spikes keyword(s) {sorted(set(flat) - {'device', 'chunk', 'dtype'})}; "
                             f"allowed: rng, keep_spectra, execution")
        if execution is not None:
            raise ValueError("pass either execution or device, chunk and dtype (deprecated), not both")
        warnings.warn("measure_spikes(..., device=..., chunk=..., dtype=...) is deprecated and will be removed in the "
                      "next release: pass measure_spikes(..., execution=SpikeExecution(device=..., dtype=..., "
                      "chunk=...))", DeprecationWarning, stacklevel=2)
        return measure_spikes(sbar, n_in, aspect, repeats, rng=rng, keep_spectra=keep_spectra,
                              execution=SpikeExecution(**flat))
    execution = SpikeExecution() if execution is None else _checks.instance(execution, "execution", SpikeExecution)
    device, chunk, dtype = execution.device, execution.chunk, execution.dtype
    sbar = np.atleast_2d(_checks.real_array(sbar, "sbar", lower=0.0, ndim=(0, 1, 2),
                                            extra=", shape (G, r) (or (r,) for one row)"))
    n_in = _checks.integer(n_in, "n_in")
    aspect = _checks.bounded(aspect, "aspect", 0.0, 1.0, open_lower=True)
    n_out = int(round(aspect * n_in))
    if n_out < 1:
        raise ValueError(f"aspect * n_in must round to N3 >= 1 outputs; got aspect={aspect}, n_in={n_in}")
    n_rows, r = sbar.shape
    if not 1 <= r <= n_out or n_rows < 1:
        raise ValueError(f"sbar must have shape (G, r) with G >= 1 and 1 <= r <= N3 = {n_out}; got {sbar.shape}")
    repeats = _checks.integer(repeats, "repeats")
    keep_spectra = _checks.integer(keep_spectra, "keep_spectra", 0)
    if keep_spectra > repeats:
        raise ValueError(f"keep_spectra must be <= repeats = {repeats}; got {keep_spectra}")
    gen = seeding.torch_generator(rng)
    flat = torch.as_tensor(np.repeat(sbar, repeats, axis=0), dtype=dtype, device=device)
    shat, overlap, spectra = [], [], []
    for start in track(range(0, len(flat), chunk), desc=f"SVDs at A={aspect:g}, N1={n_in}"):
        sv = flat[start : start + chunk]
        args = (tuple(sv.shape[:-1]), gen, sv.device, sv.dtype)
        teacher = LowRankTeacher(_random_orthonormal(n_out, r, *args), sv, _random_orthonormal(n_in, r, *args))
        sigma31 = _noisy(teacher, 1.0, gen)
        s, u, v = _top_singular_modes(sigma31, r)
        shat.append(s[..., :r])
        overlap.append(_overlaps(u, v, teacher))
        if keep_spectra:
            spectra.append(s)
    kept = torch.cat(spectra).reshape(n_rows, repeats, n_out)[:, :keep_spectra].cpu().numpy() if keep_spectra else None
    return SpikeMeasurement(torch.cat(shat).reshape(n_rows, repeats, r).cpu().numpy(),
                            torch.cat(overlap).reshape(n_rows, repeats, r).cpu().numpy(), kept)


@dataclass(frozen=True)
class SpikeGaps:
    """How far measured rank-1 spikes lie from eqs. (11)-(12) at growing sizes (:func:`spike_gaps`).

    Attributes
    ----------
    n_ins : ndarray, shape (S,)
        The numbers of inputs ``N1`` (= examples).
    shat, overlap : ndarray, shape (S,)
        Per size, the mean over the ``sbar`` grid of ``|mean over repeats - theory|`` for the top
        singular value (eq. 11) and for its overlap (eq. 12).
    """

    n_ins: np.ndarray
    shat: np.ndarray
    overlap: np.ndarray

    def exponent(self, which: str) -> float:
        """The least-squares slope of ``log gap`` against ``log N1`` for ``which`` (``"shat"`` or ``"overlap"``)."""
        which = _checks.choice(which, "which", ("shat", "overlap"))
        gaps = getattr(self, which)
        if np.any(gaps <= 0):
            raise ValueError(f"the {which} gaps must all be > 0 for a log-log fit; got {gaps.tolist()}")
        return float(np.polyfit(np.log(self.n_ins), np.log(gaps), 1)[0])


def spike_gaps(sbar: ArrayLike, n_ins: Sequence[int], aspect: float, repeats: int, *, rng: seeding.Rng = None,
               device: str | torch.device = "cpu", **former: object) -> SpikeGaps:
    """Mean absolute gap between measured rank-1 spikes and eqs. (11)-(12) over a grid of ``sbar``, per size.

    At each size ``N1`` of ``n_ins``, :func:`measure_spikes` draws ``repeats`` rank-1 teachers (and noise) per
    teacher singular value of ``sbar``; the gap of a point is ``|mean over repeats - theory|`` of the top data
    singular value (eq. 11, :func:`gendyn.rmt.spike_singular_value`) and of its overlap (eq. 12,
    :func:`gendyn.rmt.spike_overlap`), averaged over the grid. Near the detection threshold the finite-size
    window closes as ``N1^(-1/3)``, elsewhere the gap is sampling noise of order ``N1^(-1/2)``.

    Parameters
    ----------
    sbar : array_like, shape (G,)
        Teacher singular values, finite and ``>= 0``.
    n_ins : sequence of int
        The sizes ``N1`` (inputs = examples), at least two, each with ``N3 = round(aspect * N1) >= 1``.
    aspect : float
        ``A = N3 / N1`` in ``(0, 1]``.
    repeats : int
        Teachers and noise draws per singular value and size.
    rng : int, SeedSequence, torch or numpy Generator, or None
        Source of the teachers and the noise: size ``i`` is measured with the stream
        ``seeding.stream(rng, i)``; ``None``: fresh entropy (see :mod:`gendyn.seeding`).
    device : str
        Torch device of the measurement.
    **former
        Deprecated: ``seed=`` instead of ``rng`` (one more release, ``DeprecationWarning``). The sizes'
        streams replace the former seeds ``seed + i``: the draws differ from those of before.

    Returns
    -------
    SpikeGaps
        The gaps per size; ``exponent("shat")`` and ``exponent("overlap")`` their log-log slopes.
    """
    sbar = _checks.real_array(sbar, "sbar", lower=0.0, ndim=1)
    if sbar.size < 1:
        raise ValueError("sbar must hold at least one teacher singular value; got an empty array")
    n_ins = _checks.integers(n_ins, "n_ins", meaning=" (the sizes N1)")
    if len(n_ins) < 2:
        raise ValueError(f"n_ins must hold at least two sizes (to fit an exponent); got {n_ins}")
    aspect = _checks.bounded(aspect, "aspect", 0.0, 1.0, open_lower=True)
    root = seeding.stream(seeding.former_rng(rng, former, "teachers.spike_gaps", alone=True))  # a generator: drawn once
    shat, overlap = [], []
    for i, n_in in enumerate(n_ins):
        run = measure_spikes(sbar[:, None], n_in, aspect, repeats, rng=seeding.stream(root, i),
                             execution=SpikeExecution(device=device))
        shat.append(np.abs(run.shat[:, :, 0].mean(1) - rmt.spike_singular_value(sbar, aspect)).mean())
        overlap.append(np.abs(run.overlap[:, :, 0].mean(1) - rmt.spike_overlap(sbar, aspect)).mean())
    return SpikeGaps(np.array(n_ins, dtype=float), np.array(shat), np.array(overlap))


# ----------------------------------------------------------------------------------------
# Spec of measure_spikes (Issue 33: small frozen dataclasses instead of wide signatures)
# ----------------------------------------------------------------------------------------

__all__ += ["SpikeExecution"]


@dataclass(frozen=True)
class SpikeExecution:
    """Where and in what precision :func:`measure_spikes` decomposes its matrices.

    Attributes
    ----------
    device : str or torch.device
        Torch device (``"cpu"``, ``"cuda"`` or ``"cuda:N"``).
    dtype : torch.dtype
        float32 by default: twice as fast as float64, and its ~1e-6 error on singular
        values and overlaps is far below the finite-size effects measured there.
    chunk : int
        Matrices per batched eigen-decomposition (memory ``~ chunk * N1 * N3 * 8`` bytes), ``>= 1``.
    """

    device: str | torch.device = "cpu"
    dtype: torch.dtype = torch.float32
    chunk: int = 32

    def __post_init__(self):
        object.__setattr__(self, "device", _checks.torch_device(self.device))
        object.__setattr__(self, "dtype", _checks.torch_dtype(self.dtype))
        object.__setattr__(self, "chunk", _checks.integer(self.chunk, "chunk"))
