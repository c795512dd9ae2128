"""Unit tests of gendyn.multitask_train's grid SNRs, and of the book's grid placement."""

import numpy as np
import pytest

from gendyn import multitask_train as mt
from gendyn.book import grids, scales


def test_grid_snrs_keep_both_ends_evenly_in_log_scale():
    assert mt.grid_snrs(len(mt.SNR_GRID)) == mt.SNR_GRID
    assert mt.grid_snrs(2) == (mt.SNR_GRID[0], mt.SNR_GRID[-1])
    assert mt.grid_snrs(3) == (mt.SNR_GRID[0], mt.SNR_GRID[3], mt.SNR_GRID[-1])  # 0.01, 0.63, 10
    assert np.allclose(mt.grid_snrs(3), (0.01, 10 ** -0.2, 10.0))


@pytest.mark.parametrize("points", [1, 7, 2.0, True])
def test_grid_snrs_refuse_a_count_outside_the_grid(points):
    with pytest.raises(ValueError, match="points"):
        mt.grid_snrs(points)


def test_book_grid_takes_its_snrs_from_grid_snrs_and_its_placement_from_placement():
    cfg = scales.configure("ln-multitask", "smoke", 0, "cpu")
    kw = grids.book_grid("rank-10", cfg)
    assert kw["s_a"] == kw["s_b"] == mt.grid_snrs(cfg.snr_points)
    assert grids.placement(cfg) == {"workers": 1}
    assert {k: kw[k] for k in grids.placement(cfg)} == grids.placement(cfg)
    with_cluster = scales.configure("ln-multitask", "smoke", 0, "cpu", scheduler="tcp://host:8786")
    assert grids.placement(with_cluster) == {"workers": 1, "scheduler": "tcp://host:8786"}
    with pytest.raises(ValueError, match="cfg"):
        grids.placement({"scale": "smoke"})
