"""The deck value's fit and the coach's speed: python benchmarks/bench_deckvalue.py

Prints, after each deal of Cribbage Patience but the last, the held-out log loss and Brier
score of the score-only win table W, of the rank shares alone (the deck value without the
products of two shares, fitted here on the deck value's own games) and of the deck value
(deckvalue.py) against the outcomes of ev games none was fitted on (games still in doubt
only), then the time the coach takes for one decision (advise on a view, warm), median and
slowest, in both Patience games.
"""

import statistics
import sys
import time

import numpy as np

from cribsolve.games.solitaire import deckvalue as dv
from cribsolve.games.solitaire.coach import Walk, advise, seeded_talon
from cribsolve.games.solitaire.simulate import (
    DECK_VALUE_GAMES,
    DECK_VALUE_SEED,
    deck_value,
    ev_games,
    win_table,
)


def fit_figures(games: int) -> None:
    decks, points = ev_games(DECK_VALUE_SEED + 1, games)
    wins, coefs = win_table("patience"), deck_value()
    train = ev_games(DECK_VALUE_SEED, DECK_VALUE_GAMES)
    lin = 2 + dv.SHARES  # logit W, 1, the shares
    print(f"held out: {games:,} ev games of Patience (seed {DECK_VALUE_SEED + 1}), games in doubt")
    print(
        f"{'after deal':>10} {'games':>8} {'log loss W':>11} {'shares':>7} {'deck value':>11} "
        f"{'Brier W':>9} {'shares':>7} {'deck value':>11}"
    )
    for deal in range(4):
        x, won, w = dv.samples(decks, points, wins, deal)
        xt, wont, _ = dv.samples(*train, wins, deal)
        s = dv.predict(x[:, :lin], dv.logistic(xt[:, :lin], wont))
        p = dv.predict(x, coefs[4 - deal])

        def loss(q):
            return -np.mean(won * np.log(q) + (1 - won) * np.log(1 - q))

        def brier(q):
            return np.mean((q - won) ** 2)

        print(
            f"{deal + 1:>10} {len(won):>8,} {loss(w):>11.4f} {loss(s):>7.4f} {loss(p):>11.4f} "
            f"{brier(w):>9.4f} {brier(s):>7.4f} {brier(p):>11.4f}"
        )


def decision_times(variant: str, games: int) -> None:
    advise(Walk(variant, seeded_talon(0)).view())  # load the tables, warm up
    times = []
    for seed in range(1, games + 1):
        walk = Walk(variant, seeded_talon(seed))
        while not walk.over:
            t = time.perf_counter()
            best = advise(walk.view())[0]
            times.append(time.perf_counter() - t)
            walk.choose(best.discard)
    print(
        f"coach, {variant}: {len(times)} decisions, median "
        f"{statistics.median(times) * 1e3:.1f} ms, slowest {max(times) * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    fit_figures(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
    decision_times("patience", 10)
    decision_times("patience2", 3)
