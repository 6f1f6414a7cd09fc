package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start whose process is stopped by a concurrent {@code close()} (the supervisor
 * restarting a killed broker while a test or an operator closes and starts it again) must
 * not stop the process that replaced it. Before the fix, the failed start's clean-up
 * closed the node's next process: "Kafka exited with code 143 before it was ready".
 */
class LocalNodeTest {

    @TempDir
    Path runDir;

    @Test
    void aStartThatLostItsProcessToACloseLeavesTheNextProcessRunning() throws Exception {
        SleepNode node = new SleepBuilder(runDir).build();
        node.holdFirstLaunch = true;
        CompletableFuture<SleepNode> first = CompletableFuture.supplyAsync(() -> {
            try {
                return node.start();
            }
            catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            assertThat(node.firstPolling.await(30, TimeUnit.SECONDS)).as("the first start waits for readiness")
                .isTrue();
            node.close(); // SIGTERM: the first process exits with 143
            node.start(); // someone else's start: ready at once
            Process second = node.currentProcess();

            assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasMessageContaining("exited with code 143 before it was ready");
            assertThat(node.currentProcess()).isSameAs(second);
            assertThat(second.isAlive()).as("the second process survives the first start's failure").isTrue();
        }
        finally {
            node.close();
        }
    }

    @Test
    void aStartThatTimesOutStopsItsOwnProcess() throws Exception {
        SleepNode node = new SleepBuilder(runDir).startTimeout(Duration.ofMillis(300)).build();
        node.neverReady = true;
        assertThatThrownBy(node::start).hasMessageContaining("no sleeping after 0 s");
        assertThat(node.isRunning()).isFalse();
        assertThat(node.lastLaunched.isAlive()).isFalse();
    }

    /**
     * A node whose process is {@code sleep 60} (or as long as {@link #sleepSeconds}
     * says), ready at once unless told otherwise. Also the real process under
     * {@link Supervisor} in {@code SupervisorTest}.
     */
    static final class SleepNode extends LocalNode<SleepNode> {

        final CountDownLatch firstPolling = new CountDownLatch(1);

        /** No launch ever becomes ready. */
        volatile boolean neverReady;

        /** The first launch never becomes ready; the later ones do at once. */
        volatile boolean holdFirstLaunch;

        /** How long each launched process sleeps, as {@code sleep} takes it. */
        volatile String sleepSeconds = "60";

        private volatile Process firstLaunched;

        volatile Process lastLaunched;

        SleepNode(SleepBuilder b) {
            super("sleep", "sleep.pid", b);
        }

        @Override
        protected Process launch() throws IOException {
            requireNotStarted();
            Process p = startTracked(new ProcessBuilder("sleep", sleepSeconds), runDir.resolve("sleep.out"));
            if (firstLaunched == null) {
                firstLaunched = p;
            }
            lastLaunched = p;
            return p;
        }

        @Override
        protected void awaitReady(Process launched, long t0) {
            pollUntilReady(launched, t0, "sleeping", () -> {
                if (neverReady) {
                    return Optional.of("never");
                }
                if (holdFirstLaunch && launched == firstLaunched) {
                    firstPolling.countDown();
                    return Optional.of("the first launch is never ready");
                }
                return Optional.empty();
            });
        }

        @Override
        protected String logTails() {
            return "";
        }

    }

    static final class SleepBuilder extends LocalNode.Builder<SleepBuilder, SleepNode> {

        SleepBuilder(Path runDir) {
            super(runDir, 0, 0, Duration.ofSeconds(30));
        }

        @Override
        public SleepNode build() {
            return new SleepNode(this);
        }

    }

}
