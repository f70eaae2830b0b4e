"""The show's commands: ``score`` (one hand, a whole deck, or a file of hands) and
``distribution`` (the exact histogram over every hand)."""

from __future__ import annotations

import os
import sys

import click

from cribsolve.cli.checks import check_outputs, check_plot, refuse
from cribsolve.cli.options import make_rules, plot, plot_option, quick, rule_options
from cribsolve.core.notation import format_cards
from cribsolve.core.rules import PRESETS
from cribsolve.errors import CribsolveError

SMALL_BATCH = 1 << 20  # bytes of a batch file scored in numpy (10,000 lines: 150 KB)


class _TextOut:
    """A byte writer over a text stream (stdout captured as text, as in tests)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data: bytes):
        self.stream.write(data.decode())


def _is_file(stream) -> bool:
    """Whether ``stream`` is a regular file (read to its end at no cost), not a pipe."""
    import stat

    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):
        return False


def _say_aloud(result) -> list[str]:
    """A line per item of a score, with the running total."""
    lines = []
    running = 0
    for cat, pts, cards in result.items:
        running += pts
        lines.append(f"  {cat:<10} {pts:>3}  {running:>4}   {format_cards(cards)}")
    return lines


def _show_lines(s, given, rules, crib) -> list[str]:
    """The score as the output says it: the hand, the items said aloud, the total."""
    from cribsolve.core.scoring import CATEGORIES

    shown = format_cards(s.cards[: s.nheld]) if s.nheld <= 20 else f"{s.nheld} cards"
    head = shown + (f"  starter {format_cards(s.cards[s.nheld :])}" if s.cards[s.nheld :] else "")
    if rules.wild_rank and s.cards != given:
        head += "  (wild cards as shown)"
    parts = ", ".join(f"{c} {s.breakdown[c]}" for c in CATEGORIES)
    lines = [
        head + ("  [crib]" if crib else ""),
        "\n".join(_say_aloud(s)),
        f"total {s.total}  ({parts})",
    ]
    if s.breakdown["heels"]:
        lines.append(f"his heels {s.breakdown['heels']} (to the dealer, not part of the hand)")
    return lines


@click.command()
@click.argument("cards", nargs=-1)
@click.option(
    "--starter",
    "starters",
    multiple=True,
    metavar="CARD",
    help="The cut card; give it twice for the two-cut-cards variation.",
)
@click.option("--crib", is_flag=True, help="Score as the crib (matters for the flush).")
@rule_options
@click.option("--whole-deck", is_flag=True, help="Score every card of the deck(s) as one hand.")
@click.option(
    "--batch",
    type=click.File("rb"),
    default=None,
    metavar="FILE",
    help="Score one hand per line of FILE ('-' = stdin); the last card is the starter.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def score(cards, starters, crib, preset, target, jokers, decks, wild, whole_deck, batch, as_json):
    """Score a hand at the show: CARDS are the held cards."""
    if batch is not None:
        refuse(["as_json"], "--batch", "it prints one total per line")
    is_file = batch is not None and _is_file(batch)
    small = is_file and os.fstat(batch.fileno()).st_size <= SMALL_BATCH
    if (batch is None or small) and wild is None:
        quick()
    rules = make_rules(preset, target, jokers, decks, wild)
    if batch is not None:
        from cribsolve.core.scoring.batch import score_stream

        if cards or starters or whole_deck:
            raise CribsolveError(
                "--batch takes the hands from the file: give no cards or --starter"
            )
        score_stream(
            batch,
            getattr(sys.stdout, "buffer", None) or _TextOut(sys.stdout),
            rules,
            crib,
            hold=is_file,
            small=small and wild is None,
        )
        return
    from cribsolve.api.show import score as score_api
    from cribsolve.infra.export import dumps

    r = score_api(cards, starters, crib=crib, rules=rules, whole_deck=whole_deck)
    if as_json:
        click.echo(dumps(r.to_dict()))
        return
    s, given = r._extra["score"], r._extra["given"]
    click.echo("\n".join(_show_lines(s, given, rules, crib)))


@click.command()
@click.option("--crib", is_flag=True, help="Score the hands as cribs.")
@click.option(
    "--rules",
    "preset",
    type=click.Choice(PRESETS),
    default="standard",
    show_default=True,
    help="standard: a crib flush needs all five cards; pysol: the crib scores like a hand.",
)
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write score,count,probability to this file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@plot_option
def distribution(crib, preset, csv_path, as_json, plot_path):
    """Exact histogram of the show score over all 12,994,800 four-card + starter hands."""
    check_outputs(("--csv", csv_path))
    check_plot(plot_path, ("--csv", csv_path))
    from cribsolve.api.show import distribution as distribution_api
    from cribsolve.infra.export import dumps, write_csv

    r = distribution_api(crib=crib, preset=preset)
    hist, rows = r._extra["histogram"], [tuple(row.values()) for row in r.rows]
    if csv_path:
        write_csv(csv_path, ["score", "count", "probability"], rows)
    plot(plot_path, "distribution_figure", hist, crib, preset)
    if as_json:
        click.echo(dumps(r.to_dict()))
        return
    click.echo(f"{'score':>5} {'count':>9} {'probability':>12}")
    for s, c, p in rows:
        click.echo(f"{s:>5} {c:>9} {p:>12.8f}")
    click.echo(f"hands {r.hands}  mean {r.mean:.5f}  std {r.std:.5f}")
