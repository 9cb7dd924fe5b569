"""Stage 2 for the moderator script and the setups: loaded game files in, the problems of their steps
(one thing a step, known versions and cards, roles steps only in phases, a version only on a step of the
setup or of a card's night call, none that no night reads) and of
their setups (rows that deal the players they say, from cards, teams, groups and pools the box holds) out."""

from __future__ import annotations

from typing import Any

from cardgen.core.problems import Problem, did_you_mean
from cardgen.deck import schema
from cardgen.deck import setups as setup_rows
from cardgen.deck.load import GameFiles
from cardgen.deck.schema_check import dotted, mapping_at, refs, unknown
from cardgen.deck.setups import pools, setup_cards
from cardgen.deck.table_rules import kinds_written
from cardgen.deck.yaml_doc import Doc, KeyPath

_STEP_KINDS = ("say", "do", "roles", "deal")


def check_steps(files: GameFiles, docs: list[Doc]) -> list[Problem]:
    """What a schema cannot say about steps: each does one thing, in a place where it can be done,
    and a step at which players die has a win check to follow it."""
    problems: list[Problem] = []
    script = files.extra.get("script.yaml")
    data = script.data if script and isinstance(script.data, dict) else {}
    versions = list(data.get("versions", {})) if isinstance(data.get("versions"), dict) else []
    deadly = []
    for doc in docs:
        is_script = doc is script
        for path in refs(doc, schema.SCRIPT if is_script else schema.CARD, "#/$defs/step"):
            step = doc.get(path)
            if not isinstance(step, dict):
                continue
            kinds = [kind for kind in _STEP_KINDS if kind in step]
            in_setup = is_script and path[0] == "setup"
            if len(kinds) != 1:
                problems.append(
                    Problem(
                        doc.where(path),
                        f"{dotted(path)}: a step does one thing: expected exactly "
                        f"one of {', '.join(_STEP_KINDS)}, got {', '.join(kinds) or 'none'}",
                    )
                )
            elif kinds[0] == "deal" and not in_setup:
                problems.append(
                    Problem(
                        doc.where(path + ("deal",)), f"{dotted(path + ('deal',))}: cards are dealt only in the setup"
                    )
                )
            elif kinds[0] == "roles" and (in_setup or not is_script):
                # Inside a card's own call, the calls would go on calling themselves.
                where = (
                    "the phases, not in the setup" if is_script else "the script's phases, not in a card's night call"
                )
                problems.append(
                    Problem(doc.where(path + ("roles",)), f"{dotted(path + ('roles',))}: roles are called in {where}")
                )
            if "version" in step:
                if is_script and not in_setup:
                    problems.append(
                        Problem(
                            doc.where(path + ("version",)),
                            f"{dotted(path + ('version',))}: only steps of the setup and of a card's night "
                            "call belong to one version (phases are in their version)",
                        )
                    )
                else:
                    problems += unknown(doc, path + ("version",), "script version", versions)
            if step.get("night") == "first" and "from-night" in step:
                problems.append(
                    Problem(
                        doc.where(path + ("from-night",)),
                        f"{dotted(path + ('from-night',))}: a step of the first night only is never read "
                        f"from night {step['from-night']} on",
                    )
                )
            if step.get("deadly") is True:
                deadly.append((doc, path))
        night = doc.data.get("night") if not is_script and isinstance(doc.data, dict) else None
        if isinstance(night, dict):
            for part in ("script", "first", "other"):
                path = ("night", part) if part == "script" else ("night", part, "script")
                owner = night if part == "script" else mapping_at(night, part)
                if mapping_at(owner, "script").get("deadly") is True:
                    deadly.append((doc, path))
                for version in mapping_at(mapping_at(owner, "script"), "versions"):
                    problems += unknown(doc, path + ("versions", version), "script version", versions, key=True)
    if deadly and "win-check" not in data:
        doc, path = deadly[0]
        problems.append(
            Problem(
                doc.where(path + ("deadly",)),
                f"{dotted(path + ('deadly',))}: players may die here, but script.yaml has no win-check to follow it",
            )
        )
    return problems


