"""The adviser, the one engine of the hints, the coach and the review (docs/playing.md): a
decision's options valued as the commands value them (the throws as ``best-discard --pegging``,
the cards as ``best-play``), with the P(win) of each (``best-discard --my-score``, ``best-play
--my-score``), ranked by the decision's objective: expected points, or P(win) once a player is
within ``ENDGAME`` points of the game's end. ``judge`` says what a choice lost by that objective
and whether the loss is beyond the estimates' error (``Judgment``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cribsolve.core.notation import format_card, format_cards, parse_cards
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.table.replay import Decision
from cribsolve.infra import jit

ENDGAME = 30  # points from the end at which P(win) ranks the options
WIN_SAMPLES = 500  # deals played out per option for its P(win) (win_choices.py)
PLAY_SAMPLES = 2000  # three or four players: deals of the others' cards per card laid
ERRORS = 3.0  # a sampled loss counts beyond this many standard errors of the difference
EXACT = 1e-9  # an exact loss counts above this (rounding)
COACH_POINTS = 0.25  # a choice this many expected points worse is told
COACH_WIN = 0.01  # or this much P(win) worse (when P(win) is ranked)
POINTS = {"throw": "value", "play": "margin", "draw": "value", "bid": "value"}  # what
# expected points rank a decision by, and every figure judged
MEASURES = {
    "throw": ("value", "net", "win"),
    "play": ("margin", "win"),
    "draw": ("value",),
    "bid": ("value",),
}
DRAW_DRAWS = 64  # draws of the replacements per way of redrawing (the player's: 4 and 32)


def sign(spec, measure: str) -> int:
    """+1 where more of ``measure`` is better, -1 where less is (points under lowball)."""
    return -1 if spec.lowball and measure != "win" else 1


def endgame(d: Decision, spec) -> bool:
    return max(d.scores) >= spec.game_length - ENDGAME


def unweighed(spec) -> str | None:
    """Why a decision's P(win) is not given under ``spec``, or None: where the odds table does
    not weigh the board (win_choices.unweighed), and where a decision's playouts
    (win_choices.throw_odds, play_odds) do not hold the deal's facts: a first cut card, the
    redraws, a card given."""
    from cribsolve.games.cribbage.deals import win_choices

    why = win_choices.unweighed(spec)
    if why is None and (spec.starters == 2 or spec.draw or spec.choose_cut):
        rule = "two cut cards" if spec.starters == 2 else "draw" if spec.draw else "choose-a-cut"
        why = (
            f"not weighed under {rule}: a decision's playouts do not hold the first cut card, "
            "the redraws or the card given"
        )
    return why


def objective(d: Decision, spec) -> str:
    """The figure a decision is ranked and judged by: "win" near the end where P(win) is
    weighed (unweighed), else the expected points (POINTS)."""
    return "win" if endgame(d, spec) and not unweighed(spec) else POINTS[d.kind]


def decision_seed(d: Decision) -> int:
    """The seed of a decision's sampled P(win), from public facts of the game only (the deal,
    who deals, the scores, the player's cards, the cards laid and seen), in an order that does
    not depend on how they were typed: the hint at the table and the review of the record
    sample the same deals, and no two decisions share their sampling error."""
    facts = [
        d.kind == "play",
        d.deal,
        int(d.i_deal),
        *d.scores,
        len(d.hand),
        *sorted(d.hand),
        len(d.played),
        *[99 if c is GO else c for c in d.played],
        *sorted(d.seen),
    ]
    return int(np.random.SeedSequence([int(x) for x in facts]).generate_state(1)[0])


class Options(list):
    """[(choice, {figure: value})], best first by ``by`` (objective); ``per``: for a sampled
    figure, each choice's values deal by deal on the deals all its options share (common random
    numbers), from which ``judge`` takes the standard error of a difference."""

    def __init__(self, rows, by: str, per: dict | None = None):
        super().__init__(rows)
        self.by, self.per = by, per or {}


def options(d: Decision, spec, weigh: bool | None = None) -> Options:
    """The hint: every option with its figures, best first by the decision's objective; with
    "win", the P(win) of the game from the scores and the dealer the decision carries, where
    ``weigh`` (default: where P(win) ranks) and the odds table models the rules. The review
    asks for the same with ``weigh`` (evaluate)."""
    by = objective(d, spec)
    if d.kind in ("draw", "bid"):  # before the throw: no odds table weighs these rules
        return (draw_options if d.kind == "draw" else bid_options)(d, spec)
    if d.kind == "throw":
        rows, per = throw_options(d, spec), {}
    else:
        rows, per = play_options(d, spec)
    if (by == "win" if weigh is None else weigh) and not unweighed(spec):
        # play readies the game's end (jit.later): its kernels, and the odds table loaded or
        # built, which a second thread would read (and find damaged) and build again meanwhile
        jit.wait_later("the kernels of the game's end")
        wins = _wins(d, spec)
        for c, f in rows:
            f["win"] = wins[_same(c)][0]
        per = {**per, "win": {c: wins[_same(c)][1] for c, _ in rows}}
    rows = sorted(rows, key=lambda r: -sign(spec, by) * r[1][by])  # stable: points break ties
    return Options(rows, by, per)


def evaluate(d: Decision, spec) -> Options:
    """Every option of a decision with all its figures, P(win) included wherever the odds table
    weighs the rules, ranked as the hint ranks them: the review's figures."""
    return options(d, spec, weigh=True)


