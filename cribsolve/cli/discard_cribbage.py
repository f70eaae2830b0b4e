"""``best-discard``'s analyses of cribbage, each given the command's ``DiscardRequest`` and the
hand: ``rank_exact`` (the standard deals, exact; --batch), ``rank_sampled`` (house-rule deals,
sampled), ``rank_by_wins`` (P(win) with --my-score; ``rank_by_wins3``: with three players'
--scores) and ``rank_table`` (three or four players, or partners). Their output:
docs/throwing.md, docs/odds.md, docs/house-rules.md.
"""

from __future__ import annotations

import sys

import click

from cribsolve.cli.checks import card, cards, check_unseen, given, refuse, three_scores
from cribsolve.cli.discard_rows import DISCARD_HEADER, discard_rows, exact_lines
from cribsolve.cli.options import make_spec, opponent_progress, plot, quick
from cribsolve.core.notation import format_card, format_cards
from cribsolve.errors import CardError, CribsolveError

WHOSE_CRIB = "say whose crib it is: --dealer or --pone"


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


def _spec(o, hand, **more):
    """The rules the options give for a deal of ``hand``, with ``more`` of them."""
    rules = dict(
        target=o.target,
        lowball=o.lowball,
        jokers=o.jokers,
        decks=o.decks,
        hand_size=len(hand) or None,
        crib_size=o.crib_size,
        wild=o.wild,
        **o.house,
    )
    return make_spec(**{**rules, **more})


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


def rank_exact(o, hand):
    """The exact analysis of a standard deal, for one hand or (--batch) a file of them."""
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
    if o.dealer is None:
        raise CribsolveError(WHOSE_CRIB)
    if o.batch is None:
        quick()
    from cribsolve.core.hand_options import check_hand
    from cribsolve.core.rules import ruleset
    from cribsolve.games.cribbage.throw.best_discard import best_discard
    from cribsolve.games.cribbage.throw.crib_model import pair_weights

    rules = ruleset(o.preset, target=o.target, jokers=o.jokers, decks=o.decks)
    opponent = o.opponent or ("uniform" if o.jokers or o.decks > 1 else "optimal")
    other = "pone" if o.dealer else "dealer"
    if o.batch is not None:
        return _exact_batch(o, rules, opponent, other)
    known = cards(o.seen, "--seen")
    check_hand(hand, known, rules=rules)
    check_unseen(
        len(hand) + len(known),
        9 - len(hand),
        "the starter and the other crib cards",
        "--seen",
        52 * o.decks + o.jokers,
    )
    if opponent == "optimal":
        pair_weights("optimal", other, rules, opponent_progress(o.quiet))
    values = best_discard(hand, "dealer" if o.dealer else "pone", known, opponent, rules)
    pegs = _pegging(o, hand, values) if o.with_pegs else {}
    if pegs:
        values = sorted(values, key=lambda v: -(v.net + pegs[id(v)]))
    _exact_output(o, hand, values, pegs, f"opponent {opponent}")


def rank_table(o, hand):
    """Three or four players, or partners: a hand of 5, one card to the crib, exact over
    every starter and every three other crib cards (the others' throws and, with three
    players, the deck's card: uniform over the unseen cards)."""
    refuse(
        ["batch", "opponent", "samples", "seed", "with_pegs", "starter"],
        f"--players {o.players}",
        "the analysis is exact, the other crib cards uniform",
    )
    spec = _spec(
        o,
        hand,
        starters=o.starters,
        players=o.players,
        partners=o.partners,
        five_card=o.five_card,
    )
    if len(hand) != 5:
        raise CribsolveError(
            f"with {spec.players} players a hand is 5 cards, one to the crib, not {len(hand)}"
        )
    if spec.lowball or spec.wild_rank:
        raise CribsolveError(
            f"--players {spec.players}: the exact analysis is for more points, without wild cards"
        )
    if o.dealer is None:
        raise CribsolveError(
            "say whose crib it is: --dealer (yours, or with partners your "
            "partner's) or --pone (another player's)"
        )
    quick()
    from cribsolve.core.hand_options import check_hand
    from cribsolve.core.rules import ruleset
    from cribsolve.games.cribbage.throw.best_discard import best_discard

    rules = ruleset(o.preset, target=o.target, jokers=o.jokers, decks=o.decks)
    known = cards(o.seen, "--seen")
    check_hand(hand, known, rules=rules)
    check_unseen(
        len(hand) + len(known),
        4,
        "the starter and the other crib cards",
        "--seen",
        52 * o.decks + o.jokers,
    )
    values = best_discard(hand, "dealer" if o.dealer else "pone", known, "uniform", rules)
    _exact_output(o, hand, values, {}, f"{spec.describe()}, the other crib cards uniform")


