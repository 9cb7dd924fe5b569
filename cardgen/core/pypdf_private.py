"""pypdf's private names that cardgen relies on, in one place: a pypdf writer in, its objects out.

cardgen writes PDF/X (:mod:`cardgen.cards.pdfx`) by adding to a PDF that pypdf clones, and pypdf
has no public way to two of the things that needs:

- :func:`add_object` registers a new object (the output intent and its ICC profile) so that the
  catalog can point at it. ``PdfWriter._add_object`` is what pypdf's own methods use; the public
  methods only add objects of their own kinds (pages, outlines, annotations, attachments).
- :func:`info` gives the document information dictionary itself. The public ``metadata`` returns a
  copy, and ``add_metadata`` turns every value into a string, but PDF/X needs ``/Trapped`` to be the
  name ``/False``. ``PdfWriter._info`` is the dictionary itself, or None when the PDF has none.

Everything else cardgen does with pypdf is public (``root_object`` too, which the catalog is changed
through). Checked with pypdf 5.9, 6.21 and 7.1 (a PDF/X export byte-identical with each), the range
pyproject.toml allows; a new major version is to be checked against this list first.
"""

from __future__ import annotations

from pypdf import PdfWriter
from pypdf.generic import DictionaryObject, IndirectObject, PdfObject


def add_object(writer: PdfWriter, obj: PdfObject) -> IndirectObject:
    """A reference to `obj`, added to the writer's objects."""
    return writer._add_object(obj)


def info(writer: PdfWriter) -> DictionaryObject:
    """The writer's document information dictionary, to change in place; a PDF without one gets one."""
    dictionary = writer._info
    if dictionary is None:
        writer.add_metadata({})
        dictionary = writer._info
        assert dictionary is not None, "add_metadata makes the dictionary"
    return dictionary
