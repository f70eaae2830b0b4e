"""The command line: each command parses, calls the library, and renders. No kernels here."""
from __future__ import annotations

import sys

import click
import numpy as np

from .cards import CardError, format_card, format_cards, parse_card, parse_cards, parse_rank
from .export import dumps, write_csv
from .rules import PRESETS, ruleset


def rule_options(f):
    """The RULES.md §5 switches that change show scoring, shared by every scoring command."""
    opts = [
        click.option("--rules", "preset", type=click.Choice(PRESETS), default="standard",
                     show_default=True, help="standard: two-player (crib flush needs all five); "
                                             "pysol: the solitaires (crib scores like a hand)."),
        click.option("--target", type=int, default=15, show_default=True,
                     help="The sum that scores 2 (house rule: e.g. 16)."),
        click.option("--jokers", type=int, default=0, show_default=True,
                     help="Jokers in the deck (rank 0, value 0, join runs 0-1-2)."),
        click.option("--decks", type=int, default=1, show_default=True,
                     help="Copies of each card (2 = double deck)."),
        click.option("--wild", "wild", default=None, metavar="RANK",
                     help="A rank whose cards stand for any card (e.g. K); the best is scored."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def make_rules(preset, target, jokers, decks, wild, starters=1):
    return ruleset(preset, target=target, jokers=jokers, decks=decks, starters=starters,
                   wild_rank=parse_rank(wild) if wild else 0)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cribsolve")
def cli():
    """cribsolve: exact, fast cribbage scoring, discards and solitaire odds."""


def main():
    """Console entry point: user mistakes become one line on stderr and exit status 2."""
    try:
        cli.main(standalone_mode=False)
    except (CardError, click.ClickException) as e:
        msg = e.format_message() if isinstance(e, click.ClickException) else str(e)
        click.echo(f"cribsolve: {msg}", err=True)
        sys.exit(2)
    except (click.Abort, KeyboardInterrupt):
        click.echo("cribsolve: interrupted", err=True)
        sys.exit(130)


def _say_aloud(score) -> list[str]:
    lines = []
    running = 0
    for cat, pts, cards in score.items:
        running += pts
        lines.append(f"  {cat:<10} {pts:>3}  {running:>4}   {format_cards(cards)}")
    return lines


@cli.command()
@click.argument("cards", nargs=-1)
@click.option("--starter", "starters", multiple=True, metavar="CARD",
              help="The cut card; give it twice for the two-cut-cards variation.")
@click.option("--crib", is_flag=True, help="Score as the crib (matters for the flush).")
@rule_options
@click.option("--whole-deck", is_flag=True, help="Score every card of the deck(s) as one hand.")
@click.option("--batch", type=click.File("rb"), default=None, metavar="FILE",
              help="Score one hand per line of FILE ('-' = stdin); the last card is the starter.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def score(cards, starters, crib, preset, target, jokers, decks, wild, whole_deck, batch, as_json):
    """Score a hand at the show: CARDS are the held cards."""
    from .cards import deck
    from .scoring import CATEGORIES, score_hand

    rules = make_rules(preset, target, jokers, decks, wild, max(1, len(starters)))
    if batch is not None:
        if cards or starters or whole_deck:
            raise CardError("--batch takes the hands from the file: give no cards or --starter")
        from .scoring.batch import score_batch
        totals = score_batch(batch.read(), rules, crib)
        sys.stdout.write("".join(f"{t}\n" for t in totals.tolist()))
        return
    if whole_deck:
        if cards or starters:
            raise CardError("--whole-deck scores the deck alone: give no cards or --starter")
        held, st = deck(decks, jokers).tolist(), []
    else:
        held = parse_cards(cards)
        st = [parse_card(s) for s in starters]
        if not held:
            raise CardError("give the held cards, e.g. cribsolve score 5H 5S JD QC --starter 5C")
        if not st:
            raise CardError("give the starter with --starter CARD (or use --whole-deck)")
    s = score_hand(held, st, rules, crib)
    if as_json:
        click.echo(dumps({"total": s.total, "breakdown": s.breakdown,
                          "cards": [format_card(c) for c in s.cards[:s.nheld]],
                          "starters": [format_card(c) for c in s.cards[s.nheld:]]}))
        return
    shown = format_cards(s.cards[:s.nheld]) if s.nheld <= 20 else f"{s.nheld} cards"
    head = shown + (f"  starter {format_cards(s.cards[s.nheld:])}" if s.cards[s.nheld:] else "")
    if rules.wild_rank and s.cards != held + st:
        head += "  (wild cards as shown)"
    click.echo(head + ("  [crib]" if crib else ""))
    click.echo("\n".join(_say_aloud(s)))
    parts = ", ".join(f"{c} {s.breakdown[c]}" for c in CATEGORIES)
    click.echo(f"total {s.total}  ({parts})")
    if s.breakdown["heels"]:
        click.echo(f"his heels {s.breakdown['heels']} (to the dealer, not part of the hand)")


@cli.command()
@click.option("--crib", is_flag=True, help="Score the hands as cribs.")
@click.option("--rules", "preset", type=click.Choice(PRESETS), default="standard",
              show_default=True)
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Write score,count,probability to this file.")
@click.option("--json", "as_json", is_flag=True)
def distribution(crib, preset, csv_path, as_json):
    """Exact histogram of the show score over all 12,994,800 four-card + starter hands."""
    from .scoring.table import distribution as dist

    rules = ruleset(preset)
    hist = dist(crib=crib, full_flush=rules.crib_full_flush)
    n = int(hist.sum())
    scores = np.arange(len(hist))
    mean = float((scores * hist).sum() / n)
    std = float(np.sqrt(((scores - mean) ** 2 * hist).sum() / n))
    rows = [(int(s), int(c), int(c) / n) for s, c in zip(scores, hist)]
    if csv_path:
        write_csv(csv_path, ["score", "count", "probability"], rows)
    if as_json:
        click.echo(dumps({"counts": {str(s): c for s, c, _ in rows}, "hands": n,
                          "mean": mean, "std": std}))
        return
    click.echo(f"{'score':>5} {'count':>9} {'probability':>12}")
    for s, c, p in rows:
        click.echo(f"{s:>5} {c:>9} {p:>12.8f}")
    click.echo(f"hands {n}  mean {mean:.5f}  std {std:.5f}")


if __name__ == "__main__":
    main()
