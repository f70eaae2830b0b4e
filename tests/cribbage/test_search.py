"""Pegging by search against a plain game-tree search over cards, and the holdings against a
brute-force enumeration of the unseen cards."""

from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest

from cribsolve.core.cards import RANK, VALUE
from cribsolve.games.cribbage.players import open_search, pegtable
from cribsolve.games.cribbage.rules.pegging import STANDARD, card_points
from cribsolve.games.cribbage.rules.spec import CribbageSpec


def slow_line(hands, series, count, turn, last, pr, limit=31, aim=1):
    """Both players' points over the rest of the play, each laying its best for its own
    margin: a plain recursive walk over the cards (tuples), the go and last card by hand."""

    @lru_cache(maxsize=None)
    def walk(h0, h1, series, count, turn, last):
        hands = (h0, h1)
        if not h0 and not h1:
            return ((1, 0) if last == 0 else (0, 1)) if count > 0 else (0, 0)
        fits = [[c for c in hands[p] if count + VALUE[RANK[c]] <= limit] for p in range(2)]
        if not fits[turn]:
            if fits[1 - turn]:
                turn = 1 - turn
            else:
                a, b = walk(h0, h1, (), 0, 1 - last, last)
                return (a + 1, b) if last == 0 else (a, b + 1)
        best = None
        for c in fits[turn]:
            rest = list(hands[turn])
            rest.remove(c)
            s = series + (int(RANK[c]),)
            c2 = count + int(VALUE[RANK[c]])
            pts = card_points(np.array(s, dtype=np.int64), len(s), c2, pr)
            nh = (tuple(rest), h1) if turn == 0 else (h0, tuple(rest))
            a, b = walk(*nh, () if c2 == limit else s, 0 if c2 == limit else c2, 1 - turn, turn)
            a, b = (a + pts, b) if turn == 0 else (a, b + pts)
            v = aim * (a - b) if turn == 0 else aim * (b - a)
            if best is None or v > best[0]:
                best = (v, a, b)
        return best[1], best[2]

    return walk(tuple(hands[0]), tuple(hands[1]), tuple(series), count, turn, last)


@pytest.mark.parametrize("rules", [{}, {"lowball": True}, {"target": 16, "peg_limit": 25}])
def test_best_line_equals_a_plain_tree_search(rules):
    spec = CribbageSpec(**rules)
    pr = spec.as_array()
    rng = np.random.default_rng(3)
    for _ in range(60):
        cards = rng.permutation(52)[:8]
        hands = [sorted(cards[:4].tolist()), sorted(cards[4:].tolist())]
        want = slow_line(hands, (), 0, 0, -1, pr, spec.peg_limit, -1 if spec.lowball else 1)
        h = np.array([[RANK[c] for c in hands[0]], [RANK[c] for c in hands[1]]], dtype=np.int64)
        got = open_search.best_line(
            h, np.zeros(2, dtype=np.int64), np.zeros(18, dtype=np.int64), 0, 0, 0, 0, -1, pr
        )
        assert tuple(got) == want, hands


def test_holdings_are_the_unseen_cards_by_rank():
    rng = np.random.default_rng(4)
    unseen = sorted(rng.permutation(52)[:14].tolist())
    avail = np.bincount([RANK[c] for c in unseen], minlength=14)
    for r, min_value in ((2, -1), (3, -1), (3, 6)):
        h, w = open_search.holdings(avail, r, min_value)
        brute = {}
        for cs in combinations(unseen, r):
            if all(VALUE[RANK[c]] > min_value for c in cs):
                key = tuple(sorted(int(RANK[c]) for c in cs))
                brute[key] = brute.get(key, 0) + 1
        assert {tuple(row): wt for row, wt in zip(h.tolist(), w.tolist())} == brute


def test_play_values_average_the_tree_over_every_holding():
    """Mid-play: my 3 cards against every 2 of 8 unseen cards, count 9 (a 4 and a 5)."""
    pr = STANDARD
    mine = [20, 33, 45]  # 6C 9S QS
    series = [4, 5]
    unseen = [0, 7, 13, 22, 26, 38, 41, 50]  # AC 2D 4S 6H 7H TH JS KH
    avail = np.bincount([RANK[c] for c in unseen], minlength=14)
    h, w = open_search.holdings(avail, 2, -1)
    got = open_search.play_values(
        np.array([RANK[c] for c in mine]), np.array(series + [0] * 10), 2, 9, h, w, pr
    )
    for i, c in enumerate(mine):
        outs = []
        for theirs in combinations(unseen, 2):
            rest = [m for m in mine if m != c]
            s = tuple(series) + (int(RANK[c]),)
            c2 = 9 + int(VALUE[RANK[c]])
            pts = card_points(np.array(s), len(s), c2, pr)
            a, b = slow_line([rest, list(theirs)], s, c2, 1, 0, pr)
            outs.append((a + pts, b))
        assert got[i] == pytest.approx(np.mean(outs, axis=0))