def _well_formed_setup(spec: Any) -> bool:
    def number(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0

    return (
        isinstance(spec, dict)
        and isinstance(spec.get("players"), list)
        and spec["players"]
        and all(number(n) and n > 0 for n in spec["players"])
        and isinstance(spec.get("cards"), dict)
        and all(number(c) or (isinstance(c, list) and all(map(number, c))) for c in spec["cards"].values())
        and number(spec.get("extra", 0))
        and isinstance(spec.get("fill", ""), str)
        and isinstance(spec.get("pools", {}), dict)
        and all(isinstance(p, list) and all(isinstance(c, str) for c in p) for p in spec.get("pools", {}).values())
    )


def _house_parts(game: Doc, path: KeyPath, spec: dict) -> list[Problem]:
    """The rows and columns a setup marks as ours are rows and columns of its table."""
    rows = [*spec["cards"], *([spec["fill"]] if "fill" in spec else [])]
    wrong = [
        ("house-rows", i, f"'{card_id}' is no row here (rows: {', '.join(rows)})")
        for i, card_id in enumerate(spec.get("house-rows", []))
        if card_id not in rows
    ] + [
        ("house-players", i, f"{n} is no player count here ({setup_rows.counts(spec['players'])})")
        for i, n in enumerate(spec.get("house-players", []))
        if n not in spec["players"]
    ]
    return [Problem(game.where(path + (key, i)), f"{dotted(path + (key, i))}: {why}") for key, i, why in wrong]


def check_setups(files: GameFiles) -> list[Problem]:
    game = files.checked_game
    problems: list[Problem] = []
    setups = game.data.get("setups") if isinstance(game.data, dict) else None
    if not isinstance(setups, dict):
        return problems
    box = {card_id: doc.data.get("count", 1) for card_id, doc in files.cards.items() if isinstance(doc.data, dict)}
    kinds = kinds_written(game.data, files.cards)
    known = [*kinds, *{kind for pair in kinds.values() for kind in pair if kind}]
    for setup_id, spec in setups.items():
        path = ("setups", setup_id)
        if not _well_formed_setup(spec):
            continue  # the schema check has said what is wrong
        players, cards = spec["players"], spec["cards"]
        if spec.get("house") is True and spec.get("origin") == "community":
            problems.append(
                Problem(
                    game.where(path + ("origin",)),
                    f"{dotted(path)}: a setup is ours (house: true) or the players' (origin: community), not both",
                )
            )
        chosen = pools(spec, kinds)
        for card_id, counts in cards.items():
            if card_id in chosen and not chosen[card_id]:
                problems.append(
                    Problem(
                        game.where(path + ("cards", card_id)),
                        f"{dotted(path + ('cards', card_id))}: no card, team, group or pool '{card_id}'"
                        f"{did_you_mean(card_id, [*known, *spec.get('pools', {})])} in {files.id}",
                    )
                )
            elif isinstance(counts, list) and len(counts) != len(players):
                problems.append(
                    Problem(
                        game.where(path + ("cards", card_id)),
                        f"{dotted(path + ('cards', card_id))}: {len(counts)} numbers for {len(players)} player counts",
                    )
                )
        for pool, listed in spec.get("pools", {}).items():
            problems += [
                Problem(
                    game.where(path + ("pools", pool, i)),
                    f"{dotted(path + ('pools', pool, i))}: no card '{card_id}'{did_you_mean(card_id, box)} in roles/",
                )
                for i, card_id in enumerate(listed)
                if card_id not in box
            ]
            if pool in box or pool not in cards:
                why = "is a card: a pool needs a name of its own" if pool in box else "is counted in no row of `cards`"
                problems.append(
                    Problem(game.where(path + ("pools", pool)), f"{dotted(path + ('pools', pool))}: '{pool}' {why}")
                )
        problems += unknown(game, path + ("fill",), "card", box) if "fill" in spec else []
        problems += _house_parts(game, path, spec)
        if "extra" in spec and "fill" not in spec:
            # Without a card to take the seats, the extra cards would be ignored in silence.
            problems.append(
                Problem(
                    game.where(path + ("extra",)),
                    f"{dotted(path + ('extra',))}: extra cards are dealt only with `fill` (the "
                    "card that takes the seats left over): add a fill, or take extra out",
                )
            )
        if problems:
            continue
        for count in players:
            try:
                deal = setup_cards(spec, count)
            except ValueError as exc:
                problems.append(Problem(game.where(path + ("players",)), f"{dotted(path)}: {exc}"))
                continue
            for key, cards_of in chosen.items():
                have = sum(box.get(card_id, 0) for card_id in cards_of)
                if deal.get(key, 0) > have:
                    problems.append(
                        Problem(
                            game.where(path + ("cards", key)),
                            f"{dotted(path)}: {count} players choose {deal[key]} '{key}' cards; the box has "
                            f"{have} ({', '.join(cards_of)})",
                        )
                    )
            for card_id, number in deal.items():
                if card_id not in chosen and number > box[card_id]:
                    problems.append(
                        Problem(
                            game.where(path + ("cards", card_id) if card_id in spec["cards"] else path + ("fill",)),
                            f"{dotted(path)}: {count} players need {number} '{card_id}' cards; the box has "
                            f"{box[card_id]} (its count)",
                        )
                    )
    return problems
