"""Draw cribbage, choose-a-cut, two cribs and bidding for the crib: whole deals against a plain
Python walk through the rules (the slow scorer, the cards moved by hand), the choices' pieces
against hand-worked values, and whole games ending as the spec says."""

import numpy as np
import pytest
from slow_scorer import slow_score

from cribsolve.core.scoring.table import rank_table
from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.deals import deal
from cribsolve.games.cribbage.deals import game as tp
from cribsolve.games.cribbage.players.first_cards import NO_MEMO
from cribsolve.games.cribbage.players.inference import NO_MODEL
from cribsolve.games.cribbage.players.policies import GREEDY, RANDOM, play
from cribsolve.games.cribbage.rules.pegging import MAX_EVENTS, seed_kernels
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw import draw_and_bid, values

JACK = 11


def points(held, cuts, crib=False):
    return sum(slow_score(held, cuts, 15, crib).values())


def reference_deal(deck, spec):
    """The deal as docs/RULES.md tells it, the choices asked of the same policy kernels in the
    same order (so the same random draws); returns (parts, every card that left the deck)."""
    pr, table = spec.as_array(), rank_table(spec.target)
    h, t, k = spec.hand_size, spec.crib_size // 2, spec.kept
    deck = [int(c) for c in deck]
    hands = [deck[:h], deck[h : 2 * h]]
    top = 2 * h
    seen = [np.bincount(hands[s], minlength=53) for s in range(2)]
    parts = dict.fromkeys(deal.PARTS, 0)
    owns = [int(spec.two_cribs), 1]
    owner, price = 1, 0
    reserve = 0 if spec.choose_cut else 1

    def redraws(cards, before):
        nonlocal top
        for s in range(2):
            mask = draw_and_bid.redraw(
                np.array(cards[s]),
                before,
                owns[s],
                table,
                pr,
                -1,
                seen[s],
                len(deck) - top - reserve,
            )
            for i in range(len(cards[s])):
                if mask >> i & 1:
                    cards[s][i] = deck[top]
                    seen[s][deck[top]] += 1
                    top += 1

    if spec.draw:
        redraws(hands, True)
    keep_idx, disc_idx = values.deal_options(h, pr)
    if spec.bid:
        limits = [
            draw_and_bid.bid_limits(np.array(hands[s]), table, pr, keep_idx, disc_idx, -1, seen[s])
            for s in range(2)
        ]
        owner, price = draw_and_bid.auction(
            np.array([x[0] for x in limits]), np.array([x[1] for x in limits])
        )
        owns = [int(owner == 0), int(owner == 1)]
    kept, cribs, cuts = [], [[], []], [None, None]
    for s in range(2):
        o = values.choose_throw(
            np.array(hands[s]),
            owns[s],
            1,
            table,
            pr,
            keep_idx,
            disc_idx,
            -1,
            seen[s],
            s,
            deal.NO_EXPERT[0][0],
        )
        kept.append([hands[s][i] for i in keep_idx[o]])
        thrown = [hands[s][i] for i in disc_idx[o]]
        if spec.two_cribs:
            cribs[s] += thrown[:t]
            cribs[1 - s] += thrown[t : 2 * t]
        else:
            cribs[owner] += thrown[:t]
        if spec.choose_cut:
            cuts[1 - s] = thrown[-1]  # what I give is the opponent's cut card
    if spec.draw:
        redraws(kept, False)
    if not spec.choose_cut:
        cuts = [deck[top]] * 2
        top += 1
        if cuts[0] // 4 + 1 == JACK:
            parts["heels"] = 2
    known = np.zeros((2, 53), dtype=np.int64)  # the play does not depend on it (greedy)
    pegged = np.zeros(2, dtype=np.int64)
    play(
        np.array(kept),
        np.zeros((2, k), dtype=np.bool_),
        np.zeros(2 * k, dtype=np.int64),
        np.array([0, 0, 0, -1]),
        np.array([GREEDY, GREEDY]),
        known,
        pegged,
        np.zeros(2, dtype=np.int64),
        0,
        pr,
        np.zeros(MAX_EVENTS + 1, dtype=np.int64),
        NO_MODEL,
        NO_MEMO,
    )
    parts["dealer_pegging"], parts["pone_pegging"] = int(pegged[1]), int(pegged[0])
    parts["pone_hand"] = points(kept[0], [cuts[0]])
    parts["dealer_hand"] = points(kept[1], [cuts[1]])
    for s in (1, 0):
        if cribs[s]:
            c = points(cribs[s], [cuts[s]], crib=True)
            parts["crib" if s else "pone_crib"] = c if c >= price else -price
    out = [c for x in kept + cribs for c in x] + ([] if spec.choose_cut else [cuts[0]])
    return [parts[p] for p in deal.PARTS], out, top


