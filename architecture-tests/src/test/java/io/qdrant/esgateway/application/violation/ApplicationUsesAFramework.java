package io.qdrant.esgateway.application.violation;

/** An application type that holds a Lucene type. */
class ApplicationUsesAFramework {
    org.apache.lucene.util.BytesRef value;
}