def fresh_margins(ranks, seat, deals, rng, margin):
    """My pegging margins keeping ``ranks`` in ``seat`` over fresh deals: my two thrown
    cards, the opponent's six and the starter drawn from the rest, the opponent keeping the
    four its throw model values most (inference.option_values); ``margin(hands, known)``
    plays one deal out (hands: the pone's four, the dealer's; known: each one's seen cards)."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.players import inference

    points = rank_table()
    crib = inference.crib_values(points)
    throws = list(combinations(range(6), 2))
    mine = [4 * (r - 1) + i for i, r in enumerate(ranks)]  # any suits
    rest = [c for c in range(52) if c not in mine]
    out = []
    for _ in range(deals):
        drawn = rng.choice(rest, 9, replace=False).tolist()
        six = drawn[2:8]
        vals = inference.option_values(np.array([RANK[c] for c in six]), 1 - seat, points, crib)
        theirs = [six[q] for q in range(6) if q not in throws[int(np.argmax(vals))]]
        known = [mine + drawn[:2] + drawn[8:], six + drawn[8:]]
        hands = [mine, theirs] if seat == 0 else [theirs, mine]
        a, b = margin(hands, known if seat == 0 else known[::-1])
        out.append(a - b if seat == 0 else b - a)
    return out


@pytest.mark.parametrize("play_as", ["open", "infoset"])
def test_pegging_table_agrees_with_fresh_deals_played_as_its_expert_plays(play_as):
    """An entry of a pegging table (four kept ranks, a seat) is a mean over opponent hands
    (six dealt, the four its throw model prefers kept): fresh deals, played out by the plain
    tree search with both hands open (expert1's table) or by the engine with both players
    searching by information sets as the table's were (expert-drawn's), land within four
    standard errors."""
    from cribsolve.games.cribbage.deals.roster import expert_tables
    from cribsolve.games.cribbage.players.policies import EXPERT_DRAWN, play
    from cribsolve.games.cribbage.rules.pegging import MAX_EVENTS

    spec = CribbageSpec()
    pr = spec.as_array()
    table = pegtable.peg_table(spec, play_as)
    shares = expert_tables(spec, ())[1]

    def open_hands(hands, known):
        return slow_line(hands, (), 0, 0, -1, pr)

    def infoset(hands, known):
        seen = np.zeros((2, 53), dtype=np.int64)
        for p in range(2):
            np.add.at(seen[p], known[p], 1)
        pts = np.zeros(2, dtype=np.int64)
        play(
            np.array(hands),
            np.zeros((2, 4), dtype=np.bool_),
            np.zeros(8, dtype=np.int64),
            np.array([0, 0, 0, -1]),
            np.array([EXPERT_DRAWN, EXPERT_DRAWN]),
            seen,
            pts,
            np.zeros(2, dtype=np.int64),
            0,
            pr,
            np.zeros(MAX_EVENTS + 1, dtype=np.int64),
            shares,
            np.zeros(0, np.int8),
        )
        return pts

    rng = np.random.default_rng(8)
    deals = 150 if play_as == "open" else 60
    for ranks in ([5, 5, 10, 11], [1, 2, 3, 4]):
        code = pegtable.rank_code(np.array(ranks))
        for seat in range(2):
            margins = fresh_margins(
                ranks, seat, deals, rng, open_hands if play_as == "open" else infoset
            )
            se = np.std(margins) / np.sqrt(len(margins))
            se_table = np.std(margins) / np.sqrt(pegtable.SAMPLES[play_as])
            assert abs(np.mean(margins) - table[seat, code]) < 4 * np.hypot(se, se_table)


@pytest.mark.slow
def test_expert_games_end_as_the_spec_says():
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.deals import game as tp
    from cribsolve.games.cribbage.deals.roster import expert_tables
    from cribsolve.games.cribbage.players.policies import EXPERT, GREEDY
    from cribsolve.games.cribbage.throw.values import EXPERT as EXPERT_THROW

    spec = CribbageSpec()
    rows = tp.play_games(
        np.arange(40, dtype=np.int64),
        np.array([[EXPERT_THROW, EXPERT], [1, GREEDY]]),
        rank_table(),
        spec.as_array(),
        expert_tables(spec),
    )
    assert (rows[:, 3] >= 121).all() and (rows[:, 4] < 121).all()


def first_lead(rng):
    """The pone to lead, four cards in hand, having seen its six and the starter."""
    deck = rng.permutation(52)
    hands = np.array([deck[:4], deck[4:8]], dtype=np.int64)
    known = np.zeros((2, 53), dtype=np.int64)
    for c in list(deck[:4]) + list(deck[8:10]) + [deck[12]]:
        known[0, c] += 1
    st = np.array([0, 0, 0, -1], dtype=np.int64)
    return hands, np.zeros((2, 4), dtype=np.bool_), st, known


def test_spread_holdings_take_each_its_share_of_the_few_and_draw_nothing():
    """The expert's holdings where there are more than it searches: systematic sampling over
    the full weighted enumeration, so each holding is taken its share of ``most`` times to
    within one (the counts adding to ``most``), whatever the kernels' random stream holds,
    and they leave it as it was: expert-drawn's draws after them are those of the stream
    untouched (and differ by its seed, so that check could fail)."""
    from cribsolve.games.cribbage.deals.roster import expert_tables
    from cribsolve.games.cribbage.rules.pegging import seed_kernels

    spec = CribbageSpec()
    pr = spec.as_array()
    shares = expert_tables(spec, ())[1]
    rng = np.random.default_rng(5)

    def taken(most, drawn, seed, spread_first=False):
        seed_kernels(seed)
        if spread_first:
            open_search.expert_holdings(hands, used, st, known, pr, shares, most, False)
        _, h, w = open_search.expert_holdings(hands, used, st, known, pr, shares, most, drawn)
        return {tuple(row): int(c) for row, c in zip(h.tolist(), w)}

    for most in (16, 64):
        hands, used, st, known = first_lead(rng)
        _, full, fw = open_search.expert_holdings(hands, used, st, known, pr, shares, 10**6, False)
        assert full.shape[0] > most
        spread = taken(most, False, 1)
        assert spread == taken(most, False, 2)
        assert sum(spread.values()) == most
        for h, w in zip(full.tolist(), fw):
            assert abs(spread.get(tuple(h), 0) - most * w / fw.sum()) < 1
        assert taken(most, True, 1, spread_first=True) == taken(most, True, 1)
        assert taken(most, True, 1) != taken(most, True, 2)
