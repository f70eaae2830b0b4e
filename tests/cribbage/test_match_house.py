"""Every rule of the seed page at the table (docs/RULES.md §5, §8): a game under each house rule
that changes the deal (copies of a card, two cut cards, draw, choose-a-cut, two cribs, bids, the
five-card game) plays to its end; its record replays to the game's scores and winner; every
hand and crib counts what the game engine's own show kernel gives the cards the record says; a
game broken off resumes as the game played through; a record that cannot have happened under
these rules is one line naming its line."""

import numpy as np
import pytest

from cribsolve.core.cards import RANK, VALUE, without
from cribsolve.core.scoring.table import rank_table
from cribsolve.errors import RecordError
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table.computer import Computer
from cribsolve.games.cribbage.table.match import Match, Player
from cribsolve.games.cribbage.table.record import PASS, parse_record
from cribsolve.games.cribbage.table.replay import replay
from cribsolve.games.cribbage.throw.values import show_points

RULES = {
    "the page's game": dict(decks=2, hand_size=8, starters=2, game_length=241),
    "draw": dict(draw=True, game_length=61),
    "bid": dict(bid=True),
    "choose-a-cut": dict(choose_cut=True, hand_size=7),
    "two cribs": dict(two_cribs=True, hand_size=8),
    "jokers 2": dict(jokers=2),
    "five-card": dict(five_card=True, hand_size=5, game_length=61),
    "two cribs, choose-a-cut": dict(two_cribs=True, choose_cut=True, hand_size=9),
    "draw, bid": dict(draw=True, bid=True, game_length=61),
}


class Script(Player):
    """Answers from the decision alone (so a resumed game is answered as the whole one):
    throws its last cards, redraws its low cards, bids while the bid is under 3, lays its
    first card that fits; stops (end of input) after ``stop_after`` answers."""

    def __init__(self, spec, stop_after=None):
        self.spec, self.stop_after, self.asked = spec, stop_after, 0

    def _ask(self):
        self.asked += 1
        if self.stop_after is not None and self.asked > self.stop_after:
            raise EOFError

    def throw(self, d):
        self._ask()
        return d.hand[self.spec.kept :]

    def redraw(self, d):
        self._ask()
        return [c for c in d.hand if RANK[c] <= 3][: d.limit]

    def bid(self, d):
        self._ask()
        return d.bid + (d.bid < 3)

    def lay(self, d):
        self._ask()
        return next(c for c in d.hand if d.count + VALUE[RANK[c]] <= self.spec.peg_limit)


def play(spec, seed, stop_after=None, resumed=None):
    out = []
    m = Match(
        spec,
        Script(spec, stop_after),
        Computer("greedy", spec),
        lambda text="", nl=True: None,
        out.append,
        seed,
    )
    try:
        m.run(resumed)
    except EOFError:
        pass
    return m, "".join(out)


