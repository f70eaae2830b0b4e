"""The information-relaxation upper bound: exact on a toy game, and built from the win policy's
own expectations on the real ones."""

import csv
import json
from dataclasses import replace
from functools import lru_cache
from itertools import permutations

import numpy as np
import pytest
from clihelp import run

from cribsolve.core.cards import JACK, RANK
from cribsolve.core.expect import N_CLASSES
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.solitaire import patience
from cribsolve.games.solitaire.bracket import COLUMNS, bracket
from cribsolve.games.solitaire.bracket_bound import (
    path_value,
    patience2_terms,
    patience_terms,
    penalised_value,
)
from cribsolve.games.solitaire.deckvalue import SCORE_ONLY, continuation
from cribsolve.games.solitaire.facts import SOLITAIRES
from cribsolve.games.solitaire.simulate import deck_value, simulate, win_probabilities, win_table

# --- a toy solitaire small enough to solve exactly -----------------------------------------
# Seven cards worth 1..7: one removed unseen, then two deals of [a face-down card f, two hand
# cards]. The player throws one hand card; the deal scores the kept card's value, plus 3 when
# the thrown card and f add to a multiple of 3. A game is won at 12 points.
T = 12
ALL = frozenset(range(7))


def points(keep, thrown, f):
    return keep + 1 + (3 if (thrown + f + 2) % 3 == 0 else 0)


def outcomes(d, unseen, hand, o):
    """(points, unseen after the deal), each equally likely, throwing hand[o]."""
    rest = unseen - set(hand)
    return [(points(hand[1 - o], hand[o], f), rest - {f}) for f in sorted(rest)]


@lru_cache(None)
def value(d, s, unseen):
    """The optimal P(win) before deal d (0-based) at score s (capped at T), ``unseen`` the
    cards not yet seen: the exact recursion over what the player knows."""
    if d == 2:
        return float(s >= T)
    hands = list(permutations(sorted(unseen), 2))
    return sum(
        max(
            np.mean([value(d + 1, min(s + p, T), u) for p, u in outcomes(d, unseen, h, o)])
            for o in (0, 1)
        )
        for h in hands
    ) / len(hands)


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs)


@lru_cache(None)
def charges(d, unseen, hand, w):
    """q[s, o] of deal d: the expected charged value after throwing hand[o] from score s."""
    return [
        [
            mean(
                w[1 - d][min(s + p, T)] if w is not None else value(d + 1, min(s + p, T), u)
                for p, u in outcomes(d, unseen, hand, o)
            )
            for o in (0, 1)
        ]
        for s in range(T + 1)
    ]


def terms(deck, w=None):
    """penalised_value's inputs for one toy deck. With w (w[k, s]: a value function of the
    score with k deals left) each deal is charged w(next score) minus its expectation; without,
    with the optimal value of the next decision (the next hand seen) minus its expectation."""
    w = None if w is None else tuple(map(tuple, w))
    x = np.zeros((2, 2), dtype=np.int64)
    phi = np.zeros((2, T + 1))
    q = np.zeros((2, T + 1, 2))
    unseen = ALL
    for d in range(2):
        hand = tuple(deck[2 + 3 * d : 4 + 3 * d])
        for o in (0, 1):
            x[d, o] = points(hand[1 - o], hand[o], deck[1 + 3 * d])
        q[d] = charges(d, unseen, hand, w)
        unseen = unseen - set(deck[1 + 3 * d : 4 + 3 * d])
        if w is not None:
            phi[d] = w[1 - d]
        elif d == 1:
            phi[d] = [float(s >= T) for s in range(T + 1)]
        else:  # the next hand is seen: the best of its two throws
            phi[d] = np.max(charges(1, unseen, tuple(deck[5:7]), None), axis=1)
    return x, phi, q


DECKS = list(permutations(range(7)))


@pytest.mark.slow
def test_toy_bound_with_the_true_value_function_is_exact_on_every_deck():
    """Brown, Smith and Sun: charged with the optimal value function, the penalised
    perfect-information value of every deck is the optimum given its first hand (the one
    thing not charged), and their mean the optimum."""
    vals = []
    for deck in DECKS:
        x, phi, q = terms(deck)
        vals.append(penalised_value(x, phi, q, T))
        assert vals[-1] == pytest.approx(q[0, 0].max(), abs=1e-12)
    assert np.mean(vals) == pytest.approx(value(0, 0, ALL), abs=1e-12)


