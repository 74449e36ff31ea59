// kwire bench --scale: one 100-byte record to every partition of TOPICS topics, with the Java
// producer (kafka-clients), batching many partitions per Produce request as the Java client does;
// one producer per slice of a topic's partitions (see below).
// Usage: ScaleWrite BOOTSTRAP PREFIX TOPICS PARTITIONS [SLICE]. Prints one JSON line:
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
        p.put("buffer.memory", String.valueOf(16L << 20));  // per producer
        p.put("max.request.size", String.valueOf(8 << 20));  // ~40,000 partitions per request
        p.put("request.timeout.ms", "600000");
        p.put("delivery.timeout.ms", "1200000");
        p.put("max.block.ms", "600000");
        p.put("metadata.max.age.ms", "3600000");
        byte[] value = new byte[100];
        // One producer per SLICE partitions of a topic (default 1,000), each on its own thread:
        // the Java producer's sender walks every partition holding a batch on each wake-up (one per
        // new batch), which is quadratic in the partitions of one producer (2026-11-28, 50,000
        // partitions: 40 CPU-s of the JVM with one producer, 24 with one per 5,000).
        int slice = a.length > 4 ? Integer.parseInt(a[4]) : 1000;
        List<KafkaProducer<byte[], byte[]>> producers = new ArrayList<>();
        List<int[]> work = new ArrayList<>();  // {topic, first partition, end}
        for (int t = 0; t < topics; t++)
            for (int first = 0; first < partitions; first += slice) {
                KafkaProducer<byte[], byte[]> pr = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
                pr.partitionsFor(prefix + t);
                producers.add(pr);
                work.add(new int[] {t, first, Math.min(partitions, first + slice)});
            }
        try {
            long t0 = System.nanoTime();
            List<Thread> threads = new ArrayList<>();
            List<Future<RecordMetadata>> acks = java.util.Collections.synchronizedList(new ArrayList<>(topics * partitions));
            for (int k = 0; k < producers.size(); k++) {
                final KafkaProducer<byte[], byte[]> pr = producers.get(k);
                final int[] w = work.get(k);
                final String topic = prefix + w[0];
                Thread th = new Thread(() -> {
                    List<Future<RecordMetadata>> mine = new ArrayList<>(w[2] - w[1]);
                    for (int i = w[1]; i < w[2]; i++)
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
