"""``python -m kwire.handlers.table``: the API × version table, from the handler registry.

Prints a Markdown table of every API kwire serves (what ApiVersions
advertises) beside the versions in Kafka 4.3's schemas. With ``--docs`` it
rewrites the table between the ``<!-- api-table -->`` markers in
docs/compatibility.md (run from the repository's root).
"""

from __future__ import annotations

import sys

from kwire.handlers import REGISTRY
from kwire.protocol.codec import APIS

MARK = "<!-- api-table -->"


def markdown() -> str:
    lines = ["| key | API | kwire versions | Kafka 4.3 versions |", "| ---: | --- | --- | --- |"]
    for key, e in sorted(REGISTRY.items()):
        spec = APIS[key]
        served = f"{e.min_version}–{e.max_version}"
        if e.advertised_min_version != e.min_version:
            served += f" (advertised from v{e.advertised_min_version})"
        kafka = f"{spec.min_version}–{spec.max_version}"
        if spec.latest_version_unstable:
            kafka += f" (v{spec.max_version} unstable)"
        lines.append(f"| {key} | {spec.name} | {served} | {kafka} |")
    return "\n".join(lines)


DOCS_PAGE = "docs/compatibility.md"


def update_docs(path: str = DOCS_PAGE) -> None:
    text = open(path, encoding="utf-8").read()
    parts = text.split(MARK)
    if len(parts) != 3:
        raise SystemExit(f"{path}: expected two {MARK} markers")
    open(path, "w", encoding="utf-8").write(parts[0] + MARK + "\n" + markdown() + "\n" + MARK + parts[2])


if __name__ == "__main__":
    if "--docs" in sys.argv:
        update_docs()
    else:
        print(markdown())
