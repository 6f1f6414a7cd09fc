package io.chainfeed.ingest.signal;

import java.util.Map;

/**
 * One raw signal as read from a batch, before validation: its fields by name, or the
 * reason the record could not be read at all.
 *
 * @param index 0-based position in the batch
 * @param line 1-based line in the input, or 0 when it has none
 * @param fields field values (String, Number, List or Map), null when unreadable
 * @param unreadable why the record could not be read, or null
 */
public record SignalInput(int index, int line, Map<String, Object> fields, String unreadable) {
}
