package io.chainfeed.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import org.slf4j.Logger;

/**
 * What a supervisor ({@link ServiceProcess}, {@link NodeSupervisor}) does about an
 * unexpected exit: records the crash under its {@link RestartPolicy}, then either logs a
 * crash loop and leaves the process down, or logs the backoff and schedules the restart.
 * Not thread-safe: used under the supervisor's lock.
 */
final class CrashRestarter {

    private final String name;

    private final RestartPolicy policy;

    private final RestartPolicy.Tracker crashes;

    private final ScheduledExecutorService scheduler;

    private final Logger log;

    /**
     * @param name the process's name in logs and in {@code ./chainfeed restart}
     * @param policy when to restart it
     * @param scheduler the supervisor's thread, which runs the restart
     * @param log the supervisor's logger
     */
    CrashRestarter(String name, RestartPolicy policy, ScheduledExecutorService scheduler, Logger log) {
        this.name = name;
        this.policy = policy;
        this.crashes = policy.tracker();
        this.scheduler = scheduler;
        this.log = log;
    }

    /**
     * @param name the supervised process's name
     * @return the supervisor's own thread (a daemon, {@code <name>-supervisor}), which
     * runs its restarts
     */
    static ScheduledExecutorService supervisorThread(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-supervisor");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Records a crash now and logs it (ERROR) with what follows.
     * @param what what happened, following the name ({@code exited unexpectedly with code
     * 1})
     * @param logs where its logs are
     * @param tails the last lines of its logs, appended to the message
     * @param restart run on the scheduler after the backoff, given the
     * {@link System#nanoTime()} of the crash
     * @return whether a restart is scheduled; false for a crash loop
     */
    boolean onCrash(String what, Path logs, String tails, LongConsumer restart) {
        Optional<Duration> wait = crashes.onCrash(Instant.now());
        if (wait.isEmpty()) {
            log.error(
                    "{} {}: {} crashes inside {} s, a crash loop; NOT restarting it"
                            + " (see {}; restart it by hand with ./chainfeed restart {}){}",
                    name, what, crashes.recentCrashes(), policy.window().toSeconds(), logs, name, tails);
            return false;
        }
        log.error("{} {}; restarting it in {} ms (crash {} in the last {} s; see {}){}", name, what,
                wait.get().toMillis(), crashes.recentCrashes(), policy.window().toSeconds(), logs, tails);
        long downSince = System.nanoTime();
        scheduler.schedule(() -> restart.accept(downSince), wait.get().toMillis(), TimeUnit.MILLISECONDS);
        return true;
    }

    /** The crash loop as a status says it: {@code 6 exits inside 600 s}. */
    String crashLoop() {
        return crashes.recentCrashes() + " exits inside " + policy.window().toSeconds() + " s";
    }

    /** Forgets the crash history (after a restart asked for by an operator). */
    void reset() {
        crashes.reset();
    }

}
