package io.chainfeed.ingest.signal;

import java.util.Map;

/**
 * One raw signal as read from a batch, before validation: its fields as given and bound
 * by name ({@link SignalFields}), or the reason the record could not be read at all.
 *
 * @param index 0-based position in the batch
 * @param line 1-based line in the input, or 0 when it has none
 * @param fields field values as given (String, Number, List or Map), kept for dead
 * letters and echoes; null when unreadable
 * @param unreadable why the record could not be read, or null
 * @param bound the fields bound by name, null when there are none
 */
public record SignalInput(int index, int line, Map<String, Object> fields, String unreadable, SignalFields bound) {

    /**
     * Binds the fields where the signal is read.
     * @param index 0-based position in the batch
     * @param line 1-based line in the input, or 0 when it has none
     * @param fields field values as given, null when unreadable
     * @param unreadable why the record could not be read, or null
     */
    public SignalInput(int index, int line, Map<String, Object> fields, String unreadable) {
        this(index, line, fields, unreadable, fields == null ? null : SignalFields.bind(fields));
    }

}
