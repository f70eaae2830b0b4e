"""``best-discard`` for cribbage at the command line: ``rank`` refuses the options the analysis
the API picked does not take (api/throw.py: "exact", the standard deals, or a file of them
with --batch; "sampled", house-rule deals; "board" and "board3", P(win) at the scores; "table",
three or four players), asks the API and prints its answer. Their output: docs/throwing.md,
docs/odds.md, docs/house-rules.md.
"""

from __future__ import annotations

import sys

import click

from cribsolve.cli.checks import given, refuse
from cribsolve.cli.discard_rows import DISCARD_HEADER, discard_rows, exact_lines
from cribsolve.cli.options import bars, plot, quick
from cribsolve.core.notation import format_card, format_cards
from cribsolve.errors import CardError, CribsolveError

# what a throw weighed by the board cannot take
NOT_BY_WINS = [
    "batch",
    "opponent",
    "with_dist",
    "plot_path",
    "starter",
    "starters",
    "preset",
    "with_pegs",
]


def rank(o, hand, rules, kind: str):
    """The analysis ``kind`` of ``hand`` under ``rules``: its options checked, then its table
    printed (or, with --batch, the best discard of each hand of the file)."""
    _refuse_for(o, kind)
    if kind in ("exact", "table") and o.batch is None:
        quick()
    if o.batch is not None:
        return _exact_batch(o, rules)
    from cribsolve.api.throw import best_discard

    r = best_discard(
        hand,
        o.dealer,
        rules=rules,
        seen=o.seen,
        throw_model=o.opponent,
        starter=o.starter,
        top=o.top,
        distribution=o.with_dist,
        pegging=o.with_pegs,
        my_score=o.my_score,
        their_score=o.their_score,
        scores=o.scores,
        dealer_player=o.dealer_player,
        objective=o.objective,
        samples=o.samples,
        seed=o.seed,
        sampled=given("crib_size"),
        progress=bars(o.quiet),
    )
    if kind in ("exact", "table"):
        return _exact_output(o, r)
    _say_hand_size(r._extra["rules"])  # once the hand is known good: a mistake stays one line
    if kind == "sampled":
        _say_starter(o)
        return _sampled_output(o, r)
    from cribsolve.games.cribbage.deals.win_choices import POLICY

    if kind == "board":
        mine, theirs = o.my_score, o.their_score
        return _wins_output(
            o,
            r,
            f"as {'dealer' if o.dealer else 'pone'} at {mine} to {theirs}",
            f"both {POLICY}, then the odds table",
        )
    where = ("the dealer", "at the dealer's left", "at the dealer's right")[
        (r._extra["seat"] + 1) % 3
    ]
    _wins_output(
        o,
        r,
        f"{where} at {'-'.join(map(str, r.scores))} (yours first, then your left's)",
        f"all {POLICY}, then the three-player odds table; theirs: the mean of the others'",
    )


def _refuse_for(o, kind: str) -> None:
    """The options given that the analysis ``kind`` does not take are refused."""
    if kind == "exact":
        refuse(
            ["samples", "seed"],
            "an exact two-player analysis",
            "it is for sampled analyses: two cut cards, --wild, --lowball, --crib-size, house "
            "rules or other hand sizes",
        )
        if o.batch is not None:
            refuse(
                ["seen", "top", "with_dist", "as_json", "plot_path", "with_pegs"],
                "--batch",
                "it writes the best discard of each hand as CSV rows",
            )
            if o.cards:
                raise CribsolveError("--batch takes the hands from the file: give no cards")
    elif kind == "table":
        refuse(
            ["batch", "opponent", "samples", "seed", "with_pegs", "starter"],
            f"--players {o.players}",
            "the analysis is exact, the other crib cards uniform",
        )
    elif kind == "board":
        refuse(NOT_BY_WINS, "--my-score", "the P(win) of each throw comes from played-out deals")
        refuse(
            ["players", "partners", "five_card"],
            "--my-score",
            "the board of two sides; three players give --scores and --dealer-player",
        )
    elif kind == "board3":
        refuse(
            [*NOT_BY_WINS, "dealer", "my_score", "objective", "five_card"],
            "--scores",
            "each throw's P(win) comes from played-out deals of three players",
        )
    else:
        refuse(
            ["batch", "opponent", "with_dist", "plot_path", "with_pegs"],
            "a sampled house-rule deal",
            "the opponent's throw is drawn uniformly",
        )


