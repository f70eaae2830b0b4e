"""``best-discard`` and ``crib-table``, skins over the API's (api/throw.py). best-discard
gathers its options into one ``DiscardRequest``, builds the rules they give and hands them to
the analysis the API picks (the solitaires': discard_solitaire.py; cribbage's:
discard_cribbage.py), which refuses the options that do not apply to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

import click

from cribsolve.cli.checks import check_outputs, check_plot, given, refuse
from cribsolve.cli.options import (
    SEED_MAX,
    TOP_MAX,
    bars,
    game_options,
    make_spec,
    plot,
    plot_option,
    pysol_option,
)
from cribsolve.cli.spelling import (
    Spelled,
    objective_option,
    samples_option,
    seat_option,
    three_board_options,
)
from cribsolve.core.notation import parse_cards
from cribsolve.games.cribbage.rules.spec import BOUNDS, ODDS_LENGTH_MAX
from cribsolve.games.solitaire.facts import PATIENCES, SOLITAIRES

HOUSE_RULES = ("draw", "choose_cut", "two_cribs", "bid")  # the switches of a dealt deal
SOLITAIRE_SCORE_MAX = 1000  # --score (a solitaire is won at 80)
SOLITAIRE_ONLY = ("crib_cards", "kept", "points", "deal_number", "pysol_game")


@dataclass(frozen=True)
class DiscardRequest:
    """Everything ``best-discard`` was told, by its options' parameter names."""

    cards: tuple[str, ...]
    dealer: bool | None
    seen: str | None
    opponent: str | None
    target: int
    lowball: bool
    jokers: int
    decks: int
    hand_size: int | None
    crib_size: int
    starters: int
    wild: str | None
    starter: str | None
    preset: str
    top: int | None
    with_dist: bool
    as_json: bool
    csv_path: str | None
    batch: IO[bytes] | None
    quiet: bool
    plot_path: str | None
    variant: str
    crib_cards: str | None
    samples: int
    seed: int
    kept: str | None
    points: int | None  # --score: a solitaire's points so far
    deal_number: int | None  # --deal
    pysol_game: object | None
    with_pegs: bool
    my_score: int | None
    their_score: int | None
    scores: str | None  # three players: --scores A,B,C
    dealer_player: int | None
    game_length: int
    objective: str
    players: int
    partners: bool
    five_card: bool
    house: dict  # HOUSE_RULES: name -> given

    def shown(self, values):
        """The rows --top lets through."""
        return values[: self.top] if self.top else values


