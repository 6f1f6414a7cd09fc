package io.chainfeed.api.widget;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.platform.Sha256;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbedPageCacheTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final EmbedPageCache cache = new EmbedPageCache(100, meters);

    @Test
    void aPageIsBuiltOnceWithItsTagAndPolicy() {
        Map<String, String> attrs = EmbedPages.common("cf_k", "dark", null);
        attrs.put("term", "rdma");
        EmbedPageCache.Page first = cache.page("chainfeed-term", "t", attrs, List.of("https://a.example"));
        EmbedPageCache.Page again = cache.page("chainfeed-term", "t", EmbedPages.common("cf_k", "dark", null),
                List.of("https://a.example"));
        // a different attribute list is a different page
        assertThat(again).isNotSameAs(first);
        attrs = EmbedPages.common("cf_k", "dark", null);
        attrs.put("term", "rdma");
        assertThat(cache.page("chainfeed-term", "t", attrs, List.of("https://a.example"))).isSameAs(first);

        assertThat(first.html()).isEqualTo(EmbedPages.page("chainfeed-term", "t", attrs));
        assertThat(first.csp()).isEqualTo(EmbedPages.csp(List.of("https://a.example")));
        assertThat(first.etag()).isEqualTo("\"" + Sha256.hexPrefix(first.html(), 16) + "\"").hasSize(34);
        assertThat(meters.get("cache.gets").tag("cache", "embed-pages").tag("result", "hit").functionCounter().count())
            .isEqualTo(1);
    }

    @Test
    void otherOriginsAreAnotherPageAndTheCallersMapIsNotKept() {
        Map<String, String> attrs = EmbedPages.common("cf_k", "auto", null);
        EmbedPageCache.Page a = cache.page("chainfeed-chain", "t", attrs, List.of("https://a.example"));
        EmbedPageCache.Page b = cache.page("chainfeed-chain", "t", attrs, List.of("https://b.example"));
        assertThat(b.csp()).endsWith("frame-ancestors https://b.example");
        assertThat(a.csp()).endsWith("frame-ancestors https://a.example");
        attrs.put("theme", "light");
        assertThat(cache.page("chainfeed-chain", "t", attrs, List.of("https://a.example")).html())
            .contains("theme=\"light\"")
            .isNotEqualTo(a.html());
    }

}
