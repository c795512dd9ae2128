"""Figure files are byte-identical run to run (no creation dates, no tool versions)."""

import subprocess
import sys

SCRIPT = """
import os, sys
os.environ["GENDYN_RUN_DIR"] = sys.argv[1]
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from gendyn import plotting
plotting.use_style()
fig, ax = plt.subplots()
ax.plot(np.linspace(0, 1, 50) ** 2, label="$x^2$")
ax.legend()
plotting.save(fig, "demo", "smoke")
"""


def test_saved_figures_are_byte_identical_across_processes(tmp_path):
    for run in ("a", "b"):  # separate processes: nothing cached in between
        subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / run)], check=True)
    for ext in ("png", "pdf"):
        first = (tmp_path / "a" / "figures" / f"demo.{ext}").read_bytes()
        assert first == (tmp_path / "b" / "figures" / f"demo.{ext}").read_bytes(), ext
        assert b"CreationDate" not in first


def test_save_lays_out_the_figure_as_asked(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pytest

    from gendyn.book import plotting

    monkeypatch.setenv("GENDYN_RUN_DIR", str(tmp_path))
    positions = {}
    for tight in (False, True, (0, 0.2, 1, 1)):
        fig, ax = plt.subplots()
        ax.set(xlabel="x", title="t")
        plotting.save(fig, "layout", "smoke", tight=tight)
        positions[str(tight)] = ax.get_position().bounds
        plt.close(fig)
    assert positions["False"] != positions["True"]  # tight_layout moved the axes
    assert positions["(0, 0.2, 1, 1)"][1] > positions["True"][1]  # inside the rectangle: room below
    fig, _ = plt.subplots()
    with pytest.raises(ValueError, match="tight must be True, False or a rectangle"):
        plotting.save(fig, "bad", "smoke", tight=(0, 0, 1))
