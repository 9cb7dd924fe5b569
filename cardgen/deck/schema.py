"""The deck format as data: a JSON Schema (draft 2020-12 subset) per file kind.

``validate`` interprets these same dictionaries, so the checks and the schema
that editors use cannot drift apart. Only the keywords the validator knows are
used: type (a name or a list of names), properties, required,
additionalProperties, propertyNames, pattern, maxLength, enum, minimum, maximum, items,
minItems, maxItems, minProperties, oneOf, description, $defs and $ref.
"""

from __future__ import annotations

from cardgen.deck.schema_defs import (
    CARD_RULES,
    DEFS,
    ID_KEYS,
    LANG_PATTERN,
    LAYOUTS,
    NIGHT_RULES,
    PHASE_KINDS,
    STEP_MARKS,
    ids,
)
from cardgen.deck.schema_defs import ID_MAX as ID_MAX  # what an id is, for the checks that import the schema
from cardgen.deck.schema_defs import ID_PATTERN as ID_PATTERN

_ORDER = {
    "type": "number",
    "minimum": 1,
    "description": "Where the card is called in the night: lower first; a decimal (2.5) goes between, and "
    "cards of equal order are called by id.",
}

NIGHT_SCRIPT: dict = {
    "type": "object",
    "description": "What happens when the card is called at night; `call` is the name "
    "the wake-up line uses (default: the card's name, e.g. Werewolves for Werewolf).",
    "additionalProperties": False,
    "properties": {
        "call": {"$ref": "#/$defs/text"},
        "also-wakes": {
            "$ref": "#/$defs/text",
            "description": "Who wakes on their own in `after` (Cupid's Lovers): the night lists name them "
            "right after the card.",
        },
        "group": {
            "type": "boolean",
            "description": "Several players answer the call: the wake-up and go-to-sleep lines use the plural.",
        },
        "say": {"$ref": "#/$defs/text"},
        "do": {"$ref": "#/$defs/text"},
        **STEP_MARKS,
        "before": {
            "type": "array",
            "items": {"$ref": "#/$defs/step"},
            "description": "Steps between the wake-up line and `say`.",
        },
        "then": {
            "type": "array",
            "items": {"$ref": "#/$defs/step"},
            "description": "Steps after `say` and `do`, before the go-to-sleep line.",
        },
        "after": {
            "type": "array",
            "items": {"$ref": "#/$defs/step"},
            "description": "Steps after the go-to-sleep line.",
        },
        "versions": {
            "type": "object",
            "description": "Per version of the script (an id of script.yaml's `versions`), the card's own "
            "lines there in place of `say`, `do` and their marks; `before`, `then` and `after` stay, each "
            "step kept or left out by its own `version`.",
            "propertyNames": ID_KEYS,
            "additionalProperties": {"$ref": "#/$defs/night-lines"},
        },
    },
}


