"""What the opponent's throw says about its hand: its holdings weighted by its throw model.

The opponent was dealt six cards and threw the two its policy prefers, so a holding of its
unplayed cards is likelier when, with the cards it has already laid, it makes a four that
policy keeps. The model works by ranks, as the pegging search does: an option of six ranks is
worth the kept four's mean show over the cut (each rank as likely as its copies outside the
six) plus, for the dealer, or minus, for the pone, the thrown pair's mean crib with two more
random cards and a cut (crib_values); the policy keeps the best four (tied fours share). A
holding's weight is the number of ways the unseen cards make it and a throw, summed over the
throws after which the policy keeps exactly its four.
"""
import numpy as np

from .jit import njit
from .scoring.kernels import N_RANKS
from .variants.spec import DECKS, JOKERS, LOWBALL, WILD_RANK


@njit(cache=True)
def _points(table, a, b, c, d, s):
    return table[(((a * N_RANKS + b) * N_RANKS + c) * N_RANKS + d) * N_RANKS + s]


@njit(cache=True)
def crib_values(table):
    """crib[r1, r2]: the mean rank points of a crib holding r1, r2, two other cards and the
    cut, the three drawn from a deck less r1 and r2."""
    out = np.zeros((N_RANKS, N_RANKS))
    left = np.empty(N_RANKS, dtype=np.int64)
    for r1 in range(1, 14):
        for r2 in range(r1, 14):
            left[:] = 4
            left[0] = 0
            left[r1] -= 1
            left[r2] -= 1
            tot, w_sum = 0.0, 0.0
            for x in range(1, 14):
                wx = left[x]
                left[x] -= 1
                for y in range(1, 14):
                    wy = wx * left[y]
                    left[y] -= 1
                    for z in range(1, 14):
                        w = wy * left[z]
                        if w > 0:
                            tot += w * _points(table, r1, r2, x, y, z)
                            w_sum += w
                    left[y] += 1
                left[x] += 1
            out[r1, r2] = out[r2, r1] = tot / w_sum
    return out


@njit(cache=True)
def option_values(six, seat, table, crib):
    """The throw model's value of each way to keep four of ``six`` ranks (the options in
    the order of combinations of the two thrown positions), for the pone (seat 0) or the
    dealer (seat 1)."""
    counts = np.zeros(N_RANKS, dtype=np.int64)
    for r in six:
        counts[r] += 1
    out = np.empty(15)
    o = 0
    keep = np.empty(4, dtype=np.int64)
    for i in range(6):
        for j in range(i + 1, 6):
            k = 0
            for q in range(6):
                if q != i and q != j:
                    keep[k] = six[q]
                    k += 1
            hand = 0.0
            for c in range(1, 14):
                hand += (4 - counts[c]) * _points(table, keep[0], keep[1], keep[2], keep[3], c)
            sign = 1.0 if seat == 1 else -1.0
            out[o] = hand / 46.0 + sign * crib[six[i], six[j]]
            o += 1
    return out


@njit(cache=True)
def keeps_share(six, kept_mask, seat, table, crib, aim):
    """The share of the policy's choice that keeps the four of ``six`` outside the two
    positions of kept_mask's complement: 1 if it is the best option, 1/n when n different
    fours tie for best, else 0. kept_mask: a bit per position, 4 bits set."""
    vals = aim * option_values(six, seat, table, crib)
    best = vals.max()
    o = 0
    mine = -1
    codes = np.empty(15, dtype=np.int64)
    n_best = 0
    for i in range(6):
        for j in range(i + 1, 6):
            code = 0                               # the kept ranks, as a sorted count code
            for q in range(6):
                if q != i and q != j:
                    code += 1 << (4 * (six[q] - 1))
            codes[o] = code
            if ((1 << i) | (1 << j)) == (63 ^ kept_mask):
                mine = o
            o += 1
    if vals[mine] < best - 1e-9:
        return 0.0
    for o in range(15):                            # distinct best fours
        if vals[o] >= best - 1e-9:
            dup = False
            for p in range(o):
                if vals[p] >= best - 1e-9 and codes[p] == codes[o]:
                    dup = True
            n_best += not dup
    return 1.0 / n_best


@njit(cache=True)
def throw_weights(h, laid, avail, seat, table, crib, pr):
    """For each holding h[i] (ranks of the opponent's unplayed cards, drawn from ``avail``
    unseen copies by rank), the sum over its possible throws (two more unseen cards) of the
    ways to draw them times the policy's share of keeping ``laid`` (ranks it has played)
    plus h[i]; the factor by which the throw model reweighs holdings() (1 where the model
    does not apply: not a four kept from six, or jokers, wild cards or more decks)."""
    n = h.shape[0]
    out = np.ones(n)
    if laid.shape[0] + h.shape[1] != 4 or pr[DECKS] != 1 or pr[JOKERS] or pr[WILD_RANK]:
        return out
    aim = -1.0 if pr[LOWBALL] else 1.0
    six = np.empty(6, dtype=np.int64)
    six[:laid.shape[0]] = laid
    rem = np.empty(avail.shape[0], dtype=np.int64)
    for i in range(n):
        six[laid.shape[0]:4] = h[i]
        rem[:] = avail
        for r in h[i]:
            rem[r] -= 1
        total = 0.0
        for t1 in range(1, 14):
            for t2 in range(t1, 14):
                ways = rem[t1] * (rem[t1] - 1) / 2 if t1 == t2 else rem[t1] * rem[t2]
                if ways <= 0:
                    continue
                six[4] = t1
                six[5] = t2
                total += ways * keeps_share(six, 15, seat, table, crib, aim)
        out[i] = total
    return out



@njit(cache=True)
def reweigh(w, factor):
    """Holdings' weights times the throw model's factors; unchanged where the model rules
    every holding out (the opponent kept a four the model never keeps)."""
    return w * factor if factor.sum() > 0 else w
