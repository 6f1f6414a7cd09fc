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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.entity.DeflateInputStream;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.utils.DateUtils;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.io.CloseMode;

/**
 * Fetches public http(s) pages, refusing any host that resolves to an address that is not
 * globally routable ({@link AddressPolicy}: loopback, private, link-local, CGNAT,
 * multicast ...) unless private fetches are allowed for local use.
 *
 * <p>
 * Apache HttpClient 5 does the fetching, with infra's
 * {@link io.chainfeed.platform.net.GuardedDnsResolver} (through
 * {@link GuardedHttpClients}) as its DNS step: the host of every connection is resolved
 * and checked there, and the connection goes to exactly the checked addresses, so a DNS
 * answer that changes after the check (rebinding) cannot reach a private address. Each
 * hop is also checked before its request (scheme, host, addresses), for a clear error.
 * Redirects (any {@code 3xx} with a {@code Location}) are followed by hand, at most 5,
 * each hop checked again. No proxy, cookies or automatic retries; pooled connections live
 * at most a minute. Feed fetches ({@link #fetchFeed}) are conditional and accept gzip and
 * deflate, decompressed here.
 *
 * <p>
 * Limits: {@value #MAX_BYTES} bytes of body; 10 s to connect; 20 s without data while
 * waiting for or reading the answer; and each hop's answer must be complete within 30 s
 * of its request, or the request is aborted.
 */
public final class SafeFetcher implements AutoCloseable {

    /** Largest body read, in bytes (1 MiB, the parser's own limit). */
    public static final int MAX_BYTES = 1 << 20;

    private static final int MAX_REDIRECTS = 5;

    private static final String USER_AGENT = "chainfeed-ingest/0.1 (+research feed)";

    private final AddressGuard guard;

    private final Clock clock = Clock.systemUTC();

    private final Duration totalTimeout;

