package io.qdrant.esgateway.domain.violation.cycle.a;

/** One end of a package cycle. */
public class CycleA {
    io.qdrant.esgateway.domain.violation.cycle.b.CycleB other;
}
