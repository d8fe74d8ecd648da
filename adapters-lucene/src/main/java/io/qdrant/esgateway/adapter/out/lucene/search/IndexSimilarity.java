package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Similarities;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.search.similarities.BooleanSimilarity;
import org.apache.lucene.search.similarities.PerFieldSimilarityWrapper;
import org.apache.lucene.search.similarities.Similarity;

/**
 * The similarity an index's searches score with, field by field: the field's {@code similarity} (a name of the
 * index's {@code index.similarity.*} or a built-in), else the index's {@code default}, else Elasticsearch's BM25.
 * Both stores score through it (the embedded store's searcher and the gateway scoring of the Qdrant backend), so a
 * field scores alike on both. Norms do not depend on the choice (only BM25's {@code discount_overlaps: true} exists).
 */
final class IndexSimilarity extends PerFieldSimilarityWrapper {
    private static final Similarity DEFAULT = new EsBm25Similarity();
    private static final Map<String, Similarity> SHARED = new ConcurrentHashMap<>();
    private final IndexMetadata index;

    private IndexSimilarity(IndexMetadata index) {
        this.index = index;
    }

    /** The similarity of {@code index}'s fields (a field lookup per scored field and query). */
    static Similarity of(IndexMetadata index) {
        return new IndexSimilarity(index);
    }

    @Override
    public Similarity get(String name) {
        Optional<String> own = switch (index.mappings().field(name).orElse(null)) {
            case FieldMapping.TextField t -> t.similarity();
            case FieldMapping.KeywordField k -> k.similarity();
            case null, default -> Optional.empty();
        };
        Similarities similarities = index.settings().similarities();
        if (own.isEmpty() && similarities.isEmpty()) {
            return DEFAULT;
        }
        Similarities.Definition definition = similarities.resolve(own);
        return SHARED.computeIfAbsent(definition.scoringKey(), k -> definition.isBoolean() ? new BooleanSimilarity()
                : new EsBm25Similarity(definition.k1(), definition.b()));
    }
}