@pytest.mark.slow
def test_toy_bounds_lie_between_the_optimum_and_clairvoyance():
    best = value(0, 0, ALL)
    # no charge: clairvoyance, the best total of each deck (by brute force)
    clair = np.mean([penalised_value(*terms(deck, np.zeros((2, T + 1))), T) for deck in DECKS])
    brute = np.mean(
        [
            max(
                float(
                    sum(
                        points(deck[2 + 3 * d + 1 - o[d]], deck[2 + 3 * d + o[d]], deck[1 + 3 * d])
                        for d in range(2)
                    )
                    >= T
                )
                for o in [(0, 0), (0, 1), (1, 0), (1, 1)]
            )
            for deck in DECKS
        ]
    )
    assert clair == pytest.approx(brute) and clair > best + 0.05
    # a value function of the score alone, as ours
    bound = np.mean([penalised_value(*terms(deck, score_table()), T) for deck in DECKS])
    assert best - 1e-12 <= bound  # (not always below clairvoyance: at 10 it is above)


def score_table():
    """The toy's W: a value function of the score alone, from the per-deal points of a fixed
    policy (always throw the first card)."""
    hist = np.zeros((2, 16))
    for deck in DECKS:
        for d in range(2):
            hist[d, points(deck[3 + 3 * d], deck[2 + 3 * d], deck[1 + 3 * d])] += 1
    return win_probabilities(hist, T)


def test_toy_look_ahead_charge_tightens_and_stays_above_the_optimum():
    """bracket_bound.patience_terms's look-ahead charge on the toy: deal 0's phi gains U(s,
    next hand) minus its mean over the hands still possible (exact, or over drawn hands), U
    being the best charged value of the next deal. Still a bound; with the exact mean much
    tighter."""
    best, w = value(0, 0, ALL), score_table()
    wt = tuple(map(tuple, w))
    rng = np.random.default_rng(1)

    def bound(draws):
        vals = []
        for deck in DECKS:
            x, phi, q = terms(deck, w)
            unseen = ALL - set(deck[1:4])
            hands = list(permutations(sorted(unseen), 2))
            picked = (
                hands if draws is None else [hands[i] for i in rng.integers(len(hands), size=draws)]
            )
            u = [np.max(charges(1, unseen, h, wt), axis=1) for h in [tuple(deck[5:7])] + picked]
            phi[0] += u[0] - np.mean(u[1:], axis=0)
            vals.append(penalised_value(x, phi, q, T))
        return np.mean(vals)

    plain = np.mean([penalised_value(*terms(deck, w), T) for deck in DECKS])
    exact = bound(None)
    assert best - 1e-12 <= exact < plain - 0.02
    assert best - 1e-12 <= bound(1) and best - 1e-12 <= bound(3)


# --- the real games -----------------------------------------------------------------------


def decks(n, seed):
    return np.random.default_rng(seed).permuted(np.tile(np.arange(52), (n, 1)), axis=1)


@pytest.mark.slow
@pytest.mark.parametrize("variant2", [False, True])
def test_uncharged_bound_is_the_clairvoyant_win(variant2):
    """With no value function the bound is clairvoyance: each deck's best possible total."""
    table = rank_table()
    ds = decks(30, 4)
    w0 = np.zeros((6, patience.WIN_AT + 1))
    best = patience.play_games(
        ds, variant2, patience.CLAIRVOYANT, np.zeros((30, 8)), table, w0, SCORE_ONLY
    )
    for deck, pts in zip(ds, best):
        x, phi, q = (
            patience2_terms(deck, w0, table)
            if variant2
            else patience_terms(
                deck, w0, SCORE_ONLY, SCORE_ONLY, table, np.random.default_rng(1).random((4, 2, 6))
            )[:3]
        )
        assert penalised_value(x, phi, q, patience.WIN_AT) == float(pts.sum() >= 80)
        assert x.max(axis=1).tolist() == pts.tolist()


