"""The narrator page: a resolved Deck, cardgen's phrases and the build's Tonight in; one HTML file out.

The page runs the night aloud in the browser from the script's own lines
(``script_lines.lines``): every line with the cards it needs in play, which the page
filters for the cards ticked on its setup screen exactly as ``script.context``
filters them for the PDF. Its setup screen starts from the build's Tonight
(``--players``, ``--setup``, ``--with``). Everything is in the one file: the
deck's data as JSON in a ``<script type="application/json">`` block, and the
page's script and style from templates/narrator/, allowed by the
Content-Security-Policy through their hashes, which forbids every request. The
style starts with the page's fonts: subsets of the bundled fonts holding every
character the page can draw (cardgen/text/webfonts.py), as data: URLs, so that
Chinese and Vietnamese read on a phone that has no font for them. A right-to-left page (Persian,
Arabic, Hebrew) says so on its <html> and adds a style and a script of its own (RTL_STYLE, RTL_SCRIPTS).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardgen.deck.model import NOT, Card, Deck
from cardgen.deck.schema_defs import REMINDERS
from cardgen.deck.tonight import Tonight
from cardgen.documents import script_lines, templating
from cardgen.text.initials import initials

if TYPE_CHECKING:
    from cardgen.text.fonts import FontBook

# Marks the page reads, by the key it reads them under; a default value is left out of the page.
_MARKS = {
    "deadly": "deadly",
    "house": "house",
    "timer": "timer",
    "pause": "pause",
    "secret_word": "word",
    "if_guessed": "guessed",
    "if_tailored": "tailored",
    "choices": "choices",
    "announce": "announce",
    "if_died": "died",
    "if_deaths": "deaths",
    "secret_role": "secretRole",
    "if_secret": "ifSecret",
    "winners": "winners",
    "up_to_players": "upTo",
}


# The page's scripts, in the order they go into its one <script>: the game's rules, then the page (its
# core, the seat circle, the deaths and the end, the setup screen), which starts once all are read.
SCRIPTS = ("rules.js", "narrator.js", "circle.js", "day.js", "setup.js")
# What a right-to-left page (FontBook.is_rtl) adds: ahead of the scripts, the one that writes its numbers in
# the language's digits; after narrator.css, the style that restates its left sides as the side a line
# starts on. The files every page has keep their left-to-right sides and digits, and those pages their bytes.
RTL_SCRIPTS = ("digits.js",)
RTL_STYLE = "rtl.css"


class PageError(ValueError):
    """A narrator template that cannot go into the page as it is."""


def _line(line: script_lines.Line) -> dict:
    out: dict[str, Any] = {"kind": line.kind, "text": line.text}
    for key, name in _MARKS.items():
        value = getattr(line.marks, key)
        # if-guessed, if-tailored and if-deaths: false is a condition, not a default.
        if value not in (None, (), False if key not in ("if_guessed", "if_tailored", "if_deaths") else None):
            out[name] = list(value) if isinstance(value, tuple) else value
    if line.when:
        out["when"] = [list(clause) for clause in line.when]
    for key in ("card", "part"):
        if getattr(line, key):
            out[key] = getattr(line, key)
    # Only a line read on some nights says so: a page of a deck without them stays as it was.
    if line.since.first_only:
        out["firstNight"] = True
    if line.since.from_night:
        out["fromNight"] = line.since.from_night
    return out


def _camel(rules: tuple[tuple[str, object], ...]) -> dict:
    """Rule data as rules.js reads it: keys in camelCase, lists as lists."""
    return {
        key.split("-")[0] + "".join(word.title() for word in key.split("-")[1:]): list(value)
        if isinstance(value, tuple)
        else value
        for key, value in rules
    }


def _card_rules(card: Card) -> dict:
    """A card's rules, and whether its call wakes a group whose choice is one (the werewolves, a gang);
    nothing for a card without either."""
    together = any(script.group for script in card.scripts)
    rules = {**_camel(card.rules), **({"together": True} if together else {})}
    return {"rules": rules} if rules else {}


def _cards(deck: Deck, versions: tuple[script_lines.VersionLines, ...]) -> list[dict]:
    """The cards a table chooses from: those that a line needs (or needs left out), and every card
    of the groups that the setups deal from or that wake at night (a designer's new role among them)."""
    dealt = {card_id for setup in deck.setups for deal in setup.deals for card_id in deal}
    dealt |= {card_id for setup in deck.setups for pool in setup.pools.values() for card_id in pool}
    groups = {card.group.id for card in deck.cards if card.id in dealt or card.night_order is not None}
    wanted = {card.id for card in deck.cards if card.group.id in groups}
    wanted |= {
        card_id.removeprefix(NOT)
        for version in versions
        for phase in version.phases
        for line in phase.lines
        for clause in line.when
        for card_id in clause
    }
    return [
        {
            "id": card.id,
            "name": card.name.value,
            "team": card.team.id if card.team else None,
            "group": card.group.id,
            "count": card.count,
            "wakes": card.night_order is not None,
            **({"extra": card.extra_cards} if card.extra_cards else {}),
            **_card_rules(card),
        }
        for card in deck.cards
        if card.id in wanted
    ]


def _words(deck: Deck) -> dict[str, list[str]]:
    """The language's word list by level, from the word cards, in the list's order."""
    words: dict[str, list[str]] = {}
    for card in deck.cards:
        for level, word in card.words:
            words.setdefault(level, []).append(word.value)
    return words


def _initials(words: dict[str, list[str]], lang: str) -> dict[str, str]:
    """The Fortune Teller's letters of each word, made here once so that the page has nothing to work out."""
    return {word: initials(word, lang) for level in words.values() for word in level}


def _tonight(tonight: Tonight) -> dict:
    """The build's table, where the setup screen starts: the setup, the player count and the cards
    added to the setup's row, in the order they were added."""
    if tonight.players is None:
        return {"setup": None, "players": None, "with": [], "roles": None}
    if tonight.chosen:
        # Named card by card (--roles): the page deals exactly these, as worked out here.
        return {
            "setup": tonight.setup.id if tonight.setup else None,
            "players": tonight.players,
            "with": [],
            "roles": {
                "dealt": list(tonight.dealt.items()),
                "beside": list(tonight.beside.items()),
                "extra": tonight.extra,
            },
        }
    row = tonight.checked_setup.deal(tonight.players)
    # The fill card only ever gives seats away, or grows by a card's extra cards; a card beside the deal
    # (a title) is in play without a seat.
    added = [
        card_id
        for card_id, n in tonight.dealt.items()
        if card_id != tonight.checked_setup.fill
        for _ in range(n - row.get(card_id, 0))
    ]
    added += sorted(tonight.beside)
    return {"setup": tonight.checked_setup.id, "players": tonight.players, "with": added, "roles": None}


def data(deck: Deck, text: Mapping, page_text: Mapping, settings: Mapping, tonight: Tonight) -> dict:
    """Everything the page knows about the deck, in the deck's language."""
    versions = script_lines.lines(deck, text)
    script_title = deck.checked_script.title
    words = _words(deck)
    return {
        "game": deck.game,
        "lang": deck.lang,
        "name": deck.name.value,
        "title": script_title.value if script_title else text["script"],
        "versions": [
            {
                "id": version.id,
                "name": version.name,
                **({"pageOnly": True} if version.page_only else {}),
                "phases": [
                    {"title": phase.title, "kind": phase.kind, "lines": [_line(line) for line in phase.lines]}
                    for phase in version.phases
                ],
            }
            for version in versions
        ],
        "cards": _cards(deck, versions),
        "all": [card.id for card in deck.cards],
        "teams": [
            {"id": team.id, "name": team.name.value, "color": team.color}
            for team in dict.fromkeys(card.team for card in deck.cards if card.team)
        ],
        "setups": [
            {
                "id": setup.id,
                "name": setup.name.value if setup.name else setup.id,
                "players": list(setup.players),
                "deals": [list(deal.items()) for deal in setup.deals],
                "fill": setup.fill,
                "extra": setup.extra,
                **(
                    {"choose": [list(row.items()) for row in setup.choose], "pools": dict(setup.pools)}
                    if setup.pools
                    else {}
                ),
            }
            for setup in deck.setups
        ],
        "rules": [
            {
                "says": rule.says.value,
                "kind": rule.kind,
                "cards": list(rule.cards),
                "numbers": list(rule.numbers),
                "players": list(rule.players),
                "others": list(rule.others),
            }
            for rule in deck.table_rules
        ],
        "dealTable": script_lines.deal_line(deck, Tonight(frozenset(), ""), text),
        "players": list(deck.rulebook.players) if deck.rulebook else None,
        "tonight": _tonight(tonight),
        "deadRoles": deck.night.dead_roles,
        # rules.js's game.rules: the night's rules, and how long each reminder lasts.
        "gameRules": {**_camel(deck.night.rules), "reminders": REMINDERS},
        "winCheck": [
            {"text": part.wording, **({"when": [list(clause) for clause in part.condition]} if part.condition else {})}
            for part in deck.checked_script.win_check
        ],
        "stops": script_lines.FULL_WIDTH_STOPS,
        "words": words,
        "initials": _initials(words, deck.lang),
        "settings": dict(settings),
        "t": {
            **{
                key: text[key]
                for key in (
                    "deal_item",
                    "list_separator",
                    "setup_for",
                    "roles_for",
                    "all_cards",
                    "win_check",
                    "colon",
                    "deal_cards",
                    "deal_choose",
                    "deal_one",
                    "deal_each",
                    "deal_extra_one",
                    "deal_extra",
                )
            },
            **page_text,
        },
    }


def _hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


def _json(values: dict) -> str:
    """JSON that cannot end its script block or open markup: every <, > and & is written as an escape."""
    text = json.dumps(values, ensure_ascii=False, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def _fonts(book: FontBook, lang: str, values: dict, sources: tuple[str, ...]) -> str:
    """The page's fonts, as CSS to put before its style: @font-face rules carrying (as data: URLs) the
    language's families cut to every character the page can draw, the page's data and what its script
    and style write themselves (on a right-to-left page, the digits of its first family too: digits.js
    writes numbers in those the browser gives the language), and --cardgen-fonts, the list naming them
    that narrator.css puts before the system's fonts. A name typed at the table or a voice's name may
    still need a system font."""
    from cardgen.text import webfonts

    order = list(book.order(lang))
    chars = webfonts.data_characters(values).union(*map(webfonts.source_characters, sources))
    if book.is_rtl(lang):
        chars |= webfonts.digits(book, order[0])
    faces = webfonts.web_faces(book, order, chars)
    families = webfonts.css_families(dict.fromkeys(face.family for face in faces))
    return webfonts.font_face_rules(faces, webfonts.data_url) + f":root {{ --cardgen-fonts: {families}; }}\n"


def page(
    deck: Deck,
    text: Mapping,
    page_text: Mapping,
    settings: Mapping,
    tonight: Tonight,
    read: Callable[[str], str],
    template_dirs,
    book: FontBook,
    language_style: str = "",
) -> bytes:
    """The page's HTML. `page_text` is templates/narrator/text.yaml in the deck's language (and the
    language's name), `settings` templates/narrator/narrator.yaml; `read` gives the text of a file in
    templates/narrator/ (the script and the style); `book` the fonts the page carries subsets of;
    `language_style` the CSS its language adds (templates/languages/)."""
    from markupsafe import Markup

    rtl = book.is_rtl(deck.lang)
    sources = {f"narrator/{name}": read(name) for name in (*(RTL_SCRIPTS if rtl else ()), *SCRIPTS)}
    styles = {f"narrator/{name}": read(name) for name in ("narrator.css", *((RTL_STYLE,) if rtl else ()))}
    if language_style:
        styles[f"languages/{deck.lang}.css"] = language_style
    code, style = "\n".join(sources.values()), "".join(styles.values())
    for name, source, end in (
        *((name, source, "</script") for name, source in sources.items()),
        *((name, source, "</style") for name, source in styles.items()),
    ):
        if end in source.lower():
            raise PageError(f"templates/{name} contains '{end}', which would end it early in the page")
    values = data(deck, text, page_text, settings, tonight)
    encoded = json.dumps(values, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    values["id"] = hashlib.sha256(encoded.encode()).hexdigest()[:16]
    style = _fonts(book, deck.lang, values, (code, style)) + style
    csp = "; ".join(
        [
            "default-src 'none'",
            f"script-src {_hash(code)}",
            f"style-src {_hash(style)}",
            "font-src data:",
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )
    # The script, the style and the escaped JSON go in as they are: autoescape would break them.
    html = templating.render(
        template_dirs,
        "page.html.j2",
        {
            "lang": deck.lang,
            "dir": "rtl" if rtl else None,
            "title": f"{deck.name.value} · {values['title']}",
            "csp": csp,
            "data": Markup(_json(values)),
            "code": Markup(code),
            "style": Markup(style),
            "loading": page_text["loading"],
        },
    )
    return html.encode()
