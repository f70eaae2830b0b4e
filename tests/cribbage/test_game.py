"""Whole deals and games of the engine (game.py): a scripted deal checked part by part, games that
end where the spec says, deterministic for a seed, and bigger hands scored as the definitional
scorer scores them."""

import numpy as np
import pytest
from playhelp import TRACE, run_play

from cribsolve import format_card, parse_cards, ruleset, score_hand
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals import deal
from cribsolve.games.cribbage.deals import game as tp
from cribsolve.games.cribbage.players.policies import GREEDY, LOOKAHEAD, RANDOM
from cribsolve.games.cribbage.rules.pegging import STANDARD
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw import values


def test_scripted_deal_end_to_end():
    """A fixed deck: EV discards, heels, the play and the show, each checked on its own."""
    pone6, dealer6, starter = (
        parse_cards(["5H TC 4D 9S 2C 3C"]),
        parse_cards(["KD 5S 6C 8H AS AD"]),
        parse_cards(["JH"])[0],
    )
    rest = [c for c in range(52) if c not in pone6 + dealer6 + [starter]]
    deck = np.array(pone6 + dealer6 + [starter] + rest, dtype=np.int64)
    parts = np.zeros(deal.NP, dtype=np.int64)
    sc = np.zeros(2, dtype=np.int64)
    pol = np.array([[1, GREEDY], [1, GREEDY]])
    assert (
        deal.play_deal(
            deck, pol, sc, 0, rank_table(), parts, STANDARD, deal.NO_EXPERT, deal.FREE, TRACE.copy()
        )
        == -1
    )
    kept, crib = [], []
    keep_idx, disc_idx = values.throw_options(6, 2)
    for six, dealer in ((pone6, False), (dealer6, True)):
        o = values.choose_throw(
            np.array(six),
            dealer,
            1,
            rank_table(),
            STANDARD,
            keep_idx,
            disc_idx,
            -1,
            np.bincount(six, minlength=53),
            int(dealer),
            deal.NO_EXPERT[0][0],
        )
        kept.append([six[i] for i in keep_idx[o]])
        crib += [six[i] for i in disc_idx[o]]
    std = ruleset("standard")
    pegged, _, _ = run_play(
        " ".join(map(format_card, kept[0])), " ".join(map(format_card, kept[1]))
    )
    assert parts.tolist() == [
        2,  # heels: the starter is a jack
        pegged[1],
        pegged[0],
        score_hand(kept[0], [starter], std, itemized=False).total,
        score_hand(kept[1], [starter], std, itemized=False).total,
        score_hand(crib, [starter], std, crib=True, itemized=False).total,
        0,
    ]
    assert sc.tolist() == [parts[2] + parts[3], parts[0] + parts[1] + parts[4] + parts[5]]


def test_games_end_at_121_and_are_deterministic():
    pol = np.array([[1, GREEDY], [1, RANDOM]])
    a = tp.play_games(np.arange(200, dtype=np.int64), pol, rank_table(), STANDARD)
    assert (a[:, 3] >= 121).all() and (a[:, 4] < 121).all()
    b = tp.play_games(np.arange(200, dtype=np.int64), pol, rank_table(), STANDARD)
    assert (a == b).all()
    short = tp.play_games(
        np.arange(50, dtype=np.int64), pol, rank_table(), CribbageSpec(game_length=61).as_array()
    )
    assert (short[:, 3] >= 61).all() and (short[:, 4] < 61).all()


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"target": 16},
        {"peg_limit": 41},
        {"peg_limit": 12},
        {"game_length": 61},
        {"lowball": True, "game_length": 61},
        {"target": 11, "peg_limit": 25, "game_length": 241},
        {"jokers": 2},
        {"decks": 2},
        {"decks": 2, "jokers": 4},
        {"lowball": True, "jokers": 1, "target": 16},
        {"hand_size": 8, "decks": 2, "starters": 2, "game_length": 241},
        {"hand_size": 5, "crib_size": 2},
        {"starters": 2},
        {"hand_size": 9, "crib_size": 6, "game_length": 361},
    ],
)
@pytest.mark.slow
def test_random_and_greedy_games_end_as_the_spec_says(rules):
    spec = CribbageSpec(**rules)
    length = spec.game_length
    for pol in ([[0, RANDOM], [0, RANDOM]], [[1, GREEDY], [1, LOOKAHEAD]]):
        rows = tp.play_games(
            np.arange(300, dtype=np.int64), np.array(pol), rank_table(spec.target), spec.as_array()
        )
        won, lost = rows[:, 3], rows[:, 4]
        if spec.lowball:  # whoever reaches the length loses
            assert (lost >= length).all() and (won < length).all()
        else:
            assert (won >= length).all() and (lost < length).all()
        assert (rows[:, 5] <= rows[:, 2]).all() and (rows[:, 6:] >= 0).all()


def test_lowball_players_score_less():
    low, high = (
        tp.play_games(
            np.arange(300, dtype=np.int64),
            np.array([[1, GREEDY]] * 2),
            rank_table(),
            CribbageSpec(lowball=lb).as_array(),
        )
        for lb in (True, False)
    )
    per_deal = [r[:, 6 : 6 + deal.NP].sum() / r[:, 5].sum() for r in (low, high)]
    assert per_deal[0] < per_deal[1] - 3


def test_bigger_hands_deal_scores_by_the_definitional_scorer():
    """An 8-card deal with one starter (no randomness in the throws): every show part equals
    the slow scorer on the cards the throws kept."""
    from slow_scorer import slow_score

    spec = CribbageSpec(hand_size=8)
    pr = spec.as_array()
    rng = np.random.default_rng(9)
    for _ in range(5):
        deck = rng.permutation(52).astype(np.int64)
        parts = np.zeros(deal.NP, dtype=np.int64)
        pol = np.array([[1, GREEDY], [1, GREEDY]])
        assert (
            deal.play_deal(
                deck,
                pol,
                np.zeros(2, dtype=np.int64),
                0,
                rank_table(),
                parts,
                pr,
                deal.NO_EXPERT,
                deal.FREE,
                TRACE.copy(),
            )
            == -1
        )
        keep_idx, disc_idx = values.throw_options(8, 2)
        kept, crib = [], []
        for seat in range(2):
            dealt = deck[8 * seat : 8 * seat + 8]
            o = values.choose_throw(
                dealt,
                seat == 1,
                1,
                rank_table(),
                pr,
                keep_idx,
                disc_idx,
                -1,
                np.bincount(dealt, minlength=53),
                seat,
                deal.NO_EXPERT[0][0],
            )
            kept.append(dealt[keep_idx[o]].tolist())
            crib += dealt[disc_idx[o]].tolist()
        s = int(deck[16])
        assert parts[0] == (2 if s // 4 == 10 else 0)
        assert parts[3:].tolist() == [
            sum(slow_score(kept[0], [s]).values()),
            sum(slow_score(kept[1], [s]).values()),
            sum(slow_score(crib, [s], 15, True).values()),
            0,
        ]
        assert parts[1] + parts[2] >= 1
