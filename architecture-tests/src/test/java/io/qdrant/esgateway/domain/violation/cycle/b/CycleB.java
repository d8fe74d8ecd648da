package io.qdrant.esgateway.domain.violation.cycle.b;

/** The other end of a package cycle. */
public class CycleB {
    io.qdrant.esgateway.domain.violation.cycle.a.CycleA other;
}
