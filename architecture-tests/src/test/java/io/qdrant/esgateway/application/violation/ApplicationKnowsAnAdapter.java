package io.qdrant.esgateway.application.violation;

/** An application type that depends on an adapter. */
class ApplicationKnowsAnAdapter {
    io.qdrant.esgateway.adapter.out.qdrant.QdrantStores stores;
}
