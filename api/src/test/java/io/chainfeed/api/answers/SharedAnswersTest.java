package io.chainfeed.api.answers;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.readlog.LogPosition;
import io.chainfeed.api.readlog.ReadEvent;
import io.chainfeed.api.readlog.ReadListener;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.support.settings.ApiProperties;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When a shared answer is served from memory and when it is built again: the records of
 * the reads log drive it, and a record counts only once the index (here a map of the
 * versions it shows) has it.
 */
class SharedAnswersTest {

    private final Map<String, Long> index = new HashMap<>();

    private final AtomicInteger builds = new AtomicInteger();

    private final Selector memory = Selector.parse("layer:memory");

    private SharedAnswers answers;

    private long offset;

    @BeforeEach
    void following() {
        answers = new SharedAnswers(null, ids -> {
            Map<String, Long> shown = new HashMap<>();
            ids.stream().filter(index::containsKey).forEach(id -> shown.put(id, index.get(id)));
            return shown;
        }, start -> true, new ApiProperties.Answers(true, 100, Duration.ofMillis(100), Duration.ofSeconds(60)), null);
        answers.followNow();
    }

    private String feed() throws IOException {
        return answers.get("feed", List.of(memory, 5), new Dependency.Topic(memory),
                () -> "built " + builds.incrementAndGet());
    }

    private void record(String id, long version, String layer) {
        index.remove(id);
        answers.apply(new ReadEvent(0, offset++, id, read(id, version, layer), 0));
    }

    private static Read read(String id, long version, String layer) {
        return Read.newBuilder()
            .setId(id)
            .setKind(ReadKind.SIGNAL)
            .setSlug(id)
            .setTitle(id)
            .setSummary("s")
            .setLayers(List.of(new LayerTag(layer, layer, 1.0, true, List.of())))
            .setDisclaimer("Research, not advice.")
            .setVersion(version)
            .setUpdatedAt(Instant.EPOCH)
            .build();
    }

    @Test
    void anAnswerIsBuiltOnceAndServedFromMemoryUntilARecordOfItsTopicArrives() throws IOException {
        assertThat(feed()).isEqualTo("built 1");
        assertThat(feed()).isEqualTo("built 1");
        record("signal:power", 1, "energy-power");
        assertThat(feed()).as("another topic's read changes nothing").isEqualTo("built 1");
        record("signal:hbm", 1, "memory");
        assertThat(feed()).isEqualTo("built 2");
    }

    @Test
    void untilTheIndexShowsTheReadEveryRequestBuildsItsAnswerAndNoneIsKept() throws IOException {
        feed();
        record("signal:hbm", 1, "memory");
        assertThat(feed()).isEqualTo("built 2");
        assertThat(feed()).as("not searchable yet: an answer built now may miss it").isEqualTo("built 3");
        answers.settle();
        assertThat(feed()).as("the index does not show it yet").isEqualTo("built 4");
        index.put("signal:hbm", 1L);
        answers.settle();
        assertThat(feed()).isEqualTo("built 5");
        assertThat(feed()).isEqualTo("built 5");
    }

    @Test
    void anOlderVersionInTheIndexDoesNotSettleANewerRecord() throws IOException {
        record("signal:hbm", 1, "memory");
        index.put("signal:hbm", 1L);
        answers.settle();
        feed();
        record("signal:hbm", 2, "memory");
        index.put("signal:hbm", 1L);
        answers.settle();
        assertThat(feed()).isEqualTo("built 2");
        assertThat(feed()).isEqualTo("built 3");
        index.put("signal:hbm", 2L);
        answers.settle();
        assertThat(feed()).isEqualTo("built 4");
        assertThat(feed()).isEqualTo("built 4");
    }

    @Test
    void anAnswerBuiltWhileItsRecordSettledIsNotKept() throws IOException {
        feed();
        record("signal:hbm", 1, "memory");
        // The build asked the index before it showed the read; the read settles before
        // the build ends: the answer misses it, so it must not be kept.
        String during = answers.get("feed", List.of(memory, 5), new Dependency.Topic(memory), () -> {
            index.put("signal:hbm", 1L);
            answers.settle();
            return "built during settling";
        });
        assertThat(during).isEqualTo("built during settling");
        assertThat(feed()).isEqualTo("built 2");
        assertThat(feed()).isEqualTo("built 2");
    }

