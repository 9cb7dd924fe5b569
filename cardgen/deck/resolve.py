"""Stage 3, resolve: validated game files and build options in, a frozen Deck out.

``resolve_deck`` picks the build's language (falling back to English where a
translation is missing; validation has already warned about it; a pair such as
vi+en is the first language's deck with the second's beside it), the card size,
and the printing order of the cards, and checks every character against the
fonts, so that nothing downstream meets a missing translation, an unresolved
option or a glyph that would print as an empty box: such characters are
reported as problems, with the exact line they stand on.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from cardgen.core.phrases import fallback_language
from cardgen.core.problems import Problem, Where
from cardgen.core.units import Size
from cardgen.deck import table_rules
from cardgen.deck.load import GameFiles
from cardgen.deck.model import (
    NIGHTS,
    Art,
    Back,
    BackFace,
    Card,
    Deck,
    Group,
    NightCall,
    Nights,
    NightScript,
    Part,
    Phase,
    Rulebook,
    Script,
    ScriptVersion,
    Section,
    Setup,
    Step,
    Team,
    Text,
)
from cardgen.deck.resolve_plain import frozen_rules, ids, night_rules, step_marks
from cardgen.deck.setups import pools, setup_cards
from cardgen.deck.yaml_doc import Doc, KeyPath

# A back a deck gives no colour: light, so that it costs little ink (about 30 % coverage).
DEFAULT_BACK = "#d8cfbd"


class GlyphCoverage(Protocol):
    def missing(self, text: str, lang: str) -> list[str]: ...

    def lacking(self, lang: str) -> str: ...


class _Resolver:
    def __init__(self, files: GameFiles, lang: str, fonts: GlyphCoverage):
        self.files = files
        self.lang = lang
        self.fonts = fonts
        self.problems: list[Problem] = []
        self.told_lacking = False
        self.fallback = fallback_language(list(files.checked_game.data["languages"]))
        self.resolved: dict[tuple[Path, str], Path] = {}  # the cards of a deck share a few symbols

    def text(self, doc: Doc, path: KeyPath) -> Text:
        """The text in the build's language, or English, at path (a language mapping)."""
        texts: dict = doc.get(path)
        # An empty text (a TODO of cardgen new) falls back too; validation has warned about it.
        return self.plain(doc, path + (self.lang if (texts.get(self.lang) or "").strip() else self.fallback,))

    def plain(self, doc: Doc, path: KeyPath) -> Text:
        """The string at path, NFC, with every character checked against the fonts."""
        value = unicodedata.normalize("NFC", str(doc.get(path)))
        for char in self.fonts.missing(value, self.lang):
            lacking = self.fonts.lacking(self.lang)
            if lacking and self.told_lacking:
                break  # a language whose fonts are not installed is said once, not at every text
            self.told_lacking = bool(lacking)
            where = Where(doc.file, doc.text_line(path, value[: value.index(char)].count("\n")))
            self.problems.append(
                Problem(
                    where,
                    f"{'.'.join(map(str, path))}: character U+{ord(char):04X} "
                    f"{unicodedata.name(char, '(unnamed)')} '{char}' is in none of the "
                    + (f"installed fonts; {lacking}" if lacking else "fonts"),
                )
            )
        return Text(value, doc.where(path))

    def file(self, value: Any, doc: Doc | None = None) -> Path | None:
        """The file an optional key names, or None."""
        return self.path(value, doc) if value else None

    def path(self, value: Any, doc: Doc | None = None) -> Path:
        """The file a key names, relative to the folder its document's paths start in."""
        folder = self.files.folder_of(doc) if doc else self.files.folder
        key = (folder, str(value))
        if key not in self.resolved:
            self.resolved[key] = (folder / value).resolve()
        return self.resolved[key]


def _group_spec(value: Any) -> tuple[dict, KeyPath]:
    """A group's mapping and the path of its name, whether it was written as just a name or in full."""
    if isinstance(value, dict) and isinstance(value.get("name"), dict):
        return value, ("name",)
    return {"name": value}, ()


class AnyGlyph:
    """Glyph coverage that finds nothing missing: for a deck read without drawing it (listings, the
    table of a tailored build), which needs no fonts."""

    def missing(self, text: str, lang: str) -> list[str]:
        return []

    def lacking(self, lang: str) -> str:
        return ""


def language_pair(lang: str) -> tuple[str, ...]:
    """The languages a build's language names: ("vi",) for vi, ("vi", "en") for bilingual vi+en."""
    return tuple(lang.split("+"))


