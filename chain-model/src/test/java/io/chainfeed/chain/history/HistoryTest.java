package io.chainfeed.chain.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.chain.reference.ChainReference;
import io.chainfeed.chain.reference.CorpusException;
import java.net.URI;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bundled history: every entry checked, the floors of issue 24 held, and the parser's
 * errors.
 */
class HistoryTest {

    private static ChainReference corpus;

    private static History history;

    @BeforeAll
    static void load() {
        corpus = ChainReference.loadBundled();
        history = History.loadBundled(corpus);
    }

    @Test
    void theBundledHistoryCoversEveryLayerInBothDirectionsSince2023() {
        assertThat(history.entries()).hasSizeGreaterThanOrEqualTo(200);
        Map<String, Long> primaryAndOther = new TreeMap<>();
        for (ConstraintSignal s : history.signals()) {
            s.getLayerHints().forEach(l -> primaryAndOther.merge(l, 1L, Long::sum));
        }
        for (ChainLayer layer : corpus.layers()) {
            assertThat(primaryAndOther.getOrDefault(layer.getId(), 0L)).as("signals on %s", layer.getId())
                .isGreaterThanOrEqualTo(5);
        }
        Map<Direction, Long> byDirection = history.signals()
            .stream()
            .collect(Collectors.groupingBy(ConstraintSignal::getDirection, Collectors.counting()));
        assertThat(byDirection.get(Direction.EASING)).as("gluts and recoveries").isGreaterThanOrEqualTo(40);
        assertThat(byDirection.get(Direction.TIGHTENING)).isGreaterThanOrEqualTo(40);
        assertThat(history.signals()).extracting(s -> s.getObservedAt())
            .allSatisfy(at -> assertThat(at).isBetween(Instant.parse("2023-01-01T00:00:00Z"), Instant.now()));
        assertThat(history.signals()).filteredOn(s -> s.getObservedAt().isBefore(Instant.parse("2024-01-01T00:00:00Z")))
            .as("signals from 2023")
            .hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void everyEntryIsSourcedOverHttpsOnceAndWithKnownCompanies() {
        Set<String> companies = corpus.companies().stream().map(c -> c.getId()).collect(Collectors.toSet());
        assertThat(history.entries()).allSatisfy(e -> {
            assertThat(e.signal().getSource().getUrl()).startsWith("https://");
            assertThat(e.signal().getSource().getName()).isNotBlank();
            assertThat(companies).containsAll(e.companies());
            assertThat(e.signal().getVersion()).isPositive();
        });
        assertThat(history.signals()).extracting(s -> s.getSource().getUrl()).doesNotHaveDuplicates();
        assertThat(history.signals()).filteredOn(s -> s.getUntil() != null)
            .as("signals with a horizon")
            .isNotEmpty()
            .allSatisfy(s -> assertThat(s.getUntil()).isAfter(s.getObservedAt()));
    }

    @Test
    void theReferenceLabelsEveryLayer() {
        Map<String, Long> cells = history.reference()
            .stream()
            .collect(Collectors.groupingBy(History.Cell::layer, Collectors.counting()));
        for (ChainLayer layer : corpus.layers()) {
            assertThat(cells.getOrDefault(layer.getId(), 0L)).as("labelled quarters of %s", layer.getId())
                .isGreaterThanOrEqualTo(3);
        }
        assertThat(history.reference()).allSatisfy(c -> assertThat(c.source()).startsWith("https://"));
        assertThat(History.quarterEnd("2024Q3")).isEqualTo(Instant.parse("2024-09-30T23:59:59.999Z"));
        assertThat(History.quarterEnd("2024Q4")).isEqualTo(Instant.parse("2024-12-31T23:59:59.999Z"));
        assertThat(history.reference().get(0).end())
            .isEqualTo(History.quarterEnd(history.reference().get(0).quarter()));
    }

    private static final String ENTRY = """
            signals:
              - id: h-2024-05-02-hbm-booked
                date: 2024-05-02
                headline: A memory maker books its HBM output for two years
                body: Its stacked memory is spoken for.
                layers: [memory]
                companies: [sk-hynix]
                direction: tightening
                magnitude: 4
                until: 2025-12-31
                source: {name: Example, url: "https://example.com/a"}
            """;

    private static final String REFERENCE = """
            reference:
              - layer: memory
                quarters:
                  - {quarter: 2024Q2, status: tight, note: "sold out", source: "https://example.com/r"}
            """;

    private static History parse(String signals) {
        return History.parse("signals.yaml", signals, "reference.yaml", REFERENCE, corpus, LocalDate.of(2026, 12, 1));
    }

    @Test
    void anEntryBecomesASignalHeldToTheEndOfItsHorizonDay() {
        ConstraintSignal s = parse(ENTRY).signals().get(0);
        assertThat(s.getObservedAt()).isEqualTo(Instant.parse("2024-05-02T00:00:00Z"));
        assertThat(s.getUntil()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(s.getLayerHints()).containsExactly("memory");
        assertThat(s.getVersion()).isEqualTo(1);
        assertThat(s.getDirection()).isEqualTo(Direction.TIGHTENING);
        assertThat(s.getSegment()).isNull();
    }

    @Test
    void anEntryMayNameTheSegmentOfItsLayerItSpeaksOf() {
        ConstraintSignal s = parse(ENTRY.replace("until: 2025-12-31", "until: 2025-12-31\n    segment: hbm")).signals()
            .get(0);
        assertThat(s.getSegment()).isEqualTo("hbm");
        assertThat(s.getLayerHints()).containsExactly("memory");
    }

    /**
     * Issue 37 item 4: a signal that says demand grew without saying supply is short is
     * not a tightening signal. The entries dropped for that (listed with their reasons at
     * the top of signals.yaml) stay out.
     */
    @Test
    void demandOnlyEntriesDroppedUnderIssue37StayOut() {
        List<String> dropped = List.of("h-2023-07-17-tsmc-cowos-expansion-plan",
                "h-2024-06-25-hbm-tc-bonder-orders-surge", "h-2025-07-24-sk-hynix-record-q2",
                "h-2024-06-26-ase-cowos-demand-into-2025", "h-2025-07-22-semi-record-equipment-sales",
                "h-2026-01-28-asml-record-bookings", "h-2025-11-19-siemens-energy-turbine-sales-double",
                "h-2025-10-29-lam-record-quarter-foundry", "h-2026-02-25-lam-foundry-systems-surge",
                "h-2025-12-02-semi-q3-equipment-billings-up", "h-2023-10-19-tsmc-sees-demand-stabilising",
                "h-2023-12-06-top10-foundry-revenue-up-q3", "h-2024-01-24-asml-q4-bookings-9bn",
                "h-2025-01-23-sk-hynix-record-2024-hbm-doubling", "h-2026-04-16-asml-raises-2026-guidance",
                "h-2024-01-22-china-tool-imports-40bn");
        assertThat(history.signals()).extracting(ConstraintSignal::getId).doesNotContainAnyElementsOf(dropped);
    }

    @Test
    void everySegmentInTheBundledHistoryBelongsToALayerItsEntryNames() {
        List<ConstraintSignal> segmented = history.signals().stream().filter(x -> x.getSegment() != null).toList();
        // 52 when segments were added; 49 since issue 37 dropped three segmented
        // demand-only entries
        assertThat(segmented).hasSizeGreaterThanOrEqualTo(49)
            .allSatisfy(x -> assertThat(x.getLayerHints()).contains(corpus.segments().segment(x.getSegment()).layer()))
            .allSatisfy(x -> assertThat(x.getVersion()).as(x.getId() + ": revised when segmented").isEqualTo(2));
        assertThat(segmented).extracting(ConstraintSignal::getSegment)
            .contains("hbm", "conventional", "leading-edge", "mature");
    }

    /**
     * Each case: the text of the good entry to replace, what replaces it, and the parts
     * of the refusal's message.
     */
    static Stream<Arguments> badEntries() {
        return Stream.of(
                arguments("layers: [memory]", "layers: [hbm-land]",
                        List.of("signals[0].layers", "'hbm-land' is not a layer id")),
                arguments("companies: [sk-hynix]", "companies: [acme]", List.of("'acme' is not a company id")),
                arguments("https://example.com/a", "http://example.com/a", List.of("not an absolute https URL")),
                arguments("date: 2024-05-02", "date: 2024-05-03", List.of("does not start with its date")),
                arguments("2024-05-02", "2022-05-02", List.of("2022-05-02 is outside 2023-01-01")),
                arguments("magnitude: 4", "magnitude: 7", List.of("signals[0].magnitude", "1 to 5")),
                arguments("direction: tightening", "direction: up", List.of("tightening or easing")),
                arguments("magnitude: 4", "magnitude: 4\n    sentiment: 3", List.of("unknown field")),
                arguments("until: 2025-12-31", "until: 2025-12-31\n    segment: dram",
                        List.of("signals[0].segment", "'dram' is not a segment")),
                arguments("until: 2025-12-31", "until: 2025-12-31\n    segment: mature",
                        List.of("'mature' is a segment of foundry, which is not among the layers named")));
    }

    @ParameterizedTest
    @MethodSource("badEntries")
    void badEntriesAreRefusedNamingTheFieldAndWhy(String good, String bad, List<String> message) {
        var refusal = assertThatThrownBy(() -> parse(ENTRY.replace(good, bad))).isInstanceOf(CorpusException.class);
        message.forEach(m -> refusal.hasMessageContaining(m));
    }

    @Test
    void theSameStoryTwiceIsRefused() {
        String twice = ENTRY + ENTRY.substring(ENTRY.indexOf("  - id"))
            .replace("h-2024-05-02-hbm-booked", "h-2024-05-02-hbm-booked-again");
        assertThatThrownBy(() -> parse(twice)).hasMessageContaining("the same story as h-2024-05-02-hbm-booked");
    }

    /**
     * Hosts that serve someone else's page (a rot13 proxy, a mirror of a wire story) or a
     * publisher's unpublished staging copy, and AI-written digests of other sites' news,
     * found in the history by the review of issue 37. A source must be the publisher's
     * own address.
     */
    static final Set<String> REFUSED_HOSTS = Set.of("vuink.com", "uat-manage.cbre.com", "tbpn-digest.vercel.app",
            "signal-ia-rouge.vercel.app", "aitechconnect-976.pages.dev", "nu.lemdro.id", "ru24.pro", "m.ru24.pro",
            "rtowww.com", "news-247.top");

    /**
     * @param url a source URL
     * @return why its host is refused, or null when it is not: a host of
     * {@link #REFUSED_HOSTS} or under one, or a staging, UAT or test deployment
     * ({@code uat-}, {@code uat.}, {@code staging.}, {@code -staging.}, {@code .stage.},
     * {@code stage.})
     */
    static String refusedHost(String url) {
        String host = URI.create(url).getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("www.")) {
            host = host.substring(4);
        }
        for (String refused : REFUSED_HOSTS) {
            if (host.equals(refused) || host.endsWith("." + refused)) {
                return host + " is a proxy, mirror or aggregator host, not the publisher's own address";
            }
        }
        String dotted = "." + host;
        for (String marker : List.of(".uat-", ".uat.", ".staging.", "-staging.", ".stage.", ".stg.")) {
            if (dotted.contains(marker)) {
                return host + " is a staging or test deployment ('" + marker.replace(".", "") + "')";
            }
        }
        return null;
    }

    @Test
    void refusedHostsAreRecognised() {
        assertThat(refusedHost("https://vuink.com/post/x")).contains("proxy");
        assertThat(refusedHost("https://uat-manage.cbre.com/insights/a")).isNotNull();
        assertThat(refusedHost("https://uat-anything.example.com/a")).contains("staging");
        assertThat(refusedHost("https://staging.example.com/a")).contains("staging");
        assertThat(refusedHost("https://www.example.stage.corp.com/a")).contains("staging");
        assertThat(refusedHost("https://shop-staging.example.com/a")).contains("staging");
        assertThat(refusedHost("https://www.cbre.com/insights/reports/x")).isNull();
        assertThat(refusedHost("https://www.backstage.com/a")).isNull();
        assertThat(refusedHost("https://uatlanta.example.com/a")).isNull();
    }

    /**
     * Every source of the bundled history, signals and all three reference sets, is the
     * publisher's own address: a failure names the entry (or the set, layer and quarter)
     * and the host.
     */
    @Test
    void noSourceIsAProxyMirrorOrStagingHost() {
        List<String> refused = new ArrayList<>();
        for (History.Entry e : history.entries()) {
            String why = refusedHost(e.signal().getSource().getUrl());
            if (why != null) {
                refused.add(e.signal().getId() + ": " + why);
            }
        }
        Map<String, List<History.Cell>> sets = Map.of("reference", history.reference(), "held-out", history.holdout(),
                "third", history.third());
        sets.forEach((name, cells) -> cells.forEach(c -> {
            String why = refusedHost(c.source());
            if (why != null) {
                refused.add(name + " " + c.layer() + " " + c.quarter() + ": " + why);
            }
        }));
        assertThat(refused).as("sources on refused hosts").isEmpty();
    }

}
