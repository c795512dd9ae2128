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
