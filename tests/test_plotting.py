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
from gendyn.book import plotting
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


def test_plain_log_ticks_label_a_log_axis_with_plain_numbers():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pytest

    from gendyn.book import plotting

    def labels(axis, minor=False):
        """The labels of the ticks inside the axis' limits."""
        axis.axes.figure.canvas.draw()
        lo, hi = sorted(axis.get_view_interval())
        locs = axis.get_minorticklocs() if minor else axis.get_majorticklocs()
        texts = [t.get_text() for t in axis.get_ticklabels(minor=minor)]
        return [text for loc, text in zip(locs, texts) if lo * (1 - 1e-9) <= loc <= hi * (1 + 1e-9) and text]

    fig, ax = plt.subplots()
    ax.set(xscale="log", yscale="log", xlim=(0.1, 30), ylim=(1e-3, 1e3))
    plotting.plain_log_ticks(ax.xaxis, "auto")  # 2.5 decades: 1 and 3 per decade
    plotting.plain_log_ticks(ax.yaxis, "auto", numticks=6)  # 6 decades: one label per decade at most
    assert labels(ax.xaxis) == ["0.1", "0.3", "1", "3", "10", "30"]
    ylabels = labels(ax.yaxis)
    assert len(ylabels) <= 6 and set(ylabels) <= {"0.001", "0.01", "0.1", "1", "10", "100", "1000"}
    assert labels(ax.xaxis, minor=True) == []
    ax.set_xlim(0.1, 10)
    plotting.plain_log_ticks(ax.xaxis, (1, 2, 5))
    assert labels(ax.xaxis) == ["0.1", "0.2", "0.5", "1", "2", "5", "10"]
    fig2, ax2 = plt.subplots()
    ax2.set(yscale="log", ylim=(0.15, 0.9))  # less than a decade: no major tick inside
    plotting.plain_log_ticks(ax2.yaxis, minor=True)
    assert set(labels(ax2.yaxis, minor=True)) <= {"0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}
    assert labels(ax2.yaxis, minor=True)  # the minor ticks carry the plain labels
    with pytest.raises(ValueError, match="subs"):
        plotting.plain_log_ticks(ax.xaxis, "some")
    with pytest.raises(ValueError, match="axis"):
        plotting.plain_log_ticks(ax, "auto")
    plt.close(fig)
    plt.close(fig2)


def test_save_keeps_a_figure_s_own_layout_engine(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    from gendyn.book import plotting

    monkeypatch.setenv("GENDYN_RUN_DIR", str(tmp_path))
    fig, ax = plotting.subplots(1, 1, layout="constrained")
    ax.plot([0, 1], [0, 1], label="a")
    fig.legend(loc="outside lower center")
    plotting.save(fig, "constrained", "smoke")  # tight=True is not applied: it would replace the engine
    assert type(fig.get_layout_engine()).__name__ == "ConstrainedLayoutEngine"
    assert (tmp_path / "figures" / "constrained.png").is_file()
