package io.chainfeed.api.readlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The hand-over between a replay and the live tail ({@link FanOut}, {@link Subscription})
 * without a broker: records are built here and fed the way {@link ReadLog}'s tail and
 * replay workers feed them.
 */
class FanOutTest {

    /** Collects what a subscriber receives. */
    static final class Collector implements ReadListener {

        final List<ReadEvent> events = new ArrayList<>();

        final List<LogPosition> ids = new ArrayList<>();

        LogPosition start;

        CloseReason closed;

        int capacity = Integer.MAX_VALUE;

        @Override
        public void onStart(LogPosition position) {
            start = position;
        }

        @Override
        public boolean onEvent(ReadEvent event, LogPosition after) {
            if (events.size() >= capacity) {
                return false;
            }
            events.add(event);
            ids.add(after);
            return true;
        }

        @Override
        public void onClosed(CloseReason reason) {
            closed = reason;
        }

        List<String> keys() {
            return events.stream().map(e -> e.partition() + ":" + e.offset()).toList();
        }

    }

    static Read read(String id, ReadKind kind, String layer) {
        return Read.newBuilder()
            .setId(id)
            .setKind(kind)
            .setSlug(id)
            .setTitle(id)
            .setSummary("s")
            .setLayers(List.of(new LayerTag(layer, layer, 1.0, true, List.of())))
            .setDisclaimer("Research, not advice.")
            .setVersion(1)
            .setUpdatedAt(Instant.EPOCH)
            .build();
    }

    static ReadEvent ev(int partition, long offset) {
        return new ReadEvent(partition, offset, "signal:" + partition + "-" + offset,
                read("signal:" + partition + "-" + offset, ReadKind.SIGNAL, "memory"), 0);
    }

    static LogPosition pos(String text) {
        return LogPosition.parse(text);
    }

    private final FanOut fanOut = new FanOut();

    private Subscription subscribe(LogPosition from, Selector selector, Collector c) {
        return new Subscription(from == null ? LogPosition.start() : from, selector, c, fanOut::remove);
    }

    @Test
    void aNewReaderStartsAtTheTailAndSeesOnlyWhatComesAfter() {
        fanOut.ready(pos("0:5,1:3"));
        fanOut.dispatch(List.of(ev(0, 5)), pos("0:6,1:3"));
        Collector c = new Collector();
        fanOut.subscribeAtTail(subscribe(null, Selector.all(), c));
        assertThat(c.start).isEqualTo(pos("0:6,1:3"));
        fanOut.dispatch(List.of(ev(1, 3), ev(0, 6)), pos("0:7,1:4"));
        assertThat(c.keys()).containsExactly("1:3", "0:6");
        assertThat(c.ids).containsExactly(pos("0:6,1:4"), pos("0:7,1:4"));
    }

    @Test
    void aReaderThatCameBeforeTheTailKnewItsStartWaitsForIt() {
        Collector c = new Collector();
        Subscription s = subscribe(null, Selector.all(), c);
        fanOut.subscribeAtTail(s);
        assertThat(c.start).isNull();
        assertThat(s.isLive()).isFalse();
        fanOut.ready(pos("0:10"));
        assertThat(c.start).isEqualTo(pos("0:10"));
        fanOut.dispatch(List.of(ev(0, 10)), pos("0:11"));
        assertThat(c.keys()).containsExactly("0:10");
    }

    @Test
    void aReplayHandsOverAtTheTailWithNoGapAndNoDuplicate() {
        fanOut.ready(pos("0:5"));
        Collector c = new Collector();
        Subscription s = subscribe(pos("0:2"), Selector.all(), c);
        // Not caught up yet: the tail is at 5.
        assertThat(fanOut.goLive(s)).isFalse();
        s.offer(List.of(ev(0, 2), ev(0, 3)));
        // The tail moves on while the replay runs; the replaying reader is not live, so
        // it gets nothing.
        fanOut.dispatch(List.of(ev(0, 5), ev(0, 6)), pos("0:7"));
        s.offer(List.of(ev(0, 4)));
        assertThat(fanOut.goLive(s)).isFalse();
        // The replay reads past the tail position (its poll returned more), then hands
        // over.
        s.offer(List.of(ev(0, 5), ev(0, 6), ev(0, 7)));
        assertThat(fanOut.goLive(s)).isTrue();
        assertThat(s.isLive()).isTrue();
        // The tail now delivers 7 (already replayed: dropped) and 8.
        fanOut.dispatch(List.of(ev(0, 7), ev(0, 8)), pos("0:9"));
        assertThat(c.keys()).containsExactly("0:2", "0:3", "0:4", "0:5", "0:6", "0:7", "0:8");
        assertThat(c.ids.get(c.ids.size() - 1)).isEqualTo(pos("0:9"));
    }

