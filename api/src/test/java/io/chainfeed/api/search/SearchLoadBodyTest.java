package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.json.JsonpUtils;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.ingest.corpus.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code api/load/search-load.sh} sends Elasticsearch {@code api/load/search-body.json}
 * as the direct side of its comparison: it must be the very body the API sends for a
 * first page of that one-word query, with the bundled corpus's synonyms, or the
 * comparison measures two different searches.
 */
class SearchLoadBodyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theLoadScriptsElasticsearchBodyIsTheApisFirstPageRequest() throws Exception {
        Corpus corpus = Corpus.loadBundled();
        SearchCatalog catalog = SearchCatalog.of(corpus.terms()
            .stream()
            .map(t -> new SearchCatalog.TermNames(t.slug(), t.title(), t.aliases()))
            .toList(), List.of(), List.of());
        // No company directory: the words checked here name no company.
        SearchQuery search = new SearchQuery(catalog,
                io.chainfeed.api.reference.CompanyResolver.of(io.chainfeed.schemas.CompanyDirectory.empty()));
        if (Boolean.getBoolean("golden.update")) {
            // Rewrites the file from the code, as SearchQueryTest does its golden queries
            // (then read the diff).
            String memory = JsonpUtils.toJsonString(
                    PageRequests.request(search.build(QueryText.parse("memory"), ReadSearch.Filters.NONE, true), 10,
                            null, null, PageRequests.excludes(false, false)),
                    new JacksonJsonpMapper());
            Files.writeString(Path.of("load/search-body.json"),
                    JSON.writerWithDefaultPrettyPrinter()
                        .writeValueAsString(JSON.readTree(memory))
                        .replace("memory", "__Q__") + "\n");
        }
        String template = Files.readString(Path.of("load/search-body.json"));
        for (String word : List.of("memory", "network", "packaging")) {
            var request = PageRequests.request(search.build(QueryText.parse(word), ReadSearch.Filters.NONE, true), 10,
                    null, null, PageRequests.excludes(false, false));
            assertThat(request.index()).containsExactly(io.chainfeed.platform.ReadsIndex.ALIAS);
            String sent = JsonpUtils.toJsonString(request, new JacksonJsonpMapper());
            assertThat(JSON.readTree(sent)).as(word).isEqualTo(JSON.readTree(template.replace("__Q__", word)));
        }
        // A word that names a glossary term adds synonyms and a boost: the template does
        // not fit it, and
        // this test would say so.
        String hbm = JsonpUtils
            .toJsonString(PageRequests.request(search.build(QueryText.parse("hbm"), ReadSearch.Filters.NONE, true), 10,
                    null, null, PageRequests.excludes(false, false)), new JacksonJsonpMapper());
        assertThat(JSON.readTree(hbm)).isNotEqualTo(JSON.readTree(template.replace("__Q__", "hbm")));
    }

}
