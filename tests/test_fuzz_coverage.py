"""Every public function of the science modules and of the claims' statistics has a fuzz case.

A new public function without one fails here: add a :class:`fuzzing.Case` for it to the
module's ``tests/test_fuzz_<module>.py`` (or list it in :data:`NOT_FUZZED` with the reason).
"""

import importlib
import inspect
from pathlib import Path

TESTS = Path(__file__).resolve().parent
LIB = TESTS.parent / "lib" / "gendyn"
#: The science modules (as tests/test_layers.py lists them) and the claims' statistics.
MODULES = sorted(p.stem for p in LIB.glob("*.py")
                 if not p.stem.startswith("_")) + ["book.stats", "book.order_statistics"]
#: Public functions without a fuzz case, each with its reason.
NOT_FUZZED: dict[str, str] = {}


def _fuzzed():
    """``module.qualname`` of every function some fuzz case calls (methods by their class)."""
    names = set()
    for path in sorted(TESTS.glob("test_fuzz_*.py")):
        if path.stem == "test_fuzz_coverage":
            continue
        for case in importlib.import_module(path.stem).CASES:
            func = getattr(case.func, "__func__", case.func)  # a method: its function
            func = getattr(func, "__wrapped__", func)  # a wrapper of the test's: the function it calls
            names.add(f"{func.__module__}.{func.__qualname__}")
    return names


def _public_functions():
    for module in MODULES:
        mod = importlib.import_module(f"gendyn.{module}")
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name)
            if inspect.isfunction(obj):
                yield f"gendyn.{module}.{name}", f"{obj.__module__}.{obj.__qualname__}"


def test_every_public_function_has_a_fuzz_case():
    fuzzed = _fuzzed()
    missing = sorted(public for public, defined in _public_functions()
                     if defined not in fuzzed and public.removeprefix("gendyn.") not in NOT_FUZZED)
    assert not missing, f"public functions without a fuzz case (add one in tests/test_fuzz_*.py): {missing}"


def test_the_list_of_exceptions_names_public_functions():
    public = {p.removeprefix("gendyn.") for p, _ in _public_functions()}
    assert set(NOT_FUZZED) <= public
