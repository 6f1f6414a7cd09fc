package io.chainfeed.devstack;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one Kafka broker or Elasticsearch node of the embedded default, as
 * {@link ServiceProcess} watches a service: when its process exits without being asked
 * to, the death is logged at once (ERROR, with the exit code) and the node is started
 * again (same run dir, same ports, its data kept) after the backoff of a
 * {@link RestartPolicy}, until the policy calls it a crash loop. An exit on SIGTERM or
 * SIGINT is judged after {@link StackStop#SIGNAL_GRACE}, and nothing is restarted once
 * the stack has begun to stop.
 */
final class NodeSupervisor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeSupervisor.class);

    private final String name;

    private final LocalNode<?> node;

    private final CrashRestarter restarter;

    private final StackStop stop;

    private final ScheduledExecutorService scheduler;

    private final AtomicInteger restarts = new AtomicInteger();

    /**
     * The process being watched; an exit of any other one (replaced, asked to stop) is
     * not a crash.
     */
    private Process watched;

    private volatile boolean closed;

    private volatile String state = "not started";

    /**
     * @param name how the node is called in logs, status and {@code ./chainfeed restart}
     * ({@code kafka}, {@code elasticsearch}, {@code kafka-2} on a cluster)
     * @param node the node, not started yet or started
     * @param policy when to restart it after an unexpected exit
     * @param stop the stack's stop, after which nothing is restarted
     */
    NodeSupervisor(String name, LocalNode<?> node, RestartPolicy policy, StackStop stop) {
        this.name = name;
        this.node = node;
        this.stop = stop;
        this.scheduler = CrashRestarter.supervisorThread(name);
        this.restarter = new CrashRestarter(name, policy, scheduler, LOG);
    }

    /** Starts watching the node's current process (after its start). */
    synchronized void watch() {
        Process p = node.currentProcess();
        if (closed || p == null) {
            return;
        }
        watched = p;
        state = "up";
        p.onExit().thenAccept(this::exited);
    }

    private void exited(Process p) {
        int code = p.exitValue();
        synchronized (this) {
            if (closed || watched != p) {
                return;
            }
            state = "down (exited with code " + code + ")";
        }
        if (stop.begun()) {
            LOG.info("{} exited with code {} as the stack stops", name, code);
            return;
        }
        if (StackStop.byStopSignal(code)) {
            // Maybe a signal to the whole process group: give the launcher's own stop a
            // moment to begin.
            scheduler.schedule(() -> crashed(p, "exited unexpectedly with code " + code),
                    StackStop.SIGNAL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
        else {
            crashed(p, "exited unexpectedly with code " + code);
        }
    }

    /**
     * Decides after a crash: a restart after the policy's backoff, or none (a crash
     * loop).
     */
    private synchronized void crashed(Process p, String what) {
        if (closed || watched != p) {
            return;
        }
        if (stop.begun()) {
            LOG.info("{} {} as the stack stops; not restarting it", name, what.replace(" unexpectedly", ""));
            return;
        }
        if (restarter.onCrash(what, node.runDir().resolve("logs"), node.logTails(),
                downSince -> restartAfterCrash(p, downSince))) {
            state = "down (" + what.replace(" unexpectedly", "") + "; restarting)";
        }
        else {
            state = "down (crash loop: " + restarter.crashLoop() + "; not restarted)";
        }
    }

    private void restartAfterCrash(Process crashed, long downSince) {
        synchronized (this) {
            if (closed || watched != crashed || stop.begun()) {
                return;
            }
            node.forgetExited();
            state = "starting (after a crash)";
        }
        // Started outside the lock: a stop meanwhile closes the node, which ends the wait
        // for it.
        try {
            node.start();
        }
        catch (IOException | RuntimeException e) {
            synchronized (this) {
                if (closed || stop.begun() || watched != crashed) {
                    return; // stopped, or an operator's restart took over
                }
                if (node.isRunning()) {
                    // Closed and started again by someone else meanwhile (this start
                    // failed because its process was stopped): watch that one, it is
                    // no crash.
                    LOG.info("{} was started again by someone else while the supervisor restarted it;"
                            + " watching that process", name);
                    watch();
                    return;
                }
                // start() has already stopped its own process
                node.forgetExited();
                String why = String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
                // Counts as another crash: the next try after a longer backoff, or a
                // crash loop.
                scheduler.execute(() -> crashed(crashed, "did not come back (" + why + ")"));
            }
            return;
        }
        synchronized (this) {
            if (closed || stop.begun()) {
                return; // close() stops the node
            }
            restarts.incrementAndGet();
            watch();
        }
        LOG.info("{} restarted by the supervisor: ready again {} ms after it exited", name,
                (System.nanoTime() - downSince) / 1_000_000);
    }

    /**
     * An operator's restart: stops the node (SIGTERM, a grace period, SIGKILL), starts it
     * again and waits until it answers. Clears the crash history, so a node given up as a
     * crash loop can be brought back this way.
     * @return how long the restart took, from the stop to ready
     * @throws IllegalStateException when the stack is stopping or the node does not come
     * up
     * @throws IOException when the node cannot be launched
     */
    Duration restart() throws IOException {
        long t0 = System.nanoTime();
        synchronized (this) {
            if (closed || stop.begun()) {
                throw new IllegalStateException(name + " is stopped");
            }
            watched = null; // exited() ignores the old process from now on
            node.close();
            restarter.reset();
            state = "starting (on request)";
            LOG.info("restarting {} on request", name);
        }
        node.start();
        synchronized (this) {
            if (closed || stop.begun()) {
                throw new IllegalStateException(name + " is stopped");
            }
            watch();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("{} restarted on request in {} ms", name, took.toMillis());
        return took;
    }

    /** The name, as in {@code ./chainfeed restart NAME}. */
    String name() {
        return name;
    }

    /** The node. */
    LocalNode<?> node() {
        return node;
    }

    /** How many times the supervisor restarted the node after an unexpected exit. */
    int restarts() {
        return restarts.get();
    }

    /**
     * What the node is doing, for {@code ./chainfeed status}: up, down (and why),
     * starting, stopped.
     */
    String state() {
        return state;
    }

    /**
     * Stops watching and stops the node (reporting whether it was still running);
     * idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            watched = null;
            scheduler.shutdownNow();
        }
        node.close();
        state = "stopped";
    }

}
