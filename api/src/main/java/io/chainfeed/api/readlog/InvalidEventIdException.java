package io.chainfeed.api.readlog;

import io.chainfeed.api.support.problem.BadRequestException;

/**
 * A {@code Last-Event-ID} (or {@code lastEventId}) that is not a {@link LogPosition};
 * rendered as a 400 problem of type {@code invalid-event-id}.
 */
public class InvalidEventIdException extends BadRequestException {

    /**
     * @param message what is wrong and where (1-based character position), for the client
     */
    public InvalidEventIdException(String message) {
        super("invalid-event-id", message);
    }

}
