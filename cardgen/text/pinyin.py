"""Pinyin over Chinese names (--pinyin): a Chinese text in, one reading a character out, from pypinyin.

pypinyin reads a name as a phrase (长老 is zhǎng lǎo, not cháng lǎo) and marks the tones on the
vowels (Style.TONE), as learners' books print it. Characters that are not Chinese (a space, the
middle dot of 阿比盖尔·威廉斯) get no reading. pypinyin is imported only when a build asks for
pinyin: its dictionaries take a noticeable time to load.
"""

from __future__ import annotations

from functools import cache

# The language whose texts get pinyin (its primary subtag: zh, zh-Hans and zh-Hant alike).
CHINESE = "zh"

# Words of the bundled names that pypinyin's dictionary reads wrongly: in transliterated names 塞 is
# sài, 缪 miù and 勒 lè; 护士 ends in a neutral tone; 猜中 is hitting the mark, zhòng.
_CORRECTIONS = {"塞缪尔": "sài miù ěr", "伯勒斯": "bó lè sī", "护士": "hù shi", "猜中": "cāi zhòng"}


def has_chinese(lang: str) -> bool:
    return lang.replace("_", "-").split("-")[0] == CHINESE


@cache
def readings(text: str) -> tuple[str, ...]:
    """The reading of each character of text, "" for characters that have none."""
    from pypinyin import Style, pinyin

    _correct()
    # pypinyin takes a list from `errors` (its documented use), though its stubs allow only text.
    found = [reading[0] for reading in pinyin(text, style=Style.TONE, errors=_unread)]  # type: ignore[arg-type]
    if len(found) == len(text):
        return tuple(found)
    # pypinyin keeps a run of characters it cannot read together; read them one by one to stay aligned.
    return tuple(pinyin(ch, style=Style.TONE, errors=_unread)[0][0] for ch in text)  # type: ignore[arg-type]


def _unread(chars: str) -> list[str]:
    """No reading for each character pypinyin has none for."""
    return [""] * len(chars)


@cache
def _correct() -> None:
    """Teach pypinyin the corrected words, once."""
    from pypinyin import load_phrases_dict

    load_phrases_dict({word: [[syllable] for syllable in reading.split()] for word, reading in _CORRECTIONS.items()})
