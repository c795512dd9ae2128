"""Tables, figures and claims of the chapter ``notebooks/lee-ndirango/published-data.md``.

Lee & Ndirango's published per-run losses (Figs. 2, 3, A1-A4) against the book's grids. The science is in
:mod:`gendyn.published_runs` (the cell-by-cell match :func:`~gendyn.published_runs.match_cells`, the
label-entropy floor :func:`~gendyn.published_runs.label_entropy_floor`, the plan of the authors'-protocol
rerun :func:`~gendyn.published_runs.authors_plan`), :mod:`gendyn.multitask_train` and
:mod:`gendyn.interleaved_sgd`; here are the planned tests on them (:func:`compare`, :func:`below_floor`,
:func:`compare_authors`), the tables and the figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from scipy import stats

from gendyn import interleaved_sgd, published_runs, seeding
from gendyn import multitask_train as mt
from gendyn.book import plotting
from gendyn.book import stats as book_stats
# The grids compared here are those of the multitask and aux-depth chapters, at their sizes (their SIZES, which
# the notebook configures): importing their modules puts those sizes in this chapter's run identity.
from gendyn.book.chapters import lee_ndirango_aux_data_and_depth, lee_ndirango_multitask_benefit  # noqa: F401
from gendyn.book.claims import Ledger
from gendyn.book.mutation import Mutation
from gendyn.book.scales import RunConfig

__all__ = ["Sizes", "SIZES",
           "claim_ids", "MUTATIONS", "FLOOR_CHECK_SNRS", "check_floor_against_labels",
           "compare", "check_comparison", "print_by_file",
           "figure_scatter", "print_single_task_losses", "print_by_size", "print_sign_disagreements",
           "figure_vs_r", "FloorTest", "below_floor", "print_below_floor", "check_below_floor", "figure_floor",
           "AuthorsComparison", "compare_authors", "print_authors_tables",
           "check_authors_above_floor", "check_defaults_miss_losses", "authors_glue",
           "figure_authors"]


@dataclass(frozen=True)
class Sizes:
    """The chapter's sizes at one scale (:data:`SIZES`); a notebook reads them as ``cfg.<size>``.

    Lee & Ndirango (2019): comparison with the authors' published per-run results. ``authors_cells = "all"``
    reruns every cell of the four files: hours on two cores; a GPU or a Dask cluster
    (``DASK_SCHEDULER``).
    """

    bootstrap: int  #: bootstrap resamples of the rank correlation's interval
    floor_samples: int  #: Monte Carlo inputs of the label-entropy floor H(y|x)
    floor_check_samples: int  #: labelled inputs per SNR for the floor against the experiments' labels
    authors_seeds: int  #: seeds per cell of the authors' protocol
    authors_epochs: int  #: training epochs of the authors' protocol
    authors_cells: str  #: "subset" (authors_groups, eight multitask cells each) or "all" (every cell of the four files)
    #: (file, P_A, P_B, trunk depth) of the cells rerun by the authors' protocol
    authors_groups: tuple[tuple[str, int, int, int], ...]


#: The chapter's sizes at each scale (:data:`gendyn.book.scales.SCALES`), checked and served by
#: :func:`gendyn.book.scales.configure`.
SIZES = {
    "paper": Sizes(bootstrap=2000, floor_samples=4096, floor_check_samples=100_000, authors_seeds=5, authors_epochs=2000, authors_cells="subset",
                   authors_groups=(("rank-10", 100, 100, 1), ("rank-10", 400, 400, 1), ("rank-3", 100, 100, 1),
                                   ("aux-train-pts", 100, 400, 1), ("deep-nonlinear", 200, 200, 1),
                                   ("deep-nonlinear", 200, 200, 3))),
    "smoke": Sizes(bootstrap=200, floor_samples=512, floor_check_samples=20_000, authors_seeds=3, authors_epochs=200, authors_cells="subset",
                   authors_groups=(("rank-10", 100, 100, 1),)),
}


_SM = "gendyn.softmax_multitask"
#: Teacher SNRs (rank-10 file's grid) at which the floor is compared with labels of the experiments' code.
FLOOR_CHECK_SNRS = (0.04, 0.158, 0.631, 2.51)


def claim_ids(cfg: RunConfig) -> list[str]:
    """The ids of the chapter's claims, fixed by its configuration before it runs."""
    return ["published-rank-correlation", "published-sign-agreement", "floor-is-bayes-cross-entropy",
            "published-below-label-entropy", "authors-protocol-above-floor", "authors-protocol-defaults-miss-losses"]


