"""cribsolve review of a game of three or four players, or partners (docs/RULES.md §8): hand-
worked records replayed to hand-counted scores, with every hand given and with the others'
hands hidden (their goes written), the game's end mid-play, records that cannot happen
refused with their line, and each decision's figures equal to best-discard's and
best-play's."""

import json

import pytest
from clihelp import run
from test_review import refused

from cribsolve.core.notation import format_cards, parse_cards
from cribsolve.core.rules import ruleset
from cribsolve.errors import RecordError
from cribsolve.games.cribbage.players.bestplay import sampled_play
from cribsolve.games.cribbage.table.record import parse_record
from cribsolve.games.cribbage.table.replay import replay
from cribsolve.games.cribbage.table.review import PLAY_SAMPLES, review
from cribsolve.games.cribbage.throw.best_discard import best_discard

# Three players, I deal (seat 2): left leads. The play is test_play's hand-worked one
# (THREE): left KS, right QD, me 7D, left 2D (29), right go, me AH (30), left go, me go: 1
# to me; left 9H, right 3C, me 6S, left 4C, right 8S (30), me go, right go (left is out): 1 to
# right; me JC, right 5H (15 for 2) and the last card, 1: right 4 in the play, me 1.
# Shows with 5D: left KS 2D 9H 4C: K-5, 2-4-9 fifteens, 4. Right QD 8S 5H 3C: Q-5 twice 4,
# the fives 2: 6. Me 7D AH 6S JC: J-5 2, the run 5-6-7 3: 5. My crib 2S 3H TD 9S: T-5,
# 2-3-T 4. After the deal: me 1 + 5 + 4 = 10, left 4, right 4 + 6 = 10.
THREE = """\
game: 121
rules: 3 players
dealer: me
deal
me: 7D AH 6S JC 2S
throw: 2S
left: KS 2D 9H 4C 3H
left throw: 3H
right: QD 8S 5H 3C TD
right throw: TD
crib card: 9S
starter: 5D
play: KS QD 7D 2D go AH go go 9H 3C 6S 4C 8S go go JC 5H
"""

# Partners, across deals (seat 3): right leads, then me, left, across. Right 5H, me TD (15:
# 2), left 5S, across 5C (a pair: 2), right 5D (pair royal: 6), me AH (31: 2); left 9C,
# across 6H (15: 2), right 7S, me 8D (a run of four, 6-7-8-9: 4) at 30, all four go: 1 to me;
# left KS, across QH, right TC (30), me, left and across go (right is out): 1 to right; me 2C,
# left 3D, across 4C (a run of three: 3) and the last card, 1. Play: me 9, across 8, right 7.
# Shows with 8C: right 5H 5D 7S TC: 5-T twice, 7-8, the fives: 8. Me TD AH 8D 2C: the eights
# 2. Left 5S 9C KS 3D: K-5, 2. Across 5C 6H QH 4C: Q-5, 4-5-6 fifteens 4, the run 3: 7.
# Across's crib KD 9S 7H JH: 7-8 2, the run 7-8-9 3: 5. Us: 9 + 2 + 8 + 7 + 5 = 31; them
# 7 + 8 + 0 + 2 = 17.
PARTNERS = """\
game: 121
rules: 4 players, partners
dealer: across
deal
me: TD AH 8D 2C 9S
throw: 9S
left: 5S 9C KS 3D 7H
left throw: 7H
across: 5C 6H QH 4C JH
across throw: JH
right: 5H 5D 7S TC KD
right throw: KD
starter: 8C
play: 5H TD 5S 5C 5D AH 9C 6H 7S 8D go go go go KS QH TC go go go 2C 3D 4C
"""


def _hidden(text, *names):
    """The record without the others' hand lines (their throws kept)."""
    return "\n".join(line for line in text.splitlines() if line.split(":")[0] not in names) + "\n"


