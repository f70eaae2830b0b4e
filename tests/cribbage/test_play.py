"""The play (pegging), docs/RULES.md §3: hand-worked sequences, goes, 31 and last cards, the house
rules of the play, and policies that see only their own cards."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playhelp import TRACE, run_play

from cribsolve import parse_cards
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals import game as tp
from cribsolve.games.cribbage.players.inference import throw_model
from cribsolve.games.cribbage.players.policies import RANDOM
from cribsolve.games.cribbage.rules.pegging import STANDARD, card_points
from cribsolve.games.cribbage.rules.spec import CribbageSpec


def seq_points(text):
    """Points of the last card of a series typed as ranks, e.g. '5 T'."""
    ranks = [{"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(r) or int(r) for r in text.split()]
    return card_points(
        np.array(ranks, dtype=np.int64), len(ranks), sum(min(r, 10) for r in ranks), STANDARD
    )


@pytest.mark.parametrize(
    "seq,pts",
    [
        ("5 T", 2),  # fifteen
        ("7 7", 2),
        ("7 7 7", 6),
        ("7 7 7 7", 12),
        ("4 6 5", 2 + 3),  # run of three out of order, and fifteen
        ("2 4 3 5", 4),  # run of four in any order
        ("5 7 7 6", 0),  # the repeated 7 breaks the run
        ("7 7 6 5", 3),  # ...but the last three alone are a run
        ("A 2 3 4 5", 2 + 5),  # run of five making fifteen
        ("K Q J", 3),
        ("Q K A", 0),  # ace is low only
        ("T T T A", 2),  # 31 (not a pair)
        ("T 5 6 J", 2),  # 31 for 2
        ("8 7", 2),
        ("9 5 9", 0),  # a pair must be on the card just before
    ],
)
def test_hand_worked_play_scores(seq, pts):
    assert seq_points(seq) == pts


def test_scripted_play_with_go_and_reset():
    # pone TC, dealer 5S (15: 2), pone 5H (pair: 2), dealer KD (30), pone cannot, dealer
    # cannot: go, 1 to the dealer; pone leads 4D, dealer 6C, pone 9S, dealer 8H: last card 1
    assert run_play("5H TC 4D 9S", "KD 5S 6C 8H") == ([2, 4], -1, [2, 4])


def test_the_trace_keeps_the_order_of_the_points():
    """The same play: the dealer's 15, the pone's pair, the dealer's go, the dealer's last
    card; each logged as 2 * points + player (1: the dealer)."""
    trace = TRACE.copy()
    run_play("5H TC 4D 9S", "KD 5S 6C 8H", trace=trace)
    assert trace[: trace[0] + 1].tolist() == [4, 2 * 2 + 1, 2 * 2 + 0, 2 * 1 + 1, 2 * 1 + 1]
    trace = TRACE.copy()  # stopped at the target: nothing after the winning 15
    run_play("5H TC 4D 9S", "KD 5S 6C 8H", target=120, scores=(100, 118), trace=trace)
    assert trace[: trace[0] + 1].tolist() == [1, 2 * 2 + 1]


def test_thirty_one_resets_and_last_card():
    # KS, QS (20), 2C (22: greedy avoids leaving 21), 9D = 31 for 2 and a new series led by
    # the pone: AH, TD, 3C, 8D (22), last card 1 to the dealer
    assert run_play("KS AH 2C 3C", "QS TD 9D 8D") == ([0, 3], -1, [0, 3])


def test_game_stops_mid_play_at_target():
    pts, w, sc = run_play("5H TC 4D 9S", "KD 5S 6C 8H", target=120, scores=(100, 118))
    assert w == 1 and sc[1] == 120  # the dealer's 15 for 2 ends it at once


def test_policies_never_see_hidden_cards():
    """The look-ahead's and the expert's choices depend only on what their player has seen:
    swapping the opponent's hidden cards for other unseen cards (same seed) changes nothing."""
    from cribsolve.games.cribbage.players.open_search import open_choice
    from cribsolve.games.cribbage.players.policies import expected_pegging, lookahead_choice
    from cribsolve.games.cribbage.rules.pegging import seed_kernels

    mine = parse_cards(["5H TC 4D 9S"])
    seen = mine + parse_cards(["KS QS JH"])  # my discards and the starter
    known = np.zeros((2, 53), dtype=np.int64)
    known[0, seen] = 1
    results = set()
    for theirs in (["KD 5S 6C 8H"], ["AC 2D 3H 7S"], ["5C 5D TH TD"]):
        hands = np.array([mine, parse_cards(theirs)], dtype=np.int64)
        known[1] = 0
        known[1, hands[1]] = 1
        st = np.array([0, 0, 0, -1], dtype=np.int64)
        seed_kernels(7)
        pick = lookahead_choice(
            hands,
            np.zeros((2, 4), dtype=np.bool_),
            np.zeros(8, dtype=np.int64),
            st,
            known,
            STANDARD,
        )
        seed_kernels(7)
        ev = expected_pegging(
            hands,
            np.zeros((2, 4), dtype=np.bool_),
            np.zeros(8, dtype=np.int64),
            st,
            known,
            0,
            50,
            STANDARD,
        )
        seed_kernels(7)
        expert = open_choice(
            hands,
            np.zeros((2, 4), dtype=np.bool_),
            np.zeros(8, dtype=np.int64),
            st,
            known,
            STANDARD,
            throw_model(CribbageSpec()),
        )
        results.add((pick, ev, expert))
    assert len(results) == 1


