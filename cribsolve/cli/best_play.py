"""``best-play``: which card to lay from a position of the play, two to four players."""

from __future__ import annotations

import click

from cribsolve.cli.checks import bad, card, cards, check_unseen, refuse, three_scores
from cribsolve.cli.options import game_options, make_spec, seed_option
from cribsolve.cli.spelling import (
    Spelled,
    objective_option,
    samples_option,
    seat_option,
    three_board_options,
)
from cribsolve.core.notation import format_card
from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.cribbage.rules.spec import BOUNDS, ODDS_LENGTH_MAX, TABLE_FIELDS


def _read_play(mine, tokens, seat, spec):
    """(my seat, the count) of the play so far: the seat given, or the one the sequence fits."""
    from cribsolve.games.cribbage.players.bestplay import SeatMismatch, read_position

    fits, errors = [], []
    for me in [seat] if seat is not None else range(spec.players):
        try:
            fits.append((me, read_position(mine, tokens, me, spec).count))
        except CardError as e:
            errors.append(e)
    if not fits:  # the error of a seat the hand fits says more than a count of cards
        raise ([e for e in errors if not isinstance(e, SeatMismatch)] or errors)[-1]
    if len(fits) > 1:
        raise CribsolveError(
            "the sequence fits either seat: say --dealer or --pone"
            if spec.players == 2
            else "the sequence fits seats " + ", ".join(str(me) for me, _ in fits)
        )
    return fits[0]


