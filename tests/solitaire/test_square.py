"""Cribbage Square (PySolFC 805-808): the deal against PySolFC's own dealing, the exact line
expectations against brute force, the score against Shuffle's scorer and a hand count, and the
policies' games replayed move by move against the rules."""

import itertools
import json

import numpy as np
import pytest
from clihelp import run
from hypothesis import given, settings
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer, createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from cribsolve.core import fastev
from cribsolve.core.notation import format_card, parse_card, parse_cards
from cribsolve.core.scoring.table import rank_table, score5
from cribsolve.games.solitaire import shuffle, square_lines
from cribsolve.games.solitaire import simulate as sim
from cribsolve.games.solitaire import square as sq
from cribsolve.games.solitaire.facts import PILE_CARDS, SQUARES
from cribsolve.games.solitaire.pysol import layout, talon
from cribsolve.games.solitaire.square import simulate

TABLE = rank_table(15)


def pysol_start(n, ms, piles):
    """PySolFC's start of a Cribbage Square, on its own card list (pysol-cards' generator):
    the talon is the list with its top at the end; 35 - 5 x piles cards go aside from the top;
    the player then takes the top card each time, and the starter is talon.cards[0]. Returns
    (the cards in the order the player gets them, the starter)."""
    cards = createCards(1)
    rng = LCRandom31(n) if ms else MTRandom(n)
    cards = rng.shuffle(ms_rearrange(cards) if ms else cards)
    render = CardRenderer(True)
    stack = [parse_card(render.to_s(c)) for c in cards]  # stack[-1] is the top
    del stack[len(stack) - (35 - 5 * piles) :]
    starter = stack[0]
    dealt = []
    while len(stack) > 1:
        dealt.append(stack.pop())
    return dealt, starter


@pytest.mark.parametrize("variant", list(SQUARES))
@pytest.mark.parametrize("n", [1, 617, 31999, 32000, 123456789])
def test_deal_follows_pysolfc(variant, n):
    lay = layout(variant, talon(n))
    dealt, starter = pysol_start(n, n < 32000, SQUARES[variant].piles)
    assert lay["talon"] == dealt and lay["starter"] == starter
    assert len(dealt) == SQUARES[variant].dealt == 16 + PILE_CARDS * SQUARES[variant].piles
    if variant == "square":  # the same cards as Shuffle's grid, and its starter
        sh = layout("shuffle", talon(n))
        assert dealt == sum(sh["grid"], []) and starter == sh["starter"]


HAND_WORKED = ("JS QH KD TC  AC 2D 3H 4S  2H 4H 6H 8H  7C 7D 8C 9D", "5S")


def test_hand_worked_grid():
    # rows: J Q K T + 5: four fifteens 8, run of 4, nobs = 13; A 2 3 4 + 5: run of 5, one
    # fifteen = 7; 2 4 6 8 hearts + 5: flush 4, fifteens 2+8+5 and 4+6+5, run 4-5-6 = 11;
    # 7 7 8 9 + 5: fifteens 7+8 twice, a pair, a double run of 3 = 12. Columns: J A 2 7 + 5:
    # J+5, A+2+7+5, nobs = 5; Q 2 4 7 + 5: Q+5 = 2; K 3 6 8 + 5: K+5 = 2; T 4 8 9 + 5: T+5,
    # run 8-9-T = 5. 43 + 14 = 57, no heels.
    grid = np.array(parse_cards([HAND_WORKED[0]]), dtype=np.int64)
    assert square_lines.grid_points(grid, parse_card(HAND_WORKED[1]), TABLE) == 57


def shuffle_score(grid, starter):
    """Shuffle's scorer of a grid (card ids, row by row): its group values, its rows and
    columns, and heels."""
    val = shuffle.group_values(np.asarray(grid, dtype=np.int64), starter, TABLE)
    return int(shuffle.grid_score(np.arange(16), val)) + 2 * (starter // 4 + 1 == 11)


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(52)))
def test_grid_points_are_shuffles_score(deck):
    grid = np.array(deck[:16], dtype=np.int64)
    assert square_lines.grid_points(grid, deck[16], TABLE) == shuffle_score(grid, deck[16])


