"""Moved to :mod:`gendyn.book.plotting` (the book's machinery); this name is kept for old code."""

from .book.plotting import *  # noqa: F401,F403
from .book.plotting import __all__  # noqa: F401
