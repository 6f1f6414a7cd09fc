package io.chainfeed.streams.bench;

import io.chainfeed.avro.Read;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.Decision;
import io.chainfeed.ingest.decide.NewsDecider;
import io.chainfeed.ingest.decide.NewsReader;
import io.chainfeed.ingest.decide.SignalDecider;
import io.chainfeed.streams.tagging.ReferenceData;
import io.chainfeed.streams.tagging.Tagger;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * Signals decided per second on one core ({@link SignalDecider#decide}: relevance,
 * layers, direction, magnitude, horizon and evidence from a headline and a body; and
 * {@link NewsDecider#decide}, the learned reader with the rules, which embeds the
 * headline and every body sentence), beside the bare tagger on the same text in the same
 * run ({@link Tagger#tag} of the signal shaped as the chain-state topology shapes it:
 * headline as title, body as a section). Twelve news-shaped items of a headline and two
 * or three sentences (about 300 bytes each), taken in turn.
 *
 * <p>
 * Run it from the repository root (single-threaded, so the figure is per core): <pre>
 * mvn -B -q -o -pl streams -am install -DskipTests
 * mvn -B -q -o -pl streams dependency:build-classpath -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * cd streams &amp;&amp; taskset -c 1 java -Xmx256m -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *     org.openjdk.jmh.Main DecisionBenchmark -f 1 -wi 3 -i 5 -w 2s -r 2s -t 1
 * </pre> ({@code taskset -c 1} before {@code java}: ONNX Runtime starts threads of its
 * own, so one benchmark thread is not one core without it).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class DecisionBenchmark {

    static final String[][] ITEMS = { { "SK hynix says its HBM supply is sold out for next year",
            "The memory maker told analysts that customers have booked its entire HBM output for 2027. New lines "
                    + "in Cheongju start in the second half, but demand from accelerator makers keeps growing." },
            { "TSMC doubles CoWoS capacity as new packaging lines start",
                    "Two advanced packaging sites began shipping this quarter. Accelerator makers say the wait for packaging "
                            + "slots has shortened, although the largest parts still take months." },
            { "Gas turbine makers are booked through 2029",
                    "Orders for heavy-duty units placed now ship in 2030. Utilities planning plants for data-center load "
                            + "say the turbines, not the permits, decide their schedule." },
            { "Micron to report fiscal third-quarter results on June 25",
                    "The company will hold a conference call after the market closes. Analysts expect higher revenue." },
            { "800G optical transceivers in short supply as cluster builds accelerate",
                    "Module makers cannot keep up with orders. Lead times for some modules have stretched to 40 weeks, "
                            + "and buyers are paying more for spot supply." },
            { "GPU rental prices fall as neoclouds add capacity",
                    "Hourly rates for top GPUs in the cloud have dropped by a third this year, and spare capacity is on "
                            + "offer at discounts." },
            { "The transformer shortage is over, says a large utility buyer",
                    "Its procurement chief said units ordered this spring arrived on schedule for the first time since 2021." },
            { "DRAM prices may rise again next quarter, analysts say",
                    "A survey of buyers found most expect higher contract prices as servers take more memory." },
            { "Nvidia names a new chief financial officer",
                    "The appointment takes effect in January. The company did not comment on its supply outlook." },
            { "Data-center space in northern Virginia is sold out",
                    "Colocation providers report near-zero vacancy, and new halls are leased long before they are built." },
            { "EUV scanner orders are booked through 2027",
                    "The lithography maker said every tool it can build next year is already spoken for." },
            { "Model lab rations API access as compute runs short",
                    "Developers are limited to fewer requests per minute while new clusters are installed." }, };

    private SignalDecider decider;

    private NewsDecider withReader;

    private Tagger tagger;

    private TermUpdate[] shaped;

    private int next;

    private final Instant observed = Instant.parse("2026-06-15T00:00:00Z");

    @Setup
    public void setUp() {
        decider = SignalDecider.of(Corpus.loadBundled());
        withReader = new NewsDecider(decider, NewsReader.bundled());
        ReferenceData data = ReferenceData.bundled();
        tagger = Tagger.build(data.layers, data.companies, data.terms);
        shaped = new TermUpdate[ITEMS.length];
        for (int i = 0; i < ITEMS.length; i++) {
            shaped[i] = TermUpdate.newBuilder()
                .setSlug("s" + i)
                .setTitle(ITEMS[i][0])
                .setDefinition(ITEMS[i][1])
                .setSections(List.of(new Section("body", "What was observed", ITEMS[i][1])))
                .setSources(List.of(new Source("Example", "https://example.com/" + i)))
                .setDisclaimer("Research, not advice.")
                .setOrigin("signal")
                .setVersion(1)
                .setUpdatedAt(Instant.EPOCH)
                .build();
        }
    }

    @Benchmark
    public Decision decide() {
        int i = next++ % ITEMS.length;
        return decider.decide(ITEMS[i][0], ITEMS[i][1], observed);
    }

    @Benchmark
    public Decision decideWithReader() {
        int i = next++ % ITEMS.length;
        return withReader.decide(ITEMS[i][0], ITEMS[i][1], observed);
    }

    @Benchmark
    public Read tagOnly() {
        return tagger.tag(shaped[next++ % ITEMS.length]);
    }

}
