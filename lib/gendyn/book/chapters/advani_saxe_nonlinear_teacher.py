"""Sizes and claim set of the chapter ``notebooks/advani-saxe/nonlinear-teacher.md``.

Advani, Saxe & Sompolinsky, Figs. 7-9 of the journal paper: random-feature ReLU students of a
two-layer ReLU teacher. The chapter itself holds its protocol, figures and claims; this module holds
what the pipeline reads before the chapter runs: its sizes at each scale, the ids of its claims and
the theory each claim should notice when perturbed (the runs are
:func:`gendyn.random_features.random_feature_students`, the hidden-layer spectra and their rescaled
Marchenko-Pastur law :func:`gendyn.random_features.hidden_spectrum`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES", "claim_ids", "MUTATIONS"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Advani, Saxe & Sompolinsky (2020), Sec. 6, Figs. 7-9: random-feature students of a ReLU teacher.
    Fig. 7 caption: P = 300, 50 seeds; N_i = 15, a 30-unit teacher and SNR = 1 from notes on the arXiv
    version (not in the caption text we have). Fig. 9 caption: 20-unit noiseless teacher, P = 50, 500
    trials, 5,000 test examples; its N_i and widths are ours.
    """

    n_in: int  #: input dimension N_i
    teacher_hidden: int  #: hidden units of the ReLU teacher (Figs. 7, 8)
    n_samples: int  #: training examples P (Figs. 7, 8)
    repeats: int  #: seeds per width
    snr: float  #: SNR of Fig. 7
    snrs: tuple[float, ...]  #: Fig. 8: a low and a high SNR (our values)
    hidden: tuple[int, ...]  #: student widths N_h (holds P, P/2 and 2P)
    t_max: float  #: longest training time
    decomposition_teacher_hidden: int  #: hidden units of the noiseless teacher of Fig. 9
    decomposition_samples: int  #: training examples P of Fig. 9
    decomposition_repeats: int  #: trials of Fig. 9
    decomposition_hidden: tuple[int, ...]  #: student widths of Fig. 9
    n_test: int  #: test examples


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(
        n_in=15,
        teacher_hidden=30,
        n_samples=300,
        repeats=50,
        snr=1.0,
        snrs=(0.1, 10.0),
        hidden=(10, 14, 19, 26, 36, 49, 67, 92, 126, 150, 173, 238, 300, 326, 448, 600, 845, 1159, 1592,
                2185, 3000),
        t_max=1e5,
        decomposition_teacher_hidden=20,
        decomposition_samples=50,
        decomposition_repeats=500,
        decomposition_hidden=(5, 7, 9, 13, 17, 23, 32, 43, 50, 58, 79, 108, 146, 199, 271, 368, 500),
        n_test=5000,
    ),
    "smoke": Sizes(
        n_in=15,
        teacher_hidden=30,
        n_samples=60,
        repeats=16,
        snr=1.0,
        snrs=(0.1, 10.0),
        hidden=(6, 10, 16, 24, 30, 40, 60, 72, 90, 120, 180, 300, 600),
        t_max=1e5,
        decomposition_teacher_hidden=20,
        decomposition_samples=50,
        decomposition_repeats=150,
        decomposition_hidden=(5, 9, 17, 25, 43, 50, 58, 100, 200, 400),
        n_test=1000,
    ),
}


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    ids = [f"{kind}-{key}" for key in ("main", "low-snr", "high-snr")
           for kind in ("early-stopped-falls", "overtraining-peak-at-p", "wide-overtrains-less")]
    return ids + ["gap-closes-at-p", "exact-matches-test-set", "cross-term-averages-out", "residual-as-noise-narrow",
                  "residual-smoother-than-noise-wide"]


#: The theory the claims test, and the error each should see at smoke scale: the exact population error (the
#: arc-cosine kernel of the features) against a test set of 1,000 examples, compared in paired standard errors of
#: under 1 % of the error (resolution 1.6 % at seed 0); the matched-noise over-fitting error of Fig. 9 against
#: the measured one, within z standard errors (resolution 15 %, 150 trials).
MUTATIONS = (
    Mutation("gendyn.random_features.relu_kernel", 0.05,
             why="the arc-cosine kernel E phi_a phi_b: 5 % moves the exact error by several paired standard errors"),
    Mutation("gendyn.random_features.random_feature_students", 0.35, output="over_fitting_gaussian",
             why="Fig. 9's matched-noise over-fitting error: about twice the claim's smoke resolution of 15 %"),
)
