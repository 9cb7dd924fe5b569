"""The style sheets (docs/style/vi.md, zh.md, es.md, ja.md, fa.md) held against every text of the bundled
games and of cardgen's own templates, as far as a machine can tell: one tone-mark placement in Vietnamese
and a question that asks, full-width punctuation in Chinese and Japanese, ¿…? and ¡…! in pairs in
Spanish, polite spoken lines and plain cards and instructions in Japanese, Persian letters, punctuation,
digits and non-joiners in Persian, each card named as the style sheet names it and in no other spelling,
one name each for the script, the narrator page, the rulebook and the player aid. Then the same read
back from the built PDFs."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pypdf
import pytest
import yaml

from cardgen.text.pinyin import readings
from conftest import ROOT, run

GAMES = ("werewolf", "werewords", "mafia-vendetta", "salem-1692")
LANGS = ("vi", "zh", "es", "ja", "fa")
# cardgen's own words, one block per language.
TEMPLATE_TEXTS = ("strings.yaml", "documents/text.yaml", "narrator/text.yaml", "site/text.yaml")

# The old placement of a tone mark, on the first vowel of an open oa, oe or uy (hòa, khỏe, thủy),
# where the style sheet puts it on the second (hoà, khoẻ, thuỷ). In qu the u belongs to the
# consonant, and a closed syllable (hoàng, toán, khuyết) has one placement in both styles.
OLD_TONE = re.compile(r"(?<![qQ])(?:[òóỏõọ][ae]|[ùúủũụ]y)(?!\w)", re.IGNORECASE)
# What makes a Vietnamese sentence a question: a question word or a final particle.
ASKING = re.compile(
    r"\b(không|chưa|ai|gì|nào|sao|đâu|mấy|bao nhiêu|bao giờ|chứ|nhỉ|à|hả|hay|phải không)\b", re.IGNORECASE
)
CJK = r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]"
# ASCII punctuation touching a Chinese character or full-width sign (spaces and **bold** between),
# but for the point of a list's number (**1.** 你打出的…).
ASCII_BY_CJK = re.compile(rf"{CJK}[ *]*[,.:;?!()\"]|(?<!\d)[,.:;?!()\"][ *]*{CJK}")
# A space after full-width punctuation, before the next Chinese character: where cardgen joins
# sentences of its own (the setup's deal), Chinese runs on.
SPACE_AFTER_STOP = re.compile(r"[。；：！？，、）] +(?=[\u3400-\u9fff])")
# Japanese adds its kana to the Chinese characters and full-width signs.
JAPANESE = r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]"
ASCII_BY_JAPANESE = re.compile(rf"{JAPANESE}[ *]*[,.:;?!()\"]|(?<!\d)[,.:;?!()\"][ *]*{JAPANESE}")
SPACE_BY_JAPANESE_STOP = re.compile(rf"[。、：！？）」] +(?={JAPANESE})|{JAPANESE} +(?=[。、：！？（「])")
# How a Japanese sentence ends: politely (です・ます) in what the moderator says aloud; never so on a card
# or in an instruction to the moderator, which are in the plain form. A call (「3、2、1、投票！」) is
# neither.
POLITE_END = re.compile(r"(?:ください|ます|ません|です|でした|ました|ましょう|でしょうか|ですか|ますか)[）」]*$")
# What Persian must not hold: the Arabic yeh and kaf (ي ك for ی ک) and Arabic-Indic digits, ASCII digits
# outside a {placeholder}, ASCII , ; ? or quotes where Persian has ، ؛ ؟ « », and the prefix می written
# apart with a space where the non-joiner (U+200C) belongs.
NOT_PERSIAN = {
    "arabic letter": re.compile(r"[يك\u0660-\u0669]"),
    "ascii digit": re.compile(r"[0-9]"),
    "ascii punctuation": re.compile(r"[\u0600-\u06ff][ *]*[,;?]|[,;?][ *]*[\u0600-\u06ff]|[\"“”]"),
    "spaced prefix": re.compile(r"(?<![\w\u200c])ن?می (?=\w)"),
}


def _flatten(value, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(item, f"{where}/{key}")
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from _flatten(item, f"{where}[{number}]")


def _deck_texts(value, lang: str, where: str) -> Iterator[tuple[str, str]]:
    """Every text of a deck file in lang: the lang entry of each mapping from language code to text."""
    if isinstance(value, dict):
        if isinstance(value.get(lang), str) and "en" in value:
            yield where, value[lang]
        for key, item in value.items():
            yield from _deck_texts(item, lang, f"{where}/{key}")
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from _deck_texts(item, lang, f"{where}[{number}]")


def _read(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def game_texts(game: str, lang: str) -> list[tuple[str, str]]:
    deck = ROOT / "decks" / game
    found = []
    for path in sorted(deck.rglob("*.yaml")):
        where = str(path.relative_to(ROOT))
        if path.parent.name == "words":
            if path.stem == lang:
                found += _flatten(_read(path), where)
        else:
            found += _deck_texts(_read(path), lang, where)
    return [(where, unicodedata.normalize("NFC", text)) for where, text in found]


def template_texts(lang: str) -> list[tuple[str, str]]:
    found = []
    for name in TEMPLATE_TEXTS:
        found += _flatten(_read(ROOT / "templates" / name).get(lang, {}), f"templates/{name}")
    return [(where, unicodedata.normalize("NFC", text)) for where, text in found]


def games(lang: str) -> list[str]:
    """The bundled games that have the language."""
    return [game for game in GAMES if lang in _read(ROOT / "decks" / game / "game.yaml")["languages"]]


def all_texts(lang: str) -> list[tuple[str, str]]:
    return [item for game in games(lang) for item in game_texts(game, lang)] + template_texts(lang)


def sentences(text: str) -> list[str]:
    """A Japanese text's sentences, each with its closing brackets, without its final 。, ！ or ？."""
    found = (part.strip() for part in re.findall(r"[^。！？\n]+(?=[。！？\n]|$)", text))
    return [part for part in found if part.strip("）」")]