def resolve_deck(
    files: GameFiles, lang: str, card_size: str | None, card_sizes: dict[str, dict], fonts: GlyphCoverage
) -> tuple[Deck, list[Problem]]:
    """One language of a game that validated without errors, and the characters no font has.

    The deck comes back even with such problems, so that later stages can
    report theirs too before the build stops. `card_size` (the --card-size
    option) replaces the game's default size, not a group's own. A pair (vi+en)
    is the first language's deck with the second's beside it (Deck.second),
    each text checked against the fonts of its own language.
    """
    first, *second = language_pair(lang)
    deck, problems = _resolve_one(files, first, card_size, card_sizes, fonts)
    if second:
        other, found = _resolve_one(files, second[0], card_size, card_sizes, fonts)
        deck = replace(deck, second=other)
        problems += found
    return deck, problems


def _resolve_one(
    files: GameFiles, lang: str, card_size: str | None, card_sizes: dict[str, dict], fonts: GlyphCoverage
) -> tuple[Deck, list[Problem]]:
    r = _Resolver(files, lang, fonts)
    game = files.checked_game
    data = game.data
    teams = {
        team_id: Team(
            team_id,
            r.text(game, ("teams", team_id, "name")),
            spec["color"],
            r.file(spec.get("edge")),
            r.file(spec.get("mark")),
        )
        for team_id, spec in data["teams"].items()
    }
    default_size = card_size or data.get("card-size", "poker")
    game_back = data.get("back", {})

    def back(spec: dict, path: KeyPath) -> Back:
        merged = {**game_back, **spec}
        title_path = path + ("title",) if "title" in spec else ("back", "title") if "title" in game_back else ("name",)
        return Back(
            r.text(game, title_path),
            merged.get("color", DEFAULT_BACK),
            r.file(merged.get("symbol")),
            r.file(merged.get("pattern")),
        )

    groups: dict[str, Group] = {}
    for group_id, value in data.get("groups", {}).items():
        spec, name_path = _group_spec(value)
        size_name = spec.get("size", default_size)
        size = card_sizes[size_name]
        groups[group_id] = Group(
            id=group_id,
            name=r.text(game, ("groups", group_id) + name_path),
            size_name=size_name,
            size=Size(float(size["width"]), float(size["height"])),
            shape=size.get("shape", "rect"),
            layout=spec.get("layout", "role"),
            team=teams.get(spec.get("team")),
            back=back(spec.get("back", {}), ("groups", group_id, "back")),
        )

    cards = [_written_card(r, card_id, doc, groups, teams) for card_id, doc in files.cards.items()]
    for group_id, value in data.get("groups", {}).items():
        spec, _ = _group_spec(value)
        if "derive" in spec:
            cards += _derived_cards(r, game, groups[group_id], spec["derive"], cards)
        if "words" in spec:
            cards += _word_cards(r, files, groups[group_id], spec["words"])
    # Print by group, then team, as the game file lists them, so a sheet holds one kind of card.
    group_order, team_order = list(groups), list(teams)
    cards.sort(
        key=lambda c: (group_order.index(c.group.id), team_order.index(c.team.id) if c.team else len(team_order), c.id)
    )
    sources = files.sources
    # Setups and table rules may count a team or a group: what each card is of.
    kinds = {card.id: (card.team.id if card.team else None, card.group.id) for card in cards}
    deck = Deck(
        game=files.id,
        lang=lang,
        languages=tuple(data["languages"]),
        name=r.text(game, ("name",)),
        groups=tuple(groups.values()),
        cards=tuple(cards),
        sources=sources,
        rulebook=_rulebook(r, files.extra.get("rulebook.yaml")),
        script=_script(r, files.extra.get("script.yaml")),
        setups=tuple(_setup(r, game, setup_id, spec, kinds) for setup_id, spec in data.get("setups", {}).items()),
        table_rules=table_rules.resolved(game, lambda path: r.text(game, path), kinds),
        night=night_rules(data.get("night", {})),
        author=data.get("author", ""),
    )
    return deck, r.problems


def _step(r: _Resolver, doc: Doc, path: KeyPath) -> Step:
    spec = doc.get(path)
    when, when_all, unless = (ids(spec.get(key, ())) for key in ("if", "if-all", "unless"))
    common = {
        "when": when,
        "when_all": when_all,
        "unless": unless,
        "marks": step_marks(spec),
        "version": spec.get("version"),
        "night": spec.get("night"),
        "from_night": spec.get("from-night"),
    }
    for kind in ("say", "do"):
        if kind in spec:
            return Step(kind, r.text(doc, path + (kind,)), None, **common)
    if spec.get("deal"):
        return Step("deal", None, None, **common)
    return Step("roles", None, spec["roles"], **common)


