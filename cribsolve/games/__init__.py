"""The games: two-player cribbage and its house rules (cribbage/), PySolFC's solitaires
(solitaire/). Neither imports the other."""
