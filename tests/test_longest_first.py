"""tools/longest_first.py: the order in which `make runs` starts the chapters."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import longest_first  # noqa: E402

ROWS = [
    {"what": "chapter `a/slow.ipynb`", "scale": "paper", "value": 900.0, "unit": "s"},
    {"what": "chapter `a/fast.ipynb`", "scale": "paper", "value": 10.0, "unit": "s"},
    {"what": "chapter `b/gpu.ipynb`", "scale": "paper", "value": 600.0, "unit": "s"},
    {"what": "chapter `b/gpu.ipynb` (8 at a time)", "scale": "paper", "value": 5.0, "unit": "s", "device": "cuda"},
    {"what": "chapter `a/fast.ipynb`", "scale": "smoke", "value": 5000.0, "unit": "s"},
    {"what": "online SGD", "scale": "paper", "value": 1e6, "unit": "steps/s"},
]
TARGETS = ["runs/a/fast.ipynb", "runs/a/new.ipynb", "runs/a/slow.ipynb", "runs/b/gpu.ipynb"]


def test_longest_first_on_each_device_unknown_chapters_last():
    cpu = longest_first.recorded_seconds(ROWS, "paper", "cpu")
    assert longest_first.longest_first(TARGETS, cpu) == [
        "runs/a/slow.ipynb", "runs/b/gpu.ipynb", "runs/a/fast.ipynb", "runs/a/new.ipynb"]
    cuda = longest_first.recorded_seconds(ROWS, "paper", "cuda")  # the GPU's own time where recorded
    assert longest_first.longest_first(TARGETS, cuda) == [
        "runs/a/slow.ipynb", "runs/a/fast.ipynb", "runs/b/gpu.ipynb", "runs/a/new.ipynb"]


def test_the_command_line_keeps_every_target_with_the_repository_record():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "longest_first.py"), "--scale", "paper", *TARGETS],
                         check=True, capture_output=True, text=True).stdout.split()
    assert sorted(out) == sorted(TARGETS)
