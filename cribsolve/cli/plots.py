"""Pictures of the library's results, one function per picture, each returning a matplotlib
Figure; ``save`` writes one as PNG or SVG, by the file's extension. matplotlib is optional
(``cribsolve[plot]``), so it is imported inside the functions, and only its object API is used
(no pyplot state, no backend switch): drawing works headless and leaves a notebook's own
figures alone.
"""

from __future__ import annotations

import os

import numpy as np

from cribsolve.core.notation import RANK_CHARS, format_cards
from cribsolve.errors import CribsolveError

FORMATS = ("png", "svg")
INSTALL = "pip install 'cribsolve[plot]'"


def plot_format(path: str) -> str:
    """The image format of ``path`` (its extension), or a user error naming the ones we write."""
    name = os.path.basename(path)
    ext = name.rpartition(".")[2].lower() if "." in name else ""  # '.png' too
    if ext not in FORMATS:
        raise CribsolveError(
            f"--plot: {path} must end in .png or .svg (the format is chosen by the extension)"
        )
    return ext


def require_matplotlib() -> None:
    """A user error, saying how to install it, when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CribsolveError(f"--plot needs matplotlib: {INSTALL}") from None


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def save(fig, path: str) -> None:
    """Write ``fig`` to ``path`` in the format of its extension, through a temporary file, so
    an interrupt or a full disk never leaves half an image."""
    from cribsolve.infra.export import AS_WAS, atomic_open, writing

    fmt = plot_format(path)
    with writing(path, AS_WAS), atomic_open(path, binary=True) as f:
        fig.savefig(f, format=fmt, metadata={"Date": None} if fmt == "svg" else None)


def _wrap(text: str, width: int = 80) -> str:
    """A title line broken to fit an 8-inch figure (a long list of house rules would run
    off both sides)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text


