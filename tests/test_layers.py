"""The science does not depend on the book: every theory and experiment module of gendyn
imports without the book's machinery (gendyn.book) and without matplotlib."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[1] / "lib" / "gendyn"
SCIENCE = sorted(p.stem for p in LIB.glob("*.py") if not p.stem.startswith("_"))
#: Every source file of the science package: gendyn minus gendyn.book (private modules included).
SCIENCE_FILES = sorted(p for p in LIB.rglob("*.py") if (LIB / "book") not in p.parents)


@pytest.mark.parametrize("module", SCIENCE)
def test_science_module_imports_neither_the_book_nor_matplotlib(module):
    code = (f"import sys, gendyn.{module}; "
            "bad = sorted(m for m in sys.modules if m.startswith(('gendyn.book', 'matplotlib'))); "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def _imported_modules(path, package=None):
    """Absolute names of every module ``path`` (of ``package``, by default its place under gendyn) imports,
    anywhere in the file (inside functions too)."""
    package = package or ".".join(("gendyn",) + path.relative_to(LIB).parent.parts)
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]  # `from . import book`
    return names


@pytest.mark.parametrize("path", SCIENCE_FILES, ids=lambda p: str(p.relative_to(LIB)))
def test_no_science_source_imports_the_book_or_matplotlib(path):
    """Statically, so that an import inside a function (not run by the test above) counts as well."""
    bad = sorted({m for m in _imported_modules(path)
                  if m == "gendyn.book" or m.startswith(("gendyn.book.", "matplotlib")) or m == "matplotlib"})
    assert not bad, f"{path.relative_to(LIB.parent)} imports {bad}: the science package never uses the book layer"


def test_the_static_check_sees_relative_and_lazy_imports(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from .book import claims\n    import matplotlib.pyplot\nfrom . import book\n")
    assert {"gendyn.book", "gendyn.book.claims", "matplotlib.pyplot"} <= set(_imported_modules(probe, "gendyn"))


@pytest.mark.parametrize("old", ["claims", "scales", "plotting"])
def test_the_old_aliases_of_book_modules_are_gone(old):
    """gendyn.claims, gendyn.scales, gendyn.plotting imported upward into the book: use gendyn.book.<name>."""
    assert not (LIB / f"{old}.py").exists()
    code = f"import importlib.util; assert importlib.util.find_spec('gendyn.{old}') is None"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("module", SCIENCE + ["book." + p.stem for p in sorted((LIB / "book").glob("*.py"))
                                              if p.stem in ("chapter", "checks", "plotting", "stats")])
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


# The chapters' own modules: one per chapter notebook (its sizes and claim set).
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PREFIX = {"lampinen-ganguli": "lampinen_ganguli", "lee-ndirango": "lee_ndirango", "goldt-et-al": "goldt",
          "advani-saxe": "advani_saxe"}
CHAPTER_MODULES = sorted(p.stem for p in (LIB / "book" / "chapters").glob("*.py") if p.stem != "__init__")


def companion(notebook):
    """The name of a chapter notebook's companion module in gendyn.book.chapters."""
    return f"{PREFIX[notebook.parent.name]}_{notebook.stem.replace('-', '_')}"


def test_every_chapter_has_one_companion_module_and_starts_its_chapter():
    """The notebook starts the chapter whose registry entry names that module, so the module is in the
    chapter's run identity (tools/chapters.py follows the chapter.start call, imported or not)."""
    from gendyn.book.chapters import CHAPTERS
    from gendyn.book.myst import chapter_sources, read_notebook

    notebooks = chapter_sources(NOTEBOOKS)
    assert sorted(companion(nb) for nb in notebooks) == CHAPTER_MODULES
    for nb in notebooks:
        code = "".join(c.source for c in read_notebook(nb).cells if c.cell_type == "code")
        started = re.findall(r"""chapter\.start\(\s*["']([\w-]+)["']""", code)
        assert [CHAPTERS[c][1] for c in started] == [companion(nb)], nb


