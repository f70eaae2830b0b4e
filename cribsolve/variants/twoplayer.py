"""Two-player cribbage (docs/RULES.md §3, §5): whole deals and games under a spec
(variants/spec.py, passed to kernels as ``pr``; the show's table is built for its target sum).

Players are 0 and 1; in a deal, seat 0 is the pone and seat 1 the dealer. Order of counting:
heels (dealer) when the starter is turned, the play, then the show: pone's hand, dealer's
hand, dealer's crib. The game ends the moment a score reaches the game length; that player
wins, or under lowball loses.

Policies: discards 'ev' (the most expected hand +/- crib over every starter and every two
opponent cards, exact, the opponent's cards uniform: the closed form of analysis/fastev.py)
or 'random'; pegging 'greedy', 'lookahead' or 'random' (pegging.py).
"""
import numpy as np
from ..jit import njit, prange

from ..analysis.fastev import expected_crib_two_unknown, expected_hand, unseen_counts
from ..cards import JACK, RANK
from ..pegging import add_points, play, unseen_cards
from ..scoring.kernels import best_wild, score_parts
from ..scoring.table import score5
from .patience import ev_discard
from .spec import CRIB_SIZE, GAME_LENGTH, HAND_SIZE, LOWBALL, STARTERS, TARGET, WILD_RANK

# a policy is (discard, pegging): discard 0 random, 1 ev; pegging as in pegging.POLICIES
PARTS = ("heels", "dealer_pegging", "pone_pegging", "pone_hand", "dealer_hand", "crib")


@njit(cache=True)
def throw_options(h, t):
    """(kept, thrown) positions of every way to throw t of h cards, in lexicographic order
    (the order of analysis.discard.option_indices, so ties break alike)."""
    n = 1
    for i in range(t):
        n = n * (h - i) // (i + 1)
    disc = np.empty((n, t), dtype=np.int64)
    keep = np.empty((n, h - t), dtype=np.int64)
    idx = np.arange(t)
    for o in range(n):
        disc[o] = idx
        k = 0
        j = 0
        for x in range(h):
            if j < t and idx[j] == x:
                j += 1
            else:
                keep[o, k] = x
                k += 1
        j = t - 1
        while j >= 0 and idx[j] == h - t + j:
            j -= 1
        if j >= 0:
            idx[j] += 1
            for q in range(j + 1, t):
                idx[q] = idx[q - 1] + 1
    return keep, disc


@njit(cache=True)
def show_points(cards, nheld, table, full_flush, pr):
    """Show points of ``cards`` (held first, then the starters): the best substitution for
    wild cards, the 5-card table when it applies, the general scorer otherwise."""
    wild = pr[WILD_RANK]
    if wild:
        for c in cards:
            if RANK[c] == wild:
                return best_wild(cards, nheld, pr[TARGET], full_flush, wild, cards.copy())
    if cards.shape[0] == 5 and nheld == 4:
        return score5(table, cards[0], cards[1], cards[2], cards[3], cards[4], full_flush)
    return score_parts(cards, nheld, pr[TARGET], full_flush, np.zeros(5, dtype=np.int64))


CRIB_DRAWS = 32     # draws of the unknown crib cards and starter per throw, where not exact


@njit(cache=True)
def crib_draws(unseen, t, m):
    """m draws of t + 1 distinct unseen cards (the opponent's throw, then the last starter)."""
    draws = np.empty((m, t + 1), dtype=np.int64)
    pool = unseen.copy()
    for d in range(m):
        for j in range(t + 1):              # a partial shuffle
            r = j + np.random.randint(pool.shape[0] - j)
            pool[j], pool[r] = pool[r], pool[j]
            draws[d, j] = pool[j]
    return draws