def _keep_fitting(fig, labels) -> None:
    """Remove each (label, patch) whose label, once the figure is laid out, does not lie
    inside its patch: measured by the renderer, so no value, however long, spills over its
    neighbours or off the axes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    for text, patch in labels:
        t, box = text.get_window_extent(renderer), patch.get_window_extent(renderer)
        if t.x0 < box.x0 or t.x1 > box.x1 or t.y0 < box.y0 or t.y1 > box.y1:
            text.remove()


def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def simulate_figure(res):
    """A solitaire's (or Shuffle's) final scores, from a simulate.SimResult: the histogram,
    the winning line, and the win rate with its 95% CI in the title."""
    fig = _figure(8, 4.5)
    ax = fig.add_subplot()
    scores = np.array(sorted(res.histogram))
    share = np.array([res.histogram[s] for s in scores]) / res.n * 100
    won = scores >= res.win_at
    ax.bar(scores[~won], share[~won], width=1.0, color="tab:grey", label="lost")
    ax.bar(scores[won], share[won], width=1.0, color="tab:blue", label="won")
    ax.axvline(
        res.win_at - 0.5, color="tab:red", linestyle="--", label=f"win line ({res.win_at} points)"
    )
    lo, hi = res.win_rate_ci
    ax.set_title(
        f"{res.variant}, policy {res.policy}, n = {res.n:,}, seed {res.seed}\n"
        f"win rate {_pct(res.win_rate)} (95% CI {_pct(lo)} to {_pct(hi)}); "
        f"mean {res.mean:.2f} points"
    )
    ax.set_xlabel("final score (points)")
    ax.set_ylabel("games (% of n)")
    ax.legend()
    return fig


COLORS = {"pegging": "tab:orange", "hand": "tab:blue", "crib": "tab:green", "heels": "tab:purple"}
PARTS = {
    "dealer": [
        ("pegging", "dealer_pegging"),
        ("hand", "dealer_hand"),
        ("crib", "crib"),
        ("heels", "heels"),
    ],
    "pone": [("pegging", "pone_pegging"), ("hand", "pone_hand"), ("crib", "pone_crib")],
}


def cribbage_figure(res):
    """Two-player games, from a simulate.CribbageResult: the points per deal of dealer and
    pone by part, each seat's total at the right, with the first dealer's win rate and its CI
    in the title."""
    d = res.as_dict()
    fig = _figure(8, 3.5)
    ax = fig.add_subplot()
    totals, labels = [], []
    for y, side in enumerate(PARTS):
        left = 0.0
        for part, key in PARTS[side]:
            bar = ax.barh(
                y, d[key], left=left, color=COLORS[part], label=part if side == "dealer" else None
            )[0]
            labels.append(
                (
                    ax.text(
                        left + d[key] / 2,
                        y,
                        f"{d[key]:.2f}",
                        ha="center",
                        va="center",
                        color="white",
                        fontsize=9,
                    ),
                    bar,
                )
            )
            left += d[key]
        totals.append(f"{left:.2f}")
    ax.set_yticks([0, 1], ["dealer", "pone"])
    ax.invert_yaxis()
    # the totals as tick labels beside the bars: laid out with the axes, never off the page
    right = ax.secondary_yaxis("right")
    right.set_yticks([0, 1], totals)
    right.set_ylabel("total")
    ax.set_xlabel("points per deal")
    fig.legend(loc="outside lower center", ncol=len(COLORS), frameon=False)
    lo, hi = d["win_rate_ci"]
    rules = res.spec.after_length()
    ax.set_title(
        _wrap(
            f"cribbage to {res.spec.game_length}{rules}, {res.policy} (player 1) "
            f"vs {res.opponent_policy} (player 2), n = {res.n:,}, seed {res.seed}"
        )
        + f"\nfirst dealer wins {_pct(d['win_rate'])} (95% CI {_pct(lo)} to "
        f"{_pct(hi)})"
    )
    _keep_fitting(fig, labels)
    return fig


def distribution_figure(hist, crib: bool, preset: str):
    """The exact show-score histogram (scoring.table.distribution)."""
    hist = np.asarray(hist)
    n = int(hist.sum())
    scores = np.arange(len(hist))
    mean = float(scores @ hist / n)
    fig = _figure(8, 4.5)
    ax = fig.add_subplot()
    ax.bar(scores, hist / n * 100, width=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("show score (points)")
    ax.set_ylabel("hands (% of all, log scale)")
    ax.set_title(
        f"the show, scored as a {'crib' if crib else 'hand'} under the {preset} rules\n"
        f"exact over all {n:,} four-card + starter hands; mean {mean:.3f} points"
    )
    return fig


def crib_table_figure(rows, seat: str, opponent: str):
    """Expected crib points of every two-card throw (crib_model.crib_table_rows) as a
    13 x 13 map: suited above the diagonal, offsuit below, pairs on it."""
    grid = np.full((13, 13), np.nan)
    for a, b, suited, crib in rows:
        i, j = RANK_CHARS.index(a), RANK_CHARS.index(b)
        grid[(i, j) if suited or i == j else (j, i)] = crib
    fig = _figure(7.5, 6.5)
    ax = fig.add_subplot()
    im = ax.imshow(grid, cmap="viridis")
    middle = np.nanmean(grid)
    for i in range(13):
        for j in range(13):
            ax.text(
                j,
                i,
                f"{grid[i, j]:.1f}",
                ha="center",
                va="center",
                fontsize=7,
                color="black" if grid[i, j] > middle else "white",
            )
    ticks = list(range(13))
    ax.set_xticks(ticks, list(RANK_CHARS))
    ax.set_yticks(ticks, list(RANK_CHARS))
    ax.set_xlabel("rank (suited pairs above the diagonal)")
    ax.set_ylabel("rank (offsuit pairs below the diagonal)")
    fig.colorbar(im, ax=ax, label="expected crib points")
    ax.set_title(f"expected crib points of the {seat}'s throw, opponent {opponent}")
    return fig


def odds_figure(win, spec, deals: int, seed: int, policy: str = "greedy"):
    """The odds table (odds.odds_table): P(I win) from every position when I deal next and when
    they do, and the dealer's edge, the difference between the two."""
    n = win.shape[1]
    fig = _figure(15, 4.8)
    axes = fig.subplots(1, 3)
    for ax, d, who in zip(axes, (1, 0), ("I deal next", "they deal next")):
        im = ax.imshow(win[d], origin="lower", cmap="RdBu", vmin=0, vmax=1, interpolation="nearest")
        ax.set_title(f"P(I win), {who}")
    fig.colorbar(im, ax=axes[:2], label="probability of winning", shrink=0.9)
    edge = win[1] - win[0]
    top = float(np.abs(edge).max())
    im = axes[2].imshow(
        edge * 100,
        origin="lower",
        cmap="PuOr",
        vmin=-100 * top,
        vmax=100 * top,
        interpolation="nearest",
    )
    axes[2].set_title(
        f"dealer's edge: P(I win) dealing - not dealing\n"
        f"(at 0-0: {_pct(win[1, 0, 0])} - {_pct(win[0, 0, 0])})"
    )
    fig.colorbar(im, ax=axes[2], label="percentage points", shrink=0.9)
    for ax in axes:
        ax.set_xlabel("their score (points)")
        ax.set_ylabel("my score (points)")
    rules = spec.after_length()
    fig.suptitle(
        f"cribbage to {n}{rules}: odds from {deals:,} simulated deals (seed {seed}; "
        f"both players {policy})"
    )
    return fig


