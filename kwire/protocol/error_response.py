"""The error response to any request, built from the schemas (Kafka's ``getErrorResponse``).

When a handler fails, the broker still answers: Kafka's
``AbstractRequest.getErrorResponse(throttle, exception)`` gives, per API, a
response that carries the error in every error field and names the request's
items (topics, partitions, groups, resources) so the client can match it.
``error_response(api_key, version, request, code, message)`` does the same for
every API and version from the generated ``FIELDS`` tables:

* every ``error_code`` field of a struct it fills gets ``code`` and every
  ``error_message`` field gets ``message``;
* a response array whose elements carry an error code (themselves or below) is
  mirrored from the request array that matches it: the one of the same name;
  else the request array whose elements share the most identifying fields
  (first one on a tie); a request array of plain names or partition indexes
  matches by entity type or by the singular of its name. Identifying fields
  (strings, uuids, partition indexes, ``*_type`` codes) are copied into the
  mirrored items (the root copies nothing, as in Kafka's error responses);
  where no request array matches, one nested a level deeper may (AlterReplicaLogDirs
  lists topics per log dir, its response per topic); ``partition``/``partition_index``/``partition_id``/``index``
  and ``topic``/``name``/``topic_name`` count as the same field;
* offsets in a mirrored item (``*offset``, ``high_watermark``) are -1, as in
  Kafka's error responses; every other field keeps its schema default (empty
  arrays, null records, -1 where the schema says so).

An API with nothing to mirror (JoinGroup, InitProducerId, ...) still gets its
top-level ``error_code``; one without any error field at all gets a default
response. ``error_for(exc)`` maps an exception to (code, message) as
``ApiError.fromThrowable`` does: a ``KafkaError`` (or anything with an
``ErrorCode`` in ``.code``) keeps its code, ``OSError`` is
KAFKA_STORAGE_ERROR, anything else UNKNOWN_SERVER_ERROR.

Plans (which field gets what) are computed once per (api key, version) and
cached. Sans-I/O; it never raises for a well-formed request.
"""

from __future__ import annotations

from .codec import APIS
from .errors import ErrorCode

_PARTITION = {"partition", "partition_index", "partition_id", "index"}
_TOPIC = {"topic", "name", "topic_name"}
_SCALARS = {"bool", "int8", "int16", "int32", "int64", "uint16", "uint32", "float64",
            "string", "bytes", "uuid", "records"}

UNKNOWN_SERVER_ERROR_MESSAGE = "The server experienced an unexpected error when processing the request."


def error_for(exc: BaseException) -> tuple[int, str]:
    """(error code, message) for an exception that escaped a handler."""
    code = getattr(exc, "code", None)
    if isinstance(code, ErrorCode):
        message = getattr(exc, "message", None) or str(exc) or code.name
        return int(code), message
    if isinstance(exc, OSError):
        return int(ErrorCode.KAFKA_STORAGE_ERROR), f"storage error: {exc}"
    return int(ErrorCode.UNKNOWN_SERVER_ERROR), UNKNOWN_SERVER_ERROR_MESSAGE


def _norm(attr: str) -> str:
    if attr in _PARTITION:
        return "partition"
    if attr in _TOPIC:
        return "topic"
    return attr


def _singular(attr: str) -> str:
    for suffix, repl in (("_indexes", "_index"), ("_names", "_name"), ("_ids", "_id"), ("es", ""),
                         ("s", "")):
        if attr.endswith(suffix):
            return attr[: -len(suffix)] + repl
    return attr


class _Fields:
    """One struct's fields present at one version: attr -> (type, entity type)."""

    def __init__(self, rows, version: int) -> None:
        self.fields = {a: (t, e) for a, t, lo, hi, e in rows if lo <= version <= hi}

    def scalars(self):
        return [(a, t, e) for a, (t, e) in self.fields.items() if t in _SCALARS]

    def arrays(self):
        return [(a, t[2:], e) for a, (t, e) in self.fields.items() if t.startswith("[]")]


def _is_identifier(attr: str, typ: str) -> bool:
    return (typ in ("string", "uuid") or (typ == "int32" and attr in _PARTITION)
            or (typ == "int8" and attr.endswith("_type")))


