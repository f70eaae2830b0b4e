"""Two copies of a card (two decks): the hint lists each choice once, a throw being the cards
thrown whatever copy of a card is named, and in the order choice_key names it (issue 64)."""

from itertools import combinations

from cribsolve.core.notation import format_cards, parse_cards
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table import advice
from cribsolve.games.cribbage.table.replay import Decision

HAND = parse_cards(["KD 6H KD 8C 2S 3S 9H TC"])  # two KD


def test_each_throw_of_a_hand_with_two_copies_of_a_card_is_one_row():
    spec = CribbageSpec(decks=2, hand_size=8, starters=2, game_length=241)
    d = Decision("throw", 1, 0, True, (0, 0), HAND, [], cut=parse_cards(["5H"]))
    names = [name for name, _ in advice.options(d, spec)]
    throws = {format_cards(sorted(t)) for t in combinations(HAND, 2)}
    assert len(names) == len(set(names)) == len(throws) == 22
    assert {format_cards(sorted(parse_cards([n]))) for n in names} == throws
    assert "KD 6H" in names and "6H KD" not in names and "KD 8C" in names
    for cards in (HAND[1:3], HAND[2:4]):  # 6H and the second KD; the second KD and 8C
        assert advice.choice_key(d, cards, spec) in names


def test_a_card_held_twice_is_one_card_to_lay():
    spec = CribbageSpec(decks=2)
    played = parse_cards(["5C 6H 4D"])  # theirs, mine, theirs: KD KD 8C left
    d = Decision(
        "play", 1, 0, True, (0, 0), [HAND[0], *HAND[2:4]], [], played, parse_cards(["2S 3S 5H"])
    )
    assert [n for n, _ in advice.options(d, spec)].count("KD") == 1


def test_a_card_held_twice_is_one_card_to_throw_away_to_redraw():
    spec = CribbageSpec(decks=2, draw=True)
    d = Decision("draw", 1, 0, True, (0, 0), HAND[:6], [], before=True, limit=5)
    rows = advice.options(d, spec)
    names = [n for n, _ in rows]
    assert len(names) == len(set(names)) == 18 and set(rows.per["value"]) == set(names)
