"""``kwire bench``: the command line, and the order in which brokers and workloads run.

Each run starts every self-started broker afresh (new data directory, new
process: that is also when start-up time and idle RSS are taken), creates
fresh topics, then runs each workload on broker A and right after on broker
B (A B A B ..., or A B C A B C ... with several peers), so each pair shares the
machine's conditions. Peers: ``tansu`` (``tansu.py``) and ``kwire@<git-rev>``,
this repository's kwire at another revision (``revision.py``: written out with
``git archive`` into the work directory and removed afterwards), which is how
a change is measured against the previous release in the same run. With
``--cluster N`` a replicated kwire cluster (ZooKeeper + N brokers,
``cluster.py``, topics with replication factor min(3, N)) runs first and the
single kwire broker becomes its peer. ``--scale TOPICSxPARTITIONS`` runs
``scale.py`` (many partitions on one broker) instead of the workloads, so the ratio column is cluster /
single node (the issue's goal for produce_1KiB_acksall: >= 0.5). Brokers
given by address (``--bootstrap``, ``--peer-bootstrap``) are used as they are
and report no CPU, RSS or start-up figures.

A peer that cannot be had (``kwire@<rev>`` naming no commit, a Tansu that
cannot be found offline) is left out with a message on stderr, and one that
fails to start or fails a workload is dropped from the runs after that (its
missing runs are ``null`` in the JSON, "n/a" in the table): the other
brokers' figures are still measured and reported, and the report's notes
(``meta.left_out``) say which peer was left out and why.

Exit codes: 0 done (also with peers left out), 1 the kwire broker itself or
its workload failed, 2 bad usage or confluent-kafka missing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
import uuid

from . import brokers, workloads
from .report import build, markdown

ALL = ["produce_100B_acks1", "produce_100B_acksall", "produce_1KiB_acks1",
       "produce_1KiB_acksall", "consume_100B", "consume_1KiB", "latency_1KiB"]
SIZES = {"100B": 100, "1KiB": 1024}
CLUSTER_DEFAULT = ["produce_1KiB_acksall", "produce_1KiB_acks1"]
# opt-in (--workloads): 4 share consumers (KIP-932) over a 1- and a 6-partition topic, and one
# classic-group consumer over the 6-partition one; each run produces their 100 B records first
SHARE = ["share_100B_1p", "share_100B_6p", "classic_100B_6p"]
# opt-in: closed-loop produce -> fetch round trips over kwire's wire client (roundtrip.py), the
# broker's CPU per round trip: comparable between revisions on a loaded machine
OPT_IN = SHARE + ["roundtrip_1KiB"]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kwire bench", description=(
        "Benchmark kwire (produce, consume, end-to-end latency, start-up, footprint) "
        "with librdkafka, optionally against a peer broker."))
    p.add_argument("--bootstrap", metavar="HOST:PORT",
                   help="benchmark this running kwire broker instead of starting one")
    p.add_argument("--peer", action="append", default=[], metavar="PEER",
                   help="also benchmark a peer broker, alternating runs: 'tansu', or "
                        "'kwire@<git-rev>' (this repository's kwire at that revision, written "
                        "out with git archive); repeatable (default: none)")
    p.add_argument("--peer-bootstrap", metavar="HOST:PORT",
                   help="the peer is already running here (no CPU/RSS figures)")
    p.add_argument("--tansu", metavar="PATH", help="Tansu binary (default: cache, PATH, or fetch)")
    p.add_argument("--no-fetch", action="store_true", help="never download Tansu")
    p.add_argument("--runs", type=int, default=5, help="runs per broker (default 5)")
    p.add_argument("--messages", type=int, default=200000,
                   help="1 KiB messages per produce/consume run (default 200000)")
    p.add_argument("--small-messages", type=int, default=1000000,
                   help="100 B messages per produce/consume run (default 1000000)")
    p.add_argument("--partitions", type=int, default=6)
    p.add_argument("--latency-rate", type=int, default=5000, help="msg/s (default 5000)")
    p.add_argument("--latency-seconds", type=float, default=15.0)
    p.add_argument("--latency-warmup", type=float, default=1.0,
                   help="seconds of latency samples left out at the start (default 1)")
    p.add_argument("--roundtrips", type=int, default=5000,
                   help="timed produce -> fetch round trips of roundtrip_1KiB (default 5000)")
    p.add_argument("--nice", type=int, default=None, metavar="N",
                   help="run the bench, its clients and the brokers it starts at this niceness "
                        "(e.g. -5: ahead of other work on a shared machine; below 0 needs root)")
    p.add_argument("--workloads", default=None,
                   help=f"comma-separated subset of: {','.join(ALL + OPT_IN)} (default: all but the "
                        f"share ones and roundtrip_1KiB; with "
                        f"--cluster: {','.join(CLUSTER_DEFAULT)})")
    p.add_argument("--cluster", type=int, default=0, metavar="N",
                   help="also start a kwire cluster of N brokers (ZooKeeper from the Debian "
                        "'zookeeper' package) and compare it with the single broker (default: off)")
    p.add_argument("--cluster-override", action="append", default=[], metavar="KEY=VALUE",
                   help="config override for every broker of the --cluster (repeatable)")
    p.add_argument("--kwire-override", action="append", default=[], metavar="KEY=VALUE",
                   help="config override for the self-started kwire broker (repeatable)")
    p.add_argument("--json", metavar="PATH", help="write the JSON report here")
    p.add_argument("--markdown", metavar="PATH", help="write the Markdown table here too")
    p.add_argument("--workdir", help="where broker data and logs go (default: a temp dir)")
    p.add_argument("--scale", metavar="TOPICSxPARTITIONS",
                   help="instead of the workloads: many partitions on one broker (create, one "
                        "record to each, Metadata, RSS, fds, restart clean and after kill -9), "
                        "e.g. 10x5000 (kwire/bench/scale.py)")
    p.add_argument("--scale-writer", choices=("java", "aiokafka", "librdkafka"), default="java",
                   help="the client that writes one record to each partition for --scale: the Java "
                        "producer (default; many partitions per request; needs a JDK and the "
                        "kafka-clients jars), aiokafka, or librdkafka (one partition per request: "
                        "client-bound) (kwire/bench/scale_writers.py)")
    return p


def _workload_fn(w: str, args, ck, bootstrap: str, topics: dict, broker=None):
    kind, rest = w.split("_", 1)
    if kind == "produce":
        size_name, acks = rest.split("_")
        return workloads.produce, (ck, bootstrap, topics[w], SIZES[size_name],
                                   _count(args, size_name), "all" if acks == "acksall" else "1")
    if kind == "consume":
        return workloads.consume, (ck, bootstrap, topics[w], args.partitions, SIZES[rest],
                                   _count(args, rest))
    if kind in ("share", "classic"):
        fn = workloads.share_consume if kind == "share" else workloads.group_consume
        return fn, (ck, bootstrap, topics[w], 100, args.small_messages)
    if kind == "roundtrip":
        from .roundtrip import roundtrip

        return roundtrip, (bootstrap, topics[w], args.partitions, 1024, args.roundtrips, broker)
    return workloads.latency, (ck, bootstrap, topics[w], args.partitions, 1024,
                               args.latency_rate, args.latency_seconds, args.latency_warmup)


def _share_topic(ck, b, w: str, count: int, run_no: int, tag: str) -> str:
    """The share/classic workloads' topic of ``w``'s partition count, created and filled
    with ``count`` 100 B records once per run and broker (untimed)."""
    partitions = int(w.rsplit("_", 1)[1].rstrip("p"))
    topic = f"bench-share-{partitions}p-{run_no}-{tag}"
    if topic not in b.topics_made:
        workloads.create_topic(ck, b.bootstrap, topic, partitions, b.replication_factor)
        workloads.produce(ck, b.bootstrap, topic, 100, count, "1")
        b.topics_made.add(topic)
    return topic


def _count(args, size_name: str) -> int:
    return args.messages if size_name == "1KiB" else args.small_messages


def _plan(selected: list[str]) -> list[str]:
    """Workloads in run order; a consume needs its size's acks=1 produce first."""
    plan = list(selected)
    for w in selected:
        if w.startswith("consume_"):
            need = f"produce_{w.split('_')[1]}_acks1"
            if need not in plan:
                plan.insert(plan.index(w), need)
    return plan


