/*
 * Share groups (KIP-932) with the Kafka Java client's KafkaShareConsumer
 * (kafka-clients 4.3.0), driven against kwire by
 * tests/integration/test_share_groups.py.
 *
 * Output is JSON lines on stdout (KwireClient.Json); a failure prints one
 * {"type":"error",...} line and exits 1.
 *
 *   consume <bootstrap> <topic> <group> <policy> <stop-after> <timeout-ms> [flag ...]
 *       A KafkaShareConsumer subscribed to <topic>, polling until <stop-after>
 *       records were ACCEPTed (or, with policy "implicit", delivered) or
 *       <timeout-ms> passed. Prints {"type":"record",partition,offset,value,
 *       delivery} for each record delivered and {"type":"done","accepted":N}.
 *       Policies (explicit acknowledgement unless "implicit"):
 *         implicit        share.acknowledgement.mode=implicit: the next poll
 *                         accepts what the last one returned
 *         accept          acknowledge(record, ACCEPT)
 *         release-first   RELEASE a record on its first delivery, ACCEPT later
 *         reject-all      REJECT every record (counted as accepted for stop-after)
 *         release-all     RELEASE every record (poison: never accepted; each
 *                         delivery counts toward stop-after)
 *         renew-accept    sleep 3/4 of the lock, RENEW (KIP-1222: the next poll
 *                         returns the record again); the third time ACCEPT
 *       Flags: commit=sync|async (after each poll's acknowledgements; default:
 *       none, the next poll sends them), halt-after-first (Runtime.halt(0) right
 *       after printing the first poll's records: no acknowledgement, no close,
 *       as a kill -9), client-id=ID, max-poll=N (max.poll.records, with
 *       share.acquire.mode=record_limit so that N is a strict bound),
 *       idle-exit-ms=N (stop once records were accepted and none came for N ms).
 *       Prints {"type":"polling"} after the first poll returned (the member joined).
 *   admin <bootstrap> list                      listGroups(forShareGroups()): "group" lines
 *   admin <bootstrap> describe <group>          describeShareGroups: "describe" line
 *   admin <bootstrap> offsets <group>           listShareGroupOffsets: "offset" lines
 *   admin <bootstrap> alter <group> <topic> <P:OFFSET,...>   alterShareGroupOffsets
 *   admin <bootstrap> delete-offsets <group> <topic>         deleteShareGroupOffsets
 *   admin <bootstrap> delete <group>            deleteShareGroups
 *       An error of the operation is printed as {"type":"admin_error","class":...}
 *   admin-session <bootstrap>
 *       One Admin for many admin commands (one JVM start): reads "<command> [arg ...]"
 *       lines from stdin, prints each one's lines and then {"type":"end"}; another
 *       exception prints an "error" line (then "end") and the session goes on.
 *       (the root cause's class), not raised; success prints {"type":"ok"}.
 *   consume-session
 *       Many consumes in one JVM (one JVM start, classes loaded and compiled once): reads
 *       "consume <bootstrap> <topic> ..." lines (consume's arguments) from stdin, runs each
 *       with a new KafkaShareConsumer, closed after it, prints its lines and then
 *       {"type":"end"}; an exception prints an "error" line (then "end") and the session
 *       goes on. Not for halt-after-first, which halts the JVM.
 */

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

public final class KwireShare {
    public static void main(String[] args) {
        try {
            if (args[0].equals("consume")) {
                consume(args);
            } else if (args[0].equals("admin")) {
                admin(args);
            } else if (args[0].equals("admin-session")) {
                adminSession(args[1]);
            } else if (args[0].equals("consume-session")) {
                consumeSession();
            } else {
                throw new IllegalArgumentException("unknown command " + args[0]);
            }
        } catch (Throwable t) {
            System.out.println(new KwireClient.Json().put("type", "error")
                    .put("class", t.getClass().getName()).put("message", String.valueOf(t.getMessage())));
            System.out.flush();
            System.exit(1);
        }
        System.exit(0);
    }

