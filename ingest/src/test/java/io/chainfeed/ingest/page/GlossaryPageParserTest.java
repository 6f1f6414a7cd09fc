package io.chainfeed.ingest.page;

import static io.chainfeed.schemas.SampleRecords.company;
import static io.chainfeed.schemas.SampleRecords.listing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.TermJson;
import io.chainfeed.ingest.reference.ReferenceData;
import io.chainfeed.ingest.reference.ReferenceData.KnownTerm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class GlossaryPageParserTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    // ------------------------------------------------------------------ reference data
    // built here

    private static ChainLayer layer(String id, String name, String... aliases) {
        return ChainLayer.newBuilder().setId(id).setName(name).setAliases(List.of(aliases)).build();
    }

    private static final ChainLayer FABRIC = layer("network-fabric", "Network fabric", "fabric layer");

    private static final ChainLayer MEMORY = layer("memory", "Memory and storage", "memory layer");

    private static final ChainLayer PACKAGING = layer("advanced-packaging", "Advanced packaging", "packaging layer");

    private static final List<Company> FABRIC_COMPANIES = List.of(
            company("arista-networks", "Arista Networks", List.of("Arista"), "network-fabric",
                    listing("ANET", "XNYS", "ANET")),
            company("oracle", "Oracle Corporation", List.of("Oracle"), "cloud", listing("ORCL", "XNYS", "ORCL")),
            company("hpe", "Hewlett Packard Enterprise", List.of("HPE"), "network-fabric",
                    listing("HPE", "XNYS", "HPE")),
            company("accton", "Accton Technology", List.of(), "network-fabric", listing("2345", "XTAI", "2345.TW")));

    private static final List<Company> MEMORY_COMPANIES = List.of(
            company("sk-hynix", "SK hynix", List.of("SK Hynix Inc."), "memory", listing("000660", "XKRX", "000660.KS")),
            company("samsung", "Samsung Electronics", List.of("Samsung"), "memory",
                    listing("005930", "XKRX", "005930.KS")),
            company("micron", "Micron Technology", List.of("Micron"), "memory", listing("MU", "XNAS", "MU")),
            company("nvidia", "NVIDIA", List.of("Nvidia Corporation"), "accelerators", listing("NVDA", "XNAS", "NVDA")),
            company("asml", "ASML Holding", List.of("ASML"), "equipment", listing("ASML", "XNAS", "ASML"),
                    listing("ASML", "XAMS", "ASML.AS")),
            company("tsmc", "Taiwan Semiconductor Manufacturing Company",
                    List.of("TSMC", "Taiwan Semiconductor Manufacturing"), "foundry",
                    listing("2330", "XTAI", "2330.TW"), listing("TSM", "XNYS", "TSM")));

    private static final List<KnownTerm> TERMS = List.of(
            new KnownTerm("cowos", "CoWoS", List.of("chip-on-wafer-on-substrate")),
            new KnownTerm("tsv", "Through-silicon via", List.of("TSV")),
            new KnownTerm("hbm", "HBM", List.of("high-bandwidth memory")),
            new KnownTerm("infiniband", "InfiniBand", List.of()), new KnownTerm("roce", "AI Ethernet", List.of("RoCE")),
            new KnownTerm("network-fabric", "Network fabric", List.of("fabric")),
            new KnownTerm("scale-out-vs-scale-up", "Scale-out vs scale-up", List.of()));

    private static final ReferenceData FULL = new ReferenceData(List.of(FABRIC, MEMORY, PACKAGING),
            concat(FABRIC_COMPANIES, MEMORY_COMPANIES), TERMS);

    private static <T> List<T> concat(List<T> a, List<T> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    private static String fixture(String name) {
        try (InputStream in = GlossaryPageParserTest.class.getResourceAsStream("/pages/" + name)) {
            assertThat(in).as("fixture %s", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Compares what a page's layout decides (slug, title, aliases, layer, companies,
     * related terms, disclaimer), in the form the ingest endpoint prints
     * ({@link TermJson}), with the expected JSON kept beside the page fixture.
     */
    private static void assertLayoutParts(TermContent t, String expected) {
        Map<String, Object> actual = new LinkedHashMap<>(TermJson.of(t));
        actual.keySet().retainAll(Set.of("slug", "title", "aliases", "layer", "companies", "related", "disclaimer"));
        try {
            JsonNode parsed = JSON.valueToTree(actual);
            assertThat(parsed).isEqualTo(JSON.readTree(fixture(expected)));
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A page in the site's text layout, written by the test. */
    private static String page(String title, String definition, String what, String why, String companies,
            String related) {
        StringBuilder sb = new StringBuilder("Skip to content\nAI supply chain term\n\n");
        if (title != null) {
            sb.append(title).append("\n\n");
        }
        if (definition != null) {
            sb.append(definition).append("\n\n");
        }
        if (what != null) {
            sb.append("What it means\n\n").append(what).append("\n\n");
        }
        if (why != null) {
            sb.append("Why it matters to investors\n\n").append(why).append("\n\n");
        }
        if (companies != null) {
            sb.append("Companies on this part of the chain\n\n")
                .append(companies)
                .append("\n\nShown for context only \u2014 research, not advice.\n\n");
        }
        if (related != null) {
            sb.append("Related terms\n\n").append(related).append("\n\n");
        }
        sb.append("See ")
            .append(title == null ? "this term" : title)
            .append(" in the live AI chain.\n\n")
            .append("Explore the features\nAll glossary terms\n");
        return sb.toString();
    }

    private static final String HBM_URL = "https://chainfeed.example/glossary/hbm";

    private static final List<CompanyMention> HBM_COMPANIES = List.of(new CompanyMention("SK hynix", "000660.KS"),
            new CompanyMention("Samsung Electronics", "005930.KS"), new CompanyMention("Micron Technology", "MU"),
            new CompanyMention("NVIDIA", "NVDA"));

    private static List<String> titles(TermContent t) {
        return t.related().stream().map(RelatedTerm::getTitle).toList();
    }

    private static List<String> slugs(TermContent t) {
        return t.related().stream().map(RelatedTerm::getSlug).toList();
    }

    private static List<String> missing(Runnable parse) {
        PageParseException e = catchThrowableOfType(PageParseException.class, parse::run);
        assertThat(e).as("expected a PageParseException").isNotNull();
        for (String item : e.missing()) {
            assertThat(e.getMessage()).contains(item);
        }
        return e.missing();
    }

    // ------------------------------------------------------------------ full pages

    @Test
    void parsesTextPageWithRunTogetherCompaniesAndRelatedTerms() {
        TermContent t = new GlossaryPageParser(FULL).parseText(fixture("hbm-glossary-page.txt"), HBM_URL);

        assertThat(t.title()).isEqualTo("HBM");
        assertThat(t.slug()).isEqualTo("hbm");
        assertThat(t.aliases()).containsExactly("high-bandwidth memory");
        assertThat(t.definition()).startsWith("HBM (high-bandwidth memory) stacks several DRAM dies")
            .endsWith("ordinary chips on a circuit board.");
        assertThat(t.sections()).extracting(Section::getKey).containsExactly("what_it_means", "why_it_matters");
        assertThat(t.sections()).extracting(Section::getHeading)
            .containsExactly("What it means", "Why it matters to investors");
        Section what = t.sections().get(0);
        assertThat(what.getBody()).startsWith("A modern AI accelerator")
            .contains("\n\nIt belongs to the memory layer")
            .endsWith("the first thing to run short.");
        assertThat(t.sections().get(1).getBody()).startsWith("Every high-end accelerator")
            .endsWith("clear visibility on demand.");
        assertThat(t.layerHint()).isEqualTo("memory");
        assertThat(t.companies()).containsExactlyElementsOf(HBM_COMPANIES);
        assertThat(t.related()).containsExactly(
                new RelatedTerm("cowos", "CoWoS",
                        "CoWoS is TSMC\u2019s packaging method that seats memory stacks and a"
                                + " processor side by side on one silicon interposer."),
                new RelatedTerm("tsv", "Through-silicon via (TSV)",
                        "A vertical copper channel etched through a die so"
                                + " that stacked chips can pass signals straight down."),
                new RelatedTerm("memory-wall", "Memory wall",
                        "The widening gap between how fast accelerators compute"
                                + " and how fast memory can feed them."),
                new RelatedTerm("gddr7", "GDDR7", "Graphics memory soldered onto an ordinary board, cheaper per bit but"
                        + " far narrower than a stacked part."));
        assertThat(t.sources()).containsExactly(new Source("HBM \u2014 chainfeed.example", HBM_URL));
        assertThat(t.disclaimer()).isEqualTo("Listed to show who sits on this part of the chain \u2014 research, not"
                + " advice, and not a suggestion to trade any of these shares.");
        assertThat(t.origin()).isEqualTo("page");
    }

    @Test
    void htmlVariantGivesEqualContent() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        TermContent fromText = parser.parseText(fixture("hbm-glossary-page.txt"), HBM_URL);
        TermContent fromHtml = parser.parseHtml(fixture("hbm-glossary-page.html"), HBM_URL);
        assertThat(fromHtml).isEqualTo(fromText);
        assertThat(fromHtml.contentHash()).isEqualTo(fromText.contentHash());

        GlossaryPageParser bare = new GlossaryPageParser(ReferenceData.empty());
        assertThat(bare.parseHtml(fixture("hbm-glossary-page.html"), null))
            .isEqualTo(bare.parseText(fixture("hbm-glossary-page.txt"), null));
    }

    @Test
    void withoutReferenceDataReliesOnParenthesisedTickers() {
        TermContent t = new GlossaryPageParser(ReferenceData.empty()).parseText(fixture("hbm-glossary-page.txt"), null);

        assertThat(t.slug()).isEqualTo("hbm");
        assertThat(t.companies()).containsExactlyElementsOf(HBM_COMPANIES);
        assertThat(titles(t)).containsExactly("CoWoS", "Through-silicon via (TSV)", "Memory wall", "GDDR7");
        assertThat(slugs(t)).containsExactly("cowos", "through-silicon-via-tsv", "memory-wall", "gddr7");
        assertThat(t.layerHint()).isEqualTo("memory layer");
        assertThat(t.sources()).isEmpty();
    }

    @Test
    void pageShapedLikeTheSeedGivesFabricLayerFourCompaniesAndFourRelatedTerms() {
        ReferenceData reference = new ReferenceData(List.of(FABRIC), FABRIC_COMPANIES, List.of());
        TermContent t = new GlossaryPageParser(reference).parseText(fixture("pfc-glossary-page.txt"), null);

        assertLayoutParts(t, "pfc-glossary-page.expected.json");

        // Without any reference data the same page still splits, from the tickers in the
        // prose.
        TermContent bare = new GlossaryPageParser(ReferenceData.empty()).parseText(fixture("pfc-glossary-page.txt"),
                null);
        assertThat(bare.companies()).isEqualTo(t.companies());
        assertThat(bare.related()).isEqualTo(t.related());
        assertThat(bare.layerHint()).isEqualTo("fabric layer");
    }

    @Test
    void knownTermsResolveRelatedSlugsAndTitleSplits() {
        TermContent t = new GlossaryPageParser(FULL).parseText(fixture("pfc-glossary-page.txt"), null);
        assertThat(slugs(t)).containsExactly("infiniband", "roce", "network-fabric", "scale-out-vs-scale-up");
        assertThat(titles(t)).containsExactly("InfiniBand", "AI Ethernet (RoCE)", "Network fabric",
                "Scale-out vs scale-up");
    }

    @Test
    void unknownCompaniesSplitOnMentionsWithFallbackForUnmentionedTicker() {
        TermContent t = new GlossaryPageParser(ReferenceData.empty()).parseText(fixture("cdu-glossary-page.txt"), null);

        assertLayoutParts(t, "cdu-glossary-page.expected.json");
    }

    @Test
    void namesEndingInCapitalsOrDigitsSplitWithReferenceData() {
        String text = page("EUV lithography",
                "EUV lithography prints the finest chip features with 13.5-nanometre light.",
                "Only one supplier builds the scanners, and the leading foundry buys most of them.",
                "The scanner maker and its largest customers set the pace of every node.",
                "ASML HoldingASMLTaiwan Semiconductor Manufacturing2330.TWSamsung Electronics005930.KSNVIDIANVDA",
                "High-NA EUVThe next scanner generation, with a larger lens aperture for finer lines.");
        TermContent t = new GlossaryPageParser(FULL).parseText(text, null);
        assertThat(t.companies()).containsExactly(new CompanyMention("ASML Holding", "ASML"),
                new CompanyMention("Taiwan Semiconductor Manufacturing", "2330.TW"),
                new CompanyMention("Samsung Electronics", "005930.KS"), new CompanyMention("NVIDIA", "NVDA"));
        assertThat(t.related()).containsExactly(new RelatedTerm("high-na-euv", "High-NA EUV",
                "The next scanner generation, with a larger lens aperture for finer lines."));
        assertThat(t.layerHint()).isNull();
        assertThat(t.aliases()).isEmpty();
        assertThat(t.disclaimer()).isEqualTo("Shown for context only \u2014 research, not advice.");
    }

    @Test
    void layerNamedWithTheWordLayerWinsOverAPassingMention() {
        String text = page("CXL", "CXL (Compute Express Link) lets processors share memory over a PCIe-style link.",
                "Servers use it to pool memory across a rack; it lives in the fabric layer of the chain.",
                "Vendors of switches and memory expanders both gain.", null, null);
        TermContent t = new GlossaryPageParser(FULL).parseText(text, null);
        assertThat(t.layerHint()).isEqualTo("network-fabric");
        assertThat(t.aliases()).containsExactly("Compute Express Link");
        assertThat(t.companies()).isEmpty();
        assertThat(t.related()).isEmpty();
        assertThat(t.disclaimer()).isEqualTo(TermContent.DEFAULT_DISCLAIMER);
    }

    @Test
    void acronymTitleTakesTheExpansionBeforeIt() {
        String text = page("CDU", "A coolant distribution unit (CDU) pumps liquid between the racks and the plant.",
                "It balances flow and temperature for every liquid-cooled rack.", "Cooling vendors sell it.", null,
                null);
        TermContent t = new GlossaryPageParser(ReferenceData.empty()).parseText(text, null);
        assertThat(t.aliases()).containsExactly("coolant distribution unit");
        assertThat(t.layerHint()).isNull();
    }

    @Test
    void aTitleWithItsAcronymInParenthesesGivesBothAsAliases() {
        String text = page("Optical circuit switch (OCS)",
                "An optical circuit switch (OCS) steers light between fibres with small mirrors.",
                "It joins two links without turning light into electrical signals.", "Fabric vendors gain.", null,
                null);
        TermContent t = new GlossaryPageParser(ReferenceData.empty()).parseText(text, null);
        assertThat(t.title()).isEqualTo("Optical circuit switch (OCS)");
        assertThat(t.aliases()).containsExactly("Optical circuit switch", "OCS");
    }

    private static final String EUV_DEF = "EUV lithography prints the finest chip features with 13.5-nanometre light.";

    private static final String EUV_WHAT = "Only one supplier builds the scanners, and the leading foundry buys most of them.";

    private static final String EUV_WHY = "The scanner maker and its largest customers set the pace of every node.";

    private static String euvHtml(String titleElement) {
        return "<html><body><header><h1 class=\"logo\"><a href=\"/\">Chainfeed</a></h1></header><main>"
                + "<p class=\"kicker\">AI supply chain term</p>" + titleElement + "<p>" + EUV_DEF + "</p>"
                + "<h2>What it means</h2><p>" + EUV_WHAT + "</p>" + "<h2>Why it matters to investors</h2><p>" + EUV_WHY
                + "</p>" + "<h2>Companies on this part of the chain</h2><ul><li>ASML HoldingASML</li>"
                + "<li><a href=\"/c/tsmc\">Taiwan Semiconductor Manufacturing</a><span>2330.TW</span></li>"
                + "<li>Samsung Electronics 005930.KS</li><li>NVIDIANVDA</li></ul>"
                + "<p>Shown for context only &mdash; research, not advice.</p>"
                + "<h2>Related terms</h2><div class=\"related\"><a href=\"/g/high-na\"><b>High-NA EUV</b>The next"
                + " scanner generation, with a larger lens aperture for finer lines.</a></div>"
                + "<h2>Further reading</h2><p>Links that are not part of this term.</p>"
                + "<p><a href=\"/chain\">See EUV lithography in the live AI chain.</a></p></main></body></html>";
    }

    @Test
    void htmlWithLogoH1ListOfCompaniesAndUnknownHeadingMatchesTextLayout() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        String text = page("EUV lithography", EUV_DEF, EUV_WHAT, EUV_WHY,
                "ASML HoldingASMLTaiwan Semiconductor Manufacturing2330.TWSamsung Electronics005930.KSNVIDIANVDA",
                "High-NA EUVThe next scanner generation, with a larger lens aperture for finer lines.");
        TermContent expected = parser.parseText(text, null);
        assertThat(parser.parseHtml(euvHtml("<h1>EUV lithography</h1>"), null)).isEqualTo(expected);
        // The term's title in an h2 (only the logo is an h1): found by layout, as in
        // scraped text.
        assertThat(parser.parseHtml(euvHtml("<h2 class=\"term\">EUV lithography</h2>"), null)).isEqualTo(expected);
        assertThat(parser.parseHtml(euvHtml("<div class=\"term\">EUV lithography</div>")
            .replace("<header><h1 class=\"logo\"><a href=\"/\">Chainfeed</a></h1></header>", ""), null))
            .isEqualTo(expected);
        // An h1 title followed by a short definition that does not read as a sentence.
        String shortDefinition = euvHtml("<h1>EUV lithography</h1>").replace(EUV_DEF, "Extreme ultraviolet printing");
        assertThat(parser.parseHtml(shortDefinition, null).definition()).isEqualTo("Extreme ultraviolet printing");
    }

    @Test
    void pathologicalPageNearTheLimitIsRefusedQuicklyWithABoundedMessage() {
        StringBuilder related = new StringBuilder();
        while (related.length() < 600_000) {
            related.append("Aa").append("a".repeat(300)).append('.');
        }
        String definition = "PCIe (peripheral component interconnect express) links chips. " + "(ABC) ".repeat(20_000);
        String what = "x".repeat(100_000) + " sits in the " + "layer ".repeat(10_000);
        String companies = "AB".repeat(3_000);
        String text = page("PCIe", definition, what, EUV_WHY, companies, related.toString());
        assertThat(text.length()).isLessThan(GlossaryPageParser.MAX_INPUT_BYTES);
        PageParseException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> catchThrowableOfType(PageParseException.class,
                        () -> new GlossaryPageParser(FULL).parseText(text, null)));
        assertThat(e).isNotNull();
        assertThat(e.missing()).hasSize(7);
        assertThat(e.missing().get(0)).startsWith("company/ticker split: ABAB").endsWith("\u2026").hasSize(223);
        assertThat(e.missing().subList(1, 7)).allMatch(m -> m.startsWith("related term title/summary split: "));
        assertThat(e.missing().get(6)).isEqualTo("related term title/summary split: 1976 more");
        assertThat(e.getMessage().length()).isLessThan(3_000);
    }

    // ------------------------------------------------------------------ noise and
    // robustness

    @Test
    void navigationAndMarketingLinesAreDropped() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        for (TermContent t : List.of(parser.parseText(fixture("hbm-glossary-page.txt"), null),
                parser.parseHtml(fixture("hbm-glossary-page.html"), null))) {
            StringBuilder all = new StringBuilder(t.title()).append('\n')
                .append(t.definition())
                .append('\n')
                .append(t.disclaimer());
            t.sections().forEach(s -> all.append('\n').append(s.getBody()));
            t.related().forEach(r -> all.append('\n').append(r.getTitle()).append(r.getSummary()));
            t.companies().forEach(c -> all.append('\n').append(c.getName()));
            assertThat(all.toString()).doesNotContain("Skip to content", "AI supply chain term", "live AI chain",
                    "Chainfeed", "Explore the features", "All glossary terms", "price targets", "dataLayer",
                    "font-family", "\u001F");
        }
    }

    @Test
    void toleratesCrlfBlankLinesNoBreakSpacesAndInvisibleCharacters() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        String clean = fixture("hbm-glossary-page.txt");
        String messy = "\uFEFF" + clean.replace("\n\n", "\n \n\t\n\n")
            .replace("\n", "\r\n")
            .replace("stacks several", "stacks\u00A0several")
            .replace("What it means", "  What it means:  ")
            .replace("Why it matters to investors", "WHY IT MATTERS TO INVESTORS")
            .replace("Samsung Electronics005930", "Samsung\u00A0Electronics\u200B005930");
        assertThat(parser.parseText(messy, null)).isEqualTo(parser.parseText(clean, null));
    }

    @Test
    void curlyQuotesAndDashesInFixedLinesAreRecognised() {
        String text = page("CPO", "CPO (co-packaged optics) puts the optical engines right beside the switch chip.",
                "It trims the power spent driving signals across a board \u2014 \u201Coptics in the package\u201D.",
                "Switch vendors and laser suppliers both have a stake.", null,
                "Pluggable optics\u201CPluggables\u201D are the transceivers that slot into a switch front panel.")
            .replace("See CPO in the live AI chain.", "See \u201CCPO\u201D in the live AI chain.");
        TermContent t = new GlossaryPageParser(ReferenceData.empty()).parseText(text, null);
        assertThat(t.sections().get(0).getBody()).contains("\u2014 \u201Coptics in the package\u201D.");
        assertThat(t.related()).containsExactly(new RelatedTerm("pluggable-optics", "Pluggable optics",
                "\u201CPluggables\u201D are the transceivers that slot into a switch front panel."));
    }

    @Test
    void isThreadSafe() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        String text = fixture("hbm-glossary-page.txt");
        String html = fixture("hbm-glossary-page.html");
        TermContent expected = parser.parseText(text, HBM_URL);
        List<TermContent> results = IntStream.range(0, 64)
            .parallel()
            .mapToObj(i -> i % 2 == 0 ? parser.parseText(text, HBM_URL) : parser.parseHtml(html, HBM_URL))
            .toList();
        assertThat(results).allMatch(expected::equals);
    }

    // ------------------------------------------------------------------ refusals

    private static final String DEF = "HBM (high-bandwidth memory) stacks memory dies beside a processor.";

    private static final String WHAT = "Stacked dies give a very wide path to the processor.";

    private static final String WHY = "Memory makers such as Micron Technology (MU) gain share.";

    @Test
    void refusesMissingTitle() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        assertThat(missing(() -> parser.parseText(page(null, DEF, WHAT, WHY, "Micron TechnologyMU", null), null)))
            .containsExactly("title");
        String fromFixture = fixture("hbm-glossary-page.txt").replace("\nHBM\n", "\n");
        assertThat(missing(() -> parser.parseText(fromFixture, null))).containsExactly("title");
    }

    @Test
    void refusesMissingDefinition() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        assertThat(missing(() -> parser.parseText(page("HBM", null, WHAT, WHY, null, null), null)))
            .containsExactly("definition");
    }

    @Test
    void refusesMissingSections() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        assertThat(missing(() -> parser.parseText(page("HBM", DEF, null, WHY, null, null), null)))
            .containsExactly("What it means");
        assertThat(missing(() -> parser.parseText(page("HBM", DEF, WHAT, null, null, null), null)))
            .containsExactly("Why it matters to investors");
        assertThat(missing(() -> parser.parseText(page(null, null, null, null, null, null), null)))
            .containsExactly("title", "definition", "What it means", "Why it matters to investors");
        // A heading with nothing under it is as good as missing.
        String emptyWhat = page("HBM", DEF, WHAT, WHY, null, null).replace(WHAT, "");
        assertThat(missing(() -> parser.parseText(emptyWhat, null))).containsExactly("What it means");
    }

    @Test
    void refusesGarbledCompanyLineNamingIt() {
        String garbled = "SK hynix, Samsung Electronics and Micron Technology";
        String text = fixture("hbm-glossary-page.txt")
            .replace("SK hynix000660.KSSamsung Electronics005930.KSMicron TechnologyMUNVIDIANVDA", garbled);
        assertThat(missing(() -> new GlossaryPageParser(FULL).parseText(text, null)))
            .containsExactly("company/ticker split: " + garbled);
        assertThat(missing(() -> new GlossaryPageParser(ReferenceData.empty()).parseText(text, null)))
            .containsExactly("company/ticker split: " + garbled);
        // A companies heading with no line under it.
        String noLine = fixture("hbm-glossary-page.txt")
            .replace("SK hynix000660.KSSamsung Electronics005930.KSMicron TechnologyMUNVIDIANVDA\n", "");
        assertThat(missing(() -> new GlossaryPageParser(FULL).parseText(noLine, null)))
            .containsExactly("company line under \"Companies on this part of the chain\"");
    }

    @Test
    void refusesRelatedLineWithoutTitleBoundaries() {
        String related = "related reading on memory bandwidth and packaging";
        String text = page("HBM", DEF, WHAT, WHY, null, related);
        assertThat(missing(() -> new GlossaryPageParser(ReferenceData.empty()).parseText(text, null)))
            .containsExactly("related term title/summary split: " + related);
    }

    @Test
    void refusesEmptyAndOversizedInput() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        assertThat(missing(() -> parser.parseText("", null))).containsExactly("content");
        assertThat(missing(() -> parser.parseText(" \r\n\u00A0\n", null))).containsExactly("content");
        assertThat(missing(() -> parser.parseText(null, null))).containsExactly("content");
        assertThat(missing(() -> parser.parseHtml("<html><body><script>var x = 1;</script></body></html>", null)))
            .containsExactly("content");
        String big = fixture("hbm-glossary-page.txt") + "x".repeat(GlossaryPageParser.MAX_INPUT_BYTES);
        assertThat(missing(() -> parser.parseText(big, null))).containsExactly("input of at most 1 MiB");
        // 400k three-byte characters: under 1 Mi chars but over 1 MiB of UTF-8.
        String wide = "\u20AC".repeat(400_000);
        assertThat(missing(() -> parser.parseHtml(wide, null))).containsExactly("input of at most 1 MiB");
    }

    @Test
    void rejectsSourceUrlThatIsNotAbsoluteHttp() {
        GlossaryPageParser parser = new GlossaryPageParser(FULL);
        String text = fixture("hbm-glossary-page.txt");
        assertThatThrownBy(() -> parser.parseText(text, "/glossary/hbm")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> parser.parseText(text, "file:///etc/hosts"))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> parser.parseText(text, "http://bad host/"))
            .isInstanceOf(IllegalArgumentException.class);
    }

}