#: The theory the claims test, and the error each should see at smoke scale: the floor is compared with the
#: cross-entropy of the Bayes predictor on sampled labels to about 2-5 % of its value.
MUTATIONS = (
    Mutation(f"{_SM}.noisy_label_entropy", 0.1,
             why="the label-entropy floor H(y|x): compared with sampled labels to 2-5 % of its value"),
)


def check_floor_against_labels(ledger: Ledger, labels: mt.BayesCrossEntropy, floor: np.ndarray,
                               floor_se: np.ndarray, *, floor_samples: int) -> None:
    """Claim: the label-entropy floor ``floor`` (its Monte Carlo SE ``floor_se``, ``floor_samples`` draws;
    :func:`gendyn.softmax_multitask.noisy_label_entropy`) equals the cross-entropy of the Bayes predictor on
    labels of the experiments' code at the same SNRs (``labels``, :func:`gendyn.multitask_train.bayes_cross_entropy`).
    Prints both sides."""
    snrs, samples = labels.s_a, labels.n_test
    measured, measured_se = labels.mean, labels.stderr
    combined = np.sqrt(measured_se**2 + floor_se**2)
    z_scores = np.abs(measured - floor) / combined
    ledger.check(
        "floor-is-bayes-cross-entropy",
        "The label-entropy floor H(y|x) = cross-entropy of the Bayes predictor on labels of the experiments' code "
        f"(rank 10, N = 20, sbar = {', '.join(f'{v:g}' for v in FLOOR_CHECK_SNRS)}): largest standardised difference",
        measured=float(z_scores.max()), predicted=0.0, tolerance=book_stats.z_quantile(len(snrs)), kind="upper",
        reason=f"sampling error of the mean over {samples} labelled inputs and Monte Carlo error of the floor "
        f"({floor_samples} draws), both measured; Bonferroni quantile at family-wise level 1e-3 over {len(snrs)} SNRs. "
        "Reference: the largest floor in units of its combined standard error (a uniform relative error of the "
        "floor is seen first there).",
        theory=f"{_SM}.noisy_label_entropy", reference=float(np.max(floor / combined)),
    )
    print("floor H(y|x) / Bayes cross-entropy on sampled labels: "
          + ", ".join(f"sbar = {s:g}: {f:.4f} / {m:.4f} +- {e:.4f}" for s, f, m, e in zip(snrs, floor, measured,
                                                                                         combined)))


def compare(match: published_runs.MatchedCells, mask: np.ndarray | None = None) -> tuple[float, float, int]:
    """The planned test on the cells of ``mask`` (default: all): Spearman's rho of the cell means, and
    the fraction of same signs among the cells significant on both sides with their number."""
    mask = np.ones(len(match.files), dtype=bool) if mask is None else mask
    return (book_stats.rank_correlation(match.ref_m[mask], match.our_m[mask]),
            *book_stats.sign_agreement(match.ref_m[mask], match.ref_se[mask], match.our_m[mask], match.our_se[mask]))


def check_comparison(ledger: Ledger, match: published_runs.MatchedCells, *, rng: seeding.Rng, n_boot: int) -> None:
    """Claims of the planned test over all matched cells: rank correlation >= 0.5 (with a bootstrap
    interval of ``n_boot`` resamples drawn from ``rng``, see :mod:`gendyn.seeding`) and sign agreement >= 0.75."""
    rho_all, agree_all, n_both = compare(match)
    n = len(match.files)
    rng = seeding.numpy_generator(rng)
    boot = [stats.spearmanr(match.ref_m[idx], match.our_m[idx]).statistic
            for idx in (rng.integers(0, n, n) for _ in range(n_boot))]
    ledger.check("published-rank-correlation",
                 "Per-cell mean benefit, ours vs the published runs: Spearman rank correlation over "
                 "all matched cells",
                 measured=rho_all, predicted=1.0, tolerance=0.5, kind="lower",
                 reason=f"an exact reproduction orders the cells alike (1); allowance fixed before the comparison "
                 f"(see the text), down to 0.5; {n} cells, bootstrap 95% interval [{np.percentile(boot, 2.5):.2f}, "
                 f"{np.percentile(boot, 97.5):.2f}].", category="reproduction")
    ledger.check("published-sign-agreement",
                 "Same sign of the benefit where both are significant (|mean| > 2 standard errors on "
                 "both sides)",
                 measured=agree_all, predicted=1.0, tolerance=0.25, kind="lower",
                 reason=f"an exact reproduction agrees in sign wherever both are significant (1); allowance fixed "
                 f"before the comparison, down to 0.75; {n_both} cells significant on both sides.",
                 category="reproduction")


