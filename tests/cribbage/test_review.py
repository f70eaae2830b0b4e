"""cribsolve review: a game record replayed to hand-counted scores, each decision's loss equal
to best-play's and best-discard's own figures, impossible records refused with their line,
and no decision valued with a card the player had not seen."""

import json
import pathlib
from dataclasses import replace

import pytest
from clihelp import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribsolve.core.notation import format_cards, parse_cards
from cribsolve.core.rules import ruleset
from cribsolve.errors import CribsolveError, RecordError
from cribsolve.games.cribbage.players.bestplay import best_play
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table.record import parse_record
from cribsolve.games.cribbage.table.replay import replay
from cribsolve.games.cribbage.table.review import evaluate, review
from cribsolve.games.cribbage.throw.best_discard import best_discard

EXAMPLE = pathlib.Path(__file__).parent.parent.parent / "examples" / "game1.txt"

# Deal 1, I deal. They lead TH; 5S makes 15 (2 to me); 4C 19, 5H 24, 2C 26; neither can lay:
# 1 to them for the go. I lead JD, 8S 18, KH 28: 1 to me for the last card. Pegging 3 - 1.
# My hand 5H 5S JD KH + 4D: four fifteens (5-J, 5-K twice each) 8, the pair of fives 2, his
# nobs (JD with a diamond starter) 1 = 11. Theirs TH 4C 2C 8S + 4D: the pair of fours, 2. My
# crib 6C 7C 9S KD + 4D: 6-9 for 2. After deal 1: me 3 + 11 + 2 = 16, them 1 + 2 = 3.
# Deal 2, they deal, a jack turned: 2 to them. 5C 8D 5D 7S, and 6H makes 31 (2) with a run of
# four, 5-6-7-8 (4): 6 to me. They lead 8H, TS 18, 4H 22, the last card: 1 to them.
# My hand 5C 5D TS 6H + JS: 5-T and 5-J twice each 8, the fives 2 = 10. Theirs 7S 8D 8H 4H +
# JS: 7-8 twice 4, the eights 2 = 6. Their crib (KC QC, the rest of 'them') 9C 2S KC QC + JS:
# the run J-Q-K, 3. After deal 2: me 16 + 6 + 10 = 32, them 3 + 2 + 1 + 6 + 3 = 15.
HAND_WORKED = """\
game: 121
dealer: me
deal
me: 5H 5S JD 6C 7C KH
throw: 6C 7C
their throw: 9S KD
starter: 4D
play: TH 5S 4C 5H 2C go go JD 8S KH

deal 2   # the second deal: they deal
me: 5C 5D TS 6H 9C 2S
them: 7S 8D 8H 4H KC QC
throw: 9C 2S
starter: JS
play: 5C 8D 5D 7S 6H 8H TS 4H
"""


@pytest.fixture(autouse=True)
def compiled(monkeypatch):
    monkeypatch.setenv("CRIBSOLVE_COMPILED", "1")


def test_a_hand_worked_record_replays_to_the_hand_counted_scores():
    game = replay(parse_record(HAND_WORKED))
    one, two = game.deals
    assert one.points == {
        "you": dict(heels=0, pegging=3, hand=11, crib=2),
        "they": dict(heels=0, pegging=1, hand=2, crib=0),
    }
    assert one.scores_after == (16, 3) and two.scores_before == (16, 3)
    assert two.points == {
        "you": dict(heels=0, pegging=6, hand=10, crib=0),
        "they": dict(heels=2, pegging=1, hand=6, crib=3),
    }
    assert two.scores_after == (32, 15) and game.winner is None
    # the decisions: each throw, and each card laid where another fitted too
    assert [(d.kind, d.count, d.scores) for d in one.decisions] == [
        ("throw", 0, (0, 0)),
        ("play", 10, (0, 0)),
        ("play", 19, (2, 0)),
        ("play", 0, (2, 1)),
    ]
    assert [(d.kind, d.count, d.scores) for d in two.decisions] == [
        ("throw", 0, (16, 3)),
        ("play", 0, (16, 5)),
        ("play", 13, (16, 5)),
    ]  # then one fits


