"""gendyn.stopping.minimum_over_time against brute-force grids and the curves of the theories it serves."""

import numpy as np
import pytest

from gendyn import deep_linear as dl
from gendyn import linear_student as ls
from gendyn import stopping


def _brute_force(error, t_lo, t_max, points=200001):
    grid = np.geomspace(t_lo, t_max, points)
    errs = error(grid)
    return grid[np.argmin(errs)], errs.min()


@pytest.mark.parametrize("centre, width", [(1.0, 1.0), (37.0, 0.3), (1e-3, 2.0)])
def test_matches_a_brute_force_grid_on_a_smooth_dip(centre, width):
    def error(t):
        return 2.0 - np.exp(-((np.log(t) - np.log(centre)) / width) ** 2) + 0.01 * np.log(t) ** 2

    t_opt, e_opt = stopping.minimum_over_time(error, 1e-6, 1e6)
    t_ref, e_ref = _brute_force(error, 1e-6, 1e6)
    assert e_opt <= e_ref + 1e-14  # never worse than the fine grid
    assert t_opt == pytest.approx(t_ref, rel=2e-4)  # the fine grid's spacing in ln t is 1.4e-4


def test_finds_the_global_one_of_two_minima():
    def error(t):  # a shallow dip at t = 1e-2 and the deeper one at t = 1e3
        u = np.log10(t)
        return 1.0 - 0.2 * np.exp(-((u + 2) / 0.2) ** 2) - 0.3 * np.exp(-((u - 3) / 0.2) ** 2)

    t_opt, e_opt = stopping.minimum_over_time(error, 1e-5, 1e5)
    assert t_opt == pytest.approx(1e3, rel=1e-6) and e_opt == pytest.approx(0.7, abs=1e-12)


def test_special_times_catch_a_dip_narrower_than_the_grid():
    def error(t):  # a dip of width 1e-4 in ln t at t = 2.2345, invisible to 241 points
        return 1.0 - 0.5 * np.exp(-((np.log(t) - np.log(2.2345)) / 1e-4) ** 2)

    blind = stopping.minimum_over_time(error, 1e-3, 1e3)
    t_opt, e_opt = stopping.minimum_over_time(error, 1e-3, 1e3, special_times=[2.2345, 1e9, 0.0])
    assert blind[1] > 0.99
    assert t_opt == pytest.approx(2.2345, rel=1e-8) and e_opt == pytest.approx(0.5, abs=1e-12)


def test_ends_and_zero():
    rising = lambda t: 1.0 + t  # noqa: E731 - learning never helps
    assert stopping.minimum_over_time(rising, 1e-3, 1e3, zero=True) == (0.0, 1.0)
    t_opt, e_opt = stopping.minimum_over_time(rising, 1e-3, 1e3)  # without t = 0: the grid's start
    assert t_opt == pytest.approx(1e-3, rel=1e-6) and e_opt == pytest.approx(1.001, rel=1e-9)
    falling = lambda t: 1.0 / (1.0 + t)  # noqa: E731 - still falling at t_max
    t_opt, e_opt = stopping.minimum_over_time(falling, 1e-3, 1e3, zero=True)
    assert t_opt == 1e3 and e_opt == falling(1e3)


def test_refuses_a_curve_of_the_wrong_length_and_a_bad_grid():
    with pytest.raises(ValueError, match="one error per time"):
        stopping.minimum_over_time(lambda t: np.ones(3), 1e-3, 1e3)
    with pytest.raises(ValueError, match="t_max must exceed t_lo"):
        stopping.minimum_over_time(lambda t: t, 1.0, 1.0)
    with pytest.raises(ValueError, match="error must be a callable"):
        stopping.minimum_over_time(1.0, 1.0, 2.0)


def test_serves_deep_linear_and_linear_student():
    """The optima of eq. (15) and eq. (6) are minima of their curves: a fine grid finds nothing lower."""
    args = ([3.0, 1.0], dl.TaStudent(n1=100, n2=10, n3=50, eps=1e-3))
    t_opt, e_opt = dl.optimal_early_stopping(*args)
    t_ref, e_ref = _brute_force(lambda t: dl.theory_errors(t, *args)[1], t_opt / 3, t_opt * 3, 2001)
    assert e_opt <= e_ref + 1e-12 and t_opt == pytest.approx(t_ref, rel=2e-3)
    t_opt, e_opt = ls.optimal_stopping_error(0.8, 4.0, 0.5)
    t_ref, e_ref = _brute_force(lambda t: ls.generalization_error(t, 0.8, 4.0, 0.5), t_opt / 3, t_opt * 3, 2001)
    assert e_opt <= e_ref + 1e-12 and float(t_opt) == pytest.approx(t_ref, rel=2e-3)
