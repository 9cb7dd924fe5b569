"""The JSON Schema editors use agrees with the validator, on good files and on mistakes."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from cardgen.deck.schema_check import check_schema
from cardgen.deck.yaml_doc import load_file
from conftest import ROOT, run

KINDS = {"card": "*/roles/*.yaml", "game": "*/game.yaml", "rulebook": "*/rulebook.yaml", "script": "*/script.yaml"}


def schema(kind: str) -> dict:
    result = run("schema", kind)
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(document)
    return document


@pytest.mark.parametrize("kind", KINDS)
def test_every_bundled_file_is_valid_under_the_schema(kind):
    validator = jsonschema.Draft202012Validator(schema(kind))
    files = sorted((ROOT / "decks").glob(KINDS[kind]))
    assert files
    for path in files:
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
        assert errors == [], f"{path}: {errors[0].message}"


MISTAKES = [
    "name: {en: Seer}\nability: {en: Look.}\ncount: two\n",  # wrong type
    "name: {en: Seer}\nability: {en: Look.}\ncolour: blue\n",  # unknown key
    "name: {en: Seer}\n",  # missing key
    "name: {en: Seer}\nability: {en: Look.}\nnight: {order: first}\n",  # wrong type, nested
    "name: {en: Seer}\nability: {en: Look.}\ncount: 0\n",  # below the minimum
    "name: {EN: Seer}\nability: {en: Look.}\n",  # not a language code
    "name: {en: Seer}\nability: {en: Look.}\nteam: Village Folk\n",  # not an id
]


@pytest.mark.parametrize("text", MISTAKES)
def test_a_mistake_the_validator_reports_the_schema_underlines_too(text, tmp_path):
    path = tmp_path / "card.yaml"
    path.write_text(text, encoding="utf-8")
    doc, problems = load_file(path, "card.yaml")
    from cardgen.deck import schema as rules

    assert problems == [] and check_schema(doc, rules.CARD) != []
    assert list(jsonschema.Draft202012Validator(schema("card")).iter_errors(doc.data)) != []
