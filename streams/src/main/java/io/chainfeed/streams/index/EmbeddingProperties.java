package io.chainfeed.streams.index;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code chainfeed.streams.embedding}: the reads' sentence vectors
 * ({@link ReadEmbedder}).
 *
 * @param enabled whether streams adds vectors to the reads index (off: search ranks by
 * words alone)
 * @param groupId the embedder's consumer group (default {@code chainfeed-embedder-} and
 * the text variant, e.g. {@code chainfeed-embedder-with-sections}: a new group fills the
 * vectors of every read the compacted topic holds, so another text variant is embedded
 * anew)
 * @param text what a read's vector is made of (chosen by
 * docs/search-by-meaning-prereg.md)
 * @param batch most reads embedded per round (64 is about a second of a core)
 */
public record EmbeddingProperties(@DefaultValue("true") boolean enabled, String groupId,
        @DefaultValue("WITH_SECTIONS") ReadEmbedder.Text text, @DefaultValue("64") int batch) {

    /** Derives the group from the text variant when unset. */
    public EmbeddingProperties {
        text = text == null ? ReadEmbedder.Text.WITH_SECTIONS : text;
        groupId = groupId == null ? "chainfeed-embedder-" + text.id().replace('_', '-') : groupId;
    }
}
