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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Protocol

import numpy as np

from . import _checks, seeding, softmax_multitask

__all__ = ["FILES", "N_CLASSES", "NOISE_STD", "DataNotFoundError", "data_dir", "verify", "load", "benefits", "single_task", "select"]
__all__ += ["cell_key", "BenefitGrid", "MatchedCells", "match_cells", "SingleTaskCell", "single_task_cells",
            "LabelEntropyFloor", "label_entropy_floor", "AuthorsGroup", "authors_plan"]

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


# ----------------------------------------------------------------------------------------
# the published cells against other runs: matching, the label-entropy floor, the authors' plan
# ----------------------------------------------------------------------------------------


def cell_key(depth: float, n_train: float, n_train_aux: float, s_a: float, s_b: float,
             relatedness: float) -> tuple[int, int, int, float, float, float]:
    """The key of a grid cell that the published files and other grids share.

    ``(depth, n_train, n_train_aux, log10 s_a, log10 s_b, relatedness)``, sizes as integers and the
    SNRs and the relatedness rounded to three decimals, so that the files' printed values and a
    grid's floats give the same key.

    Parameters
    ----------
    depth : float
        Trunk depth (the files' ``nlayers``).
    n_train, n_train_aux : float
        Training examples of the main task ``P_A`` and of the auxiliary task ``P_B`` (whole numbers).
    s_a, s_b : float
        Teacher SNRs of the two tasks (``> 0``).
    relatedness : float
        ``r`` in ``[0, 1]``.
    """
    sizes = []
    for value, name in ((depth, "depth"), (n_train, "n_train"), (n_train_aux, "n_train_aux")):
        number = _checks.real(value, name)
        if number != int(number):
            raise ValueError(f"{name} must be a whole number >= 0; got {value!r}")
        sizes.append(int(number))
    s_a, s_b = _checks.positive(s_a, "s_a"), _checks.positive(s_b, "s_b")
    relatedness = _checks.bounded(relatedness, "relatedness", 0.0, 1.0)
    return (*sizes, round(math.log10(s_a), 3), round(math.log10(s_b), 3), round(relatedness, 3))


class BenefitGrid(Protocol):
    """What :func:`match_cells` reads of a grid (:class:`gendyn.multitask_train.GridResult`)."""

    cells: Sequence[Mapping[str, float]]  #: one dict per run: n_train, n_train_aux, s_a, s_b, relatedness
    benefit: np.ndarray  #: the benefit of each run


@dataclass(frozen=True)
class MatchedCells:
    """The grid cells that the published files and other runs both hold (:func:`match_cells`).

    Attributes
    ----------
    names : tuple of str
        The files compared, in order.
    files : ndarray of str, shape (C,)
        The file of each matched cell.
    keys : list of tuple
        :func:`cell_key` of each cell.
    ref_m, ref_se : ndarray, shape (C,)
        Mean published benefit over seeds and its standard error.
    our_m, our_se : ndarray, shape (C,)
        The same of the other runs (in their precision).
    """

    names: tuple
    files: np.ndarray
    keys: list
    ref_m: np.ndarray
    ref_se: np.ndarray
    our_m: np.ndarray
    our_se: np.ndarray

    def counts(self) -> dict[str, int]:
        """Number of matched cells per file."""
        return {n: int((self.files == n).sum()) for n in self.names}

    @property
    def sizes(self) -> np.ndarray:
        """Main-task training-set size ``P_A`` of every matched cell."""
        return np.array([k[1] for k in self.keys])


def _seed_groups(pairs, side):
    """``{key: array of values}`` of ``(key, value)`` pairs; ``ValueError`` if a key has fewer than two."""
    groups = {}
    for key, value in pairs:
        groups.setdefault(key, []).append(value)
    for key, values in groups.items():
        if len(values) < 2:
            raise ValueError(f"{side}: cell {key} has {len(values)} seed; a standard error needs at least 2")
    return {k: np.array(v) for k, v in groups.items()}