@pytest.mark.parametrize(
    "rules",
    [
        {"draw": True},
        {"choose_cut": True, "hand_size": 7},
        {"two_cribs": True, "hand_size": 8},
        {"bid": True},
        {"two_cribs": True, "choose_cut": True, "hand_size": 9},
        {"draw": True, "bid": True, "hand_size": 7},
        {"draw": True, "choose_cut": True, "hand_size": 7},
    ],
)
def test_deals_follow_the_rules(rules):
    """Each deal's parts equal the plain walk-through; the cards in hands, cribs and the cut
    are distinct cards of the deck, and every card that left the deck was dealt or drawn."""
    spec = CribbageSpec(**rules)
    rng = np.random.default_rng(len(str(rules)))
    pol = np.array([[1, GREEDY], [1, GREEDY]])
    for seed in range(4):
        deck = rng.permutation(52).astype(np.int64)
        parts = np.zeros(deal.NP, dtype=np.int64)
        seed_kernels(seed)
        assert (
            deal.play_deal(
                deck,
                pol,
                np.zeros(2, dtype=np.int64),
                0,
                rank_table(),
                parts,
                spec.as_array(),
                deal.NO_EXPERT,
                deal.FREE,
                np.zeros(MAX_EVENTS + 1, dtype=np.int64),
            )
            == -1
        )
        seed_kernels(seed)
        want, cards, top = reference_deal(deck, spec)
        assert parts.tolist() == want
        assert (
            len(set(cards))
            == len(cards)
            == 2 * spec.kept
            + 2 * spec.crib_size // 2 * (1 + spec.two_cribs)
            + (0 if spec.choose_cut else 1)
        )
        assert set(cards) <= set(deck[:top].tolist())


def test_a_redraw_keeps_a_great_hand_and_changes_a_hopeless_one():
    spec = CribbageSpec(draw=True)
    pr, table = spec.as_array(), rank_table()
    great = np.array([17, 18, 19, 43, 42, 41], dtype=np.int64)  # three 5s and three jacks
    hopeless = np.array([0, 9, 22, 31, 45, 49], dtype=np.int64)  # A 3 6 8 Q K: one fifteen
    for cards, redraws in ((great, False), (hopeless, True)):
        seed_kernels(1)
        mask = draw_and_bid.redraw(
            cards, True, 1, table, pr, -1, np.bincount(cards, minlength=53), 5
        )
        assert (mask != 0) == redraws
        seed_kernels(1)
        mask = draw_and_bid.redraw(
            cards[:4], False, 1, table, pr, -1, np.bincount(cards, minlength=53), 3
        )
        assert (mask != 0) == redraws


def test_contract_value_and_auction_by_hand():
    crib = np.array([0.0, 2.0, 4.0, 8.0])
    # bid 3: the 4 and the 8 make it, the 0 and the 2 go back 3 each
    assert draw_and_bid.contract_value(crib, 3) == pytest.approx((4 + 8 - 3 - 3) / 4)
    assert draw_and_bid.contract_value(crib, 0) == pytest.approx(crib.mean())
    many = np.full(values.CRIB_DRAWS, 6.0)
    none = np.zeros(values.CRIB_DRAWS)
    # the pone values a crib of 6 and the dealer one of 0: the pone bids 1 and keeps it
    hs = np.zeros((2, 2))
    ss = np.array([[many, many], [none, none]])
    assert tuple(draw_and_bid.auction(hs, ss)) == (0, 1)
    # both are sure of 6: owning it at 1..6 gains 6 against losing 6, so the bids go
    # 1 (pone), 2 (dealer) ... 6 (dealer); at 7 owning loses 7 against losing 6 at 6
    ss = np.array([[many, many], [many, many]])
    assert tuple(draw_and_bid.auction(hs, ss)) == (1, 6)
    # nobody wants a worthless crib: the dealer keeps it for nothing
    assert tuple(draw_and_bid.auction(hs, np.zeros((2, 2, values.CRIB_DRAWS)))) == (1, 0)


