"""The odds table: its dynamic program against a slow replay of the same deals, and the whole
table against games played out directly from positions across the board."""

import math
from functools import lru_cache

import pytest

from cribsolve.games.cribbage.deals import odds
from cribsolve.games.cribbage.deals.simulate import played_out
from cribsolve.games.cribbage.rules.spec import CribbageSpec


def slow_reach(parts, traces, length, line=None, seats=2):
    """P(my side reaches ``length`` first, the other then under ``line`` if given) from
    (a, b, d), each deal replayed point by point in the order the game counts: the trace
    (heels, then the play), each hand from the dealer's left round to the dealer, then the
    crib. Two players, or two teams of partners (seat s plays for side s % 2; the dealer's,
    the last seat's, is 1); memoised recursion, no shared code with the table."""
    deals = list(zip(parts.tolist(), traces.tolist()))

    @lru_cache(maxsize=None)
    def reach(a, b, d):
        total = 0.0
        for p, tr in deals:
            score = [b, a] if d else [a, b]  # by side: the pone's, the dealer's
            me = 1 if d else 0
            done = None
            for code in tr[1 : 1 + tr[0]]:
                side = code % seats % 2
                score[side] += code // seats
                if score[side] >= length:
                    done = side
                    break
            for seat in range(seats):
                if done is not None:
                    break
                score[seat % 2] += p[1 + seats + seat] + (
                    p[1 + 2 * seats] if seat == seats - 1 else 0
                )
                if score[seat % 2] >= length:
                    done = seat % 2
            if done is not None:
                total += done == me and (line is None or score[1 - me] < line)
            else:
                # the other deals next: I dealt, so next I am the pone, and the other way round
                total += reach(score[1], score[0], 0) if d else reach(score[0], score[1], 1)
        return total / len(deals)

    return reach


PARTNERS = CribbageSpec(players=4, hand_size=5, partners=True)


@pytest.mark.parametrize(
    "spec,length",
    [
        (CribbageSpec(), 48),
        (CribbageSpec(starters=2), 48),
        (CribbageSpec(decks=2, hand_size=8, starters=2), 97),
        (CribbageSpec(lowball=True), 31),
        (PARTNERS, 48),
        (CribbageSpec(five_card=True, hand_size=5), 31),
    ],
)
def test_the_table_equals_a_slow_replay_of_its_deals(spec, length):
    """Positions no deal can finish from, positions only a deal's show can, and positions its
    play can (the page's game: a deal makes up to about 100 points); partners' four hands
    counted in turn between the two teams."""
    rec = odds.deal_records(spec, 60, seed=5)
    reach = odds.reach_table(rec["parts"], rec["traces"], length, seats=spec.players)
    slow = slow_reach(rec["parts"], rec["traces"], length, seats=spec.players)
    for d in range(2):
        for a in range(0, length, 5):
            for b in range(0, length, 3):
                assert reach[d, a, b] == pytest.approx(slow(a, b, d), abs=1e-12)


@pytest.mark.parametrize(
    "spec,length,line",
    [
        (CribbageSpec(), 48, 30),
        (CribbageSpec(decks=2, hand_size=8, starters=2), 97, 60),
        (PARTNERS, 48, 30),
    ],
)
def test_the_skunk_table_equals_a_slow_replay_of_its_deals(spec, length, line):
    """A win counts only with the loser under the line: where the loser's score is taken
    (mid-play, before the dealer's show, after the pone's) is the replay's, point by point."""
    rec = odds.deal_records(spec, 60, seed=6)
    skunk = odds.reach_table(rec["parts"], rec["traces"], length, line, spec.players)
    slow = slow_reach(rec["parts"], rec["traces"], length, line, spec.players)
    for d in range(2):
        for a in range(0, length, 4):
            for b in range(0, length, 3):
                assert skunk[d, a, b] == pytest.approx(slow(a, b, d), abs=1e-12)