def _my_seat(dealer, spec):
    """My seat from --dealer/--pone (the last seat, or seat 0, the dealer's left), or None."""
    return None if dealer is None else spec.players - 1 if dealer else 0


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
    from cribsolve.games.cribbage.rules.pegging import GO

    spec = make_spec(game_length, **house)
    sampled = spec.players > 2 or spec.five_card
    board = _three_board(scores, dealer_player, dealer, spec)
    if sampled:
        refuse(
            ["my_score", "their_score", "objective"] + ["game_length"] * (board is None),
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
    me = _my_seat(dealer, spec) if board is None else board[0]
    if not hand:
        raise click.UsageError(
            'give your unplayed cards, e.g. cribsolve best-play QH JH --played "KS 5H"'
        )
    mine, known = cards(" ".join(hand), "CARDS"), cards(seen, "--seen")
    if played is not None and not played.strip():
        raise bad("--played", "give the cards laid, or leave the option out")
    tokens = [
        GO if t.lower() == "go" else card(t, "--played")
        for t in (played or "").replace(",", " ").split()
    ] + [GO] * opp_go
    laid = [t for t in tokens if t is not GO]
    check_unseen(
        len(mine + laid + known),
        max(0, spec.players * spec.kept - len(laid) - len(mine)),
        "the opponent's unplayed cards" if spec.players == 2 else "the others' unplayed cards",
        "--seen",
        spec.decks * 52 + spec.jokers,
    )
    from cribsolve.games.cribbage.players.bestplay import best_play as rank_plays

    me, now = _read_play(mine, tokens, me, spec)
    if count is not None and count != now:
        raise bad("--count", f"{count} is not the count of --played ({now})")
    if (my_score is None) != (their_score is None):
        raise click.UsageError("give both --my-score and --their-score")
    if my_score is None and not sampled:
        refuse(
            ["samples", "seed", "game_length", "objective"],
            "a play without the scores",
            "they go with --my-score",
        )
    elif (my_score is not None or board is not None) and (starter is None or thrown is None):
        raise click.UsageError("P(win) needs --starter and --thrown with the scores")
    cut = None if starter is None else card(starter, "--starter")
    crib = cards(thrown, "--thrown")
    known = [c for c in known if c != cut and c not in crib]  # --seen may repeat them
    if len(crib) > spec.hand_size - spec.kept:
        raise bad("--thrown", f"your throw is {spec.hand_size - spec.kept} cards, not {len(crib)}")
    most = spec.hand_size - spec.kept + spec.starters  # my throw and the starter
    if len(known) + len(crib) + (cut is not None) > most:
        raise bad(
            "--seen",
            f"a player sees at most {most} cards in a deal besides its hand "
            f"and the play (its throw and the starter), not "
            f"{len(known) + len(crib) + (cut is not None)}",
        )
    if sampled:
        from cribsolve.games.cribbage.players.bestplay import sampled_play

        rows, unseen = sampled_play(
            mine, tokens, me, known + crib, spec, samples, seed, policy, cut
        )
        wins = {}
        if board is not None:
            wins = _three_wins(
                mine, tokens, me, cut, crib, board[1], known, spec, samples, seed, quiet
            )
            rows = sorted(rows, key=lambda r: -wins[r.card][0])
        return _sampled_output(
            rows, me, now, unseen, spec, samples, seed, policy, as_json, wins, scores
        )
    rows, n_holdings = rank_plays(mine, tokens, me, known + crib + [cut] * (cut is not None), spec)
    wins = {}
    if my_score is not None:
        from cribsolve.games.cribbage.deals.odds import DEALS, objective_table
        from cribsolve.games.cribbage.deals.win_choices import POLICY, check_board, play_odds
        from cribsolve.infra.progress import bar

        check_board(spec, my_score, their_score, objective)
        with bar(
            DEALS[POLICY], "simulating deals for the odds table (once)", quiet, "deal", lazy=True
        ) as pb:
            objective_table(spec, objective, pb.update, policy=POLICY)
        wins = {
            format_card(c): (p, se)
            for c, p, se in play_odds(
                mine,
                tokens,
                me,
                cut,
                crib,
                my_score,
                their_score,
                known,
                spec,
                samples,
                seed,
                objective,
            )
        }
        rows = sorted(rows, key=lambda r: -wins[r[0]][0])
    _play_output(
        rows,
        wins,
        me,
        now,
        n_holdings,
        spec,
        my_score,
        their_score,
        samples,
        seed,
        as_json,
        objective,
    )


def _three_board(scores, dealer_player, dealer, spec):
    """(my seat, the scores seat by seat) from --scores and --dealer-player, or None."""
    if scores is None and dealer_player is None:
        return None
    from cribsolve.games.cribbage.deals.three_odds import seat_of, seat_scores

    if spec.players != 3 or spec.partners:
        raise CribsolveError(
            "--scores and --dealer-player weigh three players' board (--players 3); two "
            "players give --my-score and --their-score"
        )
    refuse(["dealer"], "--scores", "--dealer-player says where you sit")
    if scores is None or dealer_player is None:
        raise click.UsageError("give --scores A,B,C and --dealer-player N (who deals)")
    d = dealer_player - 1
    return seat_of(0, d), seat_scores(three_scores(scores, spec.game_length), d)


def _three_wins(mine, tokens, me, cut, crib, board, known, spec, samples, seed, quiet):
    """Each card's (P(win), its standard error) at three players (three_choices.play_odds3)."""
    from cribsolve.games.cribbage.deals.three_choices import check_board3, play_odds3
    from cribsolve.games.cribbage.deals.three_odds import DEALS3, three_odds_table
    from cribsolve.infra.progress import bar

    check_board3(spec, board)
    table = "simulating deals for the odds table (once)"
    with bar(DEALS3, table, quiet, "deal", lazy=True) as pb:
        three_odds_table(spec, pb.update)
    return {
        format_card(c): (p, se)
        for c, p, se in play_odds3(mine, tokens, me, cut, crib, board, known, spec, samples, seed)
    }


def _sampled_output(rows, me, now, unseen, spec, samples, seed, policy, as_json, wins, scores):
    from cribsolve.games.cribbage.rules.spec import seat_names
    from cribsolve.infra.export import dumps

    name = seat_names(spec.players)[me]
    if as_json:
        click.echo(
            dumps(
                {
                    "seat": name,
                    "seat_number": me,
                    "players": spec.players,
                    "partners": spec.partners,
                    "count": now,
                    "samples": samples,
                    "seed": seed,
                    "policy": policy,
                    "plays": [
                        {
                            "card": r.card,
                            "mine": r.mine,
                            "theirs": r.theirs,
                            "margin": r.mine - r.theirs,
                            "se": r.se,
                            **({"win": wins[r.card][0], "win_se": wins[r.card][1]} if wins else {}),
                        }
                        for r in rows
                    ],
                    **({"scores": [int(v) for v in scores.split(",")]} if wins else {}),
                }
            )
        )
        return
    from dataclasses import replace

    rules = replace(spec, game_length=121).describe()  # the play's rules: no game length
    where = f"as {name}" if spec.players == 2 else f"as seat {me} ({name})"
    click.echo(
        f"count {now} {where}, {rules}"
        + " (least margin first)" * spec.lowball
        + f": expected pegging over the rest of the play, {samples:,} "
        f"deals of the others' cards from the {unseen} you have not seen (their goes "
        f"respected), every seat then {policy} (seed {seed})"
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
    for r in rows:
        click.echo(
            f"  {r.card:<5} {r.mine:6.3f} {r.theirs:7.3f} {r.mine - r.theirs:7.3f} {r.se:6.3f}"
            + (f" {wins[r.card][0]:7.2%} {wins[r.card][1]:6.2%}" if wins else "")
        )


def _play_output(
    rows, wins, me, now, n_holdings, spec, my_score, their_score, samples, seed, as_json, objective
):
    from cribsolve.infra.export import dumps

    if as_json:
        click.echo(
            dumps(
                {
                    "seat": "dealer" if me else "pone",
                    "count": now,
                    "holdings": n_holdings,
                    "plays": [
                        {
                            "card": c,
                            "mine": m,
                            "theirs": t,
                            "margin": m - t,
                            **(
                                {
                                    "win" if objective == "win" else "game_points": wins[c][0],
                                    "se": wins[c][1],
                                }
                                if wins
                                else {}
                            ),
                        }
                        for c, m, t in rows
                    ],
                }
            )
        )
        return
    rules = (
        ""
        if spec.is_standard
        else f" ({spec.describe()}; least margin first)"
        if spec.lowball
        else f" ({spec.describe()})"
    )
    click.echo(
        f"count {now} as {'dealer' if me else 'pone'}{rules}: expected pegging over the "
        f"rest of the play, exact over the opponent's {n_holdings:,} possible holdings "
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
