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
