"""The model of the pair the opponent puts in the crib: 'uniform' (any two unseen cards) or
'optimal', a fixed point found by best-response iteration from uniform (solve): each seat keeps,
of six random cards, the four with the best expected hand +/- crib, the crib valued against the
other seat's throws. Throws group into 169 classes (rank pair, suited or not); the result is kept
per rule set, the standard one shipped (docs/throwing.md).
"""

from __future__ import annotations

import functools

import numpy as np

from cribsolve.core.cards import RANK, SUIT
from cribsolve.core.expect import N_CLASSES, WIDTH, options_distribution, pair_class_of_ranks
from cribsolve.core.rules import RuleSet
from cribsolve.core.scoring.table import rank_table, score5
from cribsolve.errors import CribsolveError
from cribsolve.infra.jit import njit, prange
from cribsolve.infra.store import expect, load, register, rules_key

N_HANDS = 200_000
MAX_ITER = 12
TOL = 2e-3  # stop when no class frequency moves by more than this
SEED = 20261129


@njit(cache=True)
def pair_class(a, b):
    """Class of the card pair {a, b}: its two ranks and whether it is suited."""
    ra, rb = min(RANK[a], RANK[b]), max(RANK[a], RANK[b])
    return pair_class_of_ranks(ra, rb, SUIT[a] == SUIT[b] and ra != rb)


@functools.lru_cache(maxsize=None)
def class_sizes() -> np.ndarray:
    """Card pairs of each class in a 52-card deck (6 for a rank pair, 4 suited, 12 offsuit)."""
    n = np.zeros(N_CLASSES)
    for a in range(52):
        for b in range(a + 1, 52):
            n[pair_class(a, b)] += 1
    return n


def class_representatives() -> dict[int, tuple[int, int]]:
    rep = {}
    for a in range(52):
        for b in range(a + 1, 52):
            rep.setdefault(int(pair_class(a, b)), (a, b))
    return rep


def weights_from_classes(freq: np.ndarray) -> np.ndarray:
    """Weight of one card pair of each class: the class frequency over its number of pairs."""
    sizes = class_sizes()
    return np.divide(freq, sizes, out=np.zeros(N_CLASSES), where=sizes > 0)


def crib_table(seat: str, other_weights: np.ndarray, rules: RuleSet) -> np.ndarray:
    """Expected crib points for each discard class by ``seat`` (indexed by class; NaN unused).

    The two other crib cards are weighted by ``other_weights`` among the 50 unseen cards and the
    starter is any remaining card. The crib is the dealer's whichever seat discards into it.
    """
    rep = class_representatives()
    classes = sorted(rep)
    discs = np.array([rep[c] for c in classes], dtype=np.int64)
    keeps = np.zeros((len(classes), 4), dtype=np.int64)  # kept cards play no part here
    hists = np.zeros((len(classes), WIDTH))
    means = np.zeros((len(classes), 2))
    table = np.full(N_CLASSES, np.nan)
    for i, d in enumerate(discs):
        unseen = np.array([c for c in range(52) if c not in d], dtype=np.int64)
        options_distribution(
            keeps[i : i + 1],
            d[None, :],
            unseen,
            1,
            other_weights,
            rank_table(rules.target),
            rules.crib_full_flush,
            False,
            hists[i : i + 1],
            means[i : i + 1],
        )
        table[classes[i]] = means[i, 1]
    return table