    static Admin adminClient(String bootstrap) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        return Admin.create(props);
    }

    static void admin(String[] args) throws Exception {
        try (Admin admin = adminClient(args[1])) {
            adminCommand(admin, args);
        }
    }

    static void adminSession(String bootstrap) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Admin admin = adminClient(bootstrap)) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isBlank()) {
                    continue;
                }
                // the command's words where admin's would be: args[2] is the command
                String[] words = ("admin " + bootstrap + " " + line.trim()).split("\\s+");
                try {
                    adminCommand(admin, words);
                } catch (Exception e) {
                    System.out.println(new KwireClient.Json().put("type", "error")
                            .put("class", e.getClass().getName()).put("message", String.valueOf(e.getMessage())));
                }
                System.out.println(new KwireClient.Json().put("type", "end"));
                System.out.flush();
            }
        }
    }

    static void consumeSession() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) {
                continue;
            }
            String[] words = line.trim().split("\\s+");
            try {
                if (!words[0].equals("consume") || List.of(words).contains("halt-after-first")) {
                    throw new IllegalArgumentException("a consume session runs consume without halt-after-first");
                }
                consume(words);
            } catch (Exception e) {
                System.out.println(new KwireClient.Json().put("type", "error")
                        .put("class", e.getClass().getName()).put("message", String.valueOf(e.getMessage())));
            }
            System.out.println(new KwireClient.Json().put("type", "end"));
            System.out.flush();
        }
    }

    /** One admin command, {@code args} as admin's: the command at args[2], its arguments after it. */
    static void adminCommand(Admin admin, String[] args) throws Exception {
        {
            try {
                switch (args[2]) {
                    case "list":
                        for (GroupListing g : admin.listGroups(ListGroupsOptions.forShareGroups()).all().get()) {
                            System.out.println(new KwireClient.Json().put("type", "group").put("id", g.groupId())
                                    .put("state", String.valueOf(g.groupState().orElse(null)))
                                    .put("groupType", String.valueOf(g.type().orElse(null))));
                        }
                        break;
                    case "describe": {
                        ShareGroupDescription d = admin.describeShareGroups(List.of(args[3])).all().get().get(args[3]);
                        int assigned = 0;
                        for (ShareMemberDescription m : d.members()) {
                            assigned += m.assignment().topicPartitions().size();
                        }
                        System.out.println(new KwireClient.Json().put("type", "describe").put("state", d.groupState().toString())
                                .put("members", d.members().size()).put("assigned", assigned)
                                .put("groupEpoch", d.groupEpoch()).put("coordinator", d.coordinator().id()));
                        break;
                    }
                    case "offsets": {
                        Map<TopicPartition, SharePartitionOffsetInfo> offsets = admin.listShareGroupOffsets(
                                Map.of(args[3], new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(args[3]).get();
                        for (Map.Entry<TopicPartition, SharePartitionOffsetInfo> e : offsets.entrySet()) {
                            SharePartitionOffsetInfo info = e.getValue();
                            System.out.println(new KwireClient.Json().put("type", "offset").put("topic", e.getKey().topic())
                                    .put("partition", e.getKey().partition())
                                    .put("start", info == null ? -1 : info.startOffset())
                                    .put("lag", info == null ? -1 : info.lag().orElse(-1L)));
                        }
                        break;
                    }
                    case "alter": {
                        Map<TopicPartition, Long> offsets = new HashMap<>();
                        for (String po : args[5].split(",")) {
                            String[] kv = po.split(":");
                            offsets.put(new TopicPartition(args[4], Integer.parseInt(kv[0])), Long.parseLong(kv[1]));
                        }
                        admin.alterShareGroupOffsets(args[3], offsets).all().get();
                        System.out.println(new KwireClient.Json().put("type", "ok"));
                        break;
                    }
                    case "delete-offsets":
                        admin.deleteShareGroupOffsets(args[3], Set.of(args[4])).all().get();
                        System.out.println(new KwireClient.Json().put("type", "ok"));
                        break;
                    case "delete":
                        admin.deleteShareGroups(List.of(args[3])).all().get();
                        System.out.println(new KwireClient.Json().put("type", "ok"));
                        break;
                    default:
                        throw new IllegalArgumentException("unknown admin command " + args[2]);
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                System.out.println(new KwireClient.Json().put("type", "admin_error").put("class", cause.getClass().getName())
                        .put("message", String.valueOf(cause.getMessage())));
            }
        }
    }

    static void consume(String[] args) throws Exception {
        String bootstrap = args[1], topic = args[2], group = args[3], policy = args[4];
        int stopAfter = Integer.parseInt(args[5]);
        long deadline = System.currentTimeMillis() + Long.parseLong(args[6]);
        String commit = null;
        boolean haltAfterFirst = false;
        long idleExitMs = -1;
        java.util.Map<String, Integer> renewals = new java.util.HashMap<>();
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("group.id", group);
        props.put("share.acknowledgement.mode", policy.equals("implicit") ? "implicit" : "explicit");
        for (int i = 7; i < args.length; i++) {
            String f = args[i];
            if (f.startsWith("commit=")) {
                commit = f.substring(7);
            } else if (f.equals("halt-after-first")) {
                haltAfterFirst = true;
            } else if (f.startsWith("client-id=")) {
                props.put("client.id", f.substring(10));
            } else if (f.startsWith("idle-exit-ms=")) {
                idleExitMs = Long.parseLong(f.substring(13));
            } else if (f.startsWith("max-poll=")) {
                // a strict bound needs KIP-1206's record_limit: in the default batch_optimized
                // mode the broker acquires whole batches and poll returns all of them
                props.put("max.poll.records", f.substring(9));
                props.put("share.acquire.mode", "record_limit");
            } else {
                throw new IllegalArgumentException("unknown flag " + f);
            }
        }
        int accepted = 0;
        try (KafkaShareConsumer<String, String> c =
                     new KafkaShareConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of(topic));
            AtomicInteger commitErrors = new AtomicInteger();
            c.setAcknowledgementCommitCallback((offsets, e) -> {
                if (e != null) {
                    commitErrors.incrementAndGet();
                    System.out.println(new KwireClient.Json().put("type", "commit_error")
                            .put("class", e.getClass().getName()).put("message", String.valueOf(e.getMessage())));
                }
            });
            long lastRecord = System.currentTimeMillis();
            boolean announced = false;
            while (accepted < stopAfter && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
                if (!announced) {
                    System.out.println(new KwireClient.Json().put("type", "polling"));
                    announced = true;
                }
                if (!records.isEmpty()) {
                    lastRecord = System.currentTimeMillis();
                } else if (idleExitMs >= 0 && accepted > 0 && System.currentTimeMillis() - lastRecord > idleExitMs) {
                    break;
                }
                for (ConsumerRecord<String, String> r : records) {
                    int delivery = r.deliveryCount().map(Short::intValue).orElse(-1);
                    System.out.println(new KwireClient.Json().put("type", "record").put("partition", r.partition())
                            .put("offset", r.offset()).put("value", r.value()).put("delivery", delivery));
                    if (haltAfterFirst) {
                        continue;
                    }
                    switch (policy) {
                        case "implicit": accepted++; break;
                        case "accept": c.acknowledge(r, AcknowledgeType.ACCEPT); accepted++; break;
                        case "release-first":
                            if (delivery <= 1) {
                                c.acknowledge(r, AcknowledgeType.RELEASE);
                            } else {
                                c.acknowledge(r, AcknowledgeType.ACCEPT);
                                accepted++;
                            }
                            break;
                        case "reject-all": c.acknowledge(r, AcknowledgeType.REJECT); accepted++; break;
                        case "release-all": c.acknowledge(r, AcknowledgeType.RELEASE); accepted++; break;
                        case "renew-accept": {
                            // KIP-1222: a renewal goes with the next poll, which returns the record again
                            Thread.sleep(c.acquisitionLockTimeoutMs().orElse(1000) * 3 / 4);
                            String k = r.partition() + ":" + r.offset();
                            int n = renewals.merge(k, 1, Integer::sum);
                            if (n <= 2) {
                                c.acknowledge(r, AcknowledgeType.RENEW);
                            } else {
                                c.acknowledge(r, AcknowledgeType.ACCEPT);
                                accepted++;
                            }
                            break;
                        }
                        default: throw new IllegalArgumentException("unknown policy " + policy);
                    }
                }
                System.out.flush();
                if (haltAfterFirst && !records.isEmpty()) {
                    Runtime.getRuntime().halt(0);
                }
                if (!records.isEmpty() && commit != null && !policy.equals("implicit")) {
                    if (commit.equals("sync")) {
                        c.commitSync().forEach((tp, err) -> err.ifPresent(e -> System.out.println(
                                new KwireClient.Json().put("type", "commit_error").put("class", e.getClass().getName())
                                        .put("message", String.valueOf(e.getMessage())))));
                    } else {
                        c.commitAsync();
                    }
                }
            }
            if (policy.equals("implicit")) {
                c.commitSync();  // the last poll's records
            }
        }
        System.out.println(new KwireClient.Json().put("type", "done").put("accepted", accepted));
    }
}
