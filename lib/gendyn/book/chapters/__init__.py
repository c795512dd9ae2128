"""What the pipeline reads of each chapter before it runs: its sizes, the ids of its claims, and the theory
each claim should notice.

One module per chapter notebook, named after it (``notebooks/goldt-et-al/sec2-asymptotic-error.md``
→ :mod:`gendyn.book.chapters.goldt_sec2_asymptotic_error`). A module holds

- ``Sizes``, a frozen dataclass of the chapter's sizes (a typed field and a one-line comment per
  size), and ``SIZES = {"smoke": Sizes(...), "paper": Sizes(...)}``, its sizes at each scale:
  :func:`gendyn.book.scales.configure` reads them (importing the module by name) and checks a
  notebook's overrides, and the notebook reads them as ``cfg.<size>`` (``cfg.sizes``: the
  ``Sizes`` of its run). They live here so that editing one chapter's sizes re-runs that chapter
  only;
- ``claim_ids(cfg)``, the ids of the claims the chapter checks, fixed by its configuration before it runs
  (:meth:`gendyn.book.claims.Ledger.declare`), and ``MUTATIONS``, the theory functions its claims test with
  the error each should detect (:mod:`gendyn.book.mutation`, ``make mutants``);
- the constants both of these and the notebook need.

The chapter itself holds its protocol (sizes, conditions, seeds, the loop over them, the calls to theory
and experiment), its claims (the ``ledger.check`` calls, each with the tolerance's physical reason) and its
figures. Some modules still hold their chapter's figures (``figure_*``) and claims (``check_*``): those of
the longest chapters, and claim logic that unit tests exercise. Runners that train or simulate are science:
they live in :mod:`gendyn` with typed arguments and named result types. These modules depend on the
science and on the book layer, never the reverse. This package imports none of its modules, nor does
:mod:`gendyn.book.scales`, so that a chapter's run depends on its own module only (``tools/chapters.py``
follows a notebook's imports, and the chapter ids of its ``chapter.start``/``scales.configure`` calls, to
decide what to re-run); a chapter that builds on another's results imports that chapter's module or
configures that chapter (published-data the multitask and aux-depth chapters, whose grids it compares).
"""


#: Each chapter of the book: ``{chapter id: (its source under notebooks/, a MyST Markdown notebook
#: (:mod:`gendyn.book.myst`), module of this package)}``.
#: Every module defines ``Sizes`` and ``SIZES`` (read by :func:`gendyn.book.scales.configure`). A module
#: may define ``claim_ids(cfg)``, the ids of the claims its chapter checks (fixed before the run:
#: :meth:`gendyn.book.claims.Ledger.declare`), and ``MUTATIONS``, the theory functions its claims test
#: with the error they should detect (:mod:`gendyn.book.mutation`).
CHAPTERS = {
    "as-bounds": ("advani-saxe/bounds.md", "advani_saxe_bounds"),
    "as-double-descent": ("advani-saxe/double-descent.md", "advani_saxe_double_descent"),
    "as-early-stopping-ridge": ("advani-saxe/early-stopping-and-ridge.md", "advani_saxe_early_stopping_and_ridge"),
    "as-nonlinear-teacher": ("advani-saxe/nonlinear-teacher.md", "advani_saxe_nonlinear_teacher"),
    "as-toy-model": ("advani-saxe/toy-model.md", "advani_saxe_toy_model"),
    "goldt-sec1": ("goldt-et-al/sec1-dynamics.md", "goldt_sec1_dynamics"),
    "goldt-sec2": ("goldt-et-al/sec2-asymptotic-error.md", "goldt_sec2_asymptotic_error"),
    "goldt-sec3": ("goldt-et-al/sec3-both-layers.md", "goldt_sec3_both_layers"),
    "lg-alignment": ("lampinen-ganguli/alignment-lag.md", "lampinen_ganguli_alignment_lag"),
    "lg-generalisation-deep": ("lampinen-ganguli/generalisation-deep.md", "lampinen_ganguli_generalisation_deep"),
    "lg-generalisation": ("lampinen-ganguli/generalisation-dynamics.md", "lampinen_ganguli_generalisation_dynamics"),
    "lg-low-rank": ("lampinen-ganguli/low-rank-students.md", "lampinen_ganguli_low_rank_students"),
    "lg-mode-dynamics": ("lampinen-ganguli/mode-dynamics.md", "lampinen_ganguli_mode_dynamics"),
    "lg-nongradient": ("lampinen-ganguli/non-gradient-algorithm.md", "lampinen_ganguli_non_gradient_algorithm"),
    "lg-nonlinear": ("lampinen-ganguli/nonlinear-students.md", "lampinen_ganguli_nonlinear_students"),
    "lg-nonlinear-transfer": ("lampinen-ganguli/nonlinear-transfer.md", "lampinen_ganguli_nonlinear_transfer"),
    "lg-examples": ("lampinen-ganguli/number-of-examples.md", "lampinen_ganguli_number_of_examples"),
    "lg-randomised": ("lampinen-ganguli/randomised-data.md", "lampinen_ganguli_randomised_data"),
    "lg-rmt": ("lampinen-ganguli/rmt-teacher-in-data.md", "lampinen_ganguli_rmt_teacher_in_data"),
    "lg-transfer": ("lampinen-ganguli/transfer.md", "lampinen_ganguli_transfer"),
    "ln-authors-settings": ("lee-ndirango/authors-settings.md", "lee_ndirango_authors_settings"),
    "ln-aux-depth": ("lee-ndirango/aux-data-and-depth.md", "lee_ndirango_aux_data_and_depth"),
    "ln-multitask": ("lee-ndirango/multitask-benefit.md", "lee_ndirango_multitask_benefit"),
    "ln-published": ("lee-ndirango/published-data.md", "lee_ndirango_published_data"),
    "ln-relation": ("lee-ndirango/relation-to-lampinen-ganguli.md", "lee_ndirango_relation_to_lampinen_ganguli"),
    "ln-setup": ("lee-ndirango/setup-and-derivations.md", "lee_ndirango_setup_and_derivations"),
    "ln-single-task": ("lee-ndirango/single-task-dynamics.md", "lee_ndirango_single_task_dynamics"),
}
