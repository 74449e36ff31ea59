/*
 * The Kafka Java Admin client (kafka-clients 4.3.0) against kwire's client quotas, driven by
 * tests/integration/test_request_quotas.py (controller mutation quota, KIP-599) and
 * tests/integration/test_security_quotas.py (AlterClientQuotas / DescribeClientQuotas).
 *
 *   create-topics <bootstrap> <client-id> <retryOnQuotaViolation> <name:partitions>...
 *       One Admin.createTopics call (replication factor 1) with
 *       CreateTopicsOptions.retryOnQuotaViolation as given. Prints, per topic,
 *       {"type":"topic","name":"...","error":"<root cause class or none>"} and then
 *       {"type":"done","ms":<elapsed>}.
 *   alter-quotas <bootstrap> <props-file|-> <type=name[,type=name]> <key=value|key=>...
 *       One Admin.alterClientQuotas call for that entity ("type=" alone: the default entity
 *       of that type; "key=" removes the key). Client properties (security.protocol,
 *       sasl.*) come from the file, "-" for none. Prints {"type":"done"}.
 *   describe-quotas <bootstrap> <props-file|-> <type> [<name>]
 *       Admin.describeClientQuotas with one component (the name given: exact match, else any
 *       name of that type); prints {"type":"quota","entity":{...},"values":{...}} per entity.
 * Any other failure prints {"type":"error","error":"<root cause class>","message":"..."} and exits 1.
 */

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;

public final class KwireQuotas {
    public static void main(String[] a) {
        int rc = 0;
        try {
            switch (a[0]) {
                case "create-topics": createTopics(a); break;
                case "alter-quotas": alterQuotas(a); break;
                case "describe-quotas": describeQuotas(a); break;
                default: throw new IllegalArgumentException("unknown command " + a[0]);
            }
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

    static Properties clientProps(String bootstrap, String file) throws Exception {
        Properties p = new Properties();
        if (!file.equals("-")) {
            try (InputStream in = Files.newInputStream(Paths.get(file))) {
                p.load(in);
            }
        }
        p.put("bootstrap.servers", bootstrap);
        p.put("default.api.timeout.ms", "60000");
        return p;
    }

    static void alterQuotas(String[] a) throws Exception {
        Map<String, String> entity = new HashMap<>();
        for (String kv : a[3].split(",")) {
            String[] tn = kv.split("=", 2);
            entity.put(tn[0], tn[1].isEmpty() ? null : tn[1]);  // null: the default entity
        }
        List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
        for (int i = 4; i < a.length; i++) {
            String[] kv = a[i].split("=", 2);
            ops.add(new ClientQuotaAlteration.Op(kv[0], kv[1].isEmpty() ? null : Double.valueOf(kv[1])));
        }
        try (Admin admin = Admin.create(clientProps(a[1], a[2]))) {
            admin.alterClientQuotas(Collections.singletonList(
                new ClientQuotaAlteration(new ClientQuotaEntity(entity), ops))).all().get();
        }
        System.out.println("{\"type\":\"done\"}");
    }

    static void describeQuotas(String[] a) throws Exception {
        ClientQuotaFilterComponent c = a.length > 4 ? ClientQuotaFilterComponent.ofEntity(a[3], a[4])
            : ClientQuotaFilterComponent.ofEntityType(a[3]);
        try (Admin admin = Admin.create(clientProps(a[1], a[2]))) {
            Map<ClientQuotaEntity, Map<String, Double>> got =
                admin.describeClientQuotas(ClientQuotaFilter.contains(Collections.singletonList(c))).entities().get();
            for (Map.Entry<ClientQuotaEntity, Map<String, Double>> e : got.entrySet()) {
                System.out.println("{\"type\":\"quota\",\"entity\":" + json(new TreeMap<>(e.getKey().entries()))
                    + ",\"values\":" + json(new TreeMap<>(e.getValue())) + "}");
            }
        }
    }

    static String json(Map<String, ?> m) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, ?> e : m.entrySet()) {
            if (b.length() > 1) {
                b.append(',');
            }
            Object v = e.getValue();
            b.append('"').append(e.getKey()).append("\":")
                .append(v == null ? "null" : v instanceof Number ? v.toString() : "\"" + v + "\"");
        }
        return b.append('}').toString();
    }
}