def spoken_and_written(lang: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The deck texts the moderator says aloud (`say`), and those a card or the moderator reads (an
    ability, a player aid, a `do`), each as (where, text)."""
    spoken, written = [], []
    for where, text in (item for game in games(lang) for item in game_texts(game, lang)):
        key = where.rsplit("/", 1)[-1]
        if key == "say":
            spoken.append((where, text))
        elif key in ("do", "ability", "short-ability"):
            written.append((where, text))
    return spoken, written


def not_persian(text: str) -> list[tuple[str, str]]:
    bare = re.sub(r"\{[^}]*\}", "", text)
    return [(what, m.group()) for what, pattern in NOT_PERSIAN.items() for m in pattern.finditer(bare)]


def old_tones(text: str) -> list[str]:
    return [m.group() for m in OLD_TONE.finditer(unicodedata.normalize("NFC", text))]


def unpaired(text: str) -> list[str]:
    """Each ? or ! without its opening ¿ or ¡ in the same sentence, and each opening left unclosed."""
    wrong, open_ = [], {"?": 0, "!": 0}
    for char in text:
        if char in "¿¡":
            open_["?" if char == "¿" else "!"] += 1
        elif char in "?!":
            if open_[char]:
                open_[char] -= 1
            else:
                wrong.append(char)
    return wrong + ["¿"] * open_["?"] + ["¡"] * open_["!"]


# --- the style sheets' tables ----------------------------------------------------------------------


def sheet(lang: str) -> str:
    return (ROOT / "docs" / "style" / f"{lang}.md").read_text(encoding="utf-8")


def rows(lang: str, first: str) -> list[list[str]]:
    """The rows of the style sheet's table whose header starts with `first`, cells stripped."""
    lines = sheet(lang).splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(f"| {first} |"))
    found = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        found.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return found


def code(cell: str) -> str:
    return cell.strip("`")


