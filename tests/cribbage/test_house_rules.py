"""The variations table (house_rules.py): each row is the games of its rule."""

import pytest


@pytest.mark.slow
def test_variations_rows_are_the_games_of_each_rule():
    from cribsolve.games.cribbage.deals.simulate import simulate_cribbage
    from cribsolve.games.cribbage.deals.variations import COLUMNS, RULES, variations

    rows = variations(150, seed=3)
    assert [r["rule"] for r in rows] == [name for name, _ in RULES]
    assert all(list(r) == COLUMNS for r in rows)
    std = simulate_cribbage(150, seed=3).as_dict()
    assert rows[0]["first_dealer_wins"] == std["win_rate"]
    assert rows[0]["largest_hand"] == std["largest_hand"] <= 29
    by = {r["rule"]: r for r in rows}
    assert (
        by["to 61"]["deals_per_game"]
        < by["standard"]["deals_per_game"]
        < by["to 241"]["deals_per_game"]
    )
    assert by["lowball to 60"]["skunk_rate"] is None
