"""Chapters run side by side share the cores (gendyn.book.threads, make runs JOBS=N)."""

import shutil
import subprocess
from pathlib import Path

import pytest
import torch

from gendyn.book import threads

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("cores, jobs, expected", [(16, 4, 4), (16, 1, 16), (2, 4, 1), (7, 2, 3), (1, 1, 1),
                                                   (16, 3, 5)])
def test_the_cores_are_split_between_the_jobs(cores, jobs, expected):
    assert threads.share(cores, jobs) == expected


@pytest.mark.parametrize("cores, jobs", [(0, 1), (4, 0), (4.0, 2), (True, 1), (4, None)])
def test_share_refuses_bad_counts(cores, jobs):
    with pytest.raises(ValueError):
        threads.share(cores, jobs)


def test_a_chapter_alone_keeps_the_libraries_defaults():
    assert threads.chapter_threads({}, cores=16) is None
    assert threads.chapter_threads({"GENDYN_JOBS": "1"}, cores=16) is None
    assert threads.thread_environment(None, {}) == threads.NUMPY_BLAS == {"OPENBLAS_NUM_THREADS": "1"}


def test_numpy_blas_gets_one_thread_unless_set_by_hand():
    assert threads.thread_environment(4, {})["OPENBLAS_NUM_THREADS"] == "1"
    assert threads.thread_environment(None, {"OPENBLAS_NUM_THREADS": "2"}) == {"OPENBLAS_NUM_THREADS": "2"}
    assert threads.thread_environment(4, {"OPENBLAS_NUM_THREADS": "3"})["OPENBLAS_NUM_THREADS"] == "3"


def test_a_chapter_among_jobs_gets_its_share():
    assert threads.chapter_threads({"GENDYN_JOBS": "4"}, cores=16) == 4
    assert threads.chapter_threads({"GENDYN_JOBS": "8"}, cores=2) == 1
    env = threads.thread_environment(4, {})
    assert env["GENDYN_THREADS"] == "4"
    assert all(env[name] == "4" for name in threads.LIBRARY_VARIABLES if name not in threads.NUMPY_BLAS)
    assert {"OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"} <= set(env)


def test_gendyn_threads_overrides_the_share():
    assert threads.chapter_threads({"GENDYN_THREADS": "3", "GENDYN_JOBS": "4"}, cores=16) == 3
    assert threads.workers({"GENDYN_THREADS": "3"}) == 3
    assert threads.workers({}) == threads.available_cores()


@pytest.mark.parametrize("name", ["GENDYN_THREADS", "GENDYN_JOBS"])
@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_bad_environment_values_are_named(name, value):
    with pytest.raises(ValueError, match=name):
        threads.chapter_threads({name: value}, cores=4)


def test_apply_sets_torch_threads_only_when_asked():
    old = torch.get_num_threads()
    try:
        assert threads.apply({}) is None and torch.get_num_threads() == old
        assert threads.apply({"GENDYN_THREADS": "1"}) == 1 and torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(old)


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_runs_jobs_dry_run(tmp_path):
    """``make -n runs JOBS=2``: every chapter's run gets GENDYN_JOBS=2, and the published-data chapter
    comes after the two chapters whose grids it reads."""
    stamp = tmp_path / "installed"
    stamp.touch()  # an installed environment, for make's purposes: the dry run plans the chapters only
    out = subprocess.run(["make", "-n", "runs", "JOBS=2", "SCALE=smoke", f"STAMP={stamp}"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    runs = [line for line in out.splitlines() if "tools/chapters.py run" in line]
    from gendyn.book.myst import chapter_sources

    notebooks = [p.relative_to(ROOT / "notebooks").as_posix() for p in chapter_sources(ROOT / "notebooks")]
    assert len(runs) == len(notebooks)
    assert all(line.startswith("GENDYN_JOBS=2 ") for line in runs), runs[:2]
    order = [next(nb for nb in notebooks if f"notebooks/{nb} " in line) for line in runs]
    order = [nb.rsplit(".", 1)[0] for nb in order]
    published = order.index("lee-ndirango/published-data")
    assert published > order.index("lee-ndirango/aux-data-and-depth")
    assert published > order.index("lee-ndirango/multitask-benefit")
    serial = subprocess.run(["make", "-n", "runs", "SCALE=smoke", f"STAMP={stamp}"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    assert all(line.startswith("GENDYN_JOBS=1 ") for line in serial.splitlines() if "tools/chapters.py run" in line)
