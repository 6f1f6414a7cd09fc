package io.chainfeed.ingest;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code chainfeed.ingest}.
 *
 * @param loadCorpus   publish the corpus (bundled, or {@code corpusDir}) at start
 * @param corpusDir    a corpus directory on disk instead of the bundled one; null for bundled
 * @param maxPageBytes largest page body accepted over HTTP, in bytes
 */
@ConfigurationProperties("chainfeed.ingest")
public record IngestProperties(boolean loadCorpus, String corpusDir, int maxPageBytes) {
    public IngestProperties {
        maxPageBytes = maxPageBytes <= 0 ? 1 << 20 : maxPageBytes;
    }
}
