"""The narrator page: built like the PDFs, one source with the PDF script, run in Debian's chromium.

The page is checked against the PDF script for every bundled game and language and several tables
(the script's text read back with pypdf, the page's out of the loaded page), then played: a
Werewords round with the clock sped up, a Werewolf first night, a Salem Night with its hourglass,
with speech synthesis and WebAudio stubbed so that what the page asks of them is seen.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from html import unescape
from pathlib import Path

import pypdf
import pytest
import yaml

from cardgen.build import card_sizes, check
from cardgen.core.project import Project
from cardgen.deck.model import Marks
from cardgen.deck.resolve import AnyGlyph, resolve_deck
from cardgen.deck.tonight import parse_roles, tonight
from cardgen.documents import narrator
from cardgen.documents import script_lines as script_writer
from conftest import ROOT, run
from narrator_browser import as_built, browser, choose_table, needs_browser, script_view

GAMES = ("werewolf", "mafia-vendetta", "salem-1692", "werewords")
LANGS = ("en", "vi", "zh", "es")
SPEECH = {"en": "en-US", "vi": "vi-VN", "zh": "zh-CN", "es": "es-ES"}
# Tables to compare, per game: (build options, the same table on the page's setup screen).
TABLES = {
    "werewolf": [
        ((), {}),
        (("--players", "10", "--with", "witch", "--with", "hunter"), {"players": 10, "extra": ("witch", "hunter")}),
        (("--players", "8", "--with", "thief", "--with", "sheriff"), {"players": 8, "extra": ("thief", "sheriff")}),
        # Named card by card, the page starts from the build's own deal: read as it opens.
        (("--roles", "werewolf:2,seer,witch,thief,sheriff,villager:3"), {"own": True}),
    ],
    "mafia-vendetta": [((), {}), (("--players", "12", "--with", "psycho"), {"players": 12, "extra": ("psycho",)})],
    "salem-1692": [
        ((), {}),
        (("--players", "6", "--setup", "advanced"), {"players": 6, "setup": 1}),
        # Above 7 players the option of two Town Hall cards each (`up-to-players: 7`) is left out.
        (("--players", "9"), {"players": 9}),
    ],
    "werewords": [
        ((), {}),
        (
            ("--players", "5", "--with", "minion", "--with", "fortune-teller"),
            {"players": 5, "extra": ("minion", "fortune-teller")},
        ),
        # The Apprentice's line for a table without the Fortune Teller is an `unless` step.
        (("--players", "6", "--with", "apprentice"), {"players": 6, "extra": ("apprentice",)}),
    ],
}
TEXT = yaml.safe_load((ROOT / "templates" / "documents" / "text.yaml").read_text(encoding="utf-8"))


def phrases(lang: str) -> dict:
    return {**TEXT["en"], **TEXT.get(lang, {})}


def deck_of(game: str, lang: str, includes: tuple[Path, ...] = ()):
    project = Project.at(ROOT / "decks", includes)
    (files,), _ = check(project, [game], strict=False)
    deck, _ = resolve_deck(files, lang, None, card_sizes(project), AnyGlyph())
    return deck, files


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Every game's narrator pages and PDF scripts in every language, for each table of TABLES
    (the pipeline's own call: the command line has no option for building only some kinds)."""
    from cardgen.build import BuildOptions, build

    root = tmp_path_factory.mktemp("narrator")
    outs = {}
    for game, tables in TABLES.items():
        for n, (options, _) in enumerate(tables):
            values = dict(zip(options[::2], options[1::2]))
            extra = tuple(card for flag, card in zip(options[::2], options[1::2]) if flag == "--with")
            build(
                Project.at(ROOT / "decks"),
                [game],
                BuildOptions(
                    out=root / f"{game}-{n}",
                    kinds=("script", "narrator"),
                    jobs=2,
                    extra_cards=extra,
                    roles=parse_roles(values["--roles"]) if "--roles" in values else (),
                    players=int(values["--players"]) if "--players" in values else None,
                    setup=values.get("--setup"),
                ),
            )
            outs[game, n] = root / f"{game}-{n}" / game
    return outs


