package io.chainfeed.ingest.fetch;

import io.chainfeed.infra.net.AddressPolicy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * Fetches public http(s) pages, refusing any host that resolves to an address that is not globally
 * routable ({@link AddressPolicy}: loopback, private, link-local, CGNAT, multicast ...) unless private
 * fetches are allowed for local use. Redirects are followed by hand (at most 5) and each hop is checked
 * again. Responses are capped at {@value #MAX_BYTES} bytes.
 *
 * <p>Known limit: the address is checked, then the HTTP client resolves the name again; a DNS answer
 * that changes in between (rebinding) is not caught.
 */
public final class SafeFetcher {
    /** Largest body read, in bytes (1 MiB, the parser's own limit). */
    public static final int MAX_BYTES = 1 << 20;
    private static final int MAX_REDIRECTS = 5;

    private final boolean allowPrivate;
    private final HttpClient client = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /** @param allowPrivate whether loopback and private addresses may be fetched (local testing only) */
    public SafeFetcher(boolean allowPrivate) {
        this.allowPrivate = allowPrivate;
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
     * @throws FetchException if the scheme is not http(s), the host resolves to a refused address,
     *                        the status is not 2xx, the body is too large, or the fetch fails
     */
    public Page fetch(URI uri) {
        URI current = uri;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            check(current);
            HttpRequest request = HttpRequest.newBuilder(current).timeout(Duration.ofSeconds(20))
                    .header("User-Agent", "chainfeed-ingest/0.1 (+research feed)").GET().build();
            HttpResponse<byte[]> response;
            try {
                response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException e) {
                throw new FetchException("cannot fetch " + current + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FetchException("interrupted while fetching " + current);
            }
            int status = response.statusCode();
            if (status >= 300 && status < 400) {
                String location = response.headers().firstValue("Location")
                        .orElseThrow(() -> new FetchException("redirect without Location from " + uri));
                current = current.resolve(location);
                continue;
            }
            if (status < 200 || status >= 300) {
                throw new FetchException("GET " + current + " answered " + status);
            }
            if (response.body().length > MAX_BYTES) {
                throw new FetchException("page " + current + " is larger than " + MAX_BYTES + " bytes");
            }
            String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
            return new Page(current, type, new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
        }
        throw new FetchException("more than " + MAX_REDIRECTS + " redirects from " + uri);
    }

    private void check(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new FetchException("only http and https URLs are fetched, not " + uri);
        }
        if (uri.getHost() == null) {
            throw new FetchException("URL has no host: " + uri);
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(uri.getHost());
        } catch (UnknownHostException e) {
            throw new FetchException("cannot resolve " + uri.getHost());
        }
        if (allowPrivate) {
            return;
        }
        for (InetAddress a : addresses) {
            AddressPolicy.refusal(a).ifPresent(reason -> {
                throw new FetchException(uri.getHost() + " resolves to " + a.getHostAddress() + " (" + reason
                        + "), not a public address; refused");
            });
        }
    }

    /**
     * @param a an address
     * @return whether fetching from it is refused by default (see {@link AddressPolicy})
     */
    public static boolean isRefused(InetAddress a) {
        return AddressPolicy.refusal(a).isPresent();
    }
}
