"""Show me my mistakes (``cribsolve review``, docs/playing.md): each decision of a replayed game,
every throw and every card laid where there was a choice, beside the best one, valued from what
the player knew then, ranked and judged by the objective its hint ranked by, through the hint's
own engine (advice.py: ``evaluate`` is the one door every figure goes through, ``judge`` the one
verdict, "not the best" only beyond the estimates' error).
"""

from __future__ import annotations

from dataclasses import dataclass

from cribsolve.core.notation import format_card, format_cards
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.table.advice import (
    DRAW_DRAWS,
    ENDGAME,
    ERRORS,
    EXACT,
    MEASURES,
    PLAY_SAMPLES,
    WIN_SAMPLES,
    Judgment,
    choice_key,
    evaluate,
    judge,
    lost_by,
    pegs,
    unweighed,
)
from cribsolve.games.cribbage.table.replay import Decision, ReplayedGame
from cribsolve.games.cribbage.table.seats import WHO

__all__ = ["PLAY_SAMPLES", "WIN_SAMPLES", "Review", "evaluate", "review"]


@dataclass
class Review:
    decision: Decision
    choice: str
    options: list  # the hint's rows (advice.evaluate), best first by the objective
    lost: dict  # figure -> the best's figure by it minus the choice's (each figure's own best)
    judged: Judgment  # beside the best by the objective the hint ranked by

    @property
    def best(self) -> str:
        """The best option by the objective; the choice itself where it is exactly as good
        (cards of one rank)."""
        return self.judged.best

    @property
    def figures(self) -> dict:
        return dict(self.options)[self.choice]


def review(game: ReplayedGame, spec=None, progress=None) -> list:
    """Each decision of the game beside its options, ranked and judged by the objective its
    hint ranked them by, from the same engine (advice.py); ``progress(1)`` after each."""
    spec = spec or game.record.spec
    out = []
    for dr in game.deals:
        for d in dr.decisions:
            rows = evaluate(d, spec)
            choice = choice_key(d, d.choice, spec)
            mine = dict(rows)[choice]
            lost = {m: lost_by(rows, mine, m, spec) for m in MEASURES[d.kind] if m in mine}
            out.append(Review(d, choice, rows, lost, judge(d, rows, choice, spec)))
            if progress:
                progress(1)
    return out


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
                "judged": {
                    "by": r.judged.by,
                    "lost": r.judged.lost,
                    "bound": r.judged.bound,
                    "not_the_best": r.judged.counted,
                },
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
                "starter": format_cards(dr.cuts),
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
    """The losses of the decisions not the best (Judgment.counted), each by the objective it was
    judged by, summed, throws apart from cards: expected points ("value", "margin") and P(win)
    ("win", only where the rules let the odds table weigh it)."""
    win = not reviews or any("win" in r.lost for r in reviews)
    out = {
        "throws": {"value": 0.0, **({"win": 0.0} if win else {})},
        "play": {"margin": 0.0, **({"win": 0.0} if win else {})},
    }
    for kind in ("draw", "bid"):  # the house rules' decisions: expected points only
        if any(r.decision.kind == kind for r in reviews):
            out[GROUPS[kind]] = {"value": 0.0}
    for r in reviews:
        if r.judged.counted:
            out[GROUPS[r.decision.kind]][r.judged.by] += r.judged.lost
    return out


GROUPS = {"throw": "throws", "play": "play", "draw": "draws", "bid": "bids"}  # a kind's total


def _scores(scores, table) -> str:
    """Scores by side as the review prints them: 12-30 (yours first)."""
    return "-".join(str(x) for x in scores)