class _Planner:
    def __init__(self, resp_mod, req_mod, version: int) -> None:
        self.resp_fields = resp_mod.FIELDS
        self.req_fields = req_mod.FIELDS
        self.resp_mod = resp_mod
        self.version = version
        self._has_error: dict[str, bool] = {}

    def fields(self, table, name):
        return _Fields(table.get(name, ()), self.version)

    def has_error(self, name: str) -> bool:
        """Whether the response struct, or a struct array below it, has an error_code."""
        if name not in self._has_error:
            self._has_error[name] = False  # recursion guard
            f = self.fields(self.resp_fields, name)
            found = "error_code" in f.fields or any(
                self.has_error(elem) for _, elem, _ in f.arrays() if elem not in _SCALARS)
            self._has_error[name] = found
        return self._has_error[name]

    def copies(self, resp: _Fields, req: _Fields) -> list[tuple[str, str]]:
        """(response attr, request attr) of the identifying fields both structs have."""
        by_norm = {}
        for a, t, _ in req.scalars():
            by_norm.setdefault((_norm(a), t), a)
        out = []
        for a, t, e in resp.scalars():
            if a in ("error_code", "error_message") or not _is_identifier(a, t):
                continue
            src = a if a in req.fields and req.fields[a][0] == t else by_norm.get((_norm(a), t))
            if src is not None:
                out.append((a, src))
        return out

    def plan(self, resp_name: str, req_name: str | None, root: bool = False) -> tuple:
        """(class, sets, copies, mirrors) for one response struct mirrored from a request struct.

        The root copies nothing: like Kafka's error responses it names no member,
        producer id or protocol, only the items below it.
        """
        resp = self.fields(self.resp_fields, resp_name)
        req = self.fields(self.req_fields, req_name) if req_name else _Fields((), 0)
        sets = [a for a in ("error_code", "error_message") if a in resp.fields]
        if not root:  # offsets in an item that failed are unknown: Kafka answers -1
            sets += [a for a, (t, _) in resp.fields.items()
                     if t == "int64" and (a.endswith("offset") or a == "high_watermark")]
        copies = self.copies(resp, req) if req_name and not root else []
        mirrors = []
        used: set[str] = set()
        req_arrays = req.arrays()
        for r_attr, r_elem, _ in resp.arrays():
            if r_elem in _SCALARS or not self.has_error(r_elem):
                continue
            r_fields = self.fields(self.resp_fields, r_elem)
            path, match = (), self.match(r_attr, r_fields, req_arrays, used)
            if match is None:  # the request may group the items one level deeper
                for q_attr, q_elem, _ in req_arrays:
                    if q_elem in _SCALARS or q_attr in used:
                        continue
                    inner = self.fields(self.req_fields, q_elem).arrays()
                    match = self.match(r_attr, r_fields, inner, set())
                    if match is not None:
                        path = (q_attr,)
                        break
            if match is None:
                continue
            q_attr, q_elem, q_entity = match
            used.add(path[0] if path else q_attr)
            path += (q_attr,)
            if q_elem in _SCALARS:
                key = self.key_field(q_attr, q_elem, q_entity, r_fields)
                mirrors.append((r_attr, path, self.plan(r_elem, None), key))
            else:
                mirrors.append((r_attr, path, self.plan(r_elem, q_elem), None))
        cls = getattr(self.resp_mod, resp_name)
        return cls, tuple(sets), tuple(copies), tuple(mirrors)

    def key_field(self, q_attr: str, q_elem: str, q_entity, r_fields: _Fields) -> str | None:
        """The response field a request array of plain values fills."""
        want = _norm(_singular(q_attr))
        for a, t, e in r_fields.scalars():
            if t == q_elem and ((q_entity is not None and e == q_entity) or _norm(a) == want
                                or want.endswith("_" + a)):
                return a
        return None

    def match(self, r_attr: str, r_fields: _Fields, req_arrays, used):
        best, best_score = None, 0
        for q in req_arrays:
            q_attr, q_elem, q_entity = q
            if q_attr in used:
                continue
            if q_elem in _SCALARS:
                if self.key_field(q_attr, q_elem, q_entity, r_fields) is None:
                    continue
                score = 1
            else:
                score = len(self.copies(r_fields, self.fields(self.req_fields, q_elem)))
                if score == 0:
                    continue
            if q_attr == r_attr:
                return q
            if score > best_score:
                best, best_score = q, score
        return best


_PLANS: dict[tuple[int, int], tuple] = {}


def _plan_for(api_key: int, version: int) -> tuple:
    plan = _PLANS.get((api_key, version))
    if plan is None:
        spec = APIS[api_key]
        resp_mod, req_mod = spec.response_module, spec.request_module
        planner = _Planner(resp_mod, req_mod, version)
        plan = _PLANS[(api_key, version)] = planner.plan(resp_mod.MESSAGE.__name__,
                                                         req_mod.MESSAGE.__name__, root=True)
    return plan


def _build(plan: tuple, src, key_value, key: str | None, code: int, message: str):
    cls, sets, copies, mirrors = plan
    obj = cls()
    for attr in sets:
        setattr(obj, attr, code if attr == "error_code" else message if attr == "error_message" else -1)
    if key is not None:
        setattr(obj, key, key_value)
    if src is not None:
        for dst_attr, src_attr in copies:
            value = getattr(src, src_attr)
            if value is not None:  # keep the default where the request had null
                setattr(obj, dst_attr, value)
        for r_attr, path, child, child_key in mirrors:
            items = getattr(src, path[0]) or ()
            if len(path) == 2:
                items = [it for outer in items for it in (getattr(outer, path[1]) or ())]
            if child_key is None:
                setattr(obj, r_attr, [_build(child, it, None, None, code, message) for it in items])
            else:
                setattr(obj, r_attr, [_build(child, None, it, child_key, code, message)
                                      for it in items])
    return obj


