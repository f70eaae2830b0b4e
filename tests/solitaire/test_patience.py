"""The solitaire engines, policies and simulator."""

import json
from itertools import combinations

import numpy as np
import pytest
from clihelp import run
from intervals import wilson_by_quadratic

from cribsolve import ruleset, score_hand
from cribsolve.core.expect import N_CLASSES, WIDTH, options_distribution
from cribsolve.core.fastev import expected_crib_two_unknown, expected_hand, unseen_counts
from cribsolve.core.hand_options import discard_options
from cribsolve.core.notation import format_card
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.solitaire import patience
from cribsolve.games.solitaire.deckvalue import SCORE_ONLY
from cribsolve.games.solitaire.simulate import chunk_points, simulate

PYSOL = ruleset("pysol")


def pts(held, starter, crib=False):
    return score_hand(held, [starter], PYSOL, crib, itemized=False).total


def best_by_hand(hand, crib_other, s):
    """Slowly: the most points any discard makes when every card is known."""
    return max(
        pts([c for c in hand if c not in d], s) + pts(list(d) + crib_other, s, True)
        for d in combinations(hand, 2)
    )


def test_patience_deal_order_and_scoring():
    rng = np.random.default_rng(7)
    deck = rng.permutation(52).astype(np.int64)
    out = np.zeros(5, dtype=np.int64)
    patience.play_patience(
        deck, patience.CLAIRVOYANT, np.zeros(8), rank_table(), np.zeros((6, 81)), SCORE_ONLY, out
    )
    for deal in range(5):
        base = 7 + 9 * deal  # 7 removed, then 9 cards a deal
        crib2 = deck[base : base + 2].tolist()
        hand = deck[base + 2 : base + 8].tolist()
        s = int(deck[base + 8])
        heels = 2 if s // 4 + 1 == 11 else 0
        assert out[deal] == best_by_hand(hand, crib2, s) + heels


