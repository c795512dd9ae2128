"""Each chapter's sizes live in its own module (``Sizes``, ``SIZES``), so that editing them re-runs that
chapter only: a chapter's run identity (tools/chapters.py) covers the modules its notebook imports and those
of the chapters it starts or configures, and gendyn.book.scales, which every chapter imports, imports none
of the chapter modules."""

import ast
import dataclasses
import importlib
import importlib.util
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from gendyn.book import scales, sources
from gendyn.book.chapters import CHAPTERS
from gendyn.book.myst import read_notebook, source_path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("chapters", ROOT / "tools" / "chapters.py")
chapters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chapters)

SMOKE = {"SCALE": "smoke", "SEED": 0, "DEVICE": "cpu"}

#: Chapters whose notebooks import or configure another chapter's module, so its sizes are in their identity too:
#: generalisation-deep reuses generalisation-dynamics' code, published-data compares the grids of the
#: multitask and aux-depth chapters at their sizes.
USES = {"lg-generalisation-deep": {"lg-generalisation"}, "ln-published": {"ln-multitask", "ln-aux-depth"}}


def module_of(chapter):
    return importlib.import_module(f"gendyn.book.chapters.{CHAPTERS[chapter][1]}")


def conforms(value, hint):
    """Whether ``value`` has the type ``hint`` (int, float, str, tuple[T, ...], tuple[T1, T2, ...])."""
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, tuple) or not value:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(conforms(v, a) for v, a in zip(value, args))
    return type(value) is hint  # an int is not a float here: an override must match the default's type


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_each_chapter_module_holds_its_sizes_at_both_scales_as_its_frozen_sizes(chapter):
    module = module_of(chapter)
    sizes_class = module.Sizes
    assert dataclasses.is_dataclass(sizes_class) and sizes_class.__module__ == module.__name__
    assert sizes_class.__dataclass_params__.frozen, f"{module.__name__}.Sizes must be frozen"
    assert set(module.SIZES) == set(scales.SCALES)
    hints = typing.get_type_hints(sizes_class)
    names = [f.name for f in dataclasses.fields(sizes_class)]
    assert names and set(hints) == set(names)
    for scale, sizes in module.SIZES.items():
        assert type(sizes) is sizes_class, (scale, type(sizes))
        for name in names:
            assert conforms(getattr(sizes, name), hints[name]), (scale, name, getattr(sizes, name), hints[name])
        cfg = scales.configure(chapter, scale, 0, "cpu")
        assert cfg.sizes == sizes and all(getattr(cfg, name) == getattr(sizes, name) for name in names)
        assert scales.sizes(chapter, scale) == dataclasses.asdict(sizes)


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_every_size_says_what_it_is(chapter):
    """Each field of ``Sizes`` carries a ``#:`` comment (on its line or the line above)."""
    path = Path(module_of(chapter).__file__)
    lines = path.read_text().splitlines()
    tree = ast.parse("\n".join(lines))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Sizes")
    assert ast.get_docstring(cls)
    for node in cls.body:
        if isinstance(node, ast.AnnAssign):
            line, above = lines[node.lineno - 1], lines[node.lineno - 2].strip()
            assert "  #: " in line or above.startswith("#: "), f"{path.name}: {node.target.id} has no comment"


def test_overrides_give_the_chapters_own_sizes():
    cfg = scales.configure("as-bounds", "smoke", 0, "cpu", repeats=5, hidden=[20, 40])
    assert type(cfg.sizes) is module_of("as-bounds").Sizes
    assert cfg.repeats == cfg.sizes.repeats == 5 and cfg.hidden == (20, 40)
    assert cfg.n_in == module_of("as-bounds").SIZES["smoke"].n_in
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.sizes.repeats = 6
    with pytest.raises(ValueError, match=r"REPEATS=0 \(size repeats of chapter 'as-bounds'\) .* integer >= 2"):
        scales.configure("as-bounds", "smoke", 0, "cpu", repeats=0)


def test_scales_imports_no_chapter_module():
    """Statically (the closure a run identity follows) and when imported."""
    closure = sources.module_closure(["gendyn.book.scales"])
    assert not [m for m in closure if m.startswith("gendyn.book.chapters.")]
    code = ("import sys, gendyn.book.scales; "
            "bad = sorted(m for m in sys.modules if m.startswith('gendyn.book.chapters.')); assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.fixture(scope="module")
def closures():
    """``{chapter: the library modules its notebook uses}`` (tools/chapters.py's closure)."""
    return {chapter: chapters.library_modules(source_path(ROOT / "notebooks" / nb)) for chapter, (nb, _) in CHAPTERS.items()}


def test_a_chapter_module_is_in_the_identity_of_its_chapter_and_of_those_that_use_it_only(closures):
    for chapter, (_, module) in CHAPTERS.items():
        users = {c for c, closure in closures.items() if f"gendyn.book.chapters.{module}" in closure}
        assert users == {chapter} | {c for c, used in USES.items() if chapter in used}, chapter


def test_the_identity_of_a_chapter_covers_the_modules_of_the_chapters_it_starts_or_configures(closures):
    """Its identity must cover the sizes it runs with: chapter.start and scales.configure import the module
    at call time, out of an import's sight, so tools/chapters.py adds it from the call."""
    for chapter, (nb, _) in CHAPTERS.items():
        code = "".join(c.source for c in read_notebook(source_path(ROOT / "notebooks" / nb)).cells
                       if c.cell_type == "code")
        configured = set(re.findall(r"""(?:configure|start)\(\s*["']([\w-]+)["']""", code))
        assert chapter in configured, nb
        for other in configured:
            assert f"gendyn.book.chapters.{CHAPTERS[other][1]}" in closures[chapter], (nb, other)


@pytest.fixture
def copied_project(tmp_path, monkeypatch):
    """A copy of the project's notebooks, library, data and locks that the pipeline reads instead."""
    ignore = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
    for folder in ("lib/gendyn", "notebooks", "data"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=ignore)
    for entry in chapters.SOURCES:
        if (ROOT / entry).is_file():
            (tmp_path / entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / entry, tmp_path / entry)
    monkeypatch.setattr(chapters, "ROOT", tmp_path)
    monkeypatch.setattr(chapters, "NOTEBOOKS", tmp_path / "notebooks")
    return tmp_path


def identities(project):
    return {chapter: chapters.identity(source_path(project / "notebooks" / nb), SMOKE)
            for chapter, (nb, _) in CHAPTERS.items()}


@pytest.mark.parametrize("chapter", ["lg-rmt", "as-bounds"])
def test_editing_one_chapters_sizes_changes_that_chapters_identity_only(copied_project, chapter):
    """The hole of issue 33: every chapter imported the one table of sizes, so editing one chapter's
    sizes (or a comment there) re-ran all of them."""
    before = identities(copied_project)
    assert len(set(before.values())) == len(CHAPTERS)
    path = copied_project / "lib" / "gendyn" / "book" / "chapters" / f"{CHAPTERS[chapter][1]}.py"
    text = path.read_text()
    start = text.index("\nSIZES = {")
    size = re.compile(r"(\w+)=(\d+)").search(text, start)
    path.write_text(text[:size.start()] + f"{size.group(1)}={int(size.group(2)) + 1}" + text[size.end():])
    after = identities(copied_project)
    assert {c for c in CHAPTERS if after[c] != before[c]} == {chapter}