def brute_line(known, pool):
    """E[line] by every ordered draw of the missing cards and the starter from ``pool``."""
    k = 4 - len(known)
    total = count = 0
    for t in itertools.permutations(pool, k + 1):
        h = list(known) + list(t[:k])
        total += score5(TABLE, h[0], h[1], h[2], h[3], t[k], False)
        count += 1
    return total / count


HEARTS = [4 * r + 2 for r in range(13)]  # card ids: rank-major, suits C D H S


@pytest.mark.parametrize(
    "known,pool",
    [
        ([], HEARTS[:7] + [0, 45, 41]),  # flushes of any suit, jacks
        ([HEARTS[10]], HEARTS[:6] + [40, 41, 43, 3]),  # a held jack (JH), unseen jacks
        ([HEARTS[1], HEARTS[4]], HEARTS[5:10] + [1, 5, 9, 12]),
        ([HEARTS[1], HEARTS[4], 17], HEARTS[5:12] + [1, 5, 40]),  # mixed suits: no flush
        ([HEARTS[0], HEARTS[2], HEARTS[3], HEARTS[10]], HEARTS[4:9] + [41, 43, 0]),
    ],
)
def test_expected_line_is_the_brute_force_mean(known, pool):
    seen = np.ones(52, dtype=np.bool_)
    seen[pool] = False
    n, u, total, njack = square_lines.pool_counts(seen)
    k = np.zeros(4, dtype=np.int64)
    k[: len(known)] = known
    assert square_lines.expected_line(k, len(known), n, u, total, njack, TABLE) == pytest.approx(
        brute_line(known, pool), abs=1e-12
    )


def test_expected_line_agrees_with_fastev_and_the_histogram():
    # two missing cards is a crib: fastev's closed form; four held is a hand
    deck = np.random.default_rng(7).permutation(52)
    seen = np.zeros(52, dtype=np.bool_)
    seen[deck[:9]] = True
    unseen = np.flatnonzero(~seen).astype(np.int64)
    n, u, total, njack = square_lines.pool_counts(seen)
    fn, fu = fastev.unseen_counts(unseen)
    for a, b in [(deck[0], deck[1]), (deck[2], deck[3])]:
        assert square_lines.expected_line(
            np.array([a, b, 0, 0]), 2, n, u, total, njack, TABLE
        ) == pytest.approx(fastev.expected_crib_two_unknown(a, b, unseen, fn, fu, TABLE, False))
    hand = deck[4:8].astype(np.int64)
    assert square_lines.expected_line(hand, 4, n, u, total, njack, TABLE) == pytest.approx(
        fastev.expected_hand(*hand, unseen, TABLE)
    )
    # an empty line over the whole deck is the mean show of RULES.md §2
    n, u, total, njack = square_lines.pool_counts(np.zeros(52, dtype=np.bool_))
    assert square_lines.expected_line(
        np.zeros(4, dtype=np.int64), 0, n, u, total, njack, TABLE
    ) == pytest.approx(61_974_180 / 12_994_800, abs=1e-12)


def test_place_values_are_expectations_over_completions():
    # A nearly full grid: the value of each cell is the mean, over every way to fill the other
    # empty cells and pick the starter, of the final score (heels included).
    deck = [int(c) for c in np.random.default_rng(11).permutation(52)]
    grid = np.array(deck[:16], dtype=np.int64)
    grid[[3, 9, 14]] = sq.EMPTY
    card = deck[16]
    seen = np.zeros(52, dtype=np.bool_)
    seen[grid[grid >= 0]] = True
    seen[card] = True
    seen[deck[30:]] = True  # a small pool keeps the brute force short
    pool = [c for c in range(52) if not seen[c]]
    values, kept_out = square_lines.place_values(grid, card, seen, TABLE)
    for cell in (3, 9, 14):
        g = grid.copy()
        g[cell] = card
        rest = [i for i in (3, 9, 14) if i != cell]
        scores = []
        for t in itertools.permutations(pool, 3):
            g[rest] = t[:2]
            scores.append(square_lines.grid_points(g, t[2], TABLE))
        assert values[cell] == pytest.approx(np.mean(scores), abs=1e-9)
    scores = []
    for t in itertools.permutations(pool, 4):
        g = grid.copy()
        g[[3, 9, 14]] = t[:3]
        scores.append(square_lines.grid_points(g, t[3], TABLE))
    assert kept_out == pytest.approx(np.mean(scores), abs=1e-9)
    assert np.isneginf(values[grid >= 0]).all()


