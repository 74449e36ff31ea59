import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * The Java client's operations, the same set as compat/clients/base.py: every call
 * bounded (request timeouts of 15 s, futures waited for at most 20 s, read loops
 * with a deadline).
 */
final class Ops implements AutoCloseable {
    static final int OP_MS = 15_000;
    static final long WAIT_S = 20;

    /** A record to produce; null partition leaves it to the partitioner. */
    static final class Msg {
        final byte[] key;
        final byte[] value;
        final List<Header> headers;
        final Long timestamp;
        final Integer partition;

        Msg(byte[] key, byte[] value, List<Header> headers, Long timestamp, Integer partition) {
            this.key = key;
            this.value = value;
            this.headers = headers;
            this.timestamp = timestamp;
            this.partition = partition;
        }
    }

    /** What the producer was told about one record. */
    static final class Delivery {
        final int partition;
        final long offset;
        final String error;
        final boolean tooLarge;

        Delivery(int partition, long offset, String error, boolean tooLarge) {
            this.partition = partition;
            this.offset = offset;
            this.error = error;
            this.tooLarge = tooLarge;
        }
    }

    /** An error as the client reported it: Kafka's error code (null when it has none), text, timeout. */
    static final class ErrorSeen {
        final Short code;
        final String text;
        final boolean timeout;

        ErrorSeen(Throwable e) {
            this.timeout = e instanceof TimeoutException;
            Errors err = Errors.forException(e);
            this.code = timeout || err == Errors.UNKNOWN_SERVER_ERROR ? null : err.code();
            this.text = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    final String bootstrap;
    private Admin admin;

    Ops(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    Properties base() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", "kwire-compat");
        p.put("request.timeout.ms", String.valueOf(OP_MS));
        return p;
    }

    Admin admin() {
        if (admin == null) {
            Properties p = base();
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(OP_MS + 5000));
            admin = Admin.create(p);
        }
        return admin;
    }

