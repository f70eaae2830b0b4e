"""The fast kernels against the slow definitional scorer, hand-worked examples and facts."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from slow_scorer import slow_score, slow_wild_score

from cribsolve import parse_cards, ruleset, score_hand
from cribsolve.core.cards import deck
from cribsolve.core.notation import JOKER
from cribsolve.core.scoring.table import distribution, rank_table, score5_many

PUBLISHED = [
    1009008,
    99792,
    2813796,
    505008,
    2855676,
    697508,
    1800268,
    751324,
    1137236,
    361224,
    388740,
    51680,
    317340,
    19656,
    90100,
    9168,
    58248,
    11196,
    2708,
    0,
    8068,
    2496,
    444,
    356,
    3680,
    0,
    0,
    0,
    76,
    4,
]


def hand(text, starter=None, **kw):
    rules = ruleset(kw.pop("preset", "standard"), **kw)
    st_ = parse_cards([starter]) if starter else []
    return score_hand(parse_cards([text]), st_, rules)


def test_hand_worked_exact_values():
    assert hand("5H 5S 5C JD", "5D").total == 29
    assert hand("3H 3S 4C 4D", "5H").breakdown == {
        "fifteens": 4,
        "pairs": 4,
        "runs": 12,
        "flush": 0,
        "nobs": 0,
        "heels": 0,
    }
    assert hand("3H 3S 3C 4D", "5H").breakdown["runs"] == 9
    assert hand("AH 2C 3D KS", "QS").total == 3 + 4  # Q-K-A is no run; 2+3+K, 2+3+Q
    assert hand("7H 8H 9H TH", "AS").total == 4 + 4 + 2  # run 4, flush 4, 7+8
    crib = score_hand(parse_cards(["7H 8H 9H TH"]), parse_cards(["AS"]), ruleset(), crib=True)
    assert crib.total == 6  # no four-card flush in the crib
    pysol = score_hand(
        parse_cards(["7H 8H 9H TH"]), parse_cards(["AS"]), ruleset("pysol"), crib=True
    )
    assert pysol.total == 10  # the solitaires' crib is a hand
    assert hand("4C 5D 6H JS", "QS").breakdown["nobs"] == 1
    assert hand("4C 5D 6H JS", "JH").breakdown["heels"] == 2


def test_seed_003_five_fives_and_four_jokers_is_352():
    rules = ruleset(decks=2, jokers=4)
    held = parse_cards(["5H 5S 5C 5D 5H"]) + [JOKER] * 4
    assert score_hand(held, [], rules).total == 320 + 20 + 12


def test_seed_003_eight_fives_and_a_joker_is_computed_not_copied():
    rules = ruleset(decks=2, jokers=1)
    held = parse_cards(["5H 5S 5C 5D 5H 5S 5C 5D"]) + [JOKER]
    s = score_hand(held, [], rules)
    assert s.breakdown["fifteens"] == 2 * 56 * 2  # C(8,3) threes, each with or without the joker
    assert s.total == 224 + 56  # not the source's 336 + 56


def test_whole_deck_runs_and_pairs():
    s = score_hand(deck(1, 0).tolist(), [], ruleset())
    assert s.breakdown["pairs"] == 13 * 12
    assert s.breakdown["runs"] == 13 * 4**13
    assert s.breakdown["fifteens"] == 2 * _slow_fifteen_subsets_of_deck()


def _slow_fifteen_subsets_of_deck():
    """Subsets of the 52 cards summing to 15, by counting value multisets (independent DP)."""
    from math import comb

    mult = {v: 4 for v in range(1, 10)} | {10: 16}
    count = 0

    def go(v, remaining, ways):
        nonlocal count
        if remaining == 0:
            count += ways
            return
        if v > 10:
            return
        for k in range(0, mult[v] + 1):
            if k * v > remaining:
                break
            go(v + 1, remaining - k * v, ways * comb(mult[v], k))

    go(1, 15, 1)
    return count


def test_published_hand_distribution():
    hist = distribution()
    assert hist.tolist() == PUBLISHED
    assert abs((np.arange(30) * hist).sum() / hist.sum() - 4.76915) < 1e-5


def test_crib_distribution_loses_only_four_card_flushes():
    hand_mean = (np.arange(30) * distribution()).sum()
    crib_mean = (np.arange(30) * distribution(crib=True)).sum()
    four_flushes = 4 * 715 * 39  # 4 suits x C(13,4) x starters of another suit
    assert hand_mean - crib_mean == 4 * four_flushes
    assert (distribution(crib=True, full_flush=False) == distribution()).all()


@st.composite
def random_hands(draw, max_held=9):
    decks = draw(st.integers(1, 2))
    jokers = draw(st.integers(0, 3))
    pool = deck(decks, jokers).tolist()
    nheld = draw(st.integers(1, max_held))
    nstart = draw(st.integers(0, 2))
    idx = draw(st.permutations(range(len(pool))))[: nheld + nstart]
    cards = [pool[i] for i in idx]
    if draw(st.booleans()):  # make flushes and runs likely too
        same_suit = [c if c == JOKER else (c // 4) * 4 for c in cards]
        if all(same_suit.count(c) <= decks for c in same_suit if c != JOKER):
            cards = same_suit
    target = draw(st.sampled_from([15, 15, 16, 10, 21]))
    preset = draw(st.sampled_from(["standard", "pysol"]))
    crib = draw(st.booleans())
    rules = ruleset(preset, decks=decks, jokers=jokers, target=target)
    return cards[:nheld], cards[nheld:], rules, crib


@settings(max_examples=300, deadline=None)
@given(random_hands())
def test_kernel_equals_slow_definition(case):
    held, starters, rules, crib = case
    s = score_hand(held, starters, rules, crib)
    slow = slow_score(held, starters, rules.target, rules.full_flush(crib))
    assert {k: s.breakdown[k] for k in slow} == slow
    assert s.total == sum(slow.values())


@settings(max_examples=200, deadline=None)
@given(random_hands())
def test_itemized_count_agrees_with_kernel(case):
    held, starters, rules, crib = case
    s = score_hand(held, starters, rules, crib)
    by_cat = {"fifteens": 0, "pairs": 0, "runs": 0, "flush": 0, "nobs": 0}
    names = {"fifteen": "fifteens", "pair": "pairs", "flush": "flush", "nobs": "nobs"}
    for cat, pts, _ in s.items:
        by_cat[names.get(cat, "runs")] += pts
    assert by_cat == {k: s.breakdown[k] for k in by_cat}


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_wild_rank_scores_the_best_substitution(data):
    pool = list(range(52))
    n = data.draw(st.integers(2, 5))
    idx = data.draw(st.permutations(pool))[:n]
    wild = data.draw(st.sampled_from([13, 11, 5]))
    cards = list(idx)
    # at most two wild cards keep the slow search at 52^2
    while sum(1 for c in cards if c // 4 + 1 == wild) > 2:
        cards = [c for c in cards if c // 4 + 1 != wild][: n - 2]
    rules = ruleset(wild_rank=wild)
    held, starters = cards[:-1], cards[-1:]
    s = score_hand(held, starters, rules)
    assert s.total == slow_wild_score(held, starters, wild, 15)


def test_wild_king_example():
    # KD as 5D gives four fives and a jack: 16 + 12 = 28; as JD (nobs) only 23
    rules = ruleset(wild_rank=13)
    s = score_hand(parse_cards(["5H 5S 5C KD"]), parse_cards(["JD"]), rules)
    assert s.total == 28
    assert sorted(c // 4 for c in s.cards[:4]) == [4, 4, 4, 4]


def test_table_fast_path_equals_general_kernel():
    rng = np.random.default_rng(1)
    hands = np.array([rng.choice(53, 5, replace=False) for _ in range(3000)], dtype=np.int64)
    for preset, crib in [("standard", False), ("standard", True), ("pysol", True)]:
        rules = ruleset(preset, jokers=1)
        fast = score5_many(rank_table(15), hands, rules.full_flush(crib))
        slow = [
            score_hand(h[:4].tolist(), h[4:].tolist(), rules, crib, itemized=False).total
            for h in hands
        ]
        assert fast.tolist() == slow


def test_the_numpy_five_card_scorer_equals_the_kernel_on_every_kind_of_hand():
    """score5_numpy (small batches, no numba) against table.score5_many: random hands, and
    hands made to hold flushes, nobs and jokers, as hands and as cribs."""
    import numpy as np

    from cribsolve.core.scoring.batch import score5_numpy
    from cribsolve.core.scoring.table import rank_table, score5_many

    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((20_000, 53)), axis=1)[:, :5]
    suited = rng.integers(0, 13, (2_000, 5)) * 4 + rng.integers(0, 4, (2_000, 1))
    suited[:, 4] = rng.integers(0, 52, 2_000)  # four of a suit, any starter
    jacks = hands[:2_000].copy()
    jacks[:, 0] = 40 + hands[:2_000, 4] % 4  # a held jack, of the starter's suit
    rows = np.concatenate([hands, suited, jacks])
    for full in (False, True):
        assert (
            score5_numpy(rank_table(15), rows, full) == score5_many(rank_table(15), rows, full)
        ).all()


def test_a_small_batch_file_is_scored_without_numba(tmp_path):
    """A file of standard hands is scored in numpy (numba never loaded), as the kernels do;
    any other file starts compiled and says the same."""
    import os
    import subprocess
    import sys

    f = tmp_path / "hands.txt"
    f.write_text("5H 5S 5C JD 5D\n# a comment\n7H 8H 9H TH AS\n2C 3C 4C 5C 6C\n")
    probe = (
        "import sys; from cribsolve.cli import main; sys.argv = ['cribsolve'] + "
        "sys.argv[1:]; main(); print('numba' in sys.modules, file=sys.stderr)"
    )
    env = {k: v for k, v in os.environ.items() if k != "CRIBSOLVE_COMPILED"}
    r = subprocess.run(
        [sys.executable, "-c", probe, "score", "--batch", str(f)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and r.stdout.split() == ["29", "10", "14"]
    assert r.stderr.strip().splitlines()[-1] == "False"
    f.write_text("5H 5S 5C JD 5D\n2C 3C 4C 5C\n")  # a four-card line: the kernels read it
    r = subprocess.run(
        [sys.executable, "-m", "cribsolve", "score", "--batch", str(f)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and r.stdout.split() == ["29", "4"]
    f.write_text("5H 5S 5C JD 5D\n5H 5H 5C JD 5D\n")
    r = subprocess.run(
        [sys.executable, "-m", "cribsolve", "score", "--batch", str(f)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and r.stdout == "" and "line 2" in r.stderr


def test_held_by_starter_equals_the_five_card_kernel_for_each_starter():
    """held_by_starter (four held cards, every starter at once) against score5 one hand at a
    time: random holdings, and holdings made to hold flushes, jacks and jokers."""
    from cribsolve.core.scoring.table import held_by_starter

    rng = np.random.default_rng(7)
    held = np.argsort(rng.random((3_000, 53)), axis=1)[:, :4]
    held[:500] = rng.integers(0, 13, (500, 4)) * 4 + rng.integers(0, 4, (500, 1))  # flushes
    held[500:1000, 0] = 40 + rng.integers(0, 4, 500)  # a jack
    table = rank_table(15)
    for full in (False, True):
        for h in held:
            if len(set(h.tolist())) < 4:
                continue
            starters = rng.permutation(np.setdiff1d(np.arange(53), h))
            out = np.zeros(len(starters), dtype=np.int64)
            held_by_starter(table, *h.tolist(), starters, full, out)
            rows = np.column_stack([np.tile(h, (len(starters), 1)), starters])
            assert (out == score5_many(table, rows, full)).all()
