"""What a PDF says about itself: a deck and what the file holds in, its document information out.

Title, author (game.yaml's ``author``), subject, language and creator (cardgen
and its version), the same for every kind of PDF cardgen writes, so that a
reader's file list and a search in a shared folder show what each file is.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardgen import __version__
from cardgen.deck.model import Deck

CREATOR = f"cardgen {__version__}"


@dataclass(frozen=True)
class Info:
    title: str
    author: str
    subject: str
    lang: str
    creator: str = CREATOR

    def apply(self, canvas) -> None:
        """Onto a ReportLab canvas; its language is a constructor argument (see :meth:`canvas_args`)."""
        canvas.setTitle(self.title)
        canvas.setAuthor(self.author)
        canvas.setSubject(self.subject)
        canvas.setCreator(self.creator)

    def pypdf(self) -> dict[str, str]:
        """As pypdf's add_metadata takes it (the language goes into the catalog: see :func:`set_lang`)."""
        return {"/Title": self.title, "/Author": self.author, "/Subject": self.subject, "/Creator": self.creator}


def of(deck: Deck, title: str, subject: str) -> Info:
    """A deck's file: `title` in the deck's language, `subject` what kind of file it is."""
    return Info(title=title, author=deck.author, subject=subject, lang=deck.lang)


def set_lang(writer, lang: str) -> None:
    """The document's language in a pypdf writer's catalog, as ReportLab writes it."""
    from pypdf.generic import NameObject, TextStringObject

    writer.root_object[NameObject("/Lang")] = TextStringObject(lang)
