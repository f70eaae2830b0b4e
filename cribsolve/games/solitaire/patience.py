"""PySolFC's Cribbage Patience (955) and Patience II (980) (rules: docs/RULES.md §4): the kernels
that deal, discard and score whole games from an array of shuffled decks, and the policies
that choose the discards from the cards seen so far, never the face-down ones:

  RANDOM       any discard, uniformly.
  EV           the most expected points this deal, exact over every unseen starter and
               face-down crib pair (Patience II's first discard: the two crib cards still to
               come taken as unseen).
  WIN          the highest P(finishing at 80 or more): this deal's exact point distribution
               against W[k][s], P(win) from score s with k deals left playing EV
               (simulate.win_table); EV where the game is decided. In Patience II it makes the
               second discard, EV the first.
  DECK         (Patience) WIN with the deck value (deckvalue.py) in place of W.
  LOOKAHEAD    (Patience II) WIN's second discard, and a first by P(win) averaged over
               second hands drawn from the unseen cards (lookahead_first); in the last deal
               over its seven possible second hands, so that deal is played optimally.
  CLAIRVOYANT  sees the face-down cards, the starter and (Patience II) the second hand before
               choosing: an upper bound.

Measurements and history: docs/research.md.
"""

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.core.expect import N_CLASSES, OFFSET, WIDTH, options_distribution
from cribsolve.core.fastev import OPT_DISC, OPT_KEEP, ev_discard
from cribsolve.core.scoring.table import held_by_starter, score5
from cribsolve.games.solitaire.deckvalue import continuation
from cribsolve.games.solitaire.facts import SOLITAIRES
from cribsolve.infra.jit import njit, prange, threaded, variant

RANDOM, EV, CLAIRVOYANT, WIN, LOOKAHEAD, DECK = 0, 1, 2, 3, 4, 5
POLICIES = {
    "random": RANDOM,
    "ev": EV,
    "win": WIN,
    "clairvoyant": CLAIRVOYANT,
    "lookahead": LOOKAHEAD,
    "deck": DECK,
}
# LOOKAHEAD's first discard before the last deal: every discard is weighed over LOOK_FIRST
# drawn second hands, and the LOOK_TOP best of them over LOOK_HANDS, where the close calls are
LOOK_HANDS, LOOK_FIRST, LOOK_TOP = 128, 16, 4
LOOK_RAND = 9  # uniforms per game: 8 for RANDOM, then the key of LOOKAHEAD's drawn hands
WIN_AT = SOLITAIRES["patience"].win_at  # Patience II is won at the same score

# the 15 ways to keep 4 of 6: positions of the kept and the discarded cards
NO_WINS = np.empty(0)
# What a compiled copy of the games carries: play_games sets each to False (jit.variant) for
# the other game, and SEARCH_ON for the policies that throw by expected points alone.
PATIENCE_ON = PATIENCE2_ON = SEARCH_ON = True
MAX_DEAL_POINTS = 3 * 29 + 2  # Patience II's three hands and heels; Patience's is lower


@njit(cache=True)
def _in_doubt(w_next, score):
    """Whether the discard can change P(win): not already certain to win or to lose."""
    return w_next[min(score, WIN_AT)] < 1.0 and w_next[min(score + MAX_DEAL_POINTS, WIN_AT)] > 0.0


@njit(cache=True)
def unseen_of(seen):
    return np.flatnonzero(~seen[:52]).astype(np.int64)


@njit(cache=True)
def deal_points(hand, o, crib_other, s, table):
    """Points of one deal: kept hand + crib (discard o + two other cards), both + starter."""
    k = OPT_KEEP[o]
    d = OPT_DISC[o]
    return score5(table, hand[k[0]], hand[k[1]], hand[k[2]], hand[k[3]], s, False) + score5(
        table, hand[d[0]], hand[d[1]], crib_other[0], crib_other[1], s, False
    )


@njit(cache=True)
def deal_distributions(hand, unseen, table, uniform):
    """(hists, means) of the 15 discards of a solitaire hand: the exact distribution of the
    deal's points over every starter and face-down crib pair (expect.options_distribution)."""
    keeps = np.empty((15, 4), dtype=np.int64)
    cribs = np.empty((15, 2), dtype=np.int64)
    for o in range(15):
        for j in range(4):
            keeps[o, j] = hand[OPT_KEEP[o, j]]
        for j in range(2):
            cribs[o, j] = hand[OPT_DISC[o, j]]
    hists = np.zeros((15, WIDTH))
    means = np.zeros((15, 2))
    options_distribution(keeps, cribs, unseen, 1, uniform, table, False, True, hists, means)
    return hists, means


