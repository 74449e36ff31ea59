import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The generic scenarios with the Java client: the same records and the same checks as
 * compat/scenarios.py (keep the two in step).
 */
final class Scenarios {
    static final String[] CODECS = {"gzip", "snappy", "lz4", "zstd"};

    static void register(BiConsumer<String, Compat.Scenario> reg) {
        reg.accept("metadata", Scenarios::metadata);
        reg.accept("roundtrip", Scenarios::roundtrip);
        for (String codec : CODECS) {
            reg.accept("compression-" + codec, (ops, ctx) -> compression(ops, ctx, codec));
        }
        for (String acks : new String[] {"0", "1", "all"}) {
            reg.accept("acks-" + acks, (ops, ctx) -> acks(ops, ctx, acks));
        }
        reg.accept("offsets-earliest-latest", Scenarios::offsetsEarliestLatest);
        reg.accept("offsets-by-timestamp", Scenarios::offsetsByTimestamp);
        reg.accept("offsets-max-timestamp", Scenarios::offsetsMaxTimestamp);
        reg.accept("seek-mid-batch", Scenarios::seekMidBatch);
        reg.accept("seek-to-latest", Scenarios::seekToLatest);
        reg.accept("seek-to-timestamp", Scenarios::seekToTimestamp);
        reg.accept("group-commit-resume", Scenarios::groupCommitResume);
        reg.accept("admin-describe-configs", Scenarios::describeConfigs);
        reg.accept("admin-delete-records", Scenarios::deleteRecords);
        reg.accept("admin-create-partitions", Scenarios::createPartitions);
        reg.accept("message-too-large", Scenarios::messageTooLarge);
        reg.accept("idempotent-producer", Scenarios::idempotentProducer);
        reg.accept("large-records", Scenarios::largeRecords);
        reg.accept("group-rebalance", Scenarios::groupRebalance);
        reg.accept("admin-alter-configs", Scenarios::alterConfigs);
        reg.accept("admin-delete-topics", Scenarios::deleteTopics);
        reg.accept("error-unknown-topic", Scenarios::unknownTopic);
        reg.accept("error-invalid-replication-factor", Scenarios::invalidReplicationFactor);
    }

    static void check(boolean cond, String msg) {
        Compat.check(cond, msg);
    }

    // -- records (as make_msgs in compat/scenarios.py) -------------------------------------
    static List<Ops.Msg> makeMsgs(int n, String tag, Integer partitions, int pad, boolean variedHeaders) {
        return makeMsgs(n, tag, partitions, pad, variedHeaders, System.currentTimeMillis() - 3_600_000L);
    }