def _same(choice: str) -> str:
    """A choice named the same whatever the order of its cards."""
    return format_cards(sorted(parse_cards([choice])))


def _wins(d: Decision, spec) -> dict:
    """{choice: (P(win), its values deal by deal)}: every option played out on the same
    WIN_SAMPLES deals, seeded by decision_seed (win_choices.py)."""
    from cribsolve.games.cribbage.deals import win_choices

    seed = decision_seed(d)
    hand = sorted(d.hand)  # the same deals whatever order the cards are held in
    if d.kind == "throw":
        return {
            format_cards(sorted(t.discard)): (t.win, t.per)
            for t in win_choices.throw_odds(
                hand, d.i_deal, d.scores[0], d.scores[1], spec, (), WIN_SAMPLES, seed
            )
        }
    t = spec.crib_size // 2
    thrown, starter, others = d.seen[:t], d.seen[t], d.seen[t + 1 :]
    return {
        _same(format_card(c)): (p, per)
        for c, p, _, per in win_choices.play_odds(
            hand,
            d.played,
            int(d.i_deal),
            starter,
            thrown,
            d.scores[0],
            d.scores[1],
            others,
            spec,
            WIN_SAMPLES,
            seed,
            per_sample=True,
        )
    }


def throw_options(d: Decision, spec) -> list:
    """The throws, best expected points first: exact over every starter and opponent throw for
    the standard show, sampled under house rules that change it (the same figures as
    best-discard, with its standard error "se" of the net)."""
    from cribsolve.core.rules import ruleset
    from cribsolve.games.cribbage.players.pegtable import kept_margin
    from cribsolve.games.cribbage.throw.best_discard import (
        best_discard,
        exact_show,
        sampled_discard,
    )

    seat = "dealer" if d.owns_crib else "pone"
    if spec.players > 2:  # one card to the crib: exact, the other crib cards uniform
        values = best_discard(d.hand, seat, (), "uniform", ruleset("standard", target=spec.target))
    else:
        values = (
            best_discard(d.hand, seat, (), "optimal", ruleset("standard"))
            if exact_show(spec)
            else sampled_discard(d.hand, seat, spec, d.known, d.cut[0] if d.cut else None)
        )
    rows = []
    for v in values:
        peg = kept_margin(v.keep, d.i_deal, spec) if pegs(spec) else 0.0
        f = {"hand": v.hand, "crib": v.crib, "net": v.net, "pegging": peg, "value": v.net + peg}
        if getattr(v, "se", None) is not None:
            f["se"] = v.se
        parts = [v.discard, getattr(v, "other_crib", None), [getattr(v, "give", None)]]
        rows.append(
            (" / ".join(_in_hand_order(d.hand, c) for c in parts if c and None not in c), f)
        )
    return sorted(_once(rows), key=lambda r: -sign(spec, "value") * r[1]["value"])


