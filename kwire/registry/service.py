"""``SchemaRegistry``: the REST API's operations on the replayed state, writes through a store.

Each public method is one operation of Confluent Schema Registry's API v1,
takes the already decoded path / query / body values and returns the JSON
value to answer, or raises ``RegistryError`` (``kwire.registry.errors``) with
Confluent's status and error code. It never does I/O itself: reads look at
``RegistryState``; a write takes the store's lock, brings the state up to the
end of ``_schemas`` (``store.sync()``, so a writer that has just taken over
from another broker sees every earlier write), plans the records, and
``store.append()`` returns once they have been replayed into the state. So ids
and versions are decided by one writer at a time against a complete state.

What it does not do: contexts, schema GUIDs, metadata / rule sets,
``/subjects/{s}/versions/{v}/referencedby`` pagination, ``/exporters``,
``/dek-registry``.
"""

from __future__ import annotations

import json
import logging
import unicodedata

from kwire.registry import errors
from kwire.registry import types as schema_types
from kwire.registry.state import (
    COMPATIBILITY_LEVELS,
    DEFAULT_COMPATIBILITY,
    DEFAULT_MODE,
    MODES,
    RegistryState,
    Stored,
    config_key,
    id_floor_key,
    mode_key,
    schema_key,
    schema_value,
)

log = logging.getLogger("kwire.registry")

MAX_SCHEMA_CHARS = 1 << 20  # a schema text larger than this is refused with 42209
MAX_SUBJECT_CHARS = 1024
MAX_REFERENCE_DEPTH = 32
REGISTER_ATTEMPTS = 3


class LostToAnotherWriter(Exception):
    """A registration's record was ignored: another writer's took its id or version first."""


def _subject_ok(subject: str) -> None:
    if (not subject or len(subject) > MAX_SUBJECT_CHARS or subject != subject.strip()
            or any(unicodedata.category(c) == "Cc" for c in subject)):
        raise errors.invalid_subject(subject)


def parse_version(version) -> int | None:
    """'latest' / -1 -> None (the newest); otherwise a version in [1, 2^31-1] or 42202."""
    s = str(version)
    if s == "latest" or s == "-1":
        return None
    try:
        v = int(s)
    except ValueError:
        raise errors.invalid_version(s) from None
    if not 1 <= v <= (1 << 31) - 1:
        raise errors.invalid_version(s)
    return v


