"""The solitaires from Python: ``bracket`` (how good optimal play is), ``shuffle`` (Cribbage
Shuffle solved), ``best_place`` (where Cribbage Square's card goes) and ``deal`` (a PySolFC
game's cards), each as its command (docs/solitaires.md, docs/research.md)."""

from __future__ import annotations

from cribsolve.api import checks
from cribsolve.api.results import Result, progress_bar
from cribsolve.api.rules import card_list
from cribsolve.api.tables import win_tables
from cribsolve.errors import CardError, CribsolveError

EMPTY_WORDS = ("--", ".")  # an empty cell of best-place's grid
SQUARE_MEASURES = ("win_rate", "ev_rate", "gain", "clairvoyant", "width")  # square's bracket


class BracketResult(Result):
    """Where the optimal win rate lies: the best policy's ``win_rate`` below, the penalised
    ``upper_bound`` (Patience, Patience II) and the ``clairvoyant`` bound above, the
    ``width`` between, each with its 95% interval (``<measure>_ci``); ``rows`` a measure
    each, as ``bracket --csv`` appends them."""

    FIELDS = (
        "variant",
        "n",
        "seed",
        "policy",
        "next_hands",
        "win_rate",
        "win_rate_ci",
        "ev_rate",
        "ev_rate_ci",
        "upper_bound",
        "upper_bound_ci",
        "clairvoyant",
        "clairvoyant_ci",
        "upper_side",
        "width",
        "width_ci",
        "width_penalised",
        "width_penalised_ci",
        "width_clairvoyant",
        "width_clairvoyant_ci",
        "charged_rate",
        "charged_rate_ci",
        "win_policy_rate",
        "win_policy_rate_ci",
        "gain",
        "gain_ci",
    )
    TABLE = "measures"

    @property
    def rows(self) -> list[dict]:
        """variant, n, seed, next_hands, policy, measure, value, ci_low, ci_high."""
        from cribsolve.games.solitaire.bracket import COLUMNS

        return [dict(zip(COLUMNS, m)) for m in self._extra["measures"]]


class ShuffleResult(Result):
    """Cribbage Shuffle's best grid: its rows of cards, each row's and column's points, his
    heels, the ``total`` and the search's ``upper_bound`` (``optimal`` when they meet); with
    a PySolFC deal, its ``game``."""

    FIELDS = ("game", "grid", "rows", "columns", "heels", "total", "upper_bound", "optimal")


class BestPlaceResult(Result):
    """Every move of Cribbage Square's card in hand, best first: ``moves``, each with its
    exact ``expected`` final score and ``ahead`` (the next card placed as ev would), and
    with playouts their ``mean``, ``se`` and P(``win``); ``ev`` and ``lookahead`` mark those
    policies' moves."""

    FIELDS = ("variant", "card", "samples", "seed", "moves")
    TABLE = "moves"


class DealResult(Result):
    """A PySolFC game's cards as they are dealt: the ``talon`` (top first) and where each
    card goes in the variant (``deals``, ``grid``, ``starter``, ...)."""

    FIELDS = (
        "variant",
        "game",
        "generator",
        "talon",
        "removed",
        "deals",
        "set_aside",
        "grid",
        "starter",
    )


def bracket(
    *,
    variant: str = "patience2",
    n: int = 10_000,
    next_hands: int | None = None,
    seed: int = 0,
    jobs: int | None = None,
    checkpoint: str | None = None,
    progress=False,
) -> BracketResult:
    """How good optimal play is, on ``n`` of simulate's decks for ``seed``: the best
    policy's win rate, and upper bounds on every policy. ``variant``: patience, patience2 or
    square; ``next_hands``: Patience's hands drawn per deal to charge the bound for seeing the
    next hand (default facts.NEXT_HANDS); ``checkpoint``: a file keeping finished chunks, from
    which the same call resumes."""
    from cribsolve.games.solitaire.facts import NEXT_HANDS

    if variant == "square":
        _refuse_square(next_hands, checkpoint)
        if n < 1:
            raise CribsolveError("-n must be at least 1")
        from cribsolve.games.solitaire.square import bracket as square_bracket

        with progress_bar(progress, n, "bracket square", "deck") as pb:
            d = square_bracket(n, seed, jobs, pb.update)
        measures = [
            [variant, n, seed, None, d["policy"], m, d[m], *d[m + "_ci"]] for m in SQUARE_MEASURES
        ]
        return BracketResult(d, measures=measures)
    if variant == "patience2" and next_hands is not None:
        raise CribsolveError(
            "--next-hands does not apply to --variant patience2 (both of its discards are "
            "charged with both hands seen)"
        )
    from cribsolve.games.solitaire.bracket import bracket as run_bracket

    win_tables(variant, progress)
    with progress_bar(progress, n, f"bracket {variant}", "deck") as pb:
        res = run_bracket(
            variant,
            n,
            seed,
            jobs,
            pb if hasattr(pb, "resume") else pb.update,  # a bar that resumes where kept
            NEXT_HANDS if next_hands is None else next_hands,
            checkpoint=checkpoint,
        )
    return BracketResult(res.as_dict(), measures=res.csv_rows())


