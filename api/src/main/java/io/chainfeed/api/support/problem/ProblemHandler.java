package io.chainfeed.api.support.problem;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.transport.TransportException;
import io.chainfeed.platform.web.ProblemDetailsHandler;
import jakarta.validation.ConstraintViolationException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Every error as an RFC 9457 problem detail. Elasticsearch's own errors (the server
 * answered) and transport errors (it did not) map to different statuses; their internals
 * are logged, not shown. Spring's own errors get their type in
 * {@link ProblemDetailsHandler}.
 */
@RestControllerAdvice
class ProblemHandler extends ProblemDetailsHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    /**
     * Not found, bad request, forbidden, gone: the problem detail the exception carries.
     */
    @ExceptionHandler(ProblemException.class)
    ResponseEntity<ProblemDetail> carried(ProblemException e) {
        ProblemDetail p = e.problem();
        if (p.getStatus() >= 500) {
            log.warn("answered {} {}: {}", p.getStatus(), e.type(), e.logLine());
        }
        return e.retryAfterSeconds() < 0 ? ResponseEntity.status(p.getStatus()).body(p)
                : retryAfter(p, e.retryAfterSeconds());
    }

    @ExceptionHandler(UnauthorizedException.class)
    ResponseEntity<ProblemDetail> unauthorized(UnauthorizedException e) {
        return bearerChallenge(problem(HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized", e.getMessage()),
                "chainfeed");
    }

    @ExceptionHandler(TooManyRequestsException.class)
    ResponseEntity<ProblemDetail> tooManyRequests(TooManyRequestsException e) {
        ResponseEntity<ProblemDetail> answer = retryAfter(
                problem(HttpStatus.TOO_MANY_REQUESTS, "too-many-requests", "Too many requests", e.getMessage()),
                e.retryAfterSeconds());
        if (e.headers().isEmpty()) {
            return answer;
        }
        HttpHeaders headers = new HttpHeaders();
        headers.addAll(answer.getHeaders());
        e.headers().forEach(headers::set);
        return new ResponseEntity<>(answer.getBody(), headers, answer.getStatusCode());
    }

    @ExceptionHandler(ConstraintViolationException.class)
    ProblemDetail invalid(ConstraintViolationException e) {
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "invalid-parameter", "Invalid request parameter",
                e.getConstraintViolations()
                    .stream()
                    .map(v -> lastNode(v.getPropertyPath().toString()) + ": " + v.getMessage())
                    .sorted()
                    .reduce((a, b) -> a + "; " + b)
                    .orElse(e.getMessage()));
        return p;
    }

    @ExceptionHandler(ElasticsearchException.class)
    ProblemDetail search(ElasticsearchException e) {
        log.error("Elasticsearch refused a request", e);
        return problem(HttpStatus.BAD_GATEWAY, "search-failed", "The search engine refused the request",
                "The search engine could not answer this request.");
    }

    @ExceptionHandler({ TransportException.class, IOException.class })
    ResponseEntity<ProblemDetail> unavailable(Exception e) {
        log.error("Elasticsearch unreachable: {}", e.toString());
        return searchUnavailable("The search engine cannot be reached; try again shortly.");
    }

    /**
     * The Elasticsearch circuit breaker is open: answered at once, without asking
     * Elasticsearch.
     */
    @ExceptionHandler(io.github.resilience4j.circuitbreaker.CallNotPermittedException.class)
    ResponseEntity<ProblemDetail> breakerOpen(io.github.resilience4j.circuitbreaker.CallNotPermittedException e) {
        log.debug("Elasticsearch breaker open: {}", e.getMessage());
        return searchUnavailable("The search engine is not answering; try again shortly.");
    }

    /**
     * More Elasticsearch requests are in flight than the bulkhead allows and this one
     * waited its queue deadline: the api is busy (Elasticsearch may be fine), answered
     * fast with {@code Retry-After}.
     */
    @ExceptionHandler(io.github.resilience4j.bulkhead.BulkheadFullException.class)
    ResponseEntity<ProblemDetail> busy(io.github.resilience4j.bulkhead.BulkheadFullException e) {
        log.debug("Elasticsearch bulkhead full: {}", e.getMessage());
        return busyProblem(
                "More requests of this kind are running than this instance takes at once; try again in a second.");
    }

    /** 503 {@code busy} with {@code Retry-After: 1}. */
    private static ResponseEntity<ProblemDetail> busyProblem(String detail) {
        return retryAfter(problem(HttpStatus.SERVICE_UNAVAILABLE, "busy", "The service is busy", detail), 1);
    }

    private static ResponseEntity<ProblemDetail> searchUnavailable(String detail) {
        return retryAfter(
                problem(HttpStatus.SERVICE_UNAVAILABLE, "search-unavailable", "Search is unavailable", detail),
                ProblemException.DEPENDENCY_RETRY_AFTER_SECONDS);
    }

    /** Anything else: a 500 problem detail; the details are logged, not shown. */
    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        log.error("Unexpected error", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "Internal error",
                "The request could not be answered; this is a fault of the service.");
    }

    private static String lastNode(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }

}
