package io.qdrant.esgateway.adapter.out.redis;

/**
 * Values of keys on the server that this replica knows current without asking: learned from its own reads, and
 * forgotten before any change to them is acknowledged (the response cache's lease, {@link Invalidations}). The
 * shared catalog uses them to skip reading its generation when the lease knows it.
 */
public interface KnownValues {
    /** Knows nothing. */
    KnownValues NONE = new KnownValues() {
        @Override
        public long stamp() {
            return -1;
        }

        @Override
        public void learn(long stamp, String[] keys, String[] values) {
        }

        @Override
        public boolean current(String[] keys, String[] values) {
            return false;
        }
    };

    /** The stamp to give {@link #learn} for a read about to be sent, or -1 when nothing may be learned. */
    long stamp();

    /** Records what a read stamped {@code stamp} found, unless anything was forgotten since it was sent. */
    void learn(long stamp, String[] keys, String[] values);

    /** Whether every key is known, and known to hold the value at the same position, now. */
    boolean current(String[] keys, String[] values);
}
