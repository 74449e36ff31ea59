"""``python -m compat``: run the client x scenario matrix and report it.

    python -m compat                          # start a kwire broker, run everything, stop it
    python -m compat --bootstrap HOST:PORT    # any Kafka-protocol broker (kwire, Kafka, ...)
    python -m compat --cluster 3              # ZooKeeper + 3 kwire brokers, topics with RF 3
    python -m compat --out DIR                # reports in DIR instead of ./compat-results/<run id>/
    python -m compat --clients java,kcat --scenarios 'spark-*,roundtrip'
    python -m compat --list                   # the scenarios and which clients run them
    python -m compat --cross-only --clients java,kcat --cross-codecs none,zstd

Every run (but --list) writes compat.md, compat.json and logs/ (the broker's
log, each worker's stderr) to ./compat-results/<run id>/ under the current
directory, or to --out DIR, and prints where.

With --cluster N compat starts ZooKeeper and N kwire brokers
(kwire/devcluster.py, as ``kwire cluster up``) instead of one broker; every
topic a scenario creates has min(3, N) replicas ($COMPAT_REPLICATION_FACTOR
for the Python clients, default.replication.factor for Java's), and the logs
of every broker and of ZooKeeper are copied to logs/ at the end.

After the scenario matrix comes the cross-client matrix (compat/cross.py):
what each client produces, with each codec, consumed by every client. It runs
by default, but not when --scenarios picks scenarios (--cross forces it,
--no-cross turns it off, --cross-only runs nothing else); it honours --clients.

Exit status: 0 when no cell of either matrix FAILed (SKIP and N/A do not fail
a run), 1 when one did or the run left topics behind, 2 when the run could not
start (bad arguments, the broker did not come up, the Java sources did not
compile).
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from compat import cross, javarun, report
from compat.matrix import CLIENTS, NA, PYTHON_DRIVEN, SCENARIOS, SKIP, Result, applicable
from compat.runner import Janitor, Job, run_job


# Where a run writes its reports when --out is not given: RESULTS_DIR/<run id>/ under the
# current directory (ignored by git, see .gitignore).
RESULTS_DIR = "compat-results"


def _pick(value: str | None, universe: list[str], what: str) -> list[str]:
    if not value:
        return list(universe)
    chosen: list[str] = []
    for pat in (p.strip() for p in value.split(",") if p.strip()):
        hits = [x for x in universe if fnmatch.fnmatchcase(x, pat)]
        if not hits:
            raise SystemExit(f"compat: no {what} matches {pat!r} (known: {', '.join(universe)})")
        chosen += [h for h in hits if h not in chosen]
    return [x for x in universe if x in chosen]


# ``name`` and ``extra`` (worker arguments before the scenarios) are for compat/cross.py's jobs.
def _python_job(client: str, scenarios: list[str], bootstrap: str, run_id: str, *,
                name: str | None = None, extra: list[str] | None = None) -> Job:
    here = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return Job(name or client, scenarios,
               lambda ss: [sys.executable, "-m", "compat.worker", "--client", client,
                           "--bootstrap", bootstrap, "--run-id", run_id, *(extra or []), *ss],
               env=env)


def _java_job(scenarios: list[str], bootstrap: str, run_id: str, jars: str | None, *,
              name: str = "java", extra: list[str] | None = None) -> Job | str:
    try:
        cp = javarun.classpath(jars)
        classes = javarun.compile_classes(cp)
    except javarun.JavaUnavailable as e:
        return str(e)
    return Job(name, scenarios,
               lambda ss: javarun.java_argv(classes, cp, bootstrap, run_id, [*(extra or []), *ss]))


def _pyspark_job(scenarios: list[str], bootstrap: str, run_id: str, work: Path) -> Job | str:
    from compat.spark import prerequisites

    jars, missing = prerequisites()
    if missing:
        return missing
    here = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return Job("pyspark", scenarios,
               lambda ss: [sys.executable, "-m", "compat.spark.pyspark_job", "--bootstrap", bootstrap,
                           "--run-id", run_id, "--jars", ",".join(jars),
                           "--work-dir", str(work / "pyspark"), *ss],
               env=env)


def _start_cluster(n: int, work: Path, overrides: dict[str, str]):
    """ZooKeeper + ``n`` brokers (kwire/devcluster.py); the DevCluster, or why it did not start."""
    from kwire.devcluster import ClusterError, DevCluster

    rf = min(3, n)
    # Every scenario creates its topics (see compat/broker.py); acks=all must wait for all
    # replicas, as on a real cluster.
    configs = {"auto.create.topics.enable": "false", **overrides}
    try:
        cluster = DevCluster(str(work / "cluster"), n, configs=configs, grace=30.0)
        cluster.start(timeout=180.0)
    except ClusterError as e:
        return str(e)
    # Topics the Python facades (and cross.py's admin, in this process) create get rf replicas;
    # Java's AdminClient leaves the factor to the brokers' default.replication.factor.
    os.environ["COMPAT_REPLICATION_FACTOR"] = str(rf)
    return cluster


def _stop_cluster(cluster, log_dir: Path) -> dict:
    """Stop it, copy its logs to ``log_dir``; the report's target fields."""
    import shutil

    codes = cluster.stop()
    logs, errors = [], 0
    for b in cluster.brokers:
        dest = log_dir / f"kwire-broker-{b.node_id}.log"
        try:
            shutil.copyfile(b.log_path, dest)
        except OSError:
            continue
        logs.append(str(dest))
        errors += sum(1 for ln in dest.read_text(errors="replace").splitlines() if " ERROR " in ln)
    if cluster.zookeeper is not None:
        try:
            shutil.copyfile(cluster.zookeeper.log_path, log_dir / "zookeeper.log")
        except OSError:
            pass
    broker_codes = {k: v for k, v in codes.items() if k.startswith("broker-")}
    bad = [v for v in broker_codes.values() if v != 0]
    return {"broker_exit_code": bad[0] if bad else 0, "broker_exit_codes": broker_codes,
            "broker_logs": logs, "broker_log": ", ".join(logs), "broker_errors": errors}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m compat", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    target_arg = ap.add_mutually_exclusive_group()
    target_arg.add_argument("--bootstrap", metavar="HOST:PORT",
                            help="broker to test; without it a kwire broker is started for the run")
    target_arg.add_argument("--cluster", type=int, metavar="N",
                            help="start ZooKeeper and N kwire brokers (topics get min(3, N) replicas)")
    ap.add_argument("--out", metavar="DIR",
                    help=f"write compat.md, compat.json and logs/ here (default: ./{RESULTS_DIR}/<run id>/)")
    ap.add_argument("--clients", help=f"comma list or globs of: {', '.join(CLIENTS)}")
    ap.add_argument("--scenarios", help="comma list or globs of scenario ids (see --list)")
    ap.add_argument("--timeout-factor", type=float, default=1.0,
                    help="multiply every scenario's time limit (default 1.0)")
    ap.add_argument("--jobs", type=int, default=1, help="clients run in parallel (default 1)")
    ap.add_argument("--workers-per-client", type=int, default=1, metavar="N",
                    help="split each client's scenarios over N workers that run at once (default 1)")
    ap.add_argument("--java-jars", metavar="DIR", help="directory with kafka-clients-4.3.0.jar")
    ap.add_argument("--broker-override", action="append", default=[], metavar="KEY=VALUE",
                    help="extra --override for the kwire broker compat starts (repeatable)")
    ap.add_argument("--run-id", help="prefix for topic and group names (default: random)")
    ap.add_argument("--list", action="store_true", help="list scenarios and exit")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--cross", dest="cross", action="store_const", const="on",
                      help="run the cross-client matrix (the default unless --scenarios is given)")
    mode.add_argument("--no-cross", dest="cross", action="store_const", const="off",
                      help="do not run the cross-client matrix")
    mode.add_argument("--cross-only", dest="cross", action="store_const", const="only",
                      help="run only the cross-client matrix")
    ap.add_argument("--cross-codecs", help=f"comma list or globs of: {', '.join(cross.CROSS_CODECS)}")
    args = ap.parse_args(argv)

    if args.list:
        for s in SCENARIOS:
            print(f"{s.id:34} {', '.join(s.clients):50} {s.title}")
        return 0
    clients = _pick(args.clients, list(CLIENTS), "client")
    scenario_ids = _pick(args.scenarios, [s.id for s in SCENARIOS], "scenario")
    cross_mode = args.cross or ("off" if args.scenarios else "on")
    if cross_mode == "only":
        scenario_ids = []
    cross_clients = [c for c in clients if c in cross.CROSS_CLIENTS] if cross_mode != "off" else []
    cross_codecs = _pick(args.cross_codecs, list(cross.CROSS_CODECS), "codec")
    run_id = args.run_id or os.urandom(3).hex()
    started_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    t0 = time.monotonic()

    out_dir = Path(args.out or Path(RESULTS_DIR) / run_id).resolve()
    work = Path(tempfile.mkdtemp(prefix=f"kwire-compat-{run_id}-"))
    log_dir = out_dir / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    print(f"compat: run {run_id}; reports and logs go to {out_dir}", file=sys.stderr)

    if args.cluster is not None and args.cluster < 1:
        ap.error("--cluster needs at least 1 broker")
    broker = None
    cluster = None
    target: dict = {}
    if args.bootstrap:
        bootstrap = args.bootstrap
        target = {"bootstrap": bootstrap, "started_by_compat": False}
    else:
        overrides = {}
        for item in args.broker_override:
            if "=" not in item:
                ap.error(f"--broker-override needs KEY=VALUE, got {item!r}")
            k, v = item.split("=", 1)
            overrides[k] = v
        if args.cluster:
            started = _start_cluster(args.cluster, work, overrides)
            if isinstance(started, str):
                print(f"compat: {started}", file=sys.stderr)
                return 2
            cluster = started
            bootstrap = cluster.bootstrap
            target = {"bootstrap": bootstrap, "started_by_compat": True, "cluster": args.cluster,
                      "replication_factor": min(3, args.cluster), "broker_overrides": overrides,
                      "zookeeper": cluster.zookeeper_connect}
            print(f"compat: ZooKeeper and {args.cluster} kwire brokers started: {bootstrap} "
                  f"(logs in {work / 'cluster'}, copied to {log_dir} at the end)", file=sys.stderr)
        else:
            from compat.broker import BrokerError, KwireBroker

            broker = KwireBroker(work / "kwire-data", log_dir / "kwire-broker.log", overrides)
            try:
                bootstrap = broker.start()
            except BrokerError as e:
                print(f"compat: {e}", file=sys.stderr)
                return 2
            target = {"bootstrap": bootstrap, "started_by_compat": True,
                      "broker_log": str(log_dir / "kwire-broker.log"), "broker_overrides": overrides}
            print(f"compat: kwire broker started on {bootstrap} (log {log_dir / 'kwire-broker.log'})",
                  file=sys.stderr)

    results: list[Result] = []
    lock = threading.Lock()

    def record(r: Result) -> None:
        with lock:
            results.append(r)
            print(f"compat: {r.status:4} {r.client:15} {r.scenario:34} {r.seconds:6.1f}s"
                  + (f"  {r.reason[:160]}" if r.reason else ""), file=sys.stderr, flush=True)

    jobs: list[Job] = []
    try:
        for client in clients:
            todo = []
            for sid in scenario_ids:
                why = applicable(client, sid)
                if why is None:
                    todo.append(sid)
                else:
                    results.append(Result(client, sid, NA, why))
            if not todo:
                continue
            if client in PYTHON_DRIVEN:
                job: Job | str = _python_job(client, todo, bootstrap, run_id)
            elif client == "java":
                job = _java_job(todo, bootstrap, run_id, args.java_jars)
            else:
                job = _pyspark_job(todo, bootstrap, run_id, work)
            if isinstance(job, str):  # a prerequisite is missing: every cell is SKIP, reason printed
                for sid in todo:
                    record(Result(client, sid, SKIP, job))
            else:
                jobs.append(job)

        janitor = Janitor(bootstrap)
        def run_client(job: Job) -> None:
            shards = job.split(max(1, args.workers_per_client))
            with ThreadPoolExecutor(max_workers=len(shards)) as shard_pool:
                list(shard_pool.map(lambda j: run_job(j, timeout_factor=args.timeout_factor, janitor=janitor,
                                                      log_dir=log_dir, on_result=record), shards))

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(run_client, jobs))
        cross_results: list[cross.CrossResult] = []
        cross_seconds = 0.0
        if cross_clients:
            def cross_job(client: str, name: str, extra: list[str], items: list[str]) -> Job | str:
                if client == "java":
                    return _java_job(items, bootstrap, run_id, args.java_jars, name=name, extra=extra)
                return _python_job(client, items, bootstrap, run_id, name=name, extra=extra)

            t1 = time.monotonic()
            cross_results = cross.run(bootstrap=bootstrap, run_id=run_id, clients=cross_clients,
                                      codecs=cross_codecs, work=work / "cross", log_dir=log_dir,
                                      janitor=janitor, timeout_factor=args.timeout_factor,
                                      make_job=cross_job)
            cross_seconds = time.monotonic() - t1
            for r in cross_results:
                if r.status != "PASS":
                    print(f"compat: {r.status:4} cross {r.producer} > {r.consumer} {r.codec}: "
                          f"{r.reason[:160]}",
                          file=sys.stderr)
        leftovers = janitor.leftovers(f"compat-{run_id}-")
    except RuntimeError as e:  # javac failed: compat's own bug
        print(f"compat: {e}", file=sys.stderr)
        return 2
    finally:
        if broker is not None:
            rc = broker.stop()
            target["broker_exit_code"] = rc
            target["broker_errors"] = len(broker.error_lines())
        if cluster is not None:
            target.update(_stop_cluster(cluster, log_dir))

    run = report.Run(run_id=run_id, target=target, clients=clients, scenarios=scenario_ids,
                     results=results, started_at=started_at, seconds=time.monotonic() - t0,
                     client_info={j.client: j.info for j in jobs}, leftovers=leftovers,
                     cross=cross_results, cross_clients=cross_clients, cross_codecs=cross_codecs,
                     cross_seconds=cross_seconds)
    print(report.terminal(run))
    md, js = report.write(run, out_dir)
    print(f"\nwrote {md} and {js} (logs in {log_dir})")
    return 1 if run.failed() else 0