def names_table(lang: str) -> dict[tuple[str, str], str]:
    """(game, card) -> our name, from the style sheet's name table."""
    return {(code(game), code(card)): ours for game, card, _en, ours, *_ in rows(lang, "Game")}


def interface_terms(lang: str) -> dict[str, tuple[str, list[str]]]:
    """Thing -> (its one name, the names it must not have), from the style sheet."""
    return {
        code(thing): (name, [word.strip() for word in avoid.split(";") if word.strip()])
        for thing, name, avoid in rows(lang, "Thing")
    }


def cards(game: str) -> dict[str, dict]:
    return {path.stem: _read(path)["name"] for path in sorted((ROOT / "decks" / game / "roles").glob("*.yaml"))}


# --- the texts in the YAML -------------------------------------------------------------------------


def test_vietnamese_places_every_tone_mark_the_one_way_the_style_sheet_chose():
    wrong = [(where, old_tones(text)) for where, text in all_texts("vi") if old_tones(text)]
    assert wrong == []
    # The checker knows both placements, and qu or a closed syllable is never wrong.
    assert old_tones("hòa khỏe thủy Tùy") == ["òa", "ỏe", "ủy", "ùy"]
    assert old_tones("hoà khoẻ thuỷ quý hoàng toán khuyết") == []


def test_a_vietnamese_question_asks_with_a_question_word():
    wrong = []
    for where, text in all_texts("vi"):
        for sentence in re.findall(r"[^.!?:;“”\"]*\?", text):
            if not ASKING.search(sentence):
                wrong.append((where, sentence.strip()))
    assert wrong == []


def test_chinese_running_text_uses_full_width_punctuation():
    wrong = [(where, m.group()) for where, text in all_texts("zh") for m in ASCII_BY_CJK.finditer(text)]
    assert wrong == []
    assert ASCII_BY_CJK.search("睁眼, 然后") and not ASCII_BY_CJK.search("睁眼，然后 werewords.html")


def test_spanish_opens_every_question_and_exclamation():
    wrong = [(where, text[:80]) for where, text in all_texts("es") if unpaired(text)]
    assert wrong == []
    assert unpaired("Listos? ¡Ya!") == ["?"] and unpaired("¿Listos? ¡Ya") == ["¡"]


def test_japanese_running_text_uses_full_width_punctuation():
    wrong = [(where, m.group()) for where, text in all_texts("ja") for m in ASCII_BY_JAPANESE.finditer(text)]
    assert wrong == []
    assert ASCII_BY_JAPANESE.search("目を閉じる, それから") and ASCII_BY_JAPANESE.search("(自分も可)")
    assert not ASCII_BY_JAPANESE.search("目を閉じる。 --backs fold で作る")


def test_what_the_japanese_moderator_says_is_polite_and_what_is_read_is_plain():
    spoken, written = spoken_and_written("ja")
    assert len(spoken) > 30 and len(written) > 60
    rude = [(where, end) for where, text in spoken for end in sentences(text) if not POLITE_END.search(end)]
    calls = [end for _where, end in rude if re.fullmatch(r"[\d、]+(?:、投票)?", end)]
    assert [(where, end) for where, end in rude if end not in calls] == []
    polite = [(where, end) for where, text in written for end in sentences(text) if POLITE_END.search(end)]
    assert polite == []
    ends = sentences("目を閉じてください。1人を選ぶ。（なし）です！")
    assert [POLITE_END.search(end) is not None for end in ends] == [True, False, True]


def test_japanese_says_each_thing_by_the_one_name_the_style_sheet_chose():
    """The other names the community has for a card (騎士 for the Guard, 保安官 for the Sheriff) and the
    words the style sheet puts aside (追放する for voting out) occur in no Japanese text."""
    others = [word for *_, heard in rows("ja", "Game") for word in heard.split(", ") if word]
    others += [word.split(" (")[0] for _en, _ours, avoid in rows("ja", "English") for word in avoid.split(", ") if word]
    assert {"騎士", "保安官", "怪盗", "追放する", "司会"} <= set(others)
    assert [(where, word) for where, text in all_texts("ja") for word in others if word in text] == []