def pdf_text(path: Path) -> str:
    """The script's text without its page furniture (the header and the page number of each page)."""
    pages = [page.extract_text().split("\n", 2)[2] for page in pypdf.PdfReader(path).pages]
    return re.sub(r"\s+", "", "".join(pages))


def page_text(versions: list[tuple[str, list]], lang: str) -> str:
    """What the PDF prints for the page's script: each step's text with its house mark and countdown."""
    text = phrases(lang)
    out = []
    for name, phases in versions:
        if len(versions) > 1:
            out.append(name)
        for title, steps in phases:
            out.append(title)
            out += [
                script_writer.marked(step, Marks(house=house, timer=timer), text) for _, house, timer, step in steps
            ]
    return re.sub(r"\s+", "", "".join(out))


# ---- without a browser


def test_every_game_and_language_gets_a_small_page_and_a_rebuild_is_byte_identical(tmp_path):
    from cardgen.build import BuildOptions, build

    listed = run("build", "--list-targets", "--json")
    outputs = {o for target in json.loads(listed.stdout)["targets"] for o in target["outputs"]}
    pages = {f"output/{g}/{g}-narrator-{lang}.html" for g in GAMES for lang in LANGS}
    pages |= {"output/werewolf/werewolf-narrator-ja.html", "output/mafia-vendetta/mafia-vendetta-narrator-fa.html"}
    assert pages <= outputs

    def narrator(force: bool):
        return build(
            Project.at(ROOT / "decks"), [], BuildOptions(out=tmp_path, kinds=("narrator",), jobs=2, force=force)
        )

    assert len(narrator(False).files) == len(pages) == 18
    built = {p: p.read_bytes() for p in tmp_path.glob("*/*-narrator-*.html")}
    assert {p.relative_to(tmp_path).as_posix() for p in built} == {p.removeprefix("output/") for p in pages}
    assert max(len(data) for data in built.values()) < 1_000_000
    again = narrator(False)
    assert again.files == [] and again.up_to_date == 18
    assert len(narrator(True).files) == 18
    assert all(p.read_bytes() == data for p, data in built.items())


def test_a_narrator_template_change_rebuilds_only_the_narrator_pages(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT / "decks" / "werewords", project / "decks" / "werewords")
    out = tmp_path / "out"
    assert run("build", "--decks", str(project / "decks"), "--out", str(out), "--lang", "en").exit_code == 0
    own = project / "templates" / "narrator"
    own.mkdir(parents=True)
    css = (ROOT / "templates" / "narrator" / "narrator.css").read_text(encoding="utf-8")
    (own / "narrator.css").write_text(css + "\nh1 { letter-spacing: .02em; }\n", encoding="utf-8")
    result = run("build", "--decks", str(project / "decks"), "--out", str(out), "--lang", "en")
    assert result.exit_code == 0, result.output
    written, summary = result.stdout.splitlines()
    assert written == str(out / "werewords" / "werewords-narrator-en.html")
    assert summary.endswith("; 3 up to date")
    assert "letter-spacing: .02em" in (out / "werewords" / "werewords-narrator-en.html").read_text(encoding="utf-8")


