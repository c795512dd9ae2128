"""Teacher networks and the training data they generate (torch, batched).

Lampinen & Ganguli (2019, §2.1): a rank-``r`` linear teacher ``Wbar = U diag(sbar) V^T``
with random orthonormal ``U`` (``N3 x r``) and ``V`` (``N1 x r``) produces noisy outputs
on ``N1`` orthonormal inputs; the input-output covariance of the training set is
``Sigma31 = Wbar + Z Xhat^T`` (eq. 3), where ``Z`` has i.i.d. entries of variance
``sigma_z^2 / N1``. For orthonormal inputs ``Z Xhat^T`` has the law of ``Z`` itself, so
:func:`noisy_training_covariance` draws it directly.

Every function takes leading batch dimensions, so a whole sweep (SNRs x seeds) is one
tensor program; pass a seeded :class:`torch.Generator` for reproducibility.
"""

from typing import NamedTuple

import numpy as np
import torch

from .progress import track

__all__ = [
    "LowRankTeacher",
    "random_orthonormal",
    "low_rank_teacher",
    "noisy_training_covariance",
    "top_singular_modes",
    "mode_overlaps",
    "measure_spikes",
]


class LowRankTeacher(NamedTuple):
    """A batch of low-rank teachers ``Wbar = U diag(svals) V^T``."""

    U: torch.Tensor  # (..., n_out, r), orthonormal columns
    svals: torch.Tensor  # (..., r)
    V: torch.Tensor  # (..., n_in, r), orthonormal columns

    @property
    def matrix(self):
        """The composite map ``Wbar``, shape ``(..., n_out, n_in)``."""
        return (self.U * self.svals.unsqueeze(-2)) @ self.V.mT


def random_orthonormal(n, r, *, batch=(), generator=None, device="cpu", dtype=torch.float64):
    """Haar-random ``n x r`` matrices with orthonormal columns, shape ``(*batch, n, r)``.

    QR of a Gaussian matrix, with the signs of ``R``'s diagonal moved into ``Q`` so the
    result is exactly Haar distributed.
    """
    if not 0 < r <= n:
        raise ValueError(f"need 0 < r <= n for orthonormal columns; got n={n}, r={r}")
    g = torch.randn(*batch, n, r, generator=generator, device=device, dtype=dtype)
    q, rr = torch.linalg.qr(g)
    return q * torch.sign(torch.diagonal(rr, dim1=-2, dim2=-1)).unsqueeze(-2)


def low_rank_teacher(svals, n_in, n_out, *, generator=None):
    """Random teacher with the given singular values, eq. (1).

    Parameters
    ----------
    svals : torch.Tensor
        Teacher singular values, shape ``(..., r)``; leading dimensions are a batch.
    n_in, n_out : int
        Input and output dimensions ``N1`` and ``N3`` (``r <= n_out <= n_in``).
    generator : torch.Generator, optional
        Source of randomness (on the device of ``svals``).
    """
    if n_out > n_in:
        raise ValueError(f"the teacher needs n_out <= n_in (aspect <= 1); got n_out={n_out}, n_in={n_in}")
    batch, r = svals.shape[:-1], svals.shape[-1]
    kw = dict(batch=batch, generator=generator, device=svals.device, dtype=svals.dtype)
    return LowRankTeacher(random_orthonormal(n_out, r, **kw), svals, random_orthonormal(n_in, r, **kw))


def noisy_training_covariance(teacher, *, noise_std=1.0, generator=None):
    """Input-output covariance of a noisy training set on orthonormal inputs, eq. (3).

    Returns ``Sigma31 = Wbar + Z`` with ``Z_ij ~ N(0, noise_std^2 / N1)``.
    """
    w = teacher.matrix
    n_in = w.shape[-1]
    z = torch.randn(w.shape, generator=generator, device=w.device, dtype=w.dtype)
    return w + z * (noise_std / np.sqrt(n_in))


