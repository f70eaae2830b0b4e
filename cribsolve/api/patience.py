"""``best_discard`` for the solitaires (Cribbage Patience and Patience II): every check is made
before the win table (built once) or the sampling starts; then each discard's expected points
of the deal (exact, or sampled for Patience II's first discard), and with ``score`` and
``deal`` its P(win)."""

from __future__ import annotations

from cribsolve.api.checks import bad, check_unseen, no_jokers, option_cards
from cribsolve.api.rules import card_list
from cribsolve.api.tables import win_tables
from cribsolve.errors import CribsolveError

HANDS_PER_DEAL = {"patience": 2, "patience2": 3}  # docs/RULES.md §4: the crib included


def patience_discard(
    cards,
    variant: str,
    *,
    seen,
    crib_cards,
    kept,
    score,
    deal,
    pysol_game,
    samples,
    seed,
    top,
    distribution,
    progress,
) -> tuple[dict, dict]:
    """The discards of a solitaire's hand, best first: the ``--json`` object and what the
    text needs besides (the hand, every value, whether they are sampled)."""
    from cribsolve.games.solitaire.discard import solitaire_discard
    from cribsolve.games.solitaire.facts import SOLITAIRES

    if pysol_game is not None:
        cards, seen, kept, deal = _pysol_position(
            cards, variant, pysol_game, deal, crib_cards, score
        )
    hand, seen, crib, kept, sampled = _checked(
        cards, variant, SOLITAIRES[variant].deals, seen, crib_cards, kept, score, deal
    )
    if score is not None:
        win_tables(variant, progress)
    values = solitaire_discard(hand, variant, seen, crib, kept, score, deal, seed, samples)
    shown = values[:top] if top else values
    discards = [v.as_dict() if sampled else v.as_dict(distribution) for v in shown]
    return {"discards": discards}, {"hand": hand, "values": values, "sampled": sampled}


def _pysol_position(cards, variant, game, deal, crib_cards, score):
    """(hand, seen, kept, deal) of a PySolFC game's decision: its hand, the earlier deals
    seen, the rest of the first hand kept; the deal counts for P(win) only with a score."""
    from cribsolve.games.solitaire.pysol import discard_position, parse_game

    if cards:
        raise CribsolveError("--pysol-game deals the hand: give no cards")
    hand, seen, kept = discard_position(
        variant,
        parse_game(game) if isinstance(game, (str, int)) else game,
        deal or 1,
        option_cards(crib_cards, "--crib-cards") if crib_cards else None,
    )
    return hand, seen or None, kept or None, deal if score is not None else None


def _checked(cards, variant, deals, seen, crib_cards, kept, score, deal):
    """The hand, seen, crib and kept cards, and whether the analysis is sampled, once every
    argument has been checked against the others."""
    if (score is None) != (deal is None):
        raise CribsolveError(
            "--score and --deal go together: the points so far and this deal's number"
        )
    if deal is not None and deal > deals:
        raise bad("--deal", f"{deal} is not a deal of {variant}: give 1 to {deals}")
    if score is not None:
        hands = HANDS_PER_DEAL[variant]
        most = (deal - 1) * (29 * hands + 2)
        if score > most:
            raise bad(
                "--score",
                f"{score} points cannot be made before deal "
                f"{deal}: at most {most} ({hands} hands of at most "
                f"29 and heels 2 a deal)",
            )
    hand = card_list(cards)
    seen_cards, crib, kept_cards = (
        option_cards(seen, "--seen"),
        option_cards(crib_cards, "--crib-cards"),
        option_cards(kept, "--kept"),
    )
    if crib_cards is not None and len(crib) != 2:
        raise bad("--crib-cards", f"give the two cards already in the crib, not {len(crib)}")
    if kept is not None and len(kept_cards) != 4:
        raise bad("--kept", f"give the four cards kept from the first hand, not {len(kept_cards)}")
    if score is not None and crib_cards is not None and kept is None:
        raise CribsolveError(
            "with --score, the second discard needs --kept (the first "
            "hand's four kept cards: they score with the same starter)"
        )
    from cribsolve.core.hand_options import check_hand

    others = seen_cards + crib + kept_cards
    no_jokers(hand + others, variant)
    check_hand(hand, others, sizes=(6,))
    sampled = variant == "patience2" and crib_cards is None
    if sampled:
        need, what = 7, "a second hand and the starter"
    elif variant == "patience":
        need, what = 3, "the face-down pair and the starter"
    else:
        need, what = 1, "the starter"
    check_unseen(len(hand + others), need, what, "--seen")
    return hand, seen_cards, crib, kept_cards, sampled
