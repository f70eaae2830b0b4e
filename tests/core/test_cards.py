import pytest

from cribsolve.core.notation import JOKER, format_card, parse_card, parse_cards, parse_rank
from cribsolve.core.rules import ruleset
from cribsolve.errors import CardError


@pytest.mark.parametrize(
    "text,out",
    [
        ("5h", "5H"),
        ("10S", "TS"),
        ("ts", "TS"),
        ("J♦", "JD"),
        ("a♣", "AC"),
        ("K♠", "KS"),
        ("q♥", "QH"),
        ("JK", "JK"),
        ("x", "JK"),
        ("X2", "JK"),
    ],
)
def test_parse_any_form_to_canonical(text, out):
    assert format_card(parse_card(text)) == out


def test_every_card_round_trips():
    for cid in list(range(52)) + [JOKER]:
        assert parse_card(format_card(cid)) == cid
    assert len({format_card(c) for c in range(52)}) == 52


@pytest.mark.parametrize("bad", ["", "5", "1X", "ZZ", "11H", "5E", "JJ"])
def test_unknown_cards_rejected(bad):
    with pytest.raises(CardError):
        parse_card(bad)


def test_list_forms():
    assert parse_cards(["5H,5S", "JD"]) == parse_cards(["5H", "5S", "JD"])
    assert parse_rank("k") == 13 and parse_rank("10") == 10


def test_duplicates_depend_on_decks_and_jokers():
    cards = parse_cards(["5H", "5H", "JK"])
    with pytest.raises(CardError, match="2 times"):
        ruleset(jokers=1).check_cards(cards)
    with pytest.raises(CardError, match="jokers"):
        ruleset(decks=2).check_cards(cards)
    ruleset(decks=2, jokers=1).check_cards(cards)
