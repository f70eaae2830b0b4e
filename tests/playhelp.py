"""A play scripted from two kept hands, for the tests of the play and of whole deals."""

import numpy as np

from cribsolve import parse_cards
from cribsolve.games.cribbage.players.first_cards import NO_MEMO
from cribsolve.games.cribbage.players.inference import throw_model
from cribsolve.games.cribbage.players.policies import GREEDY, play
from cribsolve.games.cribbage.rules.pegging import MAX_EVENTS, STANDARD
from cribsolve.games.cribbage.rules.spec import CribbageSpec

TRACE = np.zeros(MAX_EVENTS + 1, dtype=np.int64)


def run_play(pone, dealer, policies=(GREEDY, GREEDY), target=0, scores=(0, 0), trace=None):
    hands = np.array([parse_cards([pone]), parse_cards([dealer])], dtype=np.int64)
    known = np.zeros((2, 53), dtype=np.int64)
    for p in range(2):
        known[p, hands[p]] = 1
    points = np.zeros(2, dtype=np.int64)
    sc = np.array(scores, dtype=np.int64)
    w = play(
        hands,
        np.zeros((2, 4), dtype=np.bool_),
        np.zeros(8, dtype=np.int64),
        np.array([0, 0, 0, -1], dtype=np.int64),
        np.array(policies),
        known,
        points,
        sc,
        target,
        STANDARD,
        TRACE.copy() if trace is None else trace,
        throw_model(CribbageSpec()),
        NO_MEMO,
    )
    return points.tolist(), w, sc.tolist()
