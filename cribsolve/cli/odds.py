"""``odds``: P(win) and expected game points from a board position (two players, two teams,
the five-card game), or the whole table of them."""

from __future__ import annotations

import click

from cribsolve.cli.checks import bad, check_outputs, check_plot, refuse, three_scores
from cribsolve.cli.options import (
    GAME_OPTIONS,
    GAMES_MAX,
    Number,
    game_options,
    make_spec,
    plot,
    plot_option,
    quick,
    seed_option,
    show,
    wrote,
)
from cribsolve.cli.spelling import Spelled, objective_option, seat_option, three_board_options
from cribsolve.games.cribbage.rules.spec import BOUNDS, ODDS_LENGTH_MAX

# the house rules the odds table models (not the stink hole, which adds points by stages,
# two cribs, whose deals are played out and compared, nor bidding, which moves the crib)
ODDS_RULES = [n for n in GAME_OPTIONS if n not in ("stinkhole", "two_cribs", "bid")]


def _check_odds_options(
    whole, my_score, their_score, dealer, game_length, csv_path, plot_path, play_out
) -> None:
    if whole:
        refuse(
            ["my_score", "their_score", "dealer", "as_json", "play_out"],
            "--table",
            "it writes every position to --csv or --plot",
        )
        if csv_path is None and plot_path is None:
            raise click.UsageError("--table writes every position: give --csv FILE or --plot FILE")
        return
    refuse(["csv_path", "plot_path"], "a single position", "it goes with --table")
    if my_score is None or their_score is None or dealer is None:
        raise click.UsageError(
            "give --my-score, --their-score and --dealer or --pone (who deals next), or --table"
        )
    for option, v in (("--my-score", my_score), ("--their-score", their_score)):
        if v >= game_length:
            raise bad(
                option, f"{v} is not a score below the game length: give 0 to {game_length - 1}"
            )
    if not play_out:  # games played out want the compiled engine
        quick()


@click.command(cls=Spelled, respelled={"--dealer": {"me": "--dealer", "them": "--pone"}})
@click.option(
    "--my-score",
    type=click.IntRange(0, ODDS_LENGTH_MAX - 1),
    default=None,
    help="Your points (below the game length).",
)
@click.option(
    "--their-score",
    type=click.IntRange(0, ODDS_LENGTH_MAX - 1),
    default=None,
    help="Their points (below the game length).",
)
@seat_option("You deal next (--pone: they do).")
@click.option("--table", "whole", is_flag=True, help="Every position (with --csv or --plot).")
@click.option(
    "--game-length",
    type=click.IntRange(BOUNDS["game_length"][0], ODDS_LENGTH_MAX),
    default=121,
    show_default=True,
    help="Points to win (with --lowball: to lose).",
)
@game_options(*ODDS_RULES)
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="With --table: write my_score,their_score,dealer and the value here "
    "(win_probability, or game_points).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--quiet", is_flag=True, help="No progress bar, nor the line saying where --table wrote."
)
@click.option(
    "--policy",
    type=click.Choice(["greedy", "lookahead", "expert", "expert1"]),
    default="greedy",
    show_default=True,
    help="The policy both players follow (a table each, built once and cached).",
)
@click.option(
    "--play-out",
    type=Number(1, GAMES_MAX),
    default=None,
    metavar="N",
    help=f"Also play N games out from the position, as a direct check, 1 to {show(GAMES_MAX)}.",
)
@three_board_options("")
@seed_option
@plot_option
@objective_option("What a position is worth")
def odds(
    my_score,
    their_score,
    dealer,
    whole,
    game_length,
    csv_path,
    as_json,
    quiet,
    policy,
    play_out,
    seed,
    plot_path,
    objective,
    scores,
    dealer_player,
    **house,
):
    """Probability of winning from a board position: two players, two teams of partners
    (your side's score against theirs), three players or the five-card game."""
    check_outputs(("--csv", csv_path))
    check_plot(plot_path, ("--csv", csv_path))
    spec = make_spec(game_length, **house)
    if spec.players == 3:
        _three(spec, scores, dealer_player, as_json, quiet, play_out, seed)
        return
    refuse(["scores", "dealer_player"], "two sides", "they give three players' board")
    _check_odds_options(
        whole, my_score, their_score, dealer, spec.game_length, csv_path, plot_path, play_out
    )
    from cribsolve.games.cribbage.deals.odds import sides_error  # after quick(): no numba to ready

    if sides_error(spec):
        raise click.UsageError(sides_error(spec))
    if policy.startswith("expert"):
        from cribsolve.games.cribbage.deals.simulate import expert_refusal

        expert_refusal(spec, policy)
    from cribsolve.games.cribbage.deals.odds import DEALS, SEED, objective_table, odds_table
    from cribsolve.games.cribbage.deals.simulate import played_out
    from cribsolve.infra.export import dumps, write_csv
    from cribsolve.infra.progress import bar

    if objective != "win" and plot_path:
        raise bad("--objective", "the figure draws P(win); --csv writes the game points")
    with bar(
        DEALS[policy], "simulating deals for the odds table (once)", quiet, "deal", lazy=True
    ) as pb:
        win = odds_table(spec, pb.update, policy=policy)
        value = objective_table(spec, objective, pb.update, policy=policy)
    column = "win_probability" if objective == "win" else "game_points"
    if whole:
        rows = [
            (a, b, who, float(value[1 if who == "me" else 0, a, b]))
            for who in ("me", "them")
            for a in range(spec.game_length)
            for b in range(spec.game_length)
        ]
        if csv_path:
            write_csv(csv_path, ["my_score", "their_score", "dealer", column], rows)
            wrote("the table", csv_path)
        plot(plot_path, "odds_figure", win, spec, DEALS[policy], SEED, policy)
        return
    p = float(win[int(dealer), my_score, their_score])
    out = {
        "my_score": my_score,
        "their_score": their_score,
        "dealer": "me" if dealer else "them",
        "game_length": spec.game_length,
        "rules": spec.describe(),
        "policy": policy,
        "win_probability": p,
    }
    if objective != "win":
        out["game_points"] = float(value[int(dealer), my_score, their_score])
    if play_out:
        from cribsolve.infra.stats import wilson

        with bar(play_out, "playing the position out", quiet, "game") as pb:
            wins = played_out(
                spec, my_score, their_score, dealer, play_out, seed, policy, pb.update
            )
        out["played_out"] = {
            "games": play_out,
            "seed": seed,
            "win_rate": wins / play_out,
            "win_rate_ci": wilson(wins, play_out),
        }
    if as_json:
        click.echo(dumps(out))
        return
    by = "" if policy == "greedy" else f" (both {policy})"
    us, we = ("your side", "your side deals") if spec.partners else ("you", "you deal")
    click.echo(
        f"{my_score} to {their_score}, {we if dealer else 'they deal'} "
        f"next: {us} win{'s' * spec.partners} {p:.2%}{by}"
        + (
            f"; expected game points {out['game_points']:.3f} (2 a win, 3 a skunk)"
            if "game_points" in out
            else ""
        )
    )
    if play_out:
        lo, hi = out["played_out"]["win_rate_ci"]
        click.echo(
            f"  played out: {wins / play_out:.2%} of {play_out:,} games "
            f"[{lo:.2%}, {hi:.2%}] (seed {seed})"
        )


