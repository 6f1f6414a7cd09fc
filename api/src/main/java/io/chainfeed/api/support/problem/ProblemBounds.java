package io.chainfeed.api.support.problem;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Keeps every problem detail the api writes within the bounds its OpenAPI description
 * gives: a {@code detail} longer than {@value #DETAIL_MAX_LENGTH} characters (a message
 * that quotes a client's very long value) is cut there, ending in an ellipsis; an
 * {@code instance} (the request's path) longer than {@value #INSTANCE_MAX_LENGTH}
 * characters is left out, as RFC 9457 lets it be. Other members are left as they are.
 */
@RestControllerAdvice
class ProblemBounds implements ResponseBodyAdvice<Object> {

    /** The longest {@code detail}, as the description's Problem schema says. */
    static final int DETAIL_MAX_LENGTH = 4000;

    /** The longest {@code instance}, as the description's Problem schema says. */
    static final int INSTANCE_MAX_LENGTH = 2000;

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType selectedContentType,
            Class<? extends HttpMessageConverter<?>> selectedConverterType, ServerHttpRequest request,
            ServerHttpResponse response) {
        if (body instanceof ProblemDetail p) {
            p.setDetail(bounded(p.getDetail()));
            if (p.getInstance() != null && p.getInstance().toString().length() > INSTANCE_MAX_LENGTH) {
                p.setInstance(null);
            }
        }
        return body;
    }

    /**
     * @param detail a problem's detail, or null
     * @return it, or its first {@value #DETAIL_MAX_LENGTH} − 1 characters and an ellipsis
     * when it is longer (never splitting a surrogate pair)
     */
    static String bounded(String detail) {
        if (detail == null || detail.length() <= DETAIL_MAX_LENGTH) {
            return detail;
        }
        int end = DETAIL_MAX_LENGTH - 1;
        if (Character.isHighSurrogate(detail.charAt(end - 1))) {
            end--;
        }
        return detail.substring(0, end) + "\u2026";
    }

}
