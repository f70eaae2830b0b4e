"""The win-probability table, the WIN policy and P(win) in best-discard."""

from itertools import combinations, product

import numpy as np
import pytest
from clihelp import run

from cribsolve import ruleset, score_hand
from cribsolve.games.solitaire import simulate as sim
from cribsolve.games.solitaire.deckvalue import SCORE_ONLY


def test_win_probabilities_by_brute_force():
    rng = np.random.default_rng(2)
    hists = rng.integers(0, 5, size=(3, 9)).astype(float)
    w = sim.win_probabilities(hists, 12)
    p = hists / hists.sum(axis=1, keepdims=True)
    for s in range(13):
        # two deals left: the last two rows, in order
        brute = sum(p[1, a] * p[2, b] for a, b in product(range(9), repeat=2) if s + a + b >= 12)
        assert w[2, s] == pytest.approx(brute)
        assert w[0, s] == (1.0 if s >= 12 else 0.0)
    assert (np.diff(w, axis=1) >= -1e-12).all()  # more points never hurt


def test_last_deal_win_probability_by_brute_force():
    from cribsolve.games.solitaire.discard import solitaire_discard

    rules = ruleset("pysol")
    rng = np.random.default_rng(11)
    perm = rng.permutation(52).tolist()
    hand, seen, unseen = perm[:6], perm[6:46], perm[46:]
    score = 62
    res = solitaire_discard(hand, "patience", seen, score=score, deal=5)
    assert [r.win for r in res] == sorted((r.win for r in res), reverse=True)
    for r in res[:3]:
        good = total = 0
        for s in unseen:
            for pair in combinations([c for c in unseen if c != s], 2):
                pts = (
                    score_hand(r.keep, [s], rules, itemized=False).total
                    + score_hand(r.discard + list(pair), [s], rules, True, itemized=False).total
                    + (2 if s // 4 == 10 else 0)
                )
                good += score + pts >= 80
                total += 1
        assert r.win == pytest.approx(good / total, abs=1e-9)


@pytest.mark.parametrize(
    "variant,base,policy",
    [("patience", "ev", "win"), ("patience2", "ev", "win"), ("patience", "win", "deck")],
)
def test_a_policy_wins_at_least_as_often_as_the_one_it_refines(variant, base, policy):
    old = sim.simulate(variant, base, 3000, seed=4)
    new = sim.simulate(variant, policy, 3000, seed=4)
    assert new.wins >= old.wins - 15  # same decks; the new policy aims at exactly this
    assert new.as_dict() == sim.simulate(variant, policy, 3000, seed=4, jobs=1).as_dict()


def test_best_discard_with_score_cli():
    code, out, _ = run(
        "best-discard",
        "5H",
        "5S",
        "JD",
        "6C",
        "7C",
        "KH",
        "--variant",
        "patience",
        "--score",
        "50",
        "--deal",
        "4",
        "--json",
    )
    import json

    d = json.loads(out)["discards"]
    assert code == 0 and [x["win"] for x in d] == sorted((x["win"] for x in d), reverse=True)
    assert 0 < d[0]["win"] < 1


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "patience", "--score", "50"],
        ["--variant", "patience", "--score", "50", "--deal", "6"],
        ["--variant", "patience2", "--crib-cards", "2C 3C", "--score", "50", "--deal", "2"],
        ["--variant", "patience", "--kept", "2C 3C 4C 5D"],
    ],
)
def test_bad_score_input(args):
    code, out, err = run("best-discard", "5H", "5S", "JD", "6C", "7C", "KH", *args)
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_lookahead_first_discard_is_the_best_over_drawn_second_hands_and_never_peeks():
    """Patience II's lookahead policy: the first discard with the highest mean P(win) over the
    second hands its uniforms draw (analysis's lookahead_values), whatever the real second hand,
    starter and later cards are; then the win policy's exact second discard."""
    from cribsolve.core.cards import JACK, RANK
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.solitaire import patience as P

    table, wins = rank_table(), sim.win_table("patience2")
    rng = np.random.default_rng(4)
    h1 = rng.permutation(52)[:6]
    rest = np.setdiff1d(np.arange(52), h1)
    rand = rng.random((1, P.LOOK_RAND))
    seen = np.zeros(53, dtype=np.bool_)
    seen[h1] = True
    drawn = np.empty((P.LOOK_HANDS, 6), dtype=np.int64)
    for m in range(P.LOOK_HANDS):
        P.draw_cards(P.unseen_of(seen), rand[0, 8 + 6 * m : 14 + 6 * m], drawn[m])
    assert all(len(set(h)) == 6 and not seen[h].any() for h in drawn)
    a = int(np.argmax(P.lookahead_values(h1, seen, drawn, 0, wins[3], table).sum(axis=0)))
    k1, first = h1[P.OPT_KEEP[a]], h1[P.OPT_DISC[a]]
    for _ in range(4):  # the same first hand, everything after it different
        deck = np.concatenate([h1, rng.permutation(rest)])
        h2, s = deck[6:12], deck[12]
        seen2 = seen.copy()
        seen2[h2] = True
        b = P.second_discard(k1, h2, first, seen2, 0, wins[3], table)[0]
        expect = (
            score_table_points(table, k1, s)
            + P.deal_points(h2, b, first, s, table)
            + 2 * (RANK[s] == JACK)
        )
        got = P.play_games(deck[None], True, P.LOOKAHEAD, rand, table, wins, SCORE_ONLY)[0, 0]
        assert got == expect


