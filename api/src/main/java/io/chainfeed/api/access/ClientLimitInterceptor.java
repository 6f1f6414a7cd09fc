package io.chainfeed.api.access;

import io.chainfeed.api.support.problem.TooManyRequestsException;
import io.chainfeed.api.support.server.RateLimitFields;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * A per-client rate limit in front of a group of paths: each request takes a token from
 * its client's bucket ({@link ClientAddresses}, {@link ClientRateLimits}) before its
 * handler runs; an SSE connect counts once. {@link ClientLimitConfiguration} puts one in
 * front of the public paths (policy {@value RateLimitFields#CLIENT}, the webhook
 * subscriptions and the widget's paths among them) and one in front of the admin key
 * paths (policy {@value RateLimitFields#ADMIN}, a smaller quota). Every limited answer
 * carries the fields of draft-ietf-httpapi-ratelimit-headers (version 10):
 * {@code RateLimit-Policy: "client";q=240;w=60} (the quota and its window in seconds) and
 * {@code RateLimit: "client";r=<left>;t=<seconds until the bucket is full>}, whatever the
 * handler answers afterwards (a 401 or 403 of a keyed path included). Over the limit the
 * request is refused with a 429 problem ({@code too-many-requests}), {@code Retry-After}
 * and the same two fields; the refusal is held for up to its {@code Retry-After}
 * ({@link RefusalDelays}) before it is sent, so a client looping without pause gets about
 * one refusal a second per connection. A request straight from a trusted proxy, with no
 * client beyond it, is not limited and carries neither field. The fields are written by
 * {@link RateLimitFields}, as the keys' own limit writes them.
 */
public final class ClientLimitInterceptor implements HandlerInterceptor {

    private final ClientAddresses addresses;

    private final ClientRateLimits limits;

    private final String paths;

    private final RefusalDelays delays;

    /**
     * @param addresses who a request comes from
     * @param limits the buckets (their policy's name and quota go in the fields)
     * @param paths the paths limited, as a 429's detail names them, e.g. "the public
     * paths"
     * @param delays where refusals are held before they are sent
     */
    public ClientLimitInterceptor(ClientAddresses addresses, ClientRateLimits limits, String paths,
            RefusalDelays delays) {
        this.addresses = addresses;
        this.limits = limits;
        this.paths = paths;
        this.delays = delays;
    }

    /**
     * @return true to go on to the handler; false when the refusal is held and will be
     * thrown on the request's next ({@code ASYNC}) dispatch
     * @throws TooManyRequestsException (429) when the client is over its rate and the
     * refusal is answered at once, or on the dispatch that ends a held refusal
     */
    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getDispatcherType() == DispatcherType.ASYNC
                && request.getAttribute(RefusalDelays.HELD) instanceof TooManyRequestsException held) {
            request.removeAttribute(RefusalDelays.HELD);
            throw held;
        }
        if (request.getDispatcherType() != DispatcherType.REQUEST || "OPTIONS".equals(request.getMethod())) {
            // an async re-dispatch of an SSE stream, an error page, a CORS preflight
            return true;
        }
        Optional<ClientAddresses.Client> client = addresses.resolve(request);
        if (client.isEmpty() || client.get().trustedProxy()) {
            return true;
        }
        String name = addresses.bucketName(client.get().address());
        ClientRateLimits.Decision d = limits.take(name);
        RateLimitFields.Limit limit = new RateLimitFields.Limit(limits.policy(), d.quota(), 60, d.remaining(),
                d.resetSeconds());
        if (!d.allowed()) {
            TooManyRequestsException refusal = new TooManyRequestsException(
                    "this address (" + name + ") may make " + d.quota() + " requests a minute to " + paths
                            + "; try again in " + d.retryAfterSeconds() + " s",
                    d.retryAfterSeconds(), RateLimitFields.of(limit));
            if (delays.hold(request, response, refusal)) {
                return false;
            }
            throw refusal;
        }
        RateLimitFields.add(response, limit);
        return true;
    }

}
