"""Three- and four-handed cribbage, partners and the five-card game (docs/RULES.md §8): the
fast engine against the slow reference engine (tests/reference_engine.py) deal by deal under
random policies, hand-worked deals, and the spec's and the command line's checks."""

import json

import numpy as np
import pytest
from clihelp import run
from intervals import wilson_by_quadratic
from reference_engine import reference_deal
from slow_scorer import slow_score

from cribsolve import parse_cards
from cribsolve.core.scoring.table import rank_table
from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.deals.deal import FREE, NO_EXPERT, part_count, play_deal
from cribsolve.games.cribbage.rules.pegging import lay, seed_kernels, settle
from cribsolve.games.cribbage.rules.spec import CribbageSpec

GREEDY_PAIR = 1  # (ev discard, greedy pegging) as numbers: players.CRIBBAGE_POLICIES

TABLES = {
    "two": CribbageSpec(),
    "three": CribbageSpec(players=3, hand_size=5),
    "four": CribbageSpec(players=4, hand_size=5),
    "partners": CribbageSpec(players=4, hand_size=5, partners=True),
    "five-card": CribbageSpec(five_card=True, hand_size=5, game_length=61),
}


def _fast_deal(spec, deck, seed, scores, target):
    """The fast engine's deal (game.play_deal) with random policies, its kernels' draws
    seeded with ``seed``: (the side that reached ``target`` or None, scores, parts)."""
    n = spec.players
    sc = np.array(scores, dtype=np.int64)
    parts = np.zeros(part_count(n), dtype=np.int64)
    seed_kernels(seed)
    w = play_deal(
        np.asarray(deck, dtype=np.int64),
        np.zeros((n, 2), dtype=np.int64),
        sc,
        target,
        rank_table(15),
        parts,
        spec.as_array(),
        NO_EXPERT,
        FREE,
        np.zeros(4 * n * spec.hand_size + 3, dtype=np.int64),
    )
    return None if w < 0 else int(w), sc.tolist(), parts.tolist()


def _as_parts(n, parts):
    """The reference's parts in the fast engine's order (game.part_count)."""
    return [parts["heels"]] + parts["pegging"][::-1] + parts["hand"] + [parts["crib"], 0]


def _compare(name, deals, first):
    spec = TABLES[name]
    sides = spec.sides
    for i in range(first, first + deals):
        deck = np.random.RandomState(i).permutation(52)
        # half the deals from the start of a game, half near its end (who wins, and when)
        near = i % 2
        start = (
            np.random.RandomState(i + 7).randint(
                spec.game_length - 25, spec.game_length, size=sides
            )
            * near
        )
        target = spec.game_length * near
        fast = _fast_deal(spec, deck, 10**6 + i, start.tolist(), target)
        ref = reference_deal(
            deck.tolist(),
            spec.players,
            spec.hand_size,
            np.random.RandomState(10**6 + i),
            start.tolist(),
            target,
            spec.partners,
            spec.five_card,
        )
        assert fast == (ref[0], ref[1], _as_parts(spec.players, ref[2])), (name, i)


@pytest.mark.parametrize("name", list(TABLES))
def test_fast_engine_matches_the_reference_deal_by_deal(name):
    _compare(name, 3000, 0)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TABLES))
def test_fast_engine_matches_the_reference_over_many_deals(name):
    _compare(name, 12_000, 10_000)


def _scripted(spec, hands, laid):
    """Lay ``laid`` (cards, in order) from ``hands`` (one string per seat, the pone first)
    through the fast engine's settle and lay: each card must be in the hand of the seat
    whose turn settle says it is. Returns each seat's points."""
    hands = np.array([parse_cards([h]) for h in hands], dtype=np.int64)
    n, k = hands.shape
    pr = spec.as_array()
    used = np.zeros((n, k), dtype=np.bool_)
    series = np.zeros(n * k, dtype=np.int64)
    st = np.array([0, 0, 0, -1], dtype=np.int64)
    points = np.zeros(n, dtype=np.int64)
    scores = np.zeros(spec.sides, dtype=np.int64)
    known = np.zeros((n, 53), dtype=np.int64)
    for card in parse_cards([laid]):
        p, _ = settle(hands, used, st, points, scores, 0, pr)
        assert card in hands[p], (card, p)
        lay(
            hands,
            used,
            series,
            st,
            int(np.flatnonzero(hands[p] == card)[0]),
            points,
            scores,
            0,
            known,
            pr,
        )
    assert settle(hands, used, st, points, scores, 0, pr) == (-1, -1)
    return points.tolist()


def test_a_go_goes_round_three_players():
    """K Q 9 (29): the pone cannot lay, the next lays an ace (30), the third and the pone
    cannot, nor can the ace's player: 1 for the go to it, and the third leads. T 5 (15 for
    2) 4 J (29): nobody can lay, the go to the jack's player, and the pone leads: 6 8 3 7,
    the last card 1 to the pone."""
    spec = TABLES["three"]
    points = _scripted(
        spec, ["KH 5C 6D 7S", "QH AC 4D 8C", "9S TC JD 3H"], "KH QH 9S AC TC 5C 4D JD 6D 8C 3H 7S"
    )
    assert points == [2 + 1, 1, 1]


def test_a_31_with_a_pair_from_the_third_player():
    """K 2 3 (15 for 2 to the third) 4 (a run of three, 3 to the pone) 6 6: the third
    player's six pairs the second's and makes 31, 2 + 2."""
    spec = TABLES["three"]
    assert _scripted(spec, ["KH 4S", "2D 6H", "3C 6D"], "KH 2D 3C 4S 6H 6D") == [3, 0, 6]


