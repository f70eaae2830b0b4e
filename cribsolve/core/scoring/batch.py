"""Scoring many hands at once: a file of hands, one per line, the last card the starter.

The file is read in blocks of whole lines, so memory stays bounded and the first totals come
out before the input ends. In each block a kernel splits the text into card words, the words
are matched against a table of spellings (anything else goes through ``parse_card``, which
also words the error), a parallel kernel checks and scores every line, and another writes the
totals as text.
"""

import io

import numpy as np

from cribsolve.core.notation import JOKER, N_IDS, parse_card
from cribsolve.core.rules import RuleSet
from cribsolve.core.scoring.kernels import best_wild, score_parts
from cribsolve.core.scoring.table import rank_table, score5_many
from cribsolve.errors import CardError
from cribsolve.infra.jit import njit, prange


@njit(cache=True)
def first_bad_line(ids, offsets, decks, jokers):
    """Index of the first line holding more copies of a card than the deck has, else -1."""
    seen = np.zeros(N_IDS, dtype=np.int64)
    for i in range(offsets.shape[0] - 1):
        bad = False
        for k in range(offsets[i], offsets[i + 1]):
            seen[ids[k]] += 1
            if seen[ids[k]] > (jokers if ids[k] == JOKER else decks):
                bad = True
        for k in range(offsets[i], offsets[i + 1]):
            seen[ids[k]] = 0
        if bad:
            return i
    return -1


@njit(cache=True, parallel=True)
def score_lines(ids, offsets, target, full_flush, wild_rank):
    """Total of each line ids[offsets[i]:offsets[i+1]], the last card being the starter."""
    n = offsets.shape[0] - 1
    out = np.empty(n, dtype=np.int64)
    for i in prange(n):
        cards = ids[offsets[i] : offsets[i + 1]]
        nheld = cards.shape[0] - 1
        parts = np.zeros(5, dtype=np.int64)
        if wild_rank:
            best = cards.copy()
            out[i] = best_wild(cards, nheld, target, full_flush, wild_rank, best)
        else:
            out[i] = score_parts(cards, nheld, target, full_flush, parts)
    return out


_SPELLINGS = None
BOM = b"\xef\xbb\xbf"  # the UTF-8 byte-order mark some editors write first


