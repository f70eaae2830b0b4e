"""The play: hand-worked sequences, a scripted deal end to end, and the game engine."""
import numpy as np
import pytest

from cribsolve import format_card, parse_cards, ruleset, score_hand
from cribsolve.pegging import GREEDY, LOOKAHEAD, MAX_EVENTS, RANDOM, STANDARD, _seed, card_points, \
    play
from cribsolve.inference import throw_model
from cribsolve.variants.spec import CribbageSpec
from cribsolve.scoring.table import rank_table
from cribsolve.variants import throws, twoplayer as tp

TRACE = np.zeros(MAX_EVENTS + 1, dtype=np.int64)


def seq_points(text):
    """Points of the last card of a series typed as ranks, e.g. '5 T'."""
    ranks = [{"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(r) or int(r) for r in text.split()]
    return card_points(np.array(ranks, dtype=np.int64), len(ranks),
                       sum(min(r, 10) for r in ranks), STANDARD)


@pytest.mark.parametrize("seq,pts", [
    ("5 T", 2),                 # fifteen
    ("7 7", 2), ("7 7 7", 6), ("7 7 7 7", 12),
    ("4 6 5", 2 + 3),           # run of three out of order, and fifteen
    ("2 4 3 5", 4),             # run of four in any order
    ("5 7 7 6", 0),             # the repeated 7 breaks the run
    ("7 7 6 5", 3),             # ...but the last three alone are a run
    ("A 2 3 4 5", 2 + 5),       # run of five making fifteen
    ("K Q J", 3), ("Q K A", 0), # ace is low only
    ("T T T A", 2),             # 31 (not a pair)
    ("T 5 6 J", 2),             # 31 for 2
    ("8 7", 2), ("9 5 9", 0),   # a pair must be on the card just before
])
def test_hand_worked_play_scores(seq, pts):
    assert seq_points(seq) == pts


def run_play(pone, dealer, policies=(GREEDY, GREEDY), target=0, scores=(0, 0), trace=None):
    hands = np.array([parse_cards([pone]), parse_cards([dealer])], dtype=np.int64)
    known = np.zeros((2, 53), dtype=np.int64)
    for p in range(2):
        known[p, hands[p]] = 1
    points = np.zeros(2, dtype=np.int64)
    sc = np.array(scores, dtype=np.int64)
    w = play(hands, np.zeros((2, 4), dtype=np.bool_), np.zeros(8, dtype=np.int64),
             np.array([0, 0, 0, -1], dtype=np.int64), np.array(policies), known, points, sc,
             target, STANDARD, TRACE.copy() if trace is None else trace,
             throw_model(CribbageSpec()))
    return points.tolist(), w, sc.tolist()


def test_scripted_play_with_go_and_reset():
    # pone TC, dealer 5S (15: 2), pone 5H (pair: 2), dealer KD (30), pone cannot, dealer
    # cannot: go, 1 to the dealer; pone leads 4D, dealer 6C, pone 9S, dealer 8H: last card 1
    assert run_play("5H TC 4D 9S", "KD 5S 6C 8H") == ([2, 4], -1, [2, 4])


def test_the_trace_keeps_the_order_of_the_points():
    """The same play: the dealer's 15, the pone's pair, the dealer's go, the dealer's last
    card; each logged as 2 * points + player (1: the dealer)."""
    trace = TRACE.copy()
    run_play("5H TC 4D 9S", "KD 5S 6C 8H", trace=trace)
    assert trace[:trace[0] + 1].tolist() == [4, 2 * 2 + 1, 2 * 2 + 0, 2 * 1 + 1, 2 * 1 + 1]
    trace = TRACE.copy()               # stopped at the target: nothing after the winning 15
    run_play("5H TC 4D 9S", "KD 5S 6C 8H", target=120, scores=(100, 118), trace=trace)
    assert trace[:trace[0] + 1].tolist() == [1, 2 * 2 + 1]


def test_thirty_one_resets_and_last_card():
    # KS, QS (20), 2C (22: greedy avoids leaving 21), 9D = 31 for 2 and a new series led by
    # the pone: AH, TD, 3C, 8D (22), last card 1 to the dealer
    assert run_play("KS AH 2C 3C", "QS TD 9D 8D") == ([0, 3], -1, [0, 3])


def test_game_stops_mid_play_at_target():
    pts, w, sc = run_play("5H TC 4D 9S", "KD 5S 6C 8H", target=120, scores=(100, 118))
    assert w == 1 and sc[1] == 120                  # the dealer's 15 for 2 ends it at once


def test_scripted_deal_end_to_end():
    """A fixed deck: EV discards, heels, the play and the show, each checked on its own."""
    pone6, dealer6, starter = parse_cards(["5H TC 4D 9S 2C 3C"]), parse_cards(
        ["KD 5S 6C 8H AS AD"]), parse_cards(["JH"])[0]
    rest = [c for c in range(52) if c not in pone6 + dealer6 + [starter]]
    deck = np.array(pone6 + dealer6 + [starter] + rest, dtype=np.int64)
    parts = np.zeros(tp.NP, dtype=np.int64)
    sc = np.zeros(2, dtype=np.int64)
    pol = np.array([[1, GREEDY], [1, GREEDY]])
    assert tp.play_deal(deck, pol, sc, 0, rank_table(), parts, STANDARD, tp.NO_EXPERT, tp.FREE,
                          TRACE.copy()) == -1
    kept, crib = [], []
    keep_idx, disc_idx = throws.throw_options(6, 2)
    for six, dealer in ((pone6, False), (dealer6, True)):
        o = throws.choose_throw(np.array(six), dealer, 1, rank_table(), STANDARD, keep_idx,
                                disc_idx, -1, np.bincount(six, minlength=53), int(dealer),
                                tp.NO_EXPERT[0])
        kept.append([six[i] for i in keep_idx[o]])
        crib += [six[i] for i in disc_idx[o]]
    std = ruleset("standard")
    pegged, _, _ = run_play(" ".join(map(format_card, kept[0])),
                            " ".join(map(format_card, kept[1])))
    assert parts.tolist() == [
        2,                                               # heels: the starter is a jack
        pegged[1], pegged[0],
        score_hand(kept[0], [starter], std, itemized=False).total,
        score_hand(kept[1], [starter], std, itemized=False).total,
        score_hand(crib, [starter], std, crib=True, itemized=False).total, 0]
    assert sc.tolist() == [parts[2] + parts[3], parts[0] + parts[1] + parts[4] + parts[5]]


def test_policies_never_see_hidden_cards():
    """The look-ahead's and the expert's choices depend only on what their player has seen:
    swapping the opponent's hidden cards for other unseen cards (same seed) changes nothing."""
    from cribsolve.pegging import _seed, expected_pegging, lookahead_choice
    from cribsolve.pegsearch import expert_choice
    mine = parse_cards(["5H TC 4D 9S"])
    seen = mine + parse_cards(["KS QS JH"])            # my discards and the starter
    known = np.zeros((2, 53), dtype=np.int64)
    known[0, seen] = 1
    results = set()
    for theirs in (["KD 5S 6C 8H"], ["AC 2D 3H 7S"], ["5C 5D TH TD"]):
        hands = np.array([mine, parse_cards(theirs)], dtype=np.int64)
        known[1] = 0
        known[1, hands[1]] = 1
        st = np.array([0, 0, 0, -1], dtype=np.int64)
        _seed(7)
        pick = lookahead_choice(hands, np.zeros((2, 4), dtype=np.bool_),
                                np.zeros(8, dtype=np.int64), st, known, STANDARD)
        _seed(7)
        ev = expected_pegging(hands, np.zeros((2, 4), dtype=np.bool_),
                              np.zeros(8, dtype=np.int64), st, known, 0, 50, STANDARD)
        _seed(7)
        expert = expert_choice(hands, np.zeros((2, 4), dtype=np.bool_),
                               np.zeros(8, dtype=np.int64), st, known, STANDARD,
                               throw_model(CribbageSpec()))
        results.add((pick, ev, expert))
    assert len(results) == 1


def test_games_end_at_121_and_are_deterministic():
    pol = np.array([[1, GREEDY], [1, RANDOM]])
    a = tp.play_games(np.arange(200, dtype=np.int64), pol, rank_table(), STANDARD)
    assert (a[:, 3] >= 121).all() and (a[:, 4] < 121).all()
    b = tp.play_games(np.arange(200, dtype=np.int64), pol, rank_table(), STANDARD)
    assert (a == b).all()
    short = tp.play_games(np.arange(50, dtype=np.int64), pol, rank_table(),
                          CribbageSpec(game_length=61).as_array())
    assert (short[:, 3] >= 61).all() and (short[:, 4] < 61).all()


def spec_points(text, **rules):
    ranks = [{"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(r) or int(r) for r in text.split()]
    return card_points(np.array(ranks, dtype=np.int64), len(ranks),
                       sum(min(r, 10) for r in ranks), CribbageSpec(**rules).as_array())


@pytest.mark.parametrize("seq,rules,pts", [
    ("6 T", {"target": 16}, 2), ("5 T", {"target": 16}, 0),      # the house target of 16
    ("T T T A", {"peg_limit": 41}, 0),                          # 31 is nothing special now
    ("T T T T A", {"peg_limit": 41}, 2),                        # ...41 is
    ("T T T A", {"target": 31}, 2 + 2),                         # target and limit both 31
])
def test_house_rules_in_the_play(seq, rules, pts):
    assert spec_points(seq, **rules) == pts


@pytest.mark.parametrize("rules", [{}, {"target": 16}, {"peg_limit": 41}, {"peg_limit": 12},
                                   {"game_length": 61}, {"lowball": True, "game_length": 61},
                                   {"target": 11, "peg_limit": 25, "game_length": 241},
                                   {"jokers": 2}, {"decks": 2}, {"decks": 2, "jokers": 4},
                                   {"lowball": True, "jokers": 1, "target": 16},
                                   {"hand_size": 8, "decks": 2, "starters": 2,
                                    "game_length": 241},
                                   {"hand_size": 5, "crib_size": 2}, {"starters": 2},
                                   {"hand_size": 9, "crib_size": 6, "game_length": 361}])
def test_random_and_greedy_games_end_as_the_spec_says(rules):
    spec = CribbageSpec(**rules)
    length = spec.game_length
    for pol in ([[0, RANDOM], [0, RANDOM]], [[1, GREEDY], [1, LOOKAHEAD]]):
        rows = tp.play_games(np.arange(300, dtype=np.int64), np.array(pol),
                             rank_table(spec.target), spec.as_array())
        won, lost = rows[:, 3], rows[:, 4]
        if spec.lowball:             # whoever reaches the length loses
            assert (lost >= length).all() and (won < length).all()
        else:
            assert (won >= length).all() and (lost < length).all()
        assert (rows[:, 5] <= rows[:, 2]).all() and (rows[:, 6:] >= 0).all()


def test_lowball_players_score_less():
    low, high = (tp.play_games(np.arange(300, dtype=np.int64), np.array([[1, GREEDY]] * 2),
                               rank_table(), CribbageSpec(lowball=lb).as_array())
                 for lb in (True, False))
    per_deal = [r[:, 6:6 + tp.NP].sum() / r[:, 5].sum() for r in (low, high)]
    assert per_deal[0] < per_deal[1] - 3


def test_variations_rows_are_the_games_of_each_rule():
    from cribsolve.simulate import simulate_cribbage
    from cribsolve.variations import COLUMNS, RULES, variations
    rows = variations(150, seed=3)
    assert [r["rule"] for r in rows] == [name for name, _ in RULES]
    assert all(list(r) == COLUMNS for r in rows)
    std = simulate_cribbage(150, seed=3).as_dict()
    assert rows[0]["first_dealer_wins"] == std["win_rate"]
    assert rows[0]["largest_hand"] == std["largest_hand"] <= 29
    by = {r["rule"]: r for r in rows}
    assert by["to 61"]["deals_per_game"] < by["standard"]["deals_per_game"] \
        < by["to 241"]["deals_per_game"]
    assert by["lowball to 60"]["skunk_rate"] is None


def brute_throw_value(dealt, keep, disc, unseen, first, dealer, spec):
    """E[hand] + sign * E[crib] over every unknown starter and opponent throw (uniform)."""
    from itertools import combinations
    from slow_scorer import slow_score
    t = len(disc)
    total, n = 0.0, 0
    for i, s in enumerate(unseen):
        starters = ([first] if first >= 0 else []) + [s]
        h = sum(slow_score([dealt[j] for j in keep], starters, spec.target).values())
        others = unseen[:i] + unseen[i + 1:]
        for opp in combinations(others, t):
            c = sum(slow_score([dealt[j] for j in disc] + list(opp), starters, spec.target,
                               True).values())
            total += h + (c if dealer else -c)
            n += 1
    return total / n


@pytest.mark.parametrize("rules,dealer", [({"hand_size": 7}, True), ({"hand_size": 8}, False),
                                          ({"starters": 2}, True),
                                          ({"hand_size": 7, "crib_size": 6}, False)])
def test_throw_values_against_brute_force(rules, dealer):
    """Exact where the crib is 4 cards and one starter; the sampled crib of the other deals
    averages to the exact value."""
    spec = CribbageSpec(**rules)
    pr = spec.as_array()
    rng = np.random.default_rng(len(str(rules)))
    cards = rng.permutation(52)
    h, t = spec.hand_size, spec.crib_size // 2
    dealt = cards[:h]
    first = int(cards[h]) if spec.starters == 2 else -1
    unseen = sorted(cards[h + 1:h + 13].tolist())
    keep_idx, disc_idx = throws.throw_options(h, t)
    options = [0, len(keep_idx) // 2, len(keep_idx) - 1]
    exact = [brute_throw_value(dealt.tolist(), keep_idx[o], disc_idx[o], unseen, first, dealer,
                               spec) for o in options]
    runs = []
    for seed in range(1 if spec.starters == 1 and t == 2 else 60):
        _seed(seed)
        runs.append(throws.expected_throw_values(dealt, keep_idx, disc_idx,
                                             np.array(unseen, dtype=np.int64), first, dealer,
                                             rank_table(), pr)[options])
    got = np.mean(runs, axis=0)
    tolerance = 1e-9 if len(runs) == 1 else 0.6
    assert np.abs(got - exact).max() < tolerance, (got, exact)


def test_bigger_hands_deal_scores_by_the_definitional_scorer():
    """An 8-card deal with one starter (no randomness in the throws): every show part equals
    the slow scorer on the cards the throws kept."""
    from slow_scorer import slow_score
    spec = CribbageSpec(hand_size=8)
    pr = spec.as_array()
    rng = np.random.default_rng(9)
    for _ in range(5):
        deck = rng.permutation(52).astype(np.int64)
        parts = np.zeros(tp.NP, dtype=np.int64)
        pol = np.array([[1, GREEDY], [1, GREEDY]])
        assert tp.play_deal(deck, pol, np.zeros(2, dtype=np.int64), 0, rank_table(), parts,
                            pr, tp.NO_EXPERT, tp.FREE, TRACE.copy()) == -1
        keep_idx, disc_idx = throws.throw_options(8, 2)
        kept, crib = [], []
        for seat in range(2):
            dealt = deck[8 * seat:8 * seat + 8]
            o = throws.choose_throw(dealt, seat == 1, 1, rank_table(), pr, keep_idx, disc_idx,
                                    -1, np.bincount(dealt, minlength=53), seat,
                                    tp.NO_EXPERT[0])
            kept.append(dealt[keep_idx[o]].tolist())
            crib += dealt[disc_idx[o]].tolist()
        s = int(deck[16])
        assert parts[0] == (2 if s // 4 == 10 else 0)
        assert parts[3:].tolist() == [sum(slow_score(kept[0], [s]).values()),
                                      sum(slow_score(kept[1], [s]).values()),
                                      sum(slow_score(crib, [s], 15, True).values()), 0]
        assert parts[1] + parts[2] >= 1


def test_stink_hole_is_never_a_resting_place():
    pol = np.array([[0, RANDOM], [0, RANDOM]])
    seeds = np.arange(1500, dtype=np.int64)
    plain, stink = (tp.play_games(seeds, pol, rank_table(),
                                  CribbageSpec(game_length=31, stinkhole=s).as_array())
                    for s in (False, True))
    assert (plain[:, 4] == 30).sum() > 20 and (stink[:, 4] == 30).sum() == 0
    assert (stink[:, 3] >= 31).all()
