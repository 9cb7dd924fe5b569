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

# A step's own pause and the speech stub's 100 ms end are over well within this; a timer that
# must run out (Werewords' day) is run for its own length.
TICK_MS = 1_500
# More page actions than a game of a few nights has: a page stuck on one step fails the test
# instead of hanging it.
MOST_ACTIONS = 600


@dataclass
class Table:
    """One game's players and what they do, decided before it starts."""

    cards: tuple[str, ...]
    winner: str
    # Per choice effect (target, protect, save, poison, kill, vote, note ...): the seats the
    # players pick, in order; None is "nobody". An effect with no pick left is answered "nobody".
    picks: dict[str, list[int | None]] = field(default_factory=dict)
    # Given the cards of the seats alive after a death and how many win checks came before this
    # one: whether the win check ends the game.
    over: Callable[[list[str], int], bool] = lambda alive, checks: False
    names: tuple[str, ...] = ()
    # Werewords: the Mayor's secret role, the candidate word picked (its index), and whether the
    # village finds the word (None: a game with no word).
    secret_role: str | None = None
    word: int = 0
    guessed: bool | None = None


@dataclass
class Played:
    """What happened, in order: ("step", text), ("say", text), ("tap", "effect seat"),
    ("private", secret), ("check", "on"|"over")."""

    events: list[tuple[str, str]] = field(default_factory=list)
    spoken: list[dict] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)
    alive: list[bool] = field(default_factory=list)
    end: str = ""

    def said(self) -> list[str]:
        return [text for kind, text in self.events if kind == "say"]

    def after(self, kind: str, text: str, until: str = "step") -> list[str]:
        """The lines spoken from the first event (kind, text) on, up to the next event of kind `until`
        that is not just the same step again."""
        start = self.events.index((kind, text))
        out = []
        for event, value in self.events[start + 1 :]:
            if event == until and (event, value) != (kind, text):
                break
            if event == "say":
                out.append(value)
        return out


def visible(page, selector: str) -> bool:
    node = page.query_selector(selector)
    return bool(node and node.is_visible())


def _drain(page, played: Played) -> None:
    for line in page.evaluate("window.__spoken.splice(0)"):
        played.spoken.append(line)
        played.events.append(("say", line["text"]))


def _alive_cards(page) -> list[str]:
    return page.eval_on_selector_all(
        '#circle button.seat[data-alive="1"]', "seats => seats.map(s => s.dataset.card || '')"
    )


def set_up(page, table: Table, watch: Callable[[], None] = lambda: None) -> None:
    """The setup screen: the player count, the seat names and each seat's card, then Start."""
    if page.query_selector("#players"):
        page.select_option("#players", str(len(table.cards)))
    for i, name in enumerate(table.names):
        page.fill(f"input.name >> nth={i}", name)
    for i, card in enumerate(table.cards):
        page.select_option(f'select.seat-card[data-seat="{i}"]', card)
    watch()
    page.click("#start")


def _private(page, table: Table, played: Played) -> None:
    """The phone handed to one player: they reveal, choose what is theirs to choose, and hide it."""
    if visible(page, "#private-show"):
        page.click("#private-show")
    role = page.query_selector(f'#private button[data-card="{table.secret_role}"]') if table.secret_role else None
    if role and role.is_visible():
        role.click()
        played.events.append(("tap", f"secret-role {table.secret_role}"))
        return
    words = page.query_selector_all("#private button.candidate")
    if words:
        words[table.word].click()
        played.events.append(("tap", f"word {table.word}"))
        return
    secret = page.query_selector("#private .secret")
    if secret and secret.is_visible():
        played.secrets.append(secret.inner_text())
        played.events.append(("private", secret.inner_text()))
    page.click("#private-hide")


def _choose(page, table: Table, played: Played) -> None:
    effect = page.get_attribute("#circle", "data-choosing")
    queue = table.picks.get(effect, [])
    seat = queue.pop(0) if queue else None
    target = "none" if seat is None else str(seat)
    page.click(f'button[data-seat="{target}"]')
    played.events.append(("tap", f"{effect} {target}"))
    if effect == "vote" and visible(page, "#vote-out"):
        page.click("#vote-out")


