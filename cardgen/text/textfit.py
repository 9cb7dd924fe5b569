"""Text that shrinks to fit a box: spans, a font book and a box in mm in; Fitted lines out.

:func:`fit` tries font sizes from a maximum down to a minimum and keeps the
largest at which the text fits the box; :func:`draw` puts the result on a
ReportLab canvas. Lines are broken between words and drawn in
:mod:`cardgen.text.lines` (as a document's are: no ReportLab paragraph, no
markup), Chinese lines broken in :mod:`cardgen.text.linebreak`, and ruby laid
out in :mod:`cardgen.text.ruby`.

:func:`fit_layers` fits texts in two languages into one box together (a
bilingual card): one paragraph a language, each broken by its own language's
rules, the ones below the first at a fraction of its size (but never under
their own least size), all shrinking together. A layer with readings is ruby:
each character with its reading (its pinyin) centred above it, the pair kept
as one unit when lines break.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from reportlab.lib.colors import toColor

from cardgen.core import reportlab_private, units
from cardgen.text.fonts import ICON, FontBook
from cardgen.text.linebreak import Rules, break_cjk, line_rules, widest_word
from cardgen.text.lines import Block, Drawn, Layout, aligned, excess, kept_lines, line_width, right_to_left, word_lines
from cardgen.text.markup import Span
from cardgen.text.ruby import ruby_layout

ALIGNMENTS = ("left", "center")


@dataclass(frozen=True)
class Fitted:
    """Text laid out at the size chosen by :func:`fit`; lengths in mm, sizes in pt.

    drawn is the text's lines, broken to the box width; `below` are the further layers of
    :func:`fit_layers`, each with how far its top is below the first's top (mm).
    """

    size: float
    height: float
    overflow: float  # how much taller than the box the text is at min_size; 0.0 when it fits
    overflow_width: float  # how much wider than the box its widest unbreakable word is at min_size
    drawn: Drawn = field(compare=False, repr=False)
    below: tuple[tuple[float, Drawn], ...] = field(default=(), compare=False, repr=False)
    spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)  # the first layer's, as laid out

    @property
    def fits(self) -> bool:
        return self.overflow == 0.0 and self.overflow_width == 0.0


@dataclass(frozen=True)
class Layer:
    """One language's text in a box it shares (:func:`fit_layers`): its size is `scale` times the
    first layer's but at least `least` pt (a small scale never takes it below what a table reads),
    `leading` its language's least line height, `gap` the room above it (a fraction of its size);
    `readings`, one a character of its text (empty for none), are set above the characters
    at `ruby` times its size, in the fonts of `ruby_lang`."""

    spans: tuple[Span, ...]
    lang: str
    color: str = "#000000"
    leading: float = 1.2
    scale: float = 1.0
    gap: float = 0.0
    readings: tuple[str, ...] | None = None
    ruby: float = 0.5
    ruby_lang: str = "zh-Latn"  # the readings' language (pinyin), whose fonts draw them
    least: float = 0.0


def fit(
    spans: Sequence[Span],
    book: FontBook,
    lang: str,
    width: float,
    height: float,
    *,
    max_size: float,
    min_size: float,
    leading: float = 1.2,
    align: str = "left",
    color: str = "#000000",
    step: float = 0.25,
) -> Fitted:
    """Lays out spans in a width × height mm box at the largest size on the step grid that fits.

    Sizes go from max_size down by step to min_size (pt; min_size is tried even
    when off the grid). Text that fits at no size comes back at min_size with a
    positive overflow (too tall) or overflow_width (a word wider than the box).
    """
    if not 0 < min_size <= max_size or step <= 0 or leading <= 0:
        raise ValueError(
            f"need 0 < min_size <= max_size, step > 0, leading > 0; got {min_size}, {max_size}, {step}, {leading}"
        )
    if align not in ALIGNMENTS:
        raise ValueError(f"align must be one of {', '.join(ALIGNMENTS)}, not {align!r}")
    if width <= 0 or height <= 0:
        raise ValueError(f"the text box must have a positive size, not {width} × {height} mm")
    return _fit((Layer(tuple(spans), lang, color, leading),), book, width, height, max_size, min_size, align, step)


def fit_layers(
    layers: Sequence[Layer],
    book: FontBook,
    width: float,
    height: float,
    *,
    max_size: float,
    min_size: float,
    align: str = "left",
    step: float = 0.25,
) -> Fitted:
    """Layers one under the other in a width × height mm box, at the largest size of the first (on
    the step grid, from max_size to min_size pt) at which they all fit; the others at their scale of it,
    or their least size.
    Overflow is that of all of them together at min_size."""
    if not layers or not 0 < min_size <= max_size or step <= 0:
        raise ValueError(f"need layers and 0 < min_size <= max_size, step > 0; got {min_size}, {max_size}, {step}")
    if width <= 0 or height <= 0:
        raise ValueError(f"the text box must have a positive size, not {width} × {height} mm")
    return _fit(tuple(layers), book, width, height, max_size, min_size, align, step)


def draw(fitted: Fitted, canvas, x: float, top: float, valign_height: float | None = None) -> None:
    """Draws with the top-left corner at (x, top) mm; centred vertically in valign_height mm if given.

    Text taller than valign_height starts at top rather than above it.
    """
    offset = max(0.0, (valign_height - fitted.height) / 2) if valign_height is not None else 0.0
    for below, drawn in ((0.0, fitted.drawn), *fitted.below):
        drawn.draw_on(canvas, units.pt(x), units.pt(top - offset - below) - drawn.height)


# Cards repeat (copies, fronts drawn for both print and preview): fit each text once.
@lru_cache(maxsize=1024)
def _fit(
    layers: tuple[Layer, ...],
    book: FontBook,
    width: float,
    height: float,
    max_size: float,
    min_size: float,
    align: str,
    step: float,
) -> Fitted:
    box_width, box_height = units.pt(width), units.pt(height)
    prepared = [_prepared(layer, book, align, box_width) for layer in layers]
    # The search asks a size again (the last one tried is the answer): each laid out once. A dict, not
    # functools.cache, whose wrapper costs as much to make as a short text does to lay out.
    laid: dict[float, tuple[list[tuple[float, Layout]], float, float]] = {}

    def layout_at(size: float) -> tuple[list[tuple[float, Layout]], float, float]:
        """Each layer's layout with its top (pt below the first's), the height of all and the widest excess."""
        known = laid.get(size)
        if known is not None:
            return known
        placed, top = [], 0.0
        for n, (layer, make) in enumerate(zip(layers, prepared)):
            layer_size = max(size * layer.scale, layer.least)
            top += layer.gap * layer_size if n else 0.0
            layout = make(layer_size)
            placed.append((top, layout))
            top += layout.height
        known = laid[size] = placed, top, max(max(layout.too_wide, layout.cut) for _, layout in placed)
        return known

    def fits(size: float) -> bool:
        _, total, too_wide = layout_at(size)
        return not too_wide and not excess(total, box_height)

    def estimate(size: float) -> float:
        """The size the text may fit at, from its layout at `size`, where it does not: its height grows
        about with the square of the size (more lines, each taller), a too wide word with the size."""
        _, total, too_wide = layout_at(size)
        if too_wide:
            return size * box_width / (box_width + too_wide)
        return size * (box_height / total) ** 0.5 if total > 0 else size

    size = _largest(_sizes(max_size, min_size, step), fits, estimate)
    placed, total, _ = layout_at(size)
    too_wide = max(layout.too_wide for _, layout in placed)  # a word cut between syllables is not
    return Fitted(
        size=size,
        height=units.mm(total),
        overflow=units.mm(excess(total, box_height)),
        overflow_width=units.mm(too_wide),
        drawn=placed[0][1].drawn,
        below=tuple((units.mm(top), layout.drawn) for top, layout in placed[1:]),
        spans=layers[0].spans,
    )


def _prepared(layer: Layer, book: FontBook, align: str, width: float) -> Callable[[float], Layout]:
    """How a layer is laid out at a size in a box `width` pt wide: by its own language's fonts and
    line breaks (a span may name another language: its characters take that one's), or as ruby."""
    rules = line_rules(book, [layer.lang, *(span.lang for span in layer.spans if span.lang)])
    pieces = [piece for span in layer.spans for piece in book.runs(span, span.lang or layer.lang)]
    readings = layer.readings
    if readings is not None:
        return lambda size: ruby_layout(
            pieces, readings, book, size, layer.ruby, layer.leading, width, align, layer.color, layer.ruby_lang
        )
    # The paragraph's font, its first text's (an inline icon may come first): the space after an icon is
    # in it. A text without any draws nothing.
    font = next((font for font, _ in pieces if font != ICON), "Helvetica")
    color = _color(layer.color)
    rtl = right_to_left(book, layer.lang, "".join(span.text for span in layer.spans))
    return lambda size: _layout(pieces, font, color, size, layer.leading, width, align, rules, rtl)


@lru_cache(maxsize=64)
def _sizes(max_size: float, min_size: float, step: float) -> tuple[float, ...]:
    """max_size, max_size - step, … down to min_size, which is always last."""
    count = int((max_size - min_size) / step + 1e-9)
    sizes = tuple(round(max_size - k * step, 6) for k in range(count + 1))
    return sizes if sizes[-1] - min_size < 1e-6 else sizes + (min_size,)


def _largest(
    sizes: Sequence[float], fits: Callable[[float], bool], estimate: Callable[[float], float] | None = None
) -> float:
    """The first (largest) size that fits, else the last; fitting is monotonic in size. `estimate`
    guesses from a size that does not fit at what size the text will: the search starts there and
    widens its steps from it, so a good guess takes two or three layouts where halving takes five."""
    if len(sizes) == 1 or fits(sizes[0]):
        return sizes[0]  # most texts fit at the largest size: one layout
    low, high = 1, len(sizes) - 1  # the answer is sizes[low..high]; the last when none fits
    if estimate is not None:
        guess = estimate(sizes[0])
        start = min(max(next((n for n, size in enumerate(sizes) if size <= guess), high), low), high)
        if fits(sizes[start]):
            high, step = start, 1
            while high - step >= low and fits(sizes[high - step]):
                high, step = high - step, step * 2
            low = max(low, high - step + 1)
        else:
            low, step = min(start + 1, high), 1
            while low + step - 1 < high and not fits(sizes[low + step - 1]):
                low, step = low + step, step * 2
            high = min(high, low + step - 1)
    while low < high:
        middle = (low + high) // 2
        if fits(sizes[middle]):
            high = middle
        else:
            low = middle + 1
    return sizes[low]


@cache
def _color(name: str):
    # A card's texts share a few colours, which ReportLab would parse anew for every text.
    return toColor(name)


def _layout(
    pieces,
    font: str,
    color,
    size: float,
    leading: float,
    box_width: float,
    align: str,
    rules: Rules | None,
    rtl: bool,
) -> Layout:
    cut = 0.0
    if rules:
        broken, too_wide = break_cjk(pieces, size, box_width, rules=rules)
        if rules.keep_all:
            cut = excess(widest_word(pieces, size), box_width)
        lines = kept_lines(broken, font, size)
        # Its lines may be rounding noise wider than the box: a centred line is centred in that much more.
        room = box_width + 2 * reportlab_private.FUZZ
        widths = [line_width(line, size) for line in lines] if align == "center" or rtl else []
    else:
        lines = word_lines(pieces, font, size, box_width, box_width, cut=False)
        room, widths = box_width, [line_width(line, size) for line in lines]
        too_wide = max((wide - box_width for wide in widths), default=0.0)
    block = Block(lines, size, size * leading, color, font, aligned(widths, room, align, rtl, len(lines)), rtl)
    return Layout(block, block.height, excess(too_wide, 0.0), cut)
