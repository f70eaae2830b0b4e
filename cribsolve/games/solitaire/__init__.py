"""PySolFC's cribbage solitaires: Cribbage Patience, Cribbage Patience II and Cribbage Shuffle,
their deals by game number, policies, simulation, bounds and coach."""
