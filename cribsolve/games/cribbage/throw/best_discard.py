"""Best discard in cribbage, for ``best-discard`` and the review: every throw ranked, exact over
the unseen cards for the standard show (two players, or one card to the crib with three or
four), sampled by the throw engine (values.py) under house rules; and draw and bid cribbage's
advice (docs/throwing.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from cribsolve.core.expect import WIDTH
from cribsolve.core.hand_options import (
    DiscardValue,
    check_hand,
    discard_options,
    summarize,
    unseen_cards,
)
from cribsolve.core.notation import format_card
from cribsolve.core.rules import RuleSet, ruleset
from cribsolve.core.scoring.table import rank_table
from cribsolve.errors import CardError, CribsolveError

SEATS = ("dealer", "pone")


def _analyze_many(hands, seat, weights, rules, known=()):
    """Exact values of every discard of each hand (all of one size), hands spread over threads,
    by the grouped kernel (one deck, no jokers)."""
    from cribsolve.core.expect import hands_distribution

    sign = 1 if seat == "dealer" else -1
    opts = [discard_options(h, len(h) - 4) for h in hands]
    keeps = np.array([k for k, _ in opts])
    discs = np.array([d for _, d in opts])
    unseen = np.array([unseen_cards(list(h) + list(known)) for h in hands])
    hists = np.zeros(keeps.shape[:2] + (WIDTH,))
    means = np.zeros(keeps.shape[:2] + (2,))
    hands_distribution(
        keeps,
        discs,
        unseen,
        sign,
        weights,
        rank_table(rules.target),
        rules.crib_full_flush,
        hists,
        means,
    )
    return [summarize(keeps[i], discs[i], hists[i], means[i]) for i in range(len(hands))]


def _setup(seat, opponent, rules):
    from cribsolve.games.cribbage.throw.crib_model import pair_weights

    rules = rules or ruleset("standard")
    if seat not in SEATS:
        raise CribsolveError(f"seat must be dealer or pone, not {seat!r}")
    if rules.wild_rank:
        raise CribsolveError(
            "discards with wild cards are sampled: sampled_discard, or "
            "cribsolve best-discard --wild"
        )
    return rules, pair_weights(opponent, "pone" if seat == "dealer" else "dealer", rules)


def exact_show(spec) -> bool:
    """Whether a deal under ``spec`` is the standard one as the show sees it (six cards, two
    each to a crib of four, one cut card, one deck, no wild cards, more points better), so
    best_discard values its throws exactly; the peg limit, the stink hole and the game length
    change only the play and the board."""
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    show = (
        "target",
        "lowball",
        "decks",
        "jokers",
        "hand_size",
        "crib_size",
        "starters",
        "wild_rank",
        "draw",
        "choose_cut",
        "two_cribs",
        "bid",
    )
    return all(getattr(spec, f) == getattr(CribbageSpec, f) for f in show)


def best_discard(
    hand, seat: str = "dealer", known=(), opponent: str = "optimal", rules: RuleSet | None = None
) -> list[DiscardValue]:
    """Every discard of a 6-card (2 to the crib) or 5-card (1 to the crib) hand, best first.

    Exact over every starter and every set of other crib cards among the unseen cards of the
    rules' deck (its target sum, decks and jokers). With 6 cards the opponent's two crib cards
    are weighted by ``opponent`` ('uniform' or 'optimal', see crib_model.py); with 5 cards the
    other three crib cards are uniform. Compiled, the grouped kernel answers; as plain Python
    (a single answer at the command line) or with jokers or several decks, the card-by-card
    numpy engine does (docs/performance.md). Tests hold the two equal.
    """
    from cribsolve.core.cardwise import options_distribution_np
    from cribsolve.infra.jit import in_python

    hand = [int(c) for c in hand]
    rules, weights = _setup(seat, opponent, rules)
    check_hand(hand, known, rules=rules)
    if not in_python() and rules.decks == 1 and not rules.jokers:
        return _analyze_many([hand], seat, weights, rules, known)[0]  # compiled: ~1 ms
    keeps, discs = discard_options(hand, len(hand) - 4)
    hists, means = options_distribution_np(
        keeps,
        discs,
        unseen_cards(hand + list(known), rules),
        1 if seat == "dealer" else -1,
        weights,
        rank_table(rules.target),
        rules.crib_full_flush,
    )
    return summarize(keeps, discs, hists, means)


def best_discard_batch(
    hands,
    seat: str,
    opponent: str = "optimal",
    rules: RuleSet | None = None,
    chunk: int = 512,
    progress=None,
) -> list[list[DiscardValue]]:
    """best_discard for many hands, in order; ``progress(n)`` after each chunk of n hands.
    The grouped kernel behind it knows one deck without jokers."""
    hands = [[int(c) for c in h] for h in hands]
    rules, weights = _setup(seat, opponent, rules)
    if rules.decks != 1 or rules.jokers:
        raise CribsolveError(
            "batch analysis is for one deck without jokers; analyse such hands one at a time"
        )
    for h in hands:
        check_hand(h, ())
    out = []
    for start in range(0, len(hands), chunk):
        part = hands[start : start + chunk]
        for size in sorted({len(h) for h in part}):
            idx = [i for i, h in enumerate(part) if len(h) == size]
            res = _analyze_many([part[i] for i in idx], seat, weights, rules)
            out.extend(zip([start + i for i in idx], res))
        if progress:
            progress(len(part))
    return [r for _, r in sorted(out, key=lambda t: t[0])]


@dataclass
class ThrowEstimate:
    """One choice under a house-rule deal: the hand exact, the cribs (and the card given under
    choose-a-cut) estimated from draws."""

    discard: list[int]  # to the crib (under two cribs: to one's own crib)
    keep: list[int]
    hand: float  # expected points of the kept hand, exact over the unknown cut card
    crib: float  # expected points of that crib, mean over the draws
    net: float  # hand +/- crib (- the opponent's crib, - what the card given is worth)
    se: float  # standard error of net (from the draws)
    samples: int
    other_crib: list[int] | None = None  # two cribs: to the opponent's crib
    their_crib: float | None = None  # ... and its expected points
    give: int | None = None  # choose-a-cut: the card given as the opponent's cut
    gift: float | None = None  # ... and the opponent's expected hand with it

    def as_dict(self):
        d = {
            "discard": [format_card(c) for c in self.discard],
            "keep": [format_card(c) for c in self.keep],
            "hand": self.hand,
            "crib": self.crib,
            "net": self.net,
            "se": self.se,
            "samples": self.samples,
        }
        if self.other_crib is not None:
            d.update(
                other_crib=[format_card(c) for c in self.other_crib], their_crib=self.their_crib
            )
        if self.give is not None:
            d.update(give=format_card(self.give), gift=self.gift)
        return d


def sampled_discard(
    hand, seat: str, spec, known=(), cut: int | None = None, samples: int = 2000, seed: int = 0
) -> list[ThrowEstimate]:
    """Every choice of a two-player hand under ``spec`` (any hand and crib size, a first cut
    card ``cut`` known before the throw when the spec has two, wild cards, two cribs, the card
    given under choose-a-cut), best expected net first, valued by the engine the simulated
    players use (values.py). The hand is exact over the unknown cut card; the cribs
    and the card given are averaged over ``samples`` draws of the opponent's cards and the
    cut card, the same draws for every choice, so the differences between choices are
    sharper than each standard error says. The opponent's cards are uniform among the unseen
    ones. ``seat`` is whose crib it is (under two cribs each has one)."""
    from cribsolve.games.cribbage.rules.pegging import seed_kernels
    from cribsolve.games.cribbage.throw.values import (
        crib_draws,
        deal_options,
        option_parts,
        option_values,
    )

    if seat not in SEATS:
        raise CribsolveError(f"seat must be dealer or pone, not {seat!r}")
    hand = [int(c) for c in hand]
    if len(hand) != spec.hand_size:
        raise CardError(f"give {spec.hand_size} cards, not {len(hand)}")
    if (cut is None) != (spec.starters == 1):
        raise CribsolveError(
            "with two cut cards give the first one (--starter CARD); with one, none"
        )
    seen = hand + list(known) + ([] if cut is None else [int(cut)])
    rules = spec.rules()
    rules.check_cards(seen)
    unseen = unseen_cards(seen, rules)
    t = spec.crib_size // 2
    width = t * (1 + spec.two_cribs) + spec.choose_cut * (1 + spec.kept)
    if len(unseen) < width + 1:
        raise CardError(
            f"only {len(unseen)} cards are unseen: too few for the opponent's "
            "cards and the cut card"
        )
    pr = spec.as_array()
    keep_idx, disc_idx = deal_options(len(hand), pr)
    own = 1 if seat == "dealer" or spec.two_cribs else 0
    seed_kernels(seed)
    parts = option_parts(
        np.array(hand, dtype=np.int64),
        keep_idx,
        disc_idx,
        unseen,
        -1 if cut is None else int(cut),
        own,
        rank_table(spec.target),
        pr,
        crib_draws(unseen, width, samples),
    )
    net = option_values(parts, replace(spec, lowball=False).as_array())
    se = np.sqrt(np.maximum(parts[:, 5] - parts[:, 4] ** 2, 0) / max(samples - 1, 1))
    h = np.array(hand)
    out = []
    for o in range(len(keep_idx)):
        d = disc_idx[o]
        out.append(
            ThrowEstimate(
                h[d[:t]].tolist(),
                h[keep_idx[o]].tolist(),
                float(parts[o, 0]),
                float(parts[o, 1]),
                float(net[o]),
                float(se[o]),
                samples,
                h[d[t : 2 * t]].tolist() if spec.two_cribs else None,
                float(parts[o, 2]) if spec.two_cribs else None,
                int(h[d[-1]]) if spec.choose_cut else None,
                float(parts[o, 3]) if spec.choose_cut else None,
            )
        )
    return sorted(out, key=lambda v: -v.net if not spec.lowball else v.net)


def _engine_inputs(hand, spec, known, cut):
    """(hand array, seen counts, first cut card, table, pr) for the values.py kernels."""
    seen = list(hand) + list(known) + ([] if cut is None else [int(cut)])
    spec.rules().check_cards(seen)
    return (
        np.array(hand, dtype=np.int64),
        np.bincount(np.array(seen, dtype=np.int64), minlength=53),
        -1 if cut is None else int(cut),
        rank_table(spec.target),
        spec.as_array(),
    )


def bid_ceiling(hand, spec, known=(), cut: int | None = None, seed: int = 0) -> int:
    """Bid cribbage: the highest bid this hand would make for the crib against a standing
    bid one lower (draw_and_bid.auction's rule; 0: it would not bid at all)."""
    from cribsolve.games.cribbage.rules.pegging import seed_kernels
    from cribsolve.games.cribbage.throw.draw_and_bid import BID_MAX, bid_limits, wants
    from cribsolve.games.cribbage.throw.values import deal_options

    dealt, seen, first, table, pr = _engine_inputs(hand, spec, known, cut)
    keep_idx, disc_idx = deal_options(len(hand), pr)
    seed_kernels(seed)
    h, samples = bid_limits(dealt, table, pr, keep_idx, disc_idx, first, seen)
    b = 0
    while b < BID_MAX and wants(b + 1, h, samples, b):
        b += 1
    return b


def redraw_advice(
    hand, seat: str, spec, known=(), cut: int | None = None, seed: int = 0
) -> list[int]:
    """Draw cribbage: the cards the simulated player would throw away and redraw before the
    throw (draw_and_bid.redraw; empty to keep them all)."""
    from cribsolve.games.cribbage.rules.pegging import seed_kernels
    from cribsolve.games.cribbage.throw.draw_and_bid import redraw

    dealt, seen, first, table, pr = _engine_inputs(hand, spec, known, cut)
    seed_kernels(seed)
    own = 1 if seat == "dealer" or spec.two_cribs else 0
    mask = redraw(dealt, True, own, table, pr, first, seen, len(hand) - 1)
    return [c for i, c in enumerate(hand) if mask >> i & 1]
