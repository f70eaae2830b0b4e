"""``simulate``: many seeded games of a solitaire, Shuffle or cribbage (two to four players, or
partners), and their win rate (``variations``, the house rules side by side: variations.py)."""

from __future__ import annotations

import click

from cribsolve.cli.checks import bad, check_header, check_outputs, check_plot, given, refuse
from cribsolve.cli.options import (
    GAME_OPTIONS,
    GAMES_MAX,
    Number,
    checkpoint_option,
    chunks_where,
    finished,
    game_options,
    jobs_option,
    make_spec,
    plot,
    plot_option,
    resumable,
    scheduler_option,
    seed_option,
    show,
    stopped,
    win_table_progress,
)
from cribsolve.cli.spelling import objective_option
from cribsolve.games.cribbage.rules.spec import BOUNDS

# the per-deal figures average the deals played to their end (a game ends mid-deal)
NO_COMPLETE_DEAL = (
    "per deal: no figures, as every game ended within a deal (the points per "
    "deal are of the deals played to their end)"
)


LONG_RUN_S = 3600  # a run estimated longer than this, with no --checkpoint, is told of it


def _seconds_left(first, now, total):
    """The run's time left, estimated from the games done since the first chunk ended (the
    first chunk's time holds the compiling); None until a second chunk has ended."""
    (t0, done0), (t, done) = first, now
    if done <= done0:
        return None
    return (total - done) * (t - t0) / (done - done0)


class _LongRunNote:
    """The progress bar, passed on whole, that says once on stderr, where the run's estimate
    is over an hour, how not to lose it: --checkpoint (a run without one starts over when it
    stops), and --scheduler for a cluster where none is given."""

    def __init__(self, pb, total, scheduler):
        self._pb, self._total, self._scheduler = pb, total, scheduler
        self._first, self._done, self._said = None, 0, False

    def update(self, k=1):
        import time

        self._pb.update(k)
        self._done += k
        now = (time.monotonic(), self._done)
        if self._first is None:
            self._first = now
        left = None if self._said else _seconds_left(self._first, now, self._total)
        if left is not None and left > LONG_RUN_S:
            from cribsolve.infra.paths import say

            self._said = True
            hours = f"{left / 3600:.0f}" if left >= 36000 else f"{left / 3600:.1f}"
            cluster = "" if self._scheduler else "; --scheduler spreads it over a cluster"
            say(
                f"this run may take {hours} hours more: --checkpoint FILE keeps its work if "
                f"it stops{cluster}"
            )

    __call__ = update

    def __getattr__(self, name):
        return getattr(self._pb, name)


def _noted(pb, n, checkpoint, scheduler, quiet):
    """``pb``, told to say when a run without --checkpoint will be long (not under --quiet)."""
    return pb if checkpoint or quiet else _LongRunNote(pb, n, scheduler)


def _check_options(variant, policy, win_only, histogram_csv, plot_path) -> None:
    """The options that do not go with this variant, policy or --win-only."""
    from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES
    from cribsolve.games.solitaire.facts import SOLITAIRES

    policies = tuple(CRIBBAGE_POLICIES) if variant == "cribbage" else SOLITAIRES[variant].policies
    if policy == "clairvoyant" and variant.startswith("square-"):
        raise bad(
            "--policy",
            f"clairvoyant is not available for --variant {variant}: its bound "
            f"needs the best grid of any 16 of the cards dealt, and Shuffle's "
            f"search takes exactly 16 (--variant square has it)",
        )
    if policy is not None and policy not in policies:
        raise bad(
            "--policy",
            f"{policy} is not a policy of --variant {variant} (expected {', '.join(policies)})",
        )
    if variant == "square":
        if win_only and policy != "clairvoyant":
            raise click.UsageError(
                "--win-only in --variant square is for --policy clairvoyant "
                "(Shuffle's search, decided at 61)"
            )
    elif variant != "shuffle":
        refuse(["win_only"], f"--variant {variant}", "it is for --variant shuffle")
    elif win_only and policy not in (None, "optimal"):
        raise click.UsageError("--win-only needs the optimal policy (it proves 61 reachable)")
    if variant != "cribbage":
        refuse(
            ["game_length", "opponent_policy", "objective", "deals_path", *GAME_OPTIONS],
            f"--variant {variant}",
            "it is for --variant cribbage",
        )
    else:
        refuse(
            ["histogram_csv"],
            "--variant cribbage",
            "it writes the final scores of the solitaires and Shuffle",
        )
    if histogram_csv is not None and win_only:
        raise click.UsageError("--histogram-csv needs exact scores: drop --win-only")
    if plot_path is not None and win_only:
        raise click.UsageError("--plot needs exact scores: drop --win-only")


