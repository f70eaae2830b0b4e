"""A whole game against the computer (match.py): its scores equal review's replay of the record
it wrote, the computer's choices never move with cards it has not seen, an interrupted game
keeps a readable record, the calls name the points the rules' own scorers give."""

import numpy as np
import pytest

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import parse_cards
from cribsolve.core.rules import ruleset
from cribsolve.core.scoring import score_hand
from cribsolve.games.cribbage.rules import announce
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table import match
from cribsolve.games.cribbage.table.computer import Computer
from cribsolve.games.cribbage.table.match import Match, Player
from cribsolve.games.cribbage.table.record import parse_record
from cribsolve.games.cribbage.table.replay import replay

SPEC = CribbageSpec()


class Script(Player):
    """Throws the cards in fixed places of the hand, lays its first card that fits, counts a
    fixed amount short of the right count (counting yourself)."""

    def __init__(self, places=(4, 5), short=0, stop_after=None, spec=SPEC):
        self.places, self.short, self.asked, self.stop_after = places, short, 0, stop_after
        self.spec = spec

    def _ask(self):
        self.asked += 1
        if self.stop_after is not None and self.asked > self.stop_after:
            raise EOFError

    def throw(self, d):
        self._ask()
        return [d.hand[i] for i in self.places]

    def lay(self, d):
        self._ask()
        return next(c for c in d.hand if d.count + VALUE[RANK[c]] <= self.spec.peg_limit)

    def count(self, held, cuts, crib):
        right = score_hand(held, cuts, self.spec.rules(), crib).total
        return max(0, right - self.short)


def play_game(seed, policy="greedy", player=None, spec=SPEC, **kw):
    out, lines = [], []
    m = Match(
        spec,
        player or Script(),
        Computer(policy, spec),
        lambda s="", nl=True: lines.append(s),
        out.append,
        seed,
        **kw,
    )
    try:
        m.run()
    except EOFError:
        pass
    return m, "".join(out), lines


@pytest.mark.parametrize("seed,you_deal", [(1, None), (2, True), (3, False)])
def test_a_whole_game_scores_as_reviews_replay_of_its_record(seed, you_deal):
    m, text, lines = play_game(seed, you_deal=you_deal)
    game = replay(parse_record(text))
    assert max(m.scores) >= 121 and m.result.winner in ("you", "they")
    assert game.winner == m.result.winner
    assert list(game.deals[-1].scores_after) == m.scores
    assert len(game.deals) == m.result.deals
    assert any(line.startswith("game over") for line in lines)
    board = [line for line in lines if line.endswith(f"[you {m.scores[0]}, they {m.scores[1]}]")]
    assert board, "the board is shown after the last score"


def test_the_expert_plays_a_game_to_its_end_and_the_record_replays():
    m, text, _ = play_game(5, "expert")
    game = replay(parse_record(text))
    assert game.winner == m.result.winner and list(game.deals[-1].scores_after) == m.scores


def test_the_game_length_ends_the_game_at_once_mid_play_included():
    spec = CribbageSpec(game_length=31)
    for seed in range(6):
        m, text, lines = play_game(seed, spec=spec)
        game = replay(parse_record(text))
        assert game.winner == m.result.winner and list(game.deals[-1].scores_after) == m.scores
        last = next(i for i, line in enumerate(lines) if line.startswith("game over"))
        assert not any(line.startswith("  ") for line in lines[last:])


def test_the_same_seed_deals_the_same_cards_to_each_seat():
    _, a, _ = play_game(9, you_deal=True)
    _, b, _ = play_game(9, you_deal=False)
    da, db = parse_record(a).deals[0].fields, parse_record(b).deals[0].fields
    assert da["me"][1] == db["them"][1] and da["them"][1] == db["me"][1]
    assert da["starter"][1] == db["starter"][1]


