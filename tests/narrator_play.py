"""Plays a whole game on the narrator page, as a table would, through the page's DOM contract.

In: a page opened by narrator_browser.Session.open (speech stubbed, clock faked) on its setup
screen, and a Table: each seat's card and name, and what the players do (who each night's roles
and the day's vote pick, when the win check says the game is over, who won, Werewords' secret
role and word). Out: a Played record: every step on screen, tap and spoken line in the order
they happened, the secrets shown on the private screen, the seats alive at the end and the end
screen's text.

The driver knows the page only by the contract's selectors (#step-text, button.next, #circle
and its seats, #private, #vote, #win-check, #winner, #game-end), so the docs' screenshots
(docs/narrator_shots.py) and the whole-game tests drive the same page the same way. It never
moves time itself except through the page's fake clock: a step that waits (a timer, the speech
stub's end, a pause) is run out with page.clock.run_for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

# Between two taps: more than Next's double-tap guard (600 ms) and the speech stub's 100 ms reading.
TICK_MS = 700
# What a page that goes on by itself is left to do between two looks: a step's 10 s pause, a few steps.
AUTO_MS = 5_000
# More page actions than a game of a few nights has: a page stuck on one step fails the test
# instead of hanging it.
MOST_ACTIONS = 600


@dataclass
class Table:
    """One game's players and what they do, decided before it starts."""

    cards: tuple[str, ...]
    # The team tapped as the winner, or, where the end's lines name sides that are no team (Mafia's
    # civilians, Salem's town), the number of the ending tapped among them.
    winner: str | int
    # Per choice effect (target, protect, save, poison, kill, note, vote): the seats the players pick,
    # in order; None is "nobody". An effect with no pick left is answered "nobody".
    picks: dict[str, list[int | None]] = field(default_factory=dict)
    # Given the cards of the seats alive after a death and how many win checks came before this
    # one: whether the win check ends the game.
    over: Callable[[list[str], int], bool] = lambda alive, checks: False
    names: tuple[str, ...] = ()
    # The script version's id (Werewords: "table", with no narrator); None: the page's first.
    version: str | None = None
    # Werewords: the Mayor's secret role, the candidate word picked (its index), and whether the
    # village finds the word (None: a game with no word).
    secret_role: str | None = None
    word: int = 0
    guessed: bool | None = None
    # A tap after which the page is reloaded, as a phone that locks or a browser that drops the tab.
    reload_after: str | None = None


@dataclass
class Played:
    """What happened, in order: ("step", text), ("say", text), ("tap", "effect seat"),
    ("private", what it showed), ("check", "on"|"over")."""

    events: list[tuple[str, str]] = field(default_factory=list)
    spoken: list[dict] = field(default_factory=list)
    alive: list[bool] = field(default_factory=list)
    ending: str = ""  # the ending tapped, where the end offers its lines rather than teams
    end: list[str] = field(default_factory=list)  # the end screen's lines

    def said(self) -> list[str]:
        return [text for kind, text in self.events if kind == "say"]

    def taps(self) -> list[str]:
        return [text for kind, text in self.events if kind == "tap"]

    def between(self, first: tuple[str, str], then: tuple[str, str] | None = None) -> list[str]:
        """The lines spoken after the event `first` and before the event `then` (to the end without it)."""
        start = self.events.index(first)
        rest = self.events[start + 1 :]
        stop = rest.index(then) if then in rest else len(rest)
        return [text for kind, text in rest[:stop] if kind == "say"]


def visible(page, selector: str) -> bool:
    node = page.query_selector(selector)
    return bool(node and node.is_visible())


# One look at the page, in one round trip: what it asks for now, and the lines spoken since the last look.
LOOK = """() => {
  const shown = (selector) => { const node = document.querySelector(selector); return Boolean(node && node.getClientRects().length); };
  const circle = document.querySelector("#circle[data-choosing]");
  const auto = document.querySelector("nav .auto input");
  return {
    spoken: window.__spoken.splice(0),
    step: shown("#step-text") ? document.querySelector("#step-text").innerText : null,
    asks: ["#game-end", "#private", "#win-check", "#winner", "#announce"].find(shown) || null,
    choosing: circle ? circle.dataset.choosing : null,
    chosen: Boolean(document.querySelector("#circle .seat.on, #circle .nobody.on")),
    voteOut: Boolean(document.querySelector("#vote-out:enabled")),
    guess: shown(".widgets button.good"),
    auto: Boolean(auto && auto.checked),
    alive: [...document.querySelectorAll('#circle button.seat[data-alive="1"]')].map((s) => s.dataset.card || ""),
  };
}"""


