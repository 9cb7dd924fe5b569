"""The deck format as data: a JSON Schema (draft 2020-12 subset) per file kind.

``validate`` interprets these same dictionaries, so the checks and the schema
that editors use cannot drift apart. Only the keywords the validator knows are
used: type, properties, required, additionalProperties, propertyNames,
pattern, enum, minimum, items, minItems, description, $defs and $ref.
"""

from __future__ import annotations

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
LANG_PATTERN = r"^[a-z]{2,3}(-[A-Za-z0-9]+)?$"

DEFS: dict = {
    "text": {
        "type": "object",
        "description": "A text in every language of the game, by language code.",
        "propertyNames": {"pattern": LANG_PATTERN},
        "additionalProperties": {"type": "string"},
        "minProperties": 1,
    },
    "color": {
        "type": "string",
        "pattern": r"^#[0-9a-fA-F]{6}$",
        "description": "A colour as #rrggbb.",
    },
    "file": {
        "type": "string",
        "description": "A file inside the game folder, relative to it.",
    },
    "id": {"type": "string", "pattern": ID_PATTERN},
}

GAME: dict = {
    "$defs": DEFS,
    "type": "object",
    "required": ["name", "languages", "teams"],
    "additionalProperties": False,
    "properties": {
        "name": {"$ref": "#/$defs/text"},
        "languages": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "string", "pattern": LANG_PATTERN},
            "description": "The languages every text of the game is written in.",
        },
        "card-size": {"type": "string", "description": "Default card size, e.g. poker."},
        "back": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "title": {"$ref": "#/$defs/text"},
                "symbol": {"$ref": "#/$defs/file"},
                "pattern": {"$ref": "#/$defs/file"},
                "color": {"$ref": "#/$defs/color"},
            },
        },
        "teams": {
            "type": "object",
            "propertyNames": {"pattern": ID_PATTERN},
            "additionalProperties": {
                "type": "object",
                "required": ["name", "color"],
                "additionalProperties": False,
                "properties": {
                    "name": {"$ref": "#/$defs/text"},
                    "color": {"$ref": "#/$defs/color"},
                    "edge": {"$ref": "#/$defs/file"},
                },
            },
        },
        "groups": {
            "type": "object",
            "propertyNames": {"pattern": ID_PATTERN},
            "additionalProperties": {"$ref": "#/$defs/text"},
        },
    },
}

CARD: dict = {
    "$defs": DEFS,
    "type": "object",
    "required": ["name", "ability"],
    "additionalProperties": False,
    "properties": {
        "name": {"$ref": "#/$defs/text"},
        "team": {"$ref": "#/$defs/id"},
        "group": {"$ref": "#/$defs/id"},
        "count": {"type": "integer", "minimum": 1},
        "symbol": {"$ref": "#/$defs/file"},
        "ability": {"$ref": "#/$defs/text"},
        "night": {
            "type": "object",
            "required": ["order"],
            "additionalProperties": False,
            "properties": {
                "order": {"type": "integer", "minimum": 1},
                "first-night-only": {"type": "boolean"},
            },
        },
    },
}
