package io.chainfeed.api.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.support.problem.BadRequestException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class FeedBasicsTest {

    @Test
    void xmlCharsDropsOnlyWhatXml10Forbids() {
        assertThat(XmlChars.clean(null)).isNull();
        String fine = "tab\there\nCR\r é ü 中 \uD83D\uDE80 \u007F\u0085 \uFFFD";
        assertThat(XmlChars.clean(fine)).isSameAs(fine);
        assertThat(XmlChars.clean("a\u0000b\u0008c\u001Fd\uFFFEe\uFFFFf")).isEqualTo("abcdef");
        assertThat(XmlChars.clean("lone \uD800 high, lone \uDC00 low, pair \uD83D\uDE80"))
            .isEqualTo("lone  high, lone  low, pair \uD83D\uDE80");
        assertThat(XmlChars.clean("\uDE80\uD83D")).as("a pair in the wrong order is two lone halves").isEmpty();
    }

    @Test
    void cursorsRoundTripAndGarbageIsA400() {
        FeedCursor c = new FeedCursor(Instant.parse("2026-11-01T09:30:00.123Z"), "signal:a:b");
        assertThat(FeedCursor.decode(c.encode())).isEqualTo(c);
        for (String bad : new String[] { "", "!!!",
                Base64.getUrlEncoder().encodeToString("x:y".getBytes(StandardCharsets.UTF_8)),
                Base64.getUrlEncoder().encodeToString("12:".getBytes(StandardCharsets.UTF_8)), "a".repeat(2000) }) {
            assertThatThrownBy(() -> FeedCursor.decode(bad)).isInstanceOf(BadRequestException.class)
                .extracting(e -> ((BadRequestException) e).type())
                .isEqualTo("invalid-cursor");
        }
    }

    @Test
    void idsAreTagUrisIndependentOfTheHost() {
        FeedLinks a = new FeedLinks("chainfeed.io,2026", "https://a.example");
        FeedLinks b = new FeedLinks("chainfeed.io,2026", "");
        assertThat(a.entryId("term:rdma")).isEqualTo(b.entryId("term:rdma"))
            .isEqualTo("tag:chainfeed.io,2026:read/term:rdma");
        assertThat(a.entryId("signal:a b&c")).isEqualTo("tag:chainfeed.io,2026:read/signal:a%20b%26c");
        assertThat(a.feedId(Selector.parse("TERM:rdma and company:anet")))
            .isEqualTo(a.feedId(Selector.parse("company:ANET term:rdma")));
        assertThatThrownBy(() -> new FeedLinks("not a tag authority", "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pagePathsAndDiscoveryLinksFollowTheTopic() {
        assertThat(FeedLinks.pagePath(Selector.parse("term:rdma"))).isEqualTo("/terms/rdma");
        assertThat(FeedLinks.pagePath(Selector.parse("company:2345.tw"))).isEqualTo("/companies/2345.TW");
        assertThat(FeedLinks.pagePath(Selector.parse("layer:memory"))).isEqualTo("/layers/memory");
        assertThat(FeedLinks.pagePath(Selector.parse("layer:memory OR term:rdma"))).isEqualTo("/");
        assertThat(FeedLinks.pagePath(Selector.parse("NOT term:rdma"))).isEqualTo("/");
        assertThat(FeedLinks.discovery(Selector.parse("term:rdma"))).containsExactly(
                java.util.Map.entry("application/atom+xml", "/api/v1/feeds/atom?topic=term%3Ardma"),
                java.util.Map.entry("application/feed+json", "/api/v1/feeds/json?topic=term%3Ardma"));
    }

}
