"""The information-set search against a plain recursive walk of the same information-set game
(its own points, goes and reply model, my hands enumerated card by card), and the leak
tests: no decision depends on a card its player cannot see, checked on every node, with a
planted leak that the same check must catch."""

from itertools import combinations, permutations

import numpy as np
import pytest

from cribsolve.core.cards import RANK, VALUE
from cribsolve.games.cribbage.players import infoset_search, open_search
from cribsolve.games.cribbage.players.first_cards import NO_MEMO
from cribsolve.games.cribbage.players.inference import NO_MODEL
from cribsolve.games.cribbage.rules import pegging
from cribsolve.games.cribbage.rules.spec import CribbageSpec

RULES = [{}, {"lowball": True}, {"target": 16, "peg_limit": 25}]


def val(r):
    return min(r, 10)


def peg_points(series, count, spec):
    """Points for the last card of ``series``, from the rules: 2 for the target sum, 2 for the
    limit, pairs by the trailing equal ranks, the longest trailing run of distinct
    consecutive ranks."""
    pts = 2 * (count == spec.target) + 2 * (count == spec.peg_limit)
    k = 1
    while k < len(series) and series[-1 - k] == series[-1]:
        k += 1
    pts += {1: 0, 2: 2, 3: 6, 4: 12}[k]
    for n in range(len(series), 2, -1):
        tail = sorted(series[-n:])
        if len(set(tail)) == n and tail[-1] - tail[0] == n - 1:
            return pts + n
    return pts


def plain_answer(series, count, urn, u, spec):
    """The mean, over every hand of u cards from ``urn``, of my best answer's points."""
    total, hands = 0.0, list(combinations(range(len(urn)), u))
    for hand in hands:
        answers = [
            peg_points(series + (urn[i],), count + val(urn[i]), spec)
            for i in hand
            if count + val(urn[i]) <= spec.peg_limit
        ]
        total += (min if spec.lowball else max)(answers) if answers else 0
    return total / len(hands)


def plain_reply(theirs, series, count, last, public, u, spec):
    """The modelled opponent's rank, from its information: each card's points less the mean
    over every hand of u cards I may hold (from the cards not laid and not its own; after my
    go, those that do not fit, if enough) of my best answer (least under lowball)."""
    aim = -1 if spec.lowball else 1
    limit = spec.peg_limit
    fits = [r for r in theirs if count + val(r) <= limit]
    if len(set(fits)) <= 1 or u == 0:
        return fits[0] if fits else None
    urn = []
    left = dict(public)
    for r in theirs:
        left[r] -= 1
    for r, n in left.items():
        urn += [r] * n
    if last == 1 and count > 0:
        over = [r for r in urn if val(r) > limit - count]
        if len(over) >= u:
            urn = over
    best, pick = None, None
    for a in dict.fromkeys(fits):
        s = series + (a,)
        c2 = count + val(a)
        pts = peg_points(s, c2, spec)
        if c2 == limit:
            s, c2 = (), 0
        v = aim * (pts - plain_answer(s, c2, urn, u, spec))
        if best is None or v > best + 1e-9:
            best, pick = v, a
    return pick


def laid(hand, r, series, count, spec):
    """Rank r laid from ``hand``: (the rest of the hand, the series and count after it, its
    points); the limit ends the series."""
    rest = list(hand)
    rest.remove(r)
    s2, c2 = series + (r,), count + val(r)
    pts = peg_points(s2, c2, spec)
    if c2 == spec.peg_limit:
        s2, c2 = (), 0
    return tuple(rest), s2, c2, pts


def settle(mine, theirs, series, count, turn, last, spec):
    """Goes and last cards: ("over", a, b) or ("lay", series, count, turn, a, b)."""
    a = b = 0
    while True:
        if not mine and not theirs:
            if count > 0:
                a, b = a + (last == 0), b + (last == 1)
            return ("over", a, b)
        hands = (mine, theirs)
        can = [any(count + val(r) <= spec.peg_limit for r in hands[p]) for p in range(2)]
        if can[turn]:
            return ("lay", series, count, turn, a, b)
        if can[1 - turn]:
            return ("lay", series, count, 1 - turn, a, b)
        a, b = a + (last == 0), b + (last == 1)
        series, count, turn = (), 0, 1 - last


