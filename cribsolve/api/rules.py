"""``Rules``, the one object for every house rule of the game (docs/RULES.md §5, §8): the
game's ``CribbageSpec`` under its public name. ``cs.Rules()`` is the standard two-player
game; the show's functions read its target, decks, jokers and wild rank."""

from __future__ import annotations

from cribsolve.core.rules import RuleSet, ruleset
from cribsolve.errors import CardError
from cribsolve.games.cribbage.rules.spec import CribbageSpec as Rules

__all__ = ["Rules", "show_rules", "card_list"]


def show_rules(rules, preset: str = "standard") -> RuleSet:
    """The show's rules of ``rules`` (a ``Rules``, a ``RuleSet``, or None for the standard
    game) under ``preset``: "standard", or "pysol" (the solitaires' crib, scored like a
    hand)."""
    if isinstance(rules, RuleSet):
        return rules
    rules = rules or Rules()
    return ruleset(
        preset,
        target=rules.target,
        jokers=rules.jokers,
        decks=rules.decks,
        wild_rank=rules.wild_rank,
    )


def card_list(cards, option: str | None = None) -> list[int]:
    """Cards as the API takes them (a string "5H 5S JD", a sequence of such strings, or of
    card codes) as a list of card codes; ``option`` names them in an error's line."""
    from cribsolve.core.notation import parse_cards

    if isinstance(cards, str):
        cards = [cards]
    out = []
    for c in cards:
        if isinstance(c, str):
            try:
                out += parse_cards([c])
            except CardError as e:
                raise CardError(f"{option}: {e}" if option else str(e)) from None
        else:
            out.append(int(c))
    return out
