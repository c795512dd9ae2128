"""The random streams of the Goldt et al. chapters: every series of runs its own (issue 33, item 4).

Each companion module names its series (``SERIES``) and lists the stream paths its notebook draws from
(``stream_paths``); the notebook draws only through ``seeding.stream(cfg.seed, <series>, ...)`` (no seed
arithmetic). Two series that share draws by accident (Goldt §2 once drew Fig. S2's eta = 1/K runs with the
seeds of the ReLU runs at eta = 0.1, so for equal K they shared teacher and initial weights) fail here.
"""

import re
from pathlib import Path

import numpy as np
import pytest

from gendyn import seeding
from gendyn.book.chapters import goldt_sec1_dynamics as sec1
from gendyn.book.chapters import goldt_sec2_asymptotic_error as sec2
from gendyn.book.chapters import goldt_sec3_both_layers as sec3
from gendyn.book.myst import read_notebook

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks" / "goldt-et-al"
CHAPTERS = {"sec1-dynamics": sec1, "sec2-asymptotic-error": sec2, "sec3-both-layers": sec3}


def _code(notebook):
    return "\n".join(c.source for c in read_notebook(NOTEBOOKS / f"{notebook}.md").cells if c.cell_type == "code")


def _state(seed, path):
    return tuple(seeding.stream(seed, *path).generate_state(4))


@pytest.mark.parametrize("notebook", CHAPTERS)
def test_the_notebook_draws_only_from_its_named_series(notebook):
    module, code = CHAPTERS[notebook], _code(notebook)
    used = set(re.findall(r"seeding\.stream\(cfg\.seed, \"([^\"]+)\"", code))
    assert used == set(module.SERIES), f"series used {sorted(used)}, declared {sorted(module.SERIES)}"
    # every rng comes from a named stream; no seed arithmetic, no former seed keyword
    values = re.findall(r"\brng=([\w.]+)", code) + re.findall(r"\bscm\(\"\w+\", \w+, ([\w.]+)", code)
    assert values and all(v in ("seeding.stream", "rng") for v in values), values
    assert not re.search(r"\bseed\s*=(?!\s*cfg\.seed\b)", code), "a seed= keyword or a seed variable"
    assert not re.search(r"cfg\.seed\s*[-+*]|[-+*]\s*cfg\.seed|range\(cfg\.seed", code), "seed arithmetic"


@pytest.mark.parametrize("notebook", CHAPTERS)
def test_the_listed_paths_are_the_notebooks_and_distinct(notebook):
    module = CHAPTERS[notebook]
    for scale, sizes in module.SIZES.items():
        paths = module.stream_paths(sizes)
        assert len(set(paths)) == len(paths), f"{scale}: a path listed twice"
        assert {p[0] for p in paths} == set(module.SERIES), scale


@pytest.mark.parametrize("notebook", CHAPTERS)
def test_no_two_streams_of_a_chapter_coincide_over_its_sizes_and_seeds(notebook):
    module = CHAPTERS[notebook]
    states = {}
    for seed in (0, 1, 2):
        for scale, sizes in module.SIZES.items():
            for path in module.stream_paths(sizes):
                state = _state(seed, path)
                assert states.setdefault(state, (seed, path)) == (seed, path), \
                    f"{notebook}: stream {seed, path} ({scale}) equals {states[state]}"


def test_the_relu_runs_and_the_inverse_k_runs_of_sec2_share_nothing():
    """The collision of issue 33: Fig. S2 (eta = 1/K) and the ReLU runs at eta = 0.1, at equal L."""
    paper = sec2.SIZES["paper"]
    for L in set(paper.relu_ls) & set(paper.inverse_k_ls):
        for use in ("start", "sgd"):
            relu = seeding.stream(0, "relu", "eta=0.1", L, use)
            inverse = seeding.stream(0, "inverse-k", L, use)
            assert not np.array_equal(relu.generate_state(4), inverse.generate_state(4))


def test_the_series_shared_on_purpose():
    """The long ODE runs start, among others, from Fig. 2a's (Fig. 3a's) own start: listed once."""
    paper2, paper3 = sec2.SIZES["paper"], sec3.SIZES["paper"]
    shared2 = [L for L in paper2.long_ls if L in paper2.erf_ls]
    assert shared2 and all(sec2.stream_paths(paper2).count(("erf", L, "start", 0)) == 1 for L in shared2)
    assert all(sec3.stream_paths(paper3).count(("fig3a", K, "start", 0)) == 1 for K in paper3.long_ks)
    assert "eta=0.05" in {p[1] for p in sec2.stream_paths(paper2) if p[0] == "relu"}