def test_game_points_differ_from_wins_only_under_the_skunk_line():
    """The pone at 120 all but wins. Against 91 no win is a skunk: game points are exactly
    2 P(win). Against 60 the dealer would need 31 points before the pone's first, which only
    a pone without a point in the play and the show allows: nearly 3. Against 89 two points
    for the dealer first save it: between the two, with the same P(win). Lowball has none."""
    spec = CribbageSpec()
    win = odds.objective_table(spec, "win")
    points = odds.objective_table(spec, "game-points")
    for theirs in (60, 89, 91):
        assert win[0, 120, theirs] > 0.99
    assert points[0, 120, 91] == pytest.approx(2 * win[0, 120, 91], abs=1e-12)
    assert points[0, 120, 60] > 2.99
    assert 2.05 < points[0, 120, 89] < 2.95
    with pytest.raises(odds.CribsolveError, match="lowball"):
        odds.skunk_table(CribbageSpec(lowball=True))


@pytest.mark.parametrize("spec", [CribbageSpec(), PARTNERS])
def test_traces_hold_the_plays_points(spec):
    n = spec.players
    rec = odds.deal_records(spec, 500, seed=3)
    odds._check_deals(rec, {"deals": 500, "starters": 1, "players": n})
    first = rec["traces"][:, 1]
    jack_cut = rec["parts"][:, 0] == 2
    assert (first[jack_cut] == 2 * n + n - 1).all()  # heels come first, to the dealer
    rec["traces"][0, 1] += 1  # a point moved to another seat
    with pytest.raises(Exception, match="do not add up"):
        odds._check_deals(rec, {"deals": 500, "starters": 1, "players": n})


def test_three_players_have_no_table():
    with pytest.raises(odds.CribsolveError, match="two sides"):
        odds.odds_table(CribbageSpec(players=3, hand_size=5), deals=10)


# positions across the board, near the end above all (mine, theirs, I deal)
POSITIONS = [
    (120, 120, False),
    (116, 116, False),
    (100, 110, True),
    (119, 112, True),
    (105, 117, False),
    (90, 80, True),
]


@pytest.mark.slow
@pytest.mark.parametrize("mine,theirs,i_deal", POSITIONS)
def test_the_table_agrees_with_games_played_out(mine, theirs, i_deal):
    """20,000 games from each position, both players greedy, against the shipped table: the
    difference within 3 standard errors of the games plus the table's goal of half a point.
    (The old table, which took the play and the show as independent and guessed the order
    inside the play, was 1.7 points off at 120-120.)"""
    games = 20_000
    p = odds.odds_table()[1 if i_deal else 0, mine, theirs]
    rate = played_out(CribbageSpec(), mine, theirs, i_deal, games, seed=7) / games
    assert abs(rate - p) < 0.005 + 3 * math.sqrt(p * (1 - p) / games)


def test_played_out_starts_from_the_position():
    # at 120-120 the first point wins, and the dealer's first card can make a 15 or a pair
    assert 100 < played_out(CribbageSpec(), 120, 120, False, 400, seed=1) < 200
    # one point short against 0, dealing: the pone cannot get to 121 in one deal, and the
    # dealer scores nothing in a whole deal very rarely
    assert played_out(CribbageSpec(), 120, 0, True, 200, seed=1) >= 198
    assert 0 < played_out(CribbageSpec(), 0, 0, True, 50, seed=2, policy="lookahead") < 50


@pytest.mark.slow
@pytest.mark.parametrize(
    "mine,theirs,i_deal", [(116, 116, False), (110, 118, True), (100, 105, False)]
)
def test_the_partners_table_agrees_with_games_played_out(mine, theirs, i_deal):
    """Two teams: a table from 20,000 simulated deals against 4,000 games played out from
    positions near the end, both teams greedy, within 3 standard errors of the games plus
    a point for the table's own sampling."""
    games = 4_000
    p = odds.odds_table(PARTNERS, deals=20_000)[1 if i_deal else 0, mine, theirs]
    rate = played_out(PARTNERS, mine, theirs, i_deal, games, seed=8) / games
    assert abs(rate - p) < 0.01 + 3 * math.sqrt(p * (1 - p) / games)
