"""The narrator page as a grimoire (issue #27), played in Debian's chromium: each point the issue found
at a real table, as its own test.

The pages are built once for the module; the page's clock is Playwright's (page.clock), stopped, so a
test moves it on itself: past the double-tap guard before each Next, through a timer at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.core.project import Project
from conftest import ROOT
from narrator_browser import browser, choose_table, needs_browser

pytestmark = needs_browser

VOICES = {
    "en": [{"name": "Stub", "lang": "en-US", "localService": True}],
    "vi": [{"name": "Stub Tiếng Việt", "lang": "vi-VN", "localService": True}],
    "zh": [{"name": "Stub 中文", "lang": "zh-CN", "localService": True}],
}
# Werewolf's table for ten with the roles whose rules the page keeps.
WEREWOLF = ("witch", "guard", "cupid", "hunter")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Narrator pages of each table the tests play, in every language (the pipeline's own call)."""
    from cardgen.build import BuildOptions, build

    root = tmp_path_factory.mktemp("grimoire")
    tables = {
        "werewolf": {"players": 10, "extra_cards": WEREWOLF},
        "mafia-vendetta": {"players": 7},
        "werewords": {},
        "salem-1692": {},
    }
    for game, table in tables.items():
        build(Project.at(ROOT / "decks"), [game], BuildOptions(out=root / game, kinds=("narrator",), jobs=2, **table))
    return lambda game, lang: next((root / game / game).glob(f"{game}-narrator-{lang}*.html"))


@pytest.fixture
def session(tmp_path):
    with browser(tmp_path / "profile", viewport={"width": 360, "height": 740}) as session:
        yield session
        assert not session.errors


def opened(session, path: Path, lang: str = "en"):
    page = session.open(path, voices=VOICES[lang], clock=True)
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("html[data-ready]")
    return page


def next_step(page) -> None:
    """Next, as a player taps it: after the step has begun (a tap sooner is taken for a double tap)."""
    page.clock.run_for(700)
    page.click("nav .next")


def text(page) -> str:
    """The step's line, without the house-rule mark."""
    return page.inner_text("#step-text").removeprefix("◆ ")


def until(page, done, act=None, limit=300) -> None:
    """Taps Next until `done(page)` holds, doing `act(page)` at every step on the way."""
    for _ in range(limit):
        if done(page):
            return
        if act:
            act(page)
        next_step(page)
    raise AssertionError("never reached")


def nobody(page) -> None:
    """Every choice of the step still open: nobody; the dawn: announced as suggested; the win check: play on."""
    for i in range(len(page.query_selector_all("#circle .tab"))):
        if page.inner_text(f'#circle .tab[data-choice="{i}"]').endswith(": ?"):
            page.click(f'#circle .tab[data-choice="{i}"]')
            page.click('#circle button[data-seat="none"]')
    if page.query_selector("#announce"):
        page.click("#announce")
    if page.query_selector("#win-check"):
        page.click("#play-on")


def pick(page, effect: str, seat: int) -> None:
    """Taps `seat` for the step's `effect` choice."""
    page.click(f'#circle .tab[data-choice="{effect_index(page, effect)}"]')
    assert page.get_attribute("#circle", "data-choosing") == effect
    page.click(f'#circle button[data-seat="{seat}"]')


def effect_index(page, effect: str) -> int:
    return page.evaluate("effect => current().line.choices.indexOf(effect)", effect)


def deal(page, cards: dict[int, str]) -> None:
    """The cards of some seats, set on the setup screen."""
    for seat, card in cards.items():
        page.select_option(f".seat-setup >> nth={seat} >> select", card)


def spoken(page) -> list[str]:
    return [s["text"] for s in page.evaluate("window.__spoken")]


def state(page) -> str:
    return page.evaluate("JSON.stringify(S.G)")


# ---- Werewords


def word_night(page) -> str:
    """Through the Werewords night: the Mayor picks the first word; every other private screen is shown
    and hidden. Returns the word."""
    word = None

    def act(page):
        nonlocal word
        if page.query_selector("#private-show"):
            page.click("#private-show")
            if page.query_selector(".candidate.role"):
                page.click(".candidate.role >> nth=0")
            if page.query_selector(".candidate"):
                word = page.inner_text(".candidate >> nth=0")
                page.click(".candidate >> nth=0")
            page.click("#private-hide")

    until(page, lambda p: p.query_selector(".timer") is not None, act)
    return word


