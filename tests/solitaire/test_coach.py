"""The coach: its advice uses only face-up cards, it agrees with the deck policy's engine, and
the play command walks a whole game from standard input."""

import numpy as np
import pytest
from clihelp import run

from cribsolve.core.notation import format_cards
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.solitaire import patience
from cribsolve.games.solitaire.coach import Walk, advise, seeded_talon
from cribsolve.games.solitaire.pysol import talon
from cribsolve.games.solitaire.simulate import deck_value, win_table


def visible(variant, deal, second):
    """Talon positions face up at a decision, from PySolFC's layout (deal is 1-based)."""
    k = deal - 1
    if variant == "patience":
        earlier = range(7, 7 + 9 * k)
        return set(earlier) | set(range(7 + 9 * k + 2, 7 + 9 * k + 8))
    return set(range(13 * k)) | set(range(13 * k, 13 * k + (12 if second else 6)))


def replay(variant, t, choices):
    w = Walk(variant, t)
    for c in choices:
        w.choose(c)
    return w


@pytest.mark.parametrize(
    "variant,deck",
    [("patience", talon(1)), ("patience2", talon(40000)), ("patience", seeded_talon(5))],
)
def test_advice_never_uses_a_hidden_card(variant, deck):
    """At every decision, move every hidden card (a cyclic shift of the hidden positions: the
    face-down crib, the removed cards, the starter, the later deals); the view and the advice
    must not change, while the game itself does."""
    w = Walk(variant, deck)
    choices, changed = [], 0
    while not w.over:
        view = w.view()
        advice = advise(view, samples=200)
        hidden = sorted(set(range(52)) - visible(variant, view.deal, view.second))
        swapped = list(deck)
        for i, p in enumerate(hidden):
            swapped[p] = deck[hidden[(i + 1) % len(hidden)]]
        other = replay(variant, swapped, choices)
        assert other.view() == view
        assert advise(other.view(), samples=200) == advice
        pick = advice[len(choices) % 3].discard  # not always the advice
        choices.append(pick)
        res, res2 = w.choose(pick, advice), other.choose(pick)
        changed += res is not None and res != res2
    assert changed > 0  # the hidden cards did matter


def test_following_the_advice_is_the_deck_policy():
    """Patience: taking every recommendation scores, deal by deal, what the engine's deck policy
    (the best) scores on the same talon."""
    wins = win_table("patience")
    for game in range(1, 9):
        t = talon(game)
        w = Walk("patience", t)
        while not w.over:
            w.choose(advise(w.view())[0].discard)
        out = np.zeros(5, dtype=np.int64)
        patience.play_patience(
            np.array(t, dtype=np.int64),
            patience.DECK,
            np.zeros(8),
            rank_table(),
            wins,
            deck_value(),
            out,
        )
        assert [r.total for r in w.results] == out.tolist(), game


def test_play_a_whole_game_from_stdin():
    code, out, err = run(
        "play",
        "--variant",
        "patience",
        "--pysol-game",
        "1",
        "--quiet",
        stdin=b"\n\nZZ\n5H\nqh 4h\ny\n\n",
    )
    assert code == 0 and err == ""
    assert out.count("best") >= 5 and "unknown card 'ZZ'" in out
    assert "'5H' is not two cards of your hand" in out
    assert "Game over:" in out and ("won" in out or "lost" in out)
    summary = out.split("Game over:")[1].splitlines()
    assert len(summary) == 1 + 1 + 5  # header, column names, 5 decisions
    # the 9D/JS deal-2 advice was taken; deal 3 threw QH 4H, not the advice (7S 3S)
    assert summary[3].split() == ["2", "9D", "JS", "9D", "JS", "0.0000"]
    assert summary[4].split()[:5] == ["3", "QH", "4H", "7S", "3S"]
    assert float(summary[4].split()[5]) > 0


def test_play_stops_cleanly_at_end_of_input_and_refuses_bad_options():
    code, out, err = run(
        "play", "--variant", "patience2", "--seed", "3", "--quiet", "--samples", "100", stdin=b"\n"
    )
    assert code == 0 and err == "" and "input ended at deal 1" in out
    for args in ([], ["--seed", "1", "--pysol-game", "2"], ["--pysol-game", "0"]):
        code, out, err = run("play", "--variant", "patience", *args, stdin=b"")
        assert code == 2 and err.startswith("cribsolve:") and err.count("\n") == 1


def test_seeded_deals_are_decks():
    assert sorted(seeded_talon(9)) == list(range(52)) and seeded_talon(9) != seeded_talon(10)
    assert format_cards(seeded_talon(9)) == format_cards(seeded_talon(9))


def test_the_readme_transcript_is_real():
    """The game shown in docs/solitaires.md, replayed with the answers typed there."""
    import pathlib
    import re

    readme = (pathlib.Path(__file__).parent.parent.parent / "docs" / "solitaires.md").read_text()
    block = next(
        b
        for b in re.findall(r"```\n(.*?)```", readme, flags=re.S)
        if b.startswith("Cribbage Patience, PySolFC game 14")
    )
    answers = re.findall(r"^your discard \[[^]]*\]: (.*)$", block, flags=re.M)
    code, out, _ = run(
        "play",
        "--variant",
        "patience",
        "--pysol-game",
        "14",
        "--top",
        "2",
        "--quiet",
        stdin="".join(a + "\n" for a in answers).encode(),
    )
    assert code == 0 and out.rstrip() == block.rstrip()


@pytest.mark.parametrize("variant", ["patience", "patience2"])
def test_a_coached_game_fits_80_columns_and_cuts_no_number(variant):
    """Every line of a whole coached game (PySolFC 14, the advice taken, a bad answer once) is
    at most 80 columns wide, and a deal's count wrapped to fit is whole once its lines are
    joined: a hand and its points, the crib and its points, "= total; score" never cut (an 80
    column terminal showed "= 2" / "2; score 22")."""
    import re

    code, out, err = run(
        "play", "--variant", variant, "--pysol-game", "14", "--quiet", stdin=b"3H 7H\n" + b"\n" * 9
    )
    lines = out.splitlines()
    assert code == 0 and err == "" and "Game over:" in out
    assert max(map(len, lines)) <= 80
    hand = r"hand(?: [2-9TJQKA][CDHS]){4} \d+"
    count = re.compile(
        rf"starter [2-9TJQKA][CDHS]: {hand}(?: \+ {hand})? \+ crib(?: [2-9TJQKA][CDHS]){{4}} "
        r"\d+(?: \+ heels 2)? = (\d+); score (\d+)"
    )
    counts = [
        " ".join([line.strip()] + [m.strip() for m in lines[i + 1 : i + 3] if m.startswith("    ")])
        for i, line in enumerate(lines)
        if line.startswith("  starter ")
    ]
    assert len(counts) == (5 if variant == "patience" else 4)
    score = 0
    for joined in counts:
        m = count.fullmatch(joined)
        assert m, joined
        score += int(m.group(1))
        assert int(m.group(2)) == score
    assert any(line.startswith("  points: expected points") for line in lines)
    assert "type two of its" in out and "cards, or Enter for the advice" in out
