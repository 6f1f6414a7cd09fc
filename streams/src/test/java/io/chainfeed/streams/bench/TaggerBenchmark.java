package io.chainfeed.streams.bench;

import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.streams.tagging.ReferenceData;
import io.chainfeed.streams.tagging.Tagger;
import java.time.Instant;
import java.util.ArrayList;
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
 * Tagged reads per second on one core: {@link Tagger#tag(TermUpdate)} on a realistic ~2
 * KB read with the full bundled dictionary (241 companies, 69 terms, 14 layers), next to
 * a baseline that only runs the same Aho-Corasick scans ({@link Tagger#scan(String)}: the
 * case-folded and the exact trie) over the same fields for the same patterns, with none
 * of the rules, evidence or read building.
 *
 * <p>
 * Run it from the repository root (single-threaded, so the figure is per core): <pre>
 * mvn -B -q -pl streams test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * cd streams &amp;&amp; java -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *     org.openjdk.jmh.Main TaggerBenchmark -f 1 -wi 3 -i 5 -w 2s -r 2s -t 1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class TaggerBenchmark {

    /** A research note of about 2 KB, in the shape of the bundled corpus. */
    static final String WHAT = "High-bandwidth memory (HBM) stacks DRAM dies on top of each other and connects them "
            + "with thousands of vertical wires, so an accelerator can read data many times faster than from "
            + "ordinary DDR5. Each GPU package from Nvidia (NASDAQ: NVDA) or AMD carries six to eight stacks "
            + "beside the processor, joined through a silicon interposer with TSMC's CoWoS packaging. SK hynix "
            + "(000660.KS) leads the market, Samsung Electronics and Micron's Idaho fabs follow, and HBM3E is "
            + "the generation shipping in volume; $MU and 005930.KS trade on its pricing.";
    static final String WHY = "HBM is the scarcest part of an AI accelerator after the logic die, and it takes "
            + "three times the wafer area of ordinary DRAM per bit, which pulls capacity away from the rest of "
            + "the memory market. Hyperscalers such as Microsoft, Amazon and Alphabet sign supply agreements a "
            + "year ahead, and custom accelerators from Broadcom (AVGO) and Marvell add to demand. Packaging is "
            + "the other bottleneck: TSMC, ASE and Amkor add CoWoS capacity, Hanmi Semiconductor and Besi supply "
            + "the thermocompression and hybrid bonding tools, and Advantest's testers check every stack. Yield "
            + "on 12-high stacks decides how many good parts each wafer gives. ON this page, IT and ALL are "
            + "ordinary words; a ticker in prose such as ANET is tagged, 2345 alone is not, and 2345.TW is "
            + "Accton. 台積電 and 삼성전자 are written in their own scripts. Lam Research and Applied Materials "
            + "make the etch and deposition tools, while ASML's EUV scanners pattern the base dies on 3nm-class "
            + "process nodes. Oracle and CoreWeave rent the resulting GPU clouds to model labs training large "
            + "language models, and inference demand keeps growing. Power is the last constraint: Vertiv and "
            + "Schneider Electric ship the liquid cooling and UPS gear, GE Vernova the gas turbines, and "
            + "Constellation Energy signs power purchase agreements with the same cloud providers.";

    private Tagger tagger;

    private TermUpdate read;

    private List<String> fields;

    @Setup
    public void setUp() {
        ReferenceData data = ReferenceData.bundled();
        tagger = Tagger.build(data.layers, data.companies, data.terms);
        read = TermUpdate.newBuilder()
            .setSlug("hbm-note")
            .setTitle("Why HBM supply sets the pace of AI accelerators")
            .setAliases(List.of("high-bandwidth memory"))
            .setDefinition("HBM is stacked DRAM placed next to an accelerator to feed it data quickly.")
            .setSections(List.of(new Section("what_it_means", "What it means", WHAT),
                    new Section("why_it_matters", "Why it matters to investors", WHY)))
            .setLayerHint("memory")
            .setCompanies(List.of(new CompanyMention("SK hynix", "000660.KS"), new CompanyMention("Micron", "MU")))
            .setRelated(List.of(new RelatedTerm("cowos", "CoWoS", "Chip on Wafer on Substrate.")))
            .setSources(List.of(new Source("JEDEC", "https://www.jedec.org/")))
            .setDisclaimer("Research, not advice.")
            .setVersion(1)
            .setUpdatedAt(Instant.EPOCH)
            .build();
        fields = new ArrayList<>();
        fields.add(read.getTitle());
        fields.add(read.getDefinition());
        read.getSections().forEach(s -> fields.add(s.getBody()));
    }

    /**
     * @return the size of the read's text in bytes (UTF-8)
     */
    public int textBytes() {
        return fields.stream().mapToInt(f -> f.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).sum();
    }

    @Benchmark
    public Read tag() {
        return tagger.tag(read);
    }

    @Benchmark
    public int scanOnly() {
        int hits = 0;
        for (String f : fields) {
            hits += tagger.scan(f);
        }
        return hits;
    }

}
