/*
 * Consumer groups with the Kafka Java client (kafka-clients 4.3.0), driven
 * against kwire by tests/integration/test_groups_java.py.
 *
 * Output is JSON lines on stdout, as in KwireClient.java (whose Json writer
 * this program shares); a failure prints one {"type":"error",...} line and
 * exits 1.
 *
 *   member <bootstrap> <topic> <group> <classic|consumer> <assignor> [flag ...]
 *       One subscribed KafkaConsumer with group.id, enable.auto.commit=false and
 *       auto.offset.reset=earliest, polling every 100 ms until told to stop.
 *       <assignor>: "range" or "cooperative-sticky" (classic protocol:
 *       partition.assignment.strategy), "uniform"/"range" (consumer protocol,
 *       KIP-848: group.remote.assignor) or "-" for the client's default.
 *       Flags: commit-on-revoke (commit the processed positions of revoked
 *       partitions in ConsumerRebalanceListener.onPartitionsRevoked),
 *       client-id=ID, session-ms=N, heartbeat-ms=N (classic only),
 *       instance-id=ID (group.instance.id: a static member, KIP-345; with the
 *       consumer protocol as well).
 *       Prints "record" lines, "assignment" whenever consumer.assignment()
 *       changes, "revoked"/"assigned"/"lost" from the listener, and once
 *       "first_record" with the milliseconds from subscribe() to the first
 *       record. Reads commands from stdin, one a line, and answers each with
 *       an "ack" line (or "cmd_error"):
 *         commit-sync                    commitSync() of the positions
 *         commit-async                   commitAsync(callback), polling (and
 *                                        printing records) until it completes
 *         commit-meta P:OFFSET:META,...  commitSync(Map) with metadata strings
 *         committed P,P,...              committed(partitions) with metadata
 *         positions                      position() of every assigned partition
 *         group-metadata                 groupMetadata(): member id, generation
 *                                        (the member epoch with the consumer
 *                                        protocol) and group.instance.id
 *         stop (or end of input)         close(), then exit 0. A dynamic member
 *                                        leaves the group (LeaveGroup, or the
 *                                        consumer protocol's epoch -1); a static
 *                                        one does not: the client's default
 *                                        close sends no LeaveGroup (classic),
 *                                        resp. a temporary leave, epoch -2
 *                                        (consumer), so the group keeps its
 *                                        partitions until its session expires.
 *   admin <bootstrap> list-groups
 *   admin <bootstrap> describe <group>
 *   admin <bootstrap> offsets <group>
 *       listConsumerGroupOffsets plus listOffsets(latest): committed, end, lag.
 *   admin <bootstrap> delete <group>
 *   admin <bootstrap> delete-offsets <group> <topic> <P,P,...>
 *       Errors of the operation itself are printed (class name), not raised.
 *   admin-session <bootstrap>
 *       One Admin for many of the admin commands above (one JVM start instead of
 *       one each): reads "<command> [arg ...]" lines from stdin, prints each
 *       command's lines and then {"type":"end"}; an exception prints the
 *       "error" line (then "end") and the session goes on. Ends at end of input.
 */

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.DeleteConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public final class KwireGroups {
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration COMMAND_DEADLINE = Duration.ofSeconds(30);

    public static void main(String[] args) {
        int rc = 0;
        try {
            if (args.length < 2) {
                throw new IllegalArgumentException("usage: KwireGroups <member|admin> <bootstrap> ...");
            }
            switch (args[0]) {
                case "member": new Member(args).run(); break;
                case "admin": admin(args); break;
                case "admin-session": adminSession(args[1]); break;
                default: throw new IllegalArgumentException("unknown command " + args[0]);
            }
        } catch (Throwable t) {
            Throwable root = t;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            emit(new KwireClient.Json().put("type", "error")
                    .put("exception", t.getClass().getName()).put("message", String.valueOf(t.getMessage()))
                    .put("root", root.getClass().getName() + ": " + root.getMessage()));
            t.printStackTrace();
            rc = 1;
        }
        System.out.flush();
        System.exit(rc);
    }

    /** Lines are written whole: the member's listener and main loop share stdout. */
    private static synchronized void emit(KwireClient.Json line) {
        System.out.println(line);
        System.out.flush();
    }

    private static List<Object> partitions(Collection<TopicPartition> tps) {
        Set<Integer> sorted = new TreeSet<>();
        for (TopicPartition tp : tps) {
            sorted.add(tp.partition());
        }
        return new ArrayList<>(sorted);
    }

    // -- a group member ------------------------------------------------------------------

    private static final class Member implements ConsumerRebalanceListener {
        private final String topic;
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final boolean commitOnRevoke;
        private final Map<TopicPartition, Long> processed = new HashMap<>();  // next offset to process
        private final BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        private Set<TopicPartition> shownAssignment = Set.of();
        private long subscribedAt;
        private boolean sawRecord;

        Member(String[] args) {
            String bootstrap = args[1];
            topic = args[2];
            String group = args[3];
            String protocol = args[4];
            String assignor = args[5];
            Map<String, String> flags = new HashMap<>();
            for (int i = 6; i < args.length; i++) {
                String[] kv = args[i].split("=", 2);
                flags.put(kv[0], kv.length > 1 ? kv[1] : "true");
            }
            commitOnRevoke = flags.containsKey("commit-on-revoke");
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            if (flags.containsKey("client-id")) {
                p.put(ConsumerConfig.CLIENT_ID_CONFIG, flags.get("client-id"));
            }
            if (flags.containsKey("instance-id")) {
                p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, flags.get("instance-id"));
            }
            if ("classic".equals(protocol)) {
                // Short intervals so that members notice a rebalance quickly (defaults: 45 s / 3 s).
                p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, flags.getOrDefault("session-ms", "10000"));
                p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, flags.getOrDefault("heartbeat-ms", "500"));
                if ("range".equals(assignor)) {
                    p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());
                } else if ("cooperative-sticky".equals(assignor)) {
                    p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                            CooperativeStickyAssignor.class.getName());
                } else if (!"-".equals(assignor)) {
                    throw new IllegalArgumentException("unknown classic assignor " + assignor);
                }
            } else if (!"-".equals(assignor)) {
                p.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, assignor);
            }
            consumer = new KafkaConsumer<>(p);
        }

        void run() {
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        if (!line.isBlank()) {
                            commands.add(line.strip());
                        }
                    }
                } catch (Exception e) {
                    // stdin gone: stop as if told to
                }
                commands.add("stop");
            }, "stdin");
            reader.setDaemon(true);
            reader.start();
            try {
                subscribedAt = System.nanoTime();
                consumer.subscribe(List.of(topic), this);
                emit(new KwireClient.Json().put("type", "subscribed"));
                boolean running = true;
                while (running) {
                    pollOnce();
                    String cmd;
                    while (running && (cmd = commands.poll()) != null) {
                        running = command(cmd);
                    }
                }
            } finally {
                consumer.close();
            }
            emit(new KwireClient.Json().put("type", "closed"));
        }

        private void pollOnce() {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                if (!sawRecord) {
                    sawRecord = true;
                    emit(new KwireClient.Json().put("type", "first_record")
                            .put("ms", (System.nanoTime() - subscribedAt) / 1_000_000));
                }
                processed.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                emit(new KwireClient.Json().put("type", "record").put("partition", r.partition())
                        .put("offset", r.offset())
                        .put("value", r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8)));
            }
            showAssignment();
        }

        private void showAssignment() {
            Set<TopicPartition> now = consumer.assignment();
            if (!now.equals(shownAssignment)) {
                shownAssignment = new HashSet<>(now);
                emit(new KwireClient.Json().put("type", "assignment").put("partitions", partitions(now)));
            }
        }

        // -- ConsumerRebalanceListener (called on this thread, inside poll/close) -----------

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            if (commitOnRevoke) {
                for (TopicPartition tp : revoked) {
                    Long next = processed.get(tp);
                    if (next != null) {
                        commit.put(tp, new OffsetAndMetadata(next));
                    }
                }
                if (!commit.isEmpty()) {
                    consumer.commitSync(commit);
                }
            }
            emit(new KwireClient.Json().put("type", "revoked").put("partitions", partitions(revoked))
                    .put("committed", offsets(commit)));
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            emit(new KwireClient.Json().put("type", "assigned").put("partitions", partitions(assigned)));
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lost) {
            emit(new KwireClient.Json().put("type", "lost").put("partitions", partitions(lost)));
        }

        // -- commands ----------------------------------------------------------------------

        /** Run one command; false to stop. */
        private boolean command(String line) {
            String[] words = line.split(" ", 2);
            String cmd = words[0];
            String arg = words.length > 1 ? words[1] : "";
            KwireClient.Json ack = new KwireClient.Json().put("type", "ack").put("cmd", cmd);
            try {
                switch (cmd) {
                    case "stop":
                        return false;
                    case "commit-sync":
                        consumer.commitSync();
                        break;
                    case "commit-async":
                        commitAsync(ack);
                        break;
                    case "commit-meta": {
                        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                        for (String item : arg.split(",")) {
                            String[] f = item.split(":", 3);
                            offsets.put(new TopicPartition(topic, Integer.parseInt(f[0])),
                                    new OffsetAndMetadata(Long.parseLong(f[1]), f[2]));
                        }
                        consumer.commitSync(offsets);
                        break;
                    }
                    case "positions": {
                        // the next offset to fetch of every assigned partition
                        Map<String, Object> out = new TreeMap<>();
                        for (TopicPartition tp : consumer.assignment()) {
                            out.put(Integer.toString(tp.partition()), consumer.position(tp));
                        }
                        ack.put("positions", out);
                        break;
                    }
                    case "group-metadata": {
                        ConsumerGroupMetadata g = consumer.groupMetadata();
                        ack.put("member_id", g.memberId()).put("generation_id", g.generationId())
                                .put("instance_id", g.groupInstanceId().orElse(null));
                        break;
                    }
                    case "committed": {
                        Set<TopicPartition> tps = new HashSet<>();
                        for (String s : arg.split(",")) {
                            tps.add(new TopicPartition(topic, Integer.parseInt(s)));
                        }
                        Map<String, Object> out = new TreeMap<>();
                        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : consumer.committed(tps).entrySet()) {
                            OffsetAndMetadata om = e.getValue();
                            out.put(Integer.toString(e.getKey().partition()), om == null ? KwireClient.Json.NULL
                                    : new KwireClient.Json().put("offset", om.offset()).put("metadata", om.metadata()));
                        }
                        ack.put("offsets", out);
                        break;
                    }
                    default:
                        throw new IllegalArgumentException("unknown member command " + cmd);
                }
            } catch (RuntimeException e) {
                emit(new KwireClient.Json().put("type", "cmd_error").put("cmd", cmd)
                        .put("exception", e.getClass().getName()).put("message", String.valueOf(e.getMessage())));
                return true;
            }
            emit(ack);
            return true;
        }

        private void commitAsync(KwireClient.Json ack) {
            AtomicReference<Object> done = new AtomicReference<>();
            consumer.commitAsync((offsets, error) -> done.set(error == null ? offsets(offsets) : error));
            long deadline = System.nanoTime() + COMMAND_DEADLINE.toNanos();
            while (done.get() == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("commitAsync callback not called after " + COMMAND_DEADLINE);
                }
                pollOnce();  // callbacks run inside poll; records fetched meanwhile are processed as usual
            }
            if (done.get() instanceof RuntimeException) {
                throw (RuntimeException) done.get();
            }
            if (done.get() instanceof Exception) {
                throw new IllegalStateException((Exception) done.get());
            }
            ack.put("offsets", done.get());
        }

        private static Map<String, Object> offsets(Map<TopicPartition, OffsetAndMetadata> offsets) {
            Map<String, Object> out = new TreeMap<>();
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
                out.put(Integer.toString(e.getKey().partition()), e.getValue().offset());
            }
            return out;
        }
    }

    // -- admin -----------------------------------------------------------------------------

    private static Admin adminClient(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return Admin.create(p);
    }

    private static void admin(String[] args) throws Exception {
        try (Admin admin = adminClient(args[1])) {
            adminCommand(admin, args, 2);
        }
    }

    /** The admin command at {@code args[at]}, its arguments after it. */
    private static void adminCommand(Admin admin, String[] args, int at) throws Exception {
        switch (args[at]) {
            case "list-groups": listGroups(admin); break;
            case "describe": describe(admin, args[at + 1]); break;
            case "offsets": offsetsAndLag(admin, args[at + 1]); break;
            case "delete": delete(admin, args[at + 1]); break;
            case "delete-offsets": deleteOffsets(admin, args[at + 1], args[at + 2], args[at + 3]); break;
            default: throw new IllegalArgumentException("unknown admin command " + args[at]);
        }
    }

    private static void adminSession(String bootstrap) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Admin admin = adminClient(bootstrap)) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    adminCommand(admin, line.trim().split("\\s+"), 0);
                } catch (Exception e) {
                    emit(new KwireClient.Json().put("type", "error")
                            .put("exception", e.getClass().getName()).put("message", String.valueOf(e.getMessage())));
                }
                emit(new KwireClient.Json().put("type", "end"));
            }
        }
    }

    @SuppressWarnings("removal")  // listConsumerGroups: the API this test is about (KIP-1043 adds listGroups)
    private static void listGroups(Admin admin) throws Exception {
        for (ConsumerGroupListing g : admin.listConsumerGroups().all().get()) {
            emit(new KwireClient.Json().put("type", "group").put("group_id", g.groupId())
                    .put("state", g.groupState().map(Object::toString).orElse(null))
                    .put("group_type", g.type().map(Object::toString).orElse(null))
                    .put("simple", g.isSimpleConsumerGroup()));
        }
    }

    private static void describe(Admin admin, String group) throws Exception {
        ConsumerGroupDescription d;
        try {
            d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
        } catch (ExecutionException e) {
            emit(new KwireClient.Json().put("type", "describe_error").put("group_id", group)
                    .put("error", e.getCause().getClass().getSimpleName())
                    .put("message", String.valueOf(e.getCause().getMessage())));
            return;
        }
        List<Object> members = new ArrayList<>();
        for (MemberDescription m : d.members()) {
            members.add(new KwireClient.Json().put("consumer_id", m.consumerId()).put("client_id", m.clientId())
                    .put("host", m.host()).put("instance_id", m.groupInstanceId().orElse(null))
                    .put("member_epoch", m.memberEpoch().map(x -> (Object) x).orElse(null))
                    .put("assignment", partitions(m.assignment().topicPartitions())));
        }
        emit(new KwireClient.Json().put("type", "description").put("group_id", d.groupId())
                .put("state", d.groupState().toString()).put("group_type", String.valueOf(d.type()))
                .put("assignor", d.partitionAssignor()).put("simple", d.isSimpleConsumerGroup())
                .put("coordinator", d.coordinator() == null ? null : (Object) d.coordinator().id())
                .put("members", members));
    }

    private static void offsetsAndLag(Admin admin, String group) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicPartition tp : committed.keySet()) {
            latest.put(tp, OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResultInfo> ends =
                latest.isEmpty() ? Map.of() : admin.listOffsets(latest).all().get();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
            TopicPartition tp = e.getKey();
            OffsetAndMetadata om = e.getValue();
            long end = ends.get(tp).offset();
            emit(new KwireClient.Json().put("type", "offset").put("topic", tp.topic()).put("partition", tp.partition())
                    .put("committed", om == null ? null : (Object) om.offset())
                    .put("metadata", om == null ? null : om.metadata())
                    .put("leader_epoch", om == null ? null : om.leaderEpoch().map(x -> (Object) x).orElse(null))
                    .put("end", end).put("lag", om == null ? null : (Object) (end - om.offset())));
        }
        emit(new KwireClient.Json().put("type", "offsets_done").put("count", committed.size()));
    }

    private static void delete(Admin admin, String group) throws Exception {
        KwireClient.Json out = new KwireClient.Json().put("type", "deleted").put("group_id", group);
        try {
            admin.deleteConsumerGroups(List.of(group)).all().get();
            out.put("error", null);
        } catch (ExecutionException e) {
            out.put("error", e.getCause().getClass().getSimpleName()).put("message", e.getCause().getMessage());
        }
        emit(out);
    }

    private static void deleteOffsets(Admin admin, String group, String topic, String parts) throws Exception {
        Set<TopicPartition> tps = new HashSet<>();
        for (String s : parts.split(",")) {
            tps.add(new TopicPartition(topic, Integer.parseInt(s)));
        }
        DeleteConsumerGroupOffsetsResult result = admin.deleteConsumerGroupOffsets(group, tps);
        for (TopicPartition tp : tps) {
            KwireClient.Json out = new KwireClient.Json().put("type", "offset_deleted")
                    .put("partition", tp.partition());
            try {
                result.partitionResult(tp).get();
                out.put("error", null);
            } catch (ExecutionException e) {
                out.put("error", e.getCause().getClass().getSimpleName()).put("message", e.getCause().getMessage());
            }
            emit(out);
        }
    }

    private KwireGroups() {
    }
}