def test_the_game_stops_at_its_length():
    deal1 = HAND_WORKED.split("deal 2")[0]
    # 118 + 1 for the go + 2 for their hand (the pone counts first) = 121
    game = replay(parse_record(deal1.replace("dealer: me", "dealer: me\nscores: 100 118")))
    assert game.winner == "they" and game.deals[0].scores_after == (103, 121)
    with pytest.raises(RecordError, match="line 11: the game was over"):
        replay(parse_record(HAND_WORKED.replace("dealer: me", "dealer: me\nscores: 100 118")))
    # 119 + 2 for the fifteen: the game ends in the play, and nothing follows the card
    rec = deal1.replace("dealer: me", "dealer: me\nscores: 119 100")
    with pytest.raises(
        RecordError,
        match=r"line 9: the game ended with 5S \(you reached "
        r"121\): nothing is laid after it",
    ):
        replay(parse_record(rec))
    game = replay(parse_record(rec.replace("TH 5S 4C 5H 2C go go JD 8S KH", "TH 5S")))
    assert game.winner == "you" and game.deals[0].scores_after == (121, 100)
    assert game.deals[0].points["you"] == dict(heels=0, pegging=2, hand=0, crib=0)


def _cards(text):
    return parse_cards([text])


def test_a_mistaken_card_costs_what_best_play_says():
    game = replay(parse_record(HAND_WORKED))
    reviews = review(game)
    r = reviews[2]  # 5H laid at 19, deal 1
    assert (r.decision.count, r.choice) == (19, "5H")
    rows, _ = best_play(_cards("5H JD KH"), _cards("TH 5S 4C"), 1, _cards("6C 7C 4D"))
    margin = {c: m - t for c, m, t in rows}
    assert r.best == rows[0][0] != "5H"
    assert r.lost["margin"] == pytest.approx(margin[rows[0][0]] - margin["5H"])
    assert r.lost["margin"] > 0.5
    assert reviews[1].lost["margin"] == 0 and reviews[1].best == reviews[1].choice


def test_a_mistaken_throw_costs_what_best_discard_says():
    rec = HAND_WORKED.replace("throw: 6C 7C", "throw: JD KH").replace(
        "play: TH 5S 4C 5H 2C go go JD 8S KH", "play: TH 5S 4C 6C 2C go go 5H 8S 7C"
    )
    r = review(replay(parse_record(rec)))[0]
    values = best_discard(_cards("5H 5S JD 6C 7C KH"), "dealer", (), "optimal", ruleset("standard"))
    net = {tuple(v.discard): v.net for v in values}
    chosen = net[tuple(_cards("JD KH"))]
    assert r.lost["net"] == pytest.approx(values[0].net - chosen) and r.lost["net"] > 1
    figures = dict(r.options)
    # the expert's value adds the kept ranks' pegging margin to best-discard's net
    for v in values:
        f = figures[format_cards(v.discard)]
        assert f["net"] == pytest.approx(v.net) and f["value"] == pytest.approx(
            v.net + f["pegging"]
        )
    assert r.best == r.options[0][0] and r.lost["value"] == pytest.approx(
        r.options[0][1]["value"] - figures["JD KH"]["value"]
    )


def test_a_decision_never_sees_the_hidden_cards():
    base = review(replay(parse_record(HAND_WORKED)))
    # the throw: other starter, other cards of theirs (and the play they make)
    other = HAND_WORKED.replace("their throw: 9S KD", "their throw: 9H QD").replace(
        "starter: 4D", "starter: 3H", 1
    )
    assert review(replay(parse_record(other)))[0].options == base[0].options
    # the first card: after it, they hold other cards (other ranks) and threw others
    other = HAND_WORKED.replace("their throw: 9S KD", "their throw: QS QH").replace(
        "play: TH 5S 4C 5H 2C go go JD 8S KH", "play: TH 5S 9H 5H go go 9D JD 8C go KH"
    )
    changed = review(replay(parse_record(other)))
    assert changed[1].decision == base[1].decision
    assert changed[1].options == base[1].options and changed[1].lost == base[1].lost
    # ... and the test can fail: had it seen their cards, the figures would change
    d = base[1].decision
    leak = replace(d, seen=d.seen + _cards("4C 2C 8S"))
    assert evaluate(leak, CribbageSpec()) != base[1].options


def test_with_their_cards_gone_the_rest_is_best_plays_own_search():
    # they lay KS JS AS (31 after my go) and 9D: out of cards at 14, I hold 7H 8H
    rec = """dealer: me
deal
me: QH 5C 7H 8H 2D 3D
throw: 2D 3D
their throw: 4S 4H
starter: KD
play: KS QH JS go AS 5C 9D 7H 8H
"""
    game = replay(parse_record(rec))
    d = game.deals[0].decisions[-1]
    assert (d.count, d.their_left, d.hand) == (14, 0, _cards("7H 8H"))
    rows, _ = best_play(d.hand, d.played, 1, d.seen)
    assert [(c, f["mine"], f["theirs"]) for c, f in evaluate(d, CribbageSpec())] == rows
    assert d.played == _cards("KS QH JS") + [GO] + _cards("AS 5C 9D")