def test_the_policy_forbids_requests_and_allows_exactly_the_pages_own_script_and_style(tmp_path):
    result = run("narrator", "werewords", "--lang", "vi", "--out", str(tmp_path), "--no-open")
    assert result.exit_code == 0, result.output
    path = Path(result.stdout.strip())
    assert path == tmp_path / "werewords" / "werewords-narrator-vi.html"
    html = path.read_text(encoding="utf-8")
    policy = unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1))
    rules = dict(rule.split(" ", 1) for rule in policy.split("; "))
    assert rules["default-src"] == "'none'" and "unsafe" not in policy

    def digest(source: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"

    code = re.search(r"<script>(.*)</script>", html, re.S).group(1)
    style = re.search(r"<style>(.*)</style>", html, re.S).group(1)
    assert rules["script-src"] == digest(code) and rules["style-src"] == digest(style)
    assert code == "\n".join(
        (ROOT / "templates" / "narrator" / name).read_text(encoding="utf-8") for name in narrator.SCRIPTS
    )
    # Only the narrator page was built.
    assert sorted(p.name for p in (tmp_path / "werewords").iterdir()) == ["werewords-narrator-vi.html"]


def test_a_game_without_a_script_has_no_narrator_page(tmp_path):
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", tmp_path / "project")
    result = run("narrator", "mini", "--decks", str(tmp_path / "project" / "decks"), "--no-open")
    assert result.exit_code == 1
    assert result.output.strip() == "error: decks/mini: game 'mini' has no script.yaml, so no narrator page"


def hostile_roles(folder: Path) -> Path:
    """A designer's folder with a Werewolf role at night order 25 and two hostile role names."""
    roles = folder / "werewolf" / "roles"
    roles.mkdir(parents=True)
    (roles / "fox.yaml").write_text(
        "name: {en: 'Fox', vi: 'Cáo', zh: '狐狸', es: 'Zorro'}\nteam: village\n"
        "ability: {en: 'Sniff three players.', vi: 'Ngửi.', zh: '嗅。', es: 'Olfatea.'}\n"
        "night:\n  order: 25\n  script:\n    say: {en: 'Fox, point at the middle of three neighbours.', "
        "vi: 'Cáo, hãy chỉ.', zh: '狐狸请指。', es: 'Zorro, señala.'}\n",
        encoding="utf-8",
    )
    for card_id, name in (("imgtag", "<img src=x onerror=alert(1)>"), ("scriptend", "</script><b>x</b>")):
        (roles / f"{card_id}.yaml").write_text(
            f"name: {{en: {name!r}, vi: {name!r}, zh: {name!r}, es: {name!r}}}\nteam: village\n"
            f"ability: {{en: 'x', vi: 'x', zh: 'x', es: 'x'}}\n",
            encoding="utf-8",
        )
    return folder


def test_role_names_are_escaped_into_the_page(tmp_path):
    folder = hostile_roles(tmp_path / "mine")
    result = run(
        "narrator",
        "werewolf",
        "--lang",
        "en",
        "--include",
        str(folder),
        "--out",
        str(tmp_path / "out"),
        "--players",
        "8",
        "--with",
        "imgtag",
        "--no-open",
    )
    assert result.exit_code == 0, result.output
    html = Path(result.stdout.strip()).read_text(encoding="utf-8")
    assert html.count("</script>") == 2 and "<img" not in html and "<b>x" not in html
    assert "\\u003c/script\\u003e\\u003cb\\u003ex" in html


# ---- in the browser


@needs_browser
@pytest.mark.parametrize("game", GAMES)
def test_the_page_reads_the_same_script_as_the_pdf_for_every_language_and_table(built, tmp_path, game):
    with browser(tmp_path / "profile") as session:
        for lang in LANGS:
            page = session.open(built[game, 0] / f"{game}-narrator-{lang}.html")
            versions = page.eval_on_selector_all("#version option", "options => options.map(o => o.textContent)") or [
                None
            ]
            # A version only the page runs (Werewords with no narrator) is in no PDF.
            deck, _ = deck_of(game, lang)
            page_only = {version.name for version in script_writer.lines(deck, phrases(lang)) if version.page_only}
            for n, (_, table) in enumerate(TABLES[game]):
                read = []
                view = (
                    session.open(next(built[game, n].glob(f"{game}-narrator-{lang}*.html")))
                    if table.get("own")
                    else page
                )
                for v, name in enumerate(versions):
                    if name in page_only:
                        continue
                    if table.get("own"):
                        as_built(view, version=v if name else None)
                    else:
                        choose_table(view, version=v if name else None, **table)
                    read.append((name, script_view(view)))
                # A table's script is <game>-script-<lang>-<N>p.pdf, the whole box's has no -<N>p.
                expected = pdf_text(next(built[game, n].glob(f"{game}-script-{lang}*.pdf")))
                got = page_text(read, lang)
                assert got and got in expected, (lang, n)
                # Nothing of the PDF's body is left out: it ends where the page's script ends.
                assert expected.endswith(got), (lang, n)
            page.close()
        assert not session.errors


@needs_browser
def test_every_page_opens_from_its_file_within_a_second_and_asks_for_nothing(built, tmp_path):
    with browser(tmp_path / "profile", viewport={"width": 390, "height": 844}) as session:
        for game in GAMES:
            for lang in LANGS:
                path = built[game, 0] / f"{game}-narrator-{lang}.html"
                page = session.open(path)
                assert page.get_attribute("html", "lang") == lang
                assert page.is_visible("#start")
                assert int(page.get_attribute("html", "data-ready")) < 1000
                # Nothing runs off a phone's screen sideways.
                assert page.evaluate("document.documentElement.scrollWidth") == 390, (game, lang)
                # The policy is in force: a request made by script is refused before it leaves.
                refused = page.evaluate("""() => new Promise(done => {
                    document.addEventListener('securitypolicyviolation', e => done(e.violatedDirective));
                    fetch('https://example.invalid/x').catch(() => {});
                })""")
                assert refused == "connect-src"
                page.close()
        # Chromium reports the refused request on the console; nothing else may be there.
        session.errors = [e for e in session.errors if "https://example.invalid/x" not in e]
        assert set(session.requests) == {
            built[g, 0].joinpath(f"{g}-narrator-{lang}.html").as_uri() for g in GAMES for lang in LANGS
        }
        assert not session.errors


def run_until(page, done, step_ms=1000, limit=2000, each=None):
    """Runs the page's clock until `done` holds, with `each` looking at every step on the way; a
    running timer is let run in bigger leaps, since nothing else happens meanwhile."""
    for _ in range(limit):
        if each:
            each()
        if page.evaluate(done):
            return
        page.clock.run_for(10 * step_ms if page.query_selector(".timer:not(.done)") else step_ms)
    raise AssertionError(f"never reached: {done}")


@needs_browser
def test_a_werewords_round_plays_through_in_vietnamese_with_the_clock_sped_up(built, tmp_path):
    deck, files = deck_of("werewords", "vi")
    text = phrases("vi")
    table = tonight(deck, files.game.where(), text, 5, None, ())
    lines = [
        line
        for phase in script_writer.lines(deck, text)[0].phases
        for line in phase.lines
        if line.applies(table.in_play, tailored=True)
    ]
    with browser(tmp_path / "profile") as session:
        page = session.open(
            built["werewords", 0] / "werewords-narrator-vi.html",
            voices=[
                {"name": "Stub English", "lang": "en-US", "localService": True},
                {"name": "Stub Tiếng Việt", "lang": "vi-VN", "localService": True},
            ],
            clock=True,
        )
        choose_table(page, players=5)
        page.check("#auto")
        page.fill("#candidates", "4")
        page.dispatch_event("#candidates", "change")
        page.click("#start")
        seen = []

        every_word = {word.value for card in deck.cards for _, word in card.words}

        def look():
            # A secret is shown on the private screen only, for a tap, then hidden.
            secret = None
            if page.query_selector("#private-show"):
                page.click("#private-show")
                candidates = page.query_selector_all(".candidate")
                if candidates:
                    assert len(candidates) == 4 and {c.inner_text() for c in candidates} <= every_word
                    candidates[0].click()
                secret = page.inner_text("#private .secret")
                page.click("#private-hide")
            step = page.inner_text("#step-text") if page.query_selector("#step-text") else None
            seen.append((step, secret))

        run_until(page, "() => !!document.querySelector('#winner')", step_ms=500, each=look)
        word = next(secret for _, secret in seen if secret)
        # The word was shown once at each of the Mayor's, the Seer's and the werewolves' calls, and
        # nowhere else.
        shown = [step for step, secret in seen if secret]
        assert all(secret in (None, word) for _, secret in seen)
        allowed = {line.text for line in lines if line.marks.secret_word in ("choose", "show")}
        calls = {line.card for line in lines if line.marks.secret_word in ("choose", "show")}
        assert set(shown) <= allowed and len(shown) == len(calls) == 3
        # Every read-aloud step of the night, the day and the unguessed endgame, in order, in Vietnamese.
        spoken = page.evaluate("window.__spoken")
        said = [line.text for line in lines if line.kind == "say" and line.marks.if_guessed is not True]
        assert [s["text"] for s in spoken] == said
        assert {(s["lang"], s["voice"]) for s in spoken} == {("vi-VN", "Stub Tiếng Việt")}
        # The 4-minute day and the 1-minute vote each ended with a sound (three tones).
        assert page.evaluate("window.__tones") == 6
        page.click("#winner button >> nth=0")
        assert not page.query_selector("#winner") and page.inner_text("#game-end .announced").startswith("Bên thắng: ")
        assert page.inner_text("#game-end .word-end strong") == word
        assert page.evaluate("window.__spoken.at(-1).text") == page.inner_text(".announced")
        assert not session.errors and all(url.startswith("file://") for url in session.requests)


@needs_browser
def test_a_guessed_word_leads_to_the_seer_hunt_and_its_15_second_timer(built, tmp_path):
    with browser(tmp_path / "profile") as session:
        page = session.open(
            built["werewords", 0] / "werewords-narrator-en.html",
            voices=[{"name": "Stub", "lang": "en-US", "localService": True}],
            clock=True,
        )
        choose_table(page, players=6)
        page.click("#start")

        def tap():
            page.clock.run_for(700)  # a Next sooner after a step begins is a double tap
            if page.query_selector("#private-show"):
                page.click("#private-show")
                if page.query_selector(".candidate"):
                    page.click(".candidate >> nth=0")
                page.click("#private-hide")
            elif page.query_selector("button.good"):
                page.click("button.good")  # Word guessed!
            elif page.query_selector(".timer .start:not([hidden])"):
                page.click(".timer .start")  # the moderator starts the countdown
                page.clock.run_for(16_000)
                assert page.inner_text(".timer .clock") == "Time!"
                page.click("nav .next")
            else:
                page.click("nav .next")

        run_until(page, "() => !!document.querySelector('#winner')", step_ms=100, each=tap)
        texts = [s["text"] for s in page.evaluate("window.__spoken")]
        assert "Werewolves, you have 15 seconds to agree on who the Seer is." in texts
        assert not any(t.startswith("Nobody found the word.") for t in texts)
        assert page.evaluate("window.__tones") == 3


@needs_browser
def test_a_werewolf_first_night_for_ten_in_chinese_calls_exactly_the_roles_in_play_in_order(tmp_path):
    out = tmp_path / "out"
    result = run(
        "narrator",
        "werewolf",
        "--lang",
        "zh",
        "--players",
        "10",
        "--with",
        "witch",
        "--with",
        "guard",
        "--with",
        "cupid",
        "--out",
        str(out),
        "--no-open",
    )
    assert result.exit_code == 0, result.output
    deck, files = deck_of("werewolf", "zh")
    text = phrases("zh")
    table = tonight(deck, files.game.where(), text, 10, None, ("witch", "guard", "cupid"))
    version = script_writer.lines(deck, text)[0]
    first = next(phase for phase in version.phases if phase.kind in ("first-night", None))
    said = [line.text for line in first.lines if line.applies(table.in_play, tailored=True) and line.kind == "say"]
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.stdout.strip()), voices=[{"name": "Stub 中文", "lang": "zh-CN"}], clock=True)
        # The page starts at the build's table.
        assert page.input_value("#players") == "10"
        assert page.is_checked('input[data-card="guard"]') and not page.is_checked('input[data-card="hunter"]')
        page.check("#auto")
        page.click("#start")
        # Through the setup to the first night, then to its end.
        run_until(page, f"() => document.querySelector('.phase').textContent.startsWith({first.title!r})")
        run_until(page, f"() => !document.querySelector('.phase').textContent.startsWith({first.title!r})")
        spoken = page.evaluate("window.__spoken")
        texts = [s["text"] for s in spoken]
        start = texts.index(said[0])
        assert texts[start : start + len(said)] == said
        wakes = {fill_wake(text, card): card.id for card in deck.night_order}
        assert [wakes[t] for t in texts if t in wakes] == [
            card.id for card in deck.night_order if card.id in table.in_play
        ]
        assert {s["lang"] for s in spoken} == {"zh-CN"}


