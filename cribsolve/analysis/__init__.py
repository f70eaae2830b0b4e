"""Expectations over the unseen cards: discard values, crib tables, opponent models."""