@njit(cache=True)
def win_discard(hand, seen, score, w_next, table, uniform):
    """Patience: the discard with the highest P(win), from the exact distribution of this
    deal's points (heels included) and w_next[s] = P(win from s with the deals left after it).
    Ties (e.g. a certain win) go to the higher expected points."""
    hists, means = deal_distributions(hand, unseen_of(seen), table, uniform)
    p = np.zeros(15)
    for o in range(15):
        for i in range(OFFSET, WIDTH):
            if hists[o, i] > 0.0:
                p[o] += hists[o, i] * w_next[min(score + i - OFFSET, WIN_AT)]
    return _best(p, means[:, 0] + means[:, 1]), p, means[:, 0] + means[:, 1]


@njit(cache=True)
def _best(p, ev):
    """Index of the highest p, ties (within 1e-12) broken by the higher ev."""
    pick = 0
    for o in range(1, p.shape[0]):
        if p[o] > p[pick] + 1e-12 or (abs(p[o] - p[pick]) <= 1e-12 and ev[o] > ev[pick]):
            pick = o
    return pick


@njit(cache=True)
def kept_points(hand, unseen, table):
    """out[o, i]: the points of ``hand``'s four kept by discard o with the starter unseen[i],
    counted once for every crib they meet."""
    out = np.empty((15, unseen.shape[0]), dtype=np.int64)
    for o in range(15):
        k = OPT_KEEP[o]
        held_by_starter(
            table, hand[k[0]], hand[k[1]], hand[k[2]], hand[k[3]], unseen, False, out[o]
        )
    return out


@njit(cache=True)
def second_discard_values(k1, h2, first, seen, score, w_next, table):
    """Patience II second discard, exact over the unseen starter: for each of the 15 discards,
    E[deal points] (first hand kept k1, second hand, crib = first + discard, heels) and, when
    w_next is not empty, P(win) = E[w_next[score + points]]."""
    unseen = unseen_of(seen)
    hand1 = np.empty(unseen.shape[0], dtype=np.int64)
    held_by_starter(table, k1[0], k1[1], k1[2], k1[3], unseen, False, hand1)
    ev, p = np.zeros(15), np.zeros(15)
    _second_values(
        hand1, kept_points(h2, unseen, table), h2, first, unseen, score, w_next, table, ev, p
    )
    return ev, p


@njit(cache=True)
def _second_values(hand1, hand2, h2, first, unseen, score, w_next, table, ev, p):
    """second_discard_values from the hands' points by starter (unseen[i]), into ev and p:
    hand1[i], the first hand's four kept; hand2[o, i], the second hand's (kept_points)."""
    n = unseen.shape[0]
    crib = np.empty(n, dtype=np.int64)
    for o in range(15):
        d = OPT_DISC[o]
        held_by_starter(table, h2[d[0]], h2[d[1]], first[0], first[1], unseen, False, crib)
        e = 0
        q = 0.0
        for i in range(n):
            pts = hand1[i] + hand2[o, i] + crib[i] + 2 * (RANK[unseen[i]] == JACK)
            e += pts
            if w_next.shape[0]:
                q += w_next[min(score + pts, WIN_AT)]
        ev[o] = e / n
        p[o] = q / n


@njit(cache=True)
def second_discard(k1, h2, first, seen, score, w_next, table):
    """(pick, value): by P(win) when w_next is given, else by expected points."""
    ev, p = second_discard_values(k1, h2, first, seen, score, w_next, table)
    return _pick(ev, p, w_next)


@njit(cache=True)
def _pick(ev, p, w_next):
    """(pick, value) of a discard's values: by P(win) when w_next is given, else by ev."""
    if w_next.shape[0]:
        o = _best(p, ev)
        return o, p[o]
    o = _best(ev, ev)
    return o, ev[o]


@njit(cache=True)
def patience_deal(deck, k):
    """Cribbage Patience's deal k from the top of the talon: (the two face-down crib cards,
    the six-card hand, the starter), after the 7 cards removed unseen."""
    pos = 7 + 9 * k
    return deck[pos : pos + 2], deck[pos + 2 : pos + 8], deck[pos + 8]


@njit(cache=True)
def patience2_deal(deck, k):
    """Cribbage Patience II's deal k from the top of the talon: (the first hand, the second
    hand, the starter)."""
    pos = 13 * k
    return deck[pos : pos + 6], deck[pos + 6 : pos + 12], deck[pos + 12]


