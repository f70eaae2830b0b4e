"""Throwing to the crib from Python: ``best_discard`` ranks every discard of a hand, as
``cribsolve best-discard`` does (exact for the standard deals, sampled for other house-rule
deals, by P(win) at the scores, the solitaires' own), and ``crib_table`` gives the expected
crib of every two-card throw, as ``cribsolve crib-table``."""

from __future__ import annotations

from dataclasses import replace

from cribsolve.api.checks import card, check_unseen, option_cards, three_board
from cribsolve.api.results import Result
from cribsolve.api.rules import Rules, card_list, show_rules
from cribsolve.api.tables import crib_table_rows, odds_table, opponent_model, three_odds_table
from cribsolve.errors import CribsolveError

WHOSE_CRIB = "say whose crib it is: --dealer or --pone"
CRIB_TABLE = ("rank1", "rank2", "suited", "crib")


class DiscardResult(Result):
    """Every discard of a hand, best first: ``discards``, the table. The scores' analyses add
    the board (``my_score`` and ``their_score``, or three players' ``scores`` and
    ``dealer_player``), ``samples``, ``seed`` and ``objective``; a sampled house-rule deal says
    ``sampled``, with its ``redraw`` or ``bid_ceiling`` where the rules have them."""

    FIELDS = (
        "discards",
        "sampled",
        "redraw",
        "bid_ceiling",
        "my_score",
        "their_score",
        "scores",
        "dealer_player",
        "samples",
        "seed",
        "objective",
    )
    TABLE = "discards"


class CribTableResult(Result):
    """The expected crib of every two-card discard (``rows``: its ranks, suited or not, and
    the crib's points), ``seat``'s discard with the other's weighed by ``opponent``."""

    FIELDS = ("seat", "opponent", "rows")
    TABLE = "rows"


def discard_analysis(
    cards=(),
    rules: Rules | None = None,
    *,
    variant: str = "cribbage",
    starter=None,
    my_score: int | None = None,
    their_score: int | None = None,
    scores=None,
    dealer_player: int | None = None,
    sampled: bool = False,
) -> str:
    """Which analysis ``best_discard`` makes of these arguments: "solitaire"; "board3" or
    "board", P(win) at three players' or two sides' scores; "table", three or four players;
    "sampled", a house-rule deal; or "exact", the standard deals (the command line refuses
    the options the one picked does not take)."""
    if variant != "cribbage":
        return "solitaire"
    if (my_score is None) != (their_score is None):
        raise CribsolveError("give both --my-score and --their-score")
    if scores is not None or dealer_player is not None:
        return "board3"
    if my_score is not None:
        return "board"
    rules = rules or Rules()
    if rules.players > 2 or rules.partners:
        return "table"
    house = (
        rules.starters > 1,
        rules.wild_rank,
        rules.lowball,
        rules.crib_size != 4,
        rules.draw,
        rules.choose_cut,
        rules.two_cribs,
        rules.bid,
        rules.five_card,
    )
    if sampled or starter is not None or any(house) or len(card_list(cards)) not in (0, 5, 6):
        return "sampled"
    return "exact"


