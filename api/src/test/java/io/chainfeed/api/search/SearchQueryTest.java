package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.json.JsonpUtils;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.schemas.CompanyDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The query the search builds, compared with golden JSON under
 * {@code src/test/resources/search/golden}: a change of a boost, a field, the fuzziness
 * or the fall-back shows as a diff of a file, reviewed with the change.
 * {@code -Dgolden.update=true} rewrites the files from the code (then read the diff).
 */
class SearchQueryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Path GOLDEN = Path.of("src/test/resources/search/golden");

    private static SearchQuery queries;

    private static QueryAnalyser analyser;

    @BeforeAll
    static void build() {
        Corpus corpus = Corpus.loadBundled();
        SearchCatalog catalog = SearchCatalog.of(corpus.terms()
            .stream()
            .map(t -> new SearchCatalog.TermNames(t.slug(), t.title(), t.aliases(),
                    t.related().stream().map(r -> r.getSlug()).toList()))
            .toList(), List.of(), List.of());
        CompanyDirectory directory = CompanyDirectory.of(corpus.companies());
        CompanyResolver companies = CompanyResolver.of(directory);
        queries = new SearchQuery(companies);
        analyser = new QueryAnalyser(catalog, companies, words -> java.util.Optional.empty());
    }

    static List<Object[]> cases() {
        ReadSearch.Filters filtered = new ReadSearch.Filters(List.of("memory"), List.of("000660.KS"), true,
                List.of("hbm"), List.of("signal"), Instant.parse("2025-01-01T00:00:00Z"),
                Instant.parse("2026-01-01T00:00:00Z"));
        return List.of(new Object[] { "one-word", "memory", ReadSearch.Filters.NONE, true },
                new Object[] { "term-with-synonyms", "hbm", ReadSearch.Filters.NONE, true },
                new Object[] { "two-term-names", "infiniband nvlink", ReadSearch.Filters.NONE, true },
                new Object[] { "ticker", "TSM", ReadSearch.Filters.NONE, true },
                new Object[] { "phrase-and-exclusion", "\"advanced packaging\" -glass", ReadSearch.Filters.NONE, true },
                new Object[] { "company-and-words", "sk hynix hbm shortage", ReadSearch.Filters.NONE, true },
                new Object[] { "fall-back", "sk hynix hbm shortage of the", ReadSearch.Filters.NONE, false },
                new Object[] { "filters", "price", filtered, true },
                new Object[] { "excluded-company", "AI accelerators other than Nvidia", ReadSearch.Filters.NONE, true },
                new Object[] { "year", "is HBM still sold out in 2026", ReadSearch.Filters.NONE, true });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theQueryIsTheGoldenOne(String name, String text, ReadSearch.Filters filters, boolean all) throws Exception {
        Query q = queries.build(analyser.analyse(text), filters, all);
        String built = JsonpUtils.toJsonString(q, new JacksonJsonpMapper());
        Path file = GOLDEN.resolve(name + ".json");
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(file,
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsString(JSON.readTree(built)) + "\n");
        }
        assertThat(JSON.readTree(built)).as(name + ": " + built).isEqualTo(JSON.readTree(Files.readString(file)));
    }

}