def fill_wake(text: dict, card) -> str:
    group = card.night_script is not None and card.night_script.group
    return text["wake_group" if group else "wake"].replace("{name}", card.call_name)


@needs_browser
def test_the_dawn_comes_from_the_nights_choices_and_each_death_brings_the_win_check(tmp_path):
    out = tmp_path / "out"
    result = run(
        "narrator",
        "werewolf",
        "--lang",
        "en",
        "--players",
        "8",
        "--with",
        "witch",
        "--with",
        "guard",
        "--out",
        str(out),
        "--no-open",
    )
    assert result.exit_code == 0, result.output
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.stdout.strip()), voices=[{"name": "Stub", "lang": "en-US"}], clock=True)
        page.fill(".names .name >> nth=2", "Ana")
        page.dispatch_event(".names .name >> nth=2", "input")
        page.click("#start")
        # Each choice is a tap on a seat of the circle, or on Nobody.
        picks = {"target": "2", "protect": "2", "save": "none", "poison": "4", "note": "0"}
        for _ in range(200):
            if page.query_selector(".dawn"):
                break
            for i in range(len(page.query_selector_all("#circle .tab"))):
                page.click(f'#circle .tab[data-choice="{i}"]')
                page.click(f'#circle button[data-seat="{picks[page.get_attribute("#circle", "data-choosing")]}"]')
            if page.query_selector("#private-hide, #private-show"):
                page.click("#private-show")
                page.click("#private-hide")
            page.clock.run_for(700)
            page.click("nav .next")
        # Ana was targeted but protected; Seat 5 was poisoned.
        assert page.inner_text(".dawn .dying") == "Seat 5"
        page.click("#announce")
        page.clock.run_for(500)
        assert page.evaluate("window.__spoken.at(-1).text") == "Last night, Seat 5 died."
        assert page.is_visible("#win-check") and page.inner_text("#win-check h2") == "Win check"
        page.click("#play-on")
        assert page.eval_on_selector_all("#circle .seat", "seats => seats.map(s => s.dataset.alive)") == [
            "1",
            "1",
            "1",
            "1",
            "0",
            "1",
            "1",
            "1",
        ]