# each record's points by player, scores by side, and decisions (kind, count, scores, my
# seat, the crib mine): three players, my throw, 7D at 20 (AH, 6S and JC fitted too), 6S at
# 12 (JC too), AH at 29 and JC alone no choice; partners, TD at 5 and 8D at 22 (2C too)
WORKED = {
    "three": (
        THREE,
        ("left", "right"),
        {
            "you": dict(heels=0, pegging=1, hand=5, crib=4),
            "left": dict(heels=0, pegging=0, hand=4, crib=0),
            "right": dict(heels=0, pegging=4, hand=6, crib=0),
        },
        (10, 4, 10),
        [
            ("throw", 0, (0, 0, 0), 2, True),
            ("play", 20, (0, 0, 0), 2, True),
            ("play", 12, (1, 0, 0), 2, True),
        ],
    ),
    "partners": (
        PARTNERS,
        ("left", "across", "right"),
        {
            "you": dict(heels=0, pegging=9, hand=2, crib=0),
            "left": dict(heels=0, pegging=0, hand=2, crib=0),
            "across": dict(heels=0, pegging=8, hand=7, crib=5),
            "right": dict(heels=0, pegging=7, hand=8, crib=0),
        },
        (31, 17),
        [
            ("throw", 0, (0, 0), 1, True),
            ("play", 5, (0, 0), 1, True),
            ("play", 22, (8, 6), 1, True),
        ],
    ),
}


@pytest.mark.parametrize("hidden", [False, True], ids=["hands given", "hands hidden"])
@pytest.mark.parametrize("name", list(WORKED))
def test_hand_worked_records_replay_to_the_hand_counted_scores(name, hidden):
    text, others, points, after, decisions = WORKED[name]
    game = replay(parse_record(_hidden(text, *others) if hidden else text))
    (dr,) = game.deals
    assert dr.points == points and dr.scores_after == after and game.winner is None
    assert dr.dealer == {"three": 0, "partners": 2}[name]  # me, across
    assert [(d.kind, d.count, d.scores, d.seat, d.owns_crib) for d in dr.decisions] == decisions


def test_the_team_that_reaches_the_end_wins_mid_play():
    """From 110 to 100: us 112 (TD), 114 (5C), them 106 (pair royal), us 116 (31), 118 (6H),
    122 with my run of four: we win at 8D and nothing follows it."""
    rec = PARTNERS.replace("dealer: across", "dealer: across\nscores: 110 100")
    short = rec.replace("8D go go go go KS QH TC go go go 2C 3D 4C", "8D")
    game = replay(parse_record(short))
    assert game.winner == "you" and game.deals[0].scores_after == (122, 106)
    with pytest.raises(
        RecordError,
        match=r"line 15: the game ended with 8D \(you reached "
        r"121\): nothing is laid after it",
    ):
        replay(parse_record(rec))


BAD = [
    ("dealer: me", "dealer: them", 3, "dealer: give me or left or right with 3 players"),
    ("dealer: me", "dealer: me\nscores: 5 6", 4, "scores: give one a side"),
    ("left: KS", "them: KS", 7, "unknown key 'them' in a deal"),
    ("crib card: 9S\n", "", 4, "give 'crib card'"),
    ("right throw: TD\n", "right throw: TD\nright throw: TD\n", 11, "a second 'right throw'"),
    ("QD 7D 2D go AH", "QD 2D 7D go AH", 13, "2D cannot be laid at count 20: it is your turn"),
    ("8S go go JC 5H", "8S go go JC", 13, "the play stops early: right's turn at count 10"),
    ("left throw: 3H", "left throw: 5D", 8, "left throws 5D, which is not among left's"),
    ("KS QD 7D", "KS QD 7D 3H", 13, "3H is left's throw"),
]


@pytest.mark.parametrize("old,new,line,message", BAD, ids=[b[3][:30] for b in BAD])
def test_a_three_player_record_that_cannot_happen_is_refused(tmp_path, old, new, line, message):
    refused(tmp_path, THREE, old, new, line, message)


def test_a_hidden_hand_must_say_its_go():
    """Without the others' hands, left's go at 30 is not the replay's to see: left is to lay,
    and 9H does not fit there. (My own go, the second, the replay sees; it may be left out.)"""
    hidden = _hidden(THREE, "left", "right")
    assert replay(parse_record(hidden.replace("AH go go 9H", "AH go 9H"))).deals[
        0
    ].scores_after == (10, 4, 10)
    text = hidden.replace("AH go go 9H", "AH 9H")
    with pytest.raises(RecordError, match="9H does not fit: the count is 30"):
        replay(parse_record(text))