    @Test
    void compactionGapsAreSkippedAndIdsGrowPerPartition() {
        fanOut.ready(pos("0:0,1:0"));
        Collector c = new Collector();
        fanOut.subscribeAtTail(subscribe(null, Selector.all(), c));
        fanOut.dispatch(List.of(ev(0, 0), ev(1, 4), ev(0, 3), ev(1, 9)), pos("0:4,1:10"));
        assertThat(c.keys()).containsExactly("0:0", "1:4", "0:3", "1:9");
        assertThat(c.ids).extracting(LogPosition::text).containsExactly("0:1,1:0", "0:1,1:5", "0:4,1:5", "0:4,1:10");
    }

    @Test
    void readsOutsideTheSelectorMoveThePositionButAreNotDeliveredAndDeletionsAlwaysAre() {
        fanOut.ready(pos("0:0"));
        Collector c = new Collector();
        Subscription s = subscribe(null, Selector.parse("layer:memory"), c);
        fanOut.subscribeAtTail(s);
        ReadEvent memory = new ReadEvent(0, 0, "signal:a", read("signal:a", ReadKind.SIGNAL, "memory"), 0);
        ReadEvent fabric = new ReadEvent(0, 1, "signal:b", read("signal:b", ReadKind.SIGNAL, "network-fabric"), 0);
        ReadEvent gone = new ReadEvent(0, 2, "signal:c", null, 0);
        ReadEvent fabric2 = new ReadEvent(0, 3, "signal:d", read("signal:d", ReadKind.SIGNAL, "network-fabric"), 0);
        fanOut.dispatch(List.of(memory, fabric, gone, fabric2), pos("0:4"));
        assertThat(c.events).extracting(ReadEvent::id).containsExactly("signal:a", "signal:c");
        assertThat(c.ids).extracting(LogPosition::text).containsExactly("0:1", "0:3");
        // The skipped read still moved the position: a heartbeat can carry it.
        assertThat(s.position()).isEqualTo(pos("0:4"));
        List<LogPosition> seen = new ArrayList<>();
        s.atPosition(seen::add);
        assertThat(seen).containsExactly(pos("0:4"));
    }

    @Test
    void aFullReaderIsClosedWithoutHoldingUpTheOthers() {
        fanOut.ready(pos("0:0"));
        Collector slow = new Collector();
        slow.capacity = 2;
        Collector fast = new Collector();
        Subscription slowSub = subscribe(null, Selector.all(), slow);
        fanOut.subscribeAtTail(slowSub);
        fanOut.subscribeAtTail(subscribe(null, Selector.all(), fast));
        fanOut.dispatch(IntStream.range(0, 5).mapToObj(i -> ev(0, i)).toList(), pos("0:5"));
        fanOut.dispatch(List.of(ev(0, 5)), pos("0:6"));
        assertThat(slow.closed).isEqualTo(ReadListener.CloseReason.OVERFLOW);
        assertThat(slowSub.isClosed()).isTrue();
        assertThat(slow.keys()).containsExactly("0:0", "0:1");
        assertThat(fast.keys()).hasSize(6);
        assertThat(fanOut.liveCount()).isEqualTo(1);
        // The slow reader resumes from its last id and misses nothing.
        Collector again = new Collector();
        Subscription resumed = subscribe(slow.ids.get(1), Selector.all(), again);
        resumed.offer(IntStream.range(2, 6).mapToObj(i -> ev(0, i)).toList());
        assertThat(fanOut.goLive(resumed)).isTrue();
        assertThat(again.keys()).containsExactly("0:2", "0:3", "0:4", "0:5");
    }

