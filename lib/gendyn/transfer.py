"""Transfer of knowledge between two tasks learned by one two-headed student (§4, App. D).

Lampinen & Ganguli (2019, §4): two tasks A and B share their ``N1`` (orthonormal) inputs;
teacher ``X`` (``X = A, B``) is ``Wbar^X = Ubar^X Sbar^X Vbar^X^T`` with ``N3_X`` outputs.
A *two-headed* student shares every layer but the last and learns the composite teacher
``Wbar^{A+B} = [Wbar^A; Wbar^B]`` (eq. 24) from ``Sigma31 = Wbar^{A+B} + Z`` (eq. 3, with
``N3 = N3_A + N3_B`` outputs, aspect ``A' = (N3_A + N3_B)/N1``). With optimal early
stopping of head A (the minimum over training time of its test error) it reaches
``eps_{A<-B}^opt``; a student of task A alone reaches ``eps_A^opt``. The transfer benefit is
their difference (§4)

    T^{A<-B} = eps_A^opt - eps_{A<-B}^opt       (> 0: B helps A, < 0: interference).

Theory implemented here
-----------------------
*Modes of the composite teacher (App. D).* With ``D = diag(Sbar^A, Sbar^B)^2`` and the Gram
matrix ``G = [[I, Q], [Q^T, I]]`` of the input modes, ``Q = Vbar^A^T Vbar^B``, let
``D^(1/2) G D^(1/2) = sum_k sigma_k^2 y_k y_k^T`` (an ``(rA + rB)``-dimensional eigenproblem,
the symmetric form of App. D's ``[[I, Q], [Q^T, I]] Sbar^2``). Then the composite teacher
has singular values ``sigma_k`` with right vectors ``v_k = Vbar^{AB} D^(1/2) y_k / sigma_k``
and left vectors ``u_k = Ubar^{AB} y_k`` (``Ubar^{AB}`` block-diagonal, eq. 24). The share of
mode ``k`` in head A is ``a_k = ||P_A u_k||^2 = ||y_k^A||^2`` (the first ``rA`` entries), and
``P_A Wbar^{A+B} v_k = Wbar^A v_k = sigma_k P_A u_k``. Everything depends on ``Sbar^A``,
``Sbar^B`` and ``Q`` only: this is Theorem 1 (no dependence on ``Ubar^A``, ``Ubar^B``).

*Head-A test error of the TA student* (App. C's projected error, eq. 23, with the
random-matrix description of §3.2 applied to the composite data). The data has an outlier
at ``shat_k = shat(sigma_k; A')`` (eq. 11) whose left and right singular vectors overlap the
teacher's by ``L_k = (sigma^4 - A')/(sigma^2 (sigma^2 + A'))`` and
``R_k = (sigma^4 - A')/(sigma^2 (sigma^2 + 1))`` (squared; the two brackets of eq. 12,
``O_k = sqrt(L_k R_k)``); their remaining parts point in random directions, of which a share
``f_A = N3_A/(N3_A + N3_B)`` lies in head A. A TA student with mode strengths
``s_k(t) = s(t, shat_k)`` (eq. 9) thus has

    eps_{A<-B}(t) = [ sum_k ( s_k^2 (L_k a_k + (1 - L_k) f_A) - 2 s_k sigma_k a_k O_k )
                      + f_A (N2 - r) <s(shat, t)^2>_in + ||Sbar^A||^2 ] / ||Sbar^A||^2,

with ``r = rA + rB`` composite modes and the learned noise modes averaged over the top of
the MP law of aspect ``A'`` (:func:`gendyn.deep_linear.noise_mode_averages`). For one task
(``a = f = 1``) this is eq. (15). Like eq. (15) it neglects the ``O(1/sigma^3)`` correlation of
noise modes with the teacher.

Functions
---------
* :func:`composite_modes` -- ``sigma_k`` and ``a_k`` from ``(Sbar^A, Sbar^B, Q)``.
* :func:`composite_input_alignment` -- ``||Vbar^A^T v_k||^2``, how far each composite mode's
  input direction has left task A's (App. D.1).
* :func:`head_test_error` -- ``eps_{A<-B}(t)`` above.
* :func:`joint_optimal_error` -- its minimum over ``t``.
* :func:`transfer_benefit_general` -- ``T^{A<-B}`` for any ranks and ``Q``.
* :func:`transfer_benefit` -- the rank-1 case ``T(sbar_A, sbar_B, q)`` of Fig. 8, vectorised.
* :func:`sampled_head_errors` -- the exact head-A error of TA students on *sampled* data
  (no random-matrix limit): the finite-size counterpart of :func:`head_test_error`.
* :func:`transfer_grid` -- :func:`transfer_benefit` on a grid of Fig. 8 (a :class:`TransferGrid`),
  and :func:`paired_transfer` -- ``T`` of simulated students on it, paired on task A's data;
  :func:`simulated_transfer` -- the same from their optimal errors (a :class:`SimulatedTransfer`);
  :func:`sign_change_overlap` -- the overlap ``q*`` where ``T`` turns positive.
* :func:`composite_example` -- the composite modes and head A's error of one pair of rank-1 tasks
  against ``q`` (a :class:`CompositeExample`).
* :func:`d1_alignments` -- App. D.1 measured on sampled data of a grid and predicted (a :class:`D1Alignments`).
* :func:`sampled_transfer` -- ``T`` of exact TA students on sampled data (a :class:`SampledTransfer`).

Pure numpy/scipy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike

from . import _checks, deep_linear, rmt, stopping

__all__ = [
    "KINDS",
    "composite_modes",
    "composite_input_alignment",
    "head_test_error",
    "joint_optimal_error",
    "transfer_benefit_general",
    "transfer_benefit",
    "sampled_head_errors",
    "TransferGrid",
    "transfer_grid",
    "paired_transfer",
    "sign_change_overlap",
    "CompositeExample",
    "composite_example",
    "SimulatedTransfer",
    "simulated_transfer",
    "D1Alignments",
    "d1_alignments",
    "SampledTransfer",
    "sampled_transfer",
]

#: Forms of the transfer benefit: the paper's difference of optimal errors and the log-ratio.
KINDS = ("difference", "log-ratio")


# ----------------------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------------------


def _overlap_matrix(q, r_a, r_b):
    m = _checks.real_array(q, "overlap (Q = Vbar^A^T Vbar^B)")
    if m.ndim == 0:
        m = m.reshape(1, 1)
    if m.shape != (r_a, r_b):
        raise ValueError(f"the input-mode overlap Q = Vbar^A^T Vbar^B must have shape (rank A, rank B) = "
                         f"({r_a}, {r_b}); got {m.shape}")
    top = np.linalg.norm(m, 2)
    if top > 1 + 1e-12:
        raise ValueError(f"Q = Vbar^A^T Vbar^B must have singular values <= 1 (cosines between unit "
                         f"vectors); got largest {top:.6g}")
    return m


def _sizes(n1, n2, n3_a, n3_b, rank):
    n1, n2, n3_a, n3_b = (_checks.integer(n, name) for n, name in ((n1, "n1"), (n2, "n2"), (n3_a, "n3_a"), (n3_b, "n3_b")))
    n3 = n3_a + n3_b
    if n3 > n1:
        raise ValueError(f"the two heads need n3_a + n3_b <= n1 (composite aspect A' <= 1); "
                         f"got {n3_a} + {n3_b} > {n1}")
    if n2 > n3:
        raise ValueError(f"the student rank n2 must be <= n3_a + n3_b = {n3}; got {n2}")
    if rank > n2:
        raise ValueError(f"the composite teacher has rank {rank} > student rank n2 = {n2}")
    return n1, n2, n3_a, n3_b


# ----------------------------------------------------------------------------------------
# theory
# ----------------------------------------------------------------------------------------


def _composite_eigen(svals_a, svals_b, overlap):
    """Checked inputs and the eigenpairs ``(sigma_k, y_k)`` of ``D^(1/2) G D^(1/2)``, descending,
    zero modes dropped; also returns ``Sbar^A``, ``Sbar^B`` and ``Q``."""
    sa = rmt.check_singular_values(svals_a, "svals_a", vector=True)
    sb = rmt.check_singular_values(svals_b, "svals_b", vector=True)
    q = _overlap_matrix(overlap, sa.size, sb.size)
    r_a, r_b = sa.size, sb.size
    gram = np.eye(r_a + r_b)
    gram[:r_a, r_a:], gram[r_a:, :r_a] = q, q.T
    root = np.concatenate([sa, sb])
    top = root.max()
    if top == 0:
        return np.zeros(0), np.zeros((r_a + r_b, 0)), sa, sb, q
    d = root / top  # work in units of the largest singular value (no overflow)
    lam, y = np.linalg.eigh(d[:, None] * gram * d[None, :])
    order = np.argsort(lam)[::-1]
    lam, y = lam[order], y[:, order]
    keep = lam > 1e-13 * max(lam[0], 1e-300)
    return top * np.sqrt(lam[keep]), y[:, keep], sa, sb, q


def composite_modes(svals_a: ArrayLike, svals_b: ArrayLike, overlap: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Singular values of the two-task teacher and the share of each in head A (App. D).

    Parameters
    ----------
    svals_a, svals_b : array_like, shapes (rA,), (rB,)
        Teacher singular values ``Sbar^A``, ``Sbar^B`` (``>= 0``).
    overlap : array_like, shape (rA, rB)
        ``Q = Vbar^A^T Vbar^B``, the cosines between the tasks' input modes (a scalar ``q``
        for two rank-1 tasks); its singular values must be ``<= 1``.

    Returns
    -------
    sigma : ndarray, shape (r,)
        Singular values of ``Wbar^{A+B}`` (eq. 24), descending; modes of exactly zero
        singular value (e.g. ``q = 1`` with rank-1 tasks) are dropped, so ``r <= rA + rB``.
    share_a : ndarray, shape (r,)
        ``a_k = ||P_A u_k||^2``: the fraction of mode ``k``'s output in head A (and of its
        strength: ``sum_k sigma_k^2 a_k = ||Sbar^A||^2``).

    Notes
    -----
    ``sigma_k^2`` and ``y_k`` are the eigenpairs of ``D^(1/2) G D^(1/2)`` with
    ``D^(1/2) = diag(Sbar^A, Sbar^B)``, ``G = [[I, Q], [Q^T, I]]``; ``a_k = ||y_k^A||^2``
    (module docstring). For rank-1 tasks with ``sbar_A = sbar_B = s`` the eigenvalues are
    ``s^2 (1 +- q)``, App. D's shared and difference modes.
    """
    sigma, y, sa, _, _ = _composite_eigen(svals_a, svals_b, overlap)
    share = (y[: sa.size] ** 2).sum(0)
    return sigma, np.clip(share, 0.0, 1.0)


