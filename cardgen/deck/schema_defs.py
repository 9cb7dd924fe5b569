"""The deck format's shared parts, as data: the patterns of ids and language codes, the layouts, phase
kinds and step marks, and the definitions (``$defs``: a text, a file, a step, ...) that the file kinds
of :mod:`cardgen.deck.schema` refer to."""

from __future__ import annotations

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
# Ids name output files, two of them and a language in one name at most (a game and its setup, a group
# and its card): at 80 characters each such a name stays within the 255 bytes every file system allows.
ID_MAX = 80
# An id written as a mapping's key (a team, a group, a setup).
ID_KEYS = {"pattern": ID_PATTERN, "maxLength": ID_MAX}
LAYOUTS = ["role", "token", "words", "night-order", "text"]
# A region or script subtag has at most 8 characters (BCP 47): language codes are in file names too.
LANG_PATTERN = r"^[a-z]{2,3}(-[A-Za-z0-9]{1,8})?$"
PHASE_KINDS = ["first-night", "night", "dawn", "day", "end"]
SECRET_WORD = ["choose", "show", "initials", "ask", "guess"]
CHOICES = ["target", "protect", "save", "poison", "kill", "love", "charm", "block", "jail", "note"]


def ids(description: str, *, one: bool = False, at_least: int = 0) -> dict:
    """The schema of a list of card, team or group ids; with `one`, a single id may stand for the list."""
    schema: dict = {"type": ["string", "array"] if one else "array", "items": {"$ref": "#/$defs/id"}}
    if at_least:
        schema["minItems"] = at_least
    return {**schema, "description": description}


# What the narrator page keeps on a seat from night to night, besides its card, and how long it stays:
# the night it was left (until that dawn), the day after it (until the next dawn) or the whole game. A
# step's `if-died` may name one, as it names a card.
REMINDERS = {
    "lover": "game",
    "enchanted": "game",
    "protected": "day",
    "used-save": "game",
    "used-poison": "game",
    "lost-life": "game",
    "powerless": "game",
    "revealed": "game",
    "jailed": "game",
    "charmed": "night",
    "blocked": "night",
    "framed": "night",
    "silenced": "day",
    "hypnotized": "day",
    # A title held beside a role card (the Werewolf Sheriff): the page marks its holder with it.
    "sheriff": "game",
}
# The narrator page's rules of one card (rules.js reads them): the dawn's suggested deaths and the
# choices it allows.
CARD_RULES: dict = {
    "type": "object",
    "description": "Narrator page: how this card changes the dawn's deaths and which of its choices count.",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "lives": {"type": "integer", "minimum": 2, "maximum": 9, "description": "Night targets it survives, less one."},
        "protectable": {"type": "boolean", "description": "false: a protection on it does nothing."},
        "no-repeat": {"type": "boolean", "description": "It may not choose the same player two nights running."},
        "once": {"type": "array", "items": {"enum": CHOICES}, "description": "Effects it uses once a game."},
        "one-a-night": {"type": "boolean", "description": "At most one of its choices takes effect a night."},
        "not-self": {"type": "array", "items": {"enum": CHOICES}, "description": "Effects not on itself."},
        "dies-instead": {"type": "boolean", "description": "Its protect: it dies in place of a client hit."},
        "leaves": {"enum": list(REMINDERS), "description": "The reminder its note choices leave on a player."},
        "jails": ids("Teams its jail holds."),
        "spares": ids("Teams its target spares."),
        "members": ids("Cards and teams that wake and choose with it (a gang)."),
        "death-disables": ids("Cards left powerless by its death."),
        "death-takes": {
            "type": "array",
            "items": {"enum": list(REMINDERS)},
            "description": "Players carrying one of these reminders die with it.",
        },
        "death-unless-by": ids("Killed by one of these cards, its death disables and takes no one."),
        "survives-vote": {
            "type": "boolean",
            "description": "Voted out, it may show its card and stay alive, with the reminder revealed.",
        },
    },
}
# The narrator page's rules of the game's nights, beside dead-roles and house-rules in game.yaml's night.
NIGHT_RULES: dict = {
    "first-night-kills": {"type": "boolean", "description": "false: nobody dies on the first night."},
    "over-protect-dies": {
        "type": "boolean",
        "description": "A victim both protected and saved dies all the same.",
    },
    "not-self": {"type": "boolean", "description": "No card's choice may pick its own player."},
    "struck-powerless": ids("Teams whose players, hit by a kill earlier in the night, do nothing that night."),
}

