"""How good is optimal play? The win rate of the best policy and an upper bound on every policy.

The upper bound is an information relaxation with a penalty (Brown, Smith and Sun, "Information
relaxations and duality in stochastic dynamic programs", Operations Research 58(4), 2010). On
each sampled deck the player sees every card, but each decision is charged
    phi(next state) - E[phi(next state) | what the player really knew when deciding],
with phi an approximate value function: W[k][s] (simulate.win_table), the probability of
winning from score s with k deals left, and in Patience the after value (deckvalue.py), which
also weighs the ranks still unseen once the deal is scored; its expectation is exact over
every face-down pair and starter (outcome_charges). Under any real policy the charges have
mean zero, so the mean over decks of the best penalised perfect-information result bounds the
optimal win rate from above; with phi the true value function it would equal it on every deck.

The discards never change which cards come later, so the perfect-information problem is a small
dynamic program over deals and scores (``penalised_value``). The expectations are exact:
Patience's over every face-down pair and starter, Patience II's over every starter (the point
distributions the ``win`` policy uses). In Patience II both discards of a deal are one
decision charged at the second, with what was known then (both hands): a real player knows
less at the first discard, so the bound stays valid, only looser.

A phi of the score alone never charges the player for knowing the next hand, and that is most
of the slack. In Patience phi also looks at it (patience_terms): the added term's mean is
estimated from drawn hands, unbiased and drawn independently of the deck, so the charges still
average zero. The same idea for Patience II (the first discard charged with the second hand
drawn, the next deal's hands drawn) was tried and left out: on small samples it stayed above
100% at twenty times the cost, and its excess falls only as 1/sqrt(drawn deals), towards
about 102% (README), so clairvoyance remains the better bound there.

The lower side: a deck's win (0 or 1) is a noisy estimate of the best policy's win rate. In
Patience the same deck's path_value, its win less the charges along its own play, has the
same mean (the charges average zero under a real policy) and is never above the deck's
bound, so the width is counted deck by deck as bound minus path: the charges serve as a
control variate, and most of the noise of the win cancels against the bound's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.core.expect import N_CLASSES, OFFSET
from cribsolve.core.fastev import OPT_DISC, OPT_KEEP, ev_discard
from cribsolve.core.scoring.table import score5
from cribsolve.errors import CribsolveError
from cribsolve.games.solitaire.deckvalue import continuation, value_row
from cribsolve.games.solitaire.facts import NEXT_HANDS, PATIENCES, SOLITAIRES
from cribsolve.games.solitaire.patience import (
    WIN_AT,
    _in_doubt,
    deal_distributions,
    deal_points,
    draw_cards,
    patience2_deal,
    patience_deal,
    unseen_of,
    win_discard,
)
from cribsolve.infra.jit import njit, prange
from cribsolve.infra.runner import Job, Local, chunks, run


@njit(cache=True)
def penalised_value(x, phi, q, win_at):
    """The best penalised result of one deck, from score 0.

    x[d, o]: the points deal d makes with action o on this deck; phi[d, s]: the value function
    of the state after deal d at score s (capped at win_at), as it falls on this deck;
    q[d, s, o]: its expectation given what the player knew at deal d, from score s with action
    o. Returns max over actions of 1{final >= win_at} - sum_d (phi[d, s_d+1] - q[d, s_d, o_d])."""
    deals, n_opt = x.shape
    v = np.zeros(win_at + 1)
    v[win_at] = 1.0
    nxt = np.empty(win_at + 1)
    for d in range(deals - 1, -1, -1):
        for s in range(win_at + 1):
            best = -1e300
            for o in range(n_opt):
                t = min(s + x[d, o], win_at)
                val = v[t] - phi[d, t] + q[d, s, o]
                if val > best:
                    best = val
            nxt[s] = best
        v[:] = nxt
    return v[0]


@njit(cache=True)
def path_value(x, phi, q, picks, win_at):
    """The penalised result of one line of play (picks[d]: deal d's discard), from score 0:
    1{final >= win_at} - sum_d (phi[d, s_d+1] - q[d, s_d, o_d]). Never above penalised_value;
    along a real policy's play its mean is that policy's win rate (the charges average zero),
    with far less noise than the win alone."""
    s, charges = 0, 0.0
    for d in range(x.shape[0]):
        t = min(s + x[d, picks[d]], win_at)
        charges += phi[d, t] - q[d, s, picks[d]]
        s = t
    return (1.0 if s >= win_at else 0.0) - charges


@njit(cache=True)
def _expect(hist_counts, lo, hi, total, w_next, q_col):
    """q_col[s] = E[w_next[min(s + points, WIN_AT)]], points distributed as hist_counts[lo:hi]
    (weights summing to total), for every score s."""
    for s in range(WIN_AT + 1):
        acc = 0.0
        for i in range(lo, hi):
            if hist_counts[i] != 0.0:
                acc += hist_counts[i] * w_next[min(s + i, WIN_AT)]
        q_col[s] = acc / total


@njit(cache=True)
def hand_charges(hand, seen, w_next, table, uniform, q):
    """q[s, o] = E[w_next[min(s + points, WIN_AT)]] for each of the hand's 15 discards, exact
    over every face-down pair and starter not in ``seen`` (the win policy's P(win))."""
    hists, _ = deal_distributions(hand, unseen_of(seen), table, uniform)
    col = np.empty(WIN_AT + 1)
    for o in range(15):
        nz = np.flatnonzero(hists[o, OFFSET:])
        _expect(hists[o, OFFSET:], nz[0], nz[-1] + 1, 1.0, w_next, col)
        q[:, o] = col


@njit(cache=True)
def next_hand_mean(seen, wins, coefs, k, table, uniform, rand):
    """An unbiased estimate of E[max_o q[s, o]] over the next hand, for every score s: the mean
    over len(rand) hands drawn from the cards not in ``seen`` (rand[m]: six uniforms each), each
    charged with the continuation (k deals after it) its own unseen cards give."""
    unseen = unseen_of(seen)
    hand = np.empty(6, dtype=np.int64)
    qs = np.empty((WIN_AT + 1, 15))
    w_next = np.empty(WIN_AT + 1)
    est = np.zeros(WIN_AT + 1)
    for m in range(rand.shape[0]):
        draw_cards(unseen, rand[m], hand)
        seen2 = seen.copy()
        for c in hand:
            seen2[c] = True
        continuation(wins, coefs, k, seen2, w_next)
        hand_charges(hand, seen2, w_next, table, uniform, qs)
        for s in range(WIN_AT + 1):
            est[s] += qs[s].max()
    return est / max(1, rand.shape[0])


def _triples() -> np.ndarray:
    """TRIPLES[a, b, c] for ranks a <= b <= c: the index of that multiset of three ranks."""
    index = np.full((13, 13, 13), -1, dtype=np.int64)
    i = 0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                index[a, b, c] = i
                i += 1
    return index


TRIPLES = _triples()  # the 455 rank multisets a crib pair and a starter can take
MAX_DEAL = 64  # above a Patience deal's points (hand and crib 29 each, heels)


@njit(cache=True)
def outcome_charges(hand, seen, wins, after, k, table, q):
    """q[s, o] = E[A(min(s + points, WIN_AT))] for each of the hand's 15 discards, exact over
    every face-down pair and starter not in ``seen``, A being the after value (row ``after``,
    k deals left) of the cards still unseen once those three are turned. The three ranks fix A,
    so the points are counted by discard and rank multiset first, then weighed by its A."""
    unseen = unseen_of(seen)
    n = unseen.shape[0]
    counts = np.zeros(13)
    for c in unseen:
        counts[c // 4] += 1.0  # ranks 0-12, as deckvalue counts
    hand_pts = np.empty((n, 15), dtype=np.int64)  # kept four + starter, heels
    for m in range(n):
        st = unseen[m]
        for o in range(15):
            kk = OPT_KEEP[o]
            hand_pts[m, o] = score5(
                table, hand[kk[0]], hand[kk[1]], hand[kk[2]], hand[kk[3]], st, False
            ) + 2 * (RANK[st] == JACK)
    hist = np.zeros((15, 455, MAX_DEAL))
    used = np.zeros(455, dtype=np.bool_)
    rows = np.zeros((455, WIN_AT + 1))
    for i in range(n):
        a = unseen[i]
        for j in range(i + 1, n):
            b = unseen[j]
            for m in range(n):
                if m == i or m == j:
                    continue
                st = unseen[m]
                r0, r1, r2 = a // 4, b // 4, st // 4
                if r0 > r1:
                    r0, r1 = r1, r0
                if r1 > r2:
                    r1, r2 = r2, r1
                if r0 > r1:
                    r0, r1 = r1, r0
                key = TRIPLES[r0, r1, r2]
                if not used[key]:
                    used[key] = True
                    counts[r0] -= 1.0
                    counts[r1] -= 1.0
                    counts[r2] -= 1.0
                    value_row(wins, after, k, counts, rows[key])
                    counts[r0] += 1.0
                    counts[r1] += 1.0
                    counts[r2] += 1.0
                for o in range(15):
                    d = OPT_DISC[o]
                    p = hand_pts[m, o] + score5(table, hand[d[0]], hand[d[1]], a, b, st, False)
                    hist[o, key, p] += 1.0
    q[:, :] = 0.0
    for o in range(15):
        for key in range(455):
            if used[key]:
                for p in range(MAX_DEAL):
                    if hist[o, key, p] != 0.0:
                        for s in range(WIN_AT + 1):
                            q[s, o] += hist[o, key, p] * rows[key, min(s + p, WIN_AT)]
    q /= n * (n - 1) / 2 * (n - 2)


@njit(cache=True)
def patience_terms(deck, wins, coefs, after, table, rand):
    """penalised_value's (x, phi, q) for one Cribbage Patience deck, and picks, W being the
    continuation of deckvalue.py (the deck value with ``coefs``, W alone with none). With
    ``after`` (the after value's coefficients; none: the continuation) phi[d] before the last
    deal is the after value of the cards this deck leaves unseen, and q its exact expectation
    (outcome_charges). With rand (shape (4, M, 6), M > 0) the charge of deal d also looks at
    the next hand h: phi[d, s] gains U(s, h) - (the mean of U(s, .) over M hands drawn from
    the cards then unseen), U(s, h) the deck (or win) policy's P(win) with h in hand. The added
    term has mean zero given everything seen by the end of deal d, whatever the discard, so q
    is unchanged and the bound stays valid; it charges the player for knowing the next hand.
    picks[d]: the discard the deck policy (W's win policy with no coefs) makes on deal d of
    this deck, as play_patience chooses it (for path_value)."""
    seen = np.zeros(53, dtype=np.bool_)
    uniform = np.ones(N_CLASSES)
    x = np.zeros((5, 15), dtype=np.int64)
    phi = np.zeros((5, WIN_AT + 1))
    q = np.zeros((5, WIN_AT + 1, 15))
    policy_q = np.zeros((WIN_AT + 1, 15))
    w = np.empty(WIN_AT + 1)
    charge_after = after.shape[0] > 0
    look = rand.shape[1] > 0
    picks = np.zeros(5, dtype=np.int64)
    score = 0
    for d in range(5):
        crib2, hand, s = patience_deal(deck, d)
        if d > 0 and look:
            est = next_hand_mean(seen, wins, coefs, 4 - d, table, uniform, rand[d - 1])
        for c in hand:
            seen[c] = True
        continuation(wins, coefs, 4 - d, seen, w)
        hand_charges(hand, seen, w, table, uniform, policy_q)
        if _in_doubt(wins[4 - d], score):
            picks[d] = win_discard(hand, seen, score, w, table, uniform)[0]
        else:
            picks[d] = ev_discard(hand, unseen_of(seen), table)
        if d < 4 and charge_after:
            outcome_charges(hand, seen, wins, after[4 - d], 4 - d, table, q[d])
        else:
            phi[d] = w
            q[d] = policy_q
        if d > 0 and look:
            for t in range(WIN_AT + 1):
                phi[d - 1, t] += policy_q[t].max() - est[t]
        for o in range(15):
            x[d, o] = deal_points(hand, o, crib2, s, table) + 2 * (RANK[s] == JACK)
        score += x[d, picks[d]]
        seen[crib2[0]] = True
        seen[crib2[1]] = True
        seen[s] = True
        if d < 4 and charge_after:  # the after value of the cards this deck leaves
            continuation(wins, after, 4 - d, seen, phi[d])
    return x, phi, q, picks


MAX_POINTS = 3 * 29 + 3  # Patience II: three hands and heels, with room


@njit(cache=True)
def patience2_terms(deck, wins, table):
    """penalised_value's (x, phi, q) for one Cribbage Patience II deck: a deal's two discards
    are one action, 15 * first + second, charged given both hands."""
    seen = np.zeros(53, dtype=np.bool_)
    x = np.zeros((4, 225), dtype=np.int64)
    phi = np.zeros((4, WIN_AT + 1))
    q = np.zeros((4, WIN_AT + 1, 225))
    first = np.empty(2, dtype=np.int64)
    col = np.empty(WIN_AT + 1)
    counts = np.zeros(MAX_POINTS + 1)
    for d in range(4):
        h1, h2, st = patience2_deal(deck, d)
        for c in h1:
            seen[c] = True
        for c in h2:
            seen[c] = True
        unseen = unseen_of(seen)
        w_next = wins[3 - d]
        phi[d] = w_next
        for a in range(15):
            first[0] = h1[OPT_DISC[a, 0]]
            first[1] = h1[OPT_DISC[a, 1]]
            k = OPT_KEEP[a]
            for b in range(15):
                counts[:] = 0.0
                lo, hi = MAX_POINTS, 0
                for s in unseen:
                    p = (
                        score5(table, h1[k[0]], h1[k[1]], h1[k[2]], h1[k[3]], s, False)
                        + deal_points(h2, b, first, s, table)
                        + 2 * (RANK[s] == JACK)
                    )
                    counts[p] += 1.0
                    lo = min(lo, p)
                    hi = max(hi, p + 1)
                    if s == st:
                        x[d, 15 * a + b] = p
                _expect(counts, lo, hi, unseen.shape[0], w_next, col)
                q[d, :, 15 * a + b] = col
        seen[st] = True
    return x, phi, q


@njit(cache=True, parallel=True)
def bound_games(decks, variant2, wins, coefs, after, table, rand):
    """(bound, path): every deck's penalised value and, in Patience, the path_value of the
    policy coefs plays (the deck policy's with the deck value, win's with none; NaN in
    Patience II), spread over threads; rand[i]: deck i's uniforms, coefs
    the deck value and after the after value for patience_terms (Patience only)."""
    bound = np.empty(decks.shape[0])
    path = np.full(decks.shape[0], np.nan)
    for i in prange(decks.shape[0]):
        if variant2:
            x, phi, q = patience2_terms(decks[i], wins, table)
        else:
            x, phi, q, picks = patience_terms(decks[i], wins, coefs, after, table, rand[i])
            path[i] = path_value(x, phi, q, picks, WIN_AT)
        bound[i] = penalised_value(x, phi, q, WIN_AT)
    return bound, path


# as_dict's measures, each with its 95% CI (``<measure>_ci``): the policies' win rates, the
# bounds, and the differences between them; COLUMNS is --csv's header, named as as_dict is
MEASURES = (
    "win_rate",
    "charged_rate",
    "win_policy_rate",
    "gain",
    "upper_bound",
    "clairvoyant",
    "width",
)
COLUMNS = ["variant", "n", "seed", "next_hands", "policy", "measure", "value", "ci_low", "ci_high"]


@dataclass
class Bracket:
    """The win rate of the best policy and the bounds above it, all on the same decks."""

    variant: str
    n: int
    seed: int
    next_hands: int  # hands drawn per look-ahead charge (Patience)
    wins: int = 0  # the best policy's
    win_policy_wins: int = 0  # the win policy's, where it is not the best
    gain_sq: int = 0  # (best policy's win - win policy's win) squared, summed
    clairvoyant_wins: int = 0
    bound_sum: float = 0.0  # per-deck penalised values: sum and sum of squares
    bound_sq: float = 0.0
    path_sum: float = 0.0  # per-deck best policy's path (chunk_bracket): sum, squares
    path_sq: float = 0.0
    gap_sq: float = 0.0  # (penalised value - path) squared, summed

    def _mean_ci(self, total, squares):
        mean = total / self.n
        var = max(0.0, squares / self.n - mean * mean) * self.n / max(1, self.n - 1)
        half = 1.959964 * math.sqrt(var / self.n)
        return mean, [mean - half, mean + half]

    def as_dict(self) -> dict:
        from cribsolve.infra.stats import wilson

        upper, upper_ci = self._mean_ci(self.bound_sum, self.bound_sq)
        width, width_ci = self._mean_ci(self.bound_sum - self.path_sum, self.gap_sq)
        d = {
            "variant": self.variant,
            "n": self.n,
            "seed": self.seed,
            "policy": SOLITAIRES[self.variant].best,
            "next_hands": self.next_hands,
            "win_rate": self.wins / self.n,
            "win_rate_ci": list(wilson(self.wins, self.n)),
            "upper_bound": upper,
            "upper_bound_ci": upper_ci,
            "clairvoyant": self.clairvoyant_wins / self.n,
            "clairvoyant_ci": list(wilson(self.clairvoyant_wins, self.n)),
            "width": width,
            "width_ci": width_ci,
        }
        if self.variant == "patience":
            d["charged_rate"], d["charged_rate_ci"] = self._mean_ci(self.path_sum, self.path_sq)
        if SOLITAIRES[self.variant].best != "win":
            gain, gain_ci = self._mean_ci(self.wins - self.win_policy_wins, self.gain_sq)
            d.update(
                win_policy_rate=self.win_policy_wins / self.n,
                win_policy_rate_ci=list(wilson(self.win_policy_wins, self.n)),
                gain=gain,
                gain_ci=gain_ci,
            )
        return d

    def csv_rows(self) -> list[list]:
        """COLUMNS: one row per measure of as_dict (MEASURES, those it has), its CI beside it."""
        d = self.as_dict()
        return [
            [d["variant"], d["n"], d["seed"], d["next_hands"], d["policy"], m, d[m], *d[m + "_ci"]]
            for m in MEASURES
            if m in d
        ]


def chunk_bracket(
    variant: str,
    seed: int,
    index: int,
    games: int,
    next_hands: int,
    wins: np.ndarray,
    coefs: np.ndarray,
    after: np.ndarray,
) -> dict:
    """Chunk ``index`` of a bracket, per deck: whether the best, the win and the clairvoyant
    policies won (simulate's games of the same chunk), the penalised bound (charged with
    the deck value of ``coefs`` and the after value of ``after``; none: W alone) and the best
    policy's ``path`` (Patience: its path_value; Patience II: its win, uncharged). A pure
    function of its arguments, so a chunk can run anywhere or be read back from a
    checkpoint."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.solitaire.simulate import chunk_decks, chunk_points

    best = SOLITAIRES[variant].best

    def won(policy):
        return (
            chunk_points(
                variant,
                policy,
                seed,
                index,
                games,
                wins,
                False,
                coefs if policy == "deck" else None,
            ).sum(axis=1)
            >= WIN_AT
        )

    decks = chunk_decks(seed, index, games)[1]  # as simulate.chunk_points deals
    looks = np.random.default_rng([seed, index, 1]).random((games, 4, next_hands, 6))
    bound, path = bound_games(
        decks, variant == "patience2", wins, coefs, after, rank_table(15), looks
    )
    out = {"best": won(best), "clairvoyant": won("clairvoyant"), "bound": bound}
    out["path"] = out["best"].astype(float) if variant == "patience2" else path
    out["win"] = out["best"] if best == "win" else won("win")
    return out


def bracket(
    variant: str,
    n: int,
    seed: int = 0,
    jobs: int | None = None,
    progress=None,
    next_hands: int = NEXT_HANDS,
    where=None,
    checkpoint: str | None = None,
) -> Bracket:
    """Play the best and the clairvoyant policies and compute the penalised bound on ``n``
    decks: simulate's decks for the same seed (so ``win_rate`` is simulate --policy P's for
    P = SOLITAIRES[variant].best; where that is not ``win``, ``win`` is played too, for the
    gain). Patience charges each deal for the next hand with ``next_hands`` drawn hands (0:
    not at all). Chunks as simulate's, run ``where`` (runner.connect; default: here on ``jobs``
    threads), kept in ``checkpoint``; ``progress(k)`` is called as each chunk of k decks ends.
    Patience's deck policy uses the deck value, its charges the after value (deckvalue.py)."""
    from cribsolve.games.solitaire.deckvalue import SCORE_ONLY
    from cribsolve.games.solitaire.simulate import (
        DECK_VALUE_SEED,
        WIN_TABLE_SEED,
        deck_value,
        win_table,
    )

    if variant not in PATIENCES:
        raise CribsolveError(f"unknown variant {variant!r} (expected patience or patience2)")
    if seed in (WIN_TABLE_SEED, DECK_VALUE_SEED):  # phi would be fitted on the decks it charges
        raise CribsolveError(
            f"--seed {seed} deals the games the win table and the deck value "
            "were fitted on: choose another seed for a bound"
        )
    if next_hands < 0:
        raise CribsolveError("--next-hands must be at least 0")
    if n < 1:
        raise CribsolveError("-n must be at least 1")
    res = Bracket(variant, n, seed, 0 if variant == "patience2" else next_hands)
    wins, chunk = win_table(variant), SOLITAIRES[variant].chunk
    coefs = deck_value() if variant == "patience" else SCORE_ONLY
    after = deck_value(after=True) if variant == "patience" else SCORE_ONLY
    parts = chunks(n, chunk)
    job = Job(
        chunk_bracket,
        [(variant, seed, i, games, res.next_hands, wins, coefs, after) for i, games in parts],
        [games for _, games in parts],
        {
            "run": "bracket",
            "variant": variant,
            "n": n,
            "seed": seed,
            "next_hands": res.next_hands,
            "chunk": chunk,
        },
    )
    plain = SOLITAIRES[variant].best == "win"
    for c in run(job, where or Local(jobs), progress, checkpoint):
        won, ub = c["best"], c["bound"]
        res.wins += int(won.sum())
        if not plain:
            res.win_policy_wins += int(c["win"].sum())
            res.gain_sq += int((won != c["win"]).sum())
        res.clairvoyant_wins += int(c["clairvoyant"].sum())
        res.bound_sum += float(ub.sum())
        res.bound_sq += float((ub * ub).sum())
        res.path_sum += float(c["path"].sum())
        res.path_sq += float((c["path"] ** 2).sum())
        res.gap_sq += float(((ub - c["path"]) ** 2).sum())
    return res
