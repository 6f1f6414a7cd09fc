package io.chainfeed.api.support.problem;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The error page of the Jetty server itself, for the requests it answers before any
 * servlet sees them (a request line and headers longer than
 * {@code server.max-http-request-header-size}: 414 or 431; a malformed request: 400): an
 * RFC 9457 problem detail ({@code application/problem+json}, {@code type}
 * {@code about:blank}, {@code title} the status's reason phrase, {@code status}, and
 * {@code detail}), like every other error of the API. Errors inside the application keep
 * going through Spring ({@link ProblemHandler}).
 */
public final class ProblemErrorHandler extends ErrorHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
            Callback callback) throws IOException {
        Problem problem = new Problem("about:blank", HttpStatus.getMessage(code), code, detail(code, message));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/problem+json");
        response.write(true, ByteBuffer.wrap(JSON.writeValueAsBytes(problem)), callback);
    }

    /**
     * An RFC 9457 problem detail written by the server itself.
     *
     * @param type always {@code about:blank}
     * @param title the status's reason phrase
     * @param status the HTTP status
     * @param detail what went wrong
     */
    record Problem(String type, String title, int status, String detail) {
    }

    private static String detail(int code, String message) {
        return switch (code) {
            case HttpStatus.URI_TOO_LONG_414 -> "The request line is longer than this server accepts.";
            case HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431 ->
                "The request line and headers are longer than this server accepts.";
            default -> message != null && !message.isBlank() ? message : HttpStatus.getMessage(code);
        };
    }

}
