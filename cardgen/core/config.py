"""A project's settings file: cardgen.toml, or [tool.cardgen] in pyproject.toml, in; named values out.

Today it remembers printers: the back offset a calibration sheet measured, so
that a group prints with ``--printer office`` instead of retyping numbers::

    [printers.office]
    back-offset = [0.5, -1.0]    # mm, as read on the calibration sheet
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from cardgen.core.problems import DeckError, Problem, Where
from cardgen.core.project import read_text


def _settings(root: Path) -> tuple[dict, str]:
    for name, where in (("cardgen.toml", "cardgen.toml"), ("pyproject.toml", "pyproject.toml [tool.cardgen]")):
        path = root / name
        if os.path.lexists(path):
            settings = _read(path, root)
            return (settings if name == "cardgen.toml" else settings.get("tool", {}).get("cardgen", {})), where
    return {}, "cardgen.toml"


def _read(path: Path, root: Path) -> dict:
    """A settings file of the project folder, read by the rule of cardgen.core.contained."""
    try:
        return tomllib.loads(read_text(path, root, path.name))
    except tomllib.TOMLDecodeError as exc:
        raise DeckError([Problem(Where(path.name), f"TOML error: {exc}")]) from None


def printer_offset(root: Path, name: str) -> tuple[float, float]:
    """The back offset remembered for a printer."""
    settings, where = _settings(root)
    printers = settings.get("printers", {}) if isinstance(settings, dict) else {}
    printers = printers if isinstance(printers, dict) else {}
    if name not in printers:
        known = ", ".join(printers) or "none yet"
        raise DeckError([Problem(None, f"no printer '{name}' in {where}; printers: {known}")])
    offset = printers[name].get("back-offset") if isinstance(printers[name], dict) else None
    if not (isinstance(offset, list) and len(offset) == 2 and all(isinstance(v, (int, float)) for v in offset)):
        raise DeckError([Problem(None, f"{where}: printers.{name}.back-offset: expected [x, y] in mm, "
                                       f"got {offset!r}")])
    return float(offset[0]), float(offset[1])