def spec_points(text, **rules):
    ranks = [{"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(r) or int(r) for r in text.split()]
    return card_points(
        np.array(ranks, dtype=np.int64),
        len(ranks),
        sum(min(r, 10) for r in ranks),
        CribbageSpec(**rules).as_array(),
    )


@pytest.mark.parametrize(
    "seq,rules,pts",
    [
        ("6 T", {"target": 16}, 2),
        ("5 T", {"target": 16}, 0),  # the house target of 16
        ("T T T A", {"peg_limit": 41}, 0),  # 31 is nothing special now
        ("T T T T A", {"peg_limit": 41}, 2),  # ...41 is
        ("T T T A", {"target": 31}, 2 + 2),  # target and limit both 31
    ],
)
def test_house_rules_in_the_play(seq, rules, pts):
    assert spec_points(seq, **rules) == pts


def test_stink_hole_is_never_a_resting_place():
    pol = np.array([[0, RANDOM], [0, RANDOM]])
    seeds = np.arange(1500, dtype=np.int64)
    plain, stink = (
        tp.play_games(
            seeds, pol, rank_table(), CribbageSpec(game_length=31, stinkhole=s).as_array()
        )
        for s in (False, True)
    )
    assert (plain[:, 4] == 30).sum() > 20 and (stink[:, 4] == 30).sum() == 0
    assert (stink[:, 3] >= 31).all()


@settings(max_examples=150, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(
        [
            CribbageSpec(),
            CribbageSpec(peg_limit=21, target=11),
            CribbageSpec(hand_size=7, crib_size=2),
            CribbageSpec(lowball=True),
            CribbageSpec(players=3, hand_size=5),
            CribbageSpec(players=4, hand_size=5, partners=True, peg_limit=21),
            CribbageSpec(five_card=True, hand_size=5, game_length=61),
        ]
    ),
)
def test_the_play_state_plays_as_the_engine_kernels(rnd, spec):
    """PlayState (plain Python, for the readers of a written play) and the engine's kernels
    (pegging.settle and lay) make the same points, goes and turns card by card, whatever cards
    are laid, under house rules of the play too, with three or four seats and in the
    five-card game."""
    from cribsolve.core.cards import RANK, VALUE
    from cribsolve.games.cribbage.rules import pegging

    pr, k, n = spec.as_array(), spec.kept, spec.players
    deal = rnd.sample(range(52), n * k)
    hands = np.array([deal[s * k : (s + 1) * k] for s in range(n)], dtype=np.int64)
    used = np.zeros((n, k), dtype=np.bool_)
    series, st_ = np.zeros(n * k + 2, dtype=np.int64), np.array([0, 0, 0, -1], dtype=np.int64)
    pts, sc, seen = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros((n, 53), np.int64)
    state, mine = pegging.PlayState(spec, hands.tolist()), np.zeros(n, np.int64)
    while True:
        p, _ = pegging.settle(hands, used, st_, pts, sc, 0, pr)
        _, points = state.settle()
        for seat, n in points:
            mine[seat] += n
        assert (p < 0) == state.over and list(mine) == list(pts)
        if p < 0:
            break
        assert (p, st_[pegging.COUNT]) == (state.turn, state.count)
        fit = [
            i
            for i in range(k)
            if not used[p, i] and st_[pegging.COUNT] + VALUE[RANK[hands[p, i]]] <= spec.peg_limit
        ]
        i = rnd.choice(fit)
        assert state.card_error(hands[p, i]) is None
        mine[p] += state.lay(hands[p, i])
        pegging.lay(hands, used, series, st_, i, pts, sc, 0, seen, pr)
        assert list(mine) == list(pts)


def test_a_go_after_the_last_card_of_a_hand_ends_the_series():
    """KS 5H 5D 5C 3S (28), the dealer's go, the pone's AS (29) is its last card: nobody can
    lay, the pone takes 1 and the dealer leads at 0, with or without a go written for it."""
    from cribsolve.games.cribbage.players.bestplay import best_play, read_position
    from cribsolve.games.cribbage.rules.pegging import GO

    for played in ("KS 5H 5D 5C 3S go AS", "KS 5H 5D 5C 3S go AS go"):
        tokens = [GO if t == "go" else parse_cards([t])[0] for t in played.split()]
        now = read_position(parse_cards(["QH JH"]), tokens, 1, CribbageSpec())
        assert (now.count, now.series, now.unplayed, now.last) == (0, [], 0, 0)
        rows, _ = best_play(parse_cards(["QH JH"]), tokens, 1)
        assert sorted(rows) == [("JH", 1.0, 0.0), ("QH", 1.0, 0.0)]  # the last card's 1


def test_my_go_is_checked_against_the_cards_i_laid_after_it():
    """The dealer says go at 22 and later lays 6H, which fit at 22: that go was wrong."""
    from cribsolve.errors import CardError
    from cribsolve.games.cribbage.players.bestplay import read_position
    from cribsolve.games.cribbage.rules.pegging import GO

    tokens = [GO if t == "go" else parse_cards([t])[0] for t in "QS 2S JD go 5C 4C 6H".split()]
    with pytest.raises(CardError, match="you said go at 22 holding 6H"):
        read_position(parse_cards(["TS TD"]), tokens, 1, CribbageSpec())


def tokens_of(text):
    from cribsolve.games.cribbage.rules.pegging import GO

    return [GO if t == "go" else parse_cards([t])[0] for t in text.split()]


def replay_state(state, tokens):
    """Feed a written play to ``state``: [(seat, points)] in the order they come, the goes
    (seats) the rules made, and each card's seat; a written go the rules made is taken as
    that one (as best-play's reader does)."""
    from cribsolve.games.cribbage.rules.pegging import GO

    points, goes, seats, j = [], [], [], 0
    made, pts = state.settle()
    while True:
        points += pts
        goes += made
        for _ in made:
            if j < len(tokens) and tokens[j] is GO:
                j += 1
        if j == len(tokens):
            return points, goes, seats
        tok, j = tokens[j], j + 1
        if tok is GO:
            assert state.go_error() is None
            goes.append(state.turn)
            made, pts = state.go()
        else:
            assert state.card_error(tok) is None
            seats.append(state.turn)
            got = state.lay(tok)
            made, pts = state.settle()
            pts = [(seats[-1], got)] * (got > 0) + pts


# Three players, hand-worked (seat 2 deals). Series 1: KS 10, QD 20, 7D 27, 2D 29; seat 1
# (8S 5H 3C) cannot lay: go; seat 2 lays AH 30; seat 0 (9H 4C) cannot: go; seat 1 has said go;
# seat 2 (6S JC) cannot: nobody can lay, 1 to seat 2 for the go, and the seat after it, seat 0,
# leads. Series 2: 9H 9, 3C 12, 6S 18, 4C 22, 8S 30; seat 2 (JC) go, seat 0 is out of cards
# (passed, no go), seat 1 (5H) go: 1 to seat 1, and seat 2 leads. Series 3: JC 10, seat 0 out,
# 5H 15 for 2 to seat 1, and the last card of all, 1 more to seat 1.
THREE = dict(
    hands=["KS 2D 9H 4C", "QD 8S 5H 3C", "7D AH 6S JC"],
    play="KS QD 7D 2D go AH go go 9H 3C 6S 4C 8S go go JC 5H",
    points=[(2, 1), (1, 1), (1, 2), (1, 1)],
    goes=[1, 0, 2, 2, 1],
    seats=[0, 1, 2, 0, 2, 0, 1, 2, 0, 1, 2, 1],
)


@pytest.mark.parametrize("known", [True, False])
def test_three_players_go_round_hand_worked(known):
    """The hand-worked three-player play above, read with every hand known (the goes are the
    state's to see) and with every hand hidden (each go written, as best-play reads it)."""
    from cribsolve.games.cribbage.rules.pegging import PlayState

    spec = CribbageSpec(players=3, hand_size=5)
    hands = [parse_cards([h]) for h in THREE["hands"]] if known else None
    state = PlayState(spec, hands)
    points, goes, seats = replay_state(state, tokens_of(THREE["play"]))
    assert points == THREE["points"] and goes == THREE["goes"] and seats == THREE["seats"]
    assert state.over and state.count == 0


def test_three_players_state_mid_play():
    """After "KS QD 7D 2D go AH": count 30, the series K Q 7 2 A, seat 0 to lay, seat 1 has
    said go, seat 2 laid last; hidden hands: seat 0 must say its go, then seat 2 its own."""
    from cribsolve.games.cribbage.rules.pegging import PlayState

    state = PlayState(CribbageSpec(players=3, hand_size=5))
    replay_state(state, tokens_of("KS QD 7D 2D go AH"))
    assert (state.count, state.series, state.turn, state.last, state.said) == (
        30,
        [13, 12, 7, 2, 1],
        0,
        2,
        [False, True, False],
    )
    assert state.go() == ([], []) and state.turn == 2
    assert state.go() == ([], [(2, 1)]) and (state.count, state.turn) == (0, 0)
    assert state.card_error(parse_cards(["5C"])[0]) is None


def test_four_players_pair_royal_across_seats_and_a_31():
    """Four seats: 7H, 7D (pair: 2), 7S (pair royal: 6), KC (31 for 2, the series ends and the
    seat after the dealer, seat 0, leads)."""
    from cribsolve.games.cribbage.rules.pegging import PlayState

    state = PlayState(CribbageSpec(players=4, hand_size=5))
    got = [state.lay(c) for c in parse_cards(["7H 7D 7S KC"])]
    assert got == [0, 2, 6, 2] and (state.count, state.turn, state.series) == (0, 0, [])


def test_five_card_play_is_one_series():
    """Five-card: KS QD (20), AH (21), 9C (30); the pone (5D) cannot lay: go, nor can the
    dealer (8H): 1 to the dealer, who laid last, and the play is over with two cards left."""
    from cribsolve.games.cribbage.rules.pegging import PlayState

    spec = CribbageSpec(five_card=True, hand_size=5, game_length=61)
    state = PlayState(spec, [parse_cards(["KS AH 5D"]), parse_cards(["QD 9C 8H"])])
    points, goes, seats = replay_state(state, tokens_of("KS QD AH 9C"))
    assert points == [(1, 1)] and goes == [0, 1] and seats == [0, 1, 0, 1] and state.over
    assert state.card_error(parse_cards(["5D"])[0]).startswith("the play is over")


class _Hand(list):
    """A reference hand that logs each card laid from it."""

    def __init__(self, seat, cards, log):
        super().__init__(cards)
        self.seat, self.log = seat, log

    def remove(self, card):
        self.log.append(("lay", self.seat, card))
        super().remove(card)


class _Board:
    def __init__(self, log):
        self.log = log

    def peg(self, seat, pts, part):
        self.log.append(("peg", seat, pts))


@pytest.mark.parametrize(
    "spec",
    [
        CribbageSpec(),
        CribbageSpec(players=3, hand_size=5),
        CribbageSpec(players=4, hand_size=5),
        CribbageSpec(players=4, hand_size=5, partners=True),
        CribbageSpec(five_card=True, hand_size=5, game_length=61),
    ],
    ids=["two", "three", "four", "partners", "five-card"],
)
def test_the_play_state_replays_the_reference_engine(spec):
    """Random plays of the slow reference engine (tests/reference_engine.py), replayed by
    PlayState with every hand known: the same seat lays each card and the same points come
    in the same order; each go it reports is of a seat with cards and none that fit. The
    written sequence (cards and those goes) read again with every hand hidden gives the
    same seats and points, each go accepted."""
    from reference_engine import _play

    from cribsolve.core.cards import RANK, VALUE
    from cribsolve.games.cribbage.rules.pegging import GO, PlayState

    n, k = spec.players, spec.kept
    for seed in range(60):
        rng = np.random.RandomState(seed)
        deal = rng.permutation(52)[: n * k].tolist()
        log = []
        _play(
            [_Hand(s, deal[s * k : (s + 1) * k], log) for s in range(n)],
            _Board(log),
            rng,
            spec.five_card,
        )
        lays = [(e[1], e[2]) for e in log if e[0] == "lay"]
        pegs = [(e[1], e[2]) for e in log if e[0] == "peg"]
        state = PlayState(spec, [deal[s * k : (s + 1) * k] for s in range(n)])
        written, points, seats = [], [], []
        made, pts = state.settle()
        at = 0  # the count the goes of ``made`` were said at
        for seat, card in lays + [(None, None)]:
            for p in made:
                left = state.hands[p]
                assert (
                    left and not any(at + VALUE[RANK[c]] <= 31 for c in left) or n == 2 and not left
                ), (seed, p)
            written += [GO] * len(made)
            points += pts
            if seat is None:
                break
            seats.append(state.turn)
            got = state.lay(card)
            written.append(card)
            points += [(state.last, got)] * (got > 0)
            at = state.count
            made, pts = state.settle()
        assert seats == [s for s, _ in lays] and points == pegs and state.over, seed
        hidden = PlayState(spec)
        assert replay_state(hidden, written)[0::2] == (points, seats) and hidden.over, seed
