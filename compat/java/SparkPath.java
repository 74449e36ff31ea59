import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BiConsumer;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What Spark's Kafka connector (spark-sql-kafka-0-10) does on the wire, done by hand
 * with the same client calls, so that a broker's gaps show up without Spark:
 *
 * <ul>
 *   <li>driver (KafkaOffsetReaderAdmin, the default offset reader): Admin
 *       {@code listOffsets} with {@code OffsetSpec.earliest()}, {@code latest()} and
 *       {@code forTimestamp()} under both isolation levels, {@code describeTopics},
 *       {@code describeCluster};</li>
 *   <li>executors (KafkaDataConsumer): a consumer with Spark's executor settings
 *       ({@code auto.offset.reset=none}, no auto commit, a generated
 *       {@code group.id} that never joins), {@code assign()} + {@code seekToBeginning/
 *       seekToEnd + position} for the available range, then {@code seek()} +
 *       {@code poll()} over an offset range, one partition after another on the same
 *       consumer;</li>
 *   <li>sink (KafkaDataWriter): a producer with byte-array serializers and the client's
 *       defaults, i.e. idempotent with acks=all, writing keys, values and headers.</li>
 * </ul>
 */
final class SparkPath {
    static void register(BiConsumer<String, Compat.Scenario> reg) {
        reg.accept("spark-admin-offsets", SparkPath::adminOffsets);
        reg.accept("spark-consumer-read-uncommitted", (ops, ctx) -> consumer(ops, ctx, IsolationLevel.READ_UNCOMMITTED));
        reg.accept("spark-consumer-read-committed", (ops, ctx) -> consumer(ops, ctx, IsolationLevel.READ_COMMITTED));
        reg.accept("spark-idempotent-producer", SparkPath::idempotentProducer);
    }

    static void check(boolean cond, String msg) {
        Compat.check(cond, msg);
    }

