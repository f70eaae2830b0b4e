"""score_many against the one-hand scorer and the slow definitional one, its shapes, rules and
refusals; card_codes's shapes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slow_scorer import slow_score, slow_wild_score

from cribsolve import ruleset, score_hand
from cribsolve.core.cards import deck
from cribsolve.core.notation import JOKER
from cribsolve.core.scoring.many import card_codes, score_many
from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.cribbage.rules.spec import CribbageSpec


def one_by_one(held, starters, rules, crib=False):
    return [score_hand(h, s, rules, crib).total for h, s in zip(held.tolist(), starters.tolist())]


def random_deals(n, seed, rules=None, suited=0.3):
    """(n, 4) held cards and (n, 1) starters dealt from the rules' deck; a share ``suited`` of
    the hands made one suit, so flushes and nobs come often."""
    rules = rules or ruleset()
    rng = np.random.default_rng(seed)
    pool = deck(rules.decks, rules.jokers)
    rows = np.array([rng.permutation(pool)[:5] for _ in range(n)])
    for i in np.flatnonzero(rng.random(n) < suited):
        row = rows[i].copy()
        plain = row[:4] != JOKER
        row[:4][plain] = row[:4][plain] // 4 * 4 + rows[i, 0] % 4
        try:
            rules.check_cards(row)
            rows[i] = row
        except CardError:
            pass  # the suit holds one of these cards already: the row stays as dealt
    return rows[:, :4], rows[:, 4:]


def test_worked_examples_and_one_hand():
    assert score_many(card_codes("5H 5S 5C JD"), card_codes("5D")).tolist() == [29]
    assert score_many(card_codes("5H 5S 5C JD"), 17).tolist() == [29]
    four_flush = card_codes(["7H 8H 9H TH"]), card_codes(["AS"])
    assert score_many(*four_flush).tolist() == [10]
    assert score_many(*four_flush, crib=True).tolist() == [6]  # no 4-card flush in the crib
    assert score_many(*four_flush, crib=True, rules=ruleset("pysol")).tolist() == [10]
    out = score_many(card_codes(["5H 5S 5C JD"] * 3), card_codes(["5D", "KS", "AC"]))
    assert out.dtype == np.int64 and out.shape == (3,)


@pytest.mark.parametrize(
    ("preset", "crib"), [("standard", False), ("standard", True), ("pysol", True)]
)
def test_four_and_a_starter_equal_one_by_one_and_slow(preset, crib):
    rules = ruleset(preset)
    held, starters = random_deals(2000, seed=len(preset) + crib)
    out = score_many(held, starters, crib=crib, rules=rules)
    assert out.tolist() == one_by_one(held, starters, rules, crib)
    assert score_many(held, starters[:, 0], crib=crib, rules=rules).tolist() == out.tolist()
    full = rules.full_flush(crib)
    for h, s, total in list(zip(held.tolist(), starters.tolist(), out.tolist()))[:200]:
        assert total == sum(slow_score(h, s, 15, full).values())


@st.composite
def batches(draw):
    """Rows of one shape (1-6 held cards, 1-2 starters) under drawn rules, from their deck."""
    decks = draw(st.integers(1, 2))
    jokers = draw(st.integers(0, 2))
    nheld = draw(st.integers(1, 6))
    nstart = draw(st.integers(1, 2))
    rules = ruleset(
        draw(st.sampled_from(["standard", "pysol"])),
        decks=decks,
        jokers=jokers,
        target=draw(st.sampled_from([15, 15, 16, 10])),
    )
    pool = deck(decks, jokers).tolist()
    rows = [draw(st.permutations(pool))[: nheld + nstart] for _ in range(draw(st.integers(1, 4)))]
    cards = np.array(rows, dtype=np.int64)
    return cards[:, :nheld], cards[:, nheld:], rules, draw(st.booleans())


@settings(max_examples=60, deadline=None)
@given(batches())
def test_any_shape_equals_one_by_one_and_slow(batch):
    held, starters, rules, crib = batch
    out = score_many(held, starters, crib=crib, rules=rules)
    assert out.tolist() == one_by_one(held, starters, rules, crib)
    full = rules.full_flush(crib)
    slow = [sum(slow_score(h, s, rules.target, full).values()) for h, s in zip(held, starters)]
    assert out.tolist() == slow


def test_another_target_by_the_table():
    rules = ruleset(target=16)
    held, starters = random_deals(300, seed=3)
    out = score_many(held, starters, rules=rules)
    assert out.tolist() == one_by_one(held, starters, rules)
    assert out.tolist() == [
        sum(slow_score(h, s, 16).values()) for h, s in zip(held.tolist(), starters.tolist())
    ]


def test_jokers_and_a_double_deck_by_the_table():
    rules = ruleset(decks=2, jokers=2)
    held, starters = random_deals(500, seed=4, rules=rules)
    assert score_many(held, starters, rules=rules).tolist() == one_by_one(held, starters, rules)


def test_a_wild_rank_scores_its_best_card():
    rules = ruleset(wild_rank=13)
    assert score_many(card_codes("5H 5S 5C KD"), card_codes("JD"), rules=rules).tolist() == [28]
    held, starters = random_deals(300, seed=5)
    out = score_many(held, starters, rules=rules)
    assert out.tolist() == one_by_one(held, starters, rules)
    kings = np.flatnonzero(((held // 4 + 1) == 13).any(axis=1))[:3]  # a wild card or more
    for i in kings.tolist():
        assert out[i] == slow_wild_score(held[i].tolist(), starters[i].tolist(), 13)


def test_rules_from_a_game_spec_or_anything_with_rules():
    held, starters = random_deals(200, seed=6)
    spec = CribbageSpec(wild_rank=5, target=16)
    assert score_many(held, starters, rules=spec).tolist() == one_by_one(
        held, starters, spec.rules()
    )

    class House:
        def rules(self):
            return ruleset("pysol")

    crib = score_many(held, starters, crib=True, rules=House())
    assert crib.tolist() == one_by_one(held, starters, ruleset("pysol"), crib=True)


@pytest.mark.parametrize(
    ("held", "starters", "rules", "says"),
    [
        ([[16, 17, 18, 19]], [16], None, "row 0: card 5C given 2 times"),
        ([[0, 4, 8, 12], [16, 16, 18, 19]], [[20], [21]], None, "row 1: card 5C given 2 times"),
        ([[0, 4, 8, 12]], [52], None, "row 0: 1 jokers given but only 0 in play"),
        ([[0, 4, 8, 53]], [20], None, "row 0: 53 is not a card code"),
        ([[0, 4, -1, 12]], [20], None, "row 0: -1 is not a card code"),
        ([[0, 4, 8, 12]], [20], ruleset(wild_rank=2), None),  # allowed
        ([[0, 0, 0, 12]], [20], ruleset(decks=2), "row 0: card AC given 3 times"),
        ([[0, 0, 8]], [[20, 0]], ruleset(decks=2), "row 0: card AC given 3 times"),
    ],
)
def test_cards_the_deck_cannot_deal_are_refused(held, starters, rules, says):
    held, starters = np.array(held), np.array(starters)
    if says is None:
        assert score_many(held, starters, rules=rules).shape == (1,)
        return
    with pytest.raises(CardError, match=says) as e:
        score_many(held, starters, rules=rules)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    ("held", "starters", "rules", "says"),
    [
        (np.zeros((2, 4), int), np.arange(3), None, "do not fit hands of shape"),
        (np.zeros((2, 4), int), 5, None, "do not fit hands of shape"),
        (np.arange(4), np.zeros((2, 1), int), None, "do not fit hands of shape"),
        (np.zeros((2, 0), int), np.arange(2), None, "hands must have shape"),
        (np.zeros((2, 2, 2), int), np.arange(2), None, "hands must have shape"),
        (5, 6, None, "hands must have shape"),
        (np.zeros((1, 4)), [5], None, "hands must be integer card codes, not float64"),
        ([["5H", "5S", "5C", "JD"]], ["5D"], None, "card_codes"),
        ([[0, 4, 8, 12]], [20], "standard", "rules must be a RuleSet"),
    ],
)
def test_wrong_shapes_types_and_rules_are_refused(held, starters, rules, says):
    with pytest.raises(CribsolveError, match=says) as e:
        score_many(held, starters, rules=rules)
    assert isinstance(e.value, ValueError) and "\n" not in str(e.value)


def test_card_codes_shapes():
    assert card_codes("5H 5S JD").tolist() == [18, 19, 41]
    assert card_codes(["5H", "5s", "J♦"]).tolist() == [18, 19, 41]
    assert card_codes(["5H 5S 5C JD", "2C 3C 4C 5C"]).shape == (2, 4)
    assert card_codes([["AS", "10D"], ["JK", "KC"]]).tolist() == [[3, 37], [JOKER, 48]]
    assert card_codes(["5D 6D", "AS 2S"]).shape == (2, 2)  # two cut cards a hand
    for bad, says in [
        (["5H 5S", "5C"], "hands of 1 and 2 cards"),
        ("5H ZZ", "unknown card 'ZZ'"),
        ([1, 2], "card_codes takes card text"),
        (None, "card_codes takes card text"),
    ]:
        with pytest.raises(CardError, match=says):
            card_codes(bad)