@njit(cache=True)
def throw_parts(dealt, keep_idx, disc_idx, unseen, first, table, pr, draws):
    """For every throw: (E[hand], E[crib], E[crib^2]). The hand is exact over the unknown
    starter (``first`` is the starter already turned with two cut cards, else -1). With no
    ``draws`` the crib is the closed form of the standard crib of 4 and one starter (its
    second moment is not computed); otherwise it is averaged over the draws (the same for every
    throw)."""
    t = disc_idx.shape[1]
    k = keep_idx.shape[1]
    ns = pr[STARTERS]
    wild = pr[WILD_RANK]
    out = np.zeros((keep_idx.shape[0], 3))
    hand = np.empty(k + ns, dtype=np.int64)
    crib = np.empty(2 * t + ns, dtype=np.int64)
    n, u = unseen_counts(unseen)
    for o in range(keep_idx.shape[0]):
        for j in range(k):
            hand[j] = dealt[keep_idx[o, j]]
        if k == 4 and ns == 1 and wild == 0:
            eh = expected_hand(hand[0], hand[1], hand[2], hand[3], unseen, table)
        else:
            if ns == 2:
                hand[k] = first
            eh = 0.0
            wild_value = -1.0          # a wild starter stands for the best card, whichever it is
            for c in unseen:
                if wild and RANK[c] == wild:
                    if wild_value < 0:
                        hand[k + ns - 1] = c
                        wild_value = show_points(hand, k, table, False, pr)
                    eh += wild_value
                    continue
                hand[k + ns - 1] = c
                eh += show_points(hand, k, table, False, pr)
            eh /= unseen.shape[0]
        out[o, 0] = eh
        if draws.shape[0] == 0:
            out[o, 1] = expected_crib_two_unknown(dealt[disc_idx[o, 0]], dealt[disc_idx[o, 1]],
                                                  unseen, n, u, table, True)
            continue
        for j in range(t):
            crib[j] = dealt[disc_idx[o, j]]
        if ns == 2:
            crib[2 * t] = first
        for m in range(draws.shape[0]):
            for j in range(t):
                crib[t + j] = draws[m, j]
            crib[2 * t + ns - 1] = draws[m, t]
            c = show_points(crib, 2 * t, table, True, pr)
            out[o, 1] += c
            out[o, 2] += c * c
        out[o, 1:] /= draws.shape[0]
    return out


@njit(cache=True)
def expected_throw_values(dealt, keep_idx, disc_idx, unseen, first, dealer, table, pr):
    """aim * (E[hand] + sign * E[crib]) of every throw (throw_parts: the crib in closed form
    for the standard crib of 4, one starter and no wild cards, else over CRIB_DRAWS draws)."""
    t = disc_idx.shape[1]
    closed = t == 2 and pr[STARTERS] == 1 and pr[WILD_RANK] == 0
    draws = crib_draws(unseen, t, 0 if closed else CRIB_DRAWS)
    parts = throw_parts(dealt, keep_idx, disc_idx, unseen, first, table, pr, draws)
    aim = -1.0 if pr[LOWBALL] else 1.0
    return aim * (parts[:, 0] + (1.0 if dealer else -1.0) * parts[:, 1])


@njit(cache=True)
def choose_throw(dealt, dealer, discard_policy, table, pr, keep_idx, disc_idx, first):
    """The option (a row of keep_idx / disc_idx) a player throws to the crib: random, or the
    best expected value. The standard deal keeps the closed form of patience.ev_discard."""
    if discard_policy == 0:
        return np.random.randint(keep_idx.shape[0])
    seen = np.zeros(53, dtype=np.int64)
    for c in dealt:
        seen[c] += 1
    if first >= 0:
        seen[first] += 1
    unseen = unseen_cards(seen, pr)
    if dealt.shape[0] == 6 and disc_idx.shape[1] == 2 and pr[STARTERS] == 1 and \
            pr[WILD_RANK] == 0:
        return ev_discard(dealt, unseen, table, 1.0 if dealer else -1.0, True,
                          -1.0 if pr[LOWBALL] else 1.0)
    return np.argmax(expected_throw_values(dealt, keep_idx, disc_idx, unseen, first, dealer,
                                           table, pr))


@njit(cache=True)
def _heels(s, parts, seat_scores, target, pr):
    """A jack turned as a cut card (not a wild one): 2 to the dealer. True if that reached
    ``target``."""
    if RANK[s] == JACK and pr[WILD_RANK] != JACK:
        parts[0] += add_points(seat_scores, 1, 2, target, pr)
        return 0 < target <= seat_scores[1]
    return False