def walk(mine, opp, series, count, turn, last, w, public, spec, reply, log, hist=()):
    """{holding: (my points, theirs)} over the rest of the play; ``opp``: {holding: its
    unplayed ranks}; my card is one for all the holdings here; theirs by ``reply``, logged in
    ``log`` as {(public history, holding): rank}."""
    aim = -1 if spec.lowball else 1
    groups = {}
    for j, th in opp.items():
        groups.setdefault(settle(mine, th, series, count, turn, last, spec), []).append(j)
    out = {}
    for o, js in groups.items():
        if o[0] == "over":
            out.update({j: (o[1], o[2]) for j in js})
            continue
        _, s, c, t, pa, pb = o
        if t == 0:
            best = None
            for r in dict.fromkeys(x for x in mine if c + val(x) <= spec.peg_limit):
                rest, s2, c2, pts = laid(mine, r, s, c, spec)
                sub = walk(
                    rest,
                    {j: opp[j] for j in js},
                    s2,
                    c2,
                    1,
                    0,
                    w,
                    public,
                    spec,
                    reply,
                    log,
                    hist + ((0, r),),
                )
                score = 0.0
                for j in js:
                    score += w[j] * aim * (sub[j][0] + pts - sub[j][1])
                if best is None or score > best[0]:
                    best = (score, {j: (sub[j][0] + pts, sub[j][1]) for j in js})
            res = best[1]
        else:
            by_rank = {}
            for j in js:
                r = reply(opp[j], s, c, last, public, len(mine), spec, mine)
                log[(hist, j)] = r
                by_rank.setdefault(r, []).append(j)
            res = {}
            for r in sorted(by_rank):
                rest = {j: laid(opp[j], r, s, c, spec) for j in by_rank[r]}
                _, s2, c2, pts = rest[by_rank[r][0]]
                sub = walk(
                    mine,
                    {j: x[0] for j, x in rest.items()},
                    s2,
                    c2,
                    0,
                    1,
                    w,
                    public,
                    spec,
                    reply,
                    log,
                    hist + ((1, r),),
                )
                res.update({j: (sub[j][0], sub[j][1] + pts) for j in by_rank[r]})
        for j in js:
            out[j] = (res[j][0] + pa, res[j][1] + pb)
    return out


def honest(theirs, series, count, last, public, u, spec, mine):
    return plain_reply(theirs, series, count, last, public, u, spec)


def peeking(theirs, series, count, last, public, u, spec, mine):
    """A planted leak: the opponent avoids pairing a card it can see I hold."""
    fits = [r for r in theirs if count + val(r) <= spec.peg_limit]
    safe = [r for r in fits if r not in mine]
    return (safe or fits)[0] if fits else None


def plain_values(mine, series, count, holdings, w, public, spec, reply=honest, log=None):
    """{my rank: (E mine, E theirs)} for each card I may lay now."""
    out = {}
    for r in dict.fromkeys(x for x in mine if count + val(x) <= spec.peg_limit):
        rest, s2, c2, pts = laid(mine, r, series, count, spec)
        sub = walk(
            rest,
            dict(enumerate(holdings)),
            s2,
            c2,
            1,
            0,
            w,
            public,
            spec,
            reply,
            {} if log is None else log,
            ((0, r),),
        )
        out[r] = (
            sum(w[j] * sub[j][0] for j in sub) / sum(w) + pts,
            sum(w[j] * sub[j][1] for j in sub) / sum(w),
        )
    return out


