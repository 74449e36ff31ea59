/*
 * The Kafka Java client (kafka-clients 4.3.0) driven against kwire by
 * tests/integration/test_java_client.py.
 *
 * Every subcommand prints JSON lines on stdout (one object per line, byte
 * strings as base64, null as null) and exits 0; on failure it prints one
 * {"type":"error",...} line and exits 1. Clients run with their DEFAULT
 * settings except where a subcommand says otherwise: the point is to see what
 * Spark and other Java users see.
 *
 *   create-topic <bootstrap> <topic> <partitions> [config=value ...]
 *       Admin.createTopics with replication factor 1.
 *   produce <bootstrap> <topic> <compression.type> <input-file>
 *       Default producer (idempotent, acks=all). One record per input line:
 *       key TAB value TAB timestamp TAB headers, where key/value are base64
 *       or "-" for null, and headers is "-" (none) or a comma-separated list
 *       of name_b64:value_b64 ("-" value for null). Prints one "sent" line
 *       per record, in input order, with its RecordMetadata.
 *   consume <bootstrap> <topic> <read_uncommitted|read_committed> <spec>
 *       assign() + seek + poll() without a group. spec is a comma-separated
 *       list of partition=start:end; start "b" means seekToBeginning, else
 *       seek(start). Polls until position >= end on every partition (bounded
 *       by 60 s) and prints one "record" line per record, in poll order.
 *   offsets <bootstrap> <topic> <ts,ts,...>
 *       describeCluster, describeTopics and listOffsets with earliest(),
 *       latest(), maxTimestamp() and forTimestamp(ts) for every ts, as
 *       Spark's Kafka connector does on its driver.
 *   session
 *       Many commands in one JVM (one JVM start, classes loaded and compiled once): reads
 *       "<command> <bootstrap> ..." lines (a command's arguments, split on white space)
 *       from stdin, prints each one's lines and then {"type":"end"}; a failure prints its
 *       "error" line (then "end") and the session goes on.
 */

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class KwireClient {
    private static final Duration CONSUME_DEADLINE = Duration.ofSeconds(60);

    public static void main(String[] args) throws java.io.IOException {
        if (args.length == 1 && args[0].equals("session")) {
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.isBlank()) {
                    command(line.trim().split("\\s+"));
                    System.out.println(new Json().put("type", "end"));
                    System.out.flush();
                }
            }
            System.exit(0);
        }
        System.exit(command(args));
    }

    /** One command; its exit code (1: it printed an "error" line). */
    private static int command(String[] args) {
        int rc = 0;
        try {
            if (args.length < 2) {
                throw new IllegalArgumentException("usage: KwireClient <command> <bootstrap> ...");
            }
            switch (args[0]) {
                case "create-topic": createTopic(args); break;
                case "produce": produce(args); break;
                case "consume": consume(args); break;
                case "offsets": offsets(args); break;
                default: throw new IllegalArgumentException("unknown command " + args[0]);
            }
        } catch (Throwable t) {
            Throwable root = t;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            System.out.println(new Json().put("type", "error")
                    .put("exception", t.getClass().getName()).put("message", String.valueOf(t.getMessage()))
                    .put("root", root.getClass().getName() + ": " + root.getMessage()));
            t.printStackTrace();
            rc = 1;
        }
        System.out.flush();
        return rc;
    }

    // -- admin ----------------------------------------------------------------------

    private static Admin admin(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return Admin.create(p);
    }

    private static void createTopic(String[] args) throws Exception {
        String topic = args[2];
        int partitions = Integer.parseInt(args[3]);
        Map<String, String> configs = new HashMap<>();
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            configs.put(kv[0], kv[1]);
        }
        try (Admin admin = admin(args[1])) {
            NewTopic nt = new NewTopic(topic, partitions, (short) 1).configs(configs);
            var result = admin.createTopics(List.of(nt));
            result.all().get();
            System.out.println(new Json().put("type", "created").put("topic", topic)
                    .put("topic_id", result.topicId(topic).get().toString())
                    .put("partitions", result.numPartitions(topic).get()));
        }
    }

    private static void offsets(String[] args) throws Exception {
        String topic = args[2];
        List<Long> targets = new ArrayList<>();
        if (args.length > 3 && !args[3].isEmpty()) {
            for (String s : args[3].split(",")) {
                targets.add(Long.parseLong(s));
            }
        }
        try (Admin admin = admin(args[1])) {
            DescribeClusterResult cluster = admin.describeCluster();
            Json c = new Json().put("type", "cluster").put("cluster_id", cluster.clusterId().get());
            Node controller = cluster.controller().get();
            c.put("controller", controller == null ? null : (Object) controller.id());
            List<Object> nodes = new ArrayList<>();
            for (Node n : cluster.nodes().get()) {
                nodes.add(new Json().put("id", n.id()).put("host", n.host()).put("port", n.port()));
            }
            System.out.println(c.put("nodes", nodes));

            TopicDescription td = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            List<Object> parts = new ArrayList<>();
            List<TopicPartition> tps = new ArrayList<>();
            for (TopicPartitionInfo info : td.partitions()) {
                tps.add(new TopicPartition(topic, info.partition()));
                parts.add(new Json().put("partition", info.partition())
                        .put("leader", info.leader() == null ? null : (Object) info.leader().id())
                        .put("replicas", nodeIds(info.replicas())).put("isr", nodeIds(info.isr())));
            }
            System.out.println(new Json().put("type", "topic").put("name", td.name())
                    .put("internal", td.isInternal()).put("topic_id", td.topicId().toString())
                    .put("partitions", parts));

            Map<String, OffsetSpec> specs = new LinkedHashMap<>();
            specs.put("earliest", OffsetSpec.earliest());
            specs.put("latest", OffsetSpec.latest());
            specs.put("max_timestamp", OffsetSpec.maxTimestamp());
            for (long ts : targets) {
                specs.put("timestamp:" + ts, OffsetSpec.forTimestamp(ts));
            }
            for (Map.Entry<String, OffsetSpec> e : specs.entrySet()) {
                Map<TopicPartition, OffsetSpec> request = new HashMap<>();
                for (TopicPartition tp : tps) {
                    request.put(tp, e.getValue());
                }
                Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(request).all().get();
                for (TopicPartition tp : tps) {
                    ListOffsetsResultInfo info = result.get(tp);
                    System.out.println(new Json().put("type", "offset").put("spec", e.getKey())
                            .put("partition", tp.partition()).put("offset", info.offset())
                            .put("timestamp", info.timestamp())
                            .put("leader_epoch", info.leaderEpoch().isPresent() ? (Object) info.leaderEpoch().get() : null));
                }
            }
        }
    }

    private static List<Object> nodeIds(List<Node> nodes) {
        List<Object> ids = new ArrayList<>();
        for (Node n : nodes) {
            ids.add(n.id());
        }
        return ids;
    }

    // -- producer ---------------------------------------------------------------------

    private static byte[] b64(String s) {
        return "-".equals(s) ? null : Base64.getDecoder().decode(s);
    }

    private static void produce(String[] args) throws Exception {
        String topic = args[2];
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[1]);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, args[3]);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        List<String> lines = Files.readAllLines(Paths.get(args[4]), StandardCharsets.US_ASCII);
        List<Future<RecordMetadata>> futures = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (String line : lines) {
                if (line.isEmpty()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                List<Header> headers = new ArrayList<>();
                if (!"-".equals(f[3])) {
                    for (String h : f[3].split(",", -1)) {
                        String[] nv = h.split(":", 2);
                        headers.add(new RecordHeader(new String(b64(nv[0]), StandardCharsets.UTF_8), b64(nv[1])));
                    }
                }
                futures.add(producer.send(new ProducerRecord<>(topic, null, Long.parseLong(f[2]),
                        b64(f[0]), b64(f[1]), headers)));
            }
            producer.flush();
            for (int i = 0; i < futures.size(); i++) {
                RecordMetadata md = futures.get(i).get();
                System.out.println(new Json().put("type", "sent").put("index", i)
                        .put("partition", md.partition()).put("offset", md.offset())
                        .put("timestamp", md.timestamp()));
            }
        }
    }

    // -- consumer ---------------------------------------------------------------------

    private static void consume(String[] args) throws Exception {
        String topic = args[2];
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[1]);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, args[3]);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        Map<TopicPartition, Long> end = new LinkedHashMap<>();
        Map<TopicPartition, String> start = new LinkedHashMap<>();
        for (String spec : args[4].split(",")) {
            String[] pr = spec.split("=", 2);
            String[] se = pr[1].split(":", 2);
            TopicPartition tp = new TopicPartition(topic, Integer.parseInt(pr[0]));
            start.put(tp, se[0]);
            end.put(tp, Long.parseLong(se[1]));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            consumer.assign(start.keySet());
            List<TopicPartition> fromBeginning = new ArrayList<>();
            for (Map.Entry<TopicPartition, String> e : start.entrySet()) {
                if ("b".equals(e.getValue())) {
                    fromBeginning.add(e.getKey());
                } else {
                    consumer.seek(e.getKey(), Long.parseLong(e.getValue()));
                }
            }
            if (!fromBeginning.isEmpty()) {
                consumer.seekToBeginning(fromBeginning);
            }
            long deadline = System.nanoTime() + CONSUME_DEADLINE.toNanos();
            while (!caughtUp(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    Map<String, Object> positions = new LinkedHashMap<>();
                    for (TopicPartition tp : end.keySet()) {
                        positions.put(Integer.toString(tp.partition()), consumer.position(tp));
                    }
                    throw new IllegalStateException("not caught up after " + CONSUME_DEADLINE
                            + ": positions " + positions + ", wanted " + end);
                }
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    List<Object> headers = new ArrayList<>();
                    for (Header h : r.headers()) {
                        headers.add(List.of(h.key(), h.value() == null ? Json.NULL : (Object) h.value()));
                    }
                    System.out.println(new Json().put("type", "record").put("partition", r.partition())
                            .put("offset", r.offset()).put("timestamp", r.timestamp())
                            .put("timestamp_type", r.timestampType().toString())
                            .put("key", r.key()).put("value", r.value()).put("headers", headers)
                            .put("leader_epoch", r.leaderEpoch().isPresent() ? (Object) r.leaderEpoch().get() : null));
                }
            }
            for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
                System.out.println(new Json().put("type", "position").put("partition", e.getKey().partition())
                        .put("position", consumer.position(e.getKey())));
            }
        }
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), Duration.ofSeconds(30)) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    // -- JSON output --------------------------------------------------------------------

    /** A JSON object written in insertion order; byte[] values become base64 strings. */
    static final class Json {
        static final Object NULL = new Object();
        private final Map<String, Object> fields = new LinkedHashMap<>();

        Json put(String key, Object value) {
            fields.put(key, value);
            return this;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            write(sb, this);
            return sb.toString();
        }

        private static void write(StringBuilder sb, Object v) {
            if (v == null || v == NULL) {
                sb.append("null");
            } else if (v instanceof Json) {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, Object> e : ((Json) v).fields.entrySet()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    string(sb, e.getKey());
                    sb.append(':');
                    write(sb, e.getValue());
                }
                sb.append('}');
            } else if (v instanceof Collection) {
                sb.append('[');
                boolean first = true;
                for (Object o : (Collection<?>) v) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    write(sb, o);
                }
                sb.append(']');
            } else if (v instanceof Map) {
                Json j = new Json();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    j.put(String.valueOf(e.getKey()), e.getValue());
                }
                write(sb, j);
            } else if (v instanceof byte[]) {
                string(sb, Base64.getEncoder().encodeToString((byte[]) v));
            } else if (v instanceof Number || v instanceof Boolean) {
                sb.append(v);
            } else {
                string(sb, v.toString());
            }
        }

        private static void string(StringBuilder sb, String s) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                switch (ch) {
                    case '"': sb.append("\\\""); break;
                    case '\\': sb.append("\\\\"); break;
                    case '\n': sb.append("\\n"); break;
                    case '\r': sb.append("\\r"); break;
                    case '\t': sb.append("\\t"); break;
                    default:
                        if (ch < 0x20) {
                            sb.append(String.format("\\u%04x", (int) ch));
                        } else {
                            sb.append(ch);
                        }
                }
            }
            sb.append('"');
        }
    }

    private KwireClient() {
    }
}