def _three(spec, scores, dealer_player, as_json, quiet, play_out, seed) -> None:
    """``odds --players 3``: each player's P(win) from three scores and the next dealer."""
    refuse(
        ["my_score", "their_score", "dealer", "whole", "csv_path", "plot_path"],
        "three players",
        "give --scores A,B,C and --dealer-player N",
    )
    refuse(["policy", "objective"], "three players", "their table is of greedy players' wins")
    if scores is None or dealer_player is None:
        raise click.UsageError("give --scores A,B,C and --dealer-player N (who deals next)")
    board = three_scores(scores, spec.game_length)
    from cribsolve.games.cribbage.deals.three_odds import (
        DEALS3,
        player_odds,
        three_error,
        three_odds_table,
        three_played_out,
    )

    if three_error(spec):
        raise click.UsageError(three_error(spec))
    if not play_out:
        quick()
    from cribsolve.infra.export import dumps
    from cribsolve.infra.progress import bar

    dealer = dealer_player - 1
    with bar(DEALS3, "simulating deals for the odds table (once)", quiet, "deal", lazy=True) as pb:
        p = player_odds(three_odds_table(spec, pb.update), board, dealer)
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

        with bar(play_out, "playing the position out", quiet, "game") as pb:
            wins = three_played_out(spec, board, dealer, play_out, seed, pb.update)
        out["played_out"] = {
            "games": play_out,
            "seed": seed,
            "win_rate": [int(w) / play_out for w in wins],
            "win_rate_ci": [wilson(int(w), play_out) for w in wins],
        }
    if as_json:
        click.echo(dumps(out))
        return
    click.echo(
        f"{'-'.join(map(str, board))}, player {dealer_player} deals next: "
        + ", ".join(f"player {i + 1} wins {v:.2%}" for i, v in enumerate(p))
    )
    if play_out:
        for i, (rate, (lo, hi)) in enumerate(
            zip(out["played_out"]["win_rate"], out["played_out"]["win_rate_ci"])
        ):
            click.echo(
                f"  player {i + 1} played out: {rate:.2%} of {play_out:,} games "
                f"[{lo:.2%}, {hi:.2%}] (seed {seed})"
            )
