"""Java ``.properties`` parsing, for Kafka's ``server.properties``.

What it does
------------
``parse_properties(text)`` follows ``java.util.Properties.load``: ``#`` / ``!``
comments, keys ending at the first unescaped ``=``, ``:`` or blank, backslash line
continuations, and ``\\t \\n \\r \\f \\uXXXX`` escapes (surrogate pairs joined as
Java's UTF-16 strings would hold them). ``read_properties(path)`` reads a file,
as UTF-8 or else ISO-8859-1; it is the only I/O in ``kwire.config``.

What it deliberately does not do
--------------------------------
No interpretation of keys or values (that is ``BrokerConfig``'s job), no config
providers (``${file:...}``), no writing of properties files.

Invariants
----------
* A later key replaces an earlier one; keys and values are returned unescaped.
* Every failure (unreadable file, malformed ``\\uXXXX``) is a ConfigError.
"""

from __future__ import annotations

import re
from typing import Iterable

from .types import ConfigError


_WS = " \t\f"
_LINE_SPLIT = re.compile(r"\r\n|\r|\n")
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def parse_properties(text: str) -> dict[str, str]:
    """Parse Java ``.properties`` text (java.util.Properties.load rules); later keys win.

    Comments start with ``#`` or ``!`` as the first non-blank character of a line; a key
    ends at the first unescaped ``=``, ``:`` or blank; a line ending in an odd number of
    backslashes continues on the next line, whose leading blanks are dropped; ``\\t \\n \\r
    \\f \\uXXXX`` are decoded and any other escaped character stands for itself.
    """
    out: dict[str, str] = {}
    for line in _logical_lines(text):
        key, value = _split_key_value(line)
        out[_unescape(key)] = _unescape(value)
    return out


def read_properties(path: str) -> dict[str, str]:
    """Read a properties file; UTF-8, falling back to ISO-8859-1 (what Java reads)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ConfigError(f"Cannot read config file {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")
    return parse_properties(text)


def _logical_lines(text: str) -> Iterable[str]:
    pending: str | None = None
    for raw in _LINE_SPLIT.split(text):
        s = raw.lstrip(_WS)
        if pending is None and (not s or s[0] in "#!"):
            continue  # blank or comment; a comment ending in "\" does not continue
        backslashes = len(s) - len(s.rstrip("\\"))
        if backslashes % 2:
            pending = (pending or "") + s[:-1]
            continue
        yield (pending or "") + s
        pending = None
    if pending is not None:
        yield pending  # a continuation at end of input just ends the line


def _split_key_value(line: str) -> tuple[str, str]:
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c in "=:" or c in _WS:
            break
        i += 1
    key = line[:i]
    while i < n and line[i] in _WS:
        i += 1
    if i < n and line[i] in "=:":
        i += 1
        while i < n and line[i] in _WS:
            i += 1
    return key, line[i:]


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out: list[str] = []
    i, n = 0, len(s)
    surrogates = False
    while i < n:
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        i += 1
        if i == n:
            break  # a lone trailing backslash is dropped, as Java does
        c = s[i]
        if c == "u":
            digits = s[i + 1:i + 5]
            if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise ConfigError(f"Malformed \\uxxxx encoding in properties: {s!r}")
            code = int(digits, 16)
            surrogates |= 0xD800 <= code <= 0xDFFF
            out.append(chr(code))
            i += 5
        else:
            out.append(_ESCAPES.get(c, c))
            i += 1
    result = "".join(out)
    if surrogates:  # \uD83D\uDE00 pairs, as Java's UTF-16 strings would hold them
        result = result.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return result
