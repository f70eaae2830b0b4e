"""Show me my mistakes (``cribsolve review``, docs/playing.md): each decision of a replayed game,
every throw and every card laid where there was a choice, beside the best one, valued from what
the player knew then. ``evaluate`` is the one door every figure goes through: the figures of
``best-discard --pegging`` and ``best-play``, and their P(win) with the scores.
"""

from __future__ import annotations

from dataclasses import dataclass

from cribsolve.core.notation import format_card, format_cards, parse_cards
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.table.record import WHO
from cribsolve.games.cribbage.table.replay import Decision, ReplayedGame

MEASURES = {"throw": ("value", "net", "win"), "play": ("margin", "win")}  # the first ranks
WIN_SAMPLES = 500  # deals played out per option for its P(win) (win_choices.py)
PLAY_SAMPLES = 2000  # three or four players: deals of the others' cards per card laid


def sign(spec, measure: str) -> int:
    """+1 where more of ``measure`` is better, -1 where less is (points under lowball)."""
    return -1 if spec.lowball and measure != "win" else 1


def evaluate(d: Decision, spec) -> list:
    """Every option of a decision with its figures, best first: [(choice, {figure: value})].
    The one place a decision is valued: expected points, and "win", the P(win) of the game
    from the scores and the dealer the decision carries (win_choices.py, WIN_SAMPLES deals), where
    the odds table models the rules (win_choices.unweighed)."""
    from cribsolve.games.cribbage.deals import win_choices

    if win_choices.unweighed(spec):
        return throw_options(d, spec) if d.kind == "throw" else play_options(d, spec)
    if d.kind == "throw":
        rows = throw_options(d, spec)
        wins = {
            format_cards(sorted(t.discard)): t.win
            for t in win_choices.throw_odds(
                d.hand, d.i_deal, d.scores[0], d.scores[1], spec, (), WIN_SAMPLES
            )
        }
        key = lambda c: format_cards(sorted(parse_cards([c])))  # noqa: E731
    else:
        rows = play_options(d, spec)
        t = spec.crib_size // 2
        thrown, starter, others = d.seen[:t], d.seen[t], d.seen[t + 1 :]
        wins = {
            format_card(c): p
            for c, p, _ in win_choices.play_odds(
                d.hand,
                d.played,
                int(d.i_deal),
                starter,
                thrown,
                d.scores[0],
                d.scores[1],
                others,
                spec,
                WIN_SAMPLES,
            )
        }
        key = str
    for c, f in rows:
        f["win"] = wins[key(c)]
    return rows


def throw_options(d: Decision, spec):
    """The throws, best first: exact over every starter and opponent throw for the standard
    show, sampled under house rules that change it (the same figures as best-discard)."""
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
            else sampled_discard(d.hand, seat, spec)
        )
    rows = []
    for v in values:
        peg = kept_margin(v.keep, d.i_deal, spec) if spec.kept == 4 and spec.players == 2 else 0.0
        rows.append(
            (
                format_cards(v.discard),
                {
                    "hand": v.hand,
                    "crib": v.crib,
                    "net": v.net,
                    "pegging": peg,
                    "value": v.net + peg,
                },
            )
        )
    return sorted(rows, key=lambda r: -sign(spec, "value") * r[1]["value"])


def play_options(d: Decision, spec):
    """The cards, best first: best-play's figures (three or four players: sampled, PLAY_SAMPLES
    deals of the others' cards, seed 0, every seat then greedy)."""
    from cribsolve.games.cribbage.players.bestplay import best_play, sampled_play

    if spec.players > 2:
        found, _ = sampled_play(
            d.hand, d.played, d.my_seat, d.seen[:-1], spec, PLAY_SAMPLES, 0, "greedy", d.seen[-1]
        )
        rows = [(r.card, r.mine, r.theirs) for r in found]
    else:
        rows, _ = best_play(d.hand, d.played, d.my_seat, d.seen, spec)
    return sorted(
        [(c, {"mine": m, "theirs": t, "margin": m - t}) for c, m, t in rows],
        key=lambda r: -sign(spec, "margin") * r[1]["margin"],
    )


@dataclass
class Review:
    decision: Decision
    choice: str
    options: list  # evaluate's rows, best first
    lost: dict  # measure -> the best's figure minus the choice's

    @property
    def best(self) -> str:
        """The best option; the choice itself where it is as good (cards of one rank)."""
        tied = self.lost[MEASURES[self.decision.kind][0]] <= 1e-9
        return self.choice if tied else self.options[0][0]

    @property
    def figures(self) -> dict:
        return dict(self.options)[self.choice]


