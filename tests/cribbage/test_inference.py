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


def test_throw_weights_visits_the_kept_pairs_and_sums_as_the_whole_row():
    """with_pairs lists each row's pairs of share above zero, in order; throw_weights over
    them equals the plain sum over all 91 pairs of the table's row, to the last bit, for every
    holding of four ranks at a first lead (laid: none) and of three after one card."""
    spec = CribbageSpec()
    shares = inference.throw_model(spec)
    dense = shares[..., : inference.N_PAIRS]
    count = shares[..., inference.N_PAIRS].astype(int)
    places = shares[..., inference.N_PAIRS + 1 :].astype(int)
    for seat in range(2):
        for f in range(0, inference.N_FOURS, 7):
            want = np.flatnonzero(dense[seat, f] > 0)
            assert count[seat, f] == len(want)
            assert places[seat, f, : len(want)].tolist() == want.tolist()
    pairs = list(combinations_with_replacement(range(1, 14), 2))
    avail = np.full(14, 4, dtype=np.int64)
    avail[0] = 0
    for q in (5, 5, 11, 3, 9, 1, 1):  # my six and a starter seen
        avail[q] -= 1
    pr = spec.as_array()
    for laid in ([], [7]):
        r = 4 - len(laid)
        h = np.array(list(combinations_with_replacement(range(1, 14), r)), dtype=np.int64)
        h = h[[all((row == q).sum() <= avail[q] for q in row) for row in h]]
        for seat in range(2):
            got = inference.throw_weights(
                h, np.array(laid, dtype=np.int64), avail, seat, shares, pr
            )
            for i in range(0, h.shape[0], 11):
                row = dense[seat, inference.four_index(np.array(laid + list(h[i])))]
                rem = avail.copy()
                for q in h[i]:
                    rem[q] -= 1
                total = 0.0
                for p, (t1, t2) in enumerate(pairs):
                    total += row[p] * (
                        rem[t1] * (rem[t1] - 1) / 2 if t1 == t2 else rem[t1] * rem[t2]
                    )
                assert got[i] == total