@needs_browser
def test_a_custom_role_is_called_at_its_night_order_and_hostile_names_stay_text(tmp_path):
    folder = hostile_roles(tmp_path / "mine")
    result = run(
        "narrator",
        "werewolf",
        "--lang",
        "en",
        "--include",
        str(folder),
        "--out",
        str(tmp_path / "out"),
        "--players",
        "8",
        "--with",
        "fox",
        "--with",
        "imgtag",
        "--with",
        "scriptend",
        "--no-open",
    )
    assert result.exit_code == 0, result.output
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.stdout.strip()), voices=[{"name": "Stub", "lang": "en-US"}])
        names = page.eval_on_selector_all("#cards li span:first-of-type", "spans => spans.map(s => s.textContent)")
        assert "<img src=x onerror=alert(1)>" in names and "</script><b>x</b>" in names
        assert page.query_selector("img") is None and page.query_selector("#cards b") is None
        first = next(steps for _, steps in script_view(page) if any(t.endswith(", open your eyes.") for *_, t in steps))
        calls = [text for _, _, _, text in first if text.endswith(", open your eyes.")]
        deck, _ = deck_of("werewolf", "en", (folder,))
        order = [card.call_name for card in deck.night_order if card.id in ("werewolf", "seer", "fox")]
        assert [c for c in calls if c.removesuffix(", open your eyes.") in order] == [
            f"{n}, open your eyes." for n in order
        ]
        assert order.index("Fox") == [
            c.night_order for c in deck.night_order if c.id in ("werewolf", "seer", "fox")
        ].index(25)
        page.click("#start")
        assert not session.dialogs and not session.errors


