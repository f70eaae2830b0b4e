"""The odds from Python: ``odds`` (P(win) from a board position, as ``cribsolve odds``) and
``odds_table`` (every position, as ``odds --table``), for two players, two teams, three
players or the five-card game as ``rules`` say."""

from __future__ import annotations

from cribsolve.api.checks import bad, three_scores
from cribsolve.api.results import Result, progress_bar
from cribsolve.api.rules import Rules
from cribsolve.api.tables import ODDS, once
from cribsolve.errors import CribsolveError

POLICIES = ("greedy", "lookahead", "expert", "expert1")  # those the odds tables are built for


class OddsResult(Result):
    """P(win) from one position. Two sides: ``my_score``, ``their_score``, ``dealer`` ("me"
    or "them"), ``win_probability`` (and ``game_points`` with objective="game-points");
    three players: ``scores``, ``dealer`` (1 to 3) and a ``win_probability`` each. With
    play_out, ``played_out``: the games played from the position, the direct check."""

    FIELDS = (
        "my_score",
        "their_score",
        "scores",
        "dealer",
        "game_length",
        "rules",
        "policy",
        "win_probability",
        "game_points",
        "played_out",
    )


class OddsTableResult(Result):
    """Every position's value (``odds --table --csv``): ``rows``, one per my_score,
    their_score and dealer, the value named by ``column`` (win_probability, or game_points).
    The command has no --json for it: ``to_dict()`` describes the table, ``rows`` hold it."""

    FIELDS = ("game_length", "rules", "policy", "objective", "column")
    TABLE = "positions"

    @property
    def win(self):
        """P(win) as a numpy array ``[dealer, my_score, their_score]`` (dealer 1: I deal)."""
        return self._extra["win"].copy()

    @property
    def rows(self) -> list[dict]:
        """my_score, their_score, dealer ("me" or "them") and the value: the rows of --csv."""
        value, n, column = self._extra["value"], self._data["game_length"], self._data["column"]
        return [
            {"my_score": a, "their_score": b, "dealer": who, column: float(value[d, a, b])}
            for who, d in (("me", 1), ("them", 0))
            for a in range(n)
            for b in range(n)
        ]


def check_sides(spec, policy: str) -> None:
    """Refuse a table the two sides' odds are not built for, before any work."""
    from cribsolve.games.cribbage.deals.odds import sides_error
    from cribsolve.games.cribbage.deals.simulate import expert_refusal
    from cribsolve.games.cribbage.rules.spec import ODDS_LENGTH_MAX

    if sides_error(spec):
        raise CribsolveError(sides_error(spec))
    if policy not in POLICIES:
        raise CribsolveError(f"unknown policy {policy!r} (expected {', '.join(POLICIES)})")
    if policy.startswith("expert"):
        expert_refusal(spec, policy)
    if spec.stinkhole or spec.two_cribs or spec.bid:
        raise CribsolveError("the odds table does not model the stink hole, two cribs or bidding")
    if spec.game_length > ODDS_LENGTH_MAX:
        raise CribsolveError(f"the odds table weighs games of at most {ODDS_LENGTH_MAX} points")