def _shows(spec, f, dealer_is_me):
    """(who, part) -> (cards, cut cards, is a crib) of one deal's record fields, as the rules
    say: the kept cards after the throw, the card given and the redraws; the cribs."""
    t = spec.throw
    kept, cuts, thrown = {}, {}, {}
    for who, pre in (("you", ""), ("they", "their ")):
        hand = f["me" if who == "you" else "them"]
        if spec.draw:
            away, drawn = f[f"{pre}draw"]
            hand = without(hand, away) + drawn
        thrown[who] = f["throw" if who == "you" else "their throw"]
        gift = f[f"{pre}gift"] if spec.choose_cut else []
        hand = without(hand, thrown[who] + gift)
        if spec.draw:
            away, drawn = f[f"{pre}draw after"]
            hand = without(hand, away) + drawn
        kept[who] = hand
    for who, other in (("you", "their "), ("they", "")):
        cuts[who] = f[f"{other}gift"] if spec.choose_cut else f["starter"]
    shows = {(who, "hand"): (kept[who], cuts[who], False) for who in kept}
    dealer = "you" if dealer_is_me else "they"
    if spec.two_cribs:
        for who, other in (("you", "they"), ("they", "you")):
            shows[who, "crib"] = (thrown[who][:t] + thrown[other][t:], cuts[who], True)
    else:
        owner = dealer
        bids = f.get("bids")
        if bids and len([b for b in bids if b != PASS]) % 2:  # the pone bid last
            owner = "they" if dealer == "you" else "you"
        shows[owner, "crib"] = (thrown["you"] + thrown["they"], cuts[owner], True)
    return shows


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_a_house_rule_game_plays_to_its_end_and_its_record_replays(rules):
    spec = CribbageSpec(**rules)
    m, text = play(spec, 3)
    rec = parse_record(text)
    assert rec.spec == spec and m.result.winner in ("you", "they", "tie")
    game = replay(rec)
    assert game.winner == m.result.winner and list(game.deals[-1].scores_after) == m.scores
    table, pr = rank_table(spec.target), spec.as_array()
    price = 0
    for d, dr in zip(rec.deals, game.deals):
        f = {k: v[1] for k, v in d.fields.items()}
        if "play" not in f:
            continue  # his heels on the first cut card ended the game
        if spec.bid:
            price = len([b for b in f["bids"] if b != PASS])
        for (who, part), (held, cuts, crib) in _shows(spec, f, dr.i_deal).items():
            got = dr.points[who][part]
            if dr is game.deals[-1] and game.winner and not spec.two_cribs:
                continue  # the game may have ended before this count
            cards = np.array(held + cuts, dtype=np.int64)
            want = show_points(cards, len(held), table, crib, pr)
            if crib and want < price:  # the bid not made: set back (never below 0)
                assert got <= 0, (who, part)
            else:
                assert got == want, (who, part, d.line)


@pytest.mark.parametrize(
    "rules",
    [RULES[k] for k in ("draw", "bid", "two cribs, choose-a-cut", "five-card")],
    ids=["draw", "bid", "two cribs, choose-a-cut", "five-card"],
)
def test_a_game_broken_off_resumes_as_the_game_played_through(rules):
    spec = CribbageSpec(**rules)
    _, whole = play(spec, 4)
    m, part = play(spec, 4, stop_after=12)
    assert m.result.winner is None and 0 < m.result.deals
    _, rest = play(spec, 4, resumed=replay(parse_record(part)))
    assert part + rest == whole


BASE = """game: 121
dealer: me
rules: {rules}
deal
me: {me}
them: 7S 8D 8H 4H KC QC
throw: {throw}
their throw: 8H KC
starter: {starter}
play: {play}
"""
GOOD = dict(me="5C 5D TS 6H 9C 2S", throw="9C 2S", starter="4D", play="7S 5C 8D 5D 4H TS QC 6H")


@pytest.mark.parametrize(
    "rules,change,says",
    [
        ("decks 2", dict(me="5C 5C TS 6H 9C 2S", play="7S 5C 8D 5C 4H TS QC 6H"), None),
        ("decks 2", dict(me="5C 5C 5C 6H 9C 2S"), "5C appears 3 times in 'me' (the deck holds 2)"),
        ("standard rules", dict(me="5C 5C TS 6H 9C 2S"), "5C appears 2 times in 'me'"),
        ("starters 2", dict(starter="4D"), "'starter' takes 2 cards, not 1"),
        ("starters 2", dict(starter="4D AC"), None),
        ("draw", {}, None),
        ("bid for the crib", {}, "this deal has no 'bids' line"),
        ("choose-a-cut, hand size 7", dict(me="5C 5D TS 6H 9C 2S 3S"), "no 'gift' line"),
    ],
)
def test_the_house_rules_lines_are_read_and_checked(rules, change, says):
    text = BASE.format(rules=rules, **{**GOOD, **change})
    if rules.startswith("choose"):
        text = text.replace("them: 7S 8D 8H 4H KC QC", "them: 7S 8D 8H 4H KC QC 3D")
        text = text.replace("starter: 4D\n", "")
    if says is None:
        game = replay(parse_record(text))
        assert game.deals[0].cuts == [
            int(c) for c in parse_record(text).deals[0].fields["starter"][1]
        ]
        return
    with pytest.raises(RecordError, match=says.replace("(", r"\(").replace(")", r"\)")):
        replay(parse_record(text))


