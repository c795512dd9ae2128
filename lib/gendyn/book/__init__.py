"""The book's machinery, on top of the science in :mod:`gendyn` (never the other way round).

chapter   a chapter's start-up in one call: sizes, claims ledger, figure style
claims    checked theory-vs-experiment claims, their records, the ledger page, run folders
scales    each chapter's sizes at the smoke and paper scales; the notebooks' parameter checks
plotting  the book's figure style, column-sized figures, byte-identical figure files
grids     the Lee & Ndirango grids of the book and their cache shared by chapters
stats     the claims' statistics: standard errors, Student-t bounds, batch means, KS distance, agreement
figures   figures that recur across chapters (the benefit strips of Figs. A1-A4)
threads   a chapter run's share of the CPU threads when chapters run side by side (make runs JOBS=N)
myst      the chapters' sources: MyST Markdown notebooks read and written with jupytext
"""