def odds(
    *,
    my_score: int | None = None,
    their_score: int | None = None,
    dealer: bool | None = None,
    scores=None,
    dealer_player: int | None = None,
    rules: Rules | None = None,
    policy: str = "greedy",
    objective: str = "win",
    play_out: int | None = None,
    seed: int = 0,
    progress=False,
) -> OddsResult:
    """P(win) from a board position: ``cs.odds(my_score=35, their_score=37, dealer=True)``.

    ``dealer``: whether you deal next; ``rules`` the game (its game length, players, house
    rules); three players give ``scores`` (players 1, 2, 3) and ``dealer_player`` (1 to 3)
    instead. ``policy`` both players follow, ``objective`` "game-points" adds the expected
    game points; ``play_out=N`` also plays N games of ``seed`` out from the position."""
    spec = rules or Rules()
    if spec.players == 3:
        _refuse(
            {"--my-score": my_score, "--their-score": their_score, "--dealer/--pone": dealer},
            "three players",
            "give --scores A,B,C and --dealer-player N",
        )
        _refuse(
            {
                "--policy": None if policy == "greedy" else policy,
                "--objective": None if objective == "win" else objective,
            },
            "three players",
            "their table is of greedy players' wins",
        )
        return _three(spec, scores, dealer_player, play_out, seed, progress)
    _refuse(
        {"--scores": scores, "--dealer-player": dealer_player},
        "two sides",
        "they give three players' board",
    )
    if my_score is None or their_score is None or dealer is None:
        raise CribsolveError(
            "give --my-score, --their-score and --dealer or --pone (who deals next), or --table"
        )
    for option, v in (("--my-score", my_score), ("--their-score", their_score)):
        if not 0 <= v < spec.game_length:
            raise bad(
                option,
                f"{v} is not a score below the game length: give 0 to {spec.game_length - 1}",
            )
    win, value = _tables(spec, policy, objective, progress)
    out = {
        "my_score": my_score,
        "their_score": their_score,
        "dealer": "me" if dealer else "them",
        "game_length": spec.game_length,
        "rules": spec.describe(),
        "policy": policy,
        "win_probability": float(win[int(dealer), my_score, their_score]),
    }
    if objective != "win":
        out["game_points"] = float(value[int(dealer), my_score, their_score])
    if play_out:
        from cribsolve.games.cribbage.deals.simulate import played_out
        from cribsolve.infra.stats import wilson

        with progress_bar(progress, play_out, "playing the position out", "game") as pb:
            wins = played_out(
                spec, my_score, their_score, dealer, play_out, seed, policy, pb.update
            )
        out["played_out"] = {
            "games": play_out,
            "seed": seed,
            "win_rate": wins / play_out,
            "win_rate_ci": list(wilson(wins, play_out)),
        }
    return OddsResult(out)


def odds_table(
    *,
    rules: Rules | None = None,
    policy: str = "greedy",
    objective: str = "win",
    progress=False,
) -> OddsTableResult:
    """Every position's value, as ``odds --table --csv`` writes it: ``.rows``, or
    ``.to_pandas()``; ``objective="game-points"`` the expected game points, not P(win)."""
    spec = rules or Rules()
    win, value = _tables(spec, policy, objective, progress)
    return OddsTableResult(
        {
            "game_length": spec.game_length,
            "rules": spec.describe(),
            "policy": policy,
            "objective": objective,
            "column": "win_probability" if objective == "win" else "game_points",
        },
        win=win,
        value=value,
    )


def _tables(spec, policy, objective, progress):
    """The P(win) table and the ``objective``'s (built once and kept), with a bar if asked."""
    from cribsolve.games.cribbage.deals.odds import DEALS, OBJECTIVES, objective_table, odds_table

    check_sides(spec, policy)
    if objective not in OBJECTIVES:
        raise CribsolveError(f"unknown objective {objective!r} (expected win or game-points)")

    with once(progress, DEALS[policy], ODDS, "deal") as update:
        win = odds_table(spec, update, policy=policy)
        value = objective_table(spec, objective, update, policy=policy)
    return win, value


def _three(spec, scores, dealer_player, play_out, seed, progress) -> OddsResult:
    """Three players: each one's P(win) from three scores and the next dealer."""
    if scores is None or dealer_player is None:
        raise CribsolveError("give --scores A,B,C and --dealer-player N (who deals next)")
    board = three_scores(scores, spec.game_length)
    if dealer_player not in (1, 2, 3):
        raise CribsolveError(f"--dealer-player {dealer_player}: give 1, 2 or 3")
    from cribsolve.games.cribbage.deals.three_odds import (
        DEALS3,
        player_odds,
        three_error,
        three_odds_table,
        three_played_out,
    )

    if three_error(spec):
        raise CribsolveError(three_error(spec))
    dealer = dealer_player - 1
    with once(progress, DEALS3, ODDS, "deal") as update:
        p = player_odds(three_odds_table(spec, update), board, dealer)
    out = {
        "scores": board,
        "dealer": dealer_player,
        "game_length": spec.game_length,
        "rules": spec.describe(),
        "policy": "greedy",
        "win_probability": [float(v) for v in p],
    }
    if play_out:
        from cribsolve.infra.stats import wilson

        with progress_bar(progress, play_out, "playing the position out", "game") as pb:
            wins = three_played_out(spec, board, dealer, play_out, seed, pb.update)
        out["played_out"] = {
            "games": play_out,
            "seed": seed,
            "win_rate": [int(w) / play_out for w in wins],
            "win_rate_ci": [list(wilson(int(w), play_out)) for w in wins],
        }
    return OddsResult(out)


def _refuse(values: dict, where: str, hint: str) -> None:
    """An argument given where it does not apply is an error, as the command's option is."""
    for option, v in values.items():
        if v is not None:
            raise CribsolveError(f"{option} does not apply to {where} ({hint})")
