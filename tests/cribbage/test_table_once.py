"""A table the game's end needs is loaded once: play readies the game's end in a thread of its
own (jit.later) while the person plays, and every P(win) the hint or the review weighs waits
for it, so a damaged table in the cache is said (and built again) once, not once a thread
(issue 64)."""

import collections
import time

import numpy as np

from cribsolve.core.notation import parse_cards
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table import advice
from cribsolve.games.cribbage.table.replay import Decision
from cribsolve.infra import jit, store

KIND = "test-end-of-game"


def test_a_damaged_table_of_the_game_end_is_said_once(monkeypatch, tmp_path):
    said = []
    monkeypatch.setattr(store, "say", lambda line, warning=False: said.append(line))
    monkeypatch.setenv("CRIBSOLVE_CACHE", str(tmp_path))
    monkeypatch.setitem(store.KINDS, KIND, store.Kind(1, lambda arrays, params: None))
    (tmp_path / store.file_name(KIND, {})).write_bytes(b"cut short")

    def build():  # the odds table, built again: it takes a while
        time.sleep(0.5)
        return {"win": np.zeros(1)}

    def wins(d, spec):  # as _wins: the odds table, then every option's P(win)
        store.load(KIND, {}, build)
        return collections.defaultdict(lambda: (0.5, np.zeros(4)))

    monkeypatch.setattr(advice, "_wins", wins)
    monkeypatch.setattr(advice, "throw_options", lambda d, spec: [("5H 5D", {"value": 2.0})])
    try:
        jit.later(lambda: store.load(KIND, {}, build))  # play's readying of the game's end
        d = Decision("throw", 1, 0, True, (0, 0), parse_cards(["5H 5D JC 4S 9H KD"]), [])
        advice.evaluate(d, CribbageSpec())  # the review at the game's end (or a hint)
        jit.wait_later("")
    finally:
        store._memo.pop((KIND, "{}"), None)
    assert sum(f"{KIND}.npz is unreadable" in s for s in said) == 1, said