@njit(cache=True, parallel=True)
def chosen_classes(hands, sign, crib_values, table):
    """The discard class each 6-card hand throws under E[hand] + sign * crib value."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int64)
    for h in prange(n):
        hand = hands[h]
        best = -1e9
        pick = 0
        keep = np.empty(4, dtype=np.int64)
        for i in range(6):
            for j in range(i + 1, 6):
                k = 0
                for x in range(6):
                    if x != i and x != j:
                        keep[k] = hand[x]
                        k += 1
                ev = 0.0
                for s in range(52):
                    inhand = False
                    for x in range(6):
                        if hand[x] == s:
                            inhand = True
                    if not inhand:
                        ev += score5(table, keep[0], keep[1], keep[2], keep[3], s, False)
                cls = pair_class(hand[i], hand[j])
                v = ev / 46.0 + sign * crib_values[cls]
                if v > best:
                    best = v
                    pick = cls
        out[h] = pick
    return out


def solve(rules: RuleSet, n_hands: int = N_HANDS, progress=None):
    """Best-response iteration; returns ({seat: class frequencies}, iterations, changes)."""
    rng = np.random.default_rng(SEED)
    hands = np.argsort(rng.random((n_hands, 52)), axis=1)[:, :6].astype(np.int64)
    sizes = class_sizes()
    freq = {s: sizes / sizes.sum() for s in ("dealer", "pone")}  # uniform pairs
    changes = []
    table = rank_table(rules.target)
    for it in range(1, MAX_ITER + 1):
        new = {}
        for seat, other, sign in (("dealer", "pone", 1), ("pone", "dealer", -1)):
            values = np.nan_to_num(crib_table(seat, weights_from_classes(freq[other]), rules))
            picks = chosen_classes(hands, sign, values, table)
            new[seat] = np.bincount(picks, minlength=N_CLASSES) / n_hands
        change = max(np.abs(new[s] - freq[s]).max() for s in new)
        freq = new
        changes.append(float(change))
        if progress:
            progress(it, change)
        if change < TOL:
            break
    return freq, it, changes


def _check(arrays, params):
    for seat in ("dealer", "pone"):
        f = arrays.get(seat)
        expect(f is not None and f.shape == (N_CLASSES,), f"no {seat} frequencies")
        expect(
            bool((f >= 0).all()) and abs(float(f.sum()) - 1) < 1e-9,
            f"{seat} frequencies are not a distribution",
        )
        expect(not f[class_sizes() == 0].any(), f"{seat} frequencies on impossible classes")


# solve deals from one deck without jokers or wild cards: the target and the crib flush are all
# it reads of the rules
register("opponent", 1, _check, reads=("target", "crib_full_flush"))


def optimal_frequencies(rules: RuleSet, progress=None, hands: int = N_HANDS) -> dict:
    """Class frequencies of each seat's discards, from the table or solved and kept now."""

    def compute():
        freq, iterations, changes = solve(rules, hands, progress)
        return {
            "dealer": freq["dealer"],
            "pone": freq["pone"],
            "iterations": np.array(iterations),
            "changes": np.array(changes),
        }

    return load("opponent", {"hands": hands, "seed": SEED, **rules_key("opponent", rules)}, compute)


def pair_weights(model: str, opponent_seat: str, rules: RuleSet, progress=None):
    """Weight of each class of the opponent's two crib cards under ``model`` (None: every
    pair alike, where jokers make classes of their own)."""
    if model == "uniform":
        return None if rules.jokers else np.ones(N_CLASSES)
    if model == "optimal":
        if rules.decks != 1 or rules.jokers:
            raise CribsolveError(
                "the optimal opponent model is fitted to one deck without jokers: "
                "use --throw-model uniform"
            )
        return weights_from_classes(optimal_frequencies(rules, progress)[opponent_seat])
    raise CribsolveError(f"opponent model must be uniform or optimal, not {model!r}")


def crib_table_rows(seat: str, model: str, rules: RuleSet, progress=None):
    """(rank1, rank2, suited, expected crib) for every discard class, the other seat by model."""
    from cribsolve.core.notation import RANK_CHARS

    other = "pone" if seat == "dealer" else "dealer"
    table = crib_table(seat, pair_weights(model, other, rules, progress), rules)
    rows = []
    for a in range(1, 14):
        for b in range(a, 14):
            for suited in (False,) if a == b else (False, True):
                rows.append(
                    (
                        RANK_CHARS[a - 1],
                        RANK_CHARS[b - 1],
                        suited,
                        float(table[pair_class_of_ranks(a, b, suited)]),
                    )
                )
    return rows
