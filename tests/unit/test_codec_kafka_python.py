"""Differential check against kafka-python 3.0.12's protocol classes.

kafka-python interprets Kafka's JSON schemas at run time (a different code
path from both kwire and kio).  For every broker API message it has and each
version both sides support: kwire encodes a random object, kafka-python
decodes and re-encodes it to the same bytes, and kwire decodes those bytes
to an equal object. One test per message, each example drawn once for all its versions and
projected onto each (``at_version``; a failure names the version).
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from hypothesis import HealthCheck, given, settings

from kwire.protocol import codec
from test_codec_strategies import PAIRS, all_versions_strategy, at_version, naming_version

ApiMessage = pytest.importorskip("kafka.protocol.api_message").ApiMessage


def _kafka_python_classes() -> dict:
    for pkg_name in ("admin", "consumer", "producer", "metadata"):
        pkg = importlib.import_module(f"kafka.protocol.{pkg_name}")
        for info in pkgutil.iter_modules(pkg.__path__):
            importlib.import_module(f"{pkg.__name__}.{info.name}")
    found = {}

    def walk(cls):
        for sub in cls.__subclasses__():
            if getattr(sub, "_class_version", None) is None:
                found[sub.__name__] = sub
            walk(sub)

    walk(ApiMessage)
    return found


def _versions(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def _cases():
    classes = _kafka_python_classes()
    compared, missing = [], []
    for pair in PAIRS:
        for msg in pair:
            theirs = classes.get(msg.name)
            for v in msg.versions:
                if theirs is not None and v in _versions(theirs.json["validVersions"]):
                    compared.append((msg, v, theirs))
                else:
                    missing.append((msg, v))
    return compared, missing


COMPARED, MISSING = _cases()
_SETTINGS = settings(max_examples=4, deadline=None, database=None,
                     suppress_health_check=list(HealthCheck))


def test_kafka_python_coverage():
    total = len(COMPARED) + len(MISSING)
    print(f"\nkafka-python differential: {len(COMPARED)} of {total} (message, version) pairs; "
          f"{len({m.name for m, _, _ in COMPARED})} messages")
    assert len(COMPARED) >= 400


def _by_message() -> list:
    """(message, [versions both sides have], kafka-python's class), in COMPARED's order."""
    out: dict = {}
    for msg, v, kcls in COMPARED:
        out.setdefault(msg.name, (msg, [], kcls))[1].append(v)
    return list(out.values())


def _compare(msg, v, kcls, obj) -> None:
    if msg.name == "ApiVersionsResponse":
        # kafka-python reads any error response as v0 (the broker's fallback
        # for unsupported versions), so only error-free bodies are comparable.
        obj.error_code = 0
    if msg.type == "request":
        ours = codec.encode_request_body(msg.api_key, v, obj)
    else:
        ours = b"".join(codec.encode_response_body(msg.api_key, v, obj))
    theirs = kcls.decode(ours, version=v)
    theirs._header = None  # some kafka-python wrappers expect it when re-encoding
    again = bytes(theirs.encode(version=v))
    assert again == ours
    if msg.type == "request":
        assert codec.decode_request(msg.api_key, v, again) == obj
    else:
        assert codec.decode_response_body(msg.api_key, v, again) == obj


@pytest.mark.parametrize("msg,versions,kcls", [pytest.param(m, vs, c, id=m.name) for m, vs, c in _by_message()])
def test_against_kafka_python(msg, versions, kcls):
    @_SETTINGS
    @given(all_versions_strategy(msg, unknown_tags=False))
    def check(obj):
        for v in versions:
            with naming_version(msg, v):
                _compare(msg, v, kcls, at_version(msg, obj, v))

    check()