def _once(rows: list) -> list:
    """Each choice once, its first row kept: two copies of a card (two decks, two jokers) make
    the same choice, named alike (a throw in hand order, as choice_key names it)."""
    first = {}
    for row in rows:
        first.setdefault(row[0], row)
    return list(first.values())


def pegs(spec) -> bool:
    """Whether a throw's value counts the expert's pegging margin (pegtable.kept_margin: four
    cards kept by two players, the play's own rules)."""
    return spec.kept == 4 and spec.players == 2 and not spec.five_card


def draw_options(d: Decision, spec) -> Options:
    """Draw cribbage: every way of redrawing (the cards thrown away; "none" keeps all), worth
    the best throw's expected value after it (before the throw) or the kept hand's expected
    show (after it), as the simulated player weighs them (draw_and_bid.redraw_values) over
    DRAW_DRAWS draws of the replacements, the same for every way, seeded by the decision."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.rules.pegging import seed_kernels
    from cribsolve.games.cribbage.throw.draw_and_bid import redraw_values

    hand = np.array(d.hand, dtype=np.int64)
    seen = np.bincount(np.array(d.hand + d.known + d.cut, dtype=np.int64), minlength=53)
    own = int(d.owns_crib or spec.two_cribs)
    seed_kernels(decision_seed(d))
    masks, values = redraw_values(
        hand, d.before, own, rank_table(spec.target), spec.as_array(),
        d.cut[0] if d.cut else -1, seen, d.limit, DRAW_DRAWS,
    )  # fmt: skip
    rows, per = [], {}
    for mask, v in zip(masks, values):
        name = format_cards([c for i, c in enumerate(d.hand) if mask >> i & 1]) or "none"
        rows.append((name, {"value": float(v.mean())}))
        per.setdefault(name, v)
    rows = _once(rows)
    rows.sort(key=lambda r: -sign(spec, "value") * r[1]["value"])
    return Options(rows, "value", {"value": per})


def bid_options(d: Decision, spec) -> Options:
    """Bid cribbage: raising the standing bid by one or passing, each worth the expected
    hand plus or minus what the crib's contract pays (draw_and_bid.bid_limits, the simulated
    player's figures), over its crib draws, seeded by the decision."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.rules.pegging import seed_kernels
    from cribsolve.games.cribbage.throw.draw_and_bid import bid_limits
    from cribsolve.games.cribbage.throw.values import deal_options

    pr = spec.as_array()
    keep_idx, disc_idx = deal_options(len(d.hand), pr)
    seen = np.bincount(np.array(d.hand + d.known + d.cut, dtype=np.int64), minlength=53)
    seed_kernels(decision_seed(d))
    h, samples = bid_limits(
        np.array(d.hand, dtype=np.int64), rank_table(spec.target), pr, keep_idx, disc_idx,
        d.cut[0] if d.cut else -1, seen,
    )  # fmt: skip
    b = d.bid

    def paid(crib, bid):  # what the crib's owner gets from each draw at ``bid``
        return np.where(crib >= bid, crib, -bid)

    own, leave = h[1] + paid(samples[1], b + 1), h[0] - paid(samples[0], b)
    rows = [
        (f"bid {b + 1}", {"value": float(own.mean())}),
        ("pass", {"value": float(leave.mean())}),
    ]
    rows.sort(key=lambda r: -r[1]["value"])
    return Options(rows, "value", {"value": {f"bid {b + 1}": own, "pass": leave}})


