package io.chainfeed.api.webhook;

import io.chainfeed.platform.net.GuardedHttpClients;
import io.chainfeed.platform.net.RefusedAddressException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;

/**
 * Posts one webhook: Apache HttpClient 5 with infra's
 * {@link io.chainfeed.platform.net.GuardedDnsResolver} (through
 * {@link GuardedHttpClients}) (the target guard's address check as the DNS step, so it
 * connects to exactly the checked addresses), no proxy, no cookies, no automatic retries
 * and no redirect handling of its own. A {@code 307} or {@code 308} answer is followed by
 * hand (the method and body are kept), at most {@code maxRedirects} times, each new URL
 * checked for its form and, on connecting, for its addresses; any other {@code 3xx} is a
 * failure, as Standard Webhooks advises (the owner should update the URL). Pooled
 * connections live at most a minute, so the target is resolved and checked again at least
 * that often. An attempt that has no complete answer within connect timeout plus twice
 * the request timeout is cancelled; at most 64 KiB of an answer's body is read.
 */
public final class WebhookSender implements AutoCloseable {

    /**
     * How much of an answer's body is read (and thrown away) so the connection can be
     * reused.
     */
    static final int MAX_DRAIN_BYTES = 64 * 1024;

    /**
     * How an attempt went.
     *
     * @param status the final HTTP status, or empty when no answer came
     * @param retryAfter the {@code Retry-After} header, if any
     * @param error why it failed, for the owner (empty on a 2xx)
     * @param refused whether the target (or a redirect) was refused by the address check
     */
    public record Outcome(Optional<Integer> status, Optional<String> retryAfter, Optional<String> error,
            boolean refused) {
        /**
         * @return whether the endpoint accepted the webhook (2xx)
         */
        public boolean success() {
            return status.map(s -> s >= 200 && s < 300).orElse(false);
        }

        static Outcome answered(int status, String retryAfter, String error) {
            return new Outcome(Optional.of(status), Optional.ofNullable(retryAfter), Optional.ofNullable(error), false);
        }

        static Outcome failed(String error, boolean refused) {
            return new Outcome(Optional.empty(), Optional.empty(), Optional.of(error), refused);
        }
    }

    private final TargetGuard guard;

    private final int maxRedirects;

    private final CloseableHttpClient client;

    private final Duration totalTimeout;

    private final ScheduledExecutorService timer = Executors
        .newSingleThreadScheduledExecutor(WebhookEngine.named("webhook-deadlines"));

    /**
     * @param guard the target check, also used on every connection
     * @param connectTimeout TCP connect timeout
     * @param requestTimeout time allowed for the answer (socket read timeout)
     * @param maxConnections connections open at once, in all
     * @param maxRedirects 307/308 redirects followed per attempt
     */
    public WebhookSender(TargetGuard guard, Duration connectTimeout, Duration requestTimeout, int maxConnections,
            int maxRedirects) {
        this.guard = guard;
        this.maxRedirects = maxRedirects;
        this.totalTimeout = connectTimeout.plus(requestTimeout).plus(requestTimeout);
        this.client = GuardedHttpClients.create(guard.addresses(), connectTimeout, requestTimeout, maxConnections,
                "chainfeed-webhooks/0.1");
    }

    /**
     * Posts a webhook.
     * @param target the subscription's URL
     * @param body the exact body, UTF-8 JSON
     * @param headers the Standard Webhooks headers ({@code webhook-id},
     * {@code webhook-timestamp}, {@code webhook-signature})
     * @return how it went; never throws for network, address or HTTP failures
     */
    public Outcome send(URI target, String body, Map<String, String> headers) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        URI current = target;
        for (int hop = 0;; hop++) {
            HttpPost post = new HttpPost(current);
            headers.forEach(post::setHeader);
            post.setEntity(new ByteArrayEntity(bytes, ContentType.APPLICATION_JSON));
            int status;
            String retryAfter;
            String location;
            ScheduledFuture<?> deadline = timer.schedule(post::cancel, totalTimeout.toMillis(), TimeUnit.MILLISECONDS);
            try (ClassicHttpResponse response = client.executeOpen(HttpHost.create(current), post, null)) {
                status = response.getCode();
                retryAfter = headerValue(response, "Retry-After");
                location = headerValue(response, "Location");
                drain(response.getEntity());
            }
            catch (RefusedAddressException e) {
                String why = TargetGuard.explain(e);
                return Outcome.failed(hop == 0 ? why : "redirect refused: " + why, true);
            }
            catch (UnknownHostException e) {
                return Outcome.failed("the host " + current.getHost() + " does not resolve", false);
            }
            catch (IOException e) {
                return Outcome.failed(post.isCancelled()
                        ? "no complete answer within " + totalTimeout.toSeconds() + " s" : describe(e), false);
            }
            finally {
                deadline.cancel(false);
            }
            if (status == 307 || status == 308) {
                if (location == null) {
                    return Outcome.answered(status, retryAfter, "redirect " + status + " without a Location header");
                }
                if (hop >= maxRedirects) {
                    return Outcome.answered(status, retryAfter, "more than " + maxRedirects + " redirects");
                }
                try {
                    current = guard.parse(current.resolve(location.trim()).toString());
                }
                catch (RefusedTargetException | IllegalArgumentException e) {
                    return Outcome.answered(status, retryAfter, "redirect refused: " + e.getMessage());
                }
                continue;
            }
            if (status >= 300 && status < 400) {
                return Outcome.answered(status, retryAfter, "redirect " + status
                        + " not followed (only 307 and 308 keep the POST); update the subscription's URL");
            }
            if (status >= 200 && status < 300) {
                return Outcome.answered(status, retryAfter, null);
            }
            return Outcome.answered(status, retryAfter, "the endpoint answered " + status);
        }
    }

    private static String headerValue(ClassicHttpResponse response, String name) {
        Header h = response.getFirstHeader(name);
        return h == null ? null : h.getValue();
    }

    /**
     * Reads and drops at most {@link #MAX_DRAIN_BYTES} of the answer. A short body is
     * consumed, so the connection goes back to the pool; a longer one is left, and
     * closing the response then drops the connection instead of reading on.
     */
    private static void drain(HttpEntity entity) throws IOException {
        if (entity == null) {
            return;
        }
        InputStream in = entity.getContent();
        if (in == null) {
            return;
        }
        byte[] buffer = new byte[8192];
        long total = 0;
        int n;
        while (total < MAX_DRAIN_BYTES && (n = in.read(buffer)) >= 0) {
            total += n;
        }
        if (total < MAX_DRAIN_BYTES) {
            EntityUtils.consume(entity);
        }
    }

    private static String describe(IOException e) {
        String kind = e.getClass().getSimpleName();
        return e.getMessage() == null ? kind : kind + ": " + e.getMessage();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        client.close(CloseMode.IMMEDIATE);
    }

}
