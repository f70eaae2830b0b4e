"""Who plays a simulated game of cribbage: each policy's name and its kernel codes (discard,
pegging), and what an expert reads in the engine (its pegging table and the throw model).
"""

from __future__ import annotations

import numpy as np

from cribsolve.games.cribbage.rules.spec import CribbageSpec

CRIBBAGE_POLICIES = {
    "greedy": (1, 1),
    "lookahead": (1, 2),
    "expert": (2, 4),
    "expert-drawn": (2, 5),
    "expert1": (2, 3),
    "random": (0, 0),
}

SEARCHERS = ("expert", "expert-drawn")  # the information-set expert, its holdings spread or drawn

# Raised when a policy's play changes, so that the tables made from its games (odds.py) are
# keyed anew: the expert's version 2 spreads the holdings it searches by weight (no draws).
PLAY_VERSIONS = {"expert": 2}


def policy_key(policy: str) -> dict:
    """A policy as the keys of tables made from its games name it: its name, and its play's
    version where that has changed (PLAY_VERSIONS)."""
    version = {"play": PLAY_VERSIONS[policy]} if policy in PLAY_VERSIONS else {}
    return {"policy": policy, **version}


# the play of each expert's pegging table; expert-drawn reads the expert's
EXPERT_PLAYS = {"expert1": "open", "expert": "infoset", "expert-drawn": "infoset"}


def expert_tables(spec: CribbageSpec, policies=tuple(EXPERT_PLAYS)) -> tuple:
    """What the experts read in the game engine (deal.play_deal's ``expert``): their pegging
    tables (expert1's, then the expert's, each played as that expert plays; zeros for one not
    among ``policies``), the throw model and, where the expert plays, its first cards
    (first_cards.memo_for: one per rules of the play, kept on disk between runs)."""
    from cribsolve.games.cribbage.players.first_cards import NO_MEMO, memo_for
    from cribsolve.games.cribbage.players.inference import NO_MODEL, throw_model
    from cribsolve.games.cribbage.players.pegtable import peg_table

    if spec.players > 2:  # the expert at three or four reads none (policies.search_choice)
        return np.zeros((2, 0, 1)), NO_MODEL, NO_MEMO
    if spec.kept != 4:
        return np.zeros((2, 0, 1)), throw_model(spec), NO_MEMO
    pegs = np.zeros((2, 2, 14**4))
    for k, play in enumerate(("open", "infoset")):
        if any(EXPERT_PLAYS.get(name) == play for name in policies):
            pegs[k] = peg_table(spec, play)
    memo = memo_for(spec) if "expert" in policies else NO_MEMO
    return pegs, throw_model(spec), memo


def tables_for(policies, spec: CribbageSpec) -> tuple:
    """expert_tables where one of ``policies`` is an expert, else none (deal.NO_EXPERT)."""
    from cribsolve.games.cribbage.deals.deal import NO_EXPERT

    return expert_tables(spec, policies) if any(p in EXPERT_PLAYS for p in policies) else NO_EXPERT
