package io.chainfeed.ingest.fetch;

import io.chainfeed.platform.net.AddressGuard;
import io.chainfeed.platform.net.AddressPolicy;
import io.chainfeed.platform.net.GuardedHttpClients;
import io.chainfeed.platform.net.RefusedAddressException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.io.CloseMode;

/**
 * Fetches public http(s) pages, refusing any host that resolves to an address that is not globally
 * routable ({@link AddressPolicy}: loopback, private, link-local, CGNAT, multicast ...) unless private
 * fetches are allowed for local use.
 *
 * <p>Apache HttpClient 5 does the fetching, with infra's {@link io.chainfeed.platform.net.GuardedDnsResolver} (through {@link GuardedHttpClients}) as its DNS step: the
 * host of every connection is resolved and checked there, and the connection goes to exactly the
 * checked addresses, so a DNS answer that changes after the check (rebinding) cannot reach a private
 * address. Each hop is also checked before its request (scheme, host, addresses), for a clear error.
 * Redirects (any {@code 3xx} with a {@code Location}) are followed by hand, at most 5, each hop checked
 * again. No proxy, cookies, automatic retries or content compression; pooled connections live at most a
 * minute.
 *
 * <p>Limits: {@value #MAX_BYTES} bytes of body; 10 s to connect; 20 s without data while waiting for or
 * reading the answer; and each hop's answer must be complete within 30 s of its request, or the
 * request is aborted.
 */
public final class SafeFetcher implements AutoCloseable {
    /** Largest body read, in bytes (1 MiB, the parser's own limit). */
    public static final int MAX_BYTES = 1 << 20;
    private static final int MAX_REDIRECTS = 5;
    private static final String USER_AGENT = "chainfeed-ingest/0.1 (+research feed)";

    private final AddressGuard guard;
    private final Duration totalTimeout;
    private final CloseableHttpClient client;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fetch-deadlines");
        t.setDaemon(true);
        return t;
    });

    /** @param allowPrivate whether loopback and private addresses may be fetched (local testing only) */
    public SafeFetcher(boolean allowPrivate) {
        this(new AddressGuard(allowPrivate ? AddressGuard.Scope.ANY : AddressGuard.Scope.PUBLIC, AddressGuard.SYSTEM));
    }

    /** @param guard resolves and checks every host (tests pass their own resolver or scope) */
    SafeFetcher(AddressGuard guard) {
        this(guard, Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30));
    }

    /**
     * @param guard          resolves and checks every host
     * @param connectTimeout TCP connect timeout
     * @param idleTimeout    longest wait for data while waiting for or reading the answer
     * @param totalTimeout   time from a hop's request until its answer must be complete
     */
    SafeFetcher(AddressGuard guard, Duration connectTimeout, Duration idleTimeout, Duration totalTimeout) {
        this.guard = guard;
        this.totalTimeout = totalTimeout;
        this.client = GuardedHttpClients.create(guard, connectTimeout, idleTimeout, 8, USER_AGENT);
    }

    /**
     * A fetched page.
     *
     * @param uri         the final URI after redirects
     * @param contentType the Content-Type header, lower case, or empty
     * @param body        the body decoded as UTF-8
     */
    public record Page(URI uri, String contentType, String body) {
    }

    /**
     * @param uri an absolute http or https URI
     * @return the page
     * @throws FetchException if the scheme is not http(s), the host does not resolve or resolves to a
     *                        refused address (before the request or when connecting, on any hop), the
     *                        status is not 2xx, there are more than 5 redirects, the body is larger than
     *                        {@value #MAX_BYTES} bytes, a time limit passes, or the fetch fails
     */
    public Page fetch(URI uri) {
        URI current = uri;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            check(current);
            HttpGet get = new HttpGet(current);
            ScheduledFuture<?> deadline = timer.schedule(get::cancel, totalTimeout.toMillis(), TimeUnit.MILLISECONDS);
            try (ClassicHttpResponse response = client.executeOpen(HttpHost.create(current), get, null)) {
                int status = response.getCode();
                if (status >= 300 && status < 400) {
                    Header location = response.getFirstHeader("Location");
                    if (location == null) {
                        throw new FetchException("redirect without Location from " + uri);
                    }
                    current = redirect(current, location.getValue());
                    continue;
                }
                if (status < 200 || status >= 300) {
                    throw new FetchException("GET " + current + " answered " + status);
                }
                byte[] body = read(response.getEntity(), current);
                Header type = response.getFirstHeader("Content-Type");
                return new Page(current, type == null ? "" : type.getValue().toLowerCase(Locale.ROOT),
                        new String(body, StandardCharsets.UTF_8));
            } catch (RefusedAddressException e) {
                throw refused(e);
            } catch (UnknownHostException e) {
                throw new FetchException("cannot resolve " + current.getHost());
            } catch (IOException e) {
                if (get.isCancelled()) {
                    throw new FetchException("no complete answer from " + current + " within "
                            + totalTimeout.toMillis() + " ms");
                }
                throw new FetchException("cannot fetch " + current + ": " + e.getMessage());
            } finally {
                deadline.cancel(false);
            }
        }
        throw new FetchException("more than " + MAX_REDIRECTS + " redirects from " + uri);
    }

    private static URI redirect(URI from, String location) {
        try {
            return from.resolve(location.trim());
        } catch (IllegalArgumentException e) {
            throw new FetchException("redirect from " + from + " to a malformed Location: " + location);
        }
    }

    /** Reads the body, refusing it once it passes {@link #MAX_BYTES} (the rest is not read). */
    private static byte[] read(HttpEntity entity, URI uri) throws IOException {
        if (entity == null) {
            return new byte[0];
        }
        if (entity.getContentLength() > MAX_BYTES) {
            throw tooLarge(uri);
        }
        InputStream in = entity.getContent();
        if (in == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            if (out.size() + n > MAX_BYTES) {
                throw tooLarge(uri);
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static FetchException tooLarge(URI uri) {
        return new FetchException("page " + uri + " is larger than " + MAX_BYTES + " bytes");
    }

    private static FetchException refused(RefusedAddressException e) {
        return new FetchException(e.getMessage() + ": not a public address; refused");
    }

    /** The form and the addresses of one hop, before its request; the DNS step checks again on connecting. */
    private void check(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new FetchException("only http and https URLs are fetched, not " + uri);
        }
        if (uri.getHost() == null) {
            throw new FetchException("URL has no host: " + uri);
        }
        try {
            guard.resolve(uri.getHost());
        } catch (RefusedAddressException e) {
            throw refused(e);
        } catch (UnknownHostException e) {
            throw new FetchException("cannot resolve " + uri.getHost());
        }
    }

    /**
     * @param a an address
     * @return whether fetching from it is refused by default (see {@link AddressPolicy})
     */
    public static boolean isRefused(InetAddress a) {
        return AddressPolicy.refusal(a).isPresent();
    }

    /** Closes the connections and the deadline timer; fetching afterwards fails. */
    @Override
    public void close() {
        timer.shutdownNow();
        client.close(CloseMode.IMMEDIATE);
    }
}
