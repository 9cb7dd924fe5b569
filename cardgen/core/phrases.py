"""cardgen's own phrases (templates/documents/text.yaml, templates/strings.yaml): a phrase and values in,
the phrase with its ``{placeholders}`` filled in out.

str.format would choke on braces a translator wrote; only our own names are replaced.
"""

from __future__ import annotations


def fill(text: str, **values) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text
