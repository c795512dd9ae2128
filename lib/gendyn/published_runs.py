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
import io
import math
import os
import re
from pathlib import Path

import numpy as np

from . import _checks

__all__ = ["FILES", "N_CLASSES", "NOISE_STD", "DataNotFoundError", "data_dir", "verify", "load", "benefits", "single_task", "select"]

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


class DataNotFoundError(FileNotFoundError, ValueError):
    """The ``directory`` given does not hold the published files: a missing file and a bad argument."""


def data_dir(directory: str | os.PathLike[str] | None = None) -> Path:
    """The folder holding the published files (see the module docstring for the search order).

    Raises ``FileNotFoundError`` naming the places looked at if none holds the files (a
    :class:`DataNotFoundError`, also a ``ValueError``, if ``directory`` was given and does not),
    ``ValueError`` if ``directory`` is not a path.
    """
    if directory is not None:
        if isinstance(directory, bool) or not isinstance(directory, (str, os.PathLike)) or not str(directory):
            raise ValueError(f"directory must be a path (a str or os.PathLike) to a folder holding SHA256SUMS and the "
                             f"published files, or None; got {_checks._show(directory)}")
        if not (Path(directory) / "SHA256SUMS").is_file():
            raise DataNotFoundError(
                f"directory={str(directory)!r} does not hold the published results of Lee & Ndirango (2019) (no "
                "SHA256SUMS there); pass the folder lee-ndirango-2019/ itself, or leave directory=None and set "
                "GENDYN_DATA_DIR to a folder holding lee-ndirango-2019/")
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


def _checksums(folder: Path) -> dict[str, str]:
    """``{file name: sha256}`` as the folder's ``SHA256SUMS`` lists them.

    Raises ``ValueError`` naming ``SHA256SUMS`` and the line for a line that is not
    ``<64 hex digits> <file name>``.
    """
    sums = folder / "SHA256SUMS"
    out = {}
    for number, line in enumerate(sums.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2 or not re.fullmatch(r"[0-9a-f]{64}", parts[0]):
            raise ValueError(f"{sums}, line {number}: expected '<sha256 in 64 hex digits> <file name>'; got {line!r}")
        out[parts[1].lstrip("*")] = parts[0]
    return out


def _check_digest(path: Path, content: bytes, expected: str) -> None:
    """``ValueError`` naming ``path`` if ``content`` does not have the published sha256 ``expected``."""
    actual = hashlib.sha256(content).hexdigest()
    if actual != expected:
        raise ValueError(f"{path} differs from the published file (sha256 {actual}, expected {expected}): it was "
                         "changed, truncated or damaged; restore it from the project (git checkout -- data/)")


def _read(path: Path) -> bytes:
    """The bytes of ``path``; ``FileNotFoundError`` naming it (and its folder's checksums) if it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as error:
        raise FileNotFoundError(f"{path} cannot be read ({error.strerror or error}); it is listed in "
                                f"{path.parent / 'SHA256SUMS'}") from error


def verify(directory: str | os.PathLike[str] | None = None) -> list[str]:
    """Check every file against the folder's ``SHA256SUMS``; returns the names checked.

    Raises ``ValueError`` naming the file whose content differs from the published one
    (or ``SHA256SUMS`` and the line, if a line of it is malformed), ``FileNotFoundError``
    naming a listed file that is missing. :func:`load` (and so :func:`benefits` and
    :func:`single_task`) checks the file it reads the first time it reads it in a process.
    """
    folder = data_dir(directory)
    names = []
    for name, digest in _checksums(folder).items():
        _check_digest(folder / name, _read(folder / name), digest)
        names.append(name)
    return names


#: Files whose checksum this process has verified: path -> (size, modification time in ns).
_VERIFIED: dict[Path, tuple[int, int]] = {}


def _verified_bytes(path: Path) -> bytes:
    """The content of ``path``, checked against its folder's ``SHA256SUMS`` once per process.

    The check is redone if the file's size or modification time changed since it passed.
    """
    content = _read(path)
    stat = path.stat()
    signature = (stat.st_size, stat.st_mtime_ns)
    if _VERIFIED.get(path) != signature or len(content) != stat.st_size:
        sums = _checksums(path.parent)
        if path.name not in sums:
            raise ValueError(f"{path} is not listed in {path.parent / 'SHA256SUMS'}, so it cannot be checked "
                             "against the published file")
        _check_digest(path, content, sums[path.name])
        _VERIFIED[path] = signature
    return content


#: Columns every published file has (``main_train_pts`` is missing from ``aux-train-pts.csv``).
_REQUIRED = ("aux_train_pts", "relatedness", "s_a", "s_b", "single_task", "train_seed", "validation-1/loss")


def _parse(path: Path, content: bytes) -> dict[str, np.ndarray]:
    """The columns of one published CSV file; ``ValueError`` naming the file, line and column of a bad field."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not UTF-8 text (byte {error.start}): not a published CSV file") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    missing = [c for c in _REQUIRED if c not in (header or [])]
    if missing:
        raise ValueError(f"{path}, line 1: the header lacks the column(s) {missing}; got {header}")
    columns = {col: [] for col in header if col != "id"}
    for row in reader:
        if len(row) != len(header):
            raise ValueError(f"{path}, line {reader.line_num}: {len(row)} fields; the header has {len(header)}")
        for col, value in zip(header, row):
            if col == "id":
                continue
            if col == "single_task":
                if value not in ("True", "False"):
                    raise ValueError(f"{path}, line {reader.line_num}, column {col!r}: must be True or False; "
                                     f"got {value!r}")
                columns[col].append(value == "True")
                continue
            try:
                number = float(value)
            except ValueError:
                number = math.nan
            if not math.isfinite(number):
                raise ValueError(f"{path}, line {reader.line_num}, column {col!r}: must be a finite number; "
                                 f"got {value!r}")
            columns[col].append(number)
    if not columns["single_task"]:
        raise ValueError(f"{path} holds no rows after its header")
    return {col: np.array(vals, dtype=bool if col == "single_task" else float) for col, vals in columns.items()}


