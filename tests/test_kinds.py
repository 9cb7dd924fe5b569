"""The registry of output kinds (cardgen/build/kinds.py): every build option is accounted for, and the
commands offer what it lists."""

from __future__ import annotations

import dataclasses

from cardgen.build.kinds import KINDS, NOT_IN_OUTPUT, TABLE
from cardgen.build.options import BuildOptions
from conftest import run


def test_every_build_option_makes_some_kind_stale_or_is_said_to_change_no_output():
    """An option left out of the registry would leave stale outputs up to date, with no error."""
    accounted = {name for kind in KINDS.values() for name in kind.stale_on} | set(TABLE) | set(NOT_IN_OUTPUT)
    fields = {field.name for field in dataclasses.fields(BuildOptions)}
    assert fields - accounted == set(), "BuildOptions fields the registry does not account for"
    assert accounted - fields == set(), "names in the registry that are no BuildOptions field"
    assert not set(NOT_IN_OUTPUT) & ({name for kind in KINDS.values() for name in kind.stale_on} | set(TABLE))


def test_the_kinds_are_those_build_only_offers():
    result = run("build", "--only", "poster", "--list-targets")
    assert result.exit_code == 2
    assert f"'poster' is not a kind of output; kinds: {', '.join(KINDS)}" in result.output
    help_text = " ".join(run("build", "--help").stdout.split())
    assert f"Build just this kind of output: {', '.join(list(KINDS)[:-1])} or {list(KINDS)[-1]}" in help_text
