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
    """Patience II's lookahead policy: of the LOOK_TOP first discards with the highest mean
    P(win) over the first LOOK_FIRST second hands its key draws (lookahead_values), the one
    with the highest over all LOOK_HANDS, whatever the real second hand, starter and later
    cards are; then the win policy's exact second discard."""
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
    drawn = P.lookahead_hands(P.unseen_of(seen), np.uint64(rand[0, 8] * 2.0**53), 0)
    assert all(len(set(h)) == 6 and not seen[h].any() for h in drawn)
    vals = P.lookahead_values(h1, seen, drawn, 0, wins[3], table)
    top = np.argsort(-vals[: P.LOOK_FIRST].sum(axis=0), kind="stable")[: P.LOOK_TOP]
    a = int(top[np.argmax(vals[:, top].sum(axis=0))])  # the best drawn, of the best at first
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


def test_the_last_deal_is_played_best_by_lookahead_and_the_coach():
    """In Patience II's last deal the seven cards unseen after its first hand are its second
    hand and starter: lookahead's first discard and the coach's P(win) take each of the seven
    as the starter (no draws). Counted here hand by hand: the policy's wins over the seven
    orders of those cards are the best any first discard gets, and the coach's P(win) of each
    discard is its share of the seven won with the best second discard."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.solitaire import patience as P
    from cribsolve.games.solitaire.discard import solitaire_discard

    rules, table, wins = ruleset("pysol"), rank_table(), sim.win_table("patience2")
    rng = np.random.default_rng(8)

    def deal_total(keep1, keep2, crib, s):
        return (
            score_hand(keep1, [s], rules, itemized=False).total
            + score_hand(keep2, [s], rules, itemized=False).total
            + score_hand(crib, [s], rules, True, itemized=False).total
            + (2 if s // 4 == 10 else 0)
        )

    for _ in range(200):
        deck = rng.permutation(52)
        a, rest = deck[39:45].tolist(), deck[45:].tolist()
        orders = np.array(
            [deck[:45].tolist() + rest[:i] + rest[i + 1 :] + [rest[i]] for i in range(7)]
        )
        rand = np.tile(rng.random(P.LOOK_RAND), (7, 1))
        pts = P.play_games(orders, True, P.LOOKAHEAD, rand, table, wins, SCORE_ONLY)
        assert (pts[:, :3] == pts[0, :3]).all()  # the first three deals never see the order
        score = int(pts[0, :3].sum())
        if not 50 <= score <= 66:
            continue
        p = {}
        for d1 in combinations(a, 2):
            keep1 = [c for c in a if c not in d1]
            won = 0
            for i, s in enumerate(rest):
                b = rest[:i] + rest[i + 1 :]
                won += (
                    score
                    + max(
                        deal_total(keep1, [c for c in b if c not in d2], list(d1 + d2), s)
                        for d2 in combinations(b, 2)
                    )
                    >= 80
                )
            p[frozenset(d1)] = won / 7
        if 0 < max(p.values()) < 1 and min(p.values()) < max(p.values()):
            break
    else:
        pytest.fail("no last deal in doubt among 200 decks")
    assert (pts.sum(axis=1) >= 80).mean() == pytest.approx(max(p.values()), abs=1e-12)
    advice = solitaire_discard(a, "patience2", deck[:39].tolist(), score=score, deal=4)
    assert all(v.exact and v.samples == 7 and v.win_se == 0 for v in advice)
    assert {frozenset(v.discard): v.win for v in advice} == pytest.approx(p, abs=1e-12)


def test_the_drawn_hands_stream_is_uniform_and_keyed():
    """stream_uniform: values in [0, 1), spread evenly over ten bins (chi-square far below its
    0.1% point), another key another stream; lookahead_hands draws each unseen card about
    equally often."""
    from cribsolve.games.solitaire import patience as P

    u = np.array([P.stream_uniform(np.uint64(12345), i) for i in range(50_000)])
    assert ((u >= 0) & (u < 1)).all()
    counts = np.bincount((u * 10).astype(int), minlength=10)
    assert ((counts - 5000) ** 2 / 5000).sum() < 27.9  # chi-square, 9 degrees, p = 0.001
    assert P.stream_uniform(np.uint64(1), 0) != P.stream_uniform(np.uint64(2), 0)
    unseen = np.arange(6, 52, dtype=np.int64)
    hands = np.vstack([P.lookahead_hands(unseen, np.uint64(k), 1) for k in range(40)])
    freq = np.bincount(hands.ravel(), minlength=52)[6:]
    assert freq.sum() == 40 * P.LOOK_HANDS * 6 and (np.abs(freq / freq.mean() - 1) < 0.15).all()