def load(name: str, directory: str | os.PathLike[str] | None = None) -> dict[str, np.ndarray]:
    """Rows of one published file (see :data:`FILES`) as a dict of arrays, one per column.

    Numeric columns become floats, ``single_task`` a bool array; ``loss`` is the recorded
    ``validation-1/loss``. ``aux-train-pts.csv`` has no ``main_train_pts`` column: its main
    task had 100 points (inferred from the paper's text), which is filled in.

    The file is checked against its folder's ``SHA256SUMS`` the first time a process reads
    it (and again if it changes). Raises ``ValueError`` naming the file if its content
    differs from the published one, and the file, line and column of a field that is not a
    number (or not ``True``/``False`` in ``single_task``); ``FileNotFoundError`` naming it
    if it is missing.
    """
    _checks.choice(name, "name", tuple(FILES))
    path = data_dir(directory) / f"{name}.csv"
    columns = _parse(path, _verified_bytes(path))
    out = {("loss" if col == "validation-1/loss" else col): values for col, values in columns.items()}
    if "main_train_pts" not in out:
        out["main_train_pts"] = np.full(len(out["loss"]), 100.0)
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
    orphans = [i for i in rows if key(i) not in st]
    if orphans:
        i = orphans[0]
        raise ValueError(f"{data_dir(directory) / f'{name}.csv'}: {len(orphans)} multitask row(s) have no single-task "
                         f"run of the same (nlayers, main_train_pts, aux_train_pts, s_a, train_seed), e.g. data row "
                         f"{i + 1} {key(i)}")
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


def select(table: dict[str, np.ndarray], **columns: float | bool) -> np.ndarray:
    """Rows of ``table`` (a dict of arrays, as :func:`load`, :func:`benefits` or
    :func:`single_task` return) whose columns equal the given values; floats compare with
    ``np.isclose``. Returns a boolean mask.

    A numeric column takes one finite real number (``True``/``False`` are refused there);
    a boolean column (``single_task``) takes ``True`` or ``False``. Raises ``ValueError``
    naming the column for an unknown column or a value it cannot hold.
    """
    if not isinstance(table, dict) or not table:
        raise ValueError(f"table must be a non-empty dict of equal-length 1-d arrays (as load returns); got "
                         f"{_checks._show(table)}")
    arrays = {col: np.asarray(v) for col, v in table.items()}
    lengths = {a.shape for a in arrays.values()}
    if len(lengths) != 1 or next(iter(lengths)) == () or len(next(iter(lengths))) != 1:
        raise ValueError(f"table must be a non-empty dict of equal-length 1-d arrays (as load returns); got shapes "
                         f"{sorted({str(a.shape) for a in arrays.values()})}")
    mask = np.ones(next(iter(lengths))[0], dtype=bool)
    for col, value in columns.items():
        if col not in arrays:
            raise ValueError(f"no column {col!r}; the table has {sorted(arrays)}")
        if arrays[col].dtype == bool:
            mask &= arrays[col] == _checks.flag(value, col)
        else:
            mask &= np.isclose(arrays[col], _checks.bounded(value, col), rtol=1e-9, atol=0.0)
    return mask