def composite_input_alignment(svals_a: ArrayLike, svals_b: ArrayLike, overlap: ArrayLike) -> np.ndarray:
    """Share of each composite mode's input direction that lies in task A's input modes (App. D.1).

    Parameters
    ----------
    svals_a, svals_b, overlap
        As in :func:`composite_modes`.

    Returns
    -------
    ndarray, shape (r,)
        ``||Vbar^A^T v_k||^2`` for the right singular vectors ``v_k`` of ``Wbar^{A+B}``, in
        the order of :func:`composite_modes`. For rank-1 tasks with ``sbar_A = sbar_B`` it
        is ``(1 + q)/2`` for the shared mode and ``(1 - q)/2`` for the difference mode: the
        shared mode is stronger than task A's own but, unless ``q = 1``, no longer aligned
        with it (App. D.1).

    Notes
    -----
    ``v_k = Vbar^{AB} D^(1/2) y_k / sigma_k`` (module docstring) and
    ``Vbar^A^T Vbar^{AB} = [I, Q]``, so ``Vbar^A^T v_k = [I, Q] D^(1/2) y_k / sigma_k``.
    """
    sigma, y, sa, sb, q = _composite_eigen(svals_a, svals_b, overlap)
    scale = max(sa.max(initial=0.0), sb.max(initial=0.0))
    if sigma.size == 0:
        return np.zeros(0)
    weighted = np.concatenate([sa, sb])[:, None] / scale * y  # D^(1/2) y_k, in units of scale
    projected = weighted[: sa.size] + q @ weighted[sa.size:]
    return np.clip((projected**2).sum(0) / (sigma / scale) ** 2, 0.0, 1.0)


def _head_parts(svals_a, svals_b, overlap, n1, n2, n3_a, n3_b):
    """Validated ingredients of the head-A error: per-mode constants and bulk sizes."""
    sa = rmt.check_singular_values(svals_a, "svals_a", vector=True)
    if not np.any(sa > 0):
        raise ValueError("svals_a are all zero: head A's test error (normalised by ||Sbar^A||^2) is undefined")
    sigma, share = composite_modes(sa, svals_b, overlap)
    n1, n2, n3_a, n3_b = _sizes(n1, n2, n3_a, n3_b, sigma.size)
    aspect = (n3_a + n3_b) / n1
    f_a = n3_a / (n3_a + n3_b)
    shat = rmt.spike_singular_value(sigma, aspect)
    ovl = rmt.spike_overlap(sigma, aspect)
    left = rmt.spike_vector_overlaps(sigma, aspect)[0]  # |uhat . u|^2
    scale = sa.max()
    norm = ((sa / scale) ** 2).sum()  # ||Sbar^A||^2 / scale^2
    return dict(sigma=sigma, share=share, shat=shat, ovl=ovl, left=left, f_a=f_a, aspect=aspect,
                n_bulk=n3_a + n3_b - sigma.size, n_in=n2 - sigma.size, scale=scale, norm=norm)


def _head_error(t, parts, eps, tau, n_layers):
    """Head-A error of eq. in the module docstring at times ``t`` (1-d)."""
    p = parts
    s = deep_linear.mode_strength(t[:, None], p["shat"], eps, tau, n_layers)
    weight = p["left"] * p["share"] + (1.0 - p["left"]) * p["f_a"]
    sc = p["scale"]
    num = ((s / sc) ** 2 * weight - 2.0 * (s / sc) * (p["sigma"] / sc) * p["share"] * p["ovl"]).sum(-1)
    if p["n_in"] > 0 and p["n_bulk"] > 0:
        bulk = deep_linear.noise_mode_averages(t, p["aspect"], eps, tau, n_layers,
                                               fraction=p["n_in"] / p["n_bulk"])
        num = num + p["f_a"] * p["n_in"] * bulk.learned_sq / sc**2
    return 1.0 + num / p["norm"]