def test_a_guessed_word_ends_the_game_and_nothing_more_is_read(pages, session):
    page = opened(session, pages("werewords", "en"))
    choose_table(page, players=5, version=0)
    page.click("#start")
    word = word_night(page)
    page.click("button.good")  # Word guessed!
    until(page, lambda p: text(p) == "The game is over: stop here.")
    assert page.is_disabled("nav .next") and page.query_selector("#winner")
    said = len(spoken(page))
    page.clock.run_for(700)
    page.evaluate("nextTap()")  # what a tap on Next does, were it not disabled
    page.clock.run_for(5_000)
    assert text(page) == "The game is over: stop here." and len(spoken(page)) == said
    page.click("#winner button >> nth=0")
    assert page.inner_text("#game-end .word-end strong") == word
    page.clock.run_for(700)
    page.evaluate("nextTap()")
    page.clock.run_for(5_000)
    assert page.query_selector("#game-end") and page.is_disabled("nav .next") and page.is_disabled("nav .back")
    assert not [t for t in spoken(page) if t.startswith("Nobody found the word.")]
    assert spoken(page)[-1] == page.inner_text("#game-end .announced")


def test_the_secret_word_is_reachable_neither_by_back_nor_by_a_reload_and_is_shown_at_the_end(pages, session):
    page = opened(session, pages("werewords", "en"))
    choose_table(page, players=6, version=0)
    page.click("#start")
    word = word_night(page)
    assert text(page) == "Start the day's countdown."
    for _ in range(6):
        page.clock.run_for(700)
        page.click("nav .back")
        assert word not in page.inner_text("body") and not page.query_selector("#private .secret")
        if page.query_selector("#private-show"):  # a step whose secret was shown: nothing to show again
            raise AssertionError(text(page))
    page.reload()
    page.wait_for_selector("html[data-ready]")
    assert word not in page.inner_text("body")
    until(
        page,
        lambda p: p.query_selector("#winner") is not None,
        lambda p: p.query_selector(".timer:not(.done)") and p.clock.run_for(241_000),
    )
    page.click("#winner button >> nth=0")
    assert page.inner_text("#game-end .word-end strong") == word


def test_the_day_timer_runs_on_after_its_step_is_left_and_rings(pages, session):
    page = opened(session, pages("werewords", "en"))
    choose_table(page, players=5, version=0)
    page.click("#start")
    word_night(page)
    line = text(page)
    page.click(".timer .start")
    next_step(page)
    assert text(page) != line
    page.clock.run_for(241_000)
    assert page.evaluate("window.__tones") == 3
    assert page.inner_text("#running .timer .caption") == line
    assert page.inner_text("#running .timer .clock") == "Time!"
    page.reload()
    page.wait_for_selector("html[data-ready]")
    assert page.inner_text("#running .timer .clock") == "Time!"


def test_the_werewords_winners_are_the_villagers_or_the_werewolves_never_the_neutral_mayor(pages, session):
    page = opened(session, pages("werewords", "en"))
    choose_table(page, players=5, version=0)
    page.click("#start")
    word_night(page)
    page.click("button.good")
    until(page, lambda p: p.query_selector("#winner") is not None)
    teams = page.eval_on_selector_all("#winner button", "buttons => buttons.map(b => b.dataset.team)")
    assert teams == ["village", "werewolves"]


# ---- the seat circle on a phone


def test_twenty_seats_and_the_buttons_fit_a_phone_held_upright(pages, session):
    page = opened(session, pages("werewords", "en"))
    choose_table(page, players=20, version=0)
    page.click("#start")
    next_step(page)
    boxes = page.eval_on_selector_all(
        "#circle .seat, nav button",
        "all => all.map(b => { const r = b.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })",
    )
    assert len(boxes) == 22
    for x, _, width, height in boxes:
        assert x >= 0 and x + width <= 360 and width >= 44 and height >= 44
    seats = [(x + w / 2, y + h / 2) for x, y, w, h in boxes[:20]]
    # Round seats never overlap: their centres are a seat's width apart.
    assert min(((a - c) ** 2 + (b - d) ** 2) ** 0.5 for i, (a, b) in enumerate(seats) for c, d in seats[i + 1 :]) >= 44
    assert page.evaluate("document.documentElement.scrollWidth") == 360


def test_a_200_character_name_is_cut_with_an_ellipsis(pages, session):
    page = opened(session, pages("werewolf", "en"))
    name = "Bartholomew " * 17  # 204 characters
    page.fill(".seat-setup >> nth=3 >> input", name)
    page.dispatch_event(".seat-setup >> nth=3 >> input", "input")
    page.click("#start")
    seat = page.query_selector('#circle .seat[data-seat="3"]')
    assert seat.get_attribute("title") == name.strip()
    box = seat.bounding_box()
    assert box["width"] == seat.evaluate("s => s.offsetWidth") and box["x"] + box["width"] <= 360
    label = seat.query_selector(".name")
    assert label.evaluate("n => getComputedStyle(n).textOverflow") == "ellipsis"
    assert label.evaluate(
        "n => n.scrollWidth > n.clientWidth && n.getBoundingClientRect().right <= n.parentNode.getBoundingClientRect().right"
    )
    assert page.evaluate("document.documentElement.scrollWidth") == 360


