"""The wheel's packages, which pyproject.toml cannot list together: every package found under cardgen/, so
that a new subpackage is never left out, and the data folders that pyproject.toml's package-dir maps into
it as cardgen/_data/<folder>. Everything else about the project is in pyproject.toml."""

from setuptools import find_packages, setup

DATA = ("decks", "templates", "fonts")

setup(packages=[*find_packages(include=["cardgen", "cardgen.*"]), *(f"cardgen._data.{name}" for name in DATA)])