def _night_part(description: str) -> dict:
    return {
        "type": "object",
        "description": description,
        "required": ["order"],
        "additionalProperties": False,
        "properties": {"order": _ORDER, "script": NIGHT_SCRIPT},
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
        "author": {
            "type": "string",
            "minLength": 1,
            "description": "Who made the game: every PDF names them as its author.",
        },
        "back": {"$ref": "#/$defs/back"},
        "teams": {
            "type": "object",
            "propertyNames": ID_KEYS,
            "additionalProperties": {
                "type": "object",
                "required": ["name", "color"],
                "additionalProperties": False,
                "properties": {
                    "name": {"$ref": "#/$defs/text"},
                    "color": {"$ref": "#/$defs/color"},
                    "edge": {"$ref": "#/$defs/file"},
                    "mark": {
                        "$ref": "#/$defs/file",
                        "description": "The team's glyph, drawn at both ends of its cards' team label, "
                        "so that teams read apart without their colours.",
                    },
                },
            },
        },
        "groups": {
            "type": "object",
            "description": "Kinds of card: a name, or a mapping with the name and more.",
            "propertyNames": ID_KEYS,
            "additionalProperties": {"oneOf": [{"$ref": "#/$defs/text"}, {"$ref": "#/$defs/group"}]},
        },
        "fonts": {
            "type": "object",
            "description": "The game's own fonts: TrueType files in the project's fonts/, and which "
            "families draw which language, first to last (as in templates/fonts.yaml).",
            "additionalProperties": False,
            "properties": {
                "families": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "required": ["regular"],
                        "additionalProperties": False,
                        "properties": {
                            face: {"type": "string", "pattern": r"\.[tT][tT][fF]$"}
                            for face in ("regular", "bold", "italic", "bold-italic")
                        },
                    },
                },
                "fallback": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "minItems": 1, "items": {"type": "string"}},
                },
            },
        },
        "night": {
            "type": "object",
            "description": "Rules of the night that hold for every role.",
            "additionalProperties": False,
            "properties": {
                "dead-roles": {
                    "type": "string",
                    "enum": ["called", "skipped"],
                    "description": "Whether the role of a player who is out is still called at "
                    "night, with the same pause, so that nobody learns who is out.",
                },
                "house-rules": {
                    "type": "array",
                    "items": {"type": "string", "enum": ["order", "dead-roles", *NIGHT_RULES]},
                    "description": "Which of the night order and the night's rules are ours, not the sources'.",
                },
                **NIGHT_RULES,
            },
        },
        "setups": {
            "type": "object",
            "description": "What to deal by player count; the first is the default.",
            "propertyNames": ID_KEYS,
            "additionalProperties": {"$ref": "#/$defs/setup"},
        },
        "table-rules": {
            "type": "array",
            "description": "The constraints of a legal table, each with its words for the warning.",
            "items": {"$ref": "#/$defs/table-rule"},
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
        "count": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000,
            "description": "Copies in the box (a thousand at most: a deck, not a print run).",
        },
        "extra-cards": {
            "type": "integer",
            "minimum": 1,
            "maximum": 10,
            "description": "With this card dealt, this many more of the setup's fill card are dealt "
            "and left over in the middle (the Werewolf Thief's two).",
        },
        "symbol": {"$ref": "#/$defs/file"},
        "art": {
            "type": "object",
            "description": "A picture for the art box, in its own colours: PNG, JPEG or SVG, fitted "
            "whole (contain) or filling the box (cover) around a focal point.",
            "required": ["file"],
            "additionalProperties": False,
            "properties": {
                "file": {"$ref": "#/$defs/file"},
                "fit": {"type": "string", "enum": ["contain", "cover"]},
                "focus": {
                    "type": "array",
                    "minItems": 2,
                    "maxItems": 2,
                    "items": {"type": "number", "minimum": 0, "maximum": 1},
                },
            },
        },
        "ability": {"$ref": "#/$defs/text"},
        "short-ability": {
            "$ref": "#/$defs/short-text",
            "description": "The ability said in fewer words, in some or all of the game's languages: a "
            "bilingual card (--lang vi+en) prints it when the full texts of both languages do not fit at "
            "6.5 pt, the second language's first, then both.",
        },
        "layout": {"type": "string", "enum": LAYOUTS},
        "back": {
            "type": "object",
            "description": "This card's own back face, e.g. the No side of a Yes/No token.",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {
                "name": {"$ref": "#/$defs/text"},
                "symbol": {"$ref": "#/$defs/file"},
            },
        },
        "night": {
            "type": "object",
            "description": "When the card wakes. Short form: `order` (and `first-night-only`), the same "
            "every night. Full form: `first` and/or `other`, each with its own order and, if it is said "
            "differently, its own `script`; a part without one uses the card's `script`.",
            "additionalProperties": False,
            "minProperties": 1,
            "properties": {
                "order": _ORDER,
                "first-night-only": {
                    "type": "boolean",
                    "description": "Short form: the card wakes on the first night only.",
                },
                "script": NIGHT_SCRIPT,
                "first": _night_part("The card's call on the first night."),
                "other": _night_part("The card's call on every night after the first."),
            },
        },
        "rules": CARD_RULES,
        "in-play-only": {
            "type": "array",
            "description": "Words of the ability (or short-ability) that a table's cards (cardgen build --players "
            "N) print only when one of the cards of `if` is in play: each `text` is a piece of the ability as "
            "written, in every language; the whole box prints every word.",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["if", "text"],
                "properties": {
                    "if": ids("The cards one of which must be in play for the table to read the words.", one=True),
                    "text": {"$ref": "#/$defs/text"},
                },
            },
        },
    },
}

