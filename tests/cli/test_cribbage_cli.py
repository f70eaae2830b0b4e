"""Two-player commands: simulate --variant cribbage, best-play, odds."""

import csv
import json

import pytest
from clihelp import run
from intervals import wilson_by_quadratic

from cribsolve.games.cribbage.deals import odds as odds_mod


@pytest.mark.slow
def test_simulate_cribbage_json_and_determinism():
    args = ["simulate", "--variant", "cribbage", "-n", "400", "--seed", "2", "--json", "--quiet"]
    code, out, _ = run(*args)
    d = json.loads(out)
    assert code == 0
    for key in (
        "win_rate",
        "win_rate_ci",
        "dealer_points",
        "pone_points",
        "dealer_pegging",
        "pone_pegging",
        "deals_per_game",
        "skunk_rate",
    ):
        assert key in d
    assert d["win_rate_ci"] == pytest.approx(wilson_by_quadratic(d["wins"], d["n"]))
    assert d["dealer_points"] > d["pone_points"]
    assert json.loads(run(*args, "--jobs", "1")[1]) == d


@pytest.mark.slow
def test_simulate_cribbage_without_a_complete_deal():
    """To 2 points every game ends within its first deal: there is no deal to average, so the
    per-deal figures are not shown as zeros. A game of 61 plays whole deals."""
    code, out, _ = run(
        "simulate", "--variant", "cribbage", "--game-length", "2", "-n", "50", "--quiet"
    )
    assert code == 0 and "per deal: no figures" in out and "dealer 0.00" not in out
    d = json.loads(
        run(
            "simulate",
            "--variant",
            "cribbage",
            "--game-length",
            "2",
            "-n",
            "50",
            "--quiet",
            "--json",
        )[1]
    )
    assert d["complete_deals"] == 0 and d["deals_per_game"] == 1
    code, out, _ = run(
        "simulate",
        "--variant",
        "cribbage",
        "--game-length",
        "2",
        "-n",
        "50",
        "--players",
        "3",
        "--hand-size",
        "5",
        "--quiet",
    )
    assert code == 0 and "per deal: no figures" in out and "pegging 0.00" not in out
    d = json.loads(
        run(
            "simulate",
            "--variant",
            "cribbage",
            "--game-length",
            "61",
            "-n",
            "50",
            "--quiet",
            "--json",
        )[1]
    )
    # every deal of a game but the last is played to its end
    assert d["complete_deals"] == pytest.approx(50 * (d["deals_per_game"] - 1))


def test_best_play_prefers_the_fifteen():
    # count 5 with a ten-card in hand: the ten makes 15 for 2 now
    code, out, _ = run(
        "best-play", "TS 2C 3D 8H", "--played", "5H", "--count", "5", "--seen", "KD", "--json"
    )
    d = json.loads(out)
    plays = d["plays"]
    assert code == 0 and plays[0]["card"] == "TS" and plays[0]["mine"] >= 2
    assert d["seat"] == "dealer"  # a card laid and my turn: the pone led


def test_best_play_reads_goes():
    """K 8 Q 2 = 30 and the pone says go: the dealer's ace makes 31; the 3 no longer fits. The
    go says the pone holds no ace, so its holdings are the pairs of unseen ranks 2 and up."""
    code, out, _ = run(
        "best-play", "AC 3D", "--played", "KH 8S QD 2C", "--go", "--dealer", "--json"
    )
    d = json.loads(out)
    assert code == 0 and d["count"] == 30 and [p["card"] for p in d["plays"]] == ["AC"]
    assert d["plays"][0]["mine"] >= 2
    assert d["holdings"] == sum(1 for a in range(2, 14) for b in range(a, 14))
    assert run("best-play", "AC 3D", "--played", "KH 8S QD 2C", "--dealer")[0] == 2


def test_best_play_after_the_opponent_is_out_of_cards():
    """The dealer's 2S, 3S and AS after the pone's go end at 31 with the dealer out of
    cards: the pone then lays alone, card after card, no goes written for the dealer."""
    code, out, _ = run("best-play", "JH", "--played", "KH 5D QH 2S go 3S AS TH", "--pone", "--json")
    d = json.loads(out)
    assert code == 0 and d["count"] == 10 and d["holdings"] == 1
    assert [(p["card"], p["mine"], p["theirs"]) for p in d["plays"]] == [("JH", 1.0, 0.0)]