def position(rng, spec, mine_n, theirs_n, laid_n):
    """A random small position: my ranks, the series laid so far (fitting under the limit),
    the ranks nobody has laid (by rank) and the opponent's every holding with its ways."""
    while True:
        deck = [r for r in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        series, count = [], 0
        for r in deck[:laid_n]:
            if count + val(r) <= spec.peg_limit - 1:
                series.append(r)
                count += val(r)
        mine = deck[laid_n : laid_n + mine_n]
        if any(count + val(r) <= spec.peg_limit for r in mine):
            break
    public = {r: 4 for r in range(1, 14)}
    for r in series:
        public[r] -= 1
    avail = np.zeros(14, dtype=np.int64)
    for r, n in public.items():
        avail[r] = n
    for r in mine:
        avail[r] -= 1
    h, w = open_search.holdings(avail, theirs_n, -1)
    return mine, tuple(series), count, public, h, w


def package_values(mine, series, count, h, w, public, spec):
    pub = np.zeros(14, dtype=np.int64)
    for r, n in public.items():
        pub[r] = n
    return infoset_search.card_values(
        np.array(mine, dtype=np.int64),
        np.array(list(series) + [0] * 20, dtype=np.int64),
        len(series),
        count,
        h,
        w,
        pub,
        spec.as_array(),
    )


@pytest.mark.parametrize("rules", RULES)
def test_the_search_equals_a_plain_walk_of_the_same_game(rules):
    spec = CribbageSpec(**rules)
    rng = np.random.default_rng(22)
    for mine_n, theirs_n, laid_n in [(1, 1, 3), (2, 1, 2), (2, 2, 4), (3, 2, 3), (2, 2, 0)]:
        mine, series, count, public, h, w = position(rng, spec, mine_n, theirs_n, laid_n)
        got = package_values(mine, series, count, h, w, public, spec)
        want = plain_values(tuple(mine), series, count, [tuple(x) for x in h], w, public, spec)
        for i, r in enumerate(mine):
            if r in want:
                assert got[i] == pytest.approx(want[r], abs=1e-9), (mine, series, i)
            else:
                assert np.isnan(got[i, 0])


@pytest.mark.parametrize("rules", RULES)
def test_the_points_of_every_next_rank_follow_the_rules(rules):
    spec = CribbageSpec(**rules)
    pr = spec.as_array()
    rng = np.random.default_rng(17)
    for trial in range(300):
        deck = [r for r in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        if trial % 2:  # close ranks: pairs and long runs
            deck = [r for r in deck if r <= 2 + trial % 7]
        series, count = (), 0
        for r in deck[: trial % 9]:
            if count + val(r) <= spec.peg_limit:
                series, count = series + (r,), count + val(r)
        got = np.empty(14, dtype=np.int64)
        infoset_search.lay_points(
            np.array(list(series) + [0], dtype=np.int64), len(series), count, pr, got
        )
        for x in range(1, 14):
            c2 = count + val(x)
            if series.count(x) < 4:
                want = peg_points(series + (x,), c2, spec) if c2 <= spec.peg_limit else -1
                assert got[x] == want, (series, x)


@pytest.mark.parametrize("rules", RULES)
def test_the_expected_answer_equals_every_hand_enumerated(rules):
    spec = CribbageSpec(**rules)
    rng = np.random.default_rng(11)
    for trial in range(30):
        u = 1 + trial % 4
        deck = [r for r in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        series, count = (), 0
        for r in deck[: 1 + trial % 5]:
            if count + val(r) <= spec.peg_limit:
                series, count = series + (r,), count + val(r)
        urn = sorted(deck[20 : 20 + 8 + trial % 6])
        avail = np.bincount(urn, minlength=14).astype(np.int64)
        ser = np.array(list(series) + [0] * 4, dtype=np.int64)
        pr = spec.as_array()
        points = np.empty(14, dtype=np.int64)
        infoset_search.lay_points(ser, len(series), count, pr, points)
        got = infoset_search.answer_points(points, avail, len(urn), u, pr)
        assert got == pytest.approx(plain_answer(series, count, urn, u, spec), abs=1e-12)


@pytest.mark.parametrize("rules", RULES)
def test_the_modelled_reply_equals_every_hand_of_mine_enumerated(rules):
    spec = CribbageSpec(**rules)
    pr = spec.as_array()
    rng = np.random.default_rng(5)
    for trial in range(40):
        u = 1 + trial % 3
        deck = [r for r in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        series, count = (), 0
        for r in deck[: trial % 4]:
            if count + val(r) < spec.peg_limit:
                series, count = series + (r,), count + val(r)
        theirs = tuple(deck[10:13])
        last = int(rng.integers(0, 2)) if count else -1
        public = {r: 4 - series.count(r) for r in range(1, 14)}
        pub = np.array([0] + [public[r] for r in range(1, 14)], dtype=np.int64)
        ser = np.array(list(series) + [0] * 20, dtype=np.int64)
        memo = np.full((14, 15), -2, dtype=np.int64)
        h2 = np.full((1, 2, 3), -1, dtype=np.int64)  # holding 0: (mine unused here, theirs)
        h2[0, 1] = theirs
        used2 = np.zeros((1, 2), dtype=np.int64)
        avail = np.empty(14, dtype=np.int64)
        i = infoset_search.reply(
            h2, used2, 0, u, ser, 0, len(series), count, last, pub, pr, memo, avail
        )
        want = plain_reply(theirs, series, count, last, public, u, spec)
        assert (theirs[i] if i >= 0 else None) == want, (theirs, series, last, u)


def leaks(reply, spec, positions=8):
    """Every opponent node's reply, compared across two hands of mine that the opponent cannot
    tell apart there (the same laid cards; my other card differs; every holding it may have
    with either): the number of nodes where the reply differs."""
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(positions):
        mine, series, count, public, _, _ = position(rng, spec, 2, 2, 2)
        x = next(r for r in range(1, 14) if r != mine[1] and public[r] > mine.count(r))
        avail = np.array([0] + [public[r] for r in range(1, 14)], dtype=np.int64)
        for r in (*mine, x):
            avail[r] -= 1
        holdings = [tuple(row) for row in open_search.holdings(avail, 2, -1)[0]]
        logs = []
        for hand in (mine, [mine[0], x]):
            log = {}
            plain_values(
                tuple(hand),
                series,
                count,
                holdings,
                np.ones(len(holdings)),
                public,
                spec,
                reply,
                log,
            )
            logs.append(log)
        found += sum(logs[0][key] != logs[1][key] for key in logs[0].keys() & logs[1].keys())
    return found


def test_no_reply_in_the_tree_depends_on_my_hidden_cards_and_a_planted_leak_is_caught():
    spec = CribbageSpec()
    assert leaks(honest, spec) == 0
    assert leaks(peeking, spec) > 0


def engine_choice(choose, hands, used, known, st, series, seed):
    pegging.seed_kernels(seed)
    return choose(
        hands.copy(),
        used.copy(),
        series.copy(),
        st.copy(),
        known.copy(),
        CribbageSpec().as_array(),
        NO_MODEL,
    )


def cheat(hands, used, series, st, known, pr, shares):
    """A planted leak: expert1's search over the opponent's actual hand alone."""
    me = st[pegging.TURN]
    mine = np.array([RANK[c] if not used[me, i] else -1 for i, c in enumerate(hands[me])])
    theirs = np.array([[RANK[c] for i, c in enumerate(hands[1 - me]) if not used[1 - me, i]]])
    return open_search.best_margin(
        open_search.play_values(
            mine, series, st[pegging.N], st[pegging.COUNT], theirs, np.ones(1), pr
        ),
        pr,
    )


def swapped_deals(rng):
    """Engine positions after the lead, each twice: the opponent's unplayed cards swapped
    for other cards the player to lay has not seen."""
    for _ in range(12):
        deck = rng.permutation(52)
        hands = np.array([deck[:4], deck[4:8]], dtype=np.int64)
        used = np.zeros((2, 4), dtype=np.bool_)
        used[0, 0] = True  # the pone led; the dealer to lay
        series = np.zeros(8, dtype=np.int64)
        series[0] = RANK[hands[0, 0]]
        st = np.array([1, VALUE[RANK[hands[0, 0]]], 1, 0], dtype=np.int64)
        known = np.zeros((2, 53), dtype=np.int64)
        for c in list(hands[1]) + list(deck[8:10]) + [deck[12], hands[0, 0]]:
            known[1, c] += 1
        other = hands.copy()
        other[0, 1:] = deck[13:16]  # unseen by the dealer either way
        yield hands, other, used, known, st, series


def spread(*args):
    return infoset_search.infoset_choice(*args, False, NO_MEMO)


def drawn(*args):
    return infoset_search.infoset_choice(*args, True, NO_MEMO)


@pytest.mark.parametrize("choose, leaky", [(spread, False), (drawn, False), (cheat, True)])
def test_the_engine_decision_never_depends_on_the_opponents_hidden_cards(choose, leaky):
    rng = np.random.default_rng(9)
    differ = sum(
        engine_choice(choose, a, used, known, st, ser, 1)
        != engine_choice(choose, b, used, known, st, ser, 1)
        for a, b, used, known, st, ser in swapped_deals(rng)
    )
    assert (differ > 0) == leaky


def leads(rng):
    """The pone to lead, four cards in hand, having seen its six and the starter."""
    for _ in range(12):
        deck = rng.permutation(52)
        known = np.zeros((2, 53), dtype=np.int64)
        for c in list(deck[:4]) + list(deck[8:10]) + [deck[12]]:
            known[0, c] += 1
        hands = np.array([deck[:4], deck[4:8]], dtype=np.int64)
        st = np.array([0, 0, 0, -1], dtype=np.int64)
        yield hands, np.zeros((2, 4), dtype=np.bool_), known, st, np.zeros(8, dtype=np.int64)


def test_the_experts_card_is_a_function_of_its_ranks_not_of_their_order():
    """The expert searches its ranks in rising order, so the same cards dealt in any order
    lay the same rank (a card's decision can be kept by its ranks). Positions: the pone's
    lead and the dealer's reply."""
    from cribsolve.games.cribbage.deals.roster import expert_tables

    rng = np.random.default_rng(17)
    pr = CribbageSpec().as_array()
    shares = expert_tables(CribbageSpec(), ())[1]
    replies = ((h, u, k, st, ser) for h, _, u, k, st, ser in swapped_deals(rng))
    for hands, used, known, st, series in [*leads(rng), *replies]:
        me = st[pegging.TURN]
        ranks = set()
        for perm in permutations(range(4)):
            hp, up = hands.copy(), used.copy()
            hp[me], up[me] = hands[me, list(perm)], used[me, list(perm)]
            i = spread(hp, up, series.copy(), st.copy(), known.copy(), pr, shares)
            ranks.add(int(RANK[hp[me, i]]))
        assert len(ranks) == 1
