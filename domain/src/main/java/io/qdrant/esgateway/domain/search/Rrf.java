package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.query.Query;
import java.util.List;
import java.util.Optional;

/**
 * Reciprocal rank fusion, as Elasticsearch 8.15 defines it ({@code retriever: {rrf: …}}, or the older
 * {@code rank: {rrf: …}} over the body's {@code query} and {@code knn} sections): each retriever runs on its own and
 * contributes its top {@code rankWindowSize} documents; a document's score is the float sum over the retrievers that
 * returned it of {@code 1 / (rankConstant + rank)} (ranks from 1); hits are ordered by that score (ties: the order in
 * which the retrievers first returned them) and carry {@code _rank}. {@code filter} applies to every retriever.
 */
public record Rrf(List<Retriever> retrievers, int rankWindowSize, int rankConstant, List<Query> filter) {
    public static final int DEFAULT_RANK_CONSTANT = 60;

    public Rrf {
        retrievers = List.copyOf(retrievers);
        filter = List.copyOf(filter);
    }

    /** One ranked list of the fusion. */
    public sealed interface Retriever {
        /** A query ({@code match_all} when absent) with optional non-scoring filters. */
        record Standard(Optional<Query> query, List<Query> filter) implements Retriever {
            public Standard {
                filter = List.copyOf(filter);
            }
        }

        /** A kNN search: its {@code k} nearest (at most the window). */
        record Knn(Query.Knn knn) implements Retriever {
        }
    }

    /** The fusion score of a document from its 1-based rank in each list that holds it, summed in float as ES. */
    public float score(List<Integer> ranks) {
        float score = 0f;
        for (int rank : ranks) {
            score += 1.0f / (rankConstant + rank);
        }
        return score;
    }
}