def review(game: ReplayedGame, spec=None, progress=None) -> list:
    """Each decision of the game beside its options; ``progress(1)`` after each."""
    spec = spec or game.record.spec
    out = []
    for dr in game.deals:
        for d in dr.decisions:
            rows = evaluate(d, spec)
            choice = format_cards([c for c in d.hand if c in d.choice])
            mine = dict(rows)[choice]
            lost = {m: lost_by(rows, mine, m, spec) for m in MEASURES[d.kind] if m in mine}
            out.append(Review(d, choice, rows, lost))
            if progress:
                progress(1)
    return out


def lost_by(rows, mine: dict, measure: str, spec) -> float:
    """What a choice gave up in ``measure`` beside the best option (0 for the best)."""
    s = sign(spec, measure)
    return max(s * r[measure] for _, r in rows) - s * mine[measure]


def count_decisions(game: ReplayedGame) -> int:
    return sum(len(dr.decisions) for dr in game.deals)


def _pair(scores, table):
    """Scores by side, named (you, they; or you, left, across, right)."""
    return dict(zip(table.side_names, scores))


def _dealer(dr, table) -> str:
    """Who deals a deal: you or they, or the dealer's place."""
    return table.names[dr.dealer] if table.players > 2 else "you" if dr.i_deal else "they"


def as_dict(game: ReplayedGame, reviews: list) -> dict:
    rec = game.record
    t = rec.table
    dealers = {dr.number: _dealer(dr, t) for dr in game.deals}
    by_deal = {}
    for r in reviews:
        d = r.decision
        by_deal.setdefault(d.deal, []).append(
            {
                "kind": d.kind,
                "line": d.line,
                "dealer": dealers[d.deal],
                "scores": _pair(d.scores, t),
                "hand": format_cards(d.hand),
                **({"count": d.count, "played": _tokens(d.played)} if d.kind == "play" else {}),
                "choice": r.choice,
                "best": r.best,
                "figures": r.figures,
                "lost": r.lost,
                "options": [{"choice": c, **f} for c, f in r.options],
            }
        )
    return {
        "record": rec.name,
        "game_length": rec.game_length,
        "rules": rec.rules.describe(),
        "winner": game.winner,
        "scores": _pair(game.deals[-1].scores_after, t),
        "lost": _totals(reviews),
        "deals": [
            {
                "deal": dr.number,
                "dealer": dealers[dr.number],
                "scores_before": _pair(dr.scores_before, t),
                "hand": format_cards(dr.hand),
                "starter": format_card(dr.starter),
                "play": _tokens(dr.play),
                "points": dr.points,
                "scores_after": _pair(dr.scores_after, t),
                "decisions": by_deal.get(dr.number, []),
            }
            for dr in game.deals
        ],
    }


def _tokens(played) -> str:
    return " ".join("go" if t is GO else format_card(t) for t in played)


def _totals(reviews) -> dict:
    """Each measure's loss summed over the decisions, throws apart from cards ("win" only
    where the rules let the odds table weigh it)."""
    win = not reviews or "win" in reviews[0].lost
    out = {
        "throws": {m: 0.0 for m in MEASURES["throw"] if m != "win" or win},
        "play": {m: 0.0 for m in MEASURES["play"] if m != "win" or win},
    }
    for r in reviews:
        for m, v in r.lost.items():
            out["throws" if r.decision.kind == "throw" else "play"][m] += v
    return out


def _scores(scores, table) -> str:
    """Scores by side as the review prints them: 12-30 (yours first)."""
    return "-".join(str(x) for x in scores)


