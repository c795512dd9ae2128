"""Every chapter fixes its claims before it runs and declares the theory its claims test."""

import importlib

import pytest

from gendyn.book import scales
from gendyn.book.chapters import CHAPTERS
from gendyn.book.mutation import Mutation


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_a_chapter_declares_its_claims_at_every_scale(chapter):
    module = importlib.import_module(f"gendyn.book.chapters.{CHAPTERS[chapter][1]}")
    assert callable(getattr(module, "claim_ids", None)), f"{module.__name__} has no claim_ids(cfg)"
    for scale in scales.SCALES:
        ids = module.claim_ids(scales.configure(chapter, scale, 0, "cpu"))
        assert ids and len(set(ids)) == len(ids) and all(isinstance(i, str) and i for i in ids), (scale, ids)


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_a_chapters_mutations_name_science_functions(chapter):
    module = importlib.import_module(f"gendyn.book.chapters.{CHAPTERS[chapter][1]}")
    mutations = getattr(module, "MUTATIONS", None)
    assert isinstance(mutations, tuple), f"{module.__name__} has no MUTATIONS tuple (empty, with a comment why, if none)"
    for m in mutations:
        assert isinstance(m, Mutation) and m.why, m
        where, name = m.target.rsplit(".", 1)
        assert not where.startswith("gendyn.book"), f"{m.target}: a theory lives in the science modules"
        assert callable(getattr(importlib.import_module(where), name, None)), m.target
    assert len(set(mutations)) == len(mutations), "each mutation once"


def test_the_registry_matches_the_notebooks():
    from pathlib import Path

    from gendyn.book.myst import chapter_sources

    root = Path(__file__).resolve().parents[1] / "notebooks"
    assert all(nb.endswith(".md") for nb, _ in CHAPTERS.values()), "the registry names the MyST sources"
    # by path without suffix: an .ipynb source not converted yet (tools/to_myst.py) is the same chapter
    assert sorted(str(Path(nb).with_suffix("")) for nb, _ in CHAPTERS.values()) == sorted(
        str(p.relative_to(root).with_suffix("")) for p in chapter_sources(root))
