"""The players of the play (the pegging): their policies, the two experts' searches (open
hands and information sets), what a throw says about a hand, and a written play's best card."""