def head_test_error(t: ArrayLike, svals_a: ArrayLike, svals_b: ArrayLike, overlap: ArrayLike,
                    student: deep_linear.TaStudent | None = None, *args: object, n3_a: int | None = None,
                    **flat: object) -> np.ndarray:
    """Test error of head A of a two-headed TA student, ``eps_{A<-B}(t)`` (§4, App. C-D).

    Parameters
    ----------
    t : array_like
        Training times ``>= 0`` (finite), in units of ``tau``.
    svals_a, svals_b, overlap
        The two teachers' singular values and ``Q = Vbar^A^T Vbar^B``
        (:func:`composite_modes`); ``svals_a`` not all zero.
    student : gendyn.deep_linear.TaStudent
        The two-headed student: inputs ``n1`` (= training examples, orthonormal), outputs ``n3`` of
        both heads together (``n3 <= n1``), both required; hidden width ``n2`` = its rank,
        ``r <= n2 <= n3`` (default ``n3``); initial singular value ``eps``, time constant ``tau`` and
        depth ``n_layers`` (:func:`gendyn.deep_linear.mode_strength`).
    n3_a : int
        Outputs of head A (required), ``1 <= n3_a < n3``: head B has the other ``n3_b = n3 - n3_a``.
    *args, **flat
        Deprecated: the former form ``head_test_error(t, svals_a, svals_b, overlap, n1, n2, n3_a, n3_b, eps,
        tau=1.0, n_layers=3)``, accepted for one more release with a ``DeprecationWarning`` (the same results).

    Returns
    -------
    ndarray
        ``eps_{A<-B}(t)``, the formula of the module docstring, shape of ``t``. With a task
        B of zero singular values it is the single-task eq. (15) of a student with
        ``n3_a + n3_b`` outputs of which only head A is scored.
    """
    if deep_linear._is_former(student, args, flat):
        old = _former_heads("head_test_error", ("n1", "n2", "n3_a", "n3_b", "eps", "tau", "n_layers"), student,
                            args, flat, n3_a, "t, svals_a, svals_b, overlap")
        return head_test_error(t, svals_a, svals_b, overlap, old["student"], n3_a=old["n3_a"])
    eps, tau, n_layers, n1, n2, n3_a, n3_b = _two_heads(student, n3_a, "head_test_error")
    parts = _head_parts(svals_a, svals_b, overlap, n1, n2, n3_a, n3_b)
    t = deep_linear._check_array(t, "t (training times)")
    return _head_error(t.ravel(), parts, eps, tau, n_layers).reshape(t.shape)


def joint_optimal_error(svals_a: ArrayLike, svals_b: ArrayLike, overlap: ArrayLike,
                        student: deep_linear.TaStudent | None = None, *args: object, n3_a: int | None = None,
                        t_max: float | None = None, **flat: object) -> tuple[float, float]:
    """Optimal early stopping of head A: ``min_t eps_{A<-B}(t)`` and its time (§4).

    Parameters
    ----------
    svals_a, svals_b, overlap, student, n3_a
        As in :func:`head_test_error`.
    t_max : float, optional
        Longest time considered; default ten times the half-learning time of the median
        noise mode of the composite data, by when noise dominates.
    *args, **flat
        Deprecated: the former form ``joint_optimal_error(svals_a, svals_b, overlap, n1, n2, n3_a, n3_b, eps,
        tau=1.0, n_layers=3, t_max=None)``, accepted for one more release with a ``DeprecationWarning`` (the
        same results).

    Returns
    -------
    t_opt, err_opt : float
        As :func:`gendyn.deep_linear.optimal_early_stopping` does for one task: the error on
        a log grid of 241 times plus the times at which each composite mode alone would be
        optimal for head A (``s_k = sigma_k a_k O_k / (L_k a_k + (1 - L_k) f_A)``), refined
        by bounded Brent minimisation in ``log t`` (:func:`gendyn.stopping.minimum_over_time`);
        ``t_opt = 0`` if learning never helps.
    """
    if deep_linear._is_former(student, args, flat):
        old = _former_heads("joint_optimal_error", ("n1", "n2", "n3_a", "n3_b", "eps", "tau", "n_layers", "t_max"),
                            student, args, flat, n3_a, "svals_a, svals_b, overlap", t_max=t_max)
        return joint_optimal_error(svals_a, svals_b, overlap, old["student"], n3_a=old["n3_a"], t_max=old["t_max"])
    eps, tau, n_layers, n1, n2, n3_a, n3_b = _two_heads(student, n3_a, "joint_optimal_error")
    k = n_layers - 1
    p = _head_parts(svals_a, svals_b, overlap, n1, n2, n3_a, n3_b)
    median = float(rmt.mp_quantile(0.5, p["aspect"]))
    if t_max is None:
        t_max = 10.0 * deep_linear._characteristic_time(median, eps, tau, k)
    t_max = _checks.positive(t_max, "t_max")
    top = float(p["shat"].max()) if p["shat"].size else 1.0 + np.sqrt(p["aspect"])
    t_lo = min(1e-3 * deep_linear._characteristic_time(top, eps, tau, k), 1e-3 * t_max)
    weight = p["left"] * p["share"] + (1.0 - p["left"]) * p["f_a"]
    with np.errstate(divide="ignore", invalid="ignore"):
        ideal = np.where(weight > 0, p["sigma"] * p["share"] * p["ovl"] / weight, 0.0)
    fits = (ideal > eps) & (ideal < p["shat"])
    special = deep_linear.mode_time(ideal[fits], p["shat"][fits], eps, tau, n_layers) if np.any(fits) else []

    def err(times):
        return _head_error(times, p, eps, tau, n_layers)

    return stopping.minimum_over_time(err, t_lo, t_max, special_times=special, zero=True)


def _combine(single, joint, kind):
    if kind == "difference":
        return single - joint
    return np.log(single / joint)


def _check_kind(kind):
    return _checks.choice(kind, "kind", KINDS)


def transfer_benefit_general(svals_a: ArrayLike, svals_b: ArrayLike, overlap: ArrayLike,
                             student: deep_linear.TaStudent | None = None, *args: object, kind: str = "difference",
                             **flat: object) -> tuple[float, float, float]:
    """Transfer benefit ``T^{A<-B}`` for tasks of any rank and input overlap ``Q`` (§4, App. D).

    Parameters
    ----------
    svals_a, svals_b : array_like, shapes (rA,), (rB,)
        Teacher singular values (``svals_a`` not all zero).
    overlap : array_like, shape (rA, rB)
        ``Q = Vbar^A^T Vbar^B``.
    student : gendyn.deep_linear.TaStudent
        The single-task student of task A: inputs ``n1`` (= examples) and outputs ``n3``, both
        required, ``2 n3 <= n1``; hidden width ``n2 <= n3`` (default ``n3``; the paper:
        ``N2 = N3 = 50``); ``eps``, ``tau``, ``n_layers``. The two-headed student is the same
        with a second head of ``n3`` outputs (``2 n3`` in all) and the same ``n2``.
    kind : {"difference", "log-ratio"}
        ``eps_A^opt - eps_{A<-B}^opt`` (the paper's definition) or
        ``ln(eps_A^opt / eps_{A<-B}^opt)``; both are positive when B helps A.
    *args, **flat
        Deprecated: the former form ``transfer_benefit_general(svals_a, svals_b, overlap, n1, n3, n2=None,
        eps=1e-5, tau=1.0, n_layers=3, kind="difference")``, accepted for one more release with a
        ``DeprecationWarning`` (the same results).

    Returns
    -------
    benefit, single, joint : float
        ``T^{A<-B}``, ``eps_A^opt`` (:func:`gendyn.deep_linear.optimal_early_stopping` of task A
        alone) and ``eps_{A<-B}^opt`` (:func:`joint_optimal_error`).
    """
    if deep_linear._is_former(student, args, flat):
        old = _former_pair("transfer_benefit_general", student, args, flat, "svals_a, svals_b, overlap",
                           kind=kind)
        return transfer_benefit_general(svals_a, svals_b, overlap, old["student"], kind=old["kind"])
    kind = _check_kind(kind)
    student, joint_student = _pair(student, "transfer_benefit_general")
    sa = rmt.check_singular_values(svals_a, "svals_a", vector=True)
    if not np.any(sa > 0):
        raise ValueError("svals_a are all zero: head A's test error (normalised by ||Sbar^A||^2) is undefined")
    single = deep_linear.optimal_early_stopping(sa, student)[1]
    joint = joint_optimal_error(sa, svals_b, overlap, joint_student, n3_a=student.n3)[1]
    return float(_combine(single, joint, kind)), float(single), float(joint)


