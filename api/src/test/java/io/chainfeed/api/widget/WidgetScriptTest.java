package io.chainfeed.api.widget;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The widget script as served: at most 8 KB gzipped (gzip at its default level, as a
 * server or CDN compresses it), and it never turns data into markup.
 */
class WidgetScriptTest {

    static final int MAX_GZIPPED_BYTES = 8 * 1024;

    private static byte[] script() throws IOException {
        try (InputStream in = WidgetScriptTest.class.getResourceAsStream("/static/widget/v1/chainfeed.js")) {
            assertThat(in).as("static/widget/v1/chainfeed.js on the class path").isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void gzippedScriptFitsInEightKilobytes() throws IOException {
        byte[] raw = script();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(raw);
        }
        int gzipped = out.size();
        System.out.printf("chainfeed.js: %d bytes, %d bytes gzipped (limit %d)%n", raw.length, gzipped,
                MAX_GZIPPED_BYTES);
        assertThat(gzipped).isPositive().isLessThanOrEqualTo(MAX_GZIPPED_BYTES);
    }

    @Test
    void scriptNeverParsesMarkupAndSendsNoCredentials() throws IOException {
        String js = new String(script(), StandardCharsets.UTF_8);
        assertThat(js).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                "new Function", "createContextualFragment", "withCredentials: true");
        assertThat(js).contains("credentials: 'omit'", "attachShadow", "adoptedStyleSheets", "textContent");
        // The three elements, and the disclaimer every widget shows.
        assertThat(js).contains("'chainfeed-term'", "'chainfeed-feed'", "'chainfeed-chain'", "Research, not advice.");
    }

}
