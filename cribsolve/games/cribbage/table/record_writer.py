"""The game record written as a game is played (its format: record.py)."""

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


def deal_text(number: int, table: Table, dealt, thrown, starter, played, crib_card=None) -> str:
    """One deal as the record has it, every card dealt included (so the crib is counted):
    ``dealt`` and ``thrown`` by place from me; ``crib_card``: the deck's card in the crib
    (three players); ``played``: every card laid and GO, or None where his heels ended the
    game first."""
    line = lambda key, cards: f"{key}: {format_cards(cards)}\n"  # noqa: E731
    places = range(table.players)
    text = (
        f"\ndeal {number}\n"
        + "".join(line(table.hand_key(p), dealt[p]) for p in places)
        + "".join(line(table.throw_key(p), thrown[p]) for p in places)
        + (line("crib card", [crib_card]) if crib_card is not None else "")
        + line("starter", [starter])
    )
    if played is not None:
        text += "play: " + " ".join("go" if t is GO else format_card(t) for t in played) + "\n"
    return text