def test_best_play_when_nobody_can_lay_after_a_hands_last_card():
    """The pone's AS is its last card after the dealer's go at 28: the count ends (1 to the
    pone) and the dealer leads at 0; no go need be written after it (issue 24's misread)."""
    code, out, _ = run(
        "best-play", "QH JH", "--played", "KS 5H 5D 5C 3S go AS", "--dealer", "--json"
    )
    d = json.loads(out)
    assert code == 0 and d["count"] == 0
    assert sorted((p["card"], p["mine"], p["theirs"]) for p in d["plays"]) == [
        ("JH", 1.0, 0.0),
        ("QH", 1.0, 0.0),
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["best-play", "TS 2C", "--played", "5H", "--count", "7"],
        ["best-play", "TS 2C 3D 8H", "--played", "5H", "--pone"],  # the pone leads
        ["best-play", "TS 2C", "--played", "KH 5S 7D 9C", "--dealer"],  # 31: pone leads
        ["best-play", "TS 2C 3D", "--played", "KH go", "--dealer"],  # go at 10?
        ["best-play", "9C 2C", "--played", "KH QS 8D go", "--dealer"],  # 9 does not fit
        ["best-play", "TS TS"],
        ["best-play", "TS", "--played", "KD QD JD", "--count", "30"],
        ["odds", "--my-score", "5"],
        ["odds", "--my-score", "121", "--their-score", "0", "--dealer"],
        ["simulate", "--variant", "cribbage", "--policy", "ev", "-n", "10"],
    ],
)
def test_bad_input(args):
    code, out, err = run(*args)
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_odds_table_is_consistent(tmp_path):
    win = odds_mod.odds_table()
    # my chance when I deal is one minus theirs when they deal, from their side
    assert abs(win[1, 30, 50] + win[0, 50, 30] - 1) < 1e-9
    assert win[1, 120, 0] > 0.99 and win[0, 0, 120] < 0.01
    assert win[1, 0, 0] > 0.5 > win[0, 0, 0]  # the first deal is worth something
    assert (win[1, 1:, 60] >= win[1, :-1, 60] - 1e-9).all()  # more points never hurt
    code, out, _ = run(
        "odds", "--my-score", "35", "--their-score", "37", "--dealer", "--json", "--quiet"
    )
    assert code == 0 and json.loads(out)["win_probability"] == pytest.approx(win[1, 35, 37])
    path = tmp_path / "odds.csv"
    assert run("odds", "--table", "--csv", path, "--quiet")[0] == 0
    assert len(path.read_text().splitlines()) == 1 + 2 * 121 * 121


def test_simulate_cribbage_under_house_rules(tmp_path):
    table = tmp_path / "rates.csv"
    code, out, _ = run(
        "simulate",
        "--variant",
        "cribbage",
        "-n",
        "300",
        "--seed",
        "4",
        "--lowball",
        "--game-length",
        "60",
        "--jokers",
        "2",
        "--target",
        "16",
        "--json",
        "--quiet",
        "--csv",
        table,
    )
    d = json.loads(out)
    run("simulate", "--variant", "cribbage", "-n", "300", "--seed", "4", "--quiet", "--csv", table)
    rows = list(csv.DictReader(table.open()))  # a win-rate table keys its rows by the game
    assert [r["variant"] for r in rows] == [
        "cribbage (target 16, game length 60, lowball, jokers 2)",
        "cribbage",
    ]
    assert code == 0 and d["rules"] == {
        "target": 16,
        "peg_limit": 31,
        "game_length": 60,
        "lowball": True,
        "decks": 1,
        "jokers": 2,
        "hand_size": 6,
        "crib_size": 4,
        "starters": 1,
        "wild_rank": 0,
        "stinkhole": False,
        "draw": False,
        "choose_cut": False,
        "two_cribs": False,
        "bid": False,
        "players": 2,
        "partners": False,
        "five_card": False,
    }
    assert d["skunk_rate"] is None and d["game_length"] == 60
    code, out, err = run("simulate", "--variant", "patience", "-n", "10", "--lowball")
    assert code == 2 and "--lowball does not apply" in err


