"""PySolFC game numbers: the generators against the public FreeCell deals and the pysol-cards
package, the layouts against the engines, and the commands that take --pysol-game."""

import json

import numpy as np
import pytest
from clihelp import run
from hypothesis import given, settings
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer, createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from cribsolve import parse_cards, ruleset, score_hand
from cribsolve.core.notation import format_cards, parse_card
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.solitaire import patience, shuffle
from cribsolve.games.solitaire.deckvalue import SCORE_ONLY
from cribsolve.games.solitaire.pysol import layout, parse_game, talon

PYSOL = ruleset("pysol")


def reference(n, ms):
    """The talon of game n, top first, dealt by the pysol-cards package's generators."""
    cards = createCards(1)
    rng = LCRandom31(n) if ms else MTRandom(n)
    cards = rng.shuffle(ms_rearrange(cards) if ms else cards)
    render = CardRenderer(True)
    return [parse_card(render.to_s(c)) for c in reversed(cards)]


def test_freecell_deals_1_and_617():
    # Microsoft FreeCell's published deals, dealt from the top: #1 and #617 (the example of
    # the Rosetta Code task "Deal cards for FreeCell").
    assert format_cards(talon(1)[:13]) == "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD"
    assert format_cards(talon(617)[:16]) == "7D AD 5C 3S 5S 8C 2D AH TD 7S QD AC 6D 8H AS KH"


@pytest.mark.parametrize("n", [1, 2, 617, 11982, 31998, 31999])
def test_microsoft_numbers_match_pysol_cards(n):
    assert talon(n) == reference(n, True)


@pytest.mark.parametrize("n", [32000, 32001, 40000, 123456789, 10**20])
def test_mersenne_numbers_match_pysol_cards(n):
    assert talon(n) == reference(n, False)


def test_the_edge_is_below_32000():
    # 31999 is the last Microsoft deal; 32000 is the first Mersenne Twister one (the helper
    # pysol_cards.random.shuffle takes <= 32000 and would deal it as Microsoft's).
    assert talon(31999) == reference(31999, True)
    assert talon(32000) == reference(32000, False) != reference(32000, True)
    assert talon("ms32000") == reference(32000, True)
    assert parse_game("31999").ms and not parse_game("32000").ms


def test_the_help_states_the_numbers_taken():
    """deal --help said 1 to 31999, and 40000 was taken (as PySolFC takes it): the help says
    what parse_game takes and which generator deals what."""
    from cribsolve.games.solitaire.pysol import GAME_MAX, MS_BELOW

    for command in (["deal"], ["best-discard"], ["shuffle"], ["play"]):
        code, out, _ = run(*command, "--help")
        said = " ".join(out.split())
        assert code == 0 and "--pysol-game N PySolFC's game N, 1 to 1e20" in said, said
        assert "31999" not in said
    said = " ".join(run("deal", "--help")[1].split())
    assert f"below {MS_BELOW} (and msN) Microsoft-compatible deals, from {MS_BELOW} the " in said
    assert GAME_MAX == 10**20 and parse_game(str(GAME_MAX)) and parse_game("40000")
    with pytest.raises(ValueError):
        parse_game(str(GAME_MAX + 1))


@pytest.mark.parametrize("n", [2**31 - 1, 2**31 + 5, 2**32 + 7, 2**33 - 1])
def test_wide_ms_numbers_match_pysol_cards(n):
    assert talon(f"ms{n}") == reference(n, True)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 10**12))
def test_every_talon_is_a_deck_and_matches(n):
    t = talon(n)
    assert sorted(t) == list(range(52))
    assert t == reference(n, n < 32000)


@pytest.mark.parametrize(
    "text", ["0", "ms0", "-1", "1.5", "1e3", "abc", "", "ms", "10" * 11, f"ms{2**33}"]
)
def test_bad_numbers_are_refused(text):
    with pytest.raises(ValueError):
        parse_game(text)
    code, out, err = run("deal", "--variant", "patience", "--pysol-game", text)
    assert code == 2 and out == "" and err.startswith("cribsolve:") and err.count("\n") == 1


def pts(held, starter, crib=False):
    return score_hand(held, [starter], PYSOL, crib, itemized=False).total


