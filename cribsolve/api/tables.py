"""The tables an analysis builds once and keeps (the opponent's throw model, the odds tables,
the solitaires' win table): the first call takes seconds to minutes, so each is built with the
caller's ``progress`` (results.progress_bar: none, tqdm's, or the caller's own bar)."""

from __future__ import annotations

import contextlib

from cribsolve.api.results import progress_bar

ODDS = "simulating deals for the odds table (once)"


@contextlib.contextmanager
def once(progress, total, desc: str, unit: str):
    """The ``update(n)`` of a table built once and kept: its bar is made at the first update,
    so none is drawn (and tqdm never imported) when the table is already kept."""
    with contextlib.ExitStack() as stack:
        made = []

        def update(n=1, **postfix):
            if not made:
                made.append(stack.enter_context(progress_bar(progress, total, desc, unit)))
            made[0].update(n)
            if postfix and hasattr(made[0], "set_postfix"):
                made[0].set_postfix(**postfix)

        yield update


def opponent_model(model: str, seat: str, rules, progress) -> None:
    """The opponent's throw model for ``seat``'s discards (the optimal one's best-response
    solve takes about 20 s, once)."""
    from cribsolve.games.cribbage.throw.crib_model import pair_weights

    with once(progress, None, "solving the opponent model (once)", "iteration") as update:
        pair_weights(model, "pone" if seat == "dealer" else "dealer", rules, _report(update))


def crib_table_rows(seat: str, model: str, rules, progress) -> list:
    """crib_model.crib_table_rows, its opponent model solved (once) with ``progress``."""
    from cribsolve.games.cribbage.throw import crib_model

    with once(progress, None, "solving the opponent model (once)", "iteration") as update:
        return crib_model.crib_table_rows(seat, model, rules, _report(update))


def _report(update):
    """The solve's progress(iteration, change) as one step of the bar."""
    return lambda iteration, change: update(1, change=f"{change:.4f}")


def odds_table(spec, objective: str, progress) -> None:
    """The two-player odds table of ``spec`` by ``objective``, the board-weighed choices'."""
    from cribsolve.games.cribbage.deals.odds import DEALS, objective_table
    from cribsolve.games.cribbage.deals.win_choices import POLICY

    with once(progress, DEALS[POLICY], ODDS, "deal") as update:
        objective_table(spec, objective, update, policy=POLICY)


def three_odds_table(spec, progress) -> None:
    """The three-player odds table of ``spec``."""
    from cribsolve.games.cribbage.deals import three_odds

    with once(progress, three_odds.DEALS3, ODDS, "deal") as update:
        three_odds.three_odds_table(spec, update)


def win_tables(variant: str, progress) -> None:
    """A solitaire's table of P(win) by score and deals left, and Patience's deck value."""
    from cribsolve.games.solitaire import simulate

    with once(progress, simulate.WIN_TABLE_GAMES, f"win table for {variant} (once)", "game") as u:
        simulate.win_table(variant, u)
    if variant == "patience":
        desc = "deck value for patience (once)"
        with once(progress, simulate.DECK_VALUE_GAMES, desc, "game") as u:
            simulate.deck_value(u)
