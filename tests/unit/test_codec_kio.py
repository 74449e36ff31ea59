"""Differential check against ``kio`` (independently generated from Kafka's schemas).

For every broker API message and version that kio also has: draw a kwire
object, encode it with kwire, parse the bytes with kio (all bytes must be
consumed), serialise kio's object again and require identical bytes, then
decode kio's bytes with kwire and require an equal object.  Unknown tagged
fields are left out (kio does not keep them). One test per message, each example drawn once for
all its versions and projected onto each (``at_version``; a failure names the version).
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import os

import pytest
from hypothesis import HealthCheck, given, settings

from kwire.protocol import codec
from test_codec_strategies import (MESSAGES, PAIRS, all_versions_strategy, at_version,
                                   naming_version)

# kio is imported by the tests, not at collection: importing a class of every (message, version)
# to list the cases cost each xdist worker ~4 CPU-s, whether it ran these tests or not.
_KIO = importlib.util.find_spec("kio")
if _KIO is None:
    pytest.skip("kio is not installed (it is in the [test] extra)", allow_module_level=True)
_KIO_SCHEMA = os.path.join(_KIO.submodule_search_locations[0], "schema")


def _kio_module(msg, v) -> str | None:
    """kio's module of ``msg`` version ``v`` if kio has one (found by its file: not imported)."""
    snake = msg.module_name.rsplit("_", 1)[0]
    if not os.path.isfile(os.path.join(_KIO_SCHEMA, snake, f"v{v}", f"{msg.type}.py")):
        return None
    return f"kio.schema.{snake}.v{v}.{msg.type}"


def _kio_class(msg, v):
    api = msg.name[: -len("Request")] if msg.type == "request" else msg.name[: -len("Response")]
    mod = importlib.import_module(_kio_module(msg, v))
    return getattr(mod, msg.name, None) or getattr(mod, api + msg.type.capitalize(), None)


def _cases():
    compared, missing = [], []
    for pair in PAIRS:
        for msg in pair:
            for v in msg.versions:
                (compared if _kio_module(msg, v) is not None else missing).append((msg, v))
    return compared, missing


COMPARED, MISSING = _cases()

_SETTINGS = settings(max_examples=5, deadline=None, database=None,
                     suppress_health_check=list(HealthCheck))


def test_kio_coverage():
    total = len(COMPARED) + len(MISSING)
    print(f"\nkio differential: {len(COMPARED)} of {total} (message, version) pairs compared; "
          f"kio lacks {len(MISSING)}: " + ", ".join(sorted({f'{m.name} v{v}' for m, v in MISSING})))
    assert len(COMPARED) >= 0.8 * total


def _encode_body(msg, v, obj) -> bytes:
    if msg.type == "request":
        return codec.encode_request_body(msg.api_key, v, obj)
    return b"".join(codec.encode_response_body(msg.api_key, v, obj))


def _decode_body(msg, v, data):
    if msg.type == "request":
        return codec.decode_request(msg.api_key, v, data, 0)
    return codec.decode_response_body(msg.api_key, v, data, 0)


def _by_message() -> list:
    """(message, [versions kio has]), in COMPARED's order."""
    out: dict = {}
    for msg, v in COMPARED:
        out.setdefault(msg.name, (msg, []))[1].append(v)
    return list(out.values())


def _kio_codec(msg, v):
    kio_serial = importlib.import_module("kio.serial")
    kcls = _kio_class(msg, v)
    assert kcls is not None, f"kio's module for {msg.name} v{v} has no class of that name"
    return kio_serial.entity_reader(kcls), kio_serial.entity_writer(kcls)


@pytest.mark.parametrize("msg,versions", [pytest.param(m, vs, id=m.name) for m, vs in _by_message()])
def test_against_kio(msg, versions):
    kio = {v: _kio_codec(msg, v) for v in versions}

    @_SETTINGS
    @given(all_versions_strategy(msg, unknown_tags=False, tame=True))
    def check(obj):
        for v in versions:
            with naming_version(msg, v):
                reader, writer = kio[v]
                obj_v = at_version(msg, obj, v)
                ours = _encode_body(msg, v, obj_v)
                theirs, size = reader(ours, 0)
                assert size == len(ours)
                buf = io.BytesIO()
                writer(buf, theirs)
                assert buf.getvalue() == ours
                assert _decode_body(msg, v, buf.getvalue()) == obj_v

    check()


def test_headers_against_kio():
    import kio.serial as kio_serial
    from kio.schema.request_header.v2.header import RequestHeader as K2
    from kio.schema.request_header.v1.header import RequestHeader as K1
    for hv, kcls in ((1, K1), (2, K2)):
        api_version = 9 if hv == 2 else 3
        frame = codec.encode_request(0, api_version, 77, "kio-client",
                                     MESSAGES and codec.APIS[0].request_class(acks=1))
        header, size = kio_serial.entity_reader(kcls)(frame[4:], 0)
        ours, pos = codec.decode_request_header(frame[4:])
        assert pos == size
        assert (header.request_api_key, header.request_api_version, header.correlation_id,
                header.client_id) == (0, api_version, 77, "kio-client")
