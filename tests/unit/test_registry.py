"""The handler registry behind ApiVersions advertises only what the codec and schemas allow."""

from kwire.handlers import MODULES, REGISTRY
from kwire.protocol.codec import APIS


def test_every_listed_module_is_registered():
    assert sorted(e.name for e in REGISTRY.values()) == sorted(MODULES)


def test_advertised_ranges_are_inside_the_schema_and_stable():
    for key, entry in REGISTRY.items():
        spec = APIS[key]
        assert spec.min_version <= entry.min_version <= entry.max_version <= spec.max_version, spec.name
        if entry.advertised_min_version != entry.min_version:
            assert spec.name == "Produce" and entry.advertised_min_version == 0  # KAFKA-18659
        if spec.latest_version_unstable:
            assert entry.max_version < spec.max_version, f"{spec.name} advertises its unstable latest version"
        assert "broker" in spec.listeners, spec.name


def test_docs_api_table_is_current():
    from pathlib import Path

    from kwire.handlers.table import DOCS_PAGE, markdown

    page = (Path(__file__).parents[2] / DOCS_PAGE).read_text(encoding="utf-8")
    assert markdown() in page, "run: python -m kwire.handlers.table --docs"


def test_ranges_read_from_source_match_the_imported_modules():
    """REGISTRY reads each handler's declarations from its source (the module is imported at the
    API's first request): they must be what the module itself says."""
    import importlib

    for entry in list(REGISTRY.values()):
        mod = importlib.import_module(f"kwire.handlers.{entry.name}")
        assert (entry.api_key, entry.min_version, entry.max_version, entry.advertised_min_version) == (
            mod.API_KEY, mod.MIN_VERSION, mod.MAX_VERSION,
            getattr(mod, "ADVERTISED_MIN_VERSION", mod.MIN_VERSION)), entry.name


def test_first_call_puts_the_real_handler_in_place_unless_the_entry_was_replaced():
    import dataclasses
    import sys
    from types import SimpleNamespace

    from kwire import handlers

    fresh = handlers._load()  # entries with first-call stubs, outside the shared REGISTRY
    saved = dict(REGISTRY)
    ctx = handlers.RequestContext(SimpleNamespace(config={}), 18, 3, 1, "t", "127.0.0.1", 1)
    try:
        REGISTRY.clear()
        REGISTRY.update(fresh)
        stub = REGISTRY[18].handle
        assert stub.__module__ == "kwire.handlers"
        first = stub(ctx, None)  # ApiVersions: answered through the stub
        assert [k.api_key for k in first.api_keys] == sorted(saved)
        real = sys.modules["kwire.handlers.api_versions"].handle
        assert REGISTRY[18].handle is real and REGISTRY[18].name == "api_versions"
        assert real(ctx, None) == first

        REGISTRY.clear()
        REGISTRY.update(handlers._load())
        stub = REGISTRY[18].handle
        wrapped = dataclasses.replace(REGISTRY[18], handle=lambda c, r: stub(c, r))
        REGISTRY[18] = wrapped  # a test wrapping an entry that has not answered yet
        assert REGISTRY[18].handle(ctx, None) == first
        assert REGISTRY[18] is wrapped  # still the wrapper, which keeps working
        assert REGISTRY[18].handle(ctx, None) == first
    finally:
        REGISTRY.clear()
        REGISTRY.update(saved)
