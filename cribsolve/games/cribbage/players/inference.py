"""What the opponent's throw says about its hand: its holdings weighted by its throw model, which
keeps, of six ranks, the four with the best mean show plus (dealer) or minus (pone) the thrown
pair's mean crib. The model's every choice is made once per rule set and kept (keep_shares,
throw_model), so the engine can weigh every holding cheaply (docs/pegging.md, "How it is worked
out").
"""

import numpy as np

from cribsolve.core.scoring.kernels import N_RANKS
from cribsolve.games.cribbage.rules.spec import DECKS, JOKERS, WILD_RANK
from cribsolve.infra.jit import njit, prange
from cribsolve.infra.store import register as _register
from cribsolve.infra.store import rules_key


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
def _four(six, i, j, out):
    """The four of ``six`` outside positions i and j, into ``out``."""
    k = 0
    for q in range(6):
        if q != i and q != j:
            out[k] = six[q]
            k += 1


@njit(cache=True)
def model_keep(six, seat, table, crib, aim, out):
    """The four of ``six`` ranks the throw model keeps in ``seat`` (the first of tied
    ones), into ``out``."""
    o = np.argmax(aim * option_values(six, seat, table, crib))
    n = 0
    for i in range(6):
        for j in range(i + 1, 6):
            if n == o:
                _four(six, i, j, out)
            n += 1


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
            _four(six, i, j, keep)
            hand = 0.0
            for c in range(1, 14):
                hand += (4 - counts[c]) * _points(table, keep[0], keep[1], keep[2], keep[3], c)
            sign = 1.0 if seat == 1 else -1.0
            out[o] = hand / 46.0 + sign * crib[six[i], six[j]]
            o += 1
    return out


@njit(cache=True)
def keeps_share(six, seat, table, crib, aim):
    """The share of the policy's choice that keeps the first four of ``six`` (throws the
    last two, option 14): 1 if it is the best option, 1/n when n different fours tie for
    best, else 0."""
    vals = aim * option_values(six, seat, table, crib)
    best = vals.max()
    o = 0
    codes = np.empty(15, dtype=np.int64)
    n_best = 0
    for i in range(6):
        for j in range(i + 1, 6):
            code = 0  # the kept ranks, as a sorted count code
            for q in range(6):
                if q != i and q != j:
                    code += 1 << (4 * (six[q] - 1))
            codes[o] = code
            o += 1
    if vals[14] < best - 1e-9:
        return 0.0
    for o in range(15):  # distinct best fours
        if vals[o] >= best - 1e-9:
            dup = False
            for p in range(o):
                if vals[p] >= best - 1e-9 and codes[p] == codes[o]:
                    dup = True
            n_best += not dup
    return 1.0 / n_best


@njit(cache=True)
def four_index(ranks):
    """The place of four ranks (any order) among the 1820 multisets of four ranks: the
    colex rank of the sorted ranks spread out to distinct numbers. Sorted by five swaps, not
    np.sort, whose new array is costly in a call the search makes for every holding."""
    a, b, c, d = ranks[0], ranks[1], ranks[2], ranks[3]
    a, b = min(a, b), max(a, b)
    c, d = min(c, d), max(c, d)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    x0, x1, x2, x3 = a - 1, b, c + 1, d + 2
    return (
        x0
        + x1 * (x1 - 1) // 2
        + x2 * (x2 - 1) * (x2 - 2) // 6
        + x3 * (x3 - 1) * (x3 - 2) * (x3 - 3) // 24
    )


N_FOURS, N_PAIRS = 1820, 91
PAIR_RANKS = np.array([(t1, t2) for t1 in range(1, 14) for t2 in range(t1, 14)])  # by place