# A finger on the middle of the element: it must be there, enabled and on top at that point (a tap on
# something that covers it would miss), then it is clicked. One round trip, where Playwright's click
# waits for the element to stand still over several frames.
TAP = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return `nothing matches ${selector}`;
  if (node.disabled) return `${selector} is disabled`;
  node.scrollIntoView({block: "center", inline: "center"});
  const box = node.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  if (!hit || !(hit === node || node.contains(hit))) {
    return `${selector} is covered at its middle by ${hit ? hit.outerHTML.slice(0, 80) : "nothing"}`;
  }
  node.click();
  return "";
}"""


def tap(page, selector: str) -> None:
    missed = page.evaluate(TAP, selector)
    assert not missed, missed


def set_up(page, table: Table, watch: Callable[[], None] = lambda: None) -> None:
    """The setup screen: the script version, the player count, each seat's name and card, then Start."""
    if table.version is not None:
        index = page.evaluate(
            "id => JSON.parse(document.getElementById('deck').textContent).versions.findIndex(v => v.id === id)",
            table.version,
        )
        page.select_option("#version", str(index))
    # The page opens at the table it was built for; choosing the count again would drop its --with cards.
    if page.input_value("#players") != str(len(table.cards)):
        page.select_option("#players", str(len(table.cards)))
    for i, card in enumerate(table.cards):
        if i < len(table.names):
            page.fill(f".seat-setup >> nth={i} >> input.name", table.names[i])
        page.select_option(f".seat-setup >> nth={i} >> select.card-of", card)
    watch()
    page.click("#start")


def _private(page, table: Table, played: Played) -> None:
    """The phone handed to one player: they reveal, choose what is theirs to choose, and hide it."""
    if visible(page, "#private-show"):
        tap(page, "#private-show")
    elif visible(page, "#private button.candidate.role"):
        tap(page, f'#private button.candidate.role[data-card="{table.secret_role}"]')
        played.events.append(("tap", f"secret-role {table.secret_role}"))
    elif visible(page, "#private button.candidate"):
        selector = f"#private button.candidate:nth-child({table.word + 1})"
        played.events.append(("tap", f"word {page.inner_text(selector)}"))
        tap(page, selector)
    else:
        secret = page.query_selector("#private .secret")
        if secret:
            played.events.append(("private", secret.inner_text()))
        tap(page, "#private-hide")


def _choose(page, table: Table, played: Played, effect: str) -> None:
    """Taps the seat the players picked for the choice the circle asks."""
    queue = table.picks.get(effect, [])
    seat = queue.pop(0) if queue else None
    target = "none" if seat is None else str(seat)
    tap(page, f'#circle button[data-seat="{target}"]')
    played.events.append(("tap", f"{effect} {target}"))


def _answer(page, table: Table, played: Played, now: dict) -> None:
    """Does what the page asks for now, as the table would; Next when it asks for nothing."""
    asks = now["asks"]
    if asks == "#private":
        _private(page, table, played)
    elif asks == "#win-check":
        over = table.over(now["alive"], sum(kind == "check" for kind, _ in played.events))
        tap(page, "#game-over" if over else "#play-on")
        played.events.append(("check", "over" if over else "on"))
    elif asks == "#winner":
        if isinstance(table.winner, int):
            button = f'#winner button[data-outcome="{table.winner}"]'
            played.ending = page.inner_text(button)
        else:
            button = f'#winner button[data-team="{table.winner}"]'
        tap(page, button)
        played.events.append(("tap", f"winner {table.winner}"))
    elif asks == "#announce":
        tap(page, "#announce")
        played.events.append(("tap", "announce"))
    elif now["choosing"] == "vote" and now["voteOut"]:
        tap(page, "#vote-out")
    elif now["choosing"] and not now["chosen"]:
        _choose(page, table, played, now["choosing"])
    elif table.guessed and now["guess"]:
        tap(page, ".widgets button.good")
        played.events.append(("tap", "guessed"))
    elif now["auto"]:
        # The page goes on by itself (Werewords with no narrator): only time passes, as at the table;
        # a word not found is the day's timer running out.
        page.clock.run_for(AUTO_MS)
    else:
        # Next's double-tap guard takes a tap right after a step begins for the second of two.
        page.clock.run_for(TICK_MS)
        tap(page, "button.next")