def transfer_benefit(sbar_a: ArrayLike, sbar_b: ArrayLike, q: ArrayLike, student: deep_linear.TaStudent | None = None,
                     *args: object, kind: str = "difference", return_errors: bool = False,
                     **flat: object) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Transfer benefit ``T^{A<-B}(sbar_A, sbar_B, q)`` between two rank-1 tasks (§4, Fig. 8).

    Parameters
    ----------
    sbar_a, sbar_b : array_like
        SNRs of the two tasks (teacher singular values); ``sbar_a > 0``, ``sbar_b >= 0``.
    q : array_like
        Overlap ``q = vbar^A . vbar^B`` of the input modes, in ``[-1, 1]`` (only ``|q|``
        matters). The three arrays broadcast together.
    student, kind
        As in :func:`transfer_benefit_general` (the paper:
        ``TaStudent(n1=100, n2=50, n3=50, eps=1e-5)``, one hidden layer).
    return_errors : bool
        Also return ``eps_A^opt`` and ``eps_{A<-B}^opt``.
    *args, **flat
        Deprecated: the former form ``transfer_benefit(sbar_a, sbar_b, q, n1, n3, n2=None, eps=1e-5, tau=1.0,
        n_layers=3, kind="difference", return_errors=False)``, accepted for one more release with a
        ``DeprecationWarning`` (the same results).

    Returns
    -------
    ndarray or float (or a tuple of three)
        ``T^{A<-B}`` of the broadcast shape; with ``return_errors`` also the single-task
        and joint optimal errors. Each distinct ``sbar_a`` is solved once for the
        single-task error; each grid point costs one :func:`joint_optimal_error`.
    """
    if deep_linear._is_former(student, args, flat):
        old = _former_pair("transfer_benefit", student, args, flat, "sbar_a, sbar_b, q", kind=kind,
                           return_errors=return_errors)
        return transfer_benefit(sbar_a, sbar_b, q, old["student"], kind=old["kind"],
                                return_errors=old["return_errors"])
    kind = _check_kind(kind)
    return_errors = _checks.flag(return_errors, "return_errors")
    student, joint_student = _pair(student, "transfer_benefit")
    sa = _checks.real_array(sbar_a, "sbar_a", lower=0.0, open_lower=True)
    sb = _checks.real_array(sbar_b, "sbar_b", lower=0.0)
    qq = _checks.real_array(q, "q", lower=-1.0, upper=1.0)
    try:
        sa, sb, qq = np.broadcast_arrays(sa, sb, qq)
    except ValueError:
        raise ValueError(f"sbar_a, sbar_b and q must broadcast together; got shapes {sa.shape}, {sb.shape}, "
                         f"{qq.shape}") from None
    single, joint = {}, {}  # a repeated grid point is solved once
    e_single, e_joint = np.empty(sa.shape), np.empty(sa.shape)
    for idx in np.ndindex(sa.shape):
        a, point = float(sa[idx]), (float(sa[idx]), float(sb[idx]), float(qq[idx]))
        if a not in single:
            single[a] = deep_linear.optimal_early_stopping([a], student)[1]
        if point not in joint:
            joint[point] = joint_optimal_error([a], [point[1]], [[point[2]]], joint_student, n3_a=student.n3)[1]
        e_single[idx], e_joint[idx] = single[a], joint[point]
    benefit = _combine(e_single, e_joint, kind)
    out = tuple(x[()] if x.ndim == 0 else x for x in (benefit, e_single, e_joint))
    return out if return_errors else out[0]


def _gd_modes(t, shat, eps, lr, n_layers):
    """Exact gradient descent of balanced TA modes: ``a <- a + lr a^(k-1) (shat - a^k)``, ``u = a^k``.

    ``t`` (units of ``tau = 1/lr``) must be whole epochs; returns ``u`` of shape
    ``(B, T, M)`` for ``shat`` of shape ``(B, M)``.
    """
    k = n_layers - 1
    epochs = np.rint(t / lr).astype(np.int64)
    if np.any(np.abs(epochs * lr - t) > 1e-9 * np.maximum(1.0, t)):
        raise ValueError("with lr given, the times t must be whole numbers of epochs times lr")
    out = np.empty((shat.shape[0], t.size, shat.shape[1]))
    order = np.argsort(epochs)
    a = np.full(shat.shape, eps ** (1.0 / k))
    done = 0
    for j in order:
        while done < epochs[j]:
            a = a + lr * a ** (k - 1) * (shat - a**k)
            done += 1
        out[:, j] = a**k
    return out


def sampled_head_errors(t: ArrayLike, sigma31: ArrayLike, teacher: ArrayLike, n3_a: int,
                        student: deep_linear.TaStudent | None = None, *args: object, chunk: int = 64,
                        lr: float | None = None, **flat: object) -> np.ndarray:
    """Exact head-A test error of TA students on sampled data, eq. (23) with ``P`` = head A.

    A rank-``N2`` TA student of ``Sigma31 = sum_b shat_b uhat_b vhat_b^T`` has
    ``W(t) = sum_{b <= N2} s(t, shat_b) uhat_b vhat_b^T`` (eq. 10) under gradient flow, so its
    error on the first ``n3_a`` output rows (App. C, eq. 23) is, with
    ``c_b = (P_A uhat_b) . Wbar_A vhat_b`` and ``g_b = ||P_A uhat_b||^2``,

        eps_A(t) = [sum_b (s_b^2 g_b - 2 s_b c_b) + ||Wbar_A||^2] / ||Wbar_A||^2.

    Nothing is approximated but gradient flow: this is what :func:`head_test_error` predicts
    in the limit ``N1 -> inf``, evaluated on finite data. With ``n3_a`` = all rows it is the
    single-task test error of :func:`gendyn.deep_linear.sampled_ta_errors`.

    Parameters
    ----------
    t : array_like, shape (T,)
        Times in units of ``tau``.
    sigma31, teacher : array_like, shape (B, N3, N1)
        Data (stacked heads, head A first) and noise-free teachers (numpy or torch).
    n3_a : int
        Rows of head A, ``1 <= n3_a <= N3``; ``Wbar_A`` (its rows of ``teacher``) not zero.
    student : gendyn.deep_linear.TaStudent
        Its ``eps``, ``tau`` and ``n_layers`` (:func:`gendyn.deep_linear.mode_strength`) and rank
        ``n2`` (default ``min(N1, N3)``); ``n1`` and ``n3``, if given, must be the data's.
    chunk : int
        Data sets per batch (memory ``~ chunk * T * N2`` floats).
    lr : float, optional
        Instead of gradient flow, exact full-batch gradient descent with this learning rate
        (``tau = 1/lr``): a balanced TA network keeps its singular vectors and each layer's
        mode value follows ``a <- a + lr a^(k-1) (shat - a^k)`` (``k = N_l - 1``,
        ``u = a^k``, ``a(0) = eps^(1/k)``), which is what
        :func:`gendyn.train.train_students` computes for TA networks, mode by mode. ``t``
        must then be whole epochs times ``lr``.
    *args, **flat
        Deprecated: the former form ``sampled_head_errors(t, sigma31, teacher, n3_a, n2=None, eps=1e-5,
        tau=1.0, n_layers=3, chunk=64, lr=None)``, accepted for one more release with a
        ``DeprecationWarning`` (the same results).

    Returns
    -------
    ndarray, shape (B, T)
    """
    # the former form had defaults for everything after n3_a: no student at all is that form too
    if student is None or deep_linear._is_former(student, args, flat):
        old = deep_linear._former(
            "sampled_head_errors", ("n2", "eps", "tau", "n_layers", "chunk", "lr"), student, args, flat,
            defaults={"eps": 1e-5, "chunk": chunk, "lr": lr},
            new_form=lambda v: f"sampled_head_errors(t, sigma31, teacher, n3_a, {deep_linear._show_student(v)}, "
                               f"chunk={v['chunk']!r}, lr={v['lr']!r})")
        return sampled_head_errors(t, sigma31, teacher, n3_a, old["student"], chunk=old["chunk"], lr=old["lr"])
    student = deep_linear._student(student, "sampled_head_errors")
    eps, tau, n_layers = student.eps, student.tau, student.n_layers
    s31, wbar = deep_linear._check_data(sigma31, "sigma31"), deep_linear._check_data(teacher, "teacher")
    if wbar.shape != s31.shape:
        raise ValueError(f"sigma31 and teacher must both have shape (B, N3, N1); got {s31.shape} and {wbar.shape}")
    b, n3, n1 = s31.shape
    n3_a = _checks.integer(n3_a, "n3_a")
    if n3_a > n3:
        raise ValueError(f"n3_a must be <= N3 = {n3}; got {n3_a}")
    deep_linear._data_sizes(student, s31.shape)
    m = min(n1, n3)
    n2 = m if student.n2 is None else student.n2
    if n2 > m:
        raise ValueError(f"the student rank n2 must be <= min(N1, N3) = {m}; got {n2}")
    norm = (wbar[:, :n3_a] ** 2).sum((-2, -1))
    if np.any(norm == 0):
        raise ValueError("head A of some teacher is zero: its normalised test error is undefined")
    t = deep_linear._check_times(t)
    chunk = _checks.integer(chunk, "chunk")
    if lr is not None:
        lr = _checks.positive(lr, "lr")  # then t is epochs * lr and tau is not used
    if lr is not None:
        epochs = float(np.max(t)) / lr
        _checks.work_limit(4.0 * epochs * b * s31.shape[-1], f"t up to {float(np.max(t)):g} with lr={lr} ({epochs:.3g} "
                           f"epochs)", iterations=epochs)
    out = np.empty((b, t.size))
    for start in range(0, b, chunk):
        sl = slice(start, start + chunk)
        u, s, vh = np.linalg.svd(s31[sl], full_matrices=False)
        ua = u[:, :n3_a, :n2]
        c = np.einsum("bia,bij,baj->ba", ua, wbar[sl, :n3_a], vh[:, :n2])
        g = (ua**2).sum(1)
        if lr is None:
            st = deep_linear.mode_strength(t[None, :, None], s[:, None, :n2], eps, tau, n_layers)
        else:
            st = _gd_modes(t, s[:, :n2], eps, lr, n_layers)
        num = np.einsum("bta,ba->bt", st**2, g) - 2.0 * np.einsum("bta,ba->bt", st, c)
        out[sl] = 1.0 + num / norm[sl, None]
    if not np.all(np.isfinite(out)):
        raise ValueError(f"the head errors overflow (not finite) with n_layers={n_layers}"
                         + (f" and lr={lr}: gradient descent diverges; use a smaller lr or fewer layers" if lr is not None
                            else "; use fewer layers"))
    return out


# ----------------------------------------------------------------------------------------
# the grid of Fig. 8: theory, and simulated students paired on task A's data
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TransferGrid:
    """A grid of Fig. 8 and the theory of ``T^{A<-B}`` on it (:func:`transfer_grid`).

    Attributes
    ----------
    sa, sb, qs : ndarray
        The values of ``sbar_A`` (increasing: one panel each), ``sbar_B`` and ``q``.
    points : ndarray, shape (G, 3)
        Every grid point ``(sbar_A, sbar_B, q)``, in the order of ``meshgrid(sa, sb, qs, indexing="ij")``.
    benefit, single, joint : ndarray, shape (len(sa), len(sb), len(qs))
        ``T^{A<-B}`` and the optimal errors ``eps_A^opt``, ``eps_{A<-B}^opt`` it is the difference of.
    n1, n3 : int
        Examples and outputs per head: they set the finite-size allowance.
    """

    sa: np.ndarray
    sb: np.ndarray
    qs: np.ndarray
    points: np.ndarray
    benefit: np.ndarray
    single: np.ndarray
    joint: np.ndarray
    n1: int
    n3: int

    @property
    def shape(self) -> tuple[int, ...]:
        """``(len(sa), len(sb), len(qs))``."""
        return self.benefit.shape

    @property
    def panel(self) -> np.ndarray:
        """Index into ``sa`` (the panel) of each grid point."""
        return np.searchsorted(self.sa, self.points[:, 0])

    @property
    def threshold(self) -> float:
        """Task A's detection threshold ``(N3 / N1)^(1/4)`` (eq. 11)."""
        return (self.n3 / self.n1) ** 0.25

    def panel_scale(self, i: int) -> float:
        """The size of the transfer effect in panel ``i``: the largest ``|T|`` predicted."""
        return float(np.abs(self.benefit[i]).max())

    def in_transition(self, sbar_a: float) -> bool:
        """Whether task A of strength ``sbar_a`` lies in the detection transition (within 25 % of the threshold)."""
        return abs(sbar_a - self.threshold) < 0.25 * self.threshold

    @property
    def allowance(self) -> np.ndarray:
        """Finite-size allowance of each panel: ``max|T| x N1^-1/2`` (``N1^-1/3`` in the detection transition).

        The theory is the ``N1 -> inf`` limit; its corrections are those of the outlier (``N1^-1/2``)
        and, near the threshold, of the detection window (``N1^-1/3``).
        """
        return np.array([self.panel_scale(i) * self.n1 ** (-1 / 3 if self.in_transition(a) else -1 / 2)
                         for i, a in enumerate(self.sa)])


