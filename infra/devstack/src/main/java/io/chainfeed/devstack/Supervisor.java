package io.chainfeed.devstack;

import static io.chainfeed.devstack.SupervisedState.CRASH_LOOP;
import static io.chainfeed.devstack.SupervisedState.DOWN;
import static io.chainfeed.devstack.SupervisedState.NOT_STARTED;
import static io.chainfeed.devstack.SupervisedState.RESTARTING;
import static io.chainfeed.devstack.SupervisedState.STARTING;
import static io.chainfeed.devstack.SupervisedState.STOPPED;
import static io.chainfeed.devstack.SupervisedState.STOPPING;
import static io.chainfeed.devstack.SupervisedState.UP;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one part of the stack (a service JVM, an embedded Kafka broker or Elasticsearch
 * node) through its {@link SupervisedProcess} and moves it through the
 * {@link SupervisedState} table, refusing any step the table does not allow.
 *
 * <p>
 * When the part's process exits without being asked to, the death is logged at once
 * (ERROR, with the exit code and the last lines of its logs) and the part is started
 * again after the backoff of a {@link RestartPolicy}, until the policy calls it a crash
 * loop: then it stays down until {@link #restart} (an operator's
 * {@code ./chainfeed restart}). An exit on SIGTERM or SIGINT is judged after
 * {@link StackStop#SIGNAL_GRACE}, and nothing is restarted once the stack has begun to
 * stop. An exit before the part was first ready is a failed start, not a crash: the
 * caller's {@link #awaitReady} fails, and nothing is restarted.
 */
final class Supervisor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);

    private final String name;

    private final SupervisedProcess part;

    private final RestartPolicy policy;

    private final RestartPolicy.Tracker crashes;

    private final Duration readyTimeout;

    private final StackStop stop;

    /** The supervisor's own thread: signal graces, backoffs, restarts after a crash. */
    private final ScheduledExecutorService scheduler;

    private final AtomicInteger restarts = new AtomicInteger();

    /** Changed under the lock, by {@link #move} only; read without it. */
    private volatile SupervisedStatus status = new SupervisedStatus(NOT_STARTED, null);

    /**
     * The process launched last (changed under the lock): only its exit is news; one that
     * was replaced or is being stopped on purpose is not.
     */
    private volatile Process current;

    private long launchedAt;

    /** Whether the part was ever ready: until then an exit is a failed start. */
    private boolean wasReady;

    /**
     * @param name how the part is called in logs, in {@code ./chainfeed status} and in
     * {@code ./chainfeed restart} ({@code streams}, {@code kafka}, {@code api-2}, ...)
     * @param part how to launch, check and stop it
     * @param policy when to restart it after an unexpected exit
     * @param readyTimeout how long a restart after a crash may take to be ready
     * @param stop the stack's stop, after which nothing is restarted
     */
    Supervisor(String name, SupervisedProcess part, RestartPolicy policy, Duration readyTimeout, StackStop stop) {
        this.name = name;
        this.part = part;
        this.policy = policy;
        this.crashes = policy.tracker();
        this.readyTimeout = readyTimeout;
        this.stop = stop;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-supervisor");
            t.setDaemon(true);
            return t;
        });
    }

    /** The one place the state changes; under the lock. */
    private void move(SupervisedState next, String detail) {
        SupervisedState from = status.state();
        if (!from.canMoveTo(next)) {
            throw new IllegalStateException(name + " cannot go from " + from.label() + " to " + next.label());
        }
        status = new SupervisedStatus(next, detail);
    }

    private boolean stopping() {
        SupervisedState s = status.state();
        return s == STOPPING || s == STOPPED || stop.begun();
    }

    private void requireOpen() {
        if (stopping()) {
            throw new IllegalStateException(name + " is stopped");
        }
    }

    /**
     * Launches a process and watches it; under the lock, in
     * {@link SupervisedState#STARTING}. A launch that fails leaves the part down.
     */
    private Process launch() throws IOException {
        long t0 = System.nanoTime();
        Process p;
        try {
            p = part.launch();
        }
        catch (IOException | RuntimeException e) {
            move(DOWN, "could not be launched: " + firstLine(e));
            throw e;
        }
        current = p;
        launchedAt = t0;
        p.onExit().thenAccept(exitedProcess -> logged(() -> exited(exitedProcess)).run());
        return p;
    }

    /**
     * The first start: launches the part's process and returns without waiting for it
     * ({@link #awaitReady} waits).
     * @throws IllegalStateException when it was started before, or is stopped
     * @throws IOException when the process cannot be launched (the part is then down)
     */
    synchronized void start() throws IOException {
        requireOpen();
        if (status.state() != NOT_STARTED) {
            throw new IllegalStateException(name + " was started before");
        }
        move(STARTING, null);
        launch();
    }

    /**
     * Waits until the process of the last start is ready, and marks the part up.
     * @param timeout how long after the launch to wait at most
     * @param mustBeUp whether still starting after the timeout is an error (else this
     * returns false and the part keeps starting)
     * @return whether the part is up
     * @throws IllegalStateException when the process exits first, fails to start, or
     * (with {@code mustBeUp}) is not ready in time; the message carries the last lines of
     * its logs
     */
    boolean awaitReady(Duration timeout, boolean mustBeUp) {
        Process p;
        long t0;
        synchronized (this) {
            if (status.state() == UP) {
                return true;
            }
            p = current;
            t0 = launchedAt;
        }
        if (p == null) {
            throw new IllegalStateException(name + " has no process");
        }
        boolean ready;
        try {
            ready = part.awaitReady(p, t0, timeout);
        }
        catch (RuntimeException e) {
            failedStart(p, e);
            throw e;
        }
        if (ready) {
            ready(p, false);
            return true;
        }
        if (mustBeUp) {
            String why = "not ready after " + timeout.toSeconds() + " s";
            stillStarting(p, why);
            throw new IllegalStateException(name + " " + why + part.logTails());
        }
        return false;
    }

    private synchronized boolean ready(Process p, boolean afterCrash) {
        if (p != current || status.state() != STARTING) {
            return false;
        }
        move(UP, null);
        wasReady = true;
        if (afterCrash) {
            restarts.incrementAndGet();
        }
        return true;
    }

    private synchronized void stillStarting(Process p, String why) {
        if (p == current && status.state() == STARTING) {
            move(STARTING, why);
        }
    }

    /**
     * A readiness wait failed. An exit is judged by {@link #exited} (a crash once the
     * part was ready); a process that still runs has failed to start: it is stopped, and
     * once the part was ready that counts as a crash too.
     */
    private void failedStart(Process p, RuntimeException e) {
        String why = firstLine(e);
        boolean crash;
        synchronized (this) {
            if (p != current || status.state() != STARTING || stopping() || (wasReady && !p.isAlive())) {
                return;
            }
            crash = wasReady;
            // From here its exit is no news: exited() acts only on a starting or up part.
            move(DOWN, crash ? "did not come back (" + why + ")" : "did not start: " + why);
        }
        if (p.isAlive()) {
            part.stop(p);
        }
        if (crash) {
            crashed(p, "did not come back (" + why + ")");
        }
    }

    private void exited(Process p) {
        int code = p.exitValue();
        synchronized (this) {
            SupervisedState s = status.state();
            if (p != current || (s != STARTING && s != UP)) {
                return; // replaced, stopped on purpose, or already judged
            }
            if (!wasReady) {
                move(DOWN, "exited with code " + code + " before it was ready");
                return; // a failed first start: the caller's awaitReady says so
            }
            move(DOWN, "exited with code " + code);
            if (stop.begun()) {
                LOG.info("{} exited with code {} as the stack stops", name, code);
                return;
            }
            String what = "exited unexpectedly with code " + code;
            if (StackStop.byStopSignal(code)) {
                // Maybe a signal to the whole process group: give the launcher's own stop
                // a moment to begin.
                scheduler.schedule(logged(() -> crashed(p, what)), StackStop.SIGNAL_GRACE.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
            else {
                crashed(p, what);
            }
        }
    }

    /**
     * Decides after a crash: a restart after the policy's backoff, or none (a crash
     * loop).
     */
    private synchronized void crashed(Process p, String what) {
        if (p != current || status.state() != DOWN || stopping()) {
            if (p == current && stop.begun()) {
                LOG.info("{} {} as the stack stops; not restarting it", name, what.replace(" unexpectedly", ""));
            }
            return;
        }
        Optional<Duration> wait = crashes.onCrash(Instant.now());
        String tails = part.logTails();
        String happened = what.replace(" unexpectedly", "");
        if (wait.isEmpty()) {
            LOG.error(
                    "{} {}: {} crashes inside {} s, a crash loop; NOT restarting it"
                            + " (see {}; restart it by hand with ./chainfeed restart {}){}",
                    name, what, crashes.recentCrashes(), policy.window().toSeconds(), part.logs(), name, tails);
            move(CRASH_LOOP, crashes.recentCrashes() + " exits inside " + policy.window().toSeconds() + " s; last: "
                    + happened + "; not restarted");
            return;
        }
        long backoff = wait.get().toMillis();
        LOG.error("{} {}; restarting it in {} ms (crash {} in the last {} s; see {}){}", name, what, backoff,
                crashes.recentCrashes(), policy.window().toSeconds(), part.logs(), tails);
        long downSince = System.nanoTime();
        scheduler.schedule(logged(() -> restartAfterCrash(p, downSince)), backoff, TimeUnit.MILLISECONDS);
        move(RESTARTING, happened + "; next start in " + backoff + " ms");
    }

    /** Runs on the supervisor's thread once the backoff is over. */
    private void restartAfterCrash(Process crashed, long downSince) {
        Process p;
        long t0;
        synchronized (this) {
            if (crashed != current || status.state() != RESTARTING || stopping()) {
                return; // an operator's restart took over, or the stack stops
            }
            move(STARTING, "after a crash");
            try {
                p = launch();
                t0 = launchedAt;
            }
            catch (IOException | RuntimeException e) {
                // Another crash: the next try after a longer backoff, or a crash loop.
                crashed(crashed, "did not come back (" + firstLine(e) + ")");
                return;
            }
        }
        boolean ready;
        try {
            ready = part.awaitReady(p, t0, readyTimeout);
        }
        catch (RuntimeException e) {
            LOG.debug("{} did not come back", name, e);
            failedStart(p, e);
            return;
        }
        if (!ready) {
            LOG.warn("{} restarted but not ready after {} s; see {}", name, readyTimeout.toSeconds(), part.logs());
            stillStarting(p, "after a crash; not ready after " + readyTimeout.toSeconds() + " s");
        }
        else if (ready(p, true)) {
            LOG.info("{} restarted by the supervisor: ready again {} ms after it exited", name,
                    (System.nanoTime() - downSince) / 1_000_000);
        }
    }

    /**
     * An operator's restart: stops the part's process (SIGTERM, a grace period, SIGKILL),
     * launches a new one and waits until it is ready. Clears the crash history, so a part
     * left down as a crash loop can be brought back this way.
     * @param timeout how long the new process may take to be ready (an embedded node
     * takes its own start timeout)
     * @return how long the restart took, from the stop to ready
     * @throws IllegalStateException when the stack is stopping, or the part does not come
     * up in time
     * @throws IOException when the process cannot be launched
     */
    Duration restart(Duration timeout) throws IOException {
        long t0 = System.nanoTime();
        Process old;
        synchronized (this) {
            requireOpen();
            old = current;
            current = null; // its exit is no crash from now on
            move(STARTING, "on request");
            crashes.reset();
            LOG.info("restarting {} on request", name);
        }
        if (old != null) {
            part.stop(old);
        }
        synchronized (this) {
            requireOpen();
            if (current != null) {
                throw new IllegalStateException(name + " was restarted by another request meanwhile");
            }
            launch();
        }
        awaitReady(timeout, true);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("{} restarted on request in {} ms", name, took.toMillis());
        return took;
    }

    /** The name, as in {@code ./chainfeed restart NAME}. */
    String name() {
        return name;
    }

    /** What the part is doing now. */
    SupervisedStatus status() {
        return status;
    }

    /**
     * How many times the supervisor brought the part back after an unexpected exit
     * (counted once the new process is ready).
     */
    int restarts() {
        return restarts.get();
    }

    /** The part's process while it runs. */
    Optional<ProcessHandle> process() {
        Process p = current;
        return p != null && p.isAlive() ? Optional.of(p.toHandle()) : Optional.empty();
    }

    /** Whether the part's process runs. */
    boolean isRunning() {
        return process().isPresent();
    }

    /**
     * Stops supervising and stops the part's process (reporting whether it was still
     * running); idempotent.
     */
    @Override
    public void close() {
        Process p;
        synchronized (this) {
            SupervisedState s = status.state();
            if (s == STOPPING || s == STOPPED) {
                return;
            }
            move(STOPPING, null);
            scheduler.shutdownNow();
            p = current;
        }
        try {
            if (p != null) {
                part.stop(p);
            }
        }
        finally {
            synchronized (this) {
                move(STOPPED, null);
            }
        }
    }

    /**
     * A task of the supervisor's own (an exit, a backoff) that logs what it throws: such
     * a failure would otherwise vanish in its future.
     */
    private Runnable logged(Runnable task) {
        return () -> {
            try {
                task.run();
            }
            catch (RuntimeException e) {
                LOG.error("supervising {} failed", name, e);
            }
        };
    }

    private static String firstLine(Exception e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
    }

}
