"""The throw model's weights on the opponent's holdings against a brute-force enumeration of
every six cards it could have been dealt and every throw it could have made."""

from collections import defaultdict
from itertools import combinations, combinations_with_replacement, permutations

import numpy as np
import pytest

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import parse_cards
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.players import inference
from cribsolve.games.cribbage.players.bestplay import holding_weights
from cribsolve.games.cribbage.rules.spec import CribbageSpec


def brute_force(seen, laid, min_value, seat):
    """P(its last unplayed rank) over every deal of six cards holding ``laid``, one unseen
    card worth more than min_value and two more unseen cards, kept when the model's best
    four (ties shared among different fours) is laid + that card."""
    table = rank_table()
    crib = inference.crib_values(table)
    unseen = [c for c in range(52) if c not in seen]
    out = defaultdict(float)
    for u in unseen:
        if VALUE[RANK[u]] <= min_value:
            continue
        for t in combinations([c for c in unseen if c != u], 2):
            six = [int(RANK[c]) for c in laid] + [int(RANK[u])] + [int(RANK[c]) for c in t]
            vals = inference.option_values(np.array(six), seat, table, crib)
            fours = [
                tuple(sorted(six[q] for q in range(6) if q not in (i, j)))
                for i, j in combinations(range(6), 2)
            ]
            best = {f for f, v in zip(fours, vals) if v >= vals.max() - 1e-9}
            kept = tuple(sorted(six[:4]))
            if kept in best:
                out[int(RANK[u])] += 1 / len(best)
    total = sum(out.values())
    return {r: w / total for r, w in out.items()}


@pytest.mark.parametrize("seat,min_value", [(0, -1), (1, 3)])
def test_weights_equal_a_brute_force_enumeration(seat, min_value):
    mine = parse_cards(["5H 6C 7C KH JD 2S"])  # my four and my throw
    laid = parse_cards(["TH 9C 4D"])  # the opponent's three laid cards
    starter = parse_cards(["QS"])
    seen = mine + laid + starter
    h, w = holding_weights(seen, laid, 1, min_value, seat, CribbageSpec())
    got = {int(row[0]): x / w.sum() for row, x in zip(h, w) if x > 0}
    want = brute_force(seen, laid, min_value, seat)
    assert set(got) == set(want)
    for r in want:
        assert got[r] == pytest.approx(want[r], rel=1e-9)
    # the model moves the odds: not just the unseen counts
    plain = holding_weights(seen, [], 1, min_value, seat, CribbageSpec())[1]
    assert not np.allclose(w / w.sum(), plain / plain.sum())


def test_a_model_that_rules_everything_out_leaves_the_counts():
    w = np.array([2.0, 3.0])
    assert inference.reweigh(w, np.zeros(2)).tolist() == [2.0, 3.0]
    assert inference.reweigh(w, np.array([1.0, 0.0])).tolist() == [2.0, 0.0]


def test_four_index_places_every_four_ranks_once_in_any_order():
    places = set()
    for four in combinations_with_replacement(range(1, 14), 4):
        at = {inference.four_index(np.array(p, dtype=np.int64)) for p in permutations(four)}
        assert len(at) == 1
        places |= at
    assert places == set(range(inference.N_FOURS))
