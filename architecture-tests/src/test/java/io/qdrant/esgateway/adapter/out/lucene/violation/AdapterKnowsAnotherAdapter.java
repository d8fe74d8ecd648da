package io.qdrant.esgateway.adapter.out.lucene.violation;

/** One out-adapter depending on another. */
class AdapterKnowsAnotherAdapter {
    io.qdrant.esgateway.adapter.out.qdrant.QdrantStores stores;
}