@needs_browser
def test_without_a_voice_the_page_says_so_and_shows_text_only(built, tmp_path):
    with browser(tmp_path / "profile") as session:
        page = session.open(built["werewolf", 0] / "werewolf-narrator-vi.html", voices=[{"name": "x", "lang": "en-US"}])
        assert page.inner_text("#voice") == ("Thiết bị này không có giọng đọc Tiếng Việt: các bước chỉ hiện bằng chữ.")
        page.click("#start")
        page.click("nav .next")
        assert page.evaluate("window.__spoken") == []


@needs_browser
def test_a_reload_goes_on_with_the_game_in_progress_and_the_night_is_dark(built, tmp_path):
    with browser(tmp_path / "profile") as session:
        page = session.open(
            built["salem-1692", 0] / "salem-1692-narrator-en.html",
            voices=[{"name": "Stub", "lang": "en-US"}],
            clock=True,
        )
        choose_table(page, players=7, version=1)
        assert page.inner_text("#version option:checked") == "Town Crier"
        page.click("#start")
        for _ in range(100):
            if (
                page.query_selector(".timer")
                and "hourglass" in page.inner_text("#step-text")
                and page.inner_text(".phase").startswith("Night")
            ):
                break
            page.clock.run_for(700)  # a Next sooner after a step begins is a double tap
            page.click("nav .next")
        assert page.get_attribute("body", "data-theme") == "night"
        step = page.inner_text("#step-text")
        # The hourglass is turned by a tap.
        assert page.inner_text(".timer .clock") == "0:30"
        page.click(".timer .start")
        page.clock.run_for(10_000)
        page.reload()
        page.wait_for_selector("html[data-ready]")
        assert page.inner_text("#step-text") == step
        assert page.inner_text(".timer .clock") == "0:20"
        page.clock.run_for(21_000)
        assert page.inner_text(".timer .clock") == "Time!" and page.evaluate("window.__tones") == 3
        assert not session.errors


