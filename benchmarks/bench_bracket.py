"""What tightens Cribbage Patience's charged bound: python benchmarks/bench_bracket.py [DECKS]

On the first DECKS decks (default 4,000) of `bracket --variant patience --seed 1`, the
penalised bound (bracket_bound.bound_games) with the charges `bracket` uses (the after value as
phi, 8 and 32 drawn next hands), and without the after value (the deck value as phi, its
expectation over the deal's points alone, as before it) with 2, 8 and 32 hands and with the
rank shares alone (the deck value without its products of two shares, fitted here on the
deck value's own games). Every variant sees the same decks and, within one number of hands,
the same drawn hands, so the differences are paired; each is printed with its 95% CI, with
the seconds each bound took.
"""

import sys
import time

import numpy as np

from cribsolve.core.scoring.table import rank_table
from cribsolve.games.solitaire import deckvalue as dv
from cribsolve.games.solitaire.bracket_bound import bound_games
from cribsolve.games.solitaire.simulate import (
    DECK_VALUE_GAMES,
    DECK_VALUE_SEED,
    chunk_decks,
    deck_value,
    ev_games,
    win_table,
)


def shares_alone(wins: np.ndarray) -> np.ndarray:
    """The deck value's coefficients with the products left out (their columns zero)."""
    train = ev_games(DECK_VALUE_SEED, DECK_VALUE_GAMES)
    coefs = np.zeros((5, dv.N_COEF))
    coefs[0, 0] = 1.0
    lin = 2 + dv.SHARES
    for deal in range(4):
        x, won, _ = dv.samples(*train, wins, deal)
        coefs[4 - deal, :lin] = dv.logistic(x[:, :lin], won)
    return coefs


def main(n: int) -> None:
    wins, table = win_table("patience"), rank_table(15)
    decks = chunk_decks(1, 0, n)[1]
    deck, after, shares = deck_value(), deck_value(after=True), shares_alone(wins)
    runs = {}
    for label, coefs, phi, hands in (
        ("after value, 8 hands", deck, after, 8),
        ("after value, 32 hands", deck, after, 32),
        ("deck value, 2 hands", deck, dv.SCORE_ONLY, 2),
        ("deck value, 8 hands", deck, dv.SCORE_ONLY, 8),
        ("deck value, 32 hands", deck, dv.SCORE_ONLY, 32),
        ("shares alone, 8 hands", shares, dv.SCORE_ONLY, 8),
    ):
        looks = np.random.default_rng([1, 0, 1]).random((n, 4, hands, 6))
        t = time.perf_counter()
        runs[label] = bound_games(decks, False, wins, coefs, phi, table, looks)[0]
        print(f"{label:<22} bound {runs[label].mean():.2%}  ({time.perf_counter() - t:.0f} s)")
    for label, base in (
        ("after value, 8 hands", "deck value, 8 hands"),
        ("after value, 32 hands", "after value, 8 hands"),
        ("deck value, 32 hands", "deck value, 8 hands"),
        ("shares alone, 8 hands", "deck value, 8 hands"),
    ):
        d = (runs[label] - runs[base]) * 100
        half = 1.959964 * d.std(ddof=1) / np.sqrt(n)
        print(
            f"{label} minus {base}: {d.mean():+.3f} points "
            f"[{d.mean() - half:+.3f}, {d.mean() + half:+.3f}]"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)
