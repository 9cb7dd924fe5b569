"""The Fortune Teller's letters (Werewords): a secret word and its language in, the letters the card
promises out, capitals separated by spaces.

- Chinese: the pinyin initial of each character (长颈鹿 is cháng jǐng lù: "C J L"), read as a phrase
  by :mod:`cardgen.text.pinyin`.
- Vietnamese: the first letter of each syllable, without its tone mark, which is no part of the
  letter (ảo ảnh: "A A"); Ă, Â, Đ, Ê, Ô, Ơ and Ư are letters of their own and stay (đèn lồng: "Đ L").
- Any other language: the first letter of each word, as written (ice cream: "I C", árbol: "Á").

Words are split at spaces and hyphens (vắc-xin: "V X").
"""

from __future__ import annotations

import re
import unicodedata

from cardgen.text.pinyin import has_chinese, readings

# Vietnamese tone marks, as combining characters: grave, acute, tilde, hook above, dot below.
_VIETNAMESE_TONES = dict.fromkeys(map(ord, "\u0300\u0301\u0303\u0309\u0323"))


def initials(word: str, lang: str) -> str:
    """The first letters of a word, as the Fortune Teller sees them in the language `lang`."""
    if has_chinese(lang):
        letters = [_first(reading or char) for char, reading in zip(word, readings(word)) if not char.isspace()]
        return " ".join(letter for letter in letters if letter)
    parts = [part for part in re.split(r"[\s\-\u2010\u2011]+", word) if part]
    if lang.split("-")[0] == "vi":
        parts = [
            unicodedata.normalize("NFC", unicodedata.normalize("NFD", part).translate(_VIETNAMESE_TONES))
            for part in parts
        ]
    return " ".join(part[0].upper() for part in parts)


def _first(reading: str) -> str:
    """A pinyin syllable's first letter, without its tone mark (ài: "A")."""
    letter = unicodedata.normalize("NFD", reading)[0]
    return letter.upper() if letter.isalnum() else ""
