"""The expert's memo of its first three cards: its slots against a plain enumeration, and games
played with it, empty or filled, against games searched card by card."""

import os
import shutil
from itertools import combinations_with_replacement
from math import comb

import numpy as np
import pytest

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.scoring.table import rank_table
from cribsolve.errors import TableError
from cribsolve.games.cribbage.deals.game import play_games
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES, expert_tables
from cribsolve.games.cribbage.deals.win_choices import board_for
from cribsolve.games.cribbage.players import first_cards
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.infra import store


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


def test_the_shipped_memo_holds_the_cards_the_search_lays_and_plays_the_same_games():
    """Its slots were filled by runs of an earlier version of the search: one that lays other
    cards without a raise of the kind's schema fails here (and in the golden tables)."""
    params = CribbageSpec().play_rules()
    shipped = store.read(os.path.join(store.SHIPPED, store.file_name(first_cards.KIND, params)))
    slots, ranks = first_cards._slots(shipped[1]), shipped[1]["ranks"]
    seeds = np.random.default_rng(15).integers(0, 2**62, size=24)
    names = ["expert", "expert"]
    searched = first_cards.first_cards()
    plain = games(searched, names, seeds)  # every first card searched, and noted
    met = searched[slots] >= 0
    assert met.sum() > 100 and (searched[slots[met]] == ranks[met]).all()
    memo = first_cards.first_cards()
    memo[slots] = ranks
    assert (games(memo, names, seeds) == plain).all()


@pytest.fixture
def fresh_process(tmp_path, monkeypatch):
    """A cache folder of its own, a package that ships every table but the first cards, and no
    memo or table in memory: a process starting."""
    monkeypatch.setenv("CRIBSOLVE_CACHE", str(tmp_path))
    package = tmp_path / "package"
    shutil.copytree(store.SHIPPED, package, ignore=shutil.ignore_patterns(f"{first_cards.KIND}*"))
    monkeypatch.setattr(store, "SHIPPED", str(package))
    monkeypatch.setattr(store, "_memo", {})
    monkeypatch.setattr(first_cards, "_MEMOS", {})


def test_a_kept_memo_is_read_back_by_the_next_run_and_plays_the_same_games(fresh_process):
    seeds = np.random.default_rng(14).integers(0, 2**62, size=12)
    names = ["expert", "expert"]
    plain = games(first_cards.NO_MEMO, names, seeds)
    memo = first_cards.memo_for(CribbageSpec())
    assert (memo < 0).all()  # nothing kept yet
    assert (games(memo, names, seeds) == plain).all()
    first_cards.keep(CribbageSpec(), now=True)
    first_cards._MEMOS.clear()
    store._memo.clear()
    again = first_cards.memo_for(CribbageSpec(game_length=61))  # the same play, another game
    assert (again >= 0).sum() > 100 and (again == memo).all()
    assert (games(again, names, seeds) == plain).all()
    assert first_cards.memo_for(CribbageSpec(target=16)) is not again  # another play


def test_two_runs_that_keep_at_once_keep_what_both_found(fresh_process):
    spec = CribbageSpec()
    one = first_cards.memo_for(spec)  # both start from nothing kept
    first = first_cards._MEMOS.copy()
    first_cards._MEMOS.clear()
    two = first_cards.memo_for(spec)
    games(two, ["expert", "expert"], np.array([5, 6, 7]))
    first_cards.keep(spec, now=True)
    first_cards._MEMOS.clear()
    first_cards._MEMOS.update(first)  # the first run keeps later, from other games
    games(one, ["expert", "expert"], np.array([8, 9, 10]))
    only_one = (one >= 0) & (two < 0)
    assert only_one.sum() > 50 and ((two >= 0) & (one < 0)).sum() > 50
    first_cards.keep(spec, now=True)
    kept = store.find(first_cards.KIND, spec.play_rules())
    both = np.flatnonzero((one >= 0) | (two >= 0))
    assert (first_cards._slots(kept) == both).all()
    assert (kept["ranks"] == np.maximum(one, two)[both]).all()  # where both, the same rank


def test_the_shipped_memo_and_the_users_are_read_together_and_only_the_users_grows(
    fresh_process,
):
    spec = CribbageSpec()
    params = spec.play_rules()
    names = ["expert", "expert"]
    grown = first_cards.memo_for(spec)
    games(grown, names, np.array([21, 22, 23]))
    shipped = first_cards.packed(grown)
    path = os.path.join(store.SHIPPED, store.file_name(first_cards.KIND, params))
    store.write(path, first_cards.KIND, params, shipped)  # as catalog.ship writes it
    first_cards._MEMOS.clear()
    memo = first_cards.memo_for(spec)  # a user's first run reads the package's
    assert (memo == grown).all() and store.find_each(first_cards.KIND, params, False) == []
    games(memo, names, np.array([24, 25, 26]))
    first_cards.keep(spec, now=True)
    assert store.read(path)[1]["gaps"].tolist() == shipped["gaps"].tolist()  # left alone
    (users,) = store.find_each(first_cards.KIND, params, shipped=False)
    assert (first_cards._slots(users) == np.flatnonzero(memo >= 0)).all()
    assert users["ranks"].size > shipped["ranks"].size
    newer = first_cards.first_cards()  # a newer package, grown by other games
    games(newer, names, np.array([27, 28, 29]))
    store.write(path, first_cards.KIND, params, first_cards.packed(newer))
    assert ((newer >= 0) & (memo < 0)).sum() > 50 and ((memo >= 0) & (newer < 0)).sum() > 50
    first_cards._MEMOS.clear()
    both = first_cards.memo_for(spec)
    assert (both == np.where(memo >= 0, memo, newer)).all()
    assert ((memo >= 0) & (newer >= 0) <= (memo == newer)).all()  # where both, one card


def test_a_memo_table_out_of_order_past_its_slots_or_not_of_ranks_is_refused():
    check = store.KINDS[first_cards.KIND].check
    last = first_cards.SLOTS - 1
    check(
        {"gaps": np.array([0, 9, last - 9], np.uint32), "ranks": np.array([1, 13, 0], np.int8)}, {}
    )
    for gaps, ranks in (([3, 0], [1, 1]), ([3, 9], [1, 14]), ([3, 9], [-1, 1]), ([1], [1, 2])):
        with pytest.raises(TableError):
            check({"gaps": np.array(gaps, np.uint32), "ranks": np.array(ranks, np.int8)}, {})
    with pytest.raises(TableError):  # past the last slot
        check({"gaps": np.array([1, last], np.uint32), "ranks": np.array([1, 1], np.int8)}, {})
