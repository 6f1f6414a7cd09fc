package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.chainfeed.devstack.LocalNodeTest.SleepBuilder;
import io.chainfeed.devstack.LocalNodeTest.SleepNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Supervisor} over real {@code sleep} processes ({@link SleepNode} through
 * {@link NodeProcess}): a crash and its restart after the backoff, the crash loop and a
 * restart by hand out of it, a stop during the backoff, an exit on SIGTERM judged after
 * the grace, a failed first start and a restart that does not come back.
 */
class SupervisorTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path runDir;

    private final List<Supervisor> supervisors = new ArrayList<>();

    /** The node under test: {@code sleep 60}, ready at once, unless a test says else. */
    private SleepNode node;

    @BeforeEach
    void newNode() {
        node = new SleepBuilder(runDir).build();
    }

    @AfterEach
    void stopAll() {
        supervisors.forEach(Supervisor::close);
    }

    @Test
    void aKilledProcessIsDownThenRestartingThenUpAgain() throws Exception {
        Supervisor supervisor = supervisor(policy(Duration.ofSeconds(1), 3), new StackStop());
        assertThat(supervisor.status()).hasToString("not started");
        supervisor.start();
        assertThat(supervisor.awaitReady(WAIT, true)).isTrue();
        assertThat(supervisor.status()).hasToString("up");
        ProcessHandle first = supervisor.process().orElseThrow();

        first.destroyForcibly();
        awaitState(supervisor, SupervisedState.RESTARTING);
        assertThat(supervisor.status()).hasToString("restarting (exited with code 137; next start in 1000 ms)");
        assertThat(supervisor.isRunning()).isFalse();

        await().atMost(WAIT).until(() -> supervisor.status().up() && supervisor.restarts() == 1);
        assertThat(supervisor.process().orElseThrow().pid()).isNotEqualTo(first.pid());
    }

    @Test
    void tooManyCrashesInsideTheWindowAreACrashLoopUntilARestartByHand() throws Exception {
        node.sleepSeconds = "0.3";
        Supervisor supervisor = up(policy(Duration.ofMillis(50), 2), new StackStop());

        awaitState(supervisor, SupervisedState.CRASH_LOOP);
        assertThat(supervisor.status())
            .hasToString("crash loop (3 exits inside 60 s; last: exited with code 0; not restarted)");
        assertThat(supervisor.restarts()).isEqualTo(2);
        Process loopEnd = node.lastLaunched;
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> node.lastLaunched == loopEnd);

        node.sleepSeconds = "60";
        supervisor.restart(WAIT);
        assertThat(supervisor.status().up()).isTrue();
        assertThat(supervisor.isRunning()).isTrue();
        assertThat(supervisor.restarts()).as("a restart by hand is not counted").isEqualTo(2);
    }

    @Test
    void aStopDuringTheBackoffRestartsNothing() throws Exception {
        Supervisor supervisor = up(policy(Duration.ofSeconds(1), 3), new StackStop());
        Process first = end(true);
        awaitState(supervisor, SupervisedState.RESTARTING);
        supervisor.close();
        assertThat(supervisor.status()).hasToString("stopped");

        await().during(Duration.ofMillis(1500)).atMost(WAIT).until(() -> node.lastLaunched == first);
        assertThat(supervisor.restarts()).isZero();
        assertThatThrownBy(() -> supervisor.restart(WAIT)).isInstanceOf(IllegalStateException.class)
            .hasMessage("sleep is stopped");
    }

    @Test
    void anExitOnSigtermWaitsOutTheGraceThenCountsAsACrash() throws Exception {
        Supervisor supervisor = up(policy(Duration.ofMillis(100), 3), new StackStop());
        Process first = end(false);
        awaitState(supervisor, SupervisedState.DOWN);
        await().during(Duration.ofSeconds(1))
            .atMost(StackStop.SIGNAL_GRACE)
            .until(() -> supervisor.status().toString().equals("down (exited with code 143)"));

        await().atMost(WAIT).until(() -> supervisor.status().up() && supervisor.restarts() == 1);
        assertThat(node.lastLaunched).isNotSameAs(first);
    }

    @Test
    void anExitOnSigtermFollowedByTheStacksStopIsNotRestarted() throws Exception {
        StackStop stop = new StackStop();
        Supervisor supervisor = up(policy(Duration.ofMillis(100), 3), stop);
        Process first = end(false);
        stop.begin();
        await().during(StackStop.SIGNAL_GRACE.plusSeconds(1))
            .atMost(StackStop.SIGNAL_GRACE.plusSeconds(3))
            .until(() -> node.lastLaunched == first);
        assertThat(supervisor.status()).hasToString("down (exited with code 143)");
        assertThatThrownBy(() -> supervisor.restart(WAIT)).hasMessage("sleep is stopped");
    }

    @Test
    void anExitBeforeTheFirstReadinessIsAFailedStartNotACrash() throws Exception {
        node.sleepSeconds = "0";
        node.neverReady = true;
        Supervisor supervisor = supervisor(policy(Duration.ofMillis(50), 3), new StackStop());
        supervisor.start();
        assertThatThrownBy(() -> supervisor.awaitReady(WAIT, true)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("sleep exited with code 0 before it was ready");
        Process only = node.lastLaunched;

        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> node.lastLaunched == only);
        assertThat(supervisor.status().state()).isEqualTo(SupervisedState.DOWN);
        assertThat(supervisor.status().detail()).contains("code 0");
        assertThat(supervisor.restarts()).isZero();
    }

    @Test
    void aRestartThatIsNotReadyInTimeIsStoppedAndCountsAsAnotherCrash() throws Exception {
        node = new SleepBuilder(runDir).startTimeout(Duration.ofMillis(300)).build();
        Supervisor supervisor = up(policy(Duration.ofMillis(50), 1), new StackStop());
        node.neverReady = true;
        Process first = end(true);
        awaitState(supervisor, SupervisedState.CRASH_LOOP);
        assertThat(supervisor.status())
            .hasToString("crash loop (2 exits inside 60 s; last: did not come back (no sleeping after 0 s"
                    + " (last: never)); not restarted)");
        Process notReady = node.lastLaunched;
        assertThat(notReady).isNotSameAs(first);
        assertThat(notReady.isAlive()).as("the restart that did not come back was stopped").isFalse();
        assertThat(supervisor.restarts()).isZero();
    }

    @Test
    void aNodeClosedAndStartedAgainBySomeoneElseIsTakenOverNotStartedTwice() throws Exception {
        Supervisor supervisor = up(policy(Duration.ofMillis(50), 3), new StackStop());
        Process first = node.lastLaunched;

        node.close();
        node.start();
        Process theirs = node.currentProcess();
        await().atMost(WAIT).until(() -> supervisor.status().up() && supervisor.restarts() == 1);
        assertThat(supervisor.process().orElseThrow().pid()).isEqualTo(theirs.pid());
        assertThat(node.lastLaunched).as("the supervisor launched nothing").isSameAs(theirs);
        assertThat(first.isAlive()).isFalse();
    }

    @Test
    void stepsOutsideTheTableAreRefused() throws Exception {
        Supervisor supervisor = supervisor(policy(Duration.ofMillis(50), 3), new StackStop());
        assertThatThrownBy(() -> supervisor.awaitReady(WAIT, true)).hasMessage("sleep has no process");
        supervisor.start();
        assertThatThrownBy(supervisor::start).hasMessage("sleep was started before");
        supervisor.close();
        supervisor.close();
        assertThat(supervisor.status()).hasToString("stopped");
        assertThatThrownBy(supervisor::start).hasMessage("sleep is stopped");
    }

    @Test
    void theTableAllowsOnlyItsSteps() {
        assertThat(SupervisedState.NOT_STARTED.canMoveTo(SupervisedState.UP)).isFalse();
        assertThat(SupervisedState.UP.canMoveTo(SupervisedState.RESTARTING)).as("only through down").isFalse();
        assertThat(SupervisedState.DOWN.canMoveTo(SupervisedState.RESTARTING)).isTrue();
        assertThat(SupervisedState.CRASH_LOOP.canMoveTo(SupervisedState.RESTARTING)).isFalse();
        assertThat(SupervisedState.CRASH_LOOP.canMoveTo(SupervisedState.STARTING)).as("a restart by hand").isTrue();
        assertThat(SupervisedState.STOPPING.canMoveTo(SupervisedState.STARTING)).isFalse();
        for (SupervisedState next : SupervisedState.values()) {
            assertThat(SupervisedState.STOPPED.canMoveTo(next)).as("stopped to %s", next).isFalse();
            assertThat(next.canMoveTo(SupervisedState.STOPPING))
                .isEqualTo(next != SupervisedState.STOPPING && next != SupervisedState.STOPPED);
        }
        assertThat(SupervisedState.CRASH_LOOP.label()).isEqualTo("crash loop");
        assertThat(new SupervisedStatus(SupervisedState.STARTING, "on request")).hasToString("starting (on request)");
    }

    private static RestartPolicy policy(Duration backoff, int limit) {
        return new RestartPolicy(backoff, backoff, limit, Duration.ofMinutes(1));
    }

    /**
     * Ends the node's last process, with SIGKILL or SIGTERM, and waits for its exit.
     * @return that process
     */
    private Process end(boolean sigkill) throws Exception {
        Process p = node.lastLaunched;
        if (sigkill) {
            p.destroyForcibly();
        }
        else {
            p.destroy();
        }
        p.onExit().get(10, TimeUnit.SECONDS);
        return p;
    }

    private static void awaitState(Supervisor supervisor, SupervisedState state) {
        await().atMost(WAIT).until(() -> supervisor.status().state() == state);
    }

    /** A supervisor over the node, started and up. */
    private Supervisor up(RestartPolicy policy, StackStop stop) throws IOException {
        Supervisor supervisor = supervisor(policy, stop);
        supervisor.start();
        assertThat(supervisor.awaitReady(WAIT, true)).isTrue();
        return supervisor;
    }

    private Supervisor supervisor(RestartPolicy policy, StackStop stop) {
        Supervisor supervisor = new Supervisor("sleep", new NodeProcess(node), policy, WAIT, stop);
        supervisors.add(supervisor);
        return supervisor;
    }

}
