package io.qdrant.esgateway.bootstrap.violation;

import io.qdrant.esgateway.adapter.out.lucene.search.QueryTranslator;

/** Composition code that reaches past an adapter's factory into one of its internal packages. */
public class BootstrapUsesAnAdapterInternal {
    Class<?> internal() {
        return QueryTranslator.class;
    }
}
