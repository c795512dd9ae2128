"""Write the hashed locks that `make env` installs with ``pip --require-hashes``.

    python tools/lock.py [--freeze PYTHON] [--python python3.11 --python python3.12 ...]

The versions are the pins of ``requirements.lock`` (or, with ``--freeze``, a ``pip freeze``
of a working environment: that is what ``make lock`` passes). For each supported Python
found (3.11, 3.12, 3.13 by default) the tool makes a throw-away virtual environment with the
pinned pip and asks pip, in a dry run against PyPI alone (no local configuration), which file
it would install for every pin; the hashes of those files, over all the Pythons, go into
the locks. Nothing is downloaded but metadata. It writes:

``requirements.lock``
    the whole stack but torch (the library, the book, the tests), every pin with its hashes
    (Linux x86_64 wheels for CPython 3.11-3.13 and the pure-Python wheels);
``requirements/pip.lock``
    the pip that installs them (``make env`` installs it first, never an unpinned upgrade);
``requirements/torch-cpu.lock``
    torch's CPU build, ``torch==2.13.0+cpu``, by the hash of the CPU wheel this machine
    finds (pip's configured find-links; on this project's machines, a wheel for Python 3.11);
``requirements/torch-cuda.lock``
    PyPI's torch 2.13.0 (the CUDA build on Linux) and the CUDA libraries it brings
    (nvidia-*, triton, cuda-*), each pinned with its hashes.

Then ``environment.yml`` is rewritten to match (tools/sync_environment.py).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import sync_environment  # noqa: E402

TORCH = "2.13.0"
PIP = "26.3"
PYTHONS = ("3.11", "3.12", "3.13")
LOCKS = {
    "base": ROOT / "requirements.lock",
    "pip": ROOT / "requirements" / "pip.lock",
    "cpu": ROOT / "requirements" / "torch-cpu.lock",
    "cuda": ROOT / "requirements" / "torch-cuda.lock",
}
# Never part of the base lock: pip (its own lock), torch and what only its CUDA build brings.
NOT_BASE = re.compile(r"^(pip|torch|triton|nvidia-.*|cuda-.*)$")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runs(python: str) -> bool:
    try:
        return subprocess.run([python, "-c", ""], capture_output=True).returncode == 0
    except OSError:
        return False


def find_python(version: str) -> str | None:
    found = shutil.which(f"python{version}")
    if found and runs(found):  # (a pyenv shim of a version not selected exists but fails)
        return found
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for candidate in sorted(pyenv.glob(f"{version}.*/bin/python{version}"), reverse=True):
        return str(candidate)
    return None


def pypi_only_env() -> dict:
    """pip with no configuration files and no find-links: what a newcomer's pip sees."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def dry_run(pip: list[str], args: list[str], env: dict | None = None) -> list[dict]:
    """The files pip would install for ``args``: [{name, version, hash, requires_dist}]."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run([*pip, "install", "--dry-run", "--ignore-installed", "--quiet",
                        "--report", str(report), *args], check=True, env=env)
        items = json.loads(report.read_text())["install"]
    out = []
    for item in items:
        info = item["download_info"]
        digest = info.get("archive_info", {}).get("hashes", {}).get("sha256")
        if not digest:
            raise SystemExit(f"no sha256 for {info['url']}: cannot lock it")
        out.append({"name": item["metadata"]["name"], "version": item["metadata"]["version"],
                    "hash": digest, "url": info["url"]})
    return out


def python_env(python: str, tmp: Path, pip_lock: Path | None) -> list[str]:
    venv = tmp / Path(python).name
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip"]
    if pip_lock and pip_lock.exists():
        args = ["--require-hashes", "-r", str(pip_lock)]
    else:
        args = [f"pip=={PIP}"]
    subprocess.run([*pip, "install", "--quiet", "--no-deps", *args], check=True,
                   env=pypi_only_env())
    return pip


def freeze(python: str) -> list[str]:
    out = subprocess.run([python, "-m", "pip", "freeze", "--all", "--exclude-editable"],
                         check=True, capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if "==" in line]


def render(header: list[str], pins: dict, hashes: dict, markers: dict | None = None) -> str:
    lines = [f"# {h}" if h else "#" for h in header]
    for key in sorted(pins, key=str.lower):
        name, version = pins[key]
        marker = f" ; {markers[key]}" if markers and key in markers else ""
        lines.append(f"{name}=={version}{marker} \\")
        digests = sorted(hashes[key])
        for i, digest in enumerate(digests):
            lines.append(f"    --hash=sha256:{digest}" + (" \\" if i < len(digests) - 1 else ""))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--freeze", metavar="PYTHON",
                        help="take the versions from `pip freeze` of this interpreter's environment")
    parser.add_argument("--python", action="append", metavar="INTERPRETER",
                        help="an interpreter to lock for (default: 3.11, 3.12 and 3.13, as found)")
    args = parser.parse_args(argv)

    if args.freeze:
        lines = freeze(args.freeze)
    else:
        lines = sync_environment.locked_pins()
    pins = {}
    for line in lines:
        name, version = line.split("==")
        if not NOT_BASE.match(canonical(name)):
            pins[canonical(name)] = (name, version.split("+")[0])
    pythons = args.python or [p for p in map(find_python, PYTHONS) if p]
    if not pythons:
        raise SystemExit("no Python 3.11, 3.12 or 3.13 found to lock for")

    base_hashes, cuda_pins, cuda_hashes = defaultdict(set), {}, defaultdict(set)
    pip_hashes, seen_on, extra = set(), defaultdict(set), {}
    with tempfile.TemporaryDirectory() as tmp:
        requirements = Path(tmp) / "pins.txt"
        requirements.write_text("".join(f"{n}=={v}\n" for n, v in pins.values()))
        for python in pythons:
            pip = python_env(python, Path(tmp), LOCKS["pip"])
            version = subprocess.run([*pip[:1], "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                     check=True, capture_output=True, text=True).stdout.strip()
            print(f"locking for Python {version} ({python})", file=sys.stderr)
            env = pypi_only_env()
            for item in dry_run(pip, ["-r", str(requirements)], env):
                key = canonical(item["name"])
                if key not in pins:  # needed on this Python only (e.g. papermill's aiohttp on 3.12)
                    if extra.get(key, (0, item["version"]))[1] != item["version"]:
                        raise SystemExit(f"{item['name']}: {extra[key][1]} and {item['version']} "
                                         "on different Pythons")
                    extra[key] = (item["name"], item["version"])
                elif item["version"] != pins[key][1]:
                    raise SystemExit(f"{item['name']}: pinned {pins[key][1]}, resolved {item['version']}")
                base_hashes[key].add(item["hash"])
                seen_on[key].add(version)
            for item in dry_run(pip, [f"torch=={TORCH}", "-c", str(requirements)], env):
                key = canonical(item["name"])
                if key in pins or key in extra:
                    continue
                if key in cuda_pins and cuda_pins[key][1] != item["version"]:
                    raise SystemExit(f"{item['name']}: {cuda_pins[key][1]} and {item['version']} "
                                     "on different Pythons")
                cuda_pins[key] = (item["name"], item["version"])
                cuda_hashes[key].add(item["hash"])
            pip_hashes |= {i["hash"] for i in dry_run(pip, ["--no-deps", f"pip=={PIP}"], env)}
        # torch's CPU build: the wheel this machine's own pip configuration finds
        cpu = []
        for python in pythons:
            try:
                cpu += dry_run([python, "-m", "pip"], ["--no-deps", f"torch=={TORCH}+cpu"])
            except subprocess.CalledProcessError:
                print(f"(no torch {TORCH}+cpu wheel found for {python})", file=sys.stderr)
    if not cpu:
        raise SystemExit(f"no torch {TORCH}+cpu wheel found for any Python: cannot write the CPU lock")

    versions = sorted(set().union(*seen_on.values()))
    markers = {}
    for key in extra:  # a dependency on some Pythons only: installed there only
        if seen_on[key] != set(versions):
            markers[key] = " or ".join(f'python_version == "{v}"' for v in sorted(seen_on[key]))
    pins.update(extra)
    covered = ", ".join(versions)
    LOCKS["base"].write_text(render([
        f"Exact pins with hashes of the whole stack but torch (Python {covered}; Linux x86_64",
        "wheels and pure-Python wheels). `make env` installs it with pip --require-hashes, with",
        "torch from requirements/torch-cpu.lock or requirements/torch-cuda.lock.",
        "Regenerate with: make lock (tools/lock.py)",
    ], pins, base_hashes, markers))
    LOCKS["pip"].parent.mkdir(exist_ok=True)
    LOCKS["pip"].write_text(render([
        "The pip that installs the locks (make env installs it first). Regenerate with: make lock",
    ], {"pip": ("pip", PIP)}, {"pip": pip_hashes}))
    LOCKS["cpu"].write_text(render([
        f"torch {TORCH}, CPU build (~750 MB installed): the wheel pip finds through its configured",
        "find-links. On this project's machines that is a wheel for Python 3.11 on local disk.",
        "Its dependencies are in requirements.lock. Regenerate with: make lock",
    ], {"torch": ("torch", f"{TORCH}+cpu")}, {"torch": {i["hash"] for i in cpu}}))
    LOCKS["cuda"].write_text(render([
        f"torch {TORCH} as PyPI ships it for Linux x86_64: the CUDA build, with the CUDA libraries",
        "it depends on (nvidia-*, triton, cuda-*), several GB. For Python 3.11-3.13.",
        "Its other dependencies are in requirements.lock. Regenerate with: make lock",
    ], cuda_pins, cuda_hashes))
    (ROOT / "environment.yml").write_text(sync_environment.environment_yaml())
    print(f"wrote {', '.join(str(p.relative_to(ROOT)) for p in LOCKS.values())}, environment.yml",
          file=sys.stderr)


if __name__ == "__main__":
    main()
