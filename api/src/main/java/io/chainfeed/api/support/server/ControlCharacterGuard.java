package io.chainfeed.api.support.server;

import io.chainfeed.api.support.problem.BadRequestException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.util.UrlPathHelper;

/**
 * Refuses, with a 400 problem of type {@code invalid-parameter} naming the parameter, a
 * request whose query parameters or decoded path hold a C0 control character other than
 * tab, line feed and carriage return. The OpenAPI description gives every parameter the
 * pattern {@code ^[^\u0000-\u0008\u000B\u000C\u000E-\u001F]*$}; this holds the server to
 * it, so that no answer echoes such a character back (JSON would carry it, an HTML or
 * Atom page could not).
 */
@Configuration(proxyBeanMethods = false)
class ControlCharacterGuard implements WebMvcConfigurer {

    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]");

    private static final UrlPathHelper PATHS = new UrlPathHelper();

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new HandlerInterceptor() {
            @Override
            public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
                check(request);
                return true;
            }
        });
    }

    /**
     * @param request a request
     * @throws BadRequestException naming the first parameter (or the path) that holds a
     * control character
     */
    static void check(HttpServletRequest request) {
        for (Map.Entry<String, String[]> p : request.getParameterMap().entrySet()) {
            if (CONTROL.matcher(p.getKey()).find()) {
                throw new BadRequestException("invalid-parameter", "a parameter name holds a control character");
            }
            for (String v : p.getValue()) {
                if (CONTROL.matcher(v).find()) {
                    throw new BadRequestException("invalid-parameter",
                            p.getKey() + " must not hold control characters (U+0000 to U+001F but tab and line ends)");
                }
            }
        }
        if (CONTROL.matcher(PATHS.getPathWithinApplication(request)).find()) {
            throw new BadRequestException("invalid-parameter",
                    "the path must not hold control characters (U+0000 to U+001F but tab and line ends)");
        }
    }

}
