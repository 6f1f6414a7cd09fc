package io.chainfeed.api.widget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.support.problem.BadRequestException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbedPagesTest {

    @Test
    void attributeValuesAreEscapedAndNothingIsInline() {
        Map<String, String> attrs = EmbedPages.common("cf_x\"><script>alert(1)</script>", "dark", null);
        attrs.put("topic", "layer:a & b");
        attrs.put("live", "");
        String html = EmbedPages.page("chainfeed-feed", "feed <x>", attrs);
        assertThat(html).contains("<chainfeed-feed key=\"cf_x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\" "
                + "theme=\"dark\" topic=\"layer:a &amp; b\" live></chainfeed-feed>");
        assertThat(html).contains("<title>feed &lt;x&gt;</title>", "<html lang=\"en\" data-chainfeed-embed>",
                "<script src=\"/widget/v1/chainfeed.js\" defer></script>");
        assertThat(html).doesNotContain("<script>", "<style", "style=", "locale=");
    }

    @Test
    void framedOnlyByTheKeysOrigins() {
        assertThat(EmbedPages.csp(List.of("https://a.example", "http://localhost:8090")))
            .endsWith("frame-ancestors https://a.example http://localhost:8090")
            .contains("script-src 'self'", "connect-src 'self'")
            .doesNotContain("unsafe-inline", "*");
        assertThat(EmbedPages.csp(List.of())).endsWith("frame-ancestors 'none'");
    }

    @Test
    void themeLocaleAndLimitAreChecked() {
        assertThat(EmbedController.theme("Dark")).isEqualTo("dark");
        assertThatThrownBy(() -> EmbedController.theme("\"><b>")).isInstanceOf(BadRequestException.class);
        assertThat(EmbedController.locale("zh-Hant-TW")).isEqualTo("zh-Hant-TW");
        assertThat(EmbedController.locale(null)).isNull();
        assertThatThrownBy(() -> EmbedController.locale("en\" onload=\"x")).isInstanceOf(BadRequestException.class);
        assertThatThrownBy(() -> EmbedController.limit(0)).isInstanceOf(BadRequestException.class);
        assertThatThrownBy(() -> EmbedController.limit(21)).isInstanceOf(BadRequestException.class);
        assertThat(EmbedController.limit(20)).isEqualTo(20);
    }

}