def print_by_file(match: published_runs.MatchedCells) -> None:
    """Print the planned test per file, with the median ratio of the benefits' sizes."""
    print(f"{'file':16s} {'cells':>6s} {'Spearman':>9s} {'sign agr.':>10s} {'both sig.':>10s} "
          f"{'median |ours|/|theirs|':>23s}")
    for name in match.names:
        m = match.files == name
        rho, agree, nb = compare(match, m)
        ratio = np.median(np.abs(match.our_m[m]) / np.maximum(np.abs(match.ref_m[m]), 1e-6))
        print(f"{name:16s} {m.sum():6d} {rho:9.2f} {agree:10.2f} {nb:10d} {ratio:23.2f}")


def figure_scatter(match: published_runs.MatchedCells) -> Figure:
    """Reproduced against published mean benefit of every matched cell, one panel per file."""
    fig, axes = plotting.subplots(2, 2, height=6.4)
    for ax, name in zip(axes.ravel(), match.names):
        m = match.files == name
        ref_m, our_m = match.ref_m[m], match.our_m[m]
        lim = max(np.abs(ref_m).max(), np.abs(our_m).max()) * 1.05
        ax.errorbar(ref_m, our_m, xerr=match.ref_se[m], yerr=match.our_se[m], fmt=".", ms=2, lw=0.4,
                    alpha=0.5)
        ax.plot([-lim, lim], [-lim, lim], "k:", lw=0.8)
        ax.axhline(0, color="0.7", lw=0.5)
        ax.axvline(0, color="0.7", lw=0.5)
        ax.set(xlim=(-lim, lim), ylim=(-lim, lim), title=name, xlabel="published benefit (nats)")
    for ax in axes[:, 0]:
        ax.set_ylabel("reproduced benefit (nats)")
    return fig


def _single_task_ours(g10):
    """Our early-stopped single-task losses of task A by (P, rounded log10 s_A), then by seed."""
    st_ours = {}
    for c, v in zip(g10.cells, g10.st_loss):
        st_ours.setdefault((c["n_train"], round(math.log10(c["s_a"]), 3)), {})[c["seed"]] = v
    return st_ours


def print_single_task_losses(g10: mt.GridResult) -> None:
    """Print the published and the reproduced single-task losses of the rank-10 file by P and s_A, and
    how many published ones lie above our early-stopped losses without main-task signal."""
    ref10 = published_runs.load("rank-10")
    st_ref = {}
    for i in np.flatnonzero(ref10["single_task"]):
        cell = (int(ref10["main_train_pts"][i]), round(math.log10(ref10["s_a"][i]), 3))
        st_ref.setdefault(cell, set()).add((ref10["train_seed"][i], ref10["loss"][i]))
    st_ours = _single_task_ours(g10)
    snr_keys = sorted({k[1] for k in st_ours})
    print(f"ln K = {math.log(10):.3f}.  published / reproduced single-task validation loss of task A")
    print("P     " + "".join(f"{10 ** s:>16.3g}" for s in snr_keys))
    for p in sorted({k[0] for k in st_ours}):
        cells = []
        for s in snr_keys:
            ref_vals = np.array([v for _, v in st_ref.get((p, s), set())])
            our_vals = np.array(list(st_ours[(p, s)].values()))
            cells.append(f"{ref_vals.mean():7.3f}/{our_vals.mean():6.3f}  " if len(ref_vals)
                         else f"{'-':>16s}")
        print(f"{p:<6d}" + "".join(cells))
    above = np.array([v for (p, s), vals in st_ref.items() for _, v in vals])
    initial = g10.st_loss[g10.where(s_a=g10.axes["s_a"][0])]
    print(f"reproduced early-stopped losses without main-task signal "
          f"(sbar_A = {g10.axes['s_a'][0]:g}): {initial.min():.3f} to {initial.max():.3f}; "
          f"published single-task losses above {initial.max():.3f}: "
          f"{100 * np.mean(above > initial.max()):.0f}% of {len(above)} unique runs")


def print_by_size(match: published_runs.MatchedCells) -> None:
    """Print, for the rank-10 file and each training-set size, the rank correlation and the median
    size of the benefit on each side."""
    p_all, files, ref_m, our_m = match.sizes, match.files, match.ref_m, match.our_m
    print(f"{'P':>6s} {'cells':>6s} {'Spearman':>9s} {'median |published|':>19s} "
          f"{'median |reproduced|':>20s}")
    for p in sorted(set(p_all[files == "rank-10"])):
        m = (files == "rank-10") & (p_all == p)
        print(f"{p:6d} {m.sum():6d} {stats.spearmanr(ref_m[m], our_m[m]).statistic:9.2f} "
              f"{np.median(np.abs(ref_m[m])):19.4f} {np.median(np.abs(our_m[m])):20.4f}")