def test_the_chapters_package_imports_none_of_its_modules():
    """A chapter's run depends on its own module only (tools/chapters.py follows the imports)."""
    code = ("import sys, gendyn.book.chapters; "
            "bad = sorted(m for m in sys.modules if m.startswith('gendyn.book.chapters.')); assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("module", CHAPTER_MODULES)
def test_chapter_module_is_documented_and_annotated(module):
    import importlib
    import inspect
    import typing

    mod = importlib.import_module(f"gendyn.book.chapters.{module}")
    assert (mod.__doc__ or "").strip(), f"gendyn.book.chapters.{module} has no docstring"
    public = getattr(mod, "__all__", None)
    assert public, f"gendyn.book.chapters.{module} has no __all__"
    for name in public:
        obj = getattr(mod, name)
        assert (obj.__doc__ or "").strip(), f"{module}.{name} has no docstring"
        if inspect.isfunction(obj):
            hints = typing.get_type_hints(obj)
            params = [p for p in inspect.signature(obj).parameters.values()
                      if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
            assert "return" in hints and all(p.name in hints for p in params), f"{module}.{name} lacks type hints"


def test_the_api_reference_lists_every_chapter_module():
    page = (Path(__file__).resolve().parents[1] / "book" / "api-chapters.md").read_text()
    assert sorted(set(re.findall(r"automodule:: gendyn\.book\.chapters\.(\w+)", page))) == CHAPTER_MODULES


def test_the_top_docstring_with_the_glossary_is_valid_rest(tmp_path):
    """gendyn's top docstring (modules, conventions, the glossary of names) heads the API reference,
    which is built with -W: it must render without a warning (checked here without building the book)."""
    pytest.importorskip("sphinx")
    (tmp_path / "conf.py").write_text('extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]\n')
    (tmp_path / "index.rst").write_text("API\n===\n\n.. automodule:: gendyn\n")
    out = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(tmp_path),
                          str(tmp_path / "_build")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    page = (tmp_path / "_build" / "index.html").read_text()
    assert "input dimension" in page and "trunk depth" in page


def test_the_science_package_needs_only_its_declared_dependencies():
    """What the science modules import is in pyproject's dependencies; matplotlib, which only the
    book uses, is in the extra ``book``."""
    import tomllib
    from importlib.metadata import packages_distributions

    meta = tomllib.loads((LIB.parents[1] / "pyproject.toml").read_text())["project"]

    def names(requirements):
        return {re.split(r"[<>=!~ ;\[]", r, maxsplit=1)[0].lower() for r in requirements}

    declared = names(meta["dependencies"])
    distributions = packages_distributions()
    used = {m.split(".")[0] for path in SCIENCE_FILES for m in _imported_modules(path)}
    third_party = {m for m in used if m and m != "gendyn" and m not in sys.stdlib_module_names}
    needed = {d.lower() for m in third_party for d in distributions.get(m, [m])}
    assert needed <= declared, f"imported by the science modules but not in pyproject's dependencies: {needed - declared}"
    assert "matplotlib" not in declared and "matplotlib" in names(meta["optional-dependencies"]["book"])


@pytest.mark.parametrize("module", SCIENCE)
def test_named_tuples_document_their_fields_once(module):
    """A NamedTuple's fields are class attributes that autodoc documents itself: an ``Attributes``
    section in its docstring documents them a second time, which the book's ``-W`` build refuses.
    Field docs go in ``#:`` comments."""
    import importlib
    import inspect

    mod = importlib.import_module(f"gendyn.{module}")
    twice = [name for name, obj in vars(mod).items()
             if inspect.isclass(obj) and issubclass(obj, tuple) and hasattr(obj, "_fields")
             and obj.__module__ == mod.__name__ and "Attributes\n" in (obj.__doc__ or "")]
    assert not twice, f"{module}: NamedTuples with an Attributes section: {twice}"