@njit(cache=True)
def scan_words(b, first_line=1):
    """Start, end, 1-based line number and packed key of every word in the bytes ``b``
    (words are split by white space and commas; ``#`` starts a comment).

    A word's key is its bytes packed into one uint64 (0 for words longer than 8 bytes).
    """
    n = b.shape[0]
    starts = np.empty(n // 2 + 1, dtype=np.int64)
    ends = np.empty_like(starts)
    lines = np.empty_like(starts)
    keys = np.zeros(starts.shape[0], dtype=np.uint64)
    w = 0
    line = first_line
    i = 0
    while i < n:
        c = b[i]
        if c == 32 or 9 <= c <= 13 or c == 44:
            if c == 10:
                line += 1
            i += 1
            continue
        if c == 35:  # '#': a comment to the end of the line
            while i < n and b[i] != 10:
                i += 1
            continue
        starts[w] = i
        lines[w] = line
        key = np.uint64(0)
        j = 0
        while i < n and not (b[i] == 32 or 9 <= b[i] <= 13 or b[i] == 44):
            if j < 8:
                key |= np.uint64(b[i]) << np.uint64(8 * j)
            j += 1
            i += 1
        ends[w] = i
        keys[w] = key if j <= 8 else np.uint64(0)
        w += 1
    return starts[:w], ends[:w], lines[:w], keys[:w]


# The common spellings of every card, which both readers of a file match without parse_card.
WORDS = [
    r + s
    for r in "A a 1 2 3 4 5 6 7 8 9 T t 10 J j Q q K k".split()
    for s in "C c D d H h S s ♣ ♦ ♥ ♠ ♧ ♢ ♡ ♤".split()
] + "JK jk Jk jK X x".split()


def _spelling_table():
    """Sorted keys of the common spellings of every card, with their ids (parsed by parse_card)."""
    global _SPELLINGS
    if _SPELLINGS is None:
        keys = scan_words(np.frombuffer(" ".join(WORDS).encode(), dtype=np.uint8))[3]
        order = np.argsort(keys)
        _SPELLINGS = keys[order], np.array([parse_card(WORDS[i]) for i in order], dtype=np.int64)
    return _SPELLINGS


@njit(cache=True)
def match_words(keys, known, known_ids):
    """Card id of each word key by binary search in the sorted spelling keys; -1 if absent."""
    ids = np.empty(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        lo, hi = 0, known.shape[0]
        while lo < hi:
            mid = (lo + hi) // 2
            if known[mid] < keys[i]:
                lo = mid + 1
            else:
                hi = mid
        ids[i] = known_ids[lo] if lo < known.shape[0] and known[lo] == keys[i] else -1
    return ids


def tokenize(data: bytes, first_line: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Card ids, line offsets into them, and each line's number (the text's first is
    ``first_line``; a UTF-8 byte-order mark before it is skipped).

    Words are found by a kernel and matched against a table of spellings; any word not in
    the table goes through ``parse_card`` (which also writes the error for a bad one).
    """
    if first_line == 1 and data.startswith(BOM):
        data = b" " * len(BOM) + data[len(BOM) :]
    starts, ends, line_no, keys = scan_words(np.frombuffer(data, dtype=np.uint8), first_line)
    ids = match_words(keys, *_spelling_table())
    for i in np.flatnonzero(ids < 0):
        try:
            ids[i] = parse_card(data[starts[i] : ends[i]].decode("utf-8"))
        except UnicodeDecodeError:
            raise CardError(
                f"line {int(line_no[i])}: not UTF-8 text (is it a text file of hands?)"
            ) from None
        except CardError as e:
            raise CardError(f"line {int(line_no[i])}: {e}") from None
    first = np.flatnonzero(np.diff(line_no, prepend=-1))  # line numbers never decrease
    offsets = np.append(first, len(ids)).astype(np.int64)
    return ids, offsets, line_no[first]


def score_batch(data: bytes, rules: RuleSet, crib: bool = False, first_line: int = 1):
    """Show totals (heels apart) of every hand in ``data``, one per line, last card the starter."""
    ids, offsets, lines = tokenize(data, first_line)
    sizes = np.diff(offsets)
    if len(sizes) and sizes.min() < 2:
        raise CardError(
            f"line {int(lines[np.argmin(sizes)])}: a hand needs at least one held "
            "card and a starter"
        )
    bad = first_bad_line(ids, offsets, rules.decks, rules.jokers)
    if bad >= 0:
        try:
            rules.check_cards(ids[offsets[bad] : offsets[bad + 1]])
        except CardError as e:
            raise CardError(f"line {int(lines[bad])}: {e}") from None
    full = rules.full_flush(crib)
    if len(sizes) and rules.is_plain and (sizes == 5).all():
        return score5_many(rank_table(rules.target), ids.reshape(-1, 5), full).astype(np.int64)
    return score_lines(ids, offsets, rules.target, full, rules.wild_rank)


@njit(cache=True)
def as_text(values):
    """The non-negative integers ``values`` as ASCII digits, one per line."""
    out = np.empty(values.shape[0] * 20, dtype=np.uint8)
    k = 0
    digits = np.empty(20, dtype=np.uint8)
    for v in values:
        n = 0
        while True:
            digits[n] = 48 + v % 10
            v //= 10
            n += 1
            if v == 0:
                break
        for j in range(n - 1, -1, -1):
            out[k] = digits[j]
            k += 1
        out[k] = 10
        k += 1
    return out[:k]


BLOCK = 1 << 20  # bytes of input scored at a time


def _small_ids(data: bytes):
    """The card ids of ``data`` as (lines, 5) rows and each row's line number, read in plain
    Python (no kernel to compile), or None where a line is not five known spellings (the
    kernels' path then reads it, and words its errors)."""
    known = _spelling_ids()
    rows, numbers = [], []
    for n, line in enumerate(data.removeprefix(BOM).split(b"\n"), 1):
        words = line.split(b"#", 1)[0].replace(b",", b" ").split()
        if not words:
            continue
        ids = [known.get(w, -1) for w in words]
        if len(ids) != 5 or -1 in ids:
            return None
        rows.append(ids)
        numbers.append(n)
    return np.array(rows, dtype=np.int64).reshape(-1, 5), np.array(numbers, dtype=np.int64)


_SPELLING_IDS = {}


def _spelling_ids() -> dict:
    """Every common spelling of a card, as bytes, with its id (parse_card's reading)."""
    if not _SPELLING_IDS:
        _SPELLING_IDS.update((w.encode(), parse_card(w)) for w in WORDS)
    return _SPELLING_IDS


def score5_numpy(table, hands, full_flush: bool) -> np.ndarray:
    """table.score5 over (n, 5) rows in numpy: the same lookup, flush and nobs, for small jobs
    that should not wait for numba (tests hold the two equal on every kind of hand)."""
    from cribsolve.core.cards import JACK, NO_SUIT, RANK, SUIT

    r, su = RANK[hands], SUIT[hands]
    idx = (((r[:, 0] * 14 + r[:, 1]) * 14 + r[:, 2]) * 14 + r[:, 3]) * 14 + r[:, 4]
    pts = table[idx].astype(np.int64)
    flush = (su[:, 0] < NO_SUIT) & (su[:, :4] == su[:, :1]).all(axis=1)
    with_starter = flush & (su[:, 4] == su[:, 0])
    pts += 5 * with_starter + (0 if full_flush else 4) * (flush & ~with_starter)
    pts += ((r[:, :4] == JACK) & (su[:, :4] == su[:, 4:5])).sum(axis=1)
    return pts


def score_small(data: bytes, rules: RuleSet, crib: bool = False):
    """score_batch of a small file of five-card hands without numba, or None where the
    kernels must read it (wild cards, another target sum, a line not of five cards)."""
    if not rules.is_plain or rules.target != 15:
        return None
    read = _small_ids(data)
    if read is None:
        return None
    hands, numbers = read
    ordered = np.sort(hands, axis=1)
    doubtful = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1) | (ordered[:, -1] == JOKER)
    for hand, n in zip(hands[doubtful], numbers[doubtful]):  # a repeated card, a joker
        try:
            rules.check_cards(hand)
        except CardError as e:
            raise CardError(f"line {int(n)}: {e}") from None
    return score5_numpy(rank_table(rules.target), hands, rules.full_flush(crib))


def score_stream(
    infile,
    out,
    rules: RuleSet,
    crib: bool = False,
    block: int = BLOCK,
    hold: bool = False,
    small: bool = False,
) -> None:
    """Score the hands of a binary file, one per line, writing one total per line to ``out``.
    With ``hold`` (a file, read to its end before anything is said) nothing is written unless
    every line scores; without (a pipe, whose totals should not wait for its end) each block
    of whole lines is written when scored, and an error says how many totals came before it.
    ``small``: a small file, read whole and scored in numpy where it can be (score_small);
    otherwise, in a process running its kernels as plain Python, start again compiled."""
    if small:
        from cribsolve.infra.jit import require_compiled

        start = infile.tell()
        data = infile.read()
        totals = score_small(data, rules, crib)
        if totals is not None:
            out.write("".join(f"{t}\n" for t in totals.tolist()).encode())
            return
        infile.seek(start)  # a process started again compiled reads it (stdin too) afresh
        require_compiled("a batch of other hands than five cards under the standard rules")
        infile = io.BytesIO(data)
    read = getattr(infile, "read1", infile.read)  # what is there now: a pipe is not held up
    line, rest, held, printed = 1, b"", [], 0
    while True:
        chunk = read(block)
        data = rest + chunk
        cut = data.rfind(b"\n") + 1 if chunk else len(data)
        part, rest = data[:cut], data[cut:]
        if part:
            try:
                totals = score_batch(part, rules, crib, line)
            except CardError as e:
                if printed:
                    raise CardError(
                        f"{e} (the {printed:,} totals of the lines before it were printed)"
                    ) from None
                raise
            (held.append if hold else out.write)(as_text(totals).tobytes())
            printed += 0 if hold else len(totals)
            line += part.count(b"\n")
        if not chunk:
            for text in held:
                out.write(text)
            return
