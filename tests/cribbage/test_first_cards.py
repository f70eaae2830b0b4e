"""The expert's memo of its first three cards: its slots against a plain enumeration, and games
played with it, empty or filled, against games searched card by card."""

from itertools import combinations_with_replacement
from math import comb

import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals.game import play_games
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES, expert_tables
from cribsolve.games.cribbage.deals.win_choices import board_for
from cribsolve.games.cribbage.players import first_cards
from cribsolve.games.cribbage.rules.spec import CribbageSpec


def test_each_multiset_of_ranks_has_a_place_of_its_own():
    for k, size in ((3, first_cards.THREES), (4, first_cards.FOURS)):
        assert size == comb(first_cards.RANKS + k - 1, k)
        places = [
            first_cards._multiset_index(np.array(ranks, dtype=np.int64))
            for ranks in combinations_with_replacement(range(first_cards.RANKS), k)
        ]
        assert sorted(places) == list(range(size))


def deal_position(rng):
    """The pone to lead: four cards each, each having seen its six and the starter."""
    deck = rng.permutation(52)
    hands = np.array([deck[:4], deck[6:10]], dtype=np.int64)
    known = np.zeros((2, 53), dtype=np.int64)
    for p, six in enumerate((deck[:6], deck[6:12])):
        for c in list(six) + [deck[12]]:
            known[p, c] += 1
    return hands, np.zeros((2, 4), dtype=np.bool_), np.array([0, 0, 0, -1]), known


def test_a_slot_is_the_lead_the_reply_or_the_next_card_by_their_ranks_and_nothing_later():
    rng = np.random.default_rng(3)
    seen = {}
    for _ in range(300):
        hands, used, st, known = deal_position(rng)
        lead = first_cards.slot(hands, used, st, known)
        mine = tuple(sorted(RANK[hands[0]]))
        others = tuple(
            sorted(RANK[c] for c in np.repeat(np.arange(53), known[0]) if c not in hands[0])
        )
        assert seen.setdefault(lead, (mine, others)) == (mine, others)  # one set, one slot
        used[0, 0] = True  # the pone leads its first card: the dealer replies
        known[1, hands[0, 0]] += 1
        reply = first_cards.slot(hands, used, np.array([1, 0, 1, 0]), known)
        theirs = (tuple(sorted(RANK[hands[1]])), int(RANK[hands[0, 0]]))
        assert reply >= 0 and seen.setdefault(reply, theirs) == theirs
        used[1, 0] = True  # the dealer replies: the pone lays its next card
        known[0, hands[1, 0]] += 1
        count = VALUE[RANK[hands[0, 0]]] + VALUE[RANK[hands[1, 0]]]
        second = first_cards.slot(hands, used, np.array([2, count, 0, 1]), known)
        laid = (int(RANK[hands[0, 0]]), int(RANK[hands[1, 0]]))
        ours = (tuple(sorted(RANK[hands[0, 1:]])), others, laid)
        assert second >= first_cards.TWO and seen.setdefault(second, ours) == ours
        assert first_cards.first_of(hands[0], used[0], RANK[hands[0, 0]]) != 0  # played
        used[0, 1] = True  # the pone lays: the dealer's second card is not kept
        known[1, hands[0, 1]] += 1
        count += VALUE[RANK[hands[0, 1]]]
        assert first_cards.slot(hands, used, np.array([3, count, 1, 0]), known) == -1
    assert len(seen) > 500  # different sets, different slots


def games(memo, names, seeds):
    spec = CribbageSpec()
    pegs, model, _ = expert_tables(spec, names)
    pol = np.array([CRIBBAGE_POLICIES[p] for p in names])
    return play_games(
        seeds, pol, rank_table(), spec.as_array(), (pegs, model, memo), board=board_for(names, spec)
    )


def test_games_with_the_memo_empty_or_filled_are_the_games_searched_card_by_card():
    seeds = np.random.default_rng(12).integers(0, 2**62, size=24)
    for names in (["expert", "expert"], ["lookahead", "expert"]):
        plain = games(first_cards.NO_MEMO, names, seeds)
        memo = first_cards.first_cards()
        assert (games(memo, names, seeds) == plain).all()
        assert (memo >= 0).sum() > 100  # it was filled: the second run reads it
        assert (memo[first_cards.TWO :] >= 0).sum() > 50  # the pone's next cards too
        assert (games(memo, names, seeds) == plain).all()
