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
