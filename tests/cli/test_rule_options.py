"""Each rule of the game is one option, declared once (cli/options.py's RULE_OPTIONS) from
the rules object's fields and bounds: every command that takes it says the same of it."""

import importlib
from dataclasses import fields

import click

from cribsolve.api.rules import Rules
from cribsolve.cli import COMMANDS
from cribsolve.cli.options import GAME_OPTIONS
from cribsolve.games.cribbage.rules.spec import BOUNDS


def _commands():
    for name, where in COMMANDS.items():
        module, attr = where.split(":")
        yield name, getattr(importlib.import_module(module), attr)


def test_every_rule_of_the_rules_object_is_an_option():
    rules = {f.name for f in fields(Rules)} - {"game_length"}  # the game's length: per command
    assert set(GAME_OPTIONS) == (rules - {"wild_rank"}) | {"wild"}


def test_a_rule_reads_the_same_on_every_command_that_takes_it():
    seen = {}
    for command, cmd in _commands():
        for p in getattr(cmd, "params", []):
            if isinstance(p, click.Option) and p.opts[0][2:].replace("-", "_") in GAME_OPTIONS:
                said = (tuple(p.opts), p.help, p.default, str(p.type))
                seen.setdefault(p.name, {}).setdefault(said, []).append(command)
    assert set(seen) == set(GAME_OPTIONS)
    for name, ways in seen.items():
        assert len(ways) == 1, (name, ways)
        (opts, _, _, kind), *_ = ways
        if name in BOUNDS:
            lo, hi = BOUNDS[name]
            assert f"{lo}<=x<={hi}" in kind
