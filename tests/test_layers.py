"""The science does not depend on the book: every theory and experiment module of gendyn
imports without the book's machinery (gendyn.book) and without matplotlib."""

import subprocess
import sys
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[1] / "lib" / "gendyn"
SCIENCE = sorted(p.stem for p in LIB.glob("*.py")
                 if not p.stem.startswith("_") and p.stem not in ("claims", "scales", "plotting"))  # old-name shims


@pytest.mark.parametrize("module", SCIENCE)
def test_science_module_imports_neither_the_book_nor_matplotlib(module):
    code = (f"import sys, gendyn.{module}; "
            "bad = sorted(m for m in sys.modules if m.startswith(('gendyn.book', 'matplotlib'))); "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_old_module_names_still_work():
    from gendyn import claims, plotting, scales
    from gendyn.book import claims as book_claims

    assert claims.Ledger is book_claims.Ledger and scales.configure and plotting.save


@pytest.mark.parametrize("module", SCIENCE + ["book." + p.stem for p in sorted((LIB / "book").glob("*.py"))
                                              if p.stem in ("chapter", "plotting", "stats")])
def test_public_api_is_complete_and_annotated(module):
    """Every name of ``__all__`` exists, and every public function states its types (PEP 484)."""
    import importlib
    import inspect
    import typing

    mod = importlib.import_module(f"gendyn.{module}")
    missing = [n for n in getattr(mod, "__all__", []) if not hasattr(mod, n)]
    assert not missing, f"__all__ of gendyn.{module} names what the module lacks: {missing}"
    if module in ("allocator", "progress", "__init__"):
        return
    bare = []
    for name in getattr(mod, "__all__", []):
        obj = getattr(mod, name)
        if inspect.isfunction(obj):
            hints = typing.get_type_hints(obj)  # also evaluates every annotation
            params = [p for p in inspect.signature(obj).parameters.values()
                      if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
            if "return" not in hints or any(p.name not in hints for p in params):
                bare.append(name)
    assert not bare, f"public functions of gendyn.{module} without complete type hints: {bare}"
