"""What players say aloud, in words: a card's points in the play ("fifteen for two", "thirty-one
for two") and a show's count in cribbage cadence ("fifteen two, fifteen four, a pair is six").
The points come from the rules' own scorers (pegging.card_points, score_hand); this only names
them.
"""

from __future__ import annotations

from cribsolve.core.cards import RANK
from cribsolve.core.notation import format_cards

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty"}
KINDS = {2: "a pair", 3: "pair royal", 4: "double pair royal"}


def number(n: int) -> str:
    """0 to 59 in words (as far as a count or a hand goes), digits beyond."""
    if n < 20:
        return _UNITS[n]
    if n >= 60:
        return str(n)
    tens, units = divmod(n, 10)
    return _TENS[10 * tens] + (f"-{_UNITS[units]}" if units else "")


def play_words(series, count: int, pts: int, spec) -> str:
    """The call for the last card of ``series`` (ranks), which made ``count`` and scored
    ``pts`` (pegging.card_points): its fifteen, pair royal or run, and the limit's two."""
    k = 1
    while k < len(series) and series[-1 - k] == series[-1]:
        k += 1
    fifteen, limit = count == spec.target, count == spec.peg_limit
    run = pts - 2 * fifteen - 2 * limit - k * (k - 1)
    parts = (
        [number(spec.target)] * fifteen
        + ([KINDS[k]] if k > 1 else [])
        + [f"a run of {number(run)}"] * (run > 0)
        + [number(spec.peg_limit)] * limit
    )
    return " and ".join(parts) + f" for {number(pts)}"


def cadence(items, target: int = 15) -> str:
    """A show's items (score_hand(..., itemized=True).items) said as a count: each fifteen
    (the ``target`` sum) and run with the running total, the pairs of one rank together (pair
    royal, double pair royal), then the flush and his nobs; "nineteen" for none, as players
    say (no hand can make 19)."""
    said, total, pairs = [], 0, {}
    for kind, pts, cards in items:
        if kind == "pair":
            pairs.setdefault(RANK[cards[0]], []).append(cards)
    for kind, pts, cards in items:
        if kind == "pair":
            group = pairs.pop(RANK[cards[0]], None)
            if group is None:
                continue
            total += 2 * len(group)
            n = round((1 + (1 + 8 * len(group)) ** 0.5) / 2)  # n cards make n(n-1)/2 pairs
            held = sorted(c for pair in group for c in pair)[:: n - 1]  # (wild cards repeat)
            said.append(
                f"{KINDS.get(n, f'{number(n)} of a kind')} is {number(total)} "
                f"({format_cards(held)})"
            )
            continue
        total += pts
        name = {
            "fifteen": number(target),
            "flush": f"a flush of {number(len(cards))} is",
            "nobs": "one for his nobs is",
        }.get(kind, f"a run of {number(len(cards))} is")
        said.append(f"{name} {number(total)} ({format_cards(cards)})")
    if not said:
        return "nineteen, that is nothing (no hand can make 19)"
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + ", and " + said[-1]