@pytest.mark.parametrize(
    "line,says",
    [
        ("draw: 5C for", "'draw': 1 thrown away for 0 drawn"),
        ("draw: 5C 5D", "give the cards thrown away 'for' those drawn"),
        ("draw: 7S for AC", "'draw' throws away a card not among the cards held"),
        ("draw: 5C 5D TS 6H 9C 2S for AC 2C 3C 4C 5H 5S", "keeps at least one card"),
    ],
)
def test_a_draw_cribbage_line_that_cannot_have_happened_is_one_line(line, says):
    text = BASE.format(rules="draw", **GOOD).replace("throw: 9C 2S", f"{line}\nthrow: 9C 2S")
    with pytest.raises(RecordError, match=says):
        replay(parse_record(text))


@pytest.mark.parametrize(
    "bids,owner",
    [("pass", "me"), ("1 pass", "them"), ("1 2 3 pass", "them"), ("1 2 pass", "me")],
)
def test_the_bids_give_the_crib_to_the_last_bidder(bids, owner):
    """I deal: the pone (they) bids first; the crib's owner scores it if it makes the bid,
    else is set back by the bid, never below 0; the other scores no crib."""
    text = BASE.format(rules="bid for the crib", **GOOD) + f"bids: {bids}\n"
    f = {k: [int(c) for c in v[1]] for k, v in parse_record(text).deals[0].fields.items()
         if k != "bids" and k != "play"}  # fmt: skip
    cards = np.array(f["throw"] + f["their throw"] + f["starter"], dtype=np.int64)
    crib = show_points(cards, 4, rank_table(15), True, CribbageSpec().as_array())
    price = len(bids.split()) - 1
    pts = replay(parse_record(text)).deals[0].points
    mine, other = ("you", "they") if owner == "me" else ("they", "you")
    before = pts[mine]["heels"] + pts[mine]["pegging"] + pts[mine]["hand"]
    assert pts[mine]["crib"] == (crib if crib >= price else -min(price, before))
    assert pts[other]["crib"] == 0
    bad = BASE.format(rules="bid for the crib", **GOOD) + "bids: 1 3 pass\n"
    with pytest.raises(RecordError, match="each one more"):
        replay(parse_record(bad))


# Over stdin: the same answers, round and round, until one fits the prompt (each wrong answer
# is told in a line and asked again): a throw of 2 to 5 cards, a redraw, a bid, a card.
ANSWERS = ["1 2", "1 2 3", "1 2 3 4", "1 2 3 4 5", "none", "pass"] + [str(i) for i in range(1, 9)]
PLAY = ("play", "--variant", "cribbage", "--plain", "--opponent-policy", "greedy", "--quiet")
OVER_STDIN = {
    "the page's game": ("--decks", 2, "--hand-size", 8, "--starters", 2, "--game-length", 241),
    "draw": ("--draw",),
    "choose-a-cut": ("--choose-cut",),
    "two cribs": ("--two-cribs",),
    "bid": ("--bid",),
    "jokers 2": ("--jokers", 2),
    "five-card": ("--five-card",),
}


@pytest.mark.slow
@pytest.mark.parametrize("rules", OVER_STDIN.values(), ids=OVER_STDIN.keys())
def test_a_house_rule_game_over_stdin_and_its_review_end_alike(tmp_path, rules):
    import re

    from clihelp import run

    rec = tmp_path / "game.txt"
    script = ("\n".join(ANSWERS * 600) + "\n").encode()
    code, out, err = run(*PLAY, *rules, "--seed", 11, "--record", rec, stdin=script)
    assert code == 0, err
    over = re.search(r"game over: (?:(you|they) wins? (\d+)-(\d+)|a tie at (\d+)-(\d+))", out)
    assert over, out[-2000:]
    code, review, err = run("review", rec, "--quiet")
    assert code == 0, err
    assert review.splitlines()[-2:] == out.splitlines()[-3:-1]
    last = review.splitlines()[-1]
    if over[1]:
        assert last.startswith(f"{over[1]} won {over[2]}-{over[3]}")
    else:
        assert last == f"a tie at {over[4]}-{over[5]} (two cribs)"
