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
    cards: the seven removed and the talon below the hand, at every deal and score."""
    wins, coefs = win_table("patience"), deck_value()
    decks = np.random.default_rng(4).permuted(np.tile(np.arange(52), (6, 1)), axis=1)
    row = np.empty(WIN_AT + 1)
    for deal in range(4):
        k = 4 - deal
        x = dv.features(decks, deal)
        for deck, feats in zip(decks, x):
            seen = np.zeros(53, dtype=np.bool_)
            seen[deck[7:7 + 9 * deal + 8]] = True
            dv.continuation(wins, coefs, k, seen, row)
            live = (wins[k] > 0) & (wins[k] < 1)
            design = np.column_stack([np.log(wins[k][live] / (1 - wins[k][live])),
                                      np.ones(live.sum()), np.tile(feats, (live.sum(), 1))])
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
