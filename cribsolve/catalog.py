"""Every table cribsolve keeps, in one place: the only module that imports each table builder
(the store below knows none of them), so it can say what is kept, clear it, and ship the default
tables into the package (``python -m cribsolve.catalog``).
"""

from __future__ import annotations

import json
import os
import shutil

from cribsolve.core.rules import ruleset
from cribsolve.core.scoring.table import rank_table
from cribsolve.errors import TableError
from cribsolve.games.cribbage.deals.odds import odds_table, skunk_table
from cribsolve.games.cribbage.players import first_cards
from cribsolve.games.cribbage.players.inference import throw_model
from cribsolve.games.cribbage.players.pegtable import PLAYS, peg_table
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw.crib_model import optimal_frequencies
from cribsolve.games.solitaire.simulate import deck_value, win_table
from cribsolve.infra import store
from cribsolve.infra.jit import numba_cache_dir
from cribsolve.infra.paths import cache_dir


def status(path: str) -> tuple[str, str]:
    """(description, state) of a table file: state is current, stale or damaged."""
    try:
        meta, _ = store.read(path)
    except TableError as e:
        return "?", f"damaged: {e}"
    kind, params = meta.get("kind"), meta.get("params")
    desc = f"{kind} {json.dumps(params, sort_keys=True)}"
    if kind not in store.KINDS or not isinstance(params, dict):
        return desc, "stale: unknown kind"
    try:
        store.verify(path, kind, params)
    except TableError as e:
        return desc, f"stale: {e}" if "stale" not in str(e) else str(e)
    return desc, "current"


def _size(path: str) -> int:
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def inventory() -> list[dict]:
    """Every table and compiled-code folder we keep: where, what, size and state."""
    rows = []
    for folder in (store.SHIPPED, cache_dir()):
        if not os.path.isdir(folder):
            continue
        for f in sorted(os.listdir(folder)):
            path = os.path.join(folder, f)
            if f.endswith(".npz") and os.path.isfile(path):
                desc, state = status(path)
                rows.append(
                    {
                        "path": path,
                        "what": desc,
                        "bytes": _size(path),
                        "state": state,
                        "shipped": folder == store.SHIPPED,
                    }
                )
    numba_root = os.path.join(cache_dir(), "numba")
    if os.path.isdir(numba_root):
        current = numba_cache_dir()
        for d in sorted(os.listdir(numba_root)):
            path = os.path.join(numba_root, d)
            if not os.path.isdir(path):
                continue  # code-key.json: jit's memo of the current key
            rows.append(
                {
                    "path": path,
                    "what": "compiled kernels",
                    "bytes": _size(path),
                    "state": "current" if path == current else "stale: other code",
                    "shipped": False,
                }
            )
    return rows


def clear() -> list[str]:
    """Remove every table and compiled kernel we keep in the cache folder (never shipped ones)."""
    removed = []
    for row in inventory():
        if row["shipped"]:
            continue
        if os.path.isdir(row["path"]):
            shutil.rmtree(row["path"], ignore_errors=True)
        else:
            os.unlink(row["path"])
        removed.append(row["path"])
    return removed


# The seed page's own game (a double deck, 8-card hands, two cut cards, to 241): its odds
# table takes about ten minutes to build, nearly all of it simulating 8-card hands.
PAGE_GAME = CribbageSpec(decks=2, hand_size=8, starters=2, game_length=241)
# Two teams of partners to 121: its four hands make about ten minutes too.
PARTNERS = CribbageSpec(players=4, hand_size=5, partners=True)


def ship() -> None:
    """Put the default tables into the package: taken from the cache folder when current,
    else built (the simulated deals behind the odds are too big to ship and stay there). The
    expert's first cards are not built but grown by runs of its games (first_cards.py): the
    package's and the cache folder's together are shipped, so grow them first with
    ``cribsolve simulate --variant cribbage --policy expert -n 1e6``."""
    grown = first_cards.packed(first_cards.memo_for(CribbageSpec()))
    with store.ignoring_shipped() as tables:
        rank_table(15)
        optimal_frequencies(ruleset("standard"))
        odds_table(CribbageSpec())
        odds_table(PAGE_GAME)
        odds_table(PARTNERS)
        skunk_table(CribbageSpec())
        win_table("patience")
        win_table("patience2")
        deck_value()
        for play_as in PLAYS:
            peg_table(CribbageSpec(), play_as)
        throw_model(CribbageSpec())
    if grown["ranks"].size:
        key = json.dumps(first_cards.table_params(CribbageSpec()), sort_keys=True)
        tables[(first_cards.KIND, key)] = grown
    shipping = [(k, json.loads(p), a) for (k, p), a in tables.items() if k != "deals"]
    for kind, params, arrays in shipping:  # all checked before any is replaced
        store.KINDS[kind].check(arrays, params)
    for f in os.listdir(store.SHIPPED):
        os.unlink(os.path.join(store.SHIPPED, f))
    for kind, params, arrays in shipping:
        name = store.file_name(kind, params)
        store.write(os.path.join(store.SHIPPED, name), kind, params, arrays)
        print(f"shipped {name}")


if __name__ == "__main__":  # run as a script this file is __main__, not the package's module
    from cribsolve.catalog import ship as _ship

    _ship()