def print_sign_disagreements(match: published_runs.MatchedCells) -> None:
    """Print the cells significant on both sides with opposite signs, by file, P and s_A."""
    ref_m, ref_se, our_m, our_se = match.ref_m, match.ref_se, match.our_m, match.our_se
    both = (np.abs(ref_m) > 2 * ref_se) & (np.abs(our_m) > 2 * our_se)
    disagree = both & (np.sign(ref_m) != np.sign(our_m))
    summary = {}
    for i in np.flatnonzero(disagree):
        k = match.keys[i]
        summary.setdefault((match.files[i], k[1], k[2], round(10 ** k[3], 3)), []).append(
            (round(10 ** k[4], 3), k[5]))
    print(f"{disagree.sum()} of {both.sum()} doubly significant cells disagree in sign")
    for (name, p, aux_p, sa), cells in sorted(summary.items()):
        print(f"  {name:15s} P = {p:4d} (aux {aux_p:4d}), s_a = {sa:6.3g}: {len(cells)} cells, "
              f"e.g. (s_b, r) = {cells[:3]}")


def figure_vs_r(match: published_runs.MatchedCells) -> Figure:
    """Benefit of a clean related or unrelated auxiliary task to a clean main task against r, rank-10
    file, one line per training-set size: published (left) and reproduced (right)."""
    sel = match.files == "rank-10"
    p_col = match.sizes
    rr, sb, sa = (np.array([k[i] for k in match.keys]) for i in (5, 4, 3))
    fig, axes = plotting.subplots(1, 2, height=3.4)
    for ax, (label, m) in zip(axes, (("published", match.ref_m), ("reproduced", match.our_m))):
        for j, p in enumerate(sorted(set(p_col[sel]))):
            pick = sel & (p_col == p) & (sb == sb.max()) & (sa == sa.max())
            order = np.argsort(rr[pick])
            ax.plot(rr[pick][order], m[pick][order], "o-", ms=3, color=plotting.COLORS[j % 8],
                    label=f"P = {p}")
        ax.axhline(0, color="k", lw=0.8)
        ax.set(xlabel="relatedness r", title=f"{label}: rank 10, clean A and B")
    axes[0].set_ylabel("benefit (nats)")
    axes[0].legend(fontsize=7)
    return fig


class FloorTest(NamedTuple):
    """The published single-task cells tested against the label-entropy floor (:func:`below_floor`)."""

    cells: list  #: the cells tested (:class:`gendyn.published_runs.SingleTaskCell`)
    confidence: float  #: one-sided level of the t bounds (Bonferroni over the cells)
    #: ``(file, depth, P, s_A, mean, upper bound, floor, SNR factor)`` of the cells below the floor
    below: list

    @property
    def min_features(self) -> float:
        """Input features the largest SNR factor of the cells below would mean (0 if none is below)."""
        return float(20 * max(b[7] for b in self.below) ** 2) if self.below else 0.0


def below_floor(floor: published_runs.LabelEntropyFloor, cells: list) -> FloorTest:
    """The planned test: the cells whose one-sided t upper bound on the mean loss (family-wise level 1e-3 over the
    cells, Bonferroni) lies below the floor minus three Monte Carlo SE, with the factor by which the teacher's SNR
    must exceed the recorded one at least (:meth:`gendyn.published_runs.LabelEntropyFloor.smallest_snr`)."""
    confidence = 1 - 1e-3 / len(cells)
    below = []
    for c in cells:
        h, h_se = floor.at(c.file, c.s_a)
        upper = book_stats.t_bound(c.losses, "upper", confidence)
        if upper < h - 3 * h_se:
            factor = floor.smallest_snr(upper, published_runs.N_CLASSES[c.file]) * floor.noise_std / c.s_a
            below.append((c.file, c.depth, c.n_train, c.s_a, c.losses.mean(), upper, h, factor))
    return FloorTest(list(cells), confidence, below)


def print_below_floor(floor: FloorTest) -> None:
    """Print the number of cells tested and each cell below the floor, with its margin, the SNR factor
    it needs at least and the input features that factor would mean."""
    print(f"{len(floor.cells)} single-task cells tested; t bound at one-sided confidence {floor.confidence:.6f}")
    print(f"{len(floor.below)} cells below the floor of the default labels:")
    print(f"{'file':15s} {'depth':>5s} {'P':>5s} {'s_A':>6s} {'published':>9s} {'upper bound':>11s} "
          f"{'floor':>6s} {'margin':>7s} {'SNR factor':>10s} {'features':>8s}")
    for name, d, p, s, mean, upper, h, factor in floor.below:
        print(f"{name:15s} {d:5d} {p:5d} {s:6.3g} {mean:9.3f} {upper:11.3f} {h:6.3f} {h - upper:7.3f} "
              f"{factor:10.2f} {20 * factor ** 2:8.0f}")


