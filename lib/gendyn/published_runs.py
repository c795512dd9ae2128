"""The per-run results that Lee & Ndirango (2019) published, and their multitask benefits.

The authors released the validation loss of every training run behind their Figs. 2, 3 and
A1–A4 (repository ``tyler-nervana/mt-theory``, Apache License 2.0). This project carries
those files unchanged in ``data/lee-ndirango-2019/`` (with their licence, attribution,
column meanings and checksums in that folder's README); this module reads them.

The folder is found in this order: the ``directory`` argument, the environment variable
``GENDYN_DATA_DIR`` (a folder holding ``lee-ndirango-2019/``), then the ``data/`` folder of
the source tree this module was imported from (an editable install or a checkout).
"""

from __future__ import annotations

import csv
import hashlib
import os
from pathlib import Path

import numpy as np

from . import _checks

__all__ = ["FILES", "N_CLASSES", "NOISE_STD", "data_dir", "verify", "load", "benefits", "single_task", "select"]

#: Files of the published per-run results and the figures they belong to.
FILES = {
    "rank-10": "Figs. 2, A1",
    "rank-3": "Fig. A2",
    "aux-train-pts": "Fig. 3 left, A3",
    "deep-nonlinear": "Fig. 3 right, A4",
}

#: Number of classes of each file's tasks (not recorded): the teacher's rank, which the paper
#: sets equal to it ("set both to 10"); the losses without signal sit at ``ln K``.
N_CLASSES = {"rank-10": 10, "rank-3": 3, "aux-train-pts": 10, "deep-nonlinear": 10}

#: Standard deviation of the logit noise of the authors' labels with their code's default of
#: 20 input features, ``1/sqrt(20)`` (not recorded in the files).
NOISE_STD = 20**-0.5

_FOLDER = "lee-ndirango-2019"


def data_dir(directory: str | os.PathLike[str] | None = None) -> Path:
    """The folder holding the published files (see the module docstring for the search order).

    Raises ``FileNotFoundError`` naming the places looked at if none holds the files.
    """
    if directory is not None:
        candidates = [Path(directory)]
    else:
        candidates = []
        if os.environ.get("GENDYN_DATA_DIR"):
            candidates.append(Path(os.environ["GENDYN_DATA_DIR"]) / _FOLDER)
        candidates.append(Path(__file__).resolve().parents[2] / "data" / _FOLDER)
    for folder in candidates:
        if (folder / "SHA256SUMS").is_file():
            return folder.resolve()
    raise FileNotFoundError(
        "the published results of Lee & Ndirango (2019) were not found in "
        + " or ".join(str(c) for c in candidates)
        + "; pass directory=, or set GENDYN_DATA_DIR to a folder holding lee-ndirango-2019/")


def verify(directory: str | os.PathLike[str] | None = None) -> list[str]:
    """Check every file against the folder's ``SHA256SUMS``; returns the names checked.

    Raises ``ValueError`` naming the file whose content differs from the published one.
    """
    folder = data_dir(directory)
    names = []
    for line in (folder / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split()
        actual = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        if actual != digest:
            raise ValueError(f"{folder / name} differs from the published file (sha256 {actual}, expected {digest})")
        names.append(name)
    return names


def load(name: str, directory: str | os.PathLike[str] | None = None) -> dict[str, np.ndarray]:
    """Rows of one published file (see :data:`FILES`) as a dict of arrays, one per column.

    Numeric columns become floats, ``single_task`` a bool array; ``loss`` is the recorded
    ``validation-1/loss``. ``aux-train-pts.csv`` has no ``main_train_pts`` column: its main
    task had 100 points (inferred from the paper's text), which is filled in.
    """
    _checks.choice(name, "name", tuple(FILES))
    with open(data_dir(directory) / f"{name}.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = {}
    for col in rows[0]:
        if col == "id":
            continue
        vals = [r[col] for r in rows]
        key = "loss" if col == "validation-1/loss" else col
        out[key] = np.array([v == "True" for v in vals]) if col == "single_task" else np.array(vals, dtype=float)
    if "main_train_pts" not in out:
        out["main_train_pts"] = np.full(len(rows), 100.0)
    return out


def benefits(name: str, directory: str | os.PathLike[str] | None = None) -> dict[str, np.ndarray]:
    """Per-run published benefits: for every multitask row, the single-task loss of the
    same (sizes, s_a, seed, depth) minus its loss.

    Returns a dict of arrays over multitask rows: the grid columns, ``benefit``, ``mt_loss``
    and ``st_loss``.
    """
    ref = load(name, directory)
    depth = ref.get("nlayers", np.ones(len(ref["loss"])))
    aux = ref.get("aux_train_pts", ref["main_train_pts"])

    def key(i):
        return depth[i], ref["main_train_pts"][i], aux[i], round(ref["s_a"][i], 6), ref["train_seed"][i]

    st = {}
    for i in np.flatnonzero(ref["single_task"]):
        st.setdefault(key(i), []).append(ref["loss"][i])
    # single-task rows are duplicated over (s_b, r) with identical losses; deep-nonlinear has
    # one per (depth, size, s_a, seed). aux-train-pts: the baseline is per aux size as well.
    st = {k: float(np.mean(v)) for k, v in st.items()}
    rows = np.flatnonzero(~ref["single_task"])
    out = {k: v[rows] for k, v in ref.items() if k != "single_task"}
    out["nlayers"] = depth[rows]
    out["aux_train_pts"] = aux[rows]
    out["mt_loss"] = out.pop("loss")
    out["st_loss"] = np.array([st[key(i)] for i in rows])
    out["benefit"] = out["st_loss"] - out["mt_loss"]
    return out


def single_task(name: str, directory: str | os.PathLike[str] | None = None) -> dict[str, np.ndarray]:
    """The published single-task runs, one row per (depth, size, ``s_a``, seed).

    A file lists each single-task run once per ``(s_b, r)`` of its grid, and some runs with
    losses that differ in the seventh digit (float32 rounding of the same run). Each row here is
    the mean of a seed's distinct recorded values, so the rows of one cell are its seeds.

    Parameters
    ----------
    name : str
        A key of :data:`FILES`.
    directory : path-like, optional
        As in :func:`load`.

    Returns
    -------
    dict of ndarray
        ``nlayers`` (1 where not recorded), ``main_train_pts``, ``s_a``, ``train_seed`` and
        ``loss``, one entry per row.
    """
    ref = load(name, directory)
    depth = ref.get("nlayers", np.ones(len(ref["loss"])))
    runs = {}
    for i in np.flatnonzero(ref["single_task"]):
        key = (depth[i], ref["main_train_pts"][i], ref["s_a"][i], ref["train_seed"][i])
        runs.setdefault(key, set()).add(ref["loss"][i])
    keys = sorted(runs)
    out = {col: np.array([k[j] for k in keys]) for j, col in
           enumerate(("nlayers", "main_train_pts", "s_a", "train_seed"))}
    out["loss"] = np.array([np.mean(sorted(runs[k])) for k in keys])
    return out


def select(table: dict[str, np.ndarray], **columns: float) -> np.ndarray:
    """Rows of ``table`` (a dict of arrays, as :func:`load`, :func:`benefits` or
    :func:`single_task` return) whose columns equal the given values; floats compare with
    ``np.isclose``. Returns a boolean mask.
    """
    n = len(next(iter(table.values())))
    mask = np.ones(n, dtype=bool)
    for col, value in columns.items():
        if col not in table:
            raise ValueError(f"no column {col!r}; the table has {sorted(table)}")
        mask &= np.isclose(table[col], value, rtol=1e-9, atol=0.0)
    return mask