@njit(cache=True)
def play_patience(deck, policy, rand, table, wins, coefs, out):
    """One game of Cribbage Patience; points of each deal into ``out``. DECK's continuation
    comes from ``coefs`` (deckvalue.py), WIN's from W alone."""
    seen = np.zeros(53, dtype=np.bool_)
    uniform = np.ones(N_CLASSES)
    w_next = np.empty(WIN_AT + 1)
    score = 0
    for deal in range(5):
        crib2, hand, s = patience_deal(deck, deal)
        for c in hand:
            seen[c] = True
        if policy == RANDOM:
            o = int(rand[deal] * 15)
        elif policy == EV or (policy in (WIN, DECK) and not _in_doubt(wins[4 - deal], score)):
            o = ev_discard(hand, unseen_of(seen), table)
        elif SEARCH_ON and (policy == WIN or policy == DECK):
            if policy == DECK:
                continuation(wins, coefs, 4 - deal, seen, w_next)
            else:
                w_next[:] = wins[4 - deal]
            o = win_discard(hand, seen, score, w_next, table, uniform)[0]
        else:
            o = 0
            top = -1
            for q in range(15):
                v = deal_points(hand, q, crib2, s, table)
                if v > top:
                    top = v
                    o = q
        out[deal] = deal_points(hand, o, crib2, s, table) + 2 * (RANK[s] == JACK)
        score += out[deal]
        seen[crib2[0]] = True
        seen[crib2[1]] = True
        seen[s] = True


@njit(cache=True)
def play_patience2(deck, policy, rand, table, wins, out):
    """One game of Cribbage Patience II; points of each deal into ``out``."""
    seen = np.zeros(53, dtype=np.bool_)
    first = np.empty(2, dtype=np.int64)
    k1 = np.empty(4, dtype=np.int64)
    score = 0
    for deal in range(4):
        h1, h2, s = patience2_deal(deck, deal)
        for c in h1:
            seen[c] = True
        if policy == CLAIRVOYANT:
            top = -1
            o1 = o2 = 0
            for a in range(15):
                first[0] = h1[OPT_DISC[a, 0]]
                first[1] = h1[OPT_DISC[a, 1]]
                k = OPT_KEEP[a]
                h1pts = score5(table, h1[k[0]], h1[k[1]], h1[k[2]], h1[k[3]], s, False)
                for b in range(15):
                    v = h1pts + deal_points(h2, b, first, s, table)
                    if v > top:
                        top, o1, o2 = v, a, b
        else:
            if policy == RANDOM:
                o1 = int(rand[2 * deal] * 15)
            elif SEARCH_ON and policy == LOOKAHEAD and _in_doubt(wins[3 - deal], score):
                key = np.uint64(rand[8] * 9007199254740992.0)
                o1 = lookahead_first(h1, seen, score, wins[3 - deal], table, key, deal)
            else:
                o1 = ev_discard(h1, unseen_of(seen), table)
            first[0] = h1[OPT_DISC[o1, 0]]
            first[1] = h1[OPT_DISC[o1, 1]]
            for j in range(4):
                k1[j] = h1[OPT_KEEP[o1, j]]
            for c in h2:
                seen[c] = True
            if policy == RANDOM:
                o2 = int(rand[2 * deal + 1] * 15)
            elif (
                SEARCH_ON
                and (policy == WIN or policy == LOOKAHEAD)
                and _in_doubt(wins[3 - deal], score)
            ):
                o2 = second_discard(k1, h2, first, seen, score, wins[3 - deal], table)[0]
            else:
                o2 = second_discard(k1, h2, first, seen, score, NO_WINS, table)[0]
        first[0] = h1[OPT_DISC[o1, 0]]
        first[1] = h1[OPT_DISC[o1, 1]]
        k = OPT_KEEP[o1]
        out[deal] = (
            score5(table, h1[k[0]], h1[k[1]], h1[k[2]], h1[k[3]], s, False)
            + deal_points(h2, o2, first, s, table)
            + 2 * (RANK[s] == JACK)
        )
        score += out[deal]
        for c in h2:
            seen[c] = True
        seen[s] = True


def play_games(decks, variant2, policy, rand, table, wins, coefs):
    """Points per deal of every game (rows of ``decks``), games spread over threads.

    wins[k, s]: P(win from score s with k deals left), used by the WIN policy; coefs, the
    deck value's (deckvalue.py), by DECK.
    """
    kernel = variant(
        _play_games,
        PATIENCE_ON=not variant2,
        PATIENCE2_ON=bool(variant2),
        SEARCH_ON=policy not in (RANDOM, EV, CLAIRVOYANT),
    )
    return threaded(
        kernel, np.arange(decks.shape[0]), decks, variant2, policy, rand, table, wins, coefs
    )


@njit(cache=True, nogil=True)
def _play_games(rows, decks, variant2, policy, rand, table, wins, coefs):
    out = np.zeros((rows.shape[0], 4 if variant2 else 5), dtype=np.int64)
    for j in range(rows.shape[0]):
        i = rows[j]
        if variant2:
            if PATIENCE2_ON:
                play_patience2(decks[i], policy, rand[i], table, wins, out[j])
        elif PATIENCE_ON:
            play_patience(decks[i], policy, rand[i], table, wins, coefs, out[j])
    return out


