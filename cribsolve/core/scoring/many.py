"""The show scorer over numpy arrays of hands: ``score_many`` for code that holds its hands as
card codes, ``card_codes`` to write them from text.

Four held cards and one starter without wild cards go through the 5-card table (table.score5);
any other shape or wild cards through the general kernels (score_parts, best_wild). Each row's
cards are checked by the same kernel that scores it, so a bad code is never used as an index
and the check costs no pass of its own; a bad row is then worded by RuleSet.check_cards. The
kernels run on one thread: the table path scores tens of millions of hands a second there
(benchmarks/bench_score_many.py), and numba's parallel=True about doubled their compile.
"""

from __future__ import annotations

import numpy as np

from cribsolve.core.notation import JOKER, parse_cards
from cribsolve.core.rules import RuleSet
from cribsolve.core.scoring.kernels import best_wild, score_parts
from cribsolve.core.scoring.table import rank_table, score5
from cribsolve.errors import CardError, CribsolveError
from cribsolve.infra.jit import njit


def card_codes(cards) -> np.ndarray:
    """Card codes (int64) of text: ``"5H 5S JD"`` or ``["5H", "5S", "JD"]`` give shape (3,);
    hands, ``["5H 5S 5C JD", "2C 3C 4C 5C"]`` (or lists of card words), give one row each."""
    if isinstance(cards, str):
        return np.array(parse_cards([cards]), dtype=np.int64)
    if not _listed(cards) or not all(isinstance(c, str) or _words(c) for c in cards):
        raise CardError("card_codes takes card text: '5H 5S JD', or a list of such strings")
    rows = [parse_cards([c] if isinstance(c, str) else c) for c in cards]
    if all(isinstance(c, str) and len(r) == 1 for c, r in zip(cards, rows)):
        return np.array([r[0] for r in rows], dtype=np.int64)
    sizes = sorted({len(r) for r in rows})
    if len(sizes) > 1:
        raise CardError(f"hands of {sizes[0]} and {sizes[-1]} cards given: rows must be one size")
    return np.array(rows, dtype=np.int64).reshape(len(rows), -1)


def _listed(x) -> bool:
    return isinstance(x, (list, tuple, np.ndarray))


def _words(row) -> bool:
    """Whether ``row`` lists strings only (one hand's card words)."""
    return _listed(row) and all(isinstance(w, str) for w in row)


@njit(cache=True)
def misfit(cards, decks, jokers):
    """Whether ``cards`` (an array or a tuple) hold a code that is no card, or more copies of a
    card than ``decks`` (a joker: ``jokers``) allow."""
    k = len(cards)
    for x in range(k):
        c = cards[x]
        if c < 0 or c > JOKER:
            return True
        copies = 1
        for y in range(x + 1, k):
            if cards[y] == c:
                copies += 1
        if copies > (jokers if c == JOKER else decks):
            return True
    return False


@njit(cache=True)
def score_4_1(table, held, starters, full_flush, decks, jokers):
    """Totals of (n, 4) held cards with (n,) starters by the table; -1 for a row misfit refuses."""
    n = held.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        a, b, c, d, s = held[i, 0], held[i, 1], held[i, 2], held[i, 3], starters[i]
        if misfit((a, b, c, d, s), decks, jokers):
            out[i] = -1
        else:
            out[i] = score5(table, a, b, c, d, s, full_flush)
    return out


@njit(cache=True)
def score_rows(cards, nheld, target, full_flush, wild_rank, decks, jokers):
    """Totals of the rows of ``cards`` (nheld held cards, then the starters) by the general
    kernels, wild cards at their best; -1 for a row misfit refuses."""
    n = cards.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        row = cards[i]
        if misfit(row, decks, jokers):
            out[i] = -1
        elif wild_rank:
            out[i] = best_wild(row, nheld, target, full_flush, wild_rank, row.copy())
        else:
            out[i] = score_parts(row, nheld, target, full_flush, np.zeros(5, dtype=np.int64))
    return out


def score_many(hands, starters, *, crib: bool = False, rules=None) -> np.ndarray:
    """Show totals (heels apart) of many hands at once, as int64 of shape (n,).

    ``hands``: card codes, (n, held) or one hand (held,); ``starters``: (n,) or (n, k) for k
    cut cards (one hand: a code or (k,)). ``rules``: None for the standard show, a RuleSet, or
    anything whose ``.rules()`` gives one (a game's spec). ``crib`` applies the crib flush rule
    of those rules. Raises CardError naming the first row (from 0) whose cards are not a hand
    the deck in play could deal.
    """
    rules = _ruleset(rules)
    held = _codes(hands, "hands")
    one = held.ndim == 1
    if one:
        held = held.reshape(1, -1)
    if held.ndim != 2 or held.shape[1] == 0:
        raise CribsolveError(
            f"hands must have shape (n, held cards) or (held cards,), not {held.shape}"
        )
    cut = _codes(starters, "starters")
    if one and cut.ndim < 2:
        cut = cut.reshape(1, -1)
    elif cut.ndim == 1:
        cut = cut.reshape(-1, 1)
    if cut.ndim != 2 or cut.shape[0] != held.shape[0]:
        raise CribsolveError(
            f"starters of shape {np.shape(starters)} do not fit hands of shape "
            f"{np.shape(hands)}: give one starter per hand, (n,), or (n, k) for k cut cards"
        )
    full = rules.full_flush(crib)
    if rules.is_plain and held.shape[1] == 4 and cut.shape[1] == 1:
        table = rank_table(rules.target)
        out = score_4_1(table, held, cut.reshape(-1), full, rules.decks, rules.jokers)
    else:
        cards = np.concatenate([held, cut], axis=1)
        out = score_rows(
            cards, held.shape[1], rules.target, full, rules.wild_rank, rules.decks, rules.jokers
        )
    if len(out) and out.min() < 0:
        i = int(np.argmax(out < 0))
        _refuse(i, np.concatenate([held[i], cut[i]]), rules)
    return out


def _ruleset(rules) -> RuleSet:
    if rules is None:
        return RuleSet()
    if not isinstance(rules, RuleSet) and callable(getattr(rules, "rules", None)):
        rules = rules.rules()
    if not isinstance(rules, RuleSet):
        raise CribsolveError(
            f"rules must be a RuleSet or have a .rules() giving one, not {type(rules).__name__}"
        )
    return rules


def _codes(cards, name: str) -> np.ndarray:
    """``cards`` as a C-contiguous int64 array (the one type the kernels are compiled for)."""
    a = np.asarray(cards)
    if a.dtype.kind not in "iu":
        raise CribsolveError(
            f"{name} must be integer card codes, not {a.dtype} (card_codes('5H 5S ...') reads text)"
        )
    return np.asarray(a, dtype=np.int64, order="C")


def _refuse(i: int, row: np.ndarray, rules: RuleSet) -> None:
    """Raise CardError for row ``i``, which a kernel found misfit: a code that is no card, or
    a card given more often than the deck holds it."""
    for c in row.tolist():
        if not 0 <= c <= JOKER:
            raise CardError(
                f"row {i}: {c} is not a card code (0-51: (rank - 1) * 4 + suit; 52: a joker)"
            )
    try:
        rules.check_cards(row)
    except CardError as e:
        raise CardError(f"row {i}: {e}") from None
