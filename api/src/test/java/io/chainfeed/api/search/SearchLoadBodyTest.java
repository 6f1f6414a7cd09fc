package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.ingest.corpus.Corpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code api/load/search-load.sh} sends Elasticsearch {@code api/load/search-body.ndjson}
 * ({@code POST _msearch}) as the direct side of its comparison: it must be the very
 * multi-search the API sends for a first page of that one-word query (the page and its
 * two sections), with the bundled corpus's synonyms, or the comparison measures two
 * different amounts of work.
 */
class SearchLoadBodyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theLoadScriptsElasticsearchBodyIsTheApisFirstPageMultiSearch() throws Exception {
        Corpus corpus = Corpus.loadBundled();
        SearchCatalog catalog = SearchCatalog.of(corpus.terms()
            .stream()
            .map(t -> new SearchCatalog.TermNames(t.slug(), t.title(), t.aliases()))
            .toList(), List.of(), List.of());
        // No company directory: the words checked here name no company.
        Searches search = new Searches(catalog);
        if (Boolean.getBoolean("golden.update")) {
            // Rewrites the file from the code, as SearchQueryTest does its golden queries
            // (then read the diff).
            Files.writeString(Path.of("load/search-body.ndjson"), body(search, "memory").replace("memory", "__Q__"));
        }
        String template = Files.readString(Path.of("load/search-body.ndjson"));
        for (String word : List.of("memory", "network", "packaging")) {
            String sent = body(search, word);
            assertThat(lines(sent)).as(word).isEqualTo(lines(template.replace("__Q__", word)));
        }
        // A word that names a glossary term adds synonyms and a boost: the template does
        // not fit it, and this test would say so.
        assertThat(lines(body(search, "hbm"))).isNotEqualTo(lines(template.replace("__Q__", "hbm")));
    }

    /**
     * The hybrid side ({@code RANKING=hybrid}): {@code load/search-body-hybrid.ndjson} is
     * the API's four searches of a hybrid first page (the three above and the vector
     * search), with {@code __V__} where the query's vector goes, and
     * {@code load/search-vectors.tsv} holds the vector of every word of
     * {@code load/search-words.txt} as the model makes it, so the script sends
     * Elasticsearch what the API sends.
     */
    @Test
    void theHybridBodyAndTheWordsVectorsAreTheApisToo() throws Exception {
        Searches search = new Searches(catalog());
        List<String> words = Files.readAllLines(Path.of("load/search-words.txt"))
            .stream()
            .map(String::strip)
            .filter(w -> !w.isEmpty() && !w.startsWith("#"))
            .toList();
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(Path.of("load/search-body-hybrid.ndjson"),
                    hybridBody(search, "memory").replaceAll("\"query_vector\":\\[[^\\]]*\\]", "\"query_vector\":__V__")
                        .replace("memory", "__Q__"));
            StringBuilder tsv = new StringBuilder(
                    "# word<TAB>its query vector (SentenceEmbedder), for search-load.sh; SearchLoadBodyTest checks it\n");
            for (String w : words) {
                tsv.append(w)
                    .append('\t')
                    .append(vectorJson(io.chainfeed.embeddings.SentenceEmbedder.shared().embed(w)))
                    .append('\n');
            }
            Files.writeString(Path.of("load/search-vectors.tsv"), tsv.toString());
        }
        String template = Files.readString(Path.of("load/search-body-hybrid.ndjson"));
        java.util.Map<String, String> vectors = new java.util.HashMap<>();
        for (String line : Files.readAllLines(Path.of("load/search-vectors.tsv"))) {
            if (!line.startsWith("#")) {
                String[] parts = line.split("\t");
                vectors.put(parts[0], parts[1]);
            }
        }
        assertThat(vectors.keySet()).containsExactlyInAnyOrderElementsOf(words);
        for (String w : words) {
            assertThat(lines(vectors.get(w)))
                .isEqualTo(lines(vectorJson(io.chainfeed.embeddings.SentenceEmbedder.shared().embed(w))));
            assertThat(lines(hybridBody(search, w))).as(w)
                .isEqualTo(lines(template.replace("__Q__", w).replace("__V__", vectors.get(w))));
        }
    }

    private static SearchCatalog catalog() {
        return SearchCatalog.of(Corpus.loadBundled()
            .terms()
            .stream()
            .map(t -> new SearchCatalog.TermNames(t.slug(), t.title(), t.aliases()))
            .toList(), List.of(), List.of());
    }

    /**
     * A vector as the client writes it: a JSON array of each float widened to a double.
     */
    private static String vectorJson(float[] v) throws Exception {
        List<Double> values = new ArrayList<>();
        for (float f : v) {
            values.add((double) f);
        }
        return JSON.writeValueAsString(values);
    }

    /**
     * The multi-search body of a one-word query's hybrid first page, as the API sends it.
     */
    private static String hybridBody(Searches search, String word) throws Exception {
        return new String(
                SearchAnswer.ndjson(new JacksonJsonpMapper(),
                        PageRequests.hybridFirstPage(search.queries(), search.analyse(word), ReadSearch.Filters.NONE,
                                10, PageRequests.excludes(false, false),
                                io.chainfeed.embeddings.SentenceEmbedder.shared().embed(word), 50)),
                StandardCharsets.UTF_8);
    }

    /** The multi-search body of a one-word query's first page, as the API sends it. */
    private static String body(Searches search, String word) throws Exception {
        return new String(
                SearchAnswer.ndjson(new JacksonJsonpMapper(), PageRequests.firstPage(search.queries(),
                        search.analyse(word), ReadSearch.Filters.NONE, 10, PageRequests.excludes(false, false))),
                StandardCharsets.UTF_8);
    }

    /**
     * The query builder and the analyser of a search without a company directory (the
     * words checked here name no company) or chain layers.
     */
    private record Searches(SearchQuery queries, QueryAnalyser analyser) {

        Searches(SearchCatalog catalog) {
            this(new SearchQuery(COMPANIES),
                    new QueryAnalyser(catalog, COMPANIES, words -> java.util.Optional.empty()));
        }

        AnalysedQuery analyse(String text) throws java.io.IOException {
            return analyser.analyse(text);
        }

    }

    private static final io.chainfeed.api.reference.CompanyResolver COMPANIES = io.chainfeed.api.reference.CompanyResolver
        .of(io.chainfeed.schemas.CompanyDirectory.empty());

    /** Each line of a multi-search body as a JSON tree (key order aside). */
    private static List<JsonNode> lines(String ndjson) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : ndjson.split("\n")) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

}
