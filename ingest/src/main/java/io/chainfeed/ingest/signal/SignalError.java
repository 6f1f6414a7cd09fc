package io.chainfeed.ingest.signal;

/**
 * Why one input signal was refused.
 *
 * @param index 0-based position of the signal in its batch
 * @param line 1-based line in the input (NDJSON, JSON Lines, CSV), or 0 when it has none
 * (a JSON array)
 * @param field the field at fault, or {@code record} when the whole record is unreadable
 * @param reason what is wrong, in words
 */
public record SignalError(int index, int line, String field, String reason) {
    /**
     * @return a one-line description: {@code line 3, magnitude: must be 1 to 5}
     */
    public String describe() {
        return (line > 0 ? "line " + line : "item " + index) + ", " + field + ": " + reason;
    }
}
