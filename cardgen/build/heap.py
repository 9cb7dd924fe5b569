"""Python's cycle collector around the making of what a build keeps for a while: a block of code in, run
with the collector's automatic passes paused and one pass after (``kept``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def kept() -> Iterator[None]:
    """Runs its block with automatic collection paused, then collects once.

    A deck's preparation makes what lives until the deck is drawn (its cards, their composed faces and
    sheets: some hundred objects a card). Each automatic full pass walks over all of it made so far,
    and the passes come as it grows by a quarter: a deck five times bigger is walked over more often
    as well as longer (1.2 of 3.9 s at 5,000 bilingual roles, 6 of 17 s at 20,000). Collected once at
    the end, it is walked over once, whatever the deck's size. The preparation makes next to no garbage
    in cycles, which is what the pause leaves lying until the end.

    The pass at the end is of the youngest generation only: everything the block made and nothing
    older. A full pass would walk the whole heap as well (the fonts, ReportLab, every deck before), 40 ms
    a deck, a fifth of the bundled set's document build."""
    if not gc.isenabled():  # paused by someone else, who resumes it
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)
