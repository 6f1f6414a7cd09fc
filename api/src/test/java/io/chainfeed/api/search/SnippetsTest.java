package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.StoredDocuments;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.CompanyResolverTest;
import io.chainfeed.schemas.ReadDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnippetsTest {

    private static ReadDocument doc(String kind, String summary, String body, Map<String, Object> evidence) {
        return StoredDocuments.doc(Map.of("kind", kind, "title", "CoWoS", "summary", summary, "sections",
                List.of(Map.of("key", "why", "heading", "Why", "body", body)), "companies",
                List.of(Map.of("id", "tsmc", "symbol", "2330.TW", "evidence", List.of(
                        Map.of("rule", "declared-company", "field", "metadata", "start", -1, "end", -1, "text", "TSMC"),
                        evidence)))));
    }

    @Test
    void theEvidenceSentenceIsEscapedWithTheSpanMarked() {
        String body = "Packaging is scarce. Taiwan <Semi> & co (TSM) runs the lines. Demand keeps rising.";
        int start = body.indexOf("TSM)");
        ReadDocument d = doc("signal", "s", body, Map.of("rule", "ticker-in-parentheses", "field", "why", "start",
                start, "end", start + 3, "text", "TSM"));
        assertThat(Snippets.companyEvidence(d, "tsmc"))
            .isEqualTo("Taiwan &lt;Semi&gt; &amp; co (<mark>TSM</mark>) runs the lines.");
        assertThat(Snippets.companyEvidence(d, "nvidia")).isNull();
        // Offsets that do not fit the text give no snippet rather than a wrong one.
        ReadDocument bad = doc("signal", "s", "short",
                Map.of("rule", "ticker", "field", "why", "start", 3, "end", 40, "text", "TSM"));
        assertThat(Snippets.companyEvidence(bad, "tsmc")).isNull();
    }

    @Test
    void aLongSentenceIsCutAroundTheSpan() {
        String body = "word ".repeat(100) + "TSMC" + " more".repeat(100) + ".";
        int start = body.indexOf("TSMC");
        String s = Snippets.sentence(body, start, start + 4);
        assertThat(s).startsWith("…").endsWith("…").contains("<mark>TSMC</mark>");
        assertThat(Matches.unhighlight(s).length()).isLessThanOrEqualTo(Snippets.MAX_CHARS + 2);
    }

    @Test
    void aTermsOwnReadLeadsWithItsDefinition() {
        ReadDocument term = doc("term", "CoWoS is <TSMC's> packaging.", "body", Map.of());
        assertThat(Snippets.definitionFirst(term, List.of("a <mark>body</mark> fragment")))
            .containsExactly("CoWoS is &lt;TSMC&#39;s&gt; packaging.", "a <mark>body</mark> fragment");
        assertThat(Snippets.definitionFirst(term,
                List.of("a fragment", "CoWoS is &lt;<mark>TSMC</mark>&#39;s&gt; packaging.")))
            .containsExactly("CoWoS is &lt;<mark>TSMC</mark>&#39;s&gt; packaging.", "a fragment");
        ReadDocument signal = doc("signal", "headline", "body", Map.of());
        assertThat(Snippets.definitionFirst(signal, List.of("x"))).containsExactly("x");
    }

    @Test
    void queryWordsKnowStopWordsAndCompanies() {
        CompanyResolver r = CompanyResolver.of(CompanyResolverTest.DIRECTORY);
        assertThat(QueryWords.isStopWord("out")).isTrue();
        assertThat(QueryWords.isStopWord("sold")).isFalse();
        assertThat(QueryWords.companies(QueryText.parse("cowos TSM"), r)).extracting(c -> c.getId())
            .containsExactly("tsmc");
        assertThat(QueryWords.companies(QueryText.parse("2330.tw xnys:tsm tsmc"), r)).hasSize(1);
        assertThat(QueryWords.companies(QueryText.parse("\"taiwan semiconductor\""), r)).hasSize(1);
        // "on" is a word, "ON" a ticker; a lower-case symbol without digits or dots is
        // not a company.
        assertThat(QueryWords.companies(QueryText.parse("power on"), r)).isEmpty();
        assertThat(QueryWords.companies(QueryText.parse("ON"), r)).extracting(c -> c.getId()).containsExactly("onsemi");
        assertThat(QueryWords.companies(QueryText.parse("anet"), r)).isEmpty();
        assertThat(QueryWords.companies(QueryText.parse("arista"), r)).hasSize(1);
    }

    @Test
    void theFallBackSaysWhatItDid() {
        assertThat(FallBack.fallBackNotice(QueryText.parse("sold out"))).isEqualTo(
                "no read has all of: sold, out; showing reads with some (out is too common to match on its own)");
        assertThat(FallBack.fallBackNotice(QueryText.parse("hbm OR dram \"sold out\"")))
            .isEqualTo("no read has all of: hbm or dram, \"sold out\"; showing reads with some");
    }

}
