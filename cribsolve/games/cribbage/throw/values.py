"""The throw engine: each choice before the play valued by expected points (docs/RULES.md §5-6):
the throw to the crib (under two cribs to each, under choose-a-cut with the card given).
best-discard's sampled analysis ranks by the same ``option_parts`` as the simulated players, so
a player throws what the command recommends. Unseen cards are uniform; the crib is exact in closed
form for the standard crib, else averaged over draws shared by every option. Redraws and bids:
draw_and_bid.py.
"""

import numpy as np

from cribsolve.core.cards import NO_SUIT, RANK, SUIT
from cribsolve.core.fastev import (
    ev_discard,
    ev_discard_one,
    expected_crib_two_unknown,
    expected_hand,
    unseen_counts,
)
from cribsolve.core.scoring.kernels import best_wild, score_parts
from cribsolve.core.scoring.table import score5
from cribsolve.games.cribbage.players.pegtable import rank_code
from cribsolve.games.cribbage.rules.pegging import unseen_cards
from cribsolve.games.cribbage.rules.spec import (
    CHOOSE_CUT,
    CRIB_SIZE,
    DECKS,
    FIVE_CARD,
    HAND_SIZE,
    JOKERS,
    LOWBALL,
    PLAYERS,
    STARTERS,
    TARGET,
    TWO_CRIBS,
    WILD_RANK,
)
from cribsolve.infra.jit import njit

CRIB_DRAWS = 32  # draws of the unknown crib cards and cut card per option, where not exact


@njit(cache=True)
def throw_options(h, t):
    """(kept, thrown) positions of every way to throw t of h cards, in lexicographic order
    (the order of core/hand_options.option_indices, so ties break alike)."""
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
def deal_options(h, pr):
    """(kept, thrown) positions of every choice of h dealt cards under ``pr``. The thrown
    columns are the share of the crib (of one's own crib under two cribs), then under two
    cribs the share of the opponent's crib, then under choose-a-cut the card given."""
    t = pr[CRIB_SIZE] // pr[PLAYERS]
    two = pr[TWO_CRIBS]
    gift = pr[CHOOSE_CUT]
    w = t * (1 + two) + gift
    if w == t:
        return throw_options(h, t)
    keep_w, out_w = throw_options(h, w)  # which cards leave the hand
    rest, crib_a = throw_options(w, t)  # which of them go to the (own) crib
    gifts = t + 1 if two and gift else 1  # which of the rest is given
    n = keep_w.shape[0] * crib_a.shape[0] * gifts
    keep = np.empty((n, h - w), dtype=np.int64)
    disc = np.empty((n, w), dtype=np.int64)
    o = 0
    for i in range(keep_w.shape[0]):
        for j in range(crib_a.shape[0]):
            for g in range(gifts):
                keep[o] = keep_w[i]
                disc[o, :t] = out_w[i, crib_a[j]]
                others = out_w[i, rest[j]]
                if gifts > 1:  # two cribs and a gift: g is the gift
                    q = t
                    for x in range(others.shape[0]):
                        if x != g:
                            disc[o, q] = others[x]
                            q += 1
                    disc[o, w - 1] = others[g]
                else:
                    disc[o, t:] = others
                o += 1
    return keep, disc


# What a compiled copy of the deal carries: game.flags sets WILD_ON to False (jit.variant)
# where the spec has no wild card, GENERAL_ON where every throw is the closed form's,
# EXPERTN_ON where no expert sits at three or four players.
WILD_ON = GENERAL_ON = EXPERTN_ON = True


@njit(cache=True)
def show_points(cards, nheld, table, full_flush, pr):
    """Show points of ``cards`` (held first, then the cut cards): the best substitution for
    wild cards, the 5-card table when it applies, the general scorer otherwise."""
    wild = pr[WILD_RANK]
    if WILD_ON and wild:
        for c in cards:
            if RANK[c] == wild:
                return best_wild(cards, nheld, pr[TARGET], full_flush, wild, cards.copy())
    if cards.shape[0] == 5 and nheld == 4:
        return score5(table, cards[0], cards[1], cards[2], cards[3], cards[4], full_flush)
    pts = score_parts(cards, nheld, pr[TARGET], full_flush, np.zeros(5, dtype=np.int64))
    if pr[FIVE_CARD] and nheld == 3 and not full_flush:  # the five-card game's hand flush
        pts += three_flush(cards)
    return pts


@njit(cache=True)
def three_flush(cards):
    """A three-card hand of one suit (cards[:3]) with its cut card (cards[3]): 3, or 4 when
    the cut card matches (the five-card game, docs/RULES.md §8)."""
    s = SUIT[cards[0]]
    if s == NO_SUIT or SUIT[cards[1]] != s or SUIT[cards[2]] != s:
        return 0
    return 3 + (SUIT[cards[3]] == s)