def _increasing(values, name, lower, open_lower):
    """A non-empty strictly increasing 1-d float array with values in the range."""
    x = _checks.real_array(values, name, lower=lower, open_lower=open_lower, ndim=1)
    if x.size == 0 or np.any(np.diff(x) <= 0):
        raise ValueError(f"{name} must be a non-empty increasing 1-d array; got {x.tolist()[:5]}")
    return x


def transfer_grid(sbar_a: Sequence[float], sbar_b: Sequence[float], q_steps: int, *, n1: int, n2: int, n3: int,
                  eps: float) -> TransferGrid:
    """The theory of ``T^{A<-B}`` of two rank-1 linear tasks on a grid of Fig. 8 (:func:`transfer_benefit`).

    Parameters
    ----------
    sbar_a, sbar_b : sequence of float
        The values of ``sbar_A`` (increasing, > 0: one panel each) and ``sbar_B`` (increasing, >= 0).
    q_steps : int
        Number of overlaps ``q``, evenly from 0 to 1 (>= 2).
    n1, n2, n3 : int
        Examples, hidden units and outputs per head (``n2 <= n3``).
    eps : float
        Initial scale of the TA students.

    Returns
    -------
    TransferGrid
    """
    sa_list = _increasing(sbar_a, "sbar_a", 0.0, True)
    sb_list = _increasing(sbar_b, "sbar_b", 0.0, False)
    q_steps = _checks.integer(q_steps, "q_steps", 2)
    n1, n2, n3 = _checks.integer(n1, "n1"), _checks.integer(n2, "n2"), _checks.integer(n3, "n3")
    eps = _checks.positive(eps, "eps")
    qs = np.round(np.linspace(0.0, 1.0, q_steps), 10)
    sa, sb, q = np.meshgrid(sa_list, sb_list, qs, indexing="ij")
    benefit, single, joint = transfer_benefit(sa, sb, q, deep_linear.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps),
                                              return_errors=True)
    points = np.stack([sa.ravel(), sb.ravel(), q.ravel()], axis=1)
    return TransferGrid(sa_list, sb_list, qs, points, benefit, single, joint, n1, n3)


