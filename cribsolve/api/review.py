"""A played game set beside the best, from Python: ``review``, as ``cribsolve review``."""

from __future__ import annotations

from cribsolve.api.results import Result, progress_bar


class ReviewResult(Result):
    """A game's record replayed: the rules, the winner and the final scores, the points each
    side's decisions lost against the best (``lost``), and each deal with its decisions;
    ``rows`` are the decisions, one a row, with their deal."""

    FIELDS = ("record", "game_length", "rules", "winner", "scores", "lost", "deals")
    TABLE = "deals"

    @property
    def rows(self) -> list[dict]:
        """Each decision (a throw or a play) with the deal it was made in."""
        return [
            {"deal": d["deal"], **decision}
            for d in self.to_dict()["deals"]
            for decision in d["decisions"]
        ]


def review(game, *, progress=False) -> ReviewResult:
    """Replay a played game from its record (``game``: the path of a file as ``play``
    writes it) and set each throw and play beside the best, from what the player knew then.
    A game record's format is in the documentation ("The game record")."""
    from cribsolve.games.cribbage.table.record import load_record
    from cribsolve.games.cribbage.table.replay import replay
    from cribsolve.games.cribbage.table.review import as_dict, count_decisions
    from cribsolve.games.cribbage.table.review import review as review_game

    played = replay(load_record(str(game)))
    with progress_bar(progress, count_decisions(played), "reviewing decisions", "decision") as b:
        reviews = review_game(played, progress=b.update)
    return ReviewResult(as_dict(played, reviews), played=played, reviews=reviews)
