"""The book's recurring figures (gendyn.book.figures) and the grid read-outs they draw."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
import torch

from gendyn import multitask_train as mt
from gendyn.book import figures


@pytest.fixture(scope="module")
def grid():
    return mt.run_grid(seeds=[0, 1], n_train=[20, 30], s_a=[1.0, 4.0], s_b=[1.0, 4.0], relatedness=[0.0, 1.0],
                       n_features=6, rank=2, hidden=4, n_val=30, steps=8, eval_every=4, dtype=torch.float64,
                       progress=False)


def test_benefit_maps_are_the_cell_means(grid):
    maps = grid.benefit_maps("n_train")
    assert sorted(maps) == [20, 30]
    cells = grid.cell_means()
    for p, m in maps.items():
        assert len(m) == 8
        for (sa, sb, r), v in m.items():
            assert v == cells[(p, p, sa, sb, r)][0]
    with pytest.raises(ValueError, match="by"):
        grid.benefit_maps("depth")


def test_benefit_strips_draws_one_strip_per_map(grid):
    strips = [(f"P = {p}", m) for p, m in grid.benefit_maps("n_train").items()]
    fig = figures.benefit_strips(strips, grid.axes["s_a"], grid.axes["relatedness"], "test")
    images = [ax.images[0].get_array() for ax in fig.axes if ax.images]
    assert len(images) == 2 and images[0].shape == (2, 2 * 3 - 1)
    assert np.ma.getmaskarray(images[0])[:, 2].all()  # the blank (NaN) column between the blocks of s_a
    assert not np.ma.getmaskarray(images[0])[:, :2].any()
    with pytest.raises(ValueError, match="means"):
        figures.benefit_strips([("x", {})], grid.axes["s_a"], grid.axes["relatedness"], "test")
