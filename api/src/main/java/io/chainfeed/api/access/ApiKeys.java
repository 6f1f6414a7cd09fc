package io.chainfeed.api.access;

import io.chainfeed.api.support.kafka.CompactedTopicView;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.avro.ApiKey;
import io.chainfeed.avro.ApiKeyKind;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.stereotype.Component;

/**
 * API keys: issued here, stored on the compacted topic {@value Topics#API_KEYS} as
 * {@link ApiKey} records that hold only the SHA-256 of the token, and held in memory by
 * every API instance.
 *
 * <p>
 * A token reads {@code cf_<id>_<secret>}: {@code id} is 12 lower-case base32 characters
 * (the record key, so a lookup needs no scan), {@code secret} 32 random bytes in unpadded
 * base64url. A presented token is hashed and compared with the stored hash in constant
 * time; revoked keys are refused. A write is applied to this instance's view once Kafka
 * acknowledges it, so a key works (or stops working) here as soon as the call returns;
 * other instances follow when they read the topic.
 */
@Component
public class ApiKeys extends CompactedTopicView<ApiKey> {

    private static final Pattern TOKEN = Pattern.compile("cf_([a-z2-7]{12})_([A-Za-z0-9_-]{43})");

    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(15);

    /** Upper bound of a key's rate, per minute. */
    public static final int MAX_RATE_PER_MINUTE = 1_000_000;

    /** A READER key's rate when none is given: requests per minute. */
    public static final int DEFAULT_READER_RATE = 600;

    /**
     * A PARTNER key's rate when none is given: requests per minute, sized for the page
     * views of a popular partner (2,000 widget calls a second at peak); its daily quota
     * ({@code chainfeed.rate-limits.partner-daily-quota}) bounds the sustained rate.
     */
    public static final int DEFAULT_PARTNER_RATE = 120_000;

    /**
     * @param kind a key kind (null: READER)
     * @return its rate per minute when the request names none
     */
    public static int defaultRate(ApiKeyKind kind) {
        return kind == ApiKeyKind.PARTNER ? DEFAULT_PARTNER_RATE : DEFAULT_READER_RATE;
    }

    private final SecureRandom random = new SecureRandom();

    private final AvroSerde<ApiKey> serde = AvroSerde.of(ApiKey.class);

    private final String bootstrapServers;

    private final Clock clock;

    private volatile KafkaProducer<String, byte[]> producer;

    @org.springframework.beans.factory.annotation.Autowired
    ApiKeys(KafkaConnectionProperties kafka, MeterRegistry meters) {
        this(kafka.bootstrapServers(), Clock.systemUTC(), meters);
    }

    ApiKeys(String bootstrapServers, Clock clock, MeterRegistry meters) {
        super(bootstrapServers, Topics.API_KEYS, "chainfeed-api-keys", ApiKey.class, meters);
        this.bootstrapServers = bootstrapServers;
        this.clock = clock;
    }