def _say_hand_size(spec) -> None:
    """A hand of another size than these rules deal is analysed as a house rule of that hand
    size: say so on stderr, as the header alone said it ("(hand size 7)"), unless the user
    gave --hand-size."""
    from cribsolve.games.cribbage.rules.spec import CribbageSpec
    from cribsolve.infra.paths import say

    dealt = CribbageSpec.natural_hand(
        spec.crib_size, spec.choose_cut, spec.two_cribs, spec.players, spec.five_card
    )
    if spec.hand_size != dealt and not given("hand_size"):
        say(
            f"{spec.hand_size} cards read as --hand-size {spec.hand_size}: a house rule "
            f"(these rules deal {dealt})"
        )


def _say_starter(o) -> None:
    """--starter without --starters is read as the two-cut-cards rule (a throw's points average
    over the one cut card): say so on stderr, as the header alone said it ("(starters 2, first
    cut 5D)"), unless the user gave --starters."""
    from cribsolve.infra.paths import say

    if o.starter is not None and not given("starters"):
        say(
            f"--starter {o.starter} read as --starters 2: the first of two cut cards, turned "
            "before the throw (leave it out for one cut card, averaged over)"
        )


def _exact_batch(o, rules):
    """--batch: the best discard of each hand of the file, as CSV rows."""
    from cribsolve.api.rules import show_rules
    from cribsolve.api.tables import opponent_model
    from cribsolve.api.throw import WHOSE_CRIB, throw_model_of
    from cribsolve.core.hand_options import check_hand
    from cribsolve.core.scoring.batch import tokenize
    from cribsolve.games.cribbage.throw.best_discard import best_discard_batch
    from cribsolve.infra.export import write_csv
    from cribsolve.infra.progress import bar

    if o.dealer is None:
        raise CribsolveError(WHOSE_CRIB)
    show, seat = show_rules(rules), "dealer" if o.dealer else "pone"
    opponent = throw_model_of(o.opponent, show)
    ids, offsets, lines = tokenize(o.batch.read())
    hands = [ids[a:b].tolist() for a, b in zip(offsets[:-1], offsets[1:])]
    for h, line in zip(hands, lines):
        try:
            check_hand(h, ())
        except CardError as e:
            raise CardError(f"line {line}: {e}") from None
    if opponent == "optimal":
        opponent_model(opponent, seat, show, bars(o.quiet))
    with bar(len(hands), "hands", o.quiet, "hand") as pb:
        results = best_discard_batch(hands, seat, opponent, show, progress=pb.update)
    rows = [
        (format_cards(h),) + discard_rows(res[:1])[0] + (res[0].net - res[1].net,)
        for h, res in zip(hands, results)
    ]
    header = ["dealt"] + DISCARD_HEADER + ["margin"]  # "hand" is the kept points
    if o.csv_path:
        write_csv(o.csv_path, header, rows)
    else:
        import csv

        w = csv.writer(sys.stdout)
        w.writerow(header)
        w.writerows(rows)


def _exact_output(o, r):
    """The exact analyses' table (and --csv, --plot), the best discard first."""
    from cribsolve.infra.export import dumps, write_csv

    hand, values, pegs, spec = (r._extra[k] for k in ("hand", "values", "pegs", "rules"))
    shown = o.shown(values)
    if o.csv_path:
        rows = discard_rows(shown)
        if pegs:
            rows = [row + (pegs[id(v)], v.net + pegs[id(v)]) for row, v in zip(rows, shown)]
        write_csv(o.csv_path, DISCARD_HEADER + ["pegging", "value"] * bool(pegs), rows)
    house = (
        [f"target {spec.target}"] * (spec.target != 15)
        + [f"jokers {spec.jokers}"] * bool(spec.jokers)
        + [f"decks {spec.decks}"] * (spec.decks > 1)
    )
    head = f"{format_cards(hand)} as {'dealer' if o.dealer else 'pone'}, {r._extra['against']}" + (
        f" ({', '.join(house)})" if house else ""
    )
    plot(
        o.plot_path,
        "discard_figure",
        values[: o.top or 4],
        head,
        f"net points (hand {'+' if o.dealer else '-'} crib)",
    )
    if o.as_json:
        click.echo(dumps(r.to_dict()))
        return
    click.echo(
        f"{head}: net = hand {'+' if o.dealer else '-'} crib"
        + "; value = net + pegging, the expert's expected pegging margin of the kept "
        "cards" * bool(pegs)
    )
    extras = (
        [
            ("pegging", lambda v: f"{pegs[id(v)]:7.3f}"),
            ("value", lambda v: f"{v.net + pegs[id(v)]:7.3f}"),
        ]
        if pegs
        else []
    )
    click.echo("\n".join(exact_lines(shown, "net", extras, o.with_dist)))


