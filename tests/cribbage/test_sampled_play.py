"""best-play with three or four players, partners and the five-card game (bestplay.sampled_play,
docs/RULES.md §8): its sampled values against the exact expectation over every deal of the
others' cards that fits the written play, found by brute force with the play-state (which
tests/cribbage/test_play.py holds to the slow reference engine); hand-worked positions; the
command line."""

import copy
import json
from itertools import permutations

import pytest
from clihelp import run

from cribsolve import parse_cards
from cribsolve.core.notation import format_card
from cribsolve.errors import CardError
from cribsolve.games.cribbage.players.bestplay import read_position, sampled_play
from cribsolve.games.cribbage.rules.pegging import GO, PlayState
from cribsolve.games.cribbage.rules.spec import CribbageSpec

THREE = CribbageSpec(players=3, hand_size=5)
PARTNERS = CribbageSpec(players=4, hand_size=5, partners=True)
FIVE = CribbageSpec(five_card=True, hand_size=5, game_length=61)


def tokens_of(text):
    return [GO if t == "go" else parse_cards([t])[0] for t in text.split()]


def _replays(state, tokens):
    """Whether the written play can happen with the state's (known) hands: every card laid by
    the seat holding it in its turn, every go by a seat that could not lay."""
    j = 0
    made, _ = state.settle()
    while True:
        for _ in made:
            if j < len(tokens) and tokens[j] is GO:
                j += 1
        if j == len(tokens):
            return True
        tok, j = tokens[j], j + 1
        if tok is GO:
            if state.go_error():
                return False
            made, _ = state.go()
        elif tok not in state.hands[state.turn] or state.card_error(tok):
            return False
        else:
            state.lay(tok)
            made, _ = state.settle()


def _rest(state, card, me, spec):
    """[my side's points, the other sides' mean] over the rest of the play after I lay
    ``card``, every later card forced (each hand holds at most one card that fits)."""
    pts = [0] * spec.players
    pts[me] += state.lay(card)
    while True:
        _, points = state.settle()
        for p, n in points:
            pts[p] += n
        if state.over:
            break
        fit = [c for c in state.hands[state.turn] if state.fits(c)]
        assert len(fit) == 1
        pts[state.turn] += state.lay(fit[0])
    sides = spec.sides
    mine = sum(pts[p] for p in range(spec.players) if p % sides == me % sides)
    return mine, sum(pts) - mine if spec.partners else (sum(pts) - mine) / (sides - 1)


def exact(spec, me, hand, played, goes=True):
    """{card: (E[mine], E[theirs])} over every deal of the unseen cards to the others' places
    (one card each at most) that the written play allows (all of them when not ``goes``)."""
    tokens = tokens_of(played)
    hidden = PlayState(spec)
    seats = []  # who laid each card, from the hidden replay
    for tok in tokens:
        hidden.settle()
        if tok is GO:
            hidden.go()
            continue
        seats.append(hidden.turn)
        hidden.lay(tok)
    hidden.settle()
    laid = [
        [c for c, s in zip([t for t in tokens if t is not GO], seats) if s == p]
        for p in range(spec.players)
    ]
    left = [spec.kept - len(x) - (len(hand) if p == me else 0) for p, x in enumerate(laid)]
    others = [p for p in range(spec.players) if p != me and left[p]]
    assert all(left[p] == 1 for p in others)
    pool = [c for c in range(52) if c not in hand and all(c not in x for x in laid)]
    total, ways = {}, 0
    for drawn in permutations(pool, len(others)):
        rest = [list(hand) if p == me else [] for p in range(spec.players)]
        for p, c in zip(others, drawn):
            rest[p].append(c)
        if goes and not _replays(PlayState(spec, [x + y for x, y in zip(laid, rest)]), tokens):
            continue
        state = copy.deepcopy(hidden)  # the play so far, its goes as written
        state.hands = rest
        assert state.turn == me
        ways += 1
        for c in hand:
            if state.fits(c):
                m, t = _rest(copy.deepcopy(state), c, me, spec)
                a, b = total.get(c, (0, 0))
                total[c] = (a + m, b + t)
    return {format_card(c): (m / ways, t / ways) for c, (m, t) in total.items()}


