"""Werewolf's and Werewords' fixed words and rules, read back from the built PDFs and the narrator page
in every language: the Werewolf card's win, the Lovers in the night order, the house marks of the setup
table and its 5-7 player columns, the Yes/No tokens, what the narrator page does with nobody narrating,
the Fortune Teller's letters, and the native speakers' corrections."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, run
from narrator_browser import as_built, browser, needs_browser, script_view
from test_werewords_rules import flat, text_of

LANGS = ("en", "vi", "zh", "es")


class Texts(dict):
    """The text of each PDF in the folders, by its name without .pdf, read the first time it is asked for."""

    def __init__(self, *folders: Path):
        super().__init__()
        self.folders = folders

    def __missing__(self, name: str) -> str:
        path = next(path for folder in self.folders for path in folder.glob(f"*/{name}.pdf"))
        text = self[name] = flat(text_of(path)).replace("\u00a0", " ")
        return text


@pytest.fixture(scope="module")
def built(bundled, tmp_path_factory):
    """Both games for the whole box in every language (the session's bundled build), and Werewolf's script
    for 6 players: the text of each PDF."""
    out = tmp_path_factory.mktemp("words")
    result = run("build", "werewolf", "--players", "6", "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    return Texts(out, bundled)


def first_night_mark(lang: str) -> str:
    """The mark after a first-night-only name, with the gap its language puts before it."""
    return yaml.safe_load((ROOT / "templates" / "documents" / "text.yaml").read_text(encoding="utf-8"))[lang][
        "first_night_mark"
    ]


# Per language: the first night's first four steps in the source's wake order (Thief, Cupid, the Lovers,
# the Guard), the setup table's rows, the players line, and the words of the house-marked setup step that
# say why the table starts below the source's 8 players.
WEREWOLF = {
    "en": {
        "night": ("Thief", "Cupid", "Lovers", "Guard"),
        "rows": ("Players", "Werewolf", "Seer", "Villager"),
        "players": "5–18 players",
        "why": "the columns for 5 to 7 players are ours, with one werewolf",
    },
    "vi": {
        "night": ("Kẻ trộm", "Thần tình yêu", "Cặp đôi", "Bảo vệ"),
        "rows": ("Số người", "Ma sói", "Tiên tri", "Dân làng"),
        "players": "5–18 người chơi",
        "why": "các cột 5 đến 7 người là của chúng tôi, với một Sói",
    },
    "zh": {
        "night": ("盗贼", "丘比特", "情侣", "守卫"),
        "rows": ("人数", "狼人", "预言家", "村民"),
        "players": "5–18 人",
        "why": "人这几列是我们定的，只放一匹狼",  # the page may break between 7 and 人
    },
    "es": {
        "night": ("Ladrón", "Cupido", "Enamorados", "Salvador"),
        "rows": ("Jugadores", "Hombre lobo", "Vidente", "Aldeano"),
        "players": "5–18 jugadores",
        "why": "las columnas de 5 a 7 jugadores son nuestras, con un solo lobo",
    },
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_night_order_has_the_lovers_step_after_cupid_on_the_first_night(built, lang):
    thief, cupid, lovers, guard = WEREWOLF[lang]["night"]
    only = first_night_mark(lang)
    assert f"1. {thief}{only} 2. {cupid}{only} 3. {lovers}{only} 4. {guard} " in built[f"werewolf-rulebook-{lang}"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_setup_table_marks_the_seer_row_and_the_5_to_7_player_columns_as_ours(built, lang):
    players, werewolf, seer, villager = WEREWOLF[lang]["rows"]
    text = built[f"werewolf-rulebook-{lang}"]
    assert (
        f"{players} ◆5 ◆6 ◆7 8 9 10 11 12 13 14 15 16 17 18 "
        f"{werewolf} 1 1 1 2 2 2 2 3 3 3 3 3 3 4 "
        f"◆ {seer} 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
        f"{villager} 3 4 5 5 6 7 8 8 9 10 11 12 13 13"
    ) in text
    assert WEREWOLF[lang]["players"] in text
    # The setup's fourth step, the house rule on picking the cards, says why.
    step = text.index("4. ◆ ")
    assert WEREWOLF[lang]["why"] in text[step : text.index(" 5. ", step)]


def test_six_players_are_dealt_one_werewolf_the_seer_and_four_villagers(built):
    result = run("setup", "werewolf", "--players", "6")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "werewolf, 6 players (standard, ◆ our own row): 6 cards\n    1 x Werewolf\n    1 x Seer\n    4 x Villager\n"
    )
    script = built["werewolf-script-en-6p"]
    assert "Take these 6 cards: 1 × Werewolf, 1 × Seer, 4 × Villager." in script
    # The small columns are the rulebook's only: the table's script neither marks nor explains them.
    assert WEREWOLF["en"]["why"] not in script


@needs_browser
def test_the_narrator_page_for_six_players_wakes_the_seer_and_the_werewolves(tmp_path):
    out = tmp_path / "out"
    result = run("build", "werewolf", "--lang", "en", "--players", "6", "--out", str(out))
    assert result.exit_code == 0, result.output
    with browser(tmp_path / "profile") as session:
        page = session.open(out / "werewolf" / "werewolf-narrator-en-6p.html")
        as_built(page)
        assert page.input_value("#players") == "6"
        phases = dict(script_view(page))
        woken = [text.split(",")[0] for _, _, _, text in phases["First night"] if text.endswith("open your eyes.")]
        assert woken == ["Seer", "Werewolves"]
        deal = [text for _, _, _, text in phases["Setup"] if text.startswith("Take these")]
        assert deal == [
            "Take these 6 cards: 1 × Werewolf, 1 × Seer, 4 × Villager. Shuffle them and deal one face "
            "down to each player."
        ]
        assert session.errors == []


# The fixed words, each in the document that prints it: (game, document) -> per language, what it says.
SAYS = {
    # The Werewolf card's win, as the rulebook has it: the Pied Piper must die too.
    ("werewolf", "cards"): {
        "en": ("You win once every player who is not a werewolf is dead, the Pied Piper included.",),
        "vi": ("Phe Sói thắng khi mọi người không phải Sói đều đã chết, kể cả Người thổi sáo.",),
        "zh": ("狼人以外的玩家全部死亡（吹笛者也算在内）时，狼人获胜。",),
        "es": ("Los lobos ganan cuando han muerto todos los que no son lobos, el Flautista incluido.",),
    },
    # The Yes/No tokens are two-sided; what the page does with nobody narrating; the Fortune Teller's letters.
    ("werewords", "rulebook"): {
        "en": (
            "Yes / No (two-sided) ×36",
            "it shows the word to the Apprentice only when the Mayor's secret card is the Seer or the Fortune Teller",
            "It neither hands out nor counts the tokens, and it cannot see who points at whom",
            "◆ The Fortune Teller's letters. The original rules give the first letter of each word",
            "(长颈鹿, cháng jǐng lù: C J L)",
        ),
        "vi": (
            "Có / Không (hai mặt) ×36",
            "Người học việc chỉ được xem từ khi lá bí mật của Thị trưởng là Nhà tiên tri hoặc Nhà bói toán",
            "Trang không phát thẻ, không đếm thẻ và không thấy ai chỉ vào ai",
            "◆ Chữ cái của Nhà bói toán. Theo luật gốc, Nhà bói toán chỉ được biết mỗi từ",
            "lấy chữ cái đầu của mỗi tiếng, bỏ dấu thanh (đèn lồng: Đ L)",
        ),
        "zh": (
            "是／不是（正反两面） ×36",
            "只有镇长的秘密身份牌是先知或占卜师时，学徒才会看到真言",
            "页面不发标记、不数标记，也看不到谁指向了谁",
            "◆ 占卜师看到的字母。原规则给的是真言中每个单词的首字母。",
            "例如“长颈鹿”（cháng jǐng lù）就是 C J L",
        ),
        "es": (
            "Sí / No (de dos caras) ×36",
            "al Aprendiz le enseña la palabra solo si la carta secreta del Alcalde es la Vidente o la Adivina",
            "No reparte ni cuenta las fichas, y no ve quién señala a quién",
            "◆ Las letras de la Adivina. Las reglas originales le dan la primera letra de cada palabra",
            "(长颈鹿, cháng jǐng lù: C J L)",
        ),
    },
    # The native speakers' corrections: the Chinese Fortune Teller, with an example a moderator can follow.
    ("werewords", "cards"): {"zh": ("只能看到其中每个字的拼音首字母（如“长颈鹿”是 C J L）",)},
    ("werewords", "script"): {
        "zh": (
            "你看不到真言本身，只能看到其中每个字的拼音首字母。",
            "按每个字在这个词里的读音，取拼音的第一个字母（如“长颈鹿”写 C J L），写在纸条上给占卜师看",
        ),
        # Two end-of-game questions that were statements.
        "vi": (
            "Đã có người tìm ra từ chưa? Nếu rồi, đọc tiếp.",
            "Trong các lá vừa lật có Ma sói không? Nếu có, phe Dân làng thắng.",
        ),
    },
    ("werewolf", "script"): {
        # The Spanish dawn said that whoever protected survives and whoever poisoned dies.
        "es": (
            "El jugador al que protegió el Salvador sobrevive a los lobos.",
            "La víctima a la que curó la Bruja sobrevive. El jugador al que envenenó muere.",
        ),
        # The Sheriff's and Scapegoat's last words said "before you leave the table".
        "zh": ("警长，请在出局前指定接任你的玩家。", "替罪羊，出局前你可以指定明天能投票的玩家"),
    },
}
# What they said before, which none of them says any more.
NO_LONGER = {
    ("werewords", "rulebook"): {"en": "Yes ×36", "vi": "Có ×36", "zh": "是 ×36", "es": "Sí ×36"},
    ("werewolf", "script"): {"es": "Quien envenenó muere", "zh": "离场"},
    ("werewords", "script"): {"vi": "Từ đã bị tìm ra? Đọc tiếp."},
}


@pytest.mark.parametrize(
    "game, document, lang",
    [(game, document, lang) for (game, document), says in SAYS.items() for lang in says],
)
def test_the_documents_say_the_fixed_words(built, game, document, lang):
    text = built[f"{game}-{document}-{lang}"]
    for sentence in SAYS[game, document][lang]:
        assert sentence in text
    old = NO_LONGER.get((game, document), {}).get(lang)
    assert old is None or old not in text


# A native moderator's re-reading of every text: (document, language) → (a phrase now printed, the phrase
# it replaced).
RE_READ = {
    # "¡El pueblo ganan!": the team's name does not agree with a verb before it.
    ("werewolf-script", "es"): ("Se acabó la partida. Gana:", "Se acabó la partida: ¡"),
    # "If he dies by the vote… he dies at once."
    ("werewolf-rulebook", "es"): ("Si lo eliminan en la votación, lo envenenan o lo mata", "Si muere por votación"),
    # "For the last time" suggests earlier shots.
    ("werewolf-cards", "es"): ("puedes hacer un último disparo", "disparar por última vez"),
    # A title that asked without a question mark.
    ("werewolf-rulebook", "vi"): ("Thứ tự các quy tắc hoà phiếu", "Quy tắc hoà phiếu nào trước"),
    # 村民 / Dân làng is the Villager card: the whole village killed its Elder.
    ("werewolf-script", "vi"): ("Cả làng đã tự tay giết Già làng của mình.", "Dân làng đã tự tay giết Già làng."),
    ("werewolf-script", "zh"): ("全村亲手害死了自己的长老", "村民亲手害死了长老"),
    ("werewords-cards", "es"): ("Con tus preguntas, lleva al pueblo hacia ella", "Acerca al pueblo a ella"),
    # The English speaks to the werewolves and to the Minion.
    ("werewords-script", "vi"): ("Ma sói, các bạn có 15 giây", "Ma sói có 15 giây"),
    ("werewords-script", "zh"): ("爪牙，你不是狼人", "爪牙不是狼人"),
    ("werewords-rulebook", "zh"): ("从桌子中央拿到", "从中央拿到"),
}


@pytest.mark.parametrize(("document", "lang"), list(RE_READ))
def test_the_documents_print_the_native_re_reading(built, document, lang):
    now, before = RE_READ[document, lang]
    text = built[f"{document}-{lang}"].replace(" ", "")
    assert now.replace(" ", "") in text and before.replace(" ", "") not in text


def test_a_house_row_or_column_that_is_not_in_the_table_is_an_error(tmp_path):
    decks = tmp_path / "decks"
    shutil.copytree(ROOT / "decks" / "werewolf", decks / "werewolf")
    game = decks / "werewolf" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(
        text.replace("    house-rows: [seer]\n", "    house-rows: [witch]\n").replace(
            "    house-players: [5, 6, 7]\n", "    house-players: [5, 6, 4]\n"
        ),
        encoding="utf-8",
    )
    lines = text.splitlines()
    rows, players = lines.index("    house-rows: [seer]") + 1, lines.index("    house-players: [5, 6, 7]") + 1
    result = run("validate", str(decks / "werewolf"))
    assert (result.exit_code, result.output) == (
        1,
        f"werewolf/game.yaml:{rows}: error: setups.standard.house-rows.0: 'witch' is no row here (rows: werewolf, "
        "seer, villager)\n"
        f"werewolf/game.yaml:{players}: error: setups.standard.house-players.2: 4 is no player count here (5–18)\n"
        "2 errors\n",
    )
