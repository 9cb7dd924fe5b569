"""The moderator script as a PDF's values: a resolved Deck and one Tonight in; the script template's
values out, the lines of :mod:`script_lines` that apply tonight, as printed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.core.phrases import fill
from cardgen.deck.model import Deck
from cardgen.deck.tonight import Tonight
from cardgen.documents.script_lines import Line, check_text, deal_line, lines, marked


def nights_mark(line: Line, text: Mapping) -> str:
    """What a line read on some nights only says of them, after its text."""
    if line.since.first_only:
        return text["first_night_mark"]
    if line.since.from_night:
        return fill(text["from_night"], text.get("digits"), n=line.since.from_night)
    return ""


def context(deck: Deck, text: Mapping, tonight: Tonight) -> dict:
    """The script template's values: the lines that apply tonight, as printed."""
    script = deck.checked_script
    made = {"deal": deal_line(deck, tonight, text), "check": check_text(deck, tonight.in_play, text)}
    versions: list[dict[str, Any]] = []
    # A version only the narrator page runs needs nobody to read it: the PDF leaves it out.
    for version in (version for version in lines(deck, text) if not version.page_only):
        phases = [
            {
                "title": phase.title,
                "kind": phase.kind,
                "steps": [
                    {
                        "kind": "do" if line.kind == "deal" else line.kind,
                        "text": marked(made.get(line.kind, line.text), line.marks, text) + nights_mark(line, text),
                        "house": line.marks.house,
                    }
                    for line in phase.lines
                    if line.applies(tonight.in_play, tonight.players is not None, tonight.players)
                ],
            }
            for phase in version.phases
        ]
        versions.append({"name": version.name, "phases": phases})
    house = any(line["house"] for version in versions for phase in version["phases"] for line in phase["steps"])
    return {
        "game": {"name": deck.name.value},
        "t": text,
        "digits": text.get("digits"),  # the numbers the template prints are in them
        "title": script.title.value if script.title else text["script"],
        "setup": tonight.label,
        "legend": f"{text['house_mark']} {text['house_legend']}" if house else "",
        "versions": versions,
    }
