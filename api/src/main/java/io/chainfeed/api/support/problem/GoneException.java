package io.chainfeed.api.support.problem;

import org.springframework.http.HttpStatus;

/**
 * The resource existed but does not any more (an expired cursor); rendered as a 410
 * problem detail of type {@code cursor-expired}.
 */
public class GoneException extends ProblemException {

    /**
     * @param message what expired
     */
    public GoneException(String message) {
        super(HttpStatus.GONE, "cursor-expired", "Cursor expired", message);
    }

}
