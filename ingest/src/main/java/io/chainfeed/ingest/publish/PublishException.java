package io.chainfeed.ingest.publish;

/**
 * A record could not be published: the broker did not acknowledge it in time, or refused
 * it.
 */
public class PublishException extends RuntimeException {

    /**
     * @param message what could not be published, and why
     */
    public PublishException(String message) {
        super(message);
    }

    /**
     * @param message what could not be published, and why
     * @param cause the producer's error
     */
    public PublishException(String message, Throwable cause) {
        super(message, cause);
    }

}