# What a step may say about itself, wherever steps are written (script phases, setup, a card's night call).
STEP_MARKS: dict = {
    "deadly": {"type": "boolean", "description": "Players may die at this step: the win check follows it."},
    "house": {"type": "boolean", "description": "Our rule, not the sources': printed with the house-rule mark."},
    "timer": {
        "type": "integer",
        "minimum": 1,
        "maximum": 3600,
        "description": "A countdown of this many seconds runs at this step.",
    },
    # For the narrator page only; the PDF script prints none of them.
    "pause": {
        "type": "integer",
        "minimum": 0,
        "maximum": 600,
        "description": "Narrator page: seconds to wait here while the players act (shown as a "
        "count-down; default: templates/narrator/narrator.yaml).",
    },
    "secret-word": {
        "type": "string",
        "enum": SECRET_WORD,
        "description": "Narrator page: the Mayor chooses the secret word here (choose), it is shown "
        "(show), only its first letters are (initials), it is shown on a tap (ask), "
        "or the players may guess it while this step's timer runs (guess).",
    },
    "if-guessed": {
        "type": "boolean",
        "description": "Narrator page: read this step only if the secret word was guessed (true) "
        "or only if it was not (false).",
    },
    "choices": {
        "type": "array",
        "items": {"type": "string", "enum": CHOICES},
        "description": "Narrator page: the players chosen here, one per entry, and what that does: "
        "target (dies at dawn unless protected or saved), protect, save (the night's target), poison "
        "(dies at dawn all the same), kill (dies now), love (a lover), charm (kills on them fail and "
        "they do nothing tonight), block (they do nothing tonight), jail (of the card's `jails` "
        "teams: does nothing until the jailer is out), note (only noted, or the card's `leaves`).",
    },
    "announce": {
        "type": "string",
        "enum": ["deaths"],
        "description": "Narrator page: here it announces who died, from the night's choices.",
    },
    "if-died": ids(
        "Narrator page: read this step only when a player who has just died (at this dawn, "
        "or by the vote or shot just now) held one of these cards or carried one of these reminders.",
        one=True,
    ),
    "if-deaths": {
        "type": "boolean",
        "description": "Narrator page: read this step only when someone has just died (true) or only when "
        "nobody has (false).",
    },
    "secret-role": {
        "type": "string",
        "enum": ["choose"],
        "description": "Narrator page: the player named here tells the page their secret role on its "
        "private screen (the Mayor's card from the middle).",
    },
    "if-secret": ids(
        "Narrator page: this step's secret (the word, its letters) is shown only when the "
        "secret role is one of these cards; otherwise the page shows nothing for as long.",
        one=True,
    ),
    "winners": ids(
        "Narrator page: the game ends at this step, and the page asks which of these teams won.", at_least=1
    ),
}