def check_below_floor(ledger: Ledger, floor: FloorTest) -> None:
    """Claim: at least one published single-task cell lies below the label-entropy floor (Gibbs' inequality)."""
    ledger.check("published-below-label-entropy",
                 "Disagreement of the published files with the authors' default data law (20 input features, "
                 "teacher singular values = s_A, noisy validation labels): number of single-task cells whose upper "
                 "bound lies below the conditional entropy of such labels (at least one)",
                 measured=len(floor.below), predicted=1, tolerance=0.0, kind="lower",
                 reason=f"A finding against the published data: by Gibbs' inequality no classifier's expected "
                 f"cross-entropy on such labels is below H(y|x); upper bounds at family-wise level 1e-3 over "
                 f"{len(floor.cells)} cells (if the seeds are independent), floor minus 3 Monte Carlo SE.",
                 category="finding", theory=f"{_SM}.noisy_label_entropy")


def figure_floor(floor: published_runs.LabelEntropyFloor, cells: list) -> Figure:
    """Published single-task losses (``cells``) of the rank-10 and rank-3 files against s_A, one line per P, over
    the floor of the default labels."""
    fig, axes = plotting.subplots(1, 2, height=3.4)
    for ax, name in zip(axes, ("rank-10", "rank-3")):
        k = published_runs.N_CLASSES[name]
        dense = floor.q_grid * floor.noise_std
        keep = (dense >= floor.snrs.min() / 2) & (dense <= floor.snrs.max() * 2)
        ax.plot(dense[keep], floor.floor_of_q[k][keep], "k-", lw=1.2, label="floor $H(y|x)$ (defaults)")
        sizes = sorted({c[2] for c in cells if c[0] == name})
        for j, p in enumerate(sizes):
            rows_p = [c for c in cells if c[0] == name and c[2] == p]
            m_se = np.array([book_stats.mean_se(c[4]) for c in rows_p])
            ax.errorbar([c[3] for c in rows_p], m_se[:, 0], yerr=m_se[:, 1], fmt="o-", ms=3, lw=0.8,
                        color=plotting.COLORS[j % 8], label=f"P = {p}")
        ax.axhline(math.log(k), color="0.6", lw=0.6, ls=":")
        ax.set(xscale="log", xlabel=r"$\bar s_A$", title=f"{name}: {k} classes")
    axes[0].set_ylabel("published single-task loss (nats)")
    axes[0].legend(fontsize=6, ncol=2)
    return fig


@dataclass(frozen=True)
class AuthorsComparison:
    """The authors'-protocol cells beside the published ones (:func:`compare_authors`).

    ``rows``: ``(group, kind, s_A, published mean, published SE, {statistic: (mean, SE)},
    full-batch mean, s_B, r)`` per cell, ``kind`` "single-task" or "benefit", ``statistic``
    "final" (last epoch) or "minimum" (over the epochs); ``own_st``: ``(file, s_A, final losses
    per seed)`` of our single-task students; ``summary[group]`` (and ``"all"``): the fractions
    within two combined SE (``st``, ``b``), the benefits' rank correlation ``rho`` and
    ``sign`` agreement.
    """

    rows: list
    own_st: list
    summary: dict

    @property
    def both_protocols(self) -> tuple[list, float, float]:
        """The benefit cells our full-batch grids also hold, and the rank correlation with the
        published benefits there of the authors' protocol and of our full-batch students."""
        same = [r for r in self.rows if r[1] == "benefit" and np.isfinite(r[6])]
        return (same, book_stats.rank_correlation([r[3] for r in same], [r[5]["final"][0] for r in same]),
                book_stats.rank_correlation([r[3] for r in same], [r[6] for r in same]))

    @property
    def rank10_single_task(self) -> dict[int, list]:
        """``{P_A: [(s_A, published mean, authors' protocol final mean)]}`` of the rank-10 file."""
        table = {}
        for r in self.rows:
            if r[0][0] == "rank-10" and r[1] == "single-task":
                table.setdefault(r[0][1], []).append((r[2], r[3], r[5]["final"][0]))
        return table


def _estimates(rows, statistic):
    """Published means and SE, then ours for ``statistic`` ("final" or "minimum"), as four arrays."""
    return ([r[3] for r in rows], [r[4] for r in rows], [r[5][statistic][0] for r in rows],
            [r[5][statistic][1] for r in rows])