def sign_change_overlap(benefit: ArrayLike, qs: ArrayLike) -> float:
    """The overlap ``q*`` after which ``T^{A<-B}`` stays non-negative: where B turns from interfering to helping.

    Fig. 8's reading: the stronger task A, the more alignment with B it needs before B helps. ``q*`` is found by
    linear interpolation between the last negative value of ``T`` and the next one.

    Parameters
    ----------
    benefit : array_like, shape (Q,)
        ``T^{A<-B}`` (theory or simulated means) at the overlaps ``qs``.
    qs : array_like, shape (Q,)
        The overlaps, increasing.

    Returns
    -------
    float
        ``q*``; ``qs[0]`` if ``T`` is never negative, ``qs[-1]`` if it is negative at the last overlap.
    """
    qs = _increasing(qs, "qs", None, False)
    values = _checks.real_array(benefit, "benefit", ndim=1)
    if values.shape != qs.shape:
        raise ValueError(f"benefit must have one value per overlap (shape {qs.shape}); got shape {values.shape}")
    negative = np.flatnonzero(values < 0)
    if negative.size == 0:
        return float(qs[0])
    k = negative[-1]
    if k == len(values) - 1:
        return float(qs[-1])
    return float(qs[k] + (qs[k + 1] - qs[k]) * (-values[k]) / (values[k + 1] - values[k]))


def paired_transfer(joint: ArrayLike, single: ArrayLike, points: ArrayLike, sa: ArrayLike) -> np.ndarray:
    """``T`` of every (grid point, run): the single-task error minus the joint one on the same task-A data.

    The single-task students are one per ``(sbar_A, run)`` (:func:`gendyn.task_data.task_a_rows`), so each
    two-headed student is paired with the single-task student of its own task-A data.

    Parameters
    ----------
    joint : array_like, shape (G', runs)
        Head A's optimal error of the two-headed students of the first ``G' <= G`` grid points.
    single : array_like, shape (len(sa), runs)
        The single-task students' optimal errors.
    points : array_like, shape (G, 3)
        The grid points ``(sbar_A, sbar_B, q)``.
    sa : array_like, shape (A,)
        The distinct values of ``sbar_A``, increasing.

    Returns
    -------
    ndarray, shape (G', runs)
    """
    joint = _checks.real_array(joint, "joint", ndim=2)
    single = _checks.real_array(single, "single", ndim=2)
    points = _checks.real_array(points, "points", ndim=2)
    sa = _increasing(sa, "sa", None, False)
    if points.shape[1:] != (3,) or len(points) < len(joint):
        raise ValueError(f"points must have shape (G, 3) with G >= {len(joint)} (one per row of joint); "
                         f"got {points.shape}")
    if single.shape != (sa.size, joint.shape[1]):
        raise ValueError(f"single must have shape (len(sa), runs) = {(sa.size, joint.shape[1])}; got {single.shape}")
    panel = np.searchsorted(sa, points[:len(joint), 0])
    if np.any(panel >= sa.size) or np.any(sa[np.minimum(panel, sa.size - 1)] != points[:len(joint), 0]):
        raise ValueError("sa must hold the sbar_A of every grid point of joint (points[:, 0])")
    return single[panel] - joint


# ----------------------------------------------------------------------------------------
# one pair of rank-1 tasks against q; simulated T on the grid; App. D.1 on the data;
# exact TA transfer on sampled data
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompositeExample:
    """The theory of one pair of rank-1 tasks against their input overlap ``q`` (:func:`composite_example`).

    Attributes
    ----------
    q : ndarray, shape (Q,)
        Overlaps ``q``, evenly from 0 to 1.
    sigma, share : ndarray, shape (Q, 2)
        The two composite singular values ``sigma_k`` (shared, difference) and their shares ``a_k`` in head A
        (:func:`composite_modes`), 0 where a mode vanishes (``q = 1``).
    t : ndarray, shape (T,)
        Times, in units of ``tau``.
    head_q : ndarray, shape (H,)
        The overlaps at which head A's test error is given.
    head : ndarray, shape (H, T)
        ``eps_{A<-B}(t)`` at each of them (:func:`head_test_error`).
    alone : ndarray, shape (T,)
        ``eps_A(t)`` of task A alone, eq. (15) (:func:`gendyn.deep_linear.theory_errors`).
    threshold : float
        The composite data's detection threshold ``A'^(1/4) = (2 N3 / N1)^(1/4)`` (eq. 11).
    sbar_a, sbar_b : float
        The tasks' singular values.
    """

    q: np.ndarray
    sigma: np.ndarray
    share: np.ndarray
    t: np.ndarray
    head_q: np.ndarray
    head: np.ndarray
    alone: np.ndarray
    threshold: float
    sbar_a: float
    sbar_b: float


def composite_example(sbar_a: float, sbar_b: float, *, n1: int, n2: int, n3: int, eps: float,
                      head_q: Sequence[float] = (0.0, 0.5, 0.9, 1.0)) -> CompositeExample:
    """The composite modes and head A's test error of two rank-1 tasks against their overlap ``q`` (App. D).

    The composite teacher (eq. 24) of ``sbar_A``, ``sbar_B`` with input overlap ``q`` has the modes of
    :func:`composite_modes` (for equal SNRs ``sigma^2 = sbar^2 (1 +- q)``); head A's test error of the
    two-headed TA student is :func:`head_test_error`, the single-task one eq. (15). Evaluated at 101
    overlaps ``q`` in ``[0, 1]`` and 300 times ``t`` from 0.05 to 6 (log-spaced).

    Parameters
    ----------
    sbar_a : float
        Task A's singular value, ``> 0``.
    sbar_b : float
        Task B's, ``>= 0``.
    n1, n2, n3 : int
        Examples (= inputs), hidden units and outputs per head (``n2 <= 2 n3 <= n1``).
    eps : float
        Initial scale of the TA students, ``> 0``.
    head_q : sequence of float
        The overlaps in ``[-1, 1]`` at which head A's error is evaluated.

    Returns
    -------
    CompositeExample
    """
    sbar_a = _checks.real(sbar_a, "sbar_a", positive=True)
    sbar_b = float(_checks.real_array(sbar_b, "sbar_b", lower=0.0, ndim=0))
    n1, n2, n3 = _checks.integer(n1, "n1"), _checks.integer(n2, "n2"), _checks.integer(n3, "n3")
    eps = _checks.positive(eps, "eps")
    head_q = _checks.real_array(head_q, "head_q", lower=-1.0, upper=1.0, ndim=1)
    q_fine = np.linspace(0, 1, 101)
    modes = [composite_modes([sbar_a], [sbar_b], q) for q in q_fine]
    t_curve = np.geomspace(0.05, 6, 300)
    two_heads = deep_linear.TaStudent(n1=n1, n2=n2, n3=2 * n3, eps=eps)
    head = np.array([head_test_error(t_curve, [sbar_a], [sbar_b], q, two_heads, n3_a=n3) for q in head_q])
    return CompositeExample(
        q=q_fine,
        sigma=np.array([np.pad(m[0], (0, 2 - len(m[0]))) for m in modes]),
        share=np.array([np.pad(m[1], (0, 2 - len(m[1]))) for m in modes]),
        t=t_curve, head_q=head_q, head=head,
        alone=deep_linear.theory_errors(t_curve, [sbar_a], deep_linear.TaStudent(n1=n1, n2=n2, n3=n3, eps=eps))[1],
        threshold=(2 * n3 / n1) ** 0.25, sbar_a=sbar_a, sbar_b=sbar_b,
    )


