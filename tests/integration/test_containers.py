"""docker/: the image and both compose files checked against each other and the docs; ``kwire health``.

Containers cannot run here, so the files are parsed: the Dockerfile's entry
point (``kwire serve`` with overrides kwire's own config loader accepts), the
ports it exposes (Kafka, metrics, console) and its volume (``log.dirs``), its
HEALTHCHECK; ``docker/compose.single.yaml`` (one node: every exposed port
published 1:1, the volume on /data, a health check, the console on) and the
health checks, published metrics ports (one host port per broker) and console
(on kwire-1 only) of ``docker/compose.yaml`` (ZooKeeper + 3 brokers; its other
checks are in test_cluster_cli.py); and the docs' Containers page
(docs/containers.md) naming the same ports, volume, files and health command.

The image is built in two stages; ``docker build`` cannot run here either, so
the build stage's steps are checked and then done for real: the files its
COPY lines name are copied to a temp dir, its ``python -m build --wheel``
builds the wheel there (``--no-isolation --skip-dependency-check``: this environment's setuptools and wheel, no index), the wheel is
installed into a temp target, and kwire imported from it reports the compiled
record walker (``kwire.records.scan.IMPLEMENTATION == "c"``), as the final
stage asserts; a live broker logs its walker and exports it as a metric.

``kwire health`` itself runs for real: exit 0 against a live broker (also
with ``--require-controller``, and exactly the command line the compose
health checks run, pointed at it), 1 against a stopped one or a closed port,
2 for a bad address.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"


def _yaml(name: str) -> dict:
    return yaml.safe_load((DOCKER / name).read_text())


def _overrides(args: list[str]) -> dict[str, str]:
    assert len(args) % 2 == 0 and args[::2] == ["--override"] * (len(args) // 2), args
    return dict(item.split("=", 1) for item in args[1::2])


def _instruction(text: str, name: str) -> list[str]:
    """Every argument of Dockerfile instruction ``name`` (one line each here)."""
    return [ln[len(name):].strip() for ln in text.splitlines() if ln.startswith(name + " ")]


def _port(listener: str) -> int:
    return int(listener.rsplit(":", 1)[1])


class Image:
    def __init__(self) -> None:
        text = (DOCKER / "Dockerfile").read_text()
        (entry,) = _instruction(text, "ENTRYPOINT")
        self.entrypoint = json.loads(entry)
        (cmd,) = _instruction(text, "CMD")
        self.cmd = json.loads(cmd)
        self.expose = {int(p) for line in _instruction(text, "EXPOSE") for p in line.split()}
        self.volumes = [v for line in _instruction(text, "VOLUME") for v in line.split()]
        (health,) = _instruction(text, "HEALTHCHECK")
        self.healthcheck = json.loads(health.split(" CMD ", 1)[1])
        self.base = _overrides(self.entrypoint[2:])


def _accepted(props: dict[str, str]) -> None:
    from kwire.config import BrokerConfig

    BrokerConfig.load(None, {**props, "log.dirs": "/nonexistent-kwire-container-check"})


def test_image_entrypoint_ports_volume_and_healthcheck():
    img = Image()
    assert img.entrypoint[:2] == ["kwire", "serve"]
    props = {**img.base, **_overrides(img.cmd)}
    _accepted(props)
    assert img.volumes == ["/data"] and props["log.dirs"] == "/data"
    kafka, metrics = _port(props["listeners"]), _port(props["metrics.listeners"])
    assert props["listeners"] == f"PLAINTEXT://0.0.0.0:{kafka}" and kafka == 9092
    assert props["metrics.listeners"] == f"HTTP://0.0.0.0:{metrics}" and metrics == 9404
    assert _port(props["advertised.listeners"]) == kafka
    assert img.expose == {kafka, metrics, 8080, 8081}  # 8080: the console, 8081 the schema registry
    assert "console.listeners" not in props and "console.port" not in props  # off unless asked for
    assert "schema.registry.listeners" not in props and "schema.registry.port" not in props
    assert img.healthcheck[:2] == ["kwire", "health"]


def _stages() -> list[list[str]]:
    """The Dockerfile's stages, each a list of its instruction lines (comments dropped)."""
    stages: list[list[str]] = []
    for ln in (DOCKER / "Dockerfile").read_text().splitlines():
        if not ln.strip() or ln.startswith("#"):
            continue
        if ln.startswith("FROM "):
            stages.append([])
        stages[-1].append(ln)
    return stages


