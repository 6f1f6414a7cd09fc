package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.StoredDocuments;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FirstPageCacheTest {

    private static final FirstPageCache.Key MEMORY = new FirstPageCache.Key("memory", ReadSearch.Filters.NONE, 10,
            false, true);

    private final AtomicLong nanos = new AtomicLong();

    private final AtomicInteger searches = new AtomicInteger();

    private ReadSearch.Page search() {
        int n = searches.incrementAndGet();
        return new ReadSearch.Page(n, List.of(), Map.of(), null, SearchMode.ALL, n);
    }

    @Test
    void aPageIsKeptForTheTtlThenSearchedAgain() throws IOException {
        FirstPageCache cache = new FirstPageCache(Duration.ofSeconds(1), nanos::get);
        assertThat(cache.get(MEMORY, this::search).total()).isEqualTo(1);
        nanos.addAndGet(Duration.ofMillis(999).toNanos());
        assertThat(cache.get(MEMORY, this::search).total()).isEqualTo(1);
        nanos.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(cache.get(MEMORY, this::search).total()).isEqualTo(2);
        assertThat(searches).hasValue(2);
    }

    @Test
    void otherTextFiltersSizeOrEvidenceAreOtherPages() throws IOException {
        FirstPageCache cache = new FirstPageCache(Duration.ofSeconds(1), nanos::get);
        cache.get(MEMORY, this::search);
        cache.get(new FirstPageCache.Key("Memory", ReadSearch.Filters.NONE, 10, false, true), this::search);
        cache.get(new FirstPageCache.Key("memory",
                new ReadSearch.Filters(List.of("memory"), List.of(), false, List.of(), List.of(), null, null), 10,
                false, true), this::search);
        cache.get(new FirstPageCache.Key("memory", ReadSearch.Filters.NONE, 20, false, true), this::search);
        cache.get(new FirstPageCache.Key("memory", ReadSearch.Filters.NONE, 10, true, true), this::search);
        cache.get(new FirstPageCache.Key("memory", ReadSearch.Filters.NONE, 10, false, false), this::search);
        assertThat(searches).hasValue(6);
    }

    @Test
    void theKeptPageHasItsSectionsAndHowManyReadsHaveEveryWord() throws IOException {
        FirstPageCache cache = new FirstPageCache(Duration.ofSeconds(1), nanos::get);
        ReadSearch.Sections sections = new ReadSearch.Sections(List.of(StoredDocuments.doc(Map.of("id", "term:cowos"))),
                List.of());
        ReadSearch.Page page = cache.get(MEMORY,
                () -> new ReadSearch.Page(12, List.of(), Map.of(), null, SearchMode.ANY, 3, sections, 2));
        assertThat(page.sections()).isEqualTo(sections);
        assertThat(page.withAll()).isEqualTo(2);
        assertThat(cache.get(MEMORY, this::search).sections()).isEqualTo(sections);
    }

    @Test
    void aFailedSearchIsNotKept() throws IOException {
        FirstPageCache cache = new FirstPageCache(Duration.ofSeconds(1), nanos::get);
        assertThatThrownBy(() -> cache.get(MEMORY, () -> {
            throw new IOException("connection refused");
        })).isInstanceOf(IOException.class).hasMessage("connection refused");
        assertThat(cache.get(MEMORY, this::search).total()).isEqualTo(1);
    }

    @Test
    void zeroTtlSearchesEveryTime() throws IOException {
        FirstPageCache cache = new FirstPageCache(Duration.ZERO, nanos::get);
        cache.get(MEMORY, this::search);
        cache.get(MEMORY, this::search);
        assertThat(searches).hasValue(2);
        assertThatThrownBy(() -> new FirstPageCache(Duration.ofMillis(-1), nanos::get))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void identicalRequestsDuringASearchWaitForItsAnswer() throws Exception {
        FirstPageCache cache = new FirstPageCache(Duration.ofSeconds(1), nanos::get);
        CountDownLatch searching = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<ReadSearch.Page> first = pool.submit(() -> cache.get(MEMORY, () -> {
                searching.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return search();
            }));
            assertThat(searching.await(10, TimeUnit.SECONDS)).isTrue();
            List<Future<ReadSearch.Page>> others = List.of(pool.submit(() -> cache.get(MEMORY, this::search)),
                    pool.submit(() -> cache.get(MEMORY, this::search)));
            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS).total()).isEqualTo(1);
            for (Future<ReadSearch.Page> f : others) {
                assertThat(f.get(10, TimeUnit.SECONDS).total()).isEqualTo(1);
            }
            assertThat(searches).hasValue(1);
        }
        finally {
            pool.shutdownNow();
        }
    }

}
