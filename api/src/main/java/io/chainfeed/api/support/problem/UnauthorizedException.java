package io.chainfeed.api.support.problem;

/**
 * The request carries no credentials, or ones that are unknown or revoked; rendered as a
 * 401 problem with {@code WWW-Authenticate: Bearer} (RFC 6750 section 3).
 */
public class UnauthorizedException extends RuntimeException {

    /**
     * @param message what is missing or wrong, without echoing the credentials
     */
    public UnauthorizedException(String message) {
        super(message);
    }

}
