"""A game of three or four, or partners, against the computers (match.py, docs/RULES.md §8):
its scores equal review's replay of the record it wrote, the computers' choices never move
with cards they have not seen, the cut for deal among all, and the command line."""

import re

import pytest
from clihelp import run
from test_match import Script, _computer_log, play_game

from cribsolve.core.cards import RANK
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table import match
from cribsolve.games.cribbage.table.record import parse_record
from cribsolve.games.cribbage.table.replay import replay

TABLES = {
    "three": CribbageSpec(players=3, hand_size=5),
    "four": CribbageSpec(players=4, hand_size=5),
    "partners": CribbageSpec(players=4, hand_size=5, partners=True),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_a_whole_game_scores_as_reviews_replay_of_its_record(name):
    spec = TABLES[name]
    m, text, lines = play_game(2, "greedy", Script(places=(4,), spec=spec), spec=spec)
    game = replay(parse_record(text))
    assert max(m.scores) >= 121 and len(m.scores) == spec.sides
    assert game.winner == m.result.winner and list(game.deals[-1].scores_after) == m.scores
    assert len(game.deals) == m.result.deals
    assert any(line.startswith("game over") for line in lines)
    assert lines[-3].endswith(m.board()), "the board is shown after the last score"
    dealers = [
        re.match(r"deal \d+: (\w+) deals?", s)[1] for s in lines if re.match(r"deal \d+:", s)
    ]
    names = ["you", "left", "right"] if spec.players == 3 else ["you", "left", "across", "right"]
    first = names.index(dealers[0])  # the deal passes to the left
    assert dealers == [names[(first + k) % spec.players] for k in range(len(dealers))]


def test_lookahead_computers_play_a_short_game_whose_record_replays():
    spec = CribbageSpec(players=4, hand_size=5, partners=True, game_length=31)
    m, text, _ = play_game(3, "lookahead", Script(places=(0,), spec=spec), spec=spec)
    game = replay(parse_record(text))
    assert game.winner == m.result.winner and list(game.deals[-1].scores_after) == m.scores


def test_the_computers_cannot_see_your_throw_or_the_deck_below_the_starter(monkeypatch):
    """Three players, you deal (seat 2, cards 10-14 of the deck): your thrown card (place 4)
    swapped for a card from below the starter (card 16), and the rest of the deck there
    reversed: the computers' throws and every card they lay in deal 1 are the same."""
    spec = TABLES["three"]
    log = _computer_log(monkeypatch)
    runs = []
    real_deck = match.deck_for
    for change in (False, True):
        log.clear()

        def deck_for(seed, n, spec, change=change):
            deck = real_deck(seed, n, spec)
            if change and n == 1:
                deck[14], deck[30] = deck[30], deck[14]
                deck[17:] = deck[17:][::-1]
            return deck

        monkeypatch.setattr(match, "deck_for", deck_for)
        m, text, _ = play_game(
            4, "lookahead", Script(places=(4,), stop_after=8, spec=spec), spec=spec, dealer=0
        )
        runs.append((list(log), parse_record(text).deals[0].fields))
    (a, deal_a), (b, deal_b) = runs
    assert deal_a["throw"][1] != deal_b["throw"][1] and deal_a["play"] == deal_b["play"]
    assert a == b and len(a) > 6


def test_the_cut_for_deal_is_the_lowest_card_of_all():
    spec = TABLES["four"]
    for seed in range(40):
        cut, dealer = match.cut_for_deal(seed, spec)
        ranks = [RANK[c] for c in cut]
        assert len(cut) == 4 and ranks.count(min(ranks)) == 1 and ranks[dealer] == min(ranks)
        deck = [c for c in match.deck_for(seed, 0, spec) if c < 52]
        k = next(i for i in range(0, 52, 4) if deck[i : i + 4] == cut)  # ties cut again
        assert all(
            [RANK[c] for c in deck[j : j + 4]].count(min(RANK[c] for c in deck[j : j + 4])) > 1
            for j in range(0, k, 4)
        )


PLAY = ("play", "--variant", "cribbage", "--plain")  # the transcript: the tests read it


@pytest.mark.slow
def test_the_command_plays_partners_to_the_end_and_reviews_the_record(tmp_path):
    rec = tmp_path / "game.txt"
    code, out, err = run(
        *PLAY,
        "--players",
        4,
        "--partners",
        "--seed",
        5,
        "--game-length",
        31,
        "--opponent-policy",
        "greedy",
        "--record",
        rec,
        stdin=b"\n" * 400,
    )
    assert code == 0, err
    assert "rules: 4 players, partners" in rec.read_text()
    code, review_out, err = run("review", rec, "--quiet")
    assert code == 0, err
    assert review_out.splitlines()[-2:] == out.splitlines()[-3:-1]
    final = re.search(r"game over: (you|they) wins? (\d+)-(\d+)", out)
    assert (
        review_out.splitlines()[-1] == f"{final[1]} won: you {final[2]}, they {final[3]}"
        or review_out.splitlines()[-1] == f"{final[1]} won: you {final[3]}, they {final[2]}"
    )


@pytest.mark.slow
def test_a_three_player_game_broken_off_resumes(tmp_path):
    rec = tmp_path / "game.txt"
    code, out, err = run(
        *PLAY,
        "--players",
        3,
        "--seed",
        8,
        "--game-length",
        61,
        "--dealer",
        "--opponent-policy",
        "greedy",
        "--record",
        rec,
        stdin=b"\n" * 12,
    )
    assert code == 0, err
    assert "game stopped in deal" in out
    done = len(replay(parse_record(rec.read_text())).deals)
    assert done >= 1 and "go on with:\n  cribsolve play --variant cribbage --resume" in out
    code, out, err = run(*PLAY, "--resume", rec, stdin=b"\n" * 400)
    assert code == 0, err
    assert "game over" in out
    game = replay(parse_record(rec.read_text()))
    assert game.winner and len(game.deals) > done


@pytest.mark.parametrize(
    "args,says",
    [
        (("--players", 3, "--opponent-policy", "expert1"), "the two-player search with open hands"),
        (("--players", 3, "--count-yourself", "--muggins"), "--muggins does not apply"),
        (("--five-card", "--opponent-policy", "expert1"), "the two-player search"),
    ],
)
def test_what_a_table_game_does_not_offer_is_one_line(args, says):
    code, out, err = run(*PLAY, *args, stdin=b"")
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