def best_discard(
    cards=(),
    dealer: bool | None = None,
    *,
    variant: str = "cribbage",
    rules: Rules | None = None,
    seen=None,
    throw_model: str | None = None,
    starter=None,
    top: int | None = None,
    distribution: bool = False,
    pegging: bool = False,
    my_score: int | None = None,
    their_score: int | None = None,
    scores=None,
    dealer_player: int | None = None,
    objective: str = "win",
    samples: int = 2000,
    seed: int = 0,
    crib_cards=None,
    kept=None,
    score: int | None = None,
    deal: int | None = None,
    pysol_game=None,
    sampled: bool = False,
    progress=False,
) -> DiscardResult:
    """Every discard of a hand, best first:
    ``cs.best_discard("5H 5S JD 6C 7C KH", dealer=True).discards[0]["discard"]`` is
    ["6C", "7C"].

    Two-player (``variant="cribbage"``, ``dealer`` True for your crib, False for theirs):
    exact over every starter and the opponent's throw (``throw_model``: "optimal", or
    "uniform"; the default is optimal, uniform with jokers or several decks) for the standard
    deals of 6 cards or 5; ``pegging=True`` adds the kept cards' pegging margin. Other house
    rules (``rules``: a ``Rules``; ``starter``, the first of two cut cards) are sampled over
    ``samples`` draws from ``seed``, as is any deal with ``sampled=True``; three or four
    players, or partners, are exact with the other crib cards uniform. ``my_score`` and
    ``their_score`` (or three players' ``scores`` "A,B,C" and ``dealer_player``) rank by
    P(win) of the game (``objective="game-points"``: by expected game points). The solitaires
    (``variant`` "patience" or "patience2") take ``crib_cards``, ``kept``, ``score`` and
    ``deal`` (P(win)), ``pysol_game``. ``seen``: other cards seen; ``top``: the best N;
    ``distribution=True``: each net value's probability (the exact analyses);
    ``progress=True``: a bar while a table is built once (or a callable giving the caller's
    own, results.progress_bar). Arguments an analysis does not take are not used (the command
    line refuses them).
    """
    kind = discard_analysis(
        cards,
        rules,
        variant=variant,
        starter=starter,
        my_score=my_score,
        their_score=their_score,
        scores=scores,
        dealer_player=dealer_player,
        sampled=sampled,
    )
    if kind == "solitaire":
        from cribsolve.api.patience import patience_discard

        data, extra = patience_discard(
            cards,
            variant,
            seen=seen,
            crib_cards=crib_cards,
            kept=kept,
            score=score,
            deal=deal,
            pysol_game=pysol_game,
            samples=samples,
            seed=seed,
            top=top,
            distribution=distribution,
            progress=progress,
        )
        return DiscardResult(data, **extra)
    hand = card_list(cards)
    rules = rules or Rules()
    if hand:
        rules = replace(rules, hand_size=len(hand))
    if kind == "board3":
        seat, board, players = three_board(scores, dealer_player, rules, "two sides")
        rows = _board3(hand, seat, board, rules, seen, samples, seed, progress)
        return DiscardResult(
            {
                "scores": players,
                "dealer_player": dealer_player,
                **_board_json(rows, top, samples, seed, objective),
            },
            hand=hand,
            values=rows,
            rules=rules,
            seat=seat,
        )
    if kind == "board":
        if dealer is None:
            raise CribsolveError(WHOSE_CRIB)
        rows = _board(
            hand, dealer, rules, seen, my_score, their_score, objective, samples, seed, progress
        )
        return DiscardResult(
            {
                "my_score": my_score,
                "their_score": their_score,
                **_board_json(rows, top, samples, seed, objective),
            },
            hand=hand,
            values=rows,
            rules=rules,
        )
    if kind == "sampled":
        return _sampled(hand, dealer, rules, seen, starter, top, samples, seed)
    if kind == "table":
        return _table(hand, dealer, rules, seen, top, distribution)
    return _exact(hand, dealer, rules, seen, throw_model, pegging, top, distribution, progress)


def throw_model_of(throw_model: str | None, rules) -> str:
    """The opponent's throw model: the one asked for, else optimal where it was fitted (one
    deck without jokers), uniform elsewhere."""
    return throw_model or ("uniform" if rules.jokers or rules.decks > 1 else "optimal")


def _exact(hand, dealer, rules, seen, throw_model, pegging, top, distribution, progress):
    """The standard deals: exact over every starter and the opponent's throw."""
    if dealer is None:
        raise CribsolveError(WHOSE_CRIB)
    show = show_rules(rules)
    opponent = throw_model_of(throw_model, show)
    values = _exact_values(hand, dealer, seen, opponent, show, 9 - len(hand), progress)
    pegs = _pegging(hand, dealer, show, values) if pegging else {}
    if pegs:
        values = sorted(values, key=lambda v: -(v.net + pegs[id(v)]))
    discards = [
        {
            **v.as_dict(distribution),
            **({"pegging": pegs[id(v)], "value": v.net + pegs[id(v)]} if pegs else {}),
        }
        for v in _top(values, top)
    ]
    return DiscardResult(
        {"discards": discards},
        hand=hand,
        values=values,
        rules=rules,
        pegs=pegs,
        against=f"opponent {opponent}",
    )


def _table(hand, dealer, rules, seen, top, distribution):
    """Three or four players, or partners: a hand of 5, one card to the crib, exact over
    every starter and every three other crib cards (the others' throws and, with three
    players, the deck's card: uniform over the unseen cards)."""
    if len(hand) != 5:
        raise CribsolveError(
            f"with {rules.players} players a hand is 5 cards, one to the crib, not {len(hand)}"
        )
    if rules.lowball or rules.wild_rank:
        raise CribsolveError(
            f"--players {rules.players}: the exact analysis is for more points, without wild cards"
        )
    if dealer is None:
        raise CribsolveError(
            "say whose crib it is: --dealer (yours, or with partners your "
            "partner's) or --pone (another player's)"
        )
    values = _exact_values(hand, dealer, seen, "uniform", show_rules(rules), 4, False)
    return DiscardResult(
        {"discards": [v.as_dict(distribution) for v in _top(values, top)]},
        hand=hand,
        values=values,
        rules=rules,
        pegs={},
        against=f"{rules.describe()}, the other crib cards uniform",
    )


