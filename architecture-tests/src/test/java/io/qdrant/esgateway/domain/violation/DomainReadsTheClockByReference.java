package io.qdrant.esgateway.domain.violation;

import java.util.function.LongSupplier;

/** A domain type that hands the wall clock on as a method reference. */
class DomainReadsTheClockByReference {
    LongSupplier clock() {
        return System::currentTimeMillis;
    }
}
