package io.chainfeed.api.widget;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.selector.Selector;
import org.junit.jupiter.api.Test;

class OEmbedUrlsTest {

    private static final String US = "http://localhost:8080";

    @Test
    void onlyPagesOnOurOriginAreOurs() {
        assertThat(OEmbedController.ourPath(US, "http://localhost:8080/terms/rdma")).contains("/terms/rdma");
        assertThat(OEmbedController.ourPath(US, "HTTP://LocalHost:8080/terms/rdma/?x=1#y")).contains("/terms/rdma");
        assertThat(OEmbedController.ourPath("https://chainfeed.example", "https://chainfeed.example:443/chain"))
            .contains("/chain");
        assertThat(OEmbedController.ourPath(US, "http://localhost:8081/terms/rdma")).isEmpty();
        assertThat(OEmbedController.ourPath(US, "https://localhost:8080/terms/rdma")).isEmpty();
        assertThat(OEmbedController.ourPath(US, "http://user@localhost:8080/terms/rdma")).isEmpty();
        assertThat(OEmbedController.ourPath(US, "/terms/rdma")).isEmpty();
        assertThat(OEmbedController.ourPath(US, "not a url")).isEmpty();
        assertThat(OEmbedController.ourPath(US, null)).isEmpty();
    }

    @Test
    void aTopicOfOneTestLinksToItsPage() {
        assertThat(WidgetViews.topicPage(US, Selector.parse("layer:network-fabric")))
            .isEqualTo(US + "/layers/network-fabric");
        assertThat(WidgetViews.topicPage(US, Selector.parse("company:2345.tw"))).isEqualTo(US + "/companies/2345.TW");
        assertThat(WidgetViews.topicPage(US, Selector.parse("term:rdma"))).isEqualTo(US + "/terms/rdma");
        assertThat(WidgetViews.topicPage(US, Selector.parse("layer:memory OR layer:compute"))).isEqualTo(US + "/");
        assertThat(WidgetViews.topicPage(US, Selector.parse("kind:signal"))).isEqualTo(US + "/");
    }

    @Test
    void discoveryLinkIsEscapedAndPointsAtTheOEmbedEndpoint() {
        assertThat(OEmbedDiscovery.link(US, "/terms/" + OEmbedDiscovery.segment("a\"b"), "x<y"))
            .isEqualTo("<link rel=\"alternate\" type=\"application/json+oembed\" href=\"http://localhost:8080/oembed"
                    + "?url=http%3A%2F%2Flocalhost%3A8080%2Fterms%2Fa%2522b&amp;format=json\" title=\"x&lt;y\">");
    }

}