def replay(variant, deck, policy, rand):
    """Play one game with a move log and check every move against the rules; returns the
    final grid and score."""
    s = SQUARES[variant]
    grid = np.full(16, sq.EMPTY, dtype=np.int64)
    seen = np.zeros(52, dtype=np.bool_)
    pile = np.empty((2, PILE_CARDS), dtype=np.int64)
    size = np.zeros(2, dtype=np.int64)
    log = np.full((sq.MAX_MOVES, 3), -9, dtype=np.int64)
    score = sq.play_on(
        grid,
        seen,
        pile,
        size,
        deck[: s.dealt],
        deck[s.dealt],
        s.piles,
        s.waste,
        policy,
        rand,
        TABLE,
        log,
    )
    cells = [None] * 16
    piles = [[] for _ in range(2)]
    nxt = 0
    for source, card, target in log:
        if source == -9:
            break
        if source == sq.TALON:
            assert card == deck[nxt]  # the talon's cards, in order
            nxt += 1
        else:
            assert not s.waste and 0 <= source < s.piles and piles[source][-1] == card
            piles[source].pop()
        if target < 16:
            assert cells[target] is None  # an empty cell
            cells[target] = card
        else:
            q = target - sq.PILE
            assert source == sq.TALON and 0 <= q < s.piles and len(piles[q]) < PILE_CARDS
            piles[q].append(card)
    assert cells == grid.tolist() and nxt <= s.dealt
    assert None not in cells and len(set(cells)) == 16
    assert score == shuffle_score(grid, deck[s.dealt])
    return grid, score


@settings(max_examples=25, deadline=None)
@given(
    st.permutations(range(52)),
    st.sampled_from(list(SQUARES)),
    st.sampled_from(["ev", "random", "lookahead"]),
)
def test_every_move_is_legal_and_the_score_is_shuffles(deck, variant, policy):
    deck = np.array(deck, dtype=np.int64)
    rand = np.random.default_rng(0).random(SQUARES[variant].dealt)
    replay(variant, deck, sq.POLICIES[policy], rand)


def test_lookahead_is_the_best_expected_score_three_cells_from_the_end():
    # With three cells empty, a card placed, the next placed as well as it can be and the last
    # forced, the look-ahead's value of a move is the optimal expected final score: here by
    # brute force over every next card, last card and starter, with grid_points.
    deck = [int(c) for c in np.random.default_rng(7).permutation(52)]
    grid = np.array(deck[:16], dtype=np.int64)
    empty = [2, 7, 13]
    grid[empty] = sq.EMPTY
    card = deck[16]
    seen = np.zeros(52, dtype=np.bool_)
    seen[grid[grid >= 0]] = True
    seen[card] = True
    seen[deck[27:]] = True  # 10 unseen cards keep the brute force short
    pool = [c for c in range(52) if not seen[c]]
    values, kept_out = square_lines.place_values(grid, card, seen, TABLE)
    opts, vals = sq.lookahead_values(
        grid,
        card,
        seen,
        np.zeros(2, dtype=np.int64),
        0,
        values,
        kept_out,
        -1,
        TABLE,
        sq.LOOKAHEAD_TOP,
    )
    assert sorted(opts) == empty and list(opts) == sorted(empty, key=lambda i: -values[i])

    def mean_final(g, free, unseen):
        return np.mean(
            [
                square_lines.grid_points(np.where(np.arange(16) == free, last, g), starter, TABLE)
                for last, starter in itertools.permutations(unseen, 2)
            ]
        )

    for o, v in zip(opts, vals):
        g = grid.copy()
        g[o] = card
        rest = [i for i in empty if i != o]
        best_next = []
        for nxt in pool:
            unseen = [c for c in pool if c != nxt]
            options = []
            for i, j in (rest, rest[::-1]):
                h = g.copy()
                h[i] = nxt
                options.append(mean_final(h, j, unseen))
            best_next.append(max(options))
        assert v == pytest.approx(np.mean(best_next), abs=1e-9)
        assert v >= values[o] - 1e-9  # seeing one card further cannot be worth less


