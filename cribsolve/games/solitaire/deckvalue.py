"""A value function of Cribbage Patience that knows which cards are left, not only the score.

The score-only win table W[k][s] (simulate.win_table) treats the deals as independent, but they
share one deck: a deal that used the fives leaves poorer deals behind. Here the probability of
winning after a deal, from score s with k deals left, is

    V[k](s, unseen) = sigmoid(a_k logit(W[k][s]) + b_k + c_k . x(unseen)),

x being the share of each rank among the cards unseen when the deal's discard is made (the
seven removed cards and the talon below the hand; the king's share left out, as the shares add
up to one). The coefficients are fitted by logistic regression (Newton's method) on simulated
games of the ``ev`` policy, per deals left (simulate.deck_value fits and keeps them); where W
is 0 or 1 the game is decided and V is W.
Because x is known before the discard, V[k](., unseen) is just another row of continuation
values: the ``deck`` policy uses it where ``win`` uses W, and the bracket's charges use it as
their phi (any phi gives a valid bound; a closer one a tighter bound).
"""
from __future__ import annotations

import numpy as np

from cribsolve.infra.jit import njit

RANKS = 13
N_COEF = 2 + RANKS - 1          # a_k, b_k, then one per rank but the king
SCORE_ONLY = np.zeros((0, N_COEF))   # no coefficients: the continuation is W itself


@njit(cache=True)
def continuation(wins, coefs, k, seen, out):
    """out[s]: P(win) from score s after this deal with k deals left after it, given the cards
    ``seen`` (52 + 1 flags) when the discard is made; W[k] where ``coefs`` is empty or k = 0."""
    if coefs.shape[0] == 0 or k == 0:
        out[:] = wins[k]
        return
    counts = np.zeros(RANKS)
    total = 0.0
    for c in range(52):
        if not seen[c]:
            counts[c // 4] += 1.0
            total += 1.0
    c = coefs[k]
    z = c[1]
    for r in range(RANKS - 1):
        z += c[2 + r] * (counts[r] / total - 1.0 / RANKS)
    for s in range(out.shape[0]):
        p = wins[k, s]
        if p <= 0.0 or p >= 1.0:
            out[s] = p
        else:
            out[s] = 1.0 / (1.0 + np.exp(-(c[0] * np.log(p / (1.0 - p)) + z)))


def features(decks: np.ndarray, deal: int) -> np.ndarray:
    """x(unseen) at Patience deal ``deal``'s discard for each deck (rows): the seven removed
    cards and every card below the hand are unseen."""
    unseen = np.hstack([decks[:, :7], decks[:, 7 + 9 * deal + 8:]]) // 4
    shares = np.stack([(unseen == r).mean(axis=1) for r in range(RANKS - 1)], axis=1)
    return shares - 1.0 / RANKS


def _logit(p):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return np.log(p / (1 - p))


def samples(decks: np.ndarray, points: np.ndarray, wins: np.ndarray, deal: int):
    """(design rows, won, W) of the games still in doubt after ``deal``: the regression's data."""
    k = points.shape[1] - 1 - deal
    after = np.minimum(points[:, :deal + 1].sum(axis=1), wins.shape[1] - 1)
    w = wins[k][after]
    live = (w > 0) & (w < 1)
    x = np.column_stack([_logit(w), np.ones(len(w)), features(decks, deal)])[live]
    return x, (points.sum(axis=1) >= wins.shape[1] - 1)[live].astype(float), w[live]


def logistic(x: np.ndarray, y: np.ndarray, iterations: int = 25) -> np.ndarray:
    """Maximum-likelihood logistic coefficients by Newton's method (a small ridge keeps the
    Hessian invertible), started from V = W."""
    beta = np.zeros(x.shape[1])
    beta[0] = 1.0
    ridge = 1e-6 * np.eye(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(x @ beta)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + ridge, x.T @ (p - y))
        beta -= step
        if np.abs(step).max() < 1e-10:
            break
    return beta


def predict(x: np.ndarray, beta: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(x @ beta)))


def fit(decks, points, wins) -> np.ndarray:
    """coefs[k]: the regression with k deals left after the deal (row 0 unused), rounded to
    1e-9 so that the sums' order (BLAS threads) does not change the table."""
    deals = points.shape[1]
    coefs = np.zeros((deals, N_COEF))
    coefs[0, 0] = 1.0
    for deal in range(deals - 1):
        x, y, _ = samples(decks, points, wins, deal)
        coefs[deals - 1 - deal] = logistic(x, y)
    return np.round(coefs, 9)
