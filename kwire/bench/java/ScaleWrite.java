// kwire bench --scale: one 100-byte record to every partition of TOPICS topics, with the Java
// producer (kafka-clients), batching many partitions per Produce request as the Java client does;
// one producer per topic (see below).
// Usage: ScaleWrite BOOTSTRAP PREFIX TOPICS PARTITIONS. Prints one JSON line:
// {"seconds": S, "records": N} -- from the first send to the last acknowledgement, after the
// metadata of every topic was fetched.
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public class ScaleWrite {
    public static void main(String[] a) throws Exception {
        String bootstrap = a[0], prefix = a[1];
        int topics = Integer.parseInt(a[2]), partitions = Integer.parseInt(a[3]);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        p.put("enable.idempotence", "false");
        p.put("linger.ms", "100");  // every partition's record queued before the first request
        p.put("batch.size", "256");  // one small batch per partition: 50,000 fit in buffer.memory
        p.put("buffer.memory", String.valueOf(64L << 20));  // per producer
        p.put("max.request.size", String.valueOf(8 << 20));  // ~40,000 partitions per request
        p.put("request.timeout.ms", "600000");
        p.put("delivery.timeout.ms", "1200000");
        p.put("max.block.ms", "600000");
        p.put("metadata.max.age.ms", "3600000");
        byte[] value = new byte[100];
        // One producer per topic, each on its own thread: the Java producer's sender walks every
        // partition holding a batch on each wake-up (one per new batch), which is quadratic in the
        // partitions of one producer; split by topic it is quadratic in a topic's partitions only.
        List<KafkaProducer<byte[], byte[]>> producers = new ArrayList<>();
        for (int t = 0; t < topics; t++) {
            KafkaProducer<byte[], byte[]> pr = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
            pr.partitionsFor(prefix + t);
            producers.add(pr);
        }
        try {
            long t0 = System.nanoTime();
            List<Thread> threads = new ArrayList<>();
            List<Future<RecordMetadata>> acks = java.util.Collections.synchronizedList(new ArrayList<>(topics * partitions));
            for (int t = 0; t < topics; t++) {
                final KafkaProducer<byte[], byte[]> pr = producers.get(t);
                final String topic = prefix + t;
                Thread th = new Thread(() -> {
                    List<Future<RecordMetadata>> mine = new ArrayList<>(partitions);
                    for (int i = 0; i < partitions; i++)
                        mine.add(pr.send(new ProducerRecord<>(topic, i, null, value)));
                    pr.flush();
                    acks.addAll(mine);
                });
                th.start();
                threads.add(th);
            }
            for (Thread th : threads) th.join();
            for (Future<RecordMetadata> f : acks) f.get();
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.println("{\"seconds\": " + s + ", \"records\": " + acks.size() + "}");
        } finally {
            for (KafkaProducer<byte[], byte[]> pr : producers) pr.close();
        }
    }
}
