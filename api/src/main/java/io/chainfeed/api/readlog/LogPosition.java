package io.chainfeed.api.readlog;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A reader's place in {@code chainfeed.reads.v1}: for each partition, the offset of the
 * next record the reader has not yet seen (Kafka's "position" sense: one past the last
 * record consumed). A partition that is not named is read from its beginning.
 *
 * <p>
 * The text form is the SSE event id ({@code Last-Event-ID}): {@code <partition>:<offset>}
 * pairs in partition order, joined by commas, e.g. {@code 0:15,1:7,2:22}. It uses only
 * digits, {@code :} and {@code ,}, so it is safe in the SSE {@code id:} field (no CR, LF
 * or NUL) and in a URL query. Offsets refer to Kafka's log, so an id stays valid across
 * API restarts and on every API instance.
 *
 * <p>
 * Immutable and thread-safe.
 */
public final class LogPosition {

    /** Longest text form accepted by {@link #parse(String)}, in characters. */
    public static final int MAX_TEXT_LENGTH = 4096;

    /** Highest partition number accepted by {@link #parse(String)}. */
    public static final int MAX_PARTITION = 1023;

    private static final LogPosition START = new LogPosition(new long[0]);

    /**
     * Next offset per partition, indexed by partition number; -1 where the partition is
     * not named.
     */
    private final long[] next;

    private LogPosition(long[] next) {
        this.next = next;
    }

    /**
     * @return the position before every record: each partition from its beginning
     */
    public static LogPosition start() {
        return START;
    }

    /**
     * @param nextOffsets next offset per partition (partition numbers
     * 0..{@value #MAX_PARTITION}, offsets &ge; 0)
     * @return the position
     * @throws IllegalArgumentException for a negative or too large partition or a
     * negative offset
     */
    public static LogPosition of(Map<Integer, Long> nextOffsets) {
        int size = nextOffsets.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        long[] next = new long[size];
        Arrays.fill(next, -1);
        nextOffsets.forEach((p, o) -> {
            if (p < 0 || p > MAX_PARTITION) {
                throw new IllegalArgumentException("partition out of range: " + p);
            }
            if (o < 0) {
                throw new IllegalArgumentException("negative offset for partition " + p + ": " + o);
            }
            next[p] = o;
        });
        return new LogPosition(next);
    }

    /**
     * @param nextOffsets next offset per partition, indexed by partition number; every
     * entry &ge; 0
     * @return the position (the array is copied)
     * @throws IllegalArgumentException for a negative offset
     */
    static LogPosition ofArray(long[] nextOffsets) {
        for (int p = 0; p < nextOffsets.length; p++) {
            if (nextOffsets[p] < 0) {
                throw new IllegalArgumentException("negative offset for partition " + p);
            }
        }
        return new LogPosition(nextOffsets.clone());
    }

    /**
     * Parses the text form (see the class comment).
     * @param text an SSE event id, e.g. {@code 0:15,1:7,2:22}
     * @return the position
     * @throws InvalidEventIdException if the text is empty, longer than
     * {@value #MAX_TEXT_LENGTH} characters, not of the form above, names a partition
     * twice or above {@value #MAX_PARTITION}, or an offset beyond a long; the message
     * names the 1-based character position of the fault
     */
    public static LogPosition parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new InvalidEventIdException("the event id is empty");
        }
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new InvalidEventIdException("the event id is " + text.length() + " characters long; at most "
                    + MAX_TEXT_LENGTH + " are allowed");
        }
        TreeMap<Integer, Long> offsets = new TreeMap<>();
        int i = 0;
        while (true) {
            int partitionAt = i;
            long partition = number(text, i, "a partition number");
            i = skipDigits(text, i);
            if (partition > MAX_PARTITION) {
                throw fault(text, partitionAt, "partition " + partition + " is above " + MAX_PARTITION);
            }
            if (i >= text.length() || text.charAt(i) != ':') {
                throw fault(text, i, "expected ':' after the partition number");
            }
            i++;
            long offset = number(text, i, "an offset");
            i = skipDigits(text, i);
            if (offsets.put((int) partition, offset) != null) {
                throw fault(text, partitionAt, "partition " + partition + " is named twice");
            }
            if (i == text.length()) {
                break;
            }
            if (text.charAt(i) != ',') {
                throw fault(text, i, "expected ',' or the end of the id");
            }
            i++;
        }
        return of(offsets);
    }

    private static long number(String text, int at, String what) {
        int end = skipDigits(text, at);
        if (end == at) {
            throw fault(text, at, "expected " + what);
        }
        if (end - at > 19) {
            throw fault(text, at, what + " is too large");
        }
        try {
            return Long.parseLong(text, at, end, 10);
        }
        catch (NumberFormatException e) {
            throw fault(text, at, what + " is too large");
        }
    }

    private static int skipDigits(String text, int i) {
        while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    private static InvalidEventIdException fault(String text, int at, String what) {
        String found = at < text.length() ? "'" + printable(text.charAt(at)) + "'" : "the end";
        return new InvalidEventIdException("malformed event id: " + what + " at position " + (at + 1) + ", found "
                + found + " (an id looks like 0:15,1:7,2:22)");
    }

    private static String printable(char c) {
        return c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }

    /**
     * @param partition a partition number
     * @return the next offset to read in that partition: 0 (its beginning) if the
     * position does not name it
     */
    public long next(int partition) {
        return partition >= 0 && partition < next.length && next[partition] >= 0 ? next[partition] : 0;
    }

    /**
     * @param partition a partition number
     * @return whether this position names the partition
     */
    public boolean names(int partition) {
        return partition >= 0 && partition < next.length && next[partition] >= 0;
    }

    /**
     * @return one more than the highest partition named, 0 for {@link #start()}
     */
    public int partitionLimit() {
        return next.length;
    }

    /**
     * @return the named partitions and their next offsets, in partition order
     */
    public SortedMap<Integer, Long> offsets() {
        TreeMap<Integer, Long> m = new TreeMap<>();
        for (int p = 0; p < next.length; p++) {
            if (next[p] >= 0) {
                m.put(p, next[p]);
            }
        }
        return Collections.unmodifiableSortedMap(m);
    }

    /**
     * @param other another position
     * @return whether this position is at or past {@code other} in every partition that
     * either names (a partition not named counts as offset 0)
     */
    public boolean atOrPast(LogPosition other) {
        int n = Math.max(next.length, other.next.length);
        for (int p = 0; p < n; p++) {
            if (next(p) < other.next(p)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the text form, e.g. {@code 0:15,1:7,2:22}; empty for {@link #start()}
     */
    public String text() {
        StringBuilder b = new StringBuilder(next.length * 8);
        for (int p = 0; p < next.length; p++) {
            if (next[p] >= 0) {
                if (!b.isEmpty()) {
                    b.append(',');
                }
                b.append(p).append(':').append(next[p]);
            }
        }
        return b.toString();
    }

    /**
     * Equal when they name the same partitions with the same next offsets (as
     * {@link #offsets()}).
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LogPosition other)) {
            return false;
        }
        int n = Math.max(next.length, other.next.length);
        for (int p = 0; p < n; p++) {
            long a = p < next.length ? next[p] : -1;
            long b = p < other.next.length ? other.next[p] : -1;
            if (a != b) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return offsets().hashCode();
    }

    @Override
    public String toString() {
        return text();
    }

}
