"""The book's recurring figures (gendyn.book.figures) and the grid read-outs they draw."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
import torch

from gendyn import multitask_train as mt
from gendyn.book import figures
from flat_grid import run_flat



@pytest.fixture(scope="module")
def grid():
    return run_flat(seeds=[0, 1], n_train=[20, 30], s_a=[1.0, 4.0], s_b=[1.0, 4.0], relatedness=[0.0, 1.0],
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


def test_plot_cell_means_draws_the_mean_and_a_band_of_one_standard_error(grid):
    import matplotlib.pyplot as plt

    means = grid.cell_means()
    keys = [(20, 20, 4.0, sb, 1.0) for sb in grid.axes["s_b"]]
    fig, ax = plt.subplots()
    figures.plot_cell_means(ax, grid.axes["s_b"], means, keys, color="C0", label="r = 1")
    (line,) = ax.lines
    np.testing.assert_array_equal(line.get_ydata(), [means[k][0] for k in keys])
    assert line.get_label() == "r = 1"
    band = ax.collections[0].get_paths()[0].vertices[:, 1]  # the band's outline: mean -+ SE
    for k in keys:
        for edge in (means[k][0] - means[k][1], means[k][0] + means[k][1]):
            assert np.isclose(band, edge).any()
    with pytest.raises(ValueError, match="keys"):
        figures.plot_cell_means(ax, grid.axes["s_b"], means, keys[:1], color="C0", label="x")
    with pytest.raises(ValueError, match="means"):
        figures.plot_cell_means(ax, [1.0], means, [("no", "cell")], color="C0", label="x")
    plt.close(fig)


def test_simulation_vs_theory_draws_points_and_a_line_per_run_in_the_books_colours():
    import matplotlib.pyplot as plt

    from gendyn.book.plotting import COLORS

    fig, ax = plt.subplots()
    x = np.linspace(0, 1, 5)
    figures.plot_simulation_vs_theory(ax, x, [x, 2 * x], [x + 0.1, 2 * x + 0.1], labels=["a", "b"])
    lines = ax.get_lines()
    assert len(lines) == 4
    assert [ln.get_linestyle() for ln in lines] == ["None", "-", "None", "-"]
    assert [ln.get_color() for ln in lines] == [COLORS[0], COLORS[0], COLORS[1], COLORS[1]]
    assert [ln.get_label() for ln in lines[1::2]] == ["a", "b"]
    np.testing.assert_array_equal(lines[3].get_ydata(), 2 * x + 0.1)
    with pytest.raises(ValueError, match="theory"):
        figures.plot_simulation_vs_theory(ax, x, [x], [x, x])
    with pytest.raises(ValueError, match="labels"):
        figures.plot_simulation_vs_theory(ax, x, [x], [x], labels=["a", "b"])
    with pytest.raises(ValueError, match="theory"):
        figures.plot_simulation_vs_theory(ax, x, [x] * 9, [x] * 9)
    plt.close(fig)
