package io.chainfeed.faults;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault injection on real processes (Linux): {@code kill -9}, {@code SIGSTOP} and
 * {@code SIGCONT} of a process and its descendants (Elasticsearch runs as a launcher
 * script and a server JVM). Only ever used on processes the test's own stack started.
 */
public final class ProcessControl {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessControl.class);

    private ProcessControl() {
    }

    /**
     * Sends SIGKILL to the process and its descendants and waits until they are gone.
     * @param process the process
     * @param what a name for the log
     * @throws IllegalStateException when a process is still alive 10 s later
     */
    public static void kill9(ProcessHandle process, String what) {
        List<ProcessHandle> all = tree(process);
        LOG.info("fault: kill -9 {} (pids {})", what, all.stream().map(ProcessHandle::pid).toList());
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            }
            catch (Exception e) {
                throw new IllegalStateException(what + " (pid " + h.pid() + ") survived SIGKILL", e);
            }
        }
    }

    /**
     * Freezes the process and its descendants ({@code SIGSTOP}): sockets stay open,
     * nothing answers.
     * @param process the process
     * @param what a name for the log
     */
    public static void freeze(ProcessHandle process, String what) {
        List<ProcessHandle> all = tree(process);
        LOG.info("fault: SIGSTOP {} (pids {})", what, all.stream().map(ProcessHandle::pid).toList());
        signal("-STOP", all);
    }

    /**
     * Thaws a frozen process and its descendants ({@code SIGCONT}).
     * @param process the process
     * @param what a name for the log
     */
    public static void thaw(ProcessHandle process, String what) {
        List<ProcessHandle> all = tree(process);
        LOG.info("fault: SIGCONT {} (pids {})", what, all.stream().map(ProcessHandle::pid).toList());
        signal("-CONT", all);
    }

    private static List<ProcessHandle> tree(ProcessHandle process) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(process);
        process.descendants().forEach(all::add);
        return all;
    }

    private static void signal(String signal, List<ProcessHandle> handles) {
        List<String> command = new ArrayList<>(List.of("kill", signal));
        handles.forEach(h -> command.add(Long.toString(h.pid())));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException(
                        String.join(" ", command) + " failed: " + new String(kill.getInputStream().readAllBytes()));
            }
        }
        catch (IOException e) {
            throw new IllegalStateException("cannot run kill", e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Elapsed time since {@code t0} ({@link System#nanoTime()}). */
    public static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }

}
