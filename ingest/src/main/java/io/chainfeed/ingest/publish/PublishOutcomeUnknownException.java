package io.chainfeed.ingest.publish;

/**
 * The deadline passed after the commit of a request's transaction was sent and before
 * Kafka confirmed it: the records may or may not become visible. Said apart from
 * {@link PublishException} (where nothing is published) so that an answer never claims
 * either.
 */
public class PublishOutcomeUnknownException extends PublishException {

    /**
     * @param message what is unknown, and why
     */
    public PublishOutcomeUnknownException(String message) {
        super(message);
    }

}
