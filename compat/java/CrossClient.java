import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The Java client's side of the cross-client matrix (compat/cross.py, which documents the
 * record set and the file formats; this class does the same as its worker functions).
 *
 * <pre>Compat --bootstrap HOST:PORT --cross-produce SPEC CODEC=TOPIC...
 * Compat --bootstrap HOST:PORT --cross-consume SPEC --cross-out DIR CODEC=TOPIC...</pre>
 *
 * Produce: the records in SPEC to each TOPIC with that codec, acks=all (Ops' producer
 * settings, so idempotent as the client's default). Consume: each TOPIC's two partitions
 * from the beginning with one consumer (assign, seekToBeginning, poll until the known count
 * or Ops' deadline), written to DIR/TOPIC.tsv. Each item is reported as a scenario in the
 * line protocol of compat/worker.py. Nothing is compared here: the runner does that.
 */
final class CrossClient {
    static final int PARTITIONS = 2;
    private static final HexFormat HEX = HexFormat.of();

    static boolean wants(String[] args) {
        for (String a : args) {
            if (a.equals("--cross-produce") || a.equals("--cross-consume")) {
                return true;
            }
        }
        return false;
    }

    static void main(String[] args) throws IOException {
        String bootstrap = null;
        String produceSpec = null;
        String consumeSpec = null;
        String outDir = null;
        List<String> items = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap": bootstrap = args[++i]; break;
                case "--run-id": i++; break;
                case "--cross-produce": produceSpec = args[++i]; break;
                case "--cross-consume": consumeSpec = args[++i]; break;
                case "--cross-out": outDir = args[++i]; break;
                default: items.add(args[i]);
            }
        }
        Map<String, Object> hello = new HashMap<>();
        hello.put("event", "hello");
        hello.put("client", "java");
        hello.put("version", "kafka-clients " + AppInfoParser.getVersion());
        Compat.emit(hello);
        try (Ops ops = new Ops(bootstrap)) {
            if (produceSpec != null) {
                produce(ops, readSpec(Paths.get(produceSpec)), items);
            } else {
                consume(ops, readSpec(Paths.get(consumeSpec)).size(), Paths.get(outDir), items);
            }
        }
        System.out.flush();
        System.exit(0);  // client threads must not keep the JVM alive
    }

    // -- files --------------------------------------------------------------------------
    static byte[] unhex(String s) {
        return s.equals("-") ? null : HEX.parseHex(s);
    }

    static String hex(byte[] b) {
        return b == null ? "-" : HEX.formatHex(b);
    }

    static List<Ops.Msg> readSpec(Path path) throws IOException {
        List<Ops.Msg> out = new ArrayList<>();
        for (String line : Files.readAllLines(path, StandardCharsets.US_ASCII)) {
            String[] f = line.split("\t", -1);
            List<Header> hs = new ArrayList<>();
            if (!f[4].equals("-")) {
                for (String item : f[4].split(",")) {
                    String[] nv = item.split(":", -1);
                    hs.add(Ops.h(new String(HEX.parseHex(nv[0]), StandardCharsets.UTF_8), unhex(nv[1])));
                }
            }
            out.add(new Ops.Msg(unhex(f[2]), unhex(f[3]), hs, f[1].equals("-") ? null : Long.parseLong(f[1]),
                    Integer.parseInt(f[0])));
        }
        return out;
    }

    static String line(ConsumerRecord<byte[], byte[]> r) {
        List<String> hs = new ArrayList<>();
        for (Header h : r.headers()) {
            hs.add(hex(h.key().getBytes(StandardCharsets.UTF_8)) + ":" + hex(h.value()));
        }
        return r.partition() + "\t" + r.offset() + "\t" + r.timestamp() + "\t" + hex(r.key()) + "\t"
                + hex(r.value()) + "\t" + (hs.isEmpty() ? "-" : String.join(",", hs)) + "\n";
    }

    // -- the two modes ------------------------------------------------------------------
    interface Step {
        void run(String codec, String topic) throws Exception;
    }

    /** One item: start, the step, end (FAIL with the reason when it throws). */
    static void item(String item, Step step) {
        Map<String, Object> start = new HashMap<>();
        start.put("event", "start");
        start.put("scenario", item);
        Compat.emit(start);
        long t0 = System.nanoTime();
        String status = "PASS";
        String reason = "";
        try {
            String[] ct = item.split("=", 2);
            step.run(ct[0], ct[1]);
        } catch (Throwable e) {
            status = "FAIL";
            reason = Compat.describe(e);
        }
        Map<String, Object> end = new HashMap<>();
        end.put("event", "end");
        end.put("scenario", item);
        end.put("status", status);
        end.put("reason", reason);
        end.put("seconds", Math.round((System.nanoTime() - t0) / 1e6) / 1000.0);
        end.put("notes", List.of());
        Compat.emit(end);
    }

    static void produce(Ops ops, List<Ops.Msg> msgs, List<String> items) {
        for (String it : items) {
            item(it, (codec, topic) -> {
                List<Ops.Delivery> ds = ops.produce(topic, msgs, codec, "all");
                Compat.check(ds.size() == msgs.size(),
                        ds.size() + " delivery reports for " + msgs.size() + " records");
                for (int i = 0; i < ds.size(); i++) {
                    Ops.Delivery d = ds.get(i);
                    Compat.check(d.error == null, "record #" + i + " failed: " + d.error);
                    Compat.check(d.partition == msgs.get(i).partition,
                            "record #" + i + " went to partition " + d.partition);
                }
            });
        }
    }

    static void consume(Ops ops, int count, Path dir, List<String> items) throws IOException {
        Files.createDirectories(dir);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(ops.consumerProps(null))) {
            for (String it : items) {
                item(it, (codec, topic) -> {
                    Map<Integer, Long> starts = new HashMap<>();
                    for (int p = 0; p < PARTITIONS; p++) {
                        starts.put(p, null);  // from the beginning
                    }
                    StringBuilder sb = new StringBuilder();
                    for (ConsumerRecord<byte[], byte[]> r : Ops.fetch(c, topic, starts, count)) {
                        sb.append(line(r));
                    }
                    Path part = dir.resolve(topic + ".part");
                    Files.write(part, sb.toString().getBytes(StandardCharsets.US_ASCII));
                    Files.move(part, dir.resolve(topic + ".tsv"), StandardCopyOption.ATOMIC_MOVE);
                });
            }
        }
    }

    private CrossClient() {
    }
}
