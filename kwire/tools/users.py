"""``kwire users list|add|delete``: SCRAM credentials (Kafka's ``kafka-configs.sh --entity-type users``).

* ``list [--user U]...``: DescribeUserScramCredentials, a ``USER MECHANISM
  ITERATIONS`` table (never a password, salt or key: the broker does not have
  the password and does not send the rest).
* ``add --user U [--password P | --password-file F] [--mechanism M]...
  [--iterations N]``: AlterUserScramCredentials upsertions. The salt and the
  salted password (PBKDF2) are computed here, as Kafka's admin client does, so
  the password never leaves this process. Default: both SCRAM-SHA-256 and
  SCRAM-SHA-512, 4096 iterations. Without ``--password`` it is read from the
  terminal (or one line of stdin).
* ``delete --user U [--mechanism M]...``: deletions (default: both mechanisms;
  only the ones the user has are deleted, none at all is an error).

Every subcommand takes ``--bootstrap-server`` and ``--command-config FILE``
(client properties: ``security.protocol``, ``sasl.mechanism``,
``sasl.jaas.config``, ``ssl.truststore.location``... see
``kwire.security.client``) for brokers that need TLS or SASL.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from kwire.protocol.errors import ErrorCode
from kwire.security.scram import CODE_OF, DEFAULT_ITERATIONS, MECHANISM_CODES, MECHANISMS, salted_password

from .common import EXIT_OK, ToolError, UsageError, add_connection_options, connect, run

PROG = "kwire users"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Manage users' SCRAM credentials.")
    sub = p.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="users and their SCRAM mechanisms")
    ls.add_argument("--user", action="append", default=[])
    add = sub.add_parser("add", help="add or replace a user's SCRAM credentials")
    add.add_argument("--user", required=True)
    add.add_argument("--password")
    add.add_argument("--password-file", metavar="FILE", help="read the password from the file's first line")
    add.add_argument("--mechanism", action="append", choices=sorted(MECHANISMS))
    add.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    rm = sub.add_parser("delete", help="delete a user's SCRAM credentials")
    rm.add_argument("--user", required=True)
    rm.add_argument("--mechanism", action="append", choices=sorted(MECHANISMS))
    for s in (ls, add, rm):
        add_connection_options(s)  # with --command-config for TLS / SASL
    return p


def _password(args) -> str:
    if args.password is not None:
        return args.password
    if args.password_file:
        with open(args.password_file, encoding="utf-8") as f:
            return f.readline().rstrip("\n")
    if sys.stdin.isatty():
        return getpass.getpass(f"Password for {args.user}: ")
    return sys.stdin.readline().rstrip("\n")


def _check(results) -> None:
    failed = [r for r in results if r.error_code]
    if failed:
        raise ToolError("; ".join(f"{r.user}: {ErrorCode(r.error_code).name}: {r.error_message or ''}".rstrip(": ")
                                  for r in failed))


def _body(args) -> int:
    from kwire.protocol.generated.alter_user_scram_credentials_request import (
        AlterUserScramCredentialsRequest, ScramCredentialDeletion, ScramCredentialUpsertion)
    from kwire.protocol.generated.describe_user_scram_credentials_request import (
        DescribeUserScramCredentialsRequest, UserName)

    with connect(args) as client:
        if args.cmd == "list":
            req = DescribeUserScramCredentialsRequest(users=[UserName(name=u) for u in args.user] or None)
            resp = client.request(50, req)
            if resp.error_code:
                raise ToolError(f"{ErrorCode(resp.error_code).name}: {resp.error_message or ''}")
            _check_described(resp.results)
            print(f"{'USER':<24} {'MECHANISM':<14} ITERATIONS")
            for r in resp.results:
                for info in r.credential_infos:
                    print(f"{r.user:<24} {MECHANISM_CODES.get(info.mechanism, '?'):<14} {info.iterations}")
            return EXIT_OK
        if args.cmd == "add":
            password = _password(args)
            if not password:
                raise UsageError("the password is empty")
            ups = []
            for mech in args.mechanism or sorted(MECHANISMS):
                salt = os.urandom(32)
                ups.append(ScramCredentialUpsertion(
                    name=args.user, mechanism=CODE_OF[mech], iterations=args.iterations, salt=salt,
                    salted_password=salted_password(mech, password.encode(), salt, args.iterations)))
            _check(client.request(51, AlterUserScramCredentialsRequest(deletions=[], upsertions=ups)).results)
            print(f"SCRAM credentials of {args.user} set: "
                  f"{', '.join(args.mechanism or sorted(MECHANISMS))} ({args.iterations} iterations)")
            return EXIT_OK
        mechs = args.mechanism
        if not mechs:  # only the ones the user has
            resp = client.request(50, DescribeUserScramCredentialsRequest(users=[UserName(name=args.user)]))
            _check_described(resp.results)
            mechs = [MECHANISM_CODES[i.mechanism] for r in resp.results for i in r.credential_infos]
        dels = [ScramCredentialDeletion(name=args.user, mechanism=CODE_OF[m]) for m in mechs]
        _check(client.request(51, AlterUserScramCredentialsRequest(deletions=dels, upsertions=[])).results)
        print(f"SCRAM credentials of {args.user} deleted: {', '.join(mechs)}")
        return EXIT_OK


def _check_described(results) -> None:
    failed = [r for r in results if r.error_code]
    if failed:
        raise ToolError("; ".join(f"{r.user}: {ErrorCode(r.error_code).name}: {r.error_message or ''}"
                                  for r in failed))


def main(argv: list[str] | None = None) -> int:
    return run(PROG, _parser(), argv, _body)
