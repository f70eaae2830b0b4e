"""Advice on a Cribbage Square move (rules: docs/RULES.md §4): ``best_place`` ranks every move
of the card in hand by its exact expectations and by playouts (``best-place``, and the coach of
``play --variant square``), and ``Walk`` is the coach's game as the player sees it.
"""

from __future__ import annotations

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.games.solitaire.facts import PILE_CARDS, SQUARES
from cribsolve.games.solitaire.square import (
    EMPTY,
    EV,
    LOOKAHEAD_TOP,
    PILE,
    WIN_AT,
    lookahead_values,
    play_on,
)
from cribsolve.games.solitaire.square_lines import line_points, place_values
from cribsolve.infra.jit import njit, prange

ADVICE_SEED = 0  # the coach's playouts: the same advice every time


@njit(cache=True, parallel=True)
def playouts(grid, card, seen, pile, size, piles, waste, futures, remaining, table, wanted):
    """scores[s, o]: the final score of playout s after option o, ev playing on: o < 16 puts
    ``card`` into cell o, o = PILE + q onto pile q; -1 where o is not a legal move or not
    ``wanted``. Playout s deals futures[s, :remaining] (unseen cards in a random order), then
    its starter futures[s, remaining]; every option sees the same cards."""
    out = np.full((futures.shape[0], PILE + 2), -1, dtype=np.int64)
    for s in prange(futures.shape[0]):
        talon = futures[s, :remaining]
        starter = futures[s, remaining]
        for o in range(PILE + piles):
            if (
                not wanted[o]
                or (o < PILE and grid[o] >= 0)
                or (o >= PILE and size[o - PILE] >= PILE_CARDS)
            ):
                continue
            g = grid.copy()
            p = pile.copy()
            z = size.copy()
            if o < PILE:
                g[o] = card
            else:
                p[o - PILE, z[o - PILE]] = card
                z[o - PILE] += 1
            out[s, o] = play_on(
                g,
                seen.copy(),
                p,
                z,
                talon,
                starter,
                piles,
                waste,
                EV,
                np.zeros(1),
                table,
                np.empty((0, 3), dtype=np.int64),
            )
    return out


class Placement:
    """One move of the card in hand: into ``cell`` (0-15, row by row) or onto the waste
    (cell None); its exact expectation with the rest of the grid filled at random (what ev
    maximises), ``ahead``: the same once the next card is placed as ev places it
    (what lookahead maximises among ev's best LOOKAHEAD_TOP), and over the playouts (ev
    playing on) the mean final score, its standard error and the share that reach 61."""

    def __init__(self, cell, expected, ahead, scores):
        self.cell, self.expected, self.ahead = cell, float(expected), float(ahead)
        self.ev = self.lookahead = False  # the move each policy makes
        self.mean = float(scores.mean()) if scores.size else None
        self.se = float(scores.std() / np.sqrt(scores.size)) if scores.size > 1 else None
        self.win = float((scores >= WIN_AT).mean()) if scores.size else None

    @property
    def name(self) -> str:
        return "waste" if self.cell is None else f"r{self.cell // 4 + 1}c{self.cell % 4 + 1}"