def match_cells(ours: Mapping[str, Mapping[int, BenefitGrid]],
                refs: Mapping[str, Mapping[str, np.ndarray]]) -> MatchedCells:
    """Match other runs' benefits with the published per-run benefits, cell by cell, per file.

    The benefit is the paper's (36), single-task minus multitask validation loss of task A. Each
    side's runs are grouped by :func:`cell_key`; every key both sides hold gives one cell with the
    mean over seeds and its standard error on each side (the seeds of the two sides are unrelated
    draws, so only cell means compare).

    Parameters
    ----------
    ours : mapping
        ``{file: {trunk depth: grid}}``, a grid as :class:`gendyn.multitask_train.GridResult`
        (its ``cells`` and ``benefit``); the files are keys of :data:`FILES`.
    refs : mapping
        ``{file: benefits(file)}`` (:func:`benefits`) for every file of ``ours``.

    Returns
    -------
    MatchedCells
    """
    if not isinstance(ours, Mapping) or not ours:
        raise ValueError(f"ours must be a non-empty mapping {{file: {{depth: grid}}}}; got {_checks._show(ours)}")
    if not isinstance(refs, Mapping):
        raise ValueError(f"refs must be a mapping {{file: benefits(file)}}; got {_checks._show(refs)}")
    rows = []  # (file, key, ref mean, ref se, our mean, our se)
    for name in ours:
        _checks.choice(name, "ours", tuple(FILES))
        if name not in refs:
            raise ValueError(f"refs must hold every file of ours; {name!r} is missing (it has {sorted(refs)})")
        ref, by_depth = refs[name], ours[name]
        rc = _seed_groups(((cell_key(ref["nlayers"][i], ref["main_train_pts"][i], ref["aux_train_pts"][i],
                                     ref["s_a"][i], ref["s_b"][i], ref["relatedness"][i]), ref["benefit"][i])
                           for i in range(len(ref["benefit"]))), f"refs[{name!r}]")
        oc = _seed_groups(((cell_key(depth, c["n_train"], c["n_train_aux"], c["s_a"], c["s_b"], c["relatedness"]), b)
                           for depth, g in by_depth.items() for c, b in zip(g.cells, g.benefit)), f"ours[{name!r}]")
        for k in sorted(set(rc) & set(oc)):
            r_, o_ = rc[k], oc[k]  # means and SE in each side's precision (float32 grids stay float32)
            rows.append((name, k, r_.mean(), r_.std(ddof=1) / math.sqrt(len(r_)), o_.mean(),
                         o_.std(ddof=1) / math.sqrt(len(o_))))
    ref_m, ref_se, our_m, our_se = (np.array([row[i] for row in rows]) for i in (2, 3, 4, 5))
    return MatchedCells(tuple(ours), np.array([row[0] for row in rows]), [row[1] for row in rows], ref_m, ref_se,
                        our_m, our_se)


class SingleTaskCell(NamedTuple):
    """One published single-task cell and its seeds' losses (:func:`single_task_cells`)."""

    file: str  #: the file (a key of :data:`FILES`)
    depth: int  #: trunk depth
    n_train: int  #: training examples of the task
    s_a: float  #: teacher SNR
    losses: np.ndarray  #: validation loss of each seed (:func:`single_task`)


def single_task_cells(name: str, directory: str | os.PathLike[str] | None = None) -> tuple[SingleTaskCell, ...]:
    """The published single-task cells of one file, each with one validation loss per seed.

    Parameters
    ----------
    name : str
        A key of :data:`FILES`.
    directory : path-like, optional
        As in :func:`load`.

    Returns
    -------
    tuple of SingleTaskCell
        Sorted by (depth, size, SNR); the losses of :func:`single_task`, one per seed.
    """
    st = single_task(name, directory)
    return tuple(SingleTaskCell(name, int(d), int(p), float(s),
                                st["loss"][select(st, nlayers=d, main_train_pts=p, s_a=s)])
                 for d, p, s in sorted(set(zip(st["nlayers"], st["main_train_pts"], st["s_a"]))))


@dataclass(frozen=True)
class LabelEntropyFloor:
    """The floor ``H(y | x)`` under any validation loss on labels of the authors' default law.

    Attributes
    ----------
    snrs : ndarray
        The SNRs ``s_a`` of the published single-task cells.
    by_file : dict
        ``{file: {s_a: (floor, its Monte Carlo standard error)}}`` at those SNRs, with the file's
        number of classes (:data:`N_CLASSES`).
    q_grid : ndarray
        The table of the floor against ``q = s / noise_std`` (for :meth:`smallest_snr`).
    floor_of_q : dict
        ``{n_classes: floor at q_grid}``, lowered by three standard errors and made non-increasing,
        so that its inverse errs low.
    noise_std : float
        The logit noise of the default labels, :data:`NOISE_STD`.
    """

    snrs: np.ndarray
    by_file: dict
    q_grid: np.ndarray
    floor_of_q: dict
    noise_std: float = NOISE_STD

    def at(self, name: str, s: float) -> tuple[float, float]:
        """(floor, its Monte Carlo standard error) of file ``name``'s labels at SNR ``s`` (one of :attr:`snrs`)."""
        _checks.choice(name, "name", tuple(self.by_file))
        s = _checks.positive(s, "s")
        for k, v in self.by_file[name].items():
            if np.isclose(k, s, rtol=1e-9, atol=0.0):
                return v
        raise ValueError(f"s must be one of the floor's SNRs {[float(v) for v in self.snrs]}; got {s!r}")

    def smallest_snr(self, loss: float, n_classes: int) -> float:
        """The smallest ``s / noise_std`` whose lowered floor for ``n_classes`` classes is at most ``loss``."""
        loss = _checks.real(loss, "loss")
        _checks.choice(n_classes, "n_classes", tuple(self.floor_of_q))
        return float(np.exp(np.interp(-loss, -self.floor_of_q[n_classes], np.log(self.q_grid))))


