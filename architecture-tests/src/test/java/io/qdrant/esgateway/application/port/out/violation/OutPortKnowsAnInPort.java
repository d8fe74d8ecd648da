package io.qdrant.esgateway.application.port.out.violation;

/** An out-port that calls back into a use case. */
interface OutPortKnowsAnInPort {
    void searchWith(io.qdrant.esgateway.application.port.in.SearchOperations search);
}
