"""The game record written as a game is played (its format: docs/playing.md, "The game
record"; read by record.py)."""

from __future__ import annotations

from dataclasses import replace

from cribsolve.core.notation import format_card, format_cards
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table.record import Table


def header_text(spec, dealer: int, seed: int, opponent: str, muggins: bool) -> str:
    """The header of a record cribsolve play writes: the game, and what resumes it;
    ``dealer``: the first dealer's place from me (0: me)."""
    rules = replace(spec, game_length=CribbageSpec.game_length)
    table = Table(spec.players, spec.partners)
    return (
        f"# cribsolve play --variant cribbage: a game against {opponent}\n"
        f"game: {spec.game_length}\ndealer: {table.dealer_words[dealer]}\n"
        + ("" if rules.is_standard else f"rules: {rules.describe()}\n")
        + f"seed: {seed}\nopponent: {opponent}\n"
        + "muggins: yes\n" * muggins
    )


def deal_text(number: int, table: Table, deal) -> str:
    """One deal as the record has it, every card dealt included (so the crib is counted),
    from a match.Deal: its cards by place from me (dealt, redrawn, thrown, given), the bids,
    the crib card (three players), the starters (none under choose-a-cut), and the play (every
    card laid and GO; none where his heels ended the game first); under muggins your counts as
    you gave them, which the scores follow."""
    line = lambda key, cards: f"{key}: {format_cards(cards)}\n"  # noqa: E731
    places = range(table.players)
    theirs = ("", "their ")
    text = f"\ndeal {number}\n" + "".join(line(table.hand_key(p), deal.dealt[p]) for p in places)
    for p, (away, drawn) in enumerate(deal.draws):
        text += f"{theirs[p]}draw: {_draw(away, drawn)}\n"
    if deal.bids is not None:
        text += "bids: " + " ".join(str(b) for b in deal.bids) + "\n"
    if deal.thrown[0] is None:  # his heels on the first starter ended the game
        return text + line("starter", deal.starters)
    t = deal.m.spec.throw
    for p in places:
        parts = (
            [deal.thrown[p][:t], deal.thrown[p][t:]] if deal.m.spec.two_cribs else [deal.thrown[p]]
        )
        text += f"{table.throw_key(p)}: " + " / ".join(format_cards(c) for c in parts) + "\n"
    for p, gift in enumerate(deal.gifts):
        text += line(f"{theirs[p]}gift", [gift])
    for p, (away, drawn) in enumerate(deal.draws_after):
        text += f"{theirs[p]}draw after: {_draw(away, drawn)}\n"
    if deal.crib_card is not None:
        text += line("crib card", [deal.crib_card])
    if deal.starters:
        text += line("starter", deal.starters)
    if deal.played is not None:
        text += "play: " + " ".join("go" if c is GO else format_card(c) for c in deal.played) + "\n"
    if deal.m.muggins and deal.claims:
        text += "counts: " + " ".join(str(c) for c in deal.claims) + "\n"
    return text


def _draw(away, drawn) -> str:
    return f"{format_cards(away)} for {format_cards(drawn)}" if away else "none"
