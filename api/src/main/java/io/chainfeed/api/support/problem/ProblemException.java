package io.chainfeed.api.support.problem;

import io.chainfeed.platform.web.ProblemDetailsHandler;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * An error the api answers with the RFC 9457 problem detail the exception carries: its
 * status, a type under {@link ProblemDetailsHandler#TYPE_BASE}, a title fixed per type,
 * and the message as the detail. {@link ProblemHandler} answers every subclass with it.
 * Errors that also set a header ({@code WWW-Authenticate}, {@code Retry-After}) have
 * handlers of their own.
 */
public abstract class ProblemException extends RuntimeException {

    /**
     * Seconds a client is asked to wait ({@code Retry-After}) after a 503 of a dependency
     * that is down or unreachable.
     */
    public static final long DEPENDENCY_RETRY_AFTER_SECONDS = 5;

    private final ProblemDetail problem;

    private final long retryAfterSeconds;

    /**
     * @param status the HTTP status, a 4xx
     * @param type the problem type's last path segment, e.g. {@code invalid-cursor}
     * @param title the short, fixed summary of the problem type, e.g. {@code Bad request}
     * @param detail what is wrong with this request, for the client
     */
    protected ProblemException(HttpStatus status, String type, String title, String detail) {
        this(status, type, title, detail, null, -1);
    }

    /**
     * A problem of the service or of a dependency (a 5xx), answered with
     * {@code Retry-After} when it passes.
     * @param status the HTTP status
     * @param type the problem type's last path segment, e.g. {@code chain-unavailable}
     * @param title the short, fixed summary of the problem type
     * @param detail what failed, for the client (no internals)
     * @param cause the underlying failure, for the log; may be null
     * @param retryAfterSeconds seconds the client should wait before trying again, or
     * negative for no {@code Retry-After}
     */
    protected ProblemException(HttpStatus status, String type, String title, String detail, Throwable cause,
            long retryAfterSeconds) {
        this(status, type, title, detail, detail, cause, retryAfterSeconds);
    }

    /**
     * A problem whose message for logs says more than the client's detail (what was not
     * stored, what took too long).
     * @param status the HTTP status
     * @param type the problem type's last path segment
     * @param title the short, fixed summary of the problem type
     * @param detail what failed, for the client (no internals)
     * @param message what failed, for logs: {@link #getMessage()} and {@link #logLine()}
     * @param cause the underlying failure; may be null
     * @param retryAfterSeconds seconds for {@code Retry-After}, or negative for none
     */
    protected ProblemException(HttpStatus status, String type, String title, String detail, String message,
            Throwable cause, long retryAfterSeconds) {
        super(message, cause);
        this.problem = ProblemDetailsHandler.problem(status, type, title, detail);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /**
     * @return the problem detail to answer with; a handler may add members (one per
     * thrown exception)
     */
    public ProblemDetail problem() {
        return problem;
    }

    /**
     * @return the problem type's last path segment, e.g. {@code invalid-cursor}
     */
    public String type() {
        return problem.getType().toString().substring(ProblemDetailsHandler.TYPE_BASE.length());
    }

    /**
     * @return seconds for {@code Retry-After}, or negative for none
     */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * @return what the log says of a 5xx answer: the message, and the cause when there is
     * one
     */
    public String logLine() {
        return getCause() == null ? getMessage() : getMessage() + ": " + getCause();
    }

}
