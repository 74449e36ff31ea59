/*
 * The Kafka Java Admin client (kafka-clients 4.3.0) against kwire's controller mutation quota
 * (KIP-599), driven by tests/integration/test_request_quotas.py.
 *
 *   create-topics <bootstrap> <client-id> <retryOnQuotaViolation> <name:partitions>...
 *       One Admin.createTopics call (replication factor 1) with
 *       CreateTopicsOptions.retryOnQuotaViolation as given. Prints, per topic,
 *       {"type":"topic","name":"...","error":"<root cause class or none>"} and then
 *       {"type":"done","ms":<elapsed>}.
 * Any other failure prints {"type":"error","error":"<root cause class>","message":"..."} and exits 1.
 */

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;

public final class KwireQuotas {
    public static void main(String[] a) {
        int rc = 0;
        try {
            if (!a[0].equals("create-topics")) {
                throw new IllegalArgumentException("unknown command " + a[0]);
            }
            createTopics(a);
        } catch (Throwable t) {
            Throwable c = root(t);
            System.out.println("{\"type\":\"error\",\"error\":\"" + c.getClass().getSimpleName()
                + "\",\"message\":\"" + String.valueOf(c.getMessage()).replace("\"", "'") + "\"}");
            rc = 1;
        }
        System.out.flush();
        System.exit(rc);
    }

    static Throwable root(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }

    static void createTopics(String[] a) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", a[1]);
        p.put("client.id", a[2]);
        p.put("default.api.timeout.ms", "60000");
        boolean retry = Boolean.parseBoolean(a[3]);
        List<NewTopic> topics = new ArrayList<>();
        for (int i = 4; i < a.length; i++) {
            String[] np = a[i].split(":");
            topics.add(new NewTopic(np[0], Optional.of(Integer.parseInt(np[1])), Optional.of((short) 1)));
        }
        long t0 = System.nanoTime();
        try (Admin admin = Admin.create(p)) {
            CreateTopicsResult r = admin.createTopics(topics, new CreateTopicsOptions().retryOnQuotaViolation(retry));
            for (Map.Entry<String, KafkaFuture<Void>> e : r.values().entrySet()) {
                String error = "none";
                try {
                    e.getValue().get();
                } catch (Exception ex) {
                    error = root(ex).getClass().getSimpleName();
                }
                System.out.println("{\"type\":\"topic\",\"name\":\"" + e.getKey() + "\",\"error\":\"" + error + "\"}");
            }
        }
        System.out.println("{\"type\":\"done\",\"ms\":" + (System.nanoTime() - t0) / 1000000 + "}");
    }
}
