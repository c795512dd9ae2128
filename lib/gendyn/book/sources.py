"""What a computation depends on: the library modules it imports (transitively) and the data they read.

Both the book's pipeline (a chapter run's identity, ``tools/chapters.py``) and the caches of results
shared between chapters (:func:`gendyn.book.grids.cached_grid`) key on the same closure, so a change
anywhere a computation reads makes it stale, and a change elsewhere does not.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from pathlib import Path

__all__ = ["ROOT", "DATA", "imports_of", "module_closure", "source_files", "source_hash"]

#: The project root: the folder that holds ``lib/gendyn`` and ``data/``.
ROOT = Path(__file__).resolve().parents[3]
#: Data folders (relative to the project root), by the library module that reads them.
DATA = {"gendyn.published_runs": "data/lee-ndirango-2019"}


def imports_of(tree: ast.AST, package: str) -> set[str]:
    """Names of the ``gendyn`` modules (or names in them) that a parsed module of ``package`` imports."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "gendyn"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the importing module's package
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "gendyn":
                continue
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names}  # `from gendyn import rmt` imports a module
    return found


def _module_file(name, root):
    path = root / "lib" / Path(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None  # a name imported from a module, not a module


def module_closure(names: Iterable[str], root: Path | None = None) -> dict[str, Path]:
    """The ``gendyn`` modules ``names`` are or import, transitively (each package's ``__init__`` included).

    Returns ``{module name: file}``, sorted by name. Names that are not modules (a function imported
    from a module) are skipped. ``root``: the project root (default :data:`ROOT`).
    """
    root = Path(root) if root is not None else ROOT
    todo = set(names) | {"gendyn"}
    seen = {}
    while todo:
        name = todo.pop()
        for prefix in (".".join(name.split(".")[:k]) for k in range(1, name.count(".") + 2)):
            path = _module_file(prefix, root)
            if path is None or prefix in seen:
                continue
            seen[prefix] = path
            package = prefix if path.name == "__init__.py" else prefix.rsplit(".", 1)[0]
            todo |= imports_of(ast.parse(path.read_text()), package) - set(seen)
    return dict(sorted(seen.items()))


def source_files(modules: dict[str, Path], root: Path | None = None) -> list[Path]:
    """The files of ``modules`` (from :func:`module_closure`) and of the data folders they read."""
    root = Path(root) if root is not None else ROOT
    files = list(modules.values())
    for module, folder in DATA.items():
        if module in modules:
            files += sorted(p for p in (root / folder).rglob("*") if p.is_file())
    return [f for f in files if f.is_file()]


def source_hash(names: Iterable[str], *extra: bytes) -> str:
    """A hash of the closure of ``names`` (sources and data, with their paths) and of ``extra`` bytes."""
    digest = hashlib.sha256()
    for path in source_files(module_closure(names), ROOT):
        digest.update(str(path.resolve().relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    for item in extra:
        digest.update(b"\0" + item)
    return digest.hexdigest()
