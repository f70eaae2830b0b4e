"""A value function of Cribbage Patience that knows which cards are left, not only the score.

The win table W[k][s] (simulate.win_table) treats the deals as independent, but they share one
deck: a deal that used the fives leaves poorer deals behind. Here P(win) after a deal, from
score s with k deals left, is

    V[k](s, unseen) = sigmoid(a_k logit(W[k][s]) + b_k + c_k . x(unseen)),

x being each rank's share of the cards unseen at the discard (less 1/13; the king's left out)
and the products of every two shares (less their mean over random sets of as many cards,
product_mean, so that a partial ``--seen`` does not inherit it). The coefficients are a
logistic regression on simulated ``ev`` games, per deals left (simulate.deck_value fits and
keeps them); where W is 0 or 1, V is W. x is known before the discard, so V is one more row of
continuation values: the ``deck`` policy uses it where ``win`` uses W.

The after value is the same regression on the cards still unseen once the deal is scored. No
player decides with it: it is the phi of the bracket's charges (bracket_bound.py). The fits and
their measurements: docs/research.md.
"""

from __future__ import annotations

import numpy as np

from cribsolve.infra.jit import njit

RANKS = 13
SHARES = RANKS - 1  # one per rank but the king
PAIRS = np.triu_indices(SHARES)  # the products' order: (0, 0), (0, 1), ..., (11, 11)
N_COEF = 2 + SHARES + len(PAIRS[0])  # a_k, b_k, the shares, their products
SCORE_ONLY = np.zeros((0, N_COEF))  # no coefficients: the continuation is W itself


@njit(cache=True)
def product_mean(r, t, n):
    """E[x_r x_t] when the n unseen cards are a random n of the 52 (hypergeometric counts)."""
    if r == t:
        return 4 / 52 * 48 / 52 * (52 - n) / (51 * n)
    return -((4 / 52) ** 2) * (52 - n) / (51 * n)


@njit(cache=True)
def continuation(wins, coefs, k, seen, out):
    """out[s]: P(win) from score s after this deal with k deals left after it, given the cards
    ``seen`` (52 + 1 flags) when the discard is made; W[k] where ``coefs`` is empty or k = 0."""
    if coefs.shape[0] == 0 or k == 0:
        out[:] = wins[k]
        return
    counts = np.zeros(RANKS)
    for c in range(52):
        if not seen[c]:
            counts[c // 4] += 1.0
    value_row(wins, coefs[k], k, counts, out)


@njit(cache=True)
def value_row(wins, c, k, counts, out):
    """out[s]: the regression with coefficients c (one row of coefs) at score s, k deals left,
    for the unseen cards whose ranks number ``counts``."""
    total = counts.sum()
    z = c[1]
    x = np.empty(SHARES)
    for r in range(SHARES):
        x[r] = counts[r] / total - 1.0 / RANKS
        z += c[2 + r] * x[r]
    i = 2 + SHARES
    for r in range(SHARES):
        for t in range(r, SHARES):
            z += c[i] * (x[r] * x[t] - product_mean(r, t, total))
            i += 1
    for s in range(out.shape[0]):
        p = wins[k, s]
        if p <= 0.0 or p >= 1.0:
            out[s] = p
        else:
            out[s] = 1.0 / (1.0 + np.exp(-(c[0] * np.log(p / (1.0 - p)) + z)))


def features(decks: np.ndarray, deal: int, after: bool = False) -> np.ndarray:
    """x(unseen) at Patience deal ``deal``'s discard for each deck (rows): the seven removed
    cards, the deal's two face-down crib cards and every card below the hand are unseen, as
    ``continuation`` counts them in play. ``after``: once the deal is scored, the crib cards
    and the starter turned (the bracket's after value)."""
    top = 7 + 9 * deal
    turned = decks[:, :0] if after else decks[:, top : top + 2]
    unseen = np.hstack([decks[:, :7], turned, decks[:, top + (9 if after else 8) :]]) // 4
    shares = np.stack([(unseen == r).mean(axis=1) for r in range(SHARES)], axis=1) - 1 / RANKS
    n = unseen.shape[1]
    means = np.array([product_mean(r, t, n) for r, t in zip(*PAIRS)])
    return np.hstack([shares, shares[:, PAIRS[0]] * shares[:, PAIRS[1]] - means])


def _logit(p):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return np.log(p / (1 - p))


def samples(
    decks: np.ndarray, points: np.ndarray, wins: np.ndarray, deal: int, after: bool = False
):
    """(design rows, won, W) of the games still in doubt after ``deal``: the regression's data
    (``after``: features after the deal)."""
    k = points.shape[1] - 1 - deal
    score = np.minimum(points[:, : deal + 1].sum(axis=1), wins.shape[1] - 1)
    w = wins[k][score]
    live = (w > 0) & (w < 1)
    x = np.column_stack([_logit(w), np.ones(len(w)), features(decks, deal, after)])[live]
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


def fit(decks, points, wins, after: bool = False) -> np.ndarray:
    """coefs[k]: the regression with k deals left after the deal (row 0 unused), rounded to
    1e-9 so that the sums' order (BLAS threads) does not change the table; ``after``: on the
    cards unseen once the deal is scored."""
    deals = points.shape[1]
    coefs = np.zeros((deals, N_COEF))
    coefs[0, 0] = 1.0
    for deal in range(deals - 1):
        x, y, _ = samples(decks, points, wins, deal, after)
        coefs[deals - 1 - deal] = logistic(x, y)
    return np.round(coefs, 9)