def text_lines(game: ReplayedGame, reviews: list) -> list:
    """The review as a player reads it: each deal, each decision, what it cost."""
    from cribsolve.games.cribbage.deals.win_choices import unweighed

    rec = game.record
    t = rec.table
    rules = "" if rec.rules.is_standard else f" ({rec.rules.describe()})"
    cannot = unweighed(rec.spec)
    two = t.players == 2
    lines = [
        f"{rec.name}: {len(game.deals)} deal{'s' * (len(game.deals) > 1)} of a game to "
        f"{rec.game_length}{rules}, each of your decisions beside the best from what you "
        "knew" + ("; the fewer points the better (lowball)" if rec.rules.lowball else ""),
        "  throw: expected hand + crib (- crib as pone) + the expert's pegging margin of "
        "the kept cards"
        if two
        else "  throw: expected hand + crib (- crib when it is another side's), exact, the "
        "other crib cards uniform",
        "  lay: expected pegging margin (yours - theirs) to the end of the play, as "
        "best-play finds it"
        if two
        else f"  lay: expected pegging margin (your side's - the others' mean) to the end of "
        f"the play, as best-play finds it ({PLAY_SAMPLES:,} deals of the others' cards, "
        "every seat then greedy)",
        f"  P(win): {cannot}"
        if cannot
        else f"  P(win): of the game, each option's deal played out {WIN_SAMPLES} times "
        "(both greedy), then the odds table",
    ]
    if not two:
        lines.append(f"  scores: {'-'.join(t.side_names)}")
    by_deal = {}
    for r in reviews:
        by_deal.setdefault(r.decision.deal, []).append(r)
    width = 7 if two else 4 * t.sides + 3
    for dr in game.deals:
        dealer = _dealer(dr, t)
        lines += [
            "",
            f"deal {dr.number}: {dealer} deal{'s' * (dealer not in WHO)} at "
            f"{_scores(dr.scores_before, t)}; you hold "
            f"{format_cards(dr.hand)}, starter {format_card(dr.starter)}",
            f"  {'score':<{width}} {'decision':<10} {'yours':<6} {'best':<6} "
            f"{'value':>7} {'best':>7} {'lost':>6} {'P(win)':>7} {'lost':>6}",
        ]
        for r in by_deal.get(dr.number, []):
            d, m = r.decision, MEASURES[r.decision.kind][0]
            what = "throw" if d.kind == "throw" else f"lay at {d.count}"
            best = r.options[0][1][m]
            score = (
                f"{d.scores[0]:>3}-{d.scores[1]:<3}" if two else f"{_scores(d.scores, t):<{width}}"
            )
            lines.append(
                f"  {score} {what:<10} {r.choice:<6} "
                f"{r.best:<6} {r.figures[m]:7.3f} {best:7.3f} {r.lost[m]:6.3f}"
                + (
                    f" {r.figures['win']:7.1%} {r.lost['win']:6.1%}"
                    if not cannot
                    else f" {'-':>7} {'-':>6}"
                )
                + (
                    f"  (hand + crib alone: {r.lost['net']:.3f})"
                    if d.kind == "throw" and two
                    else ""
                )
            )
        pts = dr.points
        parts = {
            who: ", ".join(
                f"{part} {pts[who][part]}"
                for part in ("heels", "pegging", "hand", "crib")
                if pts[who][part] or part in ("pegging", "hand")
            )
            for who in t.names
        }
        if t.partners:
            lines.append(
                "  "
                + "; ".join(f"{who} ({parts[who]})" for who in t.names)
                + "; scores "
                + ", ".join(f"{side} {dr.scores_after[k]}" for k, side in enumerate(t.side_names))
            )
        else:
            lines.append(
                "  "
                + "; ".join(
                    f"{who} {dr.scores_after[k]} ({parts[who]})" for k, who in enumerate(t.names)
                )
            )
    tot = _totals(reviews)
    wrong = sum(r.lost[MEASURES[r.decision.kind][0]] > 1e-9 for r in reviews)
    final = game.deals[-1].scores_after
    if not game.winner:
        end = f"the record ends at {_scores(final, t)} with the game unfinished"
    elif two:
        end = (
            f"{game.winner} won {final[WHO.index(game.winner)]}-{final[1 - WHO.index(game.winner)]}"
        )
    else:
        end = f"{game.winner} won: " + ", ".join(
            f"{side} {final[k]}" for k, side in enumerate(t.side_names)
        )
    lines += [
        "",
        f"{len(reviews)} decisions, {wrong} not the best; expected points lost: "
        f"throws {tot['throws']['value']:.3f}"
        + (f" (hand + crib alone {tot['throws']['net']:.3f})" if two else "")
        + f", play {tot['play']['margin']:.3f}"
        + (
            "; P(win) not weighed"
            if cannot
            else f"; P(win) lost: throws {tot['throws']['win']:.1%}, play {tot['play']['win']:.1%}"
        ),
        end,
    ]
    return lines
