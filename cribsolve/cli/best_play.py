"""``best-play``: which card to lay from a position of the play, two to four players; a skin
over the API's (api/pegging.py), which checks the position and answers."""

from __future__ import annotations

import click

from cribsolve.cli.checks import refuse
from cribsolve.cli.options import bars, game_options, make_spec, seed_option
from cribsolve.cli.spelling import (
    Spelled,
    objective_option,
    samples_option,
    seat_option,
    three_board_options,
)
from cribsolve.games.cribbage.rules.spec import BOUNDS, ODDS_LENGTH_MAX, TABLE_FIELDS


@click.command(cls=Spelled, respelled={"--hand": ""})
@click.argument("hand", nargs=-1, metavar="CARDS")
@click.option(
    "--played",
    default=None,
    metavar="CARDS",
    help="Every card laid in this play so far, in order, the dealer's left first, "
    "with 'go' where a player could not lay (e.g. \"TH 5S KD go 6C\").",
)
@click.option(
    "--go",
    "opp_go",
    is_flag=True,
    help="The player before you has just said go (the same as a last 'go' in --played).",
)
@click.option(
    "--count",
    type=click.IntRange(0, 199),
    default=None,
    help="The running count, checked against --played.",
)
@click.option(
    "--seen",
    default=None,
    metavar="CARDS",
    help="Other cards you have seen (your throw and the starter may be given here or "
    "as --thrown and --starter).",
)
@seat_option(
    "Your seat: --dealer or --pone, who leads (with three or four: the dealer's "
    "left); by default the seat whose turn the sequence makes it."
)
@game_options(
    "target",
    "peg_limit",
    "lowball",
    "jokers",
    "decks",
    "hand_size",
    "crib_size",
    "starters",
    "choose_cut",
    "two_cribs",
    *TABLE_FIELDS,
)
@click.option(
    "--my-score",
    type=click.IntRange(0, ODDS_LENGTH_MAX - 1),
    default=None,
    help="Your score now (this play's points so far included): with --their-score, "
    "--starter and --thrown, rank by P(win) of the game.",
)
@click.option(
    "--their-score",
    type=click.IntRange(0, ODDS_LENGTH_MAX - 1),
    default=None,
    help="The opponent's score.",
)
@three_board_options(
    " (player 1 is you; this play's points in them); with --dealer-player, --starter "
    "and --thrown, rank by P(win) of the game"
)
@click.option("--starter", default=None, metavar="CARD", help="The cut card.")
@click.option(
    "--game-length",
    type=click.IntRange(BOUNDS["game_length"][0], ODDS_LENGTH_MAX),
    default=121,
    show_default=True,
    help="With the scores: points to win.",
)
@click.option("--thrown", default=None, metavar="CARDS", help="The cards you put in the crib.")
@samples_option(
    "With the scores: rests of the deal played out per card; with three or four "
    "players or --five-card: deals of the others' cards per card"
)
@seed_option
@click.option(
    "--policy",
    type=click.Choice(["greedy", "lookahead"]),
    default="greedy",
    show_default=True,
    help="With three or four players or --five-card: how every seat lays in the playouts.",
)
@objective_option("With the scores: what the cards are ranked by")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--quiet",
    is_flag=True,
    help="No progress bar (with the scores, a first odds table for the rules is built once).",
)
def best_play(
    hand,
    played,
    opp_go,
    count,
    seen,
    dealer,
    my_score,
    their_score,
    scores,
    dealer_player,
    starter,
    thrown,
    samples,
    seed,
    policy,
    objective,
    as_json,
    game_length,
    quiet,
    **house,
):
    """Which card to lay from CARDS, your unplayed cards: expected pegging points for you and
    the others, best margin first. Two players: exact over every holding the opponent may
    have; with the scores, P(win) of the game. Three or four players, partners, five-card:
    over sampled deals of the others' cards, with each row's standard error."""
    from cribsolve.api.pegging import best_play as best_play_api
    from cribsolve.api.pegging import plays_sampled

    spec = make_spec(game_length, **house)
    sampled = plays_sampled(spec)
    if scores is not None or dealer_player is not None:
        refuse(["dealer"], "--scores", "--dealer-player says where you sit")
    if sampled:
        refuse(
            ["my_score", "their_score", "objective"]
            + ["game_length"] * (scores is None and dealer_player is None),
            "best-play with three or four players or --five-card",
            "P(win) is weighed for two players, or three with --scores",
        )
    else:
        refuse(
            ["policy"],
            "two-player best-play",
            "its search lays each card from what "
            "each player knows; --policy is for three or four or --five-card",
        )
        if my_score is None:
            refuse(
                ["samples", "seed", "game_length", "objective"],
                "a play without the scores",
                "they go with --my-score",
            )
    r = best_play_api(
        " ".join(hand) if hand else (),
        dealer,
        played=played,
        go=opp_go,
        count=count,
        seen=seen,
        rules=spec,
        my_score=my_score,
        their_score=their_score,
        scores=scores,
        dealer_player=dealer_player,
        starter=starter,
        thrown=thrown,
        samples=samples,
        seed=seed,
        policy=policy,
        objective=objective,
        progress=bars(quiet),
    )
    if as_json:
        from cribsolve.infra.export import dumps

        click.echo(dumps(r.to_dict()))
    elif sampled:
        _sampled_output(r, spec, samples, seed, policy, scores)
    else:
        _play_output(r, spec, my_score, their_score, samples, seed, objective)


