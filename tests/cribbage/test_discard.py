"""Two-player discard analysis against a slow obvious enumeration and symmetry facts."""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribsolve import parse_cards, ruleset
from cribsolve.core.scoring.kernels import score_parts
from cribsolve.games.cribbage.throw.best_discard import best_discard
from cribsolve.games.cribbage.throw.crib_model import pair_class

OUT = np.zeros(5, dtype=np.int64)


def points(cards, full_flush):
    return int(score_parts(np.array(cards, dtype=np.int64), 4, 15, full_flush, OUT))


def slow_values(hand, discard, seat, known=(), wclass=None):
    """Every starter x every opponent crib pair (x every third card for 5-card hands)."""
    keep = [c for c in hand if c not in discard]
    unseen = [c for c in range(52) if c not in hand and c not in known]
    m = 4 - len(discard)
    sign = 1 if seat == "dealer" else -1
    tw = th = tc = tn = tn2 = 0.0
    for s in unseen:
        h = points(keep + [s], False)
        for others in combinations([c for c in unseen if c != s], m):
            w = 1.0 if wclass is None else wclass[pair_class(*others)]
            c = points(list(discard) + list(others) + [s], True)
            net = h + sign * c
            tw += w
            th += w * h
            tc += w * c
            tn += w * net
            tn2 += w * net * net
    mean = tn / tw
    return th / tw, tc / tw, mean, (tn2 / tw - mean**2) ** 0.5


@pytest.mark.parametrize(
    "hand,seat,known",
    [
        ("5H 5S JD 6C 7C KH", "dealer", ""),
        ("5H 5S JD 6C 7C KH", "pone", "QD 2S 9S"),
        ("2H 4H 6H 8H TH JC", "dealer", "AH 3C 4S 6D 7C"),
        ("JH JS 5D 4D AC 9H", "pone", "QH 2D 3S 4C 5S 6H"),
    ],
)
def test_fast_equals_slow_enumeration(hand, seat, known):
    h, k = parse_cards([hand]), parse_cards([known]) if known else []
    res = best_discard(h, seat, k, opponent="uniform")
    for r in res[:3] + res[-2:]:
        eh, ec, net, std = slow_values(h, r.discard, seat, k)
        assert abs(r.hand - eh) < 1e-9 and abs(r.crib - ec) < 1e-9
        assert abs(r.net - net) < 1e-9 and abs(r.std - std) < 1e-9


@pytest.mark.parametrize("known", ["", "QH 2D 3S 4C 5S 6H 7D 8C KH"])
def test_weighted_opponent_equals_slow_enumeration(known):
    """Both engines (numpy card by card for one hand, grouped numba for batches)."""
    rng = np.random.default_rng(3)
    wclass = rng.random(13 * 13 * 2)
    from cribsolve.core.cardwise import options_distribution_np
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.throw import best_discard as mod

    h, k = parse_cards(["JH 5H 5D 4D AC 9H"]), parse_cards([known]) if known else []
    keeps, discs = mod.discard_options(h, 2)
    hists, means = options_distribution_np(
        keeps, discs, mod.unseen_cards(h + k), 1, wclass, rank_table(), True
    )
    engines = [mod.summarize(keeps, discs, hists, means)]
    if not known:
        engines.append(mod._analyze_many([h], "dealer", wclass, ruleset())[0])
    for res in engines:
        for r in res[:4]:
            eh, ec, net, std = slow_values(h, r.discard, "dealer", k, wclass)
            assert abs(r.crib - ec) < 1e-9 and abs(r.net - net) < 1e-9
            assert abs(r.std - std) < 1e-9


@pytest.mark.parametrize("n,k", [(46, 3), (47, 4), (9, 1), (6, 2), (5, 5), (4, 5)])
def test_numpy_combos_list_what_itertools_lists(n, k):
    """The card-by-card engine's deals, in the same order (so the same sums)."""
    from itertools import combinations

    from cribsolve.core.cardwise import combos

    assert combos(n, k).tolist() == [list(c) for c in combinations(range(n), k)]