def _start(spec: dict, args, workdir: str):
    if spec["external"]:
        return brokers.External(spec["name"], spec["kind"], spec["external"])
    if spec["kind"] == "kwire-cluster":
        from .cluster import start_cluster

        return start_cluster(workdir, spec["brokers"], args.cluster_override, spec["name"])
    if spec["kind"] == "kwire":
        b = brokers.start_kwire(workdir, args.kwire_override, spec["name"], spec.get("root"))
        if spec.get("commit"):
            b.notes = f"git {spec['commit'][:12]} from {spec['root']}; {spec.get('helpers')}; {b.notes}"
    else:
        b = brokers.start_tansu(spec["binary"], workdir, spec["name"])
    return b


def run(args) -> int:
    try:
        import confluent_kafka as ck
    except ImportError:
        print("kwire bench: needs confluent-kafka (a bench/test dependency, not the broker's): "
              "pip install confluent-kafka", file=sys.stderr)
        return 2
    if args.workloads is None:
        args.workloads = ",".join(CLUSTER_DEFAULT if args.cluster else ALL)
    selected = [w.strip() for w in args.workloads.split(",") if w.strip()]
    bad = [w for w in selected if w not in ALL + OPT_IN]
    if bad or not selected:
        print(f"kwire bench: unknown workloads {bad}; choose from {ALL + OPT_IN}", file=sys.stderr)
        return 2
    peers = [p for p in args.peer if p != "none"]
    bad = [p for p in peers if p != "tansu" and not (p.startswith("kwire@") and len(p) > 6)]
    if bad:
        print(f"kwire bench: unknown peer {bad[0]!r}: use tansu or kwire@<git-rev>", file=sys.stderr)
        return 2
    specs = [{"name": "kwire", "kind": "kwire", "external": args.bootstrap}]
    if args.cluster:
        if args.cluster_override and any("=" not in o for o in args.cluster_override):
            print("kwire bench: --cluster-override takes KEY=VALUE", file=sys.stderr)
            return 2
        from kwire.devcluster import ZooKeeperMissing, zookeeper_classpath

        try:
            zookeeper_classpath()
        except ZooKeeperMissing as e:
            print(f"kwire bench: --cluster: {e}", file=sys.stderr)
            return 2
        specs.insert(0, {"name": f"kwire-cluster{args.cluster}", "kind": "kwire-cluster",
                         "external": None, "brokers": args.cluster})
    if args.peer_bootstrap:
        name = peers[0] if peers else "peer"
        specs.append({"name": name, "kind": name.split("@")[0], "external": args.peer_bootstrap})
        peers = []
    elif args.tansu and "tansu" not in peers:
        peers.append("tansu")
    workdir = args.workdir or tempfile.mkdtemp(prefix="kwire-bench-")
    os.makedirs(workdir, exist_ok=True)
    left_out: list[dict] = []  # peers not measured (or not to the end), and why
    for peer in peers:
        why = _add_peer(peer, args, workdir, specs)
        if why is not None:
            _leave_out(left_out, peer, why)
    if args.scale:
        try:
            return _run_scale(args, ck, specs, workdir, left_out)
        finally:
            _cleanup(args, workdir, specs)
    plan = _plan(selected)
    results = {s["name"]: {w: [] for w in plan + ["startup"]} for s in specs}
    for s in specs:
        if s["kind"] in ("kwire", "kwire-cluster") and not s["external"]:
            brokers.precompile_kwire(s.get("root"))
    load = [os.getloadavg()[0]]
    described: dict = {}
    try:
        for run_no in range(args.runs):
            started = []
            try:
                for s in specs:
                    if s.get("failed"):
                        continue
                    try:
                        started.append(_start(s, args, workdir))
                    except Exception as e:  # RuntimeError: did not start; OSError; a cluster's
                        if s is specs[0]:
                            raise  # the broker being measured: nothing to report without it
                        s["failed"] = True
                        _leave_out(left_out, s["name"], f"did not start in run {run_no + 1}: {e}")
                for b in started:  # idle RSS after a second of doing nothing
                    if b.pid is not None:
                        b.settle_idle_rss(1.0)
                    described[b.name] = b.describe()
                    results[b.name]["startup"].append(
                        {"startup_s": b.startup_s, "idle_rss_mb": b.idle_rss_mb})
                tag = uuid.uuid4().hex[:6]
                for b in list(started):
                    topics = {}
                    b.topics_made = set()
                    try:
                        for w in plan:
                            if w.startswith("consume_"):
                                topics[w] = topics[f"produce_{w.split('_')[1]}_acks1"]
                            elif w in SHARE:
                                topics[w] = _share_topic(ck, b, w, args.small_messages, run_no, tag)
                            else:
                                topics[w] = f"bench-{w}-{run_no}-{tag}".replace("_", "-")
                                workloads.create_topic(ck, b.bootstrap, topics[w], args.partitions,
                                                       b.replication_factor)
                    except Exception as e:
                        if b.name == specs[0]["name"]:
                            raise
                        _drop(b, started, specs, left_out, f"creating topics in run {run_no + 1}: {e}")
                        continue
                    b.topics = topics
                for w in plan:
                    for b in list(started):
                        fn, fargs = _workload_fn(w, args, ck, b.bootstrap, b.topics, b)
                        try:
                            r = workloads.measure(b, fn, *fargs)
                        except Exception as e:
                            if b.name == specs[0]["name"]:
                                raise
                            _drop(b, started, specs, left_out, f"{w} in run {run_no + 1}: {e}")
                            continue
                        if r.get("broker_cpu_s") is not None and r.get("messages"):
                            r["broker_cpu_us_per_msg"] = r["broker_cpu_s"] / r["messages"] * 1e6
                        results[b.name][w].append(r)
                        _progress(run_no, b.name, w, r)
                for s in specs:  # a run a broker missed counts as failed (None), keeping pairs aligned
                    for w in plan + ["startup"]:
                        if len(results[s["name"]][w]) < run_no + 1:
                            results[s["name"]][w].append(None)
            finally:
                for b in started:
                    b.stop()
                    brokers.remove_data(b)
                load.append(os.getloadavg()[0])
    except (workloads.BenchError, RuntimeError, Exception) as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        print(f"kwire bench: failed: {e}", file=sys.stderr)
        return 1
    finally:
        _cleanup(args, workdir, specs)
    meta = {"runs": args.runs, "partitions": args.partitions, "cluster_brokers": args.cluster or None,
            "messages_1KiB": args.messages,
            "messages_100B": args.small_messages, "latency_rate": args.latency_rate,
            "latency_seconds": args.latency_seconds, "latency_warmup_s": args.latency_warmup,
            "client": f"confluent-kafka {_version(ck.version())} / librdkafka {_version(ck.libversion())}",
            "producer_config": {k: v for k, v in workloads.PRODUCER_BASE.items()},
            "python": platform.python_version(), "cpus": os.cpu_count(),
            "loadavg_1min_after_each_run": [round(x, 2) for x in load],
            "niceness": os.getpriority(os.PRIO_PROCESS, 0),
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "record_validation_ms_per_mb": _validation_cost(),
            "left_out": left_out}
    for s in specs:  # a peer that never started still gets its (empty) column
        described.setdefault(s["name"], {"name": s["name"], "kind": s["kind"], "storage": "–",
                                         "bootstrap": "–", "notes": "not started"})
    doc = build(meta, [described[s["name"]] for s in specs], results, plan + ["startup"])
    _emit(args, doc, markdown(doc))
    return 0