def _sampled_output(r, spec, samples, seed, policy, scores):
    """The sampled table: each card's pegging over deals of the others' cards."""
    from dataclasses import replace

    rows, wins = r._extra["rows"], r._extra["wins"]
    rules = replace(spec, game_length=121).describe()  # the play's rules: no game length
    where = f"as {r.seat}" if spec.players == 2 else f"as seat {r.seat_number} ({r.seat})"
    click.echo(
        f"count {r.count} {where}, {rules}"
        + " (least margin first)" * spec.lowball
        + f": expected pegging over the rest of the play, {samples:,} "
        f"deals of the others' cards from the {r._extra['unseen']} you have not seen (their "
        f"goes respected), every seat then {policy} (seed {seed})"
    )
    if spec.players > 2:
        click.echo(
            "  mine: "
            + (
                "your team's points; theirs: the other team's"
                if spec.partners
                else "your points; theirs: the mean of each other player's"
            )
        )
    if wins:
        click.echo(
            f"  P(win) of the game at {scores.replace(',', '-')} (yours first, then your "
            "left's): the rest of "
            f"the deal played out {samples:,} times from each card (all greedy; seed {seed}), "
            "then the three-player odds table; most wins first"
        )
    click.echo(
        f"  {'card':<5} {'mine':>6} {'theirs':>7} {'margin':>7} {'± se':>6}"
        + f" {'P(win)':>7} {'± se':>6}" * bool(wins)
    )
    for p in rows:
        click.echo(
            f"  {p.card:<5} {p.mine:6.3f} {p.theirs:7.3f} {p.mine - p.theirs:7.3f} {p.se:6.3f}"
            + (f" {wins[p.card][0]:7.2%} {wins[p.card][1]:6.2%}" if wins else "")
        )


def _play_output(r, spec, my_score, their_score, samples, seed, objective):
    """The two-player table: each card's pegging, exact over the opponent's holdings."""
    rows, wins = r._extra["rows"], r._extra["wins"]
    rules = (
        ""
        if spec.is_standard
        else f" ({spec.describe()}; least margin first)"
        if spec.lowball
        else f" ({spec.describe()})"
    )
    click.echo(
        f"count {r.count} as {r.seat}{rules}: expected pegging over the "
        f"rest of the play, exact over the opponent's {r.holdings:,} possible holdings "
        f"(by rank), each then laying from what it knows"
    )
    by_wins = objective == "win"
    if wins:
        what = (
            ("P(win) of the game", "most wins")
            if by_wins
            else ("expected game points (2 a win, 3 a skunk)", "most game points")
        )
        click.echo(
            f"  {what[0]} at {my_score} to {their_score}: the rest of the deal "
            f"played out {samples:,} times from each card (both greedy; seed {seed}), "
            f"then the odds table; {what[1]} first"
        )
    click.echo(
        f"  {'card':<5} {'mine':>6} {'theirs':>7} {'margin':>7}"
        + f" {'P(win)' if by_wins else 'points':>7} {'± se':>6}" * bool(wins)
    )
    form = ".2%" if by_wins else ".3f"
    for c, m, t in rows:
        click.echo(
            f"  {c:<5} {m:6.3f} {t:7.3f} {m - t:7.3f}"
            + (f" {wins[c][0]:7{form}} {wins[c][1]:6{form}}" if wins else "")
        )
