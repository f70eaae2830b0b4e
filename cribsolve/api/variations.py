"""The house rules side by side from Python: ``variations``, as ``cribsolve variations``."""

from __future__ import annotations

from cribsolve.api.results import Result, progress_bar


class VariationsResult(Result):
    """The same seeded games under the standard game and each house rule: ``rows``, one per
    rule (the first dealer's wins with their interval, points per deal by part, deals per
    game, skunks, the largest hand, ties)."""

    FIELDS = ("n", "seed", "policy", "rows")
    TABLE = "rows"


def variations(
    *,
    n: int = 10_000,
    policy: str = "greedy",
    seed: int = 0,
    jobs: int | None = None,
    scheduler: str | None = None,
    progress=False,
) -> VariationsResult:
    """``n`` games of ``seed`` under each rule, both players pegging by ``policy`` (greedy,
    lookahead or random) and discarding by EV; the chunks run on ``jobs`` threads here, or on
    a Dask ``scheduler`` ("local[:WORKERS]" or an address): the numbers do not change."""
    from cribsolve.games.cribbage.deals.variations import RULES
    from cribsolve.games.cribbage.deals.variations import variations as run
    from cribsolve.infra.runner import connect

    with (
        connect(scheduler, jobs) as where,
        progress_bar(progress, n * len(RULES), "games under each rule", "game") as pb,
    ):
        rows = run(n, seed, policy, jobs, pb.update, where)
    return VariationsResult({"n": n, "seed": seed, "policy": policy, "rows": rows})
