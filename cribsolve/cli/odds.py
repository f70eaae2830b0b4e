"""``odds``: P(win) and expected game points from a board position (two players, two teams,
the five-card game), or the whole table of them."""

from __future__ import annotations

import click

from cribsolve.api.odds import POLICIES
from cribsolve.cli.checks import bad, check_outputs, check_plot, refuse
from cribsolve.cli.options import (
    GAME_OPTIONS,
    GAMES_MAX,
    Number,
    bars,
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


def _check_odds_options(whole, csv_path, plot_path) -> None:
    """What the command line alone decides: the table's outputs, or a single position's."""
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
    type=click.Choice(POLICIES),
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
    _check_odds_options(whole, csv_path, plot_path)
    from cribsolve.api.odds import check_sides, odds_table
    from cribsolve.api.odds import odds as odds_api
    from cribsolve.infra.export import dumps, write_csv

    if whole:
        check_sides(spec, policy)
        if objective != "win" and plot_path:
            raise bad("--objective", "the figure draws P(win); --csv writes the game points")
        from cribsolve.games.cribbage.deals.odds import DEALS, SEED

        t = odds_table(rules=spec, policy=policy, objective=objective, progress=bars(quiet))
        if csv_path:
            rows = [list(row.values()) for row in t.rows]
            write_csv(csv_path, ["my_score", "their_score", "dealer", t.column], rows)
            wrote("the table", csv_path)
        plot(plot_path, "odds_figure", t.win, spec, DEALS[policy], SEED, policy)
        return
    if not play_out:  # games played out want the compiled engine
        quick()
    r = odds_api(
        my_score=my_score,
        their_score=their_score,
        dealer=dealer,
        rules=spec,
        policy=policy,
        objective=objective,
        play_out=play_out,
        seed=seed,
        progress=bars(quiet),
    )
    if as_json:
        click.echo(dumps(r.to_dict()))
        return
    by = "" if policy == "greedy" else f" (both {policy})"
    us, we = ("your side", "your side deals") if spec.partners else ("you", "you deal")
    click.echo(
        f"{my_score} to {their_score}, {we if dealer else 'they deal'} "
        f"next: {us} win{'s' * spec.partners} {r.win_probability:.2%}{by}"
        + (
            f"; expected game points {r.game_points:.3f} (2 a win, 3 a skunk)"
            if objective != "win"
            else ""
        )
    )
    if play_out:
        lo, hi = r.played_out["win_rate_ci"]
        click.echo(
            f"  played out: {r.played_out['win_rate']:.2%} of {play_out:,} games "
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
    if not play_out:
        quick()
    from cribsolve.api.odds import odds as odds_api
    from cribsolve.infra.export import dumps

    r = odds_api(
        scores=scores,
        dealer_player=dealer_player,
        rules=spec,
        play_out=play_out,
        seed=seed,
        progress=bars(quiet),
    )
    if as_json:
        click.echo(dumps(r.to_dict()))
        return
    click.echo(
        f"{'-'.join(map(str, r.scores))}, player {dealer_player} deals next: "
        + ", ".join(f"player {i + 1} wins {v:.2%}" for i, v in enumerate(r.win_probability))
    )
    if play_out:
        for i, (rate, (lo, hi)) in enumerate(
            zip(r.played_out["win_rate"], r.played_out["win_rate_ci"])
        ):
            click.echo(
                f"  player {i + 1} played out: {rate:.2%} of {play_out:,} games "
                f"[{lo:.2%}, {hi:.2%}] (seed {seed})"
            )
