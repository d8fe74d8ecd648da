package io.qdrant.esgateway.application.port.in.violation;

/** An in-port that exposes an out-port. */
interface InPortKnowsAnOutPort {
    io.qdrant.esgateway.application.port.out.Catalog catalog();
}