def test_lowball_odds_table():
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    win = odds_mod.odds_table(CribbageSpec(game_length=31, lowball=True), deals=3_000)
    assert abs(win[1] + win[0].T - 1).max() < 1e-9
    assert win[:, 30, 0].max() < 0.05 and win[:, 0, 30].min() > 0.95  # near 31 is near losing


def test_best_play_and_best_discard_take_jokers_only_when_in_play():
    args = ["--hand", "TS 2C 3D JK", "--played", "5H", "--count", "5"]
    assert run("best-play", *args, "--jokers", "1")[0] == 0
    code, _, err = run("best-play", *args)
    assert code == 2 and "joker" in err
    code, out, _ = run(
        "best-discard", "5H", "5S", "JD", "6C", "7C", "JK", "--pone", "--jokers", "2", "--json"
    )
    assert code == 0 and len(json.loads(out)["discards"]) == 15


@pytest.mark.slow
def test_variations_command(tmp_path):
    path = tmp_path / "v.csv"
    code, out, _ = run("variations", "-n", "100", "--seed", "2", "--json", "--csv", path, "--quiet")
    rows = json.loads(out)["rows"]
    assert code == 0 and rows[0]["rule"] == "standard" and len(rows) >= 9
    assert len(path.read_text().splitlines()) == 1 + len(rows)


@pytest.mark.slow
def test_odds_table_for_a_two_cut_card_deal():
    """Two jack cut cards give the dealer 4 for heels: the table of deals must allow it."""
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    win = odds_mod.odds_table(CribbageSpec(starters=2, game_length=31), deals=2_000)
    assert abs(win[1] + win[0].T - 1).max() < 1e-9


@pytest.mark.parametrize(
    "rules,header",
    [
        (["--game-length", "61"], "cribbage to 61, greedy (player 1)"),
        (["--game-length", "61", "--lowball"], "cribbage to 61 (lowball), greedy"),
        (["--game-length", "61", "--players", "3"], "cribbage to 61 (3 players), greedy"),
        ([], "cribbage to 121, greedy"),
    ],
)
def test_the_header_says_the_game_length_once(rules, header):
    """It read "cribbage to 61 (game length 61)"."""
    code, out, err = run("simulate", "--variant", "cribbage", "-n", "20", "--quiet", *rules)
    assert code == 0, err
    assert out.startswith(header) and "game length" not in out.splitlines()[0], out


def test_a_win_rate_table_says_what_each_row_counts(tmp_path):
    """A cribbage row's win_rate is the first dealer's and it has no mean: its ``what`` says
    so, as a solitaire's says what its wins and its mean are."""
    table = tmp_path / "runs.csv"
    for variant in ("cribbage", "patience"):
        code, _, err = run("simulate", "--variant", variant, "-n", "50", "--quiet", "--csv", table)
        assert code == 0, err
    rows = list(csv.DictReader(table.open()))
    assert [r["what"] for r in rows] == [
        "wins: the first dealer's; no mean or std (a game has no one score)",
        "wins: a final score of 80 or more; mean and std: the final score",
    ]
    assert rows[0]["mean"] == rows[0]["std"] == "" and float(rows[1]["mean"]) > 0


def test_a_win_rate_table_begun_before_what_still_takes_rows(tmp_path):
    table = tmp_path / "runs.csv"
    old = "variant,policy,n,seed,wins,win_rate,ci_low,ci_high,mean,std\r\n"
    table.write_text(old + "patience2,ev,1,0,0,0.0,0.0,0.8,50.0,0.0\r\n", newline="")
    code, _, err = run("simulate", "--variant", "cribbage", "-n", "50", "--quiet", "--csv", table)
    assert code == 0, err
    rows = list(csv.reader(table.open()))
    assert len(rows) == 3 and {len(r) for r in rows} == {10} and rows[2][0] == "cribbage"