def test_patience2_deal_order_and_scoring():
    rng = np.random.default_rng(8)
    deck = rng.permutation(52).astype(np.int64)
    out = np.zeros(4, dtype=np.int64)
    rand = np.zeros(8)  # random policy: always option 0
    patience.play_patience2(deck, patience.RANDOM, rand, rank_table(), np.zeros((6, 81)), out)
    for deal in range(4):
        h1, h2 = (
            deck[13 * deal : 13 * deal + 6].tolist(),
            deck[13 * deal + 6 : 13 * deal + 12].tolist(),
        )
        s = int(deck[13 * deal + 12])
        crib = h1[:2] + h2[:2]  # option 0 throws the first two cards
        want = pts(h1[2:], s) + pts(h2[2:], s) + pts(crib, s, True) + (2 if s // 4 == 10 else 0)
        assert out[deal] == want


def test_closed_form_ev_equals_enumeration():
    rng = np.random.default_rng(5)
    t = rank_table()
    for trial in range(12):
        perm = rng.permutation(52)
        hand = perm[:6].tolist()
        unseen = np.sort(perm[6 : 6 + rng.integers(10, 46)]).astype(np.int64)
        keeps, discs = discard_options(hand, 2)
        ff = bool(trial % 2)
        hists, means = np.zeros((15, WIDTH)), np.zeros((15, 2))
        options_distribution(
            keeps, discs, unseen, 1, np.ones(N_CLASSES), t, ff, False, hists, means
        )
        n, u = unseen_counts(unseen)
        for o in range(15):
            assert expected_hand(*keeps[o], unseen, t) == pytest.approx(means[o, 0], abs=1e-9)
            assert expected_crib_two_unknown(
                discs[o][0], discs[o][1], unseen, n, u, t, ff
            ) == pytest.approx(means[o, 1], abs=1e-9)


@pytest.mark.parametrize("decks,jokers", [(1, 2), (2, 0), (2, 4)])
def test_closed_form_ev_with_jokers_and_copies(decks, jokers):
    """Unseen cards with jokers and repeated copies: the closed form against the card by
    card enumeration, each physical card counted once."""
    from cribsolve.core.cards import deck
    from cribsolve.core.cardwise import options_distribution_np

    rng = np.random.default_rng(decks * 10 + jokers)
    t = rank_table()
    for trial in range(6):
        cards = rng.permutation(deck(decks, jokers))
        hand = cards[:6].tolist()
        unseen = np.sort(cards[6 : 6 + rng.integers(12, 30)]).astype(np.int64)
        keeps, discs = discard_options(hand, 2)
        ff = bool(trial % 2)
        _, means = options_distribution_np(keeps, discs, unseen, 1, None, t, ff)
        n, u = unseen_counts(unseen)
        for o in range(15):
            assert expected_hand(*keeps[o], unseen, t) == pytest.approx(means[o, 0], abs=1e-9)
            assert expected_crib_two_unknown(
                discs[o][0], discs[o][1], unseen, n, u, t, ff
            ) == pytest.approx(means[o, 1], abs=1e-9)


def test_patience_best_discard_brute_force_small_case():
    """With 40 cards seen the expectation is checked over every starter and crib pair."""
    from cribsolve.games.solitaire.discard import solitaire_discard

    rng = np.random.default_rng(11)
    perm = rng.permutation(52).tolist()
    hand, seen = perm[:6], perm[6:46]
    unseen = perm[46:]
    res = solitaire_discard(hand, "patience", seen)
    for r in res[:3]:
        tot = cnt = 0
        for s in unseen:
            for pair in combinations([c for c in unseen if c != s], 2):
                tot += pts(r.keep, s) + pts(r.discard + list(pair), s, True)
                cnt += 1
        assert r.net == pytest.approx(tot / cnt, abs=1e-9)


@pytest.mark.parametrize("variant", ["patience", "patience2"])
def test_bound_never_below_policies_on_the_same_deals(variant):
    """Deck by deck (so bracket's clairvoyant width counts the decks only the bound wins)."""
    bound = chunk_points(variant, "clairvoyant", 3, 0, 300).sum(axis=1)
    best = "lookahead" if variant == "patience2" else "deck"
    for policy in ("ev", "random", "win", best):
        assert (bound >= chunk_points(variant, policy, 3, 0, 300).sum(axis=1)).all()


def test_same_seed_same_result_for_any_jobs():
    a = simulate("patience2", "ev", 500, seed=5, jobs=1).as_dict()
    b = simulate("patience2", "ev", 500, seed=5, jobs=2).as_dict()
    assert a == b
    assert simulate("patience2", "ev", 500, seed=6).as_dict() != a


def test_random_policy_matches_the_published_mean():
    r = simulate("patience", "random", 20000, seed=1)
    per_deal = 2 * 4.76915 + 2 / 13  # two random hands and heels
    assert abs(np.mean(r.mean_per_deal) - per_deal) < 4 * r.std / np.sqrt(20000 * 5) + 0.05


def test_simulate_cli_json_csv_histogram(tmp_path):
    table, hist = tmp_path / "runs.csv", tmp_path / "hist.csv"
    for seed in (1, 2):
        code, out, _ = run(
            "simulate",
            "--variant",
            "patience",
            "-n",
            "2e3",
            "--seed",
            seed,
            "--json",
            "--csv",
            table,
            "--histogram-csv",
            hist,
            "--quiet",
        )
        assert code == 0
    obj = json.loads(out)
    assert {
        "variant",
        "policy",
        "n",
        "seed",
        "wins",
        "win_rate",
        "win_rate_ci",
        "mean",
        "std",
        "histogram",
    } <= set(obj)
    assert obj["n"] == 2000 and sum(obj["histogram"].values()) == 2000
    assert obj["win_rate_ci"] == pytest.approx(wilson_by_quadratic(obj["wins"], obj["n"]))
    lines = table.read_text().splitlines()
    assert len(lines) == 3 and lines[0].startswith("variant,policy,n,seed,wins")
    assert hist.read_text().startswith("score,count")


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-n", "0"],
        ["simulate", "-n", "x"],
        ["simulate", "--variant", "nope"],
        [
            "best-discard",
            "5H",
            "5S",
            "JD",
            "6C",
            "7C",
            "KH",
            "--variant",
            "patience",
            "--seen",
            "5H",
        ],
        ["best-discard", "5H", "5S", "JD", "6C", "7C", "--variant", "patience"],
        [
            "best-discard",
            "5H",
            "5S",
            "JD",
            "6C",
            "7C",
            "KH",
            "--variant",
            "patience2",
            "--crib-cards",
            "2C",
        ],
    ],
)
def test_bad_input(args):
    code, out, err = run(*args)
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_solitaire_best_discard_cli():
    code, out, _ = run(
        "best-discard",
        "5H",
        "5S",
        "JD",
        "6C",
        "7C",
        "KH",
        "--variant",
        "patience2",
        "--samples",
        "200",
        "--json",
    )
    d = json.loads(out)["discards"]
    assert code == 0 and len(d) == 15 and d[0]["samples"] == 200 and d[0]["se"] > 0


def test_the_last_deals_first_discard_takes_every_second_hand():
    """With 39 cards seen, the seven unseen are the second hand and the starter: no sampling,
    and the text says so."""
    deck = [format_card(c) for c in np.random.default_rng(5).permutation(52)]
    args = ["best-discard", *deck[39:45], "--variant", "patience2", "--seen", " ".join(deck[:39])]
    code, out, _ = run(*args, "--json")
    d = json.loads(out)["discards"]
    assert code == 0 and all(v["exact"] and v["samples"] == 7 and v["se"] == 0 for v in d)
    code, out, _ = run(*args)
    assert code == 0 and "every second hand (the last deal: exact)" in out
    assert "sampled" not in out
