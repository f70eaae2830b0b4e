"""Whole deals and games: the deal engine, who plays, the simulations, the odds of every
board, the choices weighed by P(win), and the house rules side by side."""