def test_persian_writes_persian_letters_punctuation_digits_and_non_joiners():
    texts = all_texts("fa")
    assert len(texts) > 400
    assert [(where, found) for where, text in texts if (found := not_persian(text))] == []
    # The checker knows each mistake, and placeholders and non-joined words are not one.
    assert not_persian('كارت ۱۲ بازیکن, "نه" می شود 12') == [
        ("arabic letter", "ك"),
        ("ascii digit", "1"),
        ("ascii digit", "2"),
        ("ascii punctuation", "ن,"),
        ("ascii punctuation", '"'),
        ("ascii punctuation", '"'),
        ("spaced prefix", "می "),
    ]
    assert not_persian("«{n} نفر» می\u200cشود، میز و مینی؟") == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_style_sheet_names_every_card_as_the_card_does(lang):
    table = names_table(lang)
    named = {(game, card): name[lang] for game in games(lang) for card, name in cards(game).items()}
    assert table == named


@pytest.mark.parametrize("lang", ["vi", "es"])
def test_a_card_name_is_spelled_one_way_in_its_game(lang):
    """Written with other capitals than its card's, a name is another spelling of it (Cô Bé for Cô bé).
    Only its first letter may change (the start of a sentence), or the words after it may be all lower
    case: the same words used as common words (cáo buộc: accusations; bảo vệ: to guard)."""
    wrong = []
    for game in GAMES:
        title = _read(ROOT / "decks" / game / "game.yaml")["name"][lang]
        texts = [(where, text) for where, text in game_texts(game, lang) if text != title]
        for name in {name[lang] for name in cards(game).values()}:
            if " " not in name:
                continue
            pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
            for where, text in texts:
                for m in pattern.finditer(text):
                    if m.group()[1:] not in (name[1:], m.group()[1:].lower()):
                        wrong.append((where, m.group()))
    assert wrong == []


# Cards named like documents, in sentence case in every game, and a phrase around another card's name.
NOT_ROLE_NAMES = {"player-aid", "night-order", "tryal-not-a-witch"}


def test_the_vietnamese_role_names_of_a_game_share_one_capitalisation():
    """Each word capitalised (Mafia and Salem, as their Vietnamese rulebooks write them) or the first
    only (Werewolf and Werewords), the same for every role of a game; names kept from English
    (Abigail Williams) are names in both."""
    styles = {}
    for game in GAMES:
        found = styles[game] = {}
        for card, name in cards(game).items():
            words = name["vi"].split()
            if card in NOT_ROLE_NAMES or len(words) < 2 or name["vi"] == name["en"]:
                continue
            capitals = [word[0].isupper() for word in words[1:] if word not in ("Mafia", "Yakuza")]
            found.setdefault(
                "each word" if all(capitals) else "first word" if not any(capitals) else "mixed", []
            ).append(card)
    assert {game: sorted(found) for game, found in styles.items()} == {
        "werewolf": ["first word"],
        "werewords": ["first word"],
        "mafia-vendetta": ["each word"],
        "salem-1692": ["each word"],
    }, styles


@pytest.mark.parametrize("lang", LANGS)
def test_script_narrator_rulebook_and_player_aid_have_one_name_each(lang):
    terms = interface_terms(lang)
    script, rulebook, narrator, aid = (terms[thing][0] for thing in ("script", "rulebook", "narrator", "player-aid"))
    documents = _read(ROOT / "templates/documents/text.yaml")[lang]
    site = _read(ROOT / "templates/site/text.yaml")[lang]["kinds"]
    assert (documents["script"], documents["rulebook"]) == (script, rulebook)
    assert site["script"].startswith(script) and site["rulebook"].startswith(rulebook)
    assert site["narrator"].lower().startswith(narrator.lower())
    assert narrator.lower() in _read(ROOT / "templates/narrator/text.yaml")[lang]["loading"].lower()
    for game in games(lang):
        assert _read(ROOT / "decks" / game / "script.yaml")["title"][lang] == script, game
        assert cards(game)["player-aid"][lang] == aid, game
    avoided = [
        (where, word)
        for _thing, (_name, avoid) in terms.items()
        for word in avoid
        for where, text in all_texts(lang)
        if word.lower() in text.lower()
    ]
    assert avoided == []


