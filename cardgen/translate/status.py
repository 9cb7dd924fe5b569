"""How far each translation is: texts (a game's, or cardgen's own words) and languages in, a ``Share`` per
language out (how many texts it has of how many, and which it lacks), and those as the lines
`cardgen translate status` prints."""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.translate.po import forms
from cardgen.translate.texts import Text


@dataclass(frozen=True)
class Share:
    lang: str
    done: int
    total: int
    missing: tuple[Text, ...]
    source: bool = False  # the language the texts are translated from

    @property
    def percent(self) -> int:
        """Whole per cent, rounded down: 100 only when nothing is missing."""
        return 100 * self.done // self.total if self.total else 100


def shares(found: list[Text], languages: list[str]) -> list[Share]:
    """Each language's share of `found`; the languages any text is written in come after `languages`."""
    source = found[0].source if found else None
    written = dict.fromkeys([*languages, *(lang for text in found for lang in text.values)])
    result = []
    for lang in written:
        missing = tuple(text for text in found if not text.done(lang, forms(lang)))
        result.append(Share(lang, len(found) - len(missing), len(found), missing, lang == source))
    return result


def lines(title: str, found: list[Share], only: str | None, details: bool) -> list[str]:
    """A heading and a line per language (or just `only`), with `details` each missing text's place."""
    out = [title]
    for share in found:
        if only is not None and share.lang != only:
            continue
        note = " (source)" if share.source else ""
        out.append(f"  {share.lang:<6} {share.percent:>3}%  {share.done} of {share.total}{note}")
        if details:
            out += [f"    {text.shown}:{text.line}: {text.key.partition(':')[2]}" for text in share.missing]
    return out
