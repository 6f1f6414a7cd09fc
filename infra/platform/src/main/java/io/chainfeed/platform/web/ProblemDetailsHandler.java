package io.chainfeed.platform.web;

import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The base of each service's {@code @RestControllerAdvice}: every error as an RFC 9457
 * problem detail whose {@code type} is a URI under {@link #TYPE_BASE}. It gives Spring
 * MVC's own errors (missing or malformed parameters, unsupported media types ...), which
 * Spring types {@code about:blank}, the type {@code invalid-request}, and offers the
 * builders the subclasses answer with: a problem detail, one with a {@code Retry-After}
 * header (RFC 9110 section 10.2.3) and one with a {@code WWW-Authenticate} Bearer
 * challenge (RFC 6750 section 3).
 */
public abstract class ProblemDetailsHandler extends ResponseEntityExceptionHandler {

    /**
     * The start of every problem type URI the services write; the rest is the type's
     * name.
     */
    public static final String TYPE_BASE = "https://chainfeed.io/problems/";

    /**
     * @param status the HTTP status
     * @param type the problem type's last path segment, e.g. {@code invalid-cursor}
     * @param title the short, fixed summary of the problem type
     * @param detail what went wrong with this request, for the client
     * @return a new, mutable problem detail (a handler may add members)
     */
    public static ProblemDetail problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create(TYPE_BASE + type));
        p.setTitle(title);
        return p;
    }

    /**
     * @param problem a problem detail
     * @param name an extension member's name (RFC 9457 section 3.2)
     * @param value its value, written by Jackson
     * @return the same problem, with the member set
     */
    protected static ProblemDetail with(ProblemDetail problem, String name, Object value) {
        problem.setProperty(name, value);
        return problem;
    }

    /**
     * @param problem the answer; its status is the response's
     * @param retryAfterSeconds how long the client should wait before it tries again, in
     * seconds
     * @return the problem with a {@code Retry-After} header in delay-seconds form
     */
    protected static ResponseEntity<ProblemDetail> retryAfter(ProblemDetail problem, long retryAfterSeconds) {
        return ResponseEntity.status(problem.getStatus())
            .header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds))
            .body(problem);
    }

    /**
     * @param problem the answer, a 401
     * @param realm the protection space the client's key belongs to, e.g.
     * {@code chainfeed}
     * @return the problem with a {@code WWW-Authenticate: Bearer realm="..."} header
     */
    protected static ResponseEntity<ProblemDetail> bearerChallenge(ProblemDetail problem, String realm) {
        return ResponseEntity.status(problem.getStatus())
            .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"" + realm + "\"")
            .body(problem);
    }

    /**
     * Gives Spring MVC's own problem details of type {@code about:blank} the type
     * {@code invalid-request}, so that every error names one of this project's types.
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        // For most of Spring's own exceptions the body arrives null and the superclass
        // makes it from the
        // exception, so the type is set on what it returns.
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null && response.getBody() instanceof ProblemDetail p
                && (p.getType() == null || "about:blank".equals(p.getType().toString()))) {
            p.setType(URI.create(TYPE_BASE + "invalid-request"));
        }
        return response;
    }

}
