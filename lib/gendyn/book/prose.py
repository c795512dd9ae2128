"""Numbers and symbols in a chapter's prose: significant digits, powers of ten typeset (never Python's
``2.16e+03``), and the ASCII symbols of claim texts (``N_l``, ``shat``, ``eps_g*``) as inline math.

A chapter glues a number into its text as a string made here (``glue("key", prose.sig(x), display=False)``
and ``{glue:text}`key``` in the Markdown), so the text reads like the rest of the book whatever the
number's size at either scale.
"""

from __future__ import annotations

import math
import re

__all__ = ["sig", "ascii_number", "symbols"]

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_MINUS = "\u2212"


def _checked_number(x, digits, purpose=""):
    """``x`` as a finite float (and ``digits`` an integer from 1 to 15), or a ValueError naming the argument."""
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise ValueError(f"digits must be an integer from 1 to 15; got {digits!r}")
    if isinstance(x, bool):
        raise ValueError(f"x must be a real number; got {x!r}")
    try:
        x = float(x)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"x must be a real number within float range; got {x!r}") from None
    if not math.isfinite(x):
        raise ValueError(f"x must be finite{' ' + purpose if purpose else ''}; got {x}")
    return x


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
    x = _checked_number(x, digits, "to be written in prose")
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


def ascii_number(x: float, digits: int = 2) -> str:
    """``x`` in a claim's ASCII text, with ``digits`` significant digits: ``2e8``, ``1.5e-5``, ``150`` (3 digits).

    Claim statements are records (JSON, the ledger) and keep ASCII, but not Python's ``2e+08``: the
    exponent loses its ``+`` and leading zeros.

    Raises
    ------
    ValueError
        If ``x`` is not a finite real number, or ``digits`` is not an integer from 1 to 15.
    """
    x = _checked_number(x, digits)
    return re.sub(r"e\+?(-?)0*(\d)", r"e\1\2", f"{x + 0.0:.{digits}g}")  # + 0.0: -0.0 is written 0


_GREEK = {"alpha": r"\alpha", "beta": r"\beta", "gamma": r"\gamma", "delta": r"\delta", "eps": r"\epsilon",
          "eta": r"\eta", "theta": r"\theta", "kappa": r"\kappa", "lambda": r"\lambda", "rho": r"\rho",
          "sigma": r"\sigma", "tau": r"\tau"}
_ACCENTED = {f"{v}{a}": rf"\{a}{{{v}}}" for v in "suv" for a in ("hat", "bar")}
_BASES = {**_GREEK, **_ACCENTED, **{b: b for b in ("N", "E", "R", "X", "K", "M", "L", "P", "T", "Q", "s", "t", "u", "v",
                                                    "w", "q", "x", "y", "z")}}
_OPERATORS = {"min": r"\min", "max": r"\max", "sup": r"\sup", "sum": r"\sum"}
_RELATIONS = {"<=": r"\le", ">=": r"\ge", "+-": r"\pm"}
_TOKEN = re.compile(
    r"(?P<sub>\b(?P<base>" + "|".join(sorted({**_BASES, **_OPERATORS}, key=len, reverse=True))
    + r")_(?P<index>[A-Za-z0-9]{1,8})\b(?P<star>\*?))"
    r"|(?P<word>\b(?:" + "|".join(sorted({**_GREEK, **_ACCENTED}, key=len, reverse=True)) + r")\b)"
    r"|(?P<rel><=|>=|\+-)")


def _math(m: re.Match) -> str:
    if m["rel"]:
        return f"${_RELATIONS[m['rel']]}$"
    if m["word"]:
        return f"${{{_BASES[m['word']]}}}$"
    base = _OPERATORS.get(m["base"]) or _BASES[m["base"]]
    index = m["index"] if len(m["index"]) == 1 or m["index"].isdigit() else rf"{{\rm {m['index']}}}"
    return f"${{{base}}}_{index}{'^*' if m['star'] else ''}$" if m["base"] not in _OPERATORS else f"${base}_{index}$"


def symbols(text: str) -> str:
    """The ASCII symbols of a claim's text as MyST inline math: ``N_l`` → ``$N_l$``, ``eps_g*`` →
    ``$\\epsilon_g^*$``, ``shat`` → ``$\\hat{s}$``, ``t_opt`` → ``$t_{\\rm opt}$``, ``<=`` → ``$\\le$``.

    Only whole words, a known base (a Greek name, ``shat``/``sbar``-like accents, single capital or
    lower-case letters used as symbols) and ``min``/``max``/``sup``/``sum`` with a subscript are
    touched; code spans (between backticks) and a text that already holds ``$`` are left as they are.
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a str; got {type(text).__name__}")
    if "$" in text:
        return text
    parts = text.split("`")
    parts[::2] = [_TOKEN.sub(_math, p) for p in parts[::2]]  # outside code spans
    return "`".join(parts)