@njit(cache=True)
def play_deal(deck, policies, seat_scores, target, table, parts, pr):
    """One deal from a shuffled deck: with h = the hand size, seat 0 (pone) gets deck[0:h],
    seat 1 (dealer) deck[h:2h], then the cut cards (with two, the first is turned before the
    throw and both players see it). policies[seat] = (discard, pegging). Points go into
    seat_scores and into parts (see PARTS). Returns the seat that reached ``target`` (0: play
    the whole deal), or -1."""
    h = pr[HAND_SIZE]
    t = pr[CRIB_SIZE] // 2
    k = h - t
    ns = pr[STARTERS]
    starters = deck[2 * h:2 * h + ns]
    first = starters[0] if ns == 2 else -1
    if first >= 0 and _heels(first, parts, seat_scores, target, pr):
        return 1
    keep_idx, disc_idx = throw_options(h, t)
    hands = np.empty((2, k), dtype=np.int64)
    crib = np.empty(2 * t + ns, dtype=np.int64)
    known = np.zeros((2, 53), dtype=np.int64)
    for seat in range(2):
        dealt = deck[h * seat:h * seat + h]
        o = choose_throw(dealt, seat == 1, policies[seat, 0], table, pr, keep_idx, disc_idx,
                         first)
        for j in range(k):
            hands[seat, j] = dealt[keep_idx[o, j]]
        for j in range(t):
            crib[t * seat + j] = dealt[disc_idx[o, j]]
        for c in dealt:
            known[seat, c] += 1
    for s in starters:
        known[0, s] += 1
        known[1, s] += 1
    if _heels(starters[ns - 1], parts, seat_scores, target, pr):
        return 1
    used = np.zeros((2, k), dtype=np.bool_)
    series = np.zeros(2 * k, dtype=np.int64)
    st = np.array([0, 0, 0, -1], dtype=np.int64)
    pegged = np.zeros(2, dtype=np.int64)
    winner = play(hands, used, series, st, policies[:, 1].copy(), known, pegged, seat_scores,
                  target, pr)
    parts[1] += pegged[1]
    parts[2] += pegged[0]
    if winner >= 0:
        return winner
    crib[2 * t:] = starters
    show = np.empty(k + ns, dtype=np.int64)
    for q in range(3):                  # pone's hand, dealer's hand, dealer's crib
        seat = 0 if q == 0 else 1
        if q < 2:
            show[:k] = hands[seat]
            show[k:] = starters
            pts = show_points(show, k, table, False, pr)
        else:
            pts = show_points(crib, 2 * t, table, True, pr)
        parts[3 + q] += add_points(seat_scores, seat, pts, target, pr)
        if 0 < target <= seat_scores[seat]:
            return seat
    return -1


@njit(cache=True)
def play_game(seed, policies, table, pr, out):
    """A whole game between players 0 and 1 (policies[player] = (discard, pegging)).

    out: [winner, first dealer, deals begun, winner's score, loser's score, completed deals,
    then the PARTS summed over completed deals, the largest hand or crib counted]."""
    game_length = pr[GAME_LENGTH]
    np.random.seed(seed)
    while True:                # cut for deal among the ordinary cards: the lower card deals
        cut = np.random.permutation(52)[:2]
        if RANK[cut[0]] != RANK[cut[1]]:
            break
    dealer = 0 if RANK[cut[0]] < RANK[cut[1]] else 1
    out[1] = dealer
    full = unseen_cards(np.zeros(53, dtype=np.int64), pr)     # the spec's whole deck
    scores = np.zeros(2, dtype=np.int64)
    seat_pol = np.empty((2, 2), dtype=np.int64)
    seat_scores = np.zeros(2, dtype=np.int64)
    parts = np.zeros(6, dtype=np.int64)
    deals = 0
    complete = 0
    while True:
        pone = 1 - dealer
        seat_pol[0] = policies[pone]
        seat_pol[1] = policies[dealer]
        seat_scores[0] = scores[pone]
        seat_scores[1] = scores[dealer]
        parts[:] = 0
        deals += 1
        w = play_deal(np.random.permutation(full), seat_pol, seat_scores, game_length, table,
                      parts, pr)
        scores[pone] = seat_scores[0]
        scores[dealer] = seat_scores[1]
        out[12] = max(out[12], parts[3], parts[4], parts[5])
        if w >= 0:
            reached = pone if w == 0 else dealer
            winner = 1 - reached if pr[LOWBALL] else reached
            break
        complete += 1
        out[6:12] += parts
        dealer = pone
    out[0] = winner
    out[2] = deals
    out[3] = scores[winner]
    out[4] = scores[1 - winner]
    out[5] = complete


@njit(cache=True, parallel=True)
def play_games(seeds, policies, table, pr):
    """Many games, one per seed, over threads; rows as play_game's ``out``."""
    out = np.zeros((seeds.shape[0], 13), dtype=np.int64)
    for i in prange(seeds.shape[0]):
        play_game(seeds[i], policies, table, pr, out[i])
    return out


@njit(cache=True, parallel=True)
def deal_outcomes(seeds, policies, table, pr):
    """Whole deals (no game end), one per seed: rows of PARTS, for the odds table."""
    out = np.zeros((seeds.shape[0], 6), dtype=np.int64)
    full = unseen_cards(np.zeros(53, dtype=np.int64), pr)
    for i in prange(seeds.shape[0]):
        np.random.seed(seeds[i])
        sc = np.zeros(2, dtype=np.int64)
        play_deal(np.random.permutation(full), policies, sc, 0, table, out[i], pr)
    return out
