"""The environment files agree and pin what must be pinned."""

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import sync_environment  # noqa: E402


def test_environment_yml_mirrors_the_lock():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "python=3.11" in env["dependencies"]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert pip == sync_environment.locked_pins()


def test_every_lock_line_is_an_exact_pin_and_torch_is_the_cpu_wheel():
    pins = sync_environment.locked_pins()
    assert all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[^\s=]+", p) for p in pins), pins
    assert "torch==2.13.0" in pins
    book = [p for p in pins if p.lower().startswith("jupyter-book==")]
    assert book and book[0].split("==")[1].startswith("1.")


def test_installed_jupyter_book_is_1x():
    from importlib.metadata import version

    assert version("jupyter-book").startswith("1.")