@pytest.mark.parametrize("deck_charges", [False, True])
def test_the_charges_are_the_policys_own_probabilities(deck_charges):
    """Patience's q is the P(win) by which the win policy (W alone) or the deck policy (the deck
    value) ranks its discards; Patience II's, the win policy's second discard's."""
    table = rank_table()
    deck = decks(1, 5)[0]
    wins = win_table("patience")
    coefs = deck_value() if deck_charges else SCORE_ONLY
    x, phi, q, _ = patience_terms(deck, wins, coefs, SCORE_ONLY, table, np.zeros((4, 0, 6)))
    seen = np.zeros(53, dtype=np.bool_)
    row = np.empty(patience.WIN_AT + 1)
    for d in range(5):
        hand = deck[7 + 9 * d + 2 : 7 + 9 * d + 8]
        seen[hand] = True
        continuation(wins, coefs, 4 - d, seen, row)
        assert np.allclose(row, wins[4 - d]) == (d == 4 or not deck_charges)
        for score in (0, 31, 64):
            p = patience.win_discard(hand, seen, score, row, table, np.ones(N_CLASSES))[1]
            assert np.allclose(q[d, score], p, atol=1e-12)
        seen[deck[7 + 9 * d : 7 + 9 * d + 9]] = True
    if deck_charges:
        return
    wins2 = win_table("patience2")
    deck = decks(1, 6)[0]
    x, phi, q = patience2_terms(deck, wins2, table)
    seen = np.zeros(53, dtype=np.bool_)
    seen[deck[:12]] = True
    h1, h2 = deck[:6], deck[6:12]
    a = 4  # one first discard
    k1, first = h1[patience.OPT_KEEP[a]], h1[patience.OPT_DISC[a]]
    ev, p = patience.second_discard_values(k1, h2, first, seen, 20, wins2[3], table)
    assert np.allclose(q[0, 20, 15 * a : 15 * a + 15], p, atol=1e-12)


def test_bracket_plays_simulates_decks_and_orders_its_bounds():
    code, out, err = run(
        "bracket", "--variant", "patience", "-n", "60", "--seed", "3", "--json", "--quiet"
    )
    d = json.loads(out)
    assert code == 0 and d["n"] == 60 and d["seed"] == 3
    assert d["policy"] == "deck"
    assert d["win_rate"] == simulate("patience", "deck", 60, 3).win_rate
    assert d["win_policy_rate"] == simulate("patience", "win", 60, 3).win_rate
    assert d["clairvoyant"] == simulate("patience", "clairvoyant", 60, 3).win_rate
    assert d["upper_bound_ci"][0] < d["upper_bound"] < d["upper_bound_ci"][1]
    assert d["upper_bound"] - d["charged_rate"] == pytest.approx(d["width_penalised"])
    assert d["clairvoyant"] - d["win_rate"] == pytest.approx(d["width_clairvoyant"])
    side = "penalised" if d["upper_bound"] <= d["clairvoyant"] else "clairvoyant"
    assert d["upper_side"] == side and d["width"] == d[f"width_{side}"]
    code, out, err = run(
        "bracket", "--variant", "patience2", "-n", "40", "--seed", "3", "--json", "--quiet"
    )
    d = json.loads(out)
    assert d["policy"] == "lookahead"
    assert d["win_rate"] == simulate("patience2", "lookahead", 40, 3).win_rate
    assert d["win_policy_rate"] == simulate("patience2", "win", 40, 3).win_rate
    assert d["gain"] == pytest.approx(d["win_rate"] - d["win_policy_rate"])
    # W's charges bound it above 100%: the width is against clairvoyance, the tighter side
    assert d["upper_bound"] > 1 and d["upper_side"] == "clairvoyant"
    assert d["width"] == pytest.approx(d["clairvoyant"] - d["win_rate"])
    assert d["width"] < d["width_penalised"]
    for bad in (
        ["--variant", "patience3"],
        ["--variant", "patience", "--next-hands", "-1"],
        ["-n", "1"],
        ["--next-hands", "2"],  # one deck gives no interval; Patience II
        ["--seed", "80"],
        ["--seed", "81"],
    ):  # takes no next hands; the tables' seeds
        code, out, err = run("bracket", *bad)
        assert code == 2 and err.startswith("cribsolve:") and len(err.splitlines()) == 1


