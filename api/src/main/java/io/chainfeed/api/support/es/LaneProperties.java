package io.chainfeed.api.support.es;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Requests in flight to Elasticsearch at once per class of work ({@link EsLanes}), under
 * {@code chainfeed.api.es.lanes} ({@link EsProperties#lanes}), and how long a request
 * waits for a slot of its lane before it is answered 503 {@code busy} with
 * {@code Retry-After}.
 *
 * <p>
 * Elasticsearch sizes its search thread pool {@code 3 × cores / 2 + 1}: 4 on two cores.
 * Searches get 3 of them, so a flood of searches leaves Elasticsearch a thread for the
 * others; the public lane's and the feeds' calls are mostly answered from memory
 * ({@code io.chainfeed.api.answers.SharedAnswers}), so their lanes fill only when many
 * answers change at once.
 *
 * @param search searches and suggestions
 * @param publicReads the widget's data, term cards, the chain, layers, companies, reads
 * and pages ({@code public-reads})
 * @param feeds Atom and JSON Feed pages
 * @param background the api's own threads
 * @param searchMaxWait how long a search waits for a slot
 * @param maxWait how long a request of another lane waits for a slot
 */
public record LaneProperties(@DefaultValue("3") @Min(1) int search, @DefaultValue("4") @Min(1) int publicReads,
        @DefaultValue("2") @Min(1) int feeds, @DefaultValue("2") @Min(1) int background,
        @DefaultValue("5s") @NotNull Duration searchMaxWait, @DefaultValue("2s") @NotNull Duration maxWait) {
}
