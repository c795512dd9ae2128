"""Numbers in a chapter's prose: significant digits, and powers of ten typeset, never Python's ``2.16e+03``.

A chapter glues a number into its text as a string made here (``glue("key", prose.sig(x), display=False)``
and ``{glue:text}`key``` in the Markdown), so the text reads like the rest of the book whatever the
number's size at either scale.
"""

from __future__ import annotations

import math

__all__ = ["sig"]

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_MINUS = "\u2212"


def sig(x: float, digits: int = 3, *, sign: bool = False) -> str:
    """``x`` with ``digits`` significant digits, as prose: ``0.0123``, ``2,160``, ``3.1 × 10⁻⁵``.

    Magnitudes from 1e-3 to below 1e6 are written out (thousands with commas); others as a mantissa
    times a power of ten in superscript. Negative numbers take a typographic minus; ``sign=True``
    writes ``+`` before positive ones (a signed shift).

    Raises
    ------
    ValueError
        If ``x`` is not a finite real number, or ``digits`` is not an integer from 1 to 15.
    """
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise ValueError(f"digits must be an integer from 1 to 15; got {digits!r}")
    if isinstance(x, bool):
        raise ValueError(f"x must be a real number; got {x!r}")
    try:
        x = float(x)
    except (TypeError, ValueError):
        raise ValueError(f"x must be a real number; got {x!r}") from None
    if not math.isfinite(x):
        raise ValueError(f"x must be finite to be written in prose; got {x}")
    if x == 0:
        return "0"
    mantissa, exponent = f"{abs(x):.{digits - 1}e}".split("e")  # rounded first: 9.996 -> 1.00e+01 at 3
    exponent = int(exponent)
    rounded = float(f"{mantissa}e{exponent}")
    if -3 <= exponent < 6:
        text = f"{rounded:,.{max(0, digits - 1 - exponent)}f}"
    else:
        text = f"{mantissa} × 10{str(exponent).translate(_SUPERSCRIPT)}"
    if x < 0:
        return _MINUS + text
    return ("+" if sign else "") + text
