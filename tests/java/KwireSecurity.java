/*
 * The Kafka Java client (kafka-clients 4.3.0) over kwire's security features, driven by
 * tests/integration/test_security_java.py. Client properties (security.protocol,
 * sasl.mechanism, sasl.jaas.config, ssl.truststore.*) come from a file.
 *
 *   roundtrip <bootstrap> <props-file> <topic> <n> <pause-ms>
 *       Produce n records ("v-<i>"), pausing pause-ms halfway (longer than the broker's
 *       connections.max.reauth.ms: the client re-authenticates, KIP-368), then consume
 *       them in group "g-<topic>". Prints {"type":"done","produced":n,"consumed":m}.
 *   add-user <bootstrap> <props-file> <user> <password>
 *       Admin.alterUserScramCredentials (SCRAM-SHA-256 and -512, 4096 iterations), then
 *       describeUserScramCredentials; prints {"type":"user","mechanisms":k}.
 *   acls <bootstrap> <props-file>
 *       Admin.describeAcls(ANY); prints {"type":"acls","count":k} or the error's class.
 * Any failure prints {"type":"error","error":"<root cause class>","message":"..."} and exits 1.
 */

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class KwireSecurity {
    public static void main(String[] a) {
        int rc = 0;
        try {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(Paths.get(a[2]))) {
                p.load(in);
            }
            p.put("bootstrap.servers", a[1]);
            switch (a[0]) {
                case "roundtrip": roundtrip(p, a[3], Integer.parseInt(a[4]), Long.parseLong(a[5])); break;
                case "add-user": addUser(p, a[3], a[4]); break;
                case "acls": acls(p); break;
                default: throw new IllegalArgumentException("unknown command " + a[0]);
            }
        } catch (Throwable t) {
            Throwable c = t;
            while (c.getCause() != null) {
                c = c.getCause();
            }
            System.out.println("{\"type\":\"error\",\"error\":\"" + c.getClass().getSimpleName()
                + "\",\"message\":\"" + String.valueOf(c.getMessage()).replace("\"", "'") + "\"}");
            rc = 1;
        }
        System.out.flush();
        System.exit(rc);
    }

    static void roundtrip(Properties base, String topic, int n, long pauseMs) throws Exception {
        Properties pp = (Properties) base.clone();
        pp.put("key.serializer", StringSerializer.class.getName());
        pp.put("value.serializer", StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp)) {
            for (int i = 0; i < n; i++) {
                if (i == n / 2 && pauseMs > 0) {
                    producer.flush();
                    Thread.sleep(pauseMs);
                }
                producer.send(new ProducerRecord<>(topic, "v-" + i)).get();
            }
        }
        Properties cp = (Properties) base.clone();
        cp.put("key.deserializer", StringDeserializer.class.getName());
        cp.put("value.deserializer", StringDeserializer.class.getName());
        cp.put("group.id", "g-" + topic);
        cp.put("auto.offset.reset", "earliest");
        int got = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cp)) {
            consumer.subscribe(Collections.singletonList(topic));
            long deadline = System.currentTimeMillis() + 60000;
            while (got < n && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> recs = consumer.poll(Duration.ofMillis(500));
                got += recs.count();
            }
        }
        System.out.println("{\"type\":\"done\",\"produced\":" + n + ",\"consumed\":" + got + "}");
    }

    static void addUser(Properties p, String user, String password) throws Exception {
        try (Admin admin = Admin.create(p)) {
            admin.alterUserScramCredentials(Arrays.asList(
                new UserScramCredentialUpsertion(user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), password),
                new UserScramCredentialUpsertion(user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password)
            )).all().get();
            UserScramCredentialsDescription d = admin.describeUserScramCredentials(Collections.singletonList(user))
                .description(user).get();
            System.out.println("{\"type\":\"user\",\"mechanisms\":" + d.credentialInfos().size() + "}");
        }
    }

    static void acls(Properties p) throws Exception {
        try (Admin admin = Admin.create(p)) {
            int k = admin.describeAcls(AclBindingFilter.ANY).values().get().size();
            System.out.println("{\"type\":\"acls\",\"count\":" + k + "}");
        }
    }
}