def test_each_decision_is_valued_as_best_discard_and_best_play_value_it():
    game = replay(parse_record(PARTNERS))
    throw, lay5, lay22 = review(game)
    nets = {
        format_cards(v.discard): v.net
        for v in best_discard(
            parse_cards(["TD AH 8D 2C 9S"]), "dealer", (), "uniform", ruleset("standard")
        )
    }
    assert {c: f["net"] for c, f in throw.options} == pytest.approx(nets)
    assert throw.lost["value"] == pytest.approx(max(nets.values()) - nets["9S"])
    d = lay22.decision
    rows, _ = sampled_play(
        d.hand,
        d.played,
        1,
        parse_cards(["9S"]),
        game.record.spec,
        PLAY_SAMPLES,
        0,
        "greedy",
        parse_cards(["8C"])[0],
    )
    assert {c: f["margin"] for c, f in lay22.options} == pytest.approx(
        {r.card: r.mine - r.theirs for r in rows}
    )
    assert lay5.decision.count == 5 and lay5.choice == "TD"


def test_the_review_command_reads_a_three_player_record(tmp_path):
    path = tmp_path / "three.txt"
    path.write_text(THREE)
    code, out, err = run("review", path, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["scores"] == {"you": 10, "left": 4, "right": 10} and d["winner"] is None
    assert d["deals"][0]["dealer"] == "you" and len(d["deals"][0]["decisions"]) == 3
    code, out, err = run("review", path)
    assert code == 0 and "the record ends at 10-4-10 with the game unfinished" in out


@pytest.mark.parametrize(
    "players,partners", [(3, False), (4, False), (4, True)], ids=["three", "four", "partners"]
)
def test_random_deals_of_the_reference_engine_replay_to_its_points(players, partners, monkeypatch):
    """Deals played at random by the slow reference engine (tests/reference_engine.py),
    written as records from a random seat, every hand given and the cards laid without a
    single go: the replay gives each player the reference's pegging, hand, crib and heels.
    Written again with the others' hands hidden and the goes the replay found, the same."""
    import numpy as np
    import reference_engine
    from reference_engine import reference_deal

    from cribsolve.core.notation import format_card
    from cribsolve.games.cribbage.rules.pegging import GO
    from cribsolve.games.cribbage.table.record import Table

    table = Table(players, partners)
    original = reference_engine._play

    class Logged(list):
        def __init__(self, seat, cards, lays):
            super().__init__(cards)
            self.seat, self.lays = seat, lays

        def remove(self, card):
            self.lays.append(card)
            super().remove(card)

    for i in range(25):
        kept, lays = [], []

        def logged(hands, board, rng, five_card):
            kept.extend(list(h) for h in hands)
            original([Logged(s, h, lays) for s, h in enumerate(hands)], board, rng, five_card)

        monkeypatch.setattr(reference_engine, "_play", logged)
        deck = np.random.RandomState(i).permutation(52).tolist()
        _, scores, parts = reference_deal(
            deck, players, 5, np.random.RandomState(50 + i), [0] * table.sides, 0, partners
        )
        me = i % players  # my seat in the deal
        dealer = (-1 - me) % players  # the dealer's place from me
        cards = lambda c: " ".join(format_card(x) for x in c)  # noqa: E731
        lines = [
            f"rules: {players} players" + ", partners" * partners,
            f"dealer: {table.dealer_words[dealer]}",
            "deal",
        ]
        for seat in range(players):
            place = table.place(seat, dealer)
            dealt = deck[seat * 5 : seat * 5 + 5]
            thrown = [c for c in dealt if c not in kept[seat]]
            lines += [
                f"{table.hand_key(place)}: {cards(dealt)}",
                f"{table.throw_key(place)}: {cards(thrown)}",
            ]
        if players == 3:
            lines.append(f"crib card: {format_card(deck[15])}")
        lines += [
            f"starter: {format_card(deck[players * 5 + (players == 3)])}",
            f"play: {cards(lays)}",
        ]
        dr = replay(parse_record("\n".join(lines) + "\n")).deals[0]
        for seat in range(players):
            got = dr.points[table.names[table.place(seat, dealer)]]
            assert (got["pegging"], got["hand"]) == (parts["pegging"][seat], parts["hand"][seat]), (
                i,
                seat,
            )
        dealer_points = dr.points[table.names[dealer]]
        assert (dealer_points["crib"], dealer_points["heels"]) == (parts["crib"], parts["heels"]), i
        assert sorted(dr.scores_after) == sorted(scores), i
        written = " ".join("go" if t is GO else format_card(t) for t in dr.play)
        hidden = [x for x in lines if x.split(":")[0] not in table.names[1:] + ("them",)]
        hidden[-1] = f"play: {written}"
        again = replay(parse_record("\n".join(hidden) + "\n")).deals[0]
        assert (again.points, again.scores_after) == (dr.points, dr.scores_after), i