@click.command()
@click.option(
    "--variant",
    type=click.Choice(
        [
            "patience",
            "patience2",
            "shuffle",
            "square",
            "square-waste",
            "square-reserve1",
            "square-reserve2",
            "cribbage",
        ]
    ),
    default="patience2",
    show_default=True,
    help="Cribbage Patience (PySolFC 955), Patience II (980), Shuffle (809), Square "
    "(805; 806 with a waste, 807 and 808 with one or two reserves), or "
    "two-player cribbage.",
)
@click.option(
    "-n",
    "n",
    type=Number(1, GAMES_MAX),
    default="1e5",
    show_default=True,
    help=f"Games to play, 1 to {show(GAMES_MAX)} (1e6 and 1_000_000 work).",
)
@click.option(
    "--policy",
    type=click.Choice(
        [
            "ev",
            "win",
            "deck",
            "random",
            "clairvoyant",
            "optimal",
            "heuristic",
            "greedy",
            "lookahead",
            "expert",
            "expert-drawn",
            "expert1",
        ]
    ),
    default=None,
    help="Patience: ev (default; exact expected points with card counting), win (the "
    "most likely to reach 80), deck (Patience: win with P(win) that also knows "
    "which ranks are left), lookahead (Patience II: win's first discard by "
    "P(win) too), random, clairvoyant (sees the hidden cards: an upper bound). "
    "Shuffle: optimal (default; proven best grid) or heuristic. "
    "Square: ev (default; the cell with the most expected points), lookahead "
    "(the most once the next card is placed too; slower, stronger), random, "
    "clairvoyant (805: Shuffle's optimum of the same cards). "
    "Cribbage: greedy (default), lookahead, expert (each card by the "
    "information-set search over the opponent's likeliest holdings, spread by weight; "
    "with three or four, by shared deals that fit the goes, its throw exact), "
    "expert-drawn (the expert before: 256 holdings drawn at random), expert1 (the "
    "earlier expert: both hands open in its search) or random pegging (EV discards, "
    "random discards with random).",
)
@click.option(
    "--opponent-policy",
    type=click.Choice(["greedy", "lookahead", "expert", "expert-drawn", "expert1", "random"]),
    default=None,
    help="Cribbage: the other player's policy (default: the same).",
)
@click.option(
    "--game-length",
    type=click.IntRange(*BOUNDS["game_length"]),
    default=121,
    show_default=True,
    help="Cribbage: points to win (61, 121, ...).",
)
@game_options()
@objective_option("Cribbage, the expert near the end: what its throws are ranked by")
@click.option(
    "--win-only",
    is_flag=True,
    help="Shuffle (and Square's clairvoyant bound): only decide whether 61 is "
    "reachable (faster; no score histogram).",
)
@seed_option
@jobs_option
@scheduler_option
@checkpoint_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Append one summary row to this CSV (a win-rate table across runs).",
)
@click.option(
    "--histogram-csv",
    type=click.Path(dir_okay=False),
    default=None,
    help="Solitaires and Shuffle: write score,count of the final scores.",
)
@click.option(
    "--games",
    "games_path",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write one row per game to FILE: Parquet if it ends in .parquet (needs pyarrow: pip "
    "install 'cribsolve[data]'), gzip CSV in .csv.gz, else CSV.",
)
@click.option(
    "--deals",
    "deals_path",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Cribbage: write one row per deal to FILE (formats as --games).",
)
@click.option(
    "--quiet", is_flag=True, help="No progress bar, nor the line saying where --plot wrote."
)
@plot_option
def simulate(
    variant,
    n,
    policy,
    opponent_policy,
    game_length,
    win_only,
    seed,
    jobs,
    scheduler,
    checkpoint,
    as_json,
    csv_path,
    histogram_csv,
    games_path,
    deals_path,
    quiet,
    plot_path,
    objective,
    **house,
):
    """Play many seeded games and report the win rate."""
    from cribsolve.games.solitaire.facts import PATIENCES, SQUARES
    from cribsolve.infra.export import (
        WIN_RATE_HEADER,
        WIN_RATE_HEADERS,
        check_table_format,
        dumps,
        write_csv,
        write_table,
    )
    from cribsolve.infra.progress import bar

    outputs = (
        ("--csv", csv_path),
        ("--histogram-csv", histogram_csv),
        ("--games", games_path),
        ("--deals", deals_path),
    )
    check_outputs(*outputs, ("--checkpoint", checkpoint))
    check_plot(plot_path, *outputs)
    if csv_path is not None:
        check_header(csv_path, WIN_RATE_HEADER, "--csv", WIN_RATE_HEADERS[1:])
    _check_options(variant, policy, win_only, histogram_csv, plot_path)
    for option, path in outputs[2:]:
        if path is not None:
            check_table_format(path, option)
    if variant == "cribbage":
        spec = make_spec(game_length, **house)
        if spec.players > 2 and plot_path is not None:
            raise click.UsageError(
                "--plot draws the two-player game; with --players "
                f"{spec.players} use --json or --csv"
            )
        return _simulate_cribbage(
            n,
            policy,
            opponent_policy,
            spec,
            seed,
            chunks_where(scheduler, jobs),
            checkpoint,
            as_json,
            csv_path,
            quiet,
            plot_path,
            objective,
            games_path,
            deals_path,
        )
    from cribsolve.games.solitaire.simulate import TABLE_POLICIES
    from cribsolve.games.solitaire.simulate import simulate as run_sim

    points = None
    if variant in SQUARES:  # square.simulate's own way to play them
        from cribsolve.games.solitaire.square import chunk_points as points
    where = chunks_where(scheduler, jobs)
    if policy in TABLE_POLICIES and variant in PATIENCES:
        win_table_progress(variant, quiet)
    with (
        resumable(checkpoint),
        bar(n, " ".join(filter(None, (variant, policy))), quiet, "game") as pb,
    ):
        pb = _noted(pb, n, checkpoint, scheduler, quiet)
        res, stop = finished(
            lambda: run_sim(
                variant,
                policy,
                n,
                seed,
                jobs,
                pb,
                win_only,
                where,
                checkpoint,
                points,
                games=games_path is not None,
            )
        )
    if stop is None and csv_path:
        write_csv(
            csv_path, WIN_RATE_HEADER, [res.csv_row()], append=True, older=WIN_RATE_HEADERS[1:]
        )
    if stop is None and histogram_csv:
        write_csv(
            histogram_csv,
            ["score", "count"],
            sorted(res.histogram.items()),
            option_name="--histogram-csv",
        )
    if stop is None and games_path:
        write_table(games_path, res.games)
    if stop is None:
        plot(plot_path, "simulate_figure", res)
    if as_json:
        click.echo(dumps(_marked(res.as_dict(), stop)))
    else:
        click.echo("\n".join(_partial(stop) + _solitaire_lines(res, variant, res.n, seed)))
    stopped(stop)


def _marked(d: dict, stop) -> dict:
    """A result's dict, marked partial (and how many games were asked) when it is."""
    return d if stop is None else {**d, "partial": True, "asked": stop.asked}


def _partial(stop) -> list[str]:
    """The line above a summary of a run interrupted before its end."""
    if stop is None:
        return []
    return [f"partial: interrupted after {stop.result.n:,} of the {stop.asked:,} games asked"]


def _solitaire_lines(res, variant, n, seed):
    """A solitaire's (or Shuffle's) summary: the win rate, then the final scores by tens."""
    lo, hi = res.win_rate_ci
    lines = [
        f"{variant}, policy {res.policy}, {n:,} games, seed {seed}",
        f"win rate (>= {res.win_at}): {res.win_rate:.4%}  95% CI [{lo:.4%}, {hi:.4%}]  "
        f"({res.wins:,} wins)",
    ]
    if not res.exact_scores:
        return lines
    lines.append(f"final score: mean {res.mean:.3f}  std {res.std:.3f}")
    if len(res.mean_per_deal) > 1:
        lines.append("mean per deal: " + "  ".join(f"{x:.3f}" for x in res.mean_per_deal))
    bins = {}
    for k, v in res.histogram.items():
        bins[k // 10 * 10] = bins.get(k // 10 * 10, 0) + v
    peak = max(bins.values())
    for lo_s in range(min(bins), max(bins) + 1, 10):
        c = bins.get(lo_s, 0)
        lines.append(f"  {lo_s:>3}-{lo_s + 9:<3} {c:>9,} {'#' * round(40 * c / peak)}")
    return lines


def _simulate_cribbage(
    n,
    policy,
    opponent_policy,
    spec,
    seed,
    where,
    checkpoint,
    as_json,
    csv_path,
    quiet,
    plot_path,
    objective,
    games_path,
    deals_path,
):
    from cribsolve.games.cribbage.deals.simulate import simulate_cribbage
    from cribsolve.infra.export import (
        WIN_RATE_HEADER,
        WIN_RATE_HEADERS,
        dumps,
        write_csv,
        write_table,
    )
    from cribsolve.infra.progress import bar

    with resumable(checkpoint), bar(n, "cribbage games", quiet, "game") as pb:
        pb = _noted(pb, n, checkpoint, given("scheduler"), quiet)
        res, stop = finished(
            lambda: simulate_cribbage(
                n,
                policy or "greedy",
                opponent_policy,
                seed,
                None,
                pb,
                spec,
                where,
                checkpoint,
                objective,
                games_path is not None,
                deals_path is not None,
            )
        )
    d = res.as_dict()
    if stop is None and csv_path:
        write_csv(
            csv_path, WIN_RATE_HEADER, [res.csv_row()], append=True, older=WIN_RATE_HEADERS[1:]
        )
    for path, table in ((games_path, res.games), (deals_path, res.deals)):
        if stop is None and path:
            write_table(path, table)
    if stop is None:
        plot(plot_path, "cribbage_figure", res)
    if as_json:
        click.echo(dumps(_marked(d, stop)))
    elif spec.players > 2:
        click.echo("\n".join(_partial(stop) + table_lines(d, spec, res.n, seed)))
    else:
        for line in _partial(stop):
            click.echo(line)
        _cribbage_lines(d, spec, res.n, seed)
    stopped(stop)


def _cribbage_lines(d, spec, n, seed):
    """The two-player game's summary."""
    lo, hi = d["win_rate_ci"]
    click.echo(
        f"cribbage to {spec.game_length}{spec.after_length()}, {d['policy']} (player 1) vs "
        f"{d['opponent_policy']} (player 2), {n:,} games, seed {seed}"
    )
    click.echo(
        f"first dealer wins {d['win_rate']:.2%}  95% CI [{lo:.2%}, {hi:.2%}]; player 1 "
        f"wins {d['player_win_rate']:.2%}"
    )
    if not d["complete_deals"]:
        click.echo(NO_COMPLETE_DEAL)
    else:
        click.echo(
            f"per deal: dealer {d['dealer_points']:.2f} (pegging "
            f"{d['dealer_pegging']:.2f}, hand {d['dealer_hand']:.2f}, crib "
            f"{d['crib']:.2f}, heels {d['heels']:.2f}); pone {d['pone_points']:.2f} "
            f"(pegging {d['pone_pegging']:.2f}, hand {d['pone_hand']:.2f}"
            + (f", crib {d['pone_crib']:.2f}" if spec.two_cribs or spec.bid else "")
            + ")"
        )
    if spec.two_cribs:
        click.echo(
            f"ties {d['ties']:,} ({d['ties'] / n:.2%}; the first dealer's wins exclude them)"
        )
    skunks = (
        ""
        if spec.lowball
        else f"; skunks {d['skunk_rate']:.2%}, double skunks {d['double_skunk_rate']:.3%}"
    )
    click.echo(
        f"deals per game {d['deals_per_game']:.2f}{skunks}; largest hand {d['largest_hand']}"
    )


def table_lines(d, spec, n, seed):
    """Three or four players, or two teams: the win rate of each seat of the first deal (or
    team), then the points per deal of each seat."""
    others = "players 2 and 4" if spec.partners else f"players 2-{spec.players}"
    lines = [
        f"cribbage to {spec.game_length}{spec.after_length()}, {d['policy']} (player 1"
        f"{', with player 3' if spec.partners else ''}) vs {d['opponent_policy']} "
        f"({others}), {n:,} games, seed {seed}",
        "wins by "
        + ("team" if spec.partners else "seat in the first deal")
        + f" (95% CI); player 1 wins {d['player_win_rate']:.2%}",
    ]
    for w in d["wins_by_seat"]:
        lo, hi = w["win_rate_ci"]
        lines.append(f"  {w['seat']:<21} {w['win_rate']:7.2%}  [{lo:.2%}, {hi:.2%}]")
    if not d["complete_deals"]:
        lines.append(NO_COMPLETE_DEAL)
    else:
        lines.append("points per deal by seat (pegging, hand; the dealer's crib and heels)")
        for s in d["points_by_seat"]:
            dealer = s["seat"] == "dealer"
            lines.append(
                f"  {s['seat']:<15} {s['points']:6.2f}  pegging {s['pegging']:.2f}  "
                f"hand {s['hand']:.2f}"
                + (f"  crib {d['crib']:.2f}  heels {d['heels']:.2f}" if dealer else "")
            )
    lines.append(
        f"deals per game {d['deals_per_game']:.2f}; "
        + (
            ""
            if spec.lowball
            else f"skunks {d['skunk_rate']:.2%}, double skunks {d['double_skunk_rate']:.3%}"
            f" (the {'losing team' if spec.partners else 'last player'} under "
            f"{spec.game_length - 30}, under {spec.game_length - 60}); "
        )
        + f"largest hand {d['largest_hand']}"
    )
    return lines
