"""Cribbage, two to four players, in five sub-packages in the order a deal is played: rules,
players (of the play), throw, deals, table; imports only go down (docs/architecture.md).
"""
