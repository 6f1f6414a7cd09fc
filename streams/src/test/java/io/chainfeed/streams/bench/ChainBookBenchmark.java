package io.chainfeed.streams.bench;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.Source;
import io.chainfeed.chain.ChainBook;
import io.chainfeed.chain.ChainModel;
import io.chainfeed.streams.tagging.ReferenceData;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The chain model's cost per signal against the number of signals kept: {@code put} adds
 * one new signal (the newest, so {@code asOf} moves and every sum is rebased) to a
 * {@link ChainBook} already holding {@code kept} signals on the bundled 14 layers;
 * {@code publish} builds every layer state from the book (what the topology does at most
 * every 250 ms). Both should be flat in {@code kept}.
 *
 * <p>
 * Run as {@code TaggerBenchmark} says, with {@code ChainBookBenchmark} as the pattern.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ChainBookBenchmark {

    private static final String[] LAYERS = { "memory", "advanced-packaging", "foundry", "accelerators",
            "servers-systems", "network-fabric", "semiconductor-equipment" };

    @Param({ "1000", "10000", "100000" })
    int kept;

    private ChainModel model;

    private ChainBook book;

    private Random random;

    private long clock;

    private int seq;

    @Setup(Level.Trial)
    public void setUp() {
        ReferenceData data = ReferenceData.bundled();
        model = new ChainModel(data.layers, data.companies);
        book = new ChainBook(model.layerIds());
        random = new Random(1);
        clock = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        for (int i = 0; i < kept; i++) {
            book.put(next());
        }
    }

    private ConstraintSignal next() {
        clock += 1000 + random.nextInt(10_000);
        int id = seq++;
        return ConstraintSignal.newBuilder()
            .setId("s" + id)
            .setHeadline("signal " + id)
            .setLayerHints(List.of(LAYERS[random.nextInt(LAYERS.length)]))
            .setDirection(random.nextInt(3) == 0 ? Direction.EASING : Direction.TIGHTENING)
            .setMagnitude(1 + random.nextInt(5))
            .setObservedAt(Instant.ofEpochMilli(clock))
            .setSource(new Source("bench", "https://example.com/" + id))
            .build();
    }

    /** One new signal: O(layers it names), whatever {@code kept} is. */
    @Benchmark
    public Object put() {
        return book.put(next());
    }

    /** Every layer state from the sums and the top causes. */
    @Benchmark
    public Object publish() {
        return model.states(book);
    }

}
