package io.chainfeed.api.support.settings;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings under {@code chainfeed.api}, checked when the application starts (a bad value
 * stops it with the property's name). Every setting has a default;
 * {@code docs/configuration.md} lists them.
 *
 * @param adminKeyHashes SHA-256 hashes (64 hex digits) of the admin keys
 * ({@code admin-key-hashes}, comma-separated); none: every admin call is refused
 * @param server the embedded Jetty ({@code server.*})
 * @param feed the SSE feed streams and their replays ({@code feed.*})
 * @param feeds links and ids in Atom and JSON Feed documents ({@code feeds.*})
 * @param pipeline the consumer groups the pipeline health indicator watches
 * ({@code pipeline.*})
 * @param answers the public answers served from memory ({@code answers.*})
 * @param warmup the warm-up before the api reports ready ({@code warmup.*})
 * @param search first pages kept and search by meaning ({@code search.*})
 * @param streams the streams service asked for the chain as of an instant
 * ({@code streams.*})
 * @param health the background checks behind {@code /actuator/health} ({@code health.*})
 */
@ConfigurationProperties("chainfeed.api")
@Validated
public record ApiProperties(@DefaultValue List<String> adminKeyHashes, @Valid @DefaultValue Server server,
        @Valid @DefaultValue Feed feed, @Valid @DefaultValue Feeds feeds, @Valid @DefaultValue Pipeline pipeline,
        @Valid @DefaultValue Answers answers, @Valid @DefaultValue Warmup warmup, @Valid @DefaultValue Search search,
        @Valid @DefaultValue Streams streams, @Valid @DefaultValue Health health) {

    /**
     * @param cacheTtl how long a first page is kept for identical requests (at most the
     * reads index's 1 s refresh interval; 0 turns it off)
     * @param hybrid the vector ranking fused with the lexical one
     */
    public record Search(@DefaultValue("1s") @NotNull Duration cacheTtl, @Valid @DefaultValue Hybrid hybrid) {
    }

    /**
     * The streams service the api asks for the chain as of an instant
     * (io.chainfeed.api.chain.ChainTimeTravel).
     *
     * @param baseUrl its base URL; several, comma-separated, are asked in order until one
     * answers below 500
     * @param timeout connect and read timeout of each query
     * @param breaker the circuit breaker in front of them
     */
    public record Streams(@DefaultValue("http://127.0.0.1:8082") @NotBlank String baseUrl,
            @DefaultValue("5s") @NotNull Duration timeout, @Valid @DefaultValue StreamsBreaker breaker) {
    }

    /**
     * The circuit breaker in front of the streams service
     * (io.chainfeed.api.support.server.Breakers).
     *
     * @param window calls in the sliding window
     * @param minimumCalls calls before the failure rate counts
     * @param slowCall a call slower than this counts as failed
     * @param openFor how long the breaker stays open
     * @param halfOpenCalls calls let through to probe when half open
     */
    public record StreamsBreaker(@DefaultValue("10") @Min(1) int window, @DefaultValue("3") @Min(1) int minimumCalls,
            @DefaultValue("5s") @NotNull Duration slowCall, @DefaultValue("5s") @NotNull Duration openFor,
            @DefaultValue("2") @Min(1) int halfOpenCalls) {
    }

    /**
     * @param refreshEvery how often Kafka, Elasticsearch and the pipeline are checked in
     * the background
     * @param staleAfter how old the newest check may be before its component reads DOWN
     */
    public record Health(@DefaultValue("1s") @NotNull Duration refreshEvery,
            @DefaultValue("10s") @NotNull Duration staleAfter) {
    }

    /**
     * Search by meaning (docs/search.md, chosen by docs/search-by-meaning-prereg.md): a
     * first page fuses the lexical ranking with the reads nearest the query's sentence
     * vector by weighted reciprocal rank fusion.
     *
     * @param enabled whether first pages are hybrid (off: lexical alone, and the api
     * loads no model)
     * @param k the fusion's rank constant
     * @param vectorWeight the vector ranking's weight against the lexical one's 1
     * @param fallBackVectorWeight the vector ranking's weight on a page whose lexical
     * ranking fell back to some of the words ({@code mode: any}), where it is weakest
     * @param minSimilarity the cosine under which a vector hit is dropped
     * @param window how many vector hits a first page asks for
     * @param cachedQueries how many query vectors are kept in memory
     */
    public record Hybrid(@DefaultValue("true") boolean enabled, @DefaultValue("60") @Min(1) int k,
            @DefaultValue("1.0") @DecimalMin("0") double vectorWeight,
            @DefaultValue("2.0") @DecimalMin("0") double fallBackVectorWeight,
            @DefaultValue("0.3") @DecimalMin("-1") @DecimalMax("1") double minSimilarity,
            @DefaultValue("50") @Min(1) @Max(200) int window, @DefaultValue("10000") @Min(1) int cachedQueries) {
    }

    /**
     * @param acceptQueue listen backlog of each connector: connections the kernel
     * accepted and Jetty has not taken yet, so a reconnect storm of SSE clients is
     * queued, not refused
     */
    public record Server(@DefaultValue("1024") @Min(1) int acceptQueue) {
    }

    /**
     * @param replayWorkers replays from Kafka running at once (each holds one consumer)
     * @param replayStallTimeout how long a replay waits for a reader that does not take
     * events
     * @param heartbeat time between SSE comment lines on an idle stream
     * @param retry the reconnect delay sent to clients ({@code retry:} field)
     * @param bufferEvents events held per stream before the reader counts as slow
     * @param stallTimeout how long a stream may stay full before it is closed
     * @param writerThreads threads writing events to streams
     * @param responseBuffer the response buffer of each stream
     */
    public record Feed(@DefaultValue("2") @Min(1) int replayWorkers,
            @DefaultValue("30s") @NotNull Duration replayStallTimeout, @DefaultValue("15s") @NotNull Duration heartbeat,
            @DefaultValue("3s") @NotNull Duration retry, @DefaultValue("256") @Min(1) int bufferEvents,
            @DefaultValue("60s") @NotNull Duration stallTimeout, @DefaultValue("2") @Min(1) int writerThreads,
            @DefaultValue("4KB") @NotNull DataSize responseBuffer) {
    }

    /**
     * @param tagAuthority the RFC 4151 tagging entity of entry ids,
     * {@code <domain or e-mail>,<date>}
     * @param baseUrl the public base URL of links, or empty to use the request's
     */
    public record Feeds(@DefaultValue(Feeds.DEFAULT_AUTHORITY) String tagAuthority, @DefaultValue("") String baseUrl) {

        /** The default tagging entity of entry ids (RFC 4151). */
        public static final String DEFAULT_AUTHORITY = "chainfeed.io,2026";

        public Feeds {
            baseUrl = baseUrl == null ? "" : baseUrl;
        }
    }

    /**
     * @param taggingGroup consumer group of the streams service's tagging topology
     * @param chainGroup consumer group of its chain-state topology
     * @param indexerGroup consumer group of its indexer
     * @param stallAfter how long a backlog may sit without progress before health reports
     * it
     */
    public record Pipeline(@DefaultValue("chainfeed-tagging") @NotBlank String taggingGroup,
            @DefaultValue("chainfeed-chain") @NotBlank String chainGroup,
            @DefaultValue("chainfeed-indexer") @NotBlank String indexerGroup,
            @DefaultValue("60s") @NotNull Duration stallAfter) {
    }

    /**
     * Public answers that are the same for every caller, kept in memory until the reads
     * log or the chain's state changes them (io.chainfeed.api.answers.SharedAnswers).
     *
     * @param enabled keep them (off: every request builds its answer)
     * @param maxEntries most answers kept, and most dependencies watched
     * @param settleInterval how often the index is asked whether new reads are searchable
     * yet
     * @param settleTimeout how long a read may stay unsearchable before its answers are
     * kept again anyway
     */
    public record Answers(@DefaultValue("true") boolean enabled, @DefaultValue("10000") @Min(1) int maxEntries,
            @DefaultValue("100ms") @NotNull Duration settleInterval,
            @DefaultValue("60s") @NotNull Duration settleTimeout) {
    }

    /**
     * The warm-up: before it reports ready, the api sends its own public requests
     * (searches of the bundled glossary, feeds, term cards, the chain) to itself over
     * loopback, so that the JIT has compiled the paths the public uses
     * (io.chainfeed.api.support.server.Warmup).
     *
     * @param duration how long at most; 0 turns it off
     * @param requests how many requests at most
     * @param threads how many at once
     */
    public record Warmup(@DefaultValue("0s") @NotNull Duration duration, @DefaultValue("200000") @Min(0) int requests,
            @DefaultValue("2") @Min(1) int threads) {
    }
}