@dataclass(frozen=True)
class SimulatedTransfer:
    """Optimal errors and ``T`` of simulated students on a grid of Fig. 8 (:func:`simulated_transfer`).

    Attributes
    ----------
    joint : ndarray, shape (G, runs)
        Head A's optimal error of the two-headed students.
    single : ndarray, shape (len(sa), runs)
        Task A's optimal error alone.
    benefit : ndarray, shape (G, runs)
        ``T`` of every run, paired on task A's data (:func:`paired_transfer`).
    """

    joint: np.ndarray
    single: np.ndarray
    benefit: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        """Mean ``T`` over runs, ``(G,)``."""
        return self.benefit.mean(-1)

    @property
    def se(self) -> np.ndarray:
        """Its standard error ``std(ddof=1) / sqrt(runs)``, ``(G,)``."""
        return self.benefit.std(-1, ddof=1) / np.sqrt(self.benefit.shape[-1])


def simulated_transfer(joint: ArrayLike, single: ArrayLike, grid: TransferGrid) -> SimulatedTransfer:
    """``T^{A<-B}`` of simulated students on the grid of Fig. 8, from their optimal errors (§4).

    Parameters
    ----------
    joint : array_like, shape (G * runs,) or (G, runs)
        Head A's optimal error of the two-headed students, grid point by grid point, runs innermost.
    single : array_like, shape (len(sa) * runs,) or (len(sa), runs)
        The single-task students' optimal errors, one per ``(sbar_A, run)``
        (:func:`gendyn.task_data.task_a_rows`).
    grid : TransferGrid
        The grid (:func:`transfer_grid`).

    Returns
    -------
    SimulatedTransfer
        With ``T = eps_A^opt - eps_{A<-B}^opt`` of every run (:func:`paired_transfer`).
    """
    grid = _checks.instance(grid, "grid", TransferGrid, hint=" (from transfer_grid)")
    joint = _checks.real_array(joint, "joint", lower=0.0, ndim=(1, 2))
    single = _checks.real_array(single, "single", lower=0.0, ndim=(1, 2))
    if joint.size == 0 or joint.size % len(grid.points):
        raise ValueError(f"joint must hold runs >= 1 errors per grid point ({len(grid.points)} points); "
                         f"got {joint.size} values")
    runs = joint.size // len(grid.points)
    if single.size != len(grid.sa) * runs:
        raise ValueError(f"single must hold {runs} errors (runs) per value of sbar_A ({len(grid.sa)}); "
                         f"got {single.size} values")
    if runs < 2:
        raise ValueError("joint must hold runs >= 2 errors per grid point (for a standard error); got 1")
    joint, single = joint.reshape(len(grid.points), runs), single.reshape(len(grid.sa), runs)
    return SimulatedTransfer(joint, single, paired_transfer(joint, single, grid.points, grid.sa))


@dataclass(frozen=True)
class D1Alignments:
    """App. D.1 measured on the training data of every run of a grid, with its predictions (:func:`d1_alignments`).

    Attributes
    ----------
    joint, single : ndarray, shape (G, runs)
        ``(vhat_1 . vbar^A)^2`` of the composite data and of task A's data alone (its head-A rows).
    shat : ndarray, shape (G, runs)
        The composite data's top singular value.
    pred_joint, pred_single, pred_shat : ndarray, shape (G,)
        Their predictions: ``R(sigma_1; A') ||Vbar^A^T v_1||^2``, ``R(sbar_A; A)`` (eq. 12) and eq. (11) at
        ``sigma_1``.
    defined_joint, defined_single : ndarray of bool, shape (G,)
        Where the predictions hold at this size: the spike above the transition's finite-size window
        ``A^(1/4) (1 + N1^-1/3)`` and, for the composite data, its two modes ``3 N1^-1/2`` apart.
    """

    joint: np.ndarray
    single: np.ndarray
    shat: np.ndarray
    pred_joint: np.ndarray
    pred_single: np.ndarray
    pred_shat: np.ndarray
    defined_joint: np.ndarray
    defined_single: np.ndarray

    @property
    def turn(self) -> np.ndarray:
        """The change of alignment, joint minus single, paired by run, ``(G, runs)``."""
        return self.joint - self.single


def _top_alignment(sigma31, direction):
    """Squared overlap of each data set's top right singular vector with ``direction``, and its top singular value."""
    _, svals, vt = np.linalg.svd(sigma31, full_matrices=False)
    return np.einsum("bi,bi->b", vt[:, 0], direction) ** 2, svals[:, 0]


def d1_alignments(sigma31: ArrayLike, teacher: ArrayLike, grid: TransferGrid) -> D1Alignments:
    """App. D.1's mechanism of interference, measured on the data of a grid of Fig. 8 and predicted.

    With ``vbar^A`` task A's input mode and ``vhat_1`` the top right singular vector of the data, the squared
    alignment ``(vhat_1 . vbar^A)^2`` is predicted to be ``R(sbar_A; A)`` for task A alone (the input-side
    bracket of eq. 12, :func:`gendyn.rmt.spike_vector_overlaps`, ``A = N3/N1``) and
    ``R(sigma_1; A') ||Vbar^A^T v_1||^2`` for the composite data (:func:`composite_input_alignment`,
    ``A' = 2 N3/N1``); the composite spike is eq. (11) at ``sigma_1`` (:func:`gendyn.rmt.spike_singular_value`).

    Parameters
    ----------
    sigma31, teacher : array_like, shape (G * runs, 2 N3, N1)
        The two-task data and noise-free teachers of every grid point and run (runs innermost; head A first;
        numpy, or torch on the CPU).
    grid : TransferGrid
        The grid (:func:`transfer_grid`): its points, ``n1`` and ``n3``.

    Returns
    -------
    D1Alignments
    """
    grid = _checks.instance(grid, "grid", TransferGrid, hint=" (from transfer_grid)")
    points, n1, n3 = grid.points, grid.n1, grid.n3
    data = _checks.real_array(sigma31, "sigma31", ndim=3)
    teacher = _checks.real_array(teacher, "teacher", ndim=3)
    if data.shape[1:] != (2 * n3, n1) or len(data) == 0 or len(data) % len(points):
        raise ValueError(f"sigma31 must have shape (G * runs, 2 n3, n1) = (k x {len(points)}, {2 * n3}, {n1}) with "
                         f"k >= 1 (the grid's points, n1 and n3); got {data.shape}")
    if teacher.shape != data.shape:
        raise ValueError(f"teacher must have the shape of sigma31 {data.shape}; got {teacher.shape}")
    if np.any(np.all(teacher[:, :n3] == 0, axis=(1, 2))):
        raise ValueError("teacher must have a nonzero task A (its first n3 rows) in every data set")
    _checks.work_limit(2.0 * len(data) * 4 * n1 * n3 * min(n1, 2 * n3), f"{len(data)} data sets of n1={n1}",
                       memory=8.0 * len(data) * 6 * n1 * n3)
    v_a = np.linalg.svd(teacher[:, :n3], full_matrices=False)[2][:, 0]  # task A's input mode
    align_joint, shat_joint = (x.reshape(len(points), -1) for x in _top_alignment(data, v_a))
    align_single = _top_alignment(data[:, :n3], v_a)[0].reshape(len(points), -1)
    aspect_a, aspect_joint = n3 / n1, 2 * n3 / n1
    window = 1 + n1 ** (-1 / 3)  # the detection transition's finite-size window
    pred_joint, pred_single, pred_shat = (np.zeros(len(points)) for _ in range(3))
    defined_joint, defined_single = np.zeros(len(points), bool), np.zeros(len(points), bool)
    for g, (a, b, q) in enumerate(points):
        sigma = composite_modes([a], [b], q)[0]
        turn = composite_input_alignment([a], [b], q)[0]
        pred_joint[g] = rmt.spike_vector_overlaps(sigma[0], aspect_joint)[1] * turn
        pred_single[g] = rmt.spike_vector_overlaps(a, aspect_a)[1]
        pred_shat[g] = rmt.spike_singular_value(sigma[0], aspect_joint)
        gap = sigma[0] - (sigma[1] if sigma.size > 1 else 0.0)
        defined_joint[g] = sigma[0] > aspect_joint**0.25 * window and gap > 3 / np.sqrt(n1)
        defined_single[g] = a > aspect_a**0.25 * window
    return D1Alignments(align_joint, align_single, shat_joint, pred_joint, pred_single, pred_shat, defined_joint,
                        defined_single)


