package io.chainfeed.api.webhook;

import io.chainfeed.api.readlog.LogPosition;
import io.chainfeed.api.readlog.ReadEvent;
import io.chainfeed.api.readlog.ReadListener;
import io.chainfeed.api.readlog.ReadLog;
import io.chainfeed.api.selector.Selector;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * The webhook engine's read source: the feed's {@link ReadLog}, the same log SSE readers
 * follow. A subscription resumes from its stored position (replayed from Kafka, paced by
 * the worker's free queue, then live), and each record comes with the position after it,
 * which is what the engine stores once the webhook is settled. The pushed JSON of a read
 * ({@link ReadEvent#json()}) is the one SSE sends.
 */
@Component
@RequiredArgsConstructor
class ReadLogSource implements ReadSource {

    private final ReadLog log;

    @Override
    public Map<Integer, Long> head() {
        LogPosition tail = log.tailPosition();
        return tail == null ? null : tail.offsets();
    }

    @Override
    public AutoCloseable subscribe(Map<Integer, Long> from, Selector selector, Listener listener) {
        return log.subscribe(LogPosition.of(from), selector, new ReadListener() {
            @Override
            public boolean onEvent(ReadEvent event, LogPosition after) {
                return listener.onRead(new WebhookRead(event.partition(), event.offset(), event.id(), event.read(),
                        event.timestampMs(), event.json()), after.offsets());
            }

            @Override
            public int capacity() {
                return listener.capacity();
            }

            @Override
            public void onClosed(CloseReason reason) {
                listener.onClosed(reason != CloseReason.SHUTDOWN);
            }
        });
    }

}