def _steps(r: _Resolver, doc: Doc, path: KeyPath) -> tuple[Step, ...]:
    return tuple(_step(r, doc, path + (i,)) for i in range(len(doc.get(path))))


def _nights(r: _Resolver, doc: Doc) -> Nights:
    """The short form (one order every night, or the first only) or the full form (first, other: each its own)."""
    spec = doc.data.get("night")
    if not spec:
        return Nights()
    script = _night_script(r, doc, ("night", "script"))
    if "order" in spec:
        call = NightCall(spec["order"], None)
        return Nights(call, None if spec.get("first-night-only") else call, script)
    parts = {
        night: NightCall(spec[night]["order"], _night_script(r, doc, ("night", night, "script")))
        for night in NIGHTS
        if night in spec
    }
    return Nights(parts.get("first"), parts.get("other"), script)


def _night_script(r: _Resolver, doc: Doc, path: KeyPath) -> NightScript | None:
    if path[-1] not in doc.get(path[:-1]):
        return None
    spec = doc.get(path)
    return NightScript(
        call=r.text(doc, path + ("call",)) if "call" in spec else None,
        say=r.text(doc, path + ("say",)) if "say" in spec else None,
        do=r.text(doc, path + ("do",)) if "do" in spec else None,
        before=_steps(r, doc, path + ("before",)) if "before" in spec else (),
        then=_steps(r, doc, path + ("then",)) if "then" in spec else (),
        after=_steps(r, doc, path + ("after",)) if "after" in spec else (),
        group=spec.get("group", False),
        marks=step_marks(spec),
        also_wakes=r.text(doc, path + ("also-wakes",)) if "also-wakes" in spec else None,
        versions=tuple(
            (version, _night_lines(r, doc, path + ("versions", version))) for version in spec.get("versions", {})
        ),
    )


def _night_lines(r: _Resolver, doc: Doc, path: KeyPath) -> NightScript:
    """A card's own lines in one version of the script."""
    spec = doc.get(path)
    return NightScript(
        call=None,
        say=r.text(doc, path + ("say",)) if "say" in spec else None,
        do=r.text(doc, path + ("do",)) if "do" in spec else None,
        marks=step_marks(spec),
    )


def _parts(r: _Resolver, doc: Doc, path: KeyPath) -> tuple[Part, ...]:
    """A section's body: one text from the sources, or its parts in reading order."""
    if isinstance(doc.get(path), dict):
        return (Part(r.text(doc, path)),)
    return tuple(
        Part(r.text(doc, path + (i, kind)), kind == "house")
        for i, part in enumerate(doc.get(path))
        for kind in ("text", "house")
        if kind in part
    )


def _rulebook(r: _Resolver, doc: Doc | None) -> Rulebook | None:
    if doc is None:
        return None
    data = doc.data
    minutes = data.get("minutes")
    return Rulebook(
        players=(data["players"]["min"], data["players"]["max"]),
        minutes=(minutes["min"], minutes["max"]) if minutes else None,
        sections=tuple(
            Section(
                section_id,
                r.text(doc, ("sections", section_id, "title")),
                _parts(r, doc, ("sections", section_id, "body")),
            )
            for section_id in data["sections"]
        ),
    )


def _script(r: _Resolver, doc: Doc | None) -> Script | None:
    if doc is None:
        return None
    data = doc.data
    versions = []
    for version_id, spec in data["versions"].items():
        base = ("versions", version_id)
        phases = tuple(
            Phase(
                r.text(doc, base + ("phases", p, "title")),
                _steps(r, doc, base + ("phases", p, "steps")),
                phase.get("kind"),
            )
            for p, phase in enumerate(spec["phases"])
        )
        versions.append(ScriptVersion(version_id, r.text(doc, base + ("name",)), phases, spec.get("page-only", False)))
    return Script(
        unheld_if=tuple(data.get("unheld-roles-if", ())),
        versions=tuple(versions),
        title=r.text(doc, ("title",)) if "title" in data else None,
        always_held=tuple(data.get("always-held", ())),
        win_check=_win_check(r, doc),
        setup=_steps(r, doc, ("setup",)) if "setup" in data else (),
    )


