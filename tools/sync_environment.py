"""Write environment.yml (for conda users) so that it installs the same hashed locks as make.

``make lock`` runs it (through tools/lock.py); by hand: ``python tools/sync_environment.py``.
conda hands the ``pip:`` lines to pip as a requirements file in this folder, so the locks
are read, hashes and all, and never copied (they cannot drift apart): tests/test_environment.py
checks it.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.\-]*==[^\s;\\]+)")


def locked_pins(path=ROOT / "requirements.lock"):
    """The ``name==version`` pins of a hashed lock (its --hash lines and markers left out)."""
    pins = []
    for line in Path(path).read_text().splitlines():
        match = PIN.match(line.strip())
        if match:
            pins.append(match.group(1))
    return pins


def environment_yaml():
    return (
        "# conda environment installing the hashed locks of make env (written by tools/sync_environment.py).\n"
        "# conda passes the pip: lines to pip as a requirements file beside this one, so pip checks every\n"
        "# hash. torch: PyPI's CUDA build for Linux (several GB); where the CPU wheel of\n"
        "# requirements/torch-cpu.lock is at hand, name that lock instead. Then: pip install --no-deps -e .\n"
        "name: gendyn\n"
        "channels:\n  - conda-forge\n"
        "dependencies:\n  - python=3.12\n  - pip\n  - pip:\n"
        "      - --require-hashes\n"
        "      - -r requirements.lock\n"
        "      - -r requirements/torch-cuda.lock\n"
    )


if __name__ == "__main__":
    (ROOT / "environment.yml").write_text(environment_yaml())