def test_pinyin_reads_the_names_pypinyin_gets_wrong_as_a_dictionary_does():
    assert readings("塞缪尔·帕里斯") == ("sài", "miù", "ěr", "", "pà", "lǐ", "sī")
    assert readings("乔治·伯勒斯")[3:] == ("bó", "lè", "sī")
    assert readings("护士") == ("hù", "shi")
    assert readings("猜中了") == ("cāi", "zhòng", "le")
    assert readings("长老") == ("zhǎng", "lǎo")


# --- the printed documents -------------------------------------------------------------------------


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


@pytest.mark.parametrize("lang", LANGS)
def test_the_printed_rulebooks_and_scripts_follow_the_style_sheet(bundled, lang):
    script_name = interface_terms(lang)["script"][0]
    language = _read(ROOT / "templates/strings.yaml")[lang]["language"]
    for game in games(lang):
        name = _read(ROOT / "decks" / game / "game.yaml")["name"][lang]
        script = pdf_text(bundled / game / f"{game}-script-{lang}.pdf")
        rulebook = pdf_text(bundled / game / f"{game}-rulebook-{lang}.pdf")
        # A right-to-left header reads back in logical order only once it is shaped and reordered: the
        # shaping tests hold Persian to that.
        if lang not in _read(ROOT / "templates/fonts.yaml")["rtl"]:
            assert script.startswith(f"{name} · {script_name} · {language}"), game
        printed = unicodedata.normalize("NFC", script + rulebook)
        if lang == "vi":
            assert old_tones(printed) == [], game
        elif lang == "zh":
            assert [m.group() for m in ASCII_BY_CJK.finditer(printed)] == [], game
            assert [printed[m.start() - 6 : m.end() + 6] for m in SPACE_AFTER_STOP.finditer(printed)] == [], game
        elif lang == "ja":
            assert [m.group() for m in ASCII_BY_JAPANESE.finditer(printed)] == [], game
            assert [printed[m.start() - 6 : m.end() + 6] for m in SPACE_BY_JAPANESE_STOP.finditer(printed)] == [], game
        elif lang == "fa":
            assert re.findall(r"[يك]", printed) == [], game
            assert printed.count("«") == printed.count("»") > 0, game
        else:
            assert (printed.count("¿"), printed.count("¡")) == (printed.count("?"), printed.count("!")), game


@pytest.fixture(scope="module")
def pinyin_cards(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pinyin")
    result = run(
        "build",
        "salem-1692",
        "mafia-vendetta",
        "--decks",
        str(ROOT / "decks"),
        "--lang",
        "zh",
        "--pinyin",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize(
    ("game", "name", "reading"),
    [
        ("salem-1692", "塞缪尔·帕里斯", "sài miù ěr pà lǐ sī"),
        ("salem-1692", "乔治·伯勒斯", "qiáo zhì bó lè sī"),
        ("mafia-vendetta", "护士", "hù shi"),
    ],
)
def test_the_printed_pinyin_of_a_corrected_name(pinyin_cards, game, name, reading):
    # Read back, each reading is a line of its own just before its character's.
    syllables = iter(reading.split())
    printed = "\n".join(char if char == "·" else f"{next(syllables)}\n{char}" for char in name)
    # Fronts only: a back's pattern is thousands of paths that pypdf takes seconds a page to walk.
    fronts = pypdf.PdfReader(pinyin_cards / game / f"{game}-cards-zh.pdf").pages[::2]
    assert printed in "\n".join(page.extract_text() for page in fronts)
