package io.qdrant.esgateway.domain.violation;

/** A domain type that reaches into the composition root. */
class DomainKnowsBootstrap {
    io.qdrant.esgateway.bootstrap.Main main;
}
