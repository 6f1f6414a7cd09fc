package io.chainfeed.api.chain;

import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.api.support.server.Breakers;
import io.chainfeed.api.support.settings.ApiProperties;
import io.chainfeed.avro.LayerState;
import io.chainfeed.platform.web.TimeParameters;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.specific.SpecificDatumReader;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * The chain as of a past instant, asked of the streams service, which keeps every signal
 * in its chain-state topology and computes the answer there with the live model's code
 * (its interactive queries, {@code /internal/v1/...} on the streams port). The api keeps
 * no signals itself.
 *
 * <p>
 * Settings ({@code chainfeed.api.streams.*}): {@code base-url} (default
 * {@code http://127.0.0.1:8082}; several, comma-separated, are asked in order until one
 * answers below 500: any streams instance answers for the chain-state stores, forwarding
 * to their owner, so a list survives the loss of the first), {@code timeout} (connect and
 * read, default 5 s) and the breaker {@value #BREAKER} ({@code breaker.window} 10,
 * {@code breaker.minimum-calls} 3, {@code breaker.slow-call} 5 s,
 * {@code breaker.open-for} 5 s, {@code breaker.half-open-calls} 2; see {@link Breakers}).
 * A connection failure, a timeout, a 5xx answer or an open breaker is a
 * {@link ChainUnavailableException} (503); a 4xx answer from streams is passed on (404
 * unknown layer, 400 bad parameter) and does not count against the breaker.
 */
@Component
public class ChainTimeTravel {

    /** The breaker's name (meters, logs). */
    public static final String BREAKER = "streams";

    private final List<RestClient> instances;

    private final CircuitBreaker breaker;

    ChainTimeTravel(MeterRegistry meters, ApiProperties settings) {
        String baseUrl = settings.streams().baseUrl();
        Duration timeout = settings.streams().timeout();
        JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(
                HttpClient.newBuilder().connectTimeout(timeout).build());
        factory.setReadTimeout(timeout);
        this.instances = Arrays.stream(baseUrl.split(","))
            .map(String::strip)
            .filter(u -> !u.isEmpty())
            .map(u -> RestClient.builder().baseUrl(u).requestFactory(factory).build())
            .toList();
        ApiProperties.StreamsBreaker b = settings.streams().breaker();
        this.breaker = Breakers.create(meters, BREAKER,
                new Breakers.Settings(b.window(), b.minimumCalls(), b.slowCall(), b.openFor(), b.halfOpenCalls()),
                HttpClientErrorException.class::isInstance);
    }

    /**
     * Every layer's state as of an instant, from the signals observed by then (decay
     * measured at it).
     * @param asOf the instant (UTC)
     * @return the layer states, in layer id order
     * @throws ChainUnavailableException when streams cannot answer now
     */
    public List<LayerState> chainAt(Instant asOf) {
        byte[] body = call(http -> http.get()
            .uri(u -> u.path("/internal/v1/chain").queryParam("asOf", asOf.toString()).build())
            .retrieve()
            .body(byte[].class));
        List<LayerState> out = new ArrayList<>();
        try (DataFileStream<LayerState> in = new DataFileStream<>(new ByteArrayInputStream(body),
                new SpecificDatumReader<>(LayerState.class))) {
            in.forEach(out::add);
        }
        catch (IOException e) {
            throw new ChainUnavailableException("the streams service sent a chain that cannot be read", e);
        }
        return out;
    }

    /**
     * A layer's pressure at {@code points} instants {@code from, from + step, ...}, and
     * the signals naming it observed in that period.
     * @param layerId the layer id
     * @param from the first instant (UTC)
     * @param step the time between instants
     * @param points how many instants (1 to 500)
     * @return the points in time order and the signals
     * @throws NotFoundException when the layer is unknown
     * @throws ChainUnavailableException when streams cannot answer now
     */
    public LayerHistory.Series history(String layerId, Instant from, Duration step, int points) {
        return call(http -> http.get()
            .uri(u -> u.path("/internal/v1/layers/{id}/history")
                .queryParam("from", from.toString())
                .queryParam("step", step.toString())
                .queryParam("points", points)
                .build(layerId))
            .retrieve()
            .body(LayerHistory.Series.class));
    }

    /**
     * Reads a time parameter: an RFC 3339 instant, not later than now and not before
     * {@link TimeParameters#EARLIEST} (the chain's time zero; the chain as of an instant
     * before its first signal is the empty chain).
     * @param name the parameter's name
     * @param value its text
     * @param type the problem type when it is bad
     * @param now the present
     * @return the instant (UTC)
     * @throws BadRequestException when it is not an instant, lies before
     * {@link TimeParameters#EARLIEST} or in the future
     */
    public static Instant pastInstant(String name, String value, String type, Instant now) {
        Instant t;
        try {
            t = TimeParameters.instant(name, value);
        }
        catch (IllegalArgumentException e) {
            throw new BadRequestException(type, e.getMessage());
        }
        if (t.isAfter(now)) {
            throw new BadRequestException(type, name + " must not be in the future, got " + t + " (now " + now + ")");
        }
        return t;
    }

    private <T> T call(Function<RestClient, T> request) {
        try {
            T body = breaker.executeSupplier(() -> firstAnswer(request));
            if (body == null) {
                throw new ChainUnavailableException("the streams service sent an empty answer", null);
            }
            return body;
        }
        catch (HttpClientErrorException e) {
            if (e.getStatusCode().value() == HttpStatus.NOT_FOUND.value()) {
                throw new NotFoundException(detail(e));
            }
            throw new BadRequestException("invalid-time-range", detail(e));
        }
        catch (CallNotPermittedException e) {
            throw new ChainUnavailableException("the chain history is not answering; try again shortly", e);
        }
        catch (RestClientException e) {
            throw new ChainUnavailableException("the chain history cannot be reached; try again shortly", e);
        }
    }

    /**
     * The first streams instance's answer that is not a connection failure, a timeout or
     * a 5xx; a 4xx is an answer.
     */
    private <T> T firstAnswer(Function<RestClient, T> request) {
        RestClientException last = null;
        for (RestClient instance : instances) {
            try {
                return request.apply(instance);
            }
            catch (HttpClientErrorException e) {
                throw e;
            }
            catch (RestClientException e) {
                last = e;
            }
        }
        throw last;
    }

    private static String detail(HttpClientErrorException e) {
        Map<?, ?> problem;
        try {
            problem = e.getResponseBodyAs(Map.class);
        }
        catch (RuntimeException notJson) {
            problem = null;
        }
        Object detail = problem == null ? null : problem.get("detail");
        return detail == null ? e.getStatusText() : detail.toString();
    }

}