def test_the_after_charges_are_the_mean_over_every_crib_pair_and_starter():
    """outcome_charges against a slow count: before deal 4 of a deck, for every face-down pair
    and starter, the deal's points and the after value of the cards then left, the regression
    applied to their shares as the fit computes them (deckvalue.features); and phi before the
    last deal is that after value of the deck's own crib pair and starter."""
    from cribsolve.games.solitaire import deckvalue as dv
    from cribsolve.games.solitaire.bracket_bound import outcome_charges

    table, wins, after = rank_table(15), win_table("patience"), deck_value(after=True)
    deck = decks(1, 13)[0]
    d, k = 3, 1
    hand = deck[7 + 9 * d + 2 : 7 + 9 * d + 8]
    seen = np.zeros(53, dtype=np.bool_)
    seen[deck[7 : 7 + 9 * d]] = True
    seen[hand] = True
    q = np.empty((patience.WIN_AT + 1, 15))
    outcome_charges(hand, seen, wins, after[k], k, table, q)

    unseen = [c for c in range(52) if not seen[c]]

    def after_value(left):
        """The after value, by score, the cards ``left`` unseen: placed where features() reads
        a deck's unseen cards after deal 3 (the first 7 and from position 43 on)."""
        row = np.array(list(left[:7]) + [0] * 36 + list(left[7:]))
        feats = dv.features(row[None, :], d, True)[0]

        def at(score):
            w = wins[k][min(score, patience.WIN_AT)]
            if not 0 < w < 1:
                return w
            return dv.predict(np.concatenate([[np.log(w / (1 - w)), 1.0], feats]), after[k])

        return at

    scores = (40, 61, 75)
    want = np.zeros((len(scores), 15))
    outcomes = 0
    for i, a in enumerate(unseen):
        for b in unseen[i + 1 :]:
            for st in unseen:
                if st in (a, b):
                    continue
                value = after_value([c for c in unseen if c not in (a, b, st)])
                for o in range(15):
                    pts = patience.deal_points(hand, o, np.array([a, b]), st, table) + 2 * (
                        RANK[st] == JACK
                    )
                    for j, sc in enumerate(scores):
                        want[j, o] += value(sc + pts)
                outcomes += 1
    assert outcomes == 19 * 18 // 2 * 17
    assert np.allclose(q[list(scores)], want / outcomes, atol=1e-9)

    x, phi, q_all, _ = patience_terms(deck, wins, deck_value(), after, table, np.zeros((4, 0, 6)))
    assert np.allclose(q_all[d], q, atol=1e-12)
    left = [c for c in unseen if c not in deck[7 + 9 * d : 7 + 9 * d + 2] and c != deck[15 + 9 * d]]
    assert phi[d, 55] == pytest.approx(after_value(left)(55), abs=1e-9)


def policy_discards(deck, wins, coefs, table):
    """The deck policy's (with coefs; none: the win policy's) discard in each deal of a
    Patience deck, as play_patience chooses."""
    seen = np.zeros(53, dtype=np.bool_)
    row = np.empty(patience.WIN_AT + 1)
    score, picks, pts = 0, [], []
    for d in range(5):
        crib2, hand, s = deck[7 + 9 * d : 9 + 9 * d], deck[9 + 9 * d : 15 + 9 * d], deck[15 + 9 * d]
        seen[hand] = True
        if patience._in_doubt(wins[4 - d], score):
            continuation(wins, coefs, 4 - d, seen, row)
            o = patience.win_discard(hand, seen, score, row, table, np.ones(N_CLASSES))[0]
        else:
            o = patience.ev_discard(hand, patience.unseen_of(seen), table)
        picks.append(o)
        pts.append(patience.deal_points(hand, o, crib2, s, table) + 2 * (RANK[s] == JACK))
        score += pts[-1]
        seen[deck[7 + 9 * d : 16 + 9 * d]] = True
    return picks, pts


