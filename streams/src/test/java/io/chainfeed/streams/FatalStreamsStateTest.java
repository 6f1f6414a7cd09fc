package io.chainfeed.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

class FatalStreamsStateTest {

    @Test
    void anInstanceInErrorEndsTheProcessWithStatus70() {
        AtomicInteger status = new AtomicInteger(-1);
        new FatalStreamsState("chain-state", () -> false, status::set).onChange(State.ERROR, State.PENDING_ERROR);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(status.get()).isEqualTo(70));
    }

    @Test
    void otherStatesAndAStopOnPurposeEndNothing() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean stopping = new AtomicBoolean();
        FatalStreamsState listener = new FatalStreamsState("tagging", stopping::get, s -> calls.incrementAndGet());
        listener.onChange(State.REBALANCING, State.RUNNING);
        listener.onChange(State.PENDING_SHUTDOWN, State.RUNNING);
        listener.onChange(State.NOT_RUNNING, State.PENDING_SHUTDOWN);
        stopping.set(true);
        listener.onChange(State.ERROR, State.PENDING_ERROR);
        Thread.sleep(200);
        assertThat(calls.get()).isZero();
    }

}