@njit(cache=True)
def crib_draws(unseen, t, m):
    """m draws of t + 1 distinct unseen cards (a partial shuffle each)."""
    draws = np.empty((m, t + 1), dtype=np.int64)
    pool = unseen.copy()
    for d in range(m):
        for j in range(t + 1):
            r = j + np.random.randint(pool.shape[0] - j)
            pool[j], pool[r] = pool[r], pool[j]
            draws[d, j] = pool[j]
    return draws


@njit(cache=True)
def hand_value(hand, unseen, first, table, pr):
    """Expected show points of ``hand`` (its cards, then one free slot per cut card) over the
    unknown last cut card among ``unseen``; ``first`` fills the first slot of two."""
    k = hand.shape[0] - pr[STARTERS]
    wild = pr[WILD_RANK]
    if k == 4 and pr[STARTERS] == 1 and wild == 0:
        return expected_hand(hand[0], hand[1], hand[2], hand[3], unseen, table)
    if pr[STARTERS] == 2:
        hand[k] = first
    total = 0.0
    wild_value = -1.0  # a wild cut card stands for the best card, whichever it is
    for c in unseen:
        if wild and RANK[c] == wild:
            if wild_value < 0:
                hand[-1] = c
                wild_value = show_points(hand, k, table, False, pr)
            total += wild_value
            continue
        hand[-1] = c
        total += show_points(hand, k, table, False, pr)
    return total / unseen.shape[0]


@njit(cache=True)
def option_parts(dealt, keep_idx, disc_idx, unseen, first, own, table, pr, draws):
    """For every option (deal_options): [E hand, E crib A, E crib B, E gift, E x, E x^2],
    x = (+/-) crib A - crib B - gift per draw, the rest of the option's net value. Crib A gets
    the option's first share: the crib (+ when ``own``: it is this player's) or, under two
    cribs, this player's crib (``own`` must be 1); crib B is the opponent's crib; gift the
    opponent's hand with the card given as its cut card. With no ``draws`` the crib is the
    closed form of the standard crib (no second moment); otherwise each draw is [the others'
    share of crib A (with three or four players, every other crib card), of crib B, the cut
    card, the opponent's hand]."""
    t = pr[CRIB_SIZE] // pr[PLAYERS]
    others = pr[CRIB_SIZE] - t
    two = pr[TWO_CRIBS]
    gift = pr[CHOOSE_CUT]
    k = keep_idx.shape[1]
    ns = pr[STARTERS]
    sign = 1.0 if own else -1.0
    out = np.zeros((keep_idx.shape[0], 6))
    hand = np.empty(k + ns, dtype=np.int64)
    crib = np.empty(pr[CRIB_SIZE] + ns, dtype=np.int64)
    opp = np.empty(k + 1, dtype=np.int64)
    n, u = unseen_counts(unseen)
    cut_at = others * (1 + two)
    for o in range(keep_idx.shape[0]):
        for j in range(k):
            hand[j] = dealt[keep_idx[o, j]]
        out[o, 0] = hand_value(hand, unseen, first, table, pr)
        if draws.shape[0] == 0:
            out[o, 1] = expected_crib_two_unknown(
                dealt[disc_idx[o, 0]], dealt[disc_idx[o, 1]], unseen, n, u, table, True
            )
            out[o, 4] = sign * out[o, 1]
            continue
        given = dealt[disc_idx[o, -1]] if gift else -1
        if ns == 2:
            crib[pr[CRIB_SIZE]] = first
        for m in range(draws.shape[0]):
            x = 0.0
            for c in range(1 + two):  # crib A, then crib B
                for j in range(t):
                    crib[j] = dealt[disc_idx[o, c * t + j]]
                for j in range(others):
                    crib[t + j] = draws[m, c * others + j]
                # a crib's cut card is its owner's: under choose-a-cut the card the owner was
                # given (to me: the drawn one; to the opponent: my gift)
                mine = own if c == 0 else 0
                crib[-1] = given if gift and not mine else draws[m, cut_at]
                v = show_points(crib, pr[CRIB_SIZE], table, True, pr)
                out[o, 1 + c] += v
                x += v if mine else -v
            if gift:
                for j in range(k):
                    opp[j] = draws[m, cut_at + 1 + j]
                opp[k] = given
                v = show_points(opp, k, table, False, pr)
                out[o, 3] += v
                x -= v
            out[o, 4] += x
            out[o, 5] += x * x
        out[o, 1:] /= draws.shape[0]
    return out


