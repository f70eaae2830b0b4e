"""The table a person sits at: the game record and its replay, the review, the hints, the
referee of a game against the computer, its terminal and the computer's side."""
