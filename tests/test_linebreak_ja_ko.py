"""Japanese and Korean line breaking: break_cjk with the widths of the real Noto Sans JP and KR keeps
Japanese kinsoku (small kana, ー, iteration marks and closing brackets never start a line, opening
ones never end it, a number stays with its counter) and breaks Korean only at spaces, a word wider
than a line cut between syllables as a last resort; and a mini deck built in ja and ko, its cards'
and rulebook's lines read back with pdfplumber, keeps the same rules."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.core import bundled, units
from cardgen.text.fonts import FontBook
from cardgen.text.linebreak import CHINESE, JAPANESE, KOREAN, Rules, break_cjk, line_rules
from cardgen.text.markup import Span
from cardgen.text.textfit import fit
from conftest import FIXTURES, ROOT, game, run, write

SIZE = 9.0
# JLREQ's line-start and line-end prohibitions, written out here rather than read from the code.
NO_START = "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿーゝゞヽヾ々・：；」』）】〕〉》、。！？"
NO_END = "「『（【〔〈《"
KOREAN_NO_START = ".,!?:;)]}」』》〉…"

JA = (
    "毎晩、人狼たちは「ちょっとした相談」をして、一人のプレイヤーを襲撃する。ゲームは10人まで遊べ、"
    "英語ではWerewolfと呼ばれる。人々は時々ウソをつく（人狼も村人も）。シャッフルしたカードを配り、"
    "キャラクターを確かめよう！漱石の『こゝろ』やいすゞの車のように、ヴィジュアル・チェックも忘れずに。"
)
KO = (
    "마피아들은 시민들 사이에 숨어 있습니다. 밤이 되면 마피아는 플레이어 한 명을 제거하고, 낮이 되면 "
    '모든 시민이 토론한 뒤 투표로 한 명을 내보냅니다. "경찰"은 매일 밤 한 명을 조사합니다(비밀로). '
    "이 게임은 10명까지 즐길 수 있으며, 영어로는 Mafia라고 부릅니다!"
)


@pytest.fixture(scope="module")
def book() -> FontBook:
    world = bundled.world_fonts()
    assert world is not None, "the world extra (Noto Sans JP and KR) is a test dependency"
    return FontBook.load(ROOT / "templates" / "fonts.yaml", [ROOT / "fonts", world])


def broken(book: FontBook, text: str, lang: str, width: float, rules: Rules) -> tuple[list[str], float]:
    lines, too_wide = break_cjk(book.runs(Span(text), lang), SIZE, width, rules=rules)
    return ["".join(part for _, part in line) for line in lines], too_wide


def width_of(book: FontBook, text: str, lang: str) -> float:
    return sum(stringWidth(part, font, SIZE) for font, part in book.runs(Span(text), lang))


def kinsoku_broken(lines: list[str]) -> list[str]:
    return [line for line in lines[1:] if line[0] in NO_START] + [line for line in lines[:-1] if line[-1] in NO_END]


def test_each_language_has_its_rules_and_korean_is_not_cjk(book):
    assert line_rules(book, ["ja"]) is JAPANESE and line_rules(book, ["ja-JP"]) is JAPANESE
    assert line_rules(book, ["zh"]) is CHINESE and line_rules(book, ["zh_CN"]) is CHINESE
    assert line_rules(book, ["ko"]) is KOREAN and line_rules(book, ["ko-KR"]) is KOREAN
    # An English text with a Korean span is broken by Korean's rules; a Vietnamese one between words.
    assert line_rules(book, ["en", "ko"]) is KOREAN and line_rules(book, ["vi"]) is None
    assert book.is_keep_all("ko") and not book.is_cjk("ko") and not book.is_keep_all("ja")


def test_keep_all_must_be_a_list(tmp_path):
    spec = tmp_path / "fonts.yaml"
    spec.write_text(
        "families:\n  NotoSans: {regular: NotoSans_400Regular.ttf}\nfallback:\n  default: [NotoSans]\nkeep-all: ko\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError) as error:
        FontBook.load(spec, [ROOT / "fonts"])
    assert str(error.value) == f"{spec}: keep-all must be a list of language codes"


def test_japanese_lines_keep_kinsoku_at_every_width(book):
    widths = range(45, 240, 2)
    none = Rules(frozenset(), frozenset())
    naive = [width for width in widths if kinsoku_broken(broken(book, JA, "ja", width, none)[0])]
    assert len(naive) > len(widths) / 2, "the text must be a hard case"
    for width in widths:
        lines, too_wide = broken(book, JA, "ja", width, JAPANESE)
        assert kinsoku_broken(lines) == [], width
        assert "".join(lines) == JA and too_wide < 1e-9, width
        assert all(width_of(book, line, "ja") <= width + 0.01 for line in lines), width


def test_a_japanese_number_stays_with_its_counter_and_a_latin_word_whole(book):
    def whole(lines: list[str]) -> bool:
        return sum(line.count("10人") for line in lines) == 1 and sum(line.count("Werewolf") for line in lines) == 1

    widths = range(45, 240)
    assert all(whole(broken(book, JA, "ja", width, JAPANESE)[0]) for width in widths)
    # Chinese, whose rules did not change, may part a number from what follows it.
    assert not all(whole(broken(book, JA, "ja", width, CHINESE)[0]) for width in widths)


def test_korean_breaks_only_at_spaces_and_fills_each_line(book):
    widest = max(width_of(book, word, "ko") for word in KO.split())
    for width in range(int(widest) + 1, 300, 3):
        lines, too_wide = broken(book, KO, "ko", width, KOREAN)
        assert " ".join(lines) == KO and too_wide < 1e-9, width
        for line, after in zip(lines, lines[1:]):
            assert width_of(book, line, "ko") <= width + 0.01
            # The next line's first word did not fit: the line was not ended early.
            assert width_of(book, f"{line} {after.split()[0]}", "ko") > width, (width, line, after)
    assert any(" ".join(broken(book, KO, "ko", width, CHINESE)[0]) != KO for width in range(int(widest) + 1, 300, 3))


def test_a_korean_word_wider_than_a_line_is_cut_between_syllables_under_kinsoku(book):
    text = '마을 "늑대인간사냥꾼협회장(마을대표)"입니다. 그리고 끝'
    long_word = text.split()[1]
    for width in range(30, 60):
        lines, too_wide = broken(book, text, "ko", width, KOREAN)
        assert "".join(lines).replace(" ", "") == text.replace(" ", ""), width
        # Only the long word is cut: the one before it has a line of its own, those after it are whole.
        assert lines[0] == "마을" and all(any(w in line.split() for line in lines) for w in ("그리고", "끝")), lines
        assert all(width_of(book, line, "ko") <= width + 0.01 for line in lines), (width, lines)
        # The second line starts the word, with its opening quote; no other starts with a quote.
        assert not [line for line in lines[2:] if line[0] in KOREAN_NO_START + '"'], (width, lines)
        assert not [line for line in lines[:-1] if line[-1] in "(["], (width, lines)
        assert too_wide < 1e-9 < width_of(book, long_word, "ko") - width, width


def test_a_korean_word_too_wide_for_its_box_shrinks_the_type_before_it_is_cut(book):
    """On a card, a Korean word wider than the box at the largest size makes the text smaller, as a Latin
    word does, until it fits whole; only a word too wide at the least size is cut between syllables."""
    word = "늑대인간사냥꾼협회장"
    text = f"마을 {word} 입니다"
    width_mm = 30.0
    whole = units.pt(width_mm) / width_of(book, word, "ko") * SIZE  # the size at which the word just fits
    fitted = fit([Span(text)], book, "ko", width_mm, 40.0, max_size=12.0, min_size=4.0)
    assert fitted.fits and fitted.size <= whole < fitted.size + 0.25, (fitted.size, whole)
    assert any(line.split() == [word] or word in line.split() for line in _fitted_lines(fitted)), _fitted_lines(fitted)
    # At a least size the word is still too wide at, it is cut, and nothing runs off the box.
    cut = fit([Span(text)], book, "ko", width_mm, 40.0, max_size=12.0, min_size=whole + 1)
    assert cut.size == whole + 1 and cut.fits
    assert not any(word in line for line in _fitted_lines(cut)), _fitted_lines(cut)
    assert "".join(_fitted_lines(cut)).replace(" ", "") == text.replace(" ", "")


def _fitted_lines(fitted) -> list[str]:
    return ["".join(part for _, part in line) for line in fitted.drawn.lines]


GAME = """\
name: {ja: ミニ人狼, ko: 미니 마피아}
languages: [ja, ko]
card-size: poker
teams:
  village: {name: {ja: 村人陣営, ko: 시민 팀}, color: "#2f6b3a"}
  wolves: {name: {ja: 人狼陣営, ko: 마피아 팀}, color: "#8c1c13"}
