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
