"""Moved to :mod:`gendyn.book.claims` (the book's machinery); this name is kept for old code."""

from .book.claims import *  # noqa: F401,F403
from .book.claims import __all__  # noqa: F401
