"""CribbageSpec with any values, possible or not, is built or refused in one line
(CribsolveError), never another exception (players=0 once divided by zero)."""

from dataclasses import fields

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.rules.spec import CribbageSpec

FIELDS = fields(CribbageSpec)


@st.composite
def rules(draw):
    chosen = draw(st.sets(st.sampled_from([f.name for f in FIELDS]), max_size=6))
    out = {}
    for f in FIELDS:
        if f.name in chosen:
            out[f.name] = draw(st.booleans() if f.type == "bool" else st.integers(-5, 300))
    return out


@settings(max_examples=400, deadline=None)
@given(rules())
def test_any_values_build_a_spec_or_are_refused_in_one_line(kw):
    try:
        spec = CribbageSpec(**kw)
    except CribsolveError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert spec.as_array().shape == (len(spec.as_array()),)


@pytest.mark.parametrize(
    "kw, said",
    [
        ({"players": 0}, "players must be 2 to 4, not 0"),
        ({"players": 0, "five_card": True}, "players must be 2 to 4, not 0"),
        ({"players": "3"}, "players must be a whole number, not '3'"),
        ({"target": 15.5}, "target must be a whole number, not 15.5"),
        ({"decks": True}, "decks must be a whole number, not True"),
        ({"lowball": 1}, "lowball is on or off (True or False), not 1"),
    ],
)
def test_impossible_values_are_refused_in_words(kw, said):
    with pytest.raises(CribsolveError, match=said.replace("(", r"\(").replace(")", r"\)")):
        CribbageSpec(**kw)


def test_numpy_numbers_are_whole_numbers_and_switches():
    spec = CribbageSpec(jokers=np.int64(2), lowball=np.bool_(True), game_length=61)
    assert spec.jokers == 2 and spec.lowball