@click.command(
    cls=Spelled,
    respelled={
        "--known": "--seen",
        "--cut": "--starter",
        "--crib": "--crib-cards",
        "--opponent": "--throw-model",
    },
)
@click.argument("cards", nargs=-1)
@seat_option("Two-player: your crib (--pone: theirs); required there.")
@click.option(
    "--seen",
    default=None,
    metavar="CARDS",
    help="Other cards you have seen (solitaires: every card of earlier deals).",
)
@click.option(
    "--throw-model",
    "opponent",
    type=click.Choice(["uniform", "optimal"]),
    default=None,
    help="How the opponent's two crib cards are weighted (default: optimal; uniform "
    "with jokers or several decks, where the fitted model does not apply).",
)
@game_options(
    "target",
    "lowball",
    "jokers",
    "decks",
    "hand_size",
    "crib_size",
    "starters",
    "wild",
    *HOUSE_RULES,
    "players",
    "partners",
    "five_card",
)
@click.option(
    "--starter",
    default=None,
    metavar="CARD",
    help="Two-player, two cut cards (--starters 2): the first, turned before the throw.",
)
@click.option(
    "--rules",
    "preset",
    type=click.Choice(["standard"]),
    default="standard",
    show_default=True,
    help="Two-player: the standard rules (a crib flush needs all "
    "five cards); the solitaires use their own.",
)
@click.option(
    "--top", type=click.IntRange(1, TOP_MAX), default=None, help="Show only the best N discards."
)
@click.option(
    "--distribution",
    "with_dist",
    is_flag=True,
    help="Also give the probability of each net value (exact analyses only).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the table (or, with --batch, one row per hand) to this file.",
)
@click.option(
    "--batch",
    type=click.File("rb"),
    default=None,
    metavar="FILE",
    help="Two-player: analyse one hand per line of FILE ('-' = stdin) into CSV rows.",
)
@click.option(
    "--quiet", is_flag=True, help="No progress bar, nor the line saying where --plot wrote."
)
@plot_option
@click.option(
    "--variant",
    type=click.Choice(["cribbage", *PATIENCES]),
    default="cribbage",
    show_default=True,
    help="Two-player, or a solitaire.",
)
@click.option(
    "--crib-cards",
    "crib_cards",
    default=None,
    metavar="CARDS",
    help="Patience II second discard: the two cards already in the crib.",
)
@samples_option(
    "Sampled analyses (Patience II's first discard: second hands; two-player "
    "house-rule deals: crib draws)"
)
@click.option(
    "--seed",
    type=click.IntRange(0, SEED_MAX),
    default=0,
    show_default=True,
    help="Seed of a sampled analysis.",
)
@click.option(
    "--kept",
    default=None,
    metavar="CARDS",
    help="Patience II second discard with --score: the 4 cards kept from hand one.",
)
@click.option(
    "--score",
    "points",
    type=click.IntRange(0, SOLITAIRE_SCORE_MAX),
    default=None,
    help="Solitaires, with --deal: points so far; adds P(win).",
)
@click.option(
    "--deal",
    "deal_number",
    type=click.IntRange(1, max(SOLITAIRES[v].deals for v in PATIENCES)),
    default=None,
    help="Solitaires, with --score: this deal's number (1 to 5 in "
    "Patience, 1 to 4 in Patience II).",
)
@pysol_option("the solitaires' hand of deal 1 (or --deal K), the earlier deals seen")
@click.option(
    "--pegging",
    "with_pegs",
    is_flag=True,
    help="Two-player, standard deal: add the expected pegging margin of the kept "
    "cards (the expert's table) and rank by hand + crib + pegging.",
)
@click.option(
    "--my-score",
    type=click.IntRange(0, ODDS_LENGTH_MAX - 1),
    default=None,
    help="Two-player: your score; with --their-score, rank by P(win) of the game.",
)
@click.option(
    "--their-score",
    type=click.IntRange(0, ODDS_LENGTH_MAX - 1),
    default=None,
    help="Two-player: the opponent's score.",
)
@click.option(
    "--game-length",
    type=click.IntRange(BOUNDS["game_length"][0], ODDS_LENGTH_MAX),
    default=121,
    show_default=True,
    help="Two-player, with the scores: points to win (with --lowball: to lose).",
)
@three_board_options(" (player 1 is you); with --dealer-player, rank by P(win) of the game")
@objective_option("Two-player, with the scores: what the throws are ranked by")
def best_discard(**params):
    """Rank every discard of a hand: exact expected points for the standard deals (6 cards,
    or 5 with one to the crib), sampled for other house-rule deals."""
    o = DiscardRequest(house={name: params.pop(name) for name in HOUSE_RULES}, **params)
    check_outputs(("--csv", o.csv_path))
    check_plot(o.plot_path, ("--csv", o.csv_path))
    if o.variant != "cribbage":
        from cribsolve.cli.discard_solitaire import rank_solitaire

        return rank_solitaire(o)
    refuse(
        SOLITAIRE_ONLY,
        "--variant cribbage",
        "it is for the solitaires, --variant patience or patience2",
    )
    from cribsolve.api.throw import discard_analysis
    from cribsolve.cli.discard_cribbage import rank

    hand = parse_cards(o.cards) if o.cards else []
    if o.hand_size is not None and hand and o.hand_size != len(hand):
        raise click.BadParameter(
            f"{o.hand_size} is not the {len(hand)} cards given", param_hint="'--hand-size'"
        )
    rules = make_spec(
        o.game_length,
        wild=o.wild,
        hand_size=len(hand) or None,
        target=o.target,
        lowball=o.lowball,
        jokers=o.jokers,
        decks=o.decks,
        crib_size=o.crib_size,
        starters=o.starters,
        players=o.players,
        partners=o.partners,
        five_card=o.five_card,
        **o.house,
    )
    kind = discard_analysis(
        hand,
        rules,
        starter=o.starter,
        my_score=o.my_score,
        their_score=o.their_score,
        scores=o.scores,
        dealer_player=o.dealer_player,
        sampled=given("crib_size"),
    )
    if kind not in ("board", "board3"):
        refuse(["game_length", "objective"], "a throw's expected points", "it goes with --my-score")
    return rank(o, hand, rules, kind)


@click.command(cls=Spelled, respelled={"--opponent": "--throw-model"})
@seat_option("The dealer's discards (--pone: the pone's).")
@click.option(
    "--throw-model",
    "opponent",
    type=click.Choice(["uniform", "optimal"]),
    default="optimal",
    show_default=True,
    help="How the other player's two crib cards are weighted.",
)
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write rank1,rank2,suited,crib to this file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--quiet", is_flag=True, help="No progress bar, nor the line saying where --plot wrote."
)
@plot_option
def crib_table(dealer, opponent, csv_path, as_json, quiet, plot_path):
    """Expected crib points of every two-card discard, by ranks, suited and offsuit."""
    check_outputs(("--csv", csv_path))
    check_plot(plot_path, ("--csv", csv_path))
    from cribsolve.api.throw import CRIB_TABLE
    from cribsolve.api.throw import crib_table as crib_table_api
    from cribsolve.infra.export import dumps, write_csv

    table = crib_table_api(
        dealer,
        throw_model=opponent,
        progress=bars(quiet),
    )
    rows = [tuple(row.values()) for row in table.rows]
    if csv_path:
        write_csv(csv_path, list(CRIB_TABLE), rows)
    plot(plot_path, "crib_table_figure", rows, table.seat, opponent)
    if as_json:
        click.echo(dumps(table.to_dict()))
        return
    from cribsolve.core.notation import RANK_CHARS

    grid = {(r[0], r[1], r[2]): r[3] for r in rows}
    click.echo(
        f"expected crib points, {table.seat}'s discard, opponent {opponent}: "
        "upper right suited, lower left offsuit, diagonal pairs"
    )
    click.echo("    " + "".join(f"{c:>6}" for c in RANK_CHARS))
    for i, a in enumerate(RANK_CHARS):
        cells = []
        for j, b in enumerate(RANK_CHARS):
            lo, hi = (a, b) if i <= j else (b, a)
            cells.append(f"{grid[(lo, hi, i < j)]:6.2f}")
        click.echo(f"{a:>4}" + "".join(cells))