@settings(max_examples=25, deadline=None)
@given(
    st.permutations(range(52)),
    st.integers(0, 4),
    st.sampled_from([1, -1]),
    st.booleans(),
    st.booleans(),
    st.integers(0, 30),
)
def test_numpy_and_numba_engines_agree(deck, m, sign, full_flush, heels, known):
    """Every crib size (m unknown cards), seat sign, crib rule, heels and card counting."""
    from cribsolve.core.cardwise import options_distribution_np
    from cribsolve.core.expect import WIDTH, options_distribution
    from cribsolve.core.scoring.table import rank_table

    if m == 4:
        m, known = 3, max(known, 20)  # keep the enumeration small
    deck = np.array(deck, dtype=np.int64)
    keeps = np.array([deck[0:4], deck[4:8]])
    cribs = np.array([deck[8 : 12 - m], deck[12 : 16 - m]])
    unseen = np.sort(deck[16 + known :])
    wclass = np.random.default_rng(m).random(13 * 13 * 2)
    hists, means = np.zeros((2, WIDTH)), np.zeros((2, 2))
    options_distribution(
        keeps, cribs, unseen, sign, wclass, rank_table(), full_flush, heels, hists, means
    )
    h2, m2 = options_distribution_np(
        keeps, cribs, unseen, sign, wclass, rank_table(), full_flush, heels
    )
    assert np.abs(hists - h2).max() < 1e-12 and np.abs(means - m2).max() < 1e-9


def test_five_card_hands_discard_one():
    h = parse_cards(["5H 5S JD 6C 7C"])
    res = best_discard(h, "dealer", parse_cards(["2C 3C 4C 8D 9D 9H TH AS KS QS JS"]), "uniform")
    assert len(res) == 5 and all(len(r.keep) == 4 for r in res)
    eh, ec, net, std = slow_values(
        h, res[0].discard, "dealer", parse_cards(["2C 3C 4C 8D 9D 9H TH AS KS QS JS"])
    )
    assert abs(res[0].net - net) < 1e-9


def test_suit_permutation_invariance():
    perm = [1, 3, 0, 2]
    h = parse_cards(["5H 5S JD 6C 7C KH"])
    h2 = [(c // 4) * 4 + perm[c % 4] for c in h]
    a = {tuple(sorted(r.discard)): r.net for r in best_discard(h, "pone", opponent="uniform")}
    b = best_discard(h2, "pone", opponent="uniform")
    for r in b:
        orig = tuple(
            sorted(next(c for c in h if (c // 4) * 4 + perm[c % 4] == d) for d in r.discard)
        )
        assert abs(a[orig] - r.net) < 1e-9


def test_seat_objectives_and_distribution():
    h = parse_cards(["5H 5S JD 6C 7C KH"])
    dealer = best_discard(h, "dealer", opponent="uniform")
    pone = best_discard(h, "pone", opponent="uniform")
    assert [d.net for d in dealer] == sorted((d.net for d in dealer), reverse=True)
    for d in dealer:
        p = next(x for x in pone if x.discard == d.discard)
        assert abs(d.hand - p.hand) < 1e-12 and abs(d.net - (d.hand + d.crib)) < 1e-9
        assert abs(p.net - (p.hand - p.crib)) < 1e-9
        assert abs(sum(d.distribution.values()) - 1) < 1e-12
        assert d.min == min(d.distribution) and d.max == max(d.distribution)
    # the dealer keeps the fives' partners or throws to his own crib; the pone never throws 5s
    assert not any(c in pone[0].discard for c in parse_cards(["5H 5S"]))


@pytest.mark.parametrize(
    "rules,hand",
    [
        ({"jokers": 2}, "JK 5H 5S JD 6C 7C"),
        ({"decks": 2}, "5H 5H 5S JD 6C 6C"),
        ({"target": 16}, "6H 5S TD JD 6C 7C"),
    ],
)
def test_house_rule_discards_equal_slow_enumeration(rules, hand):
    """Jokers, a double deck and another target sum, against every starter and crib pair of
    the unseen cards (each physical card once), scored by the definitional scorer."""
    from slow_scorer import slow_score

    from cribsolve.core.hand_options import unseen_cards

    r = ruleset(**rules)
    h = parse_cards([hand])
    rest = np.random.default_rng(1).permutation(unseen_cards(h, r)).tolist()
    known, unseen = rest[: len(rest) - 18], sorted(rest[len(rest) - 18 :])
    res = best_discard(h, "pone", known, opponent="uniform", rules=r)
    for v in (res[0], res[-1]):
        nets, hands = [], []
        for i, s in enumerate(unseen):
            others = unseen[:i] + unseen[i + 1 :]
            hp = sum(slow_score(v.keep, [s], r.target).values())
            for a, b in combinations(others, 2):
                nets.append(hp - sum(slow_score(v.discard + [a, b], [s], r.target, True).values()))
                hands.append(hp)
        assert abs(v.net - np.mean(nets)) < 1e-9 and abs(v.hand - np.mean(hands)) < 1e-9
        assert abs(v.std - np.std(nets)) < 1e-9
