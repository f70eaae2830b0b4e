"""cribsolve: exact, fast cribbage scoring, discard analysis and solitaire solving.

The names below are loaded on first use, so ``import cribsolve`` (and the CLI's start) does not
pay for numpy or numba until a command needs them.
"""
__version__ = "0.2.0"

_EXPORTS = {"RuleSet": "rules", "ruleset": "rules", "Score": "scoring", "score_hand": "scoring",
            "parse_card": "cards", "parse_cards": "cards", "format_card": "cards",
            "format_cards": "cards"}
__all__ = list(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        import importlib
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'cribsolve' has no attribute {name!r}")