def heels(s):
    return 2 if s // 4 + 1 == 11 else 0


@pytest.mark.parametrize("game", [1, 40000])
def test_patience_engines_read_the_talon_as_pysol_lays_it_out(game):
    # The engine plays the talon array itself; its random policy with draws of 0 always throws
    # the first two hand cards, so each deal's points follow from the layout by hand.
    t = np.array(talon(game), dtype=np.int64)
    out = np.zeros(5, dtype=np.int64)
    patience.play_patience(
        t, patience.RANDOM, np.zeros(8), rank_table(), np.zeros((6, 81)), SCORE_ONLY, out
    )
    for k, d in enumerate(layout("patience", t)["deals"]):
        h, s = d["hand"], d["starter"]
        assert out[k] == pts(h[2:], s) + pts(h[:2] + d["crib"], s, True) + heels(s)
    out = np.zeros(4, dtype=np.int64)
    patience.play_patience2(t, patience.RANDOM, np.zeros(8), rank_table(), np.zeros((6, 81)), out)
    for k, d in enumerate(layout("patience2", t)["deals"]):
        h1, h2, s = d["hand"], d["second_hand"], d["starter"]
        assert out[k] == (
            pts(h1[2:], s) + pts(h2[2:], s) + pts(h1[:2] + h2[:2], s, True) + heels(s)
        )


def test_shuffle_reads_the_last_17_cards():
    t = talon(40000)
    lay = layout("shuffle", t)
    best, _ = shuffle.solve_many(np.array([t[35:]], dtype=np.int64), rank_table(), 0)
    sol = shuffle.solve(sum(lay["grid"], []), lay["starter"])
    assert best[0] == sol.total and sol.optimal
    code, out, _ = run("shuffle", "--pysol-game", "40000", "--json")
    assert code == 0 and json.loads(out)["total"] == sol.total


def test_deal_json_and_text():
    code, out, _ = run("deal", "--variant", "patience", "--pysol-game", "1", "--json")
    d = json.loads(out)
    assert code == 0 and d["variant"] == "patience" and d["game"] == 1
    assert parse_cards(d["talon"]) == talon(1)
    assert d["deals"][0] == {
        "crib": ["5H", "KD"],
        "hand": "KC 9S 5S AD QC KH".split(),
        "starter": "3H",
    }
    code, out, _ = run("deal", "--variant", "patience2", "--pysol-game", "ms1")
    assert (
        code == 0
        and "deal 1: hand JD 2D 9H JC 5D 7H | second hand 7C 5H KD KC 9S 5S | starter AD" in out
    )


def test_best_discard_takes_the_games_hand_and_earlier_deals():
    code, a, _ = run(
        "best-discard", "--variant", "patience", "--pysol-game", "1", "--deal", "2", "--json"
    )
    lay = layout("patience", talon(1))["deals"]
    seen = format_cards(lay[0]["crib"] + lay[0]["hand"] + [lay[0]["starter"]])
    code2, b, _ = run(
        "best-discard",
        *format_cards(lay[1]["hand"]).split(),
        "--variant",
        "patience",
        "--seen",
        seen,
        "--json",
    )
    assert code == code2 == 0 and a == b
    h1 = layout("patience2", talon(1))["deals"][0]["hand"]
    code, a, _ = run(
        "best-discard",
        "--variant",
        "patience2",
        "--pysol-game",
        "1",
        "--crib-cards",
        format_cards(h1[:2]),
        "--score",
        "0",
        "--deal",
        "1",
        "--json",
    )
    code2, b, _ = run(
        "best-discard",
        "7C 5H KD KC 9S 5S",
        "--variant",
        "patience2",
        "--crib-cards",
        format_cards(h1[:2]),
        "--kept",
        format_cards(h1[2:]),
        "--score",
        "0",
        "--deal",
        "1",
        "--json",
    )
    assert code == code2 == 0 and a == b
    for bad in (["AS"], ["--seen", "AS"], ["--crib-cards", "AS 2S"], ["--deal", "5"]):
        code, out, err = run("best-discard", "--variant", "patience2", "--pysol-game", "1", *bad)
        assert code == 2 and err.startswith("cribsolve:")
