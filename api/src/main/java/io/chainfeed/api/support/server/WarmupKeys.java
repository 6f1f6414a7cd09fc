package io.chainfeed.api.support.server;

/**
 * Lends the warm-up ({@link Warmup}) a partner key for its own calls to the partner paths
 * (the widget's data and embed pages), so that their answers are built and their code
 * compiled before the first partner's visitor comes, and takes it back when the warm-up
 * ends. The key must live in the api's memory only: never stored, never listed, unknown
 * to other instances and forgotten by a restart.
 */
public interface WarmupKeys {

    /**
     * @param origin the one web origin the key allows ({@code scheme://host}, RFC 6454);
     * the warm-up's widget calls send it as {@code Origin}
     * @return the lent key; closing it withdraws it at once
     */
    Lease lend(String origin);

    /** A lent key; {@link #close} withdraws it. */
    interface Lease extends AutoCloseable {

        /**
         * @return the key's token, for the {@code key} query parameter
         */
        String token();

        /** Withdraws the key: its token stops working at once. */
        @Override
        void close();

    }

}
