package io.chainfeed.api.problem;

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

    private final ProblemDetail problem;

    /**
     * @param status the HTTP status, a 4xx
     * @param type the problem type's last path segment, e.g. {@code invalid-cursor}
     * @param title the short, fixed summary of the problem type, e.g. {@code Bad request}
     * @param detail what is wrong with this request, for the client
     */
    protected ProblemException(HttpStatus status, String type, String title, String detail) {
        super(detail);
        problem = ProblemDetailsHandler.problem(status, type, title, detail);
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

}
