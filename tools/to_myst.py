"""Convert the chapters' ``.ipynb`` sources to MyST Markdown notebooks (jupytext, ``md:myst``).

    python tools/to_myst.py            # every notebooks/**/*.ipynb -> .md beside it; the .ipynb removed
    python tools/to_myst.py --check    # every notebooks/**/*.md is as this tool writes it (changes nothing)
    python tools/to_myst.py PATH.ipynb ...

For each ``.ipynb`` source: it must hold no outputs (a chapter's source never does); its text
(:func:`gendyn.book.myst.to_myst`) is read back and must give the same cells (type, source, tags
and other metadata; a trailing newline of a source is the one thing the text drops) and the same
notebook metadata (kernelspec, language_info, mystnb); only then is the ``.md`` written and the
``.ipynb`` removed. Cell ids are not kept: a chapter read from its text numbers its cells.

Idempotent and deterministic: with no ``.ipynb`` left it changes nothing, and converting the same
notebook always writes the same text (jupytext is pinned in requirements.lock). An ``.md`` beside an
``.ipynb`` of the same name is overwritten only if it already says the same, or with ``--force`` (the
``.ipynb`` is then the newer source, e.g. a merged notebook edit made before the conversion): an
``.ipynb`` left by ``jupytext --to ipynb`` without ``-o`` is an older copy, and converting it would undo
later edits of the ``.md``.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from gendyn.book import myst  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"


def sources(suffix, root=NOTEBOOKS):
    """The chapter files under ``root`` ending with ``suffix``, sorted (checkpoints left out)."""
    return sorted(p for p in Path(root).rglob(f"*{suffix}") if ".ipynb_checkpoints" not in p.parts)


def _metadata_problems(original, converted):
    want = myst.text_metadata(original.metadata)
    dropped = sorted(set(original.metadata) - set(myst.METADATA))
    problems = [f"notebook metadata {dropped} would be dropped"] if dropped else []
    if dict(converted.metadata) != want:
        problems.append(f"notebook metadata {dict(original.metadata)} became {dict(converted.metadata)}")
    return problems


def convert(notebook, force=False):
    """Write the ``.md`` of the ``.ipynb`` source ``notebook`` and remove the ``.ipynb``; returns the
    ``.md``. Raises ``ValueError`` (writing nothing) if the text would not give the same notebook, or
    would replace an ``.md`` that says something else (unless ``force``)."""
    import nbformat

    notebook = Path(notebook)
    original = nbformat.read(notebook, as_version=4)
    try:
        text = myst.to_myst(original)
    except ValueError as error:
        raise ValueError(f"{notebook}: {error}") from None
    target = notebook.with_suffix(myst.SUFFIX)
    if not force and target.is_file() and target.read_text(encoding="utf-8") != text:
        raise ValueError(f"{notebook}: {target.name} exists and differs from it; the .ipynb may be an older copy "
                         f"(jupytext --to ipynb without -o writes one beside the .md): remove the .ipynb, or "
                         f"pass --force to replace the .md with it")
    scratch = target.with_name(f".to-myst-{target.name}")
    scratch.write_text(text, encoding="utf-8")
    try:
        converted = myst.read_notebook(scratch)
        problems = myst.same_cells(original, converted) + _metadata_problems(original, converted)
        if myst.to_myst(converted) != text:
            problems.append("its text is not stable (converting it again changes it)")
        if problems:
            raise ValueError(f"{notebook}: " + "; ".join(problems))
        scratch.replace(target)
    finally:
        scratch.unlink(missing_ok=True)
    notebook.unlink()
    return target


def check(path):
    """Why the ``.md`` at ``path`` is not as this tool writes it (``[]`` if it is)."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        again = myst.to_myst(myst.read_notebook(path))
    except ValueError as error:
        return [f"{path}: {error}"]
    return [] if again == text else [f"{path}: not in the form tools/to_myst.py writes (run it on the .ipynb)"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="the .ipynb sources to convert (default: every one under notebooks/)")
    parser.add_argument("--check", action="store_true", help="only check that every .md source is in canonical form")
    parser.add_argument("--force", action="store_true", help="replace an .md that differs from its .ipynb")
    args = parser.parse_args(argv)
    if args.check:
        problems = [p for path in (args.paths or sources(myst.SUFFIX)) for p in check(path)]
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    todo = [Path(p) for p in args.paths] or sources(".ipynb")
    failed = 0
    for notebook in todo:
        try:
            target = convert(notebook, force=args.force)
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            failed += 1
            continue
        print(f"{notebook} -> {target.name}")
    print(f"converted {len(todo) - failed} of {len(todo)} chapter sources to MyST Markdown"
          + (f"; {failed} failed, left as they were" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
