"""The checks of what a caller gave the analyses (the command line's options or the API's
arguments, named alike), each a ``CribsolveError`` of one line that names the option."""

from __future__ import annotations

from cribsolve.api.rules import card_list
from cribsolve.errors import CardError, CribsolveError


def bad(option: str, message: str) -> CribsolveError:
    """A value the option does not take, worded as the command line words it."""
    return CribsolveError(f"Invalid value for '{option}': {message}")


def card(value, option: str) -> int:
    """One card: a string ("5D") or a card code."""
    if not isinstance(value, str):
        return int(value)
    from cribsolve.core.notation import parse_card

    try:
        return parse_card(value)
    except CardError as e:
        raise CardError(f"{option}: {e}") from None


def option_cards(value, option: str) -> list[int]:
    """The cards of a CARDS option; absent (None) is no cards, an empty string an error."""
    return [] if value is None else card_list(value, option)


def check_unseen(n_known: int, need: int, what: str, option: str, deck: int = 52) -> None:
    """Enough of the deck's cards must be left unseen to deal what is still hidden."""
    left = deck - n_known
    if left < need:
        raise CardError(
            f"{option}: only {left} cards are left unseen, fewer than the {need} needed for {what}"
        )


def three_scores(scores, length: int) -> list[int]:
    """--scores A,B,C (or three numbers): three scores below the game ``length``."""
    text = scores if isinstance(scores, str) else ",".join(map(str, scores))
    try:
        board = [int(v) for v in text.split(",")]
    except ValueError:
        board = []
    if len(board) != 3 or not all(0 <= v < length for v in board):
        raise bad("--scores", f"{text!r} is not three scores from 0 to {length - 1}")
    return board


def no_jokers(cards, variant: str) -> None:
    """A solitaire is dealt from one deck without jokers: refuse one before the rules' own
    check, whose advice (--jokers) names an option the solitaires do not have."""
    from cribsolve.core.notation import JOKER
    from cribsolve.games.solitaire.facts import SOLITAIRES

    if JOKER in cards:
        raise CardError(f"jokers are not dealt in {SOLITAIRES[variant].name}")


def three_board(scores, dealer_player, rules, two: str) -> tuple[int, list[int], list[int]]:
    """(my seat, the scores seat by seat, the scores player by player) of a three-player
    board, --scores and --dealer-player (player 1 is me); ``two``: who would give
    --my-score and --their-score instead."""
    from cribsolve.games.cribbage.deals.three_odds import seat_of, seat_scores

    if rules.players != 3 or rules.partners:
        raise CribsolveError(
            "--scores and --dealer-player weigh three players' board (--players 3); "
            f"{two} give --my-score and --their-score"
        )
    if scores is None or dealer_player is None:
        raise CribsolveError("give --scores A,B,C and --dealer-player N (who deals)")
    board = three_scores(scores, rules.game_length)
    dealer = dealer_player - 1
    return seat_of(0, dealer), seat_scores(board, dealer), board
