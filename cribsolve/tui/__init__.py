"""The full-screen table of ``play --variant cribbage`` (Textual; served to a browser by
textual-serve with ``--web``): a second front end to the same referee as the transcript
(games/cribbage/table/match.py), which it runs in a thread of its own, so that the table is up
at once while the first game compiles. Needs the ``table`` extra.
"""