    static <T> T get(Future<T> f) throws Exception {
        try {
            return f.get(WAIT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    // -- topics -----------------------------------------------------------------------
    void createTopic(String topic, int partitions, Map<String, String> configs) throws Exception {
        NewTopic nt = new NewTopic(topic, Optional.of(partitions), Optional.empty()).configs(configs);
        get(admin().createTopics(List.of(nt)).all());
    }

    void deleteTopics(Collection<String> topics) throws Exception {
        get(admin().deleteTopics(topics).all());
    }

    Map<Integer, Integer> partitionLeaders(String topic) throws Exception {
        TopicDescription d = get(admin().describeTopics(List.of(topic)).allTopicNames()).get(topic);
        Map<Integer, Integer> out = new HashMap<>();
        for (TopicPartitionInfo p : d.partitions()) {
            out.put(p.partition(), p.leader() == null ? -1 : p.leader().id());
        }
        return out;
    }

    // -- produce / fetch ----------------------------------------------------------------
    Properties producerProps(String compression, String acks) {
        Properties p = base();
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        p.put(ProducerConfig.ACKS_CONFIG, acks);
        // Idempotence (the default) needs acks=all; with 0 or 1 the user must turn it off.
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, String.valueOf(acks.equals("all")));
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(1 << 20));
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(4 << 20));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(OP_MS + 5000));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(OP_MS));
        return p;
    }

    List<Delivery> produce(String topic, List<Msg> msgs, String compression, String acks) throws Exception {
        return produce(topic, msgs, producerProps(compression, acks));
    }

    List<Delivery> produce(String topic, List<Msg> msgs, Properties props) throws Exception {
        List<Delivery> out = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props)) {
            sendAndFlush(p, topic, msgs, out);
        }
        return out;
    }

    /** Sends {@code msgs}, flushes, and appends one Delivery per record to {@code out}. */
    private static void sendAndFlush(KafkaProducer<byte[], byte[]> p, String topic, List<Msg> msgs,
                                     List<Delivery> out) throws Exception {
        List<Future<RecordMetadata>> futs = new ArrayList<>();
        for (Msg m : msgs) {
            futs.add(p.send(new ProducerRecord<>(topic, m.partition, m.timestamp, m.key, m.value, m.headers)));
        }
        p.flush();
        for (Future<RecordMetadata> f : futs) {
            try {
                RecordMetadata md = f.get(WAIT_S, TimeUnit.SECONDS);
                out.add(new Delivery(md.partition(), md.hasOffset() ? md.offset() : -1, null, false));
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                out.add(new Delivery(-1, -1, c.getClass().getSimpleName() + ": " + c.getMessage(),
                        c instanceof RecordTooLargeException));
            }
        }
    }

    Properties consumerProps(String groupId) {
        Properties p = base();
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "200");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(OP_MS));
        if (groupId != null) {
            p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        return p;
    }

    /** assign() + seek to each start (an offset, or null for the beginning); read up to count records. */
    List<ConsumerRecord<byte[], byte[]>> fetch(String topic, Map<Integer, Long> starts, int count) {
        return fetch(topic, starts, count, null);
    }

    /** As fetch, with max.partition.fetch.bytes set (null: the client's default). */
    List<ConsumerRecord<byte[], byte[]>> fetch(String topic, Map<Integer, Long> starts, int count,
                                               Integer maxPartitionFetchBytes) {
        Properties props = consumerProps(null);
        if (maxPartitionFetchBytes != null) {
            props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(maxPartitionFetchBytes));
        }
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
            return fetch(c, topic, starts, count);
        }
    }

    /** One producer, enable.idempotence=true and acks=all; each batch sent, then flushed. */
    List<Delivery> produceIdempotent(String topic, List<List<Msg>> batches) throws Exception {
        Properties props = producerProps("none", "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        List<Delivery> out = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props)) {
            for (List<Msg> batch : batches) {
                sendAndFlush(p, topic, batch, out);
            }
        }
        return out;
    }

    /** One record to a topic that should not exist, max.block.ms=3000; null when it was written. */
    ErrorSeen produceToMissing(String topic, Msg m) throws Exception {
        Properties props = producerProps("none", "all");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "3000");
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props)) {
            p.send(new ProducerRecord<>(topic, m.partition, m.timestamp, m.key, m.value, m.headers)).get(WAIT_S, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return new ErrorSeen(e.getCause());
        } catch (org.apache.kafka.common.KafkaException e) {
            return new ErrorSeen(e);
        }
    }

    static List<ConsumerRecord<byte[], byte[]>> fetch(KafkaConsumer<byte[], byte[]> c, String topic,
                                                      Map<Integer, Long> starts, int count) {
        List<TopicPartition> tps = new ArrayList<>();
        for (int p : starts.keySet()) {
            tps.add(new TopicPartition(topic, p));
        }
        c.assign(tps);
        for (TopicPartition tp : tps) {
            Long start = starts.get(tp.partition());
            if (start == null) {
                c.seekToBeginning(List.of(tp));
            } else {
                c.seek(tp, start);
            }
        }
        return read(c, count);
    }

    /** Positions a consumer had (or the offsets its lookup gave) and the records it then read. */
    static final class Positioned {
        final Map<Integer, Long> positions;
        final List<ConsumerRecord<byte[], byte[]>> records;

        Positioned(Map<Integer, Long> positions, List<ConsumerRecord<byte[], byte[]>> records) {
            this.positions = positions;
            this.records = records;
        }
    }

    /** Something to do while a consumer waits (produce the records it should then read). */
    interface Action {
        void run() throws Exception;
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(KafkaConsumer<byte[], byte[]> c, int count) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        long deadline = System.currentTimeMillis() + OP_MS;
        while (out.size() < count && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * As read_from_end in compat/clients/base.py: assign, seekToEnd, position() (which resolves the
     * lazy seek before anything new exists), then {@code produce}, then read up to {@code count}.
     */
    Positioned readFromEnd(String topic, List<Integer> partitions, Action produce, int count) throws Exception {
        List<TopicPartition> tps = new ArrayList<>();
        for (int p : partitions) {
            tps.add(new TopicPartition(topic, p));
        }
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps(null))) {
            c.assign(tps);
            c.seekToEnd(tps);
            Map<Integer, Long> positions = new HashMap<>();
            for (TopicPartition tp : tps) {
                positions.put(tp.partition(), c.position(tp, Duration.ofMillis(OP_MS)));
            }
            produce.run();
            return new Positioned(positions, read(c, count));
        }
    }

    /**
     * As read_from_timestamp in compat/clients/base.py: offsetsForTimes with the consumer, assign,
     * seek to each offset found (seekToEnd where none is), read up to {@code count}. The positions
     * are the offsets found (null: none).
     */
    Positioned readFromTimestamp(String topic, List<Integer> partitions, long timestamp, int count) {
        Map<TopicPartition, Long> q = new HashMap<>();
        for (int p : partitions) {
            q.put(new TopicPartition(topic, p), timestamp);
        }
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps(null))) {
            Map<TopicPartition, OffsetAndTimestamp> found = c.offsetsForTimes(q, Duration.ofMillis(OP_MS));
            c.assign(q.keySet());
            Map<Integer, Long> positions = new HashMap<>();
            for (TopicPartition tp : q.keySet()) {
                OffsetAndTimestamp ot = found.get(tp);
                if (ot == null) {
                    c.seekToEnd(List.of(tp));
                } else {
                    c.seek(tp, ot.offset());
                }
                positions.put(tp.partition(), ot == null ? null : ot.offset());
            }
            return new Positioned(positions, read(c, count));
        }
    }

    Map<Integer, Long> listOffsets(String topic, List<Integer> partitions, Object spec) {
        List<TopicPartition> tps = new ArrayList<>();
        for (int p : partitions) {
            tps.add(new TopicPartition(topic, p));
        }
        Map<Integer, Long> out = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps(null))) {
            if ("earliest".equals(spec) || "latest".equals(spec)) {
                Map<TopicPartition, Long> res = "earliest".equals(spec)
                        ? c.beginningOffsets(tps, Duration.ofMillis(OP_MS)) : c.endOffsets(tps, Duration.ofMillis(OP_MS));
                res.forEach((tp, off) -> out.put(tp.partition(), off));
            } else {
                Map<TopicPartition, Long> q = new HashMap<>();
                for (TopicPartition tp : tps) {
                    q.put(tp, (Long) spec);
                }
                Map<TopicPartition, OffsetAndTimestamp> res = c.offsetsForTimes(q, Duration.ofMillis(OP_MS));
                res.forEach((tp, ot) -> out.put(tp.partition(), ot == null ? null : ot.offset()));
            }
        }
        return out;
    }

    // -- groups -------------------------------------------------------------------------
    List<ConsumerRecord<byte[], byte[]>> groupRead(String topic, String group, int count, String metadata) {
        Properties props = consumerProps(group);
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(count));
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
            c.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 45_000;
            while (out.size() < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (out.size() < count) {
                        out.add(r);
                    }
                }
            }
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : out) {
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                OffsetAndMetadata prev = commit.get(tp);
                if (prev == null || prev.offset() < r.offset() + 1) {
                    commit.put(tp, new OffsetAndMetadata(r.offset() + 1, metadata));
                }
            }
            if (!commit.isEmpty()) {
                c.commitSync(commit, Duration.ofMillis(OP_MS));
            }
        }
        return out;
    }

    Map<Integer, Map.Entry<Long, String>> committed(String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> res =
                get(admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        Map<Integer, Map.Entry<Long, String>> out = new HashMap<>();
        res.forEach((tp, om) -> {
            if (tp.topic().equals(topic) && om != null) {
                out.put(tp.partition(), Map.entry(om.offset(), om.metadata()));
            }
        });
        return out;
    }

    void deleteGroup(String group) throws Exception {
        get(admin().deleteConsumerGroups(List.of(group)).all());
    }

    // -- admin --------------------------------------------------------------------------
    Map<String, ConfigEntry> describeConfigs(String topic) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config cfg = get(admin().describeConfigs(List.of(r)).all()).get(r);
        Map<String, ConfigEntry> out = new HashMap<>();
        for (ConfigEntry e : cfg.entries()) {
            out.put(e.name(), e);
        }
        return out;
    }

    Map<Integer, Long> deleteRecords(String topic, Map<Integer, Long> before) throws Exception {
        Map<TopicPartition, RecordsToDelete> req = new HashMap<>();
        before.forEach((p, o) -> req.put(new TopicPartition(topic, p), RecordsToDelete.beforeOffset(o)));
        Map<Integer, Long> out = new HashMap<>();
        for (var e : admin().deleteRecords(req).lowWatermarks().entrySet()) {
            out.put(e.getKey().partition(), get(e.getValue()).lowWatermark());
        }
        return out;
    }

    void createPartitions(String topic, int total) throws Exception {
        get(admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(total))).all());
    }

    void alterTopicConfigs(String topic, Map<String, String> set, List<String> delete) throws Exception {
        List<AlterConfigOp> ops = new ArrayList<>();
        set.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        for (String k : delete) {
            ops.add(new AlterConfigOp(new ConfigEntry(k, null), AlterConfigOp.OpType.DELETE));
        }
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        get(admin().incrementalAlterConfigs(Map.of(r, ops)).all());
    }

    List<Integer> brokerIds() throws Exception {
        List<Integer> out = new ArrayList<>();
        for (Node n : get(admin().describeCluster().nodes())) {
            out.add(n.id());
        }
        return out;
    }

    String brokerConfig(int brokerId, String key) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(brokerId));
        ConfigEntry e = get(admin().describeConfigs(List.of(r)).all()).get(r).get(key);
        return e == null ? null : e.value();
    }

    /** CreateTopics that should fail: the error the client reports, null when the topic was created. */
    ErrorSeen createTopicError(String topic, int partitions, int replicationFactor) throws Exception {
        try {
            get(admin().createTopics(List.of(new NewTopic(topic, partitions, (short) replicationFactor))).all());
            return null;
        } catch (org.apache.kafka.common.KafkaException e) {
            return new ErrorSeen(e);
        }
    }

    /** Metadata for all topics (never creates one). */
    Set<String> listTopics() throws Exception {
        return get(admin().listTopics(new ListTopicsOptions().listInternal(true)).names());
    }

    /** Admin describeTopics: Metadata with allowAutoTopicCreation=false. Null when the topic is there. */
    ErrorSeen missingTopicError(String topic) throws Exception {
        try {
            get(admin().describeTopics(List.of(topic)).allTopicNames());
            return null;
        } catch (org.apache.kafka.common.KafkaException e) {
            return new ErrorSeen(e);
        }
    }

    /**
     * A group member polling in a thread of its own until close(): after each poll that returned
     * records it commits their next offsets synchronously (as compat/clients/base.py GroupMember).
     */
    final class Member implements AutoCloseable {
        final String topic;
        final String group;
        final List<ConsumerRecord<byte[], byte[]>> recs = new ArrayList<>();
        volatile Set<Integer> assigned = Set.of();
        volatile Throwable error;
        private volatile boolean stop;
        private final Thread thread;

        Member(String topic, String group) {
            this.topic = topic;
            this.group = group;
            this.thread = new Thread(this::run, "member-" + group);
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            Properties props = consumerProps(group);
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
            props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
                c.subscribe(List.of(topic));
                while (!stop) {
                    ConsumerRecords<byte[], byte[]> got = c.poll(Duration.ofMillis(200));
                    if (!got.isEmpty()) {
                        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
                        for (ConsumerRecord<byte[], byte[]> r : got) {
                            commit.merge(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1),
                                    (a, b) -> a.offset() >= b.offset() ? a : b);
                        }
                        c.commitSync(commit, Duration.ofMillis(OP_MS));
                        synchronized (recs) {
                            got.forEach(recs::add);
                        }
                    }
                    Set<Integer> now = new TreeSet<>();
                    c.assignment().forEach(tp -> now.add(tp.partition()));
                    assigned = now;
                }
            } catch (Throwable e) {
                error = e;
            }
        }

        List<ConsumerRecord<byte[], byte[]>> records() {
            synchronized (recs) {
                return new ArrayList<>(recs);
            }
        }

        @Override
        public void close() throws Exception {
            stop = true;
            thread.join(OP_MS + 5000);
            if (thread.isAlive()) {
                throw new IllegalStateException("group member of " + group + " did not close within " + (OP_MS + 5000) + " ms");
            }
            if (error instanceof Exception) {
                throw (Exception) error;
            } else if (error != null) {
                throw new RuntimeException(error);
            }
        }
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }

    // -- helpers --------------------------------------------------------------------------
    static byte[] b(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    static String s(byte[] b) {
        return b == null ? "null" : new String(b, StandardCharsets.UTF_8);
    }

    static boolean sameHeaders(Iterable<Header> a, List<Header> b) {
        List<Header> x = new ArrayList<>();
        a.forEach(x::add);
        if (x.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (!x.get(i).key().equals(b.get(i).key()) || !Arrays.equals(x.get(i).value(), b.get(i).value())) {
                return false;
            }
        }
        return true;
    }

    static Header h(String k, byte[] v) {
        return new RecordHeader(k, v);
    }
}
