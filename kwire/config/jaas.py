"""The JAAS login-module options a broker reads from ``sasl.jaas.config``.

Kafka configures PLAIN users on the broker as options of PlainLoginModule::

    org.apache.kafka.common.security.plain.PlainLoginModule required
        username="admin" password="admin-secret" user_alice="alice-secret";

``parse`` returns (login module class, flag, options); ``plain_users`` the
``user_<name>`` options. Only the single-module form Kafka accepts in
``sasl.jaas.config`` is read; no JAAS file (``java.security.auth.login.config``).

A parser of a config value's syntax, so it sits in the config layer (the
settings checks use it at load time); ``kwire.security`` reads it too.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r'\s*([A-Za-z0-9_.$\-]+)\s*=\s*("(?:\\.|[^"\\])*"|[^\s;]+)')


def parse(text: str) -> tuple[str, str, dict[str, str]]:
    text = text.strip()
    if not text.endswith(";"):
        raise ValueError("sasl.jaas.config must end with ';'")
    body = text[:-1].strip()
    parts = body.split(None, 2)
    if len(parts) < 2:
        raise ValueError("sasl.jaas.config: expected '<LoginModule> <flag> [options];'")
    module, flag = parts[0], parts[1]
    if flag.lower() not in ("required", "requisite", "sufficient", "optional"):
        raise ValueError(f"sasl.jaas.config: invalid control flag {flag!r}")
    rest = parts[2] if len(parts) > 2 else ""
    options: dict[str, str] = {}
    pos = 0
    while pos < len(rest):
        if rest[pos:].strip() == "":
            break
        m = _TOKEN.match(rest, pos)
        if not m:
            raise ValueError(f"sasl.jaas.config: cannot parse options at {rest[pos:pos + 30]!r}")
        value = m.group(2)
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        options[m.group(1)] = value
        pos = m.end()
    return module, flag, options


def plain_users(text: str | None) -> dict[str, str]:
    """``user_<name>="<password>"`` options of a PlainLoginModule config."""
    if not text:
        return {}
    _, _, options = parse(text)
    return {k[5:]: v for k, v in options.items() if k.startswith("user_")}