def _wins_output(o, r, at, how):
    """The table of throws by P(win) or game points (``at``: where I am; ``how``: how the
    deals are played out)."""
    from cribsolve.infra.export import dumps, write_csv

    rows = r._extra["values"]
    wins = o.objective == "win"
    worth = (lambda x, w: f"{x:{w}.2%}") if wins else (lambda x, w: f"{x:{w}.3f}")
    by_points = max(rows, key=lambda t: t.mine - t.theirs)
    shown = o.shown(rows)
    column = "win" if wins else "game_points"
    if o.csv_path:
        write_csv(
            o.csv_path,
            ["discard", "keep", "mine", "theirs", "margin", column, "se"],
            [list(t.as_dict().values()) for t in shown],
        )
    if o.as_json:
        click.echo(dumps(r.to_dict()))
        return
    what = "P(win) of the game" if wins else "expected game points (2 a win, 3 a skunk)"
    click.echo(
        f"{format_cards(r._extra['hand'])} {at}: {what}, best first, over {o.samples:,} deals "
        f"played out from each throw (seed {o.seed}; {how})"
    )
    click.echo(
        f"  {'discard':<8} {'keep':<12} {'mine':>6} {'theirs':>6} {'margin':>7} "
        f"{'P(win)' if wins else 'points':>7} {'± se':>6}"
    )
    for t in shown:
        click.echo(
            f"  {format_cards(t.discard):<8} {format_cards(t.keep):<12} {t.mine:6.2f} "
            f"{t.theirs:6.2f} {t.mine - t.theirs:7.2f} {worth(t.win, 7)} "
            f"{worth(t.se, 6)}"
        )
    if by_points is not rows[0]:
        click.echo(
            f"  the most points ({format_cards(by_points.discard)} away, margin "
            f"{by_points.mine - by_points.theirs:.2f}) is not the "
            f"{'most wins' if wins else 'most game points'} here"
        )


def _sampled_table(spec, shown):
    """The header and rows of the sampled table: the opponent's crib and the gift where the
    rules have them."""
    header = ["discard", "keep", "hand", "crib", "net", "se", "samples"]
    rows = [
        [format_cards(v.discard), format_cards(v.keep), v.hand, v.crib, v.net, v.se, v.samples]
        for v in shown
    ]
    if spec.two_cribs:
        header[1:1] = ["their_crib_cards"]
        header.insert(5, "their_crib")
        for r, v in zip(rows, shown):
            r[1:1] = [format_cards(v.other_crib)]
            r.insert(5, v.their_crib)
    if spec.choose_cut:
        header[-3:-3] = ["give", "gift"]
        for r, v in zip(rows, shown):
            r[-3:-3] = [format_card(v.give), v.gift]
    return header, rows


def _sampled_output(o, r):
    """A sampled house-rule deal's table, with its redraw and bid where the rules have them."""
    from cribsolve.infra.export import dumps, write_csv

    hand, spec, seat, cut = (r._extra[k] for k in ("hand", "rules", "seat", "cut"))
    header, rows = _sampled_table(spec, r._extra["values"])
    if o.csv_path:
        write_csv(o.csv_path, header, rows)
    if o.as_json:
        click.echo(dumps(r.to_dict()))
        return
    cuts = "" if cut is None else f", first cut {format_card(cut)}"
    whose = "with a crib each" if spec.two_cribs else f"as {seat}"
    net = (
        "hand + my crib - their crib"
        if spec.two_cribs
        else f"hand {'+' if seat == 'dealer' else '-'} crib"
    ) + " - gift" * spec.choose_cut
    click.echo(f"{format_cards(hand)} {whose} ({spec.describe()}{cuts}): net = {net}")
    click.echo(
        f"  sampled: the hand exact over the cut card, the rest over {o.samples:,} draws "
        f"of the opponent's cards and the cut card (seed {o.seed}); ± is the standard "
        f"error"
    )
    if spec.draw:
        click.echo(f"  redraw before the throw: {r.redraw or 'nothing'}")
    if spec.bid:
        owner = "you" if seat == "dealer" else "they"
        click.echo(f"  bid for the crib up to {r.bid_ceiling} (the rows: if {owner} own it)")
    names = (
        ["discard"]
        + ["to theirs"] * spec.two_cribs
        + ["keep", "hand", "crib"]
        + ["theirs"] * spec.two_cribs
        + ["give", "gift"] * spec.choose_cut
        + ["net", "± se"]
    )
    cells = [row[:-1] for row in rows]  # without samples
    widths = [
        max(len(n), *(len(c) if isinstance(c, str) else 7 for c in col))
        for n, col in zip(names, zip(*cells))
    ]
    click.echo(
        "  "
        + " ".join(
            f"{n:<{w}}" if isinstance(c, str) else f"{n:>{w}}"
            for n, w, c in zip(names, widths, cells[0])
        )
    )
    for row in cells:
        click.echo(
            "  "
            + " ".join(
                f"{c:<{w}}" if isinstance(c, str) else f"{c:>{w}.3f}" for c, w in zip(row, widths)
            )
        )
