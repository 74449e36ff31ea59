"""``kwire schemas`` against a broker's Schema Registry: register from a file, list, get, check, delete."""

from __future__ import annotations

import json

import pytest

from kwire.tools.schemas import main

pytestmark = pytest.mark.timeout(120)


def test_schemas_cli(kwire_broker, tmp_path, capsys):
    url = ["--url", kwire_broker.schema_registry_url]
    v1 = tmp_path / "user.avsc"
    v1.write_text(json.dumps({"type": "record", "name": "U", "fields": [{"name": "a", "type": "int"}]}))
    assert main(url + ["register", "u-value", str(v1)]) == 0
    assert json.loads(capsys.readouterr().out) == {"id": 1}
    proto = tmp_path / "p.proto"
    proto.write_text('syntax = "proto3"; message P { int32 x = 1; }')
    assert main(url + ["register", "p-value", str(proto)]) == 0
    assert json.loads(capsys.readouterr().out) == {"id": 2}
    assert main(url + ["list"]) == 0
    assert capsys.readouterr().out.split() == ["p-value", "u-value"]
    assert main(url + ["get", "u-value"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["name"] == "U" and json.loads(out.err)["version"] == 1
    assert main(url + ["get", "--id", "2"]) == 0
    assert "message P" in capsys.readouterr().out
    # a required new field: incompatible under BACKWARD (exit 1, reasons listed); then NONE allows it
    v2 = tmp_path / "user2.avsc"
    v2.write_text(json.dumps({"type": "record", "name": "U", "fields": [
        {"name": "a", "type": "int"}, {"name": "b", "type": "string"}]}))
    assert main(url + ["compatibility", "u-value", str(v2)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("incompatible") and "'b'" in out
    assert main(url + ["compatibility", "u-value", "--level", "NONE"]) == 0
    capsys.readouterr()
    assert main(url + ["compatibility", "u-value", str(v2)]) == 0
    assert capsys.readouterr().out.strip() == "compatible"
    # refusals: exit 1 with the registry's error code
    bad = tmp_path / "bad.avsc"
    bad.write_text("{nope")
    assert main(url + ["register", "u-value", str(bad)]) == 1
    assert "42201" in capsys.readouterr().err
    assert main(url + ["get", "missing"]) == 1
    assert "40401" in capsys.readouterr().err
    assert main(url + ["delete", "p-value"]) == 0
    assert json.loads(capsys.readouterr().out) == [1]
    assert main(url + ["list"]) == 0
    assert capsys.readouterr().out.split() == ["u-value"]
    assert main(["--url", "http://127.0.0.1:1", "list"]) == 1
    assert "cannot reach" in capsys.readouterr().err
