package io.qdrant.esgateway.domain.time;

import java.util.function.LongSupplier;

/**
 * The current time of one request. Date math ({@code now-1d/d}) in one request reads the same instant wherever it
 * appears (query, aggregations, sort values), as Elasticsearch does. The domain never reads the wall clock itself: the
 * caller hands in its clock.
 */
public final class Now {
    private static final long UNSET = Long.MIN_VALUE;

    private Now() {
    }

    /** A supplier that reads {@code clock} (epoch millis) on its first call only, and returns that value after. */
    public static LongSupplier once(LongSupplier clock) {
        return new LongSupplier() {
            private volatile long value = UNSET;

            @Override
            public long getAsLong() {
                long v = value;
                if (v == UNSET) {
                    synchronized (this) {
                        v = value;
                        if (v == UNSET) {
                            v = clock.getAsLong();
                            value = v;
                        }
                    }
                }
                return v;
            }
        };
    }
}
