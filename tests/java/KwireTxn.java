// Transactions with the Kafka Java client 4.3 against kwire (tests/integration/test_transactions_java.py).
//
//   java KwireTxn scenario <bootstrap> <topic> <out-topic> <tid-prefix> <group>
//
// One JVM runs every check and prints one JSON line per result:
//   committed/aborted/open transactions across 3 partitions, then what a read_committed and a
//   read_uncommitted consumer see ({"type":"consume",...}; while a transaction is open also the
//   read_committed end offsets, the LSO, and the offset of each partition's first open record);
//   the open transaction is committed;
//   a second producer with the same transactional id fences the first ({"type":"fenced",...}: the
//   first's AddPartitionsToTxn (transactions v1) or its abort after the refused produce
//   (transactions v2) gets ProducerFencedException);
//   consume-transform-produce with sendOffsetsToTransaction ({"type":"ctp",...}).
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class KwireTxn {
    static String bootstrap;

    static KafkaProducer<String, String> producer(String tid) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("transactional.id", tid);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("linger.ms", "5");
        KafkaProducer<String, String> prod = new KafkaProducer<>(p);
        prod.initTransactions();
        return prod;
    }

    static KafkaConsumer<String, String> consumer(String group, String isolation) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("isolation.level", isolation);
        c.put("auto.offset.reset", "earliest");
        c.put("enable.auto.commit", "false");
        c.put("key.deserializer", StringDeserializer.class.getName());
        c.put("value.deserializer", StringDeserializer.class.getName());
        return new KafkaConsumer<>(c);
    }

    static List<String> consumeAll(String topic, String isolation, int expect, long quietMs) {
        List<String> values = new ArrayList<>();
        for (ConsumerRecord<String, String> r : consumeRecords(topic, isolation, expect, quietMs)) values.add(r.value());
        return values;
    }

    static List<ConsumerRecord<String, String>> consumeRecords(String topic, String isolation, int expect, long quietMs) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = consumer("read-" + UUID.randomUUID(), isolation)) {
            c.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30000;
            long quietUntil = -1;
            while (System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> rs = c.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, String> r : rs) out.add(r);
                if (rs.isEmpty() && out.size() >= expect) {
                    if (quietUntil < 0) quietUntil = System.currentTimeMillis() + quietMs;
                    if (System.currentTimeMillis() >= quietUntil) break;
                }
            }
        }
        return out;
    }

    static String json(Map<Integer, Long> byPartition) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<Integer, Long> e : new TreeMap<>(byPartition).entrySet())
            b.append(b.length() > 1 ? "," : "").append('"').append(e.getKey()).append("\":").append(e.getValue());
        return b.append("}").toString();
    }

    static String json(List<String> values) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) b.append(i > 0 ? "," : "").append('"').append(values.get(i)).append('"');
        return b.append("]").toString();
    }

    public static void main(String[] args) throws Exception {
        bootstrap = args[1];
        String topic = args[2], out = args[3], tid = args[4], group = args[5];
        try (KafkaProducer<String, String> p = producer(tid + "-a")) {
            p.beginTransaction();
            for (int i = 0; i < 30; i++) p.send(new ProducerRecord<>(topic, i % 3, null, "c" + i));
            p.commitTransaction();
            p.beginTransaction();
            for (int i = 0; i < 20; i++) p.send(new ProducerRecord<>(topic, i % 3, null, "a" + i));
            p.flush();
            p.abortTransaction();
            p.beginTransaction();
            for (int i = 0; i < 5; i++) p.send(new ProducerRecord<>(topic, i % 3, null, "o" + i));
            p.flush();  // open: a read_committed consumer must not see it, nor anything after it
            try (KafkaProducer<String, String> q = producer(tid + "-b")) {
                q.beginTransaction();
                for (int i = 0; i < 10; i++) q.send(new ProducerRecord<>(topic, i % 3, null, "d" + i));
                q.commitTransaction();
            }
            List<String> rc = consumeAll(topic, "read_committed", 30, 2000);
            List<String> ru = new ArrayList<>();
            Map<Integer, Long> openStart = new HashMap<>();  // offset of each partition's first "o" record
            for (ConsumerRecord<String, String> r : consumeRecords(topic, "read_uncommitted", 65, 1000)) {
                ru.add(r.value());
                if (r.value().startsWith("o")) openStart.merge(r.partition(), r.offset(), Math::min);
            }
            Map<Integer, Long> lso = new HashMap<>();  // endOffsets at read_committed: the LSO
            try (KafkaConsumer<String, String> c = consumer("lso-" + UUID.randomUUID(), "read_committed")) {
                List<TopicPartition> tps = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1),
                                                   new TopicPartition(topic, 2));
                c.endOffsets(tps).forEach((tp, o) -> lso.put(tp.partition(), o));
            }
            System.out.println("{\"type\":\"consume\",\"phase\":\"open\",\"read_committed\":" + json(rc)
                               + ",\"read_uncommitted\":" + json(ru) + ",\"lso\":" + json(lso)
                               + ",\"open_start\":" + json(openStart) + "}");
            p.commitTransaction();
        }
        List<String> rc = consumeAll(topic, "read_committed", 45, 1000);
        System.out.println("{\"type\":\"consume\",\"phase\":\"committed\",\"read_committed\":" + json(rc) + "}");

        // fencing: a second producer with the same transactional id
        KafkaProducer<String, String> first = producer(tid + "-f");
        first.beginTransaction();
        first.send(new ProducerRecord<>(topic, 0, null, "zombie-1")).get();
        KafkaProducer<String, String> second = producer(tid + "-f");
        second.beginTransaction();
        second.send(new ProducerRecord<>(topic, 0, null, "winner")).get();
        second.commitTransaction();
        second.close();
        String fenced = "none";
        try {
            // a partition not yet in its transaction: AddPartitionsToTxn with the old epoch
            first.send(new ProducerRecord<>(topic, 1, null, "zombie-2")).get();
            first.commitTransaction();
        } catch (ProducerFencedException e) {
            fenced = "ProducerFencedException";
        } catch (InvalidProducerEpochException e) {
            fenced = "InvalidProducerEpochException";
        } catch (java.util.concurrent.ExecutionException e) {
            fenced = e.getCause().getClass().getSimpleName();
            if (e.getCause() instanceof InvalidProducerEpochException) {
                // transactions v2: the leader's implicit add was refused (INVALID_PRODUCER_EPOCH,
                // abortable); the abort that follows is fenced by the coordinator
                try {
                    first.abortTransaction();
                    fenced = "aborted";
                } catch (ProducerFencedException f) {
                    fenced = "ProducerFencedException";
                } catch (org.apache.kafka.common.KafkaException f) {
                    fenced = "abort:" + f.getClass().getSimpleName();
                }
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            fenced = e.getClass().getSimpleName() + ":" + (e.getCause() == null ? "" : e.getCause().getClass().getSimpleName());
        }
        first.close(Duration.ofSeconds(5));
        System.out.println("{\"type\":\"fenced\",\"exception\":\"" + fenced + "\"}");

        // consume-transform-produce: topic -> out, offsets in the transaction
        int moved = 0;
        try (KafkaConsumer<String, String> c = consumer(group, "read_committed");
             KafkaProducer<String, String> p = producer(tid + "-ctp")) {
            c.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30000;
            long idleSince = System.currentTimeMillis();
            while (System.currentTimeMillis() < deadline && System.currentTimeMillis() - idleSince < 3000) {
                ConsumerRecords<String, String> rs = c.poll(Duration.ofMillis(200));
                if (rs.isEmpty()) continue;
                idleSince = System.currentTimeMillis();
                p.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (ConsumerRecord<String, String> r : rs) {
                    p.send(new ProducerRecord<>(out, r.partition(), null, "t-" + r.value()));
                    offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                p.sendOffsetsToTransaction(offsets, c.groupMetadata());
                p.commitTransaction();
                moved += rs.count();
            }
            Map<TopicPartition, OffsetAndMetadata> committed = c.committed(new HashSet<>(List.of(
                new TopicPartition(topic, 0), new TopicPartition(topic, 1), new TopicPartition(topic, 2))));
            long sum = 0;
            for (OffsetAndMetadata o : committed.values()) if (o != null) sum += o.offset();
            List<String> outs = consumeAll(out, "read_committed", moved, 1000);
            System.out.println("{\"type\":\"ctp\",\"moved\":" + moved + ",\"committed_sum\":" + sum
                               + ",\"out\":" + json(outs) + "}");
        }
    }
}