def _within(rows, statistic):
    return book_stats.within_combined_se(*_estimates(rows, statistic))


def compare_authors(runs_by_group: dict[tuple, interleaved_sgd.CellRuns], refs: dict[str, dict[str, np.ndarray]],
                    match: published_runs.MatchedCells) -> AuthorsComparison:
    """Pair each authors'-protocol cell with the published runs of the same cell (and with our
    full-batch benefit of ``match`` where it exists), and summarise per group.

    Parameters
    ----------
    runs_by_group : dict
        ``{group: gendyn.interleaved_sgd.train_cells(...)}`` of the groups of
        :func:`gendyn.published_runs.authors_plan`.
    refs : dict
        :func:`gendyn.published_runs.benefits` of each file.
    match : MatchedCells
        :func:`gendyn.published_runs.match_cells`.
    """
    # per file and cell: files share cell keys (the rank-10, rank-3 and aux-train-pts grids hold the same
    # (depth, P, s_A, s_B, r) with different teachers), so a key alone would mix the files
    full_batch = {(f, k): (m, se) for f, k, m, se in zip(match.files, match.keys, match.our_m, match.our_se)}
    st_pub = {name: published_runs.single_task(name) for name in published_runs.FILES}
    read = {"final": lambda c: c[..., -1], "minimum": lambda c: c.min(-1)}
    authors, own_st = [], []
    for (name, p_a, p_b, depth), runs in runs_by_group.items():
        for i, cell in enumerate(runs.cells):
            if np.isnan(runs.multitask[i]).all():  # a single-task cell
                own_st.append((name, cell["s_a"], runs.single_task[i, :, -1]))
                if name == "aux-train-pts":
                    continue  # the same runs as the rank-10 file's 100-point cells
                pick = published_runs.select(st_pub[name], nlayers=depth, main_train_pts=p_a, s_a=cell["s_a"])
                ours_ = {k: book_stats.mean_se(f(runs.single_task[i])) for k, f in read.items()}
                authors.append(((name, p_a, p_b, depth), "single-task", cell["s_a"],
                                *book_stats.mean_se(st_pub[name]["loss"][pick]), ours_, np.nan, np.nan, np.nan))
            else:
                pick = published_runs.select(refs[name], nlayers=depth, main_train_pts=p_a, aux_train_pts=p_b,
                                             s_a=cell["s_a"], s_b=cell["s_b"], relatedness=cell["relatedness"])
                ours_ = {k: book_stats.mean_se(f(runs.single_task[i]) - f(runs.multitask[i]))
                         for k, f in read.items()}
                key = published_runs.cell_key(depth, p_a, p_b, cell["s_a"], cell["s_b"], cell["relatedness"])
                fb = full_batch.get((name, key), (np.nan,))[0]
                authors.append(((name, p_a, p_b, depth), "benefit", cell["s_a"],
                                *book_stats.mean_se(refs[name]["benefit"][pick]), ours_, fb, cell["s_b"],
                                cell["relatedness"]))
    summary = {}
    for group in list(dict.fromkeys(r[0] for r in authors)) + ["all"]:
        mine = [r for r in authors if group == "all" or r[0] == group]
        st_rows = [r for r in mine if r[1] == "single-task"]
        b_rows = [r for r in mine if r[1] == "benefit"]
        summary[group] = dict(st={k: _within(st_rows, k) if st_rows else np.nan for k in ("final", "minimum")},
                              b={k: _within(b_rows, k) for k in ("final", "minimum")},
                              rho=book_stats.rank_correlation([r[3] for r in b_rows],
                                                              [r[5]["final"][0] for r in b_rows]),
                              sign=book_stats.sign_agreement(*_estimates(b_rows, "final")))
    return AuthorsComparison(authors, own_st, summary)