def _win_check(r: _Resolver, doc: Doc) -> tuple[Step, ...]:
    value = doc.data.get("win-check")
    if value is None:
        return ()
    if isinstance(value, dict):
        return (Step("check", r.text(doc, ("win-check",)), None),)
    return _conditional(r, doc, "win-check")


def _conditional(r: _Resolver, doc: Doc, key: str) -> tuple[Step, ...]:
    """A list of texts, each with the cards of its `if` and `unless` (the win check's parts, a card's
    `in-play-only`)."""
    return tuple(
        Step(
            "check",
            r.text(doc, (key, i, "text")),
            None,
            ids(part.get("if", ())),
            unless=ids(part.get("unless", ())),
        )
        for i, part in enumerate(doc.data.get(key, ()))
    )


def _setup(r: _Resolver, game: Doc, setup_id: str, spec: dict, kinds: table_rules.Kinds) -> Setup:
    chosen = pools(spec, kinds)
    rows = [setup_cards(spec, n) for n in spec["players"]]
    return Setup(
        setup_id,
        r.text(game, ("setups", setup_id, "name")) if "name" in spec else None,
        tuple(spec["players"]),
        tuple({key: n for key, n in row.items() if key not in chosen} for row in rows),
        spec.get("extra", 0),
        spec.get("fill"),
        spec.get("house", False),
        game.where(("setups", setup_id)),
        spec.get("origin") == "community",
        tuple({key: n for key, n in row.items() if key in chosen} for row in rows) if chosen else (),
        chosen,
        tuple(spec.get("house-rows", ())),
        tuple(spec.get("house-players", ())),
    )


def _written_card(r: _Resolver, card_id: str, doc: Doc, groups: dict[str, Group], teams: dict[str, Team]) -> Card:
    spec = doc.data
    group = groups[spec.get("group", "role")]
    back = spec.get("back")
    return Card(
        id=card_id,
        group=group,
        team=teams[spec["team"]] if "team" in spec else group.team,
        count=spec.get("count", 1),
        name=r.text(doc, ("name",)),
        ability=r.text(doc, ("ability",)),
        short=r.plain(doc, ("short-ability", r.lang))
        if spec.get("short-ability", {}).get(r.lang, "").strip()
        else None,
        symbol=r.file(spec.get("symbol"), doc),
        nights=_nights(r, doc),
        layout=spec.get("layout", group.layout),
        extra_cards=spec.get("extra-cards", 0),
        rules=frozen_rules(spec.get("rules", {})),
        in_play_only=_conditional(r, doc, "in-play-only"),
        back_face=BackFace(r.text(doc, ("back", "name")), r.file(back.get("symbol"), doc)) if back else None,
        art=Art(
            r.path(spec["art"]["file"], doc),
            spec["art"].get("fit", "contain"),
            tuple(spec["art"].get("focus", (0.5, 0.5))),
            doc.where(("art", "file")),
        )
        if "art" in spec
        else None,
    )


def _derived_cards(r: _Resolver, game: Doc, group: Group, spec: dict, cards: list[Card]) -> list[Card]:
    """One card of `group` per written card of the group it derives from."""
    path = ("groups", group.id, "derive", "ability")
    template = r.text(game, path)
    return [
        Card(
            id=f"{group.id}-{source.id}",
            group=group,
            team=group.team or source.team,
            count=1,
            name=source.name,
            ability=Text(template.value.replace("{name}", source.name.value), template.where),
            symbol=source.symbol,
            layout=group.layout,
            derived_from=source.id,
        )
        for source in cards
        if source.group.id == spec["from"]
    ]


def _word_cards(r: _Resolver, files: GameFiles, group: Group, spec: dict) -> list[Card]:
    """Cards of `per-card` words from each level of the language's word list, as many as the lists fill."""
    name = spec["file"].replace("{lang}", r.lang)
    doc = files.extra.get(name) or files.extra[spec["file"].replace("{lang}", r.fallback)]
    per_card = spec["per-card"]
    count = min(len(doc.data[level]) // n for level, n in per_card.items())
    cards = []
    for index in range(count):
        words = tuple((level, r.plain(doc, (level, index * n + k))) for level, n in per_card.items() for k in range(n))
        cards.append(
            Card(
                id=f"{group.id}-{index + 1:03d}",
                group=group,
                team=group.team,
                count=1,
                name=Text(str(index + 1), doc.where()),
                ability=Text("", doc.where()),
                symbol=None,
                layout=group.layout,
                words=words,
            )
        )
    return cards
