"""What every game shares: cards and their notation, rule sets, the show scorer, the exact
expectation engines and the options of a hand."""
