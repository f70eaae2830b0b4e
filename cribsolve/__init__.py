"""cribsolve: exact, fast cribbage scoring, discard analysis and solitaire solving.

The names below are loaded on first use, so ``import cribsolve`` (and the CLI's start) does not
pay for numpy or numba until a command needs them.
"""

__version__ = "0.2.0"

_EXPORTS = {
    "RuleSet": "core.rules",
    "ruleset": "core.rules",
    "Score": "core.scoring",
    "score_hand": "core.scoring",
    "parse_card": "core.notation",
    "parse_cards": "core.notation",
    "format_card": "core.notation",
    "format_cards": "core.notation",
}
__all__ = list(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'cribsolve' has no attribute {name!r}")