def _computer_log(monkeypatch):
    log = []
    for name in ("throw", "lay"):
        real = getattr(Computer, name)

        def spy(self, *args, _real=real, _name=name):
            choice = _real(self, *args)
            log.append((_name, choice))
            return choice

        monkeypatch.setattr(Computer, name, spy)
    return log


@pytest.mark.parametrize("policy", ["expert", "lookahead", "greedy"])
def test_the_computer_cannot_see_your_throw_or_the_deck_below_the_starter(monkeypatch, policy):
    """Your two thrown cards swapped for cards from below the starter, and the rest of the
    deck there reversed: the computer's throw and every card it lays are the same."""
    real = match.deck_for
    log = _computer_log(monkeypatch)
    first = play_game(4, policy, Script(stop_after=12), you_deal=True)[0]
    assert first.result.deals >= 1
    plain = list(log)
    log.clear()

    def hidden_changed(seed, n, spec):
        deck = real(seed, n, spec)
        if n != 1:  # deal 1 alone: you deal it
            return deck
        h, you = spec.hand_size, deck[spec.hand_size : 2 * spec.hand_size]  # you deal: seat 1
        below = deck[2 * h + 1 :]
        for place in (4, 5):  # Script throws these places
            k = 2 * h + 1 + len(below) - 1 - place
            deck[h + place], deck[k] = deck[k], deck[h + place]
        deck[2 * h + 1 :] = deck[2 * h + 1 :][::-1]
        assert deck[h : 2 * h] != you
        return deck

    monkeypatch.setattr(match, "deck_for", hidden_changed)
    play_game(4, policy, Script(stop_after=12), you_deal=True)
    assert log == plain


def first_deal(log):
    """The computer's cards of the first deal, (cards laid before, card), until the count of
    cards laid starts again: the script may stop at different places in the second."""
    out = []
    for x in log:
        if out and x[0] < out[-1][0]:
            break
        out.append(x)
    return out


def test_the_computers_cards_do_not_move_with_your_unplayed_cards(monkeypatch):
    """Your last kept card swapped for another unseen card: every card the computer lays before
    yours differ is the same."""
    real = match.deck_for
    log = []
    real_lay = Computer.lay

    def spy(self, kept, seen, laid, *rest):
        log.append((len(laid[0]) + len(laid[1]), real_lay(self, kept, seen, laid, *rest)))
        return log[-1][1]

    monkeypatch.setattr(Computer, "lay", spy)
    runs = []
    for swap in (False, True):
        log.clear()

        def deck(seed, n, spec, swap=swap):
            d = real(seed, n, spec)
            if swap and n == 1:  # you are the pone: seat 0, place 3 kept
                d[3], d[-1] = d[-1], d[3]
            return d

        monkeypatch.setattr(match, "deck_for", deck)
        m, text, _ = play_game(6, "expert", Script(stop_after=5), you_deal=False)
        deal = parse_record(text).deals[0].fields if m.result.deals else None
        runs.append((list(log), deal))
    (a, deal_a), (b, deal_b) = runs
    played_a, played_b = deal_a["play"][1], deal_b["play"][1]
    same = next(
        (i for i, (x, y) in enumerate(zip(played_a, played_b)) if x != y),
        min(len(played_a), len(played_b)),
    )
    cards_before = len([t for t in played_a[:same] if t is not GO])
    assert deal_a["me"][1][3] != deal_b["me"][1][3]
    assert [x for x in first_deal(a) if x[0] <= cards_before] == [
        x for x in first_deal(b) if x[0] <= cards_before
    ]
    assert any(x[0] <= cards_before for x in a)


def test_end_of_input_keeps_the_record_of_the_deals_finished():
    m, text, _ = play_game(7, player=Script(stop_after=9))
    assert m.result.winner is None and m.result.deals >= 1
    game = replay(parse_record(text))
    assert len(game.deals) == m.result.deals and game.winner is None
    assert list(game.deals[-1].scores_after) != [0, 0] or m.scores == [0, 0]


