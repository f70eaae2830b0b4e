"""The play's part of a throw's value: the expected pegging margin (mine - theirs) of each four
ranks kept, by seat, tabled once per rule set, so a throw is chosen without playing each four
out. An entry is a mean over sampled opponents keeping the four their throw model prefers
(inference.py), played as its expert plays: ``open`` (expert1's, open_search.best_line) or
``infoset`` (the expert's search on both sides, its holdings drawn as expert-drawn draws them:
the table was built so; slower, so fewer samples: docs/performance.md).
"""

import numpy as np

from cribsolve.core.cards import RANK
from cribsolve.games.cribbage.players import inference
from cribsolve.games.cribbage.players.open_search import best_line, holdings
from cribsolve.games.cribbage.players.policies import EXPERT_DRAWN
from cribsolve.games.cribbage.players.policies import play as play_out
from cribsolve.games.cribbage.rules import pegging
from cribsolve.games.cribbage.rules.spec import (
    DECKS,
    JOKERS,
    LOWBALL,
    PLAY_FIELDS,
    WILD_RANK,
    CribbageSpec,
)
from cribsolve.infra.jit import njit, prange
from cribsolve.infra.store import register as _register
from cribsolve.infra.store import rules_key

SAMPLES = {"open": 256, "infoset": 128}  # opponent hands per kept four and seat
PEG_SEED = 31
PLAYS = tuple(SAMPLES)
STANDARD_SPEC = CribbageSpec()


@njit(cache=True)
def rank_code(ranks):
    """The index of a kept hand's sorted ranks in the pegging table."""
    s = np.sort(ranks)
    code = 0
    for r in s:
        code = code * 14 + r
    return code


@njit(cache=True)
def _cards(ranks, copies):
    """Card ids for ``ranks``, each a copy of its rank not given yet (``copies``: how many
    of each rank were given in this deal; the suits do not matter in the play)."""
    out = np.empty(ranks.shape[0], dtype=np.int64)
    for i in range(ranks.shape[0]):
        r = ranks[i]
        out[i] = 52 if r == 0 else 4 * (r - 1) + copies[r] % 4
        copies[r] += 1
    return out


@njit(cache=True)
def _infoset_margin(mine, theirs, six, thrown, starter, seat, pr, shares):
    """My pegging margin in ``seat`` when both sides play the information-set search, each
    knowing its own six cards, the starter and what is laid (ranks in, as drawn)."""
    copies = np.zeros(14, dtype=np.int64)
    hands = np.empty((2, 4), dtype=np.int64)
    hands[seat] = _cards(mine, copies)
    their_six = _cards(six, copies)
    taken = np.zeros(6, dtype=np.bool_)
    for q in range(4):  # their kept ranks, as their cards
        for i in range(6):
            if not taken[i] and six[i] == theirs[q]:
                taken[i] = True
                hands[1 - seat, q] = their_six[i]
                break
    known = np.zeros((2, 53), dtype=np.int64)
    for c in hands[seat]:
        known[seat, c] += 1
    for c in _cards(thrown, copies):
        known[seat, c] += 1
    for c in their_six:
        known[1 - seat, c] += 1
    known[:, _cards(starter, copies)[0]] += 1
    pts = np.zeros(2, dtype=np.int64)
    play_out(
        hands,
        np.zeros((2, 4), dtype=np.bool_),
        np.zeros(8, dtype=np.int64),
        np.array([0, 0, 0, -1], dtype=np.int64),
        np.array([EXPERT_DRAWN, EXPERT_DRAWN]),
        known,
        pts,
        np.zeros(2, dtype=np.int64),
        0,
        pr,
        np.zeros(pegging.MAX_EVENTS + 1, dtype=np.int64),
        shares,
        np.zeros(0, np.int8),  # nothing kept: expert-drawn draws
    )
    return pts[seat] - pts[1 - seat]


