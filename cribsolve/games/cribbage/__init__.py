"""Two-player cribbage: its spec and house rules, the play, the players, the analyses of a deal
and a board, and the review of a game."""
