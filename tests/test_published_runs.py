"""The published runs of Lee & Ndirango (2019) are carried in the project and read correctly."""

import shutil

import numpy as np
import pytest

from gendyn import multitask_train as mt
from gendyn import published_runs


def test_data_lives_inside_the_project_and_matches_its_checksums():
    folder = published_runs.data_dir()
    assert folder.parent.name == "data" and (folder.parent.parent / "pyproject.toml").is_file()
    assert sorted(published_runs.verify()) == sorted(f"{name}.csv" for name in published_runs.FILES)


def test_benefits_pair_every_multitask_run_with_its_single_task_baseline():
    ref = published_runs.benefits("rank-3")
    assert len(ref["benefit"]) == 1800
    assert np.all(np.isfinite(ref["benefit"]))
    assert np.array_equal(ref["benefit"], mt.reference_benefits("rank-3")["benefit"])  # the old name


def test_single_task_rows_are_independent_seeds_of_each_cell():
    for name in published_runs.FILES:
        st = published_runs.single_task(name)
        cells = set(zip(st["nlayers"], st["main_train_pts"], st["s_a"]))
        assert len(st["loss"]) == 5 * len(cells)  # seeds 0-4 of every cell, once each
        assert np.all(np.isfinite(st["loss"]))
    ref = published_runs.load("deep-nonlinear")
    st = published_runs.single_task("deep-nonlinear")
    assert sorted(st["loss"]) == sorted(ref["loss"][ref["single_task"]])  # one run per seed there
    # the benefits' baselines are these rows
    b, st = published_runs.benefits("rank-10"), published_runs.single_task("rank-10")
    i = np.flatnonzero(published_runs.select(st, main_train_pts=b["main_train_pts"][0], s_a=b["s_a"][0],
                                             train_seed=b["train_seed"][0]))
    assert len(i) == 1 and np.isclose(st["loss"][i[0]], b["st_loss"][0])
    with pytest.raises(ValueError, match="no column 'depth'"):
        published_runs.select(st, depth=1)


def test_missing_folder_raises_naming_where_it_looked(tmp_path):
    with pytest.raises(FileNotFoundError, match="GENDYN_DATA_DIR"):
        published_runs.data_dir(tmp_path)


def test_a_changed_file_fails_verification(tmp_path):
    copy = tmp_path / "lee-ndirango-2019"
    shutil.copytree(published_runs.data_dir(), copy)
    with open(copy / "rank-3.csv", "a") as fh:
        fh.write("\n")
    with pytest.raises(ValueError, match="rank-3.csv differs from the published file"):
        published_runs.verify(copy)


def test_environment_variable_points_to_another_copy(tmp_path, monkeypatch):
    shutil.copytree(published_runs.data_dir(), tmp_path / "lee-ndirango-2019")
    monkeypatch.setenv("GENDYN_DATA_DIR", str(tmp_path))
    assert published_runs.data_dir() == (tmp_path / "lee-ndirango-2019").resolve()


def test_unknown_file_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="name must be one of .*'rank-10'"):
        published_runs.load("rank-7")