@njit(cache=True)
def option_values(parts, pr):
    """aim * (hand +/- crib A - crib B - gift) of every option, from option_parts (aim -1
    under lowball: the fewest points)."""
    return (-1.0 if pr[LOWBALL] else 1.0) * (parts[:, 0] + parts[:, 4])


@njit(cache=True)
def _closed_form(pr, t):
    return (
        t == 2
        and pr[STARTERS] == 1
        and pr[WILD_RANK] == 0
        and not pr[TWO_CRIBS]
        and not pr[CHOOSE_CUT]
    )


@njit(cache=True)
def expected_throw_values(dealt, keep_idx, disc_idx, unseen, first, own, table, pr):
    """option_values of every option, the crib exact where the closed form applies, else
    over CRIB_DRAWS draws."""
    t = pr[CRIB_SIZE] // pr[PLAYERS]
    width = (pr[CRIB_SIZE] - t) * (1 + pr[TWO_CRIBS]) + 1 + pr[CHOOSE_CUT] * keep_idx.shape[1]
    draws = crib_draws(unseen, width - 1, 0 if _closed_form(pr, t) else CRIB_DRAWS)
    return option_values(
        option_parts(dealt, keep_idx, disc_idx, unseen, first, own, table, pr, draws), pr
    )


RANDOM, EV, EXPERT = 0, 1, 2  # discard policies


@njit(cache=True)
def _exact_one(pr):
    """Whether the expert's throw with three or four players is exact in closed form
    (fastev.ev_discard_one): five cards, one to a crib of four, one cut card, one deck
    without jokers or wild cards."""
    return (
        pr[PLAYERS] > 2
        and pr[HAND_SIZE] == 5
        and pr[CRIB_SIZE] == 4
        and pr[STARTERS] == 1
        and pr[DECKS] == 1
        and pr[JOKERS] == 0
        and pr[WILD_RANK] == 0
        and not (pr[TWO_CRIBS] or pr[CHOOSE_CUT])
    )


@njit(cache=True)
def throw_values(dealt, own, table, pr, keep_idx, disc_idx, first, seen, seat, pegs):
    """Every option's value to a player who ranks throws by points (expected_throw_values),
    plus, where ``pegs`` (pegtable.peg_table, or an empty one) applies, the expected pegging
    margin of the kept ranks in its seat. ``seen`` and ``own`` as choose_throw."""
    values = expected_throw_values(
        dealt, keep_idx, disc_idx, unseen_cards(seen, pr), first, own, table, pr
    )
    if pegs.shape[0] == 2 and keep_idx.shape[1] == 4:
        aim = -1.0 if pr[LOWBALL] else 1.0
        ranks = np.empty(4, dtype=np.int64)
        for o in range(keep_idx.shape[0]):
            for j in range(4):
                ranks[j] = RANK[dealt[keep_idx[o, j]]]
            values[o] += aim * pegs[seat, rank_code(ranks)]
    return values


@njit(cache=True)
def choose_throw(
    dealt, own, discard_policy, table, pr, keep_idx, disc_idx, first, seen, seat, pegs
):
    """The option a player takes: random, the best expected value (the standard deal by the
    closed form of core/fastev.ev_discard), or (EXPERT) that value plus the expected pegging
    margin of the kept ranks in its seat (pegs: pegtable.peg_table, where it applies).
    ``seen``: the player's counts of the cards it has seen (its deal, a first cut card, cards
    it redrew away); ``own``: the crib is its own."""
    if discard_policy == RANDOM:
        return np.random.randint(keep_idx.shape[0])
    if EXPERTN_ON and discard_policy == EXPERT and _exact_one(pr):
        return ev_discard_one(
            dealt,
            unseen_cards(seen, pr),
            table,
            1.0 if own else -1.0,
            True,
            -1.0 if pr[LOWBALL] else 1.0,
        )
    use_pegs = discard_policy == EXPERT and pegs.shape[0] == 2 and keep_idx.shape[1] == 4
    if GENERAL_ON and (
        use_pegs or not (dealt.shape[0] == 6 and disc_idx.shape[1] == 2 and _closed_form(pr, 2))
    ):
        return np.argmax(
            throw_values(
                dealt,
                own,
                table,
                pr,
                keep_idx,
                disc_idx,
                first,
                seen,
                seat,
                pegs if use_pegs else pegs[:0],
            )
        )
    return ev_discard(
        dealt,
        unseen_cards(seen, pr),
        table,
        1.0 if own else -1.0,
        True,
        -1.0 if pr[LOWBALL] else 1.0,
    )
