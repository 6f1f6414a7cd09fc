package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.schemas.ReadDocument;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchAnswerTest {

    private static SearchAnswer read(String json) throws IOException {
        return SearchAnswer.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsHitsTotalsAndTypedKeyAggregations() throws IOException {
        SearchAnswer a = read("""
                {"took":12,"timed_out":false,"pit_id":"p1","_shards":{"total":1},
                 "hits":{"total":{"value":1469,"relation":"eq"},"max_score":null,"hits":[
                   {"_index":"chainfeed-reads-v1","_id":"term:dram","_score":41.5,
                    "_source":{"id":"term:dram","version":3,"weight":0.25,"sections":[{"key":"a","body":"b"}]},
                    "highlight":{"summary":["<mark>DRAM</mark>"]},"sort":[41.5,"term:dram"]}]},
                 "aggregations":{"sterms#layer":{"doc_count_error_upper_bound":0,"buckets":[
                     {"key":"memory|Memory","doc_count":7}]},
                   "date_histogram#updated":{"buckets":[
                     {"key_as_string":"2026-11","key":1793491200000,"doc_count":9}]}}}
                """);
        assertThat(a.took()).isEqualTo(12);
        assertThat(a.pitId()).isEqualTo("p1");
        assertThat(a.hits().total().value()).isEqualTo(1469);
        SearchAnswer.Hit hit = a.hits().hits().get(0);
        assertThat(hit.score()).isEqualTo(41.5);
        assertThat(hit.sort()).containsExactly(41.5, "term:dram");
        assertThat(hit.source().id()).isEqualTo("term:dram");
        assertThat(hit.source().version()).isEqualTo(3L);
        assertThat(hit.source().sections()).as("a member the record does not name (weight) is ignored")
            .containsExactly(new ReadDocument.Section("a", null, "b"));
        assertThat(hit.highlight()).containsEntry("summary", List.of("<mark>DRAM</mark>"));
        assertThat(a.buckets("layer")).containsExactly(new SearchAnswer.Bucket("memory|Memory", null, 7));
        assertThat(a.buckets("updated")).extracting(SearchAnswer.Bucket::keyAsString, SearchAnswer.Bucket::docCount)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("2026-11", 9L));
        assertThat(a.buckets("company")).isEmpty();
    }

    @Test
    void anAnswerWithoutHighlightsOrPitLeavesThemNull() throws IOException {
        SearchAnswer a = read("""
                {"took":1,"hits":{"total":{"value":0,"relation":"eq"},"hits":[]}}""");
        assertThat(a.pitId()).isNull();
        assertThat(a.hits().hits()).isEmpty();
        assertThat(a.buckets("layer")).isEmpty();
    }

    @Test
    void aMultiSearchBodyIsAHeaderAndABodyLinePerSearch() {
        var first = co.elastic.clients.elasticsearch.core.SearchRequest
            .of(r -> r.index("chainfeed-reads").size(2).query(q -> q.matchAll(m -> m)));
        var second = co.elastic.clients.elasticsearch.core.SearchRequest.of(r -> r.index("chainfeed-reads").size(0));
        String body = new String(
                SearchAnswer.ndjson(new co.elastic.clients.json.jackson.JacksonJsonpMapper(), List.of(first, second)),
                StandardCharsets.UTF_8);
        assertThat(body).isEqualTo("""
                {"index":["chainfeed-reads"]}
                {"query":{"match_all":{}},"size":2}
                {"index":["chainfeed-reads"]}
                {"size":0}
                """);
    }

    @Test
    void aSearchInAPointInTimeCannotGoInAMultiSearch() {
        var inPit = co.elastic.clients.elasticsearch.core.SearchRequest.of(r -> r.pit(p -> p.id("p1")));
        org.assertj.core.api.Assertions
            .assertThatThrownBy(
                    () -> SearchAnswer.ndjson(new co.elastic.clients.json.jackson.JacksonJsonpMapper(), List.of(inPit)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("point in time");
    }

    @Test
    void aFailedSearchOfAMultiSearchIsTheClientsErrorForIt() throws IOException {
        SearchAnswer ok = read("""
                {"took":3,"hits":{"total":{"value":0,"relation":"eq"},"hits":[]},"status":200}""");
        SearchAnswer failed = read("""
                {"error":{"type":"search_phase_execution_exception","reason":"all shards failed"},"status":400}""");
        assertThat(ok.failure("es/msearch")).isNull();
        var e = failed.failure("es/msearch");
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.error().type()).isEqualTo("search_phase_execution_exception");
        assertThat(e.getMessage()).contains("all shards failed");
    }

    @Test
    void aFailedShardFailsTheAnswer() throws IOException {
        SearchAnswer partial = read("""
                {"took":3,"_shards":{"total":2,"failed":1,"failures":[{"reason":"x"}]},"hits":{"hits":[]}}""");
        org.assertj.core.api.Assertions.assertThatThrownBy(partial::whole)
            .isInstanceOf(IOException.class)
            .hasMessageContaining("1 shard(s)");
    }

}
