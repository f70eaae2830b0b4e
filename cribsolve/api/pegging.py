"""The play from Python: ``best_play`` ranks the cards to lay from a position of the play, as
``cribsolve best-play``: two players exact over every holding the opponent may have (by P(win)
of the game with the scores); three or four players, partners and the five-card game over
sampled deals of the others' cards."""

from __future__ import annotations

from cribsolve.api.checks import bad, card, check_unseen, option_cards, three_board
from cribsolve.api.results import Result
from cribsolve.api.rules import Rules, card_list
from cribsolve.api.tables import odds_table, three_odds_table
from cribsolve.errors import CardError, CribsolveError


class PlayResult(Result):
    """Each card to lay, best first (``plays``: its expected pegging for me and the others, and
    P(win) with the scores), from my ``seat`` at the ``count``. Two players: the opponent's
    ``holdings`` searched; sampled tables: the ``seat_number``, ``players``, ``partners``,
    ``samples``, ``seed``, ``policy`` and, with three players' board, the ``scores``."""

    FIELDS = (
        "seat",
        "seat_number",
        "players",
        "partners",
        "count",
        "holdings",
        "samples",
        "seed",
        "policy",
        "plays",
        "scores",
    )
    TABLE = "plays"


def plays_sampled(rules) -> bool:
    """Whether ``best_play`` samples the others' cards (three or four players, partners, the
    five-card game) rather than searching every holding of the opponent."""
    return rules.players > 2 or rules.five_card


def best_play(
    cards,
    dealer: bool | None = None,
    *,
    played=None,
    go: bool = False,
    count: int | None = None,
    seen=None,
    rules: Rules | None = None,
    my_score: int | None = None,
    their_score: int | None = None,
    scores=None,
    dealer_player: int | None = None,
    starter=None,
    thrown=None,
    samples: int = 2000,
    seed: int = 0,
    policy: str = "greedy",
    objective: str = "win",
    progress=False,
) -> PlayResult:
    """Which card to lay from ``cards``, your unplayed cards:
    ``cs.best_play("TS 2C 3D 8H", played="5H", dealer=True).plays[0]["card"]`` is "TS".

    ``played``: every card laid in this play so far, in order, the dealer's left first, with
    "go" where a player could not lay; ``go=True``: the player before you has just said go;
    ``count``: the running count, checked against ``played``; ``seen``: other cards you have
    seen; ``dealer``: your seat (by default the one whose turn ``played`` makes it). With
    ``my_score``, ``their_score`` (or three players' ``scores`` "A,B,C" and
    ``dealer_player``), ``starter`` and ``thrown`` (your throw), each card's P(win) over
    ``samples`` playouts from ``seed`` (``objective="game-points"``: expected game points).
    Three or four players (``rules``), partners, five-card: over ``samples`` deals of the
    others' cards, every seat then laying by ``policy`` ("greedy" or "lookahead");
    ``progress=True``: a bar while an odds table is built once (or a callable giving the
    caller's own, results.progress_bar).
    """
    from cribsolve.games.cribbage.rules.pegging import GO

    rules = rules or Rules()
    sampled = plays_sampled(rules)
    board = None
    if scores is not None or dealer_player is not None:
        board = three_board(scores, dealer_player, rules, "two players")
    me = _my_seat(dealer, rules) if board is None else board[0]
    if not isinstance(cards, str) and not cards:
        raise CribsolveError(
            'give your unplayed cards, e.g. cribsolve best-play QH JH --played "KS 5H"'
        )
    mine, known = card_list(cards, "CARDS"), option_cards(seen, "--seen")
    text = played if played is None or isinstance(played, str) else " ".join(played)
    if text is not None and not text.strip():
        raise bad("--played", "give the cards laid, or leave the option out")
    tokens = [
        GO if t.lower() == "go" else card(t, "--played")
        for t in (text or "").replace(",", " ").split()
    ] + [GO] * go
    laid = [t for t in tokens if t is not GO]
    check_unseen(
        len(mine + laid + known),
        max(0, rules.players * rules.kept - len(laid) - len(mine)),
        "the opponent's unplayed cards" if rules.players == 2 else "the others' unplayed cards",
        "--seen",
        rules.decks * 52 + rules.jokers,
    )
    me, now = _read_play(mine, tokens, me, rules)
    if count is not None and count != now:
        raise bad("--count", f"{count} is not the count of --played ({now})")
    if (my_score is None) != (their_score is None):
        raise CribsolveError("give both --my-score and --their-score")
    if (my_score is not None or board is not None) and (starter is None or thrown is None):
        raise CribsolveError("P(win) needs --starter and --thrown with the scores")
    cut = None if starter is None else card(starter, "--starter")
    crib = option_cards(thrown, "--thrown")
    known = [c for c in known if c != cut and c not in crib]  # --seen may repeat them
    if len(crib) > rules.hand_size - rules.kept:
        raise bad(
            "--thrown", f"your throw is {rules.hand_size - rules.kept} cards, not {len(crib)}"
        )
    most = rules.hand_size - rules.kept + rules.starters  # my throw and the starter
    if len(known) + len(crib) + (cut is not None) > most:
        raise bad(
            "--seen",
            f"a player sees at most {most} cards in a deal besides its hand "
            f"and the play (its throw and the starter), not "
            f"{len(known) + len(crib) + (cut is not None)}",
        )
    position = mine, tokens, me, cut, crib, known
    if sampled:
        return _sampled(position, now, board, rules, samples, seed, policy, progress)
    return _searched(
        position, now, my_score, their_score, rules, samples, seed, objective, progress
    )


