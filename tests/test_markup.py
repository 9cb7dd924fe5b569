"""cardgen.text.markup: card text with **bold**, *italic* and line breaks → spans."""

import unicodedata

from cardgen.text.markup import Span, icon_names, parse, unpaired


def test_plain_text_is_one_span():
    assert parse("Seer") == (Span("Seer"),)


def test_bold_and_italic():
    assert parse("**Seer** wakes *at night*") == (
        Span("Seer", bold=True),
        Span(" wakes "),
        Span("at night", italic=True),
    )


def test_three_asterisks_are_bold_and_italic():
    assert parse("***x***") == (Span("x", bold=True, italic=True),)


def test_italic_nested_in_bold():
    assert parse("**a *b* c**") == (
        Span("a ", bold=True),
        Span("b", bold=True, italic=True),
        Span(" c", bold=True),
    )


def test_bold_nested_in_italic():
    assert parse("*a **b** c*") == (
        Span("a ", italic=True),
        Span("b", bold=True, italic=True),
        Span(" c", italic=True),
    )


def test_three_asterisks_closed_one_kind_at_a_time():
    assert parse("***a* b**") == (Span("a", bold=True, italic=True), Span(" b", bold=True))


def test_unmatched_marks_stay_literal():
    assert parse("**a*") == (Span("**a*"),)
    assert parse("only *one") == (Span("only *one"),)
    assert parse("bold** here") == (Span("bold** here"),)


def test_asterisks_between_spaces_are_not_marks():
    assert parse("2 * 3 * 4") == (Span("2 * 3 * 4"),)


def test_unpaired_mark_merges_with_neighbouring_text():
    assert parse("5*3 = 15 and **x**") == (Span("5*3 = 15 and "), Span("x", bold=True))


def test_unpaired_mark_inside_bold_keeps_the_style():
    assert parse("**a * b**") == (Span("a * b", bold=True),)


def test_four_asterisks_are_text():
    assert parse("****") == (Span("****"),)


def test_html_and_reportlab_markup_are_literal():
    text = '<b>&amp;</b> <font name="x">&lt;br/&gt;</font><br/>'
    assert parse(text) == (Span(text),)


def test_decomposed_vietnamese_comes_out_precomposed():
    (span,) = parse("Tie\u0302\u0301n tri")
    assert span.text == "Tiến tri"
    assert unicodedata.is_normalized("NFC", span.text)
    assert len(span.text) == 8


def test_nfc_inside_marks():
    assert parse("**Nha\u0300** tie\u0302n tri") == (Span("Nhà", bold=True), Span(" tiên tri"))


def test_line_breaks_kept_trailing_whitespace_stripped():
    assert parse("line one\nline **two**\n\n  \n") == (Span("line one\nline "), Span("two", bold=True))


def test_line_break_inside_bold():
    assert parse("**a\nb**") == (Span("a\nb", bold=True),)


def test_leading_whitespace_kept():
    assert parse("  indented") == (Span("  indented"),)


def test_empty_text_has_no_spans():
    assert parse("") == ()
    assert parse(" \n ") == ()


def test_adjacent_spans_of_one_style_are_merged():
    # "a", the unpaired "**" and "b" are three pieces in one style.
    assert parse("*a**b*") == (Span("a**b", italic=True),)


def test_a_backslash_makes_the_mark_after_it_text():
    assert parse(r"Each night\*") == (Span("Each night*"),)
    assert parse(r"\*\*not bold\*\*") == (Span("**not bold**"),)
    assert parse(r"a \\ b") == (Span("a \\ b"),)
    assert parse(r"*it\*al*") == (Span("it*al", italic=True),)
    assert parse(r"\***bold**") == (Span("*"), Span("bold", bold=True))


def test_an_escaped_colon_starts_no_icon():
    assert parse(r"\:wolf: and :wolf:", {"wolf"}) == (Span(":wolf: and "), Span(":wolf:", icon="wolf"))
    assert icon_names(r"\:wolf: and :wolf:") == [(12, "wolf")]


def test_escapes_are_no_unpaired_marks_and_an_escaped_backslash_escapes_nothing():
    assert unpaired(r"Each night\*") == []
    assert unpaired(r"\\*x") == [(2, "*", True)]
    assert parse(r"\\*x*") == (Span("\\"), Span("x", italic=True))


def test_a_backslash_before_any_other_character_is_text():
    assert parse(r"C:\Users\n \_x_") == (Span(r"C:\Users\n \_x_"),)