def slow_lookahead(grid, card, seen, size, piles, p, opts):
    """lookahead_values by its definition: for each option, the mean over the unseen next
    cards of their best place_values (or kept_out, with a pile's room), each from scratch."""
    out = []
    for o in opts:
        g, sz = grid.copy(), size.copy()
        if o >= sq.PILE:
            sz[p] += 1
        else:
            g[o] = card
        room = any(sz[q] < PILE_CARDS for q in range(piles))
        total, count = 0.0, 0
        for d in np.flatnonzero(~seen):
            s = seen.copy()
            s[d] = True
            v, kept_out = square_lines.place_values(g, d, s, TABLE)
            total += max(v.max(), kept_out) if room else v.max()  # summed in card order
            count += 1
        out.append(total / count)
    return out


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 14), st.integers(0, 2))
def test_lookahead_values_are_the_slow_definitions_bit_for_bit(seed, placed, piles):
    # lookahead_values shares each unseen rank's line expectations among its suits and the
    # options; the values must be exactly those of place_values worked out card by card.
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52).astype(np.int64)
    grid = np.full(16, sq.EMPTY, dtype=np.int64)
    grid[rng.permutation(16)[:placed]] = deck[:placed]
    card = deck[placed]
    seen = np.zeros(52, dtype=np.bool_)
    seen[deck[: placed + 1 + 2 * piles]] = True  # cards gone to the piles were seen too
    size = np.array([2, 1])[:piles].tolist() + [0] * (2 - piles)
    size = np.array(size, dtype=np.int64)
    p = 1 if piles == 2 else piles - 1
    values, kept_out = square_lines.place_values(grid, card, seen, TABLE)
    opts, vals = sq.lookahead_values(
        grid, card, seen, size, piles, values, kept_out, p, TABLE, sq.LOOKAHEAD_TOP
    )
    slow = slow_lookahead(grid, card, seen, size, piles, p, opts)
    for o, v, want in zip(opts, vals, slow):
        if o < sq.PILE and placed == 15:
            continue  # the last cell keeps its exact value
        assert v == want


def test_pool_weights_are_whole_binomial_products_for_every_pool():
    # A row's weight depends on the unseen counts of its own ranks only, in rank order; the
    # rows of ranks 1-5 under every count 0-4 of those ranks cover every case. The weights
    # must be exact whole numbers (next_rank_parts' sums rely on it).
    from math import comb

    rows = [t for t, row in enumerate(square_lines.MULTISETS) if row.max() <= 5]
    held = np.array([[list(square_lines.MULTISETS[t]).count(r) for r in range(1, 6)] for t in rows])
    binom = np.array([[comb(n, k) for k in range(6)] for n in range(5)])
    for counts in itertools.product(range(5), repeat=5):
        n = np.array([0, *counts] + [4] * 8, dtype=np.int64)
        w = square_lines.pool_weights(n, 5)[rows]
        want = np.prod(binom[np.array(counts), held], axis=1)
        assert np.array_equal(w, want)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 4))
def test_next_rank_parts_are_rank_part_with_the_next_card_drawn(seed, m):
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52).astype(np.int64)
    known = deck[:4].copy()
    seen = np.zeros(52, dtype=np.bool_)
    seen[deck[: 4 + int(rng.integers(0, 20))]] = True
    n = square_lines.pool_counts(seen)[0]
    without, with_next = square_lines.next_rank_parts(
        known, m, n, square_lines.pool_weights(n, 5), TABLE
    )
    for r in range(1, 14):
        if n[r] == 0:
            assert without[r] == with_next[r] == 0
            continue
        less = n.copy()
        less[r] -= 1
        w = square_lines.pool_weights(less, 5)
        assert without[r] == square_lines.rank_part(known, m, w, TABLE)
        if m < 4:
            k = known.copy()
            k[m] = 4 * (r - 1)  # a card of rank r
            assert with_next[r] == square_lines.rank_part(k, m + 1, w, TABLE)


