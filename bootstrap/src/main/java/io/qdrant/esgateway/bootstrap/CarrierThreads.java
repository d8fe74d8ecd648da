package io.qdrant.esgateway.bootstrap;

/**
 * How many platform threads carry the gateway's virtual threads. The JDK's default is one per processor, and a virtual
 * thread runs until it blocks: a request that computes for milliseconds (an aggregation, a scored page) keeps a
 * carrier to itself while cheaper requests queue behind it. Twice the processors lets the operating system share
 * the CPUs between twice as many requests in flight, as Elasticsearch's search pool (1.5 × processors + 1) does.
 * Set before the first virtual thread exists (the scheduler reads it once); an explicit
 * {@code -Djdk.virtualThreadScheduler.parallelism} wins.
 */
final class CarrierThreads {
    static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

    private CarrierThreads() {
    }

    /** Sets the parallelism to twice {@code processors} unless it was given; returns the value in effect. */
    static int configure(int processors) {
        String given = System.getProperty(PARALLELISM);
        if (given != null && !given.isBlank()) {
            return Integer.parseInt(given.trim());
        }
        int carriers = Math.max(2, 2 * processors);
        System.setProperty(PARALLELISM, Integer.toString(carriers));
        return carriers;
    }
}