def _emit(args, doc: dict, text: str) -> None:
    """Print the table; write it (--markdown) and the JSON document (--json) where asked."""
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)


def _run_scale(args, ck, specs: list[dict], workdir: str, left_out: list[dict]) -> int:
    from . import scale
    from .stats import summary

    if args.bootstrap:
        print("kwire bench --scale: restarts the broker, so it needs one it starts itself "
              "(no --bootstrap)", file=sys.stderr)
        return 2
    for s in specs:
        if s["kind"] == "kwire" and not s["external"]:
            brokers.precompile_kwire(s.get("root"))
    load = [os.getloadavg()[0]]
    results = scale.run(ck, specs, workdir, args.scale, args.runs, args.scale_writer)
    load.append(os.getloadavg()[0])
    names = list(results)
    doc = {"meta": {"scale": args.scale, "writer": args.scale_writer, "runs": args.runs, "cpus": os.cpu_count(),
                    "loadavg_1min_before_after": [round(x, 2) for x in load],
                    "python": platform.python_version(), "left_out": left_out,
                    "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")},
           "results": {n: {f: summary([r.get(f) if r else None for r in results[n]])
                           for f in scale.FIGURES} for n in names},
           "runs": results}
    head = ["figure"] + names
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for f in scale.FIGURES:
        cells = []
        for n in names:
            m = doc["results"][n][f]["median"]
            cells.append("n/a" if m is None else f"{m:,.3g}" if m < 1000 else f"{m:,.0f}")
        lines.append("| " + " | ".join([f] + cells) + " |")
    lines.append("")
    lines.append(f"- {args.scale} (topics x partitions, one replica), written with {args.scale_writer}, "
                 f"medians of {args.runs} run(s); "
                 f"{os.cpu_count()} CPUs, 1-min load average before/after {doc['meta']['loadavg_1min_before_after']}")
    for lo in left_out:
        lines.append(f"- LEFT OUT: {lo['peer']}: {lo['reason']}")
    _emit(args, doc, "\n".join(lines) + "\n")
    return 0 if names and all(r is not None for r in results.get("kwire", [None])) else 1