def test_a_team_reaches_the_game_in_the_show_before_the_dealer_counts():
    """Partners: four aces, four nines, four eights, four sixes (each throws its fifth
    card), K cut. The play: A 9 8 6 A 6 (31, 2 to the dealer) twice; 9 8 9, a go to the 9s;
    the last 8 alone, 1 for the last card. The pone's team, at 100, pegs 1 and counts 12 and
    12: 125 at the third hand, so neither the dealer's hand nor the crib is counted; the
    dealer's team, at 90, has pegged 5 and counted 12."""
    spec = TABLES["partners"]
    top = parse_cards(["AC AD AH AS 2C 9C 9D 9H 9S 3D 8C 8D 8H 8S 4H 6C 6D 6H 6S TS KS"])
    deck = np.array(top + [c for c in range(52) if c not in top], dtype=np.int64)
    scores = np.array([100, 90], dtype=np.int64)
    parts = np.zeros(part_count(4), dtype=np.int64)
    w = play_deal(
        deck,
        np.full((4, 2), GREEDY_PAIR),
        scores,
        121,
        rank_table(15),
        parts,
        spec.as_array(),
        NO_EXPERT,
        np.array([4, 4, 4, 4]),
        np.zeros(64, dtype=np.int64),
    )
    assert (w, scores.tolist()) == (0, [125, 107])
    # heels, pegging from the dealer back to the pone, the hands, the crib, the pone's crib
    assert parts.tolist() == [0, 4, 1, 1, 0, 12, 12, 12, 0, 0, 0]


def test_the_spec_refuses_what_a_table_does_not_play():
    for kw, says in [
        ({"players": 3, "hand_size": 5, "crib_size": 6}, "crib of 4"),
        ({"partners": True}, "two against two"),
        ({"players": 3, "hand_size": 5, "bid": True}, "do not combine with bid"),
        ({"players": 3, "hand_size": 5, "lowball": True}, "two sides"),
        ({"five_card": True}, "deals 5 cards each"),
    ]:
        with pytest.raises(CribsolveError, match=says):
            CribbageSpec(**kw)


def _simulate(*args):
    code, out, err = run("simulate", "--variant", "cribbage", "--json", "--quiet", *args)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize(
    "args", [["--players", "3"], ["--players", "4"], ["--players", "4", "--partners"]]
)
def test_simulate_a_table_by_seat(args):
    d = _simulate("-n", "300", "--seed", "4", *args)
    assert sum(w["wins"] for w in d["wins_by_seat"]) == 300
    assert len(d["wins_by_seat"]) == (2 if "--partners" in args else int(args[1]))
    for w in d["wins_by_seat"]:
        assert w["win_rate_ci"] == pytest.approx(wilson_by_quadratic(w["wins"], 300))
    dealer = d["points_by_seat"][-1]
    assert dealer["points"] == pytest.approx(
        dealer["pegging"] + dealer["hand"] + d["crib"] + d["heels"]
    )
    # a hand of 4 kept from 5 averages more than the 4.77 of any 4 cards; a crib of 4
    # thrown one by one by players who keep their best cards, less
    assert all(6 < s["hand"] < 7.5 for s in d["points_by_seat"]) and 3.5 < d["crib"] < 5
    assert _simulate("-n", "300", "--seed", "4", "--jobs", "1", *args) == d


def test_five_card_pone_takes_three_at_the_start():
    """A five-card game to 3: the first pone's three for last wins it before a card is
    dealt; to 4 it does not."""
    d = _simulate("-n", "50", "--five-card", "--game-length", "3")
    assert d["win_rate"] == 0 and d["deals_per_game"] == 0
    assert _simulate("-n", "50", "--five-card", "--game-length", "4")["deals_per_game"] >= 1


def test_best_discard_for_a_seat_of_four_is_exact_over_the_starter():
    """The kept hand's mean over the 47 starters, by the slow scorer."""
    code, out, _ = run("best-discard", "5H 5S JD 6C 7H", "--players", "4", "--dealer", "--json")
    best = json.loads(out)["discards"][0]
    keep = parse_cards(["5H 5S 6C 7H"])
    hand = (
        sum(
            sum(slow_score(keep, [s]).values())
            for s in range(52)
            if s not in keep + parse_cards(["JD"])
        )
        / 47
    )
    assert code == 0 and best["hand"] == pytest.approx(hand)


@pytest.mark.parametrize(
    "args,says",
    [
        (
            ["simulate", "--variant", "cribbage", "--players", "3", "--policy", "expert1"],
            "the expert policy searches the two-player play",
        ),
        (["simulate", "--variant", "cribbage", "--partners"], "two against two"),
        (["simulate", "--variant", "cribbage", "--players", "3", "--lowball"], "two sides"),
        (
            ["odds", "--players", "3", "--my-score", "1", "--their-score", "2", "--dealer"],
            "--my-score does not apply to three players (give --scores A,B,C",
        ),
        (
            ["best-play", "5H", "--players", "4", "--my-score", "3", "--their-score", "4"],
            "--my-score does not apply to best-play with three or four players",
        ),
        (["best-discard", "5H 5S JD 6C 7H 8H", "--players", "3", "--dealer"], "a hand is 5 cards"),
    ],
)
def test_what_a_table_is_not_offered_is_refused_in_one_line(args, says):
    code, out, err = run(*args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
