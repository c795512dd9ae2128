"""The Lee & Ndirango grid from its keywords written out flat, for tests that vary one keyword at a time."""

from gendyn import multitask_train as mt


def run_flat(**keywords):
    """``mt.run_grid`` from the fields of its specs as keywords (``mt.grid_specs``)."""
    return mt.run_grid(**mt.grid_specs(**keywords))
