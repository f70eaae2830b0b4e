"""The person at a line-based terminal (or a pipe): a match.Player that prompts, reads a line, and
asks again, saying in one line what is expected, until the answer can be played. Cards as
``score`` takes them or by their numbers in the hand; ``?`` or ``hint`` prints the adviser's
table (advice.py), Enter takes its first choice (docs/playing.md). The end of input raises
EOFError; the match keeps the record of the deals finished.
"""

from __future__ import annotations

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import format_card, parse_card
from cribsolve.errors import CardError
from cribsolve.games.cribbage.table import advice
from cribsolve.games.cribbage.table.match import Player
from cribsolve.games.cribbage.table.screen import Screen
from cribsolve.infra.paths import clip

HINT = ("?", "hint")


def numbered(hand) -> str:
    return "  ".join(f"{i}:{format_card(c)}" for i, c in enumerate(hand, 1))


def throw_words(d, spec) -> str:
    """What a throw gives and to whom ('2 to your crib'), as a front end asks for it."""
    crib = (
        "your"
        if d.owns_crib and (d.i_deal or spec.players == 2)
        else "your partner's"
        if d.owns_crib
        else "their"
        if spec.players == 2
        else "the dealer's"
    )
    n, t = len(d.hand) - spec.kept, spec.throw
    return (
        f"{t} to your crib, then {t} to theirs"
        if spec.two_cribs
        else f"{n - spec.choose_cut} to {crib} crib"
    ) + ", then the card you give them (their cut card)" * spec.choose_cut


class Terminal(Player):
    def __init__(self, spec, read, say, coach=False, echo=False, screen: Screen | None = None):
        """``read()``: the next line ('' at the end); ``echo``: repeat it (not a terminal);
        ``screen``: the hand drawn as cards and the play's series shown (None: one line)."""
        self.spec, self.read, self.say, self.coach, self.echo = spec, read, say, coach, echo
        self.screen = screen
        self._rows = None  # the current decision's hint

    def _ask(self, prompt: str) -> str:
        self.say(prompt, nl=False)
        line = self.read()
        if not line:
            self.say("")
            raise EOFError
        if self.echo:
            self.say(clip(line.rstrip("\n")))
        return line.strip()

    def _options(self, d):
        if self._rows is None:
            self._rows = advice.options(d, self.spec)
        return self._rows

    def _hint(self, d):
        self.say("\n".join(advice.table_lines(d, self._options(d), self.spec)))

    def _cards(self, text: str, hand) -> list:
        """The cards named by ``text``: cards of the hand, or their numbers (12 or 1 2); a
        card held twice (two decks) may be named twice."""
        words = text.replace(",", " ").replace("/", " ").split()
        if len(words) == 1 and words[0].isdigit() and len(words[0]) > 1:
            words = list(words[0])
        picked = []  # positions in the hand
        for w in words:
            if w.isdigit():
                if not 1 <= int(w) <= len(hand):
                    raise CardError(f"there is no card {w} in your hand")
                i = int(w) - 1
            else:
                c = parse_card(w)
                if c not in hand:
                    raise CardError(f"{format_card(c)} is not in your hand")
                i = next((j for j, x in enumerate(hand) if x == c and j not in picked), None)
                if i is None:
                    raise CardError(f"{format_card(c)} is named twice")
            if i in picked:
                raise CardError(f"{format_card(hand[i])} is named twice")
            picked.append(i)
        return [hand[i] for i in picked]

    def _decide(self, d, prompt: str, check, expected: str, read=None) -> list:
        """Ask until the answer passes ``check``: ? for the hint, Enter for its first choice;
        ``read(text)`` reads an answer (default: cards of the hand)."""
        self._rows = None
        if self.coach:
            self._hint(d)
        while True:
            text = self._ask(prompt)
            if text.lower() in HINT:
                self._hint(d)
                continue
            try:
                cards = (
                    advice.first_choice(d, self._options(d))
                    if not text
                    else (read or (lambda x: self._cards(x, d.hand)))(text)
                )
                check(cards)
                return cards
            except CardError as e:
                self.say(f"  {clip(str(e))}: {expected}")

    def _show_hand(self, hand) -> None:
        if self.screen:
            for line in self.screen.hand(hand, "your cards"):
                self.say(line)
        else:
            self.say(f"  your cards: {numbered(hand)}")

    def throw(self, d):
        spec = self.spec
        self._show_hand(d.hand)
        n = len(d.hand) - spec.kept

        def check(cards):
            if len(cards) != n:
                raise CardError(f"{len(cards)} card{'s' * (len(cards) != 1)} named")

        return self._decide(
            d,
            f"throw {throw_words(d, spec)}: ",
            check,
            f"type {n} of your cards (e.g. {format_card(d.hand[0])} "
            f"{format_card(d.hand[1])}) or their numbers (1-{len(d.hand)}), "
            "? for a hint, Enter for the adviser's choice",
        )

    def redraw(self, d):
        self._show_hand(d.hand)

        def read(text):
            return [] if text.lower() in ("none", "keep", "-", "0") else self._cards(text, d.hand)

        def check(cards):
            if len(cards) > d.limit:
                raise CardError(f"{len(cards)} cards named")

        return self._decide(
            d,
            f"throw away cards to draw again ({'before' if d.before else 'after'} the throw; "
            "none to keep them all): ",
            check,
            f"type up to {d.limit} of your cards or their numbers, or none, ? for a hint, "
            "Enter for the adviser's choice",
            read,
        )

    def bid(self, d):
        def read(text):
            word = text.lower()
            if word in ("pass", "p", "no", str(d.bid)):
                return [d.bid]
            if word in ("bid", "raise", "yes", "y", str(d.bid + 1)):
                return [d.bid + 1]
            raise CardError(f"{text!r} is not a bid")

        holder = "you hold it" if d.holder == 0 else "they hold it"
        return self._decide(
            d,
            f"bid {d.bid + 1} for the crib, or pass (the bid is {d.bid}; {holder}): ",
            lambda answer: None,
            f"type {d.bid + 1} (or bid) to raise, pass to stop, ? for a hint, Enter for the "
            "adviser's choice",
            read,
        )[0]

    def lay(self, d):
        if self.screen:
            self.say(self.screen.series(d.played, len(d.series), d.count))
            for line in self.screen.hand(d.hand, "your cards"):
                self.say(line)
        else:
            self.say(f"  count {d.count}; your cards: {numbered(d.hand)}")

        def check(cards):
            if len(cards) != 1:
                raise CardError(f"{len(cards)} cards named")
            if d.count + VALUE[RANK[cards[0]]] > self.spec.peg_limit:
                raise CardError(f"{format_card(cards[0])} does not fit: the count is {d.count}")

        return self._decide(
            d,
            "your card: ",
            check,
            f"type one of your cards that fits, or its number "
            f"(1-{len(d.hand)}), ? for a hint, Enter for the adviser's "
            "choice",
        )[0]

    def after(self, d):
        if self.coach:
            line = advice.cost_line(d, self._options(d), self.spec)
            if line:
                self.say(line)

    def count(self, held, cuts, crib):
        while True:
            text = self._ask(f"  your count for your {'crib' if crib else 'hand'}: ")
            if text.isdigit() and int(text) <= 99:
                return int(text)
            self.say("  type the points as a whole number from 0 to 99 (e.g. 8; 0 for nineteen)")