    @Test
    void aReadTheLogBroughtBeforeAnyoneAskedForItsTopicIsWaitedFor() throws IOException {
        // nobody watches memory yet when its read arrives; the index does not show it yet
        record("signal:hbm", 1, "memory");
        assertThat(feed()).isEqualTo("built 1");
        assertThat(feed()).as("the answer may have missed the read: not kept").isEqualTo("built 2");
        index.put("signal:hbm", 1L);
        answers.settle();
        assertThat(feed()).isEqualTo("built 3");
        assertThat(feed()).isEqualTo("built 3");
        // a read of another topic seen before the watch began holds it back too, until it
        // is searchable: the class cannot tell which topics a read it no longer has
        // belongs to
        record("signal:power", 1, "energy-power");
        String card = answers.get("term", "rdma", new Dependency.OneRead("term:rdma"), () -> "card 1");
        assertThat(answers.get("term", "rdma", new Dependency.OneRead("term:rdma"), () -> "card 2"))
            .isEqualTo("card 2");
        index.put("signal:power", 1L);
        answers.settle();
        assertThat(answers.get("term", "rdma", new Dependency.OneRead("term:rdma"), () -> "card 3"))
            .isEqualTo("card 3");
        assertThat(answers.get("term", "rdma", new Dependency.OneRead("term:rdma"), () -> "card 4"))
            .isEqualTo("card 3");
        assertThat(card).isEqualTo("card 1");
    }

    @Test
    void aDeletionMakesEveryAnswerStaleUntilTheIndexNoLongerShowsTheRead() throws IOException {
        index.put("signal:hbm", 1L);
        feed();
        String card = answers.get("term", "hbm", new Dependency.OneRead("term:hbm"), () -> "card 1");
        answers.apply(new ReadEvent(0, offset++, "signal:hbm", null, 0));
        assertThat(feed()).isEqualTo("built 2");
        assertThat(answers.get("term", "hbm", new Dependency.OneRead("term:hbm"), () -> "card 2")).isEqualTo("card 2");
        index.remove("signal:hbm");
        answers.settle();
        assertThat(feed()).isEqualTo("built 3");
        assertThat(feed()).isEqualTo("built 3");
        assertThat(card).isEqualTo("card 1");
    }

    @Test
    void aReadDependencyWatchesItsOneRead() throws IOException {
        assertThat(answers.get("term", "hbm", new Dependency.OneRead("term:hbm"), () -> "card 1")).isEqualTo("card 1");
        record("term:dram", 1, "memory");
        assertThat(answers.get("term", "hbm", new Dependency.OneRead("term:hbm"), () -> "card 2")).isEqualTo("card 1");
        record("term:hbm", 2, "memory");
        index.put("term:hbm", 2L);
        answers.settle();
        assertThat(answers.get("term", "hbm", new Dependency.OneRead("term:hbm"), () -> "card 3")).isEqualTo("card 3");
        assertThat(answers.get("term", "hbm", new Dependency.OneRead("term:hbm"), () -> "card 4")).isEqualTo("card 3");
    }

    @Test
    void aReadTheIndexNeverShowsIsSettledAfterTheTimeout() throws IOException, InterruptedException {
        answers = new SharedAnswers(null, ids -> Map.of(), start -> true,
                new ApiProperties.Answers(true, 100, Duration.ofMillis(100), Duration.ofMillis(50)), null);
        answers.followNow();
        feed();
        record("signal:hbm", 1, "memory");
        assertThat(feed()).isEqualTo("built 2");
        Thread.sleep(60);
        answers.settle();
        assertThat(feed()).isEqualTo("built 3");
        assertThat(feed()).isEqualTo("built 3");
    }

    @Test
    void nothingIsKeptBeforeTheLogIsFollowedOrAfterItsSubscriptionCloses() throws IOException {
        answers = new SharedAnswers(null, ids -> Map.of(), start -> true,
                new ApiProperties.Answers(true, 100, Duration.ofMillis(100), Duration.ofSeconds(60)), null);
        assertThat(answers.keeping()).isFalse();
        assertThat(feed()).isEqualTo("built 1");
        ReadListener listener = answers.listener();
        listener.onStart(LogPosition.parse("0:0"));
        assertThat(feed()).as("the tail began, but the indexer may not have what came before").isEqualTo("built 2");
        answers.followNow();
        assertThat(feed()).isEqualTo("built 3");
        assertThat(feed()).isEqualTo("built 3");
        listener.onClosed(ReadListener.CloseReason.SHUTDOWN);
        assertThat(feed()).isEqualTo("built 4");
        assertThat(feed()).isEqualTo("built 5");
    }

    @Test
    void switchedOffEveryRequestBuildsItsAnswer() throws IOException {
        answers = new SharedAnswers(null, ids -> Map.of(), start -> true,
                new ApiProperties.Answers(false, 100, Duration.ofMillis(100), Duration.ofSeconds(60)), null);
        answers.followNow();
        assertThat(feed()).isEqualTo("built 1");
        assertThat(feed()).isEqualTo("built 2");
    }

}
