package io.chainfeed.testsupport;

import io.chainfeed.devstack.ElasticsearchNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Elasticsearch process for one test class: the distribution the build unpacked
 * (system property {@code chainfeed.es.home}, set by Failsafe), a run directory
 * {@code target/it-es-<name>}, a free HTTP port, under an unprivileged uid when the tests
 * run as root ({@link ElasticsearchNode}). Register it with
 * {@code @RegisterExtension static final ElasticsearchExtension ES = new ElasticsearchExtension("my-it")};
 * code that is not a test class (a shared pipeline) calls {@link #start(String)}.
 */
public final class ElasticsearchExtension implements BeforeAllCallback, AfterAllCallback {

    /**
     * How long a node may take to answer yellow: over three minutes were seen on a loaded
     * 2-core machine.
     */
    public static final Duration START_TIMEOUT = Duration.ofMinutes(8);

    private final String name;

    private ElasticsearchNode node;

    /**
     * @param name the run directory's suffix, unique per test class
     */
    public ElasticsearchExtension(String name) {
        this.name = name;
    }

    /**
     * Starts a node and waits for it.
     * @param name the run directory's suffix, unique per caller
     * @return the running node; close it when done
     * @throws IOException if it does not start (its log is named in the message)
     * @throws IllegalStateException if {@code chainfeed.es.home} is not set (run the test
     * with Failsafe)
     */
    public static ElasticsearchNode start(String name) throws IOException {
        String home = System.getProperty("chainfeed.es.home");
        if (home == null) {
            throw new IllegalStateException(
                    "chainfeed.es.home is not set: run integration tests with Failsafe (mvn verify)");
        }
        ElasticsearchNode node = ElasticsearchNode.builder(Path.of(home), Path.of("target", "it-es-" + name))
            .httpPort(0)
            .startTimeout(START_TIMEOUT)
            .build();
        node.start();
        return node;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        node = start(name);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (node != null) {
            node.close();
        }
    }

    /**
     * @return the node (after {@code beforeAll})
     */
    public ElasticsearchNode node() {
        return node;
    }

    /**
     * @return its HTTP address (after {@code beforeAll})
     */
    public URI uri() {
        return node.httpUri();
    }

}