def test_counting_yourself_short_gives_the_missed_points_to_them_under_muggins():
    m, text, lines = play_game(8, player=Script(short=2), count_yourself=True, muggins=True)
    taken = [line for line in lines if "muggins" in line]
    assert taken and all("the 2 you missed" in line for line in taken)
    fair = play_game(8, player=Script(short=2), count_yourself=True)[2]
    assert not any("muggins" in line for line in fair)
    assert any("you counted" in line and "the count is" in line for line in fair)


HOUSE = [
    dict(lowball=True, game_length=61),
    dict(target=16, peg_limit=41),
    dict(hand_size=5, crib_size=2),
    dict(wild_rank=13, jokers=1),
    dict(hand_size=7, crib_size=6),
    dict(stinkhole=True, game_length=61),
]


@pytest.mark.parametrize("rules", HOUSE, ids=lambda r: CribbageSpec(**r).describe())
def test_a_house_rule_game_counts_as_the_engine_and_its_record_replays(rules):
    """Under each house rule the play offers: the record names the rules, its replay gives
    the game's scores and winner, and every hand and crib counts what the game engine's
    own show kernel (throws.show_points) gives the same cards."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.throw.values import show_points

    spec = CribbageSpec(**rules)
    t = spec.crib_size // 2
    script = Script(places=tuple(range(spec.hand_size - t, spec.hand_size)), spec=spec)
    m, text, lines = play_game(2, player=script, spec=spec)
    rec = parse_record(text)
    assert rec.spec == spec and (f"rules: {spec.describe()}" in text) == (spec.game_length == 121)
    game = replay(rec)
    assert game.winner == m.result.winner and list(game.deals[-1].scores_after) == m.scores
    reached = m.scores.index(max(m.scores))
    assert m.result.winner == ("you", "they")[1 - reached if spec.lowball else reached]
    table, pr = rank_table(spec.target), spec.as_array()
    for d, dr in zip(rec.deals, game.deals):
        f = {k: v[1] for k, v in d.fields.items()}
        kept = [
            [c for c in f["me"] if c not in f["throw"]],
            [c for c in f["them"] if c not in f["their throw"]],
        ]
        crib = f["throw"] + f["their throw"]
        mine = 1 if dr.i_deal else 0
        shows = {
            ("you", "hand"): (kept[0], False),
            ("they", "hand"): (kept[1], False),
            ("you" if mine else "they", "crib"): (crib, True),
        }
        for (who, part), (held, is_crib) in shows.items():
            got = dr.points[who][part]
            if dr is game.deals[-1] and game.winner or spec.stinkhole and not got:
                continue  # the game ended first; a stink hole
            cards = np.array(held + f["starter"], dtype=np.int64)
            assert got == show_points(cards, len(held), table, is_crib, pr), (who, part)


def test_the_house_rules_read_back_as_the_commands_word_them():
    from cribsolve.games.cribbage.table.record import rules_from_words

    for rules in HOUSE + [dict(target=11, peg_limit=21, lowball=True, wild_rank=1)]:
        spec = CribbageSpec(**{k: v for k, v in rules.items() if k != "game_length"})
        assert rules_from_words(spec.describe()) == spec
        assert rules_from_words(spec.describe().upper().replace(", ", " ,  ")) == spec


@pytest.mark.parametrize(
    "words,says",
    [
        ("peg limit 5", "the peg limit must be"),
        ("lowball, lowball", "given twice"),
        ("flush of five", "unknown house rule"),
        ("bid for the crib, lowball", "not lowball"),
    ],
)
def test_house_rules_a_record_cannot_have_are_one_line(words, says):
    from cribsolve.errors import RecordError

    with pytest.raises(RecordError, match=says):
        parse_record(f"game: 121\ndealer: me\nrules: {words}\ndeal\n")


@pytest.mark.parametrize(
    "hand,starter,crib",
    [
        ("5H 5D 5C JS", "5S", False),
        ("7H 8D 7C 8S", "9S", False),
        ("AH 2D 3C KS", "QD", False),
        ("2H 4H 6H 8H", "TH", True),
        ("4C 4D 6C 6D", "5S", False),
    ],
)
def test_the_cadence_ends_on_the_scorers_total(hand, starter, crib):
    s = score_hand(parse_cards([hand]), parse_cards([starter]), ruleset("standard"), crib)
    said = announce.cadence(s.items)
    assert said.split(" (")[-2].split()[-1] == announce.number(s.total) or s.total == 0
    if s.total == 29:
        assert "twenty-nine" in said


@pytest.mark.parametrize(
    "hand,starter,rules,total,says",
    [
        ("5H 5D KC JS", "5S", dict(wild_rank=13), 29, "double pair royal"),
        ("6H 7H 8H KC", "KD", dict(target=16), 9, "sixteen two (6H KC), sixteen four"),
    ],
)
def test_the_cadence_of_house_rules_says_their_points(hand, starter, rules, total, says):
    """Counted by hand: the wild king is a fourth five, 5-5-5-5 with the jack of the
    starter's suit, 29; to 16, 6 7 8 K K is 6+K twice (4), the kings' pair (2), the run (3)."""
    s = score_hand(
        parse_cards([hand]), parse_cards([starter]), CribbageSpec(**rules).rules(), False
    )
    said = announce.cadence(s.items, CribbageSpec(**rules).target)
    assert s.total == total and says in said
    assert said.split(" (")[-2].split()[-1] == announce.number(total)


@pytest.mark.parametrize(
    "ranks,count,pts,words",
    [
        ([10, 5], 15, 2, "fifteen for two"),
        ([7, 7], 14, 2, "a pair for two"),
        ([5, 5, 5], 15, 8, "fifteen and pair royal for eight"),
        ([3, 4, 5], 12, 3, "a run of three for three"),
        ([10, 10, 1, 10], 31, 2, "thirty-one for two"),
        ([6, 6, 9, 10], 31, 2, "thirty-one for two"),
    ],
)
def test_the_play_calls_name_the_points(ranks, count, pts, words):
    assert announce.play_words(ranks, count, pts, SPEC) == words


def test_under_muggins_the_record_keeps_your_counts_and_the_replay_ends_as_the_game():
    """The review's replay pegs your counts as you gave them and the points you missed to them,
    as the game did, so it ends where the game ended (it counted them in full: issue 64)."""
    from cribsolve.games.cribbage.table.review import text_lines

    m, text, lines = play_game(0, player=Script(short=2), count_yourself=True, muggins=True)
    game = replay(parse_record(text))
    assert game.winner == m.result.winner == "they"
    assert list(game.deals[-1].scores_after) == m.scores == [34, 121]
    taken = sum(dr.points["they"]["muggins"] for dr in game.deals)
    assert taken == 2 * sum("muggins: the 2 you missed" in line for line in lines) > 0
    assert text_lines(game, [])[-1] == "they won 121-34"


@pytest.mark.parametrize(
    "shows,change,says",
    [
        (1, lambda counts: counts + " 0", "more than your shows"),  # the pone: no crib
        (2, lambda counts: counts + " 0", "give your counts"),
        (2, lambda counts: counts.rsplit(" ", 1)[0], "a count short"),
    ],
)
def test_a_muggins_record_whose_counts_do_not_fit_its_shows_is_one_line(shows, change, says):
    from cribsolve.errors import RecordError

    _, text, _ = play_game(0, player=Script(short=2), count_yourself=True, muggins=True)
    lines = text.split("\n")
    k = next(
        k
        for k, line in enumerate(lines)
        if line.startswith("counts: ") and line.count(" ") == shows
    )
    lines[k] = change(lines[k])
    with pytest.raises(RecordError, match=says):
        replay(parse_record("\n".join(lines)))