BAD = [
    ("dealer: me\n", "", 1, "say who deals first"),
    ("dealer: me", "dealer: me\nplayer: me", 3, "unknown header key 'player'"),
    ("throw: 6C 7C", "throw: 6C 2H", 5, "you throw 2H, which is not among your cards"),
    ("starter: 4D", "starter: 5H", 7, "5H is dealt twice (also line 4)"),
    ("their throw: 9S KD", "their throw: 9S KH", 6, "KH is dealt twice (also line 4)"),
    ("7S 6H 8H TS", "7S TS 8H 6H", 15, "TS does not fit: the count is 25"),
    ("TH 5S 4C 5H", "TH 5S 5H 4C", 8, "5H cannot be laid at count 15: it is their turn"),
    ("TH 5S 4C", "TH 5S go 4C", 8, "a go at count 15 cannot happen there"),
    ("JD 8S KH", "JD 8S KH go", 8, "a go after the last card cannot happen"),
    ("JD 8S KH", "JD 8S", 8, "the play stops early: your turn at count 18"),
    ("TH 5S 4C", "TH 5S 6C", 8, "6C is your throw"),
    ("TH 5S 4C", "TH 5S 4D", 8, "4D is the starter"),
    ("me: 5C 5D TS 6H 9C 2S", "me: 5C 5D TS 6H 9C", 11, "'me' takes 6 cards, not 5"),
    ("them: 7S 8D 8H 4H KC QC", "them: 7S 8D 9H 4H KC QC", 15, "8H is neither yours nor"),
    ("deal 2", "deal 3", 10, "expected deal 2 here"),
    ("starter: JS", "starter: JS\nstarter: JS", 15, "a second 'starter' line"),
    ("starter: JS\n", "", 10, "this deal has no 'starter' line"),
    ("JD 8S KH", "JD 8S KH 9H", 8, "they lay 5 cards: a hand holds 4"),
    ("5C 8D 5D 7S 6H 8H TS 4H", "5C 8D 5D 7S 6H 8H TS 4H 4C", 15, "4C is neither yours nor"),
    ("dealer: me", "dealer: me\nscores: 1 121", 3, "they cannot start at 121"),
    ("throw: 6C 7C", "throw: 6C XYZ", 5, "unknown card 'XYZ'"),
    ("throw: 6C 7C", "throw 6C 7C", 5, "expected 'key: value' or 'deal'"),
    (
        "me: 5C 5D TS 6H 9C 2S",
        "me: 5C 5D TS 6H 9C JK",
        11,
        "a joker in 'me', but this game has none",
    ),
]


def refused(tmp_path, record, old, new, line, message):
    """``record`` with ``old`` changed to ``new`` is refused by review in one line naming
    ``line`` and saying ``message``."""
    assert old in record
    path = tmp_path / "game.txt"
    path.write_text(record.replace(old, new, 1))
    code, out, err = run("review", path)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.splitlines() == [err.strip()] and err.startswith(
        f"cribsolve: {path}, line {line}: "
    ), err
    assert message in err, err


@pytest.mark.parametrize("old,new,line,message", BAD, ids=[b[3][:30] for b in BAD])
def test_a_record_that_cannot_happen_is_refused_naming_its_line(tmp_path, old, new, line, message):
    refused(tmp_path, HAND_WORKED, old, new, line, message)


def test_unreadable_records_are_one_line(tmp_path):
    (tmp_path / "bin").write_bytes(b"\xff\xfe\x00")
    for name, why in (
        ("missing", "cannot read it"),
        ("bin", "not a text record"),
        (".", "cannot read it"),
    ):
        code, out, err = run("review", tmp_path / name)
        assert code == 2 and out == "" and why in err and len(err.splitlines()) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mangled_records_replay_or_are_refused(data):
    """Whatever a record says, the replay answers or refuses it with a line number."""
    lines = EXAMPLE.read_text().splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "swap", "word", "dup"]))
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            words = lines[i].split()
            if words:
                k = data.draw(st.integers(0, len(words) - 1))
                words[k] = data.draw(
                    st.sampled_from(["go", "AS", "5H", "JD", "KC", "deal", ":", "7", "me:", "XX"])
                )
            lines[i] = " ".join(words)
    try:
        replay(parse_record("\n".join(lines), "game"))
    except CribsolveError as e:
        assert isinstance(e, RecordError) and str(e).startswith("game, line ")


