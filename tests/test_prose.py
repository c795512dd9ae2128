"""Numbers as the book's prose writes them."""

import math

import pytest

from gendyn.book import prose


@pytest.mark.parametrize("x, digits, text", [
    (2157.3, 3, "2,160"), (6758.0, 3, "6,760"), (0.0001234, 2, "1.2 × 10⁻⁴"), (0.01234, 3, "0.0123"),
    (1.5, 3, "1.50"), (9.996, 3, "10.0"), (-3.1e-5, 2, "\u22123.1 × 10⁻⁵"), (2.5e7, 2, "2.5 × 10⁷"), (2e7, 3, "2.00 × 10⁷"), (5e-324, 2, "4.9 × 10⁻³²⁴"),
    (123456.0, 2, "120,000"), (0.0, 3, "0"), (1e6, 1, "1 × 10⁶"), (999999.5, 3, "1.00 × 10⁶"),
])
def test_sig_writes_significant_digits_and_typesets_powers(x, digits, text):
    assert prose.sig(x, digits) == text
    assert "e+" not in prose.sig(x, digits) and "e-" not in prose.sig(x, digits)


def test_sig_signs_and_refuses_what_prose_cannot_say():
    assert prose.sig(0.25, 2, sign=True) == "+0.25" and prose.sig(-0.25, 2, sign=True) == "\u22120.25"
    for bad in (math.nan, math.inf, "x", None, True):
        with pytest.raises(ValueError, match="x must be"):
            prose.sig(bad)
    with pytest.raises(ValueError, match="digits must be an integer from 1 to 15"):
        prose.sig(1.0, 0)


@pytest.mark.parametrize("text, typeset", [
    ("widths N_h <= P/2", r"widths ${N}_h$ $\le$ P/2"),
    ("eps_g* vs eq. (10), eta = 0.1", r"${\epsilon}_g^*$ vs eq. (10), ${\eta}$ = 0.1"),
    ("shat, sbar_B and t_opt", r"${\hat{s}}$, ${\bar{s}}_B$ and ${t}_{\rm opt}$"),
    ("min_t E_g +- 2", r"$\min_t$ ${E}_g$ $\pm$ 2"),
])
def test_symbols_typesets_the_ascii_of_claim_texts(text, typeset):
    assert prose.symbols(text) == typeset


def test_symbols_leaves_code_words_and_math_alone():
    # code spans, identifiers with unknown bases, words that merely contain a Greek name, existing math
    for text in ("`gd_lag` of the metaheuristic", "hidden_units and n_train", "the thetas", "$N_l$ = 3"):
        assert prose.symbols(text) == text
    assert prose.symbols("`gd_lag` and N_l") == "`gd_lag` and ${N}_l$"
    assert prose.symbols("theta") == r"${\theta}$"
    with pytest.raises(ValueError, match="text must be a str"):
        prose.symbols(None)


@pytest.mark.parametrize("x, digits, text", [(2e8, 2, "2e8"), (1.58e7, 2, "1.6e7"), (1.5e-5, 2, "1.5e-5"), (150, 3, "150"),
                                             (-3e10, 2, "-3e10"), (0.0, 2, "0"), (-0.0, 2, "0"),
                                             (123456, 6, "123456")])
def test_ascii_number_writes_claim_texts_without_python_exponents(x, digits, text):
    assert prose.ascii_number(x, digits) == text


@pytest.mark.parametrize("x, digits, message", [(float("nan"), 2, "x must be finite"), ("a", 2, "x must be a real"),
                                                (10**400, 2, "within float range"),
                                                (True, 2, "x must be a real"), (1.0, 0, "digits must be")])
def test_ascii_number_refuses_what_it_cannot_write(x, digits, message):
    with pytest.raises(ValueError, match=message):
        prose.ascii_number(x, digits)
