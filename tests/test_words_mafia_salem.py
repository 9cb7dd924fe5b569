"""The rules and words of Mafia: Vendetta and Salem 1692 that issue 30 fixed, read back from the built
PDFs and the narrator page in all four languages.

Mafia: the win check a Yakuza table hears names the Yakuza where it is read; a Loner learns their goal
from their card, the player aid and a line read aloud at setup; the Psycho's and the Sheriff's cards
say the Vixen's charm stops their kill; the Spanish Sheriff is the Alguacil and the Vietnamese Femme
Fatale the source's Quyến Rũ Màn Đêm; no Spanish line says a protected player is killed. Salem: the
win check follows Conspiracy's card pass; a death on a turn takes the Matchmaker's partner along; a
native moderator's corrections of the vi, zh and es cards and script are printed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pypdfium2
import pytest
import yaml

from conftest import ROOT, run
from narrator_browser import browser, choose_table, needs_browser, script_view

LANGS = ("en", "vi", "zh", "es")
MAFIA = ROOT / "decks" / "mafia-vendetta"
SALEM = ROOT / "decks" / "salem-1692"
TEXT = yaml.safe_load((ROOT / "templates" / "documents" / "text.yaml").read_text("utf-8"))
LABEL = {lang: TEXT[lang]["win_check"] + TEXT[lang]["colon"] for lang in LANGS}  # "Win check: "


def plain(text: str) -> str:
    """A text as printed: without bold marks, spaces closed up (Chinese lines break anywhere)."""
    return re.sub(r"\s+", "", text.replace("**", ""))


def read(path: Path) -> str:
    """The whole PDF's text, closed up as `plain`; a document without each page's header and footer (its
    first two lines), so that a step runs on across a page turn. Card sheets are read with pypdfium2 (fast
    over the backs)."""
    if "-cards-" in path.name:
        return plain(" ".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(path)))
    return plain(" ".join(" ".join(page.extract_text().splitlines()[2:]) for page in pypdf.PdfReader(path).pages))


def card(deck: Path, card_id: str) -> dict:
    return yaml.safe_load((deck / "roles" / f"{card_id}.yaml").read_text("utf-8"))


def build(out: Path, game: str, *table: str) -> Path:
    result = run("build", game, *table, "--out", str(out))
    assert result.exit_code == 0, result.output
    return out / game


@pytest.fixture(scope="module")
def mafia(tmp_path_factory) -> dict[str, Path]:
    """The whole box, a Yakuza table of 12 and a Loner table of 10, each in the four languages."""
    out = tmp_path_factory.mktemp("mafia")
    return {
        "box": build(out / "box", "mafia-vendetta"),
        "yakuza": build(out / "yakuza", "mafia-vendetta", "--players", "12", "--setup", "yakuza"),
        "loner": build(out / "loner", "mafia-vendetta", "--players", "10", "--setup", "loner"),
    }


@pytest.fixture(scope="module")
def salem(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("salem"), "salem-1692", "--players", "8")


# What the civilians need at a Yakuza table, and the line without the Yakuza that it replaces.
CIVILIANS_WITH_YAKUZA = {
    "en": "No Mafia member and no Yakuza left: the civilians win.",
    "vi": "Không còn thành viên Mafia nào và cũng không còn Yakuza nào: Dân làng thắng.",
    "zh": "黑手党和雅库扎都已全部出局：好人获胜。",
    "es": "No queda nadie de la Mafia ni de la Yakuza: ganan los civiles.",
}
CIVILIANS_PLAIN = {
    "en": "No Mafia member left: the civilians win.",
    "vi": "Không còn thành viên Mafia nào: Dân làng thắng.",
    "zh": "黑手党已全部出局：好人获胜。",
    "es": "No queda nadie de la Mafia: ganan los civiles.",
}
# The Yakuza's own win, in the win check itself.
YAKUZA_WIN = {
    "en": "No Mafia member left and the Yakuza equal or outnumber the civilians: the Yakuza win.",
    "vi": "Không còn thành viên Mafia nào và Yakuza đông bằng hoặc hơn Dân làng: Yakuza thắng.",
    "zh": "黑手党已全部出局，且雅库扎人数不少于好人：雅库扎获胜。",
    "es": "No queda nadie de la Mafia y la Yakuza iguala o supera en número a los civiles: gana la Yakuza.",
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_yakuza_table_hears_in_every_win_check_that_the_civilians_must_remove_the_yakuza_too(mafia, lang):
    text = read(mafia["yakuza"] / f"mafia-vendetta-script-{lang}-yakuza-12p.pdf")
    checks = text.split(plain(LABEL[lang]))[1:]
    assert len(checks) == 2  # after the dawn's deaths and after the day's vote-out
    for check in checks:
        head = check[:400]
        assert plain(CIVILIANS_WITH_YAKUZA[lang]) in head and plain(YAKUZA_WIN[lang]) in head
    assert plain(CIVILIANS_PLAIN[lang]) not in text
    # The English "otherwise" no longer reads as "if not, the Yakuza win".
    assert "win otherwise" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_table_without_the_yakuza_hears_the_plain_win_check(mafia, lang):
    text = read(mafia["loner"] / f"mafia-vendetta-script-{lang}-loner-10p.pdf")
    assert plain(CIVILIANS_PLAIN[lang]) in text
    assert plain(card(MAFIA, "yakuza")["name"][lang]) not in text


LONER_GOAL = {
    "en": "You win if you are alive when the Mafia win, or if you are the last player left.",
    "vi": "Bạn thắng nếu còn sống khi Mafia thắng, hoặc nếu bạn là người cuối cùng còn lại.",
    "zh": "黑手党获胜时你仍活着，或你是最后剩下的玩家，你就获胜。",
    "es": "Ganas si sigues con vida cuando gana la Mafia, o si no queda nadie más en juego.",
}
LONER_ON_THE_AID = {
    "en": "A Loner wins if alive when the Mafia win, or if left alone.",
    "vi": "Kẻ Đơn Độc thắng nếu còn sống khi Mafia thắng, hoặc khi chỉ còn lại một mình.",
    "zh": "独行者在黑手党获胜时仍活着，或只剩自己一人时获胜。",
    "es": "Un Solitario gana si sigue con vida cuando gana la Mafia, o si no queda nadie más.",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_loner_learns_their_goal_from_their_card_the_player_aid_and_the_setup(mafia, lang):
    cards = read(mafia["box"] / f"mafia-vendetta-cards-{lang}.pdf")
    # The goal ends the Psycho's and the Femme Fatale's texts and the Imposter's too.
    assert cards.lower().count(plain(LONER_GOAL[lang]).lower()) == 3  # "You win" or, after a colon, "you win"
    assert cards.count(plain(LONER_ON_THE_AID[lang])) == 17  # one player aid a seat
    setup_line = yaml.safe_load((MAFIA / "script.yaml").read_text("utf-8"))["setup"]
    spoken = next(step["say"][lang] for step in setup_line if "say" in step)
    script = read(mafia["loner"] / f"mafia-vendetta-script-{lang}-loner-10p.pdf")
    assert plain(spoken) in script
    # Read while the players look at their cards, before the night.
    assert script.index(plain(spoken)) < script.index(plain(LABEL[lang]))
    assert plain(spoken) not in read(mafia["yakuza"] / f"mafia-vendetta-script-{lang}-yakuza-12p.pdf")


CHARM = {
    "en": "Unless someone protects them or the Vixen charms them, the Facilitator announces their death at dawn.",
    "vi": "Trừ khi có người bảo vệ hoặc Hồ Ly đã quyến rũ họ, người điều phối sẽ báo tin họ chết lúc bình minh.",
    "zh": "除非有人保护他或他被魅惑者迷住，主持人会在黎明宣布他的死讯。",
    "es": "Salvo que alguien lo proteja o la Vampiresa lo seduzca, el moderador anunciará su muerte al amanecer.",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_psycho_and_sheriff_cards_say_the_vixens_charm_stops_their_kill(mafia, lang):
    cards = read(mafia["box"] / f"mafia-vendetta-cards-{lang}.pdf")
    assert cards.count(plain(CHARM[lang])) == 2
    # The rulebook prints every card's text.
    assert read(mafia["box"] / f"mafia-vendetta-rulebook-{lang}.pdf").count(plain(CHARM[lang])) == 2


def test_the_spanish_sheriff_is_the_alguacil_everywhere(mafia):
    assert card(MAFIA, "sheriff")["name"]["es"] == "Alguacil"
    for kind in ("cards", "rulebook", "script"):
        text = read(mafia["box"] / f"mafia-vendetta-{kind}-es.pdf")
        assert "Sheriff" not in text and "Alguacil" in text, kind


def test_the_vietnamese_femme_fatale_has_the_sources_name_everywhere(mafia, tmp_path):
    assert card(MAFIA, "femme-fatale")["name"]["vi"] == "Quyến Rũ Màn Đêm"
    for kind in ("cards", "rulebook", "script"):
        text = read(mafia["box"] / f"mafia-vendetta-{kind}-vi.pdf")
        assert plain("Quyến Rũ Màn Đêm") in text and plain("Rắn Rết") not in text, kind
    page = (mafia["box"] / "mafia-vendetta-narrator-vi.html").read_text("utf-8")
    assert "Quyến Rũ Màn Đêm" in page and "Rắn Rết" not in page


def test_no_spanish_line_says_a_protected_player_is_killed(mafia):
    text = " ".join(read(mafia["box"] / f"mafia-vendetta-{kind}-es.pdf") for kind in ("cards", "rulebook", "script"))
    # "If they kill him, he survives" said the reverse of the rule; the attempt is what a protection stops.
    for wrong in ("Siesanochelomatan", "Siestanochelomatan", "Lamuertedela Mafia", "Unamuertefalla"):
        assert plain(wrong) not in text
    assert text.count(plain("intentan matarlo")) >= 4  # the Nurse's and the Bodyguard's cards and calls
    assert plain("Un jugador protegido no muere aunque lo ataquen.") in text
    assert plain("Un jugador seducido no muere aunque lo ataquen.") in text


# Salem ------------------------------------------------------------------------------------------------


def salem_script() -> dict:
    return yaml.safe_load((SALEM / "script.yaml").read_text("utf-8"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_salem_win_check_follows_conspiracys_card_pass(salem, lang):
    script = salem_script()
    turns = next(p for p in script["versions"]["moderator"]["phases"] if p["kind"] == "day")["steps"]
    last_of_the_pass = next(s for s in turns if "nearest living player" in s["do"]["en"])["do"][lang]
    check = plain(LABEL[lang]) + plain(script["win-check"][lang])[:20]
    text = read(salem / f"salem-1692-script-{lang}-8p.pdf")
    passes = [match.end() for match in re.finditer(re.escape(plain(last_of_the_pass)), text)]
    assert len(passes) == 2  # the Moderator's version and the Town Crier's
    for end in passes:
        # Right after the step, behind the label.
        assert text.find(check, end) == end, text[end : end + 60]
    rulebook = read(salem / f"salem-1692-rulebook-{lang}.pdf")
    said = {
        "en": "The pass can make every living player a witch: check whether the witches have won.",
        "vi": "Lượt chuyền bài có thể biến mọi người còn sống thành Phù Thuỷ: hãy kiểm tra xem phe Phù Thuỷ đã thắng chưa.",
        "zh": "传牌之后，存活玩家可能已全是女巫：要检查女巫是否获胜。",
        "es": "Tras el pase, puede que todos los vivos sean brujas: hay que comprobar si han ganado las brujas.",
    }[lang]
    assert plain(said) in rulebook


@pytest.mark.parametrize("lang", LANGS)
def test_a_death_on_a_turn_takes_the_matchmakers_partner_along(salem, lang):
    turns = next(p for p in salem_script()["versions"]["moderator"]["phases"] if p["kind"] == "day")["steps"]
    dying = next(plain(s["do"][lang]) for s in turns if s["do"]["en"].startswith("Whenever someone dies"))
    accused = next(plain(s["do"][lang]) for s in turns if s["do"]["en"].startswith("A player reaches 7"))
    partner = {
        "en": "the holder of the other Matchmaker dies with them",
        "vi": "người giữ lá Mai Mối kia cũng chết theo",
        "zh": "持有另一张红娘的玩家也随之死亡",
        "es": "quien tenga el otro Casamentero muere con él",
    }[lang]
    text = read(salem / f"salem-1692-script-{lang}-8p.pdf")
    starts = [match.end() for match in re.finditer(re.escape(dying), text)]
    assert len(starts) == 2  # the Moderator's turns and the Town Crier's
    for start in starts:
        # Said with the other deaths of a turn, before the accusations that cause them.
        assert start < text.find(plain(partner), start) < text.find(accused, start)


def test_the_vietnamese_win_check_asks_a_real_question(salem):
    text = read(salem / "salem-1692-script-vi-8p.pdf")
    # "có phải … không?" asks; the old line stated it and ended in a question mark.
    assert plain("Có phải mọi người còn sống đều là Phù Thuỷ") in text and plain("không? Nếu phải,") in text


# What a native moderator corrected in Salem: (card sheet or script, a phrase now printed, a phrase gone).
SALEM_CORRECTED = {
    "vi": [
        ("cards", "nhưng từ đó không còn Thanh Tra", "vai Thanh Tra bị loại"),
        ("cards", "Mỗi lá Bằng Chứng chơi lên bạn", "Lá Bằng Chứng đặt lên bạn"),
    ],
    "zh": [
        # The Constable card read as its holder leaving the game.
        ("cards", "但从此不再有警长。", "警长从此退出游戏"),
        ("cards", "黑猫持有者的一张审判牌会被翻开", "持有黑猫者翻开"),
        ("script", "看看你们的同伙是谁", "看看你的同伙是谁"),
        ("script", "所有人请闭眼。", "所有人，请"),
    ],
    "es": [
        # "revela una de sus cartas" read as the accuser's own cards.
        (
            "cards",
            "quien jugó la última revela una carta de Juicio de ese jugador",
            "revela una de sus cartas de Juicio y",
        ),
        ("cards", "eres del pueblo: ganas cuando", "ganáis"),
        ("cards", "quien reciba una Bruja pasa a ser bruja", "Bruja, pasa"),
        (
            "script",
            "revela una carta de Juicio de ese jugador y se descartan las cartas rojas que tiene delante",
            "seguid jugando",
        ),
    ],
}


@pytest.mark.parametrize("lang", ("vi", "zh", "es"))
def test_salem_prints_the_native_moderators_corrections(salem, lang):
    printed = {
        "cards": read(salem / f"salem-1692-cards-{lang}.pdf"),
        "script": read(salem / f"salem-1692-script-{lang}-8p.pdf"),
    }
    for document, now, gone in SALEM_CORRECTED[lang]:
        assert plain(now) in printed[document], now
        assert plain(gone) not in printed[document], gone


# A native moderator's re-reading of every Mafia text: (document, language, a phrase now printed, the
# phrase it replaced).
MAFIA_RE_READ = [
    # "A solas" is "in private"; the Loner wins as the last one left.
    ("cards", "es", "o si no queda nadie más", "a solas"),
    # The moderator works the deaths out; there is nothing to decide.
    ("script", "es", "Determina quién ha muerto", "Decide quién ha muerto"),
    ("rulebook", "es", "quien el moderador da por muerto", "quien muere según el moderador"),
    # The card speaks to one player.
    ("cards", "vi", "bạn chỉ mở mắt để nhận mặt đồng bọn", "các bạn chỉ mở mắt để nhận mặt nhau"),
    ("script", "zh", "黑手党人数已不少于好人", "黑手党人数已够"),
    ("cards", "zh", "你仍参与黑手党的击杀", "你仍和黑手党一起选人击杀"),
]


@pytest.mark.parametrize(("document", "lang", "now", "before"), MAFIA_RE_READ)
def test_mafia_prints_the_native_moderators_corrections(mafia, document, lang, now, before):
    text = read(mafia["box"] / f"mafia-vendetta-{document}-{lang}.pdf")
    assert plain(now) in text and plain(before) not in text


# The narrator page ------------------------------------------------------------------------------------


@needs_browser
def test_the_narrator_page_reads_the_yakuza_win_check_at_a_yakuza_table(tmp_path):
    result = run("narrator", "mafia-vendetta", "--lang", "en", "--out", str(tmp_path / "out"), "--no-open")
    assert result.exit_code == 0, result.output
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.output.strip()))

        def checks() -> list[str]:
            return [text for _, steps in script_view(page) for kind, _, _, text in steps if kind == "check"]

        choose_table(page, players=12, setup=1)  # Yakuza mode
        assert checks() and all(CIVILIANS_WITH_YAKUZA["en"] in text and YAKUZA_WIN["en"] in text for text in checks())
        assert not any(CIVILIANS_PLAIN["en"] in text for text in checks())
        choose_table(page, players=12)  # Standard
        assert checks() and all(CIVILIANS_PLAIN["en"] in text and "Yakuza" not in text for text in checks())
        assert session.errors == []
