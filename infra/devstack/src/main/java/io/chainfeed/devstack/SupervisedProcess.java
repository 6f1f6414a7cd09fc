package io.chainfeed.devstack;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What differs between the kinds of part a {@link Supervisor} watches: how a process of
 * it is launched, when it is ready, how it is stopped and where it logs. A service JVM
 * ({@link ServiceProcess}) and an embedded Kafka broker or Elasticsearch node
 * ({@link NodeProcess}) implement it; the supervisor owns everything else (the state,
 * exits, restarts, the backoff).
 */
interface SupervisedProcess {

    /**
     * Launches a new process of the part; does not wait for it to be ready. The previous
     * process, if any, has exited or been stopped.
     * @return the launched process
     * @throws IOException when it cannot be launched
     */
    Process launch() throws IOException;

    /**
     * Waits until a launched process is ready.
     * @param launched a process {@link #launch()} returned
     * @param launchedAt {@link System#nanoTime()} just before its launch
     * @param timeout how long after the launch to wait at most (an embedded node waits
     * for its own start timeout instead, which the stack sets the same)
     * @return true once it is ready; false when the timeout passed while it still runs
     * and may yet come up (a service that is slow to be healthy)
     * @throws IllegalStateException when it exited first, or when it failed to start (an
     * embedded node not ready within its start timeout); the message carries the last
     * lines of its logs
     */
    boolean awaitReady(Process launched, long launchedAt, Duration timeout);

    /**
     * Stops a process of the part (SIGTERM to its tree, a grace period, SIGKILL) and
     * drops its pid file; logs how long that took, or that it had already exited.
     * @param process a process {@link #launch()} returned, alive or not
     */
    void stop(Process process);

    /** Where the part's logs are, for the lines the supervisor logs about a crash. */
    Path logs();

    /**
     * @return the last lines of the part's logs, as a block to append to a message (empty
     * when there are none)
     */
    String logTails();

}