def _exact_batch(o, rules, opponent, other):
    """--batch: the best discard of each hand of the file, as CSV rows."""
    from cribsolve.core.hand_options import check_hand
    from cribsolve.core.scoring.batch import tokenize
    from cribsolve.games.cribbage.throw.best_discard import best_discard_batch
    from cribsolve.games.cribbage.throw.crib_model import pair_weights
    from cribsolve.infra.export import write_csv
    from cribsolve.infra.progress import bar

    ids, offsets, lines = tokenize(o.batch.read())
    hands = [ids[a:b].tolist() for a, b in zip(offsets[:-1], offsets[1:])]
    for h, line in zip(hands, lines):
        try:
            check_hand(h, ())
        except CardError as e:
            raise CardError(f"line {line}: {e}") from None
    if opponent == "optimal":
        pair_weights("optimal", other, rules, opponent_progress(o.quiet))
    with bar(len(hands), "hands", o.quiet, "hand") as pb:
        results = best_discard_batch(
            hands, "dealer" if o.dealer else "pone", opponent, rules, progress=pb.update
        )
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


def _pegging(o, hand, values):
    """--pegging: the expert's expected pegging margin of each discard's kept cards."""
    if len(hand) != 6 or o.target != 15 or o.jokers or o.decks > 1:
        raise CribsolveError("--pegging is for the standard six-card deal")
    from cribsolve.games.cribbage.players.pegtable import kept_margin
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    return {id(v): kept_margin(v.keep, o.dealer, CribbageSpec()) for v in values}


