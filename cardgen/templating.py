"""Jinja2 templates: a template name and plain values in, text out.

Templates are looked up in the project's templates/ first, then the built-in
one, like MkDocs themes. They run sandboxed: deck texts are values, escaped
on the way in (autoescape, for the XML documents), and never templates
themselves; a template that reaches for unsafe attributes, or any file outside
its folder (a symbolic link leading out), fails with its file and line.
"""

from __future__ import annotations

import os
import traceback
from pathlib import Path
from typing import Any, Sequence



class TemplateError(Exception):
    """A template that cannot be used: where (file, line) and why."""

    def __init__(self, file: str, line: int | None, message: str):
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")


def _template_line(exc: BaseException) -> tuple[str | None, int | None]:
    """Where in a template an error happened: Jinja2 puts template lines in the traceback."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith(".j2"):
            return frame.filename, frame.lineno
    return None, None


def render(template_dirs: Sequence[Path], name: str, context: dict[str, Any], autoescape: bool = True) -> str:
    """`autoescape` is for XML output; YAML templates quote their values with the tojson filter."""
    # Imported here: builds with nothing to do, list and --help never need Jinja2.
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

    class _ContainedLoader(jinja2.FileSystemLoader):
        """A file loader that will not follow a symbolic link out of its folders."""

        def get_source(self, environment, template):
            # Checked before anything is read: a symbolic link out of the folder is never opened.
            pieces = jinja2.loaders.split_template_path(template)
            for folder in self.searchpath:
                # The folder itself must not be a link out (templates/documents -> elsewhere).
                parent = os.path.dirname(os.path.abspath(folder))
                if os.path.realpath(folder) != os.path.join(os.path.realpath(parent), os.path.basename(folder)):
                    raise TemplateError(folder, None, "is a symbolic link; cardgen does not follow it")
                candidate = os.path.join(folder, *pieces)
                if os.path.isfile(candidate):
                    if not os.path.realpath(candidate).startswith(os.path.realpath(folder) + os.sep):
                        raise TemplateError(candidate, None, "leads outside its templates folder (a symbolic link?)")
                    break
            return super().get_source(environment, template)

    env = SandboxedEnvironment(
        loader=_ContainedLoader([str(d) for d in template_dirs]),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    try:
        return env.get_template(name).render(context)
    except TemplateError:
        raise
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(exc.filename or name, exc.lineno, exc.message or "syntax error") from None
    except jinja2.TemplateNotFound:
        raise TemplateError(name, None, f"no such template in {', '.join(map(str, template_dirs))}") from None
    except (jinja2.TemplateError, TypeError, ValueError, AttributeError, OverflowError, RecursionError,
            ArithmeticError, LookupError) as exc:
        file, line = _template_line(exc)
        raise TemplateError(file or name, line, str(exc)) from None
