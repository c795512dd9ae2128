"""Bibliography labels in the same author-year form as the citations in the text.

The chapters cite with sphinxcontrib-bibtex's ``author_year`` style ("Lampinen and Ganguli
(2019)"); its default bibliography styles label entries [1], [2], ... This extension registers
the pybtex style ``authoryear``: the ``unsrt`` formatting with labels such as
"Lampinen & Ganguli, 2019" or "Goldt et al., 2019".
"""

from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle


def _surnames(entry):
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    return [" ".join(p.last_names) for p in people]


class AuthorYearLabels(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        seen = {}
        for entry in sorted_entries:
            names = _surnames(entry)
            if not names:
                who = entry.fields.get("title", "Anon.")[:20]
            elif len(names) == 1:
                who = names[0]
            elif len(names) == 2:
                who = f"{names[0]} & {names[1]}"
            elif len(names) == 3:
                who = f"{names[0]}, {names[1]} & {names[2]}"
            else:
                who = f"{names[0]} et al."
            label = f"{who}, {entry.fields.get('year', 'n.d.')}"
            seen[label] = seen.get(label, 0) + 1
            yield label if seen[label] == 1 else f"{label}{chr(ord('a') + seen[label] - 1)}"


class AuthorYearStyle(UnsrtStyle):
    default_label_style = AuthorYearLabels
    default_sorting_style = "author_year_title"


def setup(app):
    register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