def play(page, table: Table, watch: Callable[[object, Played], None] = lambda page, played: None) -> Played:
    """Sets up the table, then answers every step until the game's end screen. `watch` sees the page
    before each action (the setup screen filled in, then every screen the game shows) and at the end."""
    played = Played()
    set_up(page, table, watch=lambda: watch(page, played))
    last = None
    for _ in range(MOST_ACTIONS):
        page.clock.run_for(TICK_MS)
        _drain(page, played)
        watch(page, played)
        if visible(page, "#game-end"):
            break
        if visible(page, "#private"):
            _private(page, table, played)
            continue
        if visible(page, "#win-check"):
            over = table.over(_alive_cards(page), sum(kind == "check" for kind, _ in played.events))
            page.click("#game-over" if over else "#play-on")
            played.events.append(("check", "over" if over else "on"))
            continue
        if visible(page, "#winner"):
            page.click(f'#winner button[data-team="{table.winner}"]')
            played.events.append(("tap", f"winner {table.winner}"))
            continue
        if visible(page, "#circle[data-choosing]"):
            _choose(page, table, played)
            continue
        if table.guessed is not None and visible(page, "button.guessed"):
            if table.guessed:
                page.click("button.guessed")
                played.events.append(("tap", "guessed"))
                continue
            # Not found: the day's timer runs out by itself.
            page.clock.run_for(page.evaluate("window.__timerLeft?.() ?? 300000"))
            continue
        text = page.inner_text("#step-text")
        if text != last:
            played.events.append(("step", text))
            last = text
        if visible(page, "button.announce"):
            page.click("button.announce")
            continue
        nxt = page.query_selector("button.next")
        if nxt and nxt.is_enabled():
            nxt.click()
        else:
            # A step that goes on by itself when its timer ends.
            page.clock.run_for(60_000)
    else:
        raise AssertionError(f"no end after {MOST_ACTIONS} actions; last step: {last!r}")
    _drain(page, played)
    played.alive = [
        flag == "1" for flag in page.eval_on_selector_all("#circle button.seat", "s => s.map(x => x.dataset.alive)")
    ]
    played.end = page.inner_text("#game-end")
    return played


def _werewolves_over(alive: list[str], checks: int) -> bool:
    """Werewolf's win check: no werewolf left, or only werewolves."""
    wolves = alive.count("werewolf")
    return wolves == 0 or wolves == len(alive)


def _mafia_over(alive: list[str], checks: int) -> bool:
    """Mafia's: no Mafia left, or the Mafia as many as everyone else."""
    mafia = sum(card in ("thug", "godfather", "lawyer", "snitch", "thief") for card in alive)
    return mafia == 0 or mafia >= len(alive) - mafia


# The games the tests and the guide's pictures play, by (game, name): each call gives a fresh Table
# (its picks are used up as the game goes). Seats are numbered from 0, the card of each in order.
TABLES: dict[tuple[str, str], Callable[[], Table]] = {
    # Eight players, two werewolves. Night 1: the werewolves go for seat 2 and the Witch saves her,
    # a quiet night. Day 1: the village votes out werewolf 0. Night 2: the werewolves kill the Hunter,
    # who shoots the last werewolf: the village wins at the second dawn.
    ("werewolf", "village"): lambda: Table(
        cards=("werewolf", "seer", "villager", "werewolf", "witch", "villager", "hunter", "villager"),
        names=("Alice", "Ben", "Chloe", "Dan", "Eve", "Finn", "Grace", "Hugo"),
        picks={"target": [2, 6], "note": [0, 3], "save": [2], "poison": [], "kill": [3], "vote": [0]},
        over=_werewolves_over,
        winner="village",
    ),
    # Seven players, two thugs. Night 1 (no one dies on Mafia's first night), day 1: thug 0 voted out.
    # Night 2: the Nurse protects the Mafia's target, a quiet night. Day 2: thug 1 voted out.
    ("mafia-vendetta", "town"): lambda: Table(
        cards=("thug", "thug", "detective", "nurse", "bystander", "bystander", "bystander"),
        picks={"protect": [6, 5], "target": [4, None, 5, None], "note": [0, 1], "vote": [0, 1]},
        over=_mafia_over,
        winner="town",
    ),
}