def label_entropy_floor(*, rng: seeding.Rng = None, n_samples: int,
                        files: Sequence[str] = ("rank-10", "rank-3", "deep-nonlinear"),
                        **former: object) -> LabelEntropyFloor:
    """The label-entropy floor at the SNRs of the published single-task cells of ``files``.

    With the authors' code's defaults (20 input features, logit noise :data:`NOISE_STD`, teacher
    singular values ``s_a``) the labels follow a known law, and by Gibbs' inequality no classifier's
    expected cross-entropy on fresh labels of it is below their conditional entropy
    ``H(y | x)`` (:func:`gendyn.softmax_multitask.noisy_label_entropy`; the bound is the book's,
    the paper has none).

    Parameters
    ----------
    rng : int, SeedSequence, torch or numpy Generator, or None
        The root of the Monte Carlo estimates: the floor at the cells' SNRs draws from its stream
        ``"cells"`` (the same draws for every file), the inversion table from ``"table"``; ``None``:
        fresh entropy (see :mod:`gendyn.seeding`).
    n_samples : int
        Monte Carlo inputs at the cells' SNRs (even, at least 16: a quarter of them, also even, for
        the coarser inversion table).
    files : sequence of str
        The files whose cells and classes count (default: all but ``aux-train-pts``, whose
        single-task runs are the 100-point runs of ``rank-10``).

    Returns
    -------
    LabelEntropyFloor
    """
    rng = seeding.former_rng(rng, former, "label_entropy_floor", alone=True)
    n_samples = _checks.integer(n_samples, "n_samples", 16, " (even: antithetic pairs)")
    if n_samples % 8:
        raise ValueError(f"n_samples must be a multiple of 8 (antithetic pairs, also in a quarter); got {n_samples}")
    if isinstance(files, str) or not isinstance(files, Sequence) or not files:
        raise ValueError(f"files must be a non-empty sequence of keys of FILES {tuple(FILES)}; got {files!r}")
    files = tuple(_checks.choice(f, "files", tuple(FILES)) for f in files)
    cells = [c for name in files for c in single_task_cells(name)]
    snrs = np.unique([c.s_a for c in cells])
    cells_rng, table_rng = seeding.streams(rng, "cells", "table")
    by_file = {}
    for name in files:
        h, h_se = softmax_multitask.noisy_label_entropy(snrs, N_CLASSES[name], NOISE_STD, n_samples=n_samples,
                                                        rng=cells_rng, return_stderr=True)
        by_file[name] = dict(zip(snrs, zip(h, h_se)))
    # the floor depends on s_a / noise_std only: invert it to get the smallest SNR a loss allows. The
    # table is lowered by three Monte Carlo SE and made non-increasing, so the inverse errs low
    # (a coarser table than above suffices for bounds).
    q_grid = np.logspace(-2, 1.7, 40)
    floor_of_q = {}
    for k in set(N_CLASSES[name] for name in files):
        h, h_se = softmax_multitask.noisy_label_entropy(q_grid, k, 1.0, n_samples=n_samples // 4, rng=table_rng,
                                                        return_stderr=True)
        floor_of_q[k] = np.minimum.accumulate(h - 3 * h_se)
    return LabelEntropyFloor(snrs, by_file, q_grid, floor_of_q)


class AuthorsGroup(NamedTuple):
    """A group of published cells rerun by the authors' protocol (:func:`authors_plan`): one job per seed of
    :func:`gendyn.interleaved_sgd.train_cells` with ``cells``, ``rank``, ``depth`` and ``activation``."""

    file: str  #: the file (a key of :data:`FILES`)
    n_train_a: int  #: training examples of the main task
    n_train_b: int  #: training examples of the auxiliary task
    depth: int  #: trunk depth
    cells: tuple  #: the group's cells (dicts), single-task ones first

    @property
    def key(self) -> tuple[str, int, int, int]:
        """``(file, n_train_a, n_train_b, depth)``."""
        return (self.file, self.n_train_a, self.n_train_b, self.depth)

    @property
    def rank(self) -> int:
        """The teachers' rank and number of classes of the file (:data:`N_CLASSES`)."""
        return N_CLASSES[self.file]

    @property
    def activation(self) -> str:
        """The trunk's activation: ReLU in the deep file, linear (the paper's three-layer student) elsewhere."""
        return "relu" if self.file == "deep-nonlinear" else "linear"