def best_place(
    grid,
    card: int,
    variant: str = "square",
    waste=(),
    seen=(),
    samples: int = 1000,
    seed: int = 0,
    top: int | None = None,
) -> list[Placement]:
    """Every move of ``card`` (grid: 16 card ids or None, row by row; ``waste``: the cards on
    Square (Waste)'s waste; ``seen``: other cards known not to come), best first: by P(win)
    over ``samples`` playouts (numpy seeded with ``seed``), then by their mean, then by
    ``ahead``; without playouts, lookahead's move first, then its other candidates and the
    rest, each by ``ahead``. With ``top``, in that order, and only the first ``top`` moves
    played out (the coach's advice: lookahead's ranking, quickly)."""
    from cribsolve.core.notation import format_cards
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.errors import CardError, CribsolveError

    sq = SQUARES[variant]
    if variant not in ("square", "square-waste"):
        raise CribsolveError(
            f"best-place analyses square and square-waste; {variant}'s moves "
            f"from a reserve back to the grid are not analysed yet"
        )
    if len(grid) != 16:
        raise CardError(f"give the 16 cells of the grid row by row (a card or --), not {len(grid)}")
    cards = [c for c in grid if c is not None] + [card, *waste, *seen]
    if any(c >= 52 for c in cards):
        raise CardError("jokers are not dealt in Cribbage Square")
    dup = sorted({c for c in cards if cards.count(c) > 1})
    if dup:
        raise CardError(
            f"{format_cards(dup)} given twice (the grid, the card, --waste and "
            f"--seen hold each card once)"
        )
    empties = [i for i, c in enumerate(grid) if c is None]
    if not empties:
        raise CribsolveError("the grid is full: no card is placed any more")
    if len(waste) > PILE_CARDS:
        raise CardError(f"--waste holds at most {PILE_CARDS} cards, not {len(waste)}")
    if waste and not sq.piles:
        raise CribsolveError("--waste is for --variant square-waste")
    remaining = sq.dealt - (16 - len(empties) + len(waste) + 1)  # talon cards after this one
    unseen = [c for c in range(52) if c not in set(cards)]
    if len(unseen) < remaining + 1:
        raise CardError(
            f"only {len(unseen)} cards are left unseen, fewer than the "
            f"{remaining + 1} still to come (the talon and the starter)"
        )
    g = np.array([EMPTY if c is None else c for c in grid], dtype=np.int64)
    known = np.zeros(52, dtype=np.bool_)
    known[cards] = True
    table = rank_table(15)
    values, kept_out = place_values(g, card, known, table)
    pile = np.zeros((2, PILE_CARDS), dtype=np.int64)
    size = np.zeros(2, dtype=np.int64)
    pile[0, : len(waste)] = list(waste)
    size[0] = len(waste)
    open_pile = 0 if sq.piles and len(waste) < PILE_CARDS else -1
    opts, ahead = lookahead_values(
        g, card, known, size, sq.piles, values, kept_out, open_pile, table, PILE + 1
    )
    opts = [int(o) for o in opts]  # ev's order, ev's move first
    candidates = opts[:LOOKAHEAD_TOP]
    pick = candidates[int(np.argmax(ahead[:LOOKAHEAD_TOP]))]
    ahead_of = dict(zip(opts, ahead.tolist()))
    ranked = sorted(opts, key=lambda o: (o != pick, o not in candidates, -ahead_of[o]))
    wanted = np.zeros(PILE + 2, dtype=np.bool_)
    wanted[ranked[:top] if top is not None else opts] = True
    if samples:
        rng = np.random.default_rng(seed)
        futures = rng.permuted(np.tile(np.array(unseen, dtype=np.int64), (samples, 1)), axis=1)
        scores = playouts(
            g, card, known, pile, size, sq.piles, sq.waste, futures, remaining, table, wanted
        )
    else:
        scores = np.full((0, PILE + 2), -1, dtype=np.int64)
    out = {
        o: Placement(
            None if o == PILE else o,
            kept_out if o == PILE else values[o],
            ahead_of[o],
            scores[:, o] if wanted[o] else scores[:0, o],
        )
        for o in ranked
    }
    out[opts[0]].ev = out[pick].lookahead = True
    if samples and top is None:
        return sorted(out.values(), key=lambda p: (-p.win, -p.mean, -p.ahead))
    return list(out.values())


class Walk:
    """A game of Cribbage Square (805) card by card as the player sees it: ``grid`` and
    ``card`` (the talon's top) are all that is face up; the next cards and the starter stay in
    the talon until the grid is full. ``choose(cell, advice)`` plays the card and keeps what the
    move cost against the advice's best, in ``ahead`` (the expected final score looking one
    card further)."""

    def __init__(self, talon, starter):
        self._talon, self._starter = [int(c) for c in talon[:16]], int(starter)
        self.grid: list = [None] * 16
        self.moves: list = []  # (card, chosen Placement, best Placement)

    @property
    def over(self) -> bool:
        return len(self.moves) == 16

    @property
    def card(self) -> int:
        return self._talon[len(self.moves)]

    def choose(self, cell: int, advice: list[Placement]) -> None:
        if self.grid[cell] is not None:
            raise ValueError(f"cell {cell} is full")
        chosen = next(p for p in advice if p.cell == cell)
        self.grid[cell] = self.card
        self.moves.append((self.card, chosen, advice[0]))

    @property
    def starter(self) -> int:
        if not self.over:
            raise ValueError("the starter is turned when the grid is full")
        return self._starter

    def lines(self) -> list[int]:
        from cribsolve.core.scoring.table import rank_table

        return line_points(
            np.array(self.grid, dtype=np.int64), self.starter, rank_table(15)
        ).tolist()

    @property
    def heels(self) -> int:
        return 2 * int(RANK[self.starter] == JACK)

    @property
    def score(self) -> int:
        return sum(self.lines()) + self.heels