@pytest.mark.parametrize("score", [0, 40, 70])
def test_second_discard_values_equal_the_deal_points_summed_starter_by_starter(score):
    """second_discard_values and lookahead_values (each hand's points counted once per
    starter) against the plain sum over the starters of deal_points, with P(win) by W and by
    expected points alone."""
    from cribsolve.core.cards import JACK, RANK
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.solitaire import patience as P

    table, wins = rank_table(), sim.win_table("patience2")
    rng = np.random.default_rng(score)
    for w_next in (wins[2], P.NO_WINS):
        deck = rng.permutation(52)
        h1, h2 = deck[:6], deck[6:12]
        seen = np.zeros(53, dtype=np.bool_)
        seen[deck[:12]] = True
        starters = [c for c in range(52) if not seen[c]]
        rows = np.empty((15, 15))
        for a in range(15):
            k1, first = h1[P.OPT_KEEP[a]], h1[P.OPT_DISC[a]]
            ev, p = P.second_discard_values(k1, h2, first, seen, score, w_next, table)
            for o in range(15):
                pts = [
                    score_table_points(table, k1, s)
                    + P.deal_points(h2, o, first, s, table)
                    + 2 * (RANK[s] == JACK)
                    for s in starters
                ]
                assert ev[o] == pytest.approx(np.mean(pts), abs=1e-12)
                if len(w_next):
                    want = np.mean([w_next[min(score + x, P.WIN_AT)] for x in pts])
                    assert p[o] == pytest.approx(want, abs=1e-12)
            rows[a] = p if len(w_next) else ev
        seen1 = np.zeros(53, dtype=np.bool_)
        seen1[h1] = True
        got = P.lookahead_values(h1, seen1, h2[None], score, w_next, table)[0]
        best = [rows[a][P._best(rows[a], rows[a])] for a in range(15)]
        assert got == pytest.approx(best, abs=1e-12)


def score_table_points(table, keep, starter):
    from cribsolve.core.scoring.table import score5

    return score5(table, keep[0], keep[1], keep[2], keep[3], starter, False)


def test_lookahead_is_a_patience2_policy_only():
    code, out, err = run(
        "simulate",
        "--variant",
        "patience2",
        "--policy",
        "lookahead",
        "-n",
        "5",
        "--quiet",
        "--json",
    )
    assert code == 0 and '"policy": "lookahead"' in out
    code, out, err = run("simulate", "--variant", "patience", "--policy", "lookahead", "-n", "5")
    assert code == 2 and err.startswith("cribsolve:")


def test_deck_is_a_patience_policy_only():
    import json

    code, out, err = run(
        "simulate",
        "--variant",
        "patience",
        "--policy",
        "deck",
        "-n",
        "300",
        "--seed",
        "2",
        "--quiet",
        "--json",
    )
    assert (
        code == 0
        and json.loads(out)["win_rate"] == sim.simulate("patience", "deck", 300, 2).win_rate
    )
    code, out, err = run("simulate", "--variant", "patience2", "--policy", "deck", "-n", "5")
    assert code == 2 and err.startswith("cribsolve:") and len(err.splitlines()) == 1
