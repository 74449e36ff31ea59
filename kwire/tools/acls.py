"""``kwire acls list|add|remove``: ACL administration, shaped after Kafka's ``kafka-acls.sh``.

Resources: ``--topic T``, ``--group G``, ``--transactional-id X``,
``--cluster`` (each repeatable except ``--cluster``), with
``--resource-pattern-type`` literal (default for add/remove), prefixed, any
or match (list/remove filters; default any for list).

* ``add --allow-principal P | --deny-principal P ... --operation OP...
  [--allow-host H | --deny-host H]`` (hosts default to ``*``): CreateAcls,
  one binding per principal x operation x resource. Operations are Kafka's
  names (Read, Write, Create, Delete, Alter, Describe, ClusterAction,
  DescribeConfigs, AlterConfigs, IdempotentWrite, All).
* ``list [resource] [--principal P]``: DescribeAcls, one line per binding:
  ``RESOURCE-TYPE NAME PATTERN PRINCIPAL HOST OPERATION PERMISSION``.
* ``remove [resource] [--principal P] [--operation OP]``: DeleteAcls with the
  filters given (no resource: every resource type), printing what was removed.

``--bootstrap-server`` and ``--command-config`` (TLS / SASL client
properties) as every kwire tool. Not implemented: ``--producer`` /
``--consumer`` convenience options, ``--force``, delegation-token and user
resources.
"""

from __future__ import annotations

import argparse

from kwire.protocol.errors import ErrorCode
from kwire.security import acl

from .common import EXIT_OK, ToolError, UsageError, add_connection_options, connect, run

PROG = "kwire acls"
_OPS = {name.replace("_", "").lower(): code for code, name in acl.OPERATION_NAMES.items()}
_PATTERNS = {"literal": acl.LITERAL, "prefixed": acl.PREFIXED, "any": acl.P_ANY, "match": acl.MATCH}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Manage ACLs (needs an authorizer on the broker).")
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("list", "add", "remove"):
        s = sub.add_parser(name)
        s.add_argument("--topic", action="append", default=[])
        s.add_argument("--group", action="append", default=[])
        s.add_argument("--transactional-id", action="append", default=[])
        s.add_argument("--cluster", action="store_true")
        s.add_argument("--resource-pattern-type", choices=sorted(_PATTERNS))
        s.add_argument("--operation", action="append", default=[])
        if name == "add":
            s.add_argument("--allow-principal", action="append", default=[])
            s.add_argument("--deny-principal", action="append", default=[])
            s.add_argument("--allow-host", action="append", default=[])
            s.add_argument("--deny-host", action="append", default=[])
        else:
            s.add_argument("--principal")
        add_connection_options(s)  # with --command-config for TLS / SASL
    return p


def _resources(args) -> list[tuple[int, str]]:
    out = [(acl.TOPIC, t) for t in args.topic] + [(acl.GROUP, g) for g in args.group]
    out += [(acl.TRANSACTIONAL_ID, x) for x in args.transactional_id]
    if args.cluster:
        out.append((acl.CLUSTER, acl.CLUSTER_NAME))
    return out


def _operations(names: list[str]) -> list[int]:
    out = []
    for n in names:
        code = _OPS.get(n.replace("-", "").replace("_", "").lower())
        if code is None:
            raise UsageError(f"unknown operation {n!r} (one of {', '.join(sorted(_OPS))})")
        out.append(code)
    return out


def _line(b) -> str:
    return (f"{acl.RESOURCE_NAMES.get(b[0], b[0])}\t{b[1]}\t{acl.PATTERN_NAMES.get(b[2], b[2])}\t{b[3]}\t"
            f"{b[4]}\t{acl.OPERATION_NAMES.get(b[5], b[5])}\t{acl.PERMISSION_NAMES.get(b[6], b[6])}")


def _error(code: int, message: str | None) -> ToolError:
    return ToolError(f"{ErrorCode(code).name}: {message or ''}".rstrip(": "))


def _body(args) -> int:
    from kwire.protocol.generated.create_acls_request import AclCreation, CreateAclsRequest
    from kwire.protocol.generated.delete_acls_request import DeleteAclsFilter, DeleteAclsRequest
    from kwire.protocol.generated.describe_acls_request import DescribeAclsRequest

    resources = _resources(args)
    ops = _operations(args.operation)
    with connect(args) as client:
        if args.cmd == "add":
            pattern = _PATTERNS[args.resource_pattern_type or "literal"]
            if not resources or not ops or not (args.allow_principal or args.deny_principal):
                raise UsageError("add needs a resource, --operation and --allow-principal/--deny-principal")
            creations = []
            for perm, principals, hosts in ((acl.ALLOW, args.allow_principal, args.allow_host or ["*"]),
                                            (acl.DENY, args.deny_principal, args.deny_host or ["*"])):
                for pr in principals:
                    for host in hosts:
                        for op in ops:
                            for rt, name in resources:
                                creations.append(AclCreation(resource_type=rt, resource_name=name,
                                                             resource_pattern_type=pattern, principal=pr,
                                                             host=host, operation=op, permission_type=perm))
            resp = client.request(30, CreateAclsRequest(creations=creations))
            errors = [(c, r) for c, r in zip(creations, resp.results) if r.error_code]
            for c, r in zip(creations, resp.results):
                if not r.error_code:
                    print("Added\t" + _line((c.resource_type, c.resource_name, c.resource_pattern_type,
                                             c.principal, c.host, c.operation, c.permission_type)))
            if errors:
                raise _error(errors[0][1].error_code, errors[0][1].error_message)
            return EXIT_OK
        pattern = _PATTERNS[args.resource_pattern_type or ("any" if args.cmd == "list" else "literal")]
        filters = [(rt, name) for rt, name in resources] or [(acl.R_ANY, None)]
        if args.cmd == "list":
            for rt, name in filters:
                resp = client.request(29, DescribeAclsRequest(
                    resource_type_filter=rt, resource_name_filter=name, pattern_type_filter=pattern,
                    principal_filter=args.principal, host_filter=None, operation=ops[0] if ops else acl.O_ANY,
                    permission_type=acl.A_ANY))
                if resp.error_code:
                    raise _error(resp.error_code, resp.error_message)
                for res in resp.resources:
                    for a in res.acls:
                        print(_line((res.resource_type, res.resource_name, res.pattern_type, a.principal,
                                     a.host, a.operation, a.permission_type)))
            return EXIT_OK
        dels = [DeleteAclsFilter(resource_type_filter=rt, resource_name_filter=name, pattern_type_filter=
                                 pattern if name is not None else acl.P_ANY, principal_filter=args.principal,
                                 host_filter=None, operation=op, permission_type=acl.A_ANY)
                for rt, name in filters for op in (ops or [acl.O_ANY])]
        resp = client.request(31, DeleteAclsRequest(filters=dels))
        for r in resp.filter_results:
            if r.error_code:
                raise _error(r.error_code, r.error_message)
            for m in r.matching_acls:
                print("Removed\t" + _line((m.resource_type, m.resource_name, m.pattern_type, m.principal,
                                           m.host, m.operation, m.permission_type)))
        return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    return run(PROG, _parser(), argv, _body)