def _file_groups(ref, name):
    """``{(file, P_A, P_B, depth): {(s_a, s_b, r), ...}}``: the multitask cells of every group of a file."""
    groups = {}
    for i in range(len(ref["benefit"])):
        g = (name, int(ref["main_train_pts"][i]), int(ref["aux_train_pts"][i]), int(ref["nlayers"][i]))
        groups.setdefault(g, set()).add((ref["s_a"][i], ref["s_b"][i], ref["relatedness"][i]))
    return groups


def authors_plan(refs: Mapping[str, Mapping[str, np.ndarray]], snrs: Sequence[float],
                 groups: Sequence[tuple[str, int, int, int]] | None = None,
                 multitask_cells: Sequence[tuple[float, float, float]] | None = None) -> tuple[AuthorsGroup, ...]:
    """The published cells to rerun with the authors' protocol, by group ``(file, P_A, P_B, depth)``.

    Every group gets one single-task cell per SNR of ``snrs`` (the baselines of the benefit (36))
    and its multitask cells ``(s_a, s_b, r)``.

    Parameters
    ----------
    refs : mapping
        ``{file: benefits(file)}`` (:func:`benefits`) of every file of :data:`FILES`.
    snrs : sequence of float
        Main-task SNRs of the single-task cells (``> 0``).
    groups : sequence of tuple, optional
        ``(file, P_A, P_B, depth)`` groups of the files; default: every group of the four files.
    multitask_cells : sequence of tuple, optional
        ``(s_a, s_b, r)`` of the multitask cells of every group; default: every multitask cell the
        file holds for the group.

    Returns
    -------
    tuple of AuthorsGroup
        In the order of ``groups`` (by default, of the files and their rows).
    """
    if not isinstance(refs, Mapping) or any(name not in refs for name in FILES):
        raise ValueError(f"refs must be a mapping {{file: benefits(file)}} of every file {tuple(FILES)}; got "
                         f"{_checks._show(refs)}")
    snrs = np.array(_checks.real_array(snrs, "snrs", lower=0, open_lower=True), dtype=float)
    if snrs.ndim != 1 or not len(snrs):
        raise ValueError(f"snrs must be a non-empty 1-d sequence of SNRs > 0; got shape {snrs.shape}")
    every = {g: cells for name in FILES for g, cells in _file_groups(refs[name], name).items()}
    if groups is None:
        chosen = list(every)
    else:
        if isinstance(groups, str) or not isinstance(groups, Sequence) or not groups:
            raise ValueError(f"groups must be a non-empty sequence of (file, P_A, P_B, depth); got {groups!r}")
        chosen = [tuple(g) if isinstance(g, Sequence) and not isinstance(g, str) else g for g in groups]
        unknown = [g for g in chosen if g not in every]
        if unknown:
            raise ValueError(f"groups {unknown} are not groups (file, P_A, P_B, depth) of the published files")
    if multitask_cells is not None:
        if isinstance(multitask_cells, str) or not isinstance(multitask_cells, Sequence) or not multitask_cells:
            raise ValueError(f"multitask_cells must be a non-empty sequence of (s_a, s_b, r); got "
                             f"{_checks._show(multitask_cells)}")
        for cell in multitask_cells:
            if not isinstance(cell, Sequence) or len(cell) != 3:
                raise ValueError(f"multitask_cells must hold (s_a, s_b, r) triples; got {cell!r}")
            _checks.positive(cell[0], "multitask_cells (s_a)"), _checks.positive(cell[1], "multitask_cells (s_b)")
            _checks.bounded(cell[2], "multitask_cells (r)", 0.0, 1.0)
        subset = set(multitask_cells)
    plan = []
    for g in chosen:
        name, p_a, p_b, depth = g
        mt_cells = every[g] if multitask_cells is None else subset
        cells = [dict(n_train_a=p_a, s_a=s) for s in snrs] + [
            dict(n_train_a=p_a, n_train_b=p_b, s_a=sa, s_b=sb, relatedness=r) for sa, sb, r in sorted(mt_cells)]
        plan.append(AuthorsGroup(name, p_a, p_b, depth, tuple(cells)))
    return tuple(plan)
