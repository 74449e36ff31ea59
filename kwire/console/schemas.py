"""The console's Schemas page data: subjects, versions, schema text and compatibility, from the
broker's own Schema Registry over its REST API (``kwire.registry``), as any registry client.

``SchemasBackend(url)`` (``url``: a callable giving the registry's base URL, or
None when ``schema.registry.port`` is off) answers ``subjects()`` (each
subject's latest version, id, type, compatibility level) and
``subject(name)`` (every version with its id, type, references and schema
text, JSON schemas pretty-printed). Read-only: the console registers and
deletes nothing (``kwire schemas`` and the REST API do). Errors raise
``SchemaRegistryUnavailable`` (off, unreachable) or ``SubjectNotFound``
(a subject that does not exist); at most ``MAX_SUBJECTS`` subjects are
listed.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from urllib.parse import quote

MAX_SUBJECTS = 500
TIMEOUT_S = 15


class SchemaRegistryUnavailable(Exception):
    pass


class SubjectNotFound(Exception):
    pass


class SchemasBackend:
    def __init__(self, url) -> None:
        self._url = url

    def _get(self, path: str):
        if self._url is None:
            raise SchemaRegistryUnavailable("the Schema Registry is off (schema.registry.port)")
        base = self._url() if callable(self._url) else self._url
        try:
            with urllib.request.urlopen(base.rstrip("/") + path, timeout=TIMEOUT_S) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            try:
                err = json.loads(e.read())
            except ValueError:
                err = {"error_code": e.code, "message": str(e)}
            if e.code == 404:
                raise SubjectNotFound(err.get("message")) from None
            raise SchemaRegistryUnavailable(f"{err.get('error_code')}: {err.get('message')}") from None
        except (urllib.error.URLError, OSError) as e:
            raise SchemaRegistryUnavailable(f"the Schema Registry does not answer: {e}") from None

    def _level(self, subject: str | None) -> str:
        path = "/config" if subject is None else f"/config/{quote(subject, safe='')}?defaultToGlobal=true"
        return self._get(path).get("compatibilityLevel", "")

    def subjects(self) -> dict:
        names = self._get("/subjects")
        out = []
        for name in names[:MAX_SUBJECTS]:
            try:
                latest = self._get(f"/subjects/{quote(name, safe='')}/versions/latest")
            except SubjectNotFound:  # deleted meanwhile
                continue
            out.append({"subject": name, "version": latest["version"], "id": latest["id"],
                        "type": latest.get("schemaType", "AVRO"), "compatibility": self._level(name)})
        return {"subjects": out, "compatibility": self._level(None), "truncated": len(names) > MAX_SUBJECTS}

    def subject(self, name: str) -> dict:
        q = quote(name, safe="")
        versions = []
        for v in self._get(f"/subjects/{q}/versions"):
            got = self._get(f"/subjects/{q}/versions/{v}")
            text = got["schema"]
            try:
                text = json.dumps(json.loads(text), indent=2)
            except ValueError:
                pass  # Protobuf text or a base64 descriptor: shown as it is
            versions.append({"version": v, "id": got["id"], "type": got.get("schemaType", "AVRO"),
                             "references": got.get("references", []), "schema": text})
        return {"subject": name, "compatibility": self._level(name), "versions": versions}
