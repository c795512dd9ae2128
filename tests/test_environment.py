"""The environment files agree, pin what must be pinned, and install with hashes on 3.11-3.13."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import sync_environment  # noqa: E402

LOCKS = {
    "base": ROOT / "requirements.lock",
    "pip": ROOT / "requirements" / "pip.lock",
    "cpu": ROOT / "requirements" / "torch-cpu.lock",
    "cuda": ROOT / "requirements" / "torch-cuda.lock",
}
SUPPORTED = ("3.11", "3.12", "3.13")


def requirements(path):
    """Each requirement of a requirements file: (pin, marker, [hashes]), continuations joined."""
    text = re.sub(r"\\\n", " ", path.read_text())
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
        if not line:
            continue
        head, *options = re.split(r"\s+(?=--)", line)
        pin, _, marker = head.partition(";")
        hashes = [o.split("=", 1)[1] for o in options if o.startswith("--hash=")]
        out.append((pin.strip(), marker.strip(), hashes))
    return out


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_requirement_of_every_lock_is_an_exact_pin_with_hashes(lock):
    reqs = requirements(LOCKS[lock])
    assert reqs, f"{LOCKS[lock]} is empty"
    for pin, _, hashes in reqs:
        assert re.fullmatch(r"[A-Za-z0-9_.\-]+==[^\s=]+", pin), pin
        assert hashes, f"{pin} in {LOCKS[lock].name} has no --hash: pip --require-hashes refuses it"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), (pin, hashes)


def test_torch_is_pinned_exactly_in_its_two_builds_and_nowhere_else():
    assert [p for p, _, _ in requirements(LOCKS["cpu"])] == ["torch==2.13.0+cpu"]
    cuda = [p for p, _, _ in requirements(LOCKS["cuda"])]
    assert "torch==2.13.0" in cuda
    base = [p.lower() for p, _, _ in requirements(LOCKS["base"])]
    assert not [p for p in base if p.startswith(("torch==", "pip==", "nvidia-", "triton=="))]
    # what the CUDA build brings that the CPU build does not: all of it pinned, hashed, listed
    assert any(p.startswith("nvidia-cublas") for p in cuda) and any(p.startswith("triton==") for p in cuda)
    book = [p for p in base if p.startswith("jupyter-book==")]
    assert book and book[0].split("==")[1].startswith("1.")


def test_the_base_lock_and_the_cuda_lock_do_not_pin_a_package_twice():
    names = lambda lock: {re.sub(r"[-_.]+", "-", p.split("==")[0]).lower()  # noqa: E731
                          for p, _, _ in requirements(LOCKS[lock])}
    assert not names("base") & names("cuda")
    assert not names("base") & names("cpu")


def test_pip_is_pinned_and_installed_first_never_upgraded_unpinned():
    assert [p for p, _, _ in requirements(LOCKS["pip"])][0].startswith("pip==")
    recipe = (ROOT / "Makefile").read_text()
    installs = [line for line in re.sub(r"\\\n", " ", recipe).splitlines()
                if "pip install" in line and not line.lstrip().startswith("#")]
    assert installs
    for line in installs:
        assert "--upgrade" not in line and " -U " not in line, line
        if "--dry-run" in line or line.rstrip().endswith("-e ."):  # the CPU-wheel probe; gendyn itself
            assert "--no-deps" in line, line
        else:
            assert "--require-hashes" in line, line
    first = next(line for line in installs if "--dry-run" not in line)
    assert "requirements/pip.lock" in first


def test_environment_yml_installs_the_same_hashed_locks():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python="))
    assert python.split("=")[1] in SUPPORTED
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "--require-hashes" in pip and "-r requirements.lock" in pip
    assert any(re.fullmatch(r"-r requirements/torch-(cpu|cuda)\.lock", line) for line in pip)
    assert (ROOT / "environment.yml").read_text() == sync_environment.environment_yaml()
    assert "torch==2.13.0+cpu" in sync_environment.locked_pins(LOCKS["cpu"])


def test_requires_python_admits_3_11_to_3_13():
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    spec = SpecifierSet(meta["requires-python"])
    assert all(v in spec for v in SUPPORTED), meta["requires-python"]
    assert "3.10" not in spec
    classifiers = {c.rsplit(" ", 1)[-1] for c in meta.get("classifiers", []) if "Python :: 3." in c}
    assert classifiers == set(SUPPORTED)


def _fake_pythons(tmp_path, working):
    """A folder of python3.11/3.12/3.13 where only those in ``working`` run (as a pyenv shim of
    a version not selected: on the PATH, exits 127)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    for version in SUPPORTED:
        fake = bin_dir / f"python{version}"
        body = f'exec "{sys.executable}" "$@"' if version in working else "exit 127"
        fake.write_text(f"#!/bin/sh\n{body}\n")
        fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return {**env, "PATH": f"{bin_dir}:{os.environ['PATH']}"}  # (no PYTHON= of an outer make)