def test_the_example_reviews_as_json():
    code, out, err = run("review", EXAMPLE, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["winner"] == "you" and d["game_length"] == 121
    throws = [x for deal in d["deals"] for x in deal["decisions"] if x["kind"] == "throw"]
    assert len(throws) == len(d["deals"])
    worst = max(throws, key=lambda x: x["lost"]["value"])
    assert worst["choice"] != worst["best"] == worst["options"][0]["choice"]
    assert worst["lost"]["value"] == pytest.approx(
        worst["options"][0]["value"] - worst["figures"]["value"]
    )
    plays = [x for deal in d["deals"] for x in deal["decisions"] if x["kind"] == "play"]
    assert all({"scores", "dealer", "count", "played"} <= set(x) for x in plays)
    for x in throws + plays:  # P(win) lost: the likeliest option's P(win) minus yours
        assert x["lost"]["win"] == pytest.approx(
            max(o["win"] for o in x["options"]) - x["figures"]["win"]
        )
    # each decision judged by its hint's objective: points, or P(win) from 91 on; the totals
    # sum the losses of those not the best, each under the figure it was judged by
    for x in throws + plays:
        j, points = x["judged"], "value" if x["kind"] == "throw" else "margin"
        assert j["by"] == ("win" if max(x["scores"].values()) >= 91 else points)
        assert j["lost"] == pytest.approx(x["lost"][j["by"]])
        assert j["not_the_best"] == (j["lost"] > max(j["bound"], 1e-9))
        assert j["bound"] == 0 or j["by"] == "win"  # points are exact here
    for kind, group in (("throws", throws), ("play", plays)):
        for fig in ("value" if kind == "throws" else "margin", "win"):
            counted = [x["judged"] for x in group if x["judged"]["not_the_best"]]
            assert d["lost"][kind][fig] == pytest.approx(
                sum(j["lost"] for j in counted if j["by"] == fig)
            )
    assert any(x["judged"]["by"] == "win" for x in throws + plays)
    assert any(x["judged"]["not_the_best"] for x in throws)
    # the last deal, 11 points from home dealing against 18: every option wins most games
    assert min(o["win"] for x in d["deals"][-1]["decisions"] for o in x["options"]) > 0.8


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_random_plays_replay_as_the_engine_plays_them(rnd, i_deal):
    """A play made by the engine (random cards), written without its goes, replays to the
    engine's pegging; the goes the replay puts in make a sequence best-play reads to the same
    count and series at every decision."""
    import numpy as np

    from cribsolve.core.cards import RANK, VALUE
    from cribsolve.games.cribbage.players.bestplay import read_position
    from cribsolve.games.cribbage.rules import pegging

    spec = CribbageSpec()
    pr = spec.as_array()
    deck = rnd.sample(range(52), 13)
    me = int(i_deal)
    hands = np.zeros((2, 4), dtype=np.int64)
    hands[me], hands[1 - me] = deck[:4], deck[4:8]
    used = np.zeros((2, 4), dtype=np.bool_)
    series, st_ = np.zeros(16, dtype=np.int64), np.array([0, 0, 0, -1], dtype=np.int64)
    pts, sc, seen = np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros((2, 53), np.int64)
    laid = []
    while True:
        p, _ = pegging.settle(hands, used, st_, pts, sc, 0, pr)
        if p < 0:
            break
        fit = [
            i
            for i in range(4)
            if not used[p, i] and st_[pegging.COUNT] + VALUE[RANK[hands[p, i]]] <= 31
        ]
        i = rnd.choice(fit)
        laid.append(int(hands[p, i]))
        pegging.lay(hands, used, series, st_, i, pts, sc, 0, seen, pr)
    rec = (
        f"dealer: {'me' if i_deal else 'them'}\ndeal\nme: {format_cards(deck[:4] + deck[8:10])}"
        f"\nthrow: {format_cards(deck[8:10])}\ntheir throw: {format_cards(deck[10:12])}\n"
        f"starter: {format_cards(deck[12:])}\nplay: {format_cards(laid)}\n"
    )
    dr = replay(parse_record(rec)).deals[0]
    assert (dr.points["you"]["pegging"], dr.points["they"]["pegging"]) == (pts[me], pts[1 - me])
    assert [c for c in dr.play if c is not GO] == laid
    for d in dr.decisions[1:]:  # the opponent out of cards or not
        now = read_position(d.hand, d.played, me, spec)
        assert (now.count, now.series, now.unplayed) == (d.count, d.series, d.their_left)


def test_a_record_with_a_byte_order_mark_reads_as_without(tmp_path):
    from cribsolve.games.cribbage.table.record import load_record

    f = tmp_path / "game.txt"
    f.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes())
    assert load_record(str(f)).deals == load_record(str(EXAMPLE)).deals
    f.write_bytes(b"game: 121\n\xff\xfe\n")
    with pytest.raises(RecordError, match="not UTF-8"):
        load_record(str(f))
