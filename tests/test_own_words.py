"""Every sentence of the bundled decks and of cardgen's own words is ours, not a source rulebook's.

Each sentence of the decks (cards, rulebooks, scripts; Werewords' word lists aside) and of the
templates' texts is compared with every sentence of the source rulebook(s) in its language, which
are not in the repository: tests/data/source_fingerprints.json holds their sentences as hashed
shingles only (tests/own_words.py makes it and says how). English has no source to compare with.

The score is the Dice coefficient of two sentences' character shingles (5 characters for vi and es,
2 for zh), from 0 to 1. Calibrated once against difflib's SequenceMatcher ratio on the real sources
(same normalised sentences): the word-for-word copy scores 1.00 in both, and the sentences that fail
here had ratios of 0.56 to 1.00 (a sentence with its parts moved about keeps its shingles, and
difflib misses it). Some ratios of 0.75 to 0.86 score 0.42 to 0.64 here: mostly short outcomes and
calls said the same way by anyone ("Nếu không, phe Ma sói thắng."). Chinese bigrams score the same closeness
lower (the close Chinese paraphrases, ratios 0.62 to 0.77, scored 0.56 to 0.67), so its threshold
is lower. A sentence shorter than LEAST shingles is not scored. A sentence fails at its
language's threshold or above unless ALLOWED lists it with the reason.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from own_words import LEAST, load_fingerprints, normalise, our_texts, shingles

ROOT = Path(__file__).resolve().parent.parent
THRESHOLD = {"vi": 0.65, "es": 0.65, "zh": 0.55}

# Normalised sentences that may match a source: every moderator says them the same way, or they are
# a name. Each with why.
ALLOWED = {
    "zh": {
        # The name of one of the source's three variants, which our rulebook quotes as its title.
        normalise("不管怎样，这的确不是他！", "zh"): "a variant's name, quoted as its title",
        # The stock dawn call: every Werewolf moderator says it with these words.
        normalise("天亮了，请所有人睁眼。", "zh"): "the stock dawn call",
        normalise("天亮了，所有人请睁眼。", "zh"): "the stock dawn call",
    },
}


@cache
def _texts() -> list[tuple[str, int, str, str]]:
    return list(our_texts(ROOT))


def _scores() -> list[tuple[float, str, int, str, str]]:
    sources = load_fingerprints()
    found = []
    for path, line, lang, sentence in _texts():
        if lang not in sources:
            continue
        ours = shingles(normalise(sentence, lang), lang)
        if len(ours) < LEAST[lang]:
            continue
        score, _ = sources[lang].best(ours)
        found.append((score, path, line, lang, sentence))
    return found


def test_no_sentence_is_a_near_copy_of_a_source_sentence() -> None:
    copies = [
        f"{path}:{line} [{lang}] {score:.2f} {sentence}"
        for score, path, line, lang, sentence in _scores()
        if score >= THRESHOLD[lang] and normalise(sentence, lang) not in ALLOWED.get(lang, {})
    ]
    assert not copies, "too close to a source rulebook's sentence:\n" + "\n".join(sorted(copies))


def test_every_allowed_sentence_is_still_in_the_texts() -> None:
    """An allowance for a sentence we no longer have would let its copy back in unnoticed."""
    ours = {(lang, normalise(sentence, lang)) for _, _, lang, sentence in _texts()}
    stale = [text for lang, texts in ALLOWED.items() for text in texts if (lang, text) not in ours]
    assert not stale


def test_the_fingerprints_cover_each_source_language() -> None:
    """An empty or truncated fingerprint file would pass every sentence."""
    sources = load_fingerprints()
    assert {lang: len(source.sets) > 100 for lang, source in sources.items()} == {
        "es": True,
        "vi": True,
        "zh": True,
    }


def test_the_score_sees_through_spelling_and_markup() -> None:
    """Old and new tone-mark placement, case, markup and punctuation do not hide a copy."""
    ours = shingles(normalise("**Phù Thủy** thắng khi mọi người còn sống đều là Phù Thủy.", "vi"), "vi")
    theirs = shingles(normalise("phù thuỷ thắng khi mọi người còn sống đều là phù thuỷ", "vi"), "vi")
    assert ours == theirs