@njit(cache=True, parallel=True)
def peg_margins(pr, samples, seed, table, crib, infoset, shares):
    """margin[seat, code]: the expected pegging margin of four kept ranks (code: rank_code) in
    a seat (0: the pone, who leads; 1: the dealer) over ``samples`` opponent sixes drawn from
    the rest of the deck (the model's four kept, the first four where it does not apply); the
    play open (best_line) or, with ``infoset``, both sides searching by information sets over
    the throw model ``shares``, my two thrown cards and the starter drawn too."""
    model = pr[DECKS] == 1 and pr[JOKERS] == 0 and pr[WILD_RANK] == 0
    aim = -1.0 if pr[LOWBALL] else 1.0
    deck = pegging.unseen_cards(np.zeros(53, dtype=np.int64), pr)
    full = np.zeros(14, dtype=np.int64)
    for c in deck:
        full[RANK[c]] += 1
    kept, _ = holdings(full, 4, -1)
    out = np.zeros((2, 14**4))
    drawn = 9 if infoset else 6
    for j in prange(kept.shape[0]):
        np.random.seed(seed + j)
        avail = full.copy()
        for r in kept[j]:
            avail[r] -= 1
        urn = np.empty(avail.sum(), dtype=np.int64)
        q = 0
        for r in range(14):
            for _ in range(avail[r]):
                urn[q] = r
                q += 1
        h = np.full((2, 4), -1, dtype=np.int64)
        series = np.zeros(18, dtype=np.int64)
        used = np.zeros(2, dtype=np.int64)
        code = rank_code(kept[j])
        for _ in range(samples):
            for i in range(drawn):  # a partial shuffle deals their six
                x = i + np.random.randint(urn.shape[0] - i)
                urn[i], urn[x] = urn[x], urn[i]
            for seat in range(2):
                h[seat] = kept[j]
                h[1 - seat] = urn[:4]
                if model:
                    inference.model_keep(urn[:6], 1 - seat, table, crib, aim, h[1 - seat])
                if infoset:
                    out[seat, code] += _infoset_margin(
                        kept[j], h[1 - seat], urn[:6], urn[6:8], urn[8:9], seat, pr, shares
                    )
                    continue
                a, b = best_line(h, used, series, 0, 0, 0, 0, -1, pr)
                out[seat, code] += (a - b) if seat == 0 else (b - a)
        out[:, code] /= samples
    return out


def _check_pegs(arrays, params):
    from cribsolve.infra.store import expect

    m = arrays.get("margin")
    expect(m is not None and m.shape == (2, 14**4), "not a pegging table")
    expect(bool(np.isfinite(m).all()) and float(np.abs(m).max()) < 40, "impossible margins")


def _params(spec, play_as, samples=None):
    return {
        "play": play_as,
        "samples": samples or SAMPLES[play_as],
        "seed": PEG_SEED,
        **rules_key("pegging", spec),
    }


def peg_table(spec, play_as: str = "infoset", samples: int | None = None) -> np.ndarray:
    """The pegging table under ``spec`` (kept, its target, peg limit, lowball and deck) with
    the play of ``play_as`` ("infoset": the expert's; "open": expert1's), built once and
    kept; an empty one where the kept hand is not four cards. The information-set table is
    shipped for the standard play; under other rules of the play the open one stands in for
    it, as building it takes most of an hour (the open one, a minute: docs/performance.md).
    ``samples``: opponent hands per kept four and seat (None: SAMPLES, the shipped tables')."""
    from cribsolve.infra.store import load

    if spec.kept != 4:
        return np.zeros((0, 1))
    if _params(spec, "open") != _params(STANDARD_SPEC, "open"):
        play_as = "open"
    params = _params(spec, play_as, samples)

    def compute():
        from cribsolve.core.scoring.table import rank_table

        table = rank_table(spec.target)
        shares = inference.throw_model(spec) if play_as == "infoset" else inference.NO_MODEL
        return {
            "margin": peg_margins(
                spec.as_array(),
                params["samples"],
                PEG_SEED,
                table,
                inference.crib_values(table),
                play_as == "infoset",
                shares,
            )
        }

    return load("pegging", params, compute)["margin"]


def kept_margin(kept, dealer: bool, spec) -> float:
    """The expert's expected pegging margin (mine - theirs) of keeping these four cards in
    this seat, from its table (peg_table): the play's part of a throw's value."""
    return float(peg_table(spec)[int(dealer), rank_code(np.array([RANK[c] for c in kept]))])


# the rules of the play (the opponents' throw model reads fewer); the deal's others play no
# part: the table deals its own six cards to each of two seats
_register("pegging", 1, _check_pegs, reads=PLAY_FIELDS)