def text_lines(game: ReplayedGame, reviews: list) -> list:
    """The review as a player reads it: each deal, each decision, what it cost."""
    rec = game.record
    t = rec.table
    rules = "" if rec.rules.is_standard else f" ({rec.rules.describe()})"
    cannot = unweighed(rec.spec)  # advice's: the table's and the playouts'
    two = t.players == 2
    lines = [
        f"{rec.name}: {len(game.deals)} deal{'s' * (len(game.deals) > 1)} of a game to "
        f"{rec.game_length}{rules}, each of your decisions beside the best from what you "
        "knew" + ("; the fewer points the better (lowball)" if rec.rules.lowball else ""),
        "  throw: expected hand + crib (- crib as pone) + the expert's pegging margin of "
        "the kept cards"
        if two and pegs(rec.spec)
        else "  throw: expected hand + crib (- the other's crib, - the card given), sampled "
        "as best-discard samples these rules"
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
        else f"  P(win): of the game, each option's deal played out {WIN_SAMPLES} times on the "
        "same deals (both greedy), then the odds table",
        "  judged as the hint ranked: by expected points"
        + ("" if cannot else f", or by P(win) within {ENDGAME} points of the end")
        + f"; a sampled loss counts only beyond its +/- ({ERRORS:g} standard errors of the "
        "difference)",
    ]
    kinds = {r.decision.kind for r in reviews}
    if "draw" in kinds:
        lines.append(
            f"  draw: before the throw, the best throw's expected value after it; after, the "
            f"kept hand's expected show ({DRAW_DRAWS} draws of the cards drawn)"
        )
    if "bid" in kinds:
        lines.append(
            "  bid: the expected hand +/- what the crib's contract pays, raising or passing"
        )
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
            f"{format_cards(dr.hand)}, starter {format_cards(dr.cuts)}",
            f"  {'score':<{width}} {'decision':<10} {'yours':<6} {'best':<6} "
            f"{'value':>7} {'best':>7} {'lost':>6} {'P(win)':>7} {'best':>7} {'lost':>6}",
        ]
        for r in by_deal.get(dr.number, []):
            lines.append(_row(r, two, width, t, cannot))
        pts = dr.points
        parts = {
            who: ", ".join(
                f"{part} {n}" for part, n in pts[who].items() if n or part in ("pegging", "hand")
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
    wrong = sum(r.judged.counted for r in reviews)
    by_win = sum(r.judged.by == "win" for r in reviews)
    final = game.deals[-1].scores_after
    if not game.winner:
        end = f"the record ends at {_scores(final, t)} with the game unfinished"
    elif game.winner == "tie":
        end = f"a tie at {_scores(final, t)} (two cribs)"
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
        f"{len(reviews)} decisions, {wrong} not the best"
        + (f" ({by_win} judged by P(win), near the end)" if by_win else "")
        + f"; expected points lost: throws {tot['throws']['value']:.3f}"
        + f", play {tot['play']['margin']:.3f}"
        + "".join(f", {g} {tot[g]['value']:.3f}" for g in ("draws", "bids") if g in tot)
        + (
            "; P(win) not weighed"
            if cannot
            else f"; P(win) lost: throws {tot['throws']['win']:.1%}, play {tot['play']['win']:.1%}"
        ),
        end,
    ]
    return lines


def _row(r: Review, two: bool, width: int, t, cannot) -> str:
    """One decision: yours and the best by expected points, then by P(win); the best and the
    loss only under the figure it is judged by (the other: yours alone), with the error bound
    of a sampled loss and, within it, that it is not counted."""
    d, j = r.decision, r.judged
    points = MEASURES[d.kind][0]
    what = {
        "throw": "throw",
        "draw": "draw" if d.before else "draw after",
        "bid": f"bid at {d.bid}",
    }
    what = what.get(d.kind, f"lay at {d.count}")
    score = f"{d.scores[0]:>3}-{d.scores[1]:<3}" if two else f"{_scores(d.scores, t):<{width}}"
    top = r.options[0][1]
    mine = r.figures
    if j.by == points:
        cells = f"{mine[points]:7.3f} {top[points]:7.3f} {j.lost:6.3f}"
    else:
        cells = f"{mine[points]:7.3f} {'-':>7} {'-':>6}"
    if cannot:
        cells += f" {'-':>7} {'-':>7} {'-':>6}"
    elif j.by == "win":
        cells += f" {mine['win']:7.1%} {top['win']:7.1%} {j.lost:6.1%}"
    else:
        cells += f" {mine['win']:7.1%} {'-':>7} {'-':>6}"
    note = ""
    if j.bound > 0:
        pct = j.by == "win"
        note = f"  +/- {j.bound:.1%}" if pct else f"  +/- {j.bound:.3f}"
        if EXACT < j.lost <= j.bound:
            note += " (within the error: not counted)"
    if d.kind == "throw" and two and j.by == points:
        note += f"  (hand + crib alone: {r.lost['net']:.3f})"
    return f"  {score} {what:<10} {r.choice:<6} {r.best:<6} {cells}{note}"
