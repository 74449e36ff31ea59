"""Plumbing shared by the command-line tools: parsers, exit codes, error reporting.

Exit codes: 0 success, 1 the broker refused or the operation failed
(including connection failures), 2 bad command line. Errors are one line on
stderr, ``kwire <tool>: error: <Kafka error name>: <message>``; tracebacks are
kept for real bugs.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Callable

from kwire.client import KafkaClient, KafkaClientError, parse_bootstrap

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
DEFAULT_BOOTSTRAP = "127.0.0.1:9092"


class UsageError(Exception):
    """A command line that parsed but makes no sense (exit code 2)."""


class ToolError(Exception):
    """An operation that failed for a reason other than a broker error code (exit code 1)."""


def add_connection_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bootstrap-server", "-b", default=DEFAULT_BOOTSTRAP, metavar="HOST:PORT",
                        help=f"broker(s) to connect to, comma-separated (default {DEFAULT_BOOTSTRAP})")
    parser.add_argument("--request-timeout-ms", type=positive_int, default=30000, metavar="MS",
                        help="socket and request timeout (default 30000)")
    parser.add_argument("--command-config", metavar="FILE",
                        help="client properties for a TLS / SASL listener (security.protocol, "
                             "sasl.mechanism, sasl.jaas.config, ssl.truststore.location, ...)")


def connect(args) -> KafkaClient:
    try:
        parse_bootstrap(args.bootstrap_server)
    except ValueError as e:
        raise UsageError(f"--bootstrap-server: {e}") from None
    security = None
    if getattr(args, "command_config", None):  # kwire.security.client: TLS and SASL
        from kwire.config.properties import read_properties
        from kwire.security.client import ClientSecurity

        try:
            security = ClientSecurity.from_properties(read_properties(args.command_config))
        except (OSError, ValueError) as e:
            raise UsageError(f"--command-config: {e}") from None
    return KafkaClient(args.bootstrap_server, client_id="kwire-cli",
                       timeout=args.request_timeout_ms / 1000, security=security)


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return n


def non_negative_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text!r}")
    return n


def parse_key_values(items: list[str] | None, option: str) -> dict[str, str]:
    """``["k=v", ...]`` -> dict (later wins); ``UsageError`` without a ``=`` or with an empty key."""
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{option} needs KEY=VALUE, got {item!r}")
        out[key.strip()] = value
    return out


def stop_on_sigterm() -> None:
    """Treat SIGTERM like Ctrl-C, so that ``kill`` also flushes and prints the summary."""
    def handler(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)


def run(prog: str, parser: argparse.ArgumentParser, argv: list[str] | None,
        body: Callable[[argparse.Namespace], int]) -> int:
    """Parse ``argv`` and run ``body``, turning failures into a message and an exit code."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    try:
        return body(args)
    except UsageError as e:
        parser.print_usage(sys.stderr)
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except (KafkaClientError, ToolError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of stdout went away (``| head``): not an error. Point
        # stdout at /dev/null so the interpreter's final flush stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\"}


def unescape(text: str) -> str:
    r"""Turn ``\n``, ``\t``, ``\r``, ``\0`` and ``\\`` into the characters they name.

    So ``--key-separator '\t'`` and ``--format '%k\t%v\n'`` work without the
    shell's ``$'...'`` quoting. Any other backslash is kept as it is.
    """
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPES:
            out.append(_ESCAPES[text[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)