def error_response(api_key: int, version: int, request, code: int, message: str | None = None):
    """A response to ``request`` carrying ``code`` (and ``message``) in every error field."""
    if message is None:
        message = UNKNOWN_SERVER_ERROR_MESSAGE if code == ErrorCode.UNKNOWN_SERVER_ERROR else ""
    special = _POSITIONAL.get(api_key)
    if special is not None:
        return special(request, code, message)
    if api_key == 24 and version < 4:
        return _add_partitions_to_txn_v3(request, code)
    if api_key == 27:
        return _write_txn_markers(request, code)
    return _build(_plan_for(api_key, version), request, None, None, code, message)


def _acl_creations(request, code, message):
    from .generated.create_acls_response import AclCreationResult, CreateAclsResponse

    return CreateAclsResponse(results=[AclCreationResult(error_code=code, error_message=message)
                                       for _ in request.creations])


def _acl_deletions(request, code, message):
    from .generated.delete_acls_response import DeleteAclsFilterResult, DeleteAclsResponse

    return DeleteAclsResponse(filter_results=[DeleteAclsFilterResult(error_code=code, error_message=message)
                                              for _ in request.filters])


def _scram_alterations(request, code, message):
    from .generated.alter_user_scram_credentials_response import (
        AlterUserScramCredentialsResponse, AlterUserScramCredentialsResult)

    users = dict.fromkeys([d.name for d in request.deletions] + [u.name for u in request.upsertions])
    return AlterUserScramCredentialsResponse(results=[AlterUserScramCredentialsResult(
        user=u, error_code=code, error_message=message) for u in users])


def _add_partitions_to_txn_v3(request, code):
    """AddPartitionsToTxn v0-3 (Kafka's getErrorResponse): the error on every partition named."""
    from .generated.add_partitions_to_txn_response import (
        AddPartitionsToTxnPartitionResult, AddPartitionsToTxnResponse, AddPartitionsToTxnTopicResult)

    return AddPartitionsToTxnResponse(results_by_topic_v3_and_below=[
        AddPartitionsToTxnTopicResult(name=t.name, results_by_partition=[
            AddPartitionsToTxnPartitionResult(partition_index=p, partition_error_code=code)
            for p in t.partitions or ()])
        for t in request.v3_and_below_topics or ()])


def _write_txn_markers(request, code):
    """WriteTxnMarkers (Kafka's getErrorResponse): per marker (producer id), topic, partition."""
    from .generated.write_txn_markers_response import (
        WritableTxnMarkerPartitionResult, WritableTxnMarkerResult, WritableTxnMarkerTopicResult,
        WriteTxnMarkersResponse)

    return WriteTxnMarkersResponse(markers=[
        WritableTxnMarkerResult(producer_id=m.producer_id, topics=[
            WritableTxnMarkerTopicResult(name=t.name, partitions=[
                WritableTxnMarkerPartitionResult(partition_index=p, error_code=code)
                for p in t.partition_indexes or ()])
            for t in m.topics or ()])
        for m in request.markers or ()])


def _quota_alterations(request, code, message):
    from .generated.alter_client_quotas_response import AlterClientQuotasResponse, EntityData, EntryData

    return AlterClientQuotasResponse(entries=[EntryData(error_code=code, error_message=message, entity=[
        EntityData(entity_type=e.entity_type, entity_name=e.entity_name) for e in entry.entity])
        for entry in request.entries])


# APIs whose response items answer the request's by position or by a renamed key, with no
# identifying field in common (Kafka's getErrorResponse of each): CreateAcls, DeleteAcls,
# AlterUserScramCredentials (one result per distinct user), AlterClientQuotas.
_POSITIONAL = {30: _acl_creations, 31: _acl_deletions, 51: _scram_alterations, 49: _quota_alterations}


def describe_plan(api_key: int, version: int) -> str:
    """The plan as text, for reviewing what each API's error response contains."""
    lines: list[str] = []

    def walk(plan, indent):
        cls, sets, copies, mirrors = plan
        pad = "  " * indent
        lines.append(f"{pad}{cls.__name__}: set {list(sets)} copy {[f'{d}<-{s}' for d, s in copies]}")
        for r_attr, path, child, key in mirrors:
            lines.append(f"{pad}  {r_attr} <- request.{'[].'.join(path)}"
                         + (f" (values into {key})" if key else ""))
            walk(child, indent + 2)

    walk(_plan_for(api_key, version), 0)
    return "\n".join(lines)
