package io.qdrant.esgateway.domain.aggregation;

import java.util.Set;

/**
 * Every key a {@code terms} aggregation with {@code min_doc_count: 0} can have in one index: the keys of all its
 * documents, whatever the query (ES lists each term of the field with {@code doc_count} 0). Looked up by the
 * aggregation's spec (identity).
 */
public interface KeyUniverse {
    KeyUniverse NONE = terms -> Set.of();

    Set<Object> keys(Aggregation.Terms terms);
}
