package io.chainfeed.streams;

import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the service when one of its Kafka Streams instances reaches
 * {@link KafkaStreams.State#ERROR}, the state it enters once its stream threads have used
 * up their failure budget: every thread is gone, nothing more is processed, and the
 * instance cannot be restarted in place. A process that keeps answering its health
 * endpoint with a dead topology looks up to whatever supervises it; exiting instead
 * (status {@link #EXIT_CODE}, {@code EX_SOFTWARE} of BSD's sysexits.h) lets the
 * supervisor restart it, and report a crash loop when the fault is deterministic. The
 * exit runs on a thread of its own, so that the JVM's shutdown hooks (which close the
 * instances) never wait on the stream thread that reported the state.
 */
final class FatalStreamsState implements KafkaStreams.StateListener {

    private static final Logger log = LoggerFactory.getLogger(FatalStreamsState.class);

    /** The exit status: an internal software error. */
    static final int EXIT_CODE = 70;

    private final String name;

    private final BooleanSupplier stopping;

    private final IntConsumer exit;

    /**
     * @param name the topology's name, for the log
     * @param stopping whether the service is stopping on purpose (then nothing is done)
     * @param exit what ends the process ({@code System::exit} in the service)
     */
    FatalStreamsState(String name, BooleanSupplier stopping, IntConsumer exit) {
        this.name = name;
        this.stopping = stopping;
        this.exit = exit;
    }

    @Override
    public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        if (newState != KafkaStreams.State.ERROR || stopping.getAsBoolean()) {
            return;
        }
        log.error("{} Kafka Streams instance is in state ERROR (from {}): no stream thread is left; exiting with "
                + "status {} so that the service is restarted", name, oldState, EXIT_CODE);
        Thread t = new Thread(() -> exit.accept(EXIT_CODE), "chainfeed-streams-fatal-exit");
        t.setDaemon(false);
        t.start();
    }

}