DEFS: dict = {
    "text": {
        "type": "object",
        "description": "A text in every language of the game, by language code.",
        "propertyNames": {"pattern": LANG_PATTERN},
        "additionalProperties": {"type": "string"},
        "minProperties": 1,
    },
    "short-text": {
        "type": "object",
        "description": "A shorter form of a text, in any of the game's languages (none need have one), by "
        "language code.",
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
    "id": {"type": "string", **ID_KEYS},
    "range": {
        "type": "object",
        "description": "From min to max, whole numbers.",
        "required": ["min", "max"],
        "additionalProperties": False,
        "properties": {"min": {"type": "integer", "minimum": 1}, "max": {"type": "integer", "minimum": 1}},
    },
    "back": {
        "type": "object",
        "description": "A back design: title, emblem, tiled pattern and colour.",
        "additionalProperties": False,
        "properties": {
            "title": {"$ref": "#/$defs/text"},
            "symbol": {"$ref": "#/$defs/file"},
            "pattern": {"$ref": "#/$defs/file"},
            "color": {"$ref": "#/$defs/color"},
        },
    },
    "group": {
        "type": "object",
        "description": "A kind of card: its name, size, layout, back, and how its cards are made.",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {
            "name": {"$ref": "#/$defs/text"},
            "size": {"type": "string", "description": "A size from templates/card-sizes.yaml."},
            "layout": {"type": "string", "enum": LAYOUTS},
            "team": {"$ref": "#/$defs/id"},
            "back": {"$ref": "#/$defs/back"},
            "derive": {
                "type": "object",
                "description": "One card per card of another group, with its name and symbol.",
                "required": ["from", "ability"],
                "additionalProperties": False,
                "properties": {
                    "from": {"$ref": "#/$defs/id"},
                    "ability": {"$ref": "#/$defs/text"},
                },
            },
            "words": {
                "type": "object",
                "description": "Cards made from word lists, one file per language.",
                "required": ["file", "per-card"],
                "additionalProperties": False,
                "properties": {
                    "file": {
                        "type": "string",
                        "pattern": r"\{lang\}",
                        "description": "A path inside the game folder with {lang} in it.",
                    },
                    "per-card": {
                        "type": "object",
                        "propertyNames": ID_KEYS,
                        "additionalProperties": {"type": "integer", "minimum": 1},
                        "minProperties": 1,
                    },
                },
            },
        },
    },
    "step": {
        "type": "object",
        "description": "One step of the script: a line to read aloud (say), a silent instruction (do), "
        "where the role wake-ups go (roles), or, in the setup, where the cards are dealt (deal); "
        "`if` limits it to games with one of those cards, `if-all` to games with all of them, "
        "`unless` to games with none of them; all that are given must hold.",
        "additionalProperties": False,
        "properties": {
            "say": {"$ref": "#/$defs/text"},
            "do": {"$ref": "#/$defs/text"},
            "roles": {"type": "string", "enum": ["first-night", "night"]},
            "deal": {
                "type": "boolean",
                "description": "Setup only: here the setup's cards are dealt (the exact cards for "
                "--players N; otherwise the rulebook's setup table).",
            },
            "if": {"type": ["string", "array"], "items": {"$ref": "#/$defs/id"}},
            "if-all": ids("Keeps the step only in games with every one of these cards.", one=True),
            "unless": ids("Leaves the step out of games with any of these cards.", one=True),
            "version": {
                "$ref": "#/$defs/id",
                "description": "In the setup or a card's night call (not in a version's phases): the step "
                "belongs to this version of the script alone.",
            },
            "night": {
                "type": "string",
                "enum": ["first", "other"],
                "description": "Read on the first night only (first), or on every night after it (other).",
            },
            "from-night": {
                "type": "integer",
                "minimum": 2,
                "description": "Read from this night on (3: from the third night); the PDF script marks it.",
            },
            "if-tailored": {
                "type": "boolean",
                "description": "Read this step only in a script for one table (true: --players, "
                "--setup or --roles, or a table chosen on the narrator page), or only "
                "in the one for the whole box and in the rulebook (false).",
            },
            "up-to-players": {
                "type": "integer",
                "minimum": 1,
                "description": "Read this step at a table of at most this many players (the whole box's "
                "script and the rulebook keep it), e.g. an option the rules give small tables only.",
            },
            **STEP_MARKS,
        },
    },
    "night-lines": {
        "type": "object",
        "description": "A card's own lines at its night call in one version of the script, with their marks: "
        "they stand in for the card's `say`, `do` and marks there (a key left out is not read).",
        "additionalProperties": False,
        "minProperties": 1,
        "properties": {"say": {"$ref": "#/$defs/text"}, "do": {"$ref": "#/$defs/text"}, **STEP_MARKS},
    },
    "parts": {
        "type": "array",
        "description": "A section's text in reading order: parts from the sources (text) and our own "
        "choices (house), which are printed with the house-rule mark.",
        "minItems": 1,
        "items": {
            "type": "object",
            "additionalProperties": False,
            "minProperties": 1,
            "properties": {"text": {"$ref": "#/$defs/text"}, "house": {"$ref": "#/$defs/text"}},
        },
    },
    "setup": {
        "type": "object",
        "required": ["players", "cards"],
        "additionalProperties": False,
        "properties": {
            "name": {"$ref": "#/$defs/text"},
            "players": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 1}},
            "cards": {
                "type": "object",
                "description": "Per card id (or a team, group or pool to choose that many cards from): "
                "one number for every player count, or one per count.",
                "propertyNames": ID_KEYS,
                "additionalProperties": {"type": ["integer", "array"], "items": {"type": "integer", "minimum": 0}},
            },
            "fill": {"$ref": "#/$defs/id"},
            "pools": {
                "type": "object",
                "description": "Per id that `cards` counts instead of a card: the cards it is chosen from "
                "(without a pool, a team's or group's id chooses from every card of it in the box).",
                "propertyNames": ID_KEYS,
                "additionalProperties": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/id"}},
            },
            "extra": {"type": "integer", "minimum": 0},
            "house": {"type": "boolean", "description": "The table is ours, not the sources'."},
            "house-rows": {
                "type": "array",
                "items": {"$ref": "#/$defs/id"},
                "uniqueItems": True,
                "description": "The rows (ids `cards` or `fill` counts) that are ours in a table of the "
                "sources': the rulebook marks them.",
            },
            "house-players": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "uniqueItems": True,
                "description": "The player counts (of `players`) whose rows are ours in a table of the "
                "sources': the rulebook marks their columns.",
            },
            "origin": {
                "type": "string",
                "enum": ["community"],
                "description": "community: a setup widely played by groups, neither the sources' nor "
                "ours; the rulebook prints it in its own table, marked.",
            },
        },
    },
    "table-rule": {
        "type": "object",
        "required": ["of", "says"],
        "additionalProperties": False,
        "description": "A constraint of a legal table, checked for --roles, --players/--with and the "
        "narrator page's setup: exactly one of at-most, at-least, exactly, from-players, never-with.",
        "properties": {
            "of": ids("The card, team and group ids whose cards the rule counts.", at_least=1),
            "says": {"$ref": "#/$defs/text", "description": "The rule in words: the warning a table breaking it gets."},
            **{
                kind: {
                    "type": ["integer", "array"],
                    "minimum": 0,
                    "items": {"type": "integer", "minimum": 0},
                    "description": what + " (one number, or one per count of `players`).",
                }
                for kind, what in (
                    ("at-most", "No more of these cards than this"),
                    ("at-least", "None of these cards, or at least this many"),
                    ("exactly", "Exactly this many of these cards"),
                )
            },
            "from-players": {
                "type": "integer",
                "minimum": 1,
                "description": "None of these cards at a table of fewer players.",
            },
            "never-with": ids("Card, team and group ids none of whose cards plays beside these.", at_least=1),
            "players": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "integer", "minimum": 1},
                "description": "The player counts a count holds at; without it, every count.",
            },
            "house": {"type": "boolean", "description": "Our rule, not the sources': the warning says so."},
        },
    },
}
