/*
 * Authorization checks of the group APIs with the Kafka Java client (kafka-clients 4.3.0),
 * driven by tests/integration/test_security_authz_more.py. Client properties (security.protocol,
 * sasl.mechanism, sasl.jaas.config) come from a file. Output: JSON lines on stdout.
 *
 *   consume <props-file> <group> <topic,topic,...|re:REGEX> <n> <timeout-ms>
 *       A KafkaConsumer with group.protocol=consumer (KIP-848: ConsumerGroupHeartbeat)
 *       subscribed to the topics (or, with "re:", to a broker-side SubscriptionPattern),
 *       polling until n records arrived or the timeout passed. Prints each new
 *       {"type":"assignment","topics":[...]} and {"type":"done","consumed":m,"topics":[...]}
 *       (the topics records came from); an exception from poll prints the error line.
 *   delete-offsets <props-file> <group> <topic:P,topic:P,...>
 *       Admin.deleteConsumerGroupOffsets; prints {"type":"deleted","results":{"topic-P":"ok"|"<class>"}}
 *       or, when the whole call fails, the error line.
 *   describe <props-file> <group>
 *       Admin.describeConsumerGroups; prints {"type":"group","state":..,"members":k,"topics":[...]}.
 * Any failure prints {"type":"error","error":"<root cause class>","message":"..."} and exits 1.
 */

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DeleteConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

public final class KwireAuthz {
    public static void main(String[] a) {
        int rc = 0;
        try {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(Paths.get(a[1]))) {
                p.load(in);
            }
            switch (a[0]) {
                case "consume": consume(p, a[2], a[3], Integer.parseInt(a[4]), Long.parseLong(a[5])); break;
                case "delete-offsets": deleteOffsets(p, a[2], a[3]); break;
                case "describe": describe(p, a[2]); break;
                default: throw new IllegalArgumentException("unknown command " + a[0]);
            }
        } catch (Throwable t) {
            error(t);
            rc = 1;
        }
        System.out.flush();
        System.exit(rc);
    }

    static String rootClass(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.getClass().getSimpleName();
    }

    static void error(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        System.out.println("{\"type\":\"error\",\"error\":\"" + c.getClass().getSimpleName()
            + "\",\"message\":\"" + String.valueOf(c.getMessage()).replace("\"", "'") + "\"}");
    }

    static String jsonList(Set<String> items) {
        List<String> quoted = new ArrayList<>();
        for (String s : items) {
            quoted.add("\"" + s + "\"");
        }
        return "[" + String.join(",", quoted) + "]";
    }

    static void consume(Properties base, String group, String what, int n, long timeoutMs) {
        Properties cp = (Properties) base.clone();
        cp.put("key.deserializer", StringDeserializer.class.getName());
        cp.put("value.deserializer", StringDeserializer.class.getName());
        cp.put("group.id", group);
        cp.put("group.protocol", "consumer");
        cp.put("auto.offset.reset", "earliest");
        int got = 0;
        Set<String> from = new TreeSet<>();
        Set<String> lastAssignment = new TreeSet<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cp)) {
            if (what.startsWith("re:")) {
                consumer.subscribe(new SubscriptionPattern(what.substring(3)));
            } else {
                consumer.subscribe(Arrays.asList(what.split(",")));
            }
            long deadline = System.currentTimeMillis() + timeoutMs;
            while (got < n && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> recs = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, String> r : recs) {
                    from.add(r.topic());
                    got++;
                }
                Set<String> topics = new TreeSet<>();
                for (TopicPartition tp : consumer.assignment()) {
                    topics.add(tp.topic());
                }
                if (!topics.equals(lastAssignment)) {
                    lastAssignment = topics;
                    System.out.println("{\"type\":\"assignment\",\"topics\":" + jsonList(topics) + "}");
                    System.out.flush();
                }
            }
        }
        System.out.println("{\"type\":\"done\",\"consumed\":" + got + ",\"topics\":" + jsonList(from) + "}");
    }

    static void deleteOffsets(Properties p, String group, String partitions) throws Exception {
        Set<TopicPartition> tps = new HashSet<>();
        for (String s : partitions.split(",")) {
            int i = s.lastIndexOf(':');
            tps.add(new TopicPartition(s.substring(0, i), Integer.parseInt(s.substring(i + 1))));
        }
        try (Admin admin = Admin.create(p)) {
            DeleteConsumerGroupOffsetsResult res = admin.deleteConsumerGroupOffsets(group, tps);
            Map<String, String> out = new TreeMap<>();
            for (TopicPartition tp : tps) {
                try {
                    res.partitionResult(tp).get();
                    out.put(tp.toString(), "ok");
                } catch (Exception e) {
                    out.put(tp.toString(), rootClass(e));
                }
            }
            List<String> fields = new ArrayList<>();
            for (Map.Entry<String, String> e : out.entrySet()) {
                fields.add("\"" + e.getKey() + "\":\"" + e.getValue() + "\"");
            }
            System.out.println("{\"type\":\"deleted\",\"results\":{" + String.join(",", fields) + "}}");
        }
    }

    static void describe(Properties p, String group) throws Exception {
        try (Admin admin = Admin.create(p)) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(Arrays.asList(group))
                .describedGroups().get(group).get();
            Set<String> topics = new TreeSet<>();
            for (MemberDescription m : d.members()) {
                for (TopicPartition tp : m.assignment().topicPartitions()) {
                    topics.add(tp.topic());
                }
            }
            System.out.println("{\"type\":\"group\",\"state\":\"" + d.groupState() + "\",\"members\":"
                + d.members().size() + ",\"topics\":" + jsonList(topics) + "}");
        }
    }
}
