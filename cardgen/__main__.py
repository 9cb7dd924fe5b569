"""`python -m cardgen`: the same as the cardgen command."""

from cardgen.cli import main

main()