@pytest.mark.slow
@pytest.mark.parametrize(
    "samples,policy", [(0, patience.WIN), (2, patience.WIN), (2, patience.DECK)]
)
def test_charges_average_zero_under_a_real_policy_but_not_under_clairvoyance(samples, policy):
    """The property the bound rests on, checked on real decks: along a real policy's play
    (the win policy's under W's charges, the deck policy's under the after value's), each deck's
    total charge sum_d phi[d, s_d+1] - q[d, s_d, o_d] averages zero (within its confidence
    interval); a player who sees the cards (clairvoyant) is charged clearly. patience_terms
    plays the policy's discards itself (for path_value), as play_patience does: checked here
    deck by deck, with the path's charged result never above the deck's bound."""
    table, wins = rank_table(), win_table("patience")
    coefs = deck_value() if policy == patience.DECK else SCORE_ONLY
    after = deck_value(after=True) if policy == patience.DECK else SCORE_ONLY
    ds = decks(300, 11)
    played = patience.play_games(ds, False, policy, np.zeros((300, 8)), table, wins, coefs)
    rng = np.random.default_rng(12)
    fair, cheat = [], []
    for deck, real in zip(ds, played):
        x, phi, q, own = patience_terms(
            deck, wins, coefs, after, table, rng.random((4, samples, 6))
        )
        picks, pts = policy_discards(deck, wins, coefs, table)
        assert pts == real.tolist() == [x[d, o] for d, o in enumerate(picks)]
        assert own.tolist() == picks
        for total, choose in ((fair, picks), (cheat, x.argmax(axis=1))):
            s, charge = 0, 0.0
            for d, o in enumerate(choose):
                t = min(s + x[d, o], patience.WIN_AT)
                charge += phi[d, t] - q[d, s, o]
                s = t
            total.append(charge)
        won = float(sum(pts) >= patience.WIN_AT)
        path = path_value(x, phi, q, own, patience.WIN_AT)
        assert path == pytest.approx(won - fair[-1], abs=1e-12)
        assert path <= penalised_value(x, phi, q, patience.WIN_AT) + 1e-12
    for total, lo, hi in ((fair, -3, 3), (cheat, 5, np.inf)):
        z = np.mean(total) / (np.std(total) / np.sqrt(len(total)))
        assert lo < z < hi


# --- chunks, checkpoints and the tables written ---------------------------------------------


@pytest.fixture
def small_chunks(monkeypatch):
    """Several chunks from few decks, for simulate and the bracket alike."""
    for v in ("patience", "patience2"):
        monkeypatch.setitem(SOLITAIRES, v, replace(SOLITAIRES[v], chunk=8))


def test_a_bracket_of_many_chunks_plays_simulates_games(small_chunks):
    """Chunk by chunk, the policies' wins are simulate's of the same seed (the chunks deal
    the decks), in both games."""
    d = bracket("patience2", 20, 7).as_dict()
    assert d["win_rate"] == simulate("patience2", "lookahead", 20, 7).win_rate
    assert d["win_policy_rate"] == simulate("patience2", "win", 20, 7).win_rate
    assert d["clairvoyant"] == simulate("patience2", "clairvoyant", 20, 7).win_rate
    d = bracket("patience", 20, 7, next_hands=1).as_dict()
    assert d["win_rate"] == simulate("patience", "deck", 20, 7).win_rate
    assert d["win_policy_rate"] == simulate("patience", "win", 20, 7).win_rate
    assert d["clairvoyant"] == simulate("patience", "clairvoyant", 20, 7).win_rate


def interrupted_after(chunks):
    """A progress callback that stops the run (as Ctrl-C would) after ``chunks`` chunks."""
    done = []

    def progress(decks):
        done.append(decks)
        if len(done) == chunks:
            raise KeyboardInterrupt

    return progress


def test_an_interrupted_bracket_resumes_to_the_same_numbers(tmp_path, small_chunks):
    path = str(tmp_path / "bracket.ckpt")
    with pytest.raises(KeyboardInterrupt):
        bracket("patience", 30, 5, next_hands=1, progress=interrupted_after(2), checkpoint=path)
    done = []
    resumed = bracket("patience", 30, 5, next_hands=1, progress=done.append, checkpoint=path)
    assert done == [16, 8, 6]  # two chunks read back, two computed
    assert resumed == bracket("patience", 30, 5, next_hands=1)
    done.clear()
    assert (
        bracket("patience", 30, 5, next_hands=1, progress=done.append, checkpoint=path) == resumed
    )
    assert done == [30]  # a finished run is all read back


