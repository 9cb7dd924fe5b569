"""Generated decks for the benchmark: a number of roles and copies in, a game folder out.

``write_game(folder, roles, copies)`` writes a Werewolf-like game in English and Chinese: Werewolf's
back (symbol, pattern, colour), its teams with their marks and paw trail, and `roles` roles of `copies`
copies each, every role with its own name and an ability of its own (about the length of Werewolf's),
each drawn with one of Werewolf's symbols. Distinct roles cost a fit of every text; copies only a
placement. With ``documents=True`` the game has a short rulebook and a moderator script too, and
every NIGHT_EVERY-th role a night call of its own, so that the rulebook's components and the script's
night grow with the roles. ``missing`` names further languages the game declares that no role has
a text in (each a warning of ``cardgen validate``); ``complete`` gives every role those texts too.
run.py and scaling.py use them to see that the cost a card stays flat as decks grow.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
WEREWOLF = HERE.parent / "decks" / "werewolf"

GAME = """\
name: {{en: "{name}", zh: "{name_zh}"}}
{languages}card-size: poker
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
LANGUAGES = "languages: [en, zh]\n"

ROLE_TEXTS = """\
  {lang}: "{text}"
"""

# One role in this many calls at night: the script grows with the roles, and 1,000 roles make 100 calls.
NIGHT_EVERY = 10
NIGHT = """\
night:
  order: {order}
  script:
    say: {{en: "{title} {i}, wake up and point at a player.", zh: "{title_zh}{i_zh}请睁眼，指一名玩家。"}}
    do: {{en: "Note whom the {title} {i} chose.", zh: "记下{title_zh}{i_zh}指的人。"}}
"""

RULEBOOK = """\
players: {min: 5, max: 18}
sections:
  goal:
    title: {en: "Goal", zh: "游戏目标"}
    body:
      - text:
          en: "Werewolves hide among the villagers. By night they strike; by day the village votes one player out."
          zh: "狼人藏身于村民之中。夜里狼人出手，白天全村投票放逐一人。"
"""

SCRIPT = """\
title: {en: "Moderator script", zh: "主持人台词"}
setup:
  - do: {en: "Deal one card to each player, face down.", zh: "每人发一张牌，背面朝上。"}
versions:
  moderator:
    name: {en: "Moderator", zh: "法官"}
    phases:
      - title: {en: "First night", zh: "第一晚"}
        kind: first-night
        steps:
          - say: {en: "Night falls. Everyone, close your eyes.", zh: "天黑请闭眼。"}
          - roles: first-night
      - title: {en: "Night", zh: "夜晚"}
        kind: night
        steps:
          - say: {en: "Night falls. Everyone, close your eyes.", zh: "天黑请闭眼。"}
          - roles: night
      - title: {en: "Dawn", zh: "天亮"}
        kind: dawn
        steps:
          - say: {en: "Dawn breaks. Everyone, open your eyes.", zh: "天亮了，所有人请睁眼。"}
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


def _in_every(text: str, langs: tuple[str, ...]) -> str:
    """Each one-line {en, zh} mapping of a YAML text given the English text in `langs` too."""
    return re.sub(
        r'\{en: "([^"]*)", zh: "([^"]*)"\}',
        lambda m: "{" + ", ".join([f'en: "{m[1]}"', f'zh: "{m[2]}"', *(f'{lang}: "{m[1]}"' for lang in langs)]) + "}",
        text,
    )


def _zh_number(n: int) -> str:
    return "".join(DIGITS_ZH[int(d)] for d in str(n))


def write_game(
    folder: Path,
    roles: int,
    copies: int,
    label: str,
    title: str = "Keeper",
    documents: bool = False,
    missing: tuple[str, ...] = (),
    complete: bool = False,
) -> None:
    """A game of `roles` distinct roles, `copies` of each, at folder (which must not exist yet); each
    role is called `title` and its number (another title: texts no other generated game has)."""
    title_zh = "守护者" if title == "Keeper" else "看守"
    (folder / "roles").mkdir(parents=True)
    shutil.copytree(WEREWOLF / "symbols", folder / "symbols")
    languages = f"languages: [{', '.join(('en', 'zh', *missing))}]\n"
    game = GAME.format(name=f"Generated {label}", name_zh=f"生成 {label}", languages=languages)
    (folder / "game.yaml").write_text(_in_every(game, missing), encoding="utf-8")
    if documents:
        (folder / "rulebook.yaml").write_text(RULEBOOK, encoding="utf-8")
        (folder / "script.yaml").write_text(SCRIPT, encoding="utf-8")
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
        extra = "".join(ROLE_TEXTS.format(lang=lang, text=ability) for lang in missing) if complete else ""
        night = (
            NIGHT.format(order=i, title=title, i=i, title_zh=title_zh, i_zh=_zh_number(i))
            if documents and i % NIGHT_EVERY == 1
            else ""
        )
        role = (
            ROLE.format(
                name=f"{title} {i}",
                name_zh=f"{title_zh}{_zh_number(i)}",
                team="werewolves" if i % 5 == 0 else "village",
                copies=copies,
                symbol=SYMBOLS[i % len(SYMBOLS)],
                ability=ability,
                ability_zh=ability_zh,
            )
            + extra
            + night
        )
        (folder / "roles" / f"role-{i:05d}.yaml").write_text(
            _in_every(role, missing) if complete else role, encoding="utf-8"
        )
