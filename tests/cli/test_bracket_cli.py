"""bracket's table: a bound at or above 100% is said to bound nothing (issue 68)."""

import json
import re

from clihelp import run

from cribsolve.cli.bracket import _row


def test_a_bound_above_100_percent_is_no_bound():
    """Patience II's penalised sum reads above 100% on these decks: the line says there is
    no bound below 100% where it printed "131.0861%", and --json keeps the figure."""
    args = ("bracket", "--variant", "patience2", "-n", "40", "--seed", "3", "--quiet")
    code, out, _ = run(*args, "--json")
    d = json.loads(out)
    assert code == 0 and d["upper_bound"] > 1
    code, out, _ = run(*args)
    lines = out.splitlines()
    assert code == 0 and "  upper bound (penalised)      no bound below 100%" in lines
    assert all(float(p) <= 100 for p in re.findall(r"(-?[\d.]+)%", out))
    # the other rows as they were
    rate = f"{d['win_rate']:8.4%}  95% CI [{d['win_rate_ci'][0]:.4%}, {d['win_rate_ci'][1]:.4%}]"
    assert f"  best policy (lookahead)      {rate}" in lines


def test_a_bound_below_100_percent_is_its_figure():
    assert _row("upper bound (penalised)", 0.14, (0.13, 0.15), True) == (
        "  upper bound (penalised)      14.0000%  95% CI [13.0000%, 15.0000%]"
    )
    assert _row("upper bound (penalised)", 1.0, (0.99, 1.01), True).endswith("no bound below 100%")
    assert _row("clairvoyant bound", 1.0, (0.9, 1.0)).endswith(
        "100.0000%  95% CI [90.0000%, 100.0000%]"
    )
