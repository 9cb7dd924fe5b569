"""Generated decks for the benchmark: a number of roles and copies in, a game folder out.

``write_game(folder, roles, copies)`` writes a Werewolf-like game in English and Chinese: Werewolf's
back (symbol, pattern, colour), its teams with their marks and paw trail, and `roles` roles of `copies`
copies each, every role with its own name and an ability of its own (about the length of Werewolf's),
each drawn with one of Werewolf's symbols. Distinct roles cost a fit of every text; copies only a
placement. run.py uses them to see that the cost a card stays flat from hundreds to 10,000 cards.
"""

from __future__ import annotations

import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
WEREWOLF = HERE.parent / "decks" / "werewolf"

GAME = """\
name: {{en: "{name}", zh: "{name_zh}"}}
languages: [en, zh]
card-size: poker
back:
  symbol: symbols/back.svg
  pattern: symbols/paw.svg
  color: "#262040"
teams:
  village:
    name: {{en: "Village", zh: "好人阵营"}}
    color: "#2f6b3a"
    mark: symbols/mark-house.svg
  werewolves:
    name: {{en: "Werewolves", zh: "狼人阵营"}}
    color: "#8c1c13"
    mark: symbols/paw.svg
    edge: symbols/paw.svg
groups:
  role: {{en: "Role", zh: "角色"}}
"""

ROLE = """\
name: {{en: "{name}", zh: "{name_zh}"}}
team: {team}
count: {copies}
symbol: symbols/{symbol}
ability:
  en: "{ability}"
  zh: "{ability_zh}"
"""

SYMBOLS = (
    "seer.svg",
    "witch.svg",
    "hunter.svg",
    "guard.svg",
    "cupid.svg",
    "elder.svg",
    "thief.svg",
    "villager.svg",
    "werewolf.svg",
    "little-girl.svg",
    "scapegoat.svg",
    "sheriff.svg",
)
WORDS = ("lantern", "orchard", "bell", "river", "mill", "candle", "well", "barn", "meadow", "forge")
WORDS_ZH = ("灯笼", "果园", "钟楼", "河边", "磨坊", "蜡烛", "水井", "谷仓", "草地", "铁匠铺")
DIGITS_ZH = "零一二三四五六七八九"


def _zh_number(n: int) -> str:
    return "".join(DIGITS_ZH[int(d)] for d in str(n))


def write_game(folder: Path, roles: int, copies: int, label: str, title: str = "Keeper") -> None:
    """A game of `roles` distinct roles, `copies` of each, at folder (which must not exist yet); each
    role is called `title` and its number (another title: texts no other generated game has)."""
    title_zh = "守护者" if title == "Keeper" else "看守"
    (folder / "roles").mkdir(parents=True)
    shutil.copytree(WEREWOLF / "symbols", folder / "symbols")
    (folder / "game.yaml").write_text(GAME.format(name=f"Generated {label}", name_zh=f"生成 {label}"), encoding="utf-8")
    for i in range(1, roles + 1):
        word, other = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
        word_zh, other_zh = WORDS_ZH[i % len(WORDS_ZH)], WORDS_ZH[(i * 7 + 3) % len(WORDS_ZH)]
        ability = (
            f"Each night, the {title.lower()} of the {word} number {i} points at {i % 4 + 1} players; the moderator "
            f"shows you whether one of them sleeps by the {other}. Share it only when the village votes."
        )
        ability_zh = (
            f"每晚，{word_zh}的第{_zh_number(i)}号{title_zh}指定{_zh_number(i % 4 + 1)}名玩家，法官告诉你其中是否有人"
            f"睡在{other_zh}旁。只在全村投票时才能说出来。"
        )
        (folder / "roles" / f"role-{i:04d}.yaml").write_text(
            ROLE.format(
                name=f"{title} {i}",
                name_zh=f"{title_zh}{_zh_number(i)}",
                team="werewolves" if i % 5 == 0 else "village",
                copies=copies,
                symbol=SYMBOLS[i % len(SYMBOLS)],
                ability=ability,
                ability_zh=ability_zh,
            ),
            encoding="utf-8",
        )
