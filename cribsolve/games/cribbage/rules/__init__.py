"""The rules of cribbage as the kernels read them: the spec of every house rule, the play's
kernels and play-state, when a score reaches the game length, the points a player calls."""