@dataclass(frozen=True)
class SampledTransfer:
    """Optimal head-A errors of exact TA students on sampled data, two-headed and alone (:func:`sampled_transfer`).

    Attributes
    ----------
    joint, single : ndarray, shape (B,)
        The minimum over the times of head A's error of the two-headed student and of the student of head A's
        rows alone, on the same data.
    """

    joint: np.ndarray
    single: np.ndarray

    @property
    def benefit(self) -> np.ndarray:
        """``T = eps_A^opt - eps_{A<-B}^opt`` of each data set, ``(B,)``."""
        return self.single - self.joint


def sampled_transfer(t: ArrayLike, sigma31: ArrayLike, teacher: ArrayLike, n3_a: int, n2: int | None = None,
                     eps: float = 1e-5) -> SampledTransfer:
    """Exact transfer benefit of TA students on sampled data: the finite-size counterpart of :func:`transfer_benefit`.

    Both students follow gradient flow exactly (eq. 10 with the data's own SVD, :func:`sampled_head_errors`):
    the two-headed one learns all rows of ``sigma31``, the single-task one head A's rows alone; each is scored
    by the minimum over ``t`` of head A's test error (eq. 23), and ``T`` is their difference (§4).

    Parameters
    ----------
    t : array_like, shape (T,)
        Times in units of ``tau``, ``>= 0``.
    sigma31, teacher : array_like, shape (B, N3, N1)
        Data (stacked heads, head A first) and noise-free teachers (numpy, or torch on the CPU).
    n3_a : int
        Rows of head A, ``1 <= n3_a < N3``.
    n2 : int, optional
        Hidden width of both students (default: every mode).
    eps : float
        Initial scale of the TA students, ``> 0``.

    Returns
    -------
    SampledTransfer
    """
    sigma31 = _checks.real_array(sigma31, "sigma31", ndim=3)
    teacher = _checks.real_array(teacher, "teacher", ndim=3)
    n3_a = _checks.integer(n3_a, "n3_a")
    if n3_a >= sigma31.shape[1]:
        raise ValueError(f"n3_a must be below the rows of sigma31 ({sigma31.shape[1]}): head B needs one; got {n3_a}")
    student = deep_linear.TaStudent(n2=n2, eps=eps)
    joint = sampled_head_errors(t, sigma31, teacher, n3_a, student).min(-1)
    single = sampled_head_errors(t, sigma31[:, :n3_a], teacher[:, :n3_a], n3_a, student).min(-1)
    return SampledTransfer(joint, single)


# ----------------------------------------------------------------------------------------
# the TA student of the theory (gendyn.deep_linear.TaStudent): one head, two heads, and the
# former flat forms of the functions that take it
# ----------------------------------------------------------------------------------------


def _two_heads(student, n3_a, function):
    """``eps, tau, n_layers, n1, n2, n3_a, n3_b`` of a two-headed ``student`` with ``n3_a`` outputs in head A."""
    student = deep_linear._student(student, function)
    n1, n3 = deep_linear._needs(student, function)
    if n3 < 2:
        raise ValueError(f"{function} needs a two-headed student: student.n3 (both heads' outputs) must be >= 2; "
                         f"got {n3}")
    if n3_a is None:
        raise ValueError(f"{function} needs n3_a: head A's outputs, an integer in [1, {n3 - 1}] (head B has the "
                         f"other n3 - n3_a of student.n3 = {n3}); got None")
    n3_a = _checks.integer(n3_a, "n3_a")
    if n3_a >= n3:
        raise ValueError(f"n3_a must be an integer in [1, {n3 - 1}]: head B has the other n3 - n3_a of "
                         f"student.n3 = {n3} outputs; got {n3_a}")
    n2 = n3 if student.n2 is None else student.n2
    return student.eps, student.tau, student.n_layers, n1, n2, n3_a, n3 - n3_a


def _former_heads(function, names, student, args, flat, n3_a, data, **keywords):
    """A former call of a two-headed function: ``{"student", "n3_a", **keywords}`` (its ``n3_a`` and ``n3_b``
    checked and summed into ``student.n3``)."""
    flat = dict(flat)
    if n3_a is not None:
        flat["n3_a"] = n3_a
    def build(old):
        for name in ("n1", "n2", "n3_a", "n3_b", "eps"):
            if name not in old:
                raise TypeError(f"{function}() missing required argument {name!r} in its former form; pass "
                                f"student=TaStudent(...), n3_a=...")
        n3_a, n3_b = _checks.integer(old["n3_a"], "n3_a"), _checks.integer(old["n3_b"], "n3_b")
        return deep_linear._spec(old, function, n3=n3_a + n3_b)

    return deep_linear._former(
        function, names, student, args, flat, defaults=keywords, build=build,
        new_form=lambda v: f"{function}({data}, {deep_linear._show_student(v, n3='n3_a + n3_b')}, n3_a=n3_a"
                           + "".join(f", {k}={v[k]!r}" for k in keywords) + ")")


def _former_pair(function, student, args, flat, data, **keywords):
    """A former call of :func:`transfer_benefit` or :func:`transfer_benefit_general`: ``{"student", **keywords}``."""
    return deep_linear._former(
        function, ("n1", "n3", "n2", "eps", "tau", "n_layers"), student, args, flat,
        defaults=dict(keywords, eps=1e-5),
        new_form=lambda v: f"{function}({data}, {deep_linear._show_student(v)}"
                           + "".join(f", {k}={v[k]!r}" for k in keywords) + ")")


def _pair(student, function):
    """The single-task ``student`` of task A (``n2`` resolved) and the two-headed one (``2 n3`` outputs)."""
    student = deep_linear._student(student, function)
    n1, n3 = deep_linear._needs(student, function)
    if student.n2 is None:
        student = replace(student, n2=n3)
    return student, replace(student, n3=2 * n3)
