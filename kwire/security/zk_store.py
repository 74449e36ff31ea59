"""SCRAM credentials, ACLs and client quotas in ZooKeeper, where Kafka 3.x (ZooKeeper mode) keeps them.

Layout (Kafka's):

* ``/config/users/<user>``: ``{"version":1,"config":{"SCRAM-SHA-256":"salt=...,stored_key=...,
  server_key=...,iterations=4096","producer_byte_rate":"1024",...}}`` (user names sanitized as
  Kafka's ``Sanitizer``: URL-encoded), ``/config/users/<user>/clients/<client-id>`` and
  ``/config/clients/<client-id>`` for quotas, ``<default>`` for default entities; every change
  adds ``/config/changes/config_change_<seq>`` (``{"version":2,"entity_path":"users/<user>"}``).
* ``/kafka-acl/<ResourceType>/<name>`` (LITERAL) and ``/kafka-acl-extended/prefixed/<ResourceType>/<name>``
  (PREFIXED): ``{"version":1,"acls":[{"principal":"User:alice","permissionType":"Allow",
  "operation":"Read","host":"*"}]}``; changes add ``/kafka-acl-changes/acl_changes_<seq>``
  (``Topic:orders``) or ``/kafka-acl-extended-changes/acl_changes_<seq>`` (JSON).

``ZkSecurityStore(md)`` attaches to a ``ZkMetadata``: it watches the change
sequences, re-reads the whole security state on any change (a handful of
znodes per user or resource: cheap) and delivers the differences to the image
as the records ``LocalMetadata`` uses (``scram_credential``, ``acls``,
``client_quota``), so every broker's image, authorizer and SCRAM lookups agree
within a watch. Writes (``set_scram_credential``, ``change_acls``,
``set_client_quota``) run on the metadata's writer thread and are durable
once their future resolves, as ``ZkMetadata``'s other writes.

It talks to ZooKeeper only through ``ZkMetadata.store`` (kwire.cluster.zk_store).
"""

from __future__ import annotations

import json
import logging
import threading
from urllib.parse import quote, unquote

from kwire.security import acl
from kwire.security.scram import MECHANISMS, ScramCredential

log = logging.getLogger("kwire.security")

USERS, CLIENTS, CHANGES = "/config/users", "/config/clients", "/config/changes"
ACL_LITERAL, ACL_PREFIXED = "/kafka-acl", "/kafka-acl-extended/prefixed"
ACL_CHANGES, ACL_EXT_CHANGES = "/kafka-acl-changes", "/kafka-acl-extended-changes"
DEFAULT = "<default>"
QUOTA_KEYS = {"producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate"}

_ZK_RESOURCE = {acl.TOPIC: "Topic", acl.GROUP: "Group", acl.CLUSTER: "Cluster",
                acl.TRANSACTIONAL_ID: "TransactionalId", acl.DELEGATION_TOKEN: "DelegationToken", acl.USER: "User"}
_RESOURCE_OF = {v: k for k, v in _ZK_RESOURCE.items()}
_ZK_OP = {code: "".join(w.capitalize() for w in name.split("_")) for code, name in acl.OPERATION_NAMES.items()}
_OP_OF = {v: k for k, v in _ZK_OP.items()}
_ZK_PERM = {acl.ALLOW: "Allow", acl.DENY: "Deny"}
_PERM_OF = {v: k for k, v in _ZK_PERM.items()}


def sanitize(name: str) -> str:
    """Kafka's Sanitizer.sanitize: URL-encoding (space as %20, '*' and '~' encoded too)."""
    return quote(name, safe="").replace("~", "%7E")


def _config(data: bytes | None) -> dict[str, str]:
    try:
        obj = json.loads(data) if data else {}
    except ValueError:
        return {}
    return {k: str(v) for k, v in (obj.get("config") or {}).items()} if isinstance(obj, dict) else {}


def _encode_config(config: dict[str, str]) -> bytes:
    return json.dumps({"version": 1, "config": config}, separators=(",", ":")).encode()


