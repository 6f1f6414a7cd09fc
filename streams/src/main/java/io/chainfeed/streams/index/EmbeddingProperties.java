package io.chainfeed.streams.index;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code chainfeed.streams.embedding}: the reads' sentence vectors
 * ({@link ReadEmbedder}).
 *
 * @param enabled whether streams adds vectors to the reads index (default true; off,
 * search ranks by words alone)
 * @param groupId the embedder's consumer group (default {@code chainfeed-embedder-} and
 * the text variant, e.g. {@code chainfeed-embedder-with-sections}: a new group fills the
 * vectors of every read the compacted topic holds, so another text variant is embedded
 * anew)
 * @param text what a read's vector is made of (default {@code WITH_SECTIONS}, chosen by
 * docs/search-by-meaning-prereg.md)
 * @param batch most reads embedded per round (default 64, about a second of a core)
 */
@ConfigurationProperties("chainfeed.streams.embedding")
public record EmbeddingProperties(Boolean enabled, String groupId, ReadEmbedder.Text text, Integer batch) {
    public EmbeddingProperties {
        enabled = enabled == null ? Boolean.TRUE : enabled;
        text = text == null ? ReadEmbedder.Text.WITH_SECTIONS : text;
        groupId = groupId == null ? "chainfeed-embedder-" + text.id().replace('_', '-') : groupId;
        batch = batch == null ? 64 : batch;
    }
}
