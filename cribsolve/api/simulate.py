"""Many seeded games from Python: ``simulate``, as ``cribsolve simulate``, with every game
(and, for cribbage, every deal) as rows when asked."""

from __future__ import annotations

from cribsolve.api.results import Result, progress_bar
from cribsolve.api.rules import Rules


class SimulateResult(Result):
    """A run's summary, as ``simulate --json`` prints it (the win rate and its 95% interval,
    the means, for cribbage the points by part); with ``games=True`` its ``games`` (and for
    cribbage with ``deals=True`` its ``deals``): one row a game (a deal), as numpy columns, the
    rows of ``simulate --games`` (``--deals``)."""

    TABLE = "games"

    @property
    def games(self) -> dict | None:
        """Each game as columns (a dict of numpy arrays), where asked."""
        return self._extra["games"]

    @property
    def deals(self) -> dict | None:
        """Each deal of a cribbage run as columns, where asked."""
        return self._extra["deals"]

    @property
    def rows(self) -> list[dict]:
        """Each game as a dict (``games=True``)."""
        columns = self._columns()
        names = list(columns)
        return [dict(zip(names, values)) for values in zip(*(columns[k].tolist() for k in names))]

    def to_pandas(self):
        import pandas as pd

        return pd.DataFrame(self._columns())

    def to_arrow(self):
        import pyarrow as pa

        return pa.table(self._columns())

    def _columns(self) -> dict:
        if self.games is None:
            raise AttributeError("the games are kept where asked: simulate(..., games=True)")
        return self.games


def simulate(
    variant: str = "patience2",
    *,
    n: int = 100_000,
    policy: str | None = None,
    opponent_policy: str | None = None,
    rules: Rules | None = None,
    objective: str = "win",
    win_only: bool = False,
    seed: int = 0,
    jobs: int | None = None,
    scheduler: str | None = None,
    checkpoint: str | None = None,
    games: bool = False,
    deals: bool = False,
    progress=False,
) -> SimulateResult:
    """Play ``n`` seeded games of ``variant`` (a solitaire, or "cribbage" under ``rules``) and
    report the win rate, as ``cribsolve simulate``; the same seed gives the same games on any
    number of threads (``jobs``) or machines (``scheduler``), and ``checkpoint`` keeps a run
    to resume. ``games=True`` keeps every game as a row (``deals=True``: every deal of a
    cribbage run).

    >>> import cribsolve as cs
    >>> r = cs.simulate("patience", n=200, policy="ev", seed=1, games=True)
    >>> r.n, bool(r.games["score"].mean() == r.mean)
    (200, True)
    """
    from cribsolve.infra.runner import connect

    with connect(scheduler, jobs) as where, progress_bar(progress, n, variant, "game") as bar:
        if variant == "cribbage":
            from cribsolve.games.cribbage.deals.simulate import simulate_cribbage

            res = simulate_cribbage(
                n,
                policy or "greedy",
                opponent_policy,
                seed,
                None,
                bar.update,
                rules or Rules(),
                where,
                checkpoint,
                objective,
                games,
                deals,
            )
        else:
            from cribsolve.games.solitaire.facts import SQUARES
            from cribsolve.games.solitaire.simulate import simulate as run

            points = None
            if variant in SQUARES:  # square.simulate's own way to play them
                from cribsolve.games.solitaire.square import chunk_points as points
            res = run(
                variant,
                policy,
                n,
                seed,
                jobs,
                bar.update,
                win_only,
                where,
                checkpoint,
                points,
                games=games,
            )
    return SimulateResult(
        res.as_dict(), games=res.games, deals=getattr(res, "deals", None), result=res
    )
