"""The expert at three and four players (docs/RULES.md §8, "The simulated players"): its throw
in closed form against best-discard's enumeration, its search against the exact expectation
of a position whose later cards are forced (test_sampled_play.exact), the goes a play's
state shows, the flags that keep it out of other players' code, simulate and the computer."""

import json

import numpy as np
import pytest
from clihelp import run
from test_sampled_play import exact, tokens_of

from cribsolve import parse_cards
from cribsolve.core.expect import WIDTH, options_distribution
from cribsolve.core.fastev import ev_discard_one, expected_crib_three_unknown, unseen_counts
from cribsolve.core.hand_options import discard_options, unseen_cards
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals.game import flags
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES
from cribsolve.games.cribbage.players.bestplay import play_arrays, read_position
from cribsolve.games.cribbage.players.policies import go_floors, search_choice, search_values
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw.best_discard import best_discard
from cribsolve.games.cribbage.throw.values import deal_options

THREE = CribbageSpec(players=3, hand_size=5)
FOUR = CribbageSpec(players=4, hand_size=5)
HANDS = ["5H 5S JD 6C 7H", "2C 3C 4C 9C JC", "AS 2D KH QH JS", "5D TD JH KS 4S", "7S 8S 8D 9H AC"]


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("full_flush", [True, False])
def test_the_closed_form_crib_is_the_enumeration(hand, full_flush):
    """E[crib] of each card thrown, three other crib cards and the starter unknown: the
    closed form against expect.options_distribution, which scores every crib."""
    cards = parse_cards([hand])
    keeps, discs = (np.array(a) for a in discard_options(cards, 1))
    unseen = np.array(unseen_cards(cards))
    table = rank_table(15)
    means = np.zeros((5, 2))
    options_distribution(
        keeps, discs, unseen, 1, np.ones(338), table, full_flush, False, np.zeros((5, WIDTH)), means
    )
    n, u = unseen_counts(unseen)
    for o in range(5):
        got = expected_crib_three_unknown(discs[o, 0], unseen, n, u, table, full_flush)
        assert got == pytest.approx(means[o, 1], abs=1e-12)


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("seat", ["dealer", "pone"])
def test_the_experts_throw_is_best_discards(hand, seat):
    """The throw the expert makes at three or four players is best-discard --players 3's
    first (uniform crib cards), in the engine's order of options (values.deal_options)."""
    cards = parse_cards([hand])
    best = best_discard(cards, seat, opponent="uniform")[0]
    _, disc = deal_options(5, THREE.as_array())
    o = ev_discard_one(
        np.array(cards),
        np.array(unseen_cards(cards)),
        rank_table(15),
        1.0 if seat == "dealer" else -1.0,
    )
    assert [cards[disc[o, 0]]] == best.discard


def test_the_goes_a_state_shows():
    """Seats passed over since the last card said go at the count: each holds cards worth
    more than the count left. st = [cards in the series, count, turn, last]."""
    pr = FOUR.as_array()
    assert go_floors(4, np.array([3, 25, 3, 0]), pr).tolist() == [-1, 6, 6, -1]
    assert go_floors(4, np.array([3, 28, 1, 1]), pr).tolist() == [3, -1, 3, 3]
    assert go_floors(4, np.array([3, 25, 1, 0]), pr).tolist() == [-1, -1, -1, -1]
    assert go_floors(3, np.array([0, 0, 2, 1]), pr).tolist() == [-1, -1, -1]


def test_the_search_values_the_exact_expectation():
    """Three players: AC 2D 3H 4S 6C 7D 8H (31) 9C, me (seat 2) to lay at 9 with 6H KH,
    every later card forced: each card's mean over the search's deals against the exact
    mean over every deal (test_sampled_play.exact; no go yet); 6H's fifteen is the better
    card."""
    me, played = 2, "AC 2D 3H 4S 6C 7D 8H 9C"
    hand = parse_cards(["6H KH"])
    tokens = tokens_of(played)
    now = read_position(hand, tokens, me, THREE)
    arrays = play_arrays(now, hand, me, tokens, hand, THREE)
    want = exact(THREE, me, hand, played, goes=False)
    vals = search_values(*arrays, 6000, THREE.as_array())
    at = len(now.laid[me])  # my cards' places follow those I laid
    assert np.isnan(vals[:at]).all()
    for i, c in enumerate(["6H", "KH"]):
        m, t = want[c]
        v = vals[at + i]
        assert abs(v[0] - m) <= 0.1 and abs(v[1] - t) <= 0.1, (c, v, m, t)
    assert want["6H"][0] - want["6H"][1] > want["KH"][0] - want["KH"][1] + 1
    assert search_choice(*arrays, THREE.as_array()) == at


def test_only_the_players_seated_are_compiled():
    """The flags of a game (jit.variant): the expert at three or four compiles its search
    and not the two-player one; nobody else's game compiles it."""

    def on(policies, spec):
        f = flags(np.array([CRIBBAGE_POLICIES[p] for p in policies]), spec.as_array())
        return f["EXPERT_ON"], f["EXPERTN_ON"]

    assert on(["expert", "lookahead", "lookahead"], THREE) == (False, True)
    assert on(["lookahead"] * 3, THREE) == (False, False)
    assert on(["greedy"] * 4, FOUR) == (False, False)
    assert on(["expert", "greedy"], CribbageSpec()) == (True, False)


def test_the_computer_throws_and_lays_as_the_expert():
    """Computer("expert") at three players: best-discard's throw, a card it holds, and the
    only card that fits at 28."""
    from cribsolve.games.cribbage.table.computer import Computer

    c = Computer("expert", THREE)
    dealt = parse_cards(["5H 5S JD 6C 7H"])
    kept, thrown = c.throw(dealt, True, 0, 2)
    assert thrown == best_discard(dealt, "dealer", opponent="uniform")[0].discard
    laid = [parse_cards(["KS"]), parse_cards(["QD"]), []]
    card = c.lay(kept, thrown, laid, [13, 12], 20, 1, 2, 0)
    assert card in kept
    kept = parse_cards(["8D 3H 9S TC"])  # KS QD 8D (28), go, go: seat 2 lays on
    laid = [parse_cards(["KS"]), parse_cards(["QD"]), parse_cards(["8D"])]
    assert c.lay(kept, [], laid, [13, 12, 8], 28, 2, 2, 0) == parse_cards(["3H"])[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "args", [["--players", "3"], ["--players", "4"], ["--players", "4", "--partners"]]
)
def test_simulate_the_expert_at_a_table(args):
    """simulate --policy expert with three or four: every game has a winner, and the
    numbers do not depend on the thread count."""
    cmd = ["simulate", "--variant", "cribbage", "--policy", "expert", "--opponent-policy"]
    code, out, err = run(*cmd, "lookahead", "-n", "30", "--json", "--quiet", *args)
    assert code == 0, err
    d = json.loads(out)
    assert sum(w["wins"] for w in d["wins_by_seat"]) == 30
    code, again, err = run(*cmd, "lookahead", "-n", "30", "--json", "--quiet", "--jobs", "1", *args)
    assert json.loads(again) == d
