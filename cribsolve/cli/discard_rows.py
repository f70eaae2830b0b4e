"""The table of an exact discard analysis (two-player and the solitaires alike): its CSV rows
and its lines, the best discard first."""

from __future__ import annotations

from cribsolve.core.notation import format_cards

DISCARD_HEADER = ["discard", "keep", "hand", "crib", "net", "std", "min", "max"]


def discard_rows(values):
    """A CSV row (DISCARD_HEADER) per DiscardValue."""
    return [
        (format_cards(v.discard), format_cards(v.keep), v.hand, v.crib, v.net, v.std, v.min, v.max)
        for v in values
    ]


def exact_lines(values, total: str = "net", extras=(), with_dist: bool = False):
    """A line per DiscardValue under a heading, ``total`` naming its net column; ``extras``
    are (name, cell) columns added at the right, cell(v) a 7-wide text; with ``with_dist``,
    each discard's distribution under it."""
    lines = [
        f"  {'discard':<8} {'keep':<12} {'hand':>6} {'crib':>6} {total:>7} {'std':>6} "
        f"{'min':>4} {'max':>4}" + "".join(f" {name:>7}" for name, _ in extras)
    ]
    for v in values:
        lines.append(
            f"  {format_cards(v.discard):<8} {format_cards(v.keep):<12} {v.hand:6.3f} "
            f"{v.crib:6.3f} {v.net:7.3f} {v.std:6.3f} {v.min:4d} {v.max:4d}"
            + "".join(" " + cell(v) for _, cell in extras)
        )
        if with_dist:
            lines.append("    " + "  ".join(f"{k}:{p:.4f}" for k, p in v.distribution.items()))
    return lines