def play_options(d: Decision, spec) -> tuple:
    """(the cards, best first: best-play's figures (three or four players: sampled,
    PLAY_SAMPLES deals of the others' cards, seed 0, every seat then greedy); {"margin": each
    card's margin deal by deal} where sampled)."""
    from cribsolve.games.cribbage.players.bestplay import best_play, sampled_play

    per = {}
    if spec.players > 2 or spec.five_card:
        found, _ = sampled_play(
            d.hand, d.played, d.my_seat, d.seen[:-1], spec, PLAY_SAMPLES, 0, "greedy", d.seen[-1]
        )
        rows = [(r.card, r.mine, r.theirs) for r in found]
        per = {"margin": {r.card: r.per for r in found}}
    else:
        rows, _ = best_play(d.hand, d.played, d.my_seat, d.seen, spec)
    rows = sorted(
        [(c, {"mine": m, "theirs": t, "margin": m - t}) for c, m, t in _once(rows)],
        key=lambda r: -sign(spec, "margin") * r[1]["margin"],
    )
    return rows, per


def lost_by(rows, mine: dict, measure: str, spec) -> float:
    """What a choice gave up in ``measure`` beside the option best by it (0 for that one)."""
    s = sign(spec, measure)
    return max(s * r[measure] for _, r in rows) - s * mine[measure]


@dataclass
class Judgment:
    """A choice beside the best option by the decision's objective (``by``): what it lost by
    that figure, and the bound below which the loss is not told from nothing.

    Points are exact (best-discard, best-play): any loss counts. A sampled figure compares
    the two options on the same deals (common random numbers), so the loss is the mean of the
    paired differences and its standard error is theirs (sd / sqrt(n)), far below the error of
    either estimate; a loss counts beyond ERRORS = 3 of those standard errors. The best option
    is the highest of several estimates, which favours it: with three standard errors the
    chance that an option as good as the best is called worse is at most 0.13% for each option
    it could have been confused with (a union bound: under 2% for the 15 throws of six cards
    all equal). Sampled points with no paired values (best-discard under house rules that change
    the show: its draws are shared too) take the standard errors of the two estimates together,
    sqrt(se1^2 + se2^2), which common draws only make larger than the difference's.
    """

    by: str
    best: str  # the best option by ``by``; the choice itself where it is exactly as good
    lost: float  # the best's figure minus the choice's (as estimated where sampled)
    bound: float  # the error bound of ``lost`` (0: exact)

    @property
    def counted(self) -> bool:
        """Whether the choice is not the best: its loss beyond the error bound."""
        return self.lost > max(self.bound, EXACT)


def judge(d: Decision, rows: Options, choice: str, spec) -> Judgment:
    """``choice`` (as the rows name it) beside the best of ``rows`` by their objective."""
    by, s = rows.by, sign(spec, rows.by)
    best, top = rows[0]
    mine = dict(rows)[choice]
    lost = s * (top[by] - mine[by])
    per = rows.per.get(by)
    if per is not None and choice != best:
        diff = per[best] - per[choice]
        bound = ERRORS * float(diff.std(ddof=1) / np.sqrt(diff.size))
    elif "se" in mine and by != "win":
        bound = ERRORS * float(np.hypot(top["se"], mine["se"]))
    else:
        bound = 0.0
    return Judgment(by, choice if lost <= EXACT else best, lost, bound)


def ready(spec, deck, end: bool = False) -> None:
    """Compile now what a hint runs, the options of a throw and of a card (with P(win) as
    near the end: ``end``), from the first cards of ``deck``: a game's hints then answer at
    once."""
    h, n, t = spec.hand_size, spec.players, spec.crib_size // spec.players
    near = (spec.game_length - 10 if end else 0,) * 2
    seat = {} if n == 2 else {"seat": n - 1, "crib_mine": True}
    dealt = deck[:h]
    seat["cut"] = deck[h + 1 : h + 2] if spec.starters == 2 else []
    options(Decision("throw", 1, 0, True, near, dealt, dealt[-t:], **seat), spec)
    seat = {} if n == 2 else {"seat": 0, "crib_mine": False}
    kept, t = dealt[: spec.kept], h - spec.kept
    options(
        Decision(
            "play",
            1,
            0,
            False,
            near,
            kept,
            kept[:1],
            seen=dealt[-t:] + [deck[h]],
            their_left=spec.kept * (n - 1),
            **seat,
        ),
        spec,
    )


