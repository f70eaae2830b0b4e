"""cribsolve: exact, fast cribbage scoring, discard analysis and solitaire solving."""
from .cards import format_card, format_cards, parse_card, parse_cards
from .rules import RuleSet, ruleset
from .scoring import Score, score_hand

__all__ = ["RuleSet", "ruleset", "Score", "score_hand", "parse_card", "parse_cards",
           "format_card", "format_cards"]
__version__ = "0.1.0"