@pytest.mark.parametrize(
    "rules",
    [
        {"draw": True},
        {"choose_cut": True, "hand_size": 7},
        {"two_cribs": True, "hand_size": 8},
        {"two_cribs": True, "hand_size": 8, "lowball": True, "game_length": 61},
        {"bid": True},
        {"draw": True, "two_cribs": True, "hand_size": 8, "decks": 2, "jokers": 2},
        {"choose_cut": True, "bid": True, "hand_size": 7, "game_length": 61},
    ],
)
@pytest.mark.slow
def test_games_under_the_new_rules_end_as_the_spec_says(rules):
    spec = CribbageSpec(**rules)
    length = spec.game_length
    games = 4 if spec.jokers else 150  # a joker's show tries every stand-in: 50 times slower
    for pol in ([[0, RANDOM], [0, RANDOM]], [[1, GREEDY], [1, GREEDY]]):
        rows = tp.play_games(
            np.arange(games, dtype=np.int64),
            np.array(pol),
            rank_table(spec.target),
            spec.as_array(),
        )
        won, lost, winner = rows[:, 3], rows[:, 4], rows[:, 0]
        assert (rows[:, 5] <= rows[:, 2]).all()
        if spec.two_cribs:  # played to the end of the deal: the most (fewest) points win
            assert (won >= lost).all() if not spec.lowball else (won <= lost).all()
            assert (np.maximum(won, lost) >= length).all()
            assert ((winner == tp.TIE) == (won == lost)).all()
            assert (rows[:, 2] == rows[:, 5]).all()
        else:
            assert (winner != tp.TIE).all() and (won >= length).all() and (lost < length).all()
        if not spec.bid:
            assert (rows[:, 6 : 6 + deal.NP] >= 0).all()
        if spec.choose_cut:
            assert (rows[:, 6] == 0).all()  # nothing is cut: no heels


@pytest.mark.parametrize(
    "rules,message",
    [
        ({"choose_cut": True, "starters": 2}, "two cut cards"),
        ({"two_cribs": True, "bid": True, "hand_size": 8}, "bidding"),
        ({"bid": True, "lowball": True}, "lowball"),
        ({"two_cribs": True, "hand_size": 4}, "keep 1 to 8"),
    ],
)
def test_rules_that_do_not_combine_are_one_error(rules, message):
    with pytest.raises(CribsolveError, match=message):
        CribbageSpec(**rules)


def brute_option_value(dealt, keep, disc, unseen, own, spec):
    """hand +/- crib A - crib B - gift, each term's expectation enumerated exactly over the
    unseen cards (the terms are means, so they add): the crib's other share and cut card, the
    opponent's hand under choose-a-cut."""
    from itertools import combinations

    t, k = spec.crib_size // 2, spec.kept
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    held = [dealt[j] for j in keep]
    value = mean([points(held, [c]) for c in unseen])
    gift = dealt[disc[-1]] if spec.choose_cut else None
    for c, share in enumerate([disc[:t], disc[t : 2 * t]][: 1 + spec.two_cribs]):
        mine = own if c == 0 else 0
        mine_cards = [dealt[j] for j in share]
        crib = []
        for opp in combinations(unseen, t):
            cuts = [gift] if gift is not None and not mine else [s for s in unseen if s not in opp]
            crib += [points(mine_cards + list(opp), [s], crib=True) for s in cuts]
        value += mean(crib) if mine else -mean(crib)
    if spec.choose_cut:
        value -= mean([points(list(h), [gift]) for h in combinations(unseen, k)])
    return value


@pytest.mark.parametrize(
    "rules,own",
    [
        ({"two_cribs": True, "hand_size": 8}, 1),
        ({"choose_cut": True, "hand_size": 7}, 1),
        ({"choose_cut": True, "hand_size": 7}, 0),
        ({"choose_cut": True, "two_cribs": True, "hand_size": 9}, 1),
    ],
)
def test_sampled_values_are_within_their_error_of_the_exact_ones(rules, own):
    """best-discard's engine on a small unseen set: the hand exact, the rest within five
    standard errors of the enumeration (a false alarm about once in two million)."""
    spec = CribbageSpec(**rules)
    pr = spec.as_array()
    rng = np.random.default_rng(len(str(rules)) + own)
    cards = rng.permutation(52)
    h = spec.hand_size
    dealt = cards[:h].astype(np.int64)
    unseen = np.sort(cards[h : h + 10]).astype(np.int64)
    keep_idx, disc_idx = values.deal_options(h, pr)
    options = [0, len(keep_idx) // 3, len(keep_idx) - 1]
    width = spec.crib_size // 2 * (1 + spec.two_cribs) + spec.choose_cut * (1 + spec.kept)
    m = 3000
    seed_kernels(5)
    parts = values.option_parts(
        dealt,
        keep_idx,
        disc_idx,
        unseen,
        -1,
        own,
        rank_table(),
        pr,
        values.crib_draws(unseen, width, m),
    )
    got = values.option_values(parts, pr)
    se = np.sqrt((parts[:, 5] - parts[:, 4] ** 2) / (m - 1))
    for o in options:
        exact = brute_option_value(
            dealt.tolist(), keep_idx[o], disc_idx[o], unseen.tolist(), own, spec
        )
        assert abs(got[o] - exact) < 5 * se[o] + 1e-9, (o, got[o], exact, se[o])
        assert parts[o, 0] == pytest.approx(
            np.mean([points([int(dealt[j]) for j in keep_idx[o]], [c]) for c in unseen])
        )