def print_authors_tables(authors: AuthorsComparison, *, seeds: int, epochs: int) -> None:
    """Print the agreement per group, both protocols' rank correlations with the published benefits,
    the benefits outside two combined SE and the rank-10 single-task losses."""
    print(f"{len(authors.rows)} cells, {seeds} seeds, {epochs} epochs")  # the time is in the text
    print(f"{'group (file, P_A, P_B, depth)':34s} {'single-task within 2 SE':>24s} {'benefit within 2 SE':>20s} "
          f"{'benefit Spearman':>17s} {'same sign':>12s}")
    print(f"{'':34s} {'final':>12s}{'minimum':>12s} {'final':>10s}{'minimum':>10s} {'final':>17s} "
          f"{'(both sig.)':>12s}")
    for group, s_ in authors.summary.items():
        label = "all cells" if group == "all" else ", ".join(str(g) for g in group)
        print(f"{label:34s} {s_['st']['final']:12.2f}{s_['st']['minimum']:12.2f} {s_['b']['final']:10.2f}"
              f"{s_['b']['minimum']:10.2f} {s_['rho']:17.2f} "
              + (f"{s_['sign'][0]:7.2f} ({s_['sign'][1]:2d})" if s_["sign"][1] else f"{'-':>7s} ( 0)"))
    same, rho_same, rho_fb = authors.both_protocols
    print(f"benefit Spearman with the published runs on the {len(same)} cells both protocols ran: "
          f"authors' protocol {rho_same:.2f}, our full-batch students {rho_fb:.2f}")
    print("\nbenefits outside two combined SE (final epoch): group, s_A, s_B, r: published / ours (z)")
    for r in authors.rows:
        if r[1] == "benefit":
            (name, p_a, p_b, depth), m, se, o = r[0], r[3], r[4], r[5]["final"]
            z = (o[0] - m) / math.hypot(o[1], se)
            if abs(z) > 2:
                print(f"  {name} P={p_a}/{p_b} depth {depth}, s_A={r[2]:.3g}, s_B={r[7]:.3g}, r={r[8]:g}: "
                      f"{m:+.3f} / {o[0]:+.3f} ({z:+.1f})")
    print("\nrank-10 single-task losses: published / authors' protocol (final epoch)")
    for p_a, vals in sorted(authors.rank10_single_task.items()):
        print(f"P = {p_a:<5d}" + "".join(f"  s_A={s:<6.3g} {m:5.3f}/{o:5.3f}" for s, m, o in vals))


def check_authors_above_floor(ledger: Ledger, authors: AuthorsComparison,
                              floor: published_runs.LabelEntropyFloor) -> None:
    """Claim (a control that can fail): our authors'-protocol single-task students, validated on labels
    of the default law, lie above the label-entropy floor by the published files' test. Prints the
    smallest margin and the smallest distance of a mean from the floor."""
    # the auxiliary-data file's labels follow the rank-10 file's law (K = 10)
    def floor_at(name, s):
        return floor.at("rank-10" if name == "aux-train-pts" else name, s)

    level = 1e-3 / len(authors.own_st)  # Bonferroni upper bounds over the cells
    margins = []
    for name, s, v in authors.own_st:
        h, h_se = floor_at(name, s)
        margins.append(book_stats.t_bound(v, "upper", 1 - level) - (h - 3 * h_se))
    ledger.check("authors-protocol-above-floor",
                 "Our authors'-protocol students, validated on labels of the default law, pass the floor test "
                 "the published files fail: smallest margin of a single-task cell's upper confidence bound "
                 "over the label-entropy floor",
                 measured=min(margins), predicted=0.0, tolerance=0.0, kind="lower",
                 reason=f"Gibbs' inequality, a control of the floor test: {len(authors.own_st)} cells, the same "
                        "test as above (one-sided t bounds at family-wise level 1e-3, floor minus 3 Monte Carlo SE). "
                        "A finding, not an agreement: one-sided by nature, it sees only a floor too high by more "
                        f"than the smallest margin ({min(margins):.2f} nats); the floor itself is tested two-sided "
                        "by floor-is-bayes-cross-entropy.", category="finding",
                 theory=f"{_SM}.noisy_label_entropy")
    print(f"control: smallest margin of our single-task cells over the floor {min(margins):.3f} nats; "
          f"their means lie {min(v.mean() - floor_at(n, s)[0] for n, s, v in authors.own_st):.3f} "
          "nats or more above it")


def _coverage(seeds):
    """Fraction of cells within two combined SE that an exact reproduction gives, ``seeds`` vs ``seeds``."""
    return 2 * stats.t.cdf(2.0, 2 * seeds - 2) - 1


def check_defaults_miss_losses(ledger: Ledger, authors: AuthorsComparison, *, seeds: int) -> None:
    """Claim: with the authors' protocol and their code's defaults (``seeds`` seeds per cell) at most half
    of the published single-task losses are reproduced within two combined SE (final epoch)."""
    ledger.check("authors-protocol-defaults-miss-losses",
                 "Reproduction fails (a disagreement with the published runs): with the authors' protocol and their "
                 "code's defaults at most half of the published single-task losses lie within two combined standard "
                 "errors of ours (final epoch)",
                 measured=authors.summary["all"]["st"]["final"], predicted=0.5, tolerance=0.0, kind="upper",
                 reason=f"A failed reproduction, recorded as a finding: an exact reproduction would put about "
                        f"{_coverage(seeds):.2f} of the cells there (Student t, {2 * seeds - 2} degrees of freedom); "
                        "the planned test asked for 0.9; at most 0.5 is the disagreement stated before the run.",
                 category="finding")


