"""One module per game: its deal order, its scoring of a deal, and the choices a player makes."""
