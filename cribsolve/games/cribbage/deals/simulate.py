"""Whole games of cribbage played out by the engine (game.py), two, three or four players or
two teams, seeded and chunked as every simulation is (infra/runner.py): a chunk is a pure
function of its index, so the numbers are the same for any thread count or chunk order.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from cribsolve.errors import CribsolveError, Partial
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES, SEARCHERS, tables_for
from cribsolve.games.cribbage.rules.spec import CribbageSpec, seat_names
from cribsolve.infra.runner import Job, Local, chunks, run
from cribsolve.infra.stats import wilson

CRIBBAGE_CHUNK = 2_000


@dataclass
class CribbageResult:
    """Whole games: player 0 plays ``policy``, the others ``opponent_policy``."""

    policy: str
    opponent_policy: str
    n: int
    seed: int
    spec: CribbageSpec
    rows: np.ndarray  # one row per game, game.play_game's ``out``
    games: dict | None = None  # each game as columns (games_table), where asked
    deals: dict | None = None  # each deal as columns (deals_table), where asked

    def as_dict(self) -> dict:
        from cribsolve.games.cribbage.deals.deal import NP
        from cribsolve.games.cribbage.deals.game import TIE

        if self.spec.players > 2:
            return self._table_dict()
        r = self.rows
        first_wins = int((r[:, 0] == r[:, 1]).sum())
        deals = r[:, 5].sum()
        per_deal = r[:, 6 : 6 + NP].sum(axis=0) / max(deals, 1)
        heels, dpeg, ppeg, phand, dhand, crib, pcrib = per_deal.tolist()
        lo, hi = wilson(first_wins, self.n)
        loser = r[:, 4]
        length = self.spec.game_length
        skunk = (
            (None, None)
            if self.spec.lowball
            else (float((loser < length - 30).mean()), float((loser < length - 60).mean()))
        )
        return {
            "variant": "cribbage",
            "policy": self.policy,
            "opponent_policy": self.opponent_policy,
            "n": self.n,
            "seed": self.seed,
            "game_length": length,
            "rules": asdict(self.spec),
            "wins": first_wins,
            "win_rate": first_wins / self.n,
            "win_rate_ci": [lo, hi],
            "player_win_rate": float((r[:, 0] == 0).mean()),
            "player_game_points": None
            if self.spec.lowball
            else float(((r[:, 0] == 0) * (2 + (loser < length - 30))).mean()),
            "ties": int((r[:, 0] == TIE).sum()),
            "dealer_points": heels + dpeg + dhand + crib,
            "pone_points": ppeg + phand + pcrib,
            "dealer_pegging": dpeg,
            "pone_pegging": ppeg,
            "dealer_hand": dhand,
            "pone_hand": phand,
            "crib": crib,
            "pone_crib": pcrib,
            "heels": heels,
            "deals_per_game": float(r[:, 2].mean()),
            "complete_deals": int(deals),
            "skunk_rate": skunk[0],
            "double_skunk_rate": skunk[1],
            "largest_hand": int(r[:, 6 + NP].max()),
        }

    def _table_dict(self) -> dict:
        """Three or four players, or two teams: the win rate of each seat of the first deal
        (or of the first dealer's team and the other), the points per deal of each part and
        seat."""
        from cribsolve.games.cribbage.deals.deal import part_count

        r, spec = self.rows, self.spec
        n, sides = spec.players, spec.sides
        npart = part_count(n)
        names = seat_names(n)
        # the winner's seat in the first deal: seat s is s + 1 places left of the first dealer
        # (with partners the team: 0 the first pone's, 1 the first dealer's)
        seat = (r[:, 0] - r[:, 1] - 1) % sides
        win_names = (
            ["pone's team", "dealer's team"]
            if spec.partners
            else [f"first {name}" for name in names]
        )
        wins = []
        for s_, name in enumerate(win_names):
            w = int((seat == s_).sum())
            lo, hi = wilson(w, self.n)
            wins.append({"seat": name, "wins": w, "win_rate": w / self.n, "win_rate_ci": [lo, hi]})
        deals = r[:, 5].sum()
        per_deal = r[:, 6 : 6 + npart].sum(axis=0) / max(deals, 1)
        pegging = [float(per_deal[n - k]) for k in range(n)]
        hands = [float(per_deal[1 + n + k]) for k in range(n)]
        seats = [
            {
                "seat": names[k],
                "pegging": pegging[k],
                "hand": hands[k],
                "points": pegging[k]
                + hands[k]
                + (k == n - 1) * float(per_deal[0] + per_deal[1 + 2 * n]),
            }
            for k in range(n)
        ]
        length, loser = spec.game_length, r[:, 4]
        skunk = (
            (None, None)
            if spec.lowball
            else (float((loser < length - 30).mean()), float((loser < length - 60).mean()))
        )
        dealer, pone = seats[-1], seats[0]
        return {
            "variant": "cribbage",
            "policy": self.policy,
            "opponent_policy": self.opponent_policy,
            "n": self.n,
            "seed": self.seed,
            "game_length": length,
            "rules": asdict(spec),
            "players": n,
            "partners": spec.partners,
            "wins_by_seat": wins,
            # as for two: the first dealer's (team's) wins, the dealer's and the pone's
            # (the dealer's left's) points
            "wins": wins[-1]["wins"],
            "win_rate": wins[-1]["win_rate"],
            "win_rate_ci": wins[-1]["win_rate_ci"],
            "player_win_rate": float((r[:, 0] == 0).mean()),
            "ties": 0,
            "points_by_seat": seats,
            "dealer_points": dealer["points"],
            "dealer_pegging": dealer["pegging"],
            "dealer_hand": dealer["hand"],
            "pone_points": pone["points"],
            "pone_pegging": pone["pegging"],
            "pone_hand": pone["hand"],
            "pone_crib": 0.0,
            "heels": float(per_deal[0]),
            "crib": float(per_deal[1 + 2 * n]),
            "deals_per_game": float(r[:, 2].mean()),
            "complete_deals": int(deals),
            "skunk_rate": skunk[0],
            "double_skunk_rate": skunk[1],
            "largest_hand": int(r[:, 6 + npart].max()),
        }

    def csv_row(self):
        """The win-rate table's row (infra.export.WIN_RATE_HEADER); its variant names the house
        rules (the JSON's "rules"), so rows of different games never share a key, and its
        ``what`` says whose wins it counts: a game of cribbage has no one score, so no mean."""
        d = self.as_dict()
        rules = "" if self.spec.is_standard else f" ({self.spec.describe()})"
        whose = "the first dealer's team" if self.spec.partners else "the first dealer"
        ties = ", ties not counted" if self.spec.two_cribs else ""
        return [
            f"cribbage{rules}",
            f"{self.policy}/{self.opponent_policy}",
            self.n,
            self.seed,
            d["wins"],
            d["win_rate"],
            *d["win_rate_ci"],
            None,
            None,
            f"wins: {whose}'s{ties}; no mean or std (a game has no one score)",
        ]


def cribbage_games(
    policies: tuple[str, str],
    spec: CribbageSpec,
    seed,
    games: int,
    start=(0, 0, -1),
    objective: str = "win",
    kept: bool = False,
) -> np.ndarray:
    """play_game's rows of ``games`` games from ``start`` (game.play_game), each game's
    seed drawn from numpy's generator seeded with ``seed``; the expert weighs the board by
    ``objective`` (board_for). ``kept``: with each game's points by player and its deals
    (game.play_games)."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.deals.game import play_games
    from cribsolve.games.cribbage.deals.win_choices import board_for

    seeds = np.random.default_rng(seed).integers(0, 2**62, size=games)
    pol = np.array([CRIBBAGE_POLICIES[p] for p in policies[:1] + policies[1:] * (spec.players - 1)])
    return play_games(
        seeds,
        pol,
        rank_table(spec.target),
        spec.as_array(),
        tables_for(policies, spec),
        start,
        board_for(policies, spec, objective),
        kept,
    )


def expert_refusal(spec: CribbageSpec, policy: str, simulated: bool = False) -> None:
    """Where an expert does not play: the five-card game (whose play is one series), and three
    or four players but for a simulated game's ``expert`` (policies.search_choice): expert1's
    search and the odds table's deals are of the two-player play."""
    if spec.five_card or (spec.players > 2 and not (simulated and policy in SEARCHERS)):
        raise CribsolveError(
            f"the expert policy searches the two-player play: it does not "
            f"play {spec.describe()} (use greedy or lookahead)"
        )


def cribbage_chunk(
    policies: tuple[str, str],
    spec: CribbageSpec,
    seed: int,
    index: int,
    games: int,
    objective: str = "win",
    keep: tuple = (),
) -> dict:
    """The rows of chunk ``index``'s games: each game's seed drawn from [seed, index]; what the
    expert's first cards found kept now and then (first_cards.keep), wherever chunks run.
    ``keep``: "games", "deals" or both, the rows of game._keep_deal also handed back (small
    integers, as kept in a checkpoint)."""
    from cribsolve.games.cribbage.players import first_cards

    out = cribbage_games(policies, spec, [seed, index], games, objective=objective, kept=bool(keep))
    first_cards.keep(spec)
    if not keep:
        return {"rows": out}
    rows, kept, held = out
    return {"rows": rows} | {
        name: a.astype(np.int16) for name, a in (("games", kept), ("deals", held)) if name in keep
    }


PARTS_BY_PLAYER = ("pegging", "hand", "crib", "heels")  # game._keep_deal's four per player


def _board(spec: CribbageSpec) -> list[str]:
    """The names of the scores on the board: each player's (p1, ...) or each team's."""
    return [f"team{s + 1}" for s in range(2)] if spec.partners else _players(spec)


def _players(spec: CribbageSpec) -> list[str]:
    return [f"p{p + 1}" for p in range(spec.players)]


def _by_player(points: np.ndarray, spec: CribbageSpec) -> dict:
    """Columns p1_pegging ... of _keep_deal's four points per player."""
    return {
        f"{name}_{part}": points[:, 4 * p + j]
        for p, name in enumerate(_players(spec))
        for j, part in enumerate(PARTS_BY_PLAYER)
    }


def games_table(rows: np.ndarray, kept: np.ndarray, spec: CribbageSpec) -> dict:
    """Each game as columns (simulate --games): its index from 0, the first dealer and the
    winner (players, with partners the winner's team, from 1: team 1 is players 1 and 3; a
    game of two cribs that ends level, 0), each side's final score, the deals begun, skunk and
    double skunk (the last loser under 30 and 60 short of the game length; not under lowball),
    then each player's points by part over the whole game (the last deal too, cut short where
    the game ended in it; the five-card game's three at the start are the score's alone)."""
    from cribsolve.games.cribbage.deals.game import TIE

    winner = rows[:, 0] + 1
    if spec.two_cribs:
        winner[rows[:, 0] == TIE] = 0
    table = {
        "game": np.arange(len(rows)),
        "first_dealer": rows[:, 1] + 1,
        "winner": winner,
        **{f"{side}_score": kept[:, s] for s, side in enumerate(_board(spec))},
        "deals": rows[:, 2],
    }
    if not spec.lowball:
        table["skunk"] = rows[:, 4] < spec.game_length - 30
        table["double_skunk"] = rows[:, 4] < spec.game_length - 60
    return table | _by_player(kept[:, spec.sides :], spec)


def deals_table(rows: np.ndarray, held: np.ndarray, spec: CribbageSpec) -> dict:
    """Each deal as columns (simulate --deals): its game and its index there, both from 0, the
    dealer (a player from 1), whether it was played to its end (the summary's points per deal
    are of those), each side's score before it, the starter (the pone's cut card; two cut
    cards, starter1 and starter2; empty where the game ended before it was cut), then each
    player's points by part."""
    from cribsolve.core.notation import format_card

    cards = np.array([format_card(c) for c in range(53)] + [""])  # -1: not cut
    sides, cut = spec.sides, spec.starters
    return {
        "game": np.repeat(np.arange(len(rows)), rows[:, 2]),
        "deal": held[:, 0],
        "dealer": held[:, 1] + 1,
        "complete": held[:, 2].astype(bool),
        **{f"{side}_before": held[:, 3 + s] for s, side in enumerate(_board(spec))},
        **{
            "starter" if cut == 1 else f"starter{j + 1}": cards[held[:, 3 + sides + j]]
            for j in range(cut)
        },
        **_by_player(held[:, 3 + sides + cut :], spec),
    }


def simulate_cribbage(
    n: int,
    policy: str = "greedy",
    opponent_policy: str | None = None,
    seed: int = 0,
    jobs: int | None = None,
    progress=None,
    spec: CribbageSpec = CribbageSpec(),
    where=None,
    checkpoint: str | None = None,
    objective: str = "win",
    games: bool = False,
    deals: bool = False,
) -> CribbageResult:
    """Play ``n`` seeded games under ``spec``; the same seed gives the same games for any
    thread count, and wherever the chunks run (``where``, as for simulate). ``objective``:
    what the expert weighs the board by near the end (board_for). ``games``, ``deals``: the
    result also holds each game, each deal, as a dict of numpy columns (games_table,
    deals_table)."""
    from cribsolve.games.cribbage.players import first_cards

    opponent_policy = opponent_policy or policy
    for p in (policy, opponent_policy):
        if p not in CRIBBAGE_POLICIES:
            raise CribsolveError(
                f"unknown policy {p!r} for cribbage (expected {', '.join(CRIBBAGE_POLICIES)})"
            )
    for p in (policy, opponent_policy):
        if p.startswith("expert"):
            expert_refusal(spec, p, simulated=True)
    if n < 1:
        raise CribsolveError("-n must be at least 1")
    parts = chunks(n, CRIBBAGE_CHUNK)
    if objective != "win" and not {policy, opponent_policy} & set(SEARCHERS):
        raise CribsolveError(
            "--objective is what the expert weighs the board by: give "
            "--policy or --opponent-policy expert"
        )
    if objective != "win" and spec.lowball:
        from cribsolve.games.cribbage.deals.odds import NO_SKUNKS

        raise CribsolveError(NO_SKUNKS)
    keep = tuple(name for name, asked in (("games", games), ("deals", deals)) if asked)
    job = Job(
        cribbage_chunk,
        [((policy, opponent_policy), spec, seed, i, size, objective, keep) for i, size in parts],
        [size for _, size in parts],
        {
            "variant": "cribbage",
            "policy": policy,
            "opponent_policy": opponent_policy,
            "n": n,
            "seed": seed,
            "spec": asdict(spec),
            "chunk": CRIBBAGE_CHUNK,
            **({"objective": objective} if objective != "win" else {}),
            **dict.fromkeys(keep, True),
        },
    )
    done = []  # each chunk's arrays, in order

    def result():
        a = {name: np.concatenate([c[name] for c in done]) for name in ("rows", *keep)}
        rows = a["rows"]
        return CribbageResult(
            policy,
            opponent_policy,
            len(rows),
            seed,
            spec,
            rows,
            games_table(rows, a["games"], spec) if games else None,
            deals_table(rows, a["deals"], spec) if deals else None,
        )

    try:
        for c in run(job, where or Local(jobs), progress, checkpoint):
            done.append(c)
    except KeyboardInterrupt as stop:
        if not done or checkpoint:
            raise
        raise Partial(result(), n) from stop
    finally:
        first_cards.keep(spec, now=True)
    return result()


def played_out(
    spec: CribbageSpec,
    mine: int,
    theirs: int,
    i_deal: bool,
    games: int,
    seed: int = 0,
    policy: str = "greedy",
    progress=None,
) -> int:
    """Games I win out of ``games`` played from this position (both players following
    ``policy``): the direct check of the odds table."""
    from cribsolve.games.cribbage.deals.odds import CHUNK

    start = np.array([mine, theirs, 0 if i_deal else 1])
    wins = 0
    for begin in range(0, games, CHUNK):
        rows = cribbage_games(
            (policy, policy), spec, [seed, begin], min(CHUNK, games - begin), start
        )
        wins += int((rows[:, 0] == 0).sum())
        if progress:
            progress(len(rows))
    return wins
