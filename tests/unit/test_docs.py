"""The documentation: the MkDocs site in docs/ and the short README.

``mkdocs build --strict`` (with ``mkdocs.yml``'s validation settings) turns a
link to a missing page, a link to a heading that does not exist and a page
left out of the nav into a failed build. The first test builds the real site
into a tmp dir; the next ones build a copy of it with one such defect each and
check that the build fails naming the defect, so the check itself cannot rot.

The README stays a front door: at most 200 lines, its set-up commands the ones
``.ci/run`` relies on, and every relative link pointing at a file (and heading)
that exists. What it does not check: that the prose is true (the pages name the
tests and commands that back their figures).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from markdown.extensions.toc import slugify

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, timeout=120, cwd=config.parent)


def nav_pages() -> list[str]:
    def walk(items):
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                yield from walk(value)
            else:
                yield value
    return list(walk(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]))


def test_site_builds_strictly(tmp_path):
    p = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert p.returncode == 0, p.stdout + p.stderr
    pages = nav_pages()
    assert "index.md" in pages and len(pages) >= 10
    for page in pages:  # every page in the nav became an HTML page
        name = page.removesuffix(".md")
        html = tmp_path / "site" / ("index.html" if name == "index" else f"{name}/index.html")
        assert html.is_file(), f"{page} was not built"


@pytest.mark.parametrize("defect, named", [
    ("link", "no-such-page.md"),
    ("anchor", "no-such-section"),
    ("orphan", "orphan.md"),
])
def test_a_broken_copy_fails_the_strict_build_naming_the_defect(tmp_path, defect, named):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    page = tmp_path / "docs" / "troubleshooting.md"
    if defect == "link":
        page.write_text(page.read_text() + "\nSee [the missing page](no-such-page.md).\n")
    elif defect == "anchor":
        page.write_text(page.read_text() + "\nSee [a section](configuration.md#no-such-section).\n")
    else:
        (tmp_path / "docs" / "orphan.md").write_text("# Not in the nav\n")
    p = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    out = p.stdout + p.stderr
    assert p.returncode != 0, f"the strict build passed with a broken {defect}:\n{out}"
    assert named in out, f"the failed build does not name {named!r}:\n{out}"
    # and the unbroken copy builds: the failure is the defect's, not the copy's
    if defect == "orphan":
        (tmp_path / "docs" / "orphan.md").unlink()
        assert build(tmp_path / "mkdocs.yml", tmp_path / "site2").returncode == 0


def test_readme_is_short_and_keeps_the_set_up_commands():
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move the detail into docs/"
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    assert any(b.strip() == "pip install '.[fast]' && kwire serve" for b in blocks)
    assert any(b.strip() == "bash scripts/test.sh" for b in blocks)
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()


def _headings(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slugify(m.group(1).strip(), "-") for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def test_readme_links_only_to_files_and_headings_that_exist():
    links = LINK.findall(README.read_text(encoding="utf-8"))
    relative = [u for u in links if not re.match(r"[a-z]+:", u)]
    assert any(u.startswith("docs/") for u in relative), "README.md links into no docs/ page"
    broken = []
    for url in relative:
        path, _, anchor = url.partition("#")
        target = ROOT / path
        if not target.exists():
            broken.append(f"{url}: no such file")
        elif anchor and target.suffix == ".md" and anchor not in _headings(target):
            broken.append(f"{url}: no heading #{anchor} in {path}")
    assert not broken, broken


def test_the_readme_link_check_sees_a_broken_link(tmp_path, monkeypatch):
    broken = tmp_path / "README.md"
    broken.write_text(README.read_text(encoding="utf-8") + "\n[gone](docs/no-such-page.md)\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "README", broken)
    with pytest.raises(AssertionError, match="no-such-page.md"):
        test_readme_links_only_to_files_and_headings_that_exist()