def test_image_is_built_in_two_stages_with_the_compiled_walker():
    build, final = _stages()
    assert build[0] == "FROM python:3.11-slim AS build"
    assert any("apt-get install" in ln and " gcc" in ln for ln in build)  # the compiler, here only
    copied = [w for ln in build if ln.startswith("COPY ") for w in ln.split()[1:-1]]
    assert {"pyproject.toml", "setup.py", "kwire"} <= set(copied)  # setup.py builds kwire.records._scan
    assert any("python -m build --wheel --outdir /wheels" in ln for ln in build)
    assert final[0] == "FROM python:3.11-slim"
    assert "COPY --from=build /wheels /wheels" in final
    assert not any("gcc" in ln for ln in final)
    assert any("IMPLEMENTATION == 'c'" in ln for ln in final if ln.startswith("RUN "))


def test_the_build_stage_wheel_has_the_compiled_walker(tmp_path):
    """Do what the build stage does (its COPY lines, python -m build), install the wheel."""
    build, _final = _stages()
    src = tmp_path / "src"
    src.mkdir()
    import shutil

    for ln in build:
        if ln.startswith("COPY "):
            *names, dest = ln.split()[1:]
            for n in names:
                target = src / dest / n if dest.endswith("/") and dest != "./" else src / n
                if (ROOT / n).is_dir():
                    shutil.copytree(ROOT / n, target,
                                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
                else:
                    shutil.copy(ROOT / n, target)
    wheels = tmp_path / "wheels"
    out = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--skip-dependency-check", "--outdir",
                          str(wheels), str(src)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    (wheel,) = wheels.glob("kwire-*.whl")
    assert "cp3" in wheel.name and "linux" in wheel.name, wheel.name  # a platform wheel: C inside
    target = tmp_path / "site"
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                          "--target", str(target), str(wheel)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    env = {k: v for k, v in os.environ.items() if k not in ("KWIRE_NO_EXTENSIONS", "PYTHONPATH")}
    env["PYTHONPATH"] = str(target)
    out = subprocess.run([sys.executable, "-c", "import kwire.records.scan as s; "
                          "print(s.__file__); print(s.IMPLEMENTATION)"],
                         capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=120)
    path, impl = out.stdout.split()
    assert path.startswith(str(target)) and impl == "c", out.stdout + out.stderr


def test_single_node_compose():
    img = Image()
    doc = _yaml("compose.single.yaml")
    (name,) = doc["services"]
    svc = doc["services"][name]
    assert svc["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}
    props = {**img.base, **_overrides(svc["command"])}
    _accepted(props)
    published = {}
    for mapping in svc["ports"]:
        host, container = mapping.split(":")
        published[int(container)] = int(host)
    assert published == {p: p for p in img.expose}  # every exposed port, 1:1
    assert _port(props["advertised.listeners"]) == published[_port(props["listeners"])]
    assert _port(props["console.listeners"]) in published  # the dev compose turns the console on
    assert _port(props["schema.registry.listeners"]) in published  # and the schema registry
    (volume,) = svc["volumes"]
    vol_name, mount = volume.split(":")
    assert mount == props["log.dirs"] == "/data" and vol_name in doc["volumes"]
    test = svc["healthcheck"]["test"]
    assert test[:3] == ["CMD", "kwire", "health"]
    i = test.index("--bootstrap-server")
    assert _port(test[i + 1]) == _port(props["listeners"])


def _published(svc: dict) -> dict[int, int]:
    """container port -> host port of a service's ``ports``."""
    out = {}
    for mapping in svc["ports"]:
        host, container = str(mapping).split(":")
        assert int(container) not in out, f"container port {container} published twice"
        out[int(container)] = int(host)
    return out


def test_cluster_compose_health_checks_metrics_and_console():
    img = Image()
    doc = _yaml("compose.yaml")
    brokers = {n: s for n, s in doc["services"].items() if n.startswith("kwire-")}
    assert len(brokers) == 3
    host_ports: list[int] = []
    consoles = []
    registries = []
    for name, svc in sorted(brokers.items()):
        props = {**img.base, **_overrides(svc["command"])}
        _accepted(props)
        assert svc["healthcheck"]["test"][:3] == ["CMD", "kwire", "health"]
        assert "--require-controller" in svc["healthcheck"]["test"]
        # the check runs inside the broker's container, against its own listener
        assert _port(svc["environment"]["KWIRE_HEALTH_BOOTSTRAP"]) == _port(props["listeners"])
        assert svc["environment"]["KWIRE_HEALTH_BOOTSTRAP"].startswith("127.0.0.1:")
        metrics = _port(props["metrics.listeners"])
        assert [str(metrics)] == [str(p) for p in svc["expose"]]
        published = _published(svc)
        kafka = _port(props["listeners"])
        assert published[kafka] == kafka  # the advertised port works from the host
        assert metrics in published, f"{name}: metrics port {metrics} not published"
        assert "console.port" not in props
        if "console.listeners" in props:
            console = _port(props["console.listeners"])
            assert props["console.listeners"] == f"HTTP://0.0.0.0:{console}" and console in img.expose
            assert published[console] == console
            consoles.append(name)
        registry = _port(props["schema.registry.listeners"])  # on every broker: any one answers
        assert props["schema.registry.listeners"] == f"HTTP://0.0.0.0:{registry}" and registry in img.expose
        registries.append(published[registry])
        assert set(published) <= {kafka, metrics, registry} | ({_port(props["console.listeners"])}
                                                                if "console.listeners" in props else set())
        host_ports += published.values()
    assert consoles == ["kwire-1"]  # the console on one broker: it shows the whole cluster
    assert registries == [8081, 8082, 8083]
    assert len(host_ports) == len(set(host_ports)), f"a host port is published twice: {sorted(host_ports)}"
    assert sorted(_published(brokers[n])[9404] for n in brokers) == [9404, 9405, 9406]
    header = (DOCKER / "compose.yaml").read_text().split("\nx-kwire-broker")[0]
    for words in ("9404 (kwire-1), 9405 (kwire-2) and 9406 (kwire-3)", "console runs on kwire-1",
                  "http://localhost:8080/"):
        assert words in header, f"compose.yaml's header comment does not say {words!r}"


def _docs_section(page: str, title_word: str) -> str:
    text = (ROOT / "docs" / page).read_text()
    m = re.search(rf"^(#+) [^\n]*{title_word}[^\n]*\n", text, re.M)
    assert m, f"docs/{page} has no section whose heading names {title_word!r} (issue 15)"
    level = len(m.group(1))
    rest = text[m.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def test_docs_name_the_images_ports_volume_and_health_command():
    img = Image()
    section = _docs_section("containers.md", "Container")
    for port in sorted(img.expose):
        assert str(port) in section, f"docs/containers.md does not name port {port}"
    for word in ("/data", "kwire health", "compose.single.yaml", "compose.yaml", "docker/Dockerfile"):
        assert word in section, f"docs/containers.md does not mention {word}"
    # the cluster compose file's host ports: metrics per broker, the console on kwire-1
    doc = _yaml("compose.yaml")
    kafka = []
    for name, svc in doc["services"].items():
        if name.startswith("kwire-"):
            listen = _port(_overrides(svc["command"])["listeners"])
            kafka.append(listen)
            for container, host in _published(svc).items():
                if container != listen:  # Kafka's ports are named as a range
                    assert str(host) in section, f"docs/containers.md does not name {name}'s port {host}"
    assert f"{min(kafka)}-{max(kafka)}" in section and "console on `kwire-1`" in section


# -- kwire health ----------------------------------------------------------------------------------

def kwire(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kwire", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={**os.environ, **(env or {})})


def test_health_against_a_live_and_a_stopped_broker(make_broker):
    from kwire.devcluster import free_port

    b = make_broker()
    p = kwire("health", "--bootstrap-server", b.bootstrap)
    assert p.returncode == 0 and p.stdout.startswith(f"ok {b.bootstrap}: "), p.stderr
    p = kwire("health", "-b", b.bootstrap, "--require-controller")
    assert p.returncode == 0 and "controller" in p.stdout, p.stderr
    assert kwire("health", "-q", "-b", b.bootstrap).stdout == ""
    # the cluster compose file's check: the address from the environment
    doc = _yaml("compose.yaml")
    test = doc["services"]["kwire-2"]["healthcheck"]["test"]
    p = kwire(*test[2:], env={"KWIRE_HEALTH_BOOTSTRAP": b.bootstrap})
    assert p.returncode == 0, p.stderr
    bootstrap = b.bootstrap
    b.stop()
    p = kwire("health", "-b", bootstrap, "--timeout-ms", "2000")
    assert p.returncode == 1 and "Connection refused" in p.stderr, p.stderr
    p = kwire("health", "-b", f"127.0.0.1:{free_port()}")
    assert p.returncode == 1
    p = kwire("health", "-b", "no-port-here")
    assert p.returncode == 2 and "bootstrap" in p.stderr
    assert "health" in kwire("--help").stdout