RULEBOOK: dict = {
    "$defs": DEFS,
    "type": "object",
    "required": ["players", "sections"],
    "additionalProperties": False,
    "properties": {
        "players": {"$ref": "#/$defs/range"},
        "minutes": {"$ref": "#/$defs/range"},
        "sections": {
            "type": "object",
            "description": "The written sections, in order: a title and a body (paragraphs, - bullets).",
            "propertyNames": ID_KEYS,
            "additionalProperties": {
                "type": "object",
                "required": ["title", "body"],
                "additionalProperties": False,
                "properties": {
                    "title": {"$ref": "#/$defs/text"},
                    "body": {"oneOf": [{"$ref": "#/$defs/text"}, {"$ref": "#/$defs/parts"}]},
                },
            },
        },
    },
}

SCRIPT: dict = {
    "$defs": DEFS,
    "type": "object",
    "required": ["versions"],
    "additionalProperties": False,
    "properties": {
        "title": {"$ref": "#/$defs/text"},
        "unheld-roles-if": {
            "type": "array",
            "description": "With any of these cards in play a called role may be held by nobody.",
            "items": {"$ref": "#/$defs/id"},
        },
        "always-held": {
            "type": "array",
            "description": "Cards that are held even when an unheld-roles-if card is in play.",
            "items": {"$ref": "#/$defs/id"},
        },
        "win-check": {
            "description": "What the moderator checks after a death and who wins then: a text, or parts of it "
            "each kept only when one of the cards its `if` names is in play and none of its `unless` cards is.",
            "oneOf": [
                {"$ref": "#/$defs/text"},
                {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "required": ["text"],
                        "additionalProperties": False,
                        "properties": {
                            "text": {"$ref": "#/$defs/text"},
                            "if": {"type": ["string", "array"], "items": {"$ref": "#/$defs/id"}},
                            "unless": {"type": ["string", "array"], "items": {"$ref": "#/$defs/id"}},
                        },
                    },
                },
            ],
        },
        "setup": {
            "type": "array",
            "description": "The setup, step by step: the rulebook's Setup section and the first phase of "
            "every version of the script.",
            "minItems": 1,
            "items": {"$ref": "#/$defs/step"},
        },
        "versions": {
            "type": "object",
            "propertyNames": ID_KEYS,
            "additionalProperties": {
                "type": "object",
                "required": ["name", "phases"],
                "additionalProperties": False,
                "properties": {
                    "name": {"$ref": "#/$defs/text"},
                    "page-only": {
                        "type": "boolean",
                        "description": "Only the narrator page runs this version (it needs nobody to "
                        "read it): the PDF script and the rulebook leave it out.",
                    },
                    "phases": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "required": ["title", "steps"],
                            "additionalProperties": False,
                            "properties": {
                                "title": {"$ref": "#/$defs/text"},
                                "kind": {"type": "string", "enum": PHASE_KINDS},
                                "steps": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/step"}},
                            },
                        },
                    },
                },
            },
        },
    },
}


KINDS: dict[str, dict] = {"card": CARD, "game": GAME, "rulebook": RULEBOOK, "script": SCRIPT}


def document(kind: str) -> dict:
    """The JSON Schema of one kind of deck file, whole, as an editor reads it."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": f"cardgen {kind} file", **KINDS[kind]}