def _exact_output(o, hand, values, pegs, against):
    from cribsolve.infra.export import dumps, write_csv

    shown = o.shown(values)
    if o.csv_path:
        rows = discard_rows(shown)
        if pegs:
            rows = [r + (pegs[id(v)], v.net + pegs[id(v)]) for r, v in zip(rows, shown)]
        write_csv(o.csv_path, DISCARD_HEADER + ["pegging", "value"] * bool(pegs), rows)
    house = (
        [f"target {o.target}"] * (o.target != 15)
        + [f"jokers {o.jokers}"] * bool(o.jokers)
        + [f"decks {o.decks}"] * (o.decks > 1)
    )
    head = f"{format_cards(hand)} as {'dealer' if o.dealer else 'pone'}, {against}" + (
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
        click.echo(
            dumps(
                {
                    "discards": [
                        {
                            **v.as_dict(o.with_dist),
                            **(
                                {"pegging": pegs[id(v)], "value": v.net + pegs[id(v)]}
                                if pegs
                                else {}
                            ),
                        }
                        for v in shown
                    ]
                }
            )
        )
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


def rank_by_wins(o, hand):
    """--my-score and --their-score: each throw's P(win), its deals played out."""
    refuse(
        NOT_BY_WINS,
        "--my-score",
        "the P(win) of each throw comes from played-out deals",
    )
    refuse(
        ["players", "partners", "five_card"],
        "--my-score",
        "the board of two sides; three players give --scores and --dealer-player",
    )
    spec = _spec(o, hand, game_length=o.game_length)
    from cribsolve.games.cribbage.deals.odds import DEALS, objective_table
    from cribsolve.games.cribbage.deals.win_choices import POLICY, check_board, throw_odds
    from cribsolve.infra.progress import bar

    if o.dealer is None:
        raise CribsolveError(WHOSE_CRIB)
    check_board(spec, o.my_score, o.their_score, o.objective)
    with bar(
        DEALS[POLICY], "simulating deals for the odds table (once)", o.quiet, "deal", lazy=True
    ) as pb:
        objective_table(spec, o.objective, pb.update, policy=POLICY)
    mine, theirs = o.my_score, o.their_score
    rows = throw_odds(
        hand, o.dealer, mine, theirs, spec, cards(o.seen, "--seen"), o.samples, o.seed, o.objective
    )
    _say_hand_size(spec)  # once the hand is known good: a mistake stays one line
    _wins_output(
        o,
        hand,
        rows,
        {"my_score": mine, "their_score": theirs},
        f"as {'dealer' if o.dealer else 'pone'} at {mine} to {theirs}",
        f"both {POLICY}, then the odds table",
    )


def rank_by_wins3(o, hand):
    """Three players, --scores and --dealer-player: each throw's P(win), its deals played
    out."""
    refuse(
        [*NOT_BY_WINS, "dealer", "my_score", "objective", "five_card"],
        "--scores",
        "each throw's P(win) comes from played-out deals of three players",
    )
    if o.players != 3 or o.partners:
        raise CribsolveError(
            "--scores and --dealer-player weigh three players' board (--players 3); two "
            "sides give --my-score and --their-score"
        )
    if o.scores is None or o.dealer_player is None:
        raise click.UsageError("give --scores A,B,C and --dealer-player N (who deals)")
    spec = _spec(o, hand, game_length=o.game_length, players=3)
    scores = three_scores(o.scores, spec.game_length)
    from cribsolve.games.cribbage.deals.three_choices import check_board3, throw_odds3
    from cribsolve.games.cribbage.deals.three_odds import (
        DEALS3,
        seat_of,
        seat_scores,
        three_odds_table,
    )
    from cribsolve.games.cribbage.deals.win_choices import POLICY
    from cribsolve.infra.progress import bar

    dealer = o.dealer_player - 1
    seat, board = seat_of(0, dealer), seat_scores(scores, dealer)
    check_board3(spec, board)
    with bar(
        DEALS3, "simulating deals for the odds table (once)", o.quiet, "deal", lazy=True
    ) as pb:
        three_odds_table(spec, pb.update)
    rows = throw_odds3(hand, seat, board, spec, cards(o.seen, "--seen"), o.samples, o.seed)
    _say_hand_size(spec)
    where = ("the dealer", "at the dealer's left", "at the dealer's right")[(seat + 1) % 3]
    _wins_output(
        o,
        hand,
        rows,
        {"scores": scores, "dealer_player": o.dealer_player},
        f"{where} at {'-'.join(map(str, scores))} (yours first, then your left's)",
        f"all {POLICY}, then the three-player odds table; theirs: the mean of the others'",
    )


def _wins_output(o, hand, rows, board, at, how):
    """rank_by_wins's and rank_by_wins3's table of throws (``board``: the scores as --json
    gives them; ``at``: where I am; ``how``: how the deals are played out)."""
    from cribsolve.infra.export import dumps, write_csv

    wins = o.objective == "win"
    worth = (lambda x, w: f"{x:{w}.2%}") if wins else (lambda x, w: f"{x:{w}.3f}")
    by_points = max(rows, key=lambda r: r.mine - r.theirs)
    shown = o.shown(rows)
    column = "win" if wins else "game_points"
    if o.csv_path:
        write_csv(
            o.csv_path,
            ["discard", "keep", "mine", "theirs", "margin", column, "se"],
            [list(r.as_dict().values()) for r in shown],
        )
    if o.as_json:
        click.echo(
            dumps(
                {
                    **board,
                    "samples": o.samples,
                    "seed": o.seed,
                    "objective": o.objective,
                    "discards": [r.as_dict() for r in shown],
                }
            )
        )
        return
    what = "P(win) of the game" if wins else "expected game points (2 a win, 3 a skunk)"
    click.echo(
        f"{format_cards(hand)} {at}: {what}, best first, over {o.samples:,} deals played "
        f"out from each throw (seed {o.seed}; {how})"
    )
    click.echo(
        f"  {'discard':<8} {'keep':<12} {'mine':>6} {'theirs':>6} {'margin':>7} "
        f"{'P(win)' if wins else 'points':>7} {'± se':>6}"
    )
    for r in shown:
        click.echo(
            f"  {format_cards(r.discard):<8} {format_cards(r.keep):<12} {r.mine:6.2f} "
            f"{r.theirs:6.2f} {r.mine - r.theirs:7.2f} {worth(r.win, 7)} "
            f"{worth(r.se, 6)}"
        )
    if by_points is not rows[0]:
        click.echo(
            f"  the most points ({format_cards(by_points.discard)} away, margin "
            f"{by_points.mine - by_points.theirs:.2f}) is not the "
            f"{'most wins' if wins else 'most game points'} here"
        )


def rank_sampled(o, hand):
    """A house-rule deal: each discard's points sampled over the opponent's cards and the cut."""
    refuse(
        ["batch", "opponent", "with_dist", "plot_path", "with_pegs"],
        "a sampled house-rule deal",
        "the opponent's throw is drawn uniformly",
    )
    spec = _spec(
        o,
        hand,
        hand_size=len(hand),
        starters=2 if o.starter is not None else o.starters,
        five_card=o.five_card,
    )
    from cribsolve.games.cribbage.throw.best_discard import (
        bid_ceiling,
        redraw_advice,
        sampled_discard,
    )

    if o.dealer is None and not spec.two_cribs:
        raise CribsolveError(WHOSE_CRIB + " (with --bid: who would own it)" * spec.bid)
    seat = "dealer" if o.dealer or spec.two_cribs else "pone"
    known = cards(o.seen, "--seen")
    cut = None if o.starter is None else card(o.starter, "--starter")
    values = o.shown(sampled_discard(hand, seat, spec, known, cut, o.samples, o.seed))
    _say_hand_size(spec)  # once the hand is known good: a mistake stays one line
    _say_starter(o)
    extra = {}
    if spec.draw:
        extra["redraw"] = format_cards(redraw_advice(hand, seat, spec, known, cut, o.seed))
    if spec.bid:
        extra["bid_ceiling"] = bid_ceiling(hand, spec, known, cut, o.seed)
    _sampled_output(o, hand, spec, seat, cut, values, extra)


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


def _sampled_output(o, hand, spec, seat, cut, shown, extra):
    from cribsolve.infra.export import dumps, write_csv

    header, rows = _sampled_table(spec, shown)
    if o.csv_path:
        write_csv(o.csv_path, header, rows)
    if o.as_json:
        click.echo(dumps({"sampled": True, **extra, "discards": [v.as_dict() for v in shown]}))
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
        click.echo(f"  redraw before the throw: {extra['redraw'] or 'nothing'}")
    if spec.bid:
        owner = "you" if seat == "dealer" else "they"
        click.echo(f"  bid for the crib up to {extra['bid_ceiling']} (the rows: if {owner} own it)")
    names = (
        ["discard"]
        + ["to theirs"] * spec.two_cribs
        + ["keep", "hand", "crib"]
        + ["theirs"] * spec.two_cribs
        + ["give", "gift"] * spec.choose_cut
        + ["net", "± se"]
    )
    cells = [[r[i] for i in range(len(r) - 1)] for r in rows]  # without samples
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
    for r in cells:
        click.echo(
            "  "
            + " ".join(
                f"{c:<{w}}" if isinstance(c, str) else f"{c:>{w}.3f}" for c, w in zip(r, widths)
            )
        )