def _exact_values(hand, dealer, seen, opponent, show, need, progress):
    """The exact analysis, once the hand and the seen cards leave ``need`` cards to deal."""
    from cribsolve.core.hand_options import check_hand
    from cribsolve.games.cribbage.throw.best_discard import best_discard as exact_discard

    known = option_cards(seen, "--seen")
    check_hand(hand, known, rules=show)
    check_unseen(
        len(hand) + len(known),
        need,
        "the starter and the other crib cards",
        "--seen",
        52 * show.decks + show.jokers,
    )
    seat = "dealer" if dealer else "pone"
    if opponent == "optimal":
        opponent_model(opponent, seat, show, progress)
    return exact_discard(hand, seat, known, opponent, show)


def _pegging(hand, dealer, show, values) -> dict:
    """The expert's expected pegging margin of each discard's kept cards."""
    if len(hand) != 6 or show.target != 15 or show.jokers or show.decks > 1:
        raise CribsolveError("--pegging is for the standard six-card deal")
    from cribsolve.games.cribbage.players.pegtable import kept_margin

    return {id(v): kept_margin(v.keep, dealer, Rules()) for v in values}


def _sampled(hand, dealer, rules, seen, starter, top, samples, seed):
    """A house-rule deal: each discard's points sampled over the opponent's cards and the
    cut; --starter is the first of two cut cards."""
    from cribsolve.games.cribbage.throw.best_discard import (
        bid_ceiling,
        redraw_advice,
        sampled_discard,
    )

    spec = replace(
        rules, hand_size=len(hand), starters=2 if starter is not None else rules.starters
    )
    if dealer is None and not spec.two_cribs:
        raise CribsolveError(WHOSE_CRIB + " (with --bid: who would own it)" * spec.bid)
    seat = "dealer" if dealer or spec.two_cribs else "pone"
    known = option_cards(seen, "--seen")
    cut = None if starter is None else card(starter, "--starter")
    values = _top(sampled_discard(hand, seat, spec, known, cut, samples, seed), top)
    extra = {}
    if spec.draw:
        from cribsolve.core.notation import format_cards

        extra["redraw"] = format_cards(redraw_advice(hand, seat, spec, known, cut, seed))
    if spec.bid:
        extra["bid_ceiling"] = bid_ceiling(hand, spec, known, cut, seed)
    return DiscardResult(
        {"sampled": True, **extra, "discards": [v.as_dict() for v in values]},
        hand=hand,
        values=values,
        rules=spec,
        seat=seat,
        cut=cut,
    )


def _board(hand, dealer, rules, seen, my_score, their_score, objective, samples, seed, progress):
    """Each throw's P(win) (or game points) at two sides' scores, its deals played out."""
    from cribsolve.games.cribbage.deals.win_choices import check_board, throw_odds

    check_board(rules, my_score, their_score, objective)
    odds_table(rules, objective, progress)
    known = option_cards(seen, "--seen")
    return throw_odds(hand, dealer, my_score, their_score, rules, known, samples, seed, objective)


def _board3(hand, seat, board, rules, seen, samples, seed, progress):
    """Each throw's P(win) at three players' scores, its deals played out."""
    from cribsolve.games.cribbage.deals.three_choices import check_board3, throw_odds3

    check_board3(rules, board)
    three_odds_table(rules, progress)
    return throw_odds3(hand, seat, board, rules, option_cards(seen, "--seen"), samples, seed)


def _board_json(rows, top, samples, seed, objective) -> dict:
    return {
        "samples": samples,
        "seed": seed,
        "objective": objective,
        "discards": [r.as_dict() for r in _top(rows, top)],
    }


def _top(values, top):
    """The rows ``top`` lets through (all without it)."""
    return values[:top] if top else values


def crib_table(
    dealer: bool | None, *, throw_model: str = "optimal", progress=False
) -> CribTableResult:
    """The expected crib points of every two-card discard by ranks, suited and offsuit:
    ``dealer`` True for the dealer's discards, False for the pone's; the other player's two
    cards weighed by ``throw_model`` ("optimal" or "uniform"); ``progress=True``: a bar
    while the optimal model is solved once."""
    if dealer is None:
        raise CribsolveError("say whose discards: --dealer or --pone")
    seat = "dealer" if dealer else "pone"
    rows = crib_table_rows(seat, throw_model, show_rules(None), progress)
    return CribTableResult(
        {"seat": seat, "opponent": throw_model, "rows": [dict(zip(CRIB_TABLE, r)) for r in rows]}
    )
