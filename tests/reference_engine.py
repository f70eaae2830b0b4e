"""A slow, obvious cribbage deal for two to four players, partners and the five-card game,
written from docs/RULES.md §3 and §8 for tests only: its own play scorer, its own go logic,
the show by slow_scorer. It shares nothing with the package but the card ids.

Its random choices are the fast engine's random policies' draws, made in the order the rules
make the decisions (each seat's throw from the dealer's left, then each card laid), from a
numpy RandomState seeded as the kernels are: a throw is ``randint(number of throws)`` over
the throws in lexicographic order of the dealt positions, a card ``randint(number of cards
that fit)`` over the cards that fit in the order dealt. So a deal the two engines play alike
gives every point alike; any difference in whose turn it is shows as different points.
"""

from itertools import combinations

from slow_scorer import RANK_OF, VALUE_OF, slow_score


class Won(Exception):
    """A side reached the game's end."""


def play_points(series):
    """What the last card of ``series`` (the cards since the count was 0) scores, the last
    card's go aside: 15 and 31 two each, the pairs it ends, the longest run it ends."""
    count = sum(VALUE_OF(c) for c in series)
    pts = 2 * (count == 15) + 2 * (count == 31)
    ranks = [RANK_OF(c) for c in series]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == ranks[-1]:
        same += 1
    pts += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for k in range(len(ranks), 2, -1):
        tail = ranks[-k:]
        if len(set(tail)) == k and max(tail) - min(tail) == k - 1:
            pts += k
            break
    return pts


class Table:
    """One deal's board: scores by side, the points of each part, the game's end."""

    def __init__(self, players, partners, scores, target):
        self.players, self.partners = players, partners
        self.scores, self.target = list(scores), target
        self.parts = {"heels": 0, "pegging": [0] * players, "hand": [0] * players, "crib": 0}

    def side(self, seat):
        return seat % 2 if self.partners else seat

    def peg(self, seat, pts, part):
        if part in ("pegging", "hand"):
            self.parts[part][seat] += pts
        else:
            self.parts[part] += pts
        self.scores[self.side(seat)] += pts
        if self.target and self.scores[self.side(seat)] >= self.target:
            raise Won(self.side(seat))


def reference_deal(deck, players, hand_size, rng, scores, target, partners=False, five_card=False):
    """Play one deal from ``deck`` (seat 0 the dealer's left, the last seat the dealer) with
    random choices from ``rng``. Returns (the winning side or None, the scores, the parts)."""
    board = Table(players, partners, scores, target)
    dealer = players - 1
    hands = [list(deck[s * hand_size : (s + 1) * hand_size]) for s in range(players)]
    rest = list(deck[players * hand_size :])
    crib = []
    if players == 3:
        crib.append(rest.pop(0))  # the crib's card from the deck
    throw = 2 if players == 2 else 1
    for s in range(players):
        ways = list(combinations(range(hand_size), throw))
        out = ways[rng.randint(len(ways))]
        crib += [hands[s][i] for i in out]
        hands[s] = [c for i, c in enumerate(hands[s]) if i not in out]
    starter = rest.pop(0)
    kept = [list(h) for h in hands]
    try:
        if RANK_OF(starter) == 11:
            board.peg(dealer, 2, "heels")
        _play(hands, board, rng, five_card)
        for s in range(players):  # the show from the dealer's left
            held = kept[s]
            pts = sum(slow_score(held, [starter]).values())
            if five_card and len({c % 4 for c in held}) == 1 and len(held) == 3:
                pts += 3 + (starter % 4 == held[0] % 4)
            board.peg(s, pts, "hand")
        board.peg(dealer, sum(slow_score(crib, [starter], full_flush=True).values()), "crib")
    except Won as w:
        return w.args[0], board.scores, board.parts
    return None, board.scores, board.parts


def _play(hands, board, rng, five_card):
    """The play: in turn from the dealer's left; a seat with no card that fits passes, and
    the turn goes round until nobody can lay; the last to lay takes 1 (2 for 31, no more),
    and the seat after it leads again. The five-card game stops after its first series."""
    n = len(hands)
    turn, last, series = 0, None, []

    def fits(seat):
        count = sum(VALUE_OF(c) for c in series)
        return [c for c in hands[seat] if count + VALUE_OF(c) <= 31]

    while any(hands):
        able = [(turn + k) % n for k in range(n) if fits((turn + k) % n)]
        if not able:  # nobody can lay: one for the go
            board.peg(last, 1, "pegging")
            series, turn = [], (last + 1) % n
            if five_card:
                return
            continue
        seat = able[0]
        choices = fits(seat)
        card = choices[rng.randint(len(choices))]
        hands[seat].remove(card)
        series.append(card)
        last, turn = seat, (seat + 1) % n
        pts = play_points(series)
        if pts:
            board.peg(seat, pts, "pegging")
        if sum(VALUE_OF(c) for c in series) == 31:
            series = []
            if five_card:
                return
    if series:
        board.peg(last, 1, "pegging")  # the last card of all
