package io.chainfeed.streams.bench;

import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.Decision;
import io.chainfeed.ingest.decide.NewsDecider;
import io.chainfeed.ingest.decide.NewsReader;
import io.chainfeed.ingest.decide.SignalDecider;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * What the learned news reader costs a JVM at start: the time from loading it to its
 * first decision, and the heap (used after a full collection) and resident memory it adds
 * once it has decided the benchmark's items, against the rules alone in the same JVM.
 * Prints one line per step. Run from the repository root after building the classpath as
 * in {@link DecisionBenchmark}'s Javadoc: <pre>
 * cd streams &amp;&amp; java -Xmx512m -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *     io.chainfeed.streams.bench.ReaderFootprint
 * </pre>
 */
public final class ReaderFootprint {

    private ReaderFootprint() {
    }

    /**
     * @param args none
     * @throws Exception when /proc cannot be read
     */
    public static void main(String[] args) throws Exception {
        Instant observed = Instant.parse("2026-06-15T00:00:00Z");
        SignalDecider rules = SignalDecider.of(Corpus.loadBundled());
        for (String[] item : DecisionBenchmark.ITEMS) {
            rules.decide(item[0], item[1], observed);
        }
        long heap0 = usedHeap();
        long rss0 = residentKiB();
        report("rules alone, after deciding the items", heap0, rss0, 0, 0);
        long t0 = System.nanoTime();
        NewsDecider reader = new NewsDecider(rules, NewsReader.bundled());
        long loaded = System.nanoTime();
        Decision first = reader.decide(DecisionBenchmark.ITEMS[0][0], DecisionBenchmark.ITEMS[0][1], observed);
        long decided = System.nanoTime();
        System.out.printf(Locale.ROOT, "reader %s: loaded in %.0f ms, first decision %.0f ms later (%s)%n",
                reader.readerVersion(), (loaded - t0) / 1e6, (decided - loaded) / 1e6, first.reader());
        for (int round = 0; round < 20; round++) {
            for (String[] item : DecisionBenchmark.ITEMS) {
                reader.decide(item[0], item[1], observed);
            }
        }
        report("with the reader, after 240 decisions", usedHeap(), residentKiB(), heap0, rss0);
    }

    private static void report(String step, long heap, long rss, long heap0, long rss0) {
        System.out.printf(Locale.ROOT, "%s: heap used %.1f MB (+%.1f), resident %.1f MB (+%.1f)%n", step, heap / 1e6,
                (heap - heap0) / 1e6, rss / 1024.0, (rss - rss0) / 1024.0);
    }

    private static long usedHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static long residentKiB() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

}