def test_a_checkpoint_from_other_arguments_is_refused(tmp_path):
    path = tmp_path / "bracket.ckpt"
    args = [
        "bracket",
        "--variant",
        "patience",
        "-n",
        "3",
        "--next-hands",
        "1",
        "--seed",
        "2",
        "--quiet",
        "--checkpoint",
        path,
    ]
    code, first, err = run(*args)
    assert code == 0, err
    before = path.read_bytes()
    for at, value in ((8, "3"), (4, "4"), (6, "2")):  # --seed, -n, --next-hands
        code, out, err = run(*args[:at], value, *args[at + 1 :])
        assert code == 2 and out == "" and len(err.splitlines()) == 1, err
        assert err.startswith(
            f"cribsolve: --checkpoint: {path} is from a run with other arguments"
        ), err
    assert path.read_bytes() == before
    assert run(*args) == (0, first, "")
    sim = tmp_path / "simulate.ckpt"  # simulate's file is not the bracket's
    assert (
        run(
            "simulate",
            "--variant",
            "patience",
            "-n",
            "3",
            "--policy",
            "random",
            "--quiet",
            "--checkpoint",
            sim,
        )[0]
        == 0
    )
    code, out, err = run(*args[:-1], sim)
    assert code == 2 and "is from a run with other arguments" in err


def test_the_csv_holds_the_json_row_by_row(tmp_path):
    """--csv: one row per policy and bound, each value and CI the JSON's under the same name;
    a second run appends."""
    table = tmp_path / "bracket.csv"
    for seed in (1, 2):
        code, out, err = run(
            "bracket",
            "--variant",
            "patience2",
            "-n",
            "4",
            "--seed",
            seed,
            "--quiet",
            "--json",
            "--csv",
            table,
        )
        assert code == 0, err
    with open(table, newline="") as f:
        header, *rows = list(csv.reader(f))
    assert header == COLUMNS
    d = json.loads(out)
    mine = [dict(zip(header, r)) for r in rows if r[2] == "2"]
    assert len(rows) == 2 * len(mine)
    assert {r["measure"] for r in mine} == {k for k in d if k + "_ci" in d}
    for r in mine:
        for key in ("variant", "n", "seed", "next_hands", "policy"):
            assert r[key] == str(d[key])
        assert [float(r["value"]), float(r["ci_low"]), float(r["ci_high"])] == [
            d[r["measure"]],
            *d[r["measure"] + "_ci"],
        ]


def test_a_csv_of_another_table_is_refused_before_the_work(tmp_path, no_work):
    table = tmp_path / "other.csv"
    table.write_text("a,b\n1,2\n")
    code, out, err = run("bracket", "-n", "1e9", "--quiet", "--csv", table)
    assert code == 2 and out == "" and "has a different header" in err
    assert len(err.splitlines()) == 1 and table.read_text() == "a,b\n1,2\n"


def test_the_width_is_against_the_tighter_bound_paired_deck_by_deck():
    """Bracket.as_dict on made-up decks against numpy: the penalised width is the mean of its
    per-deck differences with a normal 95% interval, clairvoyance's the share of decks only
    it wins with Wilson's, and ``width`` is the one whose bound has the lower mean, whichever
    that is."""
    from cribsolve.games.solitaire.bracket import Bracket
    from cribsolve.infra.stats import wilson

    rng = np.random.default_rng(4)
    n = 500
    best = rng.random(n) < 0.6
    clair = best | (rng.random(n) < 0.3)
    path = best - rng.normal(0, 0.05, n)
    for shift in (0.0, 0.5):  # a tight penalised bound, then a loose one
        bound = path + rng.random(n) * 0.05 + shift
        res = Bracket("patience2", n, 1, 0)
        res.wins, res.clairvoyant_wins = int(best.sum()), int(clair.sum())
        res.bound_sum, res.bound_sq = bound.sum(), (bound**2).sum()
        res.path_sum, res.path_sq = path.sum(), (path**2).sum()
        res.gap_sq = ((bound - path) ** 2).sum()
        d = res.as_dict()
        diff = bound - path
        half = 1.959964 * diff.std(ddof=1) / np.sqrt(n)
        assert d["width_penalised"] == pytest.approx(diff.mean())
        assert d["width_penalised_ci"] == pytest.approx([diff.mean() - half, diff.mean() + half])
        only = int((clair & ~best).sum())  # clairvoyance wins every deck the policy wins
        assert d["width_clairvoyant"] == pytest.approx(clair.mean() - best.mean())
        assert d["width_clairvoyant_ci"] == pytest.approx(list(wilson(only, n)))
        side = "penalised" if bound.mean() <= clair.mean() else "clairvoyant"
        assert d["upper_side"] == side == ("penalised" if shift == 0 else "clairvoyant")
        assert d["width"] == d[f"width_{side}"]
