package io.chainfeed.ingest.fetch;

/** A page could not be fetched, or was refused (address, scheme, size or status). */
public class FetchException extends RuntimeException {

    /**
     * @param message what was refused or failed, and why
     */
    public FetchException(String message) {
        super(message);
    }

}
