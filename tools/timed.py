"""Run a command and, if it succeeds, write its wall time in seconds to a file.

    python tools/timed.py OUT.seconds -- command args...

Used by the Makefile so that every chapter run leaves its time beside its output, for
benchmarks/run.py to collect. The command's exit code is passed on.
"""

import subprocess
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    out, sep, *cmd = sys.argv[1:]
    if sep != "--" or not cmd:
        sys.exit("usage: timed.py OUT.seconds -- command args...")
    start = time.perf_counter()
    code = subprocess.call(cmd)
    if code == 0:
        Path(out).write_text(f"{time.perf_counter() - start:.1f}\n")
    sys.exit(code)
