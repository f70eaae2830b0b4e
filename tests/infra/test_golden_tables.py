"""Every kind of table, built small from its seed, against a committed digest of its numbers
(golden_tables.json). A table's key is its kind, its parameters and its kind's schema number
(infra/store.py), not the code that builds it: this test is what catches a change of numbers
whose schema number was not raised, before any user is served a stale table.

After raising a kind's schema number on purpose: ``python tests/infra/test_golden_tables.py``
records the new digests (it rebuilds every small table: a few minutes).
"""

import json
import os
import sys

import numpy as np
import pytest

GOLDEN = os.path.join(os.path.dirname(__file__), "golden_tables.json")


def small_builds():
    """One small seeded build of every kind (each its own parameters, so none is shipped)."""
    from cribsolve.core.rules import ruleset
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.deals.odds import odds_table, skunk_table
    from cribsolve.games.cribbage.deals.three_odds import three_odds_table
    from cribsolve.games.cribbage.players.inference import throw_model
    from cribsolve.games.cribbage.players.pegtable import peg_table
    from cribsolve.games.cribbage.rules.spec import CribbageSpec
    from cribsolve.games.cribbage.throw.crib_model import optimal_frequencies
    from cribsolve.games.solitaire.simulate import deck_value, win_table

    rank_table(13)
    throw_model(CribbageSpec(lowball=True))
    optimal_frequencies(ruleset("standard"), hands=2_000)
    odds_table(CribbageSpec(game_length=21), deals=400)  # and its deals
    skunk_table(CribbageSpec(game_length=61), deals=400)  # the same deals
    three_odds_table(CribbageSpec(players=3, hand_size=5, game_length=21), deals=400)
    win_table("patience2", games=300)
    deck_value(games=300)
    peg_table(CribbageSpec(), "open", samples=2)
    peg_table(CribbageSpec(), "infoset", samples=1)
    expert_first_cards(CribbageSpec(lowball=True, game_length=31), games=20)


def expert_first_cards(spec, games):
    """The expert's first cards met in ``games`` seeded games against itself, kept (its
    throw by the throw model alone: no pegging table to build)."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.deals.game import play_games
    from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES
    from cribsolve.games.cribbage.players import first_cards
    from cribsolve.games.cribbage.players.inference import throw_model

    first_cards._MEMOS.clear()  # none met before this build
    expert = (np.zeros((2, 2, 14**4)), throw_model(spec), first_cards.memo_for(spec))
    pol = np.array([CRIBBAGE_POLICIES["expert"]] * 2)
    play_games(np.arange(games), pol, rank_table(spec.target), spec.as_array(), expert)
    first_cards.keep(spec, now=True)


def numbers_digest(arrays: dict) -> str:
    """sha256 of the arrays, floats rounded to 9 decimals (a last-bit difference between
    processors is not a change of numbers)."""
    import hashlib

    h = hashlib.sha256()
    for k in sorted(arrays):
        a = np.asarray(arrays[k])
        if a.dtype.kind == "f":
            a = np.round(a.astype(np.float64), 9) + 0.0  # + 0.0: no negative zero
        h.update(f"{k}{a.dtype.str}{a.shape}".encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def digests(folder: str) -> dict:
    """{kind: {"schema": n, "digest": ...}} of the tables built into ``folder``."""
    from cribsolve.infra import store

    by_kind: dict[str, list] = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(".npz"):
            meta, arrays = store.read(os.path.join(folder, f))
            by_kind.setdefault(meta["kind"], []).append(numbers_digest(arrays))
    return {
        kind: {
            "schema": store.KINDS[kind].schema,
            "digest": numbers_digest(
                {str(i): np.frombuffer(d.encode(), np.uint8) for i, d in enumerate(ds)}
            ),
        }
        for kind, ds in sorted(by_kind.items())
    }


@pytest.mark.slow
def test_every_kind_of_table_makes_its_golden_numbers(tmp_path, monkeypatch):
    from cribsolve.infra import store

    monkeypatch.setenv("CRIBSOLVE_CACHE", str(tmp_path))
    monkeypatch.setattr(store, "_memo", {})
    small_builds()
    got = digests(str(tmp_path))
    with open(GOLDEN) as f:
        golden = json.load(f)
    assert sorted(got) == sorted(store.KINDS) == sorted(golden), "a kind without a golden build"
    for kind, now in got.items():
        was = golden[kind]
        assert now["schema"] == was["schema"], (
            f"{kind}'s schema number is {now['schema']}, its golden digest was recorded at "
            f"{was['schema']}: record it with python tests/infra/test_golden_tables.py"
        )
        assert now["digest"] == was["digest"], (
            f"the numbers of {kind} changed: raise its schema number (its register call) and "
            f"run python -m cribsolve.catalog (then python tests/infra/test_golden_tables.py)"
        )


def test_golden_digests_see_a_changed_number():
    a = {"w": np.linspace(0, 1, 11), "n": np.arange(5)}
    b = {"w": np.linspace(0, 1, 11), "n": np.arange(5)}
    assert numbers_digest(a) == numbers_digest(b)
    b["w"][3] += 1e-6
    assert numbers_digest(a) != numbers_digest(b)
    b["w"][3] = a["w"][3] + 1e-13  # below the rounding
    assert numbers_digest(a) == numbers_digest(b)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        os.environ["CRIBSOLVE_CACHE"] = folder
        small_builds()
        found = digests(folder)
    with open(GOLDEN, "w") as f:
        json.dump(found, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(found, indent=1), file=sys.stderr)
