package io.qdrant.esgateway.domain.violation;

/** A domain type that depends outwards, on a port of the application ring. */
class DomainKnowsTheApplication {
    io.qdrant.esgateway.application.port.in.SearchOperations search;
}
