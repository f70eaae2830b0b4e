"""cribsolve: exact, fast cribbage scoring, discard analysis and solitaire solving.

The names below are loaded on first use, so ``import cribsolve`` (and the CLI's start) does not
pay for numpy or numba until a command needs them.
"""

__version__ = "0.3.0"

_EXPORTS = {
    # one function a command (api/), each returning a result whose to_dict() is its --json
    "score": "api.show",
    "distribution": "api.show",
    "best_discard": "api.throw",
    "crib_table": "api.throw",
    "best_play": "api.pegging",
    "odds": "api.odds",
    "odds_table": "api.odds",
    "variations": "api.variations",
    "bracket": "api.solitaires",
    "shuffle": "api.solitaires",
    "best_place": "api.solitaires",
    "deal": "api.solitaires",
    "review": "api.review",
    "simulate": "api.simulate",
    "score_many": "core.scoring.many",
    "card_codes": "core.scoring.many",
    # the rules: one object for every house rule of the game; the show's own
    "Rules": "api.rules",
    "RuleSet": "core.rules",
    "ruleset": "core.rules",
    # the show of one hand, as the engine gives it
    "Score": "core.scoring",
    "score_hand": "core.scoring",
    # cards
    "parse_card": "core.notation",
    "parse_cards": "core.notation",
    "format_card": "core.notation",
    "format_cards": "core.notation",
    # what goes wrong: a user's input (also ValueError), a machine's fault
    "CribsolveError": "errors",
    "CardError": "errors",
    "RecordError": "errors",
    "TableError": "errors",
    "FileFault": "errors",
}
__all__ = list(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'cribsolve' has no attribute {name!r}")
