"""Jinja2 templates: a template name and plain values in, XML text out.

Templates are looked up in the project's templates/ first, then the built-in
one, like MkDocs themes. They run sandboxed with autoescape on: deck texts
are values, escaped on the way in, and never templates themselves.
"""

from __future__ import annotations

from typing import Any, Sequence
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment


def render(template_dirs: Sequence[Path], name: str, context: dict[str, Any], autoescape: bool = True) -> str:
    """`autoescape` is for XML output; YAML templates quote their values with the tojson filter."""
    env = SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([str(d) for d in template_dirs]),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env.get_template(name).render(context)