class ZkSecurityStore:
    def __init__(self, md) -> None:
        self.md = md
        self.store = md.store
        self._lock = threading.Lock()

    # -- start and watches ------------------------------------------------------------------------
    def start(self) -> None:
        from kazoo.recipe.watchers import ChildrenWatch

        self.store.ensure_paths((USERS, CLIENTS, CHANGES, ACL_LITERAL, ACL_PREFIXED, ACL_CHANGES, ACL_EXT_CHANGES))
        client = self.store.client
        for path in (CHANGES, ACL_CHANGES, ACL_EXT_CHANGES):
            ChildrenWatch(client, path, self._changed)

    def _changed(self, _children) -> bool | None:
        if self.md._closed:
            return False
        try:
            self.reload()
        except Exception:
            log.exception("reloading security metadata from ZooKeeper")
        return None

    def reload(self) -> None:
        """Read credentials, quotas and ACLs; deliver what differs from the image."""
        with self._lock:
            creds, quotas = self._read_configs()
            acls = self._read_acls()
            image = self.md.image
            records: list[dict] = []
            old = image.scram_credentials
            for user in set(old) | set(creds):
                for mech in set(old.get(user, {})) | set(creds.get(user, {})):
                    new = creds.get(user, {}).get(mech)
                    if new != old.get(user, {}).get(mech):
                        records.append({"type": "scram_credential", "user": user, "mechanism": mech,
                                        "credential": new})
            for entity in set(image.client_quotas) | set(quotas):
                if image.client_quotas.get(entity) != quotas.get(entity):
                    records.append({"type": "client_quota", "entity": [list(p) for p in entity],
                                    "values": quotas.get(entity, {})})
            gone, added = image.acls - acls, acls - image.acls
            if gone:
                records.append({"type": "acls", "add": False, "acls": [list(b) for b in sorted(gone)]})
            if added:
                records.append({"type": "acls", "add": True, "acls": [list(b) for b in sorted(added)]})
            self.md._deliver(records)

    def _read_configs(self):
        store = self.store
        creds: dict[str, dict[str, dict]] = {}
        quotas: dict[tuple, dict[str, float]] = {}

        def add_quota(entity, config) -> None:
            values = {k: float(v) for k, v in config.items() if k in QUOTA_KEYS}
            if values:
                quotas[tuple(sorted(entity))] = values

        for su in store.children(USERS):
            user = None if su == DEFAULT else unquote(su)
            data, _ = store.get(f"{USERS}/{su}")
            config = _config(data)
            if user is not None:
                for mech in MECHANISMS:
                    if mech in config:
                        try:
                            creds.setdefault(user, {})[mech] = ScramCredential.from_text(config[mech]).to_record()
                        except ValueError:
                            log.warning("ignoring an unreadable %s credential of user %s in ZooKeeper", mech, user)
            add_quota([("user", user)], config)
            for sc in store.children(f"{USERS}/{su}/clients"):
                data, _ = store.get(f"{USERS}/{su}/clients/{sc}")
                add_quota([("user", user), ("client-id", None if sc == DEFAULT else unquote(sc))], _config(data))
        for sc in store.children(CLIENTS):
            data, _ = store.get(f"{CLIENTS}/{sc}")
            add_quota([("client-id", None if sc == DEFAULT else unquote(sc))], _config(data))
        return creds, quotas

    def _read_acls(self) -> set:
        out = set()
        for base, pattern in ((ACL_LITERAL, acl.LITERAL), (ACL_PREFIXED, acl.PREFIXED)):
            for rtype in self.store.children(base):
                rt = _RESOURCE_OF.get(rtype)
                if rt is None:
                    continue
                for name in self.store.children(f"{base}/{rtype}"):
                    data, _ = self.store.get(f"{base}/{rtype}/{name}")
                    try:
                        entries = json.loads(data).get("acls", []) if data else []
                    except ValueError:
                        continue
                    for e in entries:
                        op, perm = _OP_OF.get(e.get("operation")), _PERM_OF.get(e.get("permissionType"))
                        if op is None or perm is None:
                            continue
                        out.add(acl.AclBinding(rt, unquote(name), pattern, e["principal"], e.get("host", "*"),
                                               op, perm))
        return out

    # -- writes (on the metadata writer thread) -------------------------------------------------------
    def _user_path(self, user: str) -> str:
        return f"{USERS}/{sanitize(user)}"

    def _notify_config(self, entity_path: str) -> None:
        self.store.create(f"{CHANGES}/config_change_",
                          json.dumps({"version": 2, "entity_path": entity_path}).encode(), sequence=True)

    def set_scram_credential(self, user: str, mechanism: str, credential: dict | None, *,
                             on_commit=None, on_abort=None):
        text = ScramCredential.from_record(credential).to_text() if credential else None

        def write() -> None:
            path = self._user_path(user)
            data, _ = self.store.get(path)
            config = _config(data)
            if text is None:
                config.pop(mechanism, None)
            else:
                config[mechanism] = text
            self.store.set_or_create(path, _encode_config(config))
            self._notify_config(f"users/{sanitize(user)}")
            self.reload()

        return self.md._write(write, on_commit, on_abort)

    def set_client_quota(self, entity: tuple, values: dict[str, float], *, on_commit=None, on_abort=None):
        names = dict(entity)

        def seg(name):
            return DEFAULT if name is None else sanitize(name)

        if "user" in names and "client-id" in names:
            path = f"{USERS}/{seg(names['user'])}/clients/{seg(names['client-id'])}"
            notify = f"users/{seg(names['user'])}/clients/{seg(names['client-id'])}"
        elif "user" in names:
            path, notify = f"{USERS}/{seg(names['user'])}", f"users/{seg(names['user'])}"
        else:
            path, notify = f"{CLIENTS}/{seg(names.get('client-id'))}", f"clients/{seg(names.get('client-id'))}"

        def write() -> None:
            data, _ = self.store.get(path)
            config = {k: v for k, v in _config(data).items() if k not in QUOTA_KEYS}  # SCRAM keys stay
            for k, v in values.items():
                config[k] = str(int(v)) if float(v).is_integer() else str(v)
            self.store.set_or_create(path, _encode_config(config))
            self._notify_config(notify)
            self.reload()

        return self.md._write(write, on_commit, on_abort)

    def change_acls(self, bindings: list, add: bool, *, on_commit=None, on_abort=None):
        bindings = list(bindings)

        def write() -> None:
            by_resource: dict[tuple, list] = {}
            for b in bindings:
                by_resource.setdefault((b.resource_type, b.resource_name, b.pattern_type), []).append(b)
            for (rt, name, pattern), group in by_resource.items():
                base = ACL_LITERAL if pattern == acl.LITERAL else ACL_PREFIXED
                path = f"{base}/{_ZK_RESOURCE[rt]}/{quote(name, safe='') if name != '*' else '*'}"
                data, _ = self.store.get(path)
                entries = json.loads(data).get("acls", []) if data else []
                keyed = {(e["principal"], e.get("host", "*"), e["operation"], e["permissionType"]): e
                         for e in entries}
                for b in group:
                    key = (b.principal, b.host, _ZK_OP[b.operation], _ZK_PERM[b.permission])
                    if add:
                        keyed[key] = {"principal": b.principal, "permissionType": key[3],
                                      "operation": key[2], "host": b.host}
                    else:
                        keyed.pop(key, None)
                if keyed:
                    self.store.set_or_create(path, json.dumps({"version": 1, "acls": list(keyed.values())},
                                                              separators=(",", ":")).encode())
                else:
                    self.store.delete(path)
                if pattern == acl.LITERAL:
                    self.store.create(f"{ACL_CHANGES}/acl_changes_", f"{_ZK_RESOURCE[rt]}:{name}".encode(),
                                      sequence=True)
                else:
                    self.store.create(f"{ACL_EXT_CHANGES}/acl_changes_", json.dumps(
                        {"version": 1, "resourceType": _ZK_RESOURCE[rt], "name": name,
                         "patternType": "Prefixed"}).encode(), sequence=True)
            self.reload()

        return self.md._write(write, on_commit, on_abort)


def attach(md) -> ZkSecurityStore:
    """Give a ZkMetadata the security writes LocalMetadata has (same names and signatures), and
    start watching. (Attached from outside so that kwire.cluster.zookeeper need not know about
    security; a ZkMetadata method delegating to this store would do the same.)"""
    s = ZkSecurityStore(md)
    md.set_scram_credential = s.set_scram_credential
    md.change_acls = s.change_acls
    md.set_client_quota = s.set_client_quota
    md.security_store = s
    s.start()
    return s
