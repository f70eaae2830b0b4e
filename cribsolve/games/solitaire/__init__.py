"""PySolFC's cribbage solitaires: Cribbage Patience, Patience II, Shuffle and Square; their
deals by game number, policies, simulation, bounds and coach (rules: docs/RULES.md §4).
"""
