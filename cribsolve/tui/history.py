"""Your record against each computer player, from the games ``play`` keeps in the data folder
(its default --record), shown as the table opens: each record replayed to its winner, as review
replays it, since a record keeps the cards and not the scores."""

from __future__ import annotations

import glob
import os


def tally(folder: str, leave_out: str | None = None) -> dict:
    """{opponent: {"won": n, "lost": n, "unfinished": n, ...}} of the games play wrote in
    ``folder`` (not ``leave_out``, the game at the table); a file that is not such a record is
    passed over."""
    from cribsolve.errors import CribsolveError
    from cribsolve.games.cribbage.table.record import load_record
    from cribsolve.games.cribbage.table.replay import replay

    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
        if leave_out and os.path.abspath(path) == os.path.abspath(leave_out):
            continue
        try:
            rec = load_record(path)
            winner = replay(rec).winner if rec.opponent else None
        except (CribsolveError, OSError, UnicodeDecodeError):
            continue
        if not rec.opponent:
            continue
        how = (
            "unfinished"
            if winner is None
            else "won"
            if winner == "you"
            else "tied"
            if winner == "tie"
            else "lost"
        )
        counts = out.setdefault(rec.opponent, {})
        counts[how] = counts.get(how, 0) + 1
    return out


def lines(folder: str, leave_out: str | None = None) -> list:
    """The tally in a line an opponent, under a line saying where it comes from."""
    counts = tally(folder, leave_out)
    if not counts:
        return []
    return [f"your games in {folder}:"] + [
        f"  against {who}: "
        + ", ".join(
            f"{c[how]} {how}" for how in ("won", "lost", "tied", "unfinished") if c.get(how)
        )
        for who, c in sorted(counts.items())
    ]