def play(page, table: Table, watch: Callable[[object, Played], None] = lambda page, played: None) -> Played:
    """Sets up the table, then answers every step until the game's end screen. `watch` sees the page
    before each action (the setup screen filled in, then every screen the game shows) and at the end."""
    played = Played()
    set_up(page, table, watch=lambda: watch(page, played))
    for _ in range(MOST_ACTIONS):
        now = page.evaluate(LOOK)
        for line in now["spoken"]:
            played.spoken.append(line)
            played.events.append(("say", line["text"]))
        if now["step"] is not None and ("step", now["step"]) not in played.events[-1:]:
            played.events.append(("step", now["step"]))
        watch(page, played)
        if now["asks"] == "#game-end":
            break
        _answer(page, table, played, now)
        if played.events[-1] == ("tap", table.reload_after):
            page.reload()
            page.wait_for_selector("html[data-ready]")
            played.events.append(("reload", ""))
    else:
        raise AssertionError(f"no end after {MOST_ACTIONS} actions; last: {played.events[-3:]}")
    played.alive = [
        flag == "1" for flag in page.eval_on_selector_all("#circle button.seat", "s => s.map(x => x.dataset.alive)")
    ]
    played.end = [line for line in page.inner_text("#game-end").splitlines() if line.strip()]
    return played


def _werewolves_over(alive: list[str], checks: int) -> bool:
    """Werewolf's win check: no werewolf left, or only werewolves."""
    wolves = alive.count("werewolf")
    return wolves == 0 or wolves == len(alive)


def _mafia_over(alive: list[str], checks: int) -> bool:
    """Mafia's: no Thug left, or the Thugs as many as everyone else."""
    mafia = alive.count("thug")
    return mafia == 0 or mafia >= len(alive) - mafia


def _salem_over(alive: list[str], checks: int) -> bool:
    """Salem's: no witch left alive, or only witches."""
    witches = alive.count("tryal-witch")
    return witches == 0 or witches == len(alive)


def _werewords(guessed: bool) -> Table:
    """Five players and no narrator: the Mayor (seat 0) taps their secret card, a Villager, and the first
    word offered. Found, the werewolves then miss the Seer: the village wins; not found, the village votes
    out a Villager: the werewolves win."""
    return Table(
        cards=("mayor", "seer", "werewolf", "villager", "villager"),
        version="table",
        secret_role="villager",
        guessed=guessed,
        winner="village" if guessed else "werewolves",
    )


# The games the tests and the guide's pictures play, by (game, name): each call gives a fresh Table
# (its picks are used up as the game goes). Seats are numbered from 0, the card of each in order.
TABLES: dict[tuple[str, str], Callable[[], Table]] = {
    # Eight players, two werewolves. Night 1: the werewolves go for seat 2 and the Witch saves her, a
    # quiet night. Day 1: the village votes out werewolf 0, and the page is reloaded. Night 2: the
    # werewolves kill the Hunter, who shoots the last werewolf at dawn: the village wins.
    ("werewolf", "village"): lambda: Table(
        cards=("werewolf", "seer", "villager", "werewolf", "witch", "villager", "hunter", "villager"),
        names=("Alice", "Ben", "Chloe", "Dan", "Eve", "Finn", "Grace", "Hugo"),
        picks={"target": [2, 6], "note": [0, 3], "save": [2], "kill": [3], "vote": [0]},
        over=_werewolves_over,
        winner="village",
        reload_after="vote 0",
    ),
    # Seven players, two Thugs. Night 1: the Mafia point at seat 4, but nobody dies on Mafia's first night.
    # Day 1: Thug 0 voted out. Night 2: the Nurse protects the Mafia's target, a quiet night. Day 2: Thug 1
    # voted out: the civilians win, the first of the endings the page offers.
    ("mafia-vendetta", "civilians"): lambda: Table(
        cards=("thug", "thug", "detective", "nurse", "bystander", "bystander", "bystander"),
        picks={"protect": [6, 5], "target": [4, None, 5, None], "note": [0, 1], "vote": [0, 1]},
        over=_mafia_over,
        winner=0,
    ),
    # Five players, one witch. Day 1: nobody is out. The Night: the witches point at seat 2, whom the
    # Constable gives the gavel: nobody dies. Day 2: the witch's last Tryal card is turned up: the town wins.
    ("salem-1692", "town"): lambda: Table(
        cards=("tryal-witch", "tryal-constable", "tryal-not-a-witch", "tryal-not-a-witch", "tryal-not-a-witch"),
        picks={"target": [2], "protect": [2], "vote": [None, 0]},
        over=_salem_over,
        winner=0,
    ),
    ("werewords", "found"): lambda: _werewords(True),
    ("werewords", "not-found"): lambda: _werewords(False),
}