def test_lookahead_moves_depend_only_on_the_cards_seen():
    # two decks alike in their first 9 cards and different after: the same first 9 moves
    rng = np.random.default_rng(4)
    for variant in ("square", "square-reserve1"):
        s = SQUARES[variant]
        a = rng.permutation(52).astype(np.int64)
        b = a.copy()
        b[9:] = rng.permutation(a[9:])
        logs = []
        for deck in (a, b):
            log = np.full((sq.MAX_MOVES, 3), -9, dtype=np.int64)
            sq.play_on(
                np.full(16, -1, dtype=np.int64),
                np.zeros(52, dtype=np.bool_),
                np.empty((2, 5), dtype=np.int64),
                np.zeros(2, dtype=np.int64),
                deck[: s.dealt],
                deck[s.dealt],
                s.piles,
                s.waste,
                sq.LOOKAHEAD,
                np.zeros(s.dealt),
                TABLE,
                log,
            )
            logs.append(log[: np.flatnonzero(log[:, 0] == sq.TALON)[8] + 1])
        assert (logs[0] == logs[1]).all()


def test_ev_uses_the_piles():
    # some of these games put a card on a pile, and in 807-808 take one back
    rng = np.random.default_rng(2)
    used = back = 0
    for _ in range(20):
        deck = rng.permutation(52).astype(np.int64)
        for variant in ("square-waste", "square-reserve1", "square-reserve2"):
            s = SQUARES[variant]
            log = np.full((sq.MAX_MOVES, 3), -9, dtype=np.int64)
            sq.play_on(
                np.full(16, -1, dtype=np.int64),
                np.zeros(52, dtype=np.bool_),
                np.empty((2, 5), dtype=np.int64),
                np.zeros(2, dtype=np.int64),
                deck[: s.dealt],
                deck[s.dealt],
                s.piles,
                s.waste,
                sq.EV,
                np.zeros(s.dealt),
                TABLE,
                log,
            )
            used += (log[:, 2] >= sq.PILE).sum()
            back += (log[:, 0] >= 0).sum()
    assert used > 0 and back > 0


@pytest.mark.slow
def test_clairvoyant_bounds_every_policy_game_by_game_and_ev_beats_random():
    clair = sq.chunk_points("square", "clairvoyant", 3, 0, 200).ravel()
    ev = sq.chunk_points("square", "ev", 3, 0, 200).ravel()
    rand = sq.chunk_points("square", "random", 3, 0, 200).ravel()
    assert (clair >= ev).all() and (clair >= rand).all()
    assert ev.mean() > rand.mean() + 10  # measured: about 20 points apart
    assert (ev >= 61).sum() > 2 * (rand >= 61).sum()


def test_square_deals_shuffles_decks():
    # the clairvoyant bound is Shuffle's optimum on the same decks, chunk for chunk
    a = simulate("square", "clairvoyant", 300, seed=4).as_dict()
    b = sim.simulate("shuffle", "optimal", 300, seed=4).as_dict()
    for key in ("wins", "histogram", "mean"):
        assert a[key] == b[key]


@pytest.mark.parametrize("variant", list(SQUARES))
def test_same_seed_same_result_for_any_jobs(variant):
    a = simulate(variant, "ev", 250, seed=5, jobs=1).as_dict()
    assert a == simulate(variant, "ev", 250, seed=5, jobs=2).as_dict()
    assert a != simulate(variant, "ev", 250, seed=6, jobs=2).as_dict()


def test_piles_help():
    # on the same decks, a waste cannot hurt ev much, and reserves help more
    means = {v: simulate(v, "ev", 400, seed=8).mean for v in SQUARES}
    assert means["square-waste"] > means["square"] + 3
    assert means["square-reserve2"] > means["square-waste"]


def spelled(grid):
    return [("--" if c < 0 else format_card(c)) for c in grid]


