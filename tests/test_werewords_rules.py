"""Werewords' printed game against its source rules, read back from the built PDFs: who runs the night,
what a vote on the Minion gives, the countdowns, and the names the issue asked to change."""

from __future__ import annotations

import re

import pypdf
import pytest
import yaml

from conftest import ROOT, run
from conftest import table as conftest_table

LANGS = ("en", "vi", "zh", "es")


def text_of(path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def flat(text: str) -> str:
    """The text with its line breaks undone, so that a sentence reads the same wherever the page wrapped it
    (Chinese lines break between any two characters: there the break leaves no space)."""
    text = re.sub(r"(?<=[\u3000-\u9fff\uff00-\uffef])\s*\n\s*(?=[\u3000-\u9fff\uff00-\uffef])", "", text)
    return re.sub(r"\s*\n\s*", " ", text)


@pytest.fixture(scope="module")
def tonight(tmp_path_factory):
    """Eight players with the Minion and the Apprentice: the script and rulebook of each language."""
    out = tmp_path_factory.mktemp("werewords")
    result = run("build", "werewords", "--players", "8", "--with", "minion", "--with", "apprentice", "--out", str(out))
    assert result.exit_code == 0, result.output
    # The script is the table's (-8p and its cards' digest); the rulebook is the whole box's.
    return {
        (kind, lang): flat(text_of(out / "werewords" / f"werewords-{kind}-{lang}{table}.pdf"))
        for kind, table in (("script", f"-{conftest_table(8, ('minion', 'apprentice'))}"), ("rulebook", ""))
        for lang in LANGS
    }


# The sentence of each language that settles a vote on the Minion, as the source has it: the most-voted
# player is revealed, a werewolf gives the village the win, anyone else the werewolves, and the Minion
# is on the werewolves' side without being a werewolf.
MINION_VOTE = {
    "en": "if the vote falls on the Minion, the werewolves win",
    "vi": "nếu phiếu dồn vào Tay sai, phe Ma sói thắng",
    "zh": "投票若落在爪牙身上，狼人阵营获胜",
    "es": "si la votación cae sobre el Esbirro, ganan los lobos",
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_vote_on_the_minion_is_a_win_for_the_werewolves(tonight, lang):
    script = tonight["script", lang]
    vote = script.index(MINION_VOTE[lang])
    assert vote > script.index(
        {
            "en": "Nobody found the word.",
            "vi": "Không ai tìm ra từ.",
            "zh": "没人猜中真言。",
            "es": "Nadie ha encontrado la palabra.",
        }[lang]
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_script_opens_with_a_narrator_who_does_not_play_before_the_deal(tonight, lang):
    script = tonight["script", lang]
    narrator = script.index(f"werewords-narrator-{lang}.html")
    deal = script.index(
        {"en": "Take these 9 cards", "vi": "Lấy 9 lá sau", "zh": "取以下9张牌", "es": "Toma estas 9 cartas"}[lang]
    )
    assert (
        narrator
        < deal
        < script.index(
            {
                "en": "Mayor, open your eyes.",
                "vi": "Thị trưởng, hãy mở mắt.",
                "zh": "镇长请睁眼。",
                "es": "Alcalde, abre los ojos.",
            }[lang]
        )
    )
    never = {
        "en": "the narrator is never the Mayor nor any other player",
        "vi": "không bao giờ được là Thị trưởng hay bất kỳ người chơi nào",
        "zh": "主持人绝不能是镇长或任何一位玩家",
        "es": "nunca puede ser el Alcalde ni ningún otro jugador",
    }[lang]
    assert never in script[:narrator]


def test_the_countdowns_are_the_day_then_the_hunt_for_the_seer_then_the_vote(tonight):
    script = tonight["script", "en"]
    times = re.findall(r"\(countdown: ([^)]*)\)", script)
    assert times == ["4 min", "15 s", "1 min"]


def test_no_vote_rule_the_source_does_not_have(tonight):
    for lang in LANGS:
        for kind in ("script", "rulebook"):
            text = tonight[kind, lang]
            assert not re.search(r"exactly one vote|đúng một phiếu|恰好各得一票|exactamente un voto", text)
            assert not re.search(r"even falsely|thậm chí trả lời sai|甚至给出假答案|incluso mentir", text)


def test_spanish_group_calls_are_plural(tonight):
    script = tonight["script", "es"]
    assert "Hombres lobo, abrid los ojos." in script and "Hombres lobo, cerrad los ojos." in script
    assert "Hombres lobo, abre" not in script


def test_the_vietnamese_beholder_is_nguoi_quan_sat_everywhere():
    texts = [path.read_text(encoding="utf-8") for path in (ROOT / "decks" / "werewords").rglob("*.yaml")]
    assert not any("Kẻ soi mói" in text for text in texts)
    beholder = yaml.safe_load((ROOT / "decks" / "werewords" / "roles" / "beholder.yaml").read_text(encoding="utf-8"))
    assert beholder["name"]["vi"] == "Người quan sát"


# The version only the narrator page runs, and its opening line.
PAGE_ONLY = {
    "en": ("No narrator (the page runs it)", "this device reads every line"),
    "vi": ("Không người điều phối (trang tự dẫn)", "thiết bị này đọc mọi lời thoại"),
    "zh": ("无主持人（由页面主持）", "这台设备会念出每一句台词"),
    "es": ("Sin narrador (lo dirige la página)", "este dispositivo lee cada frase"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_pdfs_leave_out_the_version_only_the_page_runs_and_the_rulebook_names_it(tonight, lang):
    name, line = PAGE_ONLY[lang]
    assert name not in tonight["script", lang] and line not in tonight["script", lang]
    assert line not in tonight["rulebook", lang]
    assert f"“{name}”" in tonight["rulebook", lang] or f"«{name}»" in tonight["rulebook", lang]
