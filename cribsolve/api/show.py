"""The show from Python: ``score`` (a hand, as ``cribsolve score``), ``distribution`` (the
exact histogram) and ``score_many`` (a numpy array of hands at once)."""

from __future__ import annotations

from math import comb

from cribsolve.api.results import Result
from cribsolve.api.rules import Rules, card_list, show_rules
from cribsolve.errors import CribsolveError

WILD_WORK_MAX = 6 * 10**7  # wild-card substitutions x cards: about 5 s of kernel time


class ScoreResult(Result):
    """A hand's show: its total, the points by category (and his heels, the dealer's, not
    part of the total), the cards scored (wild cards as their best stand-ins) and the
    starters; ``items`` says each scoring combination aloud (hands of up to 9 held cards)."""

    FIELDS = ("total", "breakdown", "cards", "starters")
    TABLE = "items"

    @property
    def rows(self) -> list[dict]:
        """Each scoring combination: its category, points and cards."""
        return [
            {"category": cat, "points": pts, "cards": cards}
            for cat, pts, cards in self._extra["items"]
        ]


class DistributionResult(Result):
    """The exact histogram of the show score over every four cards and a starter."""

    FIELDS = ("counts", "hands", "mean", "std")
    TABLE = "counts"

    @property
    def rows(self) -> list[dict]:
        """score, count, probability: the rows of ``distribution --csv``."""
        n = self._data["hands"]
        return [
            {"score": int(s), "count": c, "probability": c / n}
            for s, c in self._data["counts"].items()
        ]


def score(
    cards=(),
    starter=(),
    *,
    crib: bool = False,
    rules: Rules | None = None,
    preset: str = "standard",
    whole_deck: bool = False,
) -> ScoreResult:
    """A hand at the show, as ``cribsolve score``.

    ``cards`` are the held cards and ``starter`` the cut card (two for the two-cut-cards
    game), each a string of cards or a sequence; ``crib=True`` scores a crib (the flush);
    ``rules`` the show's house rules (target, decks, jokers, wild rank); ``preset="pysol"``
    the solitaires' crib, scored like a hand; ``whole_deck=True`` every card in play.

    >>> import cribsolve as cs
    >>> s = cs.score("5H 5S 5C JD", "5D")
    >>> s.total, s.breakdown["fifteens"], s.breakdown["nobs"]
    (29, 16, 1)
    >>> w = cs.score("5H 5S 5C KD", "5D", rules=cs.Rules(wild_rank=13))  # a wild king
    >>> w.total, w.cards  # the king stands for a fifth five (RULES.md: even a copy)
    (40, ['5H', '5S', '5C', '5C'])
    """
    from cribsolve.core.notation import format_card, format_cards
    from cribsolve.core.scoring import score_hand

    show = show_rules(rules, preset)
    held, starters = _held_and_starters(cards, starter, whole_deck, show)
    show.check_cards(held + starters)
    check_score_size(held, starters, show)
    s = score_hand(held, starters, show, crib)
    return ScoreResult(
        {
            "total": s.total,
            "breakdown": s.breakdown,
            "cards": [format_card(c) for c in s.cards[: s.nheld]],
            "starters": [format_card(c) for c in s.cards[s.nheld :]],
        },
        items=[(cat, pts, format_cards(cs).split()) for cat, pts, cs in s.items],
        score=s,
        given=held + starters,
    )


def distribution(*, crib: bool = False, preset: str = "standard") -> DistributionResult:
    """The exact histogram of the show score over all 12,994,800 four-card hands and
    starters, as ``cribsolve distribution``.

    >>> import cribsolve as cs
    >>> d = cs.distribution()
    >>> round(d.mean, 4), d.rows[29]
    (4.7692, {'score': 29, 'count': 4, 'probability': 3.0781543386585404e-07})
    """
    import numpy as np

    from cribsolve.core.scoring.table import distribution as histogram

    hist = histogram(crib=crib, full_flush=show_rules(None, preset).crib_full_flush)
    n = int(hist.sum())
    scores = np.arange(len(hist))
    mean = float((scores * hist).sum() / n)
    std = float(np.sqrt(((scores - mean) ** 2 * hist).sum() / n))
    counts = {str(s): int(c) for s, c in zip(scores, hist)}
    return DistributionResult(
        {"counts": counts, "hands": n, "mean": mean, "std": std}, histogram=hist
    )


def _held_and_starters(cards, starters, whole_deck, show):
    """The held cards and the starters given (or the whole deck, no starter)."""
    if whole_deck:
        from cribsolve.core.cards import deck

        if len(cards) or len(starters):
            raise CribsolveError("--whole-deck scores the deck alone: give no cards or --starter")
        return deck(show.decks, show.jokers).tolist(), []
    held, cut = (
        card_list(cards),
        card_list(starters, "--starter"),
    )
    if not held:
        raise CribsolveError("give the held cards, e.g. cribsolve score 5H 5S JD QC --starter 5C")
    if not cut:
        raise CribsolveError("give the starter with --starter CARD (or use --whole-deck)")
    if len(cut) > 2:
        raise CribsolveError(
            f"{len(cut)} starters given: one, or two for the two-cut-cards variation"
        )
    return held, cut


def _check_wild_work(held, starters, rules) -> None:
    """Wild cards are tried one substitution at a time: refuse a hand with too many to try."""
    from cribsolve.core.cards import RANK

    wild = rules.wild_rank
    kh = sum(1 for c in held if wild and RANK[c] == wild)
    ks = sum(1 for c in starters if wild and RANK[c] == wild)
    n = len(held) + len(starters)
    if (kh or ks) and comb(12 + kh, kh) * 4 * 52**ks * (n + 4) > WILD_WORK_MAX:
        raise CribsolveError(
            f"--wild: {kh + ks} wild cards among {n} would take too long to "
            f"try every substitution (use fewer wild cards or a smaller hand)"
        )


def check_score_size(held, starters, rules) -> None:
    """Refuse a hand the show kernels cannot score exactly and soon.

    They count in 64-bit integers: past 2**63 (a whole deck of several decks, with jokers or a
    large target) they would wrap around and give a wrong total, so an upper bound of every
    count is worked out here in Python's unbounded integers first. Wild cards are tried one
    substitution at a time, so their number is bounded too.
    """
    from cribsolve.core.cards import RANK, VALUE

    _check_wild_work(held, starters, rules)
    cards = list(held) + list(starters)
    n = len(cards)
    if n <= 60:  # at most 2**60 subsets: every count fits
        return
    wild = rules.wild_rank
    counts = [0] * 14
    for c in cards:
        if not (wild and RANK[c] == wild):
            counts[int(RANK[c])] += 1
    kw = n - sum(counts)  # the wild cards
    t = rules.target
    ways = [1] + [0] * t  # subsets by value sum, each wild card taking any value
    factors = [(int(VALUE[r]), counts[r]) for r in range(14)] + [(None, 1)] * kw
    for v, k in factors:
        for _ in range(k):
            if v is None:
                ways = [sum(ways[max(0, s - 10) : s + 1]) for s in range(t + 1)]
            elif v == 0:
                ways = [2 * w for w in ways]
            else:
                ways = [ways[s] + (ways[s - v] if s >= v else 0) for s in range(t + 1)]
    runs = 14
    for r in range(14):
        runs *= max(1, counts[r] + kw)
    bound = 2 * max(ways) + runs + 3 * n * n
    if bound >= 2**63:
        raise CribsolveError(
            f"{n} cards under these rules score past what can be counted "
            f"exactly (2**63): use fewer --decks or --jokers, or a smaller "
            f"--target"
        )