def discard_figure(values, heading: str, xlabel: str):
    """The distribution of each throw's points (core.hand_options.DiscardValue), best first;
    throws of one distribution (suits that do not matter) share a line and its legend entry."""
    fig = _figure(8, 4.5)
    ax = fig.add_subplot()
    same = {}
    for v in values:
        key = tuple((x, round(p, 12)) for x, p in sorted(v.distribution.items()))
        same.setdefault(key, []).append(v)
    for group in same.values():
        v, dist = group[0], group[0].distribution
        also = " = ".join(format_cards(w.discard) for w in group)
        ax.plot(
            list(dist),
            np.array(list(dist.values())) * 100,
            marker="o",
            markersize=3,
            label=f"throw {also}: mean {v.net:.2f}",
        )
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability (%)")
    ax.set_title(heading)
    ax.legend()
    return fig


def variations_figure(rows, n: int, seed: int, policy: str):
    """The house rules side by side (variations.variations): the first dealer's win rate with
    its CI, and each seat's points per deal by part."""
    fig = _figure(15, 5.5)
    axes = fig.subplots(1, 3, sharey=True)
    y = np.arange(len(rows))
    win = np.array([r["first_dealer_wins"] for r in rows]) * 100
    err = (
        np.array(
            [
                [r["first_dealer_wins"] - r["ci_low"], r["ci_high"] - r["first_dealer_wins"]]
                for r in rows
            ]
        ).T
        * 100
    )
    err = np.maximum(err, 0)  # a CI at 0% or 100% can end a rounding error past its rate
    axes[0].errorbar(win, y, xerr=err, fmt="o")
    axes[0].axvline(50, color="grey", lw=0.8)
    axes[0].set_xlabel("first dealer wins (%, 95% CI)")
    axes[0].set_yticks(y, [r["rule"] for r in rows])
    for ax, side in zip(axes[1:], PARTS):
        left = np.zeros(len(rows))
        for part, key in PARTS[side]:
            # the rows hold no heels column: it is what is left of the dealer's total
            vals = (
                np.array([r["dealer_points"] for r in rows]) - left
                if key == "heels"
                else np.array([r[key] for r in rows])
            )
            ax.barh(y, vals, left=left, color=COLORS[part], label=part)
            left += vals
        ax.set_xlabel(f"{side} points per deal")
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, frameon=False)
    axes[0].invert_yaxis()
    fig.suptitle(f"house rules, n = {n:,} games each, seed {seed} ({policy} pegging, EV discards)")
    return fig


def bracket_figure(d):
    """A bracket (bracket.Bracket.as_dict): each policy's win rate and each upper bound with
    its 95% CI, the values beside them, and the span where the optimal win rate lies (from the
    best policy to the lowest bound)."""
    rows = [(f"best policy ({d['policy']})", "win_rate")]
    if "charged_rate" in d:
        rows.append(("best policy, charged", "charged_rate"))
    if "win_policy_rate" in d:
        rows.append(("win policy", "win_policy_rate"))
    rows += [("information-relaxation bound", "upper_bound"), ("clairvoyant bound", "clairvoyant")]
    rate = np.array([d[key] for _, key in rows]) * 100
    ci = np.array([d[key + "_ci"] for _, key in rows]).T * 100
    fig = _figure(8, 1.6 + 0.45 * len(rows))
    ax = fig.add_subplot()
    y = np.arange(len(rows))
    ax.axvspan(
        rate[0],
        min(d["upper_bound"], d["clairvoyant"]) * 100,
        color="tab:green",
        alpha=0.15,
        label="the optimal win rate lies here",
    )
    if max(ci[1]) > 100:
        ax.axvline(100, color="grey", lw=0.8, linestyle="--", label="every deck won (100%)")
    ax.errorbar(
        rate,
        y,
        xerr=np.maximum([rate - ci[0], ci[1] - rate], 0),
        fmt="o",
        capsize=4,
        color="tab:blue",
    )
    ax.set_yticks(y, [name for name, _ in rows])
    ax.invert_yaxis()
    ax.margins(y=0.25)
    right = ax.secondary_yaxis("right")  # the values, laid out beside the axes
    right.set_yticks(y, [f"{r:.2f}% [{lo:.2f}, {hi:.2f}]" for r, lo, hi in zip(rate, *ci)])
    ax.set_xlabel("win rate (%, 95% CI)")
    fig.legend(loc="outside lower center", ncol=2, frameon=False)
    charge = (
        f"; {d['next_hands']} next hands drawn per charge" if d["variant"] == "patience" else ""
    )
    ax.set_title(
        _wrap(
            f"{d['variant']}: the optimal win rate, on n = {d['n']:,} decks, seed "
            f"{d['seed']}{charge}"
        )
    )
    return fig
