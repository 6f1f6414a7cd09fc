package io.chainfeed.api.search;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.chainfeed.embeddings.SentenceEmbedder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.util.Locale;
import java.util.function.Function;

/**
 * The sentence vectors of query texts (the same in-process model as the reads',
 * {@link SentenceEmbedder}), kept in a bounded cache: a query's vector costs one short
 * text through the model (milliseconds of a core), and the public asks the same queries
 * again and again. The key is the text lower-cased with its runs of white space made one
 * space (the model is uncased). Meters: {@code chainfeed.search.query.embedding} (the
 * time of each vector computed, misses only) and the cache's {@code cache.*} meters under
 * {@code name=query-vectors}.
 */
public final class QueryVectors {

    private final Function<String, float[]> model;

    private final Cache<String, float[]> cache;

    private final Timer timer;

    /**
     * @param model text to unit vector (e.g. {@code SentenceEmbedder.shared()::embed})
     * @param maxEntries most vectors kept (each about 1.6 KB)
     * @param meters where the timer and the cache's meters are registered
     */
    public QueryVectors(Function<String, float[]> model, int maxEntries, MeterRegistry meters) {
        this.model = model;
        this.cache = Caffeine.newBuilder().maximumSize(maxEntries).recordStats().build();
        this.timer = Timer.builder("chainfeed.search.query.embedding")
            .description("Query texts turned into vectors (cache misses)")
            .publishPercentileHistogram()
            .register(meters);
        CaffeineCacheMetrics.monitor(meters, cache, "query-vectors");
    }

    /**
     * @param text a query's text, not blank
     * @return its unit vector ({@link SentenceEmbedder#DIMENSIONS} floats); the same
     * array for the same key, never to be changed by the caller
     */
    public float[] of(String text) {
        return cache.get(key(text), k -> timer.record(() -> model.apply(k)));
    }

    /** The cache key of a text: lower case, white space runs as one space, stripped. */
    static String key(String text) {
        return text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

}