# ---- Werewolf and Mafia: the night's choices, the dawn, the day


def to_text(page, wanted: str, act=nobody) -> None:
    until(page, lambda p: text(p) == wanted, act)


def test_the_witch_sees_the_werewolves_victim(pages, session):
    page = opened(session, pages("werewolf", "en"))
    page.click("#start")
    to_text(page, "Werewolves, see who your pack is. Agree in silence on one player to devour, then all point at them.")
    pick(page, "target", 3)
    until(page, lambda p: text(p).startswith("Here is the werewolves’ victim."), nobody)
    assert page.inner_text("#circle .target") == "Tonight's victim: Seat 4"
    assert page.get_attribute('#circle .seat[data-seat="3"]', "class") == "seat targeted"


def test_used_potions_are_remembered_from_night_to_night(pages, session):
    page = opened(session, pages("werewolf", "en"))
    deal(page, {0: "witch", 1: "werewolf"})
    page.click("#start")
    witch = "Here is the werewolves’ victim."
    to_text(page, "Werewolves, see who your pack is. Agree in silence on one player to devour, then all point at them.")
    pick(page, "target", 3)
    until(page, lambda p: text(p).startswith(witch), nobody)
    # The potion saves the victim only.
    assert page.is_disabled('#circle .seat[data-seat="4"]') and not page.is_disabled('#circle .seat[data-seat="3"]')
    pick(page, "save", 3)
    page.click('#circle .tab[data-choice="1"]')
    page.click('#circle button[data-seat="none"]')
    until(page, lambda p: p.query_selector("#announce") is not None, nobody)
    assert page.inner_text(".dawn .dying") == "Nobody"
    page.click("#announce")
    assert page.get_attribute('#circle .seat[data-seat="3"] .reminder', "data-reminder") == "used-save"
    until(page, lambda p: text(p).startswith(witch) and "Night 2" in p.inner_text(".phase"), nobody)
    page.click('#circle .tab[data-choice="0"]')
    assert page.get_attribute("#circle", "data-choosing") == "save"
    assert all(page.is_disabled(f'#circle .seat[data-seat="{i}"]') for i in range(10))
    page.click('#circle .tab[data-choice="1"]')
    assert not page.is_disabled('#circle .seat[data-seat="5"]')


def dawn_texts(page) -> list[str]:
    """The lines of the page's dawn that are read only after a death."""
    return page.evaluate("""() => D.versions[S.version].phases.filter(p => p.kind === 'dawn')
        .flatMap(p => p.lines).filter(l => l.kind === 'say' && (l.died || l.deaths === true)).map(l => l.text)""")


def test_a_quiet_werewolf_night_in_chinese_reads_no_death_lines(pages, session):
    page = opened(session, pages("werewolf", "zh"), "zh")
    page.click("#start")
    until(page, lambda p: p.get_attribute("body", "data-phase") == "day", nobody)
    said = spoken(page)
    assert "昨晚是平安夜。" in said
    deadly = dawn_texts(page)
    assert any(t.startswith("猎人倒下了") for t in deadly) and any("殉情" in t or "失去" in t for t in deadly)
    assert not set(deadly) & set(said)
    assert not [t for t in said if "……" in t]


def test_a_quiet_mafia_night_in_vietnamese_names_no_victim(pages, session):
    page = opened(session, pages("mafia-vendetta", "vi"), "vi")
    page.click("#start")

    def act(page):
        # The Mafia pick a victim on the first night: it has none.
        if page.get_attribute("#circle", "data-choosing") == "target":
            page.click('#circle button[data-seat="2"]')
        nobody(page)

    until(page, lambda p: p.get_attribute("body", "data-phase") == "day", act)
    said = spoken(page)
    assert "Đêm qua không ai chết." in said
    assert "Đêm qua Mafia đã giết [tên]." in dawn_texts(page)
    assert not [t for t in said if "[tên]" in t or "Mafia đã giết" in t]