    static List<Ops.Msg> makeMsgs(int n, String tag, Integer partitions, int pad, boolean variedHeaders, long base) {
        List<Ops.Msg> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] key = i == 3 ? null : Ops.b("key-" + (i % 7));
            StringBuilder v = new StringBuilder(tag + "-" + i);
            for (int j = 0; j < pad / 8; j++) {
                v.append("-payload");
            }
            byte[] value = Ops.b(v.toString());
            List<Header> hs = new ArrayList<>();
            hs.add(Ops.h("tag", Ops.b(tag)));
            if (variedHeaders && i % 3 == 1) {
                hs.add(Ops.h("dup", Ops.b("a")));
                hs.add(Ops.h("dup", Ops.b("b")));
                hs.add(Ops.h("empty", new byte[0]));
            }
            if (variedHeaders && i % 5 == 2) {
                hs.add(Ops.h("bin\u00e9", new byte[] {0, (byte) 255, 10, 13, 9}));
            }
            if (i % 4 == 0) {
                byte[] extra = {0, 10, 13, 9, (byte) 255};
                byte[] nv = Arrays.copyOf(value, value.length + extra.length);
                System.arraycopy(extra, 0, nv, value.length, extra.length);
                value = nv;
            }
            if (i == 5) {
                value = null;
            }
            out.add(new Ops.Msg(key, value, hs, base + 7L * i, partitions == null ? null : i % partitions));
        }
        return out;
    }

    static void checkDeliveries(List<Ops.Msg> msgs, List<Ops.Delivery> ds, boolean offsets) {
        check(ds.size() == msgs.size(), ds.size() + " delivery reports for " + msgs.size() + " records");
        for (Ops.Delivery d : ds) {
            check(d.error == null, "a record failed: " + d.error);
        }
        if (!offsets) {
            return;
        }
        Map<Integer, List<Long>> per = new TreeMap<>();
        for (Ops.Delivery d : ds) {
            per.computeIfAbsent(d.partition, k -> new ArrayList<>()).add(d.offset);
        }
        per.forEach((p, offs) -> {
            for (int i = 1; i < offs.size(); i++) {
                check(offs.get(i) == offs.get(0) + i, "partition " + p + ": producer reported offsets " + offs);
            }
        });
    }

    static void checkSame(List<Ops.Msg> msgs, List<Ops.Delivery> ds, List<ConsumerRecord<byte[], byte[]>> recs) {
        check(recs.size() == msgs.size(), "fetched " + recs.size() + " records, produced " + msgs.size());
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> got = new TreeMap<>();
        List<ConsumerRecord<byte[], byte[]>> sorted = new ArrayList<>(recs);
        sorted.sort(Comparator.comparing((ConsumerRecord<byte[], byte[]> r) -> r.partition()).thenComparing(ConsumerRecord::offset));
        for (ConsumerRecord<byte[], byte[]> r : sorted) {
            got.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(r);
        }
        Map<Integer, List<Integer>> sent = new TreeMap<>();
        for (int i = 0; i < msgs.size(); i++) {
            sent.computeIfAbsent(ds.get(i).partition, k -> new ArrayList<>()).add(i);
        }
        check(got.keySet().equals(sent.keySet()), "records in partitions " + got.keySet() + ", sent to " + sent.keySet());
        for (var e : got.entrySet()) {
            int p = e.getKey();
            List<ConsumerRecord<byte[], byte[]>> rs = e.getValue();
            List<Integer> idx = sent.get(p);
            for (int j = 0; j < rs.size(); j++) {
                ConsumerRecord<byte[], byte[]> r = rs.get(j);
                Ops.Msg m = msgs.get(idx.get(j));
                Ops.Delivery d = ds.get(idx.get(j));
                String at = "p" + p + "@" + r.offset() + ": ";
                check(r.offset() == rs.get(0).offset() + j, at + "offsets not consecutive");
                if (d.offset >= 0) {
                    check(r.offset() == d.offset, at + "fetched here, producer was told " + d.offset);
                }
                check(Arrays.equals(r.key(), m.key), at + "key " + Ops.s(r.key()) + " != " + Ops.s(m.key));
                check(Arrays.equals(r.value(), m.value), at + "value " + Ops.s(r.value()) + " != " + Ops.s(m.value));
                check(Ops.sameHeaders(r.headers(), m.headers), at + "headers differ");
                check(r.timestamp() == m.timestamp, at + "timestamp " + r.timestamp() + " != " + m.timestamp);
            }
        }
    }

    static Map<Integer, Long> from(int... partitions) {
        Map<Integer, Long> m = new LinkedHashMap<>();
        for (int p : partitions) {
            m.put(p, null);
        }
        return m;
    }

    // -- scenarios -------------------------------------------------------------------------
    static void metadata(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(3);
        Map<Integer, Integer> leaders = ops.partitionLeaders(t);
        check(leaders.keySet().equals(Set.of(0, 1, 2)), "Metadata lists partitions " + leaders.keySet());
        check(leaders.values().stream().allMatch(l -> l >= 0), "partitions without a leader: " + leaders);
    }

    static void roundtrip(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        List<Ops.Msg> msgs = makeMsgs(30, "rt", 2, 0, true);
        List<Ops.Delivery> ds = ops.produce(t, msgs, "none", "all");
        checkDeliveries(msgs, ds, true);
        checkSame(msgs, ds, ops.fetch(t, from(0, 1), msgs.size()));
    }

    static void compression(Ops ops, Compat.Ctx ctx, String codec) throws Exception {
        String t = ctx.topic(1);
        List<Ops.Msg> msgs = makeMsgs(200, codec, 1, 400, false);
        List<Ops.Delivery> ds = ops.produce(t, msgs, codec, "all");
        checkDeliveries(msgs, ds, true);
        checkSame(msgs, ds, ops.fetch(t, from(0), msgs.size()));
    }

    /** As leader_answers in compat/scenarios.py: before an acks=0 produce to a new topic, wait
     *  until the partitions' leaders answer ListOffsets (an acks=0 batch sent to a broker not yet
     *  leading is refused without a response, and lost). */
    static void leaderAnswers(Ops ops, String t, List<Integer> partitions) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        Map<Integer, Long> zero = new HashMap<>();
        for (int p : partitions) zero.put(p, 0L);
        while (true) {
            Object got;
            try {
                got = ops.listOffsets(t, partitions, "latest");
            } catch (RuntimeException e) {
                got = e.toString();
            }
            if (zero.equals(got)) return;
            check(System.nanoTime() < deadline, "the leaders of " + t + " did not answer within 30s: " + got);
            Thread.sleep(100);
        }
    }

    static void acks(Ops ops, Compat.Ctx ctx, String acks) throws Exception {
        String t = ctx.topic(1);
        if (acks.equals("0")) leaderAnswers(ops, t, List.of(0));
        List<Ops.Msg> msgs = makeMsgs(20, "acks" + acks, 1, 0, true);
        List<Ops.Delivery> ds = ops.produce(t, msgs, "none", acks);
        checkDeliveries(msgs, ds, !acks.equals("0"));
        if (!acks.equals("0")) {
            for (int i = 0; i < ds.size(); i++) {
                check(ds.get(i).offset == i, "acks=" + acks + ": record " + i + " was told offset " + ds.get(i).offset);
            }
        }
        checkSame(msgs, ds, ops.fetch(t, from(0), msgs.size()));
    }

    static void offsetsEarliestLatest(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        Map<Integer, Long> zero = Map.of(0, 0L, 1, 0L);
        check(ops.listOffsets(t, List.of(0, 1), "earliest").equals(zero), "earliest of an empty topic is not 0");
        check(ops.listOffsets(t, List.of(0, 1), "latest").equals(zero), "latest of an empty topic is not 0");
        List<Ops.Msg> a = makeMsgs(5, "a", 1, 0, true);
        checkDeliveries(a, ops.produce(t, a, "none", "all"), true);
        for (String tag : new String[] {"b", "c"}) {
            List<Ops.Msg> m = new ArrayList<>();
            for (Ops.Msg x : makeMsgs(tag.equals("b") ? 3 : 5, tag, null, 0, true)) {
                m.add(new Ops.Msg(x.key, x.value, x.headers, x.timestamp, 1));
            }
            checkDeliveries(m, ops.produce(t, m, "none", "all"), true);
        }
        Map<Integer, Long> earliest = ops.listOffsets(t, List.of(0, 1), "earliest");
        Map<Integer, Long> latest = ops.listOffsets(t, List.of(0, 1), "latest");
        check(earliest.equals(zero), "earliest " + earliest + ", want {0=0, 1=0}");
        check(latest.equals(Map.of(0, 5L, 1, 8L)), "latest " + latest + ", want {0=5, 1=8}");
    }

    static void offsetsByTimestamp(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(1);
        long base = System.currentTimeMillis() - 600_000;
        for (int b = 0; b < 3; b++) {
            List<Ops.Msg> m = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                m.add(new Ops.Msg(Ops.b("k" + b + i), Ops.b("v" + b + i), List.of(), base + 10_000L * b + 100L * i, 0));
            }
            checkDeliveries(m, ops.produce(t, m, "none", "all"), true);
        }
        List<ConsumerRecord<byte[], byte[]>> recs = ops.fetch(t, from(0), 12);
        check(recs.size() == 12, "fetched " + recs.size() + " of 12 records");
        long[] ts = recs.stream().mapToLong(ConsumerRecord::timestamp).toArray();
        Map<String, Long> targets = new LinkedHashMap<>();
        targets.put("first record", ts[0]);
        targets.put("before everything", ts[0] - 1000);
        targets.put("inside batch 1", ts[2]);
        targets.put("just after a record inside batch 1", ts[1] + 1);
        targets.put("first of batch 2", ts[4]);
        targets.put("inside batch 3", ts[10]);
        targets.put("between batches 2 and 3", ts[7] + 1);
        targets.put("after the last record", ts[11] + 1);
        for (var e : targets.entrySet()) {
            Long want = null;
            for (ConsumerRecord<byte[], byte[]> r : recs) {
                if (r.timestamp() >= e.getValue()) {
                    want = r.offset();
                    break;
                }
            }
            Long got = ops.listOffsets(t, List.of(0), e.getValue()).get(0);
            check(java.util.Objects.equals(got, want),
                    "offset for timestamp " + e.getValue() + " (" + e.getKey() + "): " + got + ", want " + want);
        }
    }

    static void offsetsMaxTimestamp(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(1);
        long base = System.currentTimeMillis() - 600_000;
        // Timestamps out of order, the largest in the middle of the first batch.
        for (long[] stamps : new long[][] {{base, base + 50, base + 20}, {base + 10, base + 30}}) {
            List<Ops.Msg> m = new ArrayList<>();
            for (long ts : stamps) {
                m.add(new Ops.Msg(Ops.b("k"), Ops.b("ts+" + (ts - base)), List.of(), ts, 0));
            }
            checkDeliveries(m, ops.produce(t, m, "none", "all"), true);
        }
        org.apache.kafka.common.TopicPartition tp = new org.apache.kafka.common.TopicPartition(t, 0);
        var info = Ops.get(ops.admin().listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.maxTimestamp()))
                .partitionResult(tp));
        check(info.offset() == 1 && info.timestamp() == base + 50, "max timestamp: offset " + info.offset()
                + " timestamp base+" + (info.timestamp() - base) + ", want offset 1 timestamp base+50");
    }

    static void seekMidBatch(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(1);
        List<Ops.Msg> plain = makeMsgs(10, "plain", 1, 0, true);
        List<Ops.Msg> zipped = makeMsgs(10, "gz", 1, 64, true);
        checkDeliveries(plain, ops.produce(t, plain, "none", "all"), true);
        checkDeliveries(zipped, ops.produce(t, zipped, "gzip", "all"), true);
        List<Ops.Msg> all = new ArrayList<>(plain);
        all.addAll(zipped);
        for (long start : new long[] {6, 13}) {
            Map<Integer, Long> st = new HashMap<>();
            st.put(0, start);
            List<ConsumerRecord<byte[], byte[]>> recs = ops.fetch(t, st, (int) (20 - start));
            List<Long> offs = new ArrayList<>();
            recs.forEach(r -> offs.add(r.offset()));
            List<Long> want = new ArrayList<>();
            for (long o = start; o < 20; o++) {
                want.add(o);
            }
            check(offs.equals(want), "seek(" + start + "): fetched offsets " + offs);
            check(Arrays.equals(recs.get(0).value(), all.get((int) start).value),
                    "seek(" + start + "): first record is " + Ops.s(recs.get(0).value()));
        }
    }

    static Map<Integer, Long> firstOffsets(List<ConsumerRecord<byte[], byte[]>> recs, int... partitions) {
        Map<Integer, Long> out = new TreeMap<>();
        for (int p : partitions) {
            out.put(p, null);
        }
        for (ConsumerRecord<byte[], byte[]> r : recs) {
            out.merge(r.partition(), r.offset(), (a, b) -> a == null ? b : Math.min(a, b));
        }
        return out;
    }

    /** As seek_to_latest in compat/scenarios.py. */
    static void seekToLatest(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        List<Ops.Msg> old = makeMsgs(12, "old", 2, 0, true);
        checkDeliveries(old, ops.produce(t, old, "none", "all"), true);
        // Timestamps a minute ago, after the old ones (an hour ago).
        List<Ops.Msg> fresh = makeMsgs(8, "new", 2, 0, true, System.currentTimeMillis() - 60_000);
        List<Ops.Delivery> produced = new ArrayList<>();
        Ops.Positioned got = ops.readFromEnd(t, List.of(0, 1), () -> produced.addAll(ops.produce(t, fresh, "none", "all")),
                fresh.size());
        check(got.positions.equals(Map.of(0, 6L, 1, 6L)), "position after seekToEnd: " + got.positions + ", want {0=6, 1=6}");
        checkDeliveries(fresh, produced, true);
        List<String> told = new ArrayList<>();
        for (Ops.Delivery d : produced) {
            told.add(d.partition + ":" + d.offset);
        }
        java.util.Collections.sort(told);
        check(told.equals(List.of("0:6", "0:7", "0:8", "0:9", "1:6", "1:7", "1:8", "1:9")),
                "new records were told offsets " + told);
        Map<Integer, Long> firsts = firstOffsets(got.records, 0, 1);
        check(firsts.equals(Map.of(0, 6L, 1, 6L)) && got.records.size() == fresh.size(),
                "after seekToEnd the consumer read " + got.records.size() + " records starting at " + firsts
                        + ", want the " + fresh.size() + " new ones starting at {0=6, 1=6}");
        checkSame(fresh, produced, got.records);
    }

    /** As seek_to_timestamp in compat/scenarios.py. */
    static void seekToTimestamp(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        long base = System.currentTimeMillis() - 600_000;
        for (int b = 0; b < 3; b++) {
            List<Ops.Msg> m = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                for (int i = 0; i < 4; i++) {
                    m.add(new Ops.Msg(Ops.b("k" + p + b + i), Ops.b("v" + p + b + i), List.of(Ops.h("b", Ops.b(String.valueOf(b)))),
                            base + 10_000L * b + 100L * i + 30L * p, p));
                }
            }
            checkDeliveries(m, ops.produce(t, m, b == 1 ? "gzip" : "none", "all"), true);
        }
        List<ConsumerRecord<byte[], byte[]>> log = new ArrayList<>(ops.fetch(t, from(0, 1), 24));
        log.sort(Comparator.comparing((ConsumerRecord<byte[], byte[]> r) -> r.partition()).thenComparing(ConsumerRecord::offset));
        List<String> where = new ArrayList<>();
        log.forEach(r -> where.add(r.partition() + ":" + r.offset()));
        List<String> all = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            for (int o = 0; o < 12; o++) {
                all.add(p + ":" + o);
            }
        }
        check(where.equals(all), "fetched " + where + ", want offsets 0..11 on both partitions");
        long[][] ts = new long[2][12];
        for (ConsumerRecord<byte[], byte[]> r : log) {
            ts[r.partition()][(int) r.offset()] = r.timestamp();
            long b = r.offset() / 4;
            long i = r.offset() % 4;
            check(r.timestamp() == base + 10_000L * b + 100L * i + 30L * r.partition(),
                    "p" + r.partition() + "@" + r.offset() + ": timestamp base+" + (r.timestamp() - base));
        }
        Map<String, Long> targets = new LinkedHashMap<>();
        targets.put("before everything", ts[0][0] - 1000);
        targets.put("exactly a record inside batch 2 of partition 0", ts[0][6]);
        targets.put("just after a record inside batch 1", ts[0][1] + 1);
        targets.put("between batches 1 and 2", Math.max(ts[0][3], ts[1][3]) + 1);
        targets.put("the last record of partition 1", ts[1][11]);
        for (var e : targets.entrySet()) {
            long target = e.getValue();
            Map<Integer, Long> lookup = new TreeMap<>();
            for (int p = 0; p < 2; p++) {
                Long first = null;
                for (int o = 0; o < 12 && first == null; o++) {
                    if (ts[p][o] >= target) {
                        first = (long) o;
                    }
                }
                lookup.put(p, first);
            }
            List<String> want = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : log) {
                Long first = lookup.get(r.partition());
                if (first != null && r.offset() >= first) {
                    want.add(r.partition() + ":" + r.offset() + ":" + Ops.s(r.value()));
                }
            }
            Ops.Positioned got = ops.readFromTimestamp(t, List.of(0, 1), target, want.size());
            check(new TreeMap<>(got.positions).equals(lookup),
                    "offsetsForTimes(" + e.getKey() + ", " + target + "): " + got.positions + ", want " + lookup);
            List<String> read = new ArrayList<>();
            got.records.forEach(r -> read.add(r.partition() + ":" + r.offset() + ":" + Ops.s(r.value())));
            java.util.Collections.sort(read);
            java.util.Collections.sort(want);
            check(read.equals(want), "seek to timestamp " + target + " (" + e.getKey() + "): read " + read.size()
                    + " records starting at " + firstOffsets(got.records, 0, 1) + ", want " + want.size() + " starting at " + lookup);
        }
    }

    static void groupCommitResume(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        String g = ctx.group();
        List<Ops.Msg> msgs = makeMsgs(12, "grp", 2, 0, true);
        checkDeliveries(msgs, ops.produce(t, msgs, "none", "all"), true);
        List<ConsumerRecord<byte[], byte[]>> first = ops.groupRead(t, g, 7, "compat-first");
        check(first.size() == 7, "first member processed " + first.size() + " of 7 records");
        Map<Integer, Long> next = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : first) {
            next.merge(r.partition(), r.offset() + 1, Math::max);
        }
        Map<Integer, Map.Entry<Long, String>> committed = ops.committed(g, t);
        Map<Integer, Map.Entry<Long, String>> want = new HashMap<>();
        next.forEach((p, o) -> want.put(p, Map.entry(o, "compat-first")));
        check(committed.equals(want), "committed offsets " + committed + ", want " + want);
        List<ConsumerRecord<byte[], byte[]>> second = ops.groupRead(t, g, 5, "compat-second");
        Set<String> seen = new HashSet<>();
        List<String> all = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : first) {
            all.add(r.partition() + ":" + r.offset());
        }
        for (ConsumerRecord<byte[], byte[]> r : second) {
            all.add(r.partition() + ":" + r.offset());
        }
        seen.addAll(all);
        check(seen.size() == all.size(), "records read twice after resume: " + all);
        Set<String> every = new HashSet<>();
        for (int p = 0; p < 2; p++) {
            for (int o = 0; o < 6; o++) {
                every.add(p + ":" + o);
            }
        }
        check(seen.equals(every), "first+second member read " + all + ", want every record once");
    }

    static void describeConfigs(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(1, Map.of("retention.ms", "123456789", "max.message.bytes", "200000"));
        Map<String, ConfigEntry> cfg = ops.describeConfigs(t);
        check(cfg.size() >= 10, "only " + cfg.size() + " config entries: " + cfg.keySet());
        for (String[] kv : new String[][] {{"retention.ms", "123456789"}, {"max.message.bytes", "200000"}}) {
            ConfigEntry e = cfg.get(kv[0]);
            check(e != null, kv[0] + " missing");
            check(kv[1].equals(e.value()) && e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG,
                    kv[0] + " = " + e.value() + " from " + e.source() + ", want " + kv[1] + " from DYNAMIC_TOPIC_CONFIG");
        }
        ConfigEntry e = cfg.get("cleanup.policy");
        check(e != null && "delete".equals(e.value()), "cleanup.policy = " + e);
        check(Set.of(ConfigEntry.ConfigSource.DEFAULT_CONFIG, ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG,
                ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG).contains(e.source()),
                "cleanup.policy source " + e.source());
    }

    static void deleteRecords(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        List<Ops.Msg> msgs = makeMsgs(20, "del", 2, 0, true);
        checkDeliveries(msgs, ops.produce(t, msgs, "none", "all"), true);
        Map<Integer, Long> low = ops.deleteRecords(t, Map.of(0, 4L, 1, 10L));
        check(low.equals(Map.of(0, 4L, 1, 10L)), "low watermarks after DeleteRecords " + low);
        Map<Integer, Long> earliest = ops.listOffsets(t, List.of(0, 1), "earliest");
        check(earliest.equals(Map.of(0, 4L, 1, 10L)), "earliest after DeleteRecords " + earliest);
        List<Long> offs = new ArrayList<>();
        ops.fetch(t, from(0), 6).forEach(r -> offs.add(r.offset()));
        check(offs.equals(List.of(4L, 5L, 6L, 7L, 8L, 9L)), "fetch from earliest: " + offs);
        Map<Integer, Long> st = new HashMap<>();
        st.put(0, 1L);
        List<ConsumerRecord<byte[], byte[]>> recs = ops.fetch(t, st, 6);
        check(!recs.isEmpty() && recs.get(0).offset() == 4, "fetch from 1 (deleted): first offset "
                + (recs.isEmpty() ? "none" : String.valueOf(recs.get(0).offset())));
    }

    static void createPartitions(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(1);
        ops.createPartitions(t, 3);
        long deadline = System.currentTimeMillis() + 10_000;
        Map<Integer, Integer> leaders = ops.partitionLeaders(t);
        while (leaders.size() < 3 && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            leaders = ops.partitionLeaders(t);
        }
        check(leaders.keySet().equals(Set.of(0, 1, 2)), "after CreatePartitions: partitions " + leaders.keySet());
        List<Ops.Msg> m = List.of(new Ops.Msg(Ops.b("k"), Ops.b("in-new-partition"),
                List.of(Ops.h("h", Ops.b("1"))), System.currentTimeMillis(), 2));
        List<Ops.Delivery> ds = ops.produce(t, m, "none", "all");
        checkDeliveries(m, ds, true);
        check(ds.get(0).partition == 2, "record went to partition " + ds.get(0).partition);
        List<ConsumerRecord<byte[], byte[]>> recs = ops.fetch(t, from(2), 1);
        check(recs.size() == 1 && recs.get(0).offset() == 0 && "in-new-partition".equals(Ops.s(recs.get(0).value())),
                "partition 2 holds " + recs.size() + " records");
    }

    static void messageTooLarge(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(1, Map.of("max.message.bytes", "4096"));
        Random rnd = new Random(7);
        StringBuilder sb = new StringBuilder();
        String letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        for (int i = 0; i < 20_000; i++) {
            sb.append(letters.charAt(rnd.nextInt(letters.length())));
        }
        List<Ops.Delivery> ds = ops.produce(t, List.of(new Ops.Msg(Ops.b("big"), Ops.b(sb.toString()), List.of(), null, 0)),
                "none", "all");
        check(ds.get(0).error != null, "a 20 kB record was accepted by a topic with max.message.bytes=4096");
        check(ds.get(0).tooLarge, "error is not RecordTooLargeException (MESSAGE_TOO_LARGE): " + ds.get(0).error);
        List<Ops.Msg> small = List.of(new Ops.Msg(Ops.b("small"), Ops.b("fits"), List.of(), null, 0));
        checkDeliveries(small, ops.produce(t, small, "none", "all"), true);
        List<ConsumerRecord<byte[], byte[]>> recs = ops.fetch(t, from(0), 1);
        check(recs.size() == 1 && recs.get(0).offset() == 0 && "fits".equals(Ops.s(recs.get(0).value())),
                "topic holds " + recs.size() + " records");
    }

    /** As idempotent_producer in compat/scenarios.py; the Java client does not show its producer id. */
    static void idempotentProducer(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        List<List<Ops.Msg>> batches = new ArrayList<>();
        List<Ops.Msg> msgs = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            List<Ops.Msg> batch = makeMsgs(10, "idem" + b, 2, 0, true);
            batches.add(batch);
            msgs.addAll(batch);
        }
        List<Ops.Delivery> ds = ops.produceIdempotent(t, batches);
        checkDeliveries(msgs, ds, true);
        for (int p = 0; p < 2; p++) {
            List<Long> offs = new ArrayList<>();
            for (Ops.Delivery d : ds) {
                if (d.partition == p) {
                    offs.add(d.offset);
                }
            }
            for (int i = 0; i < offs.size(); i++) {
                check(offs.size() == 20 && offs.get(i) == i, "partition " + p + ": producer was told offsets " + offs);
            }
        }
        Map<Integer, Long> latest = ops.listOffsets(t, List.of(0, 1), "latest");
        check(latest.equals(Map.of(0, 20L, 1, 20L)), "latest offsets " + latest + ", want {0=20, 1=20}");
        checkSame(msgs, ds, ops.fetch(t, from(0, 1), msgs.size()));
    }

    /** As large_records in compat/scenarios.py: 900 KiB values, default and 64 KiB max.partition.fetch.bytes. */
    static void largeRecords(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(1);
        Random rnd = new Random(11);
        byte[] letters = Ops.b("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
        List<Ops.Msg> msgs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] value = new byte[900 * 1024];
            for (int j = 0; j < value.length; j++) {
                value[j] = letters[rnd.nextInt(letters.length)];
            }
            if (i == 1) {
                value[0] = 0;
                value[1] = (byte) 255;
                value[2] = 10;
                value[3] = 13;
            }
            byte[] blob = new byte[4096];
            for (int j = 0; j < blob.length; j++) {
                blob[j] = letters[rnd.nextInt(letters.length)];
            }
            msgs.add(new Ops.Msg(Ops.b("large-" + i), value, List.of(Ops.h("idx", Ops.b(String.valueOf(i))), Ops.h("blob", blob)),
                    System.currentTimeMillis() - 1000 + i, 0));
        }
        List<Ops.Delivery> ds = ops.produce(t, msgs, "none", "all");
        checkDeliveries(msgs, ds, true);
        checkSame(msgs, ds, ops.fetch(t, from(0), msgs.size()));
        List<ConsumerRecord<byte[], byte[]>> small = ops.fetch(t, from(0), msgs.size(), 64 * 1024);
        List<Long> offs = new ArrayList<>();
        small.forEach(r -> offs.add(r.offset()));
        check(offs.equals(List.of(0L, 1L, 2L)), "with max.partition.fetch.bytes=65536: fetched offsets " + offs);
        checkSame(msgs, ds, small);
    }

    interface Cond {
        boolean holds();
    }

    static void until(String what, Cond cond, long timeoutMs, List<Ops.Member> members) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!cond.holds()) {
            for (Ops.Member m : members) {
                if (m.error != null) {
                    throw new Compat.Failed(what + ": a member failed: " + Compat.describe(m.error));
                }
            }
            if (System.currentTimeMillis() > deadline) {
                StringBuilder st = new StringBuilder();
                for (int i = 0; i < members.size(); i++) {
                    st.append(i == 0 ? "" : "; ").append("member ").append(i + 1).append(" owns ")
                            .append(members.get(i).assigned).append(", consumed ").append(members.get(i).records().size());
                }
                throw new Compat.Failed(what + ": not within " + timeoutMs / 1000 + "s (" + st + ")");
            }
            Thread.sleep(100);
        }
    }

    /** As group_rebalance in compat/scenarios.py: 4/0, 2/2, one leaves, 4/-; every record once. */
    static void groupRebalance(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(4);
        String g = ctx.group();
        Set<Integer> everything = Set.of(0, 1, 2, 3);
        List<Ops.Member> members = new ArrayList<>();
        Ops.Member m1 = ops.new Member(t, g);
        members.add(m1);
        List<ConsumerRecord<byte[], byte[]>> byM2;
        List<Ops.Msg> first;
        List<Ops.Msg> second;
        try {
            until("the first member owns all four partitions", () -> m1.assigned.equals(everything), 25_000, members);
            Ops.Member m2 = ops.new Member(t, g);
            members.add(m2);
            until("after the second member joined, two partitions each", () -> {
                Set<Integer> a1 = m1.assigned;
                Set<Integer> a2 = m2.assigned;
                Set<Integer> union = new HashSet<>(a1);
                union.addAll(a2);
                return a1.size() == 2 && a2.size() == 2 && union.equals(everything);
            }, 30_000, members);
            Map<Integer, Set<Integer>> owned = Map.of(1, m1.assigned, 2, m2.assigned);
            first = makeMsgs(40, "reb1", 4, 0, true);
            checkDeliveries(first, ops.produce(t, first, "none", "all"), true);
            until("the group consumes the 40 records", () -> m1.records().size() + m2.records().size() >= 40, 20_000, members);
            for (int i = 1; i <= 2; i++) {
                for (ConsumerRecord<byte[], byte[]> r : (i == 1 ? m1 : m2).records()) {
                    check(owned.get(i).contains(r.partition()), "member " + i + " consumed from partition " + r.partition()
                            + ", it owns " + owned.get(i));
                }
            }
            m2.close();
            members.remove(m2);
            byM2 = m2.records();
            until("after the second member left, the first owns all four", () -> m1.assigned.equals(everything), 25_000, members);
            second = makeMsgs(20, "reb2", 4, 0, true);
            checkDeliveries(second, ops.produce(t, second, "none", "all"), true);
            until("the first member consumes the 20 records", () -> m1.records().size() + byM2.size() >= 60, 20_000, members);
            Thread.sleep(500);
            m1.close();
            members.remove(m1);
        } finally {
            for (Ops.Member m : members) {
                try {
                    m.close();
                } catch (Exception e) {
                    // the scenario's own error is the one to report
                }
            }
        }
        List<String> got = new ArrayList<>();
        List<String> values = new ArrayList<>();
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(m1.records());
        all.addAll(byM2);
        for (ConsumerRecord<byte[], byte[]> r : all) {
            got.add(r.partition() + ":" + r.offset());
            values.add(Ops.s(r.value()));
        }
        Set<String> unique = new HashSet<>(got);
        check(unique.size() == got.size(), "records consumed more than once by the group: " + got);
        Set<String> want = new HashSet<>();
        for (int p = 0; p < 4; p++) {
            for (int o = 0; o < 15; o++) {
                want.add(p + ":" + o);
            }
        }
        check(unique.equals(want), "the group consumed " + got.size() + " records, want 60 (15 per partition): " + got);
        List<String> sent = new ArrayList<>();
        for (Ops.Msg m : first) {
            sent.add(Ops.s(m.value));
        }
        for (Ops.Msg m : second) {
            sent.add(Ops.s(m.value));
        }
        java.util.Collections.sort(sent);
        java.util.Collections.sort(values);
        check(sent.equals(values), "consumed values differ from the produced ones");
    }

    static final Set<ConfigEntry.ConfigSource> DEFAULT_SOURCES = Set.of(ConfigEntry.ConfigSource.DEFAULT_CONFIG,
            ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG, ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);

    /** As admin_alter_configs in compat/scenarios.py. */
    static void alterConfigs(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(1, Map.of("max.message.bytes", "200000"));
        ConfigEntry before = ops.describeConfigs(t).get("retention.ms");
        check(before != null && before.source() != ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG,
                "retention.ms before any change: " + before);
        ops.alterTopicConfigs(t, Map.of("retention.ms", "3600000"), List.of());
        Map<String, ConfigEntry> cfg = ops.describeConfigs(t);
        for (String[] kv : new String[][] {{"retention.ms", "3600000"}, {"max.message.bytes", "200000"}}) {
            ConfigEntry e = cfg.get(kv[0]);
            check(e != null && kv[1].equals(e.value()) && e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG,
                    "after SET retention.ms: " + kv[0] + " = " + e + ", want " + kv[1] + " from DYNAMIC_TOPIC_CONFIG");
        }
        ops.alterTopicConfigs(t, Map.of(), List.of("retention.ms"));
        cfg = ops.describeConfigs(t);
        ConfigEntry e = cfg.get("retention.ms");
        check(e != null && DEFAULT_SOURCES.contains(e.source()), "after DELETE retention.ms: " + e + ", want a default source");
        check(before.value().equals(e.value()), "after DELETE retention.ms = " + e.value() + ", the default was " + before.value());
        ConfigEntry m = cfg.get("max.message.bytes");
        check(m != null && "200000".equals(m.value()) && m.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG,
                "after DELETE retention.ms: max.message.bytes = " + m);
    }

    /** As admin_delete_topics in compat/scenarios.py. */
    static void deleteTopics(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = ctx.topic(2);
        List<Ops.Msg> msgs = makeMsgs(10, "del", 2, 0, true);
        checkDeliveries(msgs, ops.produce(t, msgs, "none", "all"), true);
        ops.deleteTopics(List.of(t));
        long deadline = System.currentTimeMillis() + 10_000;
        while (ops.listTopics().contains(t)) {
            check(System.currentTimeMillis() < deadline, "Metadata still lists the topic 10 s after DeleteTopics");
            Thread.sleep(200);
        }
        deadline = System.currentTimeMillis() + 10_000;
        while (true) {
            try {
                ops.createTopic(t, 2, Map.of());
                break;
            } catch (org.apache.kafka.common.errors.TopicExistsException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
        Map<Integer, Long> zero = Map.of(0, 0L, 1, 0L);
        check(ops.listOffsets(t, List.of(0, 1), "earliest").equals(zero), "earliest of the re-created topic is not 0");
        Map<Integer, Long> latest = ops.listOffsets(t, List.of(0, 1), "latest");
        check(latest.equals(zero), "latest of the re-created topic " + latest + ", want {0=0, 1=0}");
    }

    /** A name that must not come into existence: announced, but not deleted by cleanup. */
    static String missing(Compat.Ctx ctx) {
        String t = ctx.name("t");
        ctx.resource("topic", t);
        return t;
    }

    static void notCreated(Ops ops, String t, String what) throws Exception {
        if (ops.listTopics().contains(t)) {
            ops.deleteTopics(List.of(t));
            throw new Compat.Failed(what + " created the topic");
        }
    }

    /** As error_unknown_topic in compat/scenarios.py (its docstring explains the two steps). */
    static void unknownTopic(Ops ops, Compat.Ctx ctx) throws Exception {
        String t = missing(ctx);
        Ops.ErrorSeen err = ops.missingTopicError(t);
        notCreated(ops, t, "Metadata with allowAutoTopicCreation=false");
        check(err != null, "Metadata listed a topic that does not exist");
        check(err.code != null && err.code == 3, "Metadata for a missing topic: " + err.text + " (code " + err.code
                + "), want UNKNOWN_TOPIC_OR_PARTITION");
        String auto = ops.brokerConfig(ops.brokerIds().get(0), "auto.create.topics.enable");
        if (!"false".equalsIgnoreCase(auto)) {
            ctx.notes.add("broker auto.create.topics.enable=" + auto + ": produce step skipped");
            return;
        }
        err = ops.produceToMissing(t, new Ops.Msg(Ops.b("k"), Ops.b("v"), List.of(), null, null));
        notCreated(ops, t, "producing to a missing topic");
        check(err != null, "a record to a missing topic was accepted");
        check((err.code != null && err.code == 3) || (err.timeout && err.text.contains(t)),
                "producing to a missing topic: " + err.text + " (code " + err.code + "), want UNKNOWN_TOPIC_OR_PARTITION");
        ctx.notes.add("produce: " + err.text);
    }

    /** As error_invalid_replication_factor in compat/scenarios.py. */
    static void invalidReplicationFactor(Ops ops, Compat.Ctx ctx) throws Exception {
        int rf = ops.brokerIds().size() + 1;
        String t = missing(ctx);
        Ops.ErrorSeen err = ops.createTopicError(t, 1, rf);
        notCreated(ops, t, "CreateTopics with replication factor " + rf);
        check(err != null, "CreateTopics with replication factor " + rf + " succeeded");
        check(err.code != null && err.code == 38, "CreateTopics with replication factor " + rf + ": " + err.text
                + " (code " + err.code + "), want INVALID_REPLICATION_FACTOR");
    }

    private Scenarios() {
    }
}
