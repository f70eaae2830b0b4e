"""What the table shows at a moment, copied from the referee in its own thread (the referee
goes on changing its match while the app draws what it was)."""

from __future__ import annotations

from dataclasses import dataclass

from cribsolve.games.cribbage.table.screen import series_cards


@dataclass(frozen=True)
class View:
    scores: tuple  # by side, yours first
    backs: tuple  # each side's score before its last points (the back pegs)
    deal: int = 0  # 0: before the first deal
    dealer: str = ""  # the dealer's name ("you", "they", "left")
    crib: str = ""  # whose crib ("your", "their", "left's"; two cribs: "both")
    starters: tuple = ()  # the cut cards turned
    hand: tuple = ()  # the cards you hold now
    fits: tuple = ()  # in the play: whether each card of the hand fits the count
    series: tuple = ()  # the cards of the current series
    count: int = 0
    holding: tuple = ()  # in the play: (name, the cards it holds) for each other player
    over: bool = False  # the game is won


def view(match) -> View:
    """The match as it stands (match.Match, in the referee's thread)."""
    t, d = match.table, match.deal
    base = View(tuple(match.scores), tuple(match.backs), over=match.result.winner is not None)
    if d is None:
        return base
    state = d.state
    playing = state is not None and not state.over
    hand = state.hands[d.me] if playing else d.kept[0] if d.kept[0] is not None else d.hands[0]
    series = series_cards(d.played, len(state.series)) if state is not None else []
    return View(
        base.scores,
        base.backs,
        d.number,
        t.names[d.dealer],
        "both" if match.spec.two_cribs else t.whose(d.owner),
        tuple(d.starters),
        tuple(hand),
        tuple(state.fits(c) for c in hand) if playing else (),
        tuple(series),
        state.count if state is not None else 0,
        tuple((t.names[d.place(s)], len(state.hands[s])) for s in range(t.players) if s != d.me)
        if playing
        else (),
        base.over,
    )