def _make_python(env, *args):
    out = subprocess.run(["make", "-s", "-C", str(ROOT), *args, "--eval", "show-python: ; @echo '<$(PYTHON)>'",
                          "show-python"], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_makefile_picks_the_first_supported_python_that_runs(tmp_path):
    assert _make_python(_fake_pythons(tmp_path, {"3.11", "3.12", "3.13"})) == "<python3.11>"
    assert _make_python(_fake_pythons(tmp_path / "a", {"3.12", "3.13"})) == "<python3.12>"
    assert _make_python(_fake_pythons(tmp_path / "b", {"3.13"})) == "<python3.13>"
    assert _make_python(_fake_pythons(tmp_path / "c", set())) == "<>"
    assert _make_python(_fake_pythons(tmp_path / "d", set()), "PYTHON=/opt/py/bin/python3") == "</opt/py/bin/python3>"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_makefile_says_what_it_needs_when_no_supported_python_runs(tmp_path):
    repo = tmp_path / "repo"  # the Makefile and its locks, without .venv
    shutil.copytree(ROOT / "requirements", repo / "requirements")
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy(ROOT / name, repo / name)
    env = _fake_pythons(tmp_path, set())
    out = subprocess.run(["make", "-C", str(repo), "env"], env=env, capture_output=True, text=True)
    assert out.returncode != 0
    assert "needs Python 3.11, 3.12 or 3.13" in out.stdout and "PYTHON=" in out.stdout, out.stdout + out.stderr
    assert not (repo / ".venv").exists()
    (tmp_path / "bin" / "old-python").write_text("#!/bin/sh\nexit 1\n")
    (tmp_path / "bin" / "old-python").chmod(0o755)
    out = subprocess.run(["make", "-C", str(repo), "env", "PYTHON=old-python"], env=env,
                         capture_output=True, text=True)
    assert out.returncode != 0 and "is not Python 3.11, 3.12 or 3.13" in out.stdout, out.stdout + out.stderr


def test_installed_jupyter_book_is_1x():
    from importlib.metadata import version

    assert version("jupyter-book").startswith("1.")


def test_the_book_loads_no_thebe_script_from_a_cdn():
    """sphinx_thebe writes ``const THEBE_JS_URL = "https://unpkg.com/thebe@..."`` into every page
    it is loaded for; _config.yml lists the extensions without it (and with all the others)."""
    jb_config = pytest.importorskip("jupyter_book.config")
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    final, _ = jb_config.get_final_config(user_yaml=config, sourcedir=ROOT,
                                          cli_config={"latex_individualpages": False})
    assert "sphinx_thebe" not in final["extensions"]
    defaults = set(jb_config.get_default_sphinx_config()["extensions"]) - {"sphinx_thebe"}
    assert defaults <= set(final["extensions"]), defaults - set(final["extensions"])
    assert {"sphinxcontrib.bibtex", "sphinx-mathjax-offline", "authoryear_labels"} <= set(final["extensions"])