@njit(cache=True, parallel=True)
def keep_shares(table, crib, aim):
    """share[seat, four_index(four), pair]: the throw model's share of keeping ``four`` when
    it holds those four and the two ranks of ``pair`` (t1 <= t2, in the order of
    throw_weights' loops), in that seat (keeps_share): the model's every decision, made once."""
    fours = np.empty((N_FOURS, 4), dtype=np.int64)
    for a in range(1, 14):
        for b in range(a, 14):
            for c in range(b, 14):
                for d in range(c, 14):
                    four = np.array([a, b, c, d])
                    fours[four_index(four)] = four
    out = np.zeros((2, N_FOURS, N_PAIRS))
    for i in prange(N_FOURS):
        six = np.empty(6, dtype=np.int64)
        six[:4] = fours[i]
        p = 0
        for t1 in range(1, 14):
            for t2 in range(t1, 14):
                six[4], six[5] = t1, t2
                if (six == t1).sum() <= 4 and (six == t2).sum() <= 4:
                    for seat in range(2):
                        out[seat, i, p] = keeps_share(six, seat, table, crib, aim)
                p += 1
    return out


@njit(cache=True)
def throw_weights(h, laid, avail, seat, shares, pr):
    """For each holding h[i] (ranks of the opponent's unplayed cards, drawn from ``avail``
    unseen copies by rank), the sum over its possible throws (two more unseen cards) of the
    ways to draw them times the policy's share of keeping ``laid`` (ranks it has played)
    plus h[i] (``shares``: throw_model's, keep_shares with_pairs); the factor by which the
    throw model reweighs holdings() (1 where the model does not apply: not a four kept from
    six, or jokers, wild cards or more decks, or no shares)."""
    n = h.shape[0]
    out = np.ones(n)
    if (
        laid.shape[0] + h.shape[1] != 4
        or pr[DECKS] != 1
        or pr[JOKERS]
        or pr[WILD_RANK]
        or shares.shape[0] != 2
    ):
        return out
    four = np.empty(4, dtype=np.int64)
    four[: laid.shape[0]] = laid
    rem = np.empty(avail.shape[0], dtype=np.int64)
    for i in range(n):
        four[laid.shape[0] :] = h[i]
        row = shares[seat, four_index(four)]
        rem[:] = avail
        for r in h[i]:
            rem[r] -= 1
        total = 0.0
        for e in range(int(row[N_PAIRS])):  # the row's pairs it keeps with, in order
            p = int(row[N_PAIRS + 1 + e])
            t1, t2 = PAIR_RANKS[p, 0], PAIR_RANKS[p, 1]
            total += row[p] * (rem[t1] * (rem[t1] - 1) / 2 if t1 == t2 else rem[t1] * rem[t2])
        out[i] = total
    return out


def with_pairs(share: np.ndarray) -> np.ndarray:
    """keep_shares' table with, after each row's N_PAIRS shares, how many are above zero and
    their places in order: throw_weights visits only those (a row keeps its four with about
    10 pairs of the 91), adding the same terms in the same order."""
    kept = share > 0
    most = int(kept.sum(axis=-1).max())
    first = np.argsort(~kept, axis=-1, kind="stable")[..., :most]  # places of the kept, in order
    return np.concatenate([share, kept.sum(axis=-1, keepdims=True), first], axis=-1).astype(float)


def throw_model(spec):
    """keep_shares under ``spec``, kept on disk, with_pairs; empty where the model does not
    apply (more decks, jokers, wild cards), so throw_weights leaves the holdings as they are."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.infra.store import load

    if spec.decks != 1 or spec.jokers or spec.wild_rank:
        return NO_MODEL

    def compute():
        table = rank_table(spec.target)
        return {"share": keep_shares(table, crib_values(table), -1.0 if spec.lowball else 1.0)}

    return with_pairs(load("throwmodel", rules_key("throwmodel", spec), compute)["share"])


def _check_model(arrays, params):
    from cribsolve.infra.store import expect

    s = arrays.get("share")
    expect(s is not None and s.shape == (2, N_FOURS, N_PAIRS), "not a throw model")
    expect(
        float(s.min()) >= 0 and float(s.max()) <= 1 and float(s.max()) > 0, "shares outside [0, 1]"
    )


NO_MODEL = np.zeros((0, 1, 1))


@njit(cache=True)
def reweigh(w, factor):
    """Holdings' weights times the throw model's factors; unchanged where the model rules
    every holding out (the opponent kept a four the model never keeps)."""
    return w * factor if factor.sum() > 0 else w


# its build reads the target and lowball; it is built for one deck without jokers or wild cards
# alone (throw_model)
_register("throwmodel", 1, _check_model, reads=("target", "lowball"))
