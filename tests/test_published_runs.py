"""The published runs of Lee & Ndirango (2019) are carried in the project and read correctly."""

import shutil
from types import SimpleNamespace

import numpy as np
import pytest

from gendyn import multitask_train as mt
from gendyn import published_runs


def test_data_lives_inside_the_project_and_matches_its_checksums():
    folder = published_runs.data_dir()
    assert folder.parent.name == "data" and (folder.parent.parent / "pyproject.toml").is_file()
    assert sorted(published_runs.verify()) == sorted(f"{name}.csv" for name in published_runs.FILES)


def test_benefits_pair_every_multitask_run_with_its_single_task_baseline():
    ref = published_runs.benefits("rank-3")
    assert len(ref["benefit"]) == 1800
    assert np.all(np.isfinite(ref["benefit"]))
    assert np.array_equal(ref["benefit"], mt.reference_benefits("rank-3")["benefit"])  # the old name


def test_single_task_rows_are_independent_seeds_of_each_cell():
    for name in published_runs.FILES:
        st = published_runs.single_task(name)
        cells = set(zip(st["nlayers"], st["main_train_pts"], st["s_a"]))
        assert len(st["loss"]) == 5 * len(cells)  # seeds 0-4 of every cell, once each
        assert np.all(np.isfinite(st["loss"]))
    ref = published_runs.load("deep-nonlinear")
    st = published_runs.single_task("deep-nonlinear")
    assert sorted(st["loss"]) == sorted(ref["loss"][ref["single_task"]])  # one run per seed there
    # the benefits' baselines are these rows
    b, st = published_runs.benefits("rank-10"), published_runs.single_task("rank-10")
    i = np.flatnonzero(published_runs.select(st, main_train_pts=b["main_train_pts"][0], s_a=b["s_a"][0],
                                             train_seed=b["train_seed"][0]))
    assert len(i) == 1 and np.isclose(st["loss"][i[0]], b["st_loss"][0])
    with pytest.raises(ValueError, match="no column 'depth'"):
        published_runs.select(st, depth=1)


def test_missing_folder_raises_naming_where_it_looked(tmp_path):
    with pytest.raises(FileNotFoundError, match="GENDYN_DATA_DIR"):
        published_runs.data_dir(tmp_path)


def test_a_changed_file_fails_verification(tmp_path):
    copy = tmp_path / "lee-ndirango-2019"
    shutil.copytree(published_runs.data_dir(), copy)
    with open(copy / "rank-3.csv", "a") as fh:
        fh.write("\n")
    with pytest.raises(ValueError, match="rank-3.csv differs from the published file"):
        published_runs.verify(copy)


def test_environment_variable_points_to_another_copy(tmp_path, monkeypatch):
    shutil.copytree(published_runs.data_dir(), tmp_path / "lee-ndirango-2019")
    monkeypatch.setenv("GENDYN_DATA_DIR", str(tmp_path))
    assert published_runs.data_dir() == (tmp_path / "lee-ndirango-2019").resolve()


def test_unknown_file_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="name must be one of .*'rank-10'"):
        published_runs.load("rank-7")


# --- a damaged copy is refused on load, naming the file ------------------------------------------------------------

def _copy(tmp_path):
    copy = tmp_path / "lee-ndirango-2019"
    shutil.copytree(published_runs.data_dir(), copy)
    return copy


