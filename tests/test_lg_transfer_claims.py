"""The claims of the Lampinen & Ganguli transfer chapters: allowances that do not grow with the theory they test."""

import dataclasses

import numpy as np

from gendyn import transfer
from gendyn.book.chapters import lampinen_ganguli_transfer as lg_transfer
from gendyn.book.scales import configure


def _grid_and_sim():
    grid = transfer.transfer_grid([0.84, 3.0], [0.84, 10.0], 3, n1=40, n2=20, n3=20, eps=1e-5)
    runs = np.random.default_rng(0).normal(grid.benefit.ravel()[:, None], 0.01, (len(grid.points), 4))
    sim = transfer.SimulatedTransfer(np.zeros_like(runs), np.zeros((2, 4)), runs)
    np.testing.assert_allclose(sim.se, runs.std(1, ddof=1) / 2)
    return grid, sim


def test_the_finite_size_allowance_is_the_simulated_effect_times_n1_to_the_power():
    grid, sim = _grid_and_sim()
    allowance = lg_transfer.finite_size_allowance(grid, sim)
    panels = np.abs(sim.mean.reshape(grid.shape))
    # sbar_A = 0.84 lies in the detection transition of N3/N1 = 1/2 (threshold 0.84): N1^-1/3
    np.testing.assert_allclose(allowance, [panels[0].max() * 40 ** (-1 / 3), panels[1].max() * 40 ** (-1 / 2)])


def test_the_finite_size_allowance_does_not_move_with_the_theory():
    """The issue's finding: an allowance max|T_theory| N1^-1/2 grew with a theory 30 % too large."""
    grid, sim = _grid_and_sim()
    wrong = dataclasses.replace(grid, benefit=1.5 * grid.benefit)
    np.testing.assert_array_equal(lg_transfer.finite_size_allowance(grid, sim),
                                  lg_transfer.finite_size_allowance(wrong, sim))


def test_the_declared_claims_are_fixed_by_the_configuration():
    cfg = configure("lg-transfer", "smoke", 0, "cpu")
    ids = lg_transfer.claim_ids(cfg)
    assert len(ids) == len(set(ids))
    assert [i for i in ids if i.startswith("fig8-agreement")] == [f"fig8-agreement-sA{a:g}" for a in cfg.sbar_a]
    assert {m.target for m in lg_transfer.MUTATIONS} >= {"gendyn.transfer.transfer_benefit",
                                                        "gendyn.transfer.transfer_benefit_general"}