@pytest.mark.parametrize("seed,policy", [(1, "ev"), (2, "ev"), (3, "lookahead"), (4, "lookahead")])
def test_best_place_marks_the_cell_each_policy_chose(seed, policy):
    # replay a game and stop at its 6th and 12th cards: best-place, from the face-up cards
    # alone, must mark the cell the kernel chose
    deck = np.random.default_rng(seed).permutation(52).astype(np.int64)
    log = np.full((sq.MAX_MOVES, 3), -9, dtype=np.int64)
    sq.play_on(
        np.full(16, -1, dtype=np.int64),
        np.zeros(52, dtype=np.bool_),
        np.empty((2, 5), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        deck[:16],
        deck[16],
        0,
        False,
        sq.POLICIES[policy],
        np.zeros(16),
        TABLE,
        log,
    )
    for k in (5, 11):
        before = np.full(16, -1, dtype=np.int64)
        for _, card, cell in log[:k]:
            before[cell] = card
        code, out, err = run(
            "best-place",
            *spelled(before),
            "--card",
            format_card(log[k, 1]),
            "--playouts",
            "0",
            "--json",
        )
        moves = json.loads(out)["moves"]
        assert code == 0 and [m["move"] for m in moves if m[policy]] == [
            f"r{log[k, 2] // 4 + 1}c{log[k, 2] % 4 + 1}"
        ]
        assert moves[0]["lookahead"]  # without playouts, the best policy's move first
        assert all(m["ahead"] >= m["expected"] - 1e-9 for m in moves)


def test_best_place_last_cell_is_exact_and_playouts_agree():
    # one empty cell: the expectation is the mean over every unseen starter; every playout
    # scores the grid with its starter, so their mean is near it
    deck = [int(c) for c in np.random.default_rng(9).permutation(52)]
    grid = deck[:16]
    card, grid[6] = grid[6], -1
    full = np.array([card if c < 0 else c for c in grid], dtype=np.int64)
    exact = np.mean([square_lines.grid_points(full, s, TABLE) for s in deck[16:]])
    code, out, _ = run(
        "best-place", *spelled(grid), "--card", format_card(card), "--playouts", "4000", "--json"
    )
    (move,) = json.loads(out)["moves"]
    assert code == 0 and move["move"] == "r2c3" and move["ev"]
    assert move["expected"] == pytest.approx(exact, abs=1e-9)
    assert abs(move["mean"] - exact) < 4 * move["se"]
    wins = np.mean([square_lines.grid_points(full, s, TABLE) >= 61 for s in deck[16:]])
    assert abs(move["win"] - wins) < 0.05


def test_best_place_text_and_the_waste():
    grid = [
        "5H",
        "6H",
        "7C",
        "KD",
        "JD",
        "5C",
        "--",
        "QS",
        "4D",
        "--",
        "9S",
        "9C",
        "--",
        "2C",
        "--",
        "3H",
    ]
    code, out, _ = run(
        "best-place",
        " ".join(grid[:4]),
        " ".join(grid[4:8]),
        " ".join(grid[8:12]),
        " ".join(grid[12:]),
        "--card",
        "5s",
        "--playouts",
        "50",
    )
    assert code == 0 and out.splitlines()[1:3] == ["   5H   6H   7C   KD", "   JD   5C   --   QS"]
    marks = [line.split("   ")[-1] for line in out.splitlines() if line.endswith("'s move")]
    assert sum(m.startswith("ev") for m in marks) == 1
    assert sum("lookahead" in m for m in marks) == 1
    code, out, _ = run(
        "best-place",
        *grid,
        "--card",
        "5S",
        "--variant",
        "square-waste",
        "--waste",
        "AS 2S",
        "--playouts",
        "0",
        "--json",
    )
    moves = {m["move"]: m for m in json.loads(out)["moves"]}
    assert code == 0 and set(moves) == {"r2c3", "r3c2", "r4c1", "r4c3", "waste"}
    # a full waste is no move
    code, out, _ = run(
        "best-place",
        *grid,
        "--card",
        "5S",
        "--variant",
        "square-waste",
        "--waste",
        "AS 2S 3S 4S 6S",
        "--playouts",
        "0",
        "--json",
    )
    assert code == 0 and "waste" not in {m["move"] for m in json.loads(out)["moves"]}


def test_deal_and_simulate_commands():
    code, out, _ = run("deal", "--variant", "square", "--pysol-game", "1", "--json")
    d = json.loads(out)
    assert code == 0 and parse_cards(d["talon"]) == layout("square", talon(1))["talon"]
    assert len(d["set_aside"]) == 35 and d["starter"] == "6H"
    code, out, _ = run("deal", "--variant", "square-reserve2", "--pysol-game", "1")
    assert (
        code == 0
        and "set aside unseen: 25 cards" in out
        and "starter, the talon's last card: 6H" in out
    )
    code, out, _ = run(
        "simulate", "--variant", "square", "-n", "200", "--seed", "3", "--json", "--quiet"
    )
    assert (
        code == 0 and json.loads(out)["mean"] == sq.chunk_points("square", "ev", 3, 0, 200).mean()
    )
    code, out, _ = run(
        "simulate",
        "--variant",
        "square",
        "--policy",
        "clairvoyant",
        "--win-only",
        "-n",
        "50",
        "--quiet",
        "--json",
    )
    assert code == 0 and json.loads(out)["histogram"] is None


def test_bracket_pairs_the_best_policy_ev_and_the_bound_on_simulates_decks():
    code, out, _ = run(
        "bracket", "--variant", "square", "-n", "50", "--seed", "2", "--json", "--quiet"
    )
    d = json.loads(out)
    best = simulate("square", "lookahead", 50, seed=2)
    ev = simulate("square", "ev", 50, seed=2)
    clair = simulate("square", "clairvoyant", 50, seed=2, win_only=True)
    assert code == 0 and d["policy"] == "lookahead" and d["win_rate"] == best.win_rate
    assert d["ev_rate"] == ev.win_rate and d["clairvoyant"] == clair.win_rate
    assert d["width"] == pytest.approx(clair.win_rate - best.win_rate)
    assert d["gain"] == pytest.approx(best.win_rate - ev.win_rate)
    assert d["width_ci"][0] > 0.3  # measured: clairvoyance wins 54 points more
    code, out, err = run("bracket", "--variant", "square", "-n", "30", "--next-hands", "2")
    assert code == 2 and "--next-hands" in err


def test_coach_taking_every_advice_plays_lookahead_and_sees_only_the_face_up_cards():
    from cribsolve.games.solitaire.square_advice import Walk, best_place

    lay = layout("square", talon(14))
    walk = Walk(lay["talon"], lay["starter"])
    other = (
        np.random.default_rng(0)
        .permutation([c for c in range(52) if c not in lay["talon"][:6]])
        .tolist()
    )
    twin = Walk(lay["talon"][:6] + other[:10], other[10])  # the same first six cards only
    while not walk.over:
        advice = best_place(walk.grid, walk.card, samples=30, top=2)
        if len(walk.moves) < 6:
            again = best_place(twin.grid, twin.card, samples=30, top=2)
            assert [(p.cell, p.expected, p.ahead, p.win) for p in again] == [
                (p.cell, p.expected, p.ahead, p.win) for p in advice
            ]
            twin.choose(advice[0].cell, again)
        walk.choose(advice[0].cell, advice)
    deck = np.array(lay["talon"] + [lay["starter"]], dtype=np.int64)
    assert walk.score == sq.play_square(deck, 16, 0, False, sq.LOOKAHEAD, np.zeros(16), TABLE)
    code, out, _ = run(
        "play",
        "--variant",
        "square",
        "--pysol-game",
        "14",
        "--top",
        "1",
        "--samples",
        "10",
        stdin=b"\n" * 16,
    )
    assert code == 0 and f"= {walk.score}, " in out and out.count("your cell") == 16
    code, out, _ = run(
        "play", "--variant", "square", "--seed", "3", "--samples", "10", stdin=b"r1c1\nr1c1\n5 5\n"
    )
    assert code == 0 and "'r1c1' is not an empty cell" in out and "input ended at card 2" in out
    assert max(map(len, out.splitlines())) <= 80  # the coach's lines fit a terminal


def test_simulate_plays_square_only_through_square_simulate():
    with pytest.raises(ValueError, match="square.simulate"):
        sim.simulate("square", "ev", 10)