@needs_browser
def test_a_day_without_a_timer_step_gets_the_day_timer_of_the_setup_screen(tmp_path):
    shutil.copytree(ROOT / "tests" / "fixtures" / "night", tmp_path / "project")
    script = tmp_path / "project" / "decks" / "night" / "script.yaml"
    script.write_text(script.read_text(encoding="utf-8").replace("timer: 90", "house: true"), encoding="utf-8")
    result = run(
        "narrator",
        "night",
        "--decks",
        str(tmp_path / "project" / "decks"),
        "--lang",
        "en",
        "--out",
        str(tmp_path / "out"),
        "--no-open",
    )
    assert result.exit_code == 0, result.output
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.stdout.strip()), voices=[], clock=True)
        page.fill("#day-timer", "2")
        page.dispatch_event("#day-timer", "change")
        page.click("#start")
        while page.get_attribute("body", "data-phase") != "day":
            assert not page.query_selector(".timer")
            page.clock.run_for(700)
            page.click("nav .next")
        assert page.get_attribute("body", "data-theme") == "day"
        assert page.inner_text(".timer .caption") == "Day timer" and page.inner_text(".timer .clock") == "2:00"
        page.click(".timer button >> text=Start")
        page.clock.run_for(60_000)
        page.click("nav .next")  # the timer goes on from step to step
        assert page.inner_text(".timer .clock") == "1:00"
        page.clock.run_for(61_000)
        assert page.inner_text(".timer .clock") == "Time!" and page.evaluate("window.__tones") == 3
