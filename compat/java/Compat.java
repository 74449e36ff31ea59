import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The Java client's worker for kwire's compatibility suite (compat/runner.py).
 *
 * <pre>java -cp CLASSES:JARS Compat --bootstrap HOST:PORT --run-id ID SCENARIO...</pre>
 *
 * With --cross-produce or --cross-consume it hands over to CrossClient instead.
 *
 * Runs each scenario with the official Kafka Java client and reports on stdout
 * in the line protocol of compat/worker.py: lines starting with "@@compat "
 * followed by one JSON object (hello, start, resource, end). Scenarios live in
 * Scenarios.java (the same checks as compat/scenarios.py) and SparkPath.java
 * (what Spark's Kafka connector does). Every topic and group a scenario makes
 * is announced first and deleted afterwards through the Admin client.
 */
public final class Compat {
    static final String PREFIX = "@@compat ";

    /** A check failed: the message is the reason shown in the matrix. */
    static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failed(String msg) {
            super(msg);
        }
    }

    static void check(boolean cond, String msg) {
        if (!cond) {
            throw new Failed(msg);
        }
    }

    /** Names, resources to clean up, notes: one per scenario run. */
    static final class Ctx {
        final String prefix;
        final String scenario;
        final List<String> topics = new ArrayList<>();
        final List<String> groups = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final Ops ops;

        Ctx(Ops ops, String runId, String scenario) {
            this.ops = ops;
            this.scenario = scenario;
            this.prefix = "compat-" + runId + "-java-" + scenario;
        }

        String name(String kind) {
            return prefix + "-" + kind + "-" + Long.toHexString(Double.doubleToLongBits(Math.random())).substring(0, 6);
        }

        String topic(int partitions, Map<String, String> configs) throws Exception {
            String t = name("t");
            resource("topic", t);
            topics.add(t);
            ops.createTopic(t, partitions, configs);
            return t;
        }

        String topic(int partitions) throws Exception {
            return topic(partitions, Map.of());
        }

        String group() {
            String g = name("g");
            resource("group", g);
            groups.add(g);
            return g;
        }

        /** Announce a resource (Scenarios also uses it for names that must never exist). */
        void resource(String kind, String name) {
            Map<String, Object> ev = new HashMap<>();
            ev.put("event", "resource");
            ev.put("scenario", scenario);
            ev.put("kind", kind);
            ev.put("name", name);
            emit(ev);
        }

        List<String> cleanup() {
            List<String> problems = new ArrayList<>();
            for (String g : groups) {
                try {
                    ops.deleteGroup(g);
                } catch (Exception e) {
                    problems.add("delete group " + g + ": " + describe(e));
                }
            }
            if (!topics.isEmpty()) {
                try {
                    ops.deleteTopics(topics);
                } catch (Exception e) {
                    problems.add("delete topics: " + describe(e));
                }
            }
            return problems;
        }
    }

    interface Scenario {
        void run(Ops ops, Ctx ctx) throws Exception;
    }

    static final Map<String, Scenario> SCENARIOS = new HashMap<>();

    static {
        Scenarios.register((BiConsumer<String, Scenario>) SCENARIOS::put);
        SparkPath.register((BiConsumer<String, Scenario>) SCENARIOS::put);
    }

    public static void main(String[] args) throws Exception {
        if (CrossClient.wants(args)) {  // the cross-client matrix (compat/cross.py)
            CrossClient.main(args);
            return;
        }
        String bootstrap = null;
        String runId = "run";
        List<String> scenarios = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap": bootstrap = args[++i]; break;
                case "--run-id": runId = args[++i]; break;
                default: scenarios.add(args[i]);
            }
        }
        if (bootstrap == null) {
            System.err.println("usage: Compat --bootstrap HOST:PORT [--run-id ID] SCENARIO...");
            System.exit(2);
        }
        Ops ops = new Ops(bootstrap);
        Map<String, Object> hello = new HashMap<>();
        hello.put("event", "hello");
        hello.put("client", "java");
        hello.put("version", "kafka-clients " + AppInfoParser.getVersion() + " (Java " + System.getProperty("java.version") + ")");
        emit(hello);
        for (String sid : scenarios) {
            Map<String, Object> start = new HashMap<>();
            start.put("event", "start");
            start.put("scenario", sid);
            emit(start);
            long t0 = System.nanoTime();
            Ctx ctx = new Ctx(ops, runId, sid);
            String status = "PASS";
            String reason = "";
            try {
                Scenario s = SCENARIOS.get(sid);
                if (s == null) {
                    throw new Failed("the Java worker has no scenario " + sid);
                }
                s.run(ops, ctx);
            } catch (Throwable e) {
                status = "FAIL";
                reason = describe(e);
            }
            List<String> problems = ctx.cleanup();
            if (!problems.isEmpty()) {
                if (status.equals("PASS")) {
                    status = "FAIL";
                    reason = "cleanup: " + String.join("; ", problems);
                } else {
                    ctx.notes.add("cleanup: " + String.join("; ", problems));
                }
            }
            Map<String, Object> end = new HashMap<>();
            end.put("event", "end");
            end.put("scenario", sid);
            end.put("status", status);
            end.put("reason", reason);
            end.put("seconds", Math.round((System.nanoTime() - t0) / 1e6) / 1000.0);
            end.put("notes", ctx.notes);
            emit(end);
        }
        ops.close();
        System.out.flush();
        // Client threads (metrics reporters, admin I/O) must not keep the JVM alive.
        System.exit(0);
    }

    /** One line for the matrix: the check's message, or the exception chain with a location. */
    static String describe(Throwable e) {
        if (e instanceof Failed) {
            return e.getMessage();
        }
        StringBuilder sb = new StringBuilder();
        Throwable t = e;
        int depth = 0;
        while (t != null && depth < 4) {
            if (depth > 0) {
                sb.append(" <- ");
            }
            sb.append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                sb.append(": ").append(t.getMessage());
            }
            if (t.getCause() == t) {
                break;
            }
            t = t.getCause();
            depth++;
        }
        for (StackTraceElement el : e.getStackTrace()) {
            String cls = el.getClassName();
            if (cls.equals("Scenarios") || cls.equals("SparkPath") || cls.equals("Ops")
                    || cls.startsWith("Scenarios$") || cls.startsWith("SparkPath$")) {
                sb.append(" (at ").append(el.getFileName()).append(':').append(el.getLineNumber()).append(')');
                break;
            }
        }
        String s = sb.toString().replaceAll("\\s+", " ");
        return s.length() > 600 ? s.substring(0, 600) : s;
    }

    static synchronized void emit(Map<String, Object> obj) {
        System.out.println(PREFIX + json(obj));
        System.out.flush();
    }

    static String json(Object o) {
        if (o == null) {
            return "null";
        }
        if (o instanceof String) {
            String s = (String) o;
            StringBuilder sb = new StringBuilder("\"");
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"': sb.append("\\\""); break;
                    case '\\': sb.append("\\\\"); break;
                    case '\n': sb.append("\\n"); break;
                    case '\r': sb.append("\\r"); break;
                    case '\t': sb.append("\\t"); break;
                    default:
                        if (c < 0x20) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                }
            }
            return sb.append('"').toString();
        }
        if (o instanceof Number || o instanceof Boolean) {
            return o.toString();
        }
        if (o instanceof Map) {
            StringBuilder sb = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(json(String.valueOf(e.getKey()))).append(": ").append(json(e.getValue()));
            }
            return sb.append('}').toString();
        }
        if (o instanceof List) {
            StringBuilder sb = new StringBuilder("[");
            boolean first = true;
            for (Object x : (List<?>) o) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(json(x));
            }
            return sb.append(']').toString();
        }
        return json(o.toString());
    }

    private Compat() {
    }
}