    /**
     * @param token a presented token, may be null or malformed
     * @return the key's principal if the token is well formed, known, matches its stored
     * hash and is not revoked; empty otherwise (the caller answers 401 without saying
     * which)
     */
    public Optional<ApiPrincipal> authenticate(String token) {
        if (token == null) {
            return Optional.empty();
        }
        var m = TOKEN.matcher(token.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        Optional<ApiKey> key = value(m.group(1));
        byte[] presented = HashedKeys.sha256(token.strip());
        // Compare even for an unknown id so timing does not tell known ids apart.
        byte[] stored = key.map(k -> HexFormat.of().parseHex(k.getSecretSha256())).orElse(new byte[32]);
        boolean same = MessageDigest.isEqual(presented, stored);
        return key.filter(k -> same && k.getRevokedAt() == null).map(ApiKeys::principal);
    }

    /**
     * @param request an HTTP request
     * @return the principal of the token in its {@code Authorization: Bearer <token>}
     * header (RFC 6750), if valid; empty when the header is missing or the token is not
     * valid
     */
    public Optional<ApiPrincipal> fromRequest(HttpServletRequest request) {
        String h = request.getHeader("Authorization");
        if (h == null || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return authenticate(h.substring(7));
    }

    /**
     * Issues a key and waits until this instance can authenticate it.
     * @param kind READER or PARTNER
     * @param label who or what it is for (1-200 characters)
     * @param allowedOrigins browser origins allowed to use it
     * ({@code scheme://host[:port]}); required (at least one) for PARTNER keys
     * @param ratePerMinute requests per minute, 1 to {@value #MAX_RATE_PER_MINUTE}
     * @return the key with its token, shown only now
     * @throws BadRequestException if an argument is invalid (names which)
     * @throws IllegalStateException if Kafka does not acknowledge the record within 15 s
     */
    public IssuedKey create(ApiKeyKind kind, String label, List<String> allowedOrigins, int ratePerMinute) {
        if (kind == null) {
            throw new BadRequestException("invalid-key-request", "kind is required: READER or PARTNER");
        }
        if (label == null || label.isBlank() || label.length() > 200) {
            throw new BadRequestException("invalid-key-request", "label is required (1-200 characters)");
        }
        if (ratePerMinute < 1 || ratePerMinute > MAX_RATE_PER_MINUTE) {
            throw new BadRequestException("invalid-key-request",
                    "ratePerMinute must be between 1 and " + MAX_RATE_PER_MINUTE);
        }
        List<String> origins = new ArrayList<>();
        for (String o : allowedOrigins == null ? List.<String>of() : allowedOrigins) {
            String n = normaliseOrigin(o).orElseThrow(() -> new BadRequestException("invalid-key-request",
                    "'" + o + "' is not a web origin such as https://example.com or http://localhost:8090"));
            if (!origins.contains(n)) {
                origins.add(n);
            }
        }
        if (kind == ApiKeyKind.PARTNER && origins.isEmpty()) {
            throw new BadRequestException("invalid-key-request",
                    "a PARTNER key needs at least one allowed origin (the partner site)");
        }
        String id = randomId();
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String token = "cf_" + id + "_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        ApiKey key = ApiKey.newBuilder()
            .setId(id)
            .setKind(kind)
            .setLabel(label.strip())
            .setSecretSha256(HashedKeys.hash(token))
            .setAllowedOrigins(origins)
            .setRatePerMinute(ratePerMinute)
            .setCreatedAt(now())
            .setRevokedAt(null)
            .build();
        write(key);
        return new IssuedKey(principal(key), token);
    }

    /**
     * Revokes a key; it stops working on this instance before this returns, on others
     * within their read lag. The record stays (with its revocation time) so the id is
     * never reused.
     * @param keyId the key's id
     * @return false if no such key exists; true if it is now revoked (also if it already
     * was)
     */
    public boolean revoke(String keyId) {
        Optional<ApiKey> key = keyId == null ? Optional.empty() : value(keyId);
        if (key.isEmpty()) {
            return false;
        }
        if (key.get().getRevokedAt() == null) {
            ApiKey revoked = ApiKey.newBuilder(key.get()).setRevokedAt(now()).build();
            write(revoked);
        }
        return true;
    }

    /**
     * @param keyId a key id
     * @return the key's principal if it exists and is not revoked
     */
    public Optional<ApiPrincipal> find(String keyId) {
        return value(keyId).filter(k -> k.getRevokedAt() == null).map(ApiKeys::principal);
    }

    /**
     * @return every key that is not revoked, oldest first
     */
    public List<ApiPrincipal> list() {
        return values().stream()
            .filter(k -> k.getRevokedAt() == null)
            .map(ApiKeys::principal)
            .sorted(Comparator.comparing(ApiPrincipal::createdAt).thenComparing(ApiPrincipal::keyId))
            .toList();
    }

    /**
     * Normalises a web origin as RFC 6454 serialises it: lower-case scheme and host, the
     * port only if it is not the scheme's default, no path, query, fragment or user info.
     * @param origin text such as {@code https://Partner.example:443}
     * @return the serialised origin ({@code https://partner.example}), or empty if the
     * text is not an http(s) origin
     */
    public static Optional<String> normaliseOrigin(String origin) {
        if (origin == null || origin.isBlank() || origin.length() > 300) {
            return Optional.empty();
        }
        try {
            URI u = new URI(origin.strip());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null || u.getRawUserInfo() != null
                    || (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/"))
                    || u.getRawQuery() != null || u.getRawFragment() != null) {
                return Optional.empty();
            }
            int port = u.getPort();
            boolean defaultPort = port == -1 || (scheme.equals("http") && port == 80)
                    || (scheme.equals("https") && port == 443);
            return Optional.of(scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port));
        }
        catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * Now, to the millisecond: the precision Avro's timestamp-millis keeps, so the value
     * held here equals the one on the topic.
     */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private String randomId() {
        StringBuilder b = new StringBuilder(12);
        for (int i = 0; i < 12; i++) {
            b.append(BASE32[random.nextInt(32)]);
        }
        return b.toString();
    }

    /**
     * Writes a key, waits for Kafka's acknowledgement, and applies it here at once
     * (read-your-writes).
     */
    private void write(ApiKey key) {
        try {
            producer().send(new ProducerRecord<>(Topics.API_KEYS, key.getId(), serde.serialize(Topics.API_KEYS, key)))
                .get(WRITE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the key store (Kafka topic " + Topics.API_KEYS + ") did not take the key",
                    e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while storing a key", e);
        }
        remember(key.getId(), key);
    }

    private KafkaProducer<String, byte[]> producer() {
        KafkaProducer<String, byte[]> p = producer;
        if (p == null) {
            synchronized (this) {
                if (producer == null) {
                    producer = new KafkaProducer<>(
                            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                                    ProducerConfig.CLIENT_ID_CONFIG, "chainfeed-api-keys-writer",
                                    ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                            new StringSerializer(), new ByteArraySerializer());
                }
                p = producer;
            }
        }
        return p;
    }

    @Override
    public void stop() {
        super.stop();
        KafkaProducer<String, byte[]> p = producer;
        if (p != null) {
            p.close(Duration.ofSeconds(5));
        }
    }

    private static ApiPrincipal principal(ApiKey k) {
        return new ApiPrincipal(k.getId(), k.getKind(), k.getLabel(), List.copyOf(k.getAllowedOrigins()),
                k.getRatePerMinute(), k.getCreatedAt());
    }

}
