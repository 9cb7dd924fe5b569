"""A deck's preparation with the cycle collector's automatic passes paused (cardgen.build.heap.kept):
paused while the deck is resolved and composed, running again after, and what was left in cycles
collected on the way out."""

from __future__ import annotations

import gc
import weakref

from cardgen.build import BuildOptions, Pipeline, check, heap
from cardgen.core.project import Project
from cardgen.deck import resolve


def test_a_deck_is_resolved_with_the_collector_paused_and_it_runs_again_after(monkeypatch):
    seen = []
    resolve_deck = resolve.resolve_deck

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return resolve_deck(*args, **kwargs)

    monkeypatch.setattr(resolve, "resolve_deck", watched)
    project = Project.at()
    files = check(project, ["werewolf"], strict=False)[0][0]
    prepared, problems = Pipeline(project, BuildOptions(langs=("en",))).prepare(files, "en")
    assert prepared is not None, problems
    assert seen == [False]
    assert gc.isenabled()


class _Node:
    pass


def test_objects_left_in_a_cycle_while_paused_are_collected_after():
    with heap.kept():
        node = _Node()
        node.itself = node
        gone = weakref.ref(node)
        del node
        assert gone() is not None  # nothing collects a cycle while the passes are paused
    assert gone() is None


def test_a_collector_paused_by_the_caller_stays_paused():
    gc.disable()
    try:
        with heap.kept():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_pass_after_walks_only_what_the_block_made():
    older = _Node()
    older.itself = older
    gone = weakref.ref(older)
    gc.collect()  # the cycle is now in the oldest generation, as the fonts and earlier decks are
    del older
    try:
        with heap.kept():
            pass
        assert gone() is not None
    finally:
        gc.collect()
    assert gone() is None