    private final CloseableHttpClient client;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fetch-deadlines");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param allowPrivate whether loopback and private addresses may be fetched (local
     * testing only)
     */
    public SafeFetcher(boolean allowPrivate) {
        this(new AddressGuard(allowPrivate ? AddressGuard.Scope.ANY : AddressGuard.Scope.PUBLIC, AddressGuard.SYSTEM));
    }

    /**
     * @param guard resolves and checks every host (tests pass their own resolver or
     * scope)
     */
    SafeFetcher(AddressGuard guard) {
        this(guard, Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30));
    }

    /**
     * @param guard resolves and checks every host
     * @param connectTimeout TCP connect timeout
     * @param idleTimeout longest wait for data while waiting for or reading the answer
     * @param totalTimeout time from a hop's request until its answer must be complete
     */
    SafeFetcher(AddressGuard guard, Duration connectTimeout, Duration idleTimeout, Duration totalTimeout) {
        this.guard = guard;
        this.totalTimeout = totalTimeout;
        this.client = GuardedHttpClients.create(guard, connectTimeout, idleTimeout, 8, USER_AGENT);
    }

    /**
     * A fetched page.
     *
     * @param uri the final URI after redirects
     * @param contentType the Content-Type header, lower case, or empty
     * @param body the body decoded as UTF-8
     */
    public record Page(URI uri, String contentType, String body) {
    }

    /**
     * @param uri an absolute http or https URI
     * @return the page
     * @throws FetchException if the scheme is not http(s), the host does not resolve or
     * resolves to a refused address (before the request or when connecting, on any hop),
     * the status is not 2xx ({@link HttpStatusException}), there are more than 5
     * redirects, the body is larger than {@value #MAX_BYTES} bytes, a time limit passes,
     * or the fetch fails
     */
    public Page fetch(URI uri) {
        Response r = exchange(uri, Map.of());
        if (r.status() < 200 || r.status() >= 300) {
            throw new HttpStatusException(r.uri(), r.status(), r.retryAfter());
        }
        return new Page(r.uri(), r.contentType().toLowerCase(Locale.ROOT),
                new String(r.body(), StandardCharsets.UTF_8));
    }

    /**
     * A feed fetched with a conditional GET (RFC 9110 section 13.1).
     *
     * @param uri the final URI after redirects: the base for the document's relative
     * links
     * @param permanentUri where the feed now lives if every redirect up to it was
     * permanent (301 or 308), so the next poll should go there; null when there was no
     * such redirect
     * @param notModified whether the server answered 304 Not Modified (then {@code body}
     * is empty)
     * @param contentType the Content-Type header as sent (its charset parameter matters),
     * or empty
     * @param body the body as bytes, already decompressed (gzip or deflate), not yet
     * decoded
     * @param etag the ETag header to send back as {@code If-None-Match}, or null
     * @param lastModified the Last-Modified header to send back as
     * {@code If-Modified-Since}, or null
     */
    public record FeedResponse(URI uri, URI permanentUri, boolean notModified, String contentType, byte[] body,
            String etag, String lastModified) {
    }

    /**
     * Fetches a feed politely: sends {@code If-None-Match} / {@code If-Modified-Since}
     * when validators from an earlier answer are given, asks for {@code gzip} or
     * {@code deflate} and decompresses the answer (the size limit applies to the
     * decompressed bytes).
     * @param uri an absolute http or https URI
     * @param etag the ETag of the last answer, or null
     * @param lastModified the Last-Modified of the last answer, or null
     * @return the answer: 2xx with the body, or 304
     * @throws HttpStatusException if the final status is neither 2xx nor 304 (for 429 and
     * 503 with the server's {@code Retry-After}, when it sent one)
     * @throws FetchException for the reasons {@link #fetch(URI)} gives
     */
    public FeedResponse fetchFeed(URI uri, String etag, String lastModified) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "application/rss+xml, application/atom+xml, application/rdf+xml, "
                + "application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5");
        headers.put("Accept-Encoding", "gzip, deflate");
        if (etag != null && !etag.isBlank()) {
            headers.put("If-None-Match", etag);
        }
        if (lastModified != null && !lastModified.isBlank()) {
            headers.put("If-Modified-Since", lastModified);
        }
        Response r = exchange(uri, headers);
        if (r.status() == 304) {
            return new FeedResponse(r.uri(), r.permanentUri(), true, r.contentType(), new byte[0],
                    r.etag() != null ? r.etag() : etag, r.lastModified() != null ? r.lastModified() : lastModified);
        }
        if (r.status() < 200 || r.status() >= 300) {
            throw new HttpStatusException(r.uri(), r.status(), r.retryAfter());
        }
        return new FeedResponse(r.uri(), r.permanentUri(), false, r.contentType(), r.body(), r.etag(),
                r.lastModified());
    }

    /** The final answer of one exchange, redirects followed. */
    private record Response(URI uri, URI permanentUri, int status, String contentType, byte[] body, String etag,
            String lastModified, Duration retryAfter) {
    }

    private Response exchange(URI uri, Map<String, String> headers) {
        URI current = uri;
        URI permanent = null;
        boolean allPermanent = true;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            check(current);
            HttpGet get = new HttpGet(current);
            headers.forEach(get::setHeader);
            ScheduledFuture<?> deadline = timer.schedule(get::cancel, totalTimeout.toMillis(), TimeUnit.MILLISECONDS);
            try (ClassicHttpResponse response = client.executeOpen(HttpHost.create(current), get, null)) {
                int status = response.getCode();
                if (status >= 300 && status < 400 && status != 304) {
                    Header location = response.getFirstHeader("Location");
                    if (location == null) {
                        throw new FetchException("redirect without Location from " + uri);
                    }
                    current = redirect(current, location.getValue());
                    allPermanent &= status == 301 || status == 308;
                    if (allPermanent) {
                        permanent = current;
                    }
                    continue;
                }
                byte[] body = status >= 200 && status < 300 ? read(response, current) : new byte[0];
                String type = header(response, "Content-Type");
                return new Response(current, permanent, status, type == null ? "" : type, body,
                        header(response, "ETag"), header(response, "Last-Modified"), retryAfter(response));
            }
            catch (RefusedAddressException e) {
                throw refused(e);
            }
            catch (UnknownHostException e) {
                throw new FetchException("cannot resolve " + current.getHost());
            }
            catch (IOException e) {
                if (get.isCancelled()) {
                    throw new FetchException(
                            "no complete answer from " + current + " within " + totalTimeout.toMillis() + " ms");
                }
                throw new FetchException("cannot fetch " + current + ": " + e.getMessage());
            }
            finally {
                deadline.cancel(false);
            }
        }
        throw new FetchException("more than " + MAX_REDIRECTS + " redirects from " + uri);
    }

    private static String header(ClassicHttpResponse response, String name) {
        Header h = response.getFirstHeader(name);
        return h == null ? null : h.getValue();
    }

    /**
     * Reads {@code Retry-After} (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date.
     * @return the wait, zero or more; null when absent or unreadable
     */
    private Duration retryAfter(ClassicHttpResponse response) {
        String v = header(response, "Retry-After");
        if (v == null || v.isBlank()) {
            return null;
        }
        String t = v.strip();
        if (t.matches("\\d{1,10}")) {
            return Duration.ofSeconds(Long.parseLong(t));
        }
        Instant at = DateUtils.parseStandardDate(t);
        return at == null ? null : maxZero(Duration.between(clock.instant(), at));
    }

    private static Duration maxZero(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }

    private static URI redirect(URI from, String location) {
        try {
            return from.resolve(location.trim());
        }
        catch (IllegalArgumentException e) {
            throw new FetchException("redirect from " + from + " to a malformed Location: " + location);
        }
    }

    /**
     * Reads the body, decompressing {@code gzip} ({@code x-gzip}) and {@code deflate}
     * (zlib or raw, as servers send both) answers, and refusing it once the
     * (decompressed) bytes pass {@link #MAX_BYTES}; the rest is not read.
     */
    private static byte[] read(ClassicHttpResponse response, URI uri) throws IOException {
        HttpEntity entity = response.getEntity();
        if (entity == null) {
            return new byte[0];
        }
        String encoding = header(response, "Content-Encoding");
        encoding = encoding == null ? "identity" : encoding.strip().toLowerCase(Locale.ROOT);
        boolean identity = encoding.isEmpty() || encoding.equals("identity");
        if (identity && entity.getContentLength() > MAX_BYTES) {
            throw tooLarge(uri);
        }
        InputStream raw = entity.getContent();
        if (raw == null) {
            return new byte[0];
        }
        InputStream in = switch (encoding) {
            case "", "identity" -> raw;
            case "gzip", "x-gzip" -> new GZIPInputStream(raw);
            case "deflate" -> new DeflateInputStream(raw);
            default ->
                throw new FetchException("GET " + uri + " answered in an unsupported Content-Encoding: " + encoding);
        };
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

    /**
     * The form and the addresses of one hop, before its request; the DNS step checks
     * again on connecting.
     */
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
        }
        catch (RefusedAddressException e) {
            throw refused(e);
        }
        catch (UnknownHostException e) {
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