class SchemaRegistry:
    def __init__(self, store, normalize_schemas: bool = False) -> None:
        self.store = store
        self.normalize_schemas = normalize_schemas  # schema.registry.normalize.schemas
        self.state: RegistryState = store.state
        self._parsed: dict[int, object] = {}  # id -> parsed schema (ids never change meaning)

    # -- parsing -----------------------------------------------------------------------------
    def _references(self, refs, depth: int = 0) -> list[tuple[str, object]]:
        """Parsed referenced schemas, dependencies first, as (name, parsed)."""
        if depth > MAX_REFERENCE_DEPTH:
            raise errors.invalid_schema("Invalid schema: references nest too deeply")
        out: list[tuple[str, object]] = []
        for ref in refs:
            name, subject, version = ref.get("name"), ref.get("subject"), ref.get("version")
            if not isinstance(name, str) or not isinstance(subject, str):
                raise errors.unprocessable("a reference needs a name, a subject and a version")
            versions = self.state.live_versions(subject)
            try:
                v = parse_version(version if version is not None else "latest")
            except errors.RegistryError:
                raise errors.invalid_schema(f"Invalid schema: reference {name!r} has an invalid version "
                                            f"{version!r}") from None
            ver = versions.get(v) if v is not None else (versions[max(versions)] if versions else None)
            if ver is None:
                raise errors.invalid_schema(f"Invalid schema: reference {name!r} to subject {subject!r} "
                                            f"version {version} not found")
            stored = self.state.schemas[ver.id]
            out += self._references(stored.references, depth + 1)
            out.append((name, self.parsed(ver.id)))
        return out

    def parsed(self, schema_id: int):
        p = self._parsed.get(schema_id)
        if p is None:
            stored = self.state.schemas[schema_id]
            refs = self._references(stored.references)
            # stored: accepted once, so read it back even if today's checks would refuse it
            p = self._parsed[schema_id] = schema_types.parse(stored.schema_type, stored.schema, refs, strict=False)
        return p

    def _normalizes(self, subject: str, asked: bool) -> bool:
        """``?normalize=true``, else the subject's or the global ``normalize`` config, else the
        broker's ``schema.registry.normalize.schemas`` (Confluent's ``normalize.schemas``)."""
        return asked or self.state.normalizes(subject, self.normalize_schemas)

    def _parse_body(self, body, normalize: bool) -> tuple[Stored, object]:
        if not isinstance(body, dict):
            raise errors.unprocessable("the request body must be a JSON object")
        text = body.get("schema")
        schema_type = body.get("schemaType") or "AVRO"
        refs = body.get("references") or []
        if not isinstance(text, str):
            raise errors.unprocessable("Invalid schema: 'schema' must be a string" if text is not None
                                       else "Empty schema")
        if len(text) > MAX_SCHEMA_CHARS:
            raise errors.schema_too_large(f"Schema too large: {len(text)} characters, the limit is "
                                          f"{MAX_SCHEMA_CHARS}")
        if not isinstance(schema_type, str) or not isinstance(refs, list) or \
                not all(isinstance(r, dict) for r in refs):
            raise errors.unprocessable("'schemaType' must be a string and 'references' a list of objects")
        if schema_type not in schema_types.TYPES:
            raise errors.invalid_schema(f"Invalid schema type {schema_type!r}")
        resolved = self._references(refs)
        try:
            parsed = schema_types.parse(schema_type, text, resolved)
        except ValueError as e:
            raise errors.invalid_schema(str(e)) from None
        except RecursionError:
            raise errors.invalid_schema("Invalid schema: nested too deeply") from None
        stored_text = parsed.normalized() if normalize else parsed.canonical
        refs = [{"name": r["name"], "subject": r["subject"], "version": r.get("version", -1)} for r in refs]
        return Stored(schema_type, stored_text, refs), parsed

    # -- compatibility -----------------------------------------------------------------------
    def _check(self, level: str, new, previous: list[tuple[int, int]]) -> list[str]:
        """Reasons ``new`` breaks ``level`` against [(version, id)] oldest first (empty: compatible)."""
        if level == "NONE" or not previous:
            return []
        targets = previous if level.endswith("_TRANSITIVE") else previous[-1:]
        base = level.replace("_TRANSITIVE", "")
        out: list[str] = []
        for version, sid in reversed(targets):
            old = self.parsed(sid)
            reasons = []
            if base in ("BACKWARD", "FULL"):
                reasons += schema_types.can_read(new, old)
            if base in ("FORWARD", "FULL"):
                reasons += schema_types.can_read(old, new)
            if reasons:
                out += reasons + [f"{{oldSchemaVersion: {version}}}", f"{{oldSchema: '{self.state.schemas[sid].schema}'}}",
                                  f"{{compatibility: '{level}'}}"]
        return out

    # -- subjects and versions ---------------------------------------------------------------
    def register(self, subject: str, body, normalize: bool = False) -> dict:
        """Register; planned again when another writer's record took the id or version first
        (a change of primary), up to ``REGISTER_ATTEMPTS`` times, then 50001 (clients retry)."""
        _subject_ok(subject)
        for _ in range(REGISTER_ATTEMPTS - 1):
            try:
                return self._register(subject, body, normalize)
            except LostToAnotherWriter:
                log.warning("schema registry: a registration under %r lost to another writer's; planning "
                            "it again", subject)
        try:
            return self._register(subject, body, normalize)
        except LostToAnotherWriter as e:
            raise errors.store_error(str(e)) from None

    def _register(self, subject: str, body, normalize: bool) -> dict:
        with self.store.lock:
            self.store.sync()
            st = self.state
            mode = st.mode_of(subject)
            if mode in ("READONLY", "READONLY_OVERRIDE"):
                raise errors.not_permitted(f"Subject {subject} is in read-only mode")
            stored, parsed = self._parse_body(body, self._normalizes(subject, normalize))
            want_id, want_version = body.get("id"), body.get("version")
            if want_id is not None and mode != "IMPORT":
                if st.ids.get(stored.key()) != want_id:
                    raise errors.not_permitted(f"Subject {subject} is not in import mode")
            versions = st.live_versions(subject)
            for v, ver in versions.items():
                if st.schemas[ver.id].key() == stored.key():
                    return {"id": ver.id}
            if mode != "IMPORT":
                reasons = self._check(st.compatibility(subject), parsed,
                                      [(v, ver.id) for v, ver in versions.items()])
                if reasons:
                    raise errors.incompatible(
                        f"Schema being registered is incompatible with an earlier schema for subject "
                        f"\"{subject}\", details: [{', '.join(reasons)}]")
            if want_id is not None and mode == "IMPORT":
                if not isinstance(want_id, int) or want_id < 1:
                    raise errors.unprocessable(f"invalid id {want_id!r}")
                existing = st.schemas.get(want_id)
                if existing is not None and existing.key() != stored.key():
                    raise errors.id_does_not_match(
                        f"Overwrite new schema with id {want_id} is not permitted: the id holds another schema")
                sid = want_id
                self._parsed.pop(sid, None)  # an imported id may name a schema deleted for good
            else:
                sid = st.ids.get(stored.key()) or st.max_id + 1
            every = st.subjects.get(subject, {})
            if want_version is not None and mode == "IMPORT":
                version = parse_version(want_version)
                if version is None or version in every:
                    raise errors.invalid_version(want_version)
            else:
                version = max(every, default=0) + 1
            self.store.append([(schema_key(subject, version), schema_value(subject, version, sid, stored, False))])
            got = st.subjects.get(subject, {}).get(version)
            if got is None or got.id != sid:
                raise LostToAnotherWriter(f"another writer took id {sid} or version {version} of {subject} "
                                          "meanwhile (a change of the registry's primary): register again")
            return {"id": sid}

    def lookup(self, subject: str, body, normalize: bool = False, deleted: bool = False,
               fmt: str | None = None) -> dict:
        st = self.state
        versions = st.live_versions(subject, deleted)
        if not versions:
            raise errors.subject_not_found(subject)
        stored, _ = self._parse_body(body, self._normalizes(subject, normalize))
        for v, ver in versions.items():
            if st.schemas[ver.id].key() == stored.key():
                return self._version_json(subject, v, ver.id, fmt)
        raise errors.schema_not_found()

    def _version_json(self, subject: str, version: int, sid: int, fmt: str | None = None) -> dict:
        out: dict = {"subject": subject, "version": version, "id": sid}
        out.update(self._schema_json(sid, fmt))
        return out

    def _schema_json(self, sid: int, fmt: str | None = None) -> dict:
        stored = self.state.schemas[sid]
        out: dict = {}
        if stored.schema_type != "AVRO":
            out["schemaType"] = stored.schema_type
        if stored.references:
            out["references"] = stored.references
        out["schema"] = stored.schema
        if stored.schema_type == "PROTOBUF":
            parsed = self.parsed(sid)
            try:
                out["schema"] = parsed.as_serialized() if fmt == "serialized" else parsed.as_text()
            except Exception as e:  # a conversion bug must not hide the stored schema
                log.warning("schema %d: %s conversion failed: %s", sid, fmt or "text", e)
        return out

    def subjects(self, deleted: bool = False, deleted_only: bool = False, prefix: str | None = None) -> list[str]:
        names = self.state.subject_names(deleted, deleted_only)
        return [n for n in names if not prefix or n.startswith(prefix)]

    def versions(self, subject: str, deleted: bool = False, deleted_only: bool = False) -> list[int]:
        every = self.state.live_versions(subject, True)
        if not every or (not deleted and not deleted_only and all(v.deleted for v in every.values())):
            raise errors.subject_not_found(subject)
        if deleted_only:
            return [v for v, ver in every.items() if ver.deleted]
        return [v for v, ver in every.items() if deleted or not ver.deleted]

    def _find(self, subject: str, version, deleted: bool = False) -> tuple[int, int]:
        v = parse_version(version)
        every = self.state.live_versions(subject, True)
        if not every or (not deleted and all(x.deleted for x in every.values())):
            raise errors.subject_not_found(subject)
        versions = {k: x for k, x in every.items() if deleted or not x.deleted}
        if v is None:
            if not versions:
                raise errors.version_not_found(version)
            v = max(versions)
        ver = versions.get(v)
        if ver is None:
            raise errors.version_not_found(v)
        return v, ver.id

    def get_version(self, subject: str, version, deleted: bool = False, fmt: str | None = None) -> dict:
        v, sid = self._find(subject, version, deleted)
        return self._version_json(subject, v, sid, fmt)

    def referenced_by(self, subject: str, version) -> list[int]:
        v, _ = self._find(subject, version)
        return self.state.referenced_by(subject, v)

    def schema_by_id(self, sid: int, fmt: str | None = None) -> dict:
        if sid not in self.state.schemas or not self._id_in_use(sid, True):
            raise errors.schema_not_found(sid)
        return self._schema_json(sid, fmt)

    def _id_in_use(self, sid: int, deleted: bool) -> list[tuple[str, int]]:
        return [(s, v) for s, versions in sorted(self.state.subjects.items())
                for v, ver in sorted(versions.items()) if ver.id == sid and (deleted or not ver.deleted)]

    def subjects_for_id(self, sid: int, deleted: bool = False) -> list[str]:
        uses = self._id_in_use(sid, deleted)
        if not uses:
            raise errors.schema_not_found(sid)
        return sorted({s for s, _ in uses})

    def versions_for_id(self, sid: int, deleted: bool = False) -> list[dict]:
        uses = self._id_in_use(sid, deleted)
        if not uses:
            raise errors.schema_not_found(sid)
        return [{"subject": s, "version": v} for s, v in uses]

    # -- deletes -----------------------------------------------------------------------------
    def _writable(self, subject: str | None) -> None:
        if self.state.mode_of(subject) in ("READONLY", "READONLY_OVERRIDE"):
            raise errors.not_permitted(f"Subject {subject} is in read-only mode")

    def _floor_records(self, sids: set[int]) -> list:
        """Before tombstoning the version that holds the largest id: keep the id from reuse."""
        if self.state.max_id in sids:
            return [(id_floor_key(), {"id": self.state.max_id})]
        return []

    def delete_version(self, subject: str, version, permanent: bool = False) -> int:
        with self.store.lock:
            self.store.sync()
            self._writable(subject)
            st = self.state
            if not permanent:
                self._not_soft_deleted(subject, version)
            v, sid = self._find(subject, version, deleted=permanent)
            ver = st.subjects[subject][v]
            if st.referenced_by(subject, v):
                raise errors.reference_exists(f"One or more references exist to the schema "
                                              f"{{magic=1,keytype=SCHEMA,subject={subject},version={v}}}.")
            if permanent:
                if not ver.deleted:
                    raise errors.version_not_soft_deleted(subject, v)
                self.store.append(self._floor_records({sid}) + [(schema_key(subject, v), None)])
            else:
                self.store.append([(schema_key(subject, v),
                                    schema_value(subject, v, sid, st.schemas[sid], True))])
            return v

    def _not_soft_deleted(self, subject: str, version) -> None:
        """40406 for a soft delete of a version that is soft-deleted already, as Confluent's
        deleteSchemaVersion answers (``latest``: when every version of the subject is)."""
        every = self.state.live_versions(subject, True)
        v = parse_version(version)
        if v is None:
            ver = every[max(every)] if every and all(x.deleted for x in every.values()) else None
        else:
            ver = every.get(v)
        if ver is not None and ver.deleted:
            raise errors.version_soft_deleted(subject, version if v is None else v)

    def delete_subject(self, subject: str, permanent: bool = False) -> list[int]:
        with self.store.lock:
            self.store.sync()
            self._writable(subject)
            st = self.state
            every = st.live_versions(subject, True)
            if not every:
                raise errors.subject_not_found(subject)
            live = [v for v, ver in every.items() if not ver.deleted]
            if permanent:
                if live:
                    raise errors.subject_not_soft_deleted(subject)
                records = self._floor_records({ver.id for ver in every.values()})
                records += [(schema_key(subject, v), None) for v in every]
                records.append(({"keytype": "CLEAR_SUBJECT", "subject": subject, "magic": 0},
                                {"subject": subject}))
                self.store.append(records)
                return list(every)
            if not live:
                raise errors.subject_soft_deleted(subject)
            for v in live:
                if st.referenced_by(subject, v):
                    raise errors.reference_exists(f"One or more references exist to the schema "
                                                  f"{{magic=1,keytype=SCHEMA,subject={subject},version={v}}}.")
            records = [(schema_key(subject, v), schema_value(subject, v, every[v].id,
                                                             st.schemas[every[v].id], True)) for v in live]
            records.append(({"keytype": "DELETE_SUBJECT", "subject": subject, "magic": 0},
                            {"subject": subject, "version": max(live)}))
            self.store.append(records)
            return live

    # -- compatibility -----------------------------------------------------------------------
    def test_compatibility(self, subject: str, version, body, verbose: bool = False,
                           normalize: bool = False) -> dict:
        st = self.state
        _, parsed = self._parse_body(body, self._normalizes(subject, normalize))
        level = st.compatibility(subject)
        if version is None:  # /compatibility/subjects/{s}/versions: against all of them
            previous = [(v, ver.id) for v, ver in st.live_versions(subject).items()]
            reasons = self._check(level.replace("_TRANSITIVE", "") + "_TRANSITIVE" if level != "NONE" else level,
                                  parsed, previous)
        else:
            try:
                v, sid = self._find(subject, version)
            except errors.RegistryError as e:
                if e.error_code == 40401 and parse_version(version) is None:
                    return {"is_compatible": True, **({"messages": []} if verbose else {})}
                raise
            reasons = self._check(level.replace("_TRANSITIVE", "") if level != "NONE" else level,
                                  parsed, [(v, sid)])
        out: dict = {"is_compatible": not reasons}
        if verbose:
            out["messages"] = reasons
        return out

    # -- config and mode ---------------------------------------------------------------------
    def get_config(self, subject: str | None, default_to_global: bool = False) -> dict:
        st = self.state
        if subject is not None and subject not in st.config and not default_to_global:
            raise errors.subject_compatibility_not_configured(subject)
        out: dict = {"compatibilityLevel": st.compatibility(subject)}
        if subject in st.normalize or (None in st.normalize and (subject is None or default_to_global)):
            out["normalize"] = st.normalizes(subject)
        return out

    def set_config(self, subject: str | None, body) -> dict:
        if subject is not None:
            _subject_ok(subject)
        if not isinstance(body, dict):
            raise errors.unprocessable("the request body must be a JSON object")
        level = body.get("compatibility", body.get("compatibilityLevel"))
        normalize = body.get("normalize")
        if (level is None and normalize is None) or (level is not None and (
                not isinstance(level, str) or level.upper() not in COMPATIBILITY_LEVELS)):
            raise errors.invalid_compatibility_level(level)
        if normalize is not None and not isinstance(normalize, bool):
            raise errors.unprocessable(f"Invalid normalize {normalize!r}: true or false")
        with self.store.lock:
            self.store.sync()
            self._writable(subject)
            st = self.state
            # a field left out keeps this subject's (or the global) own setting, as Confluent merges
            level = level.upper() if level is not None else st.config.get(subject, st.compatibility(subject))
            value: dict = {"compatibilityLevel": level}
            if normalize is None and subject in st.normalize:
                normalize = st.normalize[subject]
            if normalize is not None:
                value["normalize"] = normalize
            self.store.append([(config_key(subject), value)])
        out: dict = {"compatibility": level}
        if normalize is not None:
            out["normalize"] = normalize
        return out

    def delete_config(self, subject: str | None) -> dict:
        with self.store.lock:
            self.store.sync()
            st = self.state
            if subject is not None and subject not in st.subjects and subject not in st.config:
                raise errors.subject_not_found(subject)
            before = st.compatibility(subject)
            if subject in st.config:
                self.store.append([(config_key(subject), None)])
            return {"compatibilityLevel": before}

    def get_mode(self, subject: str | None, default_to_global: bool = False) -> dict:
        st = self.state
        if subject is None:
            return {"mode": st.mode.get(None, DEFAULT_MODE)}
        if subject not in st.mode and not default_to_global:
            raise errors.subject_mode_not_configured(subject)
        return {"mode": st.mode_of(subject)}

    def set_mode(self, subject: str | None, body, force: bool = False) -> dict:
        if subject is not None:
            _subject_ok(subject)
        if not isinstance(body, dict):
            raise errors.unprocessable("the request body must be a JSON object")
        mode = body.get("mode")
        if not isinstance(mode, str) or mode.upper() not in MODES:
            raise errors.invalid_mode(mode)
        mode = mode.upper()
        with self.store.lock:
            self.store.sync()
            st = self.state
            if mode == "IMPORT" and not force:
                has = st.live_versions(subject) if subject is not None else st.subject_names()
                if has:
                    raise errors.not_permitted("Cannot import since found existing subjects")
            self.store.append([(mode_key(subject), {"mode": mode})])
        return {"mode": mode}

    def delete_mode(self, subject: str) -> dict:
        with self.store.lock:
            self.store.sync()
            st = self.state
            if subject not in st.mode:
                raise errors.subject_not_found(subject)
            before = st.mode[subject]
            self.store.append([(mode_key(subject), None)])
            return {"mode": before}


def encode(obj: dict | None) -> bytes | None:
    """A ``_schemas`` key or value as stored (compact JSON; None stays a tombstone)."""
    return None if obj is None else json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
