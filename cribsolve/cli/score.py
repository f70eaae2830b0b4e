"""The show's commands: ``score`` (one hand, a whole deck, or a file of hands) and
``distribution`` (the exact histogram over every hand)."""

from __future__ import annotations

import os
import sys

import click

from cribsolve.cli.checks import card, check_outputs, check_plot, refuse
from cribsolve.cli.options import make_rules, plot, plot_option, quick, rule_options
from cribsolve.core.notation import format_cards, parse_cards
from cribsolve.core.rules import PRESETS
from cribsolve.errors import CribsolveError

WILD_WORK_MAX = 6 * 10**7  # wild-card substitutions x cards: about 5 s of kernel time
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


def _check_wild_work(held, starters, rules) -> None:
    """Wild cards are tried one substitution at a time: refuse a hand with too many to try."""
    from math import comb

    from cribsolve.core.cards import RANK

    wild = rules.wild_rank
    kh = sum(1 for c in held if wild and RANK[c] == wild)
    ks = sum(1 for c in starters if wild and RANK[c] == wild)
    n = len(held) + len(starters)
    if (kh or ks) and comb(12 + kh, kh) * 4 * 52**ks * (n + 4) > WILD_WORK_MAX:
        raise CribsolveError(
            f"--wild: {kh + ks} wild cards among {n} would take too long to "
            f"try every substitution (use fewer wild cards or a smaller hand)"
        )


def _check_score_size(held, starters, rules) -> None:
    """Refuse a hand the show kernels cannot score exactly and soon.

    They count in 64-bit integers: past 2**63 (a whole deck of several decks, with jokers or a
    large --target) they would wrap around and print a wrong total, so an upper bound of every
    count is worked out here in Python's unbounded integers first. Wild cards are tried one
    substitution at a time, so their number is bounded too.
    """
    from cribsolve.core.cards import RANK, VALUE

    _check_wild_work(held, starters, rules)
    cards = list(held) + list(starters)
    n = len(cards)
    if n <= 60:  # at most 2**60 subsets: every count fits
        return
    wild = rules.wild_rank
    counts = [0] * 14
    for c in cards:
        if not (wild and RANK[c] == wild):
            counts[int(RANK[c])] += 1
    kw = n - sum(counts)  # the wild cards
    t = rules.target
    ways = [1] + [0] * t  # subsets by value sum, each wild card taking any value
    factors = [(int(VALUE[r]), counts[r]) for r in range(14)] + [(None, 1)] * kw
    for v, k in factors:
        for _ in range(k):
            if v is None:
                ways = [sum(ways[max(0, s - 10) : s + 1]) for s in range(t + 1)]
            elif v == 0:
                ways = [2 * w for w in ways]
            else:
                ways = [ways[s] + (ways[s - v] if s >= v else 0) for s in range(t + 1)]
    runs = 14
    for r in range(14):
        runs *= max(1, counts[r] + kw)
    bound = 2 * max(ways) + runs + 3 * n * n
    if bound >= 2**63:
        raise CribsolveError(
            f"{n} cards under these rules score past what can be counted "
            f"exactly (2**63): use fewer --decks or --jokers, or a smaller "
            f"--target"
        )


def _held_and_starters(cards, starters, whole_deck, decks, jokers):
    """The held cards and the starters the user gave (or the whole deck, no starter)."""
    if whole_deck:
        from cribsolve.core.cards import deck

        if cards or starters:
            raise CribsolveError("--whole-deck scores the deck alone: give no cards or --starter")
        return deck(decks, jokers).tolist(), []
    held = parse_cards(cards)
    st = [card(s, "--starter") for s in starters]
    if not held:
        raise CribsolveError("give the held cards, e.g. cribsolve score 5H 5S JD QC --starter 5C")
    if not st:
        raise CribsolveError("give the starter with --starter CARD (or use --whole-deck)")
    if len(st) > 2:
        raise CribsolveError(
            f"{len(st)} starters given: one, or two for the two-cut-cards variation"
        )
    return held, st


def _say_aloud(result) -> list[str]:
    """A line per item of a score, with the running total."""
    lines = []
    running = 0
    for cat, pts, cards in result.items:
        running += pts
        lines.append(f"  {cat:<10} {pts:>3}  {running:>4}   {format_cards(cards)}")
    return lines


def _show_lines(s, held, st, rules, crib) -> list[str]:
    """The score as the output says it: the hand, the items said aloud, the total."""
    from cribsolve.core.scoring import CATEGORIES

    shown = format_cards(s.cards[: s.nheld]) if s.nheld <= 20 else f"{s.nheld} cards"
    head = shown + (f"  starter {format_cards(s.cards[s.nheld :])}" if s.cards[s.nheld :] else "")
    if rules.wild_rank and s.cards != held + st:
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
    from cribsolve.core.notation import format_card
    from cribsolve.core.scoring import score_hand
    from cribsolve.infra.export import dumps

    held, st = _held_and_starters(cards, starters, whole_deck, decks, jokers)
    rules.check_cards(held + st)
    _check_score_size(held, st, rules)
    s = score_hand(held, st, rules, crib)
    if as_json:
        click.echo(
            dumps(
                {
                    "total": s.total,
                    "breakdown": s.breakdown,
                    "cards": [format_card(c) for c in s.cards[: s.nheld]],
                    "starters": [format_card(c) for c in s.cards[s.nheld :]],
                }
            )
        )
        return
    click.echo("\n".join(_show_lines(s, held, st, rules, crib)))


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
    import numpy as np

    from cribsolve.core.rules import ruleset
    from cribsolve.core.scoring.table import distribution as dist
    from cribsolve.infra.export import dumps, write_csv

    rules = ruleset(preset)
    hist = dist(crib=crib, full_flush=rules.crib_full_flush)
    n = int(hist.sum())
    scores = np.arange(len(hist))
    mean = float((scores * hist).sum() / n)
    std = float(np.sqrt(((scores - mean) ** 2 * hist).sum() / n))
    rows = [(int(s), int(c), int(c) / n) for s, c in zip(scores, hist)]
    if csv_path:
        write_csv(csv_path, ["score", "count", "probability"], rows)
    plot(plot_path, "distribution_figure", hist, crib, preset)
    if as_json:
        click.echo(
            dumps({"counts": {str(s): c for s, c, _ in rows}, "hands": n, "mean": mean, "std": std})
        )
        return
    click.echo(f"{'score':>5} {'count':>9} {'probability':>12}")
    for s, c, p in rows:
        click.echo(f"{s:>5} {c:>9} {p:>12.8f}")
    click.echo(f"hands {n}  mean {mean:.5f}  std {std:.5f}")
