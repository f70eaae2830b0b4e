"""Cards as users type and read them: the one parser and formatter, with no numpy, so the
command line can check its input before anything heavy is loaded.

A card id is ``(rank - 1) * 4 + suit`` for the 52 ordinary cards (rank 1 = A .. 13 = K,
suit 0..3 = C D H S) and ``JOKER`` (52) for a joker. Ranks are typed A 2-9 T (or 10) J Q K,
and 1 is accepted for an ace.
"""

from __future__ import annotations

from cribsolve.errors import CardError

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
JOKER = 52
N_IDS = 53

_SUIT_ALIASES = {
    "C": 0,
    "D": 1,
    "H": 2,
    "S": 3,
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
}
_RANK_ALIASES = {c: i + 1 for i, c in enumerate(RANK_CHARS)} | {"10": 10, "1": 1}


def card_id(rank: int, suit: int) -> int:
    return (rank - 1) * 4 + suit


def parse_card(text: str) -> int:
    """Parse one card in any case: '5h', '10S', 'TS', 'J♦', and jokers 'JK', 'X', 'X2'."""
    t = text.strip().upper()
    if (
        t in ("JK", "X", "JOKER")
        or (t[:1] == "X" and t[1:].isdigit())
        or (t[:2] == "JK" and t[2:].isdigit())
    ):
        return JOKER
    if len(t) >= 2 and t[:-1] in _RANK_ALIASES and t[-1] in _SUIT_ALIASES:
        return card_id(_RANK_ALIASES[t[:-1]], _SUIT_ALIASES[t[-1]])
    raise CardError(f"unknown card {text!r} (expected e.g. 5H, TS, 10S, J♦, or JK for a joker)")


def parse_cards(texts) -> list[int]:
    """Parse cards given as separate words or as one string with spaces or commas."""
    out: list[int] = []
    for t in texts:
        if not t.replace(",", " ").strip():
            raise CardError("an empty card argument was given (expected cards like 5H TS)")
        out.extend(parse_card(w) for w in t.replace(",", " ").split())
    return out


def format_card(cid: int) -> str:
    if cid == JOKER:
        return "JK"
    return RANK_CHARS[cid // 4] + SUIT_CHARS[cid % 4]


def format_cards(cids) -> str:
    return " ".join(format_card(int(c)) for c in cids)


def parse_rank(text: str) -> int:
    """A rank on its own (for --wild): 'K', 'k', '10', 'T'."""
    t = text.strip().upper()
    if t not in _RANK_ALIASES:
        raise CardError(f"unknown rank {text!r} (expected A, 2-9, T or 10, J, Q, K)")
    return _RANK_ALIASES[t]
