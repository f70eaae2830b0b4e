"""A game of Cribbage Patience or Patience II walked through as the player sees it.

``Walk`` holds the whole deck but gives out only a ``View``: the face-up cards at the current
decision (this hand, the earlier deals' cards, and in Patience II's second discard the crib
cards already thrown and the four kept). ``advise`` is a function of a View alone, so the
advice cannot depend on a face-down card, the starter or a later deal. It is best-discard's
analysis (solitaire/discard.py, with the win table of simulate.win_table): Patience exact
over the face-down pair and the starter; Patience II's first discard with the second hand
sampled, its second exact over the starter. The discards are ranked as the best policy ranks
them (``deck`` in Patience, ``win``'s second discard in Patience II): the highest P(win), ties
(a game already won or lost) by expected points.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.notation import format_card, format_cards, parse_cards
from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.solitaire.discard import SAMPLES
from cribsolve.games.solitaire.facts import PATIENCES, SOLITAIRES

ADVICE_SEED = 0  # the sampled analysis always uses this seed: the same advice every time
POINTS = {
    "patience": "expected points of this deal's hand + crib, heels apart",
    "patience2": "expected points of the whole deal (both hands, crib, heels), the "
    "second hand sampled",
    "patience2/2": "expected points of this hand + crib, heels apart",
}


@dataclass(frozen=True)
class View:
    """What the player sees when choosing a discard."""

    variant: str
    deal: int  # 1-based
    second: bool  # Patience II's second discard
    score: int  # points before this deal
    hand: tuple  # the six cards to discard from
    seen: tuple  # every card of the earlier deals
    crib: tuple = ()  # Patience II's second discard: the two cards already thrown
    kept: tuple = ()  # ... and the four kept from the first hand


@dataclass
class Option:
    discard: list[int]
    keep: list[int]
    points: float  # expected points (see POINTS for what they cover)
    win: float  # P(finishing at 80 or more)


def advise(view: View, samples: int = SAMPLES) -> list[Option]:
    """Every discard of the hand in view, best first."""
    from cribsolve.games.solitaire.discard import solitaire_discard

    values = solitaire_discard(
        list(view.hand),
        view.variant,
        list(view.seen),
        list(view.crib),
        list(view.kept),
        view.score,
        view.deal,
        ADVICE_SEED,
        samples,
    )
    opts = [Option(v.discard, v.keep, v.net, v.win) for v in values]
    return sorted(opts, key=lambda o: (-round(o.win, 9), -o.points))


@dataclass
class DealResult:
    deal: int
    kept: list  # the kept hand(s), 4 cards each
    crib: list[int]
    starter: int
    hands: list[int]  # points of each kept hand
    crib_points: int
    heels: int
    total: int
    score: int  # after the deal


@dataclass
class Decision:
    view: View
    best: Option
    chosen: Option

    @property
    def win_lost(self) -> float:
        return max(0.0, self.best.win - self.chosen.win)


def seeded_talon(seed: int) -> list[int]:
    """A deal of our own: the 52 cards in a random order from ``seed``, top first."""
    return np.random.default_rng(seed).permutation(52).tolist()


@dataclass
class Walk:
    """One game, decision by decision: ``view()``, then ``choose(discard)``."""

    variant: str
    talon: list  # all 52 cards, top first (pysol.talon, or seeded_talon)
    deal: int = 1
    second: bool = False
    score: int = 0
    decisions: list = field(default_factory=list)
    results: list = field(default_factory=list)
    _first: tuple = ()  # Patience II: (thrown, kept) of the first hand

    def __post_init__(self):
        if self.variant not in PATIENCES:
            raise CribsolveError(
                f"unknown variant {self.variant!r} (expected patience or patience2)"
            )
        from cribsolve.games.solitaire.pysol import layout

        self.deals = layout(self.variant, self.talon)["deals"]

    @property
    def over(self) -> bool:
        return self.deal > SOLITAIRES[self.variant].deals

    @property
    def won(self) -> bool:
        return self.score >= SOLITAIRES[self.variant].win_at

    def view(self) -> View:
        d = self.deals[self.deal - 1]
        seen = tuple(
            c
            for e in self.deals[: self.deal - 1]
            for part in e.values()
            for c in (part if isinstance(part, list) else [part])
        )
        if self.second:
            thrown, kept = self._first
            return View(
                self.variant,
                self.deal,
                True,
                self.score,
                tuple(d["second_hand"]),
                seen,
                tuple(thrown),
                tuple(kept),
            )
        return View(self.variant, self.deal, False, self.score, tuple(d["hand"]), seen)

    def parse(self, text: str, view: View) -> list[int]:
        """The two cards of a typed discard, checked against the hand in view."""
        cards = parse_cards([text])
        if len(cards) != 2 or len(set(cards)) != 2 or not set(cards) <= set(view.hand):
            raise CardError(
                f"{text.strip()!r} is not two cards of your hand ({format_cards(view.hand)})"
            )
        return cards

    def choose(self, discard, options: list[Option] | None = None) -> DealResult | None:
        """Play ``discard`` (two cards of the hand in view); ``options``, the advice given for
        this view, is kept for the summary. Returns the deal's result after its last discard."""
        view = self.view()
        discard = list(discard)
        keep = [c for c in view.hand if c not in discard]
        if options:
            chosen = next(o for o in options if sorted(o.discard) == sorted(discard))
            self.decisions.append(Decision(view, options[0], chosen))
        if self.variant == "patience2" and not self.second:
            self.second = True
            self._first = (discard, keep)
            return None
        d = self.deals[self.deal - 1]
        if self.second:
            thrown, kept = self._first
            res = self._score([kept, keep], thrown + discard, d["starter"])
        else:
            res = self._score([keep], discard + d["crib"], d["starter"])
        self.results.append(res)
        self.deal, self.second = self.deal + 1, False
        return res

    def _score(self, kept, crib, starter) -> DealResult:
        from cribsolve import ruleset, score_hand

        rules = ruleset("pysol")
        hands = [score_hand(k, [starter], rules, itemized=False).total for k in kept]
        c = score_hand(crib, [starter], rules, crib=True, itemized=False).total
        heels = 2 * (starter // 4 + 1 == 11)
        total = sum(hands) + c + heels
        self.score += total
        return DealResult(self.deal, kept, list(crib), starter, hands, c, heels, total, self.score)


# --- text, as the play command shows it ------------------------------------------------------

WIDTH = 80  # every line the coach prints fits a terminal this wide


def fit(groups: list[str], indent: str = "  ", more: str = "    ") -> list[str]:
    """``groups`` joined by spaces in lines of at most WIDTH columns, the first after
    ``indent``, the rest after ``more``: a line breaks between groups, never inside one (a
    hand and its points, "= 20; score 20"), so no number is cut in two."""
    lines = [indent + groups[0]]
    for group in groups[1:]:
        if len(lines[-1]) + 1 + len(group) <= WIDTH:
            lines[-1] += " " + group
        else:
            lines.append(more + group)
    return lines


def view_lines(view: View, options: list[Option], top: int = 3) -> list[str]:
    """The decision in front of the player and the best ``top`` discards."""
    n = SOLITAIRES[view.variant].deals
    out = [
        f"Deal {view.deal} of {n}, score {view.score}" + (", second hand" if view.second else "")
    ]
    if view.variant == "patience":
        out.append("  crib: 2 cards face down")
    elif view.second:
        out.append(
            f"  first hand kept {format_cards(view.kept)}, crib "
            f"{format_cards(view.crib)} + 2 from this hand"
        )
    out.append(f"  hand {format_cards(view.hand)}")
    key = "patience2/2" if view.second else view.variant
    out += fit(f"points: {POINTS[key]}".split(" "))
    out.append(f"  {'discard':<8} {'keep':<12} {'points':>7} {'P(win)':>7}")
    for i, o in enumerate(options[:top]):
        out.append(
            f"  {format_cards(o.discard):<8} {format_cards(o.keep):<12} {o.points:7.3f} "
            f"{o.win:7.4f}" + ("   best" if i == 0 else "")
        )
    return out


def result_line(res: DealResult) -> str:
    """The deal's count: one line, or more where it is wider than WIDTH, each hand, the crib
    and the total kept whole."""
    hands = [f"hand {format_cards(k)} {p}" for k, p in zip(res.kept, res.hands)]
    groups = [f"starter {format_card(res.starter)}:", hands[0]]
    groups += [f"+ {h}" for h in hands[1:]] + [f"+ crib {format_cards(res.crib)} {res.crib_points}"]
    groups += [f"+ heels {res.heels}"] * bool(res.heels) + [f"= {res.total}; score {res.score}"]
    return "\n".join(fit(groups))


def summary_lines(walk: Walk) -> list[str]:
    """The end of the game: the score, won or lost, and what each decision cost in P(win)."""
    out = [
        f"Game over: {walk.score} points, {'won' if walk.won else 'lost'} "
        f"({SOLITAIRES[walk.variant].win_at} to win)",
        f"  {'deal':<7} {'you threw':<9} {'best':<9} {'P(win) lost':>11}",
    ]
    for d in walk.decisions:
        where = f"{d.view.deal}" + (
            "b" if d.view.second else "a" if d.view.variant == "patience2" else ""
        )
        out.append(
            f"  {where:<7} {format_cards(d.chosen.discard):<9} "
            f"{format_cards(d.best.discard):<9} {d.win_lost:11.4f}"
        )
    return out
