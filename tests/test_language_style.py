"""A language's own style for its web pages (templates/languages/<lang>.css): a project's file is taken
in place of cardgen's, and one that would end the page's <style> is refused, naming the file. What the
bundled ja.css and ko.css do to a page is measured in Chromium (test_narrator_rtl.py)."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.project import Project
from conftest import run


def _style(project: Path, lang: str, css: str) -> None:
    folder = project / "templates" / "languages"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{lang}.css").write_text(css, encoding="utf-8")


def test_a_projects_language_style_replaces_cardgens_and_a_region_takes_its_languages(mini):
    project = Project.at(mini / "decks")
    assert "line-break: strict" in project.language_style("ja")
    assert project.language_style("ja-JP") == project.language_style("ja")
    assert project.language_style("en") == ""
    _style(mini, "ja", ":root { line-break: loose; }\n")
    assert Project.at(mini / "decks").language_style("ja-JP") == ":root { line-break: loose; }\n"


def test_a_language_style_that_would_end_the_pages_style_is_refused_naming_its_file(mini, tmp_path):
    _style(mini, "en", "p { color: red; }\n</STYLE><script>alert(1)</script>\n")
    result = run("site", "--decks", str(mini / "decks"), "--out", str(tmp_path / "out"), "--lang", "en")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-2:] == [
        "templates/languages/en.css: error: contains '</style', which would end the page's style early",
        "1 error",
    ]
    assert not (tmp_path / "out" / "site" / "mini" / "en.html").exists()
