package io.qdrant.esgateway.domain.violation;

/** A domain type that holds a Lucene type. */
class DomainUsesAFramework {
    org.apache.lucene.util.BytesRef value;
}