def _add_peer(peer: str, args, workdir: str, specs: list[dict]) -> str | None:
    """Append the spec of ``peer`` (tansu, kwire@REV) to ``specs``; else say why not."""
    if peer == "tansu":
        from .tansu import TansuNotFound, locate

        try:
            binary = locate(args.tansu, allow_fetch=not args.no_fetch)
        except TansuNotFound as e:
            return str(e)
        specs.append({"name": "tansu", "kind": "tansu", "external": None, "binary": binary})
        return None
    from .revision import RevisionError, build_helpers, materialize

    try:
        root, commit = materialize(peer.split("@", 1)[1], workdir)
    except RevisionError as e:
        return str(e)
    spec = {"name": peer, "kind": "kwire", "external": None, "root": root, "commit": commit}
    specs.append(spec)  # from here on _cleanup removes the tree
    origin = brokers.kwire_origin(root)
    if not origin.startswith(root + os.sep):
        spec["failed"] = True
        return f"it would import kwire from {origin or '?'}, not {root}"
    spec["helpers"] = build_helpers(root)
    return None


def _leave_out(left_out: list[dict], peer: str, why: str) -> None:
    print(f"kwire bench: peer {peer} left out: {why}; the other brokers are still measured",
          file=sys.stderr, flush=True)
    left_out.append({"peer": peer, "reason": why})


