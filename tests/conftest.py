"""Shared pytest hooks: the fuzz tests' totals at the end of the run."""

import fuzzing


def pytest_terminal_summary(terminalreporter):
    counts = fuzzing.summary()
    if counts:
        n_functions = len({name for name, _, _ in fuzzing.OUTCOMES})
        parts = ", ".join(f"{counts[k]} {k}" for k in ("clear", "accepted", "unclear", "silent"))
        terminalreporter.write_line(
            f"fuzz: {n_functions} public functions, {sum(counts.values())} calls with one bad argument: {parts}")