    @Test
    void aClosedSubscriptionGetsNothingMoreAndIsForgotten() {
        fanOut.ready(pos("0:0"));
        Collector c = new Collector();
        Subscription s = subscribe(null, Selector.all(), c);
        fanOut.subscribeAtTail(s);
        s.close();
        fanOut.dispatch(List.of(ev(0, 0)), pos("0:1"));
        assertThat(c.events).isEmpty();
        assertThat(c.closed).isNull();
        assertThat(fanOut.liveCount()).isZero();
        // A closed replay does not go live either.
        Collector rc = new Collector();
        Subscription r = subscribe(pos("0:1"), Selector.all(), rc);
        r.close();
        assertThat(r.offer(List.of(ev(0, 1)))).isFalse();
        assertThat(fanOut.goLive(r)).isTrue();
        assertThat(rc.events).isEmpty();
        assertThat(fanOut.liveCount()).isZero();
    }

    /**
     * Random logs (three partitions, compaction gaps, records appended while readers
     * replay), random resume points and random interleavings of the tail and a replay
     * that polls in random batches: every reader gets exactly the records at or after its
     * position, each once, in offset order per partition.
     */
    @RepeatedTest(200)
    void randomInterleavingsNeverLoseOrRepeatARecord(org.junit.jupiter.api.RepetitionInfo info) {
        Random rnd = new Random(info.getCurrentRepetition() * 7919L);
        int partitions = 3;
        // The log: per partition, the offsets that survive compaction, growing over time.
        List<List<Long>> log = new ArrayList<>();
        long[] end = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            log.add(new ArrayList<>());
            for (int i = 0; i < rnd.nextInt(30); i++) {
                append(log, end, p, rnd);
            }
        }
        // The tail starts at the log's end.
        long[] tail = end.clone();
        fanOut.ready(LogPosition.ofArray(tail));
        // The reader resumes somewhere in the log.
        long[] from = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            from[p] = end[p] == 0 ? 0 : rnd.nextLong(end[p] + 1);
        }
        Collector c = new Collector();
        Subscription s = subscribe(LogPosition.ofArray(from), Selector.all(), c);
        long[] replay = from.clone();
        boolean live = false;
        for (int step = 0; step < 400; step++) {
            int what = rnd.nextInt(3);
            if (what == 0) {
                append(log, end, rnd.nextInt(partitions), rnd);
            }
            else if (what == 1) {
                // The tail reads a random batch of what is there.
                List<ReadEvent> batch = read(log, tail, rnd.nextInt(5), rnd);
                fanOut.dispatch(batch, LogPosition.ofArray(tail));
            }
            else if (!live) {
                // The replay: hand over if caught up, else poll a batch (which may go
                // past the tail).
                if (LogPosition.ofArray(replay).atOrPast(fanOut.tail()) && fanOut.goLive(s)) {
                    live = true;
                }
                else {
                    s.offer(read(log, replay, rnd.nextInt(6), rnd));
                }
            }
        }
        // Let everything settle: the replay catches up, the tail reads to the end.
        while (!live) {
            if (LogPosition.ofArray(replay).atOrPast(fanOut.tail()) && fanOut.goLive(s)) {
                live = true;
            }
            else {
                s.offer(read(log, replay, 3, rnd));
            }
        }
        fanOut.dispatch(read(log, tail, Integer.MAX_VALUE, rnd), LogPosition.ofArray(tail));

        TreeMap<Integer, List<Long>> expected = new TreeMap<>();
        TreeMap<Integer, List<Long>> got = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            int pp = p;
            expected.put(p, log.get(p).stream().filter(o -> o >= from[pp]).toList());
            got.put(p, c.events.stream().filter(e -> e.partition() == pp).map(ReadEvent::offset).toList());
        }
        assertThat(got).isEqualTo(expected);
        assertThat(s.position()).isEqualTo(LogPosition.ofArray(tail));
    }

    /**
     * Appends a record to partition p; sometimes leaves a gap first (compaction removed
     * offsets).
     */
    private static void append(List<List<Long>> log, long[] end, int p, Random rnd) {
        end[p] += rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3) : 0;
        log.get(p).add(end[p]);
        end[p]++;
    }

    /**
     * Reads up to {@code max} records from {@code position} (moved past them), across the
     * partitions in a random order per batch, as a consumer's poll may return them; per
     * partition in offset order.
     */
    private static List<ReadEvent> read(List<List<Long>> log, long[] position, int max, Random rnd) {
        List<ReadEvent> out = new ArrayList<>();
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2));
        java.util.Collections.shuffle(order, rnd);
        for (int p : order) {
            for (long o : log.get(p)) {
                if (out.size() >= max) {
                    return out;
                }
                if (o >= position[p]) {
                    out.add(ev(p, o));
                    position[p] = o + 1;
                }
            }
        }
        return out;
    }

}