def _drop(b, started: list, specs: list[dict], left_out: list[dict], why: str) -> None:
    """A peer failed mid-run: stop it, and leave it out of the runs after this one."""
    started.remove(b)
    for s in specs:
        if s["name"] == b.name:
            s["failed"] = True
    _leave_out(left_out, b.name, f"failed: {why}")
    try:
        b.stop()
    finally:
        brokers.remove_data(b)


def _validation_cost() -> list[dict] | None:
    """Produce-time record validation per MB in this process, C walker and pure Python."""
    try:
        from .validation import measure

        return measure(repeat=3)
    except Exception as e:  # a measurement must not fail the bench
        print(f"kwire bench: validation cost not measured: {e}", file=sys.stderr)
        return None


def _cleanup(args, workdir: str, specs: list[dict]) -> None:
    """Remove revision trees written for ``kwire@<rev>`` peers, and a temporary work dir."""
    for s in specs:
        if s.get("root"):
            shutil.rmtree(s["root"], ignore_errors=True)
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)


def _progress(run_no: int, name: str, w: str, r: dict) -> None:
    figs = ", ".join(f"{k}={v:.4g}" for k, v in r.items() if isinstance(v, float))
    print(f"[run {run_no + 1}] {name} {w}: {figs}", file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.cluster < 0 or args.cluster == 1:
        print("kwire bench: --cluster N needs N >= 2", file=sys.stderr)
        return 2
    if args.runs < 1 or args.messages < 1 or args.small_messages < 1 or args.partitions < 1:
        print("kwire bench: --runs, --messages, --small-messages, --partitions must be >= 1",
              file=sys.stderr)
        return 2
    if not 0 <= args.latency_warmup < args.latency_seconds or args.latency_rate < 1:
        print("kwire bench: need 0 <= --latency-warmup < --latency-seconds and --latency-rate >= 1",
              file=sys.stderr)
        return 2
    if args.roundtrips < 1:
        print("kwire bench: --roundtrips must be >= 1", file=sys.stderr)
        return 2
    if args.nice is not None:
        try:  # inherited by every broker and client process the bench starts
            os.setpriority(os.PRIO_PROCESS, 0, args.nice)
        except OSError as e:
            print(f"kwire bench: --nice {args.nice}: {e}", file=sys.stderr)
            return 2
    return run(args)


def _version(v) -> str:
    return v[0] if isinstance(v, tuple) else str(v)
