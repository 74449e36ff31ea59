// kwire bench --scale: one 100-byte record to every partition of TOPICS topics, with the Java
// producer (kafka-clients), batching many partitions per Produce request as the Java client does.
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
        p.put("buffer.memory", String.valueOf(256L << 20));
        p.put("max.request.size", String.valueOf(8 << 20));  // ~40,000 partitions per request
        p.put("request.timeout.ms", "600000");
        p.put("delivery.timeout.ms", "1200000");
        p.put("max.block.ms", "600000");
        p.put("metadata.max.age.ms", "3600000");
        byte[] value = new byte[100];
        try (KafkaProducer<byte[], byte[]> producer =
                 new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int t = 0; t < topics; t++) producer.partitionsFor(prefix + t);
            long t0 = System.nanoTime();
            List<Future<RecordMetadata>> acks = new ArrayList<>(topics * partitions);
            for (int t = 0; t < topics; t++)
                for (int i = 0; i < partitions; i++)
                    acks.add(producer.send(new ProducerRecord<>(prefix + t, i, null, value)));
            producer.flush();
            for (Future<RecordMetadata> f : acks) f.get();
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.println("{\"seconds\": " + s + ", \"records\": " + acks.size() + "}");
        }
    }
}
