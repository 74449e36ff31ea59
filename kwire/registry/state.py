"""The registry's state, rebuilt only by replaying ``_schemas`` records (sans-I/O).

Every change is a record of the compacted topic ``_schemas`` in Confluent
Schema Registry's layout: a JSON key naming what it is about and a JSON value
(null: a tombstone), so compaction keeps the newest value per key:

    key                                                          value
    {"keytype":"SCHEMA","subject":S,"version":V,"magic":1}       {"subject","version","id","schemaType"
                                                                   (absent for AVRO),"references"
                                                                   (when any),"schema","deleted"}
    {"keytype":"CONFIG","subject":S or null,"magic":0}           {"compatibilityLevel": LEVEL[, "normalize": bool]}
    {"keytype":"MODE","subject":S or null,"magic":0}             {"mode": MODE}
    {"keytype":"DELETE_SUBJECT","subject":S,"magic":0}           {"subject","version"}: soft delete
    {"keytype":"CLEAR_SUBJECT","subject":S,"magic":0}            {"subject"}: permanent delete
    {"keytype":"NOOP","magic":0}                                 ignored
    {"keytype":"ID_FLOOR","magic":0}                             {"id": N}: kwire's own, see below
    {"keytype":"KWIRE_MEMBER","broker":N,"magic":0}             {"url": U}: kwire's own, where broker
                                                                   N's registry answers (forwarding)

``replay(key, value)`` is the only way the state changes, at start-up (the
whole topic) and for every write (the writer appends, then waits until its
record has been replayed), so live and recovered state cannot differ.

Two writers (a change of primary: the old one not yet fenced) can both plan
against the same end of the log. The first record in the log wins, on every
broker alike: a SCHEMA record whose id already holds another schema, or
whose subject/version already holds another id, is ignored (``conflicts``)
and its key noted in ``unrepaired``. Compaction keeps the newest value per
key, so a loser left last for its key would win after a compaction and a
restart: ``repairs()`` gives the records that put the winner back (its value
again, or a tombstone when the key holds nothing), which the next writer
appends before anything else; a record of the key accepted later clears it.

Invariant: ids are never reused. A new id is one more than the largest id
ever seen. A permanent delete tombstones SCHEMA records, and compaction may
drop a tombstone for good; so before it tombstones the version holding the
largest id the writer appends an ``ID_FLOOR`` record (one key, never
tombstoned) carrying that id. Confluent's registry ignores what it does not
know only partly: this key type is a kwire extension.

What it does not do: contexts (``:.ctx:subject``), metadata and rule sets,
schema GUIDs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

COMPATIBILITY_LEVELS = ("NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE",
                        "FULL", "FULL_TRANSITIVE")
MODES = ("READWRITE", "READONLY", "READONLY_OVERRIDE", "IMPORT")
DEFAULT_COMPATIBILITY = "BACKWARD"
DEFAULT_MODE = "READWRITE"


@dataclass
class Version:
    id: int
    deleted: bool = False


@dataclass
class Stored:
    schema_type: str
    schema: str
    references: list = field(default_factory=list)  # [{"name","subject","version"}]

    def key(self) -> tuple:
        return (self.schema_type, self.schema, json.dumps(self.references, sort_keys=True))


def schema_key(subject: str, version: int) -> dict:
    return {"keytype": "SCHEMA", "subject": subject, "version": version, "magic": 1}


def schema_value(subject: str, version: int, schema_id: int, stored: Stored, deleted: bool) -> dict:
    v: dict = {"subject": subject, "version": version, "id": schema_id}
    if stored.schema_type != "AVRO":
        v["schemaType"] = stored.schema_type
    if stored.references:
        v["references"] = stored.references
    v["schema"] = stored.schema
    v["deleted"] = deleted
    return v


def config_key(subject: str | None) -> dict:
    return {"keytype": "CONFIG", "subject": subject, "magic": 0}


def mode_key(subject: str | None) -> dict:
    return {"keytype": "MODE", "subject": subject, "magic": 0}


def id_floor_key() -> dict:
    return {"keytype": "ID_FLOOR", "magic": 0}


class RegistryState:
    def __init__(self) -> None:
        self.subjects: dict[str, dict[int, Version]] = {}
        self.schemas: dict[int, Stored] = {}
        self.ids: dict[tuple, int] = {}  # Stored.key() -> id
        self.config: dict[str | None, str] = {}
        self.normalize: dict[str | None, bool] = {}  # the config's "normalize", where set
        self.mode: dict[str | None, str] = {}
        self.max_id = 0
        self.members: dict[int, str] = {}  # broker id -> its registry's URL
        self.offset = 0  # next offset of _schemas to replay
        self.replayed = 0  # records applied (tests, figures)
        self.conflicts = 0  # SCHEMA records ignored: their id or subject/version held another schema
        self.unrepaired: set[tuple[str, int]] = set()  # (subject, version) whose last record lost

    # -- replay ---------------------------------------------------------------------------
    def replay(self, key: dict, value: dict | None) -> None:
        self.replayed += 1
        kt = key.get("keytype")
        subject = key.get("subject")
        if kt == "SCHEMA":
            version = int(key["version"])
            self.unrepaired.discard((subject, version))
            if value is None:
                versions = self.subjects.get(subject)
                if versions is not None:
                    gone = versions.pop(version, None)
                    if not versions:
                        del self.subjects[subject]
                    if gone is not None:
                        self._forget_if_unused(gone.id)
                return
            sid = int(value["id"])
            stored = Stored(value.get("schemaType") or "AVRO", value["schema"], value.get("references") or [])
            known = self.schemas.get(sid)
            held = self.subjects.get(subject, {}).get(version)
            if (known is not None and known.key() != stored.key()) or (held is not None and held.id != sid):
                # two writers during a change of primary gave one id to two schemas, or one version
                # to two ids: the first in the log keeps it (the loser's writer sees it lost)
                self.conflicts += 1
                self.unrepaired.add((subject, version))
                self.max_id = max(self.max_id, sid)
                return
            self.schemas.setdefault(sid, stored)
            self.ids.setdefault(stored.key(), sid)
            self.max_id = max(self.max_id, sid)
            self.subjects.setdefault(subject, {})[version] = Version(sid, bool(value.get("deleted")))
        elif kt == "CONFIG":
            self.normalize.pop(subject, None)
            if value is None:
                self.config.pop(subject, None)
            else:
                self.config[subject] = value["compatibilityLevel"]
                if isinstance(value.get("normalize"), bool):
                    self.normalize[subject] = value["normalize"]
        elif kt == "MODE":
            if value is None:
                self.mode.pop(subject, None)
            else:
                self.mode[subject] = value["mode"]
        elif kt == "DELETE_SUBJECT" and value is not None:
            upto = int(value.get("version", 1 << 31))
            for v, ver in self.subjects.get(subject, {}).items():
                if v <= upto:
                    ver.deleted = True
        elif kt == "ID_FLOOR" and value is not None:
            self.max_id = max(self.max_id, int(value["id"]))
        elif kt == "KWIRE_MEMBER":
            if value is None:
                self.members.pop(int(key["broker"]), None)
            else:
                self.members[int(key["broker"])] = value["url"]
        # CLEAR_SUBJECT (its SCHEMA tombstones do the work) and NOOP: nothing to apply

    def repairs(self) -> list[tuple[dict, dict | None]]:
        """Records making each key whose last record lost hold what the state holds (see above)."""
        out = []
        for subject, version in sorted(self.unrepaired):
            held = self.subjects.get(subject, {}).get(version)
            value = None if held is None else schema_value(subject, version, held.id, self.schemas[held.id],
                                                           held.deleted)
            out.append((schema_key(subject, version), value))
        return out

    def _forget_if_unused(self, sid: int) -> None:
        """A permanently deleted schema that no version uses any more is forgotten (as compaction
        would forget it), so registering it again gets a new id before and after a restart alike."""
        if any(ver.id == sid for versions in self.subjects.values() for ver in versions.values()):
            return
        stored = self.schemas.pop(sid, None)
        if stored is not None and self.ids.get(stored.key()) == sid:
            del self.ids[stored.key()]

    # -- reads ----------------------------------------------------------------------------
    def live_versions(self, subject: str, deleted: bool = False) -> dict[int, Version]:
        return {v: ver for v, ver in sorted(self.subjects.get(subject, {}).items())
                if deleted or not ver.deleted}

    def subject_names(self, deleted: bool = False, deleted_only: bool = False) -> list[str]:
        out = []
        for s, versions in sorted(self.subjects.items()):
            live = any(not v.deleted for v in versions.values())
            if deleted_only:
                if not live:
                    out.append(s)
            elif live or deleted:
                out.append(s)
        return out

    def compatibility(self, subject: str | None) -> str:
        if subject is not None and subject in self.config:
            return self.config[subject]
        return self.config.get(None, DEFAULT_COMPATIBILITY)

    def normalizes(self, subject: str | None, default: bool = False) -> bool:
        """The ``normalize`` config of a subject, else the global one, else ``default``."""
        if subject is not None and subject in self.normalize:
            return self.normalize[subject]
        return self.normalize.get(None, default)

    def mode_of(self, subject: str | None) -> str:
        if subject is not None and subject in self.mode:
            return self.mode[subject]
        return self.mode.get(None, DEFAULT_MODE)

    def referenced_by(self, subject: str, version: int) -> list[int]:
        """Ids of live schemas whose references name subject/version."""
        out = set()
        for s, versions in self.subjects.items():
            for ver in versions.values():
                if ver.deleted:
                    continue
                for ref in self.schemas[ver.id].references:
                    if ref.get("subject") == subject and ref.get("version") == version:
                        out.add(ver.id)
        return sorted(out)