def authors_glue(authors: AuthorsComparison, *, seeds: int) -> dict[str, float | int]:
    """The numbers of the authors'-protocol section shown in the text, by glue name (``seeds``: per cell)."""
    summary = authors.summary["all"]
    same, rho_same, rho_fb = authors.both_protocols
    values = {"ln-published-authors-seeds": seeds, "ln-published-authors-cells": len(authors.rows),
              "ln-published-authors-coverage": float(_coverage(seeds))}
    for k in ("final", "minimum"):
        values[f"ln-published-authors-st-{k}"] = float(summary["st"][k])
        values[f"ln-published-authors-b-{k}"] = float(summary["b"][k])
    values.update({"ln-published-authors-rho": float(summary["rho"]), "ln-published-authors-same-cells": len(same),
                   "ln-published-authors-rho-same": float(rho_same), "ln-published-authors-rho-fb": float(rho_fb)})
    # published minus authors'-protocol single-task losses of the rank-10 file at its smallest and largest P
    table = authors.rank10_single_task
    p_small, p_large = min(table), max(table)
    gaps_small = [m - o for _, m, o in table[p_small]]
    values.update({"ln-published-authors-p-small": int(p_small), "ln-published-authors-p-large": int(p_large),
                   "ln-published-authors-lowest-small": float(min(m for _, m, _ in table[p_small])),
                   "ln-published-authors-gap-small-min": float(min(gaps_small)),
                   "ln-published-authors-gap-small-max": float(max(gaps_small)),
                   "ln-published-authors-gap-large": float(table[p_large][-1][1] - table[p_large][-1][2])})
    return values


def figure_authors(authors: AuthorsComparison, g10: mt.GridResult) -> Figure:
    """Left: rank-10 single-task losses against s_A, published, authors' protocol and our full-batch
    students (``g10``), one colour per P. Right: the authors' protocol's benefits against the published
    ones, every group."""
    st_ours = _single_task_ours(g10)
    snr = np.array(mt.SNR_GRID)
    fig, axes = plotting.subplots(1, 2, height=3.4)
    ax = axes[0]
    rank10 = [r for r in authors.rows if r[0][0] == "rank-10" and r[1] == "single-task"]
    for j, p in enumerate(sorted({r[0][1] for r in rank10})):
        mine = [r for r in rank10 if r[0][1] == p]
        colour = plotting.COLORS[j % 8]
        s_a = [r[2] for r in mine]
        ax.errorbar(s_a, [r[3] for r in mine], yerr=[r[4] for r in mine], fmt="o-", ms=3, lw=0.8, color=colour,
                    label=f"published, P = {p}")
        ax.errorbar(s_a, [r[5]["final"][0] for r in mine], yerr=[r[5]["final"][1] for r in mine], fmt="s--", ms=3,
                    lw=0.8, mfc="none", color=colour, label=f"authors' protocol, P = {p}")
        full = [(s, np.mean(list(st_ours[p, round(math.log10(s), 3)].values()))) for s in snr
                if (p, round(math.log10(s), 3)) in st_ours]  # the grid's SNRs at this scale
        if full:
            ax.plot(*zip(*full), "x:", ms=4, lw=1.2, color=colour, label=f"full batch (early-stopped), P = {p}")
    ax.axhline(math.log(10), color="0.6", lw=0.6, ls=":")
    ax.set(xscale="log", xlabel=r"$\bar s_A$", ylabel="single-task loss (nats)", title="rank-10, single task")
    ax.legend(fontsize=5.5)
    ax = axes[1]
    for j, name in enumerate(published_runs.FILES):
        mine = [r for r in authors.rows if r[0][0] == name and r[1] == "benefit"]
        if mine:
            ax.errorbar([r[3] for r in mine], [r[5]["final"][0] for r in mine], xerr=[r[4] for r in mine],
                        yerr=[r[5]["final"][1] for r in mine], fmt="o", ms=3, lw=0.6, color=plotting.COLORS[j],
                        label=name)
    lim = max(max(abs(r[3]), abs(r[5]["final"][0])) for r in authors.rows if r[1] == "benefit") * 1.1
    ax.plot([-lim, lim], [-lim, lim], "k:", lw=0.8)
    ax.xaxis.set_major_locator(plt.MaxNLocator(5))
    ax.set(xlim=(-lim, lim), ylim=(-lim, lim), xlabel="published benefit (nats)",
           ylabel="authors' protocol, final (nats)", title="benefit, every group")
    ax.legend(fontsize=6)
    return fig