def top_singular_modes(matrix, k):
    """All singular values and the top ``k`` singular vectors of a batch of wide matrices.

    Uses the symmetric eigenproblem of ``M M^T`` (``n_out x n_out``, ``n_out <= n_in``),
    about twice as fast as a full SVD; the right vectors follow as ``M^T u / s``.

    Returns
    -------
    svals : (..., n_out), descending
    U : (..., n_out, k)
    V : (..., n_in, k)
    """
    evals, evecs = torch.linalg.eigh(matrix @ matrix.mT)
    s = evals.flip(-1).clamp_min(0).sqrt()
    u = evecs[..., -k:].flip(-1)
    v = (matrix.mT @ u) / s[..., :k].unsqueeze(-2)
    return s, u, v


def mode_overlaps(U, V, teacher):
    """Overlaps ``|u_a . ubar_a| |v_a . vbar_a|`` of data modes with teacher modes.

    Mode ``a`` of the data is matched with mode ``a`` of the teacher (both sorted by
    singular value), as in eq. (12). Returns shape ``(..., r)``.
    """
    r = teacher.svals.shape[-1]
    left = (U[..., :r] * teacher.U).sum(-2).abs()
    right = (V[..., :r] * teacher.V).sum(-2).abs()
    return left * right


def measure_spikes(sbar, n_in, aspect, repeats, *, seed=0, device="cpu", chunk=32, keep_spectra=0,
                   dtype=torch.float32):
    """Empirical top singular values and overlaps of noisy low-rank teachers (Fig. 2).

    Parameters
    ----------
    sbar : array_like, shape (G, r)
        Teacher singular values for ``G`` teachers of rank ``r``, sorted descending
        along the last axis.
    n_in : int
        Inputs = examples ``N1``; the outputs are ``N3 = round(aspect * N1)``.
    aspect : float
        ``A = N3 / N1`` in ``(0, 1]``.
    repeats : int
        Independent teachers and noise draws per row of ``sbar``.
    seed : int
        Seed of the torch generator (results are identical run to run on the CPU).
    device : str
        Torch device.
    chunk : int
        Matrices per batched eigen-decomposition (memory ``~ chunk * N1 * N3 * 8`` bytes).
    keep_spectra : int
        Keep the full singular spectra of the first ``keep_spectra`` repeats of every row.
    dtype : torch.dtype
        float32 by default: twice as fast as float64, and its ~1e-6 error on singular
        values and overlaps is far below the finite-size effects measured here.

    Returns
    -------
    dict of numpy arrays
        ``shat`` and ``overlap`` of shape ``(G, repeats, r)``; ``spectra`` of shape
        ``(G, keep_spectra, N3)`` if requested.
    """
    sbar = np.atleast_2d(np.asarray(sbar, dtype=float))
    n_out = int(round(aspect * n_in))
    if not (0 < aspect <= 1) or n_out < 1:
        raise ValueError(f"aspect must lie in (0, 1] with N3 = aspect * N1 >= 1; got aspect={aspect}, N1={n_in}")
    n_rows, r = sbar.shape
    gen = torch.Generator(device=device).manual_seed(seed)
    flat = torch.as_tensor(np.repeat(sbar, repeats, axis=0), dtype=dtype, device=device)
    shat, overlap, spectra = [], [], []
    for start in track(range(0, len(flat), chunk), desc=f"SVDs at A={aspect:g}, N1={n_in}"):
        teacher = low_rank_teacher(flat[start : start + chunk], n_in, n_out, generator=gen)
        sigma31 = noisy_training_covariance(teacher, generator=gen)
        s, u, v = top_singular_modes(sigma31, r)
        shat.append(s[..., :r])
        overlap.append(mode_overlaps(u, v, teacher))
        if keep_spectra:
            spectra.append(s)
    out = {
        "shat": torch.cat(shat).reshape(n_rows, repeats, r).cpu().numpy(),
        "overlap": torch.cat(overlap).reshape(n_rows, repeats, r).cpu().numpy(),
    }
    if keep_spectra:
        out["spectra"] = torch.cat(spectra).reshape(n_rows, repeats, n_out)[:, :keep_spectra].cpu().numpy()
    return out
