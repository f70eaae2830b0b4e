"""The calls the same-answer tests make (test_same_answer.py): each a command line whose
output is all numbers of the engine, run in-process as a user's would be. Run as a script
(``python tests/samecall.py NAME ...``; NAME@J for --jobs J) it makes the named calls in that
order in one process and prints {name: [exit status, stdout]} as JSON."""

import json
import os
import sys

SOLO = "--seed 1 --json"
CALLS = {
    # the solitaires, every policy
    **{
        f"patience-{p}": f"simulate --variant patience --policy {p} -n 2000 {SOLO}"
        for p in ("random", "ev", "win", "deck", "clairvoyant")
    },
    **{
        f"patience2-{p}": f"simulate --variant patience2 --policy {p} -n 400 {SOLO}"
        for p in ("random", "ev", "win", "clairvoyant")
    },
    "patience2-lookahead": f"simulate --variant patience2 --policy lookahead -n 60 {SOLO}",
    **{
        f"shuffle-{p}": f"simulate --variant shuffle --policy {p} -n 100 {SOLO}"
        for p in ("optimal", "heuristic")
    },
    **{
        f"square-{p}": f"simulate --variant square --policy {p} -n 100 {SOLO}"
        for p in ("ev", "lookahead", "random", "clairvoyant")
    },
    "square-waste-ev": f"simulate --variant square-waste -n 100 {SOLO}",
    "bracket-patience": f"bracket --variant patience -n 200 {SOLO}",
    "bracket-patience2": f"bracket --variant patience2 -n 100 {SOLO}",
    "discard-patience2": "best-discard --variant patience2 5H 5S JD 6C 7C KH --json",
    # cribbage: the answers of single questions
    "odds": "odds --my-score 35 --their-score 37 --dealer --json",
    "odds-61": "odds --my-score 40 --their-score 52 --pone --game-length 61 --json",
    "discard": "best-discard 5H 5S JD 6C 7C KH --dealer --json",
    "discard-uniform": "best-discard 5H 5S JD 6C 7C KH --pone --throw-model uniform --json",
    "discard-pegging": "best-discard 5H 5S JD 6C 7C KH --dealer --pegging --json",
    "discard-target16": "best-discard 5H 5S JD 6C 7C KH --dealer --target 16 --json",
    "best-play": "best-play TS 2C 3D 8H --played 5H --seen KD,4S,4C --dealer --json",
    # cribbage: whole games, every player and several rules
    **{
        f"cribbage-{p}": f"simulate --variant cribbage --policy {p} -n {n} {SOLO}"
        for p, n in (("greedy", 300), ("random", 300), ("lookahead", 40), ("expert", 6))
    },
    "cribbage-expert-vs-greedy": (
        f"simulate --variant cribbage --policy expert --opponent-policy greedy -n 6 {SOLO}"
    ),
    "cribbage-lowball": f"simulate --variant cribbage --lowball --game-length 61 -n 300 {SOLO}",
    "cribbage-three": f"simulate --variant cribbage --players 3 -n 200 {SOLO}",
    "cribbage-eight": (
        f"simulate --variant cribbage --decks 2 --hand-size 8 --starters 2 -n 100 {SOLO}"
    ),
    "cribbage-jokers": f"simulate --variant cribbage --jokers 2 -n 200 {SOLO}",
}


def make(names) -> dict:
    """{name: [exit status, stdout]} of the calls ``names``, made in that order here."""
    from clihelp import run

    out = {}
    for name in names:
        call, _, jobs = name.partition("@")  # NAME@J: on J threads (--jobs J)
        code, stdout, _ = run(*CALLS[call].split(), *(["--jobs", jobs] if jobs else []))
        out[name] = [code, stdout]
    return out


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    os.environ["CRIBSOLVE_COMPILED"] = "1"
    os.environ.setdefault("CRIBSOLVE_QUIET_COMPILE", "1")
    print(json.dumps(make(sys.argv[1:])))
