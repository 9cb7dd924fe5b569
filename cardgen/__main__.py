"""`python -m cardgen`: the same as the cardgen command."""

from .cli import main

main()
