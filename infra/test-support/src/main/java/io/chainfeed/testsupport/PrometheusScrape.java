package io.chainfeed.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service's {@code /actuator/prometheus} text as a test reads it: the value of one
 * sample, and Prometheus's linter ({@code promtool check metrics}, Debian's
 * {@code prometheus} package) on the whole text, of which the product's own series
 * ({@code chainfeed_*}) must pass. The text and promtool's answer are kept under
 * {@code target/prometheus/} ({@code <service>.txt}, {@code <service>.promtool.txt}).
 * Without promtool the lint is skipped, unless {@code CI=true}, where it fails.
 *
 * @param service the service's short name, e.g. {@code api}
 * @param text the exposition text
 */
public record PrometheusScrape(String service, String text) {

    /** Where Debian's {@code prometheus} package puts promtool. */
    public static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    /**
     * One label of a sample: {@code name="value"}, the value with the exposition format's
     * escapes ({@code \\}, {@code \"}, {@code \n}) left as written.
     */
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /**
     * One sample of the text.
     *
     * @param labels its labels by name, in the order written
     * @param value its value
     */
    public record Sample(Map<String, String> labels, double value) {
    }

    /**
     * @param name the samples' name as exposed, e.g.
     * {@code http_server_requests_seconds_bucket}
     * @return every sample with that name, in the text's order
     */
    public List<Sample> samples(String name) {
        return text.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " ")).map(l -> {
            Map<String, String> labels = new LinkedHashMap<>();
            int end = l.startsWith(name + "{") ? l.lastIndexOf('}') : name.length();
            Matcher m = LABEL.matcher(l).region(name.length(), Math.max(end, name.length()));
            while (m.find()) {
                labels.put(m.group(1), m.group(2));
            }
            return new Sample(labels, Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)));
        }).toList();
    }

    /**
     * GETs a service's scrape.
     * @param service the service's short name, e.g. {@code streams}
     * @param url its {@code /actuator/prometheus} URL
     * @return the scrape
     */
    public static PrometheusScrape of(String service, String url) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            assertThat(response.statusCode()).as("GET %s", url).isEqualTo(200);
            return new PrometheusScrape(service, response.body());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param name the sample's name as exposed, e.g. {@code chainfeed_dead_letters_total}
     * @param labels labels the sample must carry, as {@code name="value"} (others may
     * follow)
     * @return the value of the first sample with that name and those labels
     */
    public Optional<Double> value(String name, String... labels) {
        return text.lines()
            .filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
            .filter(l -> Arrays.stream(labels).allMatch(label -> l.contains(label + ",") || l.contains(label + "}")))
            .findFirst()
            .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)));
    }

    /**
     * Asserts that the sample is there, at zero.
     * @param name the sample's name as exposed
     * @param labels labels it must carry, as {@code name="value"}
     */
    public void assertZero(String name, String... labels) {
        assertThat(value(name, labels)).as("%s %s{%s}", service, name, String.join(",", labels)).contains(0.0);
    }

    /**
     * Runs promtool on the text and asserts it reports nothing on a {@code chainfeed_}
     * series.
     * @return promtool's findings on every series (empty when promtool is missing)
     */
    public List<String> assertChainfeedSeriesPassPromtool() {
        List<String> findings = promtool();
        assertThat(findings.stream().filter(l -> l.contains("chainfeed_")).toList())
            .as("promtool on %s's chainfeed_* series", service)
            .isEmpty();
        return findings;
    }

    /**
     * @return promtool's findings, one a line, also written to
     * {@code target/prometheus/<service>.promtool.txt}; empty when promtool is missing
     * (then {@code CI} must not be {@code true})
     */
    public List<String> promtool() {
        try {
            Path dir = Path.of("target", "prometheus");
            Files.createDirectories(dir);
            Path file = dir.resolve(service + ".txt");
            Files.writeString(file, text);
            if (!Files.isExecutable(PROMTOOL)) {
                assertThat(System.getenv("CI")).as("promtool is missing (apt-get install prometheus)")
                    .isNotEqualTo("true");
                return List.of();
            }
            Process p = new ProcessBuilder(PROMTOOL.toString(), "check", "metrics").redirectErrorStream(true)
                .redirectInput(file.toFile())
                .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            Files.writeString(dir.resolve(service + ".promtool.txt"), out);
            return out.lines().filter(l -> !l.isBlank()).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
