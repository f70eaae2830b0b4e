"""The choices before the play, valued by one expected-value engine: the throw, the model of
the opponent's throw into the crib, and best-discard."""
