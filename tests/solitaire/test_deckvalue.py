"""The deck value: its regression, the cards it counts, and its fit on games it never saw."""

import numpy as np
import pytest

from cribsolve.games.solitaire import deckvalue as dv
from cribsolve.games.solitaire.patience import WIN_AT
from cribsolve.games.solitaire.simulate import DECK_VALUE_SEED, deck_value, ev_games, win_table


def test_newton_recovers_the_coefficients_that_drew_the_outcomes():
    rng = np.random.default_rng(3)
    x = np.column_stack([rng.normal(size=40_000), np.ones(40_000), rng.normal(size=(40_000, 2))])
    beta = np.array([1.3, -0.4, 0.8, -2.0])
    y = (rng.random(40_000) < 1 / (1 + np.exp(-(x @ beta)))).astype(float)
    assert np.allclose(dv.logistic(x, y), beta, atol=0.06)


def test_the_kernel_counts_the_cards_the_fit_saw():
    """continuation (what the policy and the bound use) is the fitted regression on the same
    cards: those the player has not seen (the seven removed, the deal's face-down crib cards,
    the talon below the hand), at every deal and score."""
    wins, coefs = win_table("patience"), deck_value()
    decks = np.random.default_rng(4).permuted(np.tile(np.arange(52), (6, 1)), axis=1)
    row = np.empty(WIN_AT + 1)
    for deal in range(4):
        k = 4 - deal
        x = dv.features(decks, deal)
        for deck, feats in zip(decks, x):
            seen = np.zeros(53, dtype=np.bool_)
            seen[deck[7 : 7 + 9 * deal]] = True  # the deals before
            seen[deck[9 + 9 * deal : 15 + 9 * deal]] = True  # the hand
            dv.continuation(wins, coefs, k, seen, row)
            live = (wins[k] > 0) & (wins[k] < 1)
            design = np.column_stack(
                [
                    np.log(wins[k][live] / (1 - wins[k][live])),
                    np.ones(live.sum()),
                    np.tile(feats, (live.sum(), 1)),
                ]
            )
            assert np.allclose(row[live], dv.predict(design, coefs[k]), atol=1e-12)
            assert (row[~live] == wins[k][~live]).all()
    dv.continuation(wins, coefs, 0, seen, row)
    assert (row == wins[0]).all()


@pytest.mark.slow
def test_it_predicts_held_out_games_better_than_the_score_alone():
    """Log loss against the outcomes of ev games other than those it was fitted on: lower
    than W's (the same score, the cards left unknown) after every deal but the last."""
    decks, points = ev_games(DECK_VALUE_SEED + 1, 20_000)
    wins, coefs = win_table("patience"), deck_value()
    for deal in range(4):
        x, won, w = dv.samples(decks, points, wins, deal)
        p = dv.predict(x, coefs[4 - deal])

        def loss(q):
            return -np.mean(won * np.log(q) + (1 - won) * np.log(1 - q))

        assert loss(p) < loss(w) - 0.002


def test_the_products_are_centred_on_their_mean_over_random_unseen_cards():
    """product_mean against random sets of n cards: each product of two rank shares (less
    1/13) averaged over 100,000 draws, within five standard errors, for n the unseen cards at
    each deal's discard (46, 37, 28, 19). So the features of random decks average zero."""
    rng = np.random.default_rng(8)
    decks = rng.permuted(np.tile(np.arange(52), (100_000, 1)), axis=1)
    for deal in range(4):
        n = 46 - 9 * deal
        prods = dv.features(decks, deal)[:, dv.SHARES :]
        assert prods.shape[1] == dv.N_COEF - 2 - dv.SHARES
        se = prods.std(axis=0) / np.sqrt(len(prods))
        assert (np.abs(prods.mean(axis=0)) < 5 * se).all()
        x = (
            np.stack([(decks[:, :n] // 4 == r).mean(axis=1) for r in range(dv.SHARES)], axis=1)
            - 1 / 13
        )
        raw = x[:, dv.PAIRS[0]] * x[:, dv.PAIRS[1]]
        want = np.array([dv.product_mean(r, t, n) for r, t in zip(*dv.PAIRS)])
        assert (np.abs(raw.mean(axis=0) - want) < 5 * se).all()