groups:
  role: {ja: 役職, ko: 직업}
"""
SEER = {
    "ja": "毎晩、プレイヤーを一人選び、そのカードをこっそり見ることができる。「人狼」か「村人」かが分かる。"
    "ゲームは10人まで遊べる。Werewolfとも呼ばれる。",
    "ko": '매일 밤, 플레이어 한 명을 골라 그 사람의 카드를 몰래 볼 수 있습니다. "마피아"인지 아닌지 알게 됩니다. '
    "이 게임은 10명까지 즐길 수 있습니다.",
}
WOLF = {
    "ja": "毎晩、人狼たちは話し合って**一人のプレイヤー**を襲撃する。ちょっとしたミスも命取り。"
    "人狼の数が残りのプレイヤーと同じになったら勝利（ゲームセット）。",
    "ko": "매일 밤, 마피아들은 상의하여 **플레이어 한 명**을 제거합니다. 작은 실수도 치명적입니다. "
    "마피아의 수가 나머지 플레이어와 같아지면 승리합니다(게임 종료).",
}
GOAL = {"ja": JA, "ko": KO}
NAMES = "ミニ人狼 村人陣営 人狼陣営 役職 占い師 人狼 目的 미니 마피아 시민 팀 직업 경찰 목표"


def yaml_map(texts: dict[str, str]) -> str:
    return "{" + ", ".join(f"{lang}: '{text}'" for lang, text in texts.items()) + "}"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The mini game (tests/fixtures/mini) in Japanese and Korean, cards and rulebook, built: its output
    folder."""
    root = tmp_path_factory.mktemp("ja-ko")
    project = root / "project"
    shutil.copytree(FIXTURES / "mini", project)
    (game(project) / "game.yaml").write_text(GAME, encoding="utf-8")
    seer = "name: {ja: 占い師, ko: 경찰}\nteam: village\ncount: 1\nability: " + yaml_map(SEER) + "\n"
    wolf = "name: {ja: 人狼, ko: 마피아}\nteam: wolves\ncount: 2\nsymbol: symbols/wolf.svg\nability: "
    write(project, "roles/seer.yaml", seer + "night: {order: 50}\n")
    write(project, "roles/wolf.yaml", wolf + yaml_map(WOLF) + "\nnight: {order: 60}\n")
    write(
        project,
        "rulebook.yaml",
        "players: {min: 3, max: 10}\nsections:\n  goal:\n    title: {ja: 目的, ko: 목표}\n"
        f"    body: {yaml_map(GOAL)}\n",
    )
    out = root / "out"
    result = run("build", "--decks", str(project / "decks"), "--out", str(out), "-q")
    assert result.exit_code == 0, result.output + result.stderr
    return out / "mini"