def test_the_vote_out_kills_the_seat_tapped_and_the_win_check_follows(pages, session):
    page = opened(session, pages("werewolf", "en"))
    deal(page, {0: "werewolf", 1: "werewolf", 4: "villager", 5: "seer"})
    page.fill(".seat-setup >> nth=4 >> input", "Ana")
    page.dispatch_event(".seat-setup >> nth=4 >> input", "input")
    page.click("#start")
    until(page, lambda p: p.get_attribute("#circle", "data-choosing") == "vote", nobody)
    assert page.is_disabled("#vote-out")
    page.click('#circle .seat[data-seat="4"]')
    assert page.inner_text("#vote .voted") == "Ana"
    page.click("#vote-out")
    assert page.get_attribute('#circle .seat[data-seat="4"]', "data-alive") == "0"
    assert page.is_visible("#win-check")
    assert page.eval_on_selector_all("#win-check .counts li", "items => items.map(i => i.textContent)") == [
        "Village: 1 alive",
        "Werewolves: 2 alive",
    ]
    page.click("#play-on")
    until(page, lambda p: text(p).endswith("the village has voted you out."))
    assert text(page) == "Ana, the village has voted you out."
    page.clock.run_for(200)
    assert spoken(page)[-1] == "Ana, the village has voted you out."
    until(page, lambda p: text(p).endswith("You are out, and from now on you stay silent."))
    assert text(page).startswith("Ana, turn your card face up")


def test_back_and_next_undo_each_other_also_at_a_nights_start(pages, session):
    page = opened(session, pages("werewolf", "en"))
    page.click("#start")
    to_text(
        page,
        "Point at the player you will protect tonight. You may choose yourself, but not the same player as last night.",
    )
    pick(page, "protect", 2)
    here = state(page)
    steps = []
    for _ in range(4):
        next_step(page)
        steps.append(state(page))
    for _ in range(4):
        page.clock.run_for(700)
        page.click("nav .back")
    assert state(page) == here and page.get_attribute('#circle .seat[data-seat="2"]', "class") == "seat on"
    for expected in steps:
        next_step(page)
        assert state(page) == expected
    until(page, lambda p: text(p) == "Night falls again. Everyone, close your eyes.", nobody)
    night = (page.inner_text(".phase"), state(page))
    assert night[0].endswith("Night 2")
    for _ in range(3):
        page.clock.run_for(700)
        page.click("nav .back")
        next_step(page)
        assert (page.inner_text(".phase"), state(page)) == night


def test_a_double_tap_on_next_does_not_skip_a_call(pages, session):
    page = opened(session, pages("werewolf", "en"))
    page.click("#start")
    to_text(page, "Guard, close your eyes.")
    page.clock.run_for(700)
    page.click("nav .next")
    page.clock.run_for(40)
    page.click("nav .next")
    assert text(page) == "Seer, open your eyes."
    page.clock.run_for(200)
    assert spoken(page)[-1] == "Seer, open your eyes."


# ---- Salem


def test_salems_hourglass_waits_for_a_tap(pages, session):
    page = opened(session, pages("salem-1692", "en"))
    choose_table(page, players=7, version=0)
    page.click("#start")
    until(page, lambda p: p.query_selector(".timer") is not None and p.get_attribute("body", "data-phase") == "night")
    assert text(page).startswith("Turn the hourglass.")
    page.clock.run_for(10_000)
    assert page.inner_text(".timer .clock") == "0:30"
    page.click(".timer .start")
    page.clock.run_for(10_000)
    assert page.inner_text(".timer .clock") == "0:20"


def test_werewords_with_no_narrator_runs_every_step_and_the_apprentice_sees_nothing_unless_told(pages, session):
    page = opened(session, pages("werewords", "en"))
    choose_table(page, players=6, extra=("apprentice",), version=1)
    page.click("#start")
    assert page.is_checked("nav .auto input")
    privates = {}
    for _ in range(400):
        if page.query_selector("#winner"):
            break
        if page.query_selector("#private-show"):
            assert page.inner_text("#private h2").startswith("Hand the phone to ")
            page.click("#private-show")
            if page.query_selector('.candidate.role[data-card="villager"]'):
                page.click('.candidate.role[data-card="villager"]')
            if page.query_selector(".candidate"):
                page.click(".candidate >> nth=0")
            privates[page.inner_text("#private h2")] = page.inner_text("#private .secret")
            page.click("#private-hide")
        page.clock.run_for(1_000)
    # Nobody tapped Next: the page went on by itself, its day timer too.
    assert page.query_selector("#winner") and page.evaluate("window.__tones") >= 3
    word = privates["For Mayor only"]
    assert privates["For Seer only"] == word
    # The Mayor's secret card is a Villager: the Apprentice is shown, for as long, that there is nothing.
    assert privates["For Apprentice only"] == "Nothing to see tonight."
    assert word not in page.inner_text("body")