def _refuse_square(next_hands, checkpoint) -> None:
    for option, v in (("--next-hands", next_hands), ("--checkpoint", checkpoint)):
        if v is not None:
            raise CribsolveError(
                f"{option} does not apply to --variant square (its bracket is the ev policy "
                "and the clairvoyant bound, printed or --json)"
            )


def shuffle(
    cards=(),
    *,
    starter=None,
    time_limit: float | None = None,
    pysol_game=None,
) -> ShuffleResult:
    """Cribbage Shuffle: the best arrangement of 16 grid ``cards`` around ``starter``, with
    its proof: ``cs.shuffle("AC 2C ... TD", starter="5D").total``. ``time_limit``: stop after
    so many seconds with the best grid so far and the bound; ``pysol_game=N`` deals PySolFC's
    game N instead of cards and starter."""
    from cribsolve.core.notation import format_card
    from cribsolve.core.rules import ruleset
    from cribsolve.games.solitaire.shuffle import solve

    game = None
    if pysol_game is not None:
        from cribsolve.games.solitaire.pysol import layout, talon

        if len(cards) or starter is not None:
            raise CribsolveError("--pysol-game deals the grid and the starter: give neither")
        game = _game(pysol_game)
        lay = layout("shuffle", talon(game))
        cards, starter = sum(lay["grid"], []), lay["starter"]
    grid = card_list(cards)
    if len(grid) != 16:
        raise CardError(f"give exactly 16 grid cards, not {len(grid)}")
    if starter is None:
        raise CribsolveError("give the starter with --starter CARD")
    st = checks.card(starter, "--starter")
    checks.no_jokers(grid + [st], "shuffle")
    ruleset("pysol").check_cards(grid + [st])
    sol = solve(grid, st, time_limit)
    rows = [sol.grid[4 * i : 4 * i + 4] for i in range(4)]
    return ShuffleResult(
        {
            **({"game": game.number} if game else {}),
            "grid": [[format_card(c) for c in r] for r in rows],
            "rows": sol.rows,
            "columns": sol.columns,
            "heels": sol.heels,
            "total": sol.total,
            "upper_bound": sol.upper_bound,
            "optimal": sol.optimal,
        },
        solution=sol,
        starter=st,
    )


def best_place(
    cards,
    *,
    card: str | int,
    variant: str = "square",
    waste=None,
    seen=None,
    playouts: int = 1000,
    seed: int = 0,
) -> BestPlaceResult:
    """Where Cribbage Square's ``card`` in hand should go, every move ranked. ``cards``: the
    16 cells row by row, a card or an empty cell ("--", "." or None), e.g. "5H 6H 7C KD JD 5C
    -- QS ..."; ``variant``: square, or square-waste with ``waste`` (its cards); ``seen``:
    other cards known not to come; ``playouts`` games played out per move (ev playing on, the
    deals of ``seed``), 0 for the exact expectations alone."""
    from cribsolve.core.notation import format_card
    from cribsolve.games.solitaire.square_advice import best_place as analyse

    grid = _grid_cells(cards)
    placed = checks.card(card, "--card")
    waste = checks.option_cards(waste, "--waste")
    seen = checks.option_cards(seen, "--seen")
    moves = analyse(grid, placed, variant, waste, seen, playouts, seed)
    return BestPlaceResult(
        {
            "variant": variant,
            "card": format_card(placed),
            "samples": playouts,
            "seed": seed,
            "moves": [
                {
                    "move": m.name,
                    "expected": m.expected,
                    "ahead": m.ahead,
                    "mean": m.mean,
                    "se": m.se,
                    "win": m.win,
                    "ev": m.ev,
                    "lookahead": m.lookahead,
                }
                for m in moves
            ],
        },
        grid=grid,
    )


def deal(*, variant: str, pysol_game) -> DealResult:
    """The cards of PySolFC's game ``pysol_game`` (1 to 1e20, or "msN") as ``variant``
    deals them."""
    from cribsolve.games.solitaire.pysol import deal_record

    game = _game(pysol_game)
    return DealResult(deal_record(variant, game), game=game)


def _game(pysol_game):
    """A PySolFC game number (pysol.GameNumber) from a number, "msN", or one already read."""
    from cribsolve.games.solitaire.pysol import GameNumber, parse_game

    return pysol_game if isinstance(pysol_game, GameNumber) else parse_game(pysol_game)


def _grid_cells(cards) -> list:
    """16 cells from a string, or a sequence of strings that may each hold several, of card
    codes, or of None: a card, or -- / . (None) for an empty cell."""
    from cribsolve.core.notation import parse_card

    cells = []
    for w in [cards] if isinstance(cards, str) else cards:
        if not isinstance(w, str):
            cells.append(None if w is None else int(w))
            continue
        tokens = w.replace(",", " ").split()
        if not tokens:
            raise CardError(
                "an empty grid argument was given (expected cards like 5H, or -- for an empty cell)"
            )
        cells += [None if t in EMPTY_WORDS else parse_card(t) for t in tokens]
    return cells