def _damage(path, how):
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    if how == "digit":  # one digit of one loss changed: same size, another value
        head, _, loss = lines[5].rpartition(",")
        lines[5] = f"{head},{'9' if loss[0] != '9' else '8'}{loss[1:]}"
    elif how == "truncated":  # the first half of the file
        lines = lines[: len(lines) // 2]
    elif how == "letter":  # a comma replaced by a letter
        lines[7] = lines[7].replace(",", "x", 3).replace("x", ",", 2)
    path.write_text("".join(lines))


def _readers():
    return {"load": published_runs.load, "benefits": published_runs.benefits,
            "single_task": published_runs.single_task, "multitask_train.load_reference": mt.load_reference,
            "multitask_train.reference_benefits": mt.reference_benefits}


@pytest.mark.parametrize("how", ["digit", "truncated", "letter"])
@pytest.mark.parametrize("reader", sorted(_readers()))
def test_every_reader_refuses_a_damaged_file_naming_it(tmp_path, how, reader):
    copy = _copy(tmp_path)
    _damage(copy / "rank-3.csv", how)
    with pytest.raises(ValueError, match=r"rank-3\.csv differs from the published file"):
        _readers()[reader]("rank-3", copy)
    published_runs.load("rank-10", copy)  # the other files are fine


def _relist(folder):
    """A SHA256SUMS that lists the files as they now are, so that the parser sees the damage."""
    import hashlib

    (folder / "SHA256SUMS").write_text("".join(
        f"{hashlib.sha256((folder / f'{n}.csv').read_bytes()).hexdigest()}  {n}.csv\n" for n in published_runs.FILES))


@pytest.mark.parametrize("edit, message", [
    (lambda ls: ls[:3] + [ls[3].replace(",False,", ",Flase,")] + ls[4:],
     r"rank-3\.csv, line 4, column 'single_task': must be True or False; got 'Flase'"),
    (lambda ls: ls[:3] + [",".join(f if i != 1 else "4O0" for i, f in enumerate(ls[3].split(",")))] + ls[4:],
     r"rank-3\.csv, line 4, column 'main_train_pts': must be a finite number; got '4O0'"),
    (lambda ls: ls[:3] + [ls[3].rsplit(",", 1)[0] + ",nan\n"] + ls[4:],
     r"rank-3\.csv, line 4, column 'validation-1/loss': must be a finite number; got 'nan'"),
    (lambda ls: ls[:3] + [ls[3][:30] + "\n"] + ls[4:], r"rank-3\.csv, line 4: \d fields; the header has 9"),
    (lambda ls: ls[:1], r"rank-3\.csv holds no rows after its header"),
    (lambda ls: [], r"rank-3\.csv, line 1: the header lacks the column"),
])
def test_a_bad_field_is_reported_with_file_line_and_column(tmp_path, edit, message):
    copy = _copy(tmp_path)
    path = copy / "rank-3.csv"
    path.write_text("".join(edit(path.read_text().splitlines(keepends=True))))
    _relist(copy)  # checksums that agree: only the parser stands between the damage and the user
    with pytest.raises(ValueError, match=message):
        published_runs.load("rank-3", copy)


def test_a_missing_file_or_checksum_line_is_named(tmp_path):
    copy = _copy(tmp_path)
    (copy / "rank-3.csv").unlink()
    with pytest.raises(FileNotFoundError, match=r"rank-3\.csv"):
        published_runs.load("rank-3", copy)
    with pytest.raises(FileNotFoundError, match=r"rank-3\.csv"):
        published_runs.verify(copy)
    sums = (copy / "SHA256SUMS").read_text().splitlines()
    (copy / "SHA256SUMS").write_text("\n".join(line for line in sums if "rank-10" not in line) + "\n")
    with pytest.raises(ValueError, match=r"rank-10\.csv is not listed in .*SHA256SUMS"):
        published_runs.load("rank-10", copy)
    (copy / "SHA256SUMS").write_text("not a checksum line\n")
    with pytest.raises(ValueError, match=r"SHA256SUMS, line 1: expected"):
        published_runs.verify(copy)


def test_checksums_are_verified_once_per_process_and_again_after_a_change(tmp_path, monkeypatch):
    copy = _copy(tmp_path)
    calls = []
    check = published_runs._check_digest
    monkeypatch.setattr(published_runs, "_check_digest", lambda *a: calls.append(a[0].name) or check(*a))
    for _ in range(3):
        published_runs.benefits("rank-3", copy)
        published_runs.single_task("rank-3", copy)
    assert calls == ["rank-3.csv"]
    with open(copy / "rank-3.csv", "a") as fh:  # changed after the first load
        fh.write("\n")
    with pytest.raises(ValueError, match=r"rank-3\.csv differs from the published file"):
        published_runs.load("rank-3", copy)


def test_select_refuses_a_flag_for_a_number_and_a_number_for_a_flag():
    st = published_runs.load("rank-3")
    with pytest.raises(ValueError, match=r"\bs_a\b must be a real number"):
        published_runs.select(st, s_a=True)
    with pytest.raises(ValueError, match=r"\bs_a\b must be a real number"):
        published_runs.select(st, s_a=np.nan)
    with pytest.raises(ValueError, match=r"single_task must be True or False"):
        published_runs.select(st, single_task=1)
    assert published_runs.select(st, single_task=True).sum() == st["single_task"].sum()
    with pytest.raises(ValueError, match=r"\btable\b must be a non-empty dict"):
        published_runs.select({}, s_a=1.0)


# ----------------------------------------------------------------------------------------
# the published cells against other runs (the published-data chapter)
# ----------------------------------------------------------------------------------------


def _grid_of(ref):
    """A grid (cells and benefits, as multitask_train.GridResult has them) holding the published runs themselves."""
    cells = [dict(n_train=p, n_train_aux=a, s_a=sa, s_b=sb, relatedness=r)
             for p, a, sa, sb, r in zip(ref["main_train_pts"], ref["aux_train_pts"], ref["s_a"], ref["s_b"],
                                        ref["relatedness"])]
    return SimpleNamespace(cells=cells, benefit=ref["benefit"])


def test_cell_key_is_the_same_for_printed_and_computed_snrs():
    computed = published_runs.cell_key(1, 100, 100, mt.SNR_GRID[3], mt.SNR_GRID[0], 0.25)
    printed = published_runs.cell_key(1.0, 100.0, 100.0, 0.630957, 0.01, 0.25)
    assert computed == printed == (1, 100, 100, -0.2, -2.0, 0.25)
    with pytest.raises(ValueError, match="n_train must be a whole number"):
        published_runs.cell_key(1, 100.5, 100, 0.1, 0.1, 0.0)
    with pytest.raises(ValueError, match="s_b"):
        published_runs.cell_key(1, 100, 100, 0.1, 0.0, 0.0)


def test_match_cells_of_the_published_runs_with_themselves_agree_exactly():
    ref = published_runs.benefits("rank-3")
    match = published_runs.match_cells({"rank-3": {1: _grid_of(ref)}}, {"rank-3": ref})
    assert match.names == ("rank-3",) and match.counts() == {"rank-3": len(ref["benefit"]) // 5}  # five seeds a cell
    assert np.array_equal(match.ref_m, match.our_m) and np.array_equal(match.ref_se, match.our_se)
    assert set(match.sizes) == set(ref["main_train_pts"].astype(int))
    one = {k: v[:1] for k, v in ref.items()}  # one run: no standard error
    with pytest.raises(ValueError, match="at least 2"):
        published_runs.match_cells({"rank-3": {1: _grid_of(one)}}, {"rank-3": ref})
    with pytest.raises(ValueError, match="refs must hold every file"):
        published_runs.match_cells({"rank-3": {1: _grid_of(ref)}}, {})


def test_single_task_cells_hold_the_seeds_of_each_cell():
    cells = published_runs.single_task_cells("rank-3")
    st = published_runs.single_task("rank-3")
    assert sum(len(c.losses) for c in cells) == len(st["loss"]) and all(len(c.losses) == 5 for c in cells)
    assert cells == tuple(sorted(cells, key=lambda c: (c.depth, c.n_train, c.s_a)))


def test_label_entropy_floor_falls_from_ln_k_and_inverts():
    floor = published_runs.label_entropy_floor(rng=0, n_samples=256, files=("rank-3", "rank-10"))
    for name, k in (("rank-3", 3), ("rank-10", 10)):
        h = np.array([floor.at(name, s)[0] for s in floor.snrs])
        assert np.all(np.diff(h) < 0) and np.log(k) - 0.01 < h[0] <= np.log(k)
    loss = floor.at("rank-10", floor.snrs[3])[0]
    q = floor.smallest_snr(loss, 10)  # at most the SNR that gives this floor (the table is lowered by 3 SE)
    assert 0.8 * floor.snrs[3] / floor.noise_std < q <= 1.01 * floor.snrs[3] / floor.noise_std
    with pytest.raises(ValueError, match="s must be one of"):
        floor.at("rank-3", 0.5)
    with pytest.raises(ValueError, match="n_samples"):
        published_runs.label_entropy_floor(rng=0, n_samples=100)


def test_authors_plan_lists_single_task_then_multitask_cells_of_each_group():
    refs = {name: published_runs.benefits(name) for name in published_runs.FILES}
    snr = np.array(mt.SNR_GRID)
    subset = [(sa, sb, r) for sa in snr[[3, 5]] for sb in snr[[0, 5]] for r in (0.0, 1.0)]
    (group,) = published_runs.authors_plan(refs, snr, [("deep-nonlinear", 200, 200, 3)], subset)
    assert group.key == ("deep-nonlinear", 200, 200, 3) and group.activation == "relu" and group.rank == 10
    assert [c["s_a"] for c in group.cells[:6]] == list(snr) and all("s_b" not in c for c in group.cells[:6])
    assert [(c["s_a"], c["s_b"], c["relatedness"]) for c in group.cells[6:]] == sorted(subset)
    every = published_runs.authors_plan(refs, snr)
    assert ("rank-10", 100, 100, 1) in [g.key for g in every]
    assert sum(len(g.cells) - 6 for g in every) == sum(
        len(set(zip(r["main_train_pts"], r["aux_train_pts"], r["nlayers"], r["s_a"], r["s_b"], r["relatedness"])))
        for r in refs.values())
    with pytest.raises(ValueError, match="groups"):
        published_runs.authors_plan(refs, snr, [("rank-10", 101, 100, 1)], subset)
