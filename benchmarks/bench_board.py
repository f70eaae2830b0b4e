"""The expert weighing the board near the end of a game, against the same expert throwing by
points alone: python benchmarks/bench_board.py [GAMES] [SEED] [OBJECTIVE]

Paired end games (default 4,000, seed 1, objective win): each starts from a random position
(both scores from 70 to 120, either player dealing first) and is played to its end twice
with the same seed, the expert (player 0) against expert1, once weighing its throws by the
board (board_throw.board_throw) and once not. Weighing the board draws nothing from the game's
random stream, so a game where it changes no throw plays out identically. Prints the share of
games that differ and the expert's gain in wins (and in game points, 2 a win and 3 a skunk),
with 95% CIs.
"""

import sys
import time

import numpy as np
from numba import njit, prange

from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals import deal, game
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES, expert_tables
from cribsolve.games.cribbage.deals.win_choices import board_for
from cribsolve.games.cribbage.rules.spec import CribbageSpec

LOW = 70


@njit(parallel=True)
def end_games(seeds, starts, policies, table, pr, expert, board):
    out = np.zeros((seeds.shape[0], 7 + deal.NP), dtype=np.int64)
    for i in prange(seeds.shape[0]):
        game.play_game(seeds[i], policies, table, pr, out[i], expert, starts[i], board)
    return out


def game_points(rows, length):
    """Player 0's game points in each game: 2 a win, 3 a skunk."""
    won = rows[:, 0] == 0
    return np.where(won, 2 + (rows[:, 4] < length - 30), 0)


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 4_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    objective = sys.argv[3] if len(sys.argv) > 3 else "win"
    spec = CribbageSpec()
    pr = spec.as_array()
    rng = np.random.default_rng(seed)
    seeds = rng.integers(0, 2**62, size=n)
    starts = np.column_stack(
        [rng.integers(LOW, spec.game_length, size=(n, 2)), rng.integers(0, 2, size=n)]
    )
    pol = np.array([CRIBBAGE_POLICIES["expert"], CRIBBAGE_POLICIES["expert1"]])
    expert = expert_tables(spec)
    board = board_for(["expert"], spec, objective)
    table = rank_table(spec.target)
    t = time.perf_counter()
    plain = end_games(seeds, starts, pol, table, pr, expert, game.NO_BOARD)
    t_plain = time.perf_counter() - t
    weighed = end_games(seeds, starts, pol, table, pr, expert, board)
    t_board = time.perf_counter() - t - t_plain
    print(
        f"{n:,} paired end games (seed {seed}, objective {objective}, from {LOW}-{LOW} to "
        f"{spec.game_length - 1}-{spec.game_length - 1}): {t_plain:.0f} s without the board "
        f"(compiling included), {t_board:.0f} s with it; "
        f"{np.mean(np.any(plain != weighed, axis=1)):.1%} of the games differ"
    )
    for name, f in (
        ("wins", lambda r: (r[:, 0] == 0).astype(float)),
        ("game points", lambda r: game_points(r, spec.game_length)),
    ):
        a, b = f(plain), f(weighed)
        d = b - a
        half = 1.96 * d.std(ddof=1) / np.sqrt(n)
        print(
            f"  {name:12} without {a.mean():.4f}, with {b.mean():.4f}: gain {d.mean():+.4f} "
            f"[{d.mean() - half:+.4f}, {d.mean() + half:+.4f}]"
        )


if __name__ == "__main__":
    main()
