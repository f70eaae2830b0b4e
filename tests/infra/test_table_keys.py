"""Every kind of table is keyed by exactly the rules its build reads: the fields it declares
(infra/store.py: register's ``reads``, rules_key). A field read but not declared would serve
a table built under other rules, a wrong answer no other test sees.

Each kind's builder is asked for its key under base rules and under one changed value of each
rules field: a field it declares must change the key, any other must leave it. What holds the
declarations to the builds themselves: the shipped tables must keep their names (a field
dropped from a shipped kind's declaration renames its table), and small fresh builds under each
change must keep their numbers where the key stays (a field read but not declared changes
them) and change them where it moves, unless KEY_ONLY says why not.
"""

import itertools
import json
import os
from dataclasses import fields, replace

import pytest
from test_golden_tables import numbers_digest

from cribsolve.catalog import PAGE_GAME, PARTNERS
from cribsolve.core.rules import RuleSet, ruleset
from cribsolve.core.scoring.table import rank_table
from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.deals.odds import kept_deals, odds_table, skunk_table
from cribsolve.games.cribbage.deals.three_odds import three_odds_table
from cribsolve.games.cribbage.players import first_cards
from cribsolve.games.cribbage.players.inference import throw_model
from cribsolve.games.cribbage.players.pegtable import PLAYS, peg_table
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw.crib_model import optimal_frequencies
from cribsolve.infra import store

# One changed value of each rules field, with what it needs to make a valid game.
CHANGES = {
    CribbageSpec: {
        "target": {"target": 13},
        "peg_limit": {"peg_limit": 30},
        "game_length": {"game_length": 31},
        "lowball": {"lowball": True},
        "decks": {"decks": 2},
        "jokers": {"jokers": 2},
        "hand_size": {"hand_size": 7},
        "crib_size": {"crib_size": 2},
        "starters": {"starters": 2},
        "wild_rank": {"wild_rank": 11},
        "stinkhole": {"stinkhole": True},
        "draw": {"draw": True},
        "choose_cut": {"choose_cut": True},
        "two_cribs": {"two_cribs": True},
        "bid": {"bid": True},
        "players": {"players": 4, "hand_size": 5},
        "partners": {"players": 4, "partners": True, "hand_size": 5},
        "five_card": {"five_card": True, "hand_size": 5},
    },
    RuleSet: {
        "preset": {"preset": "pysol"},
        "target": {"target": 13},
        "jokers": {"jokers": 1},
        "decks": {"decks": 2},
        "wild_rank": {"wild_rank": 11},
        "crib_full_flush": {"crib_full_flush": False},
    },
}

DEALS = 400
# Each kind's builder at a small size: (its kind, base rules, build from rules).
BUILDS = {
    "rank table": ("rank-table", CribbageSpec(), lambda s: rank_table(s.target)),
    "opponent model": ("opponent", RuleSet(), lambda r: optimal_frequencies(r, hands=2_000)),
    "throw model": ("throwmodel", CribbageSpec(), throw_model),
    "open pegging": ("pegging", CribbageSpec(), lambda s: peg_table(s, "open", samples=2)),
    "infoset pegging": ("pegging", CribbageSpec(), lambda s: peg_table(s, "infoset", samples=1)),
    "first cards": ("first-cards", CribbageSpec(), first_cards.memo_for),
    "deals": ("deals", CribbageSpec(), lambda s: kept_deals(s, DEALS, "greedy", None)),
    "odds": ("odds", CribbageSpec(game_length=21), lambda s: odds_table(s, deals=DEALS)),
    "skunks": ("skunks", CribbageSpec(game_length=61), lambda s: skunk_table(s, deals=DEALS)),
    "three-player odds": (
        "odds3",
        CribbageSpec(players=3, hand_size=5, game_length=21),
        lambda s: three_odds_table(s, deals=DEALS),
    ),
}
# The solitaires' tables read no cribbage rules: each is keyed by its variant, which names its own.
UNRULED = {"wintable", "deckvalue"}
# Declared fields whose change leaves a small build's numbers as they were, and why.
KEY_ONLY = {
    ("odds", "stinkhole"): "it acts at the game's end, which the simulated deals never reach; "
    "declared so the shipped odds keep their names",
    ("skunks", "stinkhole"): "as the odds'",
}


def changed(base):
    """(field, the fields changed, rules): ``base`` under each field's change, where that makes
    a valid game."""
    for field, change in CHANGES[type(base)].items():
        try:
            rules = replace(base, **change)
        except CribsolveError:
            continue  # not a game (the three-player odds' base under lowball, say)
        if rules != base:
            yield field, set(change), rules


def declared(kind: str, change: set) -> bool:
    return bool(change & set(store.READS[kind].fields))


