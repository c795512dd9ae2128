"""The code of each chapter of the book that is not science: its figures and its claims.

One module per chapter notebook, named after it (``notebooks/goldt-et-al/sec2-asymptotic-error.ipynb``
→ :mod:`gendyn.book.chapters.goldt_sec2_asymptotic_error`). A module holds

- ``figure_*`` functions: they take the chapter's results (numpy arrays, dicts, the library's
  result objects) and return a matplotlib figure made with :func:`gendyn.book.plotting.subplots`;
  saving stays in the chapter (:func:`gendyn.book.plotting.save`);
- ``check_*`` functions: they take the chapter's :class:`~gendyn.book.claims.Ledger` and results
  and record the chapter's claims, each with the tolerance's physical reason;
- where a chapter needs one, a runner that drives the library's experiments in the chapter's
  protocol.

The science (theory and training) stays in :mod:`gendyn`; these modules depend on it and on the
book layer, never the reverse. This package imports none of its modules, so that a chapter's run
depends on its own module only (``tools/chapters.py`` follows imports to decide what to re-run).
"""
