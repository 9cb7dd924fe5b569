"""Documents: the rulebook, the moderator script and the narrator page, from templates, typeset as PDF."""
