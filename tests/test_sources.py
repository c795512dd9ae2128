"""What a computation depends on (gendyn.book.sources): the closure a run identity and a cache key share."""

import shutil

import pytest

from gendyn.book import grids, sources

GRID = dict(seeds=(0,), s_a=(1.0,), s_b=(1.0,), relatedness=(0.0,), n_train=(8,), n_val=4, rank=2, steps=2)


def test_the_grid_closure_holds_every_module_the_trainer_imports():
    closure = sources.module_closure(["gendyn.multitask_train"])
    assert {"gendyn", "gendyn._random", "gendyn._checks", "gendyn.softmax_multitask",
            "gendyn.multitask_train"} <= set(closure)
    assert "gendyn.book" not in closure and "gendyn.rmt" not in closure


@pytest.fixture
def copied_lib(tmp_path, monkeypatch):
    """A copy of the project's lib/ and data/ that sources reads instead of the real one."""
    shutil.copytree(sources.ROOT / "lib" / "gendyn", tmp_path / "lib" / "gendyn",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(sources.ROOT / "data", tmp_path / "data")
    monkeypatch.setattr(sources, "ROOT", tmp_path)
    return tmp_path


@pytest.mark.parametrize("module", ["_random.py", "_checks.py", "softmax_multitask.py", "multitask_train.py"])
def test_a_change_anywhere_the_grid_reads_changes_its_cache_key(copied_lib, module):
    """The stale-cache hole of issue 36: the key covered two modules, so a change of _random.py
    served the old grid."""
    before = grids.grid_key(GRID)
    with open(copied_lib / "lib" / "gendyn" / module, "a") as fh:
        fh.write("\n# changed\n")
    assert grids.grid_key(GRID) != before


def test_a_module_the_grid_does_not_read_leaves_its_key(copied_lib):
    before = grids.grid_key(GRID)
    with open(copied_lib / "lib" / "gendyn" / "rmt.py", "a") as fh:
        fh.write("\n# changed\n")
    assert grids.grid_key(GRID) == before


def test_arguments_device_dtype_and_a_mutation_change_the_key_but_workers_do_not(monkeypatch):
    import torch

    base = grids.grid_key(GRID)
    for changed in (dict(device="cuda"), dict(dtype=torch.float64), dict(draw_dtype=torch.float64), dict(steps=3)):
        assert grids.grid_key({**GRID, **changed}) != base, changed
    assert grids.grid_key({**GRID, "workers": 4, "progress": False}) == base
    monkeypatch.setenv("GENDYN_MUTATE", '{"target": "gendyn.softmax_multitask.f", "error": 0.1}')
    assert grids.grid_key(GRID) != base
