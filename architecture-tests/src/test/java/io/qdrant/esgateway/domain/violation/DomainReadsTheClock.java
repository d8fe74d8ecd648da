package io.qdrant.esgateway.domain.violation;

/** A domain type that reads the wall clock itself. */
class DomainReadsTheClock {
    long now() {
        return System.currentTimeMillis();
    }
}
