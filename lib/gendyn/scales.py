"""Moved to :mod:`gendyn.book.scales` (the book's machinery); this name is kept for old code."""

from .book.scales import *  # noqa: F401,F403
from .book.scales import __all__  # noqa: F401
