"""The house rules side by side (``cribsolve variations``, docs/house-rules.md): the same seeded
games under the standard game, each rule alone, one combined house game, then three and four
players, partners and the five-card game; each row is ``simulate_cribbage`` under one spec.
"""

from __future__ import annotations

from cribsolve.games.cribbage.deals.simulate import simulate_cribbage
from cribsolve.games.cribbage.rules.spec import CribbageSpec

RULES = [  # (name, spec): the standard game, each house rule alone, then the page's favourite
    # (double deck, 8 cards each, 2 to the crib, two cut cards, to 241)
    ("standard", CribbageSpec()),
    ("target 16", CribbageSpec(target=16)),
    ("peg limit 41", CribbageSpec(peg_limit=41)),
    ("jokers 2", CribbageSpec(jokers=2)),
    ("double deck", CribbageSpec(decks=2)),
    ("to 61", CribbageSpec(game_length=61)),
    ("to 241", CribbageSpec(game_length=241)),
    ("to 361", CribbageSpec(game_length=361)),
    ("lowball to 60", CribbageSpec(game_length=60, lowball=True)),
    ("two cut cards", CribbageSpec(starters=2)),
    ("wild kings", CribbageSpec(wild_rank=13)),
    ("stink hole", CribbageSpec(stinkhole=True)),
    ("8-card hands", CribbageSpec(hand_size=8)),
    ("crib of 6", CribbageSpec(hand_size=7, crib_size=6)),
    ("draw", CribbageSpec(draw=True)),
    ("choose-a-cut", CribbageSpec(choose_cut=True, hand_size=7)),
    ("two cribs", CribbageSpec(two_cribs=True, hand_size=8)),
    ("bid for the crib", CribbageSpec(bid=True)),
    ("the page's game", CribbageSpec(decks=2, hand_size=8, starters=2, game_length=241)),
    # the table of three and four (the pone: the dealer's left; the dealer's wins: the first
    # dealer's, or its team's) and the five-card game
    ("3 players", CribbageSpec(players=3, hand_size=5)),
    ("4 players", CribbageSpec(players=4, hand_size=5)),
    ("partners", CribbageSpec(players=4, hand_size=5, partners=True)),
    ("five-card", CribbageSpec(five_card=True, hand_size=5, game_length=61)),
]
COLUMNS = [
    "rule",
    "games",
    "first_dealer_wins",
    "ci_low",
    "ci_high",
    "ties",
    "dealer_points",
    "dealer_pegging",
    "dealer_hand",
    "crib",
    "pone_points",
    "pone_pegging",
    "pone_hand",
    "pone_crib",
    "deals_per_game",
    "skunk_rate",
    "largest_hand",
]


def variations(
    n: int,
    seed: int = 0,
    policy: str = "greedy",
    jobs: int | None = None,
    progress=None,
    where=None,
) -> list[dict]:
    """One row (COLUMNS) per rule of RULES, each from ``n`` games of ``seed`` (their chunks
    run ``where``, as for simulate_cribbage)."""
    rows = []
    for name, spec in RULES:
        d = simulate_cribbage(n, policy, None, seed, jobs, progress, spec, where).as_dict()
        rows.append(
            {
                "rule": name,
                "games": n,
                "first_dealer_wins": d["win_rate"],
                "ci_low": d["win_rate_ci"][0],
                "ci_high": d["win_rate_ci"][1],
                **{k: d[k] for k in COLUMNS[5:]},
            }
        )
    return rows