# Three players, seat 2 (the dealer) to lead a new series: 9H QD JD, 2H (31 for 2 to seat
# 0), 2C 4S QC 6H (22); nobody can lay, 1 to seat 1; seats 0 and 1 said go at 22, so each
# holds a ten-card. Four players as partners, seat 1 to lead a new series, seat 0 out of
# cards, seats 2 and 3 one card each, worth more than 8 (seat 2's go at 23) and 4 (seat 3's
# at 27). Five-card: the dealer at 25, the pone one card left.
POSITIONS = {
    "three": (THREE, 2, "TH KH", "9H QD JD 2H 2C 4S QC 6H go go go"),
    "partners": (PARTNERS, 1, "TH 8C", "3C 4D 4S JH 5H go AD go AC 2C go go 9C 4H KD go 7C go go"),
    "five-card": (FIVE, 1, "6C AS", "KS QD 5H"),
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_sampled_values_match_the_exact_expectation(name):
    spec, me, hand, played = POSITIONS[name]
    want = exact(spec, me, parse_cards([hand]), played)
    rows, _ = sampled_play(parse_cards([hand]), tokens_of(played), me, (), spec, 4000, 3)
    assert sorted(r.card for r in rows) == sorted(want)
    for r in rows:
        m, t = want[r.card]
        assert abs((r.mine - r.theirs) - (m - t)) <= 4 * r.se + 1e-9, (r, m, t)
        assert abs(r.mine - m) <= 0.15 and abs(r.theirs - t) <= 0.15, (r, m, t)


def test_the_goes_matter_in_these_positions():
    """Without the goes' bounds the exact answers are many standard errors from the sampled
    ones, so the test above would see a sampler that ignored the goes (or drew them with a
    bias, as taking the first cards of one shuffle that fit would)."""
    for name in ("three", "partners"):
        spec, me, hand, played = POSITIONS[name]
        without = exact(spec, me, parse_cards([hand]), played, goes=False)
        rows, _ = sampled_play(parse_cards([hand]), tokens_of(played), me, (), spec, 4000, 3)
        assert (
            max(
                abs((r.mine - r.theirs) - (without[r.card][0] - without[r.card][1])) / r.se
                for r in rows
            )
            > 8
        ), name


def test_five_card_31_ends_the_play():
    """Five-card, as the dealer at 25 (KS QD 5H) with 6C AS: 6C makes 31 for 2 and the play,
    one series, is over, the pone's last card unlaid: 2 to 0 on every deal."""
    rows, _ = sampled_play(parse_cards(["6C AS"]), tokens_of("KS QD 5H"), 1, (), FIVE, 200, 0)
    six = next(r for r in rows if r.card == "6C")
    assert (six.mine, six.theirs, six.se) == (2.0, 0.0, 0.0)


def test_a_go_contradicted_by_a_later_card_is_refused():
    """Three players, me seat 1: KS QD 2C (22), seat 0 says go, I lay 8H (30), seat 2 and I
    say go: 1 to me, seat 2 leads 3H, and seat 0 lays 5C, which would have fit at 22."""
    played = tokens_of("KS QD 2C go 8H go go 3H 5C")
    with pytest.raises(
        CardError,
        match=r"seat 0 \(dealer's left\) said go at 22 and later "
        r"laid 5C, which fit there",
    ):
        read_position(parse_cards(["4H 9S"]), played, 1, THREE)
    now = read_position(parse_cards(["4H 9S"]), tokens_of("KS QD 2C go 8H go go 3H TC"), 1, THREE)
    assert (now.count, now.left, now.floors, now.last) == (13, [2, 2, 2], [9, 1, 1], 0)


def test_cli_three_players_json_and_refusals():
    code, out, err = run(
        "best-play",
        "TH KH",
        "--played",
        POSITIONS["three"][3],
        "--players",
        "3",
        "--samples",
        "500",
        "--json",
    )
    assert code == 0, err
    got = json.loads(out)
    assert (got["seat"], got["seat_number"], got["count"], got["samples"]) == ("dealer", 2, 0, 500)
    assert sorted(p["card"] for p in got["plays"]) == ["KH", "TH"]
    assert all(p["se"] > 0 for p in got["plays"])
    code, out2, err = run(
        "best-play",
        "TH KH",
        "--played",
        POSITIONS["three"][3],
        "--players",
        "3",
        "--samples",
        "500",
        "--json",
        "--dealer",
    )
    assert code == 0 and out2 == out, err  # the sequence told the seat already
    for args, words in [
        (["--pone"], "do not fit 3 hands of 4"),
        (["--my-score", "5"], "does not apply"),
        (["--dealer", "--pone"], "not both"),
    ]:
        code, out, err = run(
            "best-play", "TH KH", "--played", POSITIONS["three"][3], "--players", "3", *args
        )
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (args, err)
    code, _, err = run(
        "best-play", "TH KH", "--played", POSITIONS["three"][3][:-3], "--players", "3"
    )  # seat 1's go left out
    assert code == 2 and "it is seat 1 (dealer's right)'s turn after that sequence" in err, err
    code, _, err = run("best-play", "TS 2C 3D 8H", "--played", "5H", "--policy", "lookahead")
    assert code == 2 and "--policy" in err