def choice_key(d: Decision, cards, spec) -> str:
    """A choice as the rows name it: the card; the cards thrown in hand order, each part of
    the throw apart (two cribs: to mine / to theirs; choose-a-cut: / the card given); the
    cards thrown away to redraw, or none; a bid, or pass."""
    if d.kind == "play":
        return format_card(cards[0])
    if d.kind == "bid":
        return "pass" if cards[0] <= d.bid else f"bid {d.bid + 1}"
    if d.kind == "draw":
        return _in_hand_order(d.hand, cards) or "none"
    t = spec.throw
    parts = [cards[:t]] + [cards[t : 2 * t]] * spec.two_cribs + [cards[-1:]] * spec.choose_cut
    return " / ".join(_in_hand_order(d.hand, p) for p in parts)


def _in_hand_order(hand, cards) -> str:
    rest = list(cards)
    picked = []
    for c in hand:
        if c in rest:
            rest.remove(c)
            picked.append(c)
    return format_cards(picked)


def first_choice(d: Decision, rows) -> list:
    """The best option's answer (Enter at a prompt): its cards, each part in turn (a bid:
    its number)."""
    name = rows[0][0]
    if d.kind == "bid":
        return [d.bid + (name != "pass")]
    if name == "none":
        return []
    return parse_cards(name.replace("/", " ").split())


def table_lines(d: Decision, rows, spec=None) -> list:
    """The hint: each option with its figures, best first."""
    win = "win" in rows[0][1]
    table = spec is not None and spec.players > 2
    w = max(7, *(len(c) for c, _ in rows))
    if d.kind in ("draw", "bid"):
        head = f"  {d.kind:<{w}} {'value':>7}"

        def cells(f):
            return f"{f['value']:7.2f}"

        note = (
            "value = the best throw's expected hand +/- crib after it"
            if d.kind == "draw" and d.before
            else "value = the kept hand's expected show after it"
            if d.kind == "draw"
            else "value = the expected hand +/- what the crib's contract pays"
        ) + f" (sampled: {DRAW_DRAWS if d.kind == 'draw' else 'the crib over 32'} draws)"
    elif d.kind == "throw":
        head = f"  {'throw':<{w}} {'hand':>6} {'crib':>6} {'net':>6} {'pegging':>8} {'value':>7}"

        def cells(f):
            return (
                f"{f['hand']:6.2f} {f['crib']:6.2f} {f['net']:6.2f} "
                f"{f['pegging']:8.2f} {f['value']:7.2f}"
            )

        note = (
            "value = hand +/- crib, exact (best-discard; no pegging margin with three or four)"
            if table
            else "value = hand +/- crib + the expert's pegging margin (best-discard --pegging)"
            if spec is None or pegs(spec)
            else "value = hand +/- crib (best-discard)"
        )
    else:
        head = f"  {'lay':<{w}} {'mine':>6} {'theirs':>6} {'margin':>7}"

        def cells(f):
            return f"{f['mine']:6.2f} {f['theirs']:6.2f} {f['margin']:7.2f}"

        note = (
            "expected pegging to the end of the play (best-play"
            + ", sampled: yours - the others' mean)" * table
            + ")" * (not table)
        )
    lines = [
        f"  hint: {note}" + ("; P(win) of the game ranks them near the end" if win else ""),
        head + f" {'P(win)':>7}" * win,
    ]
    for choice, f in rows:
        lines.append(f"  {choice:<{w}} {cells(f)}" + (f" {f['win']:7.1%}" if win else ""))
    return lines


def cost_line(d: Decision, rows, spec) -> str | None:
    """The coach's line for the choice made: None when it lost little by the objective, or no
    more than the estimates' error (judge)."""
    j = judge(d, rows, choice_key(d, d.choice, spec), spec)
    win = j.by == "win"
    if not j.counted or j.lost < (COACH_WIN if win else COACH_POINTS):
        return None
    return (
        f"  coach: {choice_key(d, d.choice, spec)} costs "
        + (f"{j.lost:.1%} P(win) (+/- {j.bound:.1%})" if win else f"{j.lost:.2f} expected points")
        + f" beside {j.best}"
    )