def read_lines(path: Path) -> list[str]:
    """The first page's lines, each a run of characters on one baseline with no wide gap (the cards
    of a row, a page's columns apart), ordered by their left edge and then down the page."""
    with pdfplumber.open(path) as pdf:
        chars = pdf.pages[0].chars
    rows: dict[tuple[float, float], list] = {}
    for char in chars:
        rows.setdefault((round(char["bottom"], 1), round(char["size"], 1)), []).append(char)
    segments = []
    for (bottom, size), row in rows.items():
        row.sort(key=lambda char: char["x0"])
        start = 0
        for n in range(1, len(row) + 1):
            if n == len(row) or row[n]["x0"] - row[n - 1]["x1"] > 2 * size:
                segments.append((round(row[start]["x0"]), bottom, "".join(c["text"] for c in row[start:n])))
                start = n
    return [text.strip() for _, _, text in sorted(segments)]


def bare(word: str) -> str:
    return word.rstrip(",.!")


def squash(text: str) -> str:
    return re.sub(r"\s|\*\*", "", text)


@pytest.mark.parametrize("kind", ["cards", "rulebook"])
def test_a_japanese_deck_keeps_kinsoku_on_cards_and_in_the_rulebook(built, kind):
    lines = read_lines(built / f"mini-{kind}-ja.pdf")
    assert [line for line in lines if line[0] in NO_START or line[-1] in NO_END] == []
    # The texts take many lines; the number and the Latin word are whole in one of them.
    assert len([line for line in lines if re.search("[ぁ-んァ-ン]", line)]) > 8
    assert any("10人" in line for line in lines) and any("Werewolf" in line for line in lines)
    joined = squash("".join(lines))
    for text in (SEER["ja"], WOLF["ja"], *([JA] if kind == "rulebook" else [])):
        assert squash(text) in joined


@pytest.mark.parametrize("kind", ["cards", "rulebook"])
def test_a_korean_deck_splits_no_word_on_cards_or_in_the_rulebook(built, kind):
    lines = read_lines(built / f"mini-{kind}-ko.pdf")
    # Words as they are in the texts, but for the punctuation after them (a list's comma).
    words = {bare(word) for word in " ".join([SEER["ko"], WOLF["ko"], KO, NAMES]).replace("**", "").split()}
    hangul = [bare(word) for line in lines for word in line.split() if re.search("[가-힣]", word)]
    assert len(hangul) > 40 and [word for word in hangul if word not in words] == []
    assert [line for line in lines if line[0] in KOREAN_NO_START] == []
    assert len([line for line in lines if re.search("[가-힣]", line)]) > 8, "the texts take several lines"
    joined = squash("".join(lines))
    for text in (SEER["ko"], WOLF["ko"], *([KO] if kind == "rulebook" else [])):
        assert squash(text) in joined