def _sampled(position, now, board, rules, samples, seed, policy, progress) -> PlayResult:
    """Three or four players, partners, five-card: over sampled deals of the others' cards
    (by P(win) at three players' board)."""
    from cribsolve.games.cribbage.players.bestplay import sampled_play
    from cribsolve.games.cribbage.rules.spec import seat_names

    mine, tokens, me, cut, crib, known = position
    rows, unseen = sampled_play(mine, tokens, me, known + crib, rules, samples, seed, policy, cut)
    wins = {}
    if board is not None:
        from cribsolve.games.cribbage.deals.three_choices import check_board3, play_odds3

        check_board3(rules, board[1])
        three_odds_table(rules, progress)
        wins = _by_card(
            play_odds3(mine, tokens, me, cut, crib, board[1], known, rules, samples, seed)
        )
        rows = sorted(rows, key=lambda r: -wins[r.card][0])
    plays = [
        {
            "card": r.card,
            "mine": r.mine,
            "theirs": r.theirs,
            "margin": r.mine - r.theirs,
            "se": r.se,
            **({"win": wins[r.card][0], "win_se": wins[r.card][1]} if wins else {}),
        }
        for r in rows
    ]
    return PlayResult(
        {
            "seat": seat_names(rules.players)[me],
            "seat_number": me,
            "players": rules.players,
            "partners": rules.partners,
            "count": now,
            "samples": samples,
            "seed": seed,
            "policy": policy,
            "plays": plays,
            **({"scores": board[2]} if wins else {}),
        },
        rows=rows,
        wins=wins,
        unseen=unseen,
        rules=rules,
    )


def _searched(position, now, my_score, their_score, rules, samples, seed, objective, progress):
    """Two players: exact over the opponent's holdings (by P(win) at the scores)."""
    from cribsolve.games.cribbage.players.bestplay import best_play as rank_plays

    mine, tokens, me, cut, crib, known = position
    rows, n_holdings = rank_plays(mine, tokens, me, known + crib + [cut] * (cut is not None), rules)
    wins = {}
    if my_score is not None:
        from cribsolve.games.cribbage.deals.win_choices import check_board, play_odds

        check_board(rules, my_score, their_score, objective)
        odds_table(rules, objective, progress)
        wins = _by_card(
            play_odds(
                mine,
                tokens,
                me,
                cut,
                crib,
                my_score,
                their_score,
                known,
                rules,
                samples,
                seed,
                objective,
            )
        )
        rows = sorted(rows, key=lambda r: -wins[r[0]][0])
    column = "win" if objective == "win" else "game_points"
    plays = [
        {
            "card": c,
            "mine": m,
            "theirs": t,
            "margin": m - t,
            **({column: wins[c][0], "se": wins[c][1]} if wins else {}),
        }
        for c, m, t in rows
    ]
    return PlayResult(
        {
            "seat": "dealer" if me else "pone",
            "count": now,
            "holdings": n_holdings,
            "plays": plays,
        },
        rows=rows,
        wins=wins,
        rules=rules,
    )


def _by_card(odds) -> dict:
    """Each card's (P(win), its standard error), by the card as it is written."""
    from cribsolve.core.notation import format_card

    return {format_card(c): (p, se) for c, p, se in odds}


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
    """My seat from ``dealer`` (the last seat, or seat 0, the dealer's left), or None."""
    return None if dealer is None else spec.players - 1 if dealer else 0
