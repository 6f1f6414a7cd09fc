package io.chainfeed.devstack;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * An embedded Kafka broker or Elasticsearch node as a {@link Supervisor} sees it: each
 * launch starts the node again in the same run dir, on the same ports, with its data
 * kept; it is ready when the node answers ({@link LocalNode#start()}'s two steps, taken
 * apart so that the supervisor watches the process from its launch).
 *
 * @param node the node, not started yet
 */
record NodeProcess(LocalNode<?> node) implements SupervisedProcess {

    /**
     * Drops a process of the node that has exited on its own, then launches a new one. A
     * process someone else started on the node meanwhile (a test that closed and started
     * it itself) is taken as it is instead: a second launch would only fail.
     */
    @Override
    public Process launch() throws IOException {
        node.forgetExited();
        Process running = node.currentProcess();
        return running != null ? running : node.launch();
    }

    /**
     * Waits for the node's own start timeout, whatever {@code timeout} says; a node not
     * ready by then has failed to start.
     */
    @Override
    public boolean awaitReady(Process launched, long launchedAt, Duration timeout) {
        node.awaitReady(launched, launchedAt);
        node.ready(launched, launchedAt);
        return true;
    }

    /** Stops the process ({@link LocalNode#stopLaunched}). */
    @Override
    public void stop(Process process) {
        node.stopLaunched(process);
    }

    /** The node's log dir. */
    @Override
    public Path logs() {
        return node.runDir().resolve("logs");
    }

    @Override
    public String logTails() {
        return node.logTails();
    }

}
