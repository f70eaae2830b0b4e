"""Draw cribbage's redraws and bid cribbage's auction for the crib (docs/RULES.md §5), each
valued by the throw's expected-value engine (values.py)."""

import numpy as np

from cribsolve.games.cribbage.rules.pegging import unseen_cards
from cribsolve.games.cribbage.rules.spec import (
    CRIB_SIZE,
    LOWBALL,
    STARTERS,
)
from cribsolve.games.cribbage.throw.values import (
    CRIB_DRAWS,
    EV,
    choose_throw,
    crib_draws,
    deal_options,
    expected_throw_values,
    hand_value,
    show_points,
    throw_options,
)
from cribsolve.infra.jit import njit

REDRAW_DRAWS = 4  # draws of the replacements per way of redrawing before the throw


REDRAW_BEFORE = 2  # the most cards the policy considers redrawing before the throw


REDRAW_AFTER = 3  # ... and after it


BID_MAX = 60  # no bid for the crib goes higher


@njit(cache=True)
def _subsets(n, most):
    """Bit masks of every nonempty subset of n positions with at most ``most`` members,
    leaving at least one position out."""
    count = 0
    masks = np.empty(1 << n, dtype=np.int64)
    for m in range(1, (1 << n) - 1):
        bits = 0
        x = m
        while x:
            bits += x & 1
            x >>= 1
        if bits <= most:
            masks[count] = m
            count += 1
    return masks[:count]


@njit(cache=True)
def _worth(cards, before, own, table, pr, first, unseen, keep_idx, disc_idx, hand):
    """What a redraw aims at: before the throw, the best throw's expected value; after it,
    the kept hand's expected show points (aim-signed), exact over the cut card."""
    if before:
        return np.max(
            expected_throw_values(cards, keep_idx, disc_idx, unseen, first, own, table, pr)
        )
    hand[: cards.shape[0]] = cards
    return (-1.0 if pr[LOWBALL] else 1.0) * hand_value(hand, unseen, first, table, pr)


@njit(cache=True)
def redraw_values(cards, before, own, table, pr, first, seen, limit, draws):
    """Every way of redrawing ``cards`` (bit masks of the positions thrown away, 0 first:
    keep all) and its _worth after it over ``draws`` draws of the replacements, the same
    draws for every way (values[way, draw]; keeping all is exact, the same in every column);
    at most ``limit`` cards, REDRAW_BEFORE before the throw, REDRAW_AFTER after it."""
    n = cards.shape[0]
    unseen = unseen_cards(seen, pr)
    most = min(REDRAW_BEFORE if before else REDRAW_AFTER, limit, unseen.shape[0] - 2)
    keep_idx, disc_idx = deal_options(n, pr) if before else throw_options(n, 0)
    hand = np.empty(n + pr[STARTERS], dtype=np.int64)
    if most <= 0:
        return np.zeros(1, dtype=np.int64), np.zeros((1, draws))
    keep = _worth(cards, before, own, table, pr, first, unseen, keep_idx, disc_idx, hand)
    perms = np.empty((draws, unseen.shape[0]), dtype=np.int64)
    for d in range(draws):
        perms[d] = np.random.permutation(unseen)
    ways = _subsets(n, most)
    masks = np.zeros(ways.shape[0] + 1, dtype=np.int64)
    masks[1:] = ways
    values = np.empty((masks.shape[0], draws))
    values[0] = keep
    trial = cards.copy()
    for w in range(1, masks.shape[0]):
        for d in range(draws):
            j = 0
            for i in range(n):
                if masks[w] >> i & 1:
                    trial[i] = perms[d, j]
                    j += 1
                else:
                    trial[i] = cards[i]
            values[w, d] = _worth(
                trial, before, own, table, pr, first, perms[d, j:], keep_idx, disc_idx, hand
            )
    return masks, values


@njit(cache=True)
def redraw(cards, before, own, table, pr, first, seen, limit):
    """Draw cribbage: the positions of ``cards`` to throw away and replace (a bit mask, 0 to
    keep all): the way worth most on average over redraw_values' draws (REDRAW_DRAWS before
    the throw, 8 times as many after it) against the exact worth of keeping all."""
    draws = REDRAW_DRAWS if before else 8 * REDRAW_DRAWS
    masks, values = redraw_values(cards, before, own, table, pr, first, seen, limit, draws)
    best = values[0, 0]
    pick = 0
    for w in range(1, masks.shape[0]):
        total = 0.0
        for d in range(draws):
            total += values[w, d]
        if total / draws > best:
            best = total / draws
            pick = masks[w]
    return pick


@njit(cache=True)
def crib_samples(dealt, disc, unseen, first, table, pr):
    """CRIB_DRAWS show points of the crib holding ``disc`` (positions in ``dealt``) and the
    opponent's share and the cut card(s) drawn from ``unseen``."""
    t = disc.shape[0]
    ns = pr[STARTERS]
    crib = np.empty(2 * t + ns, dtype=np.int64)
    if ns == 2:
        crib[2 * t] = first
    draws = crib_draws(unseen, t, CRIB_DRAWS)
    out = np.empty(CRIB_DRAWS)
    for m in range(CRIB_DRAWS):
        for j in range(t):
            crib[j] = dealt[disc[j]]
            crib[t + j] = draws[m, j]
        crib[-1] = draws[m, t]
        out[m] = show_points(crib, 2 * t, table, True, pr)
    return out


@njit(cache=True)
def contract_value(samples, bid):
    """What the crib's owner expects from a bid of ``bid``: the crib if it scores at least
    the bid, minus the bid if it falls short (docs/RULES.md §6)."""
    v = 0.0
    for c in samples:
        v += c if c >= bid else -bid
    return v / samples.shape[0]


@njit(cache=True)
def bid_limits(dealt, table, pr, keep_idx, disc_idx, first, seen):
    """(hand value owning the crib, its crib samples, hand value not owning it, that crib's
    samples): the best throw each way, for the bidding."""
    unseen = unseen_cards(seen, pr)
    out_h = np.zeros(2)
    samples = np.empty((2, CRIB_DRAWS))
    for own in range(2):
        o = choose_throw(
            dealt, own, EV, table, pr, keep_idx, disc_idx, first, seen, 0, np.zeros((0, 1))
        )
        hand = np.empty(keep_idx.shape[1] + pr[STARTERS], dtype=np.int64)
        for j in range(keep_idx.shape[1]):
            hand[j] = dealt[keep_idx[o, j]]
        out_h[own] = hand_value(hand, unseen, first, table, pr)
        samples[own] = crib_samples(
            dealt, disc_idx[o, : pr[CRIB_SIZE] // 2], unseen, first, table, pr
        )
    return out_h, samples


@njit(cache=True)
def wants(bid, limits_h, samples, other_bid):
    """Whether a player would rather own the crib at ``bid`` than leave it to the opponent
    at ``other_bid`` (the expected margin of the deal's show, each way)."""
    own = limits_h[1] + contract_value(samples[1], bid)
    leave = limits_h[0] - contract_value(samples[0], other_bid)
    return own > leave


@njit(cache=True)
def auction(hands_h, hands_s):
    """Bid for the crib, the pone first, each raising by one point or passing; the dealer
    holds the crib at 0 until outbid. Returns (the seat that owns the crib, the bid)."""
    holder = 1
    bid = 0
    turn = 0
    while bid < BID_MAX:
        if not wants(bid + 1, hands_h[turn], hands_s[turn], bid):
            break
        bid += 1
        holder = turn
        turn = 1 - turn
    return holder, bid