@njit(cache=True)
def draw_cards(unseen, u, out):
    """len(out) distinct cards of ``unseen``, uniformly: a partial Fisher-Yates shuffle driven by
    the uniforms u."""
    pool = unseen.copy()
    n = pool.shape[0]
    for j in range(out.shape[0]):
        i = j + int(u[j] * (n - j))
        pool[j], pool[i] = pool[i], pool[j]
        out[j] = pool[j]


@njit(cache=True)
def stream_uniform(key, i):
    """The i-th uniform of the stream ``key`` (splitmix64): LOOKAHEAD draws as many hands as it
    needs from one number per game, the same on any thread."""
    z = key + np.uint64(i + 1) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.float64(z >> np.uint64(11)) / 9007199254740992.0


@njit(cache=True)
def lookahead_hands(unseen, key, deal):
    """LOOKAHEAD's LOOK_HANDS second hands of deal ``deal``, drawn from ``unseen`` by the
    game's stream ``key``."""
    hands = np.empty((LOOK_HANDS, 6), dtype=np.int64)
    u = np.empty(6)
    for m in range(LOOK_HANDS):
        for j in range(6):
            u[j] = stream_uniform(key, (deal * LOOK_HANDS + m) * 6 + j)
        draw_cards(unseen, u, hands[m])
    return hands


@njit(cache=True)
def lookahead_first(h1, seen, score, w_next, table, key, deal):
    """LOOKAHEAD's first discard: the highest P(win) averaged over second hands. In the last
    deal those are its seven possible ones; before it, every discard is weighed over the first
    LOOK_FIRST hands drawn, and the LOOK_TOP best of them over all LOOK_HANDS."""
    unseen = unseen_of(seen)
    active = np.ones(15, dtype=np.bool_)
    if unseen.shape[0] == 7:
        hands = last_second_hands(unseen)
    else:
        hands = lookahead_hands(unseen, key, deal)
    hand1 = kept_points(h1, unseen, table)
    vals = np.zeros((hands.shape[0], 15))
    for m in range(hands.shape[0]):
        if m == LOOK_FIRST:  # the last deal's seven never get here
            order = np.argsort(-vals[:m].sum(axis=0), kind="mergesort")
            active[:] = False
            for t in range(LOOK_TOP):
                active[order[t]] = True
        _lookahead_row(h1, hand1, unseen, hands[m], score, w_next, table, vals[m], active)
    p = np.where(active, vals.sum(axis=0), -1.0)
    return _best(p, p)


@njit(cache=True)
def last_second_hands(unseen):
    """The last deal's second hands: its first hand seen, its other seven cards are the only
    ones unseen, and each of the seven, equally likely the starter, leaves the other six."""
    out = np.empty((7, 6), dtype=np.int64)
    for m in range(7):
        j = 0
        for i in range(7):
            if i != m:
                out[m, j] = unseen[i]
                j += 1
    return out


@njit(cache=True)
def _lookahead_row(h1, hand1, unseen1, h2, score, w_next, table, out, active):
    """out[a]: the value of the best second discard with second hand h2 after first discard a
    (second_discard's), for each ``active`` a, each hand's points by starter counted once
    (hand1: kept_points of h1 over unseen1, the cards unseen before h2, the same for every h2)."""
    left = np.ones(unseen1.shape[0], dtype=np.bool_)  # those still unseen once h2 is
    for i in range(unseen1.shape[0]):
        for c in h2:
            if unseen1[i] == c:
                left[i] = False
    at = np.flatnonzero(left)
    unseen = unseen1[at]
    hand2 = kept_points(h2, unseen, table)
    kept1 = np.empty((15, at.shape[0]), dtype=np.int64)  # hand1 at those starters
    for o in range(15):
        for i in range(at.shape[0]):
            kept1[o, i] = hand1[o, at[i]]
    first = np.empty(2, dtype=np.int64)
    ev, p = np.empty(15), np.empty(15)
    for a in range(15):
        if not active[a]:
            continue
        first[0] = h1[OPT_DISC[a, 0]]
        first[1] = h1[OPT_DISC[a, 1]]
        _second_values(kept1[a], hand2, h2, first, unseen, score, w_next, table, ev, p)
        out[a] = _pick(ev, p, w_next)[1]


@njit(cache=True, parallel=True)
def lookahead_values(h1, seen, second_hands, score, w_next, table):
    """Patience II first discard: for each sampled second hand (rows) and each first discard,
    the value of the best second discard: P(win) when w_next is given, else E[deal points]."""
    out = np.empty((second_hands.shape[0], 15))
    active = np.ones(15, dtype=np.bool_)
    unseen = unseen_of(seen)
    hand1 = kept_points(h1, unseen, table)
    for i in prange(second_hands.shape[0]):
        _lookahead_row(h1, hand1, unseen, second_hands[i], score, w_next, table, out[i], active)
    return out