def test_every_rules_field_has_a_change_and_every_kind_a_build():
    for cls, changes in CHANGES.items():
        assert sorted(changes) == sorted(f.name for f in fields(cls))
    built = {kind for kind, _, _ in BUILDS.values()}
    assert built | UNRULED == set(store.KINDS) and not built & UNRULED
    names = {f.name for cls in CHANGES for f in fields(cls)}
    assert set(store.READS) == set(store.KINDS)
    for kind, r in store.READS.items():
        assert set(r.fields) <= names and set(r.added) <= set(r.fields), kind
        assert bool(r.fields) == (kind not in UNRULED), kind


class Keyed(Exception):
    """Raised where a table would be looked for: its key is known, nothing is read or built."""


@pytest.fixture
def key_of(monkeypatch):
    """key_of(build, rules): (kind, params) of the first table ``build(rules)`` looks for, or
    None where it keeps none under those rules."""

    def look(folder, kind, params):
        raise Keyed(kind, params)

    monkeypatch.setattr(store, "_current", look)
    monkeypatch.setattr(store, "_memo", {})
    monkeypatch.setattr(first_cards, "_MEMOS", {})

    def key_of(build, rules):
        try:
            build(rules)
        except Keyed as k:
            return k.args
        except CribsolveError:
            pass  # no table under these rules (the odds of three players, say)
        return None

    return key_of


@pytest.mark.parametrize("name", BUILDS)
def test_a_key_holds_the_fields_its_kind_reads_and_no_other(name, key_of):
    kind, base, build = BUILDS[name]
    plain = key_of(build, base)
    assert plain[0] == kind
    for field, change, rules in changed(base):
        now = key_of(build, rules)
        if now is None:
            continue
        assert now[0] == kind
        if declared(kind, change):
            assert now != plain, f"{name}: the key did not change with {field}"
        else:
            assert now == plain, f"{name}: the key changed with {field}, which it does not read"


def test_the_shipped_tables_keep_their_names(key_of):
    """The tables catalog.ship() makes are found under the names they shipped with."""
    std = CribbageSpec()
    ship = [
        (rank_table, 15),
        (optimal_frequencies, ruleset("standard")),
        (odds_table, std),
        (odds_table, PAGE_GAME),
        (odds_table, PARTNERS),
        (skunk_table, std),
        (throw_model, std),
        (first_cards.memo_for, std),
        *((lambda s, p=p: peg_table(s, p), std) for p in PLAYS),
    ]
    names = {store.file_name(*key_of(build, rules)) for build, rules in ship}
    shipped = {n for n in os.listdir(store.SHIPPED) if n.split("-")[0] not in UNRULED}
    assert names == shipped


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """fresh(build, rules): {kind: (params, digest of its numbers)} of every table
    ``build(rules)`` makes, each built afresh (nothing shipped or kept before is read), or None
    where it makes none under those rules."""
    folders = itertools.count()
    monkeypatch.setattr(store, "_memo", {})

    def fresh(build, rules):
        monkeypatch.setenv("CRIBSOLVE_CACHE", str(tmp_path / str(next(folders))))
        with store.ignoring_shipped() as tables:
            try:
                build(rules)
            except CribsolveError:
                return None
        kinds = [kind for kind, _ in tables]
        assert len(kinds) == len(set(kinds)), "two tables of a kind in one build"
        return {kind: (json.loads(p), numbers_digest(a)) for (kind, p), a in tables.items()}

    return fresh


@pytest.mark.parametrize(
    "name",
    [
        "rank table",
        "throw model",
        "opponent model",
        *(
            pytest.param(name, marks=pytest.mark.slow)
            for name in ("open pegging", "infoset pegging", "odds", "skunks", "three-player odds")
        ),
    ],
)
def test_a_build_reads_the_fields_its_kind_declares_and_no_other(name, fresh):
    """Under each change, every table the build makes (its kind's and those it reads, the rank
    table, the deals) keeps its key and numbers or changes both. The first cards are not built
    here: a memo fills with the games played, which any rule changes; its slots are the
    expert's search, which reads the play's rules as the infoset pegging table's does."""
    kind, base, build = BUILDS[name]
    plain = fresh(build, base)
    assert kind in plain
    for field, change, rules in changed(base):
        now = fresh(build, rules)
        for k in (plain.keys() & now.keys()) if now else ():
            (params, digest), (now_params, now_digest) = plain[k], now[k]
            if not declared(k, change):
                assert (now_params, now_digest) == (params, digest), (
                    f"{k} built under another {field} is another table: declare {field}"
                )
                continue
            moved = now_digest != digest
            assert now_params != params
            assert moved != ((k, field) in KEY_ONLY), (
                f"{k}'s numbers changed with {field}: take it out of KEY_ONLY"
                if moved
                else f"{k}'s numbers did not change with {field}: say why in KEY_ONLY"
            )