    /** Three batches of four records per partition, timestamps 100 ms apart inside a batch. */
    static List<Ops.Msg> timedRecords(int partitions, long base) {
        List<Ops.Msg> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int b = 0; b < 3; b++) {
                for (int i = 0; i < 4; i++) {
                    out.add(new Ops.Msg(Ops.b("k" + p + b + i), Ops.b("v" + p + b + i),
                            List.of(Ops.h("batch", Ops.b(String.valueOf(b)))), base + 10_000L * b + 100L * i, p));
                }
            }
        }
        return out;
    }

    static Map<Integer, Long> listOffsets(Admin admin, String topic, int partitions, OffsetSpec spec,
                                          IsolationLevel iso) throws Exception {
        Map<TopicPartition, OffsetSpec> q = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            q.put(new TopicPartition(topic, p), spec);
        }
        Map<TopicPartition, ListOffsetsResultInfo> res = Ops.get(admin.listOffsets(q, new ListOffsetsOptions(iso)).all());
        Map<Integer, Long> out = new HashMap<>();
        res.forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return out;
    }

    static void adminOffsets(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(3);
        long base = System.currentTimeMillis() - 600_000;
        // One produce per batch so the records land in three batches per partition.
        List<Ops.Msg> all = timedRecords(3, base);
        for (int b = 0; b < 3; b++) {
            List<Ops.Msg> batch = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if ((i / 4) % 3 == b) {
                    batch.add(all.get(i));
                }
            }
            Scenarios.checkDeliveries(batch, ops.produce(t, batch, "none", "all"), true);
        }
        Admin admin = ops.admin();
        for (IsolationLevel iso : IsolationLevel.values()) {
            Map<Integer, Long> e = listOffsets(admin, t, 3, OffsetSpec.earliest(), iso);
            Map<Integer, Long> l = listOffsets(admin, t, 3, OffsetSpec.latest(), iso);
            check(e.equals(Map.of(0, 0L, 1, 0L, 2, 0L)), iso + ": earliest " + e);
            check(l.equals(Map.of(0, 12L, 1, 12L, 2, 12L)), iso + ": latest " + l + ", want 12 on each partition");
        }
        long[][] cases = {
            {base, 0}, {base - 5_000, 0}, {base + 200, 2}, {base + 101, 2},
            {base + 10_000, 4}, {base + 10_301, 8}, {base + 20_300, 11}, {base + 20_301, -1},
        };
        for (long[] c : cases) {
            Map<Integer, Long> got = listOffsets(admin, t, 3, OffsetSpec.forTimestamp(c[0]), IsolationLevel.READ_UNCOMMITTED);
            check(got.equals(Map.of(0, c[1], 1, c[1], 2, c[1])),
                    "forTimestamp(base+" + (c[0] - base) + "): " + got + ", want " + c[1] + " on each partition");
        }
        TopicDescription d = Ops.get(admin.describeTopics(List.of(t)).allTopicNames()).get(t);
        check(d.partitions().size() == 3, "describeTopics: " + d.partitions().size() + " partitions");
        for (TopicPartitionInfo p : d.partitions()) {
            check(p.leader() != null && p.leader().id() >= 0, "describeTopics: partition " + p.partition() + " has no leader");
            check(p.isr().contains(p.leader()), "describeTopics: leader not in ISR for partition " + p.partition());
        }
        DescribeClusterResult dc = admin.describeCluster();
        List<Node> nodes = new ArrayList<>(Ops.get(dc.nodes()));
        check(!nodes.isEmpty(), "describeCluster: no nodes");
        check(Ops.get(dc.clusterId()) != null, "describeCluster: no cluster id");
        boolean leaderKnown = false;
        for (Node n : nodes) {
            leaderKnown |= n.id() == d.partitions().get(0).leader().id();
        }
        check(leaderKnown, "describeCluster: nodes " + nodes + " do not include the partition leader");
    }

    static void consumer(Ops ops, Compat.Ctx ctx, IsolationLevel iso) throws Exception {
        String t = ctx.topic(2);
        List<Ops.Msg> all = new ArrayList<>();
        for (Ops.Msg m : Scenarios.makeMsgs(50, "spark", 2, 0, true)) {
            all.add(m);
        }
        Scenarios.checkDeliveries(all, ops.produce(t, all, "none", "all"), true);
        Properties p = ops.consumerProps("spark-kafka-source-" + UUID.randomUUID() + "-executor");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, "65536");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, iso.toString());
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            for (int part = 0; part < 2; part++) {
                TopicPartition tp = new TopicPartition(t, part);
                c.assign(List.of(tp));
                c.seekToBeginning(List.of(tp));
                long earliest = c.position(tp, Duration.ofMillis(Ops.OP_MS));
                c.seekToEnd(List.of(tp));
                long latest = c.position(tp, Duration.ofMillis(Ops.OP_MS));
                check(earliest == 0 && latest == 25, "p" + part + ": available range [" + earliest + ", " + latest + "), want [0, 25)");
                long from = part == 0 ? 7 : 0;  // a range starting inside a batch, and a whole partition
                c.seek(tp, from);
                List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
                long deadline = System.currentTimeMillis() + Ops.OP_MS;
                long next = from;
                while (next < latest && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(512))) {
                        got.add(r);
                        next = r.offset() + 1;
                    }
                }
                check(got.size() == latest - from, "p" + part + ": read " + got.size() + " records of [" + from + ", " + latest + ")");
                for (int i = 0; i < got.size(); i++) {
                    ConsumerRecord<byte[], byte[]> r = got.get(i);
                    Ops.Msg m = all.get((int) ((from + i) * 2 + part));
                    String at = "p" + part + "@" + r.offset() + ": ";
                    check(r.offset() == from + i, at + "expected offset " + (from + i));
                    check(Arrays.equals(r.key(), m.key) && Arrays.equals(r.value(), m.value), at + "key/value differ");
                    check(Ops.sameHeaders(r.headers(), m.headers), at + "headers differ");
                    check(r.timestamp() == m.timestamp, at + "timestamp " + r.timestamp() + " != " + m.timestamp);
                }
            }
        }
    }

    static void idempotentProducer(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        Properties p = ops.base();
        // Spark's sink sets only the serializers: the client's defaults make it idempotent, acks=all.
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        List<Ops.Msg> msgs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            List<Header> hs = List.of(Ops.h("row", Ops.b(String.valueOf(i))), Ops.h("src", Ops.b("spark")));
            msgs.add(new Ops.Msg(Ops.b("key-" + (i % 9)), Ops.b("value-" + i), hs, null, null));
        }
        List<Ops.Delivery> ds = ops.produce(t, msgs, p);
        Scenarios.checkDeliveries(msgs, ds, true);
        Map<Integer, Long> latest = ops.listOffsets(t, List.of(0, 1), "latest");
        check(latest.get(0) + latest.get(1) == 40, "log end offsets " + latest + " add up to " + (latest.get(0) + latest.get(1)) + ", not 40 (duplicates or losses)");
        Map<Integer, Long> starts = new HashMap<>();
        starts.put(0, null);
        starts.put(1, null);
        List<ConsumerRecord<byte[], byte[]>> recs = ops.fetch(t, starts, 40);
        check(recs.size() == 40, "fetched " + recs.size() + " of 40 records");
        Map<String, ConsumerRecord<byte[], byte[]>> byPos = new HashMap<>();
        recs.forEach(r -> byPos.put(r.partition() + ":" + r.offset(), r));
        for (int i = 0; i < msgs.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = byPos.get(ds.get(i).partition + ":" + ds.get(i).offset);
            check(r != null, "record " + i + " is not at " + ds.get(i).partition + ":" + ds.get(i).offset);
            check(Arrays.equals(r.key(), msgs.get(i).key) && Arrays.equals(r.value(), msgs.get(i).value)
                    && Ops.sameHeaders(r.headers(), msgs.get(i).headers), "record " + i + " differs");
        }
    }

    private SparkPath() {
    }
}
